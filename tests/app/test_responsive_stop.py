"""Stops at once (issue 13, point 4): Pause abandons the step in flight (the solvers check the
worker's cancel flag inside their inner loops), and a column never computes two jobs at once (a
cancelled job ends before its replacement starts). Stop latencies in milliseconds are
``benchmarks/bench_cancel.py``'s; here the claims are checked by what happened, not by time."""
from __future__ import annotations

import contextlib
import threading

import pytest

from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import corruption, datasets, interrupt

WAIT = 60000


@pytest.fixture(scope="module")
def digits():
    """2,000 real digits (classes 0–3) with the default corruption: steps of 0.1–1 s."""
    return corruption.corrupt(datasets.mnist_digits(digits=[0, 1, 2, 3]), "rectangles")


def started(qtbot, pool, data, key, **params) -> ColumnRunner:
    r = ColumnRunner(pool, key, params, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    return r


@pytest.mark.parametrize("key", ["pca-gm", "rpca-om", "pcp", "tc-nmf"])
def test_pause_abandons_the_step_in_flight(qtbot, pool, digits, key, monkeypatch):
    """Pause while a step on 2,000 × 784 digits is inside the solver: the step ends by
    ``core.interrupt.Cancelled`` at one of its checkpoints (it is abandoned, not finished), the
    column keeps iteration 0, and its job leaves the pool."""
    r = started(qtbot, pool, digits, key, n_components=10)
    cls = type(r.estimator)
    original = cls.step
    entered = threading.Event()
    outcomes: list[str] = []

    def spy(self, state):
        entered.set()
        try:
            out = original(self, state)
        except interrupt.Cancelled:
            outcomes.append("cancelled")
            raise
        outcomes.append("finished")
        return out

    monkeypatch.setattr(cls, "step", spy)
    r.step(1)
    assert entered.wait(WAIT / 1000)          # the step is computing in the pool thread now
    r.pause()
    qtbot.waitUntil(lambda: r.jobs_in_pool == 0 and not r.busy, timeout=WAIT)
    assert outcomes == ["cancelled"]
    assert r.iteration == 0
    r.shutdown()


def test_a_column_never_runs_two_jobs_at_once(qtbot, pool, data, monkeypatch):
    """Requests that cancel a job mid-step (new parameters, Reset, Pause then Step) while the
    step is inside a call no checkpoint can interrupt: the replacement starts only once the
    cancelled job has ended, so at most one job of the column is ever in the pool."""
    from robust_subspace_lab.core.methods import PCAGM

    entered, release = threading.Event(), threading.Event()
    lock = threading.Lock()
    active, peak, cancelled = [0], [0], [0]

    @contextlib.contextmanager
    def computing():
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        try:
            yield
        except interrupt.Cancelled:
            with lock:
                cancelled[0] += 1
            raise
        finally:
            with lock:
                active[0] -= 1

    original_start, original_step = PCAGM._start, PCAGM._step

    def start(self, X):
        with computing():
            return original_start(self, X)

    def slow_step(self, state):
        with computing():
            entered.set()
            release.wait(30)         # stands for one long library call (an SVD, an eigh) that
            interrupt.checkpoint()   # no checkpoint interrupts: it ends when released
            return original_step(self, state)

    monkeypatch.setattr(PCAGM, "_start", start)
    monkeypatch.setattr(PCAGM, "_step", slow_step)
    r = started(qtbot, pool, data, "pca-gm", n_components=5, tol=1e-12, max_iter=1000)
    requests = [lambda i: r.set_params({"p": 0.35 + 0.05 * i}), lambda i: r.reset(),
                lambda i: (r.pause(), r.step(2))]
    for i in range(9):
        entered.clear()
        release.clear()
        r.run()
        qtbot.waitUntil(entered.is_set, timeout=WAIT)   # a step is inside its long call
        requests[i % 3](i)                # cancels it; the replacement is asked for at once
        qtbot.wait(50)                    # (a replacement started now would run beside it)
        release.set()
    r.pause()
    qtbot.waitUntil(lambda: r.jobs_in_pool == 0 and not r.busy, timeout=WAIT)
    assert peak[0] == 1                   # no replacement computed beside a cancelled step...
    assert cancelled[0] == 9              # ...and every request cancelled a step in flight
    r.shutdown()
