"""The views of the regression workspace. Each draws a
:class:`core.regression.views.RegressionSnapshot` (or a piece of one); none computes anything
numerical beyond reshaping, stacking and colour levels.

* :class:`InputImagesView`    training samples: clean | input X | cleaned D | outliers E (images;
                              missing input entries painted over)
* :class:`ProjectionView`     points (the 3-D example): one 2-D projection of the inputs (×, coloured
                              by kind of error), the cleaned points (red o), the clean points and the
                              displacement input → cleaned
* :class:`SingularValuesView` singular values of D (log), with those of X (iteration 0) for reference
* :class:`ResidualView`       primal residuals r1, r2 and the penalties μ against iteration (log)
* :class:`WeightImagesView`   the regressor T as weight images, one per output/class (diverging,
                              symmetric at 0)
In :mod:`app.regression.outcome_views` (re-exported here): :class:`CoefficientsView` (T as bars),
:class:`TestSamplesView`, :class:`ConfusionView` and :class:`PredictionView`.

Each declares itself a :class:`app.views.View` of task ``"regression"`` and is listed in
:data:`REGISTERED`, which :func:`app.views.for_task` joins to the registry (adding a regression view:
the class here plus one line in :data:`REGISTERED`).

The objective and the rank / nnz(E) curves are the method columns' :class:`~app.views.ObjectiveView`
and :class:`~app.views.ScalarHistoryView`, which draw a RegressionSnapshot as they are.
"""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from ..views.common import (COLORS, DIVERGING, View, export_arrays, DecadeAxis, Message, style_plot, fitting_font)
from ..views.basis import BasisView
from ..views.recon import ReconView
from .outcome_views import CoefficientsView, ConfusionView, PredictionView, TestSamplesView
from .view_style import (CLEANED_COLOR, KIND_COLORS, MISSING_COLOR, MISSING_NAME, RIGHT_COLOR,
                         TRUTH_COLOR, UNTOUCHED, UNTOUCHED_COLOR, WRONG_COLOR, grown_range_end, missing_rgba, note_html,
                         set_clipped_title)

__all__ = ["InputImagesView", "ProjectionView", "SingularValuesView", "ResidualView",
           "WeightImagesView", "CoefficientsView", "TestSamplesView", "ConfusionView",
           "PredictionView", "KIND_COLORS", "UNTOUCHED", "MISSING_COLOR", "RIGHT_COLOR", "WRONG_COLOR"]


# =========================================================================== training images
class InputImagesView(ReconView):
    """Per shown training sample (rows): clean | input X | cleaned D | outliers E
    (``RegressionSnapshot.rows``). Grey levels 0–255; E on the blue–white–red scale, ±128 grey
    levels. Missing input entries (``missing_maps``) are painted magenta over the input. Row
    labels: the training-sample index, red for a sample the corruption touched."""

    title = "Training samples"
    tasks = frozenset({"regression"})
    name = "input_view"

    TITLE = "Training samples: clean | input X | cleaned D | outliers E = X − D"
    COLUMNS = ("clean", "input X", "cleaned D", "outliers E", "")

    def __init__(self, n_rows: int = 3, parent=None):
        super().__init__(n_rows=n_rows, parent=parent)
        self.title.setText(self.TITLE)
        self.missing_overlays = []
        for _ in range(n_rows):
            ov = pg.ImageItem(axisOrder="row-major")
            ov.setZValue(1)
            ov.setVisible(False)
            self.vb.addItem(ov)
            self.missing_overlays.append(ov)

    def _placed(self, shape) -> None:
        super()._placed(shape)
        for r, ov in enumerate(self.missing_overlays):
            ov.setPos(self.tile_rect(r, 1).topLeft())

    def show_snapshot(self, snap) -> None:
        self.regression_snapshot = snap
        if snap is None or snap.rows is None:
            super().show_snapshot(None)
            for ov in self.missing_overlays:
                ov.setVisible(False)
            return
        super().show_snapshot(SimpleNamespace(rows=snap.rows, sparse_maps=None, samples=snap.samples,
                                              outliers=snap.corrupted))
        if self.title.text != self.TITLE + self._missing_note(snap):
            self.title.setText(self.TITLE + self._missing_note(snap))
        maps = snap.missing_maps
        for r, ov in enumerate(self.missing_overlays):
            show = maps is not None and r < len(maps)
            if show:
                ov.setImage(missing_rgba(np.asarray(maps[r], dtype=bool)), autoLevels=False, levels=(0, 255))
            ov.setVisible(show)

    @staticmethod
    def _missing_note(snap) -> str:
        return note_html(f"{MISSING_NAME}: missing entries") if snap.missing_maps is not None else ""

    def export_data(self, snapshot) -> dict:
        """sample (k,); clean, input, cleaned, outliers (k, h, w) in grey levels; missing (k, h, w) 0/1."""
        if snapshot is None or snapshot.rows is None or not len(snapshot.rows):
            return {}
        rows = np.asarray(snapshot.rows, dtype=float)
        return export_arrays(sample=snapshot.samples, clean=rows[:, 0], input=rows[:, 1], cleaned=rows[:, 2],
                       outliers=rows[:, 3], missing=None if snapshot.missing_maps is None
                       else np.asarray(snapshot.missing_maps, dtype=int))


# =========================================================================== points
class ProjectionView(pg.PlotWidget, View):
    """Points (``RegressionSnapshot.points``, the 3-D example of §5.1) projected on two axes:
    the inputs X as ×, coloured by the kind of error they got (``kinds``: in-plane,
    out-of-plane; grey: uncorrupted), the clean points (blue dots), the cleaned points D (red
    rings) and a segment from every input to its cleaned point (the displacement the method
    made), in the colour of its kind. Equal aspect."""

    title = "Projection of the points"
    tasks = frozenset({"regression"})
    name = "projection_view"

    def __init__(self, axes=(0, 1), title: str = "", parent=None):
        super().__init__(parent)
        self.axes = tuple(axes)
        names = ("x₁", "x₂", "x₃")
        plot = self.getPlotItem()
        self.title_text = title or f"{names[axes[0]]}–{names[axes[1]]}"
        style_plot(plot, self.title_text, names[axes[0]], names[axes[1]])
        set_clipped_title(plot, self.title_text)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.setAspectLocked(True, ratio=1.0)
        plot.hideButtons()
        self.segments: dict[str, pg.PlotDataItem] = {}
        self.inputs: dict[str, pg.ScatterPlotItem] = {}
        self.truth = pg.ScatterPlotItem(pxMode=True, symbol="o", size=5, pen=None,
                                        brush=pg.mkBrush(*TRUTH_COLOR, 200))
        self.cleaned = pg.ScatterPlotItem(pxMode=True, symbol="o", size=9, brush=None,
                                          pen=pg.mkPen(CLEANED_COLOR, width=1.6))
        self.truth.setZValue(2)
        self.cleaned.setZValue(3)
        self.snapshot = None
        self._key = None

    def _items_for(self, kind: str, color):
        if kind not in self.segments:
            plot = self.getPlotItem()
            seg = pg.PlotDataItem([], [], connect="pairs", pen=pg.mkPen(*color, 170, width=1.2))
            seg.setZValue(0)
            sc = pg.ScatterPlotItem(pxMode=True, symbol="x", size=9, pen=pg.mkPen(color, width=1.6),
                                    brush=pg.mkBrush(color))
            sc.setZValue(1)
            plot.addItem(seg)
            plot.addItem(sc)
            self.segments[kind], self.inputs[kind] = seg, sc
        return self.segments[kind], self.inputs[kind]

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        pts = None if snap is None else snap.points
        if pts is None or pts["input"].shape[1] <= max(self.axes):
            for item in list(self.segments.values()) + list(self.inputs.values()) + [self.truth, self.cleaned]:
                item.setData([], [])
            return
        plot = self.getPlotItem()
        if self.truth.scene() is None:
            plot.addItem(self.truth)
            plot.addItem(self.cleaned)
        a, b = self.axes
        X = np.asarray(pts["input"])[:, [a, b]]
        D = np.asarray(pts["cleaned"])[:, [a, b]]
        groups = []
        touched = np.zeros(len(X), dtype=bool)
        for i, (kind, m) in enumerate(snap.kinds.items()):
            m = np.asarray(m, dtype=bool)
            groups.append((kind, m, KIND_COLORS[i % len(KIND_COLORS)]))
            touched |= m
        groups.append((UNTOUCHED, ~touched, UNTOUCHED_COLOR))
        for kind, m, color in groups:
            seg, sc = self._items_for(kind, color)
            xs = np.empty(2 * int(m.sum()))
            ys = np.empty_like(xs)
            xs[0::2], xs[1::2] = X[m, 0], D[m, 0]
            ys[0::2], ys[1::2] = X[m, 1], D[m, 1]
            seg.setData(xs, ys)
            sc.setData(X[m, 0], X[m, 1])
        if "clean" in pts:
            C = np.asarray(pts["clean"])[:, [a, b]]
            self.truth.setData(C[:, 0], C[:, 1])
        else:
            self.truth.setData([], [])
        self.cleaned.setData(D[:, 0], D[:, 1])
        key = (len(X), round(float(X.min()), 6), round(float(X.max()), 6))
        if key != self._key:           # a new data set: frame it (not every iteration)
            self._key = key
            plot.autoRange(padding=0.06, items=list(self.inputs.values()) + [self.truth])

    @staticmethod
    def legend_html(snap) -> str:
        """The key of the projections as rich text (one line under the plots)."""
        def sw(color, sym):
            return f"<span style='color:#%02x%02x%02x;font-weight:bold'>{sym}</span>" % tuple(color[:3])
        kinds = list(snap.kinds) if snap is not None else []
        parts = [f"{sw(KIND_COLORS[i % len(KIND_COLORS)], '×')} {k}" for i, k in enumerate(kinds)]
        parts.append(f"{sw(UNTOUCHED_COLOR, '×')} {UNTOUCHED}")
        return ("inputs X: " + " &nbsp; ".join(parts) + f" &nbsp;&nbsp;|&nbsp;&nbsp; {sw(CLEANED_COLOR, '○')} cleaned D"
                + (f" &nbsp; {sw(TRUTH_COLOR, '●')} clean (truth)" if snap is not None and snap.points
                   and 'clean' in snap.points else "")
                + " &nbsp; — segment: input → cleaned")

    def drawn_inputs(self) -> dict:
        """kind → (k, 2) input points as drawn."""
        return {k: np.column_stack(sc.getData()) for k, sc in self.inputs.items()}

    def drawn_cleaned(self) -> np.ndarray:
        return np.column_stack(self.cleaned.getData())

    def drawn_clean(self) -> np.ndarray:
        return np.column_stack(self.truth.getData())

    def drawn_segments(self) -> dict:
        """kind → (k, 2, 2): start (input) and end (cleaned) of every displacement segment."""
        out = {}
        for k, seg in self.segments.items():
            x, y = seg.getData()
            x = np.zeros(0) if x is None else np.asarray(x)
            y = np.zeros(0) if y is None else np.asarray(y)
            out[k] = np.stack([x, y], axis=1).reshape(-1, 2, 2)
        return out

    def export_data(self, snapshot) -> dict:
        """Every point set of the snapshot (name → (n_train, n_features)) and the corrupted flags."""
        if snapshot is None or not snapshot.points:
            return {}
        out = {str(k): np.asarray(v, dtype=float) for k, v in snapshot.points.items()}
        out["corrupted"] = np.asarray(snapshot.corrupted, dtype=int)
        return out


# =========================================================================== curves
class _Decades(DecadeAxis):
    """Log axis labelled at whole decades only (1, 10¹, 10², …): no crowded minor labels."""

    def tickStrings(self, values, scale, spacing):
        if not self.logMode:
            return pg.AxisItem.tickStrings(self, values, scale, spacing)
        return ["" if abs(v - round(v)) > 1e-9 else super(_Decades, self).tickStrings([v], scale, spacing)[0]
                for v in values]


class SingularValuesView(pg.PlotWidget, View):
    """The non-zero singular values of D (``singular_values``), decreasing, on a log axis; those
    of the inputs X (iteration 0, where D = X) in grey for reference. The title gives the rank."""

    title = "Singular values of D"
    tasks = frozenset({"regression"})
    name = "singular_view"

    TITLE = "Singular values of D"

    def __init__(self, parent=None):
        super().__init__(parent, axisItems={"left": _Decades("left")})
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "index", "σᵢ")
        set_clipped_title(plot, self.TITLE)
        plot.setLogMode(y=True)
        plot.hideButtons()
        self.reference = plot.plot([], [], pen=pg.mkPen((160, 160, 160), width=1.5, style=QtCore.Qt.DashLine))
        self.curve = plot.plot([], [], pen=pg.mkPen(COLORS["curve"], width=2), symbol="o", symbolSize=4,
                               symbolBrush=pg.mkBrush(*COLORS["curve"]), symbolPen=None)
        self.snapshot = None
        self._x = None

    def show_snapshot(self, snap, reference=None) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        if snap is None:
            self.curve.setData([], [])
            self.reference.setData([], [])
            return
        s = np.asarray(snap.singular_values, dtype=float)
        self.curve.setData(np.arange(1, len(s) + 1), s)
        ref = np.zeros(0) if reference is None else np.asarray(reference, dtype=float)
        self.reference.setData(np.arange(1, len(ref) + 1), ref)
        n = max(len(s), len(ref), 1)
        if n != self._x:
            self._x = n
            plot.setXRange(0.5, n + 0.5, padding=0.02)
        vals = np.concatenate([s, ref])
        vals = vals[vals > 0]
        if len(vals):
            lo, hi = np.floor(np.log10(vals.min())), np.ceil(np.log10(vals.max()))
            lo = max(lo, hi - 12)           # round-off singular values: at most 12 decades
            plot.setYRange(lo, hi if hi > lo else lo + 1, padding=0.02)
        title = f"{self.TITLE} — rank {snap.rank}" + note_html("log; grey: X at iteration 0")
        set_clipped_title(plot, title)

    def drawn(self) -> np.ndarray:
        y = self.curve.yData
        return np.zeros(0) if y is None else np.asarray(y)

    def export_data(self, snapshot) -> dict:
        """singular_value (r,): the non-zero singular values of the cleaned inputs D."""
        if snapshot is None or snapshot.singular_values is None:
            return {}
        sv = np.asarray(snapshot.singular_values, dtype=float)
        return {"index": np.arange(1, len(sv) + 1), "singular_value": sv}


class ResidualView(pg.PlotWidget, View):
    """The relative primal residuals (``r1``, ``r2``, or the method's ``primal residual``) and the
    penalties μ (``μ1``, ``μ2`` or ``μ``) against iteration, on one log axis (values <= 0, e.g.
    the feasible iteration 0, are left out)."""

    title = "Primal residuals and μ"
    tasks = frozenset({"regression"})
    name = "residual_view"

    TITLE = "Primal residuals and μ"
    STYLES = {"r1": ((30, 90, 170), QtCore.Qt.SolidLine), "r2": ((0, 150, 110), QtCore.Qt.DashLine),
              "primal residual": ((30, 90, 170), QtCore.Qt.SolidLine),
              "μ1": ((200, 110, 20), QtCore.Qt.SolidLine), "μ2": ((150, 60, 170), QtCore.Qt.DashLine),
              "μ": ((200, 110, 20), QtCore.Qt.SolidLine)}

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE + note_html("log"), "iteration", "")
        set_clipped_title(plot, self.TITLE + note_html("log"))
        plot.setLogMode(y=True)
        plot.hideButtons()
        # four entries two a row (four stacked are taller than the chart at 1280×720); two stacked
        self.legend = plot.addLegend(offset=(-4, 4), labelTextSize="7.5pt", verSpacing=-8,
                                     brush=pg.mkBrush(255, 255, 255, 200))
        self.curves: dict[str, pg.PlotDataItem] = {}
        self.message = Message()
        plot.addItem(self.message)
        self.snapshot = None
        self._names: tuple = ()
        self._x = None

    @staticmethod
    def names_for(history) -> tuple:
        names = [n for n in ("r1", "r2") if n in history]
        if not names and "primal residual" in history:
            names = ["primal residual"]
        return tuple(names + [n for n in ("μ1", "μ2", "μ") if n in history])

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        history = {} if snap is None else snap.scalar_history
        names = self.names_for(history)
        if names != self._names:
            self._names = names
            for c in self.curves.values():
                plot.removeItem(c)
            self.legend.clear()
            self.legend.setColumnCount(2 if len(names) > 2 else 1)
            self.curves = {}
            for n in names:
                color, style = self.STYLES[n]
                c = plot.plot([], [], pen=pg.mkPen(color, width=2, style=style), connect="finite", name=n)
                self.curves[n] = c
        if not names:
            self.message.setText("no state yet" if snap is None else "no residuals or μ")
            self.message.setPos(0.5, 0.0)
            return
        if self.message.textItem.toPlainText():
            self.message.setText("")
        last = 1
        for n, c in self.curves.items():
            y = np.asarray(history[n], dtype=float)
            y = np.where(y > 0, y, np.nan)
            c.setData(np.arange(len(y), dtype=float), y)
            last = max(last, len(y) - 1)
        if grown_range_end(last) != self._x:
            self._x = grown_range_end(last)
            plot.setXRange(0, self._x, padding=0.03)
        plot.enableAutoRange(axis="y")

    def drawn(self, name: str) -> tuple[np.ndarray, np.ndarray]:
        c = self.curves.get(name)
        if c is None or c.xData is None:
            return np.zeros(0), np.zeros(0)
        return np.asarray(c.xData), np.asarray(c.yData)

    def export_data(self, snapshot) -> dict:
        """iteration (t,) and every scalar history (t,) of the run (r1, r2, μ1, μ2, rank, …)."""
        if snapshot is None or not snapshot.scalar_history:
            return {}
        out = {str(k): np.asarray(v, dtype=float) for k, v in snapshot.scalar_history.items()}
        n = max(len(v) for v in out.values())
        out = {k: v for k, v in out.items() if v.ndim == 1 and len(v) == n}
        return {"iteration": np.arange(n), **out}


# =========================================================================== the regressor T
class WeightImagesView(BasisView):
    """The regressor T as weight images (``RegressionSnapshot.weights``: one per output, i.e. per
    class for RLDA), on the grid that makes them largest; one diverging colour scale symmetric
    around 0 shared by all (blue −, white 0, red +), so the classes compare; the output's name
    under each image."""

    title = "Regressor weight images"
    tasks = frozenset({"regression"})
    name = "weight_images_view"

    TITLE = "Regressor T: weight images"

    def __init__(self, capacity: int = 20, parent=None):
        super().__init__(capacity=capacity, parent=parent)
        lut = pg.colormap.get(DIVERGING).getLookupTable(nPts=256)
        for img in self.items:
            img.setLookupTable(lut)
        self.title.setText(self.TITLE)
        self.level = None

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        W = None if snap is None else snap.weights
        n = 0 if W is None else min(len(W), len(self.items))
        self._n = n
        self.vgap = self.COUNT_GAP
        if n:
            self._layout(W.shape[1:], *self.best_grid(n, W.shape[1:]))
            # one symmetric scale for all: the 99th percentile of |T| (a few extreme weights
            # saturate instead of washing every image out)
            m = float(np.percentile(np.abs(W[:n]), 99.0)) or float(np.max(np.abs(W[:n]))) or 1.0
            self.level = m
        for i, img in enumerate(self.items):
            lab = self.count_labels[i]
            if i < n:
                img.setImage(W[i], levels=(-self.level, self.level), autoLevels=False)
                lab.setText(str(snap.output_names[i]) if i < len(snap.output_names) else f"y{i + 1}")
            img.setVisible(i < n)
            lab.setVisible(i < n)
            self.overlays[i].setVisible(False)
        self._fit_counts()
        if snap is not None:
            what = "class" if snap.train_predictions is not None else "output"
            more = f", first {n} of {len(W)}" if W is not None and len(W) > n else ""
            text = (f"Regressor T, one weight image per {what}{more}" +
                    note_html(f"blue −, red +, ±{self.level:.2g}" if n else ""))
            if text != self.title.text:
                self.title.setText(text)

    def _fit_counts(self, *_) -> None:
        """The output names in the largest font that fits under their images as drawn now (in
        place of :class:`BasisView`'s non-zero counts); none written when even 6 pt does not fit
        (the images are in class order, row by row)."""
        px = self.vb.viewPixelSize()
        labels = self.count_labels[:getattr(self, "_n", 0)]
        if self._tile is None or not labels or not px or px[0] <= 0 or px[1] <= 0:
            return
        h, w = self._tile
        g, gv = self.gaps()
        margin = 2 * labels[0].textItem.document().documentMargin()
        font = fitting_font([t.textItem.toPlainText() for t in labels], (w + g) / px[0] - margin - 2,
                            (gv - 0.02 * h) / px[1] - margin)
        for t in labels:
            if font is not None and t.textItem.font().pointSizeF() != font.pointSizeF():
                t.setFont(font)
            t.setVisible(font is not None)

    def drawn(self) -> list[np.ndarray]:
        return [img.image for img in self.items if img.isVisible() and img.image is not None]

    @staticmethod
    def shows(snapshot) -> bool:
        return snapshot is not None and snapshot.weights is not None

    def export_data(self, snapshot) -> dict:
        """weights (n_outputs, h, w): the rows of the regressor T as images."""
        if not self.shows(snapshot):
            return {}
        return {"weights": np.asarray(snapshot.weights, dtype=float)}


#: The regression workspace's views, joined to :data:`app.views.VIEWS` by :func:`app.views.for_task`
#: (with the method columns' ObjectiveView and ScalarHistoryView, whose tasks include "regression").
REGISTERED: list[type] = [
    InputImagesView,
    ProjectionView,
    SingularValuesView,
    ResidualView,
    WeightImagesView,
    CoefficientsView,
    TestSamplesView,
    ConfusionView,
    PredictionView,
]
