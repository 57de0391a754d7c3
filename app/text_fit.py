"""Which texts of a window do not fit where they are drawn (no numerics): the measure behind
"no text is clipped" (tests, ``benchmarks/screenshots.py``).

:func:`clipped_texts` walks every visible label, button and combo box of a window and every text
of its pyqtgraph views (titles and other ``LabelItem``s, axis labels, ``TextItem``s, legends) and
compares the room the text needs, measured with the font it is drawn in (so after any zoom,
:mod:`app.display`), with the rectangle it is drawn in:

* a ``QLabel``: its text laid out as the label lays it out (rich text, word wrap) against its
  contents rectangle; a label, button or combo box sticking out sideways of a scroll area that
  does not scroll sideways (a panel wider than its dock) is clipped too, and so is a combo box or
  button running past the right edge of a widget that holds it;
* a button: its text (and icon) against the style's contents rectangle of the button; a combo
  box: its current text against the style's edit field;
* a ``LabelItem`` (plot and image titles, captions, legend entries) and a ``TextItem`` (tile
  labels): the text's box (its document margins off) inside its item's rectangle, inside the
  ViewBox that holds it, and inside the part of the scene the view shows; tile labels of a view
  must not overlap each other;
* an axis label: inside its axis (the axis's length along it) and inside the part of the scene
  the view shows;
* axis tick labels (the numbers or names along an axis), laid out as pyqtgraph lays them out
  when it paints the axis: no two overlap, each lies inside the part of the scene the view
  shows, and none of the first-level ticks an axis was given by name (``setTicks``: a
  confusion matrix's classes, a colour bar's end values) is left out for want of room (pyqtgraph silently drops a tick text that does not fit
  its axis).

A text cut by an elision ("…") counts as clipped: what is compared is the whole text; except a
combo box that elides its text and gives the whole of it in its tooltip
(:class:`app.views.scalars.ElidingComboBox`): its elided text is what must fit.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["Clip", "clipped_texts", "describe"]

#: pixels a text may stick out of its room before it counts as clipped (anti-aliasing, rounding)
TOLERANCE = 1.0


@dataclass(frozen=True)
class Clip:
    """One text that does not fit: ``kind`` (``"QLabel"``, ``"title"``, ``"axis label"``…), the
    text (plain), the room it needs and the room it has (pixels, width × height), and where
    (the object names or classes of its widget and its parents)."""

    kind: str
    text: str
    need: tuple[float, float]
    room: tuple[float, float]
    where: str

    def __str__(self) -> str:
        return (f"{self.kind} {self.text!r}: needs {self.need[0]:.0f}×{self.need[1]:.0f} px, "
                f"has {self.room[0]:.0f}×{self.room[1]:.0f} ({self.where})")


_TAG = re.compile(r"<[^>]*>")


def _plain(text: str) -> str:
    """``text`` without HTML tags and entities, and without a mnemonic's '&'."""
    doc = QtGui.QTextDocument()
    doc.setHtml(text)
    return doc.toPlainText().strip()


def _where(widget: QtWidgets.QWidget) -> str:
    names = []
    w = widget
    while w is not None and len(names) < 4:
        names.append(w.objectName() or type(w).__name__)
        w = w.parentWidget()
    return " < ".join(names)


# ------------------------------------------------------------------ widgets
def _combo_text(combo: QtWidgets.QComboBox) -> str | None:
    """The text ``combo`` draws: its current text, or, for a combo that elides it (a
    ``shown_text()`` method: :class:`app.views.scalars.ElidingComboBox`), the elided text when its
    tooltip gives the whole text (a reader finds it there); None when it elides without."""
    shown = getattr(combo, "shown_text", None)
    if shown is None:
        return combo.currentText()
    text = shown()
    if text != combo.currentText() and combo.currentText() not in combo.toolTip():
        return None
    return text


def _label_need(label: QtWidgets.QLabel, width: float) -> tuple[float, float]:
    """(width, height) the label's text needs, laid out in ``width`` when it wraps."""
    text = label.text()
    rich = label.textFormat() == QtCore.Qt.RichText or (
        label.textFormat() == QtCore.Qt.AutoText and QtGui.Qt.mightBeRichText(text))
    if rich:
        doc = QtGui.QTextDocument()
        doc.setDocumentMargin(0)
        doc.setDefaultFont(label.font())
        doc.setHtml(text)
        if label.wordWrap():
            doc.setTextWidth(width)
            return min(doc.idealWidth(), width), doc.size().height()
        return doc.idealWidth(), doc.size().height()
    fm = label.fontMetrics()
    if label.wordWrap():
        r = fm.boundingRect(QtCore.QRect(0, 0, max(int(width), 1), 100000),
                            int(QtCore.Qt.TextWordWrap | label.alignment()), text)
        return float(r.width()), float(r.height())
    lines = text.split("\n")
    return (float(max(fm.horizontalAdvance(line) for line in lines)),
            float(fm.lineSpacing() * (len(lines) - 1) + fm.height()))


def _widget_clips(widget: QtWidgets.QWidget) -> Clip | None:
    if isinstance(widget, QtWidgets.QLabel):
        text = widget.text()
        if not text.strip() or widget.pixmap() is not None and not widget.pixmap().isNull():
            return None
        room = widget.contentsRect()
        m = widget.margin()
        w, h = room.width() - 2 * m - widget.indent() * 0, room.height() - 2 * m
        need = _label_need(widget, w)
        if need[0] > w + TOLERANCE or need[1] > h + TOLERANCE:
            return Clip("QLabel", _plain(text) if "<" in text else text, need, (w, h), _where(widget))
        return None
    style = widget.style()
    if isinstance(widget, QtWidgets.QComboBox):
        text = _combo_text(widget)
        if text is None:
            return Clip("QComboBox elided without its whole text in the tooltip", widget.currentText(),
                        (0.0, 0.0), (float(widget.width()), float(widget.height())), _where(widget))
        if not text:
            return None
        opt = QtWidgets.QStyleOptionComboBox()
        widget.initStyleOption(opt)
        field = style.subControlRect(QtWidgets.QStyle.CC_ComboBox, opt, QtWidgets.QStyle.SC_ComboBoxEditField,
                                     widget)
        need = float(widget.fontMetrics().horizontalAdvance(text))
        if not widget.itemIcon(widget.currentIndex()).isNull():
            need += widget.iconSize().width() + 4
        if need > field.width() + TOLERANCE:
            return Clip("QComboBox", text, (need, 0.0), (float(field.width()), float(field.height())),
                        _where(widget))
        return None
    if isinstance(widget, QtWidgets.QAbstractButton):
        text = widget.text().replace("&&", "\0").replace("&", "").replace("\0", "&")
        if not text.strip():
            return None
        need = float(widget.fontMetrics().horizontalAdvance(text))
        if not widget.icon().isNull():
            need += widget.iconSize().width() + 4
        if isinstance(widget, QtWidgets.QCheckBox):
            opt = QtWidgets.QStyleOptionButton()
            widget.initStyleOption(opt)
            room = style.subElementRect(QtWidgets.QStyle.SE_CheckBoxContents, opt, widget).width()
        elif isinstance(widget, QtWidgets.QRadioButton):
            opt = QtWidgets.QStyleOptionButton()
            widget.initStyleOption(opt)
            room = style.subElementRect(QtWidgets.QStyle.SE_RadioButtonContents, opt, widget).width()
        elif isinstance(widget, QtWidgets.QPushButton):
            opt = QtWidgets.QStyleOptionButton()
            widget.initStyleOption(opt)
            room = style.subElementRect(QtWidgets.QStyle.SE_PushButtonContents, opt, widget).width()
        else:                   # tool buttons: the button's rectangle less its frame
            room = widget.width() - 4
        if need > room + TOLERANCE:
            return Clip(type(widget).__name__, text, (need, 0.0), (float(room), float(widget.height())),
                        _where(widget))
    return None


# ------------------------------------------------------------------ pyqtgraph scenes
def _text_rect(item: QtWidgets.QGraphicsTextItem) -> QtCore.QRectF:
    """Scene rectangle of ``item``'s text (its document's margins off)."""
    m = item.document().documentMargin()
    return item.mapRectToScene(item.boundingRect().adjusted(m, m, -m, -m))


def _view_box(item) -> pg.ViewBox | None:
    p = item.parentItem()
    while p is not None:
        if isinstance(p, pg.ViewBox):
            return p
        p = p.parentItem()
    return None


def _fits(text: QtCore.QRectF, room: QtCore.QRectF) -> bool:
    return (text.left() >= room.left() - TOLERANCE and text.right() <= room.right() + TOLERANCE
            and text.top() >= room.top() - TOLERANCE and text.bottom() <= room.bottom() + TOLERANCE)


def _tick_texts(axis: pg.AxisItem) -> tuple[list[tuple[QtCore.QRectF, str]], int] | None:
    """(scene rectangle, text) of each tick label ``axis`` draws, as its ``paint`` lays them out
    (same painter font), and how many named ticks (``setTicks``) fall in its range (0 when the
    ticks are automatic); None when it draws no values."""
    if not axis.style.get("showValues", True) or axis.range is None:
        return None
    image = QtGui.QImage(4, 4, QtGui.QImage.Format_ARGB32)
    painter = QtGui.QPainter(image)
    try:
        if axis.style.get("tickFont"):
            painter.setFont(axis.style["tickFont"])
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    if specs is None:
        return None
    named = 0
    if axis._tickLevels:                  # the first level is always drawn (pyqtgraph: the others if not crowded)
        lo, hi = sorted(axis.range)
        named = len({v for v, text in axis._tickLevels[0] if lo <= v <= hi and str(text).strip()})
    return [(axis.mapRectToScene(rect), text) for rect, _, text in specs[2]], named


def _tick_clips(axis: pg.AxisItem, shown: QtCore.QRectF, where: str) -> list[Clip]:
    """Tick labels of ``axis`` that overlap, stick out of the view shown, or were left out."""
    laid = _tick_texts(axis)
    if laid is None:
        return []
    texts, named = laid
    out = []
    over = []
    for i, (a, ta) in enumerate(texts):
        if not _fits(a, shown):
            out.append(Clip("tick label", ta, (a.width(), a.height()), (shown.width(), shown.height()), where))
        for b, tb in texts[i + 1:]:
            inter = a.intersected(b)
            if inter.width() > TOLERANCE and inter.height() > TOLERANCE:
                over.append((a, ta, b, tb))
    if over:                              # one line per axis: the first pair, and how many more
        a, ta, b, tb = over[0]
        more = f" and {len(over) - 1} more pair(s)" if len(over) > 1 else ""
        out.append(Clip("overlapping tick labels", f"{ta} / {tb}{more}", (a.width(), a.height()),
                        (b.width(), b.height()), where))
    if named > len(texts):
        drawn = ", ".join(t for _, t in texts)
        out.append(Clip("tick labels left out", f"{named - len(texts)} of {named} (drawn: {drawn})",
                        (float(named), 0.0), (float(len(texts)), 0.0), where))
    return out


def _scene_clips(view: pg.GraphicsView) -> list[Clip]:
    scene = view.scene()
    if hasattr(scene, "prepareForPaint"):
        # what pyqtgraph does before it paints: a ViewBox resized (a view below the fold, never
        # painted since) brings its range and its texts' transforms up to date
        scene.prepareForPaint()
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    where = _where(view)
    out: list[Clip] = []
    tiles: list[tuple[QtCore.QRectF, str]] = []

    def check(kind: str, text_item, room: QtCore.QRectF):
        text = text_item.toPlainText().strip()
        if not text:
            return
        rect = _text_rect(text_item)
        room = room.intersected(shown)
        if not _fits(rect, room):
            out.append(Clip(kind, text, (rect.width(), rect.height()), (room.width(), room.height()), where))

    for item in view.scene().items():
        if not item.isVisible():
            continue
        if isinstance(item, pg.LabelItem):
            room = item.mapRectToScene(item.rect())
            vb = _view_box(item)
            if vb is not None:
                room = room.intersected(vb.mapRectToScene(vb.rect()))
            check("title" if item.parentItem() is not None and hasattr(item.parentItem(), "titleLabel")
                  and item.parentItem().titleLabel is item else "text", item.item, room)
        elif isinstance(item, pg.AxisItem):
            out.extend(_tick_clips(item, shown, where))
            label = item.label
            if label is None or not label.isVisible():
                continue
            nudge = 6.0
            room = item.mapRectToScene(item.rect().adjusted(-nudge, -nudge, nudge, nudge))
            check("axis label", label, room)
        elif isinstance(item, pg.TextItem):
            item.updateTransform()        # as painting does (a view scrolled out of sight is not painted)
            vb = _view_box(item)
            room = vb.mapRectToScene(vb.rect()) if vb is not None else shown
            check("text", item.textItem, room)
            if item.textItem.toPlainText().strip():
                tiles.append((_text_rect(item.textItem), item.textItem.toPlainText().strip()))
    for i, (a, ta) in enumerate(tiles):            # tile labels over each other are unreadable
        for b, tb in tiles[i + 1:]:
            inter = a.intersected(b)
            if inter.width() > TOLERANCE and inter.height() > TOLERANCE:
                out.append(Clip("overlapping text", f"{ta} / {tb}", (a.width(), a.height()),
                                (b.width(), b.height()), where))
    return out


def _shown(widget: QtWidgets.QWidget, top: QtWidgets.QWidget) -> bool:
    return widget.isVisibleTo(top) and widget.isVisible() and widget.width() > 0 and widget.height() > 0


def _cut_by_parent(widget: QtWidgets.QWidget, top: QtWidgets.QWidget) -> Clip | None:
    """``widget`` sticks out sideways of the viewport of a scroll area without a horizontal scroll
    bar (a dock's panel wider than the dock): the part outside is never seen. Sticking out of a
    viewport that scrolls, or at the top or bottom, is scrolling, not clipping."""
    parent = widget.parentWidget()
    while parent is not None and parent is not top:
        area = parent.parentWidget()
        if isinstance(area, QtWidgets.QAbstractScrollArea) and area.viewport() is parent:
            if area.horizontalScrollBarPolicy() != QtCore.Qt.ScrollBarAlwaysOff:
                return None
            text = (_combo_text(widget) or "") if isinstance(widget, QtWidgets.QComboBox) else widget.text()
            if not text.strip():
                return None
            r = QtCore.QRect(widget.mapTo(parent, QtCore.QPoint(0, 0)), widget.size())
            if isinstance(widget, QtWidgets.QLabel):       # the text from the label's left edge
                need = _label_need(widget, widget.contentsRect().width())[0] + widget.contentsMargins().left()
            else:                                          # frame, icon, arrow: about 24 px
                need = widget.fontMetrics().horizontalAdvance(text) + 24
            room = parent.width() - r.left()
            if r.left() < -TOLERANCE or need > room + TOLERANCE:
                return Clip(type(widget).__name__ + " cut by its panel", _plain(text) if "<" in text else text,
                            (float(need), float(r.height())), (float(room), float(r.height())), _where(widget))
            return None
        parent = parent.parentWidget()
    return None


def _cut_by_ancestor(widget: QtWidgets.QWidget, top: QtWidgets.QWidget) -> Clip | None:
    """A combo box or button running past the right edge of a widget that holds it (a second
    scalar combo wider than its chart): Qt clips a child to its parents, so the part outside is
    never seen. Up to the window, or the first scroll area's viewport (:func:`_cut_by_parent` judges that)."""
    if not isinstance(widget, (QtWidgets.QComboBox, QtWidgets.QAbstractButton)):
        return None
    text = (_combo_text(widget) or "") if isinstance(widget, QtWidgets.QComboBox) else widget.text().replace("&", "")
    if not text.strip():
        return None
    need = widget.fontMetrics().horizontalAdvance(text) + 24         # frame, icon, arrow: about 24 px
    right = float(widget.width())                                       # the widget's right edge seen
    parent = widget.parentWidget()
    while parent is not None:
        area = parent.parentWidget()
        if isinstance(area, QtWidgets.QAbstractScrollArea) and area.viewport() is parent:
            break
        x = widget.mapTo(parent, QtCore.QPoint(0, 0)).x()
        right = min(right, parent.width() - x)
        parent = None if parent is top else area
    if right < min(need, widget.width()) - TOLERANCE:
        return Clip(type(widget).__name__ + " cut by its parent", text, (float(need), float(widget.height())),
                    (right, float(widget.height())), _where(widget))
    return None


def clipped_texts(window: QtWidgets.QWidget) -> list[Clip]:
    """Every text of ``window`` (and of the widgets inside it) shown but not fitting its room;
    empty when every text fits. Lay the window out first (process the pending events)."""
    out: list[Clip] = []
    for widget in window.findChildren(QtWidgets.QWidget):
        if not _shown(widget, window):
            continue
        if isinstance(widget, QtWidgets.QMenu) or QtWidgets.QWidget.window(widget) is not window:
            continue
        if isinstance(widget, pg.GraphicsView):
            out.extend(_scene_clips(widget))
        elif isinstance(widget, (QtWidgets.QLabel, QtWidgets.QAbstractButton, QtWidgets.QComboBox)):
            clip = _widget_clips(widget) or _cut_by_parent(widget, window) or _cut_by_ancestor(widget, window)
            if clip is not None:
                out.append(clip)
    return out


def describe(clips: list[Clip]) -> str:
    """One line per clipped text (for a test's failure message or a script's report)."""
    return "\n".join(str(c) for c in clips) or "no clipped text"
