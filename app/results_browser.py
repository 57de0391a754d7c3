"""The results browser of a sweep: a sortable, filterable table of its runs and a plot of any
metric against any swept parameter (mean ± standard deviation over the seeds, one line per
method).

The numbers come from :mod:`core.sweep` (the rows of :func:`~core.sweep.run_sweep`, their
aggregation :func:`~core.sweep.aggregate`, the CSV :func:`~core.sweep.write_csv`); this module
only shows them.

Signals
-------
``ResultsBrowser.open_run_requested(row: dict)``
    emitted when a run is double-clicked: the row as :func:`core.sweep.run_task` returned it
    (``method``, the swept parameters, ``seed``, ...). The sweep it belongs to is
    :attr:`ResultsBrowser.sweep`; ``sweep.task_for(row)`` is its task and
    :func:`core.sweep.replay` recomputes its stepped history from its seed (data and states), to
    open it in a method column.
"""
from __future__ import annotations

import math
from typing import Any, Mapping, Sequence

import numpy as np
import pyqtgraph as pg
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import sweep as core_sweep, sweep_io

__all__ = ["ResultsModel", "ResultsProxy", "ResultsBrowser", "SORT_ROLE"]

#: the role holding a cell's raw value (numbers sort as numbers)
SORT_ROLE = QtCore.Qt.ItemDataRole.UserRole + 1

#: line colours, one per method (matplotlib's tab10)
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf")

#: columns that are not metrics (not offered on the plot's y axis)
_NOT_METRICS = ("method", "seed", "converged", "error")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.5g}" if math.isfinite(value) else ""
    return str(value)


class ResultsModel(QtCore.QAbstractTableModel):
    """The runs of a sweep, one row each; the columns of :func:`core.sweep.columns` (they grow
    as rows with new metrics arrive)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self._rows: list[dict] = []
        self._swept: list[str] = []
        self._cols: list[str] = sweep_io.columns([], [])

    # -- content
    @property
    def rows(self) -> list[dict]:
        return list(self._rows)

    @property
    def columns(self) -> list[str]:
        return list(self._cols)

    def set_rows(self, rows: Sequence[Mapping[str, Any]], swept: Sequence[str] = ()) -> None:
        self.beginResetModel()
        self._rows = [dict(r) for r in rows]
        self._swept = list(swept)
        self._cols = sweep_io.columns(self._rows, self._swept)
        self.endResetModel()

    def add_row(self, row: Mapping[str, Any]) -> None:
        row = dict(row)
        if any(k not in self._cols for k in row):          # a new metric: the columns change
            self.beginResetModel()
            self._rows.append(row)
            self._cols = sweep_io.columns(self._rows, self._swept)
            self.endResetModel()
            return
        n = len(self._rows)
        self.beginInsertRows(QtCore.QModelIndex(), n, n)
        self._rows.append(row)
        self.endInsertRows()

    def row(self, i: int) -> dict:
        return dict(self._rows[i])

    # -- Qt
    def rowCount(self, parent=QtCore.QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QtCore.QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._cols)

    def data(self, index, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        value = self._rows[index.row()].get(self._cols[index.column()])
        if role == QtCore.Qt.ItemDataRole.DisplayRole:
            return _text(value)
        if role == SORT_ROLE:
            return value
        if role == QtCore.Qt.ItemDataRole.ToolTipRole and self._cols[index.column()] == "error" and value:
            return str(value)
        if role == QtCore.Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)) \
                and not isinstance(value, bool):
            return int(QtCore.Qt.AlignmentFlag.AlignRight | QtCore.Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(self, section, orientation, role=QtCore.Qt.ItemDataRole.DisplayRole):
        if orientation == QtCore.Qt.Orientation.Horizontal and role in (QtCore.Qt.ItemDataRole.DisplayRole,
                                                                        QtCore.Qt.ItemDataRole.ToolTipRole):
            column = self._cols[section]         # the window's metric names; the CSV column as tooltip
            return core_sweep.metric_label(column) if role == QtCore.Qt.ItemDataRole.DisplayRole else column
        return super().headerData(section, orientation, role)


class ResultsProxy(QtCore.QSortFilterProxyModel):
    """Sorts by the raw values (numbers as numbers, empty cells last) and keeps the rows in which
    some cell contains the filter text (case-insensitive)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.setSortRole(SORT_ROLE)
        self.setFilterKeyColumn(-1)
        self.setFilterCaseSensitivity(QtCore.Qt.CaseSensitivity.CaseInsensitive)

    def lessThan(self, left, right) -> bool:
        a, b = left.data(SORT_ROLE), right.data(SORT_ROLE)
        if a is None or b is None:
            return a is not None and b is None        # empty cells last (ascending)
        num = (int, float)
        if isinstance(a, num) and isinstance(b, num):
            return a < b
        return str(a) < str(b)


class ResultsBrowser(QtWidgets.QWidget):
    """Table and plot of a sweep's runs; see the module notes for :attr:`open_run_requested`.

    Fill it with :meth:`set_sweep` then :meth:`add_row` (rows stream in as runs finish), or
    :meth:`set_rows` (a finished sweep, a CSV read by :func:`core.sweep.read_csv`)."""

    open_run_requested = QtCore.Signal(object)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.sweep: core_sweep.Sweep | None = None
        self._swept: list[str] = []
        self.model = ResultsModel(self)
        self.proxy = ResultsProxy(self)
        self.proxy.setSourceModel(self.model)
        #: the plotted lines, method → PlotDataItem (one per method)
        self.lines: dict[str, pg.PlotDataItem] = {}
        self._build()
        self._errors: dict[str, pg.ErrorBarItem] = {}     # method → its error bars, if any
        self._drawn = None              # what the plot's items were built for (see redraw)
        self._ticks = None              # the bottom axis's ticks set (None: numbers)
        self._redraw_timer = QtCore.QTimer(self, singleShot=True, interval=0)
        self._redraw_timer.timeout.connect(self.redraw)

    # ------------------------------------------------------------------ layout
    def _build(self) -> None:
        self.filter_edit = QtWidgets.QLineEdit(placeholderText="filter runs (any column contains…)")
        self.filter_edit.setClearButtonEnabled(True)
        self.filter_edit.textChanged.connect(self.proxy.setFilterFixedString)
        self.export_button = QtWidgets.QPushButton("Export CSV…")
        self.export_button.setToolTip("Save every run of the sweep (not only the filtered ones) as CSV")
        self.export_button.clicked.connect(self._export_clicked)
        top = QtWidgets.QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.export_button)

        self.table = QtWidgets.QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.horizontalHeader().setSortIndicator(-1, QtCore.Qt.SortOrder.AscendingOrder)
        self.proxy.sort(-1)              # the runs' order until a header is clicked
        self.table.setSelectionBehavior(QtWidgets.QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QtWidgets.QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip("Double-click a run to open it in a column (recomputed from its seed)")
        self.table.verticalHeader().setVisible(False)
        self.table.doubleClicked.connect(self._double_clicked)

        self.metric_combo = QtWidgets.QComboBox()
        self.param_combo = QtWidgets.QComboBox()
        self.metric_combo.currentIndexChanged.connect(lambda _: self.redraw())
        self.param_combo.currentIndexChanged.connect(lambda _: self.redraw())
        self._chosen: set = set()        # the combos the user picked from (kept as columns change)
        self.metric_combo.activated.connect(lambda _: self._chosen.add(self.metric_combo))
        self.param_combo.activated.connect(lambda _: self._chosen.add(self.param_combo))
        controls = QtWidgets.QHBoxLayout()
        controls.addWidget(QtWidgets.QLabel("Plot"))
        controls.addWidget(self.metric_combo, 1)
        controls.addWidget(QtWidgets.QLabel("against"))
        controls.addWidget(self.param_combo, 1)

        self.plot_widget = pg.PlotWidget()
        self.plot = self.plot_widget.getPlotItem()
        # horizontal grid lines only, as in the views: with vertical ones too the dialog's first
        # paint took 49-51 ms instead of 33-37 (pyqtgraph draws the grid with its axes)
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        self.plot.addLegend(offset=(10, 10))
        self.plot.setTitle("mean ± sd over the seeds")
        for name in ("left", "bottom"):
            # the axes (ticks, labels and grid) are drawn again only when they change: a paint
            # that played them took 2 × 5 ms of the dialog's event loop for every run that came in
            self.plot.getAxis(name).setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)
            self.plot.getAxis(name).enableAutoSIPrefix(False)    # an AUC near 1 was drawn "(×0.001)"

        table_box = QtWidgets.QWidget()
        tl = QtWidgets.QVBoxLayout(table_box)
        tl.setContentsMargins(0, 0, 0, 0)
        tl.addLayout(top)
        tl.addWidget(self.table)
        plot_box = QtWidgets.QWidget()
        pl = QtWidgets.QVBoxLayout(plot_box)
        pl.setContentsMargins(0, 0, 0, 0)
        pl.addLayout(controls)
        pl.addWidget(self.plot_widget)
        split = QtWidgets.QSplitter(QtCore.Qt.Orientation.Horizontal)
        split.addWidget(table_box)
        split.addWidget(plot_box)
        split.setSizes([450, 550])
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(split)

    # ------------------------------------------------------------------ content
    @property
    def rows(self) -> list[dict]:
        """Every run shown (whatever the filter), in arrival order."""
        return self.model.rows

    def set_sweep(self, sweep: core_sweep.Sweep | None) -> None:
        """Start showing ``sweep``'s runs (none yet)."""
        self.sweep = sweep
        self._swept = sweep.swept_names if sweep is not None else []
        self.model.set_rows([], self._swept)
        self._refresh_choices()
        self.redraw()

    def set_rows(self, rows: Sequence[Mapping[str, Any]], swept: Sequence[str] | None = None,
                 sweep: core_sweep.Sweep | None = None) -> None:
        """Show these runs (``swept``: the swept parameters' names; default: those of ``sweep``)."""
        self.sweep = sweep
        self._swept = list(swept) if swept is not None else (sweep.swept_names if sweep else [])
        self.model.set_rows(rows, self._swept)
        self._refresh_choices()
        self.redraw()

    def add_row(self, row: Mapping[str, Any]) -> None:
        """One more finished run (the plot is redrawn once per batch of arrivals)."""
        self.model.add_row(row)
        self._refresh_choices()
        self._redraw_timer.start()

    def export_csv(self, path: str) -> None:
        """Write every run to ``path`` (:func:`core.sweep.write_csv`). OSError on failure."""
        sweep_io.write_csv(path, self.model.rows, self._swept)

    # ------------------------------------------------------------------ plot
    def _refresh_choices(self) -> None:
        cols = self.model.columns
        metrics = [c for c in cols if c not in _NOT_METRICS and c not in self._swept]
        metrics = [c for c in metrics if c not in ("n_iter", "seconds")] + [c for c in ("n_iter", "seconds")
                                                                         if c in metrics]
        params = list(self._swept) or ["seed"]
        for combo, items, prefer in ((self.metric_combo, metrics, "reconstruction_error"),
                                     (self.param_combo, params, None)):
            current = combo.currentData()            # a row's column; the text is the window's name
            if [combo.itemData(i) for i in range(combo.count())] == items:
                continue
            combo.blockSignals(True)
            combo.clear()
            for item in items:
                combo.addItem(core_sweep.metric_label(item), item)
            chosen = combo in self._chosen and current in items
            keep = current if chosen else (prefer if prefer in items else (current if current in items else None))
            if keep is not None:
                combo.setCurrentIndex(combo.findData(keep))
            combo.blockSignals(False)

    def redraw(self) -> None:
        """Draw the chosen metric against the chosen parameter, one line per method: the mean over
        the seeds with error bars of ± one standard deviation; a method without that parameter
        is a dashed horizontal line at its mean (a baseline).

        The plot's items are built again only when its lines change (a method, a baseline, error
        bars appear); a new run of a sweep otherwise updates them in place. Building them for
        every run that came in held the sweep dialog's event loop 31 ms (67 ms while the runs
        computed) on the digits."""
        metric, param = self.metric_combo.currentData(), self.param_combo.currentData()
        if not metric or not param:
            self.plot.clear()
            self.lines, self._errors, self._drawn = {}, {}, None
            return
        agg = sweep_io.aggregate(self.model.rows, param, metric)
        xs_all = [x for a in agg.values() for x in a["x"]]
        numeric = all(isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool)
                      for x in xs_all)
        categories = [] if numeric else sorted({str(x) for x in xs_all})

        def position(x):
            return np.asarray(x, dtype=float) if numeric else np.array([categories.index(str(v)) for v in x],
                                                                      dtype=float)
        lo_hi = (min(map(float, position(xs_all))), max(map(float, position(xs_all)))) if xs_all else (0.0, 1.0)
        # per method: (x, mean, std or None, baseline); a baseline spans the x range drawn
        curves = {}
        for method, a in agg.items():
            if a["x"].size == 0:
                curves[method] = (np.asarray(lo_hi, dtype=float), np.full(2, a["mean"][0], dtype=float), None, True)
            else:
                curves[method] = (position(a["x"]), np.asarray(a["mean"], dtype=float),
                                  np.asarray(a["std"], dtype=float) if np.any(a["std"] > 0) else None, False)
        layout = (param, metric, tuple((m, c[3], c[2] is not None) for m, c in curves.items()))
        if layout != self._drawn:
            self._build_lines(curves, param, metric)
            self._drawn = layout
        else:
            for method, (x, mean, std, _) in curves.items():
                self.lines[method].setData(x, mean)
                if std is not None:
                    self._errors[method].setData(x=x, y=mean, height=2 * std)
        ticks = None if numeric else [list(enumerate(categories))]
        if ticks != self._ticks:
            self.plot.getAxis("bottom").setTicks(ticks)
            self._ticks = ticks

    def _build_lines(self, curves: dict, param: str, metric: str) -> None:
        """The plot's items for ``curves`` (see :meth:`redraw`), from scratch."""
        self.plot.clear()
        self.lines, self._errors = {}, {}
        for i, (method, (x, mean, std, baseline)) in enumerate(curves.items()):
            color = PALETTE[i % len(PALETTE)]
            if baseline:                              # no such parameter: a baseline
                item = self.plot.plot(x, mean, name=f"{method} (no {param})",
                                      pen=pg.mkPen(color, width=2, style=QtCore.Qt.PenStyle.DashLine))
            else:
                item = self.plot.plot(x, mean, name=method, pen=pg.mkPen(color, width=2),
                                      symbol="o", symbolSize=7, symbolBrush=color, symbolPen=color)
                if std is not None:
                    self._errors[method] = pg.ErrorBarItem(x=x, y=mean, height=2 * std, beam=0.0,
                                                           pen=pg.mkPen(color))
                    self.plot.addItem(self._errors[method])
            self.lines[method] = item
        self.plot.setLabel("bottom", param)
        self.plot.setLabel("left", core_sweep.metric_label(metric))
        bounds = core_sweep.METRIC_RANGES.get(metric)
        if bounds is not None:                    # a bounded metric on its whole range (an AUC on 0–1)
            self.plot.setYRange(*bounds, padding=0.02)
        else:
            self.plot.enableAutoRange(axis="y")

    # ------------------------------------------------------------------ actions
    def _double_clicked(self, index) -> None:
        src = self.proxy.mapToSource(index)
        if src.isValid():
            self.open_run_requested.emit(self.model.row(src.row()))

    def _export_clicked(self) -> None:
        path, _ = QtWidgets.QFileDialog.getSaveFileName(self, "Export sweep results", "sweep.csv",
                                                        "CSV files (*.csv)")
        if not path:
            return
        try:
            self.export_csv(path)
        except OSError as e:
            QtWidgets.QMessageBox.warning(self, "Export failed", f"Could not write {path}: {e}")
