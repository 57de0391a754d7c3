"""The solvers never hold the GIL long (issue 13, point 3): the window turns on
``core.linalg.release_gil``, under which the eigensolver of a step on the digits (784 × 784)
releases the GIL, so the GUI thread runs while it computes; the results are the same."""
from __future__ import annotations

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
