"""The main window, driven the way a user drives it (buttons, combos, parameter controls)."""
from __future__ import annotations


import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, views
from robust_subspace_lab.core.errors import SolverError
from robust_subspace_lab.core.session import FOLDER

LEFT = QtCore.Qt.LeftButton
WAIT = 15000  # ms; generous upper bound, the waits usually end in a few ms


def click(qtbot, button):
    assert button.isEnabled(), f"{button.text()} is disabled"
    qtbot.mouseClick(button, LEFT)


def wait_drawn(qtbot, col, iteration):
    """Until the column's views show ``iteration`` (the frame timer draws within ~33 ms)."""
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == iteration,
                    timeout=WAIT)


def assert_views_show(col, data, index):
    """Every view of ``col`` was set from the snapshot of the stored state ``index``."""
    state = col.runner.states[index]
    assert state.iteration == index
    snap = views.snapshot(state, data)
    # objective curve: one point per iteration 0..index
    x, y = col.objective_view.curve.getData()
    assert len(x) == index + 1 and list(x) == list(range(index + 1))
    np.testing.assert_allclose(y, [s.objective for s in col.runner.states[: index + 1]])
    # labels
    assert f"iteration {index}" in col.iteration_label.text()
    assert f"{snap.error:.4g}" in col.error_label.text()
    # weight bars
    wv = col.weights_view
    np.testing.assert_allclose(wv.drawn_weights(), snap.sample_weights, rtol=1e-12)
    np.testing.assert_array_equal(wv.drawn_outliers(), np.flatnonzero(snap.outliers))   # drawn red
    assert wv.corrupted_bars.opts["brush"].color().name() != wv.clean_bars.opts["brush"].color().name()
    # basis images (at least 10)
    assert len(snap.basis) == min(10, state.components.shape[0])
    for i, b in enumerate(snap.basis):
        np.testing.assert_allclose(col.basis_view.items[i].image, b)
    # clean | corrupted | reconstruction | residual of 3 samples
    assert snap.rows.shape[:2] == (3, 4)
    for r in range(3):
        for c in range(4):
            np.testing.assert_allclose(col.recon_view.item(r, c).image, snap.rows[r, c])


def test_opens_on_builtin_faces_with_pca_and_pca_gm(make_window):
    win = make_window()
    assert win.windowTitle() == "Robust Subspace Lab"
    assert win.subspace.data.n_samples == 100 and win.subspace.imageset.shape == (25, 25)
    assert int(win.subspace.data.outliers.sum()) == 20               # 20 % occluded
    assert [c.key for c in win.subspace.columns] == ["pca", "pca-gm"]
    assert [c.method_combo.currentText() for c in win.subspace.columns] == ["PCA", "PCA-GM"]
    for c in win.subspace.columns:
        assert c.runner.iteration == 0
    # titles the user reads
    col = win.subspace.columns[0]
    assert col.weights_view.getPlotItem().titleLabel.text.startswith("Sample weights, log scale (red: corrupted)")
    assert "Objective" in col.objective_view.getPlotItem().titleLabel.text
    assert "Basis images" in col.basis_view.title.text
    assert col.recon_view.title.text == "clean | corrupted | reconstruction | residual"


def test_three_steps_then_reset(qtbot, make_window):
    win = make_window()
    for _ in range(3):
        click(qtbot, win.step_button)
    pca, gm = win.subspace.columns
    qtbot.waitUntil(lambda: gm.runner.iteration == 3 and not win.busy, timeout=WAIT)
    wait_drawn(qtbot, gm, 3)
    assert [s.iteration for s in gm.runner.states] == [0, 1, 2, 3]
    assert_views_show(gm, win.subspace.data, 3)
    assert "3 / 3 (live)" in gm.scrub_label.text()
    # PCA is solved at iteration 0 (converged): Step does not count on
    assert [s.iteration for s in pca.runner.states] == [0] and pca.runner.finished

    click(qtbot, win.reset_button)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 0 for c in win.subspace.columns), timeout=WAIT)
    for col in win.subspace.columns:
        wait_drawn(qtbot, col, 0)
        assert_views_show(col, win.subspace.data, 0)


def test_scrubber_goes_back_and_follows_live_again(qtbot, make_window):
    win = make_window()
    win.step_all(3)
    col = win.subspace.columns[1]
    qtbot.waitUntil(lambda: col.runner.iteration == 3 and not win.busy, timeout=WAIT)
    wait_drawn(qtbot, col, 3)
    col.scrubber.setValue(1)                      # the user drags the scrubber back
    wait_drawn(qtbot, col, 1)
    assert_views_show(col, win.subspace.data, 1)
    assert "(past)" in col.scrub_label.text()
    click(qtbot, win.step_button)                 # stepping jumps back to the live end
    qtbot.waitUntil(lambda: col.runner.iteration == 4, timeout=WAIT)
    wait_drawn(qtbot, col, 4)
    assert col.scrubber.value() == 4


def test_run_on_a_column_showing_its_newest_state_redraws_its_texts_not_its_views(qtbot, make_window):
    """Run and Step make every column follow the solver: one that shows the newest state already
    only redraws its texts (a whole frame took the core the first step needed); one scrubbed
    back draws the newest state."""
    win = make_window()
    col = win.subspace.columns[1]
    win.redraw_now()
    col.iteration_label.setText("stale")
    col.follow_live()
    assert col.iteration_label.text().startswith("iteration 0") and not col.refresh()
    win.step_all(2)
    qtbot.waitUntil(lambda: col.runner.iteration == 2 and not win.busy, timeout=WAIT)
    wait_drawn(qtbot, col, 2)
    col.scrubber.setValue(0)
    wait_drawn(qtbot, col, 0)
    col.follow_live()
    assert col.refresh(force=False) and col.scrubber.value() == 2
    wait_drawn(qtbot, col, 2)


def test_run_pause_then_run_to_convergence(qtbot, make_window):
    win = make_window(speed="10 it/s")
    col = win.subspace.columns[1]                           # PCA-GM: iterates (PCA is done at iteration 0)
    # 60 iterations at 10 it/s: a loaded machine's late checks still see it running
    col.runner.set_params({"tol": 1e-12, "max_iter": 60})
    qtbot.waitUntil(lambda: col.runner.params["max_iter"] == 60 and not win.busy, timeout=WAIT)
    click(qtbot, win.run_button)
    qtbot.waitUntil(lambda: col.runner.iteration >= 2, timeout=WAIT)
    assert win.pause_button.isEnabled()
    click(qtbot, win.pause_button)
    stopped_at = col.runner.iteration
    assert not col.runner.finished, "finished before Pause; the test needs a slower speed"
    assert not win.running
    qtbot.wait(400)                                # at 10 it/s, 4 more iterations would have come
    assert col.runner.iteration == stopped_at
    assert not win.pause_button.isEnabled() and win.step_button.isEnabled()

    win.speed_combo.setCurrentIndex(win.speed_combo.findText("max"))
    click(qtbot, win.run_button)
    qtbot.waitUntil(lambda: col.runner.finished and not win.busy, timeout=WAIT)
    states = col.runner.states
    assert [s.iteration for s in states] == list(range(len(states)))
    assert col.runner.estimator.finished(states[-1])
    wait_drawn(qtbot, col, states[-1].iteration)
    assert_views_show(col, win.subspace.data, states[-1].iteration)


def test_choose_rpca_om_in_a_column(qtbot, make_window):
    win = make_window()
    col = win.subspace.columns[0]
    combo = col.method_combo
    # every method of the catalogue, grouped by family under disabled header items
    keys = [combo.itemData(i) for i in range(combo.count())]
    assert sorted(k for k in keys if k is not None) == sorted(m.key for m in catalogue.methods())
    headers = [combo.itemText(i) for i in range(combo.count()) if keys[i] is None]
    assert headers == list(dict.fromkeys(m.family for m in catalogue.methods()))
    for i, k in enumerate(keys):
        if k is not None:
            info = catalogue.get(k)
            assert combo.itemData(i, QtCore.Qt.ToolTipRole).startswith(info.summary)
            family_row = max(j for j in range(i) if keys[j] is None)
            assert combo.itemText(family_row) == info.family
        else:
            assert not combo.model().item(i).isEnabled()
    combo.setCurrentIndex(combo.findData("rpca-om"))
    qtbot.waitUntil(lambda: col.runner.key == "rpca-om" and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    assert col.runner.states[0].method == "RPCA-OM" and col.runner.iteration == 0
    names = [c.name() for c in col.param_group().children()]
    assert names == [s.name for s in catalogue.get("rpca-om").params]
    click(qtbot, win.step_button)
    qtbot.waitUntil(lambda: col.runner.iteration == 1 and win.subspace.columns[1].runner.iteration == 1, timeout=WAIT)
    wait_drawn(qtbot, col, 1)
    assert_views_show(col, win.subspace.data, 1)


def test_parameter_change_resets_the_column(qtbot, make_window):
    win = make_window()
    col = win.subspace.columns[1]
    win.step_all(2)
    qtbot.waitUntil(lambda: col.runner.iteration == 2 and not win.busy, timeout=WAIT)
    col.param_group().child("p").setValue(0.5)
    qtbot.waitUntil(lambda: col.runner.params["p"] == 0.5 and col.runner.iteration == 0 and not win.busy,
                    timeout=WAIT)
    assert col.runner.states[0].scalars["p"] == 0.5
    assert col._slider is not None and col._slider.value_label.text() == "0.5"


def test_invalid_parameter_shows_a_message_and_keeps_the_estimator(qtbot, make_window):
    win = make_window()
    col = win.subspace.columns[1]
    before = list(col.runner.states)
    col.param_group().child("n_components").setValue(100)      # k >= min(n_samples, n_features)
    qtbot.waitUntil(lambda: col.message_label.isVisible(), timeout=WAIT)
    text = col.message_label.text()
    assert "n_components" in text
    assert "n_components" in win.statusBar().currentMessage()
    # nothing lost: same method, same parameters, same states, control shows the kept value
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert col.runner.key == "pca-gm" and col.runner.params["n_components"] == 5   # the lesson's k
    assert col.runner.states == before
    assert col.param_group().child("n_components").value() == 5
    # the column still works
    click(qtbot, win.step_button)
    qtbot.waitUntil(lambda: col.runner.iteration == 1, timeout=WAIT)

    # a value outside the ParamSpec range is refused at once, naming the parameter
    col.param_group().child("p").setValue(0.0)
    col.apply_params()
    assert "p" in col.message_label.text() and "(0, 1]" in col.message_label.text()
    assert col.runner.params["p"] == 0.3


def test_solver_error_in_worker_is_shown(qtbot, make_window):
    win = make_window()
    col = win.subspace.columns[1]

    def broken_step(state):
        raise SolverError("PCA-GM", 1, "the objective is nan (not finite)")

    col.runner.estimator.step = broken_step
    click(qtbot, win.step_button)
    qtbot.waitUntil(lambda: col.message_label.isVisible() and not win.busy, timeout=WAIT)
    assert "diverged at iteration 1" in col.message_label.text()
    assert "PCA-GM" in win.statusBar().currentMessage()
    assert col.runner.iteration == 0                 # the state before the failure is kept
    # the column's status line says why the run stopped
    qtbot.waitUntil(lambda: "diverged at iteration 1: the objective is nan" in col.iteration_label.text(),
                    timeout=WAIT)
    assert not win.subspace.columns[0].runner.error            # the other column (PCA, solved at 0) unharmed


def test_corruption_controls(qtbot, make_window):
    win = make_window()
    panel = win.subspace.data_panel
    combo = panel.corruption_combo
    combo.setCurrentIndex(combo.findData("salt_pepper"))
    qtbot.waitUntil(lambda: win.subspace.corruption_key == "salt_pepper" and not win.busy, timeout=WAIT)
    assert win.subspace.data.description.startswith("salt")
    assert [c.name() for c in panel.corruption_group().children()] == ["fraction", "density", "seed"]
    assert all(c.runner.iteration == 0 and c.runner.data is win.subspace.data for c in win.subspace.columns)

    data = win.subspace.data
    panel.corruption_group().child("density").setValue(0.25)
    qtbot.waitUntil(lambda: win.subspace.corruption_params["density"] == 0.25 and not win.busy, timeout=WAIT)
    assert win.subspace.data is not data

    # an impossible combination is refused, the data kept
    combo.setCurrentIndex(combo.findData("rectangles"))
    qtbot.waitUntil(lambda: win.subspace.corruption_key == "rectangles", timeout=WAIT)
    data = win.subspace.data
    panel.corruption_group().child("size_min").setValue(0.9)
    panel.apply_corruption()
    assert "size_min" in panel.message_label.text() and panel.message_label.isVisible()
    assert win.subspace.data is data

    # corruptions that remove entries (NaN) are only for missing-data methods, not offered here
    offered = {combo.itemData(i) for i in range(combo.count())}
    assert "missing_blocks" not in offered and {"laplace", "value_block", "black_square"} <= offered


def _write_folder(path, n=12):
    from skimage.io import imsave

    rng = np.random.default_rng(0)
    path.mkdir(parents=True, exist_ok=True)
    for i in range(n):
        imsave(path / f"img{i:02d}.png", rng.integers(0, 256, size=(16, 16), dtype=np.uint8),
               check_contrast=False)
    (path / "broken.png").write_bytes(b"this is not a png at all")
    return path


def test_open_folder_reports_skipped_file(qtbot, make_window, tmp_path, monkeypatch):
    folder = _write_folder(tmp_path / "imgs")
    win = make_window()
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    click(qtbot, win.subspace.data_panel.open_button)         # "Open folder…" in the Data panel
    assert win.subspace.data.n_samples == 12 and win.subspace.imageset.shape == (16, 16)
    assert [p for p, _ in win.subspace.imageset.skipped] == ["broken.png"]
    panel = win.subspace.data_panel
    assert panel.skipped_label.isVisible() and "broken.png" in panel.skipped_label.text()
    assert "broken.png" in win.statusBar().currentMessage()
    box = win.subspace._skipped_box
    assert box is not None and "broken.png" in box.detailedText()
    qtbot.waitUntil(lambda: all(c.runner.states and c.runner.states[0].components.shape[1] == 256
                                for c in win.subspace.columns) and not win.busy, timeout=WAIT)
    assert all(c.runner.iteration == 0 for c in win.subspace.columns)
    assert panel.source_combo.currentText().startswith("Folder")

    # a folder with nothing readable: message, previous data kept
    bad = tmp_path / "nothing"
    bad.mkdir()
    (bad / "a.png").write_bytes(b"garbage")
    data = win.subspace.data
    assert not win.subspace.open_folder(bad)
    assert win.subspace.data is data
    assert "a.png" in panel.message_label.text() and panel.message_label.isVisible()


def test_folder_option_and_image_size(qtbot, make_window, tmp_path):
    folder = _write_folder(tmp_path / "imgs")
    win = make_window(folder=str(folder))
    assert win.subspace.data.n_samples == 12
    win.subspace.set_image_size((8, 8))
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert win.subspace.imageset.shape == (8, 8)
    assert win.subspace.data_panel.size_combo.currentData() == (8, 8)
    # the size offered in the panel is used as is; reopening the folder does not add entries
    panel = win.subspace.data_panel
    n_sizes, n_sources = panel.size_combo.count(), panel.source_combo.count()
    panel.size_combo.setCurrentIndex(panel.size_combo.findText("32 × 32 px"))
    panel.size_combo.activated.emit(panel.size_combo.currentIndex())
    assert win.subspace.imageset.shape == (32, 32) and win.subspace.source[1] == str(folder)
    # one key for a folder: the panel's entry and the session's data say core's DataSpec kind
    assert win.subspace.source == panel.source_combo.currentData() == (FOLDER, str(folder)) == ("folder", str(folder))
    assert win.subspace.open_folder(folder)
    assert (panel.size_combo.count(), panel.source_combo.count()) == (n_sizes, n_sources)
    # back to the built-in set, keeping the size
    assert panel.select_source("faces")
    assert win.subspace.data.n_samples == 100 and win.subspace.imageset.shape == (32, 32)


def test_close_while_running_stops_promptly(qtbot, make_window):
    win = make_window(speed="1 it/s")
    col = win.subspace.columns[1]
    col.param_group().child("tol").setValue(1e-12)       # keep iterating
    col.apply_params()
    qtbot.waitUntil(lambda: col.runner.params["tol"] == 1e-12 and not win.busy, timeout=WAIT)
    click(qtbot, win.run_button)
    qtbot.waitUntil(lambda: col.runner.iteration >= 1, timeout=WAIT)
    win.close()
    # close() cancels the jobs: no solver thread is left behind (no wall-clock assertion here:
    # tests/app/test_quit.py and benchmarks/bench_gui.py time the process's end)
    qtbot.waitUntil(lambda: win.pool.activeThreadCount() == 0, timeout=WAIT)


def test_add_and_remove_columns(qtbot, make_window):
    win = make_window()
    col = win.subspace.add_column("rpca-om")
    qtbot.waitUntil(lambda: bool(col.runner.states) and not win.busy, timeout=WAIT)
    assert len(win.subspace.columns) == 3
    win.step_all()
    qtbot.waitUntil(lambda: all(c.runner.iteration == 1 for c in win.subspace.columns[1:]), timeout=WAIT)
    assert win.subspace.columns[0].runner.iteration == 0         # PCA: solved at iteration 0, does not count on
    click(qtbot, col.close_button)
    assert len(win.subspace.columns) == 2 and col not in win.subspace.columns


def test_slider_can_drive_any_numeric_parameter(qtbot, make_window):
    """The column's slider drives the parameter chosen in the combo beside it (γ of Truncated
    Cauchy NMF here); moving it restarts the run with the new value, and the choice is kept per
    method."""
    win = make_window(methods=("tc-nmf",))
    col = win.subspace.columns[0]
    qtbot.waitUntil(lambda: bool(col.runner.states) and not win.busy, timeout=WAIT)
    combo = col.slider_combo
    from robust_subspace_lab.app import params as P
    # the default choice: the first linear float parameter (TC-NMF: the truncation floor c)
    assert combo.isVisibleTo(col) and combo.currentData() == P.main_spec(col.runner.info.params).name
    col.param_group().child("gamma_mode").setValue("fixed")
    combo.setCurrentIndex(combo.findData("gamma"))
    assert col._slider.spec.name == "gamma"
    col._slider.slider.setValue(col._slider.slider.maximum())
    hi = col._slider.hi
    qtbot.waitUntil(lambda: col.runner.params["gamma"] == pytest.approx(hi) and col.runner.states
                    and not win.busy, timeout=WAIT)
    assert col.runner.states[-1].scalars["γ"] == pytest.approx(hi)
    # another method and back: the slider still drives γ
    col.method_combo.setCurrentIndex(col.method_combo.findData("pca-gm"))
    qtbot.waitUntil(lambda: col.runner.key == "pca-gm" and not win.busy, timeout=WAIT)
    assert col._slider.spec.name == "p"
    col.method_combo.setCurrentIndex(col.method_combo.findData("tc-nmf"))
    qtbot.waitUntil(lambda: col.runner.key == "tc-nmf" and not win.busy, timeout=WAIT)
    assert col._slider.spec.name == "gamma"


def test_help_button_explains_what_the_column_shows(qtbot, make_window):
    """Each column's "?" shows the method's "what you are seeing" text (formula, weights, views)."""
    from robust_subspace_lab.core import guide
    win = make_window()
    col = win.subspace.columns[1]
    click(qtbot, col.help_button)
    box = col.help_box
    qtbot.waitUntil(box.isVisible, timeout=WAIT)
    assert "PCA-GM" in box.windowTitle() and guide.text("pca-gm") in box.informativeText()
    assert "βᵢ" in box.informativeText() and not box.isModal()
    box.close()


def test_help_menu_about_and_shortcuts(qtbot, make_window):
    win = make_window()
    about = win.show_about()
    assert "Generalized mean for robust principal component analysis" in about.text()
    assert "Robust Regression" in about.text()
    about.close()
    text = win.show_shortcuts().text()
    for line in ("Ctrl+Q: File ▸ Quit", "F5: Run ▸ Run", "F10: Run ▸ Step", "F6: Run ▸ Pause"):
        assert line in text, text


def test_ctrl_q_quits_on_every_platform(qtbot, make_window):
    """Ctrl+Q is bound explicitly (QKeySequence.Quit is empty on Windows)."""
    from PySide6 import QtGui
    win = make_window()
    assert QtGui.QKeySequence("Ctrl+Q") in win.quit_action.shortcuts()
    assert all(not k.isEmpty() for k in win.quit_action.shortcuts())
    assert win.quit_action.shortcutContext() == QtCore.Qt.ApplicationShortcut
    win.quit_action.trigger()
    qtbot.waitUntil(lambda: not win.isVisible(), timeout=WAIT)
    qtbot.waitUntil(lambda: win.pool.activeThreadCount() == 0, timeout=WAIT)


def test_opening_window_teaches_the_lesson(qtbot, make_window):
    """The window as it opens: after running to convergence, every metric shown under PCA-GM
    says it is closer to the clean faces than PCA, and the occluded faces weigh least."""
    win = make_window(speed="max")
    click(qtbot, win.run_button)
    qtbot.waitUntil(lambda: all(c.runner.finished for c in win.subspace.columns) and not win.busy, timeout=WAIT)
    pca, gm = (c.runner.snapshot(-1) for c in win.subspace.columns)
    assert (pca.method, gm.method) == ("PCA", "PCA-GM")
    for name in ("eq. 14 error (000)", "Σ‖xʳ−xᵒ‖ (001)", "mean angle to clean PCA (°)"):
        assert gm.metrics[name] < pca.metrics[name], name
    assert gm.metrics["weights AUC"] == 1.0                       # every occluded face weighs less
    qtbot.waitUntil(lambda: all("converged at iteration" in c.iteration_label.text() for c in win.subspace.columns),
                    timeout=WAIT)                                 # the next frame draws the status


# ---------------------------------------------------------------------- data work in the background
def test_loading_runs_in_the_background_with_progress_and_the_window_keeps_its_events(qtbot, make_window):
    """Resizing the 5,000 digits runs in a data job: while it runs, the GUI thread handles the
    job's progress reports (so its event loop turns), the progress bar and Cancel are shown, and
    the session and columns get the new data only when it has arrived."""
    win = make_window(methods=("pca",))
    old = win.subspace.data
    seen = []

    def on_progress(done, total, what):
        seen.append((done, total, what, win.data_jobs.busy, win.progress_bar.isVisible(),
                     win.cancel_button.isVisible(), win.subspace.data is old))

    win.data_jobs.progress.connect(on_progress)
    assert win.subspace.load_builtin("digits", size=(14, 14))
    assert seen and all(busy and bar and cancel and kept for _, _, _, busy, bar, cancel, kept in seen[:-1])
    assert any(what == "resizing" and total == 5000 for _, total, what, *_ in seen)
    assert win.subspace.data.X.shape == (5000, 14 * 14) and win.session.data.name == "digits"
    qtbot.waitUntil(lambda: not win.progress_bar.isVisible() and not win.data_jobs.busy, timeout=WAIT)
    qtbot.waitUntil(lambda: win.subspace.columns[0].runner.data is win.subspace.data and not win.busy, timeout=WAIT)


def test_cancel_keeps_the_data_and_a_newer_request_replaces_an_older_one(qtbot, make_window):
    win = make_window(methods=("pca",))
    old, old_spec = win.subspace.data, win.session.data

    def cancel_at_first_report(done, total, what):
        win.cancel_button.click()

    win.data_jobs.progress.connect(cancel_at_first_report)
    assert not win.subspace.load_builtin("digits", size=(14, 14))
    win.data_jobs.progress.disconnect(cancel_at_first_report)
    assert win.subspace.data is old and win.session.data == old_spec
    assert "cancelled" in win.last_error and "kept" in win.last_error

    results = []

    def newer_request(done, total, what):
        if not results:
            results.append("asked")
            results.append(win.subspace.load_builtin("faces", size=(10, 10)))

    win.data_jobs.progress.connect(newer_request)
    first = win.subspace.load_builtin("digits", size=(14, 14))
    win.data_jobs.progress.disconnect(newer_request)
    assert results == ["asked", True] and first is False
    assert win.subspace.data.X.shape == (100, 100) and win.session.data.name == "faces"
    qtbot.waitUntil(lambda: win.subspace.columns[0].runner.data is win.subspace.data and not win.busy, timeout=WAIT)
    # the window's session is the plain-data description of what it shows
    from robust_subspace_lab.core.session import Session
    back = Session.from_json(win.session.to_json())
    assert back.data.size == (10, 10) and back.corruption.key == win.subspace.corruption_key
    np.testing.assert_array_equal(back.build().X, win.subspace.data.X)
    assert [r.method for r in back.runs if r.task == "subspace"] == [c.key for c in win.subspace.columns]


def test_the_window_holds_no_branch_on_the_task_and_shows_workspaces_from_a_list():
    import inspect

    from robust_subspace_lab.app import main_window
    from robust_subspace_lab.app.workspace import Workspace

    source = inspect.getsource(main_window.MainWindow)
    assert "regression_shown" not in source and '== "regression"' not in source
    assert all(issubclass(cls, Workspace) for cls in main_window.WORKSPACES)


def test_a_status_message_cut_in_a_narrow_window_is_whole_once_the_window_is_wide(qtbot, make_window):
    """A workspace's message is cut ("…") where the permanent texts on the right begin; shown
    before the window had its size (at start: "Loaded 10…"), it was left cut. It is fitted again
    at each resize."""
    win = make_window()
    text = "Loaded 100 images from the folder: every file was read, none was skipped"
    win.resize(520, 700)
    qtbot.waitUntil(lambda: win.statusBar().width() <= 520)
    win.subspace.status.emit(text)
    cut = win.statusBar().currentMessage()
    assert cut.endswith("…") and cut != text
    win.resize(1600, 900)
    qtbot.waitUntil(lambda: win.statusBar().currentMessage() == text)
    # a later message of another part of the window (a save) is left as it is by a resize
    win.statusBar().showMessage("Saved the session to s.rsl", 10000)
    win.resize(1200, 800)
    qtbot.waitUntil(lambda: win.statusBar().width() <= 1200)
    assert win.statusBar().currentMessage() == "Saved the session to s.rsl"
