"""BLAS threads by policy, in one place (threadpoolctl).

The numerical work of every method is BLAS (OpenBLAS, MKL or BLIS under numpy/scipy). How many
threads it may use is decided here and nowhere else:

* :func:`threads_per_run` is the policy: all cores for one running solver, the cores shared out
  when several run at once (the app's columns each run in their own worker thread);
* :func:`blas_threads` applies a count for the duration of a ``with`` block, through
  threadpoolctl (``threadpoolctl.ThreadpoolController.limit``), restoring the previous count after;
* :func:`set_blas_threads` applies a count until changed (for a caller, such as the app, that
  re-applies the policy whenever the number of running solvers changes);
* :func:`one_blas_thread` is ``blas_threads(1)``, for the thin, memory-bound products that gain
  nothing from threads on small problems (see :func:`core.linalg.one_blas_thread`).

BLAS libraries hold one thread count per process, not per thread: two solvers running at once
share it. That is why the policy divides the cores by the number of running solvers instead of
each solver taking all of them.

No Qt here: the app calls :func:`set_blas_threads` with ``threads_per_run(n_running)``.
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterator

from threadpoolctl import ThreadpoolController

__all__ = ["available_cores", "threads_per_run", "blas_threads", "one_blas_thread",
           "set_blas_threads", "current_blas_threads"]

_lock = threading.Lock()
_controller: ThreadpoolController | None = None


def _threadpools() -> ThreadpoolController:
    """The process's ThreadpoolController, made once (making one inspects the loaded libraries,
    a few milliseconds)."""
    global _controller
    with _lock:
        if _controller is None:
            _controller = ThreadpoolController()
        return _controller


def available_cores() -> int:
    """The number of CPU cores this process may run on (its affinity mask where the platform has
    one, else ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def threads_per_run(n_running: int, cores: int | None = None) -> int:
    """BLAS threads for each of ``n_running`` solvers running at once: ``cores // n_running``
    (all cores for one, shared out for several), at least 1.

    Parameters
    ----------
    n_running : number of solvers running at the same time, >= 0 (0 is treated as 1).
    cores : number of cores to share (default :func:`available_cores`), >= 1.

    Raises ValueError for a negative ``n_running`` or ``cores < 1``.
    """
    n_running = int(n_running)
    if n_running < 0:
        raise ValueError(f"n_running must be >= 0, got {n_running}")
    cores = available_cores() if cores is None else int(cores)
    if cores < 1:
        raise ValueError(f"cores must be >= 1, got {cores}")
    return max(1, cores // max(1, n_running))


def _check_count(n: int) -> int:
    n = int(n)
    if n < 1:
        raise ValueError(f"the number of BLAS threads must be >= 1, got {n}")
    return n


@contextmanager
def blas_threads(n: int) -> Iterator[None]:
    """Run the enclosed block with at most ``n`` BLAS threads (``n >= 1``; ValueError otherwise);
    the previous limits are restored on exit. When every BLAS library already runs at most ``n``
    threads nothing is set (a query costs ~1 µs, a limit and its restore ~27 µs: per step of a
    small problem, e.g. NMF on the built-in faces, that was 10–15 % of the step)."""
    n = _check_count(n)
    pools = _threadpools()
    if all(lib.num_threads <= n for lib in pools.lib_controllers if lib.user_api == "blas"):
        yield
        return
    with pools.limit(limits=n, user_api="blas"):
        yield


def one_blas_thread():
    """``blas_threads(1)``: for thin products with k columns, which are memory-bound on small
    problems (see :func:`core.linalg.one_blas_thread` for the measurement)."""
    return blas_threads(1)


def set_blas_threads(n: int) -> int:
    """Set the process's BLAS thread count to ``n`` (``>= 1``) until changed; returns ``n``.

    For the app's policy: call ``set_blas_threads(threads_per_run(n_running))`` whenever the
    number of running solvers changes."""
    n = _check_count(n)
    _threadpools().limit(limits=n, user_api="blas")
    return n


def current_blas_threads() -> int:
    """The largest thread count among the loaded BLAS libraries (1 if none is loaded)."""
    info = [lib["num_threads"] for lib in _threadpools().info() if lib.get("user_api") == "blas"]
    return max(info) if info else 1
