"""The Data panel's precision choice (issue 12, point 4): the combo rebuilds the data in single
precision in the background data job, every column restarts on the one float32 array, undo
brings double precision back, and a session file keeps the choice."""
from __future__ import annotations

import numpy as np
from PySide6 import QtCore

from robust_subspace_lab.app.data_panel import PRECISION_TIP


def _choose(qtbot, combo, value: str) -> None:
    """Pick ``value`` in the closed combo with the keyboard, as a person would."""
    combo.setFocus()
    target = combo.findData(value)
    key = QtCore.Qt.Key_Down if target > combo.currentIndex() else QtCore.Qt.Key_Up
    while combo.currentIndex() != target:
        qtbot.keyClick(combo, key)


def _restarted(win, dtype) -> bool:
    return (win.data is not None and win.data.X.dtype == dtype and not win.busy
            and all(c.runner.data is win.data and c.runner.iteration == 0 for c in win.columns))


def _one_shared_array(win) -> None:
    data = win.data
    assert data.X.dtype == data.X_clean.dtype == win.imageset.images.dtype
    assert np.shares_memory(win.imageset.images, data.X_clean)        # the images kept once
    for col in win.columns:
        assert col.runner.data is data and np.shares_memory(col.runner.data.X, data.X)


def test_single_precision_in_the_combo_restarts_every_column_on_one_float32_array(make_window, qtbot):
    win = make_window(methods=("pca-gm", "tc-nmf"), size=(24, 24))
    combo = win.subspace.data_panel.precision_combo
    assert combo.currentData() == "double" and win.data.X.dtype == np.float64
    assert combo.toolTip() == PRECISION_TIP and "half the memory" in combo.itemText(combo.findData("single"))
    X64 = np.array(win.data.X)
    win.step_all(2)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 2 for c in win.columns) and not win.busy, timeout=30000)

    _choose(qtbot, combo, "single")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    assert win.session.data.precision == "single" and combo.currentData() == "single"
    _one_shared_array(win)
    np.testing.assert_allclose(win.data.X, X64, rtol=2 ** -23)     # the same data, rounded
    win.step_all(2)
    qtbot.waitUntil(lambda: all(c.runner.iteration == 2 for c in win.columns) and not win.busy, timeout=30000)
    for col in win.columns:
        assert not col.runner.error and np.isfinite(col.runner.states[-1].objective)

    # a size change keeps the precision; undo goes back through the sizes, then to double
    assert win.set_image_size((20, 20))
    qtbot.waitUntil(lambda: _restarted(win, np.float32) and win.data.shape == (20, 20), timeout=30000)
    _one_shared_array(win)
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: _restarted(win, np.float32) and win.data.shape == (24, 24), timeout=30000)
    assert win.undo_stack.undoText().endswith("precision single")
    win.undo_stack.undo()
    qtbot.waitUntil(lambda: _restarted(win, np.float64), timeout=30000)
    assert combo.currentData() == "double" and np.array_equal(win.data.X, X64)
    _one_shared_array(win)


def test_a_corruption_change_in_single_precision_stays_float32(make_window, qtbot):
    win = make_window(methods=("pca",), size=(24, 24))
    _choose(qtbot, win.subspace.data_panel.precision_combo, "single")
    qtbot.waitUntil(lambda: _restarted(win, np.float32), timeout=30000)
    assert win.set_corruption("salt_pepper", {"fraction": 0.2})
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
    qtbot.waitUntil(lambda: win.columns[0].runner.iteration == 2 and not win.busy, timeout=30000)
    path = tmp_path / "single.rsl"
    assert win.save_session(path)

    other = make_window(methods=("pca",))
    assert other.data.X.dtype == np.float64
    assert other.open_session(path, interactive=False), other.session_error
    assert other.session.data.precision == "single"
    assert other.subspace.data_panel.precision_combo.currentData() == "single"
    assert other.columns[0].runner.iteration == 2
    _one_shared_array(other)
    assert np.array_equal(other.data.X, win.data.X)
    a, b = win.columns[0].runner.snapshot().metrics, other.columns[0].runner.snapshot().metrics
    assert a.keys() == b.keys() and all(np.isclose(float(a[k]), float(b[k])) for k in a)
