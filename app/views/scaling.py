"""The window's zoom as the views see it: one scale factor for every pyqtgraph scene, read by
the column and view sizes (no numerics, no settings: :mod:`app.display` owns the View menu's
zoom, presentation mode and the saved value).

A pyqtgraph view is zoomed by drawing its scene magnified: :func:`install` makes every
``pg.GraphicsView`` lay its scene out in ``size / scale`` pixels and draw it ``scale`` times
larger, so that titles, axis labels, tick labels, legends, line widths, markers and thumbnails
grow together, exactly as if the fonts had grown and the plot had been drawn for them. Text in a
scene therefore stays at its unzoomed size: each view's own font is set to :func:`base_font`
(the application's font before any zoom), which the tick labels and text items without a size of
their own are drawn in.
"""
from __future__ import annotations

import weakref

import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["scale", "set_scale", "base_font", "install", "scaled", "watch_views", "unwatch_views",
           "hold_layout", "release_layout"]

_state = {"scale": 1.0, "base": None, "installed": False, "filters": []}
#: pyqtgraph views whose scene layout waits for :func:`release_layout`, and those of them resized
#: meanwhile (weak: a view deleted while held is simply forgotten)
_held: weakref.WeakSet = weakref.WeakSet()
_stale: weakref.WeakSet = weakref.WeakSet()


def _graphics_views(widget: QtWidgets.QWidget) -> list:
    """``widget`` itself if it is a pyqtgraph view, and the pyqtgraph views inside it."""
    inside = widget.findChildren(pg.GraphicsView)
    return [widget, *inside] if isinstance(widget, pg.GraphicsView) else inside


def hold_layout(widget: QtWidgets.QWidget) -> None:
    """Stop repainting ``widget`` and laying out the scenes of its pyqtgraph views until
    :func:`release_layout`: a resize meanwhile is remembered, not done. For a view about to be
    resized with many others in one relayout (a column shrinking for new columns: 6-12 views,
    ~1 ms of pyqtgraph's scene, axis and label work each, all in one event-loop turn), whose
    repaint waits for a turn of its own anyway (app.column's ``repaint_views_in_parts``)."""
    widget.setUpdatesEnabled(False)
    for view in _graphics_views(widget):
        _held.add(view)


def release_layout(widget: QtWidgets.QWidget) -> None:
    """Undo :func:`hold_layout`: the scenes resized while held are laid out at their new size,
    then ``widget`` is repainted."""
    for view in _graphics_views(widget):
        _held.discard(view)
        if view in _stale:
            _stale.discard(view)
            view.resizeEvent(None)
    widget.setUpdatesEnabled(True)


def watch_views(event_filter: QtCore.QObject) -> None:
    """Install ``event_filter`` on the viewport of every pyqtgraph view, those shown now and
    those laid out later (app.display's double-click: a filter per view rather than one on the
    whole application, which Python would run for every event of every object)."""
    if event_filter not in _state["filters"]:
        _state["filters"].append(event_filter)
    for widget in QtWidgets.QApplication.allWidgets():
        if isinstance(widget, pg.GraphicsView) and not getattr(widget, "closed", False):
            widget.viewport().installEventFilter(event_filter)


def scale() -> float:
    """The zoom of the window: 1 = unzoomed."""
    return _state["scale"]


def scaled(pixels: float) -> int:
    """``pixels`` (an unzoomed size) at the current zoom."""
    return int(round(pixels * _state["scale"]))


def base_font() -> QtGui.QFont:
    """The application's font before any zoom (captured on the first call)."""
    if _state["base"] is None:
        _state["base"] = QtGui.QFont(QtWidgets.QApplication.font())
    return QtGui.QFont(_state["base"])


def set_scale(value: float) -> None:
    """Zoom every pyqtgraph scene by ``value`` (relayout of each view shown now; views built later
    start zoomed)."""
    base_font()
    _state["scale"] = float(value)
    for widget in QtWidgets.QApplication.allWidgets():
        if isinstance(widget, pg.GraphicsView) and not getattr(widget, "closed", False):
            widget.resizeEvent(None)


def unwatch_views(event_filter: QtCore.QObject) -> None:
    """Undo :func:`watch_views` (views laid out later no longer get ``event_filter``)."""
    if event_filter in _state["filters"]:
        _state["filters"].remove(event_filter)


def _resize(self, ev=None):
    """``pg.GraphicsView.resizeEvent``, its scene laid out in ``size / scale`` pixels."""
    if self.closed:
        return
    if self in _held:                        # laid out when released (hold_layout)
        _stale.add(self)
        return
    if not self.testAttribute(QtCore.Qt.WA_SetFont):
        self.setFont(base_font())            # ticks and unsized texts: unzoomed, drawn magnified
        for event_filter in _state["filters"]:         # first layout of this view (see watch_views)
            self.viewport().installEventFilter(event_filter)
    if self.autoPixelRange:
        s = _state["scale"]
        self.range = QtCore.QRectF(0, 0, self.size().width() / s, self.size().height() / s)
    pg.GraphicsView.setRange(self, self.range, padding=0, disableAutoPixel=False)
    self.updateMatrix()


_update_matrix = pg.GraphicsView.updateMatrix


def _matrix(self, propagate=True):
    _update_matrix(self, propagate)
    s = _state["scale"]
    if self.autoPixelRange and s != 1.0:
        self.setTransform(QtGui.QTransform.fromScale(s, s))


def _unzoomed_fonts(init, fonts):
    """``init`` (a pyqtgraph item's ``__init__``), then the items' texts in :func:`base_font`:
    Qt gives a new text item the application's font, which is the zoomed one once the window is
    zoomed, and the scene then magnifies it a second time."""
    def __init__(self, *args, **kwargs):
        init(self, *args, **kwargs)
        fonts(self, base_font())
    return __init__


def install() -> None:
    """Make every ``pg.GraphicsView`` follow :func:`scale` and every pyqtgraph text start in
    :func:`base_font` (once per process)."""
    if _state["installed"]:
        return
    _state["installed"] = True
    base_font()
    pg.GraphicsView.resizeEvent = _resize
    pg.GraphicsView.updateMatrix = _matrix
    pg.AxisItem.__init__ = _unzoomed_fonts(pg.AxisItem.__init__, lambda a, f: (
        a.style.__setitem__("tickFont", a.style.get("tickFont") or f), a.label.setFont(f)))
    pg.LabelItem.__init__ = _unzoomed_fonts(pg.LabelItem.__init__, lambda t, f: t.item.setFont(f))
    pg.TextItem.__init__ = _unzoomed_fonts(pg.TextItem.__init__, lambda t, f: t.textItem.setFont(f))
