"""Worker threads give way to the GUI thread while it is late.

The solvers and loaders run in worker threads of the same interpreter as the GUI thread, and
pyqtgraph draws in Python (its items' ``paint`` methods, axes, colour bars): while a redraw runs,
each worker thread running Python takes the GIL in turn with it, every switch interval
(``sys.getswitchinterval()``, 5 ms), so beside k busy workers a redraw runs at about
1/(k+1) of its speed. Six method columns on the faces (a preset) or a loader reading PNGs held
the event loop 60-80 ms where the GUI thread itself needed 25-35 ms (benchmarks/bench_gui.py:
"GUI thread busy" against the longest gap).

:class:`Heartbeat` is a timer of the GUI thread that notes each turn of its event loop
(every :data:`BEAT_MS` when the loop is free). Its :meth:`Heartbeat.give_way` is what the workers' cancel
checkpoints call (``core.interrupt.cancellable(cancel, give_way=...)``, passed by
:mod:`app.worker`'s jobs): while the event loop has not turned for :data:`LATE_S` (the GUI thread
is drawing or building widgets), the worker waits, without the GIL, until it turns, at most
:data:`WAIT_S` at a time, or until its job is cancelled. A loop that has not turned for
:data:`STALLED_S` is not running (a blocking call in the GUI thread, a script or test driving the
widgets without an event loop): the workers do not wait for it.

The heartbeat beats only while workers ask for it: a worker's :meth:`Heartbeat.give_way` wakes a
sleeping heartbeat (a queued signal to the GUI thread) and returns at once, and a heartbeat that no
worker has asked for :data:`IDLE_S` goes to sleep (its timer stopped, the loop counted as stalled:
nobody waits). An idle window runs no timer of its own: the 4 ms beat alone cost 0.74 s of CPU in
20 s of an idle window (3.6 % of a core).

One heartbeat per process is installed (:func:`install`, by the main window; :func:`current`
gives its ``give_way`` or None); the jobs run inside :func:`cancellable`. No numerics here; :mod:`core` knows only the callable.
"""
from __future__ import annotations

import threading
import time

from PySide6 import QtCore

from robust_subspace_lab.core import interrupt

__all__ = ["Heartbeat", "install", "uninstall", "current", "cancellable", "BEAT_MS", "LATE_S", "WAIT_S",
           "STALLED_S", "IDLE_S"]

#: period of the heartbeat timer (ms)
BEAT_MS = 4
#: the event loop is late when it has not turned for this long (s): two beats
LATE_S = 0.008
#: longest wait of a worker at one checkpoint (s)
WAIT_S = 0.1
#: a loop that has not turned for this long is not running (s): nobody to give way to
STALLED_S = 1.0
#: a heartbeat no worker has asked for this long stops beating (s)
IDLE_S = 0.25


class Heartbeat(QtCore.QObject):
    """A timer of the GUI thread noting each turn of its event loop while workers ask for it (see
    the module docstring). Create it in the GUI thread (it beats until :data:`IDLE_S` passes
    without a worker asking); :meth:`give_way` is called from worker threads."""

    _wake = QtCore.Signal()

    def __init__(self, parent=None):
        super().__init__(parent)
        self.beat = time.monotonic()
        self._asked = self.beat          # when a worker last called give_way
        self._turned = threading.Event()
        self._asleep = False             # read by the workers: a wake is needed
        self._wake_sent = False
        self._stopped = False
        self._timer = QtCore.QTimer(self)
        self._timer.setTimerType(QtCore.Qt.PreciseTimer)
        self._timer.setInterval(BEAT_MS)
        self._timer.timeout.connect(self._tick)
        self._wake.connect(self._resume, QtCore.Qt.QueuedConnection)
        self._timer.start()

    @property
    def active(self) -> bool:
        """The timer is beating (a worker asked within :data:`IDLE_S`)."""
        return self._timer.isActive()

    def _tick(self) -> None:
        now = time.monotonic()
        if now - self._asked > IDLE_S:          # no worker: sleep until one asks
            self._asleep = True
            self._timer.stop()
            self.beat = -1e9                    # stalled: nobody waits for a sleeping heartbeat
        else:
            self.beat = now
        turned, self._turned = self._turned, threading.Event()
        turned.set()

    def _resume(self) -> None:
        self._wake_sent = False
        if self._stopped or not self._asleep:
            return
        self._asleep = False
        self._asked = self.beat = time.monotonic()
        self._timer.start()

    def stop(self) -> None:
        """No more beats; waiting workers go on at once."""
        self._stopped = self._asleep = True
        self._timer.stop()
        self.beat = -1e9            # stalled from now on
        self._turned.set()

    def late(self) -> float:
        """Seconds since the event loop last turned."""
        return time.monotonic() - self.beat

    def give_way(self, cancel: threading.Event | None = None) -> None:
        """From a worker thread: if the GUI thread's event loop is late (:data:`LATE_S` to
        :data:`STALLED_S` since its last turn), wait until it turns, :data:`WAIT_S` at most.
        Returns at once otherwise. ``cancel``: the caller's cancel event (the wait ends soon after
        it is set: the GUI thread that sets it turns its loop)."""
        self._asked = time.monotonic()
        if self._asleep:                        # wake the heartbeat; no beat to wait for yet
            if not (self._wake_sent or self._stopped):
                self._wake_sent = True
                self._wake.emit()
            return
        late = self.late()
        if late < LATE_S or late > STALLED_S or (cancel is not None and cancel.is_set()):
            return
        self._turned.wait(WAIT_S)


_current: Heartbeat | None = None


def install(heartbeat: Heartbeat) -> None:
    """Make ``heartbeat`` the one the workers give way to."""
    global _current
    _current = heartbeat


def uninstall(heartbeat: Heartbeat) -> None:
    """Stop ``heartbeat`` and, if it is the one installed, remove it."""
    global _current
    heartbeat.stop()
    if _current is heartbeat:
        _current = None


def current():
    """The installed heartbeat's ``give_way``, or None (no window: workers never wait)."""
    hb = _current
    return None if hb is None else hb.give_way


def cancellable(cancel: threading.Event):
    """``core.interrupt.cancellable(cancel)`` whose checkpoints also give way to the installed
    heartbeat (none installed: they only check ``cancel``). What every worker job runs inside."""
    return interrupt.cancellable(cancel, give_way=current())
