"""One method column: its header (method choice and parameters, :mod:`app.column_header`), its
views, and an iteration scrubber.

Controls are built from ``core.catalogue``: the method combo lists ``catalogue.methods()``; the
parameter tree and the slider come from the chosen ``MethodInfo.params``. A change of method or
parameter is applied after a short pause (so that dragging a slider does not restart the solver
for every pixel) and resets the column to iteration 0 with the new setting.
"""
from __future__ import annotations

import html
import math

from PySide6 import QtCore, QtWidgets


from . import params as P
from .column_header import ColumnHeader
from .runner import STATUS_TIP, ColumnRunner
from .scrubbing import FollowsIterations
from .display import add_show_large_action
from .export import add_view_actions
from .layout import share_by_stretch
from .views import for_task, keep_scenes_active
from .views import scaling
from .views.scaling import scaled

#: minimum height of a view, per area: room for its title, axis labels and ticks, and (bottom)
#: reconstruction thumbnails of at least 48 px. A window too low for them (1280 × 720: about 300
#: px left for the views) scrolls the columns vertically rather than shrinking the views until
#: their text is cut and the thumbnails are 12 px (app.text_fit measures it)
VIEW_MIN_HEIGHT = {"side": 150, "curves": 150, "bottom": 280}
#: the smallest reconstruction thumbnail (px, unzoomed) a class reads: a column too narrow for it
#: beside the basis images stacks its bottom views (:meth:`MethodColumn.place_bottom`)
MIN_THUMBNAIL = 48
#: the least width (px, unzoomed) of a bottom view beside the reconstructions (basis images)
BOTTOM_MIN_WIDTH = 100


def view_classes() -> list:
    """The view classes of a method column: the registry's views of task "subspace"."""
    return for_task("subspace")

__all__ = ["MethodColumn"]


def _area(cls, areas) -> str:
    """The area of the column where views of class ``cls`` go."""
    return cls.area if cls.area in areas else "bottom"


#: ms to wait after the last parameter change before restarting the column
APPLY_DELAY_MS = 150
#: views a frame-timer call draws (:meth:`MethodColumn.refresh`); a view's redraw and paint take 2–6 ms
#: quiet, 10–20 ms while solvers run. One, not two: bench_gui's folder opening 36–39 instead of 51–53 ms
#: longest gap (a part and its paints share an event-loop turn), the first frame at 96 × 96 no later.
VIEWS_PER_TICK = 1


class MethodColumn(FollowsIterations, ColumnHeader, QtWidgets.QFrame):
    """A column of the main window. ``refresh()`` (called by the window's frame timer) redraws
    only if something changed since the last frame."""

    #: (column, iteration) after a redraw; used by the benchmark and the tests
    drawn = QtCore.Signal(object, int)
    #: (column, text): a message for the status bar
    status = QtCore.Signal(object, str)
    #: a request to be removed from the window
    close_requested = QtCore.Signal(object)

    def __init__(self, pool: QtCore.QThreadPool, key: str, params: dict | None = None,
                 delay=None, index: int = 0, parent=None, build_queue=None, ui_queue=None, view_pool=None):
        super().__init__(parent)
        # ``build_queue`` (an app.ui_queue.UiQueue): the views are built there, one job each,
        # after the constructor returns (a column added to a shown window: building all its views
        # at once holds the GUI thread 100–250 ms); reading ``column.<view name>`` builds that
        # view at once. None: all built in the constructor.
        self._build_queue = build_queue
        self._view_pool = view_pool       # an app.view_pool.ViewPool: views built ahead, or None
        # ``ui_queue``: the queue of the later GUI jobs (repaints in parts), the build queue if None
        self._ui_queue = ui_queue if ui_queue is not None else build_queue
        self.setFrameShape(QtWidgets.QFrame.StyledPanel)
        self.setObjectName("MethodColumn")
        self.index = index
        self.runner = ColumnRunner(pool, key, params, delay=delay, parent=self)
        self.runner.message.connect(self._on_message)
        self.runner.reverted.connect(self._sync_controls)
        self.runner.adjusted.connect(self._on_adjusted)
        self.runner.measured.connect(self._on_measured)
        self._drawn_key = None            # (runner.version, shown index) of the last frame
        self._follow = True               # scrubber at the end: show the newest state
        self.shown_index = -1
        self.shown_snapshot = None
        self._to_draw: list = []           # views still to draw the frame's snapshot (refresh)
        self._frame = (None, -1, 0)         # (snapshot, index, states) of the frame being drawn
        self.frames = 0

        self._apply_timer = QtCore.QTimer(self)
        self._apply_timer.setSingleShot(True)
        self._apply_timer.setInterval(APPLY_DELAY_MS)
        self._apply_timer.timeout.connect(self.apply_params)

        self._build()
        if self._build_queue is None:
            self._sync_controls()
        else:           # the controls (the parameter tree a row per job), then each view: a job each
            queue = self._build_queue
            queue.post(lambda: self._sync_controls(queue), owner=self)
            for _ in self._deferred_views:
                queue.post(self._build_next_view, owner=self)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        outer = QtWidgets.QVBoxLayout(self)
        outer.setContentsMargins(6, 6, 6, 6)
        outer.setSpacing(4)

        outer.addLayout(self._build_header())

        self.message_label = QtWidgets.QLabel("")
        self.message_label.setObjectName("messageLabel")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(
            "QLabel { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0;"
            " border-radius: 3px; padding: 4px; }")
        self.message_label.setVisible(False)
        outer.addWidget(self.message_label)

        # views: one of each registered view of task "subspace", placed by its area; a view is
        # shown when it has something to show (``View.shows(snapshot)``). Building a view holds
        # the GUI thread 20–100 ms (pyqtgraph items): those hidden until a snapshot asks for them
        # (weight maps, loadings, 2-D scatter) are built only then (or when ``column.<name>`` is read)
        self.view_list: list = []
        self._view_order = {cls: i for i, cls in enumerate(view_classes())}
        self._pending_views: list = [cls for cls in self._view_order if not cls.default_visible]
        self._deferred_views: list = [cls for cls in self._view_order if cls.default_visible] \
            if self._build_queue is not None else []
        self._areas = {"side": QtWidgets.QVBoxLayout(), "curves": QtWidgets.QVBoxLayout(),
                       "bottom": QtWidgets.QHBoxLayout()}
        for lay in self._areas.values():
            lay.setSpacing(2)
            lay.setContentsMargins(0, 0, 0, 0)
        # a view built later by the queue has its place kept meanwhile: the layout does not
        # change when it comes, so the column's other views are not resized and repainted too
        self._places: dict = {}
        for cls in self._view_order:
            if cls.default_visible and self._build_queue is None:
                self._make_view(cls)
            elif cls in self._deferred_views:
                place = QtWidgets.QWidget()
                share_by_stretch(place, VIEW_MIN_HEIGHT.get(cls.area, 100) + cls.min_extra)
                self._places[cls] = place
                self._areas[_area(cls, self._areas)].addWidget(place, cls.stretch)
        top = QtWidgets.QHBoxLayout()
        top.setSpacing(4)
        top.addLayout(self._areas["side"], 1)
        top.addLayout(self._areas["curves"], 1)
        grid = QtWidgets.QVBoxLayout()
        grid.setSpacing(4)
        grid.addLayout(top, 5)
        grid.addLayout(self._areas["bottom"], 4)
        self._grid = grid
        outer.addLayout(grid, 1)

        # scrubber
        scrub = self._build_scrubber()
        outer.addLayout(scrub)
        self.fit_to_font()


    def place_bottom(self) -> None:
        """The bottom views side by side when the reconstructions get the width of thumbnails
        :data:`MIN_THUMBNAIL` px wide and the others (basis images, …) still
        :data:`BOTTOM_MIN_WIDTH` px each; else one above the other across the whole column (three
        columns beside the lesson panel at 1280 px: thumbnails 40 px wide beside 126 px of basis
        images): a narrow column grows taller (it scrolls) rather than shrink them."""
        bottom = self._areas["bottom"]
        recon = self.__dict__.get("recon_view")
        shown = [v for v in self.view_list if _area(type(v), self._areas) == "bottom" and not v.isHidden()]
        stacked, need = False, 0
        if recon is not None and not recon.isHidden() and len(shown) > 1:
            margins = self.layout().contentsMargins()
            width = self.width() - 2 * self.frameWidth() - margins.left() - margins.right()
            need = math.ceil(recon.width_for_tile(scaled(MIN_THUMBNAIL)))
            rest = width - need - bottom.spacing() * (len(shown) - 1)
            # stacked, the column is taller and may make the columns scroll, which narrows it by
            # a scroll bar's share: it goes back side by side only with a few px more to spare
            least = scaled(BOTTOM_MIN_WIDTH) + (scaled(8) if bottom.direction() == QtWidgets.QBoxLayout.TopToBottom else 0)
            stacked = rest < least * (len(shown) - 1)
        if recon is not None:
            recon.setMinimumWidth(0 if stacked else need)
        direction = QtWidgets.QBoxLayout.TopToBottom if stacked else QtWidgets.QBoxLayout.LeftToRight
        if bottom.direction() != direction:
            bottom.setDirection(direction)
            self._grid.setStretchFactor(bottom, 4 * len(shown) if stacked else 4)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self.place_bottom()

    # ------------------------------------------------------------------ views, built when needed
    @property
    def views_pending(self) -> bool:
        """Views shown by default are still being built (``build_queue``)."""
        return bool(self._deferred_views)

    def _build_next_view(self) -> None:
        """Build the next deferred view and draw the snapshot shown into it (not the others:
        they are drawn already); the rest follow in later event-loop turns."""
        if not self._deferred_views:
            return
        view = self._make_view(self._deferred_views[0], redraw=False)
        if self._drawn_key is not None:       # else the first frame, still to come, draws it
            self._build_queue.post(lambda: self._draw_new_view(view), owner=self)

    def _draw_new_view(self, view) -> None:
        """Draw the snapshot shown into ``view``, built after it was drawn (a job of its own)."""
        snap = self._frame[0]
        if snap is not None:
            view.setVisible(bool(view.shows(snap)))
            if not view.isHidden():
                view.show_snapshot(snap)

    def _make_view(self, cls, redraw: bool = True):
        """Build the view of class ``cls`` (hidden unless it is shown by default) and place it in
        its area, in registry order; the next frame draws it (``redraw``: the whole column again)."""
        if cls in self._pending_views:
            self._pending_views.remove(cls)
        if cls in self._deferred_views:
            self._deferred_views.remove(cls)
        view = keep_scenes_active((self._view_pool.take(cls) if self._view_pool is not None else None) or cls())
        if cls.name:
            setattr(self, cls.name, view)
        share_by_stretch(view, VIEW_MIN_HEIGHT.get(cls.area, 100) + cls.min_extra)
        area = _area(cls, self._areas)
        order = self._view_order[cls]
        before = [v for v in self.view_list if self._view_order[type(v)] < order]
        place = self._places.pop(cls, None)
        if place is not None:                 # the place kept for it (see _build)
            self._areas[area].replaceWidget(place, view)
            place.hide()
            place.deleteLater()
        else:
            placed = {type(v) for v in before} | set(self._places)
            index = sum(1 for c in placed if self._view_order[c] < order and _area(c, self._areas) == area)
            self._areas[area].insertWidget(index, view, cls.stretch)
        # shown once placed (a widget shown before it has a parent opens a window of its own:
        # laid out and drawn at a default size first, 2-6 ms more per view)
        view.setVisible(cls.default_visible)
        self.view_list.insert(len(before), view)
        add_view_actions(view, self)
        add_show_large_action(view)
        if redraw:
            self._drawn_key = None
        return view

    def __getattr__(self, name: str):
        # ``column.weightmap_view`` etc. of a view not built yet: build it now
        for cls in (*self.__dict__.get("_pending_views", ()), *self.__dict__.get("_deferred_views", ())):
            if cls.name == name:
                return self._make_view(cls)
        raise AttributeError(f"{type(self).__name__!s} has no attribute {name!r}")

    # ------------------------------------------------------------------ controls
    @property
    def key(self) -> str:
        return self.runner.key

    def param_group(self):
        """The pyqtgraph Parameter group of the shown method (for tests and scripts)."""
        if self._group is None:           # its build-queue job has not run yet
            self._sync_controls()
        return self._group

    def set_method(self, key: str, params: dict | None = None, queue=None, keep_current: bool = True) -> bool:
        """Use method ``key`` with ``params`` over its defaults (as the method combo and the
        parameter tree would; ``keep_current``: see :meth:`Runner.set_method`); False, with the
        reason shown, when a value is refused. ``queue`` (an app.ui_queue.UiQueue): the controls
        follow as a job there (a parameter tree takes 5–15 ms to build)."""
        self._apply_timer.stop()
        ok = self.runner.set_method(key, params, keep_current=keep_current)
        if queue is None:
            self._sync_controls()
        else:
            queue.post(lambda: self._sync_controls(queue), owner=self)
        return ok

    def _on_method_combo(self, index: int) -> None:
        if self._syncing or index < 0:
            return
        self._apply_timer.stop()
        key = self.method_combo.itemData(index)
        if key is None:                   # a family header (not selectable)
            self._sync_controls()
            return
        if key == self.runner.setting()[0].key:
            return
        self.runner.set_method(key)
        self._sync_controls()
        self.status.emit(self, f"Column {self.index + 1}: {self.runner.setting()[0].name}")

    def _on_param_changed(self, group, changes) -> None:
        if self._syncing:
            return
        if any(change == "value" for _, change, _ in changes):
            self._apply_timer.start()

    def apply_params(self) -> None:
        """Apply the parameter controls now (normally called after a short pause)."""
        self._apply_timer.stop()
        if self._group is None:
            return
        self.runner.set_params(P.group_values(self._group))

    def _on_adjusted(self, text: str) -> None:
        self._sync_controls()
        self.status.emit(self, f"{self.runner.info.name} (column {self.index + 1}): {text} for this data")

    def _on_message(self, text: str) -> None:
        self.message_label.setText(text)
        if self.message_label.isHidden() == bool(text):      # the views move: shrink or grow
            self.repaint_views_in_parts()
            self.message_label.setVisible(bool(text))
        if text:
            self.status.emit(self, f"{self.runner.info.name} (column {self.index + 1}): {text}")

    # ------------------------------------------------------------------ drawing
    def repaint_views_in_parts(self) -> None:
        """The views are about to be resized (a relayout of the column): repaint them
        :data:`VIEWS_PER_TICK` per event-loop turn, as jobs of the build queue, rather than all at
        once after the relayout (a column's views, 4-5 ms each, and every column's when the data
        change: 50-90 ms of GUI time in one turn). Until its job a view keeps no pixels (the
        column's background shows) and its scene is laid out at its new size only then
        (:func:`app.views.scaling.hold_layout`: ~1 ms per view, 10-17 ms of the 6-column preset's
        relayout). Nothing without a queue or when the column is hidden."""
        if self._ui_queue is None or not self.isVisible():
            return
        views = [v for v in self.views() if v.updatesEnabled()]
        for i in range(0, len(views), VIEWS_PER_TICK):
            part = views[i:i + VIEWS_PER_TICK]
            for view in part:
                scaling.hold_layout(view)
            self._ui_queue.post(lambda p=part: [scaling.release_layout(v) for v in p],
                                owner=self, end_turn=True)

    def refresh(self, force: bool = False, budget: int | None = None) -> bool:
        """Redraw if the runner or the scrubber changed since the last frame. Returns True if
        something was drawn.

        ``budget``: draw at most that many views now and the rest of the frame on the next calls
        (the window's frame timer passes :data:`VIEWS_PER_TICK`, so that the repaint of a whole
        column, 25–45 ms after new data, never holds the event loop at once). The texts,
        ``shown_snapshot`` and the ``drawn`` signal come with the frame's last part. None: all
        at once."""
        if self._to_draw and not force:
            self._draw_part(budget)
            return True
        states = self.runner.states
        n = len(states)
        index = self._sync_scrubber()
        key = (self.runner.version, index)
        if key == self._drawn_key and not force:
            return False
        self._drawn_key = key
        snap = self.runner.snapshot(index) if n else None
        self._frame = (snap, index, n)
        self._choose_views(snap)
        self._to_draw = self.views()
        self._draw_part(None if force else budget)
        return True

    def _draw_part(self, budget: int | None) -> None:
        """Draw the frame's snapshot into its next ``budget`` views (all if None); after the last
        one, the texts, and the frame is the one shown."""
        todo = self._to_draw
        part = todo if budget is None else todo[:budget]
        self._to_draw = [] if budget is None else todo[budget:]
        snap, index, n = self._frame
        for view in part:
            if not view.isHidden():
                view.show_snapshot(snap)
        if not self._to_draw:
            self.shown_index = index
            self.shown_snapshot = snap
            self._draw_text(snap, n)
            self.frames += 1
            self.drawn.emit(self, -1 if snap is None else snap.iteration)

    @property
    def drawing(self) -> bool:
        """A frame is partly drawn: :meth:`refresh` draws its next part."""
        return bool(self._to_draw)

    def views(self) -> list:
        """The views drawing the snapshot now (the others are hidden or not built)."""
        return [v for v in self.view_list if not v.isHidden()]

    def _choose_views(self, snap) -> None:
        """Show each view that has something to show for ``snap`` (``view.shows``), hide the
        others: 2-D data gets the scatter instead of images, data with few features the loadings
        heat map, methods with per-entry weights the weight maps. A view not built yet is built
        when ``snap`` is one it shows (``shows`` is a static method of the view class)."""
        if snap is None:
            return
        for cls in list(self._pending_views):
            if cls.shows(snap):
                self._make_view(cls)
        for view in self.view_list:
            want = bool(view.shows(snap))
            if view.isHidden() == want:
                view.setVisible(want)
        self.place_bottom()

    def _draw_text(self, snap, n: int) -> None:
        if snap is None:
            self.iteration_label.setText("iteration –")
            self.error_label.setText("")
            self.metrics_label.setText("")
            self.scalars_label.setText("starting…" if self.runner.busy and not self.runner.error else "")
            self.collapse_note.draw(None)
            self.scrub_label.setText("")
            return
        self.iteration_label.setText(self.runner.status_line(snap.iteration))
        if self.iteration_label.toolTip() != STATUS_TIP:
            self.iteration_label.setToolTip(STATUS_TIP)
        self._measures_text.draw(snap)
        parts = [f"objective = {snap.objective:.6g}"]     # 8 pt, "  ·  ": three lines in 316 px (TC-NMF)
        parts += [f"{html.escape(str(k))} = {P.format_value(v) if not isinstance(v, float) else f'{v:.4g}'}"
                  for k, v in snap.scalars.items()]
        self.scalars_label.setText("  ·  ".join(parts))
        self.collapse_note.draw(snap)
        live = "live" if self._follow else "past"
        self.scrub_label.setText(f"{self.shown_index} / {n - 1} ({live})")
        self.live_button.setEnabled(not self._follow)

    def follow_live(self) -> None:
        """As the scrubber's, but a column that shows the newest state already only redraws its
        texts (Run and Step call this: a whole frame, 13-25 ms of GUI time, took the core the
        first step needed)."""
        n = len(self.runner.states)
        if self._follow and n and not self.drawing and self._drawn_key == (self.runner.version, n - 1):
            self._draw_text(self.shown_snapshot, n)
        else:
            super().follow_live()

    def _on_measured(self, iteration: int) -> None:
        """The runner has the measures of ``iteration``: the frame being drawn, or the one shown,
        takes them."""
        snap, index, n = self._frame
        if snap is not None and snap.iteration == iteration and not snap.measured:
            self._frame = (self.runner.snapshot(index), index, n)
        shown = self.shown_snapshot
        if not self._to_draw and shown is not None and shown.iteration == iteration and not shown.measured:
            self.shown_snapshot = self.runner.snapshot(self.shown_index)
            self._measures_text.draw(self.shown_snapshot)

    # ------------------------------------------------------------------ lifecycle
    def shutdown(self) -> None:
        self._apply_timer.stop()
        for queue in {self._build_queue, self._ui_queue} - {None}:
            queue.discard(self)
        self.runner.shutdown()
