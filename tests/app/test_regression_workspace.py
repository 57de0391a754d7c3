"""The regression workspace (paper 004), driven as a person drives it: the Regression tab, the
data/corruption/method combos, parameter edits, the toolbar's Step, the Test section's checkbox."""
from __future__ import annotations


import numpy as np
import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core.regression.views import regression_snapshot

LEFT = QtCore.Qt.LeftButton
WAIT = 20000  # ms; generous upper bound


# ----------------------------------------------------------------------------- helpers
def click(qtbot, widget):
    assert widget.isEnabled(), f"{widget} is disabled"
    qtbot.mouseClick(widget, LEFT)


def open_tab(qtbot, win, title: str):
    bar = win.tabs.tabBar()
    i = next(i for i in range(bar.count()) if bar.tabText(i) == title)
    qtbot.mouseClick(bar, LEFT, pos=bar.tabRect(i).center())
    assert win.tabs.currentIndex() == i


def choose(combo: QtWidgets.QComboBox, data):
    """Pick the entry whose item data is ``data`` as the user does (index + activated)."""
    i = next(i for i in range(combo.count()) if combo.itemData(i) == data)
    combo.setCurrentIndex(i)
    combo.activated.emit(i)


def settle(qtbot, ws, iteration=None):
    """Until the solver is idle (at ``iteration``) and the views show its newest state."""
    qtbot.waitUntil(lambda: not ws.busy and ws.runner.states
                    and (iteration is None or ws.runner.iteration == iteration), timeout=WAIT)
    qtbot.waitUntil(lambda: ws.shown_snapshot is not None
                    and ws.shown_snapshot.iteration == ws.runner.iteration, timeout=WAIT)


def set_param(qtbot, group, name, value, ws, apply_timer):
    """Edit a value in a parameter tree and wait for the workspace's short apply delay."""
    group.child(name).setValue(value)
    qtbot.waitUntil(lambda: not apply_timer.isActive(), timeout=WAIT)


@pytest.fixture
def regression(qtbot, make_window):
    """A window with the Regression tab opened by a click (synthetic 3-D example, RR)."""
    win = make_window()
    open_tab(qtbot, win, "Regression")
    ws = win.regression
    settle(qtbot, ws, 0)
    return win, ws


def small_digits(qtbot, ws, per_class=12):
    """The built-in digits, few per class at 16 × 16 (quick to step and to clean)."""
    choose(ws.source_combo, "digits")
    settle(qtbot, ws, 0)
    group = ws.options_group()
    group.child("per_class").setValue(per_class)
    group.child("size").setValue("16×16")
    qtbot.waitUntil(lambda: ws.data is not None and ws.data.shape == (16, 16)
                    and int(ws.data.train.sum()) == 10 * per_class // 2, timeout=WAIT)
    settle(qtbot, ws, 0)


# ----------------------------------------------------------------------------- synthetic 3-D
def test_synthetic_rr_steps_and_draws_the_snapshot(qtbot, regression):
    win, ws = regression
    assert ws.data.description.startswith("synthetic 3-D")
    choose(ws.method_combo, "rr")
    assert ws.method_info.key == "rr" and ws.method_combo.currentText() == "RR"
    assert [s.symbol for s in (sl.spec for sl in ws._sliders)] == ["λ·√max(n,d)", "η", "α"]
    assert not ws.corruption_box.isEnabled()          # the example has its own errors
    assert not win.data_dock.isVisible()              # the subspace Data dock belongs to the other tab
    n = 8
    for _ in range(n):
        click(qtbot, win.step_button)
    settle(qtbot, ws, n)
    state = ws.runner.states[-1]
    snap = regression_snapshot(state, ws.data)
    assert ws.inputs_stack.currentWidget() is ws.points_page
    # the drawn points are the snapshot's, in both projections
    for view in (ws.proj_xy, ws.proj_xz):
        a, b = view.axes
        np.testing.assert_allclose(view.drawn_cleaned(), snap.points["cleaned"][:, [a, b]])
        np.testing.assert_allclose(view.drawn_clean(), snap.points["clean"][:, [a, b]])
        inputs = view.drawn_inputs()
        segments = view.drawn_segments()
        for kind, mask in snap.kinds.items():
            np.testing.assert_allclose(inputs[kind], snap.points["input"][mask][:, [a, b]])
            np.testing.assert_allclose(segments[kind][:, 0], snap.points["input"][mask][:, [a, b]])
            np.testing.assert_allclose(segments[kind][:, 1], snap.points["cleaned"][mask][:, [a, b]])
        assert sum(len(v) for v in inputs.values()) == 100
    # the objective has n + 1 points; r1 and r2 fall overall
    x, y = ws.objective_view.curve.getData()
    assert list(x) == list(range(n + 1))
    np.testing.assert_allclose(y, state.objective_history)
    for name in ("r1", "r2"):
        it, r = ws.residual_view.drawn(name)
        assert len(it) == n + 1 and np.isnan(r[0])         # iteration 0 is feasible: r = 0, not drawn
        assert r[-1] < 0.5 * r[1], (name, r)
    assert ws.residual_view.drawn("μ1")[1][-1] > ws.residual_view.drawn("μ1")[1][0]
    # the singular values and the rank
    np.testing.assert_allclose(ws.sv_view.drawn(), state.singular_values)
    assert f"rank {state.rank}" in ws.sv_view.getPlotItem().titleLabel.text
    assert ws.scalar_view.current == "rank" and ws.scalar_view.current2 == "nnz(E)"
    # the cleaned points are closer to the clean ones than the inputs
    P = snap.points
    assert np.linalg.norm(P["cleaned"] - P["clean"]) < 0.5 * np.linalg.norm(P["input"] - P["clean"])
    assert "distance to clean, out-of-plane" in ws.metrics_label.text()
    # T with the true T*, the test predictions against the truth
    np.testing.assert_allclose(ws.coef_view.drawn(), np.column_stack([snap.coef, snap.intercept]).ravel())
    assert ws.test_plot_stack.currentWidget() is ws.prediction_view
    pts = ws.prediction_view.drawn()
    assert len(pts) == 3
    np.testing.assert_allclose(pts[0][:, 1], snap.test_outputs[:, 0])
    assert "RAE_Y" in ws.test_metrics.text() and f"{snap.metrics['RAE_Y test']:.3g}" in ws.test_metrics.text()
    assert f"iteration {n}" in ws.iteration_label.text()

    # the scrubber goes back to iteration 3 (objective with 4 points), Live returns
    ws.show_iteration(3)
    qtbot.waitUntil(lambda: ws.shown_snapshot.iteration == 3, timeout=WAIT)
    assert len(ws.objective_view.curve.getData()[0]) == 4
    assert "(past)" in ws.scrub_label.text()
    click(qtbot, ws.live_button)
    qtbot.waitUntil(lambda: ws.shown_snapshot.iteration == n, timeout=WAIT)

    # Reset: back to iteration 0
    click(qtbot, win.reset_button)
    settle(qtbot, ws, 0)
    assert len(ws.objective_view.curve.getData()[0]) == 1


# ----------------------------------------------------------------------------- digits + RLDA
def test_a_frame_is_drawn_in_parts_and_shown_whole(qtbot, regression):
    """A new frame is drawn a few views per event-loop turn (a whole frame repainted every view in
    one turn: 150-170 ms of GUI time on the digits); the shown snapshot, the texts and ``drawn``
    come with the last part; ``refresh(force=True)`` draws the rest at once."""
    win, ws = regression
    win.frame_clock.stop()                         # the test calls refresh itself
    ws.runner.step(1)
    qtbot.waitUntil(lambda: ws.runner.iteration == 1 and not ws.runner.busy, timeout=WAIT)
    drawn = []
    ws.drawn.connect(drawn.append)
    assert ws.refresh() and ws.drawing
    assert ws.shown_snapshot.iteration == 0 and drawn == []
    parts = 1
    while ws.drawing:
        assert ws.refresh()
        parts += 1
    assert parts >= 4 and drawn == [1] and ws.shown_snapshot.iteration == 1
    assert ws.iteration_label.text().endswith("iteration 1")
    assert not ws.refresh()                         # nothing new
    ws.runner.step(1)
    qtbot.waitUntil(lambda: ws.runner.iteration == 2 and not ws.runner.busy, timeout=WAIT)
    assert ws.refresh() and ws.drawing
    assert ws.refresh(force=True) and not ws.drawing and drawn == [1, 2]
    # test-time cleaning on, and the method changed while a frame is drawn in parts: the frame's
    # last part must not send the old method's state to the new estimator's cleaning
    submitted = []
    original = ws._submit_test
    ws._submit_test = lambda state: submitted.append((state.method, ws.runner.info.name)) or original(state)
    ws.test_checkbox.setChecked(True)
    qtbot.waitUntil(lambda: ws._test_job is None, timeout=WAIT)
    ws.runner.step(1)
    qtbot.waitUntil(lambda: ws.runner.iteration == 3 and not ws.runner.busy, timeout=WAIT)
    assert ws.refresh() and ws.drawing
    other = next(ws.method_combo.itemData(i) for i in range(ws.method_combo.count())
                 if ws.method_combo.itemData(i) not in (None, ws.runner.info.key))
    choose(ws.method_combo, other)
    qtbot.waitUntil(lambda: ws.runner.info.key == other and ws.runner.states and not ws.runner.busy, timeout=WAIT)
    while ws.drawing:
        ws.refresh()
    win.frame_clock.start()
    settle(qtbot, ws)
    qtbot.waitUntil(lambda: ws._test_job is None, timeout=WAIT)
    assert submitted and all(method == current for method, current in submitted)
    assert ws._test_error == ""


def test_a_frame_left_half_drawn_by_new_data_is_dropped(qtbot, regression):
    """New data arriving between a frame's parts: the rest of the old frame (whose Test section
    would have scored the old predictions against the new labels) is dropped for the new one."""
    win, ws = regression
    win.frame_clock.stop()
    ws.runner.step(1)
    qtbot.waitUntil(lambda: ws.runner.iteration == 1 and not ws.runner.busy, timeout=WAIT)
    assert ws.refresh() and ws.drawing
    with qtbot.capture_exceptions() as raised:
        small_digits(qtbot, ws)
        qtbot.waitUntil(lambda: ws.runner.states and not ws.runner.busy, timeout=WAIT)
        while ws.refresh():
            pass
    win.frame_clock.start()
    assert not raised
    assert ws.data.is_classification and ws.shown_snapshot is ws.runner.snapshot(-1)


def test_digits_rlda_black_squares_weight_images_and_test_cleaning(qtbot, regression):
    win, ws = regression
    small_digits(qtbot, ws)
    choose(ws.corruption_combo, "black_square")
    choose(ws.method_combo, "rlda")
    settle(qtbot, ws, 0)
    assert ws.method_info.key == "rlda" and ws.data.is_classification
    assert "black" in ws.data.description and ws.corruption_box.isEnabled()
    for _ in range(3):
        click(qtbot, win.step_button)
    settle(qtbot, ws, 3)
    state = ws.runner.states[-1]
    snap = regression_snapshot(state, ws.data)
    # training samples: clean | input | D | E
    assert ws.inputs_stack.currentWidget() is ws.inputs_view
    for c in range(4):
        np.testing.assert_allclose(ws.inputs_view.item(0, c).image, snap.rows[0, c])
    # T as weight images, one per class, with the image shape
    W = ws.weights_view.drawn()
    assert len(W) == 10 and all(w.shape == (16, 16) for w in W)
    np.testing.assert_allclose(np.stack(W), snap.weights)
    assert [lab.textItem.toPlainText() for lab in ws.weights_view.count_labels[:10]] == [str(c) for c in range(10)]
    # test accuracy shown (plain)
    acc = snap.metrics["test accuracy"]
    assert ws.test_mode_shown == "plain"
    assert f"{100 * acc:.1f} %" in ws.test_metrics.text() and "plain" in ws.test_metrics.text()
    assert ws.confusion_view.counts.sum() == int((~ws.data.train).sum())
    assert np.trace(ws.confusion_view.counts) == round(acc * ws.confusion_view.counts.sum())

    # test-time cleaning on: Alg. 2 runs in the background, the Test section shows its result
    click(qtbot, ws.test_checkbox)
    assert ws.test_checkbox.isChecked()
    qtbot.waitUntil(lambda: ws.test_mode_shown == "clean" and not ws.busy, timeout=WAIT)
    expected = regression_snapshot(state, ws.data, test="clean", estimator=ws.runner.estimator)
    assert ws.test_outcome.iteration == 3
    np.testing.assert_array_equal(ws.test_snapshot.test_predictions, expected.test_predictions)
    acc_clean = expected.metrics["test accuracy"]
    assert f"{100 * acc_clean:.1f} %" in ws.test_metrics.text() and "cleaned" in ws.test_metrics.text()
    assert "Alg. 2" in ws.test_status.text()
    # cleaned test samples: clean | input | Dₜₑ | Eₜₑ with predicted and true labels
    assert ws.test_samples_view.cols == 4
    j = int(ws._test_samples[0])
    np.testing.assert_allclose(ws.test_samples_view.drawn(0, 2).ravel(), ws.test_outcome.cleaning.D[j])
    assert ws.test_samples_view.caption_texts[0].startswith("pred ")

    # a further step: the cleaned results follow the new iteration
    click(qtbot, win.step_button)
    settle(qtbot, ws, 4)
    qtbot.waitUntil(lambda: not ws.busy and ws.test_outcome is not None and ws.test_outcome.iteration == 4,
                    timeout=WAIT)

    # off again: plain predictions of the shown iteration
    click(qtbot, ws.test_checkbox)
    qtbot.waitUntil(lambda: ws.test_mode_shown == "plain", timeout=WAIT)
    plain = regression_snapshot(ws.runner.states[-1], ws.data)
    np.testing.assert_array_equal(ws.test_snapshot.test_predictions, plain.test_predictions)
    assert ws.test_samples_view.cols == 2


def test_missing_blocks_switch_rlda_to_its_missing_version_and_refuse_baselines(qtbot, regression):
    win, ws = regression
    small_digits(qtbot, ws, per_class=8)
    choose(ws.method_combo, "rlda")
    settle(qtbot, ws, 0)
    choose(ws.corruption_combo, "missing_blocks")
    settle(qtbot, ws, 0)
    assert np.isnan(ws.data.X).any()
    assert ws.method_info.key == "rlda-missing" and ws.method_combo.currentText() == "RLDA-Missing"
    assert ws.method_note.isVisible() and "RLDA-Missing" in ws.method_note.text()
    assert ws.runner.params["eta"] == 1.0 and ws.runner.params["alpha"] == 3.0    # RLDA's own defaults
    click(qtbot, win.step_button)
    settle(qtbot, ws, 1)
    assert not ws.runner.error
    assert ws.inputs_view.missing_overlays[0].isVisible()      # missing entries painted over
    # a baseline without a missing-data version is refused; RLDA-Missing and its run are kept
    states = list(ws.runner.states)
    choose(ws.method_combo, "lda")
    assert ws.method_message.isVisible()
    assert "LDA needs complete inputs" in ws.method_message.text() and "kept RLDA-Missing" in ws.method_message.text()
    assert ws.method_info.key == "rlda-missing" and ws.method_combo.currentText() == "RLDA-Missing"
    assert ws.runner.states == states
    # a classifier on numeric targets is refused too
    choose(ws.source_combo, "synthetic")
    settle(qtbot, ws, 0)
    assert ws.method_info.key in ("rr", "rr-missing")           # switched with a note
    choose(ws.method_combo, "lda")
    assert "needs class labels" in ws.method_message.text()


# ----------------------------------------------------------------------------- refusals
@pytest.mark.parametrize("name, symbol", [("lam_scale", "λ·√max(n,d)"), ("eta", "η"), ("alpha", "α")])
def test_non_positive_parameter_is_refused_and_the_run_kept(qtbot, regression, name, symbol):
    win, ws = regression
    click(qtbot, win.step_button)
    click(qtbot, win.step_button)
    settle(qtbot, ws, 2)
    states = list(ws.runner.states)
    before = dict(ws.runner.params)
    set_param(qtbot, ws.method_group(), name, 0.0, ws, ws._apply_timer)
    qtbot.waitUntil(lambda: ws.method_message.isVisible(), timeout=WAIT)
    text = ws.method_message.text()
    assert name in text and symbol in text and "kept RR" in text, text
    assert ws.runner.states == states and ws.runner.params == before
    assert ws.method_group().child(name).value() == before[name]       # the controls show the kept value
    click(qtbot, win.step_button)                                      # the kept run goes on
    settle(qtbot, ws, 3)


def _write_images(folder, names, seed=0):
    from skimage import io

    rng = np.random.default_rng(seed)
    for name in names:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        io.imsave(str(path), (rng.random((12, 12)) * 255).astype(np.uint8), check_contrast=False)


def test_folder_csv_problems_are_refused_naming_file_and_row(qtbot, regression, tmp_path, monkeypatch):
    win, ws = regression
    folder = tmp_path / "faces"
    names = [f"{c}/{i}.png" for c in ("a", "b") for i in range(4)]
    _write_images(folder, names)
    monkeypatch.setattr(QtWidgets.QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    click(qtbot, ws.open_button)                            # subfolders as classes
    settle(qtbot, ws, 0)
    assert ws.data.is_classification and ws.data.classes == ("a", "b")
    assert ws.data.shape == (12, 12)
    loaded = ws.data

    bad = tmp_path / "targets.csv"
    bad.write_text("file,yaw\n" + "\n".join(f"{n},{0.1 * i}" for i, n in enumerate(names[:5]))
                   + f"\n{names[5]},abc\n" + "\n".join(f"{n},1" for n in names[6:]) + "\n")
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), ""))
    click(qtbot, ws.csv_button)
    msg = ws.data_message.text()
    assert ws.data_message.isVisible()
    assert "targets.csv" in msg and "row 7" in msg and "'abc' is not a finite number" in msg, msg
    assert "kept" in msg
    assert ws.data is loaded and ws.choice.targets_csv is None
    assert ws.csv_label.text().startswith("targets: class labels")

    # targets missing for some files: the message names them
    short = tmp_path / "short.csv"
    short.write_text("\n".join(f"{n},{i}" for i, n in enumerate(names[:6])) + "\n")
    assert not ws.set_targets_csv(str(short))
    assert "no targets for 2 of 8" in ws.data_message.text() and "b/2.png" in ws.data_message.text()
    assert ws.data is loaded

    # a good CSV: regression on the folder's images with its numeric targets
    good = tmp_path / "good.csv"
    good.write_text("file,yaw,pitch\n" + "\n".join(f"{n},{i},{-i}" for i, n in enumerate(names)) + "\n")
    assert ws.set_targets_csv(str(good))
    settle(qtbot, ws, 0)
    assert not ws.data_message.isVisible() and not ws.data.is_classification
    assert ws.data.target_names == ("yaw", "pitch")


def test_single_sample_class_is_refused(qtbot, regression, tmp_path):
    win, ws = regression
    before = ws.data
    folder = tmp_path / "classes"
    _write_images(folder, ["a/1.png", "a/2.png", "a/3.png", "lonely/1.png"])
    assert not ws.open_folder(str(folder))
    msg = ws.data_message.text()
    assert "'lonely'" in msg and "single sample" in msg, msg
    assert ws.data is before and ws.source_combo.currentData() == "synthetic"
    # the digits with one image per class: refused the same way
    choose(ws.source_combo, "digits")
    settle(qtbot, ws, 0)
    before = ws.data
    ws.options_group().child("per_class").setValue(1)
    qtbot.waitUntil(lambda: ws.data_message.isVisible(), timeout=WAIT)
    assert "single sample" in ws.data_message.text() and ws.data is before


# ----------------------------------------------------------------------------- the window
def test_toolbar_acts_on_the_visible_tab_and_subspace_tab_is_unaffected(qtbot, make_window):
    win = make_window()
    assert win.tabs.tabText(win.tabs.currentIndex()) == "Subspace methods"
    assert not win.regression.started                       # nothing loaded until the tab is shown
    assert win.data_dock.isVisible()
    open_tab(qtbot, win, "Regression")
    ws = win.regression
    settle(qtbot, ws, 0)
    assert not win.data_dock.isVisible() and not win.subspace.add_column_button.isVisible()
    click(qtbot, win.step_button)
    settle(qtbot, ws, 1)
    assert all(c.runner.iteration == 0 for c in win.subspace.columns)
    open_tab(qtbot, win, "Subspace methods")
    qtbot.waitUntil(lambda: win.data_dock.isVisible() and win.subspace.add_column_button.isVisible(), timeout=WAIT)
    click(qtbot, win.step_button)
    click(qtbot, win.step_button)
    # (the PCA column is solved at iteration 0 and does not count on: the PCA-GM column steps)
    qtbot.waitUntil(lambda: win.subspace.columns[1].runner.iteration == 2 and not win.busy, timeout=WAIT)
    assert ws.runner.iteration == 1 and win.subspace.columns[0].runner.iteration == 0
    open_tab(qtbot, win, "Regression")
    click(qtbot, win.reset_button)
    settle(qtbot, ws, 0)
    assert [c.runner.iteration for c in win.subspace.columns] == [0, 2]


def test_closing_while_running_stops_promptly(qtbot, make_window):
    win = make_window(speed="max")
    open_tab(qtbot, win, "Regression")
    ws = win.regression
    settle(qtbot, ws, 0)
    choose(ws.source_combo, "digits")                        # 50 per class, 28 × 28: ~60 ms a step
    settle(qtbot, ws, 0)
    ws.test_checkbox.setChecked(True)
    click(qtbot, win.run_button)
    qtbot.waitUntil(lambda: ws.runner.iteration >= 2, timeout=WAIT)
    assert win.running and win.pause_button.isEnabled()
    win.close()
    # close() cancels the jobs and waits for them: no solver thread is left behind (no
    # wall-clock assertion here: benchmarks/bench_gui.py measures how long it takes)
    assert win.pool.activeThreadCount() == 0


def test_cli_screenshot_of_the_regression_workspace(qapp, tmp_path, capsys):
    from PySide6 import QtGui

    from robust_subspace_lab.app.__main__ import main

    out = tmp_path / "reg.png"
    assert main(["--workspace", "regression", "--regression-method", "rr", "--steps", "3",
                 "--screenshot", str(out)]) == 0
    img = QtGui.QImage(str(out))
    assert not img.isNull() and img.width() >= 1200
    assert "RR: iteration 3" in capsys.readouterr().out
    assert main(["--regression-method", "nope", "--screenshot", str(out)]) == 2
    assert "nope" in capsys.readouterr().err
