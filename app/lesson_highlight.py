"""The lesson's "look here": a coloured frame over the view a lesson step names (``look_at``).

The frame is a child widget laid over the view (transparent to the mouse, resized with it), so
the views draw nothing of their own for it. A step's ``look_at`` is one of
:data:`core.lessons.LOOK_AT`: a registered view by its key, the view's ``name`` without ``_view``
(``"weights"`` → :class:`app.views.WeightsView`, ``"basis"``, ``"recon"``, ``"objective"``, …;
:data:`ALIASES` spell the others), or a part of a tab that is not a view (:data:`PARTS`: a
column's metrics, the playground's points and majorizer, the regression tab's test results).
"""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["HighlightFrame", "view_key", "matches", "targets", "highlight", "clear", "ALIASES", "PARTS"]

#: the frame's colour (the lesson panel's accent) and width (px, scaled with the font)
COLOR = QtGui.QColor(230, 120, 0)
WIDTH = 4
#: width of the frame drawn around a part that is not a view (a label), outside its edge (px)
MARGIN = 3


#: look_at keys spelled otherwise than the view's name
ALIASES = {"weight_maps": "weightmap", "scalars": "scalar"}
#: look_at keys that are parts of a tab, not views: (task, key) → attribute of a column (subspace)
#: or of the workspace
PARTS = {("subspace", "metrics"): "metrics_label", ("playground", "points"): "glw",
         ("playground", "weights"): "glw", ("playground", "majorizer"): "section",
         ("playground", "objective"): "section", ("regression", "regression"): "test_box",
         ("regression", "metrics"): "metrics_label"}


def view_key(cls) -> str:
    """The key a lesson names view class ``cls`` by: its ``name`` without ``_view``."""
    name = getattr(cls, "name", "") or ""
    return name[:-5] if name.endswith("_view") else name


def view_title(task: str, key: str) -> str:
    """The title of the registered view of ``task`` that ``key`` names ("" if none)."""
    from .views import for_task
    if task not in ("subspace", "regression"):
        return ""
    return next((cls.title for cls in for_task(task) if _matches_class(cls, key)), "")


def matches(view, key: str | None) -> bool:
    """``view`` is the one ``key`` names (its key or, case-blind, its title)."""
    return _matches_class(type(view), key)


def _matches_class(cls, key: str | None) -> bool:
    if not key:
        return False
    return ALIASES.get(key, key) in (view_key(cls), getattr(cls, "name", None)) or \
        key.casefold() == str(getattr(cls, "title", "")).casefold()


class HighlightFrame(QtWidgets.QWidget):
    """A frame drawn over ``target`` (a view: inside its edge), or around it (``outside``: a
    label, whose text the frame must not cover; then it is a child of the target's parent,
    :data:`MARGIN` px beyond its edge); it follows the target's size and place; mouse events
    pass through."""

    def __init__(self, target: QtWidgets.QWidget, outside: bool = False):
        host = target.parentWidget() if outside and target.parentWidget() is not None else target
        super().__init__(host)
        self.target, self.outside = target, host is not target
        self.setObjectName("lessonHighlight")
        self.setAttribute(QtCore.Qt.WA_TransparentForMouseEvents)
        self.setAttribute(QtCore.Qt.WA_NoSystemBackground)
        self.setFocusPolicy(QtCore.Qt.NoFocus)
        target.installEventFilter(self)
        self._place()
        self.show()

    def _place(self) -> None:
        t = self.target
        if self.outside:
            m = MARGIN
            self.setGeometry(t.geometry().adjusted(-m, -m, m, m))
            self.setVisible(t.isVisible())
        else:
            self.setGeometry(t.rect())
        self.raise_()

    def eventFilter(self, obj, event) -> bool:
        if obj is self.target and event.type() in (QtCore.QEvent.Resize, QtCore.QEvent.Move, QtCore.QEvent.Show,
                                                   QtCore.QEvent.Hide, QtCore.QEvent.ChildAdded):
            self._place()
        return False

    def paintEvent(self, event) -> None:
        p = QtGui.QPainter(self)
        width = MARGIN if self.outside else max(WIDTH, round(WIDTH * self.fontMetrics().height() / 16))
        pen = QtGui.QPen(COLOR, width)
        pen.setJoinStyle(QtCore.Qt.MiterJoin)
        p.setPen(pen)
        half = width / 2
        p.drawRect(QtCore.QRectF(self.rect()).adjusted(half, half, -half, -half))
        p.end()

    def release(self) -> None:
        """Remove the frame now."""
        self.target.removeEventFilter(self)
        self.setParent(None)
        self.deleteLater()


def _views(ws) -> list:
    """The views built in workspace ``ws`` (every column's, or the tab's)."""
    if ws.task == "subspace":
        return [v for c in ws.columns for v in c.view_list]
    from .views import View
    return [w for w in ws.findChildren(QtWidgets.QWidget) if isinstance(w, View)]


def targets(ws, key: str | None) -> list:
    """The widgets of ``ws`` that ``key`` names: a part (:data:`PARTS`, in every column) or views."""
    if not key:
        return []
    part = PARTS.get((ws.task, key))
    if part is not None:
        owners = ws.columns if ws.task == "subspace" else [ws]
        return [w for w in (getattr(o, part, None) for o in owners) if isinstance(w, QtWidgets.QWidget)]
    return [v for v in _views(ws) if matches(v, key)]


def highlight(ws, key: str | None) -> int:
    """Frame the widgets of ``ws`` that ``key`` names (and unframe the others); the number framed."""
    wanted = targets(ws, key)
    framed = {}
    for frame in ws.findChildren(HighlightFrame, "lessonHighlight"):
        if frame.target in wanted and frame.target not in framed:
            framed[frame.target] = frame
        else:
            frame.release()
    for widget in wanted:
        if widget not in framed:          # a label's or a group box's text must not be covered: framed around it
            HighlightFrame(widget, outside=isinstance(widget, (QtWidgets.QLabel, QtWidgets.QGroupBox)))
    if hasattr(ws, "bring_into_view"):      # a tab whose views scroll: show the framed part
        ws.bring_into_view(wanted[0] if wanted else None)
    return len(wanted)


def clear(ws) -> None:
    """Remove every frame from the views of ``ws``."""
    highlight(ws, None)
