"""The column runner: jobs off the GUI thread, generations, pause/reset, errors as messages."""
from __future__ import annotations

import threading

import pytest
from PySide6 import QtCore

from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import corruption, datasets

WAIT = 15000


def make(qtbot, pool, data, key="pca-gm", **params):
    r = ColumnRunner(pool, key, params, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    return r


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
    qtbot.wait(100)
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
    qtbot.wait(100)
    assert r.iteration == at
    r.shutdown()


def test_pause_stops_a_run(qtbot, pool, data):
    r = make(qtbot, pool, data, tol=0.0, max_iter=100000)
    r._delay = lambda: 0.02
    r.run()
    qtbot.waitUntil(lambda: r.iteration >= 1, timeout=WAIT)
    r.pause()
    at = r.iteration
    assert not r.running
    qtbot.wait(200)
    assert r.iteration == at
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
    from robust_subspace_lab.app import runner as runner_mod

    n, d = data.X.shape
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", 3 * 4 * n * d * 8)
    monkeypatch.setattr(runner_mod, "SNAPSHOT_CACHE_BYTES", 0)
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
