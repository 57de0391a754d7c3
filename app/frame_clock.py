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

The other tabs catch up when shown again. No numerics here.
"""
from __future__ import annotations

import time
from typing import Callable

from PySide6 import QtCore

__all__ = ["FrameClock", "FRAME_MS", "PART_MS"]

#: frame timer period: at most ~30 redraws a second
FRAME_MS = 33
#: frame timer period while a frame is drawn in parts (``Workspace.drawing``)
PART_MS = 1
#: the frame timer's clock (tests replace it)
_clock = time.monotonic


class FrameClock(QtCore.QObject):
    """The frame timer of a window (see the module docstring).

    Parameters
    ----------
    shown : callable returning the workspace shown (it has ``refresh()``, ``drawing`` and
        ``frame_share()``, :mod:`app.workspace`).
    after_tick : called after every tick (the window updates its buttons).
    """

    def __init__(self, shown: Callable[[], object], after_tick: Callable[[], None], parent=None):
        super().__init__(parent)
        self._shown, self._after_tick = shown, after_tick
        self.drew_at = -1e9                 # _clock() of the last tick that drew
        self.timer = QtCore.QTimer(self)
        self.timer.setInterval(FRAME_MS)
        self.timer.timeout.connect(self.tick)

    def start(self) -> None:
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    @staticmethod
    def tick_ms(ws) -> int:
        """The timer's period for ``ws``: one tick per column per frame period."""
        return max(FRAME_MS // max(ws.frame_share(), 1), 5)

    def tick(self) -> None:
        """What the timer calls: the next part of what changed in the workspace shown."""
        ws = self._shown()
        if ws.refresh():
            self.drew_at = _clock()
        interval = PART_MS if ws.drawing else self.tick_ms(ws)
        if self.timer.interval() != interval:
            self.timer.setInterval(interval)
        self._after_tick()

    def wake(self, ws) -> None:
        """``ws`` has something new to draw: if it is the tab shown, draw it as soon as the frame
        cap allows (nothing while the timer is stopped or a frame is drawn in parts)."""
        timer = self.timer
        if ws is not self._shown() or not timer.isActive() or ws.drawing:
            return
        due = max(0, round(1000 * (self.drew_at - _clock())) + self.tick_ms(ws))
        if due < timer.remainingTime():
            timer.start(due)                # tick() sets the period again
