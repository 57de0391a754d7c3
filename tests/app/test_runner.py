"""The column runner: jobs off the GUI thread, generations, pause/reset, errors as messages."""
from __future__ import annotations

import threading

from PySide6 import QtCore

from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import corruption, datasets

WAIT = 15000


def make(qtbot, pool, data, key="pca-gm", **params):
    r = ColumnRunner(pool, key, params, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    return r


def drain(pool):
    """Wait until the pool's jobs have ended, then deliver every signal they emitted (queued to
    this thread): whatever a cancelled or paused job still sent has arrived after this."""
    assert pool.waitForDone(WAIT)
    QtCore.QCoreApplication.sendPostedEvents()
    QtCore.QCoreApplication.processEvents()


def test_start_runs_off_the_gui_thread(qtbot, pool, data, monkeypatch):
    from robust_subspace_lab.core.methods import PCAGM

    threads = []
    original = PCAGM.start

    def spy(self, X):
        threads.append(threading.current_thread())
        return original(self, X)

    monkeypatch.setattr(PCAGM, "start", spy)
    r = make(qtbot, pool, data)
    assert threads and threads[0] is not threading.main_thread()
    assert r.iteration == 0
    r.shutdown()


def test_states_of_a_cancelled_generation_are_ignored(qtbot, pool, data):
    r = make(qtbot, pool, data)
    r.step(3)
    r.reset()                      # cancels the job; whatever it still emits is stale
    qtbot.waitUntil(lambda: not r.busy, timeout=WAIT)
    drain(pool)
    assert r.iteration == 0 and len(r.states) == 1
    r.step(2)
    qtbot.waitUntil(lambda: r.iteration == 2 and not r.busy, timeout=WAIT)
    assert [s.iteration for s in r.states] == [0, 1, 2]
    r.shutdown()


def test_pause_stops_a_long_step_request(qtbot, pool, data):
    r = make(qtbot, pool, data, tol=0.0, max_iter=100000)
    r.step(100000)
    qtbot.waitUntil(lambda: r.iteration >= 1, timeout=WAIT)
    r.pause()
    at = r.iteration
    qtbot.waitUntil(lambda: not r.busy, timeout=WAIT)
    drain(pool)
    assert r.iteration == at and not r.busy
    r.shutdown()


def test_pause_stops_a_run(qtbot, pool, data):
    r = make(qtbot, pool, data, tol=0.0, max_iter=100000)
    r._delay = lambda: 0.02
    r.run()
    qtbot.waitUntil(lambda: r.iteration >= 1, timeout=WAIT)
    r.pause()
    at = r.iteration
    assert not r.running
    drain(pool)
    assert r.iteration == at and not r.running and not r.busy
    r.shutdown()


def test_invalid_try_keeps_the_current_setting(qtbot, pool, data):
    r = make(qtbot, pool, data)
    messages = []
    r.message.connect(messages.append)
    assert not r.set_params({"p": 1.5})            # refused at once by the ParamSpec
    assert "p" in r.error and r.params["p"] == 0.3
    assert r.set_params({"n_components": 200})      # accepted by the spec, refused by start()
    qtbot.waitUntil(lambda: bool(r.error) and not r.busy, timeout=WAIT)
    assert "n_components" in r.error and r.params["n_components"] == 10 and r.states
    assert any("n_components" in m for m in messages)
    assert r.set_method("rpca-om")
    qtbot.waitUntil(lambda: r.key == "rpca-om" and not r.busy, timeout=WAIT)
    assert r.error == "" and r.states[0].method == "RPCA-OM"
    r.shutdown()


def test_new_data_that_the_setting_cannot_use(qtbot, pool, data):
    """Small data (a toy, tiny images) cannot take k = 30: k is lowered to the largest value it
    allows (k < min(n, d)), said so, and the user's 30 comes back with data that allows it."""
    r = make(qtbot, pool, data, n_components=30)
    adjusted = []
    r.adjusted.connect(adjusted.append)
    small = corruption.corrupt(datasets.load_builtin("faces", size=(5, 5)), "none")   # 25 features
    r.set_data(small)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    assert r.error == "" and r.params["n_components"] == 24 and r.states[0].components.shape == (24, 25)
    assert adjusted and "24" in adjusted[-1]
    r.set_params({"n_components": 5})                     # the user's own choice on this data
    qtbot.waitUntil(lambda: r.params["n_components"] == 5 and bool(r.states) and not r.busy, timeout=WAIT)
    assert r.states[0].components.shape == (5, 25)
    r.set_params({"n_components": 30})                    # too large for this data: refused by start()
    qtbot.waitUntil(lambda: bool(r.error) and not r.busy, timeout=WAIT)
    assert "n_components" in r.error and r.params["n_components"] == 5
    r.set_data(data)                                      # data that allows the user's 30 again
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    assert r.params["n_components"] == 30 and r.states[0].components.shape[0] == 30
    r.shutdown()


def test_thinned_states_rewind_after_their_snapshot_left_the_cache(qtbot, pool, data, monkeypatch):
    """A thinned state whose snapshot is pinned but no longer in the LRU cache (a cache smaller
    than one snapshot) is shown from the pinned snapshot (before: KeyError in move_to_end)."""
    from robust_subspace_lab.app import runner as runner_mod, worker

    n, d = data.X.shape
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", 3 * 4 * n * d * 8)
    monkeypatch.setattr(runner_mod, "SNAPSHOT_CACHE_BYTES", 0)
    monkeypatch.setattr(worker, "CHEAP_SNAPSHOT_S", 0.0)     # a snapshot for every state
    r = make(qtbot, pool, data, key="crpca-om")
    r.step(6)
    qtbot.waitUntil(lambda: r.iteration == 6 and not r.busy, timeout=WAIT)
    thinned = sorted(r.model.history.thinned)
    assert thinned and all(i not in r._snapshots for i in thinned[:-2])
    for i in thinned:
        assert r.snapshot(i).iteration == i
    r.shutdown()


def test_states_are_thinned_within_the_memory_budget(qtbot, pool, data, monkeypatch):
    """Old states of a heavy method (a convex one keeps E, the low-rank part and multipliers) are
    thinned beyond the column's budget, but the scrubber still shows every iteration exactly, and
    the run continues from the intact newest state."""
    import numpy as np

    from robust_subspace_lab.app import runner as runner_mod

    n, d = data.X.shape
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", 3 * 4 * n * d * 8)
    r = make(qtbot, pool, data, key="crpca-om")
    r.step(8)
    qtbot.waitUntil(lambda: r.iteration == 8 and not r.busy, timeout=WAIT)
    assert any(s.sparse_part is None for s in r.states[1:-1]), "nothing was thinned"
    assert r.states[0].sparse_part is not None and r.states[-1].sparse_part is not None
    assert r.model.history.nbytes <= runner_mod.STATE_BYTES_BUDGET
    for i in range(len(r.states)):
        snap = r.snapshot(i)
        assert snap.iteration == i and snap.sparse_maps is not None
    r.step(1)
    qtbot.waitUntil(lambda: r.iteration == 9 and not r.busy, timeout=WAIT)
    assert np.isfinite(r.snapshot(-1).error)
    r.reset()
    assert len(r.states) == 1 and r.states[0].sparse_part is not None
    r.shutdown()


def test_fast_steps_reach_the_gui_in_batches_with_one_snapshot(qtbot, pool, data, monkeypatch):
    """Steps that come faster than a frame go to the GUI thread together with the snapshot of the
    newest only (the worker's snapshots of states never drawn were more than half its work on
    the faces): every state is recorded, the first and the last step of the job have the
    worker's snapshot, and a state in between gets its snapshot on demand, equal to the
    worker's."""
    import numpy as np

    from robust_subspace_lab.app import worker
    from robust_subspace_lab.core import views

    made = []
    original = views.snapshot

    def counted(state, *args, **kwargs):
        made.append((threading.current_thread() is threading.main_thread(), state.iteration))
        return original(state, *args, **kwargs)

    monkeypatch.setattr(worker, "SNAPSHOT_PERIOD_S", 1e9)      # every step "faster than a frame"
    monkeypatch.setattr(worker, "CHEAP_SNAPSHOT_S", 1e9)
    monkeypatch.setattr(views, "snapshot", counted)
    r = make(qtbot, pool, data, tol=0.0, max_iter=100)
    made.clear()
    r.step(8)
    qtbot.waitUntil(lambda: r.iteration == 8 and not r.busy, timeout=WAIT)
    assert [s.iteration for s in r.states] == list(range(9))
    assert made == [(False, 1), (False, 8)]                   # the job's first and last step
    assert r.snapshot(-1).iteration == 8 and made[-1] == (False, 8)
    mid = r.snapshot(4)                                       # made now, on the GUI thread
    assert made[-1] == (True, 4) and mid.iteration == 4
    monkeypatch.setattr(views, "snapshot", original)
    again = original(r.states[4], data)
    assert mid.error == again.error and np.array_equal(mid.basis, again.basis)
    r.shutdown()


def test_slow_snapshots_are_never_skipped(qtbot, pool, data, monkeypatch):
    """A snapshot that is not cheap (the 5,000 digits at 96 x 96: 60-150 ms) is made for every
    state by the worker, however fast the steps come: the GUI thread never makes one."""
    from robust_subspace_lab.app import worker
    from robust_subspace_lab.core import views

    made = []
    original = views.snapshot

    def counted(state, *args, **kwargs):
        made.append((threading.current_thread() is threading.main_thread(), state.iteration))
        return original(state, *args, **kwargs)

    monkeypatch.setattr(worker, "SNAPSHOT_PERIOD_S", 1e9)
    monkeypatch.setattr(worker, "CHEAP_SNAPSHOT_S", 0.0)      # every snapshot counts as costly
    monkeypatch.setattr(views, "snapshot", counted)
    r = make(qtbot, pool, data, tol=0.0, max_iter=100)
    made.clear()
    r.step(5)
    qtbot.waitUntil(lambda: r.iteration == 5 and not r.busy, timeout=WAIT)
    for i in range(6):
        r.snapshot(i)
    assert made == [(False, i) for i in range(1, 6)]
    r.shutdown()
