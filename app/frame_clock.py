"""The window's frame timer: the tab shown draws what changed since its last frame.

* At most one part of a frame per tick (a column's frame is drawn in parts of
  :data:`app.column.VIEWS_PER_TICK` views), so the event loop is never held for more than one
  part's redraw; while a frame is drawn in parts the timer ticks every :data:`PART_MS` (the next
  part in the next event-loop turn, after this one's repaint).
* Otherwise it ticks ``frame_share()`` times per :data:`FRAME_MS` (one tick per column): each
  column draws at most ~30 frames a second.
* A run's new iteration (the workspace's ``frame_due`` signal) is drawn as soon as that cap
  allows, one tick period after the last tick that drew, not at the timer's next tick, which may
  be up to a period later (16 ms with two columns; benchmarks/bench_gui.py's first frame after
  Run at 96 × 96 came 14 ms after the step's snapshot arrived, 0.5 ms with the wake).

* It stops once :data:`QUIET_TICKS` ticks in a row drew nothing while nothing was busy (no data
  job, no solver, nothing being built): an idle window runs no timer. What gives it something to
  draw wakes it (:meth:`FrameClock.wake`: a run's new iteration, a workspace's activity, a data
  job, another tab shown). :attr:`FrameClock.lively` tells when it starts and stops (the window
  collects garbage and trims memory only while it runs, :mod:`app.memory`).

The other tabs catch up when shown again. No numerics here.
"""
from __future__ import annotations

import time
from typing import Callable

from PySide6 import QtCore

from .ui_queue import take_turn, turn_taken

__all__ = ["FrameClock", "FRAME_MS", "PART_MS", "QUIET_TICKS"]

#: frame timer period: at most ~30 redraws a second
FRAME_MS = 33
#: frame timer period while a frame is drawn in parts (``Workspace.drawing``)
PART_MS = 1
#: ticks in a row that drew nothing, with nothing busy, before the timer stops
QUIET_TICKS = 3
#: the frame timer's clock (tests replace it)
_clock = time.monotonic


class FrameClock(QtCore.QObject):
    """The frame timer of a window (see the module docstring).

    Parameters
    ----------
    shown : callable returning the workspace shown (it has ``refresh()``, ``drawing`` and
        ``frame_share()``, :mod:`app.workspace`).
    after_tick : called after every tick (the window updates its buttons).
    busy : callable, True while a data job or a solver has work in flight or queued (the timer
        keeps ticking meanwhile).
    """

    #: True when the timer starts ticking, False when it stops
    lively = QtCore.Signal(bool)

    def __init__(self, shown: Callable[[], object], after_tick: Callable[[], None],
                 busy: Callable[[], bool] = lambda: False, parent=None):
        super().__init__(parent)
        self._shown, self._after_tick, self._busy = shown, after_tick, busy
        self.drew_at = -1e9                 # _clock() of the last tick that drew
        self._on = False                    # between start() and stop()
        self._quiet = 0                     # ticks in a row that drew nothing, nothing busy
        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self._on_timer)

    def start(self) -> None:
        """Tick from now on (the timer sleeps while quiet and :meth:`wake` starts it again)."""
        self._on = True
        self._run(FRAME_MS)

    def stop(self) -> None:
        """No more ticks, and no wake."""
        self._on = False
        self._sleep()

    def _run(self, ms: int) -> None:
        self._quiet = 0
        was = self.timer.isActive()
        self.timer.start(ms)
        if not was:
            self.lively.emit(True)

    def _sleep(self) -> None:
        if self.timer.isActive():
            self.timer.stop()
            self.lively.emit(False)

    @staticmethod
    def tick_ms(ws) -> int:
        """The timer's period for ``ws``: one tick per column per frame period."""
        return max(FRAME_MS // max(ws.frame_share(), 1), 5)

    def _on_timer(self) -> None:
        if turn_taken():            # a build job ran in this event-loop turn: draw in the next
            self.timer.start(0)     # (tick() sets the period again)
            return
        self.tick()

    def tick(self) -> None:
        """What the timer calls: the next part of what changed in the workspace shown."""
        ws = self._shown()
        drew = ws.refresh()
        if drew:
            self.drew_at = _clock()
            take_turn()
        interval = PART_MS if ws.drawing else self.tick_ms(ws)
        if self.timer.interval() != interval:
            self.timer.setInterval(interval)
        self._after_tick()
        self._quiet = 0 if drew or ws.drawing or self._busy() else self._quiet + 1
        if self._quiet >= QUIET_TICKS:
            self._sleep()

    def wake(self, ws) -> None:
        """``ws`` has something new to draw: if it is the tab shown, draw it as soon as the frame
        cap allows (nothing after :meth:`stop` or while a frame is drawn in parts); a sleeping
        timer starts again whichever tab ``ws`` is (None: the window's, e.g. a data job)."""
        timer = self.timer
        if not self._on:
            return
        shown = self._shown()
        if ws is not shown and ws is not None:
            if not timer.isActive():
                self._run(self.tick_ms(shown))
            return
        if shown.drawing and timer.isActive():
            return
        due = max(0, round(1000 * (self.drew_at - _clock())) + self.tick_ms(shown))
        if not timer.isActive() or due < timer.remainingTime():
            self._run(due)                  # tick() sets the period again
