"""Frames first, measures after (app.worker, 5.): on large data a step's snapshot reaches the GUI
thread without its errors and metrics (a pass over the data, 50-150 ms at 5,000 x 9,216), which
follow; a job cancelled in between leaves them to a MeasureJob; the column greys the numbers of
the iteration before meanwhile and never shows another run's.

The tests make every data set "large" (worker.MEASURE_APART_ENTRIES = 0) and run on the faces."""
from __future__ import annotations

import threading
import time

import numpy as np
import pytest

from robust_subspace_lab.app import worker
from robust_subspace_lab.app.runner import ColumnRunner
from robust_subspace_lab.core import interrupt, views

WAIT = 15000


@pytest.fixture
def apart(monkeypatch):
    monkeypatch.setattr(worker, "MEASURE_APART_ENTRIES", 0)
    monkeypatch.setattr(worker, "MEASURE_APART_S", 0.0)


class HeldMeasures:
    """Patches SolverJob._measure: the first ``held`` calls wait (checking the cancel flag, as
    the real passes do between blocks of rows) until :meth:`release` or a cancel."""

    def __init__(self, monkeypatch, held: int = 1):
        self.held, self.calls, self.gate = held, [], threading.Event()
        original = worker.SolverJob._measure

        def measure(job, state):
            self.calls.append((type(job).__name__, state.iteration))
            if len(self.calls) <= self.held:
                while not self.gate.is_set():
                    interrupt.checkpoint()
                    time.sleep(0.002)
            return original(job, state)

        monkeypatch.setattr(worker.SolverJob, "_measure", measure)

    def release(self):
        self.gate.set()


def make(qtbot, pool, data, **params):
    r = ColumnRunner(pool, "pca-gm", params, delay=lambda: 0.0)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    return r


def same_measures(snap, state, data):
    full = views.snapshot(state, data)
    assert snap.measured and snap.error == full.error and snap.metrics == full.metrics


def test_frames_come_without_measures_and_the_measures_follow(qtbot, pool, data, apart):
    """Each stepped snapshot leaves the worker unmeasured; its measures arrive after it (the
    ``measured`` signal), and every cached snapshot ends with the numbers a whole snapshot has."""
    sent = []
    r = ColumnRunner(pool, "pca-gm", {"tol": 0.0, "max_iter": 100}, delay=lambda: 0.0)
    r.relay.stepped.connect(lambda g, j, states, snap: sent.append(("frame", snap.iteration, snap.measured)))
    r.relay.measured.connect(lambda g, j, state, m: sent.append(("measures", state.iteration, m.error)))
    measured = []
    r.measured.connect(measured.append)
    r.set_data(data)
    qtbot.waitUntil(lambda: bool(r.states) and not r.busy, timeout=WAIT)
    r.step(3)
    qtbot.waitUntil(lambda: r.iteration == 3 and not r.busy, timeout=WAIT)
    frames = [s for s in sent if s[0] == "frame"]
    assert frames and all(not m for _, _, m in frames)
    for kind, it, _ in frames:
        assert sent.index(("measures", it, pytest.approx(r.snapshot(it).error))) > sent.index((kind, it, False))
    assert 3 in measured
    for state in r.states:
        same_measures(r.snapshot(state.iteration), state, data)
    r.shutdown()


def test_a_pause_between_frame_and_measures_leaves_them_to_a_measure_job(qtbot, pool, data, apart, monkeypatch):
    """Paused while its job measures, the newest snapshot stays unmeasured only until the runner,
    idle, measures it in a MeasureJob: the numbers come, equal to a whole snapshot's."""
    r = make(qtbot, pool, data, tol=0.0, max_iter=100)
    held = HeldMeasures(monkeypatch)
    r.step(1)
    qtbot.waitUntil(lambda: r.iteration == 1 and len(held.calls) == 1, timeout=WAIT)
    assert not r.snapshot().measured
    r.pause()                                               # cancels the job inside its measures
    qtbot.waitUntil(lambda: not r.busy, timeout=WAIT)
    assert held.calls == [("SolverJob", 1), ("MeasureJob", 1)]
    same_measures(r.snapshot(), r.states[-1], data)
    r.shutdown()


def test_steps_do_not_wait_for_a_measure_job_and_old_states_are_measured_when_shown(
        qtbot, pool, data, apart, monkeypatch):
    """A step asked for while a MeasureJob runs cancels it (the step starts at once); the state it
    was measuring is measured when the scrubber shows it again."""
    r = make(qtbot, pool, data, tol=0.0, max_iter=100)
    held = HeldMeasures(monkeypatch, held=2)     # the job's measures and the MeasureJob's wait
    r.step(1)
    qtbot.waitUntil(lambda: len(held.calls) == 1, timeout=WAIT)
    r.pause()
    qtbot.waitUntil(lambda: len(held.calls) == 2, timeout=WAIT)     # the MeasureJob, held
    r.step(1)                                                       # cancels it
    qtbot.waitUntil(lambda: r.iteration == 2 and not r.busy, timeout=WAIT)
    assert [c[0] for c in held.calls] == ["SolverJob", "MeasureJob", "SolverJob"]
    assert r.snapshot().measured
    same_measures(r.snapshot(1), r.states[1], data)               # measured on demand
    r.shutdown()


def test_the_column_greys_the_last_numbers_while_measuring(qtbot, make_window, apart, monkeypatch):
    """While a step is measured the column keeps the numbers of the iteration before, greyed, and
    says so in the tooltip; then it shows the new ones. A new run never shows the old run's."""
    win = make_window(methods=("pca-gm",))
    col = win.subspace.columns[0]
    col.runner.set_params({"tol": 0.0, "max_iter": 100})
    # (the frame comes after the job's end when a frame was drawn less than a frame period before)
    qtbot.waitUntil(lambda: not win.busy and col.shown_snapshot is not None and not col.drawing, timeout=WAIT)
    before = col.error_label.text()
    assert before.startswith("reconstruction error") and col.error_label.isEnabled()
    held = HeldMeasures(monkeypatch, held=1)
    col.runner.step(1)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == 1, timeout=WAIT)
    assert col.error_label.text() == before and not col.error_label.isEnabled()
    assert not col.metrics_label.isEnabled()
    assert "Iteration 1's errors and metrics are being measured" in col.error_label.toolTip()
    assert "those of iteration 0" in col.error_label.toolTip()
    held.release()
    qtbot.waitUntil(lambda: col.error_label.isEnabled(), timeout=WAIT)
    snap = views.snapshot(col.runner.states[1], col.runner.data)
    assert col.error_label.text() == f"reconstruction error: {snap.error:.4g}"
    assert col.shown_snapshot.measured and np.isfinite(col.shown_snapshot.error)
    # a new run (another p) restarts at iteration 0: "measuring…", not the old run's numbers
    held.gate.clear()
    held.calls.clear()
    col.runner.set_params({"p": 0.5})
    qtbot.waitUntil(lambda: bool(held.calls), timeout=WAIT)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == 0
                    and not col.shown_snapshot.measured, timeout=WAIT)
    assert col.error_label.text() == "measuring…" and col.metrics_label.text() == ""
    held.release()
    qtbot.waitUntil(lambda: not win.busy and col.error_label.isEnabled(), timeout=WAIT)
