"""Issue 28, driven as a person would: the collapse line of a column, Step after convergence, F1
on the focused column, the playground's majorizer."""
from __future__ import annotations

from PySide6 import QtCore, QtGui

from robust_subspace_lab.core import guide

WAIT = 30000  # ms; an upper bound, the waits usually end in well under a second


def _run_to_the_end(qtbot, win):
    win.run_all()
    qtbot.waitUntil(lambda: win.subspace.finished and not win.busy, timeout=WAIT)
    for col in win.subspace.columns:
        col.refresh(force=True)


def test_collapse_line_shows_on_a_collapsing_setting_and_not_on_the_default(qtbot, make_window):
    win = make_window()                               # the opening window: PCA, PCA-GM (k = 5, p = 0.3)
    _run_to_the_end(qtbot, win)
    gm = win.subspace.columns[1]
    # Step after convergence does not count on, and says so
    ended = [c.runner.states[-1].iteration for c in win.subspace.columns]
    win.step_all()
    assert not win.busy                               # nothing queued
    assert [c.runner.states[-1].iteration for c in win.subspace.columns] == ended
    assert "does not count on" in win.statusBar().currentMessage()
    assert gm.iteration_label.text().startswith(f"iteration {ended[1]} ") and "converged at" in gm.iteration_label.text()
    assert gm.runner.key == "pca-gm"
    assert "effective n = " in gm.scalars_label.text()
    assert gm.collapse_note.isHidden()
    assert "effective n" not in win.subspace.columns[0].scalars_label.text()      # PCA does not reweight
    # "+ Column" adds the next method with the window's k = 5, not the catalogue's 10 (which
    # collapses ℓ2,p-PCA-OM and PCA-GM on these 100 faces)
    added = win.subspace.request_column()
    assert added.key == "l2p-pca-om" and added.runner.params["n_components"] == 5
    # k = 8 and p = 0.1 on the same 100 faces: an occluded face enters the subspace and carries the fit
    gm.param_group().child("n_components").setValue(8)
    gm.param_group().child("p").setValue(0.1)
    qtbot.waitUntil(lambda: gm.runner.params["p"] == 0.1 and gm.runner.params["n_components"] == 8
                    and not win.busy, timeout=WAIT)
    _run_to_the_end(qtbot, win)
    col = gm
    assert added.collapse_note.isHidden() and "effective n = " in added.scalars_label.text()
    qtbot.waitUntil(col.collapse_note.isVisible, timeout=WAIT)
    text = col.collapse_note.text()
    assert "weights collapsed:" in text and "samples carry" in text and "% of the weight" in text
    assert "(Σw)²/Σw²" in col.collapse_note.toolTip()
    box = col.show_help()                            # the "?" says why and what changes it
    assert "Collapsed weights" in box.informativeText() and "a larger p" in box.informativeText()
    box.close()


def test_f1_opens_the_focused_columns_help(qtbot, make_window):
    win = make_window()
    second = win.subspace.columns[1]
    second.runner.step(500)                           # more steps than it needs: ends at the stopping rule
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert second.runner.states[-1].converged and second.runner.states[-1].iteration < 500
    win.activateWindow()
    second.method_combo.setFocus(QtCore.Qt.OtherFocusReason)
    qtbot.waitUntil(second.method_combo.hasFocus, timeout=WAIT)
    shortcut = [a for a in win.help_menu.actions() if QtGui.QKeySequence("F1") in a.shortcuts()]
    assert len(shortcut) == 1 and "What you are seeing" in shortcut[0].text()
    qtbot.keyClick(second.method_combo, QtCore.Qt.Key_F1)
    qtbot.waitUntil(lambda: second.help_box is not None and second.help_box.isVisible(), timeout=WAIT)
    assert guide.text(second.runner.key) in second.help_box.informativeText()
    assert win.subspace.columns[0].help_box is None or not win.subspace.columns[0].help_box.isVisible()
    second.help_box.close()
    first = win.subspace.columns[0]                            # Help ▸ What you are seeing: the focused one too
    first.method_combo.setFocus(QtCore.Qt.OtherFocusReason)
    qtbot.waitUntil(first.method_combo.hasFocus, timeout=WAIT)
    shortcut[0].trigger()
    assert first.help_box is not None and first.help_box.isVisible() and not second.help_box.isVisible()
    first.help_box.close()


def test_playground_majorizer_is_a_visible_bowl_for_pca_gm(qtbot):
    """PCA-GM's majorizer in the playground is a fraction of a degree wide: the section plot
    zooms so that the bowl spans a good part of the view instead of a vertical line."""
    import numpy as np
    from robust_subspace_lab.app.playground import PlaygroundWorkspace
    tab = PlaygroundWorkspace(method="pca-gm")
    qtbot.addWidget(tab)
    tab.resize(1000, 560)
    tab.show()
    tab.run()
    qtbot.waitUntil(lambda: tab.model.finished and tab.drawn_version == tab.model.version, timeout=WAIT)
    (x0, x1), (y0, y1) = tab.section_plot.viewRange()
    x, q = tab.surrogate_item.getData()
    visible = x[(q <= y1) & (x >= x0) & (x <= x1)]
    assert np.ptp(visible) > 0.25 * (x1 - x0)         # the bowl, not a line
