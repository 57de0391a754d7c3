"""The Sweep dialog: methods × a grid of parameter values × seeds on the window's current data and
corruption (re-drawn per seed), run off the GUI thread on this machine or on a Dask cluster, the
runs streaming into a :class:`~app.results_browser.ResultsBrowser` as they finish.

Everything numerical is :mod:`core.sweep` (the same as ``robust-subspace-lab sweep``): the
dialog builds a :class:`~core.sweep.Sweep` from its fields (:meth:`SweepDialog.build_sweep`) and a
:class:`SweepThread` calls :func:`core.sweep.run_sweep`, whose ``on_result`` callback crosses to
the GUI thread as a queued signal.

Grid fields: one per parameter of the checked methods (by name, shared by the methods that have
it). Empty: the default. One value: fixed for every method with that parameter. Several
comma-separated values: swept (every combination with the other swept parameters).

Open it with ``SweepDialog(data_spec, corruption_spec, methods=[...], parent=window)``; its
:attr:`SweepDialog.browser`'s ``open_run_requested(row)`` asks to open a run in a column.
"""
from __future__ import annotations

import os
import threading

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core import sweep as core_sweep, sweep_io
from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session.spec import CorruptionSpec, DataSpec

from .params import format_value, spec_tooltip
from .results_browser import ResultsBrowser
from . import give_way, memory
from .worker import error_message, lower_thread_priority

__all__ = ["SweepThread", "SweepDialog"]


class SweepThread(QtCore.QThread):
    """Runs :func:`core.sweep.run_sweep` off the GUI thread; each finished run comes back as
    :attr:`result` (queued to the receivers' thread), then :attr:`done` (the rows in task order)
    or :attr:`failed` (a message)."""

    result = QtCore.Signal(object)
    done = QtCore.Signal(object)
    failed = QtCore.Signal(str)

    def __init__(self, sweep: core_sweep.Sweep, n_jobs: int = 1, dask_address: str | None = None,
                 parent=None):
        super().__init__(parent)
        self.sweep, self.n_jobs, self.dask_address = sweep, n_jobs, dask_address
        self.cancel_event = threading.Event()

    def cancel(self) -> None:
        self.cancel_event.set()

    def run(self) -> None:  # noqa: D401 - QThread API
        # the in-process runs (n_jobs = 1) compute in a thread started from this one, which keeps
        # its priority: both yield to the window, and the runs give way while it is late
        lower_thread_priority()
        try:
            rows = core_sweep.run_sweep(self.sweep, n_jobs=self.n_jobs, dask_address=self.dask_address,
                                        on_result=self.result.emit, cancel=self.cancel_event,
                                        give_way=give_way.current())
        except Exception as e:  # noqa: BLE001 - shown to the user, never raised in the thread
            self.failed.emit(error_message(e))
            return
        self.done.emit(rows)


def _window_values(name: str, settings) -> str:
    """The grid text of parameter ``name`` that reproduces the columns' ``settings`` ((method key,
    parameters) each): "" when every column that has it keeps its default, else every value the
    columns use, comma-separated (one: fixed; several: swept)."""
    values, defaults = [], True
    for key, params in settings:
        default = catalogue.get(key).defaults()
        if name in params and name in default:
            defaults = defaults and params[name] == default[name]
            v = params[name]
            text = str(v).lower() if isinstance(v, bool) else str(v)
            if text not in values:
                values.append(text)
    return "" if defaults else ", ".join(values)


class SweepDialog(QtWidgets.QDialog):
    """See the module notes. ``data`` and ``corruption`` describe the window's current data
    (the corruption's seed is replaced per run)."""

    def __init__(self, data: DataSpec, corruption: CorruptionSpec, methods=("pca", "pca-gm"),
                 parent=None):
        super().__init__(parent)
        self.setWindowTitle("Sweep")
        self.data, self.corruption = data, corruption
        self.thread: SweepThread | None = None
        self._active = False      # from start() until the thread's end reached the GUI thread
        self.progress_info: core_sweep.Progress | None = None
        self.last_error = ""
        self.cancelled = False
        # what the app counts as lively while a sweep runs (app.memory.set_lively); given back
        # when the dialog is destroyed too, should its thread's end never reach it
        self._lively = lively = object()
        self.destroyed.connect(lambda *_: memory.set_lively(False, lively))
        self._grid_edits: dict[str, QtWidgets.QLineEdit] = {}
        self._grid_texts: dict[str, str] = {}
        self._build(methods)
        self._rebuild_grid()
        self.resize(1100, 700)

    # ------------------------------------------------------------------ layout
    def _build(self, methods) -> None:
        self.what_label = what = QtWidgets.QLabel(self._what_text())
        self.method_list = QtWidgets.QListWidget()
        for info in catalogue.methods("subspace"):
            item = QtWidgets.QListWidgetItem(info.name)
            item.setData(QtCore.Qt.ItemDataRole.UserRole, info.key)
            item.setFlags(item.flags() | QtCore.Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(QtCore.Qt.CheckState.Checked if info.key in methods
                               else QtCore.Qt.CheckState.Unchecked)
            item.setToolTip(info.summary)
            self.method_list.addItem(item)
        self.method_list.itemChanged.connect(lambda _: self._rebuild_grid())

        self.grid_box = QtWidgets.QWidget()
        self.grid_form = QtWidgets.QFormLayout(self.grid_box)
        grid_scroll = QtWidgets.QScrollArea()
        grid_scroll.setWidgetResizable(True)
        grid_scroll.setWidget(self.grid_box)
        grid_help = QtWidgets.QLabel("Values per parameter: empty = default, one value = fixed, "
                                     "v1, v2, … = swept")
        grid_help.setWordWrap(True)

        self.seeds_spin = QtWidgets.QSpinBox(minimum=1, maximum=1000, value=3)
        self.seeds_spin.setToolTip("runs per grid point, each with its own seed "
                                   "(numpy SeedSequence(base seed).spawn)")
        self.base_seed_spin = QtWidgets.QSpinBox(minimum=0, maximum=2**31 - 1, value=0)
        self.jobs_spin = QtWidgets.QSpinBox(minimum=1, maximum=max(1, os.cpu_count() or 1), value=1)
        self.jobs_spin.setToolTip("local worker processes (1: a thread of the app)")
        self.dask_edit = QtWidgets.QLineEdit(placeholderText="tcp://HOST:PORT (empty: this machine)")
        self.dask_edit.setToolTip("a running Dask scheduler: the runs go to its workers "
                                  "(which need robust-subspace-lab installed)")
        opts = QtWidgets.QFormLayout()
        opts.addRow("Seeds", self.seeds_spin)
        opts.addRow("Base seed", self.base_seed_spin)
        opts.addRow("Local jobs", self.jobs_spin)
        opts.addRow("Dask scheduler", self.dask_edit)

        self.run_button = QtWidgets.QPushButton("Run sweep")
        self.run_button.setDefault(True)
        self.run_button.clicked.connect(self.start)
        self.cancel_button = QtWidgets.QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.progress = QtWidgets.QProgressBar()
        self.progress.setFormat("%v / %m runs")
        self.progress.setValue(0)
        self.status = QtWidgets.QLabel("")
        self.status.setWordWrap(True)

        left = QtWidgets.QVBoxLayout()
        left.addWidget(QtWidgets.QLabel("Methods"))
        left.addWidget(self.method_list, 2)
        left.addWidget(QtWidgets.QLabel("Parameter values"))
        left.addWidget(grid_help)
        left.addWidget(grid_scroll, 3)
        left.addLayout(opts)
        buttons = QtWidgets.QHBoxLayout()
        buttons.addWidget(self.run_button)
        buttons.addWidget(self.cancel_button)
        left.addLayout(buttons)
        left.addWidget(self.progress)
        left.addWidget(self.status)
        left_box = QtWidgets.QWidget()
        left_box.setLayout(left)
        left_box.setMaximumWidth(380)

        self.browser = ResultsBrowser()
        body = QtWidgets.QHBoxLayout()
        body.addWidget(left_box)
        body.addWidget(self.browser, 1)
        lay = QtWidgets.QVBoxLayout(self)
        lay.addWidget(what)
        lay.addLayout(body, 1)

    def _what_text(self) -> str:
        return (f"Data: <b>{self.data.name}</b>"
                + (f" ({self.data.size[0]}×{self.data.size[1]})" if self.data.size else "")
                + f" &nbsp; Corruption: <b>{self.corruption.key}</b> (re-drawn with each seed)")

    def set_context(self, data: DataSpec, corruption: CorruptionSpec, methods, settings=()) -> None:
        """Sweep over ``data`` and ``corruption`` with ``methods`` checked and the fields filled
        in from ``settings``, the window's columns as ``(method key, parameters)`` (what the
        window's Tools ▸ Sweep… does to the dialog it opens). A parameter the columns set to one
        value other than its default gets that value; to several values (two PCA-GM columns with
        p = 0.1 and 0.3), all of them, swept."""
        self.data, self.corruption = data, corruption
        self.what_label.setText(self._what_text())
        if set(self.checked_methods()) != set(methods):
            self.method_list.blockSignals(True)         # one grid rebuild, not one per item
            self.set_methods(methods)
            self.method_list.blockSignals(False)
            self._rebuild_grid()
        for name, edit in self._grid_edits.items():
            edit.setText(_window_values(name, settings))

    def checked_methods(self) -> list[str]:
        out = []
        for i in range(self.method_list.count()):
            item = self.method_list.item(i)
            if item.checkState() == QtCore.Qt.CheckState.Checked:
                out.append(item.data(QtCore.Qt.ItemDataRole.UserRole))
        return out

    def set_methods(self, keys) -> None:
        for i in range(self.method_list.count()):
            item = self.method_list.item(i)
            item.setCheckState(QtCore.Qt.CheckState.Checked if item.data(QtCore.Qt.ItemDataRole.UserRole) in keys
                               else QtCore.Qt.CheckState.Unchecked)

    def _rebuild_grid(self) -> None:
        """One field per parameter name of the checked methods (their texts kept across changes)."""
        for name, edit in self._grid_edits.items():
            self._grid_texts[name] = edit.text()
        while self.grid_form.rowCount():
            self.grid_form.removeRow(0)
        self._grid_edits = {}
        specs = {}
        for key in self.checked_methods():
            for s in catalogue.get(key).params:
                specs.setdefault(s.name, (s, []))[1].append(key)
        for name, (spec, keys) in specs.items():
            edit = QtWidgets.QLineEdit(self._grid_texts.get(name, ""))
            edit.setPlaceholderText(f"default {format_value(spec.default)}")
            edit.setToolTip(spec_tooltip(spec) + f"\nmethods: {', '.join(keys)}")
            self.grid_form.addRow(name, edit)
            self._grid_edits[name] = edit

    def set_grid_text(self, name: str, text: str) -> None:
        """Type ``text`` in the field of parameter ``name`` (KeyError if no checked method has it)."""
        self._grid_edits[name].setText(text)

    # ------------------------------------------------------------------ the sweep
    def build_sweep(self) -> core_sweep.Sweep:
        """The sweep the fields describe, validated (ParameterError naming the parameter)."""
        keys = self.checked_methods()
        if not keys:
            raise ParameterError("check at least one method")
        fixed, grids = {}, []
        for name, edit in self._grid_edits.items():
            values = [v.strip() for v in edit.text().split(",") if v.strip()]
            if len(values) == 1:
                fixed[name] = values[0]
            elif values:
                grids.append((name, values))
        methods = []
        for key in keys:
            info = catalogue.get(key)
            own = {s.name: s for s in info.params}
            methods.append(core_sweep.MethodGrid(key, {}, {n: core_sweep.parse_value(own[n], t)
                                                           for n, t in fixed.items() if n in own}))
        return sweep_io.build_sweep(self.data, self.corruption, methods, grids,
                                      self.seeds_spin.value(), self.base_seed_spin.value())

    @property
    def running(self) -> bool:
        """A sweep started and its end (its rows, the status line) not handled yet: the thread's
        ``finished`` reaches the GUI thread after its ``done``, which it emitted before ending."""
        return self._active

    def start(self) -> bool:
        """Run the sweep of the fields; False (with the reason in the status line) if they are bad."""
        if self.running:
            return False
        try:
            sweep = self.build_sweep()
        except ParameterError as e:
            self._show_error(str(e))
            return False
        self.last_error = ""
        self.cancelled = False
        total = sweep.n_runs
        self.progress_info = core_sweep.Progress(total)
        self.progress.setRange(0, total)
        self.progress.setValue(0)
        dask = self.dask_edit.text().strip() or None
        self.status.setStyleSheet("")
        self.status.setText(f"{total} runs " + (f"on {dask}" if dask else f"with {self.jobs_spin.value()} job(s)"))
        self.browser.set_sweep(sweep)
        self.thread = SweepThread(sweep, n_jobs=self.jobs_spin.value(), dask_address=dask, parent=self)
        self.thread.result.connect(self._on_result)
        self.thread.done.connect(self._on_done)
        self.thread.failed.connect(self._on_failed)
        self.thread.finished.connect(self._on_thread_finished)
        self.run_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self._active = True
        memory.set_lively(True, self._lively)    # the window's frame clock sleeps meanwhile
        self.thread.start()
        return True

    def cancel(self) -> None:
        """Stop submitting runs and drop the pending ones; the finished runs stay."""
        if self.running:
            self.cancelled = True
            self.thread.cancel()
            self.cancel_button.setEnabled(False)
            self.status.setText("cancelling…")

    def _on_result(self, row: dict) -> None:
        self.browser.add_row(row)
        if self.progress_info is not None:
            self.progress_info.update()
            self.progress.setValue(self.progress_info.done)
            if not self.cancelled:
                self.status.setText(self.progress_info.text())

    def _on_done(self, rows: list) -> None:
        # the rows in task order (the table keeps its arrival order and its sorting)
        total = self.progress_info.total if self.progress_info else len(rows)
        errors = sum(1 for r in rows if r.get("error"))
        text = (f"cancelled: {len(rows)} of {total} runs done" if self.cancelled
                else f"done: {len(rows)} runs")
        self.status.setText(text + (f", {errors} failed (see the error column)" if errors else ""))

    def _on_failed(self, message: str) -> None:
        self._show_error(message)

    def _on_thread_finished(self) -> None:
        self._active = False
        memory.set_lively(False, self._lively)
        self.run_button.setEnabled(True)
        self.cancel_button.setEnabled(False)

    def _show_error(self, message: str) -> None:
        self.last_error = message
        self.status.setStyleSheet("color: #b00020")
        self.status.setText(message)

    # ------------------------------------------------------------------ closing
    def done(self, result: int) -> None:  # noqa: D401 - QDialog API (accept, reject, close)
        """Closing cancels a running sweep and waits for its thread."""
        if self.thread is not None:
            self.thread.cancel()
            self.thread.wait()
        memory.set_lively(False, self._lively)
        super().done(result)
