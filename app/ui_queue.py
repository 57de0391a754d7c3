"""Small GUI-thread jobs run between events, a few milliseconds' worth per event-loop turn.

Building widgets must happen on the GUI thread, and a method column's pyqtgraph views take
100–250 ms to build all at once: the window would not draw in between. The workspace posts such
work here as small jobs (one column's controls, one view); :class:`UiQueue` runs them in order
from a timer, at most :data:`TURN_BUDGET_S` of them per turn and a turn every
:data:`TURN_PAUSE_MS`, so that painting, input and the solvers' results get the event loop in
between.

A job belongs to an ``owner`` (a column): :meth:`UiQueue.discard` drops the jobs of an owner
that is going away, so no job runs on a deleted widget.

**One drawing turn at a time.** The window's frame clock (:mod:`app.frame_clock`) and this queue
both make work whose cost comes after it: the repaint of what they changed, which Qt does in the
next event-loop turn, before that turn's timers (a pyqtgraph scene flushes the window's repaint
as soon as it has processed its changes: 10-25 ms per view). When both timers fired in the same
turn, the next turn held both repaints back to back, and the turn after the jobs of both: the
six-column preset's longest gaps in ``benchmarks/bench_gui.py``. So their timers share the turns
(:func:`turn_taken`, :func:`take_turn`): a timer that finds the turn taken fires again in the
next one. A turn is known to be over when an event posted in it is delivered (the dispatcher's
``awake`` signal is no count: it comes only after the loop waited, not in a busy loop). Direct
calls (tests, scripts) are not held back.
"""
from __future__ import annotations

import collections
import time
from typing import Callable, Iterator

from PySide6 import QtCore

__all__ = ["UiQueue", "TURN_BUDGET_S", "TURN_PAUSE_MS", "turn_taken", "take_turn"]

#: GUI-thread seconds of queued jobs per event-loop turn (a job is never split: one that takes
#: longer ends the turn): small, so that a second job runs in the same turn only when the first
#: was trivial (a view takes 5–15 ms to build and as much again to repaint)
TURN_BUDGET_S = 0.004
#: milliseconds between two turns of jobs: the repaint a job causes (20–30 ms for a new view)
#: happens in between, not back to back with the next job
TURN_PAUSE_MS = 15


class _Turns(QtCore.QObject):
    """Whether work that makes a repaint ran in this event-loop turn: from :meth:`take` until an
    event posted then is delivered, which Qt does in the next turn, before that turn's timers
    (and after the repaints the work posted before it)."""

    _TYPE = QtCore.QEvent.Type(QtCore.QEvent.registerEventType())

    def __init__(self):
        super().__init__()
        self.taken = False

    def take(self) -> None:
        if not self.taken:
            self.taken = True
            QtCore.QCoreApplication.postEvent(self, QtCore.QEvent(self._TYPE))

    def event(self, ev) -> bool:
        if ev.type() == self._TYPE:
            self.taken = False
            return True
        return super().event(ev)


_turns: list[_Turns] = []       # one per process, made in the GUI thread by the first take_turn


def turn_taken() -> bool:
    """Work that makes a repaint already ran in this event-loop turn (see the module notes)."""
    return bool(_turns) and _turns[0].taken


def take_turn() -> None:
    """Note that work making a repaint ran in this event-loop turn (call it from the GUI thread)."""
    if not _turns:
        _turns.append(_Turns())
    _turns[0].take()


class UiQueue(QtCore.QObject):
    """A FIFO of GUI-thread jobs run from a timer, :data:`TURN_BUDGET_S` per turn.

    ``idle`` is emitted when the last job has run."""

    idle = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self._jobs: collections.deque[tuple[object, Callable[[], None], bool]] = collections.deque()
        self._timer = QtCore.QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(TURN_PAUSE_MS)
        self._timer.timeout.connect(self._on_timer)

    def post(self, fn: Callable[[], None], owner: object = None, end_turn: bool = False) -> None:
        """Run ``fn()`` in a later event-loop turn, after the jobs posted before it. ``end_turn``:
        no other job in the same turn (for a job whose cost comes after it, e.g. a repaint)."""
        self._jobs.append((owner, fn, bool(end_turn)))
        if not self._timer.isActive():
            self._timer.start(TURN_PAUSE_MS)

    def post_steps(self, steps: Iterator[None], owner: object = None) -> None:
        """Run a job in parts: each ``next(steps)`` is one part, and the parts run ahead of the
        jobs waiting (a part that is not the last puts the rest back at the front), so the job
        ends before the next one starts while painting and input get their turns between its
        parts."""
        def part() -> None:
            for _ in steps:
                self._jobs.appendleft((owner, part, False))
                return
        self._jobs.appendleft((owner, part, False))
        if not self._timer.isActive():
            self._timer.start(TURN_PAUSE_MS)

    def discard(self, owner: object) -> None:
        """Drop the jobs of ``owner`` that have not run."""
        self._jobs = collections.deque(j for j in self._jobs if j[0] is not owner)

    @property
    def pending(self) -> int:
        """Jobs not run yet."""
        return len(self._jobs)

    def _on_timer(self) -> None:
        if turn_taken():                # the frame clock drew in this turn: the next one
            self._timer.start(0)
            return
        take_turn()
        self._run()

    def _run(self) -> None:
        end = time.perf_counter() + TURN_BUDGET_S
        try:
            while self._jobs:
                _, fn, end_turn = self._jobs.popleft()
                fn()
                if end_turn or time.perf_counter() >= end or (self._jobs and self._jobs[0][2]):
                    break
        finally:             # a job that raised (reported by the window) does not stop the rest
            if self._jobs:
                self._timer.start(TURN_PAUSE_MS)
            else:
                self.idle.emit()
