"""The Data panel's precision choice (issue 12, point 4; issue 13, memory): the combo rebuilds the
data in single precision in the background data job, every column restarts on the one float32
array, undo brings the previous precision back, and a session file keeps the choice. "auto" (the
default) is single for large data and double for small, and its entry says which."""
from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from robust_subspace_lab.app.data_panel import PRECISION_TIP
from robust_subspace_lab.core.session import spec as spec_module


def _choose(qtbot, combo, value) -> None:
    """Pick ``value`` in the closed combo with the keyboard, as a person would."""
    combo.setFocus()
    target = next(i for i in range(combo.count()) if combo.itemData(i) == value)   # findData: tuples by identity
    key = QtCore.Qt.Key_Down if target > combo.currentIndex() else QtCore.Qt.Key_Up
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, key)


def _restarted(win, dtype) -> bool:
    return (win.subspace.data is not None and win.subspace.data.X.dtype == dtype and not win.busy
            and all(c.runner.data is win.subspace.data and c.runner.iteration == 0 for c in win.subspace.columns))


def _one_shared_array(win) -> None:
    data = win.subspace.data
    assert data.X.dtype == data.X_clean.dtype == win.subspace.imageset.images.dtype
    assert np.shares_memory(win.subspace.imageset.images, data.X_clean)        # the images kept once
    for col in win.subspace.columns:
        assert col.runner.data is data and np.shares_memory(col.runner.data.X, data.X)


def test_single_precision_in_the_combo_restarts_every_column_on_one_float32_array(make_window, qtbot):
    win = make_window(methods=("pca-gm", "tc-nmf"), size=(24, 24))
    combo = win.subspace.data_panel.precision_combo
    assert combo.currentData() == "auto" and win.subspace.data.X.dtype == np.float64
    assert combo.currentText() == "auto: double (float64)"
    assert combo.toolTip() == PRECISION_TIP and "half the memory" in combo.itemText(combo.findData("single"))
    X64 = np.array(win.subspace.data.X)
    win.step_all(2)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 2 for c in win.subspace.columns) and not win.busy, timeout=30000)

    _choose(qtbot, combo, "single")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    assert win.session.data.precision == "single" and combo.currentData() == "single"
    _one_shared_array(win)
    np.testing.assert_allclose(win.subspace.data.X, X64, rtol=2 ** -23)     # the same data, rounded
    win.step_all(2)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 2 for c in win.subspace.columns) and not win.busy, timeout=30000)
    for col in win.subspace.columns:
        assert not col.runner.error and np.isfinite(col.runner.states[-1].objective)

    # a size change keeps the precision; undo goes back through the sizes, then to double
    assert win.subspace.set_image_size((20, 20))
    qtbot.waitUntil(lambda: _restarted(win, np.float32) and win.subspace.data.shape == (20, 20), timeout=30000)
    _one_shared_array(win)
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: _restarted(win, np.float32) and win.subspace.data.shape == (24, 24), timeout=30000)
    assert win.undo_stack.undoText().endswith("precision single")
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: _restarted(win, np.float64), timeout=30000)
    assert combo.currentData() == "double" and np.array_equal(win.subspace.data.X, X64)   # the keys passed it
    _one_shared_array(win)


def test_auto_precision_is_single_for_large_images_and_double_for_small(make_window, qtbot, monkeypatch, tmp_path):
    # the threshold lowered to 1 MB, so the 100 faces at 96 × 96 (7.1 MB in double) are "large"
    # and at 20 × 20 (0.3 MB) small, as the 5,000 digits at 96 × 96 (369 MB) are with 256 MB
    monkeypatch.setattr(spec_module, "AUTO_SINGLE_BYTES", 2 ** 20)
    win = make_window(methods=("pca-gm", "tc-nmf"), size=(20, 20))
    panel = win.subspace.data_panel
    combo = panel.precision_combo
    assert win.session.data.precision == "auto" and win.subspace.data.X.dtype == np.float64
    assert combo.currentText() == "auto: double (float64)" and "Auto (the default)" in combo.toolTip()

    _choose(qtbot, panel.size_combo, (96, 96))           # each key press loads the size it reaches
    qtbot.waitUntil(lambda: _restarted(win, np.float32) and win.subspace.data.shape == (96, 96), timeout=30000)
    assert win.session.data.precision == "auto" and combo.currentText() == "auto: single (float32)"
    _one_shared_array(win)
    win.step_all(1)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 1 for c in win.subspace.columns) and not win.busy, timeout=30000)
    assert all(not c.runner.error for c in win.subspace.columns)
    path = tmp_path / "auto.rsl"
    assert win.save_session(path)

    _choose(qtbot, panel.size_combo, (20, 20))           # back to 20 × 20: double again
    qtbot.waitUntil(lambda: _restarted(win, np.float64) and win.subspace.data.shape == (20, 20), timeout=30000)
    assert combo.currentText() == "auto: double (float64)"
    assert win.open_session(path, interactive=False), win.session_error
    qtbot.waitUntil(lambda: win.subspace.data.X.dtype == np.float32 and not win.busy, timeout=30000)
    assert win.session.data.precision == "auto" and combo.currentData() == "auto"


def test_a_corruption_change_in_single_precision_stays_float32(make_window, qtbot):
    win = make_window(methods=("pca",), size=(24, 24))
    _choose(qtbot, win.subspace.data_panel.precision_combo, "single")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    assert win.subspace.set_corruption("salt_pepper", {"fraction": 0.2})
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    _one_shared_array(win)
    # a toy follows the choice too
    assert win.subspace.load_toy("line")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    assert win.session.data.precision == "single"


def test_a_session_file_keeps_single_precision(make_window, qtbot, tmp_path):
    win = make_window(methods=("pca-gm",), size=(24, 24))
    _choose(qtbot, win.subspace.data_panel.precision_combo, "single")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    win.step_all(2)
    qtbot.waitUntil(lambda: win.subspace.columns[0].runner.iteration == 2 and not win.busy, timeout=30000)
    path = tmp_path / "single.rsl"
    assert win.save_session(path)

    other = make_window(methods=("pca",))
    assert other.subspace.data.X.dtype == np.float64
    assert other.open_session(path, interactive=False), other.session_error
    assert other.session.data.precision == "single"
    assert other.subspace.data_panel.precision_combo.currentData() == "single"
    assert other.subspace.columns[0].runner.iteration == 2
    _one_shared_array(other)
    assert np.array_equal(other.subspace.data.X, win.subspace.data.X)
    a, b = win.subspace.columns[0].runner.snapshot().metrics, other.subspace.columns[0].runner.snapshot().metrics
    assert a.keys() == b.keys() and all(np.isclose(float(a[k]), float(b[k])) for k in a)
