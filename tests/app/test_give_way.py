"""app.give_way: worker threads wait, without the GIL, while the GUI thread's event loop is late."""
from __future__ import annotations

import threading
import time

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


class _Entered(threading.Event):
    """The heartbeat's turn event, noting when a worker starts waiting on it."""

    def __init__(self):
        super().__init__()
        self.entered = threading.Event()

    def wait(self, timeout=None):
        self.entered.set()
        return super().wait(timeout)


def test_a_worker_waits_at_its_checkpoint_while_the_loop_is_late_and_goes_on_when_it_turns(qtbot, monkeypatch):
    """The GUI thread has not turned its event loop for longer than LATE_S (it runs this test's
    code): a worker's checkpoint waits on the heartbeat's turn, and returns when the loop turns.
    WAIT_S is raised to a minute, so only the turn can end the wait within the test's timeout."""
    monkeypatch.setattr(give_way, "WAIT_S", 60.0)
    monkeypatch.setattr(give_way, "STALLED_S", 1e9)   # however slow the machine, the loop counts as late
    hb = give_way.Heartbeat()
    stop = threading.Event()
    returned = threading.Event()

    def worker():
        with interrupt.cancellable(stop, give_way=hb.give_way):
            interrupt.checkpoint()
        returned.set()

    try:
        hb.give_way(None)                               # asked for: the heartbeat beats
        qtbot.waitUntil(lambda: hb.active, timeout=5000)
        # From here until qtbot waits, the event loop does not turn: no tick can change the state.
        turn = hb._turned = _Entered()
        hb.beat = time.monotonic() - 10 * give_way.LATE_S
        t = threading.Thread(target=worker, daemon=True)
        t.start()
        assert turn.entered.wait(10), "the worker did not wait for the late event loop"
        assert not returned.is_set()
        qtbot.waitUntil(returned.is_set, timeout=10000)  # the loop turned: the worker goes on
        assert turn.is_set()
    finally:
        stop.set()
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
