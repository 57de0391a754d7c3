"""Edit ▸ Undo / Redo (issue 14, point 6): parameter, method, data and corruption changes."""
from __future__ import annotations

import numpy as np


def _idle(win, qtbot, n=None):
    qtbot.waitUntil(lambda: not win.busy and all(bool(c.runner.states) for c in win.subspace.columns)
                    and (n is None or all(c.runner.iteration == n for c in win.subspace.columns)), timeout=15000)


def test_undo_redo_of_a_parameter_change_restores_the_value_shown_and_restarts(make_window, qtbot):
    win = make_window(methods=("pca-gm",), size=(24, 24))
    col = win.subspace.columns[0]
    p0 = col.runner.params["p"]
    col.param_group().child("p").setValue(0.8)        # as the parameter tree does
    col.apply_params()
    _idle(win, qtbot)
    assert col.runner.params["p"] == 0.8
    win.step_all(2)
    _idle(win, qtbot, 2)
    assert win.undo_action.isEnabled()

    win.undo_action.trigger()
    _idle(win, qtbot, 0)                              # the run restarted with the old value
    assert col.runner.params["p"] == p0
    assert col.param_group().child("p").value() == p0
    assert not win.undo_action.isEnabled() and win.redo_action.isEnabled()

    win.redo_action.trigger()
    _idle(win, qtbot, 0)
    assert col.runner.params["p"] == 0.8 and col.param_group().child("p").value() == 0.8


def test_undo_of_a_method_change(make_window, qtbot):
    win = make_window(methods=("pca",), size=(24, 24))
    col = win.subspace.columns[0]
    col.runner.set_method("pca-gm")
    col._sync_controls()
    _idle(win, qtbot)
    assert col.key == "pca-gm"
    win.undo_stack.undo()
    _idle(win, qtbot)
    assert col.key == "pca" and col.method_combo.currentData() == "pca"


def test_undo_redo_of_a_corruption_change_restores_the_data(make_window, qtbot):
    win = make_window(methods=("pca-gm",), size=(24, 24))     # (PCA, solved at 0, would not step)
    key0, params0, X0 = win.subspace.corruption_key, win.subspace.corruption_params, np.array(win.subspace.data.X)
    assert win.subspace.set_corruption("salt_pepper", {"density": 0.3})
    _idle(win, qtbot)
    X1 = np.array(win.subspace.data.X)
    assert not np.array_equal(X0, X1)
    win.step_all(1)
    _idle(win, qtbot, 1)

    win.undo_stack.undo()
    _idle(win, qtbot, 0)
    assert win.subspace.corruption_key == key0 and win.subspace.corruption_params == params0
    assert np.array_equal(win.subspace.data.X, X0)
    assert win.undo_stack.count() == 1 and win.undo_stack.index() == 0   # undo recorded nothing new

    win.undo_stack.redo()
    _idle(win, qtbot, 0)
    assert win.subspace.corruption_key == "salt_pepper" and np.array_equal(win.subspace.data.X, X1)


def test_undo_of_a_data_source_change(make_window, qtbot):
    win = make_window(methods=("pca",), size=(24, 24))
    name0 = win.subspace.source
    assert win.subspace.load_builtin("digits", size=(16, 16))
    _idle(win, qtbot)
    assert win.subspace.source[1] == "digits"
    win.undo_stack.undo()
    _idle(win, qtbot)
    assert win.subspace.source == name0 and win.subspace.size_option == (24, 24)


def test_the_stack_keeps_the_newest_changes_within_its_limit(make_window, qtbot):
    from robust_subspace_lab.app.undo import UNDO_LIMIT

    win = make_window(methods=("pca-gm",), size=(16, 16))
    runner = win.subspace.columns[0].runner
    for i in range(UNDO_LIMIT + 20):
        runner.set_params({"p": 0.3 + 0.001 * (i + 1)})
    assert win.undo_stack.count() == UNDO_LIMIT
    assert win.undo_stack.command(UNDO_LIMIT - 1).new[1]["p"] == 0.3 + 0.001 * (UNDO_LIMIT + 20)
