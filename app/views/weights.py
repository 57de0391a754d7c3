"""Per-sample weights (log bars), outlier scores or mean pixel weights. See :class:`WeightsView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from .common import (COLORS, OUTLIER_SCORE, TITLE_SIZE, export_arrays, DecadeAxis, Message, style_plot, View,
                      plot_widget_kwargs)

__all__ = ["WeightsView"]

class WeightsView(pg.PlotWidget, View):
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

    title = "Sample weights"
    name = "weights_view"
    area = "side"
    stretch = 4

    TITLE = "Sample weights, log scale (red: corrupted)"
    SCORE_TITLE = "Outlier score ‖eᵢ‖ (red: corrupted)"
    MEAN_TITLE = "Mean pixel weight (red: corrupted)"

    def __init__(self, parent=None):
        super().__init__(parent, **plot_widget_kwargs(axisItems={"left": DecadeAxis("left")}))
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "sample index", "weight (largest = 1)")
        plot.getAxis("left").setTickSpacing(1, 1)
        # a tick text centred on an end of the axis (the "0" of the mean pixel weights' 0–1 scale)
        # is drawn, not dropped (pyqtgraph keeps this margin only on an axis without grid lines)
        plot.getAxis("left").setStyle(hideOverlappingLabels=False)
        # sample indices are counts: no SI prefix ("sample index (x0.001)" did not fit a 4-column lesson)
        plot.getAxis("bottom").enableAutoSIPrefix(False)
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
        self.message = Message()
        self.message.setTextWidth(90)         # wraps between words in a narrow chart
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
            plot.setLabel("left", "mean Q")
            plot.showGrid(x=False, y=False)        # the "0" on the axis's end drawn (see __init__)
            axis.decades = False
            axis.setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], [(0.25, ""), (0.75, "")]])
        else:
            plot.setTitle(self.TITLE, size=TITLE_SIZE, color=COLORS["title"])
            plot.setLabel("left", "weight (largest = 1)")
            axis.decades = True
            axis.setTicks(None)
            axis.setTickSpacing(1, 1)
        if mode != "mean":
            plot.showGrid(x=False, y=True, alpha=0.25)
        axis.resizeEvent(None)          # pyqtgraph places a new label only when the axis is resized
        axis.picture = None
        axis.update()
        self._baseline = None                       # forces a new y range
        self._y_top = None

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        score = None
        mean = None if snap is None else snap.mean_weights
        if snap is not None and snap.sample_weights is None and mean is None:
            score = snap.details.get(OUTLIER_SCORE)
        if snap is None or (snap.sample_weights is None and score is None and mean is None):
            if snap is not None:
                self._set_mode(None if self.mode in ("score", "mean") else self.mode)
            empty = np.zeros(0)
            for item in (self.clean_bars, self.corrupted_bars):
                item.setOpts(x=empty, height=empty)
            self.message.setText("no state yet" if snap is None else "no sample weights")
            self.message.setPos(self.getPlotItem().getViewBox().viewRect().center())     # the middle of the chart
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

    def export_data(self, snapshot) -> dict:
        """Per sample (n,): weights (largest = 1), log10 weights, corrupted (0/1), and, when the
        method has them, mean pixel weights and outlier scores ‖eᵢ‖."""
        if snapshot is None:
            return {}
        return export_arrays(sample=np.arange(len(snapshot.outliers)), weight=snapshot.sample_weights,
                       log10_weight=snapshot.log_weights,
                       corrupted=np.asarray(snapshot.outliers, dtype=int),
                       mean_pixel_weight=snapshot.mean_weights,
                       outlier_score=(snapshot.details or {}).get(OUTLIER_SCORE))
