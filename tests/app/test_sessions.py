"""Sessions (issue 14, point 4): File ▸ Save session / Open session, the command line's
``--save-session`` / ``--session``, refusal of broken and newer files, atomic writes, autosave."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from robust_subspace_lab.core.session import storage


def _metrics_lines(out: str) -> list[dict]:
    return [json.loads(line[len("metrics "):]) for line in out.splitlines() if line.startswith("metrics ")]


def _cli(tmp_path, *args):
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    proc = subprocess.run([sys.executable, "-P", "-m", "robust_subspace_lab", *args, "--print-metrics"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return _metrics_lines(proc.stdout)


@pytest.mark.slow          # two runs of the command line in processes of their own (~8 s); CI's second run has it
def test_cli_round_trip_restores_data_corruption_methods_and_iteration(tmp_path):
    """The issue's "done when": a session saved after 3 steps, opened in a new process, shows the
    same methods, parameters, iteration and metrics (the states are recomputed from the seeds)."""
    first = _cli(tmp_path, "--screenshot", "a.png", "--steps", "3", "--save-session", "s.rsl",
                 "--size", "24x24", "--methods", "pca,pca-gm", "--corruption", "salt_pepper")
    assert (tmp_path / "s.rsl").is_file()
    second = _cli(tmp_path, "--session", "s.rsl", "--screenshot", "b.png")
    assert [r["iteration"] for r in first] == [0, 3]          # PCA is solved at 0: Step does not count on
    assert [(r["method"], r["params"], r["iteration"]) for r in second] == \
        [(r["method"], r["params"], r["iteration"]) for r in first]
    for a, b in zip(first, second):
        assert a["metrics"].keys() == b["metrics"].keys() and a["metrics"]
        for k in a["metrics"]:
            assert b["metrics"][k] == pytest.approx(a["metrics"][k], rel=1e-9), k


def test_open_restores_changed_parameters_and_corruption_in_process(make_window, qtbot, tmp_path):
    win = make_window(methods=("pca-gm",), size=(24, 24))
    assert win.subspace.set_corruption("salt_pepper", {"fraction": 0.2, "seed": 7})
    win.subspace.columns[0].runner.set_params({"p": 0.7})
    qtbot.waitUntil(lambda: not win.busy and bool(win.subspace.columns[0].runner.states), timeout=15000)
    win.step_all(2)
    qtbot.waitUntil(lambda: not win.busy and win.subspace.columns[0].runner.iteration == 2, timeout=15000)
    saved_X = np.array(win.subspace.data.X)
    path = tmp_path / "s.rsl"
    assert win.save_session(path)
    assert [p.name for p in tmp_path.iterdir()] == ["s.rsl"]        # atomic: no temporary file left

    other = make_window(methods=("pca", "rpca-om"))
    assert other.open_session(path, interactive=False), other.session_error
    assert [c.key for c in other.subspace.columns] == ["pca-gm"]
    col = other.subspace.columns[0]
    assert col.runner.params["p"] == 0.7 and col.runner.iteration == 2
    assert other.subspace.corruption_key == "salt_pepper" and other.subspace.corruption_params["seed"] == 7
    assert np.array_equal(other.subspace.data.X, saved_X)
    a = win.subspace.columns[0].runner.snapshot().metrics
    b = col.runner.snapshot().metrics
    assert a.keys() == b.keys() and all(np.isclose(float(a[k]), float(b[k])) for k in a)


def _newer(path):
    text = json.dumps({"format": storage.FORMAT, "version": storage.FORMAT_VERSION + 1,
                       "app_version": "99.0", "session": {}})
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("session.json", text)


@pytest.mark.parametrize("kind", ["garbage", "truncated", "newer", "bad-method", "bad-parameter"])
def test_a_broken_or_newer_session_file_is_refused_and_nothing_changes(make_window, tmp_path, kind):
    win = make_window(methods=("pca",), size=(24, 24))
    path = tmp_path / "bad.rsl"
    if kind == "garbage":
        path.write_bytes(b"not a session at all")
    elif kind == "newer":
        _newer(path)
    else:
        assert win.save_session(path)
        if kind == "truncated":
            path.write_bytes(path.read_bytes()[:40])
        else:
            payload, _ = storage.read_session_file(path)
            column = next(r for r in payload["session"]["runs"] if r["task"] == "subspace")
            if kind == "bad-method":
                column["method"] = "no-such-method"
            else:
                column["params"]["n_components"] = -3
            storage.write_session_file(path, payload)
    before = (json.dumps(win.session.to_dict(), sort_keys=True), [c.key for c in win.subspace.columns],
              win.subspace.columns[0].runner.iteration, win.subspace.data)
    assert not win.open_session(path)
    assert win.session_error
    if kind == "newer":
        assert "newer version" in win.session_error
    assert win.session_box.isVisible() and win.session_box.text() == win.session_error
    after = (json.dumps(win.session.to_dict(), sort_keys=True), [c.key for c in win.subspace.columns],
             win.subspace.columns[0].runner.iteration, win.subspace.data)
    assert after == before


def test_autosave_is_written_recovered_and_removed_on_a_clean_exit(make_window, qtbot, tmp_path, monkeypatch):
    target = tmp_path / "state" / "autosave.rsl"
    monkeypatch.setenv("ROBUST_SUBSPACE_LAB_AUTOSAVE", str(target))
    win = make_window(methods=("pca-gm",), size=(24, 24), autosave=True)
    assert win.recover_box is None                     # nothing to recover
    win.subspace.columns[0].runner.set_params({"p": 0.6})
    qtbot.waitUntil(lambda: not win.busy and bool(win.subspace.columns[0].runner.states), timeout=15000)
    assert win.autosave() and target.is_file()
    assert not win.autosave()                          # unchanged: not written again
    crashed = target.read_bytes()

    win.close()                                        # a clean exit removes it
    assert not target.exists()
    target.write_bytes(crashed)                        # as a crash would have left it

    new = make_window(methods=("pca",), autosave=True)
    assert new.recover_box is not None and new.recover_box.isVisible()
    new.recover_button.click()
    qtbot.waitUntil(lambda: not new.busy and [c.key for c in new.subspace.columns] == ["pca-gm"], timeout=15000)
    assert new.subspace.columns[0].runner.params["p"] == 0.6


def test_tools_sweep_cancelled_halfway_saves_its_rows_and_opens_a_run_as_a_column(make_window, qtbot, tmp_path):
    """Tools ▸ Sweep… on the window's data with its columns' methods; Cancel halfway keeps the
    finished rows, the session saves them, and a row opens as a new column at the run's
    iteration with the run's parameters, on the data re-drawn from its seed."""
    from robust_subspace_lab.core import sweep as core_sweep

    win = make_window(methods=("pca-gm",), size=(20, 20))
    titles = [a.text().replace("&", "") for a in win.menuBar().actions()]
    assert "Tools" in titles
    dlg = win.open_sweep()
    assert dlg.browser is not None
    dlg.set_grid_text("p", "0.1, 0.3, 0.5, 0.7, 0.9")
    dlg.set_grid_text("max_iter", "6")
    dlg.seeds_spin.setValue(30)                                     # 150 runs: cancelled long before
    assert dlg.start()
    qtbot.waitUntil(lambda: dlg.browser.model.rowCount() >= 2, timeout=30000)
    dlg.cancel_button.click()
    qtbot.waitUntil(lambda: not dlg.running, timeout=30000)
    n = dlg.browser.model.rowCount()
    assert 2 <= n < 150
    path = tmp_path / "s.rsl"
    assert win.save_session(path)
    payload, _ = storage.read_session_file(path)
    assert len(payload["sweep"]) == n

    other = make_window(methods=("pca",), size=(20, 20))            # the results come back with the session
    assert other.open_session(path, interactive=False), other.session_error
    dlg2 = other.open_sweep()
    assert dlg2.browser.model.rowCount() == n and dlg2.browser.sweep is not None
    assert dlg2.browser.sweep.task_for(dlg2.browser.model.row(1)) == dlg.browser.sweep.task_for(dlg.browser.model.row(1))

    row = dlg.browser.model.row(1)
    before = win.subspace.data
    dlg.browser.open_run_requested.emit(row)
    qtbot.waitUntil(lambda: len(win.subspace.columns) == 2 and not win.busy, timeout=30000)
    qtbot.waitUntil(lambda: win.subspace.columns[1].runner.iteration == int(row["n_iter"]) and not win.busy,
                    timeout=30000)
    col = win.subspace.columns[1]
    task = dlg.browser.sweep.task_for(row)
    assert col.key == "pca-gm" and col.runner.params["p"] == pytest.approx(row["p"])
    data, states = core_sweep.replay(task)
    assert np.array_equal(col.runner.data.X, data.X)          # the run's own corruption seed
    assert win.subspace.data is before and win.subspace.columns[0].runner.data is before   # the window's stays
    assert col.runner.states[-1].objective == pytest.approx(states[-1].objective, rel=1e-9)


def test_a_folder_session_is_checked_by_content_hash(make_window, qtbot, tmp_path):
    """A folder is saved by path and content hash: unchanged it opens silently; changed, it
    opens with a warning that names the folder."""
    from skimage.io import imsave

    folder = tmp_path / "imgs"
    folder.mkdir()
    rng = np.random.default_rng(0)
    for i in range(12):
        imsave(folder / f"img{i:02d}.png", rng.integers(0, 256, size=(16, 16), dtype=np.uint8),
               check_contrast=False)
    win = make_window(methods=("pca",), folder=str(folder))
    assert win.session.data.kind == "folder"
    path = tmp_path / "s.rsl"
    assert win.save_session(path)
    payload, _ = storage.read_session_file(path)
    assert payload["folder_hash"] == storage.folder_hash(folder)

    other = make_window(methods=("pca",), size=(16, 16))
    assert other.open_session(path) and other.session.data.name == str(folder)
    assert other.session_box is None or not other.session_box.isVisible()
    imsave(folder / "img00.png", np.zeros((16, 16), dtype=np.uint8), check_contrast=False)
    assert other.open_session(path)
    assert other.session_box.isVisible() and "changed" in other.session_box.text()


def _open_tab(qtbot, win, title: str) -> None:
    """Click the tab titled ``title``, as a person does."""
    from PySide6 import QtCore

    bar = win.tabs.tabBar()
    i = next(i for i in range(bar.count()) if bar.tabText(i) == title)
    qtbot.mouseClick(bar, QtCore.Qt.LeftButton, pos=bar.tabRect(i).center())
    assert win.tabs.currentIndex() == i


def _settled(ws, iteration: int) -> bool:
    """The regression solver is idle at ``iteration`` and the tab shows that state."""
    return (not ws.busy and ws.runner.iteration == iteration and ws.shown_snapshot is not None
            and ws.shown_snapshot.iteration == iteration)


def test_a_session_saved_with_a_regression_run_reopens_with_it(make_window, qtbot, tmp_path):
    """Issue 31's "done when": the Regression tab's data choice, method, parameters, run and
    test-time cleaning are saved with the session and come back in a new window (read by Session.from_dict), the same
    result shown; the subspace columns come back beside it."""
    from PySide6 import QtCore

    win = make_window(methods=("pca",), size=(16, 16))
    _open_tab(qtbot, win, "Regression")
    ws = win.regression
    qtbot.waitUntil(lambda: _settled(ws, 0), timeout=20000)
    ws.options_group().child("noise").setValue(0.5)            # the data option, as typed in its tree
    qtbot.waitUntil(lambda: ws.choice.values()["noise"] == 0.5 and _settled(ws, 0), timeout=20000)
    ws.method_group().child("lam_scale").setValue(0.3)               # and a parameter of RR
    qtbot.waitUntil(lambda: ws.runner.params["lam_scale"] == 0.3 and _settled(ws, 0), timeout=20000)
    for _ in range(4):
        qtbot.mouseClick(win.step_button, QtCore.Qt.LeftButton)
    qtbot.waitUntil(lambda: _settled(ws, 4), timeout=20000)
    ws.test_checkbox.click()                                   # test-time cleaning on, as a user does
    qtbot.waitUntil(lambda: ws.test_mode_shown == "clean" and not ws.busy, timeout=20000)
    shown = (ws.iteration_label.text(), ws.test_metrics.text())
    metrics = dict(ws.shown_snapshot.metrics)
    path = tmp_path / "s.rsl"
    assert win.save_session(path)

    other = make_window(methods=("pca-gm", "pca"), size=(24, 24))
    assert other.open_session(path, interactive=False), other.session_error
    assert [c.key for c in other.subspace.columns] == ["pca"] and other.session.data.size == (16, 16)
    _open_tab(qtbot, other, "Regression")
    again = other.regression
    qtbot.waitUntil(lambda: _settled(again, 4), timeout=20000)
    assert again.choice == ws.choice and again.method_info.key == "rr"
    assert again.runner.params == ws.runner.params and again.method_group().child("lam_scale").value() == 0.3
    assert again.test_checkbox.isChecked() and other.session.test_cleaning
    qtbot.waitUntil(lambda: again.test_mode_shown == "clean" and not again.busy, timeout=20000)
    assert (again.iteration_label.text(), again.test_metrics.text()) == shown and "iteration 4" in shown[0]
    assert again.shown_snapshot.metrics.keys() == metrics.keys() and metrics
    for k, v in metrics.items():
        assert again.shown_snapshot.metrics[k] == pytest.approx(v, rel=1e-9), k
