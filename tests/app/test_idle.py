"""An idle window runs no timer (issue 31, "idle at zero"): the give_way heartbeat, the frame clock
and the garbage-collection timer tick only while something runs or changes, and a run wakes them."""
from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app import give_way, memory


def _repeating_timers(win) -> list[QtCore.QTimer]:
    """The window's timers that are running and fire more than once, and the app's own
    (the garbage collectors of app.memory). Not the status bar's: it times a message shown for
    10 s and stops when it clears it (Qt's QStatusBar.showMessage), a wake-up once."""
    timers = win.findChildren(QtCore.QTimer) + [c.timer for c in memory._collectors]
    return [t for t in timers if t.isActive() and not t.isSingleShot()
            and not isinstance(t.parent(), QtWidgets.QStatusBar)]


def _idle(win) -> bool:
    return not win.busy and not _repeating_timers(win) and not win._heartbeat.active


def test_an_idle_window_runs_no_timer_and_a_step_wakes_the_frame_clock(make_window, qtbot, tmp_path, monkeypatch):
    """With autosave on, as the command line starts it: its timer is a single shot, armed when
    the window comes alive."""
    monkeypatch.setenv("ROBUST_SUBSPACE_LAB_AUTOSAVE", str(tmp_path / "autosave.rsl"))
    win = make_window(autosave=True)
    qtbot.waitUntil(lambda: _idle(win), timeout=10000)
    win._autosave_timer.stop()                        # (the one armed at the start)
    assert give_way.current() is not None            # installed, asleep
    assert not memory._lively.is_set()                # the trimming thread waits without a timeout
    col = next(c for c in win.subspace.columns if c.key == "pca-gm")    # iterative: a step makes iteration 1
    assert col.shown_index == 0
    win.step_all(1)
    assert win.frame_clock.timer.isActive()           # woken by the run's activity
    assert win._autosave_timer.isActive()             # the change will be autosaved
    qtbot.waitUntil(lambda: col.shown_index == 1 and not win.busy, timeout=15000)
    qtbot.waitUntil(lambda: _idle(win), timeout=10000)   # and asleep again once drawn


def test_a_sleeping_heartbeat_wakes_when_a_worker_asks(qtbot):
    hb = give_way.Heartbeat()
    try:
        qtbot.waitUntil(lambda: not hb.active, timeout=5000)    # nobody asked: asleep
        hb.give_way(None)                                       # a worker's checkpoint: returns at once
        qtbot.waitUntil(lambda: hb.active, timeout=5000)
        assert hb.late() < give_way.STALLED_S
    finally:
        hb.stop()
