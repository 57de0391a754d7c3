"""core.threads: the BLAS thread policy (issue 12, point 6)."""
import numpy as np
import pytest

from robust_subspace_lab.core import linalg, threads


@pytest.fixture
def restore_threads():
    before = threads.current_blas_threads()
    yield
    threads.set_blas_threads(before)


def test_policy_shares_the_cores_between_running_solvers():
    assert threads.threads_per_run(1, cores=8) == 8          # one column: all cores
    assert threads.threads_per_run(2, cores=8) == 4          # shared
    assert threads.threads_per_run(3, cores=8) == 2
    assert threads.threads_per_run(5, cores=2) == 1          # never below one
    assert threads.threads_per_run(0, cores=4) == 4          # nothing running: as for one
    assert 1 <= threads.threads_per_run(1) == threads.available_cores()
    for bad in ({"n_running": -1}, {"n_running": 1, "cores": 0}):
        with pytest.raises(ValueError):
            threads.threads_per_run(**bad)


def test_blas_threads_applies_and_restores(restore_threads):
    threads.set_blas_threads(2)
    assert threads.current_blas_threads() == 2
    with threads.blas_threads(1):
        assert threads.current_blas_threads() == 1
        np.ones((50, 50)) @ np.ones((50, 50))
    assert threads.current_blas_threads() == 2
    with linalg.one_blas_thread():                     # linalg's helper goes through the policy module
        assert threads.current_blas_threads() == 1
    assert threads.current_blas_threads() == 2
    with pytest.raises(ValueError, match="BLAS threads"):
        with threads.blas_threads(0):
            pass


def test_thin_products_pinned_only_on_small_problems(restore_threads):
    """core.linalg.thin_product_threads: one thread where the exact route runs (measured faster
    there), the policy's count on large problems."""
    threads.set_blas_threads(2)
    with linalg.thin_product_threads(np.empty((100, 625))):
        assert threads.current_blas_threads() == 1
    with linalg.thin_product_threads(np.empty((2000, 1024))):
        assert threads.current_blas_threads() == 2
