"""The solvers never hold the GIL long (issue 13, point 3; issue 31, point 1): above
``core.linalg.PARTIAL_EIGH_MAX`` the eigensolver of a step (784 × 784 on the digits) is numpy's,
which releases the GIL, so a GUI thread beside it runs while it computes; the route is the same
in a script and in the app, and both solvers agree."""
from __future__ import annotations

import sys

import numpy as np
import pytest

from robust_subspace_lab.core import linalg


def test_large_eigenproblems_take_the_solver_that_releases_the_gil_and_agree(monkeypatch):
    """At 784 × 784 the top eigenpairs come from numpy's ``eigh`` (its LAPACK call runs without
    the GIL), at PARTIAL_EIGH_MAX from scipy's partial solver (which holds it; short there);
    the two give the same eigenpairs."""
    rng = np.random.default_rng(0)
    A = rng.standard_normal((900, 784))
    M = A.T @ A
    calls = []

    def spy(module, name):
        real = module.eigh

        def eigh(*args, **kwargs):
            calls.append(name)
            return real(*args, **kwargs)
        monkeypatch.setattr(module, "eigh", eigh)

    spy(np.linalg, "numpy")
    spy(linalg.linalg, "scipy")          # core.linalg's scipy.linalg
    evals, V = linalg.top_eigh(M.copy(), 10)
    assert calls == ["numpy"]
    monkeypatch.setattr(linalg, "PARTIAL_EIGH_MAX", 784)
    held = linalg.top_eigh(M.copy(), 10)
    assert calls == ["numpy", "scipy"]
    np.testing.assert_allclose(evals, held[0], rtol=1e-10)
    np.testing.assert_allclose(np.abs(V.T @ held[1]), np.eye(10), atol=1e-8)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="thread priorities are set on Linux")
def test_helper_threads_yield_to_the_gui_thread():
    """OpenBLAS's worker threads (created when numpy loads, nice 0) share the solvers' matrix
    products: the app's start (app.process.configure) gives them the pool threads' lower
    priority, and leaves its own thread's alone."""
    import os
    import threading

    from robust_subspace_lab.app.process import configure
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
        configure()()                                        # applied, then undone
        assert nice(helper["tid"]) >= 10 and nice(gui) == gui_nice
        assert lower_helper_threads_priority() == 0          # nothing left to change
    finally:
        stop.set()
        t.join()
