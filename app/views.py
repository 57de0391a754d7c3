"""The views of one method column. Each draws one :class:`core.views.Snapshot`; none computes
anything numerical (only reshaping and colour levels for display).

* :class:`WeightsView`     per-sample weights, bars; samples the corruption touched in red
* :class:`BasisView`       the first basis images, grey, levels symmetric around 0
* :class:`ObjectiveView`   objective against iteration, line with markers
* :class:`ReconView`       clean | corrupted | reconstruction | residual of the chosen samples
"""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["WeightsView", "BasisView", "ObjectiveView", "ReconView", "COLORS", "configure_pyqtgraph"]

COLORS = {
    "clean": (70, 120, 200),        # bars of untouched samples
    "corrupted": (220, 50, 47),     # bars of samples the corruption touched
    "curve": (30, 90, 170),
    "title": "#222222",
    "axis": "#444444",
}
TITLE_SIZE = "10pt"
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
    """Left axis of the weights chart: the value v is drawn as 10^v."""

    def tickStrings(self, values, scale, spacing):
        return ["1" if round(v) == 0 else "10" + str(int(round(v))).translate(_SUPERSCRIPT)
                if abs(v - round(v)) < 1e-9 else "" for v in values]


class WeightsView(pg.PlotWidget):
    """Bar chart of the sample weights on a log scale (``Snapshot.log_weights``: decades below the
    largest weight); samples in ``Snapshot.outliers`` drawn red.

    Reweighting spreads weights over orders of magnitude (a sample the subspace passes through can
    outweigh all others ten-thousandfold), so a linear chart would show one bar and many slivers.
    Bars rise from a baseline at the lowest whole decade present.

    Two single-colour BarGraphItems (untouched / corrupted samples) rather than one with a brush
    per bar: pyqtgraph then draws each set with one call, which keeps frames cheap."""

    TITLE = "Sample weights, log scale (red: corrupted)"

    def __init__(self, parent=None):
        super().__init__(parent, axisItems={"left": _DecadeAxis("left")})
        plot = self.getPlotItem()
        _style_plot(plot, self.TITLE, "sample", "weight (largest = 1)")
        plot.getAxis("left").setTickSpacing(1, 1)
        plot.setMouseEnabled(x=True, y=False)
        self._baseline = -1.0
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
        self.snapshot = None

    def drawn_weights(self) -> np.ndarray:
        """The weights as drawn (bar tops read back through the log axis), in sample order
        (NaN where no bar is drawn)."""
        out = np.full(max(self._n, 0), np.nan)
        for item in (self.clean_bars, self.corrupted_bars):
            x = np.asarray(item.opts["x"], dtype=int)
            out[x] = 10.0 ** (np.asarray(item.opts["height"]) + self._baseline)
        return out

    def drawn_outliers(self) -> np.ndarray:
        """Indices of the samples drawn in the 'corrupted' colour."""
        return np.asarray(self.corrupted_bars.opts["x"], dtype=int)

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        plot = self.getPlotItem()
        if snap is None or snap.sample_weights is None:
            empty = np.zeros(0)
            for item in (self.clean_bars, self.corrupted_bars):
                item.setOpts(x=empty, height=empty)
            self.message.setText("no state yet" if snap is None else "this method has no sample weights")
            self.message.setPos(0.5 * max(self._n, 1), 0.5)
            return
        w = np.asarray(snap.log_weights)
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
        baseline = min(-1.0, float(np.floor(w.min())))
        if baseline != self._baseline:
            self._baseline = baseline
            plot.setYRange(baseline, 0.05 * (-baseline), padding=0)
        # Bars rise from the baseline to log10(w); a display offset, not a computation.
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
        self.title = pg.LabelItem(title, size=TITLE_SIZE, color=COLORS["title"])
        self.ci.addItem(self.title, row=0, col=0)
        self.vb = self.ci.addViewBox(row=1, col=0, lockAspect=True, enableMouse=False, invertY=True,
                                     enableMenu=False)
        self.rows, self.cols = rows, cols
        self.items: list[pg.ImageItem] = []
        for _ in range(capacity or rows * cols):
            img = pg.ImageItem(axisOrder="row-major")
            self.vb.addItem(img)
            self.items.append(img)
        self._key = None                # (tile shape, rows, cols) the tiles are laid out for
        self._tile = None
        self.setMinimumSize(160, 120)

    def tile_rect(self, r: int, c: int) -> QtCore.QRectF:
        h, w = self._tile
        g = self.GAP * w
        return QtCore.QRectF(c * (w + g), r * (h + g), w, h)

    def _layout(self, shape, rows: int | None = None, cols: int | None = None) -> bool:
        """Place the tiles for images of ``shape`` on a rows × cols grid; True if it changed."""
        shape = tuple(int(v) for v in shape)
        rows = rows or self.rows
        cols = cols or self.cols
        if (shape, rows, cols) == self._key:
            return False
        self._key = (shape, rows, cols)
        self._tile = shape
        self.rows, self.cols = rows, cols
        h, w = shape
        g = self.GAP * w
        for i, img in enumerate(self.items):
            r, c = divmod(i, cols)
            img.setPos(self.tile_rect(r, c).topLeft())
        width = cols * w + (cols - 1) * g
        height = rows * h + (rows - 1) * g
        top, left = self.TOP * h, self.LEFT * w
        self.vb.setRange(QtCore.QRectF(-left, -top, width + left, height + top), padding=0.0)
        self._placed(shape)
        return True

    def _placed(self, shape) -> None:
        """Hook: position labels after a layout change."""


class BasisView(_Mosaic):
    """The first basis images (up to ``capacity``), on the grid that makes them largest in the
    space available; grey levels symmetric around 0 for each image (mid grey = 0, white = its
    largest positive entry, black = its negative)."""

    TITLE = "Basis images"

    def __init__(self, capacity: int = 10, parent=None):
        super().__init__(self.TITLE, 2, (capacity + 1) // 2, capacity=capacity, parent=parent)
        self.snapshot = None
        self._n = 0

    def best_grid(self, n: int, shape) -> tuple[int, int]:
        """(rows, cols) giving the largest tiles for ``n`` images of ``shape`` in this view."""
        width = max(self.width() - 8, 1)
        height = max(self.height() - self.title.boundingRect().height() - 8, 1)
        h, w = shape
        g = self.GAP * w
        best = (0.0, 1, max(n, 1))
        for rows in range(1, max(n, 1) + 1):
            cols = -(-n // rows)
            scale = min(width / (cols * w + (cols - 1) * g), height / (rows * h + (rows - 1) * g))
            if scale > best[0] * 1.0001:
                best = (scale, rows, cols)
        return best[1], best[2]

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        if getattr(self, "_n", 0) and self._tile is not None:
            self._layout(self._tile, *self.best_grid(self._n, self._tile))

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        basis = None if snap is None else snap.basis
        n = 0 if basis is None else min(len(basis), len(self.items))
        self._n = n
        if n:
            self._layout(basis.shape[1:], *self.best_grid(n, basis.shape[1:]))
        for i, img in enumerate(self.items):
            if i < n:
                b = basis[i]
                m = float(np.max(np.abs(b))) or 1.0
                img.setImage(b, levels=(-m, m), autoLevels=False)
                img.setVisible(True)
            else:
                img.setVisible(False)
        if snap is not None:
            text = f"{self.TITLE}: first {n}" if n else f"{self.TITLE}: none"
            text += "  <span style='color:#777;font-size:8pt'>(grey = 0)</span>"
            if text != self.title.text:
                self.title.setText(text)


class ReconView(_Mosaic):
    """Per chosen sample (rows): clean | corrupted | reconstruction | residual (columns).
    Grey levels 0–255; the residual (corrupted − reconstruction) on a blue–white–red scale,
    ±128 grey levels."""

    TITLE = "clean | corrupted | reconstruction | residual"
    COLUMNS = ("clean", "corrupted", "recon.", "residual")
    TOP = 0.5
    LEFT = 0.4

    def __init__(self, n_rows: int = 3, parent=None):
        super().__init__(self.TITLE, n_rows, 4, parent)
        lut = pg.colormap.get("CET-D1").getLookupTable(nPts=256)
        for r in range(n_rows):
            self.items[r * 4 + 3].setLookupTable(lut)
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
        self.snapshot = None

    def _placed(self, shape) -> None:
        h, w = shape
        for c, t in enumerate(self.headers):
            rect = self.tile_rect(0, c)
            t.setPos(rect.center().x(), -0.05 * h)
        for r, t in enumerate(self.row_labels):
            rect = self.tile_rect(r, 0)
            t.setPos(-0.05 * w, rect.center().y())

    def item(self, row: int, col: int) -> pg.ImageItem:
        return self.items[row * 4 + col]

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        rows = None if snap is None else snap.rows
        if rows is not None and len(rows):
            self._layout(rows.shape[2:])
        for r in range(self.rows):
            visible = rows is not None and r < len(rows)
            for c in range(4):
                img = self.item(r, c)
                if visible:
                    levels = (-RESIDUAL_RANGE, RESIDUAL_RANGE) if c == 3 else (0.0, 255.0)
                    img.setImage(rows[r, c], levels=levels, autoLevels=False)
                img.setVisible(visible)
            if visible:
                i = int(snap.samples[r])
                bad = bool(snap.outliers[i])
                self._set_row_label(r, f"#{i}", COLORS["corrupted"] if bad else "#444444")
            else:
                self._set_row_label(r, "", "#444444")

    def _set_row_label(self, r: int, text: str, color) -> None:
        if self._row_text[r] != (text, color):
            self._row_text[r] = (text, color)
            self.row_labels[r].setText(text, color=color)
