"""The regression workspace (paper 004): data with targets, a regression method, its ALM
iterations step by step, and the model applied to a (corrupted) test set.

Left: the data (the synthetic 3-D example of §5.1, the built-in digits with class labels, or a
folder: subfolders as classes or a CSV of numeric targets), the corruption of the inputs (any of
:data:`core.corruption.CORRUPTIONS`, on the training and/or the test inputs) and the method
(``catalogue.methods("regression")``, controls from its ParamSpecs, λ/η/γ on log sliders).
Right: the views of the shown iteration (from :func:`core.regression.views.regression_snapshot`),
the Test section and the iteration scrubber.

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
import threading

import numpy as np
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, corruption, metrics
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.regression import RegressionEstimator
from robust_subspace_lab.core.session import Session, plan_method, regressor_for, run as core_run

from .. import params as P
from ..data_panel import _show_group
from ..views import ObjectiveView, ScalarHistoryView
from ..scrubbing import FollowsIterations
from ..worker import DataJobs, error_message
from ..workspace import Workspace
from . import sources as S
from .runner import RegressionRunner, TestJob, TestRelay
from .views import (RIGHT_COLOR, WRONG_COLOR, CoefficientsView, ConfusionView, InputImagesView,
                    PredictionView, ProjectionView, ResidualView, SingularValuesView, TestSamplesView,
                    WeightImagesView)

__all__ = ["RegressionWorkspace", "DEFAULT_METHOD", "plan_method", "slider_specs", "has_own_cleaning"]

DEFAULT_METHOD = "rr"
#: ms to wait after the last change of a parameter before applying it
APPLY_DELAY_MS = 200
#: test samples shown in the Test section
TEST_ROWS = 4
PANEL_WIDTH = 340

MESSAGE_STYLE = ("QLabel { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0;"
                 " border-radius: 3px; padding: 4px; }")
NOTE_STYLE = ("QLabel { background: #fff6e0; color: #6b4a00; border: 1px solid #f0d9a0;"
              " border-radius: 3px; padding: 4px; }")

METRICS_TIP = (
    "train / test accuracy: share of correctly labelled samples (nearest class mean in the output space)\n"
    "RAE_Y: relative error of the predicted targets ‖Ŷ − Y‖/‖Y‖ (paper 004 §5.1)\n"
    "RAE_T: relative error of T against the true regressor (the scored columns, §5.1)\n"
    "cleaning error: ‖D − X_clean‖/‖X_clean‖ of the cleaned training inputs (input: the same for X)\n"
    "distance to clean: mean ‖dᵢ − xᵢ_clean‖ of the samples of one kind of error (input → cleaned)")


def slider_specs(info, count: int = 3) -> list:
    """The parameters worth a slider: the first ``count`` float parameters with a slider range
    (RR, RLDA: λ, η, γ on log scales)."""
    return [s for s in P.slider_specs(info.params) if s.kind == "float"][:count]


def has_own_cleaning(info) -> bool:
    """The method cleans test inputs its own way (RR family: Alg. 2; RPCA+LSR: PCP)."""
    return info.estimator.clean_inputs is not RegressionEstimator.clean_inputs


def _regression_keys() -> list[str]:
    return [m.key for m in catalogue.methods("regression")]


def _label(text: str, style: str | None = None, wrap: bool = True) -> QtWidgets.QLabel:
    lab = QtWidgets.QLabel(text)
    lab.setWordWrap(wrap)
    if style:
        lab.setStyleSheet(style)
    return lab


def _fmt(name: str, v) -> str:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return html.escape(str(v))
    if not np.isfinite(v):
        return "–"
    if "accuracy" in name:
        return f"{100.0 * v:.1f} %"
    return f"{v:.3g}"


REGRESSION_TAB = "Regression"


class RegressionWorkspace(FollowsIterations, Workspace, QtWidgets.QWidget):
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

    title = REGRESSION_TAB
    tooltip = ("Robust regression and RLDA (paper 004): inputs with targets, cleaned inputs D, "
               "outliers E, the regressor T, test-time cleaning")
    task = "regression"
    run_target = "the regression solver"

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
        self._follow = True
        self.shown_index = -1
        self.shown_snapshot = None
        self.shown_state = None
        self.frames = 0
        # test-time cleaning
        self.test_clean = False
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

    # ================================================================== layout
    def _build(self) -> None:
        outer = QtWidgets.QHBoxLayout(self)
        outer.setContentsMargins(2, 2, 2, 2)
        outer.setSpacing(6)
        panel = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(panel)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.setSpacing(6)

        # ------------------------------------------------------------ data
        box = QtWidgets.QGroupBox("Data (inputs and targets)")
        v = QtWidgets.QVBoxLayout(box)
        v.setSpacing(4)
        self.source_combo = QtWidgets.QComboBox()
        for src in S.SOURCES:
            self.source_combo.addItem(S.SOURCE_TITLES[src], src)
        self.source_combo.setToolTip("The paper's synthetic 3-D example, the built-in digits (class labels), "
                                     "or a folder you opened")
        self.source_combo.activated.connect(self._on_source)
        v.addWidget(self.source_combo)
        row = QtWidgets.QHBoxLayout()
        self.open_button = QtWidgets.QPushButton("Open folder…")
        self.open_button.setToolTip("A folder of images: one subfolder per class, or any layout with a CSV "
                                    "of numeric targets")
        self.open_button.clicked.connect(self.choose_folder)
        self.csv_button = QtWidgets.QPushButton("Targets CSV…")
        self.csv_button.setToolTip("A CSV 'file,target_1,...' with numeric targets for the folder's images "
                                   "(regression); without one, the subfolder names are the classes")
        self.csv_button.clicked.connect(self.choose_csv)
        self.no_csv_button = QtWidgets.QPushButton("No CSV")
        self.no_csv_button.setToolTip("Use the subfolder names as classes again")
        self.no_csv_button.clicked.connect(lambda: self.set_targets_csv(None))
        for b in (self.open_button, self.csv_button, self.no_csv_button):
            row.addWidget(b)
        v.addLayout(row)
        self.csv_label = _label("")
        self.csv_label.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.csv_label)
        self.options_tree = P.make_tree(None)
        v.addWidget(self.options_tree)
        self.data_info = _label("")
        self.data_info.setStyleSheet("color: #333; font-size: 8pt;")
        self.data_info.setTextInteractionFlags(QtCore.Qt.TextSelectableByMouse)
        v.addWidget(self.data_info)
        lay.addWidget(box)

        # ------------------------------------------------------------ corruption
        self.corruption_box = QtWidgets.QGroupBox("Corruption of the inputs")
        v = QtWidgets.QVBoxLayout(self.corruption_box)
        v.setSpacing(4)
        self.corruption_combo = QtWidgets.QComboBox()
        for key, spec in corruption.CORRUPTIONS.items():
            self.corruption_combo.addItem(spec.name, key)
            self.corruption_combo.setItemData(self.corruption_combo.count() - 1, spec.summary,
                                              QtCore.Qt.ToolTipRole)
        self.corruption_combo.activated.connect(self._on_corruption_combo)
        v.addWidget(self.corruption_combo)
        self.corruption_summary = _label("")
        self.corruption_summary.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.corruption_summary)
        self.corruption_tree = P.make_tree(None)
        v.addWidget(self.corruption_tree)
        row = QtWidgets.QHBoxLayout()
        row.addWidget(QtWidgets.QLabel("Corrupt"))
        self.scope_combo = QtWidgets.QComboBox()
        for key, text in S.SCOPES.items():
            self.scope_combo.addItem(text, key)
        self.scope_combo.setToolTip("Which inputs the corruption hits (the same images are chosen either way)")
        self.scope_combo.activated.connect(self._on_scope)
        row.addWidget(self.scope_combo, 1)
        v.addLayout(row)
        lay.addWidget(self.corruption_box)

        self.data_message = _label("", MESSAGE_STYLE)
        self.data_message.setObjectName("regressionDataMessage")
        self.data_message.setVisible(False)
        lay.addWidget(self.data_message)

        # ------------------------------------------------------------ method
        box = QtWidgets.QGroupBox("Method")
        v = QtWidgets.QVBoxLayout(box)
        v.setSpacing(4)
        self.method_combo = QtWidgets.QComboBox()
        for info in catalogue.methods("regression"):
            self.method_combo.addItem(info.name, info.key)
            self.method_combo.setItemData(self.method_combo.count() - 1, f"{info.summary}\n\n{info.reference}",
                                          QtCore.Qt.ToolTipRole)
        f = self.method_combo.font()
        f.setBold(True)
        self.method_combo.setFont(f)
        self.method_combo.activated.connect(self._on_method_combo)
        v.addWidget(self.method_combo)
        self.summary_label = _label("")
        self.summary_label.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.summary_label)
        self.slider_box = QtWidgets.QVBoxLayout()
        self.slider_box.setSpacing(2)
        v.addLayout(self.slider_box)
        self.method_tree = P.make_tree(None)
        v.addWidget(self.method_tree)
        self.method_note = _label("", NOTE_STYLE)
        self.method_note.setObjectName("regressionMethodNote")
        self.method_note.setVisible(False)
        v.addWidget(self.method_note)
        self.method_message = _label("", MESSAGE_STYLE)
        self.method_message.setObjectName("regressionMethodMessage")
        self.method_message.setVisible(False)
        v.addWidget(self.method_message)
        lay.addWidget(box)

        help_box = QtWidgets.QGroupBox("Reading the views")
        hv = QtWidgets.QVBoxLayout(help_box)
        text = _label(
            "<b>X = D + E</b>: the method splits the training inputs X into cleaned inputs D (low rank) and "
            "sparse outliers E, and learns the regressor T from D (paper 004, eq. 3).<br>"
            "<b>3-D example</b>: × inputs (orange: in-plane error, violet: out-of-plane, grey: none), "
            "red rings the cleaned D, blue dots the clean truth, segments the displacement.<br>"
            "<b>T</b>: one weight image per class/output (blue −, red +).<br>"
            "<b>Test</b>: T applied to the test inputs as they are, or after cleaning them against D "
            "(Alg. 2).")
        text.setStyleSheet("color: #333; font-size: 8pt;")
        hv.addWidget(text)
        lay.addWidget(help_box)
        lay.addStretch(1)

        scroll = QtWidgets.QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        scroll.setWidget(panel)
        scroll.setFixedWidth(PANEL_WIDTH)
        outer.addWidget(scroll)

        # ------------------------------------------------------------ views
        right = QtWidgets.QVBoxLayout()
        right.setSpacing(4)
        head = QtWidgets.QHBoxLayout()
        big = self.font()
        big.setPointSizeF(big.pointSizeF() * 1.25)
        big.setBold(True)
        self.iteration_label = QtWidgets.QLabel("iteration –")
        self.iteration_label.setFont(big)
        self.iteration_label.setMinimumWidth(260)
        head.addWidget(self.iteration_label, 0, QtCore.Qt.AlignTop)
        self.scalars_label = _label("")
        self.scalars_label.setTextFormat(QtCore.Qt.RichText)
        self.scalars_label.setStyleSheet("color: #333;")
        head.addWidget(self.scalars_label, 3, QtCore.Qt.AlignTop)
        self.metrics_label = QtWidgets.QLabel("")
        self.metrics_label.setObjectName("regressionMetrics")
        self.metrics_label.setTextFormat(QtCore.Qt.RichText)
        self.metrics_label.setToolTip(METRICS_TIP)
        head.addWidget(self.metrics_label, 4, QtCore.Qt.AlignTop)
        right.addLayout(head)

        self.inputs_view = InputImagesView(n_rows=3)
        self.proj_xy = ProjectionView((0, 1), "x₁–x₂ (the plane)")
        self.proj_xz = ProjectionView((0, 2), "x₁–x₃ (across the plane)")
        points = QtWidgets.QWidget()
        pv = QtWidgets.QVBoxLayout(points)
        pv.setContentsMargins(0, 0, 0, 0)
        pv.setSpacing(1)
        pl = QtWidgets.QHBoxLayout()
        pl.setSpacing(4)
        pl.addWidget(self.proj_xy, 1)
        pl.addWidget(self.proj_xz, 1)
        pv.addLayout(pl, 1)
        self.points_legend = _label("")
        self.points_legend.setTextFormat(QtCore.Qt.RichText)
        self.points_legend.setStyleSheet("color: #333; font-size: 8pt;")
        pv.addWidget(self.points_legend)
        self.inputs_stack = QtWidgets.QStackedWidget()
        self.inputs_stack.addWidget(self.inputs_view)
        self.inputs_stack.addWidget(points)
        self.points_page = points

        self.objective_view = ObjectiveView()
        self.residual_view = ResidualView()
        self.sv_view = SingularValuesView()
        self.scalar_view = ScalarHistoryView()
        self._scalar_defaults_for = None
        curves = QtWidgets.QGridLayout()
        curves.setSpacing(4)
        curves.addWidget(self.objective_view, 0, 0)
        curves.addWidget(self.residual_view, 0, 1)
        curves.addWidget(self.sv_view, 1, 0)
        curves.addWidget(self.scalar_view, 1, 1)

        top = QtWidgets.QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(self.inputs_stack, 5)
        top.addLayout(curves, 6)

        self.weights_view = WeightImagesView()
        self.coef_view = CoefficientsView()
        self.T_stack = QtWidgets.QStackedWidget()
        self.T_stack.addWidget(self.weights_view)
        self.T_stack.addWidget(self.coef_view)

        self.test_box = self._build_test()
        bottom = QtWidgets.QHBoxLayout()
        bottom.setSpacing(4)
        bottom.addWidget(self.T_stack, 4)
        bottom.addWidget(self.test_box, 7)

        for w in (self.objective_view, self.residual_view, self.sv_view, self.scalar_view):
            w.setMinimumHeight(150)
        self.inputs_stack.setMinimumHeight(300)
        right.addLayout(top, 5)
        right.addLayout(bottom, 4)

        scrub = self._build_scrubber("0000 / 0000 (live)  ")
        right.addLayout(scrub)
        outer.addLayout(right, 1)

    def _build_test(self) -> QtWidgets.QGroupBox:
        box = QtWidgets.QGroupBox("Test set: the model applied to the held-out inputs")
        v = QtWidgets.QVBoxLayout(box)
        v.setContentsMargins(4, 4, 4, 4)
        v.setSpacing(3)
        row = QtWidgets.QHBoxLayout()
        self.test_checkbox = QtWidgets.QCheckBox("Test-time cleaning (Alg. 2)")
        self.test_checkbox.setToolTip(
            "Off: T is applied to the test inputs as they are.\nOn: each test input is first cleaned "
            "against the cleaned training inputs D (paper 004 Alg. 2 / eq. 8: xₜₑ = z D + e with z of "
            "small nuclear norm and e sparse), then T is applied to z D. Runs in the background.")
        self.test_checkbox.toggled.connect(self.set_test_cleaning)
        row.addWidget(self.test_checkbox)
        self.test_status = _label("")
        self.test_status.setObjectName("regressionTestStatus")
        self.test_status.setStyleSheet("color: #555;")
        row.addWidget(self.test_status, 1)
        v.addLayout(row)
        self.test_metrics = QtWidgets.QLabel("")
        self.test_metrics.setObjectName("regressionTestMetrics")
        self.test_metrics.setTextFormat(QtCore.Qt.RichText)
        f = self.test_metrics.font()
        f.setPointSizeF(f.pointSizeF() * 1.1)
        self.test_metrics.setFont(f)
        v.addWidget(self.test_metrics)
        self.confusion_view = ConfusionView()
        self.prediction_view = PredictionView()
        self.test_plot_stack = QtWidgets.QStackedWidget()
        self.test_plot_stack.addWidget(self.confusion_view)
        self.test_plot_stack.addWidget(self.prediction_view)
        self.test_samples_view = TestSamplesView(n_rows=TEST_ROWS)
        row = QtWidgets.QHBoxLayout()
        row.setSpacing(4)
        row.addWidget(self.test_plot_stack, 4)
        row.addWidget(self.test_samples_view, 5)
        v.addLayout(row, 1)
        return box

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
    def activated(self) -> None:
        self.ensure_started()

    def data_text(self) -> str:
        return self.data.description if self.data is not None else ""

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
            self._data_error(failed + " — showing the synthetic 3-D example instead")

    # ================================================================== data
    def _data_error(self, text: str) -> None:
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
        if outcome != "ok":
            if outcome == "cancelled":
                msg = "Loading cancelled"
            else:
                msg = error_message(value) if not isinstance(value, OSError) else f"Data problem: {value}"
            if not self._closed:
                self._data_error(msg + kept)
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
            self._data_error(f"Data refused: {text}{kept}")
            self._show_choice(self.choice)
            return False
        self.session.set_regression(choice)
        self.data, self.imageset = data, images
        if choice.source in S.OPTION_SPECS:
            self._options[choice.source] = dict(choice.options)
        self._data_error("")
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
            self._options_group, self._options_key = _show_group(
                self.options_tree, self._options_group, self._options_key, f"options:{choice.source}", specs,
                choice.values(), self._on_option_changed)
            spec = corruption.CORRUPTIONS.get(choice.corruption, corruption.CORRUPTIONS["none"])
            i = self.corruption_combo.findData(spec.key)
            if i >= 0:
                self.corruption_combo.setCurrentIndex(i)
            self.corruption_summary.setText(spec.summary)
            self._corr_group, self._corr_key = _show_group(
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
            self._data_error("Open a folder first: the targets CSV names the folder's image files")
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

    # ================================================================== scrubbing
    # ================================================================== test-time cleaning
    def set_test_cleaning(self, on: bool) -> None:
        """Test-time cleaning (Alg. 2) on or off; the Test section recomputes for the shown state."""
        on = bool(on)
        if self.test_checkbox.isChecked() != on:
            self.test_checkbox.setChecked(on)      # comes back here through toggled
            return
        self.test_clean = on
        self._drawn_key = None
        if on and self.shown_state is not None:
            self._want_test(self.shown_state)
        self.refresh()
        self.activity.emit()

    def _invalidate_tests(self) -> None:
        if self._test_job is not None:
            self._test_job[1].set()
            self._test_job = None
        self._test_token += 1
        self._test_target = None
        self._test_result = None
        self._test_done = None
        self._test_error = ""
        self._test_version += 1

    def _want_test(self, state) -> None:
        if not self.test_clean or state is None or self._closed:
            return
        if self._test_done is state:         # done (or failed) for this state already
            return
        self._test_target = state
        if self._test_job is None:
            self._submit_test(state)

    def _submit_test(self, state) -> None:
        self._test_token += 1
        cancel = threading.Event()
        self._test_job = (self._test_token, cancel, state)
        self._test_version += 1
        self.pool.start(TestJob(self.test_relay, self._test_token, cancel, self.runner.estimator, state,
                                self.data))
        self.activity.emit()

    def _on_test_finished(self, token: int, outcome) -> None:
        if self._test_job is None or token != self._test_job[0]:
            return
        state = self._test_job[2]
        self._test_job = None
        self._test_result = (state, outcome)
        self._test_done = state
        self._test_error = ""
        self._test_version += 1
        self._next_test(state)

    def _on_test_failed(self, token: int, text: str) -> None:
        if self._test_job is None or token != self._test_job[0]:
            return
        state = self._test_job[2]
        self._test_job = None
        self._test_done = state
        self._test_error = text
        self._test_version += 1
        self._next_test(state)

    def _next_test(self, done_state) -> None:
        target = self._test_target
        if self.test_clean and target is not None and target is not done_state and not self._closed:
            self._submit_test(target)
        self.activity.emit()

    # ================================================================== drawing
    def refresh(self, force: bool = False) -> bool:
        """Redraw if the solver, the scrubber or the Test section changed since the last frame
        (the window's frame timer calls this ~30 times a second). True if drawn."""
        states = self.runner.states
        n = len(states)
        blocked = self.scrubber.blockSignals(True)
        self.scrubber.setRange(0, max(n - 1, 0))
        if self._follow and n:
            self.scrubber.setValue(n - 1)
        self.scrubber.blockSignals(blocked)
        index = self.scrubber.value() if n else -1
        key = (self.runner.version, index, self._test_version, self.test_clean)
        if key == self._drawn_key and not force:
            return False
        self._drawn_key = key
        snap = self.runner.snapshot(index) if n else None
        self.shown_index = index
        self.shown_snapshot = snap
        self.shown_state = states[index] if n else None
        self._draw(snap)
        if self.test_clean and self.shown_state is not None:
            self._want_test(self.shown_state)
        self._draw_test(snap)
        self.frames += 1
        self.drawn.emit(-1 if snap is None else snap.iteration)
        return True

    def _draw(self, snap) -> None:
        images = snap is not None and snap.rows is not None
        points = snap is not None and snap.points is not None
        if snap is not None:
            page = self.inputs_view if images or not points else self.points_page
            if self.inputs_stack.currentWidget() is not page:
                self.inputs_stack.setCurrentWidget(page)
            tpage = self.weights_view if snap.weights is not None else self.coef_view
            if self.T_stack.currentWidget() is not tpage:
                self.T_stack.setCurrentWidget(tpage)
        if self.inputs_stack.currentWidget() is self.points_page:
            self.proj_xy.show_snapshot(snap)
            self.proj_xz.show_snapshot(snap)
            legend = ProjectionView.legend_html(snap)
            if self.points_legend.text() != legend:
                self.points_legend.setText(legend)
        else:
            self.inputs_view.show_snapshot(snap)
        self.objective_view.show_snapshot(snap)
        self.residual_view.show_snapshot(snap)
        ref = None
        if self.runner.states:
            first = self.runner.snapshot(0)
            ref = first.singular_values if first is not None else None
        self.sv_view.show_snapshot(snap, ref)
        self.scalar_view.show_snapshot(snap)
        if snap is not None and self._scalar_defaults_for != self.runner.info.key:
            self._scalar_defaults_for = self.runner.info.key
            if "rank" in snap.scalar_history:
                self.scalar_view.choose("rank")
            second = "nnz(E)" if "nnz(E)" in snap.scalar_history else None
            self.scalar_view.choose_second(second)
        if self.T_stack.currentWidget() is self.weights_view:
            self.weights_view.show_snapshot(snap)
        else:
            self.coef_view.show_snapshot(snap, None if self.data is None else self.data.T_true,
                                         None if self.data is None else self.data.scored_columns)
        self._draw_text(snap)

    def _draw_text(self, snap) -> None:
        n = len(self.runner.states)
        name = self.runner.info.name
        if snap is None:
            self.iteration_label.setText(f"{name} · iteration –")
            self.scalars_label.setText("starting…" if self.runner.busy and not self.runner.error else "")
            self.metrics_label.setText("")
            self.scrub_label.setText("")
            return
        self.iteration_label.setText(f"{name} · {self.runner.status_line(snap.iteration)}")
        parts = [("objective", f"{snap.objective:.6g}")]
        parts += [(k, f"{v:.3g}" if isinstance(v, float) else str(v)) for k, v in snap.scalars.items()]
        self.scalars_label.setText(" &nbsp;·&nbsp; ".join(
            f"<span style='white-space:nowrap'>{html.escape(k)}&nbsp;=&nbsp;{html.escape(v)}</span>"
            for k, v in parts))
        self.metrics_label.setText(self._metrics_html(snap.metrics))
        live = "live" if self._follow else "past"
        self.scrub_label.setText(f"{self.shown_index} / {n - 1} ({live})")
        self.live_button.setEnabled(not self._follow)

    @staticmethod
    def _metrics_html(m: dict) -> str:
        cells = []
        for key in ("train accuracy", "test accuracy", "RAE_Y train", "RAE_Y test", "RAE_T"):
            if key in m:
                label = key + (" (plain)" if key.startswith("test") or key == "RAE_Y test" else "")
                cells.append((label, _fmt(key, m[key])))
        if "cleaning error" in m:
            cells.append(("cleaning error (input)", f"{_fmt('', m['cleaning error'])} ({_fmt('', m['input error'])})"))
        for key, v in m.items():
            if key.startswith("distance to clean: "):
                kind = key.split(": ", 1)[1]
                cells.append((f"distance to clean, {kind}",
                              f"{_fmt('', m.get('input distance: ' + kind))} → {_fmt('', v)}"))
        td = [f"<td><span style='color:#555'>{html.escape(k)}</span>&nbsp;</td>"
              f"<td align='right'><b>{v}</b>&nbsp;&nbsp;&nbsp;</td>" for k, v in cells]
        rows = ["<tr>" + "".join(td[i:i + 2]) + "</tr>" for i in range(0, len(td), 2)]
        return "<table cellspacing='0' cellpadding='0'>" + "".join(rows) + "</table>"

    # ---------------------------------------------------------------- the Test section
    def _draw_test(self, snap) -> None:
        data = self.data
        tsnap, outcome, status = snap, None, ""
        mode = "plain"
        if snap is None or data is None:
            self.test_metrics.setText("")
            self.test_status.setText("")
            self.confusion_view.show_counts(None)
            self.prediction_view.show_predictions(None, None)
            self.test_samples_view.show_rows(None)
            self.test_snapshot, self.test_outcome, self.test_mode_shown = None, None, "plain"
            return
        info = self.runner.info
        if self.test_clean:
            result = self._test_result
            computing = self._test_job is not None
            if result is not None:
                outcome = result[1]
                tsnap, mode = outcome.snapshot, "clean"
                how = self._cleaning_text(info)
                if result[0] is self.shown_state:
                    status = (f"{how}: cleaned in {outcome.seconds:.2f} s (iteration {outcome.iteration})"
                              if has_own_cleaning(info) else how)
                else:
                    status = (f"{how}: results of iteration {outcome.iteration}"
                              + (f"; cleaning iteration {self.shown_state.iteration}…" if computing else ""))
            else:
                tsnap, mode = snap, "plain"
                status = ("cleaning the test inputs (Alg. 2)… — plain predictions shown meanwhile"
                          if computing else "")
            if self._test_error and self._test_done is self.shown_state:
                status = self._test_error + (f" — showing iteration {outcome.iteration}" if outcome else "")
        else:
            status = "plain: T applied to the test inputs as they are"
        self.test_snapshot, self.test_outcome, self.test_mode_shown = tsnap, outcome, mode
        self.test_status.setText(status)
        m = tsnap.metrics
        n_te = int((~data.train).sum())
        corrupted = sum(int(np.asarray(v)[~data.train].sum()) for v in data.kinds.values())
        where = f"{n_te} test samples, {corrupted} corrupted"
        if data.is_classification:
            acc = m.get("test accuracy", float("nan"))
            text = (f"test accuracy <b>{_fmt('accuracy', acc)}</b> "
                    f"<span style='color:#555'>({'cleaned' if mode == 'clean' else 'plain'}; train "
                    f"{_fmt('accuracy', m.get('train accuracy'))}; {where})</span>")
            classes = list(data.classes)
            counts = metrics.confusion_matrix(np.asarray(data.labels)[~data.train],
                                              np.asarray(tsnap.test_predictions), classes)
            self.confusion_view.show_counts(counts, [str(c) for c in classes],
                                            f"Test confusion ({'cleaned' if mode == 'clean' else 'plain'}): "
                                            f"accuracy {_fmt('accuracy', acc)}")
            if self.test_plot_stack.currentWidget() is not self.confusion_view:
                self.test_plot_stack.setCurrentWidget(self.confusion_view)
        else:
            rae = m.get("RAE_Y test", float("nan"))
            text = (f"test RAE_Y <b>{_fmt('', rae)}</b> <span style='color:#555'>"
                    f"({'cleaned' if mode == 'clean' else 'plain'}; train {_fmt('', m.get('RAE_Y train'))}; "
                    f"{where})</span>")
            self.prediction_view.show_predictions(tsnap.Y_test, tsnap.test_outputs, tsnap.output_names,
                                                  f"Test predictions vs truth ({'cleaned' if mode == 'clean' else 'plain'}): "
                                                  f"RAE_Y {_fmt('', rae)}")
            if self.test_plot_stack.currentWidget() is not self.prediction_view:
                self.test_plot_stack.setCurrentWidget(self.prediction_view)
        self.test_metrics.setText(text)
        self._draw_test_samples(tsnap, outcome)

    @staticmethod
    def _cleaning_text(info) -> str:
        if hasattr(info.estimator, "clean"):
            return "cleaned by Alg. 2"
        if has_own_cleaning(info):
            return f"cleaned by {info.name}'s own test-time cleaning"
        return f"{info.name} has no test-time cleaning (inputs used as they are)"

    def _draw_test_samples(self, tsnap, outcome) -> None:
        data = self.data
        if data.shape is None or not len(self._test_samples):
            self.test_samples_view.setVisible(False)
            return
        self.test_samples_view.setVisible(True)
        h, w = data.shape
        te = ~data.train
        idx = self._test_samples
        X = np.asarray(data.X)[te][idx]
        missing = np.isnan(X)
        X_in = np.where(missing, 0.0, X)
        clean = np.asarray(data.X_clean)[te][idx] if data.X_clean is not None else X_in
        cols = [clean, X_in]
        if outcome is not None and outcome.cleaning is not None:
            cols.append(np.asarray(outcome.cleaning.D)[idx])
            cols.append(np.asarray(outcome.cleaning.E)[idx])
        elif outcome is not None and outcome.cleaned is not None and has_own_cleaning(self.runner.info):
            cols.append(np.asarray(outcome.cleaned)[idx])
        rows = np.stack(cols, axis=1).reshape(len(idx), len(cols), h, w)
        captions, colors = [], []
        if data.is_classification:
            truth = np.asarray(data.labels)[te][idx]
            pred = np.asarray(tsnap.test_predictions)[idx]
            for p, t in zip(pred, truth):
                captions.append(f"pred {p}\ntrue {t}")
                colors.append(RIGHT_COLOR if p == t else WRONG_COLOR)
        else:
            Yp, Yt = np.asarray(tsnap.test_outputs)[idx], np.asarray(tsnap.Y_test)[idx]
            def num(v):
                return f"{v:.2f}" if abs(v) < 100 else f"{v:.3g}"
            for p, t in zip(Yp, Yt):
                captions.append("pred " + ", ".join(num(v) for v in p[:2]) + "\ntrue "
                                + ", ".join(num(v) for v in t[:2]))
                colors.append("#333333")
        what = {2: "clean | test input", 3: "clean | test input | cleaned",
                4: "clean | test input | cleaned Dₜₑ | outliers Eₜₑ"}[len(cols)]
        self.test_samples_view.show_rows(rows, captions, colors, missing.reshape(len(idx), h, w) if missing.any()
                                         else None, title=f"Test samples: {what}")

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
