"""One method column's run: its estimator, the states so far, and the job in the pool.

The run itself (method, parameters, its states within a memory budget, how it ended) is a
Qt-free :class:`core.session.Run` (``runner.model``); this module adds only the Qt job logic.
All bookkeeping happens in the GUI thread; the numerical work happens in :class:`SolverJob` s.
The runner never blocks: requests (step, run, pause, reset, a new method/parameters/data) cancel
or queue work and return at once; the states arrive later through queued signals.

Rules
-----
* ``states`` is the list of states of the current run, ``states[i].iteration == i``; states are
  immutable, so keeping them all lets the views rewind to any past iteration.
* Every request that invalidates running work bumps ``gen`` and sets the running job's cancel flag;
  signals carrying an older generation are ignored.
* A column computes at most one job at a time: the job of a new request is submitted only once
  the cancelled one has ended (it stops at its next ``core.interrupt`` checkpoint).
* A new method or new parameters are first *tried*: the old estimator and its states stay until
  the new ``start`` succeeds. If it fails (ParameterError, SolverError, ...) the message is shown
  and the previous setting is kept (``reverted`` is emitted so the controls can show it again).
* New data cannot keep the old states (they describe other data): if ``start`` fails on the new
  data the column is empty and shows why.
"""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable

from PySide6 import QtCore

from robust_subspace_lab.core import catalogue, convergence, views
from robust_subspace_lab.core.errors import ParameterError
from robust_subspace_lab.core.session import History, Run, fit_to_data, validated
from robust_subspace_lab.core.session import history as _history
from robust_subspace_lab.core.session.run import DATA_LIMITS, as_wanted, resolve_auto

from .worker import MeasureJob, Relay, SolverJob, clustering_for, error_message

__all__ = ["ColumnRunner", "DATA_LIMITS"]

#: Memory a column may spend on cached snapshots (the newest and the most recently viewed are
#: kept); an evicted one is recomputed by core.views when the scrubber goes back to it.
SNAPSHOT_CACHE_BYTES = 64 * 2 ** 20
#: Memory the kept states of all columns (and the regression workspace) together may hold in
#: arrays of their own: each column with a run keeps an equal share (:data:`HISTORY_POOL`), so that
#: more columns do not mean more memory; :class:`core.session.History` thins the older states
#: beyond it. Read at every step.
STATE_BYTES_BUDGET = _history.STATE_BYTES_BUDGET
HISTORY_POOL = _history.SharedBudget(STATE_BYTES_BUDGET)


#: marks of the status line, by how a run ended (see :meth:`ColumnRunner.status_line`)
STATUS_MARKS = {convergence.CONVERGED: "✓ ", convergence.MAX_ITER: "⚠ ", convergence.DIVERGED: "✖ "}
#: tooltip of the status line
STATUS_TIP = ("How the run ended: converged (the method's stopping rule was met), stopped at max_iter\n"
              "(the rule was not met: raise max iter), or diverged (the solver met NaN or left the\n"
              "data's range; the history is kept up to the last good iteration).")


def _lacks_measures(snap) -> bool:
    """``snap`` went to the GUI thread without its measures (app.worker, 5.; a regression
    snapshot always comes whole and has no such flag)."""
    return getattr(snap, "measured", True) is False     # (a Snapshot or a RegressionSnapshot)


class ColumnRunner(QtCore.QObject):
    """State machine of one column. See the module docstring."""

    #: the list of states (or the method) changed: the views need a redraw
    changed = QtCore.Signal()
    #: a message for the user ("" clears it)
    message = QtCore.Signal(str)
    #: a tried method/parameter setting was refused; controls should show ``info``/``params`` again
    reverted = QtCore.Signal()
    #: busy/running flags changed
    activity = QtCore.Signal()
    #: parameters were lowered to what the new data allows (text: "k = 1, ...")
    adjusted = QtCore.Signal(str)
    #: the measures of the snapshot of this iteration arrived (app.worker, 5.): its numbers can be shown
    measured = QtCore.Signal(int)

    def __init__(self, pool: QtCore.QThreadPool, key: str, params: dict | None = None,
                 delay: Callable[[], float] | None = None, parent=None):
        super().__init__(parent)
        self._pool = pool
        self._delay = delay or (lambda: 0.0)
        self.relay = Relay(self)
        q = QtCore.Qt.QueuedConnection
        self.relay.started.connect(self._on_started, q)
        self.relay.stepped.connect(self._on_stepped, q)
        self.relay.failed.connect(self._on_failed, q)
        self.relay.measured.connect(self._on_measured, q)
        self.relay.done.connect(self._on_done, q)

        self.info = catalogue.get(key)
        self.params: dict[str, Any] = self._validated(self.info, params or {})
        self.estimator = self.info.create(**self.params)
        self._wanted: dict[str, dict] = {self.info.key: dict(self.params)}   # the user's values
        self.data = None
        #: the run (Qt-free): method, parameters, the states within the memory budget
        self.model = Run(self.info.key, self.params, self._new_history())
        self.error: str = ""
        self.diverged = False            # the last run raised SolverError (states kept up to it)
        self.gen = 0
        self.version = 0                 # bumped on every change the views must see
        self._snapshots: OrderedDict[int, Any] = OrderedDict()
        #: the metrics of snapshots evicted from the cache (iteration -> a snapshot without its
        #: arrays): a snapshot made again (a pin when the history thins the state, the scrubber
        #: going back) takes them instead of passes over the data on the GUI thread
        self._evicted: dict[int, Any] = {}
        #: snapshots of thinned states (they can no longer be recomputed), never evicted
        self._pinned: dict[int, Any] = {}
        #: iteration -> state, for the cached snapshots still without their measures (they follow
        #: from the job, or from a MeasureJob when the job was cancelled first)
        self._unmeasured: dict[int, Any] = {}
        self._cache_bytes = 0
        self._pending = None             # (info, params, estimator) being tried
        # the job in flight: (id, cancel flag, is a run, does steps, only measures)
        self._job: tuple[int, threading.Event, bool, bool, bool] | None = None
        #: ids of cancelled jobs still ending in the pool: no new job starts before they end, so
        #: a column never computes two jobs at once (a cancelled one stops at its next checkpoint)
        self._draining: set[int] = set()
        self._job_counter = 0
        self._queued_steps = 0
        self._run_requested = False
        self._retry_current = False      # a tried setting failed on new data: start the kept one
        self._closed = False
        self._held = False               # hold(): nothing computes until release()

    # ------------------------------------------------------------------ properties
    @property
    def states(self) -> list:
        """The states of the current run, ``states[i].iteration == i`` (the model's history)."""
        return self.model.history.states

    @property
    def _state_bytes(self) -> list[int]:
        return self.model.history.sizes

    def _new_history(self) -> History:
        return History(HISTORY_POOL, pin=self._pin)

    @property
    def key(self) -> str:
        return self.info.key

    @property
    def iteration(self) -> int:
        """Iteration of the newest state, -1 if there is none yet."""
        return self.states[-1].iteration if self.states else -1

    @property
    def busy(self) -> bool:
        """A job is in flight (or a cancelled one still ending) or queued."""
        return self._job is not None or bool(self._draining) or self._queued_steps > 0 or self._run_requested

    @property
    def jobs_in_pool(self) -> int:
        """Jobs of this column still in the pool: the current one and cancelled ones ending (at
        most one at any time: a replacement waits for the cancelled job to end)."""
        return (self._job is not None) + len(self._draining)

    @property
    def running(self) -> bool:
        """A run (until finished) is in flight or requested."""
        return self._run_requested or (self._job is not None and self._job[2])

    @property
    def finished(self) -> bool:
        return bool(self.states) and self._pending is None and self.estimator.finished(self.states[-1])

    def setting(self) -> tuple[Any, dict]:
        """(MethodInfo, params) the controls should show: the one being tried, else the current."""
        if self._pending is not None:
            return self._pending[0], dict(self._pending[1])
        return self.info, dict(self.params)

    @property
    def pending(self) -> bool:
        return self._pending is not None

    # ------------------------------------------------------------------ snapshots
    def snapshot(self, index: int = -1):
        """The Snapshot of ``states[index]`` (cached; recomputed by core.views if evicted)."""
        if not self.states:
            return None
        state = self.states[index]
        snap = self._snapshots.get(state.iteration) or self._pinned.get(state.iteration)
        if snap is None:
            snap = self._compute_snapshot(state)
            self._remember(state.iteration, snap)
        elif _lacks_measures(snap) and state is not self.states[-1]:
            # an older state whose measures will not come (its job went on or was cancelled)
            snap = self._measure_now(state)
        elif state.iteration in self._snapshots:        # pinned ones are not in the LRU cache
            self._snapshots.move_to_end(state.iteration)
        return snap

    def _measure_now(self, state):
        """The cached snapshot of ``state``, measured now on the GUI thread (one or two passes over
        the data: only for a state whose measures no job will send)."""
        return self._add_measures(state, views.measure(state, self.data, clustering_for(self.estimator, state)))

    def _compute_snapshot(self, state):
        """core.views.snapshot of ``state``, with the costly metrics at a finished state (as the
        worker computes it)."""
        return views.snapshot(state, self.data, clustering=clustering_for(self.estimator, state),
                              known=self._evicted.get(state.iteration))

    @staticmethod
    def _nbytes(snap) -> int:
        arrays = (snap.basis, snap.rows, snap.objective_history, snap.sparse_maps, snap.basis_zero,
                  snap.weight_maps, snap.truncated_maps, snap.mean_weights)
        return sum(a.nbytes for a in arrays if a is not None) + 1024

    def _remember(self, iteration: int, snap, state=None) -> None:
        """Cache ``snap`` (of ``state``, needed when it comes without its measures)."""
        old = self._snapshots.pop(iteration, None)
        if old is not None:
            self._cache_bytes -= self._nbytes(old)
        self._snapshots[iteration] = snap
        self._cache_bytes += self._nbytes(snap)
        if _lacks_measures(snap):
            self._unmeasured[iteration] = state
        else:
            self._unmeasured.pop(iteration, None)
        while self._cache_bytes > SNAPSHOT_CACHE_BYTES and len(self._snapshots) > 2:
            it, dropped = self._snapshots.popitem(last=False)
            if not _lacks_measures(dropped) and hasattr(dropped, "measures"):   # (a regression one has none)
                self._evicted[it] = dropped.measures
            self._unmeasured.pop(it, None)
            self._cache_bytes -= self._nbytes(dropped)

    def _add_measures(self, state, measures):
        """The cached snapshot of ``state`` with its measures (cached so, and ``measured`` emitted)."""
        it = state.iteration
        self._unmeasured.pop(it, None)
        snap = None
        if it in self._pinned:
            snap = self._pinned[it] = self._pinned[it].with_measures(measures)
        if it in self._snapshots:
            snap = self._snapshots[it] = self._snapshots[it].with_measures(measures)
        self.measured.emit(it)
        return snap

    def _clear_cache(self) -> None:
        self._snapshots.clear()
        self._evicted.clear()
        self._pinned.clear()
        self._unmeasured.clear()
        self._cache_bytes = 0

    def _pin(self, state) -> None:
        """Before the history thins ``state``, keep its snapshot (it can no longer be recomputed)."""
        if state.iteration not in self._pinned:
            snap = self._snapshots.get(state.iteration)
            if snap is None:
                snap = self._compute_snapshot(state)
            elif _lacks_measures(snap):                   # measured while the state is whole
                snap = self._measure_now(state)
            self._pinned[state.iteration] = snap
        self._evicted.pop(state.iteration, None)

    # ------------------------------------------------------------------ data-dependent sizes
    def _fitted(self, info, wanted: dict) -> dict:
        """``wanted`` lowered to what the data allow (:func:`core.session.fit_to_data`)."""
        return fit_to_data(info, wanted, None if self.data is None else self.data.X.shape)

    def _fit_params_to_data(self) -> None:
        wanted = self._wanted.get(self.info.key, self.params)
        fitted = self._fitted(self.info, wanted)
        changed = [s for s in self.info.params if fitted.get(s.name) != self.params.get(s.name)]
        if self._pending is not None:
            info, pwanted, _ = self._pending
            pf = self._fitted(info, self._wanted.get(info.key, pwanted))
            try:
                self._pending = (info, self._validated(info, pf), info.create(**self._validated(info, pf)))
            except ParameterError:
                pass
        if not changed:
            return
        try:
            valid = self._validated(self.info, fitted)
            est = self.info.create(**valid)
        except ParameterError:
            return
        self.params, self.estimator = valid, est
        self.adjusted.emit(", ".join(f"{s.symbol} = {valid[s.name]}" for s in changed))

    # ------------------------------------------------------------------ requests
    @staticmethod
    def _validated(info, params: dict) -> dict:
        """All parameters of ``info`` (defaults filled in), each checked by its ParamSpec."""
        return validated(info, params)

    def set_data(self, data) -> None:
        """Use new data: everything restarts at iteration 0 (or shows why it cannot).

        Size parameters the data cannot take (k = 10 on 2-D toy points) are lowered to the
        largest value it can take, and the user's own value comes back with data that allows it
        (``adjusted`` says so)."""
        self.data = data
        self._fit_params_to_data()
        self._invalidate()
        self.model.history.clear()
        self.model.history.data = data           # its arrays are not the states' own bytes
        self._clear_cache()
        self._retry_current = False
        self._set_error("")
        self._bump()
        self._kick()

    def set_method(self, key: str, params: dict | None = None, keep_current: bool = True) -> bool:
        """Try another method (parameters: ``params`` over its defaults, keeping same-named
        current values unless ``keep_current`` is False: a lesson or preset gives its own setting,
        which must not inherit the previous method's ``max_iter`` or ``n_components``).
        Returns False (and keeps everything) if a parameter is invalid."""
        info = catalogue.get(key)
        merged = {k: v for k, v in self.params.items() if k in info.defaults()} if keep_current else {}
        merged = {**info.defaults(), **self._fitted(info, {**info.defaults(), **merged})}
        merged.update(params or {})
        return self._try(info, merged)

    def set_params(self, params: dict) -> bool:
        """Try new parameter values for the current method (see :meth:`set_method`)."""
        info = self._pending[0] if self._pending is not None else self.info
        merged = dict(self._pending[1] if self._pending is not None else self.params)
        merged.update(params)
        return self._try(info, merged)

    def _try(self, info, params: dict) -> bool:
        shape = None if self.data is None else self.data.X.shape
        try:
            valid = self._validated(info, params)
            # γ = "scale" stays the user's choice (re-resolved for new data); the run and the
            # controls get its number for this data
            wanted, valid = as_wanted(info, valid, shape), resolve_auto(info, valid, shape)
            est = info.create(**valid)
        except ParameterError as exc:
            self._set_error(error_message(exc) + self._kept_text())
            self.reverted.emit()
            return False
        self._wanted[info.key] = wanted
        if self._pending is None and info is self.info and valid == self.params and self.states:
            return True        # nothing changed: keep the run
        self._invalidate()
        self._pending = (info, valid, est)
        self._set_error("")
        self._kick()
        self.activity.emit()
        return True

    def _kept_text(self) -> str:
        shown = ", ".join(f"{s.symbol} = {self.params[s.name]}" for s in self.info.params
                          if s.kind in ("int", "float"))
        return f" — kept {self.info.name}" + (f" ({shown})" if shown else "")

    def step(self, n: int = 1) -> None:
        """Advance ``n`` iterations from the newest state, up to the stopping rule: a finished
        run (converged, or stopped at max_iter) does not count on (its status line says so)."""
        if self._closed or n <= 0 or (self.finished and not self.busy):
            return
        self._queued_steps += int(n)
        self._end_measuring()
        self._kick()
        self.activity.emit()

    def run(self) -> None:
        """Step until the estimator's stopping rule holds."""
        if self._closed or self.running or self.finished:
            return
        self._run_requested = True
        self._end_measuring()
        self._kick()
        self.activity.emit()

    def pause(self) -> None:
        """Stop stepping now (the state shown stays). A pending start still completes."""
        stepping = self._job is not None and self._job[3]
        had = self._queued_steps or self._run_requested or stepping
        self._queued_steps = 0
        self._run_requested = False
        if stepping:
            self._invalidate(keep_queue=True)
        if had:
            self._kick()   # a start that was part of the cancelled job is resubmitted
            self.activity.emit()

    def reset(self) -> None:
        """Back to iteration 0 with the current setting (state 0 is kept: it is the same)."""
        self._queued_steps = 0
        self._run_requested = False
        self._invalidate(keep_queue=True)
        if self.model.history.start_thinned:     # no solver context left to step on: start again
            self.model.history.clear()
            self._clear_cache()
        self.model.history.truncate(1)
        self._pinned.clear()
        for it in [i for i in self._snapshots if i > 0]:
            self._cache_bytes -= self._nbytes(self._snapshots.pop(it))
        self._evicted = {it: s for it, s in self._evicted.items() if it == 0}
        self._unmeasured = {it: s for it, s in self._unmeasured.items() if it == 0}
        self._set_error("")
        self._bump()
        self._kick()
        self.activity.emit()

    def hold(self) -> None:
        """Cancel the job in flight and start none until :meth:`release`, whatever is asked
        meanwhile (new data, a method, steps: they are kept and done then). A preset holds its
        columns while it changes the data and the methods: else their old methods went on
        stepping on the old data while the new data were built, and then started on the new data
        only to be replaced (three NMF columns on the digits at 96 × 96: 2.8 GB resident)."""
        self._held = True
        self._invalidate(keep_queue=True)
        self.activity.emit()

    def release(self) -> None:
        """End :meth:`hold`: what was asked meanwhile starts now."""
        if self._held:
            self._held = False
            self._kick()
            self.activity.emit()

    def shutdown(self) -> None:
        """Cancel everything; no more jobs are submitted."""
        self._closed = True
        HISTORY_POOL.leave(self.model.history)
        self._queued_steps = 0
        self._run_requested = False
        self._invalidate(keep_queue=True)
        # Let go of the data and the states now: a removed column's runner lives on until Python's
        # cycle collector reaches it (its Qt connections hold it), with the data of its time (the
        # 5,000 digits at 96 x 96 in double precision: 705 MB beside the window's new data).
        self.data = None
        self.model.history.clear()
        self.model.history.data = None
        self._clear_cache()

    # ------------------------------------------------------------------ jobs
    def _invalidate(self, keep_queue: bool = False) -> None:
        """Cancel the job in flight and start a new generation."""
        if self._job is not None:
            self._job[1].set()
            self._draining.add(self._job[0])
            self._job = None
        self.gen += 1
        if not keep_queue:
            self._queued_steps = 0
            self._run_requested = False

    def _end_measuring(self) -> None:
        """Cancel a :class:`MeasureJob` in flight: steps asked for start without waiting for it
        (the state it measured is then measured on demand if it is shown again)."""
        if self._job is not None and self._job[4]:
            self._invalidate(keep_queue=True)

    def _kick(self) -> None:
        """Submit the next job if none is in flight and there is something to do: a start or
        steps, else the measures of the newest state if its snapshot still lacks them."""
        if self._closed or self._held or self._job is not None or self._draining or self.data is None:
            return
        need_start = self._pending is not None or not self.states
        if not (need_start or self._queued_steps or self._run_requested):
            newest = self.states[-1]
            if self._unmeasured.get(newest.iteration) is newest:
                self._job_counter += 1
                cancel = threading.Event()
                self._job = (self._job_counter, cancel, False, False, True)
                self._pool.start(MeasureJob(self.relay, self.gen, self._job_counter, cancel, self.estimator,
                                            self.data, start_from=newest))
            return
        if need_start and self._pending is None and self.error and not self.states \
                and not self._retry_current:
            # the current setting already failed on this data; wait for a new setting
            self._queued_steps = 0
            self._run_requested = False
            return
        est = self._pending[2] if self._pending is not None else self.estimator
        start_from = None if need_start else self.states[-1]
        is_run = self._run_requested
        self._job_counter += 1
        cancel = threading.Event()
        job = self._new_job(self.relay, self.gen, self._job_counter, cancel, est, self.data,
                            start_from=start_from, n_steps=self._queued_steps, until_finished=is_run,
                            delay=self._delay)
        self._job = (self._job_counter, cancel, is_run, is_run or self._queued_steps > 0, False)
        self._queued_steps = 0
        self._run_requested = False
        self._pool.start(job)

    def _new_job(self, *args, **kwargs) -> SolverJob:
        """The job that starts/steps the estimator (subclasses return their own SolverJob)."""
        return SolverJob(*args, **kwargs)

    def _current(self, gen: int, job_id: int) -> bool:
        return gen == self.gen and self._job is not None and self._job[0] == job_id

    @QtCore.Slot(int, int, object, object)
    def _on_started(self, gen, job_id, state, snap) -> None:
        if not self._current(gen, job_id):
            return
        if self._pending is not None:
            self.info, self.params, self.estimator = self._pending
            self._pending = None
        self._clear_cache()
        # the same Run (the session lists it) now holds the setting that started
        self.model.method, self.model.params = self.info.key, dict(self.params)
        self.model.record_start(state, self.estimator)
        self._remember(state.iteration, snap, state)
        if not self._retry_current:     # else keep saying why the tried setting was refused
            self._set_error("")
        self._retry_current = False
        self._bump()

    @QtCore.Slot(int, int, object, object)
    def _on_stepped(self, gen, job_id, states, snap) -> None:
        """One or more iterations (app.worker batches fast steps), the snapshot that of the newest;
        the others have theirs made on demand (:meth:`snapshot`)."""
        if not self._current(gen, job_id):
            return
        self._remember(states[-1].iteration, snap, states[-1])
        HISTORY_POOL.total = STATE_BYTES_BUDGET
        for state in states:
            self.model.record_step(state)      # thins older states beyond the budget
        self._bump()

    @QtCore.Slot(int, int, object, object)
    def _on_measured(self, gen, job_id, state, measures) -> None:
        """The measures of a snapshot that went without them: taken for as long as that state's
        snapshot is cached without them, whichever job (or generation) sent them."""
        if self._unmeasured.get(state.iteration) is state:
            self._add_measures(state, measures)

    @QtCore.Slot(int, int, str, bool)
    def _on_failed(self, gen, job_id, text, diverged) -> None:
        if not self._current(gen, job_id):
            return
        self.diverged = bool(diverged) and bool(self.states)
        self._queued_steps = 0
        self._run_requested = False
        if self._pending is not None:
            self._pending = None
            text += self._kept_text()
            # with new data there is no state of the kept setting yet: start it
            self._retry_current = not self.states
            self.reverted.emit()
        else:
            self._retry_current = False
        self._set_error(text)
        self._bump()

    @QtCore.Slot(int, int, int)
    def _on_done(self, gen, job_id, cancelled) -> None:
        if job_id in self._draining:         # a cancelled job ended: its replacement may start
            self._draining.discard(job_id)
            self._kick()
            self.activity.emit()
            return
        if not self._current(gen, job_id):
            return
        self._job = None
        self._kick()
        self.activity.emit()

    def status_line(self, iteration: int) -> str:
        """``"iteration N"`` followed, once the run has ended, by how it ended (with a mark):
        the one status line of a method column and of the regression workspace."""
        kind, text = self.status()
        if not text or kind == convergence.RUNNING:
            return f"iteration {iteration}"
        return f"iteration {iteration}  ·  {STATUS_MARKS.get(kind, '')}{text}"

    def status(self) -> tuple[str, str]:
        """How the run stands: ``(kind, text)`` with kind one of :mod:`core.convergence`'s
        ``"converged"``, ``"max_iter"``, ``"diverged"``, ``"running"`` (``""`` before the first
        state) and the sentence of :func:`core.convergence.describe` (*converged at iteration N*,
        *stopped at max_iter (N) without converging*, *diverged at iteration N: reason*)."""
        if not self.states:
            return "", ""
        if self.diverged:
            return convergence.DIVERGED, self.error
        return self.model.status(self.estimator)

    # ------------------------------------------------------------------ helpers
    def _set_error(self, text: str) -> None:
        if not text:
            self.diverged = False
        if text != self.error:
            self.error = text
            self.message.emit(text)

    def _bump(self) -> None:
        self.version += 1
        self.changed.emit()
