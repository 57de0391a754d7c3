"""Size policies of the method columns and their views (no numerics).

Columns, the places a preset keeps for its columns, views and the places a column keeps for its
views share their space by stretch (``QSizePolicy.Ignored``), not by size hints: a column's and
a pyqtgraph view's size hints change as its views are built, and the layout then resized and
repainted the views of every column with each view built (156 -> 172 -> 156 px wide while a
preset built its columns).
"""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from .views.scaling import scale

__all__ = ["share_by_stretch", "share_width_equally", "follow_zoom", "wrapped_height", "WrappedLabel",
           "ScrollRangesOnChange"]

#: widget properties holding the unzoomed minimum sizes (``follow_zoom`` scales them)
_MIN_HEIGHT, _MIN_WIDTH = "rsl_min_height", "rsl_min_width"


def share_by_stretch(widget: QtWidgets.QWidget, min_height: int) -> None:
    """A view (or the place kept for it): its area's space by its stretch, at least ``min_height``
    (unzoomed pixels: times the window's zoom, :mod:`app.views.scaling`)."""
    widget.setProperty(_MIN_HEIGHT, int(min_height))
    widget.setMinimumHeight(int(round(min_height * scale())))
    widget.setMinimumWidth(0)
    widget.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Ignored)


def share_width_equally(widget: QtWidgets.QWidget, min_width: int) -> None:
    """A column (or the place kept for it): an equal share of the width, at least ``min_width``
    (unzoomed pixels, as ``share_by_stretch``); more columns than fit scroll sideways."""
    widget.setProperty(_MIN_WIDTH, int(min_width))
    widget.setMinimumWidth(int(round(min_width * scale())))
    widget.setSizePolicy(QtWidgets.QSizePolicy.Ignored, widget.sizePolicy().verticalPolicy())


def follow_zoom(root: QtWidgets.QWidget) -> None:
    """The minimum sizes set by the two functions above, in ``root`` and below, at the current zoom."""
    for widget in [root, *root.findChildren(QtWidgets.QWidget)]:
        h, w = widget.property(_MIN_HEIGHT), widget.property(_MIN_WIDTH)
        if h is not None:
            widget.setMinimumHeight(int(round(int(h) * scale())))
        if w is not None:
            widget.setMinimumWidth(int(round(int(w) * scale())))



def wrapped_height(font: QtGui.QFont, texts, width: int, lines: int = 1, pad: int = 2) -> int:
    """Pixels high that each of ``texts``, word-wrapped at ``width`` px in ``font``, fits in, at
    least ``lines`` lines (``pad`` added): the fixed height of a label whose longest possible
    texts are known, so that it never cuts one and never changes height with the text shown."""
    fm = QtGui.QFontMetrics(font)
    need = lines * fm.lineSpacing()
    if width >= 40:
        box = QtCore.QRect(0, 0, int(width), 100000)
        need = max([need] + [fm.boundingRect(box, int(QtCore.Qt.TextWordWrap), t).height() for t in texts])
    return need + pad


class WrappedLabel(QtWidgets.QLabel):
    """A word-wrapped label that is never given less height than its text needs at its width now.

    A layout gives a wrapping label the height of its minimum size hint, worked out for no
    particular width, when the space is short (a dock's layout does not ask for height for width):
    the lesson panel's "Checked: …" line got one line of height for two. Its minimum height here
    follows its text, font and width."""

    def __init__(self, text: str = "", parent=None):
        super().__init__(text, parent)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event) -> None:
        super().changeEvent(event)
        if event.type() in (QtCore.QEvent.FontChange, QtCore.QEvent.StyleChange):
            self._fit()

    def _fit(self) -> None:
        need = self.heightForWidth(self.width()) if self.text() and self.width() > 0 else 0
        if need >= 0 and need != self.minimumHeight():
            self.setMinimumHeight(need)



class ScrollRangesOnChange(QtCore.QObject):
    """Let a scroll area redo its scroll bars after a relayout of its widget only when the
    widget's size constraints changed.

    Qt lays out a scroll area's children (scroll ranges, the scroll bars' places) at each layout
    request of the widget it scrolls, and raises the scroll bars' containers then, which repaints
    both bars. The columns' layout is activated at nearly every frame while methods run (a label's
    new text), so with the vertical bar shown the window repainted both bars with each frame:
    55 times in the six-column preset, 1.4 ms each for the vertical bar (benchmarks/bench_gui.py;
    Fusion style, 882 px high). The request is dropped when nothing the scroll bars depend on
    changed (the widget's size hints, minimum and maximum sizes and size policy); a resize of the
    viewport reaches the scroll area by its own event, which this leaves alone."""

    def __init__(self, area: QtWidgets.QScrollArea):
        super().__init__(area)
        self._area = area
        self._last: tuple | None = None
        area.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() == QtCore.QEvent.LayoutRequest:
            widget = self._area.widget()
            if widget is not None:
                key = (widget, widget.minimumSizeHint(), widget.sizeHint(), widget.minimumSize(),
                       widget.maximumSize(), widget.sizePolicy())
                if key == self._last:
                    return True
                self._last = key
        return False
