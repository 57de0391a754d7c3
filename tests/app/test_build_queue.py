"""Widgets built a few milliseconds per event-loop turn (app.ui_queue): the queue itself, a column
added to a shown window, a preset's columns, and the light colour bar the image views use."""
from __future__ import annotations

import shiboken6

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore

from robust_subspace_lab.app.ui_queue import UiQueue
from robust_subspace_lab.app.views.common import GREY, ColorBar
from robust_subspace_lab.core import presets

WAIT = 60000


def test_queue_runs_jobs_in_order_and_a_failing_job_does_not_stop_the_rest(qtbot):
    queue = UiQueue()
    done = []
    with qtbot.capture_exceptions() as raised:
        with qtbot.waitSignal(queue.idle, timeout=5000):
            queue.post(lambda: done.append(1))
            queue.post(lambda: 1 / 0)
            queue.post(lambda: done.append(3))
            assert queue.pending == 3 and done == []        # nothing runs before the event loop
    assert done == [1, 3]
    assert len(raised) == 1 and raised[0][0] is ZeroDivisionError
    assert queue.pending == 0


def test_discard_drops_only_the_owners_jobs(qtbot):
    queue = UiQueue()
    a, b = object(), object()
    done = []
    for i in range(3):
        queue.post(lambda i=i: done.append(("a", i)), owner=a)
        queue.post(lambda i=i: done.append(("b", i)), owner=b)
    queue.discard(a)
    assert queue.pending == 3
    with qtbot.waitSignal(queue.idle, timeout=5000):
        pass
    assert done == [("b", 0), ("b", 1), ("b", 2)]


def test_a_job_in_parts_runs_ahead_of_the_waiting_jobs_and_is_discarded_with_its_owner(qtbot):
    queue = UiQueue()
    done = []
    a, b = object(), object()

    def parts(name, n):
        for i in range(n):
            done.append((name, i))
            yield

    queue.post(lambda: queue.post_steps(parts("a", 3), owner=a), owner=a)
    queue.post(lambda: done.append("next"))
    with qtbot.waitSignal(queue.idle, timeout=5000):
        pass
    assert done == [("a", 0), ("a", 1), ("a", 2), "next"]
    # parts left when the owner goes away are dropped with its other jobs
    done.clear()
    queue.post_steps(parts("b", 5), owner=b)
    queue.post(lambda: done.append("after"))
    queue._jobs[0][1]()                 # one part runs (and puts the rest back in front)
    assert done == [("b", 0)] and queue._jobs[0][0] is b
    queue.discard(b)
    with qtbot.waitSignal(queue.idle, timeout=5000):
        pass
    assert done == [("b", 0), "after"]


def test_a_job_that_ends_its_turn_runs_alone(qtbot):
    queue = UiQueue()
    done = []
    queue.post(lambda: done.append("a"))
    queue.post(lambda: done.append("b"), end_turn=True)      # e.g. a repaint comes after it
    queue.post(lambda: done.append("c"))
    queue._run()                       # one event-loop turn's worth
    assert done == ["a"]
    queue._run()
    assert done == ["a", "b"]
    with qtbot.waitSignal(queue.idle, timeout=5000):
        pass
    assert done == ["a", "b", "c"]


def test_a_column_added_to_a_shown_window_builds_its_views_later(qtbot, make_window):
    win = make_window()
    col = win.subspace.add_column("rpca-om")
    assert col.views_pending and col.view_list == []      # the constructor built the controls only
    qtbot.waitUntil(lambda: not col.views_pending and not win.busy and col.shown_snapshot is not None, timeout=WAIT)
    names = {type(v).__name__ for v in col.views()}
    assert {"WeightsView", "ObjectiveView", "BasisView", "ReconView"} <= names
    assert col.recon_view.show_snapshot is not None and col.shown_snapshot is not None
    # a view read before its turn is built at once, and only once
    other = win.subspace.add_column("pca")
    view = other.recon_view
    assert view in other.view_list
    qtbot.waitUntil(lambda: not other.views_pending, timeout=WAIT)
    assert sum(type(v).__name__ == "ReconView" for v in other.view_list) == 1


def test_a_removed_column_leaves_no_job_behind(qtbot, make_window):
    win = make_window()
    col = win.subspace.add_column("pca-gm")
    assert col.views_pending
    win.subspace.remove_column(col)
    # its view jobs are dropped at once; the queue then repaints the other columns' views (they
    # widen) and deletes it, each in a turn of its own, and drains
    assert not col.isVisible()
    qtbot.waitUntil(lambda: not shiboken6.isValid(col) and win.subspace.build_queue.pending == 0, timeout=5000)


def test_a_preset_adds_its_columns_over_several_turns_and_runs_them_all(qtbot, make_window):
    pre = presets.get("paper000-fig4")
    assert len(pre.methods) > 2
    win = make_window()
    assert len(win.subspace.columns) == 2
    assert win.apply_preset(pre.key)
    # the two columns there took the preset's first methods; the others come in later turns
    assert len(win.subspace.columns) == 2 and win.busy
    qtbot.waitUntil(lambda: len(win.subspace.columns) == len(pre.methods) and not win.busy, timeout=WAIT)
    assert [c.runner.key for c in win.subspace.columns] == [m for m, _ in pre.methods]
    assert all(not c.views_pending for c in win.subspace.columns)
    # the preset's Run (to each method's stopping rule) reached the columns added after it was asked
    assert all(c.runner.finished for c in win.subspace.columns), [c.runner.iteration for c in win.subspace.columns]
    assert all(c.runner.iteration > 0 for c in win.subspace.columns[2:]), [c.runner.iteration for c in win.subspace.columns]
    assert [c.index for c in win.subspace.columns] == list(range(len(pre.methods)))


def test_a_second_preset_replaces_the_columns_the_first_had_not_added_yet(qtbot, make_window):
    win = make_window()
    win.apply_preset("paper000-fig4")                 # six columns, four still to come
    win.apply_preset("default-lesson")                # two columns
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert [c.runner.key for c in win.subspace.columns] == [m for m, _ in presets.get("default-lesson").methods]
    assert win.subspace.columns_layout.count() == len(win.subspace.columns)


def test_a_column_removed_while_a_preset_builds_leaves_no_job_behind(qtbot, make_window):
    """A preset queues repaints and parameter trees for the columns it keeps; removing one of them
    before those jobs run drops them (they ran on its deleted views: found by the random-use
    benchmark)."""
    win = make_window()                                   # its two columns were built at once
    kept = list(win.subspace.columns)
    win.apply_preset("paper000-fig4")
    assert win.subspace.build_queue.pending > 0
    with qtbot.capture_exceptions() as raised:
        win.subspace.remove_column(kept[1])
        qtbot.waitUntil(lambda: not win.busy and win.subspace.build_queue.pending == 0, timeout=WAIT)
    assert raised == []
    assert kept[1] not in win.subspace.columns and len(win.subspace.columns) == len(presets.get("paper000-fig4").methods) - 1


def _render(bar: ColorBar, size) -> np.ndarray:
    """The pixels (grey) of the bar's colour ramp, as drawn in a window of ``size``."""
    view = pg.GraphicsLayoutWidget()
    view.resize(*size)
    view.ci.addItem(bar)
    view.show()
    QtCore.QCoreApplication.processEvents()
    img = view.grab().toImage().convertToFormat(pg.QtGui.QImage.Format.Format_Grayscale8)
    w, h = img.width(), img.height()
    arr = np.frombuffer(img.constBits(), dtype=np.uint8, count=img.bytesPerLine() * h).reshape(h, -1)[:, :w]
    rect = view.mapFromScene(bar.image.sceneBoundingRect()).boundingRect()
    view.close()
    return arr[rect.top() + 2:rect.bottom() - 1, rect.left() + 2:rect.right() - 1].astype(int)


def test_color_bar_levels_axis_and_direction(qtbot):
    bar = ColorBar(GREY, (-1.0, 1.0), "value ÷ largest |value|")
    assert bar.levels() == (-1.0, 1.0)
    bar.setLevels((0.0, 1.0))
    assert bar.levels() == (0.0, 1.0)
    assert bar.getAxis("right").labelText == "value ÷ largest |value|"
    with pytest.raises(KeyError):
        bar.getAxis("left")
    # vertical: black (low) at the bottom, white (high) at the top of the bar
    ramp = _render(bar, (60, 200)).mean(axis=1)
    assert ramp.size > 50 and ramp[0] > 220 and ramp[-1] < 35, (ramp[:3], ramp[-3:])
    assert np.corrcoef(ramp, np.arange(ramp.size))[0, 1] < -0.97   # darker all the way down (ticks aside)
    # horizontal: low at the left
    hbar = ColorBar(GREY, (0.0, 255.0), "grey level (0–255)", horizontal=True)
    assert hbar.getAxis("bottom") is hbar.axis
    ramp = _render(hbar, (200, 50)).mean(axis=0)
    assert ramp.size > 50 and ramp[0] < 35 and ramp[-1] > 220, (ramp[:3], ramp[-3:])
    assert np.corrcoef(ramp, np.arange(ramp.size))[0, 1] > 0.97


def test_a_frame_is_drawn_in_parts_and_shown_whole(qtbot, make_window):
    """The frame timer draws a column's new frame VIEWS_PER_TICK views per call; the texts,
    ``shown_snapshot`` and ``drawn`` come with the last part, and every view got the new snapshot
    exactly once."""
    from robust_subspace_lab.app.column import VIEWS_PER_TICK
    from robust_subspace_lab.app.frame_clock import PART_MS

    win = make_window(methods=("pca-gm",))
    col = win.subspace.columns[0]
    qtbot.waitUntil(lambda: not win.busy and col.shown_snapshot is not None and not col.drawing, timeout=WAIT)
    win.frame_clock.stop()                    # the test plays the frame timer
    drew = []
    for view in col.views():
        original = view.show_snapshot
        view.show_snapshot = lambda snap, v=view, f=original: (drew.append((v, snap.iteration)), f(snap))
    emitted = []
    col.drawn.connect(lambda c, it: emitted.append(it))
    win.step_all(1)
    qtbot.waitUntil(lambda: col.runner.iteration == 1 and not win.busy, timeout=WAIT)
    n_views = len(col.views())
    assert n_views > VIEWS_PER_TICK
    calls = 0
    while True:
        assert win.subspace.refresh()
        calls += 1
        assert len(drew) == min(calls * VIEWS_PER_TICK, n_views)
        if not col.drawing:
            break
        assert col.shown_snapshot.iteration == 0 and emitted == []      # not shown before the last part
        win.frame_clock.tick()                             # what the timer calls
        calls += 1
        assert len(drew) == min(calls * VIEWS_PER_TICK, n_views)
        if not col.drawing:
            break
        assert win.frame_clock.timer.interval() == PART_MS                      # the next part comes at once
    assert calls == -(-n_views // VIEWS_PER_TICK)
    assert sorted(id(v) for v, _ in drew) == sorted(id(v) for v in col.views())
    assert {it for _, it in drew} == {1} and emitted == [1]
    assert col.shown_snapshot.iteration == 1 and "iteration 1" in col.iteration_label.text()
    assert not win.subspace.refresh()           # nothing more to draw


def test_a_new_iteration_is_drawn_at_once_not_at_the_next_tick_and_the_frame_cap_holds(
        qtbot, make_window, monkeypatch):
    """A run's new iteration wakes the frame timer (app.frame_clock.FrameClock.wake): it is drawn as soon
    as the frame cap allows, not at the timer's next tick (here a minute away; up to 16 ms with
    two columns in use); a wake less than one tick period after a tick that drew makes the timer
    fire when that period ends, one a period later or more at once."""
    from robust_subspace_lab.app import frame_clock

    win = make_window(methods=("pca-gm",))
    col = win.subspace.columns[0]
    qtbot.waitUntil(lambda: not win.busy and col.shown_snapshot is not None and not col.drawing, timeout=WAIT)
    win.frame_clock.timer.start(60_000)             # the next tick a minute away
    win.step_all(1)
    qtbot.waitUntil(lambda: col.shown_snapshot.iteration == 1 and not col.drawing, timeout=10_000)
    now = [1000.0]
    monkeypatch.setattr(frame_clock, "_clock", lambda: now[0])
    tick = win.frame_clock.tick_ms(win.subspace)
    win.frame_clock.drew_at = now[0] - 0.002             # a tick drew 2 ms ago
    win.frame_clock.timer.start(60_000)
    win.subspace.frame_due.emit()
    assert win.frame_clock.timer.interval() == tick - 2
    win.frame_clock.drew_at = now[0] - 1.0               # ... a second ago
    win.frame_clock.timer.start(60_000)
    win.subspace.frame_due.emit()
    assert win.frame_clock.timer.interval() == 0


def test_a_message_shown_or_hidden_repaints_the_views_in_parts(qtbot, make_window):
    """A column's message (e.g. a data problem) moves its views when it appears or goes: they are
    repainted VIEWS_PER_TICK per turn of the build queue (all at once held the event loop 50-90 ms
    when the corruption changed), and every one of them in the end."""
    from robust_subspace_lab.app.column import VIEWS_PER_TICK

    win = make_window()
    col = win.subspace.columns[0]
    queue = win.subspace.build_queue
    qtbot.waitUntil(lambda: not win.busy and queue.pending == 0, timeout=WAIT)
    views = col.views()
    assert len(views) > VIEWS_PER_TICK and all(v.updatesEnabled() for v in views)
    shown = col.shown_snapshot
    for text in ("Data problem: the data have missing entries", ""):
        col.runner.message.emit(text)
        assert col.message_label.isHidden() == (not text) and col.message_label.text() == text
        assert not any(v.updatesEnabled() for v in views)
        turns = 0
        while queue.pending:
            queue._run()                      # one event-loop turn of the queue
            turns += 1
            assert sum(v.updatesEnabled() for v in views) == min(turns * VIEWS_PER_TICK, len(views))
        assert turns == -(-len(views) // VIEWS_PER_TICK)
    assert col.shown_snapshot is shown and col.views() == views
    col.runner.message.emit("")                   # no message before nor after: nothing moves
    assert queue.pending == 0


def test_a_view_built_later_takes_its_kept_place_and_moves_no_other_view(qtbot, make_window):
    """A column added to a shown window keeps the places of the views its queue builds later: a
    view arriving does not resize (and repaint) the views built before it (it did: a preset's
    column relayout repainted the column's views with each new one)."""
    from PySide6 import QtWidgets

    win = make_window(methods=("pca",))
    col = win.subspace.add_column("pca-gm")
    queue = win.subspace.build_queue
    places = {}
    moved = []
    while queue.pending:
        queue._run()                          # one event-loop turn of the queue
        for _ in range(3):
            QtWidgets.QApplication.processEvents()          # the relayout and the repaint
        for view in col.view_list:
            if not view.isVisible():
                continue
            rect = view.geometry().getRect()
            if view in places and places[view] != rect:
                moved.append((type(view).__name__, places[view], rect))
            places[view] = rect
    assert not col.views_pending and len(places) >= 4
    assert moved == []
    assert not col._places                   # every kept place was taken by its view
    qtbot.waitUntil(lambda: not win.busy and col.shown_snapshot is not None, timeout=WAIT)


def test_columns_being_built_move_no_view_of_the_columns_there(qtbot, make_window):
    """A preset's new columns share the width with the columns there equally from the start,
    whatever their views' size hints: while their views are built one per event-loop turn, the
    views of the columns already there keep their size (they were resized and repainted with
    each new view, 156 -> 172 -> 156 px wide)."""
    from PySide6 import QtWidgets

    win = make_window()
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert win.apply_preset("paper000-fig4")
    queue = win.subspace.build_queue
    kept = list(win.subspace.columns)
    assert len(kept) == 2 and queue.pending
    sizes, changed, turns = {}, [], 0
    while queue.pending:
        queue._run()                          # one event-loop turn of the queue
        turns += 1
        for _ in range(3):
            QtWidgets.QApplication.processEvents()          # the relayout and the repaint
        for col in kept:
            for view in col.views():
                size = view.size().toTuple()
                if view in sizes and sizes[view] != size:
                    changed.append((col.index, type(view).__name__, sizes[view], size))
                sizes[view] = size
    assert len(win.subspace.columns) == 6 and turns > 10 and len(sizes) >= 8
    assert changed == []


def test_the_status_texts_coming_or_going_move_no_view(qtbot, make_window):
    """The iteration and error lines keep their height whatever their text: an empty label is 1 px
    shorter, and every view of the column moved (and was repainted) when the error line emptied
    (a folder without clean images) or filled again."""
    from PySide6 import QtWidgets

    win = make_window()
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    col = win.subspace.columns[1]
    before = [v.geometry().getRect() for v in col.views()]
    for text in ("", "reconstruction error: 874.9", "", "relative error: 12.00 %"):
        col.error_label.setText(text)
        col.iteration_label.setText(text and "iteration 10 · ✓ converged at iteration 5")
        for _ in range(3):
            QtWidgets.QApplication.processEvents()
        assert [v.geometry().getRect() for v in col.views()] == before, text


def test_columns_that_widen_or_shrink_are_repainted_in_turns_and_none_is_left_blank(qtbot, make_window):
    """Removing a column (the others widen) or a preset with fewer columns: the columns that stay
    repaint their views one per turn (updates off until their job), and every view ends with its
    updates on (a view left off would stay blank)."""
    win = make_window()
    ws = win.subspace
    extra = ws.add_column("pca-gm")
    qtbot.waitUntil(lambda: not ws.build_queue.pending and not win.busy, timeout=WAIT)
    ws.remove_column(extra)
    waiting = [v for c in ws.columns for v in c.views() if not v.updatesEnabled()]
    assert waiting                                     # not all repainted in this turn
    # a view waiting for its turn is resized with its column, but its scene is laid out at the
    # new size only in its turn (app.views.scaling.hold_layout)
    qtbot.waitUntil(lambda: any(not _scene_fits(v) for v in waiting), timeout=WAIT)
    qtbot.waitUntil(lambda: not ws.build_queue.pending, timeout=WAIT)
    assert all(v.updatesEnabled() and _scene_fits(v) for c in ws.columns for v in c.views())
    assert win.apply_preset("paper000-fig4")
    qtbot.waitUntil(lambda: len(ws.columns) == 6 and not ws.build_queue.pending and not win.busy, timeout=WAIT)
    assert win.apply_preset("paper001-table1-faces")   # four columns: two removed, four widen
    qtbot.waitUntil(lambda: not ws.build_queue.pending and not win.busy, timeout=WAIT)
    assert len(ws.columns) == 4
    assert all(v.updatesEnabled() and _scene_fits(v) for c in ws.columns for v in c.views())


def _scene_fits(view) -> bool:
    """Every pyqtgraph scene in ``view`` is laid out for the view's present size (at the zoom)."""
    import pyqtgraph as pg

    from robust_subspace_lab.app.views import scaling

    graphics = [view] if isinstance(view, pg.GraphicsView) else view.findChildren(pg.GraphicsView)
    return all(abs(g.range.width() - g.width() / scaling.scale()) < 1
               and abs(g.range.height() - g.height() / scaling.scale()) < 1 for g in graphics)


def test_the_frame_clock_and_the_build_queue_never_draw_in_the_same_event_loop_turn(qtbot):
    """Their timers share the event-loop turns (app.ui_queue.turn_taken): work that makes a
    repaint runs from one of them per turn. Each piece of work here posts a 'repaint' of 20 ms
    (as a pyqtgraph scene flushes the window's), delivered in the next turn before its timers; so
    both timers are due after it, and a piece of work that finds the last one's repaint not yet
    delivered ran in the same turn as it."""
    import time

    from robust_subspace_lab.app.frame_clock import FrameClock

    pending = [False]
    shared = []                             # work that ran in the turn of the work before it

    class Repaint(QtCore.QObject):
        def event(self, ev):
            if ev.type() == QtCore.QEvent.User:
                pending[0] = False
                end = time.perf_counter() + 0.02
                while time.perf_counter() < end:
                    pass
                return True
            return super().event(ev)
    repaint = Repaint()

    def work(kind):
        if pending[0]:
            shared.append(kind)
        pending[0] = True
        QtCore.QCoreApplication.postEvent(repaint, QtCore.QEvent(QtCore.QEvent.User))
        done.append(kind)

    done = []

    class Shown:
        drawing = False

        def refresh(self):
            work("frame")
            return True

        def frame_share(self):
            return 6                       # a tick every 5 ms

    queue = UiQueue()
    clock = FrameClock(lambda: Shown(), lambda: None, busy=lambda: True)
    clock.start()
    try:
        with qtbot.waitSignal(queue.idle, timeout=20000):
            for _ in range(12):
                queue.post(lambda: work("job"), end_turn=True)     # (one per turn, as views)
    finally:
        clock.stop()
    assert done.count("job") == 12 and done.count("frame") >= 6
    assert shared == []
