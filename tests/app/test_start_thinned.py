"""A run whose start and newest states alone exceed the shared history budget (many heavy
columns on large data) thins its start state too, after every other one; Reset then starts the
run again and gets the same start state (issue 13: memory in random use)."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from robust_subspace_lab.app import runner as runner_mod
from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import corruption, datasets

WAIT = 20000


@pytest.fixture(scope="module")
def data():
    return corruption.corrupt(datasets.lfw_faces(), "rectangles")


def test_the_start_state_is_thinned_last_and_reset_starts_again(qtbot, data, monkeypatch):
    n, d = data.X.shape
    pool = QtCore.QThreadPool()
    r = ColumnRunner(pool, "crpca-om", {}, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    first = r.states[0]
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", first.sparse_part.nbytes)   # < two states
    r.step(3)
    qtbot.waitUntil(lambda: r.iteration == 3 and not r.busy, timeout=WAIT)
    history = r.model.history
    assert history.thinned == {0, 1, 2} and history.start_thinned
    assert r.states[0].sparse_part is None and r.states[-1].sparse_part is not None
    assert r.snapshot(0).sparse_maps is not None          # still shown exactly (pinned)
    assert history.nbytes == history.sizes[-1]

    r.reset()
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    assert r.iteration == 0 and not history.start_thinned
    assert r.states[0] is not first and r.states[0].objective == first.objective
    assert np.array_equal(r.states[0].sparse_part, first.sparse_part)
    r.step(1)                                             # and steps on from it
    qtbot.waitUntil(lambda: r.iteration == 1 and not r.busy, timeout=WAIT)
    r.shutdown()
    pool.waitForDone(5000)


def test_the_input_a_state_keeps_is_not_counted_against_the_budget(qtbot, data):
    """PCA-GM's start state keeps the input X itself in its solver context (no copy): the history
    does not count it as the state's own bytes (it counted the data once per column, and the
    start states were then thinned for nothing)."""

    pool = QtCore.QThreadPool()
    r = ColumnRunner(pool, "pca-gm", {}, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    assert r.states[0]._ctx.X is data.X
    assert r.model.history.sizes[0] < data.X.nbytes
    r.shutdown()
    pool.waitForDone(5000)


def test_a_state_thinned_after_its_snapshot_left_the_cache_costs_no_pass_over_the_data(qtbot, data, monkeypatch):
    """The history thins old states long after the snapshot cache evicted their snapshots: the
    pinned snapshot is made again on the GUI thread, and took its metrics' passes over the data
    there (5,000 digits at 96 × 96: ~70 ms each, several at once, 0.5–1.1 s event-loop gaps in
    random use). The evicted snapshot's metrics are kept and taken instead."""
    import threading

    from robust_subspace_lab.core import views

    pool = QtCore.QThreadPool()
    r = ColumnRunner(pool, "pca-gm", {"max_iter": 100, "tol": 0.0}, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    r.step(6)
    qtbot.waitUntil(lambda: r.iteration == 6 and not r.busy, timeout=WAIT)
    worker_metrics = {it: dict(r.snapshot(it).metrics) for it in range(7)}
    passes = []
    original = views.subspace_errors

    def counted(state, d):
        if threading.current_thread() is threading.main_thread():
            passes.append(state.iteration)
        return original(state, d)

    monkeypatch.setattr(views, "subspace_errors", counted)
    monkeypatch.setattr(runner_mod, "SNAPSHOT_CACHE_BYTES", 1)          # keeps the newest two
    r._remember(6, r.snapshot(6))                                        # evicts the others now
    assert set(r._snapshots) == {5, 6}
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", 1)             # thin every older state
    r.step(1)
    qtbot.waitUntil(lambda: r.iteration == 7 and not r.busy, timeout=WAIT)
    assert r.model.history.thinned >= {1, 2, 3, 4}
    assert passes == []                                                  # no metric pass on the GUI thread
    for it in (1, 2, 3, 4):
        snap = r.snapshot(it)                                            # the pinned one
        assert snap.iteration == it and snap.basis is not None
        assert snap.metrics == worker_metrics[it]
    r.shutdown()
    pool.waitForDone(5000)
