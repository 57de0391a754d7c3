"""Where a sweep's runs execute: a thread of this process, loky worker processes, or a Dask
distributed cluster, behind one small interface (``submit(task)``, ``width``, ``close``), used
by :func:`core.sweep.run_sweep`.

Bounds (so that a sweep never hangs on its executor and never floods the machine):

* local workers are capped at the number of CPUs (:func:`local_jobs`: ``--jobs 100000`` runs
  ``os.cpu_count()`` workers);
* a Dask address must be ``tcp://HOST:PORT`` (or ``tls://``, ``ucx://``, ``ws://``, ``wss://``,
  IPv6 hosts in brackets; :func:`check_dask_address`), and connecting gives up after
  :data:`DASK_CONNECT_SECONDS` even when the other end accepts the connection but never answers
  (distributed's own ``timeout`` does not cover that: the client is built in a daemon thread
  joined with that bound).

Security: a Dask scheduler without TLS runs whatever any client that reaches it sends, on its
workers (pickled functions). Use ``tls://`` addresses with a
:class:`distributed.security.Security` configured (``DASK_DISTRIBUTED__COMM__TLS__...``) on a
cluster reachable by anyone else.
"""
from __future__ import annotations

import concurrent.futures as cf
import os
import re
import threading
from typing import Any, Callable

from . import interrupt
from .errors import ParameterError

__all__ = ["DASK_CONNECT_SECONDS", "check_dask_address", "local_jobs", "make_executor"]

#: seconds to wait for a Dask scheduler to answer before giving up
DASK_CONNECT_SECONDS = 20.0

_ADDRESS = re.compile(r"^(tcp|tls|ucx|ws|wss)://(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$")
_INPROC = re.compile(r"^inproc://[A-Za-z0-9_.:-]+(/[0-9]+)+$")      # a LocalCluster(processes=False)


def check_dask_address(address: str) -> str:
    """``address`` if it has the form ``SCHEME://HOST:PORT`` (scheme tcp, tls, ucx, ws or wss;
    port 1–65535), else :class:`ParameterError` saying what form is expected."""
    text = str(address).strip()
    if _INPROC.match(text):
        return text
    found = _ADDRESS.match(text)
    if not found or not 1 <= int(found.group(3)) <= 65535:
        raise ParameterError(f"--dask must look like tcp://HOST:PORT (or tls://HOST:PORT for an encrypted, "
                             f"authenticated cluster), got {str(address)[:100]!r}")
    return text


def local_jobs(n_jobs: int) -> int:
    """The number of local workers for ``n_jobs`` (-1: one per CPU; -2: all but one, as joblib
    counts), capped at the number of CPUs. ParameterError for 0 or a non-integer."""
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, int) or n_jobs == 0:
        raise ParameterError(f"jobs must be a non-zero integer (-1: one per CPU), got {n_jobs!r}")
    cpus = os.cpu_count() or 1
    n = n_jobs if n_jobs > 0 else max(1, cpus + 1 + n_jobs)
    return min(n, cpus)


def _in_thread(fn: Callable, task: Any, cancel: threading.Event | None, give_way=None):
    with interrupt.cancellable(cancel, give_way=give_way):
        return fn(task)


class _Local1:
    """One worker: a thread of this process (a cancel reaches the running fit at its next
    :func:`core.interrupt.checkpoint`)."""

    def __init__(self, fn, cancel, give_way=None, on_close=None):
        self.fn, self.cancel, self.give_way, self.on_close = fn, cancel, give_way, on_close
        self.pool, self.width = cf.ThreadPoolExecutor(1, thread_name_prefix="sweep"), 2

    def submit(self, task):
        return self.pool.submit(_in_thread, self.fn, task, self.cancel, self.give_way)

    def close(self, cancelled: bool):
        if cancelled and self.cancel is not None:
            self.cancel.set()             # the running fit stops at its next checkpoint
        self.pool.shutdown(wait=True, cancel_futures=True)
        if self.on_close is not None:
            self.on_close()


class _Loky:
    """Several workers: joblib's loky processes, BLAS limited to ``cpus // n_jobs`` threads each."""

    def __init__(self, fn, n_jobs: int):
        from joblib.externals.loky import get_reusable_executor
        threads = str(max(1, (os.cpu_count() or 1) // n_jobs))
        env = {k: threads for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
        self.fn, self.pool = fn, get_reusable_executor(max_workers=n_jobs, env=env)
        self.width = 2 * n_jobs

    def submit(self, task):
        return self.pool.submit(self.fn, task)

    def close(self, cancelled: bool):
        if cancelled:                     # stop the running fits now (the next sweep starts new workers)
            self.pool.shutdown(wait=True, kill_workers=True)


def _connect(address: str, seconds: float):
    """A :class:`distributed.Client` of ``address``, or ParameterError saying what failed, within
    ``seconds`` whatever the other end does."""
    try:
        from distributed import Client
    except ImportError:        # an optional dependency: the "distributed" extra
        raise ParameterError("running a sweep on a Dask cluster (--dask) needs Dask's 'distributed' package, "
                             "which is not installed: pip install \"robust-subspace-lab[distributed]\"") from None
    out: dict[str, Any] = {}

    def connect():
        try:
            out["client"] = Client(address, set_as_default=False, timeout=seconds)
        except BaseException as exc:  # noqa: BLE001 - reported below, in the caller's words
            out["error"] = exc
    thread = threading.Thread(target=connect, name="dask-connect", daemon=True)
    thread.start()
    thread.join(seconds + 1.0)
    if thread.is_alive():
        raise ParameterError(f"the Dask scheduler at {address} did not answer within {seconds:g} s "
                             "(is it a Dask scheduler, and is the port right?)")
    if "error" in out:
        exc = out["error"]
        raise ParameterError(f"cannot connect to the Dask scheduler at {address}: "
                             f"{type(exc).__name__}: {str(exc)[:200] or 'no reason given'}")
    return out["client"]


class _Dask:
    """A Dask distributed scheduler's workers."""

    def __init__(self, fn, address: str, seconds: float):
        self.fn, self.client = fn, _connect(check_dask_address(address), seconds)
        self.pool = self.client.get_executor(pure=False)
        self.width = 2 * max(1, sum(self.client.nthreads().values()))

    def submit(self, task):
        return self.pool.submit(self.fn, task)

    def close(self, cancelled: bool):
        self.client.close()


def make_executor(fn: Callable, n_jobs: int = 1, dask_address: str | None = None,
                  cancel: threading.Event | None = None, give_way=None, on_close=None):
    """The executor that runs ``fn(task)``: on ``dask_address``'s cluster, else
    :func:`local_jobs` local workers (1: a thread of this process, cancelled through ``cancel``,
    pausing at checkpoints through ``give_way``; ``on_close`` called when it closes).
    Raises ParameterError for a bad ``n_jobs`` or address, or a scheduler that does not answer."""
    if dask_address:
        return _Dask(fn, dask_address, DASK_CONNECT_SECONDS)
    n = local_jobs(n_jobs)
    return _Local1(fn, cancel, give_way, on_close) if n <= 1 else _Loky(fn, n)
