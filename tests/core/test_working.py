"""core.working: the solvers' temporaries admitted within one budget (issue 13, memory)."""
from __future__ import annotations

import threading
import time
import tracemalloc
import warnings

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, interrupt, working
from robust_subspace_lab.core.datasets import mnist_digits

MB = 2 ** 20


def _wait_until(predicate, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def _holder(wm: working.WorkingMemory, nbytes: int, entered: threading.Event, release: threading.Event,
            cancel: threading.Event | None = None, outcome: list | None = None):
    def run():
        try:
            with interrupt.cancellable(cancel), wm.admit(nbytes):
                entered.set()
                release.wait(10)
            if outcome is not None:
                outcome.append("done")
        except interrupt.Cancelled:
            if outcome is not None:
                outcome.append("cancelled")
    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


def test_work_beyond_the_budget_waits_until_the_other_ends():
    wm = working.WorkingMemory(budget=1000 * MB)
    a_in, a_go, b_in, b_go = (threading.Event() for _ in range(4))
    a = _holder(wm, 600 * MB, a_in, a_go)
    assert a_in.wait(5)
    b = _holder(wm, 600 * MB, b_in, b_go)
    assert _wait_until(lambda: wm.waiting == 1)
    assert not b_in.is_set() and wm.held == 600 * MB
    a_go.set()
    assert b_in.wait(5)                      # admitted once the first released its bytes
    assert wm.held == 600 * MB
    b_go.set()
    a.join(5), b.join(5)
    assert wm.held == 0 and wm.waiting == 0


def test_work_that_fits_runs_beside_and_large_work_runs_alone():
    wm = working.WorkingMemory(budget=1000 * MB)
    ins, go = [threading.Event() for _ in range(2)], threading.Event()
    threads = [_holder(wm, 400 * MB, e, go) for e in ins]
    assert all(e.wait(5) for e in ins)       # 800 MB together: both admitted
    assert wm.held == 800 * MB
    go.set()
    for t in threads:
        t.join(5)
    big_in, big_go = threading.Event(), threading.Event()
    _holder(wm, 5000 * MB, big_in, big_go)   # larger than the budget: admitted when alone
    assert big_in.wait(5)
    big_go.set()
    assert _wait_until(lambda: wm.held == 0)


def test_a_waiting_caller_stops_when_cancelled_and_holds_nothing():
    wm = working.WorkingMemory(budget=100 * MB)
    a_in, a_go = threading.Event(), threading.Event()
    _holder(wm, 80 * MB, a_in, a_go)
    assert a_in.wait(5)
    cancel, outcome = threading.Event(), []
    b = _holder(wm, 80 * MB, threading.Event(), threading.Event(), cancel=cancel, outcome=outcome)
    assert _wait_until(lambda: wm.waiting == 1)
    cancel.set()
    b.join(5)
    assert outcome == ["cancelled"] and wm.held == 80 * MB and wm.waiting == 0
    a_go.set()
    assert _wait_until(lambda: wm.held == 0)


def test_work_bytes_from_the_class_factors():
    est = catalogue.create("tc-nmf")
    start, step = est.work_factors
    assert working.work_bytes(est, 1000, "start") == int(start * 1000)
    assert working.work_bytes(est, 1000, "step") == int(step * 1000)
    assert working.work_bytes(object(), 1000, "step") == 1000            # no factors: 1 × X
    with pytest.raises(ValueError, match="phase"):
        working.work_bytes(est, 1000, "fit")


@pytest.mark.slow
@pytest.mark.parametrize("key,dtype", [("pca-gm", np.float64), ("pca-l1", np.float64), ("pcp", np.float64),
                                       ("crpca-om", np.float64), ("tc-nmf", np.float64), ("l1-nmf", np.float64),
                                       ("rnmf-l1", np.float64), ("pca-gm", np.float32), ("pca-l1", np.float32),
                                       ("spca-rsvd", np.float32), ("pcp", np.float32)])
def test_the_estimate_covers_the_measured_temporaries(key, dtype):
    """On the 5,000 built-in digits, what a start and a step allocate beyond what they held before
    (tracemalloc: numpy reports its buffers) is within the class's estimate for X's float64 bytes
    (float32 data too: PCA-L1 and sparse PCA centre it into a float64 copy)."""
    images = mnist_digits()
    X = images.images.reshape(len(images.images), -1).astype(dtype)
    X[::5, 300:400] = 255.0                       # some corrupted samples
    info = catalogue.get(key)
    est = info.create(**({"n_components": 5} if "n_components" in info.defaults() else {}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            state = est.start(X)
            start_peak = tracemalloc.get_traced_memory()[1] - base
            tracemalloc.reset_peak()
            held = tracemalloc.get_traced_memory()[0]
            state = est.step(state)
            step_peak = tracemalloc.get_traced_memory()[1] - held
        finally:
            tracemalloc.stop()
    assert start_peak <= working.work_bytes(est, X.size * 8, "start")
    assert step_peak <= working.work_bytes(est, X.size * 8, "step")
