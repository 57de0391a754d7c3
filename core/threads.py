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
  nothing from threads on small problems (see :func:`core.linalg.one_blas_thread`);
* :func:`threads_for` adds the size rule (one thread for data of at most
  :data:`THREADED_MIN_ENTRIES` entries) and :class:`RunningSolvers` counts the solvers running at
  once and applies ``threads_for`` whenever that number changes (the app's solver jobs enter it).

The cores shared out are :func:`policy_cores`: the cores this process may run on, capped by the
user's own ``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` / ``MKL_NUM_THREADS`` when set (the
user's setting wins).

BLAS libraries hold one thread count per process, not per thread: two solvers running at once
share it. That is why the policy divides the cores by the number of running solvers instead of
each solver taking all of them.

No Qt here: the app's solver jobs run inside :data:`RUNNING` (``with RUNNING.solver(X.size)``).
"""
from __future__ import annotations

import os
import threading
from contextlib import contextmanager
from typing import Iterator

from threadpoolctl import ThreadpoolController

__all__ = ["available_cores", "policy_cores", "threads_per_run", "threads_for", "blas_threads",
           "one_blas_thread", "set_blas_threads", "current_blas_threads", "RunningSolvers", "RUNNING",
           "THREADED_MIN_ENTRIES", "ONE_THREAD_MAX_ENTRIES"]

#: the environment variables through which a user limits BLAS threads
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")

#: Data of at most this many entries (n_samples × n_features) is solved on one BLAS thread
#: whatever the policy: on the built-in data threads cost far more than they give. Measured on two
#: cores, seconds per step with 1 and 2 threads (core.threads.set_blas_threads): on the faces
#: (100 × 625) PCA-GM 3.1 vs 28 ms, RPCA-OM 3.8 vs 37 ms, HQ-PCA 2.4 vs 32 ms (the convex and NMF
#: methods within ±30 %); on 2,000 digits (2,000 × 784) PCA-GM 0.14 vs 6.6 s, RPCA-OM 0.22 vs
#: 1.95 s, Truncated Cauchy NMF 0.19 vs 0.52 s. The bound lets all 5,000 built-in digits
#: (3.9 million entries) run on one thread; a 10,000-image folder of 64 × 64 (41 million) gets
#: the policy's count.
THREADED_MIN_ENTRIES = 4_000_000
#: A solver whose data have at most this many entries runs each iteration inside
#: :func:`one_blas_thread` whatever the count applied to the process: its SVDs and products are too
#: small to gain from threads, and on a busy 2-core machine threaded ones were 2–4× slower
#: (100 × 625 SVD + norm 15 ms threaded vs 3.9 ms on one thread; a 100 × 625 TC-NMF run of 50
#: iterations 1.37 s vs 0.49 s). Used by the convex and NMF solvers.
ONE_THREAD_MAX_ENTRIES = 250_000

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


def policy_cores() -> int:
    """The cores the policy shares out: :func:`available_cores`, capped by the smallest positive
    integer among the user's :data:`THREAD_VARIABLES` (unset or unreadable ones are ignored)."""
    cores = available_cores()
    for var in THREAD_VARIABLES:
        try:
            limit = int(os.environ.get(var, ""))
        except ValueError:
            continue
        if limit >= 1:
            cores = min(cores, limit)
    return cores


def threads_per_run(n_running: int, cores: int | None = None) -> int:
    """BLAS threads for each of ``n_running`` solvers running at once: ``cores // n_running``
    (all cores for one, shared out for several), at least 1.

    Parameters
    ----------
    n_running : number of solvers running at the same time, >= 0 (0 is treated as 1).
    cores : number of cores to share (default :func:`policy_cores`), >= 1.

    Raises ValueError for a negative ``n_running`` or ``cores < 1``.
    """
    n_running = int(n_running)
    if n_running < 0:
        raise ValueError(f"n_running must be >= 0, got {n_running}")
    cores = policy_cores() if cores is None else int(cores)
    if cores < 1:
        raise ValueError(f"cores must be >= 1, got {cores}")
    return max(1, cores // max(1, n_running))


def _check_count(n: int) -> int:
    n = int(n)
    if n < 1:
        raise ValueError(f"the number of BLAS threads must be >= 1, got {n}")
    return n


class blas_threads:
    """Run the enclosed block (``with blas_threads(n):``) with at most ``n`` BLAS threads
    (``n >= 1``; ValueError otherwise); the previous limits are restored on exit. When every BLAS
    library already runs at most ``n`` threads nothing is set (a query costs ~1 µs, a limit and
    its restore ~27 µs: per step of a small problem, e.g. NMF on the built-in faces, that was
    10–15 % of the step). A class rather than a generator context: entering and leaving cost
    2.9 instead of 5.3 µs per multiplicative-update step of NMF on the faces (of ~120 µs)."""

    __slots__ = ("n", "_limiter")

    def __init__(self, n: int):
        self.n = _check_count(n)
        self._limiter = None

    def __enter__(self) -> None:
        pools = _controller if _controller is not None else _threadpools()
        for lib in pools.lib_controllers:
            if lib.user_api == "blas" and lib.num_threads > self.n:
                limiter = pools.limit(limits=self.n, user_api="blas")
                limiter.__enter__()
                self._limiter = limiter
                return

    def __exit__(self, *exc) -> None:
        limiter, self._limiter = self._limiter, None
        if limiter is not None:
            limiter.__exit__(*exc)


def one_blas_thread():
    """``blas_threads(1)``: for thin products with k columns, which are memory-bound on small
    problems (see :func:`core.linalg.one_blas_thread` for the measurement)."""
    return blas_threads(1)


def set_blas_threads(n: int) -> int:
    """Set the process's BLAS thread count to ``n`` (``>= 1``) until changed; returns ``n``.

    For a pthreads OpenBLAS (one thread pool per process) threadpoolctl lets one Python thread
    at a time change the count: the thread that set it last keeps that right until it gives it
    up. This function gives it up at once, so that other threads' :func:`blas_threads` blocks and
    later calls from any thread take effect; a call made while another thread is inside a
    :func:`blas_threads` block does nothing (the caller re-applies later, as
    :class:`RunningSolvers` does).

    For the app's policy: :class:`RunningSolvers` calls it whenever the number of running
    solvers changes."""
    n = _check_count(n)
    _threadpools().limit(limits=n, user_api="blas")
    _release_openblas()
    return n


def _release_openblas() -> None:
    """Give up this thread's right to change OpenBLAS's process-wide count (threadpoolctl ≥ 3.6
    keeps it for the thread that set a count outside a ``with`` block; earlier versions have no
    such right)."""
    import threadpoolctl

    controller = getattr(threadpoolctl, "OpenBLASController", None)
    release = getattr(controller, "clear_controlling_thread", None)
    if release is not None:
        release()


def current_blas_threads() -> int:
    """The largest thread count among the loaded BLAS libraries (1 if none is loaded)."""
    info = [lib["num_threads"] for lib in _threadpools().info() if lib.get("user_api") == "blas"]
    return max(info) if info else 1


def threads_for(n_running: int, n_entries: int, cores: int | None = None) -> int:
    """BLAS threads for each of ``n_running`` solvers whose largest data has ``n_entries`` entries:
    1 when ``n_entries <= THREADED_MIN_ENTRIES`` (small problems: see that constant's
    measurements), else :func:`threads_per_run` ``(n_running, cores)``."""
    if int(n_entries) <= THREADED_MIN_ENTRIES:
        return 1
    return threads_per_run(n_running, cores)


class RunningSolvers:
    """The solvers running at once in this process, and the thread count they get.

    Each solver runs inside ``with running.solver(n_entries):`` (``n_entries``: the size of its
    data); entering and leaving apply ``threads_for(n_running, largest n_entries running)`` with
    :func:`set_blas_threads`, under a lock, so the count applied is always the one for the solvers
    running now; when the last one leaves, the count found when the first one entered (the
    caller's: a script keeps its own; the desktop app sets one thread at startup,
    :func:`app.process.configure`, since what it computes between runs is small or elementwise).
    :meth:`apply` re-applies it (a solver's own
    ``one_blas_thread`` blocks restore the count they found, which another thread may since have
    changed: the app's jobs re-apply before every step).

    Parameters
    ----------
    cores : callable giving the cores to share (default :func:`policy_cores`), read at each change.
    """

    def __init__(self, cores=None):
        self.cores = cores or policy_cores
        self._lock = threading.Lock()
        self._running: dict[int, int] = {}     # token -> n_entries
        self._next = 0
        self.applied: int | None = None        # the count last asked for (None before any)
        self._at_rest = 1                      # the count found when the first solver entered

    @property
    def count(self) -> int:
        """How many solvers are running."""
        return len(self._running)

    def wanted(self) -> int:
        """The thread count for the solvers running now (if none runs, the count found when the
        first of the last ones entered)."""
        if not self._running:
            return self._at_rest
        return threads_for(len(self._running), max(self._running.values()), self.cores())

    def apply(self) -> None:
        """(Re-)apply the count for the solvers running now."""
        with self._lock:
            self.applied = set_blas_threads(self.wanted())

    @contextmanager
    def solver(self, n_entries: int) -> Iterator[None]:
        """Count the enclosed block as one running solver on data of ``n_entries`` entries (the
        count and the threads change together, under the lock)."""
        with self._lock:
            if not self._running:
                self._at_rest = current_blas_threads()
            self._next += 1
            token = self._next
            self._running[token] = int(n_entries)
            self.applied = set_blas_threads(self.wanted())
        try:
            yield
        finally:
            with self._lock:
                del self._running[token]
                self.applied = set_blas_threads(self.wanted())


#: the process's running solvers (BLAS holds one thread count per process)
RUNNING = RunningSolvers()
