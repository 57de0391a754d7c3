"""Stopping a solver in the middle of an iteration: a cancel flag that inner loops check.

A caller that may want to stop a long iteration (the app's worker thread, a sweep worker) runs
it inside :func:`cancellable` with a :class:`threading.Event`; solvers call :func:`checkpoint`
in their inner loops (every sub-iteration, every sample block, between the costly linear
algebra calls). Once the event is set, the next checkpoint raises :class:`Cancelled`, and the
iteration is abandoned: the caller keeps the last finished state, so nothing is lost.

The same checkpoints let a caller pause the thread for a moment: ``cancellable(event,
give_way=fn)`` makes each checkpoint call ``fn(event)`` after the flag is checked. The app passes
one that sleeps (releasing the GIL) while its GUI thread is late, so that the solvers' Python
never competes with a redraw (``app.give_way``).

Outside :func:`cancellable` (a script, a notebook, ``fit``), :func:`checkpoint` costs one
context-variable lookup and never raises. The flag lives in a :class:`contextvars.ContextVar`,
so each thread has its own: a worker cancelling its run never stops another thread's.

Example::

    stop = threading.Event()
    with interrupt.cancellable(stop):
        state = est.step(state)        # raises Cancelled soon after stop.set() in another thread
"""
from __future__ import annotations

import contextlib
import contextvars
import threading
from typing import Callable, Iterator

__all__ = ["Cancelled", "cancellable", "checkpoint", "cancel_requested"]

#: the calling thread's (cancel event, give_way) of the innermost cancellable block, or None
_FLAG: contextvars.ContextVar[tuple | None] = contextvars.ContextVar("rsl_cancel", default=None)


class Cancelled(Exception):
    """The caller asked the running iteration to stop (its cancel event was set). Not an
    error: the caller asked for it, and keeps the states finished before."""


@contextlib.contextmanager
def cancellable(event: threading.Event | None,
                give_way: Callable[[threading.Event | None], None] | None = None) -> Iterator[None]:
    """Within this block, :func:`checkpoint` raises :class:`Cancelled` once ``event`` is set
    (``None``: never), and otherwise calls ``give_way(event)`` if given (it may pause the thread
    and must return soon after ``event`` is set). Blocks nest; the innermost block applies."""
    token = _FLAG.set((event, give_way))
    try:
        yield
    finally:
        _FLAG.reset(token)


def cancel_requested() -> bool:
    """The current thread's run has been asked to stop."""
    flag = _FLAG.get()
    return flag is not None and flag[0] is not None and flag[0].is_set()


def checkpoint() -> None:
    """Raise :class:`Cancelled` if the current thread's run has been asked to stop; else give way
    if the caller asked for it (:func:`cancellable`)."""
    flag = _FLAG.get()
    if flag is None:
        return
    event, give_way = flag
    if event is not None and event.is_set():
        raise Cancelled()
    if give_way is not None:
        give_way(event)
        if event is not None and event.is_set():
            raise Cancelled()
