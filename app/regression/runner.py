"""The regression workspace's solver bookkeeping: the method columns' runner and job, reused.

:class:`RegressionRunner` is :class:`app.runner.ColumnRunner` (states list, generations, cancel,
tried settings kept until they start, thinning of old states) with three differences: the job
starts the estimator on ``(X_train, targets)`` instead of ``X``, the snapshots come from
:func:`core.regression.views.regression_snapshot`; the run's history
(:class:`core.session.History`) thins a :class:`~core.regression.RegressionState` by dropping D,
E and the solver context.

:class:`TestJob` runs the costly test-time cleaning (paper 004 Alg. 2) for one state in the pool:
``regression_snapshot(state, data, test="clean", estimator=...)``; the cleaned test inputs and
their outliers are recorded on the way (:class:`CleaningRecorder`) so that the Test view can show
them without cleaning twice.
"""
from __future__ import annotations

import sys
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any

import numpy as np
from PySide6 import QtCore

from robust_subspace_lab.core import interrupt
from robust_subspace_lab.core.errors import DataError, ParameterError, SolverError
from robust_subspace_lab.core.regression.views import regression_snapshot
from robust_subspace_lab.core.session import run as _core_run

from .. import give_way
from ..runner import ColumnRunner
from ..worker import SolverJob, error_message, lower_thread_priority

__all__ = ["RegressionRunner", "RegressionJob", "TestJob", "TestRelay", "TestOutcome",
           "CleaningRecorder", "training_targets"]



training_targets = _core_run.training_targets


class RegressionJob(SolverJob):
    """A :class:`~app.worker.SolverJob` for a regression estimator and a RegressionData."""

    measures_apart = False          # regression snapshots come whole

    def _start_state(self):
        return self.estimator.start(self.data.X_train, training_targets(self.estimator, self.data))

    def _snapshot(self, state):
        return regression_snapshot(state, self.data, self.samples, n_basis=self.n_basis)


class RegressionRunner(ColumnRunner):
    """The state machine of the regression workspace (see :class:`app.runner.ColumnRunner`)."""

    def _new_job(self, *args, **kwargs) -> SolverJob:
        return RegressionJob(*args, **kwargs)

    def _compute_snapshot(self, state):
        return regression_snapshot(state, self.data)

    @staticmethod
    def _nbytes(snap) -> int:
        arrays = [snap.rows, snap.weights, snap.basis, snap.train_outputs, snap.test_outputs,
                  snap.outlier_score, snap.singular_values, snap.coef, snap.objective_history]
        arrays += list((snap.points or {}).values())
        return sum(a.nbytes for a in arrays if isinstance(a, np.ndarray)) + 1024

    @staticmethod
    def is_light(state) -> bool:
        """True for a thinned state (its D and solver context were dropped to save memory)."""
        return state.D.size == 0


# =========================================================================== test-time cleaning
class CleaningRecorder:
    """Stands in for the estimator in ``regression_snapshot(..., test="clean")``: cleans the test
    inputs with the estimator's own test-time cleaning and keeps what it produced.

    ``cleaning`` : the :class:`~core.regression.TestCleaning` of methods with Alg. 2 (RR, RLDA and
    their missing-data versions: cleaned inputs D, outliers E), else None; ``cleaned`` : the
    cleaned test inputs (n_test, n_features) whatever the method (RPCA+LSR: PCP's low-rank part;
    methods without a test-time cleaning return the inputs, missing entries filled)."""

    def __init__(self, estimator, should_stop=None):
        self.estimator = estimator
        self.should_stop = should_stop       # checked by the cleaning's ALM between iterations
        self.cleaning = None
        self.cleaned = None

    def clean_inputs(self, X, state=None):
        if hasattr(self.estimator, "clean"):
            self.cleaning = self.estimator.clean(X, state=state, should_stop=self.should_stop)
            self.cleaned = np.asarray(self.cleaning.D)
        else:
            self.cleaned = np.asarray(self.estimator.clean_inputs(X, state=state))
        return self.cleaned


@dataclass(frozen=True, eq=False)
class TestOutcome:
    """The test set seen through one state with test-time cleaning.

    snapshot : the RegressionSnapshot with ``test_mode == "clean"`` (test outputs, predictions,
    metrics); cleaning : TestCleaning or None; cleaned : (n_test, n_features) cleaned test inputs;
    seconds : time the cleaning took; iteration : of the state."""

    __test__ = False

    snapshot: Any
    cleaning: Any
    cleaned: np.ndarray | None
    seconds: float
    iteration: int


class TestRelay(QtCore.QObject):
    """Signals of the test jobs (emitted from pool threads, connected queued)."""

    #: token, TestOutcome
    finished = QtCore.Signal(int, object)
    #: token, message
    failed = QtCore.Signal(int, str)


class TestJob(QtCore.QRunnable):
    """Test-time cleaning of the test inputs for one state (see the module docstring)."""

    __test__ = False

    def __init__(self, relay: TestRelay, token: int, cancel: threading.Event, estimator, state, data,
                 samples=None):
        super().__init__()
        self.setAutoDelete(True)
        self.relay, self.token, self.cancel = relay, token, cancel
        self.estimator, self.state, self.data, self.samples = estimator, state, data, samples

    def _emit(self, name: str, *args) -> None:
        try:
            getattr(self.relay, name).emit(self.token, *args)
        except RuntimeError:      # the workspace was closed
            self.cancel.set()

    def run(self) -> None:  # noqa: D401 - QRunnable API
        lower_thread_priority()
        if self.cancel.is_set():
            return
        try:
            if RegressionRunner.is_light(self.state):
                raise DataError(f"iteration {self.state.iteration} was thinned to save memory (its D is "
                                "no longer kept): test-time cleaning is available for the recent iterations")
            rec = CleaningRecorder(self.estimator, should_stop=self.cancel.is_set)
            t0 = time.perf_counter()
            with give_way.cancellable(self.cancel):
                snap = regression_snapshot(self.state, self.data, self.samples, test="clean", estimator=rec)
            outcome = TestOutcome(snapshot=snap, cleaning=rec.cleaning, cleaned=rec.cleaned,
                                  seconds=time.perf_counter() - t0, iteration=self.state.iteration)
        except interrupt.Cancelled:
            return                       # asked for: nothing to show
        except Exception as exc:  # every failure becomes a message
            if not isinstance(exc, (ParameterError, SolverError, DataError)):
                traceback.print_exc(file=sys.stderr)
            if not self.cancel.is_set():
                self._emit("failed", error_message(exc))
            return
        if not self.cancel.is_set():
            self._emit("finished", outcome)
