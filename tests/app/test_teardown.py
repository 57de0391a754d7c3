"""Removed columns, replaced parameter groups and finished jobs are freed (issue 13: memory in
random use), and garbage is collected in the GUI thread only.

Each test keeps weak references to what should go away and checks, after a full collection,
that the number still alive is back to where it started."""
from __future__ import annotations

import gc
import threading
import weakref

from PySide6 import QtCore



def _idle(win, qtbot):
    qtbot.waitUntil(lambda: not win.busy and all(c.runner.states for c in win.subspace.columns), timeout=20000)


def _collect() -> None:
    """Run Qt's pending deletions, then a full collection."""
    for _ in range(2):
        QtCore.QCoreApplication.sendPostedEvents(None, QtCore.QEvent.DeferredDelete)
        QtCore.QCoreApplication.processEvents()
        gc.collect()


def _alive(refs) -> int:
    return sum(r() is not None for r in refs)


def test_removed_columns_their_runs_and_data_are_freed(make_window, qtbot):
    """Three rounds of: add two columns, change their method (Edit ▸ Undo records it), step,
    remove them. Before, each undo command held its column, and with it the widgets, the run's
    states and the data, for as long as the window lived."""
    win = make_window(methods=("pca",), size=(24, 24))
    columns, runners, states = [], [], []
    for _ in range(3):
        added = [win.subspace.add_column("pca"), win.subspace.add_column("pca-l1")]
        for col in added:
            col.set_method("pca-gm")                   # as the method combo does
        _idle(win, qtbot)
        win.step_all(2)
        _idle(win, qtbot)
        for col in added:
            columns.append(weakref.ref(col))
            runners.append(weakref.ref(col.runner))
            states.append(weakref.ref(col.runner.states[-1]))
            win.subspace.remove_column(col)
        del added, col
        # a removed column is deleted by a job of the build queue (one column per turn)
        qtbot.waitUntil(lambda: not win.subspace.build_queue.pending, timeout=20000)
        _collect()
    assert win.undo_action.isEnabled()                  # the commands are still there
    assert len(win.subspace.columns) == 1
    assert (_alive(columns), _alive(runners), _alive(states)) == (0, 0, 0)


def test_method_changes_leave_one_parameter_group(make_window, qtbot):
    """Each method change builds a new parameter group and tree rows; the replaced ones are
    freed (pyqtgraph's tree kept every taken row, with its group and editors, alive)."""
    win = make_window(methods=("pca",), size=(24, 24))
    col = win.subspace.columns[0]
    groups, editors = [], []
    for key in ("pca-gm", "pca-l1", "r1-pca", "pca-gm", "pca"):
        col.set_method(key)
        groups.append(weakref.ref(col.param_group()))
        editors += [weakref.ref(w) for w in col.tree.placeholders]
    _idle(win, qtbot)
    _collect()
    assert _alive(groups) == 1 and groups[-1]() is col.param_group()
    assert _alive(editors) == len(col.tree.placeholders)


def test_a_finished_job_drops_its_data_estimator_and_start_state(make_window, qtbot):
    """PySide's wrapper of the pool now and then keeps a finished job alive: it must not keep
    the data set, the estimator and the starting state with it."""
    from robust_subspace_lab.app.worker import Relay, SolverJob

    win = make_window(methods=("pca",), size=(24, 24))
    runner = win.subspace.columns[0].runner
    relay = Relay()
    done = []
    relay.done.connect(lambda *a: done.append(a), QtCore.Qt.QueuedConnection)
    data, est = runner.data, runner.estimator
    job = SolverJob(relay, 0, 1, threading.Event(), est, data, start_from=runner.states[-1], n_steps=1)
    job.setAutoDelete(False)
    win.pool.start(job)
    qtbot.waitUntil(lambda: bool(done), timeout=20000)
    assert (job.data, job.estimator, job.start_from) == (None, None, None)


class _Cycle:
    """Garbage in a reference cycle that notes the thread that collected it."""

    def __init__(self, seen: list):
        self.me, self.seen = self, seen

    def __del__(self):
        self.seen.append(threading.current_thread() is threading.main_thread())


def test_garbage_is_collected_in_the_gui_thread_while_a_window_is_open(make_window, qtbot):
    """A thread that allocates much (a solver) never runs a collection while a window is open:
    Qt objects in cyclic garbage were destroyed in a pool thread, and random use deadlocked. (An
    idle window has no collection timer: its event loop's turns check the thresholds.)"""
    win = make_window(methods=("pca",), size=(24, 24))
    qtbot.waitUntil(lambda: not win.frame_clock.timer.isActive(), timeout=10000)   # idle: no collection timer
    seen: list[bool] = []
    _Cycle(seen)
    kept: list = []
    worker = threading.Thread(target=lambda: kept.extend([] for _ in range(200_000)))
    worker.start()
    worker.join()
    qtbot.waitUntil(lambda: bool(seen), timeout=10000)
    assert seen == [True]


def test_a_removed_column_lets_go_of_its_data_and_states_at_once(make_window, qtbot):
    """Without waiting for a collection: a removed column's runner lives on until the cycle
    collector reaches it (its Qt connections hold it), and it held the data of its time (705 MB
    for the 5,000 digits at 96 × 96 in double precision, beside the window's new data)."""
    win = make_window(methods=("pca", "pca-gm"), size=(24, 24))
    win.step_all(2)
    _idle(win, qtbot)
    col = win.subspace.columns[1]
    runner = col.runner
    assert runner.data is win.subspace.data and len(runner.states) == 3
    win.subspace.remove_column(col)
    assert runner.data is None and runner.states == [] and runner.model.history.data is None
    assert win.subspace.columns[0].runner.data is win.subspace.data                  # the others keep it


def test_a_superseded_data_job_result_is_not_kept_while_newer_calls_wait(qtbot):
    """Data calls nest (each waits in an event loop that the next one runs in): the first one's
    result, which nobody uses once a newer call superseded it, was held until the newer calls had
    returned (a prepared data set, hundreds of MB)."""
    from robust_subspace_lab.app.worker import DataJobs

    class Big:                                     # stands for a prepared data set
        pass

    pool = QtCore.QThreadPool()
    jobs = DataJobs(pool)
    first_may_end = threading.Event()
    made: list = []

    def first():
        first_may_end.wait(10)
        made.append(weakref.ref(big := Big()))
        return big

    outcomes, checks = {}, {}

    def second():                                # runs while the first call waits (nested)
        checks["held"] = made[0]() is not None
        return "second"

    def start_second():
        first_may_end.set()                      # the first job ends with its result, not yet taken
        qtbot.waitUntil(lambda: 1 in jobs._outcomes, timeout=10000)
        outcomes["second"] = jobs.call(second, "second")

    QtCore.QTimer.singleShot(0, start_second)
    outcomes["first"] = jobs.call(first, "first")
    assert outcomes == {"first": ("superseded", None), "second": ("ok", "second")}
    assert checks["held"] is False
    pool.waitForDone(5000)
