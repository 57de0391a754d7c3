"""2-D data (toy examples): points, outliers, mean and directions. See :class:`ScatterView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore

from .common import COLORS, LINE_COLORS, TITLE_SIZE, export_arrays, style_plot, View, plot_widget_kwargs

__all__ = ["ScatterView"]

class ScatterView(pg.PlotWidget, View):
    """2-D data (``Snapshot.points``, toy examples): the samples, of a fixed size in pixels, faint when
    the method weighs them low (opacity from the log weight), planted outliers (``Snapshot.outliers``) ringed red, the
    mean as a cross and each direction of ``Snapshot.directions`` as a line through the mean long
    enough to span the data. Equal aspect."""

    title = "Data and directions"
    name = "scatter_view"
    default_visible = False

    TITLE = "Data and directions"
    MAX_LINES = 10
    #: diameter of the dots in screen pixels (pxMode: the same at every zoom and window size)
    DOT_SIZE = 8

    def __init__(self, parent=None):
        super().__init__(parent, **plot_widget_kwargs())
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "feature 1", "feature 2")
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
            brushes = pg.mkBrush(*COLORS["clean"], 200)
            title = self.TITLE + "  <span style='color:#777;font-size:8pt'>(ringed red: planted outlier; + mean)</span>"
        else:
            # log weights (decades below the largest) as opacity: 1 → opaque, 10⁻³ and less → faint;
            # the dots keep their size (pixels, whatever the zoom) so that none shrinks to a speck
            lw = np.asarray(snap.log_weights, dtype=float)
            alpha = 40 + 215 * np.clip(1.0 + np.nan_to_num(lw, nan=-3.0) / 3.0, 0.0, 1.0)
            brushes = [pg.mkBrush(*COLORS["clean"], int(a)) for a in alpha]
            title = self.TITLE + ("  <span style='color:#777;font-size:8pt'>(faint dot: low weight; "
                                  "ringed red: planted outlier; + mean)</span>")
        if plot.titleLabel.text != title:
            plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])
        self.points.setData(P[:, 0], P[:, 1], size=self.DOT_SIZE, pen=pg.mkPen(COLORS["clean"], width=1),
                            brush=brushes)
        bad = np.asarray(snap.outliers, dtype=bool)
        self.outlier_marks.setData(P[bad, 0], P[bad, 1], size=self.DOT_SIZE + 6)
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

    @staticmethod
    def shows(snapshot) -> bool:
        return snapshot is not None and snapshot.points is not None

    def export_data(self, snapshot) -> dict:
        """points (n, 2), corrupted (n,) 0/1, weights (n,) when the method has them, mean (2,),
        directions (k, 2)."""
        if not self.shows(snapshot):
            return {}
        return export_arrays(points=snapshot.points, corrupted=np.asarray(snapshot.outliers, dtype=int),
                       weight=snapshot.sample_weights, mean=np.asarray(snapshot.mean)[:2],
                       directions=snapshot.directions)
