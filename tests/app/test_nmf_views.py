"""The robust NMF methods of paper 003 in the window, driven as a user drives it: built-in faces,
a value-block corruption chosen in the Data panel, Truncated Cauchy NMF picked in a column,
a few Step clicks; then the per-pixel weight maps, the parts, the bars, the scalar curves and
the reconstructions are checked against the method's own states."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore

from robust_subspace_lab.core import catalogue, corruption
from robust_subspace_lab.core.metrics import relative_error

from robust_subspace_lab.app.views import TRUNCATED_COLOR

LEFT = QtCore.Qt.LeftButton
WAIT = 20000


def choose_corruption(qtbot, win, key, **values):
    """Pick ``key`` in the corruption combo, then edit its parameters in the tree."""
    if key not in corruption.CORRUPTIONS:
        pytest.skip(f"corruption {key!r} is not in core.corruption")
    panel = win.subspace.data_panel
    panel.corruption_combo.setCurrentIndex(panel.corruption_combo.findData(key))
    for name, value in values.items():
        panel.corruption_group().child(name).setValue(value)
    panel.apply_corruption()
    qtbot.waitUntil(lambda: win.subspace.corruption_key == key
                    and all(win.subspace.corruption_params[n] == v for n, v in values.items())
                    and all(c.runner.states and c.runner.data is win.subspace.data for c in win.subspace.columns)
                    and not win.busy, timeout=WAIT)


def choose_method(qtbot, win, col, key):
    combo = col.method_combo
    i = combo.findData(key)
    assert i >= 0, f"{key} not offered in the method combo"
    combo.setCurrentIndex(i)
    qtbot.waitUntil(lambda: col.runner.key == key and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    assert not col.runner.error, col.runner.error
    qtbot.waitUntil(lambda: col.shown_snapshot is not None
                    and col.shown_snapshot.method == catalogue.get(key).name, timeout=WAIT)


def step(qtbot, win, col, times=1):
    for _ in range(times):
        target = col.runner.iteration + 1
        qtbot.mouseClick(win.step_button, LEFT)
        qtbot.waitUntil(lambda: col.runner.iteration == target and not win.busy, timeout=WAIT)
    it = col.runner.iteration
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == it,
                    timeout=WAIT)
    return col.shown_snapshot


@pytest.fixture
def tc_column(qtbot, make_window):
    """A window on the built-in faces with 12×12 blocks of value 550 on 30 % of them, one column
    running Truncated Cauchy NMF (k = 10), stepped three times."""
    win = make_window(methods=("pca",), method_params={"pca": {"n_components": 10}})
    choose_corruption(qtbot, win, "value_block", fraction=0.3)
    assert 0 < win.subspace.data.outliers.sum() < win.subspace.data.n_samples
    col = win.subspace.columns[0]
    choose_method(qtbot, win, col, "tc-nmf")
    step(qtbot, win, col, 3)
    return win, col


def assert_maps_show(col, state):
    """The weight-map view draws Q of ``state`` for the chosen samples, truncation in red."""
    snap = col.shown_snapshot
    wm = col.weightmap_view
    maps, cut = wm.drawn_maps(), wm.drawn_truncated()
    assert len(maps) == len(cut) == len(snap.samples) == 3
    h, w = col.runner.data.shape
    for r, i in enumerate(snap.samples):
        assert maps[r].shape == (h, w)
        np.testing.assert_array_equal(maps[r].ravel(), state.entry_weights[i])
        truncated = np.asarray(state.details["truncated"][i])
        # the zero pixels of the image are exactly the truncated entries, and they are painted
        np.testing.assert_array_equal((maps[r] == 0).ravel(), truncated)
        np.testing.assert_array_equal(cut[r].ravel(), truncated)


def test_tc_nmf_shows_per_pixel_weight_maps(tc_column):
    win, col = tc_column
    state = col.runner.states[-1]
    snap = col.shown_snapshot
    data = win.subspace.data
    wm = col.weightmap_view
    assert wm.isVisible()
    assert col.weightmap_view in col.views()
    assert_maps_show(col, state)

    # what it shows: the 550 blocks are rejected (Q = 0) after three iterations
    for r, i in enumerate(snap.samples):
        if data.outliers[i]:
            block = data.mask[i]
            assert block.any() and np.mean(state.details["truncated"][i][block]) > 0.95
    # fixed 0–1 scale, colour bar, red truncation overlay, captions with index, mean and share
    for img in wm.items[:3]:
        assert tuple(img.levels) == (0.0, 1.0)
    assert tuple(wm.colorbar.levels()) == (0.0, 1.0) and wm.colorbar.isVisible()
    ov = wm.overlays[0]
    assert ov.isVisible() and tuple(ov.image[wm.drawn_truncated()[0]][0]) == TRUNCATED_COLOR
    assert "Pixel weights Q" in wm.title.text and "truncated" in wm.title.text
    captions = wm.caption_texts()
    for r, i in enumerate(snap.samples):
        mean = state.details["mean weight"][i]
        share = state.details["truncated"][i].mean()
        assert captions[r].startswith(f"#{i} · " + ("corrupted" if data.outliers[i] else "clean"))
        assert f"mean Q {mean:.2f}" in captions[r] and f"{100 * share:.0f} % truncated" in captions[r]


def test_tc_nmf_parts_bars_curves_and_reconstructions(tc_column):
    win, col = tc_column
    state = col.runner.states[-1]
    snap = col.shown_snapshot
    data = win.subspace.data
    h, w = data.shape

    # parts: non-negative, each on a sequential scale from 0
    bv = col.basis_view
    assert bv.nmf and bv.title.text.startswith("NMF parts: first 10") and "black = 0" in bv.title.text
    assert not any(ov.isVisible() for ov in bv.overlays)
    for k in range(10):
        part = state.components[k].reshape(h, w)
        np.testing.assert_allclose(bv.items[k].image, part)
        assert tuple(bv.items[k].levels) == (0.0, part.max())

    # bars: the mean pixel weight of every sample, linear 0–1, corrupted samples red
    wv = col.weights_view
    assert wv.mode == "mean" and wv.getPlotItem().titleLabel.text.startswith("Mean pixel weight")
    np.testing.assert_allclose(wv.drawn_mean_weights(), state.details["mean weight"], rtol=1e-12)
    np.testing.assert_array_equal(wv.drawn_outliers(), np.flatnonzero(data.outliers))

    # scalar curves: γ on the left, the truncated fraction on the right axis
    sv = col.scalar_view
    assert sv.current == "γ" and sv.current2 == "truncated fraction"
    x, y = sv.drawn()
    np.testing.assert_allclose(y, state.scalar_history["γ"])
    x2, y2 = sv.drawn_second()
    np.testing.assert_array_equal(x2, np.arange(4))
    np.testing.assert_allclose(y2, state.scalar_history["truncated fraction"])
    assert sv.plot_widget.getPlotItem().getAxis("right").isVisible()
    sv.choose_second(None)                          # the user drops the second curve
    assert sv.current2 is None and len(sv.drawn_second()[1]) == 0
    assert not sv.plot_widget.getPlotItem().getAxis("right").isVisible()

    # clean | corrupted | WH | residual
    rv = col.recon_view
    assert rv.n_columns == 4
    for r, i in enumerate(snap.samples):
        np.testing.assert_array_equal(rv.item(r, 0).image.ravel(), data.X_clean[i])
        np.testing.assert_array_equal(rv.item(r, 1).image.ravel(), data.X[i])
        np.testing.assert_allclose(rv.item(r, 2).image.ravel(), state.fitted[i])
        np.testing.assert_allclose(rv.item(r, 3).image.ravel(), data.X[i] - state.fitted[i])

    # the paper's relative error in the header and the metrics block
    rel = relative_error(data.X_clean, state.fitted)
    assert col.error_label.text() == f"relative error: {100 * rel:.2f} %"
    text = col.metrics_label.text()
    assert "relative error" in text and f"{100 * rel:.1f} %" in text
    assert "corrupted px cut" in text and "weights AUC" in text
    assert "eq. 14" not in text


def test_scrubber_rewinds_the_weight_maps(qtbot, tc_column):
    win, col = tc_column
    states = col.runner.states
    assert [s.iteration for s in states] == [0, 1, 2, 3]
    assert not np.array_equal(states[1].entry_weights, states[3].entry_weights)
    col.scrubber.setValue(1)                      # the user drags the scrubber back
    qtbot.waitUntil(lambda: col.shown_snapshot.iteration == 1, timeout=WAIT)
    assert "1 / 3 (past)" in col.scrub_label.text()
    assert_maps_show(col, states[1])
    captions = col.weightmap_view.caption_texts()
    i = int(col.shown_snapshot.samples[0])
    assert f"mean Q {states[1].details['mean weight'][i]:.2f}" in captions[0]
    qtbot.mouseClick(col.live_button, LEFT)       # back to the newest iteration
    qtbot.waitUntil(lambda: col.shown_snapshot.iteration == 3, timeout=WAIT)
    assert_maps_show(col, states[3])


def test_methods_without_entry_weights_hide_the_weight_maps(qtbot, tc_column):
    win, col = tc_column
    assert col.weightmap_view.isVisible()

    choose_method(qtbot, win, col, "pca")
    assert not col.weightmap_view.isVisible() and col.weightmap_view not in col.views()
    bv = col.basis_view
    assert not bv.nmf and bv.title.text.startswith("Basis images")
    m = float(np.max(np.abs(col.shown_snapshot.basis[0])))
    assert tuple(bv.items[0].levels) == (-m, m)             # eigenfaces: symmetric around 0
    assert col.weights_view.mode == "weights"
    assert col.error_label.text().startswith("reconstruction error")

    choose_method(qtbot, win, col, "nmf")                    # plain NMF: parts, no weights
    step(qtbot, win, col)
    assert not col.weightmap_view.isVisible()
    assert col.basis_view.nmf and col.basis_view.title.text.startswith("NMF parts")
    assert "no sample weights" in col.weights_view.message.textItem.toPlainText()
    assert col.error_label.text().startswith("relative error")

    choose_method(qtbot, win, col, "tc-nmf")                 # and back: shown again
    assert col.weightmap_view.isVisible()
    assert_maps_show(col, col.runner.states[-1])


def test_cauchy_nmf_maps_have_no_truncation(qtbot, make_window):
    """Cauchy NMF (no truncation) has weight maps but never a zero weight (paper 003 claim 1)."""
    win = make_window(methods=("cauchy-nmf",))
    col = win.subspace.columns[0]
    snap = step(qtbot, win, col, 2)
    wm = col.weightmap_view
    assert wm.isVisible()
    maps = wm.drawn_maps()
    assert len(maps) == 3 and all(m.min() > 0 for m in maps)
    assert not any(c.any() for c in wm.drawn_truncated())
    assert all(t.endswith("0 % truncated") for t in wm.caption_texts())
    np.testing.assert_allclose(col.weights_view.drawn_mean_weights(), snap.mean_weights)


def test_side_by_side_columns_stay_aligned(qtbot, make_window):
    """TC-NMF next to plain NMF: the weight maps share the top row with the bars, so the parts
    and reconstructions of both columns start at the same height."""
    win = make_window(methods=("tc-nmf", "nmf"))
    step(qtbot, win, win.subspace.columns[0])
    for c in win.subspace.columns:
        c.refresh(force=True)
    tc, plain = win.subspace.columns
    assert tc.weightmap_view.isVisible() and not plain.weightmap_view.isVisible()
    y = [c.recon_view.mapTo(win, QtCore.QPoint(0, 0)).y() for c in win.subspace.columns]
    assert y[0] == y[1]


def test_thinned_states_still_rewind_the_weight_maps(qtbot, make_window, monkeypatch):
    """Beyond the column's memory budget the old states lose Q, WH and the truncation mask, but
    their weight maps were kept: the scrubber still shows every iteration exactly."""
    from robust_subspace_lab.app import runner as runner_mod

    win = make_window(methods=("tc-nmf",))
    col = win.subspace.columns[0]
    n, d = win.subspace.data.X.shape
    monkeypatch.setattr(runner_mod, "STATE_BYTES_BUDGET", 4 * n * d * 8)
    expected = {}
    for it in range(1, 6):
        step(qtbot, win, col)
        state = col.runner.states[it]
        samples = col.shown_snapshot.samples
        expected[it] = (state.entry_weights[samples].copy(), state.details["truncated"][samples].copy())
    thinned = [s for s in col.runner.states[1:-1] if s.entry_weights is None]
    assert thinned, "nothing was thinned"
    assert all("truncated" not in s.details and "mean weight" in s.details for s in thinned)
    for it, (Q, cut) in expected.items():
        col.show_iteration(it)
        qtbot.waitUntil(lambda: col.shown_snapshot.iteration == it, timeout=WAIT)
        maps, drawn_cut = col.weightmap_view.drawn_maps(), col.weightmap_view.drawn_truncated()
        for r in range(3):
            np.testing.assert_array_equal(maps[r].ravel(), Q[r])
            np.testing.assert_array_equal(drawn_cut[r].ravel(), cut[r])


NMF_KEYS = [m.key for m in catalogue.methods() if m.family == "NMF"]


@pytest.mark.parametrize("key", NMF_KEYS)
def test_every_nmf_method_steps_in_a_column(qtbot, make_window, key):
    """Every NMF method of the catalogue, picked in a column on faces with value-550 blocks and
    stepped twice: no error, parts drawn as the state's (non-negative) components, the weight maps
    shown exactly when the method has entry weights, and the reconstruction column is its WH."""
    win = make_window(methods=("pca",), method_params={"pca": {"n_components": 10}})
    choose_corruption(qtbot, win, "value_block", fraction=0.3)
    col = win.subspace.columns[0]
    choose_method(qtbot, win, col, key)
    snap = step(qtbot, win, col, 2)
    state = col.runner.states[-1]
    assert not col.runner.error
    assert np.all(state.components >= 0) and np.all(state.fitted >= 0)
    assert col.basis_view.nmf
    for i, b in enumerate(snap.basis[:10]):
        np.testing.assert_allclose(col.basis_view.items[i].image, b)
    assert col.weightmap_view.isVisible() == (state.entry_weights is not None)
    h, w = win.subspace.data.shape
    for r, i in enumerate(snap.samples):
        np.testing.assert_allclose(col.recon_view.item(r, 2).image, state.fitted[i].reshape(h, w))
