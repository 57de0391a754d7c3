"""The regression workspace's views of the outcome: the learned regressor and the test set.

* :class:`CoefficientsView`   T for inputs that are no images: bars, with the true T* when known
* :class:`TestSamplesView`    test samples: clean | input | cleaned Dₜₑ | outliers Eₜₑ, with their
                              predicted and true label or targets
* :class:`ConfusionView`      test confusion matrix (classification)
* :class:`PredictionView`     predicted against true test targets (regression)

Registered with the training-side views in :data:`app.regression.views.REGISTERED`.
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui

from ..views.common import COLORS, DIVERGING, LINE_COLORS, View, export_arrays, Mosaic, style_plot, fitting_font
from .view_style import (missing_rgba, note_html,
                         set_clipped_title)
from ..views.scaling import base_font

__all__ = ["CoefficientsView", "TestSamplesView", "ConfusionView", "PredictionView"]


class CoefficientsView(pg.PlotWidget, View):
    """T for inputs that are no images (the 3-D example): one bar per entry, grouped by output
    (the last of each group is the intercept), with the true T* as black × when it is known."""

    title = "Regressor coefficients"
    tasks = frozenset({"regression"})
    name = "coefficients_view"

    TITLE = "Regressor T"

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "", "value")
        set_clipped_title(plot, self.TITLE)
        plot.hideButtons()
        plot.setMouseEnabled(x=False, y=False)
        self.bars = pg.BarGraphItem(x=np.zeros(0), height=np.zeros(0), width=0.7, pen=None,
                                    brush=pg.mkBrush(*COLORS["curve"], 200))
        self.truth = pg.ScatterPlotItem(pxMode=True, symbol="x", size=11, pen=pg.mkPen("#111111", width=2),
                                        brush=pg.mkBrush("#111111"))
        plot.addItem(self.bars)
        plot.addItem(self.truth)
        plot.addLine(y=0, pen=pg.mkPen((120, 120, 120), width=1))
        self.snapshot = None
        self._key = None

    def show_snapshot(self, snap, T_true=None, scored=None) -> None:
        """``T_true`` (p, q) the true regressor or None; ``scored`` the columns of T the data
        score (``RegressionData.scored_columns``; the others of T* are drawn grey)."""
        self.snapshot = snap
        plot = self.getPlotItem()
        if snap is None:
            self.bars.setOpts(x=np.zeros(0), height=np.zeros(0))
            self.truth.setData([], [])
            return
        T = np.column_stack([snap.coef, snap.intercept])
        p, q = T.shape
        x = (np.arange(p)[:, None] * (q + 1) + np.arange(q)[None, :]).ravel().astype(float)
        self.bars.setOpts(x=x, height=T.ravel())
        known = T_true is not None and np.shape(T_true) == T.shape
        if known:
            cols = set(range(q)) if scored is None else set(scored)
            grey = np.array([[j not in cols for j in range(q)]] * p).ravel()
            brushes = [pg.mkBrush("#aaaaaa") if g else pg.mkBrush("#111111") for g in grey]
            pens = [pg.mkPen("#aaaaaa", width=2) if g else pg.mkPen("#111111", width=2) for g in grey]
            self.truth.setData(x, np.asarray(T_true, dtype=float).ravel(), brush=brushes, pen=pens)
        else:
            self.truth.setData([], [])
        key = (p, q, tuple(snap.output_names), known, None if scored is None else tuple(scored))
        if key != self._key:
            self._key = key
            feats = [f"x{j + 1}" for j in range(q - 1)] + ["1"]
            major = [(i * (q + 1) + (q - 1) / 2, "") for i in range(p)]
            minor = [(i * (q + 1) + j, f"{snap.output_names[i] if i < len(snap.output_names) else i}·{feats[j]}"
                      if j == 0 else feats[j]) for i in range(p) for j in range(q)]
            plot.getAxis("bottom").setTicks([major, minor])
            plot.setXRange(-0.8, p * (q + 1) - 0.2, padding=0)
            unscored = known and scored is not None and len(set(scored)) < q - 1
            title = self.TITLE + note_html("bars" + ("; ×: true T*" if known else "")
                                       + (" (grey: not scored by RAE_T)" if unscored else ""))
            set_clipped_title(plot, title)
        vals = T.ravel() if not known else np.concatenate([T.ravel(), np.asarray(T_true).ravel()])
        lo, hi = min(float(vals.min()), 0.0), max(float(vals.max()), 0.0)
        d = 0.08 * (hi - lo) if hi > lo else 1.0
        plot.setYRange(lo - d, hi + d, padding=0)

    def drawn(self) -> np.ndarray:
        return np.asarray(self.bars.opts["height"])

    def export_data(self, snapshot) -> dict:
        """coef (n_outputs, n_features) and intercept (n_outputs,): the regressor T."""
        if snapshot is None or snapshot.coef is None:
            return {}
        return export_arrays(coef=snapshot.coef, intercept=snapshot.intercept)


# =========================================================================== test set
class _TestSection:
    """Mixin of the Test section's views: the regression workspace draws them from the test
    outcome (the data's test rows and labels, test-time cleaning), which a snapshot alone does not
    hold, through the method named by :attr:`draws_with`; ``show_snapshot`` only clears them."""

    draws_with = ""

    def _clear(self) -> None:
        raise NotImplementedError

    def show_snapshot(self, snapshot) -> None:
        """Clear the view (``snapshot`` None); it is drawn through :attr:`draws_with`.

        Raises:
            TypeError: ``snapshot`` is not None.
        """
        if snapshot is not None:
            raise TypeError(f"{type(self).__name__} draws the Test section's outcome ({self.draws_with}), "
                            "not a snapshot")
        self._clear()


class TestSamplesView(_TestSection, Mosaic, View):
    """Some test samples (rows): clean | test input | cleaned Dₜₑ | outliers Eₜₑ (the last two
    with test-time cleaning on), and left of each row the prediction and the truth (green when a
    predicted label is right, red when wrong). Grey levels 0–255; Eₜₑ ±128 on blue–white–red;
    missing input entries magenta."""

    title = "Test samples"
    tasks = frozenset({"regression"})
    name = "test_view"

    __test__ = False
    TITLE = "Test samples"
    HEADERS = ("clean", "test input", "cleaned Dₜₑ", "outliers Eₜₑ")
    #: the headers when the long ones do not fit above their tiles (the title names them in full)
    SHORT_HEADERS = ("clean", "input", "Dₜₑ", "Eₜₑ")
    TOP = 0.35
    LEFT = 1.7

    draws_with = "show_rows"

    def _clear(self) -> None:
        self.show_rows(None)

    def __init__(self, n_rows: int = 4, parent=None):
        super().__init__(self.TITLE, n_rows, 4, capacity=n_rows * 4, parent=parent)
        self._lut = pg.colormap.get(DIVERGING).getLookupTable(nPts=256)
        self._luts_for = None
        self._set_luts(4)
        font = QtGui.QFont()
        font.setPointSizeF(8.0)
        self.headers, self.captions, self.overlays = [], [], []
        for name in self.HEADERS:
            t = pg.TextItem(name, color="#444444", anchor=(0.5, 1.0))
            t.setFont(font)
            self.vb.addItem(t, ignoreBounds=True)
            self.headers.append(t)
        for _ in range(n_rows):
            t = pg.TextItem("", color="#444444", anchor=(1.0, 0.5))
            t.setFont(font)
            self.vb.addItem(t, ignoreBounds=True)
            self.captions.append(t)
            ov = pg.ImageItem(axisOrder="row-major")
            ov.setZValue(1)
            ov.setVisible(False)
            self.vb.addItem(ov)
            self.overlays.append(ov)
        self.n_rows = n_rows
        self.caption_texts: list[str] = []
        self._labels_fit = None
        self.vb.sigTransformChanged.connect(self._fit_labels)

    def _placed(self, shape) -> None:
        h, w = shape
        for c, t in enumerate(self.headers):
            if c < self.cols:
                t.setPos(self.tile_rect(0, c).center().x(), -0.04 * h)
            t.setVisible(c < self.cols)
        for r, (t, ov) in enumerate(zip(self.captions, self.overlays)):
            rect = self.tile_rect(r, 0)
            t.setPos(-0.08 * w, rect.center().y())
            ov.setPos(self.tile_rect(r, 1).topLeft())
        self._fit_labels()

    def _fit_labels(self, *_) -> None:
        """Headers and captions in the largest of :data:`app.views.common.LABEL_PT` that fits the tiles as drawn
        now: the short headers when the long ones do not fit, none when even those do not (the
        title names the columns); the captions (two lines) hidden when they do not fit at 6 pt, so
        that no text overlaps another or sticks out of the view however small the section is."""
        px = self.vb.viewPixelSize()
        if self._tile is None or not px or px[0] <= 0 or px[1] <= 0:
            return
        h, w = self._tile
        g, _ = self.gaps()
        margin = 2 * self.headers[0].textItem.document().documentMargin()
        pitch = (w + g) / px[0] - 2
        above = (self.TOP - 0.04) * h / px[1] - margin / 2 - 1
        beside = (self.LEFT - 0.08) * w / px[0] - margin / 2 - 2
        heads = next(((names, font) for names in (self.HEADERS[:self.cols], self.SHORT_HEADERS[:self.cols])
                      for font in [fitting_font(names, pitch, above)] if font is not None), (None, None))
        lines = [line for text in self.caption_texts for line in text.split("\n")] or ["pred 0", "true 0"]
        caption = fitting_font(lines, beside, (h + g) / px[1] / 2 - margin / 2)
        key = (heads[0], heads[1] and heads[1].pointSizeF(), caption and caption.pointSizeF(), tuple(lines))
        if key == self._labels_fit:
            return
        self._labels_fit = key
        for c, t in enumerate(self.headers):
            if heads[0] is not None and c < self.cols:
                t.setFont(heads[1])
                t.setText(heads[0][c], color="#444444")
            t.setVisible(heads[0] is not None and c < self.cols)
        for t in self.captions:
            if caption is not None:
                t.setFont(caption)
            t.setVisible(caption is not None)

    def _set_luts(self, cols: int) -> None:
        if self._luts_for == cols:
            return
        self._luts_for = cols
        for i, img in enumerate(self.items):
            img.setLookupTable(self._lut if i % cols == 3 else None)

    def show_rows(self, rows, captions=(), colors=(), missing=None, title: str | None = None) -> None:
        """``rows`` (k, c, h, w) with c = 2 (clean | input) or 4 (… | Dₜₑ | Eₜₑ), or None;
        ``captions``/``colors`` one per row; ``missing`` (k, h, w) bool or None."""
        k = 0 if rows is None else min(len(rows), self.n_rows)
        cols = self.cols if rows is None else rows.shape[1]
        if k:
            self._set_luts(cols)
            self._layout(rows.shape[2:], self.n_rows, cols)
        self.caption_texts = []
        for r in range(self.n_rows):
            for c in range(cols):
                img = self.items[r * cols + c]
                if r < k:
                    img.setImage(rows[r, c], levels=(-128.0, 128.0) if c == 3 else (0.0, 255.0),
                                 autoLevels=False)
                img.setVisible(r < k)
            text = captions[r] if r < k and r < len(captions) else ""
            color = colors[r] if r < k and r < len(colors) else "#444444"
            self.captions[r].setText(text, color=color)
            if r < k:
                self.caption_texts.append(text)
            ov = self.overlays[r]
            show = r < k and missing is not None and r < len(missing) and bool(np.any(missing[r]))
            if show:
                ov.setImage(missing_rgba(np.asarray(missing[r], dtype=bool)), autoLevels=False, levels=(0, 255))
            ov.setVisible(show)
        for i in range(self.n_rows * cols, len(self.items)):
            self.items[i].setVisible(False)
        self._fit_labels()
        if title is not None and title != self.title.text:
            self.title.setText(title)

    def drawn(self, row: int, col: int) -> np.ndarray:
        return self.items[row * self.cols + col].image

    def export_data(self, snapshot) -> dict:
        """The test outputs, targets and predicted labels of the snapshot."""
        if snapshot is None:
            return {}
        return export_arrays(test_outputs=snapshot.test_outputs, Y_test=snapshot.Y_test,
                       test_predictions=snapshot.test_predictions)


class ConfusionView(_TestSection, pg.PlotWidget, View):
    """Test confusion matrix: rows the true class, columns the predicted one, counts written in
    the cells (white → blue by count)."""

    title = "Test confusion matrix"
    tasks = frozenset({"regression"})
    name = "confusion_view"

    TITLE = "Test predictions"
    #: the class names' size (pt, unzoomed)
    TICK_PT = 7.5
    #: the least size (px, unzoomed) that shows ten classes' names apart under a one-line title
    MIN_SIZE = (170, 190)

    draws_with = "show_counts"

    def _clear(self) -> None:
        self.show_counts(None)

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "predicted", "true")
        set_clipped_title(plot, self.TITLE)
        plot.showGrid(x=False, y=False)
        plot.invertY(True)
        plot.setAspectLocked(True)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        tick_font = base_font()              # one class name per cell: ten of them in 100 px
        tick_font.setPointSizeF(self.TICK_PT)
        for name in ("left", "bottom"):
            plot.getAxis(name).setStyle(tickFont=tick_font)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(pg.colormap.get("CET-L12").getLookupTable(nPts=256))
        plot.addItem(self.image)
        self.texts: list[pg.TextItem] = []       # one per cell, row by row
        self._cells: list = []                     # (text, colour) each cell shows, or None
        self.counts = None
        self._key = None
        self._font_pt = None
        plot.vb.sigTransformChanged.connect(self._fit_cells)

    def _fit_cells(self, *_) -> None:
        """The counts in the largest of :data:`app.views.common.LABEL_PT` that fits a cell as drawn now, or none
        written when even 6 pt does not fit (the cells' colour still shows the count)."""
        if self.counts is None or not self.texts:
            return
        px = self.getPlotItem().vb.viewPixelSize()
        if not px or px[0] <= 0 or px[1] <= 0:
            return
        margin = 2 * self.texts[0].textItem.document().documentMargin()
        font = fitting_font([str(int(self.counts.max()))], 1.0 / px[0] - margin - 1, 1.0 / px[1] - margin)
        pt = None if font is None else font.pointSizeF()
        if pt != self._font_pt:
            self._font_pt = pt
            for t in self.texts:
                if font is not None:
                    t.setFont(font)
        for t, shown in zip(self.texts, self._cells):
            t.setVisible(shown is not None and pt is not None)

    def _cell_texts(self, c: int) -> None:
        """One text item per cell of a c × c matrix (none for c = 0), hidden until drawn."""
        if len(self.texts) == c * c:
            return
        plot = self.getPlotItem()
        for t in self.texts:
            plot.removeItem(t)
        self.texts, self._cells, self._font_pt = [], [None] * (c * c), None
        for k in range(c * c):
            t = pg.TextItem("", anchor=(0.5, 0.5))
            t.setPos(k % c + 0.5, k // c + 0.5)
            t.setVisible(False)
            plot.addItem(t)
            self.texts.append(t)

    def show_counts(self, counts: np.ndarray | None, names=(), title: str = "") -> None:
        """Draw ``counts`` (classes, classes), each non-zero count written in its cell (up to 15
        classes). The cells' text items are built once per number of classes and then only
        changed: building a hundred of them held the GUI thread ~120 ms at every redraw."""
        plot = self.getPlotItem()
        self.counts = counts
        if counts is None:
            self.image.clear()
            for t in self.texts:
                t.setVisible(False)
            return
        c = counts.shape[0]
        self.image.setImage(counts.astype(float), levels=(0.0, max(float(counts.max()), 1.0)), autoLevels=False)
        self._cell_texts(c if c <= 15 else 0)
        top = max(float(counts.max()), 1.0)
        for k, t in enumerate(self.texts):
            n = int(counts[k // c, k % c])
            shown = (str(n), "w" if n > 0.55 * top else "#222222") if n else None
            if shown is not None and shown != self._cells[k]:
                t.setText(*shown)
            self._cells[k] = shown
        key = (c, tuple(names))
        if key != self._key:
            self._key = key
            ticks = [[(k + 0.5, str(n)) for k, n in enumerate(names)]]
            plot.getAxis("bottom").setTicks(ticks)
            plot.getAxis("left").setTicks(ticks)
            plot.setRange(xRange=(0, c), yRange=(0, c), padding=0.02)
        self._fit_cells()
        if title:
            set_clipped_title(plot, title)

    def export_data(self, snapshot) -> dict:
        """counts (classes, classes) as drawn (true label by row, predicted by column)."""
        return {} if self.counts is None else {"counts": np.asarray(self.counts)}


class PredictionView(_TestSection, pg.PlotWidget, View):
    """Predicted against true test targets, one colour per output, and the line y = x."""

    title = "Test predictions against the truth"
    tasks = frozenset({"regression"})
    name = "prediction_view"

    TITLE = "Test predictions against the truth"

    draws_with = "show_predictions"

    def _clear(self) -> None:
        self.show_predictions(None, None)

    def __init__(self, parent=None):
        super().__init__(parent)
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "true target", "predicted")
        set_clipped_title(plot, self.TITLE)
        plot.showGrid(x=True, y=True, alpha=0.2)
        plot.hideButtons()
        self.legend = plot.addLegend(offset=(4, 4), labelTextSize="7.5pt", verSpacing=-8,
                                     brush=pg.mkBrush(255, 255, 255, 200))
        self.diagonal = plot.plot([], [], pen=pg.mkPen((120, 120, 120), width=1, style=QtCore.Qt.DashLine))
        self.points: list[pg.ScatterPlotItem] = []
        self._names: tuple = ()

    def show_predictions(self, Y_true, Y_pred, names=(), title: str = "") -> None:
        plot = self.getPlotItem()
        if Y_true is None:
            for p in self.points:
                p.setData([], [])
            self.diagonal.setData([], [])
            return
        Y_true, Y_pred = np.atleast_2d(Y_true), np.atleast_2d(Y_pred)
        names = tuple(names) or tuple(f"y{j + 1}" for j in range(Y_true.shape[1]))
        if names != self._names:
            self._names = names
            for p in self.points:
                plot.removeItem(p)
            self.legend.clear()
            self.points = []
            for j, n in enumerate(names[:8]):
                color = LINE_COLORS[j % len(LINE_COLORS)]
                p = pg.ScatterPlotItem(pxMode=True, symbol="o", size=6, pen=None,
                                       brush=pg.mkBrush(*color, 170), name=str(n))
                plot.addItem(p)               # named: pyqtgraph adds it to the legend
                self.points.append(p)
        for j, p in enumerate(self.points):
            p.setData(Y_true[:, j], Y_pred[:, j])
        lo = float(min(np.nanmin(Y_true), np.nanmin(Y_pred)))
        hi = float(max(np.nanmax(Y_true), np.nanmax(Y_pred)))
        self.diagonal.setData([lo, hi], [lo, hi])
        plot.autoRange(padding=0.05)
        if title:
            set_clipped_title(plot, title)

    def drawn(self) -> list[np.ndarray]:
        return [np.column_stack(p.getData()) for p in self.points]

    def export_data(self, snapshot) -> dict:
        """Y_test (n_test, n_outputs) and test_outputs (n_test, n_outputs)."""
        if snapshot is None:
            return {}
        return export_arrays(Y_test=snapshot.Y_test, test_outputs=snapshot.test_outputs)
