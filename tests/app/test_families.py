"""The robust PCA family of papers 000, 001 and 002 in the window, driven as a user drives it:
every method in a column, the digits, the toy examples, the scalar histories and the metrics."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from PySide6 import QtCore

from robust_subspace_lab.core import catalogue

from robust_subspace_lab.app.snapshot_text import metrics_html
from robust_subspace_lab.app.data_panel import TOY, TOYS
from robust_subspace_lab.app.views import ZERO_COLOR

LEFT = QtCore.Qt.LeftButton
WAIT = 60000      # ms: a bound for a loaded machine, not a speed target

#: (family, key) of every method the issue asks for; each must be registered (no silent skips)
METHODS = [("PCA", k) for k in ("pca", "pca-gm", "rpca-om", "l2p-pca-om", "r1-pca", "hq-pca", "pca-l1")] \
    + [("sparse PCA", k) for k in ("rspca", "spca-rsvd", "gpower")] \
    + [("low-rank + sparse", k) for k in ("pcp", "outlier-pursuit", "crpca-om")]


def registered(key: str) -> bool:
    return key in {m.key for m in catalogue.methods()}


def need(key: str) -> None:
    assert registered(key), f"method {key!r} is not registered in core.catalogue"


def choose_method(qtbot, win, col, key):
    combo = col.method_combo
    i = combo.findData(key)
    assert i >= 0, f"{key} not offered in the method combo"
    combo.setCurrentIndex(i)                       # what a click on the entry does
    qtbot.waitUntil(lambda: col.runner.key == key and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    assert not col.runner.error, col.runner.error


def step_and_draw(qtbot, win, col, iteration=1):
    qtbot.mouseClick(win.step_button, LEFT)
    qtbot.waitUntil(lambda: col.runner.iteration == iteration and not win.busy, timeout=WAIT)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == iteration,
                    timeout=WAIT)
    return col.shown_snapshot


#: the methods the default run steps in the window: PCA (solved at iteration 0), and each kind of
#: display (sample weights: PCA-GM, RSPCA; the outlier score and E: PCP; neither: SPCA-rSVD; the
#: zero pattern of sparse loadings: RSPCA, SPCA-rSVD); the other eight: slow run
FAST = ("pca", "pca-gm", "rspca", "spca-rsvd", "pcp")


@pytest.mark.parametrize("family,key", [(f, k) if k in FAST else pytest.param(f, k, marks=pytest.mark.slow)
                                        for f, k in METHODS], ids=[k for _, k in METHODS])
def test_each_method_steps_and_shows_what_it_is_about(qtbot, make_window, family, key):
    need(key)
    win = make_window(methods=("pca",))
    col = win.subspace.columns[0]
    assert catalogue.get(key).family == family
    choose_method(qtbot, win, col, key)
    solved = key == "pca"                  # solved at iteration 0: Step does not count on
    snap = step_and_draw(qtbot, win, col, iteration=0 if solved else 1)
    assert snap.method == catalogue.get(key).name
    assert f"iteration {0 if solved else 1}" in col.iteration_label.text()

    # weights (log bars) or the outlier score ‖e_i‖ (linear bars)
    wv = col.weights_view
    title = wv.getPlotItem().titleLabel.text
    if snap.sample_weights is not None:
        assert wv.mode == "weights" and title.startswith("Sample weights")
        np.testing.assert_allclose(wv.drawn_weights(), snap.sample_weights, rtol=1e-12)
    elif "outlier score" in snap.details:
        assert wv.mode == "score" and title.startswith("Outlier score ‖eᵢ‖")
        np.testing.assert_allclose(wv.drawn_scores(), snap.details["outlier score"], rtol=1e-12)
    else:                                              # nothing per sample: a message instead
        assert "no sample weights" in wv.message.textItem.toPlainText()
    if snap.sample_weights is not None or "outlier score" in snap.details:
        np.testing.assert_array_equal(wv.drawn_outliers(), np.flatnonzero(snap.outliers))

    # E (sparse part): a fifth column of the reconstruction grid
    rv = col.recon_view
    if family == "low-rank + sparse":
        assert snap.sparse_maps is not None, f"{key} has no sparse part"
        assert "outlier score" in snap.details and wv.mode == "score"
    if snap.sparse_maps is not None:
        assert rv.n_columns == 5 and rv.title.text.endswith("E (sparse part)")
        assert rv.headers[4].isVisible()
        for r in range(len(snap.sparse_maps)):
            np.testing.assert_allclose(rv.item(r, 4).image, snap.sparse_maps[r])
            np.testing.assert_allclose(rv.item(r, 2).image, snap.rows[r, 2])   # its own reconstruction
    else:
        assert rv.n_columns == 4 and not rv.headers[4].isVisible()

    # zero pattern of sparse loadings: flat-colour overlay and the count of non-zeros
    bv = col.basis_view
    assert bv.isVisible() and not col.loadings_view.isVisible()
    for i, b in enumerate(snap.basis[:10]):
        np.testing.assert_allclose(bv.items[i].image, b)
    if snap.basis_zero is not None:
        assert "exactly 0" in bv.title.text
        for i, zero in enumerate(snap.basis_zero[:10]):
            ov = bv.overlays[i]
            assert ov.isVisible()
            np.testing.assert_array_equal(ov.image[..., 3] > 0, zero)
            assert tuple(ov.image[zero][0]) == ZERO_COLOR if zero.any() else True
            assert bv.count_labels[i].isVisible()
            assert bv.count_labels[i].textItem.toPlainText() == f"{int((~zero).sum())} ≠ 0"
    else:
        assert not any(ov.isVisible() for ov in bv.overlays)

    # metrics block
    from robust_subspace_lab.app.snapshot_text import _short_metric_name
    for name in snap.metrics:
        assert _short_metric_name(name) in col.metrics_label.text()


def test_sparse_methods_show_their_zeros(qtbot, make_window):
    """sPCA-rSVD keeps k_nonzero = 100 of the 625 pixels: the other 525 are drawn in the zero colour."""
    need("spca-rsvd")
    win = make_window(methods=("spca-rsvd",))
    col = win.subspace.columns[0]
    snap = step_and_draw(qtbot, win, col)
    assert snap.basis_zero is not None
    nz = int((~snap.basis_zero[0]).sum())
    assert col.basis_view.nonzeros[0] == nz
    assert col.basis_view.overlays[0].isVisible()
    assert f"1: {nz}" in col.basis_view.toolTip()


@pytest.mark.slow
def test_digits_load_and_step(qtbot, make_window):
    win = make_window(methods=("pca-gm",))
    panel = win.subspace.data_panel
    assert [panel.source_combo.itemText(i) for i in range(panel.source_combo.count())
            if panel.source_combo.itemData(i) == "digits"] == ["MNIST digits (5,000, built-in)"]
    assert panel.select_source("digits")
    assert win.subspace.imageset.images.shape == (5000, 28, 28) and win.subspace.data.n_samples == 5000
    col = win.subspace.columns[0]
    qtbot.waitUntil(lambda: bool(col.runner.states) and not win.busy, timeout=WAIT)
    snap = step_and_draw(qtbot, win, col)
    assert snap.basis.shape[1:] == (28, 28) and len(col.weights_view.drawn_weights()) == 5000
    assert "5000 images" in panel.data_info.text()


def test_the_toys_are_offered():
    assert TOY and "line" in TOYS and "hastie" in TOYS, "core.toys is not importable or lacks a toy"


def test_toy_2d_shows_a_scatter_and_disables_the_corruption(qtbot, make_window):
    win = make_window(methods=("pca", "pca-gm"))
    panel = win.subspace.data_panel
    assert panel.corruption_box.isEnabled()
    assert panel.select_source((TOY, "line"))
    assert not panel.corruption_box.isEnabled() and not panel.size_combo.isEnabled()
    assert panel.toy_box.isVisible() and [c.name() for c in panel.toy_group().children()] == ["seed"]
    qtbot.waitUntil(lambda: all(c.runner.states for c in win.subspace.columns) and not win.busy, timeout=WAIT)
    assert all(not c.runner.error for c in win.subspace.columns), [c.runner.error for c in win.subspace.columns]
    assert win.subspace.source == panel.source_combo.currentData() == ("toy", "line")    # one key per source
    col = win.subspace.columns[1]
    snap = step_and_draw(qtbot, win, col)
    assert snap.points is not None and len(snap.points) == 110
    sv = col.scatter_view
    assert sv.isVisible() and not col.basis_view.isVisible() and not col.recon_view.isVisible()
    assert sv in col.views() and col.basis_view not in col.views()
    x, y = sv.points.getData()
    assert len(x) == 110
    np.testing.assert_allclose(np.column_stack([x, y]), snap.points)
    assert len(sv.outlier_marks.getData()[0]) == int(snap.outliers.sum()) == 10
    lines = sv.drawn_lines()
    assert len(lines) == len(snap.directions) == col.runner.params["n_components"]
    for line, d in zip(lines, snap.directions):          # through the mean, along the direction
        np.testing.assert_allclose(line.mean(axis=0), snap.mean, atol=1e-9)
        v = line[1] - line[0]
        assert abs(abs(v @ d) / np.linalg.norm(v) - 1.0) < 1e-9
    # a toy parameter rebuilds the toy
    data = win.subspace.data
    panel.toy_group().child("seed").setValue(3)
    qtbot.waitUntil(lambda: win.subspace.data is not data and not win.busy, timeout=WAIT)
    assert win.subspace.toy_params["seed"] == 3
    # back to the faces: corruption enabled again, images instead of the scatter
    assert panel.select_source("faces")
    assert panel.corruption_box.isEnabled() and panel.size_combo.isEnabled() and not panel.toy_box.isVisible()
    qtbot.waitUntil(lambda: all(c.runner.states for c in win.subspace.columns) and not win.busy, timeout=WAIT)
    assert win.subspace.data.n_samples == 100 and col.runner.params["n_components"] == 5    # the user's k again (the lesson's 5)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.points is None, timeout=WAIT)
    assert not sv.isVisible() and col.basis_view.isVisible() and col.recon_view.isVisible()


def test_toy_with_ten_features_shows_loadings(qtbot, make_window):
    win = make_window(methods=("pca",))
    win.subspace.data_panel.select_source((TOY, "hastie"))
    col = win.subspace.columns[0]
    qtbot.waitUntil(lambda: bool(col.runner.states) and not win.busy, timeout=WAIT)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == 0
                    and col.runner.data is win.subspace.data, timeout=WAIT)
    col.refresh(force=True)
    lv = col.loadings_view
    assert lv.isVisible() and not col.basis_view.isVisible() and not col.recon_view.isVisible()
    k = col.runner.params["n_components"]
    assert lv.image.image.shape == (k, 10) and len(lv.nonzeros) == k


def test_scalar_history_combo(qtbot, make_window):
    key = "pcp"
    need(key)
    win = make_window(methods=(key,))
    col = win.subspace.columns[0]
    for it in (1, 2, 3):
        snap = step_and_draw(qtbot, win, col, it)
    sv = col.scalar_view
    assert sv.names() == list(snap.scalar_history)
    for name in snap.scalar_history:
        sv.choose(name)
        x, y = sv.drawn()
        np.testing.assert_array_equal(x, np.arange(4))
        np.testing.assert_allclose(y, snap.scalar_history[name])
        assert sv.current == name
    # the choice is kept on the next iteration
    last = list(snap.scalar_history)[-1]
    snap = step_and_draw(qtbot, win, col, 4)
    assert sv.current == last and len(sv.drawn()[1]) == 5
    if "μ" in snap.scalar_history:
        sv.choose("μ")
        assert sv.plot_widget.getPlotItem().ctrl.logYCheck.isChecked()


def test_metrics_block_shows_the_snapshot_metrics(qtbot, make_window):
    win = make_window()
    for col in win.subspace.columns:
        col.refresh(force=True)
        snap = col.shown_snapshot
        text = col.metrics_label.text()
        assert snap.metrics
        from robust_subspace_lab.app.snapshot_text import _fmt_metric, _short_metric_name
        for name, value in snap.metrics.items():
            assert _short_metric_name(name) in text
        assert _fmt_metric("eq. 14 error (000)", snap.metrics["eq. 14 error (000)"]) in text
        if "weights AUC" in snap.metrics:
            assert f"{snap.metrics['weights AUC']:.3f}" in text


def test_restart_objectives_are_readable(qtbot, make_window):
    win = make_window(methods=("pca",))
    snap = win.subspace.columns[0].runner.snapshot()
    fake = dataclasses.replace(snap, details={"restart objectives": ((412.3, 409.8), (300.25, 299.5, 301.0))})
    text, tip = metrics_html(fake)
    assert "component 1 restarts: 412.3, 409.8" in tip and "component 2 restarts: 300.2, 299.5, 301" in tip
    assert "component 2 restarts" in text
