"""The lesson panel, the Lessons menu and File ▸ Open lesson…, driven as a teacher would (issue 28).

A tiny lesson written here (the 2-D line toy of paper 000, two small columns) keeps these tests to
seconds: step 1 sets PCA and PCA-GM up and steps 3 iterations; step 2 sets three columns (one
added: the window builds it in parts) and steps 2; step 3 keeps step 2's results and runs to
convergence.
"""
from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app.lessons_menu import ENTRY_CHARS
from robust_subspace_lab.core import lessons

WAIT = 30000

TINY = '''
key = "tiny-test"
title = "A tiny lesson"
concept = "Weights"
teaches = "Three steps on the 2-D line toy."
seed = 3

[[steps]]
title = "Three iterations"
text = """PCA-GM reweights each sample by wᵢ = ‖eᵢ‖^(p−2): watch the weights of the outliers fall.
Inliers ε ~ N(0, 0.5²), outliers ε ~ N(0, 3²)."""
look_at = "weights"
action = { kind = "steps", n = 3 }

[steps.setup]
task = "subspace"
data = "toy:line"
methods = [ { key = "pca", params = { n_components = 1 } },
            { key = "pca-gm", params = { n_components = 1, p = 0.3 } } ]

[[steps.claims]]
text = "PCA-GM has made three iterations"
check = "iterations[2] == 3"
source = "ours"

[[steps.claims]]
text = "PCA's objective is negative"
check = "objective[1] < 0"
source = "ours"

[[steps.claims]]
text = "PCA-GM's objective is negative"
check = "objective[2] < 0"
source = "paper"
expect = "does-not-reproduce"
reason = "a sum of powers of norms is never negative"

[[steps]]
title = "Another p"
text = "Two iterations with p = 0.5."
look_at = "objective"
action = { kind = "steps", n = 2 }

[steps.setup]
task = "subspace"
data = "toy:line"
methods = [ { key = "pca-gm", params = { n_components = 1, p = 0.5 } },
            { key = "pca-gm", params = { n_components = 1, p = 0.1 } },
            { key = "pca", params = { n_components = 1 } } ]

[[steps.claims]]
text = "Both made two iterations"
check = "iterations[1] == 2 and iterations[2] == 2"

[[steps]]
title = "To the end"
text = "Run on from here until the stopping rule holds."
look_at = "loadings"
action = { kind = "converge" }

[[steps.claims]]
text = "PCA-GM went on past iteration 2"
check = "iterations[1] > 2"
'''


@pytest.fixture
def tiny(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    return path


def _choose_file(monkeypatch, path) -> None:
    """The next file dialog answers ``path`` (as if the user picked it)."""
    monkeypatch.setattr(QtWidgets.QFileDialog, "getOpenFileName",
                        staticmethod(lambda *a, **k: (str(path), "Lessons (*.toml)")))


def _open_file(qtbot, win, monkeypatch, path):
    """File ▸ Open lesson… on ``path``; returns once step 1's claims are checked."""
    _choose_file(monkeypatch, path)
    with qtbot.waitSignal(win.lesson_panel.driver.evaluated, timeout=WAIT):
        win.open_lesson_action.trigger()
    return win.lesson_panel


def _click_and_check(qtbot, panel, button):
    with qtbot.waitSignal(panel.driver.evaluated, timeout=WAIT):
        qtbot.mouseClick(button, QtCore.Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.driver.settled, timeout=WAIT)


def _leaves(menu):
    for act in menu.actions():
        if act.menu() is not None:
            yield from _leaves(act.menu())
        elif act.data() is not None:
            yield act


def test_lessons_menu_opens_a_lesson_on_step_one(qtbot, make_window):
    win = make_window()
    groups = lessons.by_concept()
    if not groups:
        pytest.skip("no lessons shipped")
    titles = [a.text().replace("&", "") for a in win.lessons_menu.actions() if a.menu() is not None]
    assert [t for t in titles if t != "Papers"] == [c.replace("&", "") for c in groups if c != "Papers"]
    shipped = [x for members in groups.values() for x in members]
    entries = {a.data(): a for a in _leaves(win.lessons_menu)}
    assert set(entries) == {x.key for x in shipped}               # every lesson, papers included
    for lesson in shipped:        # "title — teaches" in the menu (cut at ENTRY_CHARS), whole in the tips
        act = entries[lesson.key]
        text = act.text().replace("&&", "&")
        assert len(text) <= ENTRY_CHARS and " — " in text and text.split(" — ")[0] in lesson.title
        assert lesson.teaches in act.statusTip() and lesson.teaches in act.toolTip()
    concept = [x for c, members in groups.items() if c != "Papers" for x in members]
    lesson = (concept or shipped)[0]
    assert not win.lesson_panel.isVisible()
    win.lesson_panel.toggleViewAction().trigger()                   # View ▸ Lesson panel, no lesson yet
    assert win.lesson_panel.title_label.text() == "No lesson open"
    assert "Lessons" in win.lesson_panel.text.toPlainText() and not win.lesson_panel.next_button.isEnabled()
    entries[lesson.key].trigger()                                   # as a teacher picks it
    panel = win.lesson_panel
    assert panel.isVisible() and panel.lesson.key == lesson.key
    assert panel.count_label.text() == f"Step 1 of {len(lesson.steps)}"
    assert panel.step_title.text() == lesson.steps[0].title
    assert lesson.steps[0].text.split()[0] in panel.text.toPlainText()
    assert not panel.back_button.isEnabled()


def test_open_lesson_file_runs_step_one_checks_claims_and_stays_through_data_changes(qtbot, make_window, monkeypatch, tiny):
    win = make_window()
    panel = _open_file(qtbot, win, monkeypatch, tiny)
    assert panel.isVisible()
    assert panel.title_label.text() == "A tiny lesson"
    assert panel.count_label.text() == "Step 1 of 3"
    assert "wᵢ = ‖eᵢ‖^(p−2)" in panel.text.toPlainText()
    assert "ε ~ N(0, 0.5²), outliers ε ~ N(0, 3²)" in panel.text.toPlainText()      # not struck through
    assert "line-through" not in panel.text.document().toHtml()
    assert [c.runner.key for c in win.subspace.columns] == ["pca", "pca-gm"]
    assert win.subspace.source[1] == "line"
    assert win.subspace.columns[1].runner.iteration == 3             # PCA (closed form) stops at 0
    # the claims: ✓ with its number, ✗ for the false one, the paper's non-reproducing one declared
    shown = panel.claims.toPlainText()
    ok, bad, declared = shown.split("\n")[:3]
    assert ok.startswith("✓ PCA-GM has made three iterations") and "3" in ok and "[ours]" in ok
    assert bad.startswith("✗ PCA's objective is negative") and "[ours]" in bad
    assert declared.startswith("✗ PCA-GM's objective is negative") and "[paper]" in declared
    assert "does not reproduce: a sum of powers of norms is never negative" in shown
    assert [r.ok for r in panel.results] == [True, False, True]
    # the view to look at is framed in every column
    from robust_subspace_lab.app.lesson_highlight import HighlightFrame
    for col in win.subspace.columns:
        framed = [v for v in col.view_list if v.findChild(HighlightFrame)]
        assert [type(v).name for v in framed] == ["weights_view"]
    # the panel stays through a data change, and checks the claims again on the new data
    old = win.subspace.data
    with qtbot.waitSignal(panel.driver.evaluated, timeout=WAIT):   # re-checked on the new data
        assert win.subspace.load_toy("line", {"seed": 11})
    assert win.subspace.data is not old
    assert panel.isVisible() and panel.lesson.key == "tiny-test" and panel.count_label.text() == "Step 1 of 3"
    assert not panel.results[0].ok        # the new data restarted the columns: not at iteration 3
    assert "✗ PCA-GM has made three iterations" in panel.claims.toPlainText()
    # closed from View, it frames no view; shown again, the same step
    panel.toggleViewAction().trigger()
    assert not panel.isVisible()
    from robust_subspace_lab.app.lesson_highlight import HighlightFrame
    assert not any(v.findChild(HighlightFrame) for c in win.subspace.columns for v in c.view_list)
    panel.toggleViewAction().trigger()
    assert panel.isVisible() and panel.count_label.text() == "Step 1 of 3"
    # a larger application font (View ▸ Zoom, presentation mode) enlarges the panel's text with it
    app = QtWidgets.QApplication.instance()
    before, size = app.font(), panel.text.font().pointSizeF()
    bigger = QtWidgets.QApplication.font()
    bigger.setPointSizeF(bigger.pointSizeF() * 1.5)
    try:
        app.setFont(bigger)
        qtbot.waitUntil(lambda: abs(panel.text.font().pointSizeF() - 1.5 * size) < 0.01, timeout=WAIT)
        assert panel.title_label.font().pointSizeF() > panel.text.font().pointSizeF()
    finally:
        app.setFont(before)


def test_next_and_back_apply_each_steps_setup_and_action(qtbot, make_window, monkeypatch, tiny):
    win = make_window()
    panel = _open_file(qtbot, win, monkeypatch, tiny)
    _click_and_check(qtbot, panel, panel.next_button)
    assert panel.count_label.text() == "Step 2 of 3" and panel.step_title.text() == "Another p"
    assert [(c.runner.key, c.runner.params.get("p")) for c in win.subspace.columns] == \
        [("pca-gm", 0.5), ("pca-gm", 0.1), ("pca", None)]
    assert [c.runner.iteration for c in win.subspace.columns][:2] == [2, 2]
    assert panel.results[0].ok and "✓ Both made two iterations" in panel.claims.toPlainText()
    # step 3 has no setup: it goes on from step 2's results to convergence
    _click_and_check(qtbot, panel, panel.next_button)
    assert [c.runner.key for c in win.subspace.columns] == ["pca-gm", "pca-gm", "pca"]
    assert all(c.runner.finished for c in win.subspace.columns) and win.subspace.columns[0].runner.iteration > 2
    assert panel.results[0].ok and not panel.next_button.isEnabled()
    assert panel.look_label.text() == "Look at: Loadings (not shown for these data)"     # 2-D points: a scatter
    # Back to step 2: its setup and its 2 iterations again (not step 3's converged run)
    _click_and_check(qtbot, panel, panel.back_button)
    assert panel.count_label.text() == "Step 2 of 3" and panel.next_button.isEnabled()
    assert [c.runner.key for c in win.subspace.columns] == ["pca-gm", "pca-gm", "pca"]
    assert [c.runner.iteration for c in win.subspace.columns][:2] == [2, 2]
    # Again: the step from its setup once more, after the student stepped on
    win.step_all(3)
    qtbot.waitUntil(lambda: win.subspace.columns[0].runner.iteration == 5 and not win.busy, timeout=WAIT)
    _click_and_check(qtbot, panel, panel.again_button)
    assert panel.count_label.text() == "Step 2 of 3"
    assert [c.runner.iteration for c in win.subspace.columns][:2] == [2, 2]
    # Back, and Next again while step 1's data are still loading: the panel ends on step 2, whole
    QtCore.QTimer.singleShot(0, panel.next_button.click)
    qtbot.mouseClick(panel.back_button, QtCore.Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.driver.settled and panel.results is not None, timeout=WAIT)
    assert panel.index == 1 and panel.count_label.text() == "Step 2 of 3" and panel.step_title.text() == "Another p"
    assert [c.runner.key for c in win.subspace.columns] == ["pca-gm", "pca-gm", "pca"]
    assert [c.runner.iteration for c in win.subspace.columns][:2] == [2, 2] and panel.results[0].ok


def test_a_broken_lesson_file_says_where_and_changes_nothing(qtbot, make_window, monkeypatch, tmp_path):
    win = make_window()
    broken = tmp_path / "broken.toml"
    broken.write_text(TINY.replace('action = { kind = "steps", n = 2 }', 'action = { kind = "run" }'),
                      encoding="utf-8")
    win.step_all(2)
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    before = (win.subspace.data, win.subspace.source, win.subspace.corruption_key, win.subspace.corruption_params,
              [(c.runner.key, dict(c.runner.params), c.runner.iteration, c.runner.version) for c in win.subspace.columns])
    _choose_file(monkeypatch, broken)
    win.open_lesson_action.trigger()
    box = win.lesson_error_box
    assert box.isVisible() and box.icon() == QtWidgets.QMessageBox.Warning
    line = 1 + TINY.split('action = { kind = "steps", n = 2 }')[0].count("\n")
    assert "broken.toml" in box.text() and f"line {line}: steps[2].action.kind" in box.text()
    assert not win.lesson_panel.isVisible() and win.lesson_panel.lesson is None
    assert not win.busy
    after = (win.subspace.data, win.subspace.source, win.subspace.corruption_key, win.subspace.corruption_params,
             [(c.runner.key, dict(c.runner.params), c.runner.iteration, c.runner.version) for c in win.subspace.columns])
    assert after[0] is before[0] and after == before


def test_pause_while_a_step_is_being_set_up_stops_the_steps_action(qtbot, make_window, monkeypatch, tiny):
    """Pause pressed while the step's columns are still being built: the step's iterations are
    not run once they are built (they were: the paper 002 Table 4 lesson ran on to convergence
    after the user's Pause). Again runs the step."""
    win = make_window()
    panel = _open_file(qtbot, win, monkeypatch, tiny)
    qtbot.mouseClick(panel.next_button, QtCore.Qt.LeftButton)     # step 2 adds a third column
    assert win.busy and panel.driver._actions                       # built by later jobs
    win.pause_all()
    qtbot.waitUntil(lambda: len(win.subspace.columns) == 3 and not win.busy and panel.driver.settled, timeout=WAIT)
    assert [c.runner.iteration for c in win.subspace.columns] == [0, 0, 0]
    _click_and_check(qtbot, panel, panel.again_button)
    assert [c.runner.iteration for c in win.subspace.columns][:2] == [2, 2]
