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
    assert 1 <= threads.threads_per_run(1) == threads.policy_cores() <= threads.available_cores()
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


def test_policy_cores_respects_the_users_limit(monkeypatch):
    for var in threads.THREAD_VARIABLES:
        monkeypatch.delenv(var, raising=False)
    assert threads.policy_cores() == threads.available_cores()
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.setenv("OMP_NUM_THREADS", "junk")              # unreadable: ignored
    assert threads.policy_cores() == 1 == threads.threads_per_run(1)


def test_size_rule_keeps_small_data_on_one_thread():
    small, large = threads.THREADED_MIN_ENTRIES, threads.THREADED_MIN_ENTRIES + 1
    assert threads.threads_for(1, small, cores=8) == 1
    assert threads.threads_for(1, large, cores=8) == 8
    assert threads.threads_for(2, large, cores=8) == 4


def test_running_solvers_apply_the_policy_on_every_change(restore_threads):
    """Solvers entering and leaving (from several threads) set the count for those running now."""
    import threading

    running = threads.RunningSolvers(cores=lambda: 4)
    large = threads.THREADED_MIN_ENTRIES + 1
    threads.set_blas_threads(3)                                                # the caller's count
    with running.solver(large):
        assert running.count == 1 and threads.current_blas_threads() == 4      # all cores
        inside, leave = threading.Event(), threading.Event()

        def other():
            with running.solver(large):
                inside.set()
                leave.wait(10)

        t = threading.Thread(target=other)
        t.start()
        assert inside.wait(10)
        assert running.count == 2 and threads.current_blas_threads() == 2      # shared
        leave.set()
        t.join(10)
        assert running.count == 1 and threads.current_blas_threads() == 4
        with running.solver(100):                                              # small data joins
            assert threads.current_blas_threads() == 2
    assert running.count == 0 and threads.current_blas_threads() == 3 == running.applied   # given back
    threads.set_blas_threads(1)
    with running.solver(100):                                                  # small data alone
        assert threads.current_blas_threads() == 1
