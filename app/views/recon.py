"""Clean | corrupted | reconstruction | residual (| E) of chosen samples. See :class:`ReconView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from .common import (COLORS, DIVERGING, GREY, RESIDUAL_RANGE, export_arrays, color_bar, is_scatter, is_strip,
                      Mosaic, View)
from .common import LABEL_PT, fitting_font
from .scaling import base_font

__all__ = ["ReconView"]

class ReconView(Mosaic, View):
    """Per chosen sample (rows): clean | corrupted | reconstruction | residual (columns), plus
    E (sparse part) when the method has one (``Snapshot.sparse_maps``; low-rank + sparse methods).
    Grey levels 0–255; the residual (corrupted − reconstruction) and E on a blue–white–red scale,
    ±128 grey levels.

    Data with images one pixel high (toy examples with a few features) is not on the 0–255 scale:
    its strips get levels from the data shown."""

    title = "Reconstructions"
    name = "recon_view"
    stretch = 3

    TITLE = "clean | corrupted | reconstruction | residual"
    SPARSE_TITLE = "clean | corrupted | recon. | residual | E (sparse part)"
    COLUMNS = ("clean", "corrupted", "recon.", "residual", "E")
    #: the headers when tiles are too narrow for :data:`COLUMNS` at 6 pt (the title says them in full)
    SHORT_COLUMNS = ("clean", "corr.", "rec.", "res.", "E")
    TOP = 0.5
    LEFT = 0.45         # room for the row labels ("#12", turned): at 0.4 a 48 px tile left 6 pt of them 0 px to spare
    MAX_COLS = 5

    def __init__(self, n_rows: int = 3, parent=None):
        super().__init__(self.TITLE, n_rows, 4, capacity=n_rows * self.MAX_COLS, parent=parent)
        self._lut = pg.colormap.get(DIVERGING).getLookupTable(nPts=256)
        # horizontal bars under the tiles: the tiles keep the column's width
        self.grey_bar = self.add_color_bar(color_bar(
            GREY, (0.0, 255.0), "grey level", [[(0.0, "0"), (128.0, "128"), (255.0, "255")]],
            horizontal=True), below=True)
        self.residual_bar = self.add_color_bar(color_bar(
            pg.colormap.get(DIVERGING), (-RESIDUAL_RANGE, RESIDUAL_RANGE), "residual",
            [[(-RESIDUAL_RANGE, f"−{RESIDUAL_RANGE:.0f}"), (0.0, "0"), (RESIDUAL_RANGE, f"+{RESIDUAL_RANGE:.0f}")]],
            horizontal=True), below=True)
        # short axis labels (two bars share a column 200 px wide); the units in the tooltips
        self.grey_bar.setToolTip("grey level of the clean, corrupted and reconstructed images (0–255)")
        self.residual_bar.setToolTip("residual = corrupted − reconstruction, in grey levels "
                                     f"(±{RESIDUAL_RANGE:.0f} shown; larger ones saturate)")
        self.n_rows = n_rows
        font = QtGui.QFont()
        font.setPointSizeF(8.0)
        self.headers = []
        for name in self.COLUMNS:
            t = pg.TextItem(name, color="#444444", anchor=(0.5, 1.0))
            t.setFont(font)
            t.setVisible(False)          # until the tiles are placed (_placed): not all at (0, 0)
            self.vb.addItem(t, ignoreBounds=True)
            self.headers.append(t)
        self.row_labels = []
        for _ in range(n_rows):
            t = pg.TextItem("", color="#444444", anchor=(0.5, 1.0), angle=90)
            t.setFont(font)
            self.vb.addItem(t, ignoreBounds=True)
            self.row_labels.append(t)
        self._row_text = [None] * n_rows
        self._labels_fit = None           # (header names, header pt, row pt) drawn
        self.vb.sigTransformChanged.connect(self._fit_labels)
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

    def width_for_tile(self, px: float) -> float:
        """Screen pixels of width the view needs for thumbnails ``px`` wide: its rows of
        :attr:`n_columns` tiles, the gaps and the row labels' room side by side (its height
        may still make them smaller)."""
        cols = self.cols
        left, _, right, _ = self.ci.layout.getContentsMargins()
        return px * (self.LEFT + cols + (cols - 1) * self.GAP) + left + right + self.bars_width()

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
        self._fit_labels()

    def _fit_labels(self, *_) -> None:
        """Headers and row labels in the largest of :data:`LABEL_PT` that fits the tiles as drawn
        now (the headers shortened when even 6 pt does not), so that they never overlap or stick
        out of the view however small the column is."""
        if self._tile is None:
            return
        px = self.vb.viewPixelSize()
        if not px or px[0] <= 0 or px[1] <= 0:
            return
        h, w = self._tile
        g, _ = self.gaps()
        margin = 2 * self.headers[0].textItem.document().documentMargin()
        pitch = (w + g) / px[0] - 2
        above = (self.TOP - 0.05) * h / px[1] - margin / 2 - 1
        beside = (self.LEFT - 0.05) * w / px[0] - margin / 2 - 1

        heads = next(((names, font) for names in (self.COLUMNS[:self.cols], self.SHORT_COLUMNS[:self.cols])
                      for font in [fitting_font(names, pitch, above)] if font is not None),
                     (self.SHORT_COLUMNS[:self.cols], self._font(LABEL_PT[-1])))
        rows = fitting_font(["#0000"], h / px[1], beside) or self._font(LABEL_PT[-1])
        key = (heads[0], heads[1].pointSizeF(), rows.pointSizeF())
        if key == self._labels_fit:
            return
        self._labels_fit = key
        for t, name in zip(self.headers, heads[0]):
            t.setFont(heads[1])
            t.setText(name, color="#444444")
        for t in self.row_labels:
            t.setFont(rows)

    @staticmethod
    def _font(pt: float) -> QtGui.QFont:
        font = base_font()
        font.setPointSizeF(pt)
        return font

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

    @staticmethod
    def shows(snapshot) -> bool:
        return snapshot is not None and not is_scatter(snapshot) and not is_strip(snapshot)

    def export_data(self, snapshot) -> dict:
        """sample (m,): indices of the chosen samples; clean, corrupted, reconstruction, residual
        (m, h, w) in grey levels (0–255); sparse_part (m, h, w) for low-rank + sparse methods."""
        if not self.shows(snapshot):
            return {}
        rows = np.asarray(snapshot.rows, dtype=float)
        return export_arrays(sample=snapshot.samples, clean=rows[:, 0], corrupted=rows[:, 1],
                       reconstruction=rows[:, 2], residual=rows[:, 3], sparse_part=snapshot.sparse_maps)
