"""Issue 28, point 5: the Sweep dialog starts from the window (data, corruption, methods and
parameters), names metrics as the window does, draws an AUC on 0–1, and opening one of its runs
adds a column while the other columns keep their data and iteration."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from robust_subspace_lab.app.results_browser import ResultsBrowser
from robust_subspace_lab.core import catalogue, sweep as core_sweep
from robust_subspace_lab.core.session import prepare

WAIT = 30000


def test_sweep_dialog_starts_from_the_window_and_a_run_opens_beside_the_columns(make_window, qtbot):
    win = make_window(size=(20, 20))                  # PCA and PCA-GM with k = 5, p = 0.3
    gm = win.subspace.columns[1]
    win.step_all(2)
    qtbot.waitUntil(lambda: gm.runner.iteration == 2 and not win.busy, timeout=WAIT)
    dlg = win.open_sweep()
    assert dlg.checked_methods() == ["pca", "pca-gm"]
    assert dlg._grid_edits["n_components"].text() == "5"          # not the catalogue's 10
    sweep = dlg.build_sweep()
    assert sweep.data == win.session.data and sweep.corruption == win.session.corruption
    for task in sweep.tasks():                        # every run has the window's parameters
        col = next(c for c in win.subspace.columns if c.key == task.method)
        built = {**catalogue.get(task.method).defaults(), **task.params}     # as the run builds it
        assert {k: built[k] for k in col.runner.params} == col.runner.params

    dlg.set_methods(["pca-gm"])
    dlg.set_grid_text("max_iter", "4")
    dlg.seeds_spin.setValue(1)
    assert dlg.start()
    qtbot.waitUntil(lambda: not dlg.running and dlg.browser.model.rowCount() == 1, timeout=WAIT)
    row = dlg.browser.model.row(0)
    before = [(c.runner.data, c.runner.iteration, len(c.runner.states)) for c in win.subspace.columns]
    dlg.browser.open_run_requested.emit(row)
    qtbot.waitUntil(lambda: len(win.subspace.columns) == 3 and not win.busy, timeout=WAIT)
    assert [(c.runner.data, c.runner.iteration, len(c.runner.states)) for c in win.subspace.columns[:2]] == before
    new = win.subspace.columns[2]
    qtbot.waitUntil(lambda: new.runner.iteration == int(row["n_iter"]) and not win.busy, timeout=WAIT)
    data, corr = dlg.browser.sweep.task_for(row).data_for_seed()
    assert np.array_equal(new.runner.data.X, prepare(data, corr).X)     # the run's own seed
    assert new.runner.params["n_components"] == gm.runner.params["n_components"] == 5


def test_results_browser_names_metrics_as_the_window_and_draws_auc_on_0_1(qtbot):
    rows = [{"method": "pca-gm", "p": p, "seed": s, "n_iter": 3, "converged": True, "seconds": 0.1,
             "reconstruction_error": 800.0 + s, "outlier_auc": 0.999 - 0.001 * s, "error": ""}
            for p in (0.1, 0.3) for s in (1, 2)]
    b = ResultsBrowser()
    qtbot.addWidget(b)
    b.show()
    b.set_rows(rows, swept=["p"])
    labels = [b.metric_combo.itemText(i) for i in range(b.metric_combo.count())]
    assert "eq. 14 error (000)" in labels and "weights AUC" in labels and "reconstruction_error" not in labels
    headers = [b.model.headerData(i, QtCore.Qt.Orientation.Horizontal) for i in range(b.model.columnCount())]
    assert core_sweep.metric_label("outlier_auc") in headers
    b.metric_combo.setCurrentIndex(b.metric_combo.findData("outlier_auc"))
    b.redraw()
    low, high = b.plot.viewRange()[1]
    assert low == pytest.approx(-0.02) and high == pytest.approx(1.02)
    left = b.plot.getAxis("left")
    assert left.labelText == "weights AUC" and "x0.001" not in left.labelString()
