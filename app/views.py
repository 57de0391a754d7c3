"""The views of one method column. Each draws one :class:`core.views.Snapshot`; none computes
anything numerical (only reshaping and colour levels for display).

* :class:`WeightsView`     per-sample weights (log bars), outlier scores ‖eᵢ‖ or mean pixel
                           weights (linear bars); samples the corruption touched in red
* :class:`BasisView`       the first basis images, grey, levels symmetric around 0 (eigenfaces) or
                           from 0 (NMF parts: black = 0)
* :class:`WeightMapView`   per-pixel weights Q of the chosen samples (robust NMF, paper 003),
                           0–1 colour scale with a colour bar, truncated pixels in red
* :class:`ObjectiveView`   objective against iteration, line with markers
* :class:`ReconView`       clean | corrupted | reconstruction | residual (| E) of the chosen samples
* :class:`ScalarHistoryView`  one of the method's scalars (rank, μ, δ, γ, …) against iteration,
                           optionally a second one on a right axis (truncated fraction)
* :class:`ScatterView`     2-D data (toy examples): points, outliers, mean and direction lines
* :class:`LoadingsView`    components of data with few features as a heat map (zeros visible)
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["WeightsView", "BasisView", "ObjectiveView", "ReconView", "ScalarHistoryView", "ScatterView",
           "LoadingsView", "WeightMapView", "COLORS", "ZERO_COLOR", "TRUNCATED_COLOR",
           "configure_pyqtgraph"]

COLORS = {
    "clean": (70, 120, 200),        # bars of untouched samples
    "corrupted": (220, 50, 47),     # bars of samples the corruption touched
    "curve": (30, 90, 170),
    "scalar": (200, 110, 20),
    "scalar2": (120, 60, 170),     # second scalar (right axis)
    "title": "#222222",
    "axis": "#444444",
}
TITLE_SIZE = "10pt"
#: exact zeros of sparse loadings are painted in this flat colour (RGBA) and named so in titles
ZERO_COLOR = (255, 214, 64, 255)
ZERO_NAME = "yellow"
#: truncated (rejected, Q = 0) pixels of the weight maps are painted in this saturated colour
TRUNCATED_COLOR = (255, 0, 0, 255)
TRUNCATED_NAME = "red"
#: colour map of the per-pixel weights (0 = dark violet … 1 = yellow; no red in it)
WEIGHT_CMAP = "viridis"
#: colours of the direction lines of the 2-D scatter (first component solid)
LINE_COLORS = ((30, 90, 170), (0, 150, 110), (150, 60, 170), (200, 110, 20))
#: Residuals (grey levels) are shown on this fixed symmetric range, so that images and iterations
#: compare; larger residuals saturate.
RESIDUAL_RANGE = 128.0


def configure_pyqtgraph() -> None:
    """Global pyqtgraph options of the app (call before creating any view)."""
    pg.setConfigOptions(imageAxisOrder="row-major", antialias=True, background="w", foreground="k")


def _style_plot(plot: pg.PlotItem, title: str, bottom: str, left: str | None = None) -> None:
    plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])
    plot.setLabel("bottom", bottom)
    if left:
        plot.setLabel("left", left)
    plot.showGrid(x=False, y=True, alpha=0.25)
    plot.setMenuEnabled(False, enableViewBoxMenu=True)   # right click: View All, Export…
    for name in ("left", "bottom"):
        ax = plot.getAxis(name)
        ax.setTextPen(COLORS["axis"])
        ax.setPen(COLORS["axis"])
    # Axes and title are re-rendered only when they change (range, size), not on every frame:
    # the tick text is the most expensive part of a plot's paint.
    for name in ("left", "bottom", "top", "right"):
        plot.getAxis(name).setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)
    plot.titleLabel.setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)


class _Message(pg.TextItem):
    def __init__(self):
        super().__init__("", color=(120, 120, 120), anchor=(0.5, 0.5))


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class _DecadeAxis(pg.AxisItem):
    """Left axis of the weights chart: the value v is drawn as 10^v (``decades``), or as is."""

    decades = True

    def tickStrings(self, values, scale, spacing):
        if not self.decades:
            return super().tickStrings(values, scale, spacing)
        return ["1" if round(v) == 0 else "10" + str(int(round(v))).translate(_SUPERSCRIPT)
                if abs(v - round(v)) < 1e-9 else "" for v in values]


#: key of ``Snapshot.details`` holding a per-sample outlier score (convex methods: ‖e_i‖)
OUTLIER_SCORE = "outlier score"


class WeightsView(pg.PlotWidget):
    """Bar chart of the sample weights on a log scale (``Snapshot.log_weights``: decades below the
    largest weight); samples in ``Snapshot.outliers`` drawn red.

    Reweighting spreads weights over orders of magnitude (a sample the subspace passes through can
    outweigh all others ten-thousandfold), so a linear chart would show one bar and many slivers.
    Bars rise from a baseline at the lowest whole decade present.

    Methods without sample weights but with a per-sample outlier score
    (``Snapshot.details["outlier score"]``, ‖eᵢ‖ of the sparse part for the convex methods) get
    that score instead, on a linear scale (``mode == "score"``; title :data:`SCORE_TITLE`).

    Methods with per-pixel weights (robust NMF: ``Snapshot.mean_weights``) get the mean pixel
    weight of every sample on a fixed linear 0–1 scale (``mode == "mean"``; title
    :data:`MEAN_TITLE`): 1 = every pixel trusted, 0 = the whole image rejected.

    Two single-colour BarGraphItems (untouched / corrupted samples) rather than one with a brush
    per bar: pyqtgraph then draws each set with one call, which keeps frames cheap."""

    TITLE = "Sample weights, log scale (red: corrupted)"
    SCORE_TITLE = "Outlier score ‖eᵢ‖ (red: corrupted)"
    MEAN_TITLE = "Mean pixel weight per sample (red: corrupted)"

    def __init__(self, parent=None):
        super().__init__(parent, axisItems={"left": _DecadeAxis("left")})
        plot = self.getPlotItem()
        _style_plot(plot, self.TITLE, "sample", "weight (largest = 1)")
        plot.getAxis("left").setTickSpacing(1, 1)
        plot.setMouseEnabled(x=True, y=False)
        self._baseline = -1.0
        self._y_top = None
        plot.setYRange(self._baseline, 0.05, padding=0)
        plot.hideButtons()
        empty = np.zeros(0)
        self.clean_bars = pg.BarGraphItem(x=empty, height=empty, width=0.8, pen=None,
                                          brush=pg.mkBrush(*COLORS["clean"]))
        self.corrupted_bars = pg.BarGraphItem(x=empty, height=empty, width=0.8, pen=None,
                                              brush=pg.mkBrush(*COLORS["corrupted"]))
        plot.addItem(self.clean_bars)
        plot.addItem(self.corrupted_bars)
        self.message = _Message()
        plot.addItem(self.message)
        self._n = -1
        self._outliers = None
        #: "weights" (log bars of the sample weights), "score" (linear bars of the outlier score)
        #: or None (nothing to show)
        self.mode = "weights"
        self.snapshot = None

    def _bar_values(self) -> np.ndarray:
        out = np.full(max(self._n, 0), np.nan)
        for item in (self.clean_bars, self.corrupted_bars):
            x = np.asarray(item.opts["x"], dtype=int)
            out[x] = np.asarray(item.opts["height"]) + self._baseline
        return out

    def drawn_weights(self) -> np.ndarray:
        """The weights as drawn (bar tops read back through the log axis), in sample order
        (NaN where no bar is drawn)."""
        if self.mode != "weights":
            return np.full(max(self._n, 0), np.nan)
        return 10.0 ** self._bar_values()

    def drawn_scores(self) -> np.ndarray:
        """The outlier scores as drawn (bar tops), in sample order (NaN where no bar is drawn)."""
        if self.mode != "score":
            return np.full(max(self._n, 0), np.nan)
        return self._bar_values()

    def drawn_mean_weights(self) -> np.ndarray:
        """The mean pixel weights as drawn (bar tops), in sample order (NaN where no bar)."""
        if self.mode != "mean":
            return np.full(max(self._n, 0), np.nan)
        return self._bar_values()

    def drawn_outliers(self) -> np.ndarray:
        """Indices of the samples drawn in the 'corrupted' colour."""
        return np.asarray(self.corrupted_bars.opts["x"], dtype=int)

    def _set_mode(self, mode) -> None:
        if mode == self.mode:
            return
        self.mode = mode
        plot = self.getPlotItem()
        axis = plot.getAxis("left")
        if mode == "score":
            plot.setTitle(self.SCORE_TITLE, size=TITLE_SIZE, color=COLORS["title"])
            plot.setLabel("left", "‖eᵢ‖ (grey levels)")
            axis.decades = False
            axis.setTicks(None)
            axis.setTickSpacing()                  # automatic ticks
        elif mode == "mean":
            plot.setTitle(self.MEAN_TITLE, size=TITLE_SIZE, color=COLORS["title"])
            plot.setLabel("left", "mean weight")
            axis.decades = False
            axis.setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], [(0.25, ""), (0.75, "")]])
        else:
            plot.setTitle(self.TITLE, size=TITLE_SIZE, color=COLORS["title"])
            plot.setLabel("left", "weight (largest = 1)")
            axis.decades = True
            axis.setTicks(None)
            axis.setTickSpacing(1, 1)
        axis.picture = None
        axis.update()
        self._baseline = None                       # forces a new y range
        self._y_top = None

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        score = None
        mean = None if snap is None else getattr(snap, "mean_weights", None)
        if snap is not None and snap.sample_weights is None and mean is None:
            score = snap.details.get(OUTLIER_SCORE)
        if snap is None or (snap.sample_weights is None and score is None and mean is None):
            if snap is not None:
                self._set_mode(None if self.mode in ("score", "mean") else self.mode)
            empty = np.zeros(0)
            for item in (self.clean_bars, self.corrupted_bars):
                item.setOpts(x=empty, height=empty)
            self.message.setText("no state yet" if snap is None else "this method has no sample weights")
            self.message.setPos(0.5 * max(self._n, 1), 0.5 if self.mode != "weights"
                                else 0.5 * ((self._baseline or -1.0) + 0.05))
            return
        self._set_mode("mean" if mean is not None else "weights" if score is None else "score")
        w = np.asarray(mean if mean is not None else snap.log_weights if score is None else score,
                       dtype=float)
        n = len(w)
        outliers = np.asarray(snap.outliers, dtype=bool)
        if self.message.textItem.toPlainText():
            self.message.setText("")
        if n != self._n or self._outliers is None or not np.array_equal(outliers, self._outliers):
            self._n = n
            self._outliers = outliers
            self._idx_bad = np.flatnonzero(outliers)
            self._idx_good = np.flatnonzero(~outliers)
            plot.setXRange(-0.5, n - 0.5, padding=0.01)
        if self.mode == "weights":
            baseline = min(-1.0, float(np.floor(w.min())))
            if baseline != self._baseline:
                self._baseline = baseline
                plot.setYRange(baseline, 0.05 * (-baseline), padding=0)
        elif self.mode == "mean":
            baseline = 0.0
            if self._baseline != baseline:          # fixed 0–1 scale: iterations compare
                self._baseline = baseline
                plot.setYRange(0.0, 1.08, padding=0)
        else:
            baseline = 0.0
            top = float(np.nanmax(w)) if n and np.isfinite(w).any() else 0.0
            top = top if top > 0 else 1.0
            # the range grows in steps and shrinks only when the bars fill less than a third
            if self._y_top is None or top > self._y_top or top < self._y_top / 3:
                self._y_top = top * 1.15
                plot.setYRange(0.0, self._y_top, padding=0)
            self._baseline = baseline
        # Bars rise from the baseline to the value; a display offset, not a computation.
        self.clean_bars.setOpts(x=self._idx_good, y0=baseline, height=w[self._idx_good] - baseline)
        self.corrupted_bars.setOpts(x=self._idx_bad, y0=baseline, height=w[self._idx_bad] - baseline)


class ObjectiveView(pg.PlotWidget):
    """``Snapshot.objective_history`` against iteration."""

    TITLE = "Objective"

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        _style_plot(plot, self.TITLE, "iteration", "J")
        plot.hideButtons()
        pen = pg.mkPen(COLORS["curve"], width=2)
        self.curve = plot.plot([], [], pen=pen, symbol="o", symbolSize=6,
                               symbolBrush=pg.mkBrush(*COLORS["curve"]), symbolPen=None)
        self.snapshot = None
        self._x_max = None
        self._y_range = None

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        if snap is None:
            self.curve.setData([], [])
            return
        h = np.asarray(snap.objective_history, dtype=float)
        self.curve.setData(np.arange(len(h)), h)
        plot = self.getPlotItem()
        # x range grows in steps (fewer axis re-layouts while running): 0..5, 10, 20, 30, ...
        last = max(len(h) - 1, 1)
        x_max = 5 if last <= 5 else 10 * -(-last // 10)
        if x_max != self._x_max:
            self._x_max = x_max
            plot.setXRange(0, x_max, padding=0.03)
        lo, hi = float(h.min()), float(h.max())
        if hi - lo <= 1e-9 * max(abs(hi), 1.0):
            # a flat curve (e.g. PCA): a readable range around it instead of round-off ticks
            d = max(abs(hi) * 0.05, 1.0)
            y_range = (lo - d, hi + d)
        else:
            d = 0.06 * (hi - lo)
            y_range = (lo - d, hi + d)
            old = self._y_range
            # keep the current range while the curve fits it and fills most of it: the axis is
            # then not re-laid out on every iteration
            if old is not None and old[0] <= lo and hi <= old[1] and (hi - lo) >= 0.6 * (old[1] - old[0]):
                y_range = old
            elif old is not None and lo < old[0] and old[0] <= hi <= old[1]:
                y_range = (lo - 0.25 * (hi - lo), y_range[1])   # falling objective: room below
        if y_range != self._y_range:
            self._y_range = y_range
            plot.setYRange(*y_range, padding=0)


#: scalars plotted on a log y axis (when all their values are positive)
LOG_SCALARS = ("μ", "mu", "primal residual", "residual", "ε", "σ")


def _is_constant(values: np.ndarray) -> bool:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    return len(v) == 0 or bool(np.all(v == v[0]))


#: scalars shown on the right axis, next to the first scalar, when a method reports them
#: (robust NMF: the share of zero-weighted entries beside γ)
SECONDARY_SCALARS = ("truncated fraction",)
#: combo entry "no second scalar"
NONE_TEXT = "—"


class ScalarHistoryView(QtWidgets.QWidget):
    """One of ``Snapshot.scalar_history`` (rank, μ, primal residual, δ, γ, …) against iteration,
    chosen in a combo, and optionally a second one on a right axis (second combo).

    The first combo lists every scalar of the snapshot; by default it shows the first one that
    changes over the iterations (constants such as p are listed, marked "constant"), leaving out
    the :data:`SECONDARY_SCALARS`, which go to the right axis by default (robust NMF: γ on the
    left, the truncated fraction on the right). A choice the user makes is kept while the
    snapshots have that scalar. μ and residuals are drawn on a log y axis when they are
    positive. Each axis label has the colour of its curve."""

    TITLE = "Scalars"

    def __init__(self, parent=None):
        super().__init__(parent)
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(1)
        row = QtWidgets.QHBoxLayout()
        row.setContentsMargins(4, 0, 0, 0)
        label = QtWidgets.QLabel("Scalar")
        label.setStyleSheet("color: #222;")
        self.label = label
        self.combo = QtWidgets.QComboBox()
        self.combo.setToolTip("The method's own number to plot against iteration (left axis)")
        self.combo.activated.connect(self._on_chosen)
        self.label2 = QtWidgets.QLabel("+")
        self.label2.setStyleSheet("color: #222;")
        self.combo2 = QtWidgets.QComboBox()
        self.combo2.setToolTip("A second number to plot on the right axis (— for none)")
        self.combo2.activated.connect(self._on_chosen2)
        for combo in (self.combo, self.combo2):
            # as wide as the name shown (not the longest name): two fit in a narrow column;
            # the list that drops down is as wide as the longest name
            combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(1)
        row.addWidget(label)
        row.addWidget(self.combo)
        row.addWidget(self.label2)
        row.addWidget(self.combo2)
        row.addStretch(1)
        lay.addLayout(row)
        self.plot_widget = pg.PlotWidget()
        plot = self.plot_widget.getPlotItem()
        _style_plot(plot, "", "iteration", "")
        plot.setTitle(None)
        plot.hideButtons()
        pen = pg.mkPen(COLORS["scalar"], width=2)
        self.curve = plot.plot([], [], pen=pen, symbol="o", symbolSize=5, connect="finite",
                               symbolBrush=pg.mkBrush(*COLORS["scalar"]), symbolPen=None)
        # second scalar: its own ViewBox on the right axis, x linked to the plot
        self.vb2 = pg.ViewBox(enableMenu=False)
        self.vb2.setMouseEnabled(x=False, y=False)
        plot.scene().addItem(self.vb2)
        right = plot.getAxis("right")
        right.linkToView(self.vb2)
        right.setTextPen(COLORS["axis"])
        right.setPen(COLORS["axis"])
        right.setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)
        right.enableAutoSIPrefix(False)       # a fraction stays 0.4, not "400 (×0.001)"
        self.vb2.setXLink(plot.vb)
        plot.vb.sigResized.connect(self._sync_vb2)
        self.curve2 = pg.PlotDataItem([], [], pen=pg.mkPen(COLORS["scalar2"], width=2,
                                                            style=QtCore.Qt.DashLine),
                                      symbol="s", symbolSize=5, connect="finite",
                                      symbolBrush=pg.mkBrush(*COLORS["scalar2"]), symbolPen=None)
        self.vb2.addItem(self.curve2)
        plot.hideAxis("right")
        self.message = _Message()
        plot.addItem(self.message)
        lay.addWidget(self.plot_widget, 1)
        self._names: tuple = ()
        self._chosen: str | None = None      # the user's choice
        self._chosen2: str | None = None     # the user's second choice ("" = none)
        self.current: str | None = None      # the scalar drawn
        self.current2: str | None = None     # the scalar drawn on the right axis, or None
        self._axis_labels: dict[str, str] = {}
        self._log = False
        self.snapshot = None

    def _sync_vb2(self) -> None:
        self.vb2.setGeometry(self.plot_widget.getPlotItem().vb.sceneBoundingRect())

    def names(self) -> list[str]:
        """The scalar names the combo lists."""
        return [self.combo.itemData(i) for i in range(self.combo.count())]

    def choose(self, name: str) -> None:
        """Plot ``name`` (as if the user picked it in the combo)."""
        i = self.combo.findData(name)
        if i >= 0:
            self.combo.setCurrentIndex(i)
            self._on_chosen(i)

    def choose_second(self, name: str | None) -> None:
        """Plot ``name`` on the right axis (None: no second scalar), as the user would."""
        i = self.combo2.findData(name if name is not None else "")
        if i >= 0:
            self.combo2.setCurrentIndex(i)
            self._on_chosen2(i)

    def _on_chosen(self, index: int) -> None:
        name = self.combo.itemData(index)
        if name is not None:
            self._chosen = name
            self._fit_combos()
            self._draw()

    def _on_chosen2(self, index: int) -> None:
        name = self.combo2.itemData(index)
        if name is not None:
            self._chosen2 = name
            self._fit_combos()
            self._draw()

    def _default(self, history: dict) -> str | None:
        for name, values in history.items():
            if name not in SECONDARY_SCALARS and not _is_constant(values):
                return name
        for name, values in history.items():
            if not _is_constant(values):
                return name
        return next(iter(history), None)

    def _default2(self, history: dict, first: str | None) -> str:
        return next((n for n in SECONDARY_SCALARS if n in history and n != first), "")

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        history = {} if snap is None else dict(snap.scalar_history)
        names = tuple(history)
        blocked = self.combo.blockSignals(True)
        blocked2 = self.combo2.blockSignals(True)
        try:
            if names != self._names:
                self._names = names
                self.combo.clear()
                self.combo2.clear()
                self.combo2.addItem(NONE_TEXT, "")
                for name in names:
                    self.combo.addItem(name, name)
                    self.combo2.addItem(name, name)
            for i, name in enumerate(names):
                const = _is_constant(history[name])
                text = f"{name}  (constant)" if const else name
                if self.combo.itemText(i) != text:
                    self.combo.setItemText(i, text)
                if self.combo2.itemText(i + 1) != text:
                    self.combo2.setItemText(i + 1, text)
            name = self._chosen if self._chosen in history else self._default(history)
            self.current = name
            if name is not None:
                self.combo.setCurrentIndex(self.combo.findData(name))
            second = (self._chosen2 if self._chosen2 is not None and (self._chosen2 == "" or self._chosen2 in history)
                      else self._default2(history, name))
            self.combo2.setCurrentIndex(max(self.combo2.findData(second), 0))
            self.combo.setEnabled(bool(names))
            two = len(names) > 1
            self.combo2.setVisible(two)
            self.label2.setVisible(two)
            self.label.setVisible(not two)         # room for the second combo in a narrow column
        finally:
            self.combo.blockSignals(blocked)
            self.combo2.blockSignals(blocked2)
        self._fit_combos()
        self._draw()

    def _fit_combos(self) -> None:
        for combo in (self.combo, self.combo2):
            fm = combo.fontMetrics()
            text = combo.currentText()
            width = fm.horizontalAdvance(text) + 34            # + the arrow and the frame
            if combo.minimumWidth() != width:
                combo.setMinimumWidth(width)
                longest = max((fm.horizontalAdvance(combo.itemText(i)) for i in range(combo.count())),
                              default=0)
                combo.view().setMinimumWidth(longest + 30)

    def drawn(self) -> tuple[np.ndarray, np.ndarray]:
        """(iterations, values) of the curve as given to it."""
        x, y = self.curve.xData, self.curve.yData
        return (np.zeros(0) if x is None else np.asarray(x), np.zeros(0) if y is None else np.asarray(y))

    def drawn_second(self) -> tuple[np.ndarray, np.ndarray]:
        """(iterations, values) of the right-axis curve (empty when none is drawn)."""
        x, y = self.curve2.xData, self.curve2.yData
        return (np.zeros(0) if x is None else np.asarray(x), np.zeros(0) if y is None else np.asarray(y))

    def _set_axis_label(self, side: str, text: str) -> None:
        """Set an axis label only when it changes (a new label re-lays out the plot)."""
        if self._axis_labels.get(side) != text:
            self._axis_labels[side] = text
            self.plot_widget.getPlotItem().getAxis(side).setLabel(text)

    @staticmethod
    def _axis_label(name: str, color, log: bool = False) -> str:
        return (f"<span style='color:#%02x%02x%02x'>{name}{'  (log)' if log else ''}</span>"
                % tuple(color))

    def _draw(self) -> None:
        snap = self.snapshot
        plot = self.plot_widget.getPlotItem()
        name = self.combo.itemData(self.combo.currentIndex()) if self.combo.count() else None
        self.current = name
        if snap is None or name is None or name not in snap.scalar_history:
            self.curve.setData([], [])
            self._draw_second(None)
            self.message.setText("no state yet" if snap is None else "this method reports no scalars")
            self.message.setPos(0.5, 0.0 if self._log else 0.5)
            return
        if self.message.textItem.toPlainText():
            self.message.setText("")
        y = np.asarray(snap.scalar_history[name], dtype=float)
        x = np.arange(len(y), dtype=float)
        finite = y[np.isfinite(y)]
        log = (any(k in name for k in LOG_SCALARS) and len(finite) > 0 and bool(np.all(finite > 0)))
        if log != self._log:
            self._log = log
            plot.setLogMode(y=log)
        self._set_axis_label("left", self._axis_label(name, COLORS["scalar"], log))
        self.curve.setData(x, y)
        last = max(len(y) - 1, 1)
        plot.setXRange(0, 5 if last <= 5 else 10 * -(-last // 10), padding=0.03)
        if len(finite):
            lo, hi = float(finite.min()), float(finite.max())
            if log:
                lo, hi = np.log10(lo), np.log10(hi)
                d = max(0.1 * (hi - lo), 0.3)
            else:
                d = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.05, 1.0)
            plot.setYRange(lo - d, hi + d, padding=0)
        second = self.combo2.itemData(self.combo2.currentIndex()) if self.combo2.count() else ""
        self._draw_second(second if second and second != name and second in snap.scalar_history
                          else None)

    def _draw_second(self, name: str | None) -> None:
        plot = self.plot_widget.getPlotItem()
        self.current2 = name
        if name is None:
            self.curve2.setData([], [])
            if plot.getAxis("right").isVisible():
                plot.hideAxis("right")
            return
        if not plot.getAxis("right").isVisible():
            plot.showAxis("right")
            self._sync_vb2()
        y = np.asarray(self.snapshot.scalar_history[name], dtype=float)
        self.curve2.setData(np.arange(len(y), dtype=float), y)
        self._set_axis_label("right", self._axis_label(name, COLORS["scalar2"]))
        finite = y[np.isfinite(y)]
        if len(finite):
            lo, hi = float(finite.min()), float(finite.max())
            d = 0.08 * (hi - lo) if hi > lo else max(abs(hi) * 0.05, 0.01)
            self.vb2.setYRange(lo - d, hi + d, padding=0)


class ScatterView(pg.PlotWidget):
    """2-D data (``Snapshot.points``, toy examples): the samples, sized by their weight when the
    method has weights (largest = 1), planted outliers (``Snapshot.outliers``) ringed red, the
    mean as a cross and each direction of ``Snapshot.directions`` as a line through the mean long
    enough to span the data. Equal aspect."""

    TITLE = "Data and directions"
    MAX_LINES = 10

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        _style_plot(plot, self.TITLE, "x₁", "x₂")
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setAspectLocked(True, ratio=1.0)
        plot.hideButtons()
        self.points = pg.ScatterPlotItem(pxMode=True)
        self.outlier_marks = pg.ScatterPlotItem(pxMode=True, symbol="o", brush=None,
                                                pen=pg.mkPen(COLORS["corrupted"], width=2))
        plot.addItem(self.points)
        plot.addItem(self.outlier_marks)
        self.lines: list[pg.PlotDataItem] = []
        for i in range(self.MAX_LINES):
            color = LINE_COLORS[i % len(LINE_COLORS)]
            line = plot.plot([], [], pen=pg.mkPen(color, width=2.5 if i == 0 else 2,
                                                    style=QtCore.Qt.SolidLine if i == 0 else QtCore.Qt.DashLine))
            self.lines.append(line)
        self.mean_mark = pg.ScatterPlotItem(pxMode=True, symbol="+", size=18,
                                            pen=pg.mkPen("#111111", width=3), brush=pg.mkBrush("#111111"))
        plot.addItem(self.mean_mark)
        self.snapshot = None
        self._key = None

    def drawn_lines(self) -> list[np.ndarray]:
        """(2, 2) end points of every direction line drawn."""
        out = []
        for line in self.lines:
            if line.isVisible() and line.xData is not None and len(line.xData):
                out.append(np.column_stack([line.xData, line.yData]))
        return out

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        if snap is None or snap.points is None:
            self.points.setData([], [])
            self.outlier_marks.setData([], [])
            self.mean_mark.setData([], [])
            for line in self.lines:
                line.setData([], [])
                line.setVisible(False)
            return
        P = np.asarray(snap.points, dtype=float)
        w = snap.sample_weights
        if w is None:
            sizes = np.full(len(P), 6.0)
            title = self.TITLE + "  <span style='color:#777;font-size:8pt'>(ringed red: planted outlier; + mean)</span>"
        else:
            # log weights (decades below the largest): 10⁻³ and less → 3 px, 1 → 12 px
            lw = np.asarray(snap.log_weights, dtype=float)
            sizes = 3.0 + 9.0 * np.clip(1.0 + np.nan_to_num(lw, nan=-3.0) / 3.0, 0.0, 1.0)
            title = self.TITLE + ("  <span style='color:#777;font-size:8pt'>(dot size: weight, log; "
                                  "ringed red: planted outlier; + mean)</span>")
        if plot.titleLabel.text != title:
            plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])
        self.points.setData(P[:, 0], P[:, 1], size=sizes, pen=None,
                            brush=pg.mkBrush(*COLORS["clean"], 170))
        bad = np.asarray(snap.outliers, dtype=bool)
        self.outlier_marks.setData(P[bad, 0], P[bad, 1],
                                   size=sizes[bad] + 6)
        m = np.asarray(snap.mean, dtype=float)[:2]
        self.mean_mark.setData([m[0]], [m[1]])
        # lines through the mean, long enough to span the data
        r = float(np.max(np.linalg.norm(P - m, axis=1))) * 1.1 if len(P) else 1.0
        r = r if r > 0 else 1.0
        dirs = np.zeros((0, 2)) if snap.directions is None else np.asarray(snap.directions, dtype=float)
        for i, line in enumerate(self.lines):
            if i < len(dirs):
                d = dirs[i]
                nrm = float(np.linalg.norm(d))
                d = d / nrm if nrm > 0 else d
                line.setData([m[0] - r * d[0], m[0] + r * d[0]], [m[1] - r * d[1], m[1] + r * d[1]])
                line.setVisible(True)
            else:
                line.setData([], [])
                line.setVisible(False)
        key = (len(P), float(P.min()) if len(P) else 0.0, float(P.max()) if len(P) else 0.0)
        if key != self._key:
            self._key = key
            plot.autoRange(padding=0.08, items=[self.points])


class LoadingsView(pg.PlotWidget):
    """Components of data with few features (toy examples such as Hastie's 10 variables): a heat
    map, one row per component and one column per feature (diverging colours symmetric around 0
    per component), exact zeros in the zero colour, the number of non-zeros on the left axis."""

    TITLE = "Loadings"

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        _style_plot(plot, self.TITLE, "feature", "")
        plot.showGrid(x=False, y=False)
        plot.invertY(True)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(pg.colormap.get("CET-D1").getLookupTable(nPts=256))
        self.zero = pg.ImageItem(axisOrder="row-major")
        plot.addItem(self.image)
        plot.addItem(self.zero)
        self.snapshot = None
        self.nonzeros: list[int] = []
        self._key = None

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        if snap is None or not len(snap.basis):
            self.image.clear()
            self.zero.clear()
            return
        L = np.asarray(snap.basis, dtype=float).reshape(len(snap.basis), -1)
        m = np.max(np.abs(L), axis=1, keepdims=True)
        m[m == 0] = 1.0
        self.image.setImage(L / m, levels=(-1.0, 1.0), autoLevels=False)
        zero = None if snap.basis_zero is None else np.asarray(snap.basis_zero).reshape(L.shape)
        self.zero.setImage(_zero_rgba(zero if zero is not None else np.zeros(L.shape, bool)),
                           autoLevels=False, levels=(0, 255))
        self.nonzeros = [int(v) for v in np.count_nonzero(L, axis=1)]
        key = (L.shape, tuple(self.nonzeros))
        if key != self._key:
            self._key = key
            k, p = L.shape
            ax = plot.getAxis("left")
            ax.setTicks([[(i + 0.5, f"PC{i + 1} ({nz}/{p})") for i, nz in enumerate(self.nonzeros)]])
            plot.getAxis("bottom").setTicks([[(j + 0.5, str(j + 1)) for j in range(p)]])
            plot.setRange(xRange=(0, p), yRange=(0, k), padding=0.02)
            title = self.TITLE + ("  <span style='color:#777;font-size:8pt'>(blue −, red +; "
                                  f"{ZERO_NAME}: exactly 0; (non-zeros/features))</span>")
            plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])


def _mask_rgba(mask: np.ndarray, color) -> np.ndarray:
    """(…, 4) uint8: ``color`` where ``mask``, transparent elsewhere."""
    out = np.zeros(mask.shape + (4,), dtype=np.uint8)
    out[mask] = color
    return out


def _zero_rgba(zero: np.ndarray) -> np.ndarray:
    """(…, 4) uint8: the zero colour where ``zero``, transparent elsewhere."""
    return _mask_rgba(zero, ZERO_COLOR)


class _Title(pg.LabelItem):
    """A title that never widens its view: a text longer than the view is centred and clipped
    instead of pushing the view's images out of sight."""

    def updateMin(self):
        super().updateMin()
        bounds = self.itemRect()
        self.setMinimumWidth(0)
        self._sizeHint[QtCore.Qt.SizeHint.MinimumSize] = (0, bounds.height())
        self._sizeHint[QtCore.Qt.SizeHint.PreferredSize] = (0, bounds.height())
        self.updateGeometry()


class _Mosaic(pg.GraphicsLayoutWidget):
    """A title and one ViewBox holding a grid of ImageItems (one per tile), so that every tile
    gets the same size and the grid scales as a whole. 1 data unit = 1 pixel of the images."""

    GAP = 0.08          # gap between tiles, in tile widths
    TOP = 0.0           # room above the grid for column headers, in tile heights
    LEFT = 0.0          # room left of the grid for row labels, in tile widths

    def __init__(self, title: str, rows: int, cols: int, capacity: int | None = None, parent=None):
        super().__init__(parent)
        self.setBackground("w")
        self.ci.setContentsMargins(2, 2, 2, 2)
        self.ci.layout.setSpacing(0)
        self.title = _Title(title, size=TITLE_SIZE, color=COLORS["title"])
        self.ci.addItem(self.title, row=0, col=0)
        self.vb = self.ci.addViewBox(row=1, col=0, lockAspect=True, enableMouse=False, invertY=True,
                                     enableMenu=False)
        self.rows, self.cols = rows, cols
        self.items: list[pg.ImageItem] = []
        for _ in range(capacity or rows * cols):
            img = pg.ImageItem(axisOrder="row-major")
            self.vb.addItem(img)
            self.items.append(img)
        self._key = None                # (tile shape, rows, cols, vgap) the tiles are laid out for
        self._tile = None
        self.vgap = None                # vertical gap in tile heights (None: same as GAP)
        self.setMinimumSize(160, 120)

    def gaps(self, shape=None) -> tuple[float, float]:
        """(horizontal, vertical) gap between tiles in data units."""
        h, w = self._tile if shape is None else shape
        g = self.GAP * w
        return g, (g if self.vgap is None else self.vgap * h)

    def tile_rect(self, r: int, c: int) -> QtCore.QRectF:
        h, w = self._tile
        g, gv = self.gaps()
        return QtCore.QRectF(c * (w + g), r * (h + gv), w, h)

    def _layout(self, shape, rows: int | None = None, cols: int | None = None) -> bool:
        """Place the tiles for images of ``shape`` on a rows × cols grid; True if it changed."""
        shape = tuple(int(v) for v in shape)
        rows = rows or self.rows
        cols = cols or self.cols
        if (shape, rows, cols, self.vgap) == self._key:
            return False
        self._key = (shape, rows, cols, self.vgap)
        self._tile = shape
        self.rows, self.cols = rows, cols
        h, w = shape
        g, gv = self.gaps()
        for i, img in enumerate(self.items):
            r, c = divmod(i, cols)
            img.setPos(self.tile_rect(r, c).topLeft())
        width = cols * w + (cols - 1) * g
        height = rows * h + (rows - 1) * gv + (gv if self.vgap is not None else 0.0)
        top, left = self.TOP * h, self.LEFT * w
        self.vb.setRange(QtCore.QRectF(-left, -top, width + left, height + top), padding=0.0)
        self._placed(shape)
        return True

    def _placed(self, shape) -> None:
        """Hook: position labels after a layout change."""


def _tile_overlays(vb, n: int, point_size: float, anchor) -> tuple[list, list]:
    """``n`` hidden overlay images (drawn above the tiles) and ``n`` text labels in ``vb``."""
    font = QtGui.QFont()
    font.setPointSizeF(point_size)
    overlays, labels = [], []
    for _ in range(n):
        ov = pg.ImageItem(axisOrder="row-major")
        ov.setZValue(1)
        ov.setVisible(False)
        vb.addItem(ov)
        overlays.append(ov)
        t = pg.TextItem("", color="#333333", anchor=anchor)
        t.setFont(font)
        vb.addItem(t, ignoreBounds=True)
        labels.append(t)
    return overlays, labels


class BasisView(_Mosaic):
    """The first basis images (up to ``capacity``), on the grid that makes them largest in the
    space available; grey levels symmetric around 0 for each image (mid grey = 0, white = its
    largest positive entry, black = its negative).

    Sparse loadings (``Snapshot.basis_zero`` not None): pixels that are exactly 0 are painted in
    the flat :data:`ZERO_COLOR` over the image, and the number of non-zeros is written under
    each image (also in the title's tooltip).

    NMF parts (``Snapshot.nmf``) are non-negative: each is drawn on a sequential grey scale from
    0 (black) to its largest entry (white), so the parts read as bright regions on black."""

    TITLE = "Basis images"
    NMF_TITLE = "NMF parts"
    COUNT_GAP = 0.32        # room under each tile for its count, in tile heights

    def __init__(self, capacity: int = 10, parent=None):
        super().__init__(self.TITLE, 2, (capacity + 1) // 2, capacity=capacity, parent=parent)
        self.overlays, self.count_labels = _tile_overlays(self.vb, len(self.items), 7.5, (0.5, 0.0))
        for t in self.count_labels:
            t.setVisible(False)
        self.snapshot = None
        self.nonzeros: list[int] = []
        self._n = 0
        self.nmf = False

    def best_grid(self, n: int, shape) -> tuple[int, int]:
        """(rows, cols) giving the largest tiles for ``n`` images of ``shape`` in this view."""
        width = max(self.width() - 8, 1)
        height = max(self.height() - self.title.boundingRect().height() - 8, 1)
        h, w = shape
        g, gv = self.gaps(shape)
        extra = gv if self.vgap is not None else 0.0
        best = (0.0, 1, max(n, 1))
        for rows in range(1, max(n, 1) + 1):
            cols = -(-n // rows)
            scale = min(width / (cols * w + (cols - 1) * g), height / (rows * h + (rows - 1) * gv + extra))
            if scale > best[0] * 1.0001:
                best = (scale, rows, cols)
        return best[1], best[2]

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        if getattr(self, "_n", 0) and self._tile is not None:
            self._layout(self._tile, *self.best_grid(self._n, self._tile))

    def _placed(self, shape) -> None:
        h, w = shape
        for i, (ov, t) in enumerate(zip(self.overlays, self.count_labels)):
            r, c = divmod(i, self.cols)
            rect = self.tile_rect(r, c)
            ov.setPos(rect.topLeft())
            t.setPos(rect.center().x(), rect.bottom() + 0.02 * h)

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        basis = None if snap is None else snap.basis
        n = 0 if basis is None else min(len(basis), len(self.items))
        self._n = n
        zero = None if snap is None or snap.basis_zero is None else np.asarray(snap.basis_zero, dtype=bool)
        nmf = bool(getattr(snap, "nmf", False))
        self.nmf = nmf
        self.vgap = self.COUNT_GAP if zero is not None else None
        if n:
            self._layout(basis.shape[1:], *self.best_grid(n, basis.shape[1:]))
        self.nonzeros = []
        for i, img in enumerate(self.items):
            ov, lab = self.overlays[i], self.count_labels[i]
            if i < n:
                b = basis[i]
                if nmf:                                 # parts ≥ 0: black = 0, white = largest
                    m = float(np.max(b))
                    img.setImage(b, levels=(0.0, m if m > 0 else 1.0), autoLevels=False)
                else:
                    m = float(np.max(np.abs(b))) or 1.0
                    img.setImage(b, levels=(-m, m), autoLevels=False)
                img.setVisible(True)
                if zero is not None:
                    ov.setImage(_zero_rgba(zero[i]), autoLevels=False, levels=(0, 255))
                    nz = int(b.size - np.count_nonzero(zero[i]))
                    self.nonzeros.append(nz)
                    lab.setText(f"{nz} ≠ 0")
                ov.setVisible(zero is not None)
                lab.setVisible(zero is not None)
            else:
                img.setVisible(False)
                ov.setVisible(False)
                lab.setVisible(False)
        if snap is not None:
            name = self.NMF_TITLE if nmf else self.TITLE
            text = f"{name}: first {n}" if n else f"{name}: none"
            if zero is not None:
                sw = "#%02x%02x%02x" % ZERO_COLOR[:3]
                text += (f"  <span style='color:#777;font-size:8pt'>(<span style='background:{sw}'>"
                         f"&nbsp;{ZERO_NAME}&nbsp;</span>: exactly 0; count: non-zeros)</span>")
                tip = "Non-zero pixels per component: " + ", ".join(
                    f"{i + 1}: {nz}" for i, nz in enumerate(self.nonzeros))
            elif nmf:
                text += "  <span style='color:#777;font-size:8pt'>(black = 0, white = largest)</span>"
                tip = ("Non-negative parts W (rows of unit norm), each on its own scale from 0 "
                       "(black) to its largest entry (white)")
            else:
                text += "  <span style='color:#777;font-size:8pt'>(grey = 0)</span>"
                tip = ""
            if text != self.title.text:
                self.title.setText(text)
            if self.toolTip() != tip:
                self.setToolTip(tip)


class WeightMapView(_Mosaic):
    """Per-pixel weights Q of the chosen samples (``Snapshot.weight_maps``; robust NMF, paper
    003 Fig. 3): one map per sample, side by side, on a fixed 0–1 colour scale
    (:data:`WEIGHT_CMAP`, colour bar on the right) so that maps and iterations compare; pixels
    the method truncated (``Snapshot.truncated_maps``, Q = 0) painted over in the saturated
    :data:`TRUNCATED_COLOR`. Above each map: the sample index ("corrupted" for a sample the
    corruption touched; not in red, which marks truncation here), its mean weight and the share
    of its pixels truncated.

    Shown only for methods with per-entry weights; the ImageItems and captions are created once
    and reused on every frame."""

    TITLE = "Pixel weights Q"
    TOP = 0.62              # room above the maps for the three-line captions, in tile heights
    GAP = 0.12

    def __init__(self, capacity: int = 3, parent=None):
        super().__init__(self.TITLE, 1, capacity, capacity=capacity, parent=parent)
        cmap = pg.colormap.get(WEIGHT_CMAP)
        lut = cmap.getLookupTable(nPts=256)
        for img in self.items:
            img.setLookupTable(lut)
        self.ci.removeItem(self.title)                    # the title spans the colour bar too
        self.ci.addItem(self.title, row=0, col=0, colspan=2)
        self.colorbar = pg.ColorBarItem(values=(0.0, 1.0), colorMap=cmap, interactive=False,
                                        width=10, pen=COLORS["axis"], colorMapMenu=False)
        self.colorbar.setToolTip("Q = 1: pixel fully trusted; Q = 0: ignored")
        axis = self.colorbar.getAxis("right")
        axis.setTextPen(COLORS["axis"])
        axis.setPen(COLORS["axis"])
        axis.setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], [(0.25, ""), (0.75, "")]])
        self.ci.addItem(self.colorbar, row=1, col=1)
        self.ci.layout.setColumnSpacing(0, 8)              # the bar does not touch the last map
        # the bar and the title never change with the iteration: paint them from a cache
        cache = QtWidgets.QGraphicsItem.DeviceCoordinateCache
        self.colorbar.setCacheMode(cache)
        for name in ("left", "right", "top", "bottom"):
            self.colorbar.getAxis(name).setCacheMode(cache)
        self.title.setCacheMode(cache)
        self.overlays, self.captions = _tile_overlays(self.vb, len(self.items), 8.0, (0.5, 1.0))
        self._caption_text = [None] * len(self.items)
        self._truncation = None
        self.snapshot = None
        self.setToolTip("Per-pixel weight the method gives each pixel of the sample (1 = trusted, "
                        f"0 = ignored); {TRUNCATED_NAME}: truncated as an outlier (Q = 0)")

    def _placed(self, shape) -> None:
        h, w = shape
        for c, (ov, t) in enumerate(zip(self.overlays, self.captions)):
            rect = self.tile_rect(0, c)
            ov.setPos(rect.topLeft())
            t.setPos(rect.center().x(), -0.04 * h)

    def drawn_maps(self) -> list[np.ndarray]:
        """The weight maps as drawn, one per visible map."""
        return [img.image for img in self.items if img.isVisible() and img.image is not None]

    def drawn_truncated(self) -> list[np.ndarray]:
        """(h, w) bool per visible map: True where the truncation colour is painted."""
        return [ov.image[..., 3] > 0 if ov.isVisible() and ov.image is not None
                else np.zeros(img.image.shape, dtype=bool)
                for img, ov in zip(self.items, self.overlays) if img.isVisible() and img.image is not None]

    def caption_texts(self) -> list[str]:
        """The captions of the visible maps."""
        return [t.textItem.toPlainText() for t, img in zip(self.captions, self.items) if img.isVisible()]

    def _set_title(self, truncation: bool) -> None:
        if truncation == self._truncation:
            return
        self._truncation = truncation
        text = self.TITLE + "  <span style='color:#777;font-size:8pt'>(0–1"
        if truncation:
            sw = "#%02x%02x%02x" % TRUNCATED_COLOR[:3]
            text += (f"; <span style='background:{sw};color:white'>&nbsp;{TRUNCATED_NAME}&nbsp;</span>"
                     ": truncated, Q = 0")
        self.title.setText(text + ")</span>")

    def _set_caption(self, i: int, text: str, color) -> None:
        if self._caption_text[i] != (text, color):
            self._caption_text[i] = (text, color)
            self.captions[i].setText(text, color=color)

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        maps = None if snap is None else snap.weight_maps
        n = 0 if maps is None else min(len(maps), len(self.items))
        cut = None if snap is None else snap.truncated_maps
        if n:
            self._layout(maps.shape[1:], 1, n)
            self._set_title(cut is not None)
        for i, (img, ov) in enumerate(zip(self.items, self.overlays)):
            if i >= n:
                img.setVisible(False)
                ov.setVisible(False)
                self._set_caption(i, "", "#333333")
                continue
            img.setImage(maps[i], levels=(0.0, 1.0), autoLevels=False)
            img.setVisible(True)
            if cut is not None:
                ov.setImage(_mask_rgba(np.asarray(cut[i], dtype=bool), TRUNCATED_COLOR),
                            autoLevels=False, levels=(0, 255))
            ov.setVisible(cut is not None)
            j = int(snap.samples[i])
            lines = [f"#{j}" + (" · corrupted" if bool(snap.outliers[j]) else " · clean")]
            if snap.mean_weights is not None:
                lines.append(f"mean Q {float(snap.mean_weights[j]):.2f}")
            if snap.truncated_share is not None:
                lines.append(f"{100.0 * float(snap.truncated_share[i]):.0f} % truncated")
            self._set_caption(i, "\n".join(lines), "#333333")


class ReconView(_Mosaic):
    """Per chosen sample (rows): clean | corrupted | reconstruction | residual (columns), plus
    E (sparse part) when the method has one (``Snapshot.sparse_maps``; low-rank + sparse methods).
    Grey levels 0–255; the residual (corrupted − reconstruction) and E on a blue–white–red scale,
    ±128 grey levels.

    Data with images one pixel high (toy examples with a few features) is not on the 0–255 scale:
    its strips get levels from the data shown."""

    TITLE = "clean | corrupted | reconstruction | residual"
    SPARSE_TITLE = "clean | corrupted | recon. | residual | E (sparse part)"
    COLUMNS = ("clean", "corrupted", "recon.", "residual", "E")
    TOP = 0.5
    LEFT = 0.4
    MAX_COLS = 5

    def __init__(self, n_rows: int = 3, parent=None):
        super().__init__(self.TITLE, n_rows, 4, capacity=n_rows * self.MAX_COLS, parent=parent)
        self._lut = pg.colormap.get("CET-D1").getLookupTable(nPts=256)
        self.n_rows = n_rows
        font = QtGui.QFont()
        font.setPointSizeF(8.0)
        self.headers = []
        for name in self.COLUMNS:
            t = pg.TextItem(name, color="#444444", anchor=(0.5, 1.0))
            t.setFont(font)
            self.vb.addItem(t, ignoreBounds=True)
            self.headers.append(t)
        self.row_labels = []
        for _ in range(n_rows):
            t = pg.TextItem("", color="#444444", anchor=(0.5, 1.0), angle=90)
            t.setFont(font)
            self.vb.addItem(t, ignoreBounds=True)
            self.row_labels.append(t)
        self._row_text = [None] * n_rows
        self._luts_for = None
        self._set_luts(4)
        self.snapshot = None

    @property
    def n_columns(self) -> int:
        """Columns shown: 4, or 5 with the sparse part E."""
        return self.cols

    def _set_luts(self, cols: int) -> None:
        if self._luts_for == cols:
            return
        self._luts_for = cols
        for i, img in enumerate(self.items):
            c = i % cols
            img.setLookupTable(self._lut if c >= 3 else None)

    def _placed(self, shape) -> None:
        h, w = shape
        for c, t in enumerate(self.headers):
            if c < self.cols:
                rect = self.tile_rect(0, c)
                t.setPos(rect.center().x(), -0.05 * h)
            t.setVisible(c < self.cols)
        for r, t in enumerate(self.row_labels):
            rect = self.tile_rect(r, 0)
            t.setPos(-0.05 * w, rect.center().y())

    def item(self, row: int, col: int) -> pg.ImageItem:
        return self.items[row * self.cols + col]

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        rows = None if snap is None else snap.rows
        sparse = None if snap is None else snap.sparse_maps
        cols = 5 if sparse is not None else 4
        if rows is not None and len(rows):
            self._set_luts(cols)
            self._layout(rows.shape[2:], self.n_rows, cols)
            title = self.SPARSE_TITLE if cols == 5 else self.TITLE
            if self.title.text != title:
                self.title.setText(title)
        levels = (0.0, 255.0)
        signed = (-RESIDUAL_RANGE, RESIDUAL_RANGE)
        if rows is not None and len(rows) and min(rows.shape[2:]) == 1:
            # a few features, not grey levels: levels from the data shown
            lo, hi = float(np.min(rows[:, :3])), float(np.max(rows[:, :3]))
            levels = (lo, hi if hi > lo else lo + 1.0)
            m = float(np.max(np.abs(rows[:, 3]))) if sparse is None else \
                max(float(np.max(np.abs(rows[:, 3]))), float(np.max(np.abs(sparse))))
            signed = (-(m or 1.0), m or 1.0)
        shown = set()
        for r in range(self.rows):
            visible = rows is not None and r < len(rows)
            for c in range(self.cols):
                img = self.item(r, c)
                shown.add(id(img))
                if visible:
                    data = sparse[r] if c == 4 else rows[r, c]
                    img.setImage(data, levels=signed if c >= 3 else levels, autoLevels=False)
                img.setVisible(visible)
            if visible:
                i = int(snap.samples[r])
                bad = bool(snap.outliers[i])
                self._set_row_label(r, f"#{i}", COLORS["corrupted"] if bad else "#444444")
            else:
                self._set_row_label(r, "", "#444444")
        for img in self.items:
            if id(img) not in shown:
                img.setVisible(False)

    def _set_row_label(self, r: int, text: str, color) -> None:
        if self._row_text[r] != (text, color):
            self._row_text[r] = (text, color)
            self.row_labels[r].setText(text, color=color)
