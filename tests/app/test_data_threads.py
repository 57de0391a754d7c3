"""Data jobs never wait for the solvers: with every solver thread busy running a column, choosing
another data set still loads it (it used to queue behind the runs until one converged)."""
from __future__ import annotations

from PySide6 import QtCore

NEVER = {"tol": 1e-300, "max_iter": 100000}     # runs that do not end by themselves


def test_a_data_set_loads_while_every_solver_thread_is_busy(qtbot, make_window):
    win = make_window(methods=("tc-nmf", "cauchy-nmf"))
    win.pool.setMaxThreadCount(len(win.subspace.columns))
    for col in win.subspace.columns:
        col.runner.set_params({k: v for k, v in NEVER.items() if k in col.runner.params})
    qtbot.waitUntil(lambda: not win.busy, timeout=30000)
    win.run_all()
    qtbot.waitUntil(lambda: win.pool.activeThreadCount() == win.pool.maxThreadCount()
                    and all(c.runner.running for c in win.subspace.columns), timeout=30000)

    # a safety valve so that a regression fails instead of hanging: Pause after a while ends the
    # runs, which would let a queued data job through
    valve = []
    timer = QtCore.QTimer(win)                # owned by the window: it never outlives this test
    timer.setSingleShot(True)
    timer.timeout.connect(lambda: (valve.append(True), win.pause_all()))
    timer.start(60000)
    assert win.subspace.data_panel.select_source("digits")
    timer.stop()
    assert not valve, "the digits loaded only after the runs were paused"
    assert all(c.runner.running or c.runner.busy for c in win.subspace.columns)
    assert win.subspace.source == ("builtin", "digits")
    win.pause_all()
    qtbot.waitUntil(lambda: not win.busy, timeout=30000)
