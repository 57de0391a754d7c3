"""The Sweep dialog and the results browser: a tiny sweep fills the table as runs finish, the plot
has one line per method, Cancel stops it, a double-click asks to open the run."""
from __future__ import annotations

import pytest
from PySide6 import QtCore

from robust_subspace_lab.app import memory
from robust_subspace_lab.app.results_browser import ResultsBrowser, SORT_ROLE
from robust_subspace_lab.app.sweep_dialog import SweepDialog
from robust_subspace_lab.core import sweep_io
from robust_subspace_lab.core.session.spec import CorruptionSpec, DataSpec

DATA = DataSpec(size=(20, 20))


@pytest.fixture
def dialog(qtbot):
    dlg = SweepDialog(DATA, CorruptionSpec("rectangles"), methods=("pca", "pca-gm"))
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def test_dialog_runs_a_tiny_sweep_into_the_browser(dialog, qtbot):
    dialog.set_grid_text("p", "0.2, 1.0")
    dialog.set_grid_text("max_iter", "20")
    dialog.seeds_spin.setValue(2)
    assert dialog.start()
    qtbot.waitUntil(lambda: not dialog.running and dialog.browser.model.rowCount() == 6, timeout=30000)
    assert dialog.progress.value() == dialog.progress.maximum() == 6
    assert dialog.status.text().startswith("done: 6 runs")
    b = dialog.browser
    assert "p" in b.model.columns and "reconstruction_error" in b.model.columns
    qtbot.waitUntil(lambda: set(b.lines) == {"pca", "pca-gm"})     # one line per method
    assert b.metric_combo.currentData() == "reconstruction_error" and b.param_combo.currentData() == "p"
    assert b.metric_combo.currentText() == "eq. 14 error (000)"          # the window's name of the metric
    # the PCA-GM line: the mean over the 2 seeds at p = 0.2 and 1.0 (core.sweep.aggregate)
    x, y = b.lines["pca-gm"].getData()
    agg = sweep_io.aggregate(b.rows, "p", "reconstruction_error")["pca-gm"]
    assert list(x) == [0.2, 1.0] and list(y) == pytest.approx(list(agg["mean"]))


def test_bad_grid_value_is_named_and_nothing_runs(dialog):
    dialog.set_grid_text("p", "0.5, 2")
    assert not dialog.start()
    assert "p" in dialog.last_error and not dialog.running
    assert dialog.browser.model.rowCount() == 0


def test_cancel_stops_the_sweep_and_keeps_the_finished_runs(dialog, qtbot):
    dialog.set_methods(["pca-gm"])
    dialog.set_grid_text("p", "0.1, 0.3, 0.5, 0.7, 0.9")
    dialog.seeds_spin.setValue(30)                                  # 150 runs (seconds of work)
    qtbot.mouseClick(dialog.run_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dialog.browser.model.rowCount() >= 2, timeout=30000)
    # a running sweep keeps the app lively (no full collection at the window's rest lands in it)
    assert dialog.running and memory._lively.is_set() and dialog._lively in memory._sources
    qtbot.mouseClick(dialog.cancel_button, QtCore.Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not dialog.running, timeout=30000)
    assert dialog._lively not in memory._sources
    n = dialog.browser.model.rowCount()
    assert 2 <= n < 150
    assert dialog.status.text().startswith(f"cancelled: {n} of 150")
    assert dialog.run_button.isEnabled() and not dialog.cancel_button.isEnabled()


def test_browser_sorts_numbers_filters_and_opens_a_run(qtbot, tmp_path):
    rows = [{"method": m, "p": p, "seed": s, "n_iter": 3, "converged": True, "seconds": 0.1,
             "reconstruction_error": float(e), "error": ""}
            for (m, p, s, e) in [("pca-gm", 0.5, 1, 10), ("pca-gm", 0.5, 2, 9), ("rpca-om", None, 1, 100),
                                 ("pca-gm", 1.0, 1, 2)]]
    b = ResultsBrowser()
    qtbot.addWidget(b)
    b.set_rows(rows, swept=["p"])
    col = b.model.columns.index("reconstruction_error")
    b.table.sortByColumn(col, QtCore.Qt.SortOrder.AscendingOrder)
    values = [b.proxy.index(i, col).data(SORT_ROLE) for i in range(b.proxy.rowCount())]
    assert values == [2.0, 9.0, 10.0, 100.0]                       # numerically, not as text
    b.filter_edit.setText("RPCA")
    assert b.proxy.rowCount() == 1
    b.filter_edit.setText("")
    # rpca-om has no p: a flat baseline at its mean; pca-gm: the means over the seeds
    b.redraw()
    assert set(b.lines) == {"pca-gm", "rpca-om"}
    assert list(b.lines["pca-gm"].getData()[1]) == [9.5, 2.0]
    assert list(b.lines["rpca-om"].getData()[1]) == [100.0, 100.0]
    with qtbot.waitSignal(b.open_run_requested) as blocker:
        b.table.doubleClicked.emit(b.proxy.index(0, 0))
    assert blocker.args[0]["reconstruction_error"] == 2.0
    b.export_csv(str(tmp_path / "out.csv"))
    back = sweep_io.read_csv(tmp_path / "out.csv")
    assert [r["reconstruction_error"] for r in back] == [10.0, 9.0, 100.0, 2.0]


def test_a_new_run_updates_the_plot_in_place_until_its_lines_change(qtbot):
    """Runs arriving one by one: the same line items take the new means (a new seed, a new p);
    the items are built again only when a line appears or gains error bars, and then show
    what a full redraw would."""
    def row(m, p, s, e):
        return {"method": m, "p": p, "seed": s, "n_iter": 3, "converged": True, "seconds": 0.1,
                "reconstruction_error": float(e), "error": ""}

    b = ResultsBrowser()
    qtbot.addWidget(b)
    b.set_rows([row("pca-gm", 0.5, 1, 10)], swept=["p"])
    line = b.lines["pca-gm"]
    b.add_row(row("pca-gm", 1.0, 1, 4))
    b.redraw()
    assert b.lines["pca-gm"] is line                          # updated, not rebuilt
    assert list(line.getData()[0]) == [0.5, 1.0] and list(line.getData()[1]) == [10.0, 4.0]
    b.add_row(row("pca-gm", 0.5, 2, 8))                       # a second seed: error bars appear
    b.redraw()
    assert b.lines["pca-gm"] is not line
    assert list(b.lines["pca-gm"].getData()[1]) == [9.0, 4.0]
    bars = b._errors["pca-gm"]
    b.add_row(row("pca-gm", 1.0, 2, 6))
    b.redraw()
    assert b._errors["pca-gm"] is bars and list(b.lines["pca-gm"].getData()[1]) == [9.0, 5.0]
    assert list(bars.opts["height"]) == [2.0, 2.0]            # 2 × sd of (10, 8) and of (4, 6)
    b.add_row(row("rpca-om", None, 1, 100))                   # a baseline appears
    b.redraw()
    assert set(b.lines) == {"pca-gm", "rpca-om"}
    assert list(b.lines["rpca-om"].getData()[1]) == [100.0, 100.0]


def test_tools_sweep_opens_the_dialog_with_the_windows_data_and_methods(make_window, qtbot):
    """Tools ▸ Sweep… opens the sweep dialog filled in with the data, corruption and methods of
    that moment (changed since the window opened), and the sweep it builds is on them."""
    win = make_window(methods=("pca",), size=(20, 20))
    assert win.subspace.set_corruption("salt_pepper")
    win.subspace.add_column("hq-pca")
    qtbot.waitUntil(lambda: not win.busy, timeout=30000)
    dlg = win.open_sweep()
    assert isinstance(dlg, SweepDialog) and dlg.isVisible()
    assert dlg.checked_methods() == ["pca", "hq-pca"]
    assert "salt_pepper" in dlg.what_label.text() and "20×20" in dlg.what_label.text()
    sweep = dlg.build_sweep()
    assert sweep.corruption == win.session.corruption and sweep.data == win.session.data
    assert {m.key for m in sweep.methods} == {"pca", "hq-pca"}
    dlg.close()


def test_a_destroyed_dialog_leaves_the_app_idle(qtbot):
    """The dialog's share of the app's liveliness goes with it, even if its thread's end never
    reached it (else an idle window would keep the collector's timer running)."""
    import shiboken6

    dlg = SweepDialog(DATA, CorruptionSpec("rectangles"))
    token = dlg._lively
    memory.set_lively(True, token)              # as start() does
    assert token in memory._sources
    shiboken6.delete(dlg)
    assert token not in memory._sources
