"""Columns share one budget of solver temporaries (core.working): work beyond it waits for the
other columns' steps, still ends with every state, and Pause stops a column that waits."""
from __future__ import annotations

import threading

import pytest

from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import working

WAIT = 20000


@pytest.fixture
def budget_of_one_step(monkeypatch):
    """A budget that admits one NMF step at a time on the faces, with the admissions recorded."""
    wm = working.WorkingMemory(budget=1)
    monkeypatch.setattr(working, "WORKING", wm)
    most = [0]
    inside = [0]
    lock = threading.Lock()
    original = wm.admit.__func__

    from contextlib import contextmanager

    @contextmanager
    def admit(self, nbytes):
        with original(self, nbytes):
            with lock:
                inside[0] += 1
                most[0] = max(most[0], inside[0])
            try:
                yield
            finally:
                with lock:
                    inside[0] -= 1
    monkeypatch.setattr(working.WorkingMemory, "admit", admit)
    return wm, most


def test_columns_beyond_the_budget_step_one_at_a_time_and_all_finish(qtbot, pool, data, budget_of_one_step):
    wm, most = budget_of_one_step
    pool.setMaxThreadCount(4)                 # the three columns' jobs in the pool at once
    runners = [ColumnRunner(pool, key, {"max_iter": 200}, delay=lambda: 0.0)
               for key in ("tc-nmf", "cauchy-nmf", "l1-nmf")]
    for r in runners:
        r.set_data(data)
        r.step(4)
    qtbot.waitUntil(lambda: all(r.iteration == 4 and not r.busy for r in runners), timeout=WAIT)
    assert most[0] == 1                      # never two starts or steps at once
    assert wm.held == 0 and wm.waiting == 0
    for r in runners:
        assert [s.iteration for s in r.states] == [0, 1, 2, 3, 4] and not r.error
        r.shutdown()


def test_pause_stops_a_column_waiting_for_the_budget(qtbot, pool, data, budget_of_one_step):
    wm, _ = budget_of_one_step
    pool.setMaxThreadCount(4)
    a = ColumnRunner(pool, "tc-nmf", {"max_iter": 10_000, "tol": 0.0}, delay=lambda: 0.0)
    b = ColumnRunner(pool, "cauchy-nmf", {"max_iter": 10_000, "tol": 0.0}, delay=lambda: 0.0)
    for r in (a, b):
        r.set_data(data)
    qtbot.waitUntil(lambda: bool(a.states and b.states) and not a.busy and not b.busy, timeout=WAIT)
    a.run()
    b.run()
    qtbot.waitUntil(lambda: wm.waiting >= 1, timeout=WAIT)     # one of them waits its turn
    b.pause()
    a.pause()
    qtbot.waitUntil(lambda: not a.busy and not b.busy, timeout=WAIT)
    assert wm.held == 0 and wm.waiting == 0
    assert not a.error and not b.error
    for r in (a, b):
        r.shutdown()
