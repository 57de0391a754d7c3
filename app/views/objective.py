"""The objective against the iteration. See :class:`ObjectiveView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg

from robust_subspace_lab.core import catalogue

from .common import COLORS, style_plot, Title, View, plot_widget_kwargs

__all__ = ["ObjectiveView", "objective_note"]

#: colour of the caption under a chart whose objective is not monotone by design
NOTE_COLOR = "#8a5a00"
#: px (unzoomed) every objective chart is higher than the other charts of its area: room for
#: three lines of caption (kept when there is none, so that a caption coming moves no view)
CAPTION_ROOM = 40


def objective_note(method: str) -> str:
    """The catalogue's :attr:`~core.params.MethodInfo.objective_note` of the method whose display
    name (``Snapshot.method``) is ``method``: why its objective rises or zigzags by design, or ""."""
    notes = objective_note.__dict__.setdefault("by_name", {})
    if not notes:
        notes.update({info.name: info.objective_note for info in catalogue.methods(None)})
    return notes.get(method, "")

class ObjectiveView(pg.PlotWidget, View):
    """``Snapshot.objective_history`` against iteration. A method whose objective is not
    monotone by design (:func:`objective_note`) gets a caption under the chart saying why, so that
    a rising or zigzagging curve is not read as a failure."""

    title = "Objective"
    tasks = frozenset({"subspace", "regression"})
    name = "objective_view"
    area = "curves"
    min_extra = CAPTION_ROOM            # app.column: added to the area's minimum height
    #: the caption shown (None before the first snapshot)
    _note: str | None = None

    TITLE = "Objective"

    def __init__(self, parent=None):
        super().__init__(parent, **plot_widget_kwargs())
        plot = self.getPlotItem()
        style_plot(plot, self.TITLE, "iteration")       # the title names the y axis
        plot.hideButtons()
        pen = pg.mkPen(COLORS["curve"], width=2)
        self.curve = plot.plot([], [], pen=pen, symbol="o", symbolSize=6,
                               symbolBrush=pg.mkBrush(*COLORS["curve"]), symbolPen=None)
        self.caption = Title(" ", row=(plot.layout, 4), color=NOTE_COLOR, size="7.5pt")
        self.caption.setParentItem(plot)
        plot.layout.addItem(self.caption, 4, 1)
        self._show_caption("")
        self.snapshot = None
        self._x_max = None
        self._y_range = None

    def _show_caption(self, note: str) -> None:
        if note == self._note:
            return
        self._note = note
        self.caption.setVisible(bool(note))
        if note:
            self.caption.setText(note)
        else:
            self.caption.setMaximumHeight(0)
            self.getPlotItem().layout.setRowFixedHeight(4, 0)

    def caption_text(self) -> str:
        """The caption shown under the chart ("" when none)."""
        return self._note

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        if snap is None:
            self.curve.setData([], [])
            return
        self._show_caption(objective_note(snap.method))   # (a Snapshot or a RegressionSnapshot: both have it)
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

    def export_data(self, snapshot) -> dict:
        """The objective of every iteration so far: iteration (t,), objective (t,)."""
        if snapshot is None:
            return {}
        h = np.asarray(snapshot.objective_history, dtype=float)
        return {"iteration": np.arange(len(h)), "objective": h}
