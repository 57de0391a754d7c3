"""Solver jobs run on a QThreadPool; results cross to the GUI thread by queued signals.

A :class:`SolverJob` takes only immutable inputs (an estimator whose hyperparameters are not
changed afterwards, the :class:`~core.corruption.Corrupted` data, an optional starting
:class:`~core.base.State`) and does, off the GUI thread:

1. ``state = estimator.start(data.X)`` if it has no starting state (iteration 0);
2. up to ``n_steps`` calls of ``estimator.step``, never past ``estimator.finished(state)`` (with
   ``until_finished``, steps until it holds), checking its cancel flag (a :class:`threading.Event`) before
   every step; a run (``until_finished``) is paced to at most one step per ``delay()`` seconds
   (the wait is a wait on the cancel flag, so Pause is immediate);
3. each start and step only once its temporaries fit beside those of the other columns' running
   work (:data:`core.working.WORKING`: three NMF columns on large data step one or two at a
   time instead of all at once); waiting, it checks the cancel flag;
4. ``core.views.snapshot(state, data)`` (the arrays the views draw), so the GUI thread only
   draws; at a finished state (``estimator.finished``) with its costly metrics (ACC/NMI of NMF
   on labelled data), which are otherwise computed only when cheap. Not for every state: steps
   that come faster than the window draws (:data:`SNAPSHOT_PERIOD_S`) go to the GUI thread in a
   batch with the snapshot of the newest state only, as long as a snapshot is cheap
   (:data:`CHEAP_SNAPSHOT_S`: the runner makes one on demand if the scrubber goes to such a
   state). On the faces at full speed snapshots were more than half of the solvers' work, mostly
   for states never drawn, and the solver threads' Python held the interpreter lock the GUI
   thread waited for. The first and the last state of a job always have theirs.
5. On large data (:data:`MEASURE_APART_ENTRIES`) the snapshot goes to the GUI thread without its
   measures (:class:`core.views.Measures`: the errors and metrics, one or two passes over the
   data, 50–150 ms at 5,000 × 9,216), which follow in ``measured`` once computed: the frame is
   drawn that much sooner, and the column shows the numbers when they come. A job cancelled in
   between leaves them to a :class:`MeasureJob`, which the runner starts when it is idle.

BLAS threads: every job runs as one of :data:`core.threads.RUNNING`'s solvers, which applies the
thread policy (all cores for one running job, shared when several run, one thread on small data:
:func:`core.threads.threads_for`) whenever the number of running jobs changes. This is the one
place the app sets thread counts.

Every signal carries the job's *generation*; the owner ignores signals of an old generation
(a cancelled or reset run). Errors come back as a readable message, never as an exception in
the pool.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from typing import Callable

from PySide6 import QtCore

from robust_subspace_lab.core import interrupt, threads, views, working
from robust_subspace_lab.core.errors import DataError, ParameterError, SolverError
from robust_subspace_lab.core.session import solver_input

from . import give_way

__all__ = ["Relay", "SolverJob", "error_message", "clustering_for", "lower_helper_threads_priority", "DataJob", "DataJobs", "DataRelay",
           "MeasureJob", "SNAPSHOT_PERIOD_S", "CHEAP_SNAPSHOT_S", "MEASURE_APART_ENTRIES"]

#: Seconds of steps batched under one snapshot (see the module docstring): a frame (app.main_window.FRAME_MS)
SNAPSHOT_PERIOD_S = 0.033
#: Thread seconds a snapshot may take for the states between two snapshots to go without one (the
#: runner then makes one on the GUI thread if asked: the faces take 1.4–2.6 ms, the 5,000 digits
#: at 96 × 96 60–150 ms, never skipped)
CHEAP_SNAPSHOT_S = 0.01
#: Data (entries of X) from which a job's snapshots go without their measures, which follow in
#: ``Relay.measured``; after the first, only while measuring takes at least
#: :data:`MEASURE_APART_S` thread seconds. The 5,000 digits at 28 × 28 (3.9 million entries)
#: measure in a few ms; at 96 × 96 (46 million) in 50–150 ms.
MEASURE_APART_ENTRIES = 2 ** 22
MEASURE_APART_S = 0.01


_lowered = threading.local()


def lower_thread_priority(nice: int = 10) -> None:
    """Make the calling (pool) thread yield the CPU to the GUI thread: on Linux, raise its nice
    value (threads can lower their own priority without privileges); elsewhere do nothing.
    The solvers then run at full speed whenever the GUI thread does not need the CPU."""
    if getattr(_lowered, "done", False):
        return
    _lowered.done = True
    if _CAN_RENICE:
        _renice(threading.get_native_id(), nice)


#: threads' nice values can be raised (Linux: per thread, without privileges)
_CAN_RENICE = sys.platform.startswith("linux") and hasattr(os, "setpriority")


def _renice(tid: int, nice: int) -> bool:
    """Raise thread ``tid``'s nice value to ``nice`` if it is lower; True if it changed."""
    try:
        if os.getpriority(os.PRIO_PROCESS, tid) >= nice:
            return False
        os.setpriority(os.PRIO_PROCESS, tid, nice)
        return True
    except OSError:               # the thread ended meanwhile, or not allowed
        return False


def lower_helper_threads_priority(nice: int = 10) -> int:
    """Give the unnamed threads of the process other than the calling (GUI) thread the pool
    threads' priority (:func:`lower_thread_priority`): OpenBLAS's worker threads, created when
    numpy loads, share the solvers' matrix products with the pool threads but kept nice 0, and on
    two cores they took the GUI thread's core (opening a folder of 2,000 PNGs, longest event-loop
    gap 38–89 ms; 22–52 ms with one BLAS thread). Qt's threads have names and are left alone.
    Linux only (elsewhere nothing); returns the number of threads changed."""
    if not _CAN_RENICE:
        return 0
    me = threading.get_native_id()
    changed = 0
    try:
        with open("/proc/self/comm") as f:
            unnamed = f.read().strip()
        tids = [int(t) for t in os.listdir("/proc/self/task")]
    except OSError:
        return 0
    for tid in tids:
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                name = f.read().strip()
        except OSError:           # the thread ended meanwhile
            continue
        if tid != me and name == unnamed:
            changed += _renice(tid, nice)
    return changed


def clustering_for(estimator, state) -> bool | None:
    """The ``clustering`` argument of :func:`core.views.snapshot` / :func:`core.views.measure`:
    the costly metrics (k-means on H for NMF) always once the run is over, else when cheap."""
    return True if estimator.finished(state) else None


def error_message(exc: BaseException) -> str:
    """A one-line message for the user: the core errors already name what is wrong."""
    if isinstance(exc, ParameterError):
        return f"Invalid parameter: {exc}"
    if isinstance(exc, SolverError):
        return str(exc)
    if isinstance(exc, DataError):
        return f"Data problem: {exc}"
    return f"Unexpected error ({type(exc).__name__}): {exc}"


class Relay(QtCore.QObject):
    """Signals of one column's jobs. Lives in the GUI thread; emitted from pool threads, so
    connections to GUI objects are queued."""

    #: gen, job id, state, snapshot: the iteration-0 state of a fresh start
    started = QtCore.Signal(int, int, object, object)
    #: gen, job id, states, snapshot: one or more iterations (a tuple of states, oldest first),
    #: the snapshot that of the newest
    stepped = QtCore.Signal(int, int, object, object)
    #: gen, job id, state, core.views.Measures: the measures of a state whose snapshot went without them
    measured = QtCore.Signal(int, int, object, object)
    #: gen, job id, message, diverged (a SolverError: the run stopped at its last good iteration)
    failed = QtCore.Signal(int, int, str, bool)
    #: gen, job id, cancelled: the job ended (always emitted last)
    done = QtCore.Signal(int, int, int)


class SolverJob(QtCore.QRunnable):
    """Start and/or step one estimator; see the module docstring."""

    def __init__(self, relay: Relay, gen: int, job_id: int, cancel: threading.Event, estimator,
                 data, start_from=None, n_steps: int = 0, until_finished: bool = False,
                 delay: Callable[[], float] | None = None, samples=None, n_basis: int = 10):
        super().__init__()
        self.setAutoDelete(True)
        self.relay = relay
        self.gen = gen
        self.job_id = job_id
        self.cancel = cancel
        self.estimator = estimator
        self.data = data
        self.start_from = start_from
        self.n_steps = int(n_steps)
        self.until_finished = bool(until_finished)
        self.delay = delay or (lambda: 0.0)
        self.samples = samples
        self.n_basis = n_basis
        X = getattr(data, "X", None)
        #: snapshots go without their measures (module docstring, 5.); refined by their cost
        self._apart = self.measures_apart and X is not None and X.size >= MEASURE_APART_ENTRIES
        self._measure_cost = 0.0             # thread seconds of the last measures made apart

    def _emit(self, name: str, *args) -> bool:
        """Emit the relay's signal ``name``; False when the relay is gone (window closed)."""
        try:
            getattr(self.relay, name).emit(self.gen, self.job_id, *args)
            return True
        except RuntimeError:  # the relay was deleted with its window
            self.cancel.set()
            return False

    def _start_state(self):
        """Iteration 0 of the estimator on the job's data (subclasses: other start arguments)."""
        X = solver_input(self.estimator, self.data.X)
        with working.WORKING.admit(working.work_bytes(self.estimator, X.size * 8, "start")):
            return self.estimator.start(X)

    def _step_bytes(self) -> int:
        """The temporaries of one step (:func:`core.working.work_bytes`) on the job's data."""
        X = getattr(self.data, "X", None)
        return 0 if X is None else working.work_bytes(self.estimator, X.size * 8, "step")

    #: whether this kind of job may send snapshots without their measures (module docstring, 5.)
    measures_apart = True

    def _snapshot(self, state, measured: bool = True):
        return views.snapshot(state, self.data, samples=self.samples, n_basis=self.n_basis,
                              clustering=clustering_for(self.estimator, state), measured=measured)

    def _measure(self, state):
        """The :class:`core.views.Measures` of ``state`` (as :meth:`_snapshot` would have them)."""
        return views.measure(state, self.data, clustering=clustering_for(self.estimator, state))

    def _emit_frame(self, signal: str, payload, state) -> float:
        """Emit ``signal`` (``started`` or ``stepped``) with ``payload`` and the snapshot of
        ``state``; when measures go apart, that snapshot without them and then ``measured``.
        Returns the snapshot's thread seconds."""
        apart = self._apart
        interrupt.checkpoint()          # the snapshot and measures are mostly Python: give way first
        t = time.thread_time()
        snap = self._snapshot(state, measured=False) if apart else self._snapshot(state)
        cost = time.thread_time() - t
        self._emit(signal, payload, snap)
        if apart and not self.cancel.is_set():
            interrupt.checkpoint()
            t = time.thread_time()
            measures = self._measure(state)
            self._measure_cost = time.thread_time() - t
            self._apart = self._measure_cost >= MEASURE_APART_S
            self._emit("measured", state, measures)
        return cost

    def _emit_batch(self, batch: list) -> float:
        """Emit ``stepped`` with the states of ``batch`` (emptied) and the snapshot of the newest;
        returns the snapshot's thread seconds."""
        states = tuple(batch)
        batch.clear()
        return self._emit_frame("stepped", states, states[-1])

    def run(self) -> None:  # noqa: D401 - QRunnable API
        lower_thread_priority()
        # solvers check the cancel flag inside their inner loops (core.interrupt.checkpoint):
        # Pause, a new setting or Quit abandon the iteration in flight, not just the next one
        with give_way.cancellable(self.cancel), threads.RUNNING.solver(self._entries()):
            self._run()

    def _release(self) -> None:
        """Drop the job's inputs once it has ended: PySide's wrapper of the pool now and then
        keeps a finished job's Python object alive, and with it the data, the estimator and the
        starting state (one data set per preset in random use)."""
        self.estimator = self.data = self.start_from = self.samples = None

    def _entries(self) -> int:
        """The size of the job's data (entries of X), for the thread policy's size rule."""
        X = getattr(self.data, "X", None)
        return int(getattr(X, "size", 0))

    def _run(self) -> None:
        est = self.estimator
        batch: list = []                     # states stepped since the last snapshot
        try:
            if self.cancel.is_set():
                return
            state = self.start_from
            if state is None:
                state = self._start_state()
                if self.cancel.is_set():
                    return
                self._emit_frame("started", state, state)
            steps = 0
            last = None
            step_bytes = self._step_bytes()
            emitted = time.perf_counter()
            snap_cost = float("inf")         # thread seconds of the last snapshot (unknown yet)
            while not self.cancel.is_set():
                if est.finished(state) or (not self.until_finished and steps >= self.n_steps):
                    break            # (Step too ends at the stopping rule: it does not count on)
                if self.until_finished and last is not None:
                    # paced run: at most 1/delay() iterations per second
                    pause = self.delay() - (time.perf_counter() - last)
                    if pause > 0 and self.cancel.wait(pause):
                        break
                last = time.perf_counter()
                interrupt.checkpoint()       # (gives way to a late GUI thread: app.give_way)
                threads.RUNNING.apply()      # in case a one-thread block restored a stale count
                with working.WORKING.admit(step_bytes):   # within the temporaries' budget
                    new = est.step(state)
                if new.iteration <= state.iteration:
                    break            # nothing left to iterate (a method solved in closed form)
                state = new
                steps += 1
                if self.cancel.is_set():
                    break
                batch.append(state)
                ends = est.finished(state) or (not self.until_finished and steps >= self.n_steps)
                # (measures made apart take at most about half of the job's time)
                if not ends and snap_cost < CHEAP_SNAPSHOT_S \
                        and time.perf_counter() - emitted < max(SNAPSHOT_PERIOD_S, self._measure_cost):
                    continue         # drawn with the next batch
                snap_cost = self._emit_batch(batch)
                emitted = time.perf_counter()
            if batch and not self.cancel.is_set():
                self._emit_batch(batch)    # a closed-form method's last step, a run that ended
        except interrupt.Cancelled:
            pass                     # asked for: the states finished before are kept
        except Exception as exc:  # every failure becomes a message for the user
            if not isinstance(exc, (ParameterError, SolverError, DataError)):
                traceback.print_exc(file=sys.stderr)
            if not self.cancel.is_set():
                if batch:                  # the good states before the failure are kept
                    try:
                        self._emit_batch(batch)
                    except Exception:  # noqa: BLE001 - the failure below says what went wrong
                        pass
                self._emit("failed", error_message(exc), isinstance(exc, SolverError))
        finally:
            self._release()
            self._emit("done", int(self.cancel.is_set()))


class MeasureJob(SolverJob):
    """The measures of ``start_from``, whose snapshot went to the GUI thread without them and
    whose job was cancelled before it measured it (the runner starts one when it is idle)."""

    def _run(self) -> None:
        try:
            if not self.cancel.is_set():
                measures = self._measure(self.start_from)
                if not self.cancel.is_set():
                    self._emit("measured", self.start_from, measures)
        except interrupt.Cancelled:
            pass
        except Exception:  # noqa: BLE001 - a bug: reported, and the column shows no numbers rather than wait
            traceback.print_exc(file=sys.stderr)
            self._emit("measured", self.start_from, views.Measures(None, None, {}))
        finally:
            self._release()
            self._emit("done", int(self.cancel.is_set()))


# =========================================================================== data jobs
#: seconds between two progress reports of a data job (the bar needs no more)
PROGRESS_PERIOD = 0.05


class DataRelay(QtCore.QObject):
    """Signals of the data jobs (emitted from a pool thread; connected queued)."""

    #: gen, done, total, what
    progress = QtCore.Signal(int, int, int, str)
    #: gen, outcome: ("ok", value), ("error", message) or ("cancelled", None)
    done = QtCore.Signal(int, object)


class DataJob(QtCore.QRunnable):
    """Run ``fn()`` (loading, resizing, corrupting, building a data set) in a pool thread inside
    :func:`core.interrupt.cancellable` and :func:`core.datasets.reporting`: the loaders report
    their progress and check the cancel flag between files and images."""

    def __init__(self, relay: DataRelay, gen: int, cancel: threading.Event, fn: Callable[[], object]):
        super().__init__()
        self.setAutoDelete(True)
        self.relay, self.gen, self.cancel, self.fn = relay, gen, cancel, fn
        self._last = 0.0

    def _progress(self, done: int, total: int, what: str) -> None:
        interrupt.checkpoint()
        now = time.perf_counter()
        if now - self._last >= PROGRESS_PERIOD or done == total:
            self._last = now
            try:
                self.relay.progress.emit(self.gen, int(done), int(total), str(what))
            except RuntimeError:
                self.cancel.set()

    def run(self) -> None:  # noqa: D401 - QRunnable API
        from robust_subspace_lab.core import datasets

        lower_thread_priority()
        outcome: tuple = ("cancelled", None)
        try:
            with give_way.cancellable(self.cancel), datasets.reporting(self._progress):
                if not self.cancel.is_set():
                    value = self.fn()
                    outcome = ("cancelled", None) if self.cancel.is_set() else ("ok", value)
        except interrupt.Cancelled:
            outcome = ("cancelled", None)
        except Exception as exc:  # noqa: BLE001 - every failure becomes a message
            if not isinstance(exc, (ParameterError, SolverError, DataError, OSError)):
                traceback.print_exc(file=sys.stderr)
            outcome = ("error", exc)
        self.fn = None                  # its inputs (see SolverJob._release)
        try:
            self.relay.done.emit(self.gen, outcome)
        except RuntimeError:
            pass


class DataJobs(QtCore.QObject):
    """One data job at a time, off the GUI thread: :meth:`call` submits ``fn`` to the pool
    (cancelling the previous job, whose result is then ignored) and runs the event loop until it
    ends, so the window stays responsive, draws its progress bar and takes a Cancel; it returns
    the outcome: ``("ok", value)``, ``("error", exception)``, ``("cancelled", None)`` (Cancel, or
    the window closing) or ``("superseded", None)`` (a newer request replaced it: say nothing)."""

    #: a job started or ended (show/hide the progress bar)
    activity = QtCore.Signal()
    #: done, total, what (of the newest job)
    progress = QtCore.Signal(int, int, str)

    def __init__(self, pool: QtCore.QThreadPool, parent=None):
        super().__init__(parent)
        self._pool = pool
        self.relay = DataRelay(self)
        q = QtCore.Qt.QueuedConnection
        self.relay.done.connect(self._on_done, q)
        self.relay.progress.connect(self._on_progress, q)
        self._gen = 0
        self._cancel: threading.Event | None = None
        self._outcomes: dict[int, tuple] = {}
        self._waiting: dict[int, QtCore.QEventLoop] = {}
        self._in_flight = 0
        self.label = ""
        self._closed = False

    @property
    def busy(self) -> bool:
        """A data job is in flight."""
        return self._in_flight > 0

    def cancel(self) -> None:
        """Abandon the newest job (its caller gets ``("cancelled", None)``)."""
        if self._cancel is not None:
            self._cancel.set()

    def shutdown(self) -> None:
        self._closed = True
        self.cancel()

    def call(self, fn: Callable[[], object], label: str = "Loading") -> tuple:
        """See the class docstring."""
        if self._closed:
            return ("cancelled", None)
        self.cancel()
        # Calls nest (each waits in the event loop the next one runs in): an older call's result,
        # superseded now, would be held until this one returns (a data set, hundreds of MB).
        self._outcomes = {old: ("superseded", None) for old in self._outcomes}
        self._gen += 1
        gen = self._gen
        self._cancel = cancel = threading.Event()
        self.label = label
        self._in_flight += 1
        self.activity.emit()
        loop = QtCore.QEventLoop()
        self._waiting[gen] = loop
        self._pool.start(DataJob(self.relay, gen, cancel, fn))
        del fn              # the job holds it until it has run (a call waits nested in the next one's loop)
        if gen not in self._outcomes:
            loop.exec()
        self._waiting.pop(gen, None)
        outcome = self._outcomes.pop(gen, ("cancelled", None))
        if gen != self._gen:
            return ("superseded", None)
        if cancel.is_set() and outcome[0] == "ok":
            outcome = ("cancelled", None)
        return outcome

    @QtCore.Slot(int, object)
    def _on_done(self, gen: int, outcome) -> None:
        self._outcomes[gen] = outcome if gen == self._gen else ("superseded", None)   # see call()
        self._in_flight -= 1
        loop = self._waiting.get(gen)
        if loop is not None:
            loop.quit()
        self.activity.emit()

    @QtCore.Slot(int, int, int, str)
    def _on_progress(self, gen: int, done: int, total: int, what: str) -> None:
        if gen == self._gen:
            self.progress.emit(done, total, what)
