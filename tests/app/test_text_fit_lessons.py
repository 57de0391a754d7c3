"""No text is clipped in the Regression and Playground tabs after a run, and the Regression tab
does not make the window wider than a 1280×720 screen (issue 28: its 593 px metrics table beside
a 260 px status line and a 340 px panel made the window 1,645 px wide with the lesson panel;
the confusion matrix's counts overlapped; the surrogate's formula widened the Playground's plot
and cut its legend). Measured with :func:`app.text_fit.clipped_texts`, as
``benchmarks/screenshots.py`` does for every lesson."""
from __future__ import annotations

import pytest
from PySide6 import QtWidgets

from robust_subspace_lab.app.text_fit import clipped_texts, describe
from robust_subspace_lab.core import lessons

WAIT = 30000  # ms; generous upper bound


def _open_at_1280(make_window, qtbot, key: str):
    """A 1280×720 window on lesson ``key``'s first step, once its run has stopped and its
    claims are checked, every view drawn."""
    win = make_window()
    win.resize(1280, 720)
    qtbot.waitUntil(lambda: win.width() == 1280 and win.height() == 720, timeout=5000)
    win.open_lesson(lessons.get(key))
    driver = win.lesson_panel.driver
    qtbot.waitUntil(lambda: not driver.error and driver.results is not None and not win.busy
                    and not driver._actions, timeout=WAIT)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    win.redraw_now()
    QtWidgets.QApplication.processEvents()
    return win


def _drawn(qtbot, ws) -> None:
    qtbot.waitUntil(lambda: not ws.busy and ws.runner.finished and ws.shown_snapshot is not None
                    and ws.shown_snapshot.iteration == ws.runner.iteration, timeout=WAIT)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()


@pytest.mark.slow
def test_regression_tab_after_rr_and_rlda_runs_fits_1280_by_720(make_window, qtbot):
    win = _open_at_1280(make_window, qtbot, "paper004-table1-rr")      # RR on the 3-D example
    ws = win.regression
    assert win.tabs.currentWidget() is ws and win.lesson_panel.isVisible()
    _drawn(qtbot, ws)
    assert "converged at iteration" in ws.iteration_label.text()
    # the views scroll up and down at this height: the part the step frames is scrolled into view
    box = ws.test_box
    assert box.visibleRegion().boundingRect().height() == box.height(), box.visibleRegion().boundingRect()
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    assert win.width() <= 1280 and win.minimumSizeHint().width() <= 1280, win.minimumSizeHint()

    # RLDA on small occluded digits: a 10 × 10 confusion matrix whose counts must not overlap
    ws.open(source="digits", method="rlda", corruption_key="black_square")
    group = ws.options_group()
    group.child("per_class").setValue(12)
    group.child("size").setValue("16×16")
    qtbot.waitUntil(lambda: ws.data is not None and ws.data.shape == (16, 16)
                    and int(ws.data.train.sum()) == 60 and not ws.busy, timeout=WAIT)
    win.run_all()
    _drawn(qtbot, ws)
    win.redraw_now()
    QtWidgets.QApplication.processEvents()
    assert ws.method_info.key == "rlda" and ws.confusion_view.isVisible()
    assert ws.confusion_view.counts.shape == (10, 10)
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    assert win.width() <= 1280 and win.minimumSizeHint().width() <= 1280, win.minimumSizeHint()


@pytest.mark.slow
def test_playground_after_the_huber_and_gaussian_steps_fits_1280_by_720(make_window, qtbot):
    win = _open_at_1280(make_window, qtbot, "weights-what-is-a-weight")
    panel = win.lesson_panel
    for _ in range(len(win.lesson_panel.driver.lesson.steps) - 1):   # to the last step: HQ-PCA's formula
        panel.next_button.click()
        qtbot.waitUntil(lambda: not panel.driver.error and not win.busy and not panel.driver._actions
                        and (panel.driver.results is not None or not panel.driver.step.claims
                             or panel.driver.step.action.kind == "wait"), timeout=WAIT)
    pg_tab = win.workspace_for("playground")
    assert win.tabs.currentWidget() is pg_tab
    QtWidgets.QApplication.processEvents()
    win.redraw_now()
    QtWidgets.QApplication.processEvents()
    assert "φ(a)" in pg_tab.section_plot.titleLabel.text          # the long formula is shown
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    assert win.width() <= 1280
