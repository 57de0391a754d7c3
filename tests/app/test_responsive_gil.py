"""The solvers never hold the GIL long (issue 13, point 3): the window turns on
``core.linalg.release_gil``, under which the eigensolver of a step on the digits (784 × 784)
releases the GIL, so the GUI thread runs while it computes; the results are the same."""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest

from robust_subspace_lab.core import linalg


@pytest.fixture
def gil_policy():
    before = linalg._release_gil
    yield
    linalg.release_gil(before)


def test_the_window_turns_the_policy_on(make_window, gil_policy):
    linalg.release_gil(False)
    make_window()
    assert linalg._release_gil


def test_the_eigensolver_lets_another_thread_run_and_agrees(gil_policy):
    rng = np.random.default_rng(0)
    A = rng.standard_normal((900, 784))
    M = A.T @ A
    linalg.release_gil(False)
    held = linalg.top_eigh(M.copy(), 10)              # scipy's partial solver (GIL held)
    linalg.release_gil(True)
    done = threading.Event()
    out = []
    worker = threading.Thread(target=lambda: (out.append(linalg.top_eigh(M.copy(), 10)), done.set()))
    turns = 0
    worker.start()
    while not done.is_set():                          # Python code of this thread runs meanwhile
        turns += 1
        done.wait(0.001)
    worker.join()
    assert turns > 1
    evals, V = out[0]
    np.testing.assert_allclose(evals, held[0], rtol=1e-10)
    np.testing.assert_allclose(np.abs(V.T @ held[1]), np.eye(10), atol=1e-8)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are set on Linux")
def test_helper_threads_yield_to_the_gui_thread(make_window):
    """OpenBLAS's worker threads (created when numpy loads, nice 0) share the solvers' matrix
    products: the window gives them the pool threads' lower priority, and leaves its own
    thread's alone."""
    import os
    import threading

    from robust_subspace_lab.app.worker import lower_helper_threads_priority

    def nice(tid):
        return os.getpriority(os.PRIO_PROCESS, tid)

    gui = threading.get_native_id()
    gui_nice = nice(gui)
    ready, stop = threading.Event(), threading.Event()
    helper = {}

    def run():                        # an unnamed thread, like OpenBLAS's
        helper["tid"] = threading.get_native_id()
        ready.set()
        stop.wait(30)

    t = threading.Thread(target=run)
    t.start()
    try:
        ready.wait(10)
        assert nice(helper["tid"]) == gui_nice
        make_window()
        assert nice(helper["tid"]) >= 10 and nice(gui) == gui_nice
        assert lower_helper_threads_priority() == 0          # nothing left to change
    finally:
        stop.set()
        t.join()
