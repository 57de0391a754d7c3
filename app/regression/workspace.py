"""The regression workspace (Huang et al. 2016): data with targets, a regression method, its ALM
iterations step by step, and the model applied to a (corrupted) test set.

Left: the data (the synthetic 3-D example of §5.1, the built-in digits with class labels, or a
folder: subfolders as classes or a CSV of numeric targets), the corruption of the inputs (any of
:data:`core.corruption.CORRUPTIONS`, on the training and/or the test inputs) and the method
(``catalogue.methods("regression")``, controls from its ParamSpecs, λ/η/γ on log sliders).
Right: the views of the shown iteration (from :func:`core.regression.views.regression_snapshot`),
the Test section and the iteration scrubber.

Files: this one holds the workspace's state, its data and method requests and the run controls;
:mod:`.layout` builds its widgets, :mod:`.drawing` draws the shown iteration and the Test section
(with test-time cleaning), :mod:`.common` holds its constants and helpers. The domain rules
(:func:`core.session.plan_method`, the data choice :mod:`core.session.choice`) live in core.

Threads: the solver runs in the window's QThreadPool through :class:`RegressionRunner` (the
method columns' runner); test-time cleaning (Alg. 2) runs there too, one :class:`TestJob` at a
time, newest state first. The window's frame timer calls :meth:`RegressionWorkspace.refresh`, which
draws only when something changed (at most ~30 times a second); nothing here waits on a solver.

Data and method checks (before any run; the previous data and run are kept on a refusal, and the
message names the file, row, class or parameter):

* loading errors of core (CSV problems, targets missing for some files, a class with a single
  sample, bad options) are shown in the data message area;
* parameters outside their ParamSpec range (λ, η or γ <= 0, ...) are refused by the runner,
  naming the parameter;
* inputs with missing entries (the "missing blocks" corruption): RR and RLDA are **switched** to
  RR-Missing / RLDA-Missing (the same model learnt from the observed entries, §2.7), with a note;
  methods without a missing-data version (the baselines) are **refused** with a message;
* a classifier (RLDA, LDA) on numeric targets: choosing it is refused; loading numeric targets
  while one is chosen switches to RR (with a note).
"""
from __future__ import annotations

import html
import os

import numpy as np
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, corruption
from robust_subspace_lab.core.session import Session, plan_method, regressor_for, run as core_run

from .. import params as P
from ..column_help import show_method_help
from ..data_panel import show_param_group
from ..scrubbing import FollowsIterations
from ..worker import DataJobs, error_message
from ..workspace import Workspace
from . import sources as S
from .common import APPLY_DELAY_MS, DEFAULT_METHOD, TEST_ROWS, has_own_cleaning, slider_specs
from .drawing import WorkspaceDrawing
from .layout import WorkspaceLayout
from .runner import RegressionRunner, TestRelay

__all__ = ["RegressionWorkspace", "REGRESSION_TAB", "DEFAULT_METHOD", "plan_method", "slider_specs", "has_own_cleaning"]

REGRESSION_TAB = "Regression"


class RegressionWorkspace(WorkspaceLayout, WorkspaceDrawing, FollowsIterations, Workspace, QtWidgets.QWidget):
    """See the module docstring.

    Parameters
    ----------
    pool : the QThreadPool the solver and the test-time cleaning run in.
    delay : callable giving the seconds per iteration while running (the toolbar's speed).
    method : catalogue key of the method to start with.
    choice : the data to start with (:class:`~app.regression.sources.DataChoice`).

    Nothing is loaded or computed until :meth:`ensure_started` (the window calls it when the tab
    is first shown).
    """

    #: a message for the status bar
    status = QtCore.Signal(str)
    #: busy / running flags changed (the toolbar updates its buttons)
    activity = QtCore.Signal()
    #: (iteration) after a redraw
    drawn = QtCore.Signal(int)
    #: the run has something new to draw (the window draws it without waiting for a tick)
    frame_due = QtCore.Signal()

    title = REGRESSION_TAB
    tooltip = ("Robust regression and RLDA (Huang et al. 2016): inputs with targets, cleaned inputs D, "
               "outliers E, the regressor T, test-time cleaning")
    task = "regression"
    run_target = "the regression solver"
    opens_folders = True

    def __init__(self, pool: QtCore.QThreadPool, delay=None, method: str = DEFAULT_METHOD,
                 choice: S.DataChoice | None = None, parent=None, session: Session | None = None,
                 data_jobs: DataJobs | None = None):
        super().__init__(parent)
        self.pool = pool
        self.session = session if session is not None else Session()
        self.data_jobs = data_jobs if data_jobs is not None else DataJobs(pool, self)
        self.runner = RegressionRunner(pool, method, delay=delay, parent=self)
        self.runner.message.connect(self._on_runner_message)
        self.runner.reverted.connect(self._sync_method_controls)
        self.runner.activity.connect(self.activity)
        self.runner.changed.connect(self.frame_due)
        self.test_relay = TestRelay(self)
        q = QtCore.Qt.QueuedConnection
        self.test_relay.finished.connect(self._on_test_finished, q)
        self.test_relay.failed.connect(self._on_test_failed, q)

        if choice is not None:
            self.session.set_regression(choice)
        self.session.attach(self.runner.model)
        self.data = None
        self.imageset = None
        self.started = False
        self.last_error = ""
        self.help_box: QtWidgets.QMessageBox | None = None     # Help ▸ What you are seeing (show_help)
        self._options: dict[str, dict] = {}      # per source: the user's option values
        self._closed = False
        self._syncing = False
        self._method_group = None
        self._method_group_key = None
        self._sliders: list[P.SpecSlider] = []
        self._options_group = None
        self._options_key = None
        self._corr_group = None
        self._corr_key = None
        self._drawn_key = None
        self._scalar_defaults_for = None         # the method whose scalar-chart choice was set
        self._follow = True
        self.shown_index = -1
        self.shown_snapshot = None
        self.shown_state = None
        self.frames = 0
        self._parts: list = []            # the rest of a frame drawn in parts (refresh)
        # test-time cleaning
        self.test_mode_shown = "plain"          # what the Test section draws now
        self.test_snapshot = None               # the snapshot the Test section draws
        self.test_outcome = None                # TestOutcome drawn (clean mode), or None
        self._test_job = None                   # (token, cancel, state) in flight
        self._test_target = None                # the state the Test section wants cleaned
        self._test_result = None                # (state, TestOutcome) newest
        self._test_done = None                  # the state of the newest finished (or failed) job
        self._test_error = ""
        self._test_token = 0
        self._test_version = 0
        self._test_samples = np.zeros(0, dtype=int)

        self._apply_timer = self._timer(self.apply_params)
        self._options_timer = self._timer(self.apply_options)
        self._corr_timer = self._timer(self.apply_corruption)
        self._build()
        self._sync_method_controls()
        self._show_choice(self.choice)

    def _timer(self, slot) -> QtCore.QTimer:
        t = QtCore.QTimer(self)
        t.setSingleShot(True)
        t.setInterval(APPLY_DELAY_MS)
        t.timeout.connect(slot)
        return t

    # ================================================================== properties
    @property
    def busy(self) -> bool:
        """The solver or a test-time cleaning has work in flight or queued."""
        return self.runner.busy or self.runner.pending or self._test_job is not None

    @property
    def running(self) -> bool:
        return self.runner.running

    @property
    def finished(self) -> bool:
        return self.runner.finished

    @property
    def test_clean(self) -> bool:
        """Test-time cleaning is on (the session's switch, saved with it)."""
        return self.session.test_cleaning

    @property
    def method_info(self):
        return self.runner.setting()[0]

    def method_group(self):
        """The pyqtgraph Parameter group of the shown method's parameters."""
        return self._method_group

    def options_group(self):
        """The pyqtgraph Parameter group of the data source's options."""
        return self._options_group

    def corruption_group(self):
        """The pyqtgraph Parameter group of the corruption's parameters."""
        return self._corr_group

    @property
    def choice(self) -> S.DataChoice:
        """The data chosen (the session's regression data choice)."""
        return self.session.regression

    @choice.setter
    def choice(self, value: S.DataChoice) -> None:
        self.session.set_regression(value)

    # ================================================================== the workspace interface
    def showEvent(self, event) -> None:
        self.ensure_views()
        super().showEvent(event)

    def activated(self) -> None:
        self.ensure_started()

    def data_text(self) -> str:
        return self.data.description if self.data is not None else ""

    def show_help(self) -> QtWidgets.QMessageBox:
        """The "what you are seeing" box of the method shown (F1, as a method column's "?")."""
        return show_method_help(self)

    def errors(self) -> list[str]:
        return [f"{self.runner.info.name}: {self.runner.error}"] if self.runner.error else []

    def summary(self) -> str:
        return f"{self.runner.info.name}: iteration {self.runner.iteration}, test mode {self.test_mode_shown}"

    def apply_preset(self, pre) -> bool:
        """The data source, corruption, method and parameters of a paper-004 preset."""
        method, params = pre.methods[0]
        self.open(source=pre.data[1], method=method,
                  corruption_key=None if pre.corruption == "none" else pre.corruption,
                  corruption_params=pre.corruption_params, params=params)
        return self.data is not None

    def restore(self, saved) -> str:
        """The data choice and the run of the opened session ``saved``: its method and
        parameters, started on the chosen data and stepped to the iteration it had reached. A
        tab never used (its run never started, with the default method and parameters) only
        takes the data choice, loaded when the tab is first shown. Test-time cleaning is switched
        as it was saved. "" or why the data could not be loaded (the data and the run are then
        kept)."""
        runs = saved.runs_of(self.task)
        run = runs[0] if runs else None
        info, params = self.runner.setting()
        untouched = run is None or (run.saved_iteration < 0 and (run.method, dict(run.params)) == (info.key, params))
        if not self.started and untouched:      # loaded when the tab is first shown (a method set
            self.choice = saved.regression      # without data would wait for it: the window busy)
            self._show_choice(self.choice)
            self._restore_test_cleaning(saved)
            return ""
        self.started = True
        if not self.load(saved.regression):
            return self.last_error or "loading cancelled"
        if run is not None:
            self._apply_timer.stop()
            self.runner.set_method(run.method, dict(run.params), keep_current=False)
            self._show_method_message(self.runner.error)
            self._set_note("")
            self._invalidate_tests()
            self._sync_method_controls()
            if run.saved_iteration > 0:
                self.step(run.saved_iteration)
        self._restore_test_cleaning(saved)
        return ""

    def _restore_test_cleaning(self, saved) -> None:
        if saved.test_cleaning != self.test_clean:
            self.set_test_cleaning(saved.test_cleaning)

    def open(self, source: str | None = None, method: str | None = None, corruption_key: str | None = None,
             test_cleaning: bool = False, corruption_params: dict | None = None,
             params: dict | None = None) -> None:
        """Choose ``source`` (``"synthetic"`` or ``"digits"``), ``method`` (a regression catalogue
        key, with ``params`` over its defaults) and ``corruption_key`` (for image data, with
        ``corruption_params`` over its defaults); ``None`` keeps the current choice. Before the
        tab was first shown only the choice is recorded (loaded by :meth:`ensure_started`)."""
        choice = self.choice
        if source is not None:
            choice = choice.with_(source=source)
        if corruption_key is not None:
            choice = choice.with_(corruption=corruption_key,
                                  corruption_params={**corruption.CORRUPTIONS[corruption_key].defaults(),
                                                     **(corruption_params or {})})
        if not self.started:
            self.choice = choice
            if method is not None:
                self.runner.set_method(method, catalogue.get(method).defaults())
                self._sync_method_controls()
            self.ensure_started()
        else:
            if choice != self.choice:
                self.load(choice)
            if method is not None:
                self.set_method(method)
        if params:
            self.runner.set_params({**self.runner.setting()[1], **params})
            self._sync_method_controls()
        if test_cleaning:
            self.set_test_cleaning(True)

    # ================================================================== start
    def ensure_started(self) -> None:
        """Load the data chosen so far (the synthetic example by default) once."""
        if self.started:
            return
        self.started = True
        if not self.load(self.choice) and self.data is None and self.choice.source != S.SYNTHETIC:
            failed = self.last_error
            self.load(S.DataChoice())
            self.show_error(failed + " — showing the synthetic 3-D example instead")

    # ================================================================== data
    def show_error(self, text: str) -> None:
        """Say why a data request failed (the data message area and the status bar)."""
        self.last_error = text
        self.data_message.setText(text)
        self.data_message.setVisible(bool(text))
        if text:
            self.status.emit(text)

    def load(self, choice: S.DataChoice) -> bool:
        """Build the data of ``choice`` and hand it to the solver. On any problem (the message
        names the file, row, class or parameter) everything loaded so far is kept and False is
        returned."""
        kept = f" — kept: {self.data.description}" if self.data is not None else ""
        outcome, value = self.data_jobs.call(lambda: S.build(choice), f"Building the {choice.source} data")
        if outcome == "superseded":
            return False
        if outcome != "ok":
            if outcome == "cancelled":
                msg = "Loading cancelled"
            else:
                msg = error_message(value) if not isinstance(value, OSError) else f"Data problem: {value}"
            if not self._closed:
                self.show_error(msg + kept)
                self._show_choice(self.choice)
            return False
        data, images = value
        info = self.runner.setting()[0]
        verdict, key, text = plan_method(info, data)
        params = None
        if verdict == "refuse" and core_run.is_classifier(info) and not data.is_classification:
            # numeric targets with a classifier chosen: regression data wins, RR it is
            target = regressor_for(data, DEFAULT_METHOD)
            key, params = target.key, target.defaults()
            verdict, text = "switch", (f"{info.name} classifies and these data have numeric targets: "
                                       f"switched to {target.name}.")
        if verdict == "refuse":
            self.show_error(f"Data refused: {text}{kept}")
            self._show_choice(self.choice)
            return False
        self.session.set_regression(choice)
        self.data, self.imageset = data, images
        if choice.source in S.OPTION_SPECS:
            self._options[choice.source] = dict(choice.options)
        self.show_error("")
        self._show_choice(choice)
        self.data_info.setText(html.escape(S.describe(data)) + "<br><span style='color:#777'>"
                               + html.escape(data.description) + "</span>")
        if images is not None and getattr(images, "skipped", ()):
            sk = images.skipped
            self.data_info.setText(self.data_info.text() + f"<br><span style='color:#8a5a00'>{len(sk)} file(s) "
                                   f"skipped: " + html.escape(", ".join(p for p, _ in sk[:3]))
                                   + ("…" if len(sk) > 3 else "") + "</span>")
        self._choose_test_samples()
        self._invalidate_tests()
        if verdict == "switch":
            self.runner.set_method(key, params if params is not None else self._params_for(catalogue.get(key)))
        self._set_note(text if verdict == "switch" else "")
        self.runner.set_data(data)
        self._show_method_message(self.runner.error)
        self._sync_method_controls()
        self.follow_live()
        self.status.emit(f"Regression data: {S.describe(data)}")
        return True

    def _choose_test_samples(self) -> None:
        """The test samples shown: the first corrupted ones, then a clean one (indices into the
        test set)."""
        data = self.data
        te = ~data.train
        touched = np.zeros(int(te.sum()), dtype=bool)
        for v in data.kinds.values():
            touched |= np.asarray(v)[te]
        first = list(np.flatnonzero(touched)[:TEST_ROWS - 1]) + list(np.flatnonzero(~touched)[:1])
        first += [i for i in range(int(te.sum())) if i not in first]
        self._test_samples = np.array(first[:TEST_ROWS], dtype=int)

    def _show_choice(self, choice: S.DataChoice) -> None:
        """Show ``choice`` in the data and corruption controls (no request is made)."""
        self._syncing = True
        try:
            value = choice.source if choice.source != S.FOLDER else (S.FOLDER, choice.path)
            i = self._find(self.source_combo, value)
            if i < 0 and choice.source == S.FOLDER and choice.path:
                name = os.path.basename(choice.path.rstrip(os.sep)) or choice.path
                self.source_combo.addItem(f"Folder: {name}", value)
                i = self.source_combo.count() - 1
                self.source_combo.setItemData(i, choice.path, QtCore.Qt.ToolTipRole)
            if i >= 0:
                self.source_combo.setCurrentIndex(i)
            specs = S.OPTION_SPECS.get(choice.source, S.OPTION_SPECS[S.FOLDER])
            self._options_group, self._options_key = show_param_group(
                self.options_tree, self._options_group, self._options_key, f"options:{choice.source}", specs,
                choice.values(), self._on_option_changed)
            spec = corruption.CORRUPTIONS.get(choice.corruption, corruption.CORRUPTIONS["none"])
            i = self.corruption_combo.findData(spec.key)
            if i >= 0:
                self.corruption_combo.setCurrentIndex(i)
            self.corruption_summary.setText(spec.summary)
            self._corr_group, self._corr_key = show_param_group(
                self.corruption_tree, self._corr_group, self._corr_key, spec.key, spec.params,
                {**spec.defaults(), **choice.corruption_params}, self._on_corruption_param)
            i = self.scope_combo.findData(choice.scope)
            if i >= 0:
                self.scope_combo.setCurrentIndex(i)
        finally:
            self._syncing = False
        self.corruption_box.setEnabled(choice.uses_corruption)
        self.corruption_box.setToolTip("" if choice.uses_corruption else
                                       "The 3-D example has its own in-plane and out-of-plane errors (§5.1)")
        folder = choice.source == S.FOLDER
        self.csv_button.setEnabled(folder)
        self.no_csv_button.setEnabled(folder and bool(choice.targets_csv))
        if folder:
            self.csv_label.setText("targets: " + (html.escape(os.path.basename(choice.targets_csv))
                                                  if choice.targets_csv else "class labels = subfolder names"))
        elif choice.source == S.SYNTHETIC:
            self.csv_label.setText("targets: y = T*[x; 1] of the clean points (3 outputs); "
                                   "100 training, 100 test points")
        else:
            self.csv_label.setText("targets: the digit (10 classes)")

    @staticmethod
    def _find(combo: QtWidgets.QComboBox, value) -> int:
        for i in range(combo.count()):
            if combo.itemData(i) == value:
                return i
        return -1

    # ---------------------------------------------------------------- data controls
    def _on_source(self, index: int) -> None:
        value = self.source_combo.itemData(index)
        if self._syncing or value is None:
            return
        if isinstance(value, tuple):
            self.load(self.choice.with_(source=S.FOLDER, path=value[1],
                                        targets_csv=self.choice.targets_csv if value[1] == self.choice.path else None,
                                        options=self._options.get(S.FOLDER, {})))
        else:
            self.load(self.choice.with_(source=value, options=self._options.get(value, {})))

    def select_source(self, source: str) -> bool:
        """Choose ``source`` in the combo as the user would (``"synthetic"``, ``"digits"``)."""
        i = self._find(self.source_combo, source)
        if i < 0:
            return False
        self.source_combo.setCurrentIndex(i)
        self.source_combo.activated.emit(i)
        return True

    def _on_option_changed(self, group, changes) -> None:
        if not self._syncing and any(c == "value" for _, c, _ in changes):
            self._options_timer.start()

    def apply_options(self) -> None:
        """Reload with the options in the controls now (normally after a short pause)."""
        self._options_timer.stop()
        if self._options_group is not None:
            self.load(self.choice.with_(options=P.group_values(self._options_group)))

    def _on_corruption_combo(self, index: int) -> None:
        if self._syncing or index < 0:
            return
        key = self.corruption_combo.itemData(index)
        self._corr_timer.stop()
        self.load(self.choice.with_(corruption=key, corruption_params=corruption.CORRUPTIONS[key].defaults()))

    def _on_corruption_param(self, group, changes) -> None:
        if not self._syncing and any(c == "value" for _, c, _ in changes):
            self._corr_timer.start()

    def apply_corruption(self) -> None:
        """Re-corrupt with the parameters in the controls now (normally after a short pause)."""
        self._corr_timer.stop()
        if self._corr_group is not None:
            self.load(self.choice.with_(corruption=self._corr_key, corruption_params=P.group_values(self._corr_group)))

    def _on_scope(self, index: int) -> None:
        if not self._syncing and index >= 0:
            self.load(self.choice.with_(scope=self.scope_combo.itemData(index)))

    def choose_folder(self) -> None:
        start = self.choice.path or os.getcwd()
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Open a folder of images", start)
        if path:
            self.open_folder(path)

    def open_folder(self, path: str, targets_csv: str | None = None) -> bool:
        """Load the images of ``path`` (subfolders as classes, or ``targets_csv``)."""
        return self.load(self.choice.with_(source=S.FOLDER, path=os.fspath(path), targets_csv=targets_csv,
                                           options=self._options.get(S.FOLDER, {})))

    def choose_csv(self) -> None:
        start = os.path.dirname(self.choice.targets_csv or "") or self.choice.path or os.getcwd()
        path, _ = QtWidgets.QFileDialog.getOpenFileName(self, "Numeric targets for the folder's images", start,
                                                        "CSV files (*.csv *.txt);;All files (*)")
        if path:
            self.set_targets_csv(path)

    def set_targets_csv(self, path: str | None) -> bool:
        """Use ``path`` (a CSV of numeric targets per file) for the open folder, or None for
        subfolders as classes."""
        if self.choice.source != S.FOLDER:
            self.show_error("Open a folder first: the targets CSV names the folder's image files")
            return False
        return self.load(self.choice.with_(targets_csv=os.fspath(path) if path else None))

    # ================================================================== method
    def _sync_method_controls(self) -> None:
        """Show the runner's setting (the one being tried, else the current) in the controls."""
        info, values = self.runner.setting()
        self._syncing = True
        try:
            self.summary_label.setText(info.summary)
            self.summary_label.setToolTip(info.reference)
            P.show_method(self.method_combo, info, values, self._method_group, self._method_group_key,
                          self._rebuild_params)
        finally:
            self._syncing = False

    def _rebuild_params(self, info, values: dict) -> None:
        for s in self._sliders:
            s.discard()
        self._sliders = []
        self._method_group = P.rebuild_group(self._method_group, info.key, info.params, values,
                                             self._on_param_changed)
        self._method_group_key = info.key
        P.set_tree_group(self.method_tree, self._method_group)
        for spec in slider_specs(info):
            s = P.SpecSlider(spec, self._method_group.child(spec.name))
            self.slider_box.addWidget(s)
            self._sliders.append(s)

    def _on_method_combo(self, index: int) -> None:
        if self._syncing or index < 0:
            return
        self.set_method(self.method_combo.itemData(index))

    def set_method(self, key: str) -> bool:
        """Use the method ``key`` (checked against the data first: see :func:`plan_method`).
        Values the user changed from a default carry over to same-named parameters; the others
        take the new method's defaults. False (and the current method kept) if refused."""
        self._apply_timer.stop()
        info = catalogue.get(key)
        old, values = self.runner.setting()
        if info.key == old.key:
            return True
        verdict, new_key, text = plan_method(info, self.data)
        if verdict == "refuse":
            self._show_method_message(f"{text} — kept {old.name}")
            self._sync_method_controls()
            return False
        target = catalogue.get(new_key)
        ok = self.runner.set_method(new_key, self._params_for(target))
        self._show_method_message(self.runner.error)
        self._set_note(text)
        self._invalidate_tests()
        self._sync_method_controls()
        self.follow_live()
        self.status.emit(f"Regression: {target.name}")
        return ok

    def _params_for(self, target) -> dict:
        """Parameters for switching to ``target``: its defaults, with the values the user changed
        from the current method's defaults carried over to same-named parameters."""
        old, values = self.runner.setting()
        changed = {k: v for k, v in values.items() if k in target.defaults() and v != old.defaults().get(k)}
        return {**target.defaults(), **changed}

    def _on_param_changed(self, group, changes) -> None:
        if not self._syncing and any(c == "value" for _, c, _ in changes):
            self._apply_timer.start()

    def apply_params(self) -> None:
        """Apply the parameter controls now (normally after a short pause); an invalid value is
        refused with a message naming the parameter, and the run is kept."""
        self._apply_timer.stop()
        if self._method_group is None:
            return
        before = self.runner.setting()
        if self.runner.set_params(P.group_values(self._method_group)):
            if self.runner.setting() != before:
                self._invalidate_tests()
            self.follow_live()

    def _show_method_message(self, text: str) -> None:
        self.method_message.setText(text)
        self.method_message.setVisible(bool(text))
        if text:
            self.status.emit(text)

    def _set_note(self, text: str) -> None:
        self.method_note.setText(text)
        self.method_note.setVisible(bool(text))

    def _on_runner_message(self, text: str) -> None:
        self._show_method_message(text)

    # ================================================================== run controls
    def step(self, n: int = 1) -> None:
        self.follow_live()
        self.runner.step(n)

    def run(self) -> None:
        self.follow_live()
        self.runner.run()

    def pause(self) -> None:
        self.runner.pause()

    def reset(self) -> None:
        self.runner.reset()
        self.follow_live()

    # ================================================================== lifecycle
    def shutdown(self) -> None:
        """Cancel the solver and the test-time cleaning; no more jobs."""
        self._closed = True
        for t in (self._apply_timer, self._options_timer, self._corr_timer):
            t.stop()
        self.runner.shutdown()
        if self._test_job is not None:
            self._test_job[1].set()
            self._test_job = None
