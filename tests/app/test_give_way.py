"""app.give_way: worker threads wait, without the GIL, while the GUI thread's event loop is late."""
from __future__ import annotations

import threading
import time

from PySide6 import QtCore

from robust_subspace_lab.app import give_way
from robust_subspace_lab.core import interrupt


class _Waits:
    """Stands in for the heartbeat's event: records waits instead of waiting."""

    def __init__(self):
        self.calls = []

    def wait(self, timeout=None):
        self.calls.append(timeout)
        return False

    def set(self):
        pass


def test_a_worker_waits_while_the_gui_thread_is_busy_and_goes_on_when_its_loop_turns(qtbot):
    """A worker running Python between checkpoints makes next to no progress while the GUI thread
    runs 150 ms of Python without turning its event loop (without give_way it takes the GIL every
    switch interval and counts thousands of times meanwhile), and goes on once the loop turns."""
    hb = give_way.Heartbeat()
    stop = threading.Event()
    count = [0]

    def worker():
        try:
            with interrupt.cancellable(stop, give_way=hb.give_way):
                while True:
                    if count[0] % 10 == 0:
                        interrupt.checkpoint()
                    count[0] += 1
        except interrupt.Cancelled:
            pass

    seen = {}

    def busy_gui():
        t_end = time.perf_counter() + 0.15
        while time.perf_counter() < t_end:
            if "start" not in seen and hb.late() > 2 * give_way.LATE_S:
                seen["start"] = count[0]           # the worker has seen the loop late by now
        seen["end"] = count[0]

    t = threading.Thread(target=worker, daemon=True)
    t.start()
    try:
        qtbot.waitUntil(lambda: count[0] > 1000, timeout=5000)
        QtCore.QTimer.singleShot(0, busy_gui)
        qtbot.waitUntil(lambda: "end" in seen, timeout=5000)
        during = seen["end"] - seen["start"]
        assert during <= 20, during
        after = count[0]
        qtbot.waitUntil(lambda: count[0] > after + 1000, timeout=5000)   # going on again
    finally:
        stop.set()
        t.join(5)
        hb.stop()


def test_no_wait_when_the_loop_is_on_time_stalled_or_the_job_cancelled(qtbot):
    hb = give_way.Heartbeat()
    waits = hb._turned = _Waits()
    try:
        hb.beat = time.monotonic()
        hb.give_way(None)                              # on time
        hb.beat = time.monotonic() - 2 * give_way.STALLED_S
        hb.give_way(None)                              # no event loop running: nobody to wait for
        cancel = threading.Event()
        cancel.set()
        hb.beat = time.monotonic() - 2 * give_way.LATE_S
        hb.give_way(cancel)                            # cancelled: go on to raise
        assert waits.calls == []
        hb.give_way(None)                              # late: waits, WAIT_S at most
        assert waits.calls == [give_way.WAIT_S]
    finally:
        hb.stop()


def test_the_window_installs_a_heartbeat_and_removes_it_when_closing(make_window):
    win = make_window(methods=("pca",))
    assert give_way.current() is not None
    win.shutdown()
    assert give_way.current() is None
