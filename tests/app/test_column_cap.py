"""The "+ Column" button and Columns ▸ Add column stop at MAX_COLUMNS, saying why."""
from __future__ import annotations

from PySide6 import QtCore

from robust_subspace_lab.app.subspace_workspace import MAX_COLUMNS


def test_add_column_refuses_beyond_the_cap_and_comes_back_after_a_removal(make_window, qtbot):
    win = make_window(methods=("pca",), size=(16, 16))
    ws = win.subspace
    button = win.subspace.add_column_button
    add_action = next(a for a in win.subspace.menu().actions() if a.text() == "&Add column")
    while button.isEnabled():
        qtbot.mouseClick(button, QtCore.Qt.LeftButton)
    assert len(win.subspace.columns) == MAX_COLUMNS
    assert not add_action.isEnabled() and str(MAX_COLUMNS) in button.toolTip()
    messages = []
    ws.status.connect(messages.append)
    assert ws.request_column() is None
    assert len(win.subspace.columns) == MAX_COLUMNS and f"At most {MAX_COLUMNS} columns" in messages[-1]
    win.subspace.remove_column(win.subspace.columns[-1])
    assert button.isEnabled() and add_action.isEnabled()
    add_action.trigger()
    assert len(win.subspace.columns) == MAX_COLUMNS
