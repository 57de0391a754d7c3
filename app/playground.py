"""The 2-D playground tab: drag points in the plane and watch a robust line and its weights answer.

A view of :class:`core.playground.Playground` (issue 14, point 5). The left plot shows the points,
each drawn with its weight at the shown iteration as size and colour (colour bar "weight (0–1)",
log scale: the reweighted methods give weights spanning several decades), the points the user
marked as outliers ringed in red, the fitted line (solid) and the iteration-0 line (grey dashes).
The right plot shows the objective J(θ) and, for the reweighted methods, the majorizing surrogate
of the shown iteration on the cross-section through it (the line turned about its centre by θ).

Gestures (as the hint under the plot says):

* drag a point: the model refits from iteration 0 and steps to the shown iteration (or to the
  stopping rule if the run had reached it), synchronously: one refit of these few points takes a
  few milliseconds, so the view answers within the frame of the mouse move;
* click on empty space: add a point there, marked as an outlier;
* right-click (or Ctrl+click) a point: remove it.

The run controls (Step, Run, Pause, Reset) are those of :class:`app.workspace.Workspace`, so the
main window's toolbar drives this tab like the others; the tab has its own buttons too, and an
iteration slider as the method columns have.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from ..core.errors import DataError, ParameterError, SolverError
from ..core.playground import DEFAULT_METHOD, Playground, default_points, methods
from .views.common import wrapping_title
from .workspace import Workspace

__all__ = ["PlaygroundWorkspace", "weight_brushes", "weight_sizes"]

#: weights at or below this are drawn as the smallest, palest point (log colour scale from here to 1)
WEIGHT_FLOOR = 1e-3
SIZE_RANGE = (7.0, 22.0)
OUTLIER_PEN = pg.mkPen((220, 40, 40), width=2.5)
INLIER_PEN = pg.mkPen((60, 60, 60), width=1)
LINE_PEN = pg.mkPen((30, 90, 170), width=2.5)
START_PEN = pg.mkPen((150, 150, 150), width=1.5, style=QtCore.Qt.DashLine)
SURROGATE_PEN = pg.mkPen((200, 110, 20), width=2, style=QtCore.Qt.DashLine)
OBJECTIVE_PEN = pg.mkPen((30, 90, 170), width=2)
RUN_INTERVAL_MS = 120          # one iteration per tick while running, when the window gives no speed
_CMAP = pg.colormap.get("viridis")
#: colour and size levels of the weights (32 steps over three decades)
N_LEVELS = 32


def _level(w: np.ndarray) -> np.ndarray:
    """Weights in [0, 1] as integer levels 0..N_LEVELS, linear in log10 w from WEIGHT_FLOOR to 1
    (quantised, so that pyqtgraph's symbol atlas reuses its rendered symbols while dragging)."""
    lw = np.log10(np.clip(np.asarray(w, float), WEIGHT_FLOOR, 1.0))
    t = (lw - np.log10(WEIGHT_FLOOR)) / -np.log10(WEIGHT_FLOOR)
    return np.rint(t * N_LEVELS).astype(int)


def weight_sizes(w: np.ndarray) -> np.ndarray:
    """Symbol sizes (px) of weights in [0, 1]: linear in log10 w from WEIGHT_FLOOR to 1."""
    lo, hi = SIZE_RANGE
    return lo + (hi - lo) * _level(w) / N_LEVELS


_BRUSHES = [pg.mkBrush(c) for c in _CMAP.map(np.linspace(0.0, 1.0, N_LEVELS + 1), mode="qcolor")]


def weight_brushes(w: np.ndarray) -> list:
    """Brushes of weights in [0, 1] on the colour bar's map (viridis over log10 w)."""
    return [_BRUSHES[k] for k in _level(w)]


class _PointsItem(pg.ScatterPlotItem):
    """Scatter whose points can be dragged (left button) and removed (right-click, Ctrl+click)."""

    def __init__(self, owner: "PlaygroundWorkspace"):
        super().__init__(pxMode=True)
        self._owner = owner
        self._dragged: int | None = None

    def _hit(self, pos) -> int | None:
        spots = self.pointsAt(pos)
        if len(spots) == 0:
            return None
        # several overlapping spots: take the nearest to the pointer
        xy = np.array([[s.pos().x(), s.pos().y()] for s in spots])
        k = int(np.argmin(np.hypot(*(xy - [pos.x(), pos.y()]).T)))
        return int(spots[k].index())

    def mouseDragEvent(self, ev):
        if ev.button() != QtCore.Qt.LeftButton:
            ev.ignore()
            return
        if ev.isStart():
            self._dragged = self._hit(ev.buttonDownPos())
            if self._dragged is None:
                ev.ignore()           # the view pans
                return
        elif self._dragged is None:
            ev.ignore()
            return
        ev.accept()
        self._owner.drag_point(self._dragged, ev.pos(), final=ev.isFinish())
        if ev.isFinish():
            self._dragged = None

    def mouseClickEvent(self, ev):
        i = self._hit(ev.pos())
        remove = ev.button() == QtCore.Qt.RightButton or (
            ev.button() == QtCore.Qt.LeftButton and ev.modifiers() & QtCore.Qt.ControlModifier)
        if i is None or not remove:
            if i is not None:
                ev.accept()           # a plain click on a point does nothing (and adds nothing)
            else:
                ev.ignore()
            return
        ev.accept()
        self._owner.remove_point(i)


#: the narrowest angle window of the cross-section (± degrees about the iterate)
SECTION_MIN_SPAN_DEG = 0.01


class _PlaneViewBox(pg.ViewBox):
    """ViewBox whose plain left click on empty space adds an outlier there."""

    def __init__(self, owner: "PlaygroundWorkspace"):
        super().__init__()
        self._owner = owner
        self.setAspectLocked(True)

    def mouseClickEvent(self, ev):
        if ev.button() == QtCore.Qt.LeftButton and not ev.modifiers():
            ev.accept()
            if ev.double():           # the second click of a double click adds nothing more
                return
            p = self.mapSceneToView(ev.scenePos())
            self._owner.add_point((p.x(), p.y()))
            return
        super().mouseClickEvent(ev)


class PlaygroundWorkspace(Workspace, QtWidgets.QWidget):
    """The 2-D playground tab (see the module docstring).

    Parameters
    ----------
    delay : callable giving the seconds per iteration while running (the window's speed), or None
        for :data:`RUN_INTERVAL_MS`.
    method : playground method key (:func:`core.playground.methods`: PCA, every registered
        reweighted PCA, the line fit; read when the tab is built).
    seed : seed of the default points.

    The widgets are built when the tab is first shown or used (:meth:`ensure_built`).
    Attributes for tests and the window: ``model`` (the :class:`Playground`), ``plane`` (the
    PlotItem of the points), ``points_item`` (the scatter), ``line_item``, ``section_plot``,
    ``objective_item`` / ``surrogate_item`` (the cross-section curves), ``slider``,
    ``method_combo``, ``drawn_version`` (the model version last drawn), ``frames``.
    """

    title = "Playground (2-D)"
    tooltip = ("Points in the plane: drag a point, click to add an outlier, right-click to remove one, "
               "and watch the fitted line, the weights and the majorizer of the iteration answer")
    uses_data_dock = False
    run_target = "the playground's fit"

    #: a message for the status bar
    status = QtCore.Signal(str)
    #: running changed (the toolbar updates its buttons)
    activity = QtCore.Signal()
    #: (iteration) after a redraw
    drawn = QtCore.Signal(int)

    task = "playground"

    def __init__(self, pool=None, *, session=None, data_jobs=None, delay=None, method: str = DEFAULT_METHOD,
                 seed: int = 0, parent=None):
        # the window builds every workspace with (pool, session, data_jobs, delay); the playground
        # refits synchronously (a few ms) and has its own points, so it uses only ``delay``
        super().__init__(parent)
        self._delay = delay
        self.seed = seed
        #: the methods the combo offers, key -> name (:func:`core.playground.methods` when built)
        self.methods = methods()
        self.model = Playground(method=method, seed=seed)
        self.drawn_version = -1
        self.frames = 0
        self._closed = False
        self._timer = QtCore.QTimer(self)
        self._timer.timeout.connect(self._tick)
        self._built = False          # the widgets: built on first show or use (ensure_built)

    def ensure_built(self) -> None:
        """Build the tab's widgets and draw the model, once: on the tab's first show or the first
        call that needs them (a window whose playground is never opened does not pay for it)."""
        if self._built:
            return
        self._built = True
        self._build()
        self._fit_view()
        self.refresh(force=True)

    def showEvent(self, event) -> None:
        self.ensure_built()
        super().showEvent(event)

    # ================================================================== layout
    def _build(self) -> None:
        v = QtWidgets.QVBoxLayout(self)
        v.setContentsMargins(4, 4, 4, 4)

        bar = QtWidgets.QHBoxLayout()
        bar.addWidget(QtWidgets.QLabel("Method"))
        self.method_combo = QtWidgets.QComboBox()
        self._fill_combo()
        self.method_combo.currentIndexChanged.connect(self._on_method)
        bar.addWidget(self.method_combo)
        self.step_button = QtWidgets.QPushButton("Step")
        self.step_button.clicked.connect(lambda: self.step(1))
        self.run_button = QtWidgets.QPushButton("Run")
        self.run_button.clicked.connect(lambda: self.pause() if self.running else self.run())
        self.reset_button = QtWidgets.QPushButton("Reset")
        self.reset_button.clicked.connect(self.reset)
        self.points_button = QtWidgets.QPushButton("New points")
        self.points_button.setToolTip("Back to the default points (a line with a few outliers)")
        self.points_button.clicked.connect(self.reset_points)
        for b in (self.step_button, self.run_button, self.reset_button, self.points_button):
            bar.addWidget(b)
        bar.addStretch(1)
        v.addLayout(bar)

        plots = QtWidgets.QHBoxLayout()
        self.glw = pg.GraphicsLayoutWidget()
        self.glw.setMinimumSize(360, 300)
        self.view_box = _PlaneViewBox(self)
        self.plane = self.glw.addPlot(viewBox=self.view_box)
        wrapping_title(self.plane)
        self.plane.showGrid(x=True, y=True, alpha=0.2)
        self.plane.setLabel("bottom", "x")
        self.plane.setLabel("left", "y")
        self.plane.setMenuEnabled(False)
        self.start_item = pg.PlotCurveItem(pen=START_PEN)
        self.line_item = pg.PlotCurveItem(pen=LINE_PEN)
        self.points_item = _PointsItem(self)
        for it in (self.start_item, self.line_item, self.points_item):
            self.plane.addItem(it)
        self.colorbar = pg.ColorBarItem(values=(np.log10(WEIGHT_FLOOR), 0.0), colorMap=_CMAP,
                                        label="weight (0–1), log scale", interactive=False, width=14)
        self.colorbar.axis.setTicks([[(-2.0, "0.01"), (-1.0, "0.1"), (0.0, "1")]])
        self.glw.addItem(self.colorbar)
        plots.addWidget(self.glw, 3)

        self.section = pg.PlotWidget()
        self.section.setMinimumSize(260, 200)
        self.section_plot = self.section.getPlotItem()
        wrapping_title(self.section_plot)     # the surrogate's formula wraps instead of widening the plot
        self.section_plot.setLabel("bottom", "line angle θ (degrees)")
        self.section_plot.setLabel("left", "objective")
        self.section_plot.addLegend(offset=(-5, 5))
        self.objective_item = self.section_plot.plot(pen=OBJECTIVE_PEN, name="J(θ)")
        self.surrogate_item = self.section_plot.plot(pen=SURROGATE_PEN, name="surrogate Qₜ(θ)")
        self.now_item = pg.ScatterPlotItem(size=9, brush=pg.mkBrush(220, 40, 40), pen=None)
        self.section_plot.addItem(self.now_item)
        self.now_line = pg.InfiniteLine(angle=90, pen=pg.mkPen((220, 40, 40), style=QtCore.Qt.DotLine))
        self.section_plot.addItem(self.now_line)
        self.section_plot.setMenuEnabled(False)
        plots.addWidget(self.section, 2)
        v.addLayout(plots, 1)

        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Iteration"))
        self.slider = QtWidgets.QSlider(QtCore.Qt.Horizontal)
        self.slider.setPageStep(1)
        self.slider.setToolTip("Go back to any computed iteration; Step computes the next one")
        self.slider.valueChanged.connect(self._on_slider)
        self.slider_label = QtWidgets.QLabel("")
        self.slider_label.setMinimumWidth(self.slider_label.fontMetrics().horizontalAdvance("000 / 000 converged  "))
        row.addWidget(self.slider, 1)
        row.addWidget(self.slider_label)
        v.addLayout(row)

        self.hint = QtWidgets.QLabel(
            "Drag a point · click empty space: add an outlier · right-click (or Ctrl+click) a point: remove it. "
            "Red rings: points you marked as outliers. Grey dashes: the line of iteration 0.")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #555")
        v.addWidget(self.hint)
        self.message = QtWidgets.QLabel("")
        self.message.setWordWrap(True)
        v.addWidget(self.message)

    def _fill_combo(self) -> None:
        """The combo lists :attr:`methods` and shows the model's method (no signal)."""
        blocked = self.method_combo.blockSignals(True)
        if [self.method_combo.itemData(i) for i in range(self.method_combo.count())] != list(self.methods):
            self.method_combo.clear()
            for key, name in self.methods.items():
                self.method_combo.addItem(name, key)
        self.method_combo.setCurrentIndex(list(self.methods).index(self.model.method))
        self.method_combo.blockSignals(blocked)

    def _fit_view(self) -> None:
        """Frame the points (with room to drag) once; afterwards the view stays put while dragging."""
        pts = self.model.points
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        pad = 0.25 * max(float(np.max(hi - lo)), 1.0)
        self.view_box.setRange(xRange=(lo[0] - pad, hi[0] + pad), yRange=(lo[1] - pad, hi[1] + pad), padding=0)
        self.view_box.disableAutoRange()

    # ================================================================== Workspace interface
    @property
    def running(self) -> bool:
        return self._timer.isActive()

    @property
    def busy(self) -> bool:
        return self.running

    @property
    def finished(self) -> bool:
        return self.model.finished and self.model.shown == len(self.model.states) - 1

    def step(self, n: int = 1) -> None:
        self.ensure_built()
        self.pause()
        self._guard(self.model.step, n)
        self.refresh()

    def run(self) -> None:
        if self._closed or self.finished:
            return
        self.ensure_built()
        self._timer.start(self._interval())
        self.run_button.setText("Pause")
        self.activity.emit()

    def pause(self) -> None:
        if self._timer.isActive():
            self._timer.stop()
            self.run_button.setText("Run")
            self.activity.emit()

    def reset(self) -> None:
        self.pause()
        self.model.reset()
        self.refresh()

    def refresh(self, force: bool = False) -> bool:
        """Redraw if the model changed since the last draw. True if drawn."""
        if not self._built:
            self.ensure_built()
            return True
        if self.model.version == self.drawn_version and not force:
            return False
        self._draw()
        return True

    def data_text(self) -> str:
        m = self.model
        return f"playground: {len(m.points)} points, {int(m.outliers.sum())} marked as outliers"

    def shutdown(self) -> None:
        self._closed = True
        self._timer.stop()

    # ================================================================== gestures
    def drag_point(self, i: int, pos, final: bool = False) -> None:
        """Move point ``i`` to ``pos`` (data coordinates), refit and redraw at once."""
        if self._guard(self.model.move_point, i, (pos.x(), pos.y())):
            self.refresh()

    def add_point(self, xy) -> None:
        if self._guard(self.model.add_point, xy, True):
            self.status.emit(f"added an outlier at ({xy[0]:.2f}, {xy[1]:.2f})")
            self.refresh()

    def remove_point(self, i: int) -> None:
        if self._guard(self.model.remove_point, i):
            self.status.emit(f"removed point {i}")
            self.refresh()

    def reset_points(self) -> None:
        self.ensure_built()
        self.pause()
        self.model = Playground(method=self.model.method, seed=self.seed)
        self.drawn_version = -1
        self._fit_view()
        self.refresh(force=True)

    def apply_preset(self, pre) -> bool:
        """The points and method of a lesson step's setup (a :class:`core.presets.Preset` of task
        "playground"): ``data_params`` are :func:`core.playground.default_points`' (``seed``,
        ``n_inliers``, ``n_outliers``), the method is the first of ``pre.methods`` (its ``p``).
        False, with the reason shown, when they are refused (the points shown stay)."""
        self.ensure_built()
        params = dict(pre.data_params)
        seed = int(params.pop("seed", self.seed))
        key, mparams = pre.methods[0] if pre.methods else (self.model.method, {})
        try:
            points, outliers = default_points(seed, **params)
            model = Playground(points, outliers, method=key, seed=seed, p=mparams.get("p"))
        except (DataError, ParameterError, TypeError, ValueError) as exc:
            self.last_error = f"Playground: {exc}"
            self.message.setText(self.last_error)
            return False
        self.pause()
        self.seed, self.model, self.last_error = seed, model, ""
        self.message.setText("")
        if key not in self.methods:           # a reweighted method registered after the tab was built
            self.methods = methods()
        self._fill_combo()
        self.drawn_version = -1
        self._fit_view()
        self.refresh(force=True)
        return True

    def set_method(self, key: str) -> None:
        """Show method ``key`` (a key of :attr:`methods`); the combo follows."""
        self.ensure_built()
        i = list(self.methods).index(key)
        if self.method_combo.currentIndex() != i:
            self.method_combo.setCurrentIndex(i)      # comes back through _on_method
            return
        self.pause()
        if self._guard(self.model.set_method, key):
            self.refresh()

    def _on_method(self, index: int) -> None:
        self.set_method(self.method_combo.itemData(index))

    def _on_slider(self, value: int) -> None:
        if value != self.model.shown:
            self.model.show(value)
            self.refresh()

    def _guard(self, fn, *args) -> bool:
        """Run a model edit; a refused edit leaves the model as it was and says why."""
        try:
            fn(*args)
        except (DataError, ParameterError, SolverError) as exc:
            self.message.setText(f"<span style='color:#c62828'>{exc}</span>")
            self.status.emit(str(exc))
            return False
        if self.message.text():
            self.message.setText("")
        return True

    def _interval(self) -> int:
        if self._delay is None:
            return RUN_INTERVAL_MS
        try:
            return max(1, int(1000 * float(self._delay())))
        except (TypeError, ValueError):
            return RUN_INTERVAL_MS

    def _tick(self) -> None:
        if self.finished or self._closed:
            self.pause()
            return
        self._guard(self.model.step, 1)
        self.refresh()
        if self.finished:
            self.pause()

    # ================================================================== drawing
    def _draw(self) -> None:
        m = self.model
        pts = m.points
        w = m.weights
        self.points_item.setData(
            x=pts[:, 0], y=pts[:, 1], size=weight_sizes(w), brush=weight_brushes(w),
            pen=[OUTLIER_PEN if o else INLIER_PEN for o in m.outliers], data=np.arange(len(pts)))
        r = self.view_box.viewRange()
        half = 2.0 * float(np.hypot(r[0][1] - r[0][0], r[1][1] - r[1][0])) + float(np.abs(pts).max())
        ends = m.line(half)
        self.line_item.setData(ends[:, 0], ends[:, 1])
        u0 = np.asarray(m.states[0].components[0], float)
        c0 = np.asarray(m.states[0].mean, float)
        self.start_item.setData([c0[0] - half * u0[0], c0[0] + half * u0[0]],
                                [c0[1] - half * u0[1], c0[1] + half * u0[1]])
        self._draw_section()
        n = len(m.states)
        blocked = self.slider.blockSignals(True)
        self.slider.setRange(0, n - 1)
        self.slider.setValue(m.shown)
        self.slider.blockSignals(blocked)
        end = " converged" if m.finished and m.states[-1].converged else (" stopped" if m.finished else "")
        self.slider_label.setText(f"{m.shown} / {n - 1}{end}")
        self.plane.setTitle(f"{self.methods[m.method]} — iteration {m.shown}, objective {m.state.objective:.4g}",
                            size="10pt")
        self.drawn_version = m.version
        self.frames += 1
        self.drawn.emit(m.shown)

    def _draw_section(self) -> None:
        m = self.model
        cs, x0, x1, lo, hi = self._section_window(m)
        deg = np.degrees(cs.theta)
        x_now = float(np.degrees(cs.theta_now))
        # a window narrower than ±15° shows J − J(θₜ): the rise is what is seen, and the absolute
        # values would differ only in their 5th or 6th digit (no room for the tick labels)
        base = cs.objective_now if x1 - x0 < 30.0 else 0.0
        self.section_plot.setLabel("left", "objective − J(θₜ)" if base else "objective")
        lo, hi = lo - base, hi - base
        pad = 0.08 * max(hi - lo, abs(hi) * 1e-6, 1e-12)
        # values far above the view are capped just above it: the same picture, and no path with
        # huge coordinates for the painter to clip (the majorizer grows fast away from the iterate)
        cap = hi + 4.0 * (hi - lo + pad)
        self.objective_item.setData(deg, np.minimum(cs.objective - base, cap))
        if cs.surrogate is None:
            self.surrogate_item.setData([], [])
            self.section_plot.setTitle("PCA is not reweighted: no surrogate", size="9pt")
        else:
            self.surrogate_item.setData(deg, np.minimum(cs.surrogate - base, cap))
            self.section_plot.setTitle(f"iteration {m.shown}: {cs.formula}", size="9pt")
        self.now_item.setData([x_now], [cs.objective_now - base])
        self.now_line.setValue(x_now)
        self.section_plot.setXRange(x0, x1, padding=0)
        self.section_plot.setYRange(lo - pad, hi + pad, padding=0)

    @staticmethod
    def _section_window(m: Playground):
        """(cross-section, x0, x1, y low, y high) to draw: the angle window where the surrogate's
        bowl fills about a third of the view, so that a tight majorizer (PCA-GM's or RPCA-OM's when
        a point lies on the line: weights over 4 decades, a bowl a fraction of a degree wide) is
        seen as a bowl and not as a vertical line; a narrow window gets its own fine grid."""
        cs = m.cross_section(n_angles=721)      # 0.25° steps
        x_now = float(np.degrees(cs.theta_now))
        span = 90.0
        for attempt in range(6):
            deg = np.degrees(cs.theta)
            x0, x1 = max(float(deg[0]), x_now - span), min(float(deg[-1]), x_now + span)
            J = cs.objective[(deg >= x0) & (deg <= x1)]
            lo = float(J.min())
            # J of the line fit grows like tan²θ near vertical lines: cap the range at 2.5 × the median rise
            hi = min(float(J.max()), lo + 2.5 * (float(np.median(J)) - lo))
            hi = max(hi, cs.objective_now + 0.05 * (cs.objective_now - lo))
            if cs.surrogate is None or span <= SECTION_MIN_SPAN_DEG or attempt == 5:
                break
            inside = (cs.surrogate <= hi) & (deg >= x0) & (deg <= x1)
            bowl = float(np.max(np.abs(deg[inside] - x_now))) if inside.any() else 0.0
            if bowl >= span / 4:
                break
            span = max(3.0 * bowl, SECTION_MIN_SPAN_DEG)
            cs = m.cross_section(n_angles=721, half_width=float(np.radians(min(span, 90.0))))
        return cs, x0, x1, lo, hi

    # ================================================================== for tests
    def drawn_weights(self) -> np.ndarray:
        """The point sizes drawn now (px), one per point, in point order."""
        return np.asarray(self.points_item.data["size"], float).copy()

    def drawn_line(self) -> np.ndarray:
        """(2, 2) the two ends of the fitted line as drawn."""
        x, y = self.line_item.getData()
        return np.column_stack([x, y]).astype(float)

    def point_scene_pos(self, i: int) -> QtCore.QPointF:
        """Scene position of point ``i`` (for driving the mouse)."""
        p = self.model.points[i]
        return self.view_box.mapViewToScene(QtCore.QPointF(float(p[0]), float(p[1])))

    def point_widget_pos(self, i: int) -> QtCore.QPoint:
        """Position of point ``i`` in the plot widget's viewport (for QTest)."""
        return self.glw.mapFromScene(self.point_scene_pos(i))
