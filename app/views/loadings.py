"""Components of data with few features as a heat map. See :class:`LoadingsView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtGui

from .common import (COLORS, DIVERGING, TITLE_SIZE, ZERO_NAME, color_bar, is_strip, keep_text_space, style_plot,
                     View, zero_rgba, plot_widget_kwargs)

__all__ = ["LoadingsView"]

class LoadingsView(pg.PlotWidget, View):
    """Components of data with few features (toy examples such as Hastie's 10 variables): a heat
    map, one row per component and one column per feature (diverging colours symmetric around 0
    per component), exact zeros in the zero colour, the number of non-zeros on the left axis."""

    title = "Loadings"
    name = "loadings_view"
    default_visible = False

    TITLE = "Loadings"

    def __init__(self, parent=None):
        super().__init__(parent, **plot_widget_kwargs())
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "feature", "")
        plot.showGrid(x=False, y=False)
        plot.invertY(True)
        plot.setMouseEnabled(x=False, y=False)
        plot.hideButtons()
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(pg.colormap.get(DIVERGING).getLookupTable(nPts=256))
        self.colorbar = color_bar(pg.colormap.get(DIVERGING), (-1.0, 1.0), "loading ÷ largest |loading|",
                                   [[(-1.0, "−1"), (0.0, "0"), (1.0, "1")]])
        plot.layout.addItem(self.colorbar, 2, 3)
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
        self.zero.setImage(zero_rgba(zero if zero is not None else np.zeros(L.shape, bool)),
                           autoLevels=False, levels=(0, 255))
        self.nonzeros = [int(v) for v in np.count_nonzero(L, axis=1)]
        key = (L.shape, tuple(self.nonzeros))
        if key != self._key:
            self._key = key
            k, p = L.shape
            ax = plot.getAxis("left")
            names = [f"PC{i + 1} ({nz}/{p})" for i, nz in enumerate(self.nonzeros)]
            ax.setTicks([[(i + 0.5, name) for i, name in enumerate(names)]])
            # room for the names before the first paint (pyqtgraph widens an axis only after one,
            # and drops the texts wider than it meanwhile: a view below the fold had none)
            fm = QtGui.QFontMetrics(ax.style.get("tickFont") or ax.font())
            keep_text_space(ax, max(fm.horizontalAdvance(name) for name in names) + 4)
            plot.getAxis("bottom").setTicks([[(j + 0.5, str(j + 1)) for j in range(p)]])
            plot.setRange(xRange=(0, p), yRange=(0, k), padding=0.02)
            title = self.TITLE + ("  <span style='color:#777;font-size:8pt'>(blue −, red +; "
                                  f"{ZERO_NAME}: exactly 0; (non-zeros/features))</span>")
            plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])

    @staticmethod
    def shows(snapshot) -> bool:
        return is_strip(snapshot)

    def export_data(self, snapshot) -> dict:
        """loadings (k, p): one row per component, one column per feature."""
        if not self.shows(snapshot):
            return {}
        L = np.asarray(snapshot.basis, dtype=float).reshape(len(snapshot.basis), -1)
        return {"loadings": L}
