"""Three columns beside the lesson panel at 1280×720 (issue 28): every column in sight (none
reached only by scrolling sideways), no text clipped, the parameter values whole, and the Data
dock back as the user left it when the panel closes. The lesson is written here: the paper 003
Table IV setting (three NMFs on blocked faces), two iterations instead of convergence."""
from __future__ import annotations

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app.text_fit import clipped_texts, describe
from robust_subspace_lab.core import lessons

THREE_NMFS = '''
key = "three-nmfs-test"
title = "Three NMFs on blocked faces"
concept = "NMF"
teaches = "Three columns beside the panel."
seed = 5

[[steps]]
title = "Two iterations"
text = "NMF, Cauchy NMF and Truncated Cauchy NMF on faces with blocks of value 550."
look_at = "weight_maps"
action = { kind = "steps", n = 2 }

[steps.setup]
task = "subspace"
data = "builtin:faces"
corruption = "value_block"
corruption_params = { size = 10, value = 550.0 }
methods = [ { key = "nmf", params = { n_components = 10 } },
            { key = "cauchy-nmf", params = { n_components = 10 } },
            { key = "tc-nmf", params = { n_components = 10 } } ]

[[steps.claims]]
text = "TC-NMF made two iterations"
check = "iterations[3] == 2"
'''


def test_three_columns_fit_beside_the_lesson_panel_at_1280_by_720(make_window, qtbot):
    lesson = lessons.loads(THREE_NMFS)
    win = make_window()
    win.resize(1280, 720)
    qtbot.waitUntil(lambda: win.width() == 1280 and win.height() == 720, timeout=5000)
    assert win.data_dock.isVisible()
    with qtbot.waitSignal(win.lesson_panel.driver.evaluated, timeout=30000):
        win.open_lesson(lesson)
    qtbot.waitUntil(lambda: not win.busy and len(win.subspace.columns) == 3 and all(
        c.shown_index == len(c.runner.states) - 1 and not c.drawing and not c.views_pending
        for c in win.subspace.columns), timeout=30000)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    win.redraw_now()
    win.grab()                                 # painted once, as on a screen (views fit their labels as they paint)
    QtWidgets.QApplication.processEvents()

    assert win.lesson_panel.isVisible() and not win.data_dock.isVisible()     # the lesson sets the data
    right = win.subspace.viewport().width()
    for col in win.subspace.columns:                    # all three in sight, none scrolled off
        x = col.mapTo(win.subspace.viewport(), QtCore.QPoint(0, 0)).x()
        assert 0 <= x and x + col.width() <= right + 1, (x, col.width(), right)
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    for col in win.subspace.columns:                    # each value as wide as its text, its name shortened if need be
        tree = col.tree
        it = QtWidgets.QTreeWidgetItemIterator(tree)
        while it.value():
            item = it.value()
            it += 1
            label = getattr(item, "displayLabel", None)
            if label is None or not label.isVisible():
                continue
            room = tree.viewport().width() - label.mapTo(tree.viewport(), QtCore.QPoint(0, 0)).x()
            assert label.fontMetrics().horizontalAdvance(label.text()) <= min(label.width(), room), label.text()

    win.lesson_panel.close()                   # the panel's close button: the Data dock is back
    qtbot.waitUntil(lambda: win.data_dock.isVisible(), timeout=5000)


def test_a_combo_box_running_past_its_parent_is_reported(qtbot):
    """The measure sees a combo box cut by the widget that holds it (not a scroll area)."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    host.resize(160, 40)
    combo = QtWidgets.QComboBox(host)
    combo.addItem("truncated fraction")
    combo.setGeometry(100, 5, 150, 26)         # 90 of its 150 px outside the host
    host.show()
    QtWidgets.QApplication.processEvents()
    assert [c.text for c in clipped_texts(host)] == ["truncated fraction"]
    combo.setGeometry(0, 5, 150, 26)
    assert clipped_texts(host) == []
