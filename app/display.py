"""Showing the window to a class (no numerics): the View menu's zoom, presentation mode and
"show large" of one view.

* **Zoom** (View ▸ Zoom in / Zoom out / Reset zoom, Ctrl+= / Ctrl+- / Ctrl+0) scales every
  text and thumbnail of the window by one factor from :data:`ZOOM_STEPS`: the application's font
  (every widget that has no font of its own), the fonts the window's widgets set themselves (bold
  method names, small references, style sheets' ``font-size``), the pyqtgraph scenes (drawn
  magnified, :mod:`app.views.scaling`: titles, axes, legends, thumbnails) and the columns' and
  views' minimum sizes (:func:`app.layout.follow_zoom`; columns that no longer fit scroll
  sideways). Widgets with a ``fit_to_font()`` method (a column's header) then refit. The factor
  is kept between runs in ``QSettings`` (key :data:`ZOOM_KEY`).
* **Presentation mode** (View ▸ Presentation mode, F11): full screen, the zoom
  :data:`PRESENTATION_ZOOM` times larger, no status bar and no Data dock; F11 or Esc restores
  all four as they were (the zoom kept between runs is the one outside presentation mode).
* **Show large**: double-clicking a view of a column or a workspace (or its right-click menu's
  "Show large") moves that view over the workspace, as large as the workspace; Esc (or the bar's
  Back button, or the same entry) puts it back in its place. The view is the same widget: it
  keeps drawing the column's frames while large.
"""
from __future__ import annotations

import re

from PySide6 import QtCore, QtGui, QtWidgets

from .layout import follow_zoom
from .views import View
from .views import scaling

__all__ = ["Display", "ZOOM_STEPS", "ZOOM_KEY", "PRESENTATION_ZOOM", "add_show_large_action"]

#: the zoom factors offered, smallest to largest (1 = the platform's own font size)
ZOOM_STEPS = (0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 1.8, 2.0, 2.4)
#: QSettings key of the zoom kept between runs
ZOOM_KEY = "display/zoom"
#: presentation mode multiplies the zoom by this (then the nearest step)
PRESENTATION_ZOOM = 1.25
_BASE_PT, _BASE_SHEET, _BASE_WIDTH = "rsl_base_pt", "rsl_base_sheet", "rsl_base_width"
#: a dock's width after a zoom: its minimum width times this
DOCK_ROOM = 1.06
_FONT_SIZE = re.compile(r"font-size:\s*([0-9.]+)pt")


def _nearest_step(value: float) -> float:
    return min(ZOOM_STEPS, key=lambda s: abs(s - value))


def _in_scene_view(widget: QtWidgets.QWidget) -> bool:
    """``widget`` is a pyqtgraph view or inside one (zoomed by its scene, not by its font)."""
    import pyqtgraph as pg
    w = widget
    while w is not None:
        if isinstance(w, pg.GraphicsView):
            return True
        w = w.parentWidget()
    return False


def _view_of(widget: QtWidgets.QWidget | None):
    """The registered view (:class:`app.views.View`) ``widget`` belongs to, or None."""
    while widget is not None:
        if isinstance(widget, View):
            return widget
        widget = widget.parentWidget()
    return None


class Display(QtCore.QObject):
    """The View menu's zoom, presentation mode and "show large" of ``window`` (a QMainWindow with
    ``tabs``, ``data_dock`` and a status bar); ``menu``: the View menu its actions join.
    ``settings``: where the zoom is kept (default: the application's QSettings)."""

    #: the zoom changed (its new factor)
    zoom_changed = QtCore.Signal(float)

    def __init__(self, window: QtWidgets.QMainWindow, menu: QtWidgets.QMenu,
                 settings: QtCore.QSettings | None = None):
        super().__init__(window)
        self.window = window
        self.settings = settings if settings is not None else QtCore.QSettings()
        self.zoom = 1.0
        self.presenting = False
        self._before_presenting: dict = {}
        self.large_view = None                  # the view shown large, or None
        self._large_place = None                # the widget keeping its place meanwhile
        self._overlay = None

        menu.addSeparator()
        self.presentation_action = menu.addAction("&Presentation mode", self.toggle_presentation)
        self.presentation_action.setCheckable(True)
        self.presentation_action.setShortcut(QtGui.QKeySequence("F11"))
        self.presentation_action.setToolTip("Full screen, larger text, no status bar and no Data panel (F11 or Esc)")
        self.zoom_in_action = menu.addAction("Zoom &in", self.zoom_in)
        self.zoom_in_action.setShortcuts([QtGui.QKeySequence("Ctrl+="), QtGui.QKeySequence("Ctrl++")])
        self.zoom_out_action = menu.addAction("Zoom &out", self.zoom_out)
        self.zoom_out_action.setShortcut(QtGui.QKeySequence("Ctrl+-"))
        self.reset_zoom_action = menu.addAction("&Reset zoom", lambda: self.set_zoom(1.0))
        self.reset_zoom_action.setShortcut(QtGui.QKeySequence("Ctrl+0"))
        self.escape = QtGui.QShortcut(QtGui.QKeySequence("Esc"), window, self.leave)
        self.escape.setEnabled(False)
        scaling.watch_views(self)             # double clicks on the views
        window.installEventFilter(self)

        saved = self.settings.value(ZOOM_KEY, 1.0)
        try:
            saved = float(saved)
        except (TypeError, ValueError):
            saved = 1.0
        if saved != 1.0:
            # once the window's first columns are built (they are added after the menus)
            QtCore.QTimer.singleShot(0, lambda: self.set_zoom(saved, save=False))

    # ------------------------------------------------------------------ zoom
    def zoom_in(self) -> None:
        self.set_zoom(next((s for s in ZOOM_STEPS if s > self.zoom + 1e-9), ZOOM_STEPS[-1]))

    def zoom_out(self) -> None:
        self.set_zoom(next((s for s in reversed(ZOOM_STEPS) if s < self.zoom - 1e-9), ZOOM_STEPS[0]))

    def set_zoom(self, value: float, save: bool = True) -> None:
        """Scale every text and thumbnail of the window by ``value`` (clamped to
        :data:`ZOOM_STEPS`' range); kept between runs unless ``save`` is False or the window is
        in presentation mode."""
        value = min(max(float(value), ZOOM_STEPS[0]), ZOOM_STEPS[-1])
        if save and not self.presenting:
            self.settings.setValue(ZOOM_KEY, value)
        if abs(value - self.zoom) < 1e-9:
            return
        old, self.zoom = self.zoom, value
        self._apply(old, value)
        self.zoom_changed.emit(value)

    def _apply(self, old: float, new: float) -> None:
        widgets = [w for w in self.window.findChildren(QtWidgets.QWidget) if not _in_scene_view(w)]
        # the unzoomed size of each font a widget set itself, read before the application's font
        # changes (a widget that follows the application font, e.g. the lesson panel, then refits
        # itself; it is given the same size below)
        own = [w for w in widgets if w.testAttribute(QtCore.Qt.WA_SetFont)]
        for w in own:
            if w.property(_BASE_PT) is None:
                w.setProperty(_BASE_PT, w.font().pointSizeF() / old)
        font = scaling.base_font()
        font.setPointSizeF(font.pointSizeF() * new)
        QtWidgets.QApplication.instance().setFont(font)
        for w in own:
            f = w.font()
            f.setPointSizeF(float(w.property(_BASE_PT)) * new)
            w.setFont(f)
        for w in widgets:
            sheet = w.property(_BASE_SHEET)
            if sheet is None and w.styleSheet():
                sheet = w.styleSheet()
                w.setProperty(_BASE_SHEET, sheet)
            if sheet:      # set again even without a font size: a styled widget keeps its old font
                w.setStyleSheet(_FONT_SIZE.sub(lambda m: f"font-size: {float(m.group(1)) * new:.2f}pt", sheet))
        for dock in self.window.findChildren(QtWidgets.QDockWidget):
            base = dock.property(_BASE_WIDTH)
            if base is None:
                base = dock.minimumWidth() / old
                dock.setProperty(_BASE_WIDTH, base)
            dock.setMinimumWidth(int(round(float(base) * new)))
        data = self.window.data_dock
        if data is not None and not data.isHidden():
            base = float(data.property(_BASE_WIDTH))
            self.window.resizeDocks([data], [int(round(base * new * DOCK_ROOM))], QtCore.Qt.Horizontal)
        scaling.set_scale(new)
        follow_zoom(self.window)
        for w in widgets:
            fit = getattr(w, "fit_to_font", None)
            if callable(fit):
                fit()

    # ------------------------------------------------------------------ presentation mode
    def toggle_presentation(self) -> None:
        self.set_presenting(not self.presenting)

    def set_presenting(self, on: bool) -> None:
        """Enter (``on``) or leave presentation mode."""
        win = self.window
        if on == self.presenting:
            self.presentation_action.setChecked(on)
            return
        dock = win.data_dock
        if on:
            self._before_presenting = {"zoom": self.zoom, "state": win.windowState(),
                                       "geometry": win.geometry(),
                                       "status": not win.statusBar().isHidden(),
                                       "dock": dock is not None and not dock.isHidden()}
            self.presenting = True
            win.statusBar().hide()
            if dock is not None:
                dock.hide()
            win.showFullScreen()
            self.set_zoom(_nearest_step(self.zoom * PRESENTATION_ZOOM), save=False)
        else:
            before = self._before_presenting
            self.presenting = False
            self.set_zoom(before.get("zoom", 1.0), save=False)
            win.statusBar().setVisible(before.get("status", True))
            if dock is not None and before.get("dock", True):
                dock.show()
            state = before.get("state", QtCore.Qt.WindowNoState)
            win.setWindowState(state)
            win.show()
            if "geometry" in before and not state & (QtCore.Qt.WindowMaximized | QtCore.Qt.WindowFullScreen):
                win.setGeometry(before["geometry"])
        self.presentation_action.setChecked(self.presenting)
        self._sync_escape()

    # ------------------------------------------------------------------ one view large
    def _workspace_area(self) -> QtWidgets.QWidget:
        return self.window.tabs or self.window.centralWidget()

    def enlarge(self, view) -> None:
        """Show ``view`` (a widget of a column or workspace) over the workspace, as large as it;
        another view shown large goes back first."""
        if self.large_view is view:
            return
        self.restore()
        parent = view.parentWidget()
        layout = parent.layout() if parent is not None else None
        if layout is None:
            return
        place = QtWidgets.QWidget()
        place.setSizePolicy(view.sizePolicy())
        place.setMinimumSize(view.minimumSize())
        for prop in ("rsl_min_height", "rsl_min_width"):
            if view.property(prop) is not None:
                place.setProperty(prop, view.property(prop))
        if layout.replaceWidget(view, place) is None:
            place.deleteLater()
            return
        area = self._workspace_area()
        overlay = QtWidgets.QFrame(area)
        overlay.setObjectName("largeView")
        overlay.setFrameShape(QtWidgets.QFrame.StyledPanel)
        overlay.setAutoFillBackground(True)
        lay = QtWidgets.QVBoxLayout(overlay)
        lay.setContentsMargins(6, 6, 6, 6)
        bar = QtWidgets.QHBoxLayout()
        title = getattr(type(view), "title", "") or type(view).__name__
        owner = self._owner_name(parent)
        label = QtWidgets.QLabel(f"<b>{title}</b>" + (f" · {owner}" if owner else ""))
        back = QtWidgets.QPushButton("Back (Esc)")
        back.setToolTip("Put the view back in its place")
        back.clicked.connect(self.restore)
        bar.addWidget(label, 1)
        bar.addWidget(back)
        lay.addLayout(bar)
        lay.addWidget(view, 1)
        view.show()
        overlay.setGeometry(area.rect())
        overlay.show()
        overlay.raise_()
        self._overlay, self.large_view, self._large_place = overlay, view, (layout, place)
        area.installEventFilter(self)
        self._sync_escape()

    @staticmethod
    def _owner_name(widget) -> str:
        while widget is not None:
            runner = getattr(widget, "runner", None)
            info = getattr(runner, "info", None)
            if info is not None and hasattr(widget, "index"):
                return f"column {widget.index + 1}: {info.name}"
            widget = widget.parentWidget()
        return ""

    def restore(self) -> None:
        """Put the view shown large back in its place (nothing if none is)."""
        view, overlay = self.large_view, self._overlay
        if view is None:
            return
        layout, place = self._large_place
        self.large_view = self._large_place = self._overlay = None
        overlay.layout().removeWidget(view)
        layout.replaceWidget(place, view)
        place.hide()
        place.deleteLater()
        overlay.hide()
        overlay.deleteLater()
        self._sync_escape()

    def toggle_large(self, view) -> None:
        """Show ``view`` large, or back in its place if it is the one shown large."""
        if self.large_view is view:
            self.restore()
        else:
            self.enlarge(view)

    # ------------------------------------------------------------------ Esc, double clicks
    def leave(self) -> None:
        """Esc: the view shown large goes back; else presentation mode ends."""
        if self.large_view is not None:
            self.restore()
        elif self.presenting:
            self.set_presenting(False)

    def _sync_escape(self) -> None:
        self.escape.setEnabled(self.large_view is not None or self.presenting)

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        kind = event.type()
        if kind == QtCore.QEvent.MouseButtonDblClick and isinstance(obj, QtWidgets.QWidget) \
                and QtWidgets.QWidget.window(obj) is self.window and event.button() == QtCore.Qt.LeftButton:
            view = _view_of(obj)
            if view is not None and view.enlargeable:
                self.toggle_large(view)
                return True
        elif kind == QtCore.QEvent.Resize and self._overlay is not None and obj is self._workspace_area():
            self._overlay.setGeometry(obj.rect())
        elif kind == QtCore.QEvent.Close and obj is self.window:
            self.restore()
            if self.zoom != 1.0:             # other windows of this process start unzoomed
                self._apply(self.zoom, 1.0)
                self.zoom = 1.0
            scaling.unwatch_views(self)
        return False


def add_show_large_action(view) -> None:
    """Add "Show large" to the right-click menu of ``view`` (it calls its window's
    ``display.toggle_large``)."""
    from .export import plot_view_box
    from .views.common import MenuOnDemandViewBox

    act = QtGui.QAction("Show large (double-click; Esc returns)", view)
    act.triggered.connect(lambda: _toggle(view))
    vb = plot_view_box(view)
    if isinstance(vb, MenuOnDemandViewBox):
        vb.add_actions([act])
    else:
        view.addAction(act)
        if view.contextMenuPolicy() != QtCore.Qt.ActionsContextMenu:
            view.setContextMenuPolicy(QtCore.Qt.ActionsContextMenu)
    view.show_large_action = act


def _toggle(view) -> None:
    top = QtWidgets.QWidget.window(view)
    display = getattr(top, "display", None)
    if display is None and top is not None:
        display = top.findChild(Display)
    if display is not None:
        display.toggle_large(view)
