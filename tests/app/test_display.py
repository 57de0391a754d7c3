"""A window a class can read (issue 28): no clipped text at 1280×720 (two columns) and
1920×1080 (four), thumbnails of at least 48 px, View ▸ Zoom (kept between runs), Presentation
mode and a view shown large, driven by keys and mouse as a person would."""
from __future__ import annotations

import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app.display import ZOOM_KEY
from robust_subspace_lab.app.text_fit import clipped_texts, describe
from robust_subspace_lab.app.views import scaling


def _settle(win, qtbot, steps: int = 2) -> None:
    """Run ``steps`` iterations (fewer in a column that converges first) and wait until every
    column has drawn its newest state."""
    win.step_all(steps)
    qtbot.waitUntil(lambda: not win.busy and all(
        (c.runner.iteration >= steps or c.runner.finished) and c.shown_index == len(c.runner.states) - 1
        and not c.drawing
        and not c.views_pending for c in win.subspace.columns), timeout=20000)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    win.redraw_now()
    QtWidgets.QApplication.processEvents()


def _tile_px(recon) -> QtCore.QRectF:
    """A reconstruction thumbnail as drawn, in screen pixels."""
    return recon.vb.mapViewToDevice(recon.tile_rect(0, 0)).boundingRect()


def test_1280_by_720_two_columns_no_text_clipped_and_thumbnails_of_48_px(make_window, qtbot):
    win = make_window(methods=("pca", "pca-gm"))
    win.resize(1280, 720)
    qtbot.waitUntil(lambda: win.width() == 1280 and win.height() == 720, timeout=5000)
    _settle(win, qtbot)
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    for col in win.subspace.columns:
        tile = _tile_px(col.recon_view)
        assert tile.width() >= 48 and tile.height() >= 48, tile
    # PCA-GM's objective never increases: no caption under its chart
    assert win.subspace.columns[1].objective_view.caption_text() == ""


def test_1920_by_1080_four_columns_no_text_clipped(make_window, qtbot):
    win = make_window(methods=("pca", "pcp"))
    win.subspace.add_column("tc-nmf")           # weight maps with captions, a second scalar axis
    win.subspace.add_column("rpca-om")
    win.resize(1920, 1080)
    qtbot.waitUntil(lambda: win.width() == 1920 and win.height() == 1080, timeout=5000)
    _settle(win, qtbot)
    clips = clipped_texts(win)
    assert not clips, describe(clips)
    right = win.subspace.viewport().width()
    for col in win.subspace.columns:              # all four beside each other, none scrolled off
        x = col.mapTo(win.subspace.viewport(), QtCore.QPoint(0, 0)).x()
        assert 0 <= x and x + col.width() <= right + 1
    # objectives that rise by design say so on the chart itself
    assert "by design" in win.subspace.columns[1].objective_view.caption_text()
    assert "by design" in win.subspace.columns[2].objective_view.caption_text()
    assert win.subspace.columns[3].objective_view.caption_text() == ""


def test_a_clipped_title_is_reported(qtbot):
    """The measure is not blind: a title that cannot wrap (one long word) in a narrow chart."""
    from robust_subspace_lab.app.views.objective import ObjectiveView

    view = ObjectiveView()
    qtbot.addWidget(view)
    view.resize(120, 160)
    view.show()
    view.getPlotItem().setTitle("Supercalifragilisticexpialidocious", size="10pt")
    QtWidgets.QApplication.processEvents()
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    view.setParent(host)
    host.resize(120, 160)
    host.show()
    QtWidgets.QApplication.processEvents()
    clips = clipped_texts(host)
    assert [c.text for c in clips if c.kind == "title"] == ["Supercalifragilisticexpialidocious"]


def test_zoom_in_out_reset_scales_the_fonts_and_is_kept_between_runs(make_window, qtbot, _own_settings):
    win = make_window(methods=("pca",))
    base = scaling.base_font().pointSizeF()
    combo = win.subspace.columns[0].method_combo
    combo_pt = combo.font().pointSizeF()
    qtbot.keyClick(win, QtCore.Qt.Key_Equal, QtCore.Qt.ControlModifier)     # Ctrl+=
    qtbot.waitUntil(lambda: win.display.zoom > 1.0, timeout=3000)
    zoom = win.display.zoom
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base * zoom)
    assert combo.font().pointSizeF() == pytest.approx(combo_pt * zoom, rel=1e-3)   # its own bold font too
    assert scaling.scale() == pytest.approx(zoom)                                 # and the charts
    view = win.subspace.columns[0].objective_view
    assert view.transform().m11() == pytest.approx(zoom)
    assert float(QtCore.QSettings().value(ZOOM_KEY)) == pytest.approx(zoom)
    win.close()
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base)    # closed: unzoomed

    again = make_window(methods=("pca",))                                       # the next run
    qtbot.waitUntil(lambda: again.display.zoom == pytest.approx(zoom), timeout=3000)
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base * zoom)
    qtbot.keyClick(again, QtCore.Qt.Key_Minus, QtCore.Qt.ControlModifier)       # Ctrl+-
    qtbot.keyClick(again, QtCore.Qt.Key_Minus, QtCore.Qt.ControlModifier)
    assert again.display.zoom < 1.0
    assert QtWidgets.QApplication.font().pointSizeF() < base
    qtbot.keyClick(again, QtCore.Qt.Key_0, QtCore.Qt.ControlModifier)           # Ctrl+0
    assert again.display.zoom == 1.0
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base)
    assert again.subspace.columns[0].method_combo.font().pointSizeF() == pytest.approx(combo_pt, rel=1e-3)
    assert float(QtCore.QSettings().value(ZOOM_KEY)) == 1.0


def test_presentation_mode_toggles_full_screen_and_font_scale_and_restores(make_window, qtbot):
    win = make_window(methods=("pca",))
    win.resize(1280, 720)
    base = QtWidgets.QApplication.font().pointSizeF()
    qtbot.keyClick(win, QtCore.Qt.Key_F11)
    qtbot.waitUntil(lambda: win.isFullScreen(), timeout=3000)
    assert win.display.presenting and win.display.zoom > 1.0
    assert QtWidgets.QApplication.font().pointSizeF() > base
    assert win.statusBar().isHidden() and win.data_dock.isHidden()
    assert QtCore.QSettings().value(ZOOM_KEY, 1.0) in (1.0, "1.0")      # not kept: a mode, not a choice
    qtbot.keyClick(win, QtCore.Qt.Key_Escape)
    qtbot.waitUntil(lambda: not win.isFullScreen(), timeout=3000)
    assert not win.display.presenting and win.display.zoom == 1.0
    assert QtWidgets.QApplication.font().pointSizeF() == pytest.approx(base)
    assert not win.statusBar().isHidden() and not win.data_dock.isHidden()
    assert (win.width(), win.height()) == (1280, 720)


def test_double_click_shows_a_view_large_it_keeps_drawing_and_esc_puts_it_back(make_window, qtbot):
    win = make_window(methods=("pca", "pca-gm"))
    win.resize(1280, 720)
    col = win.subspace.columns[1]
    _settle(win, qtbot, 1)
    view = col.weights_view
    small = view.size()
    qtbot.mouseDClick(view.viewport(), QtCore.Qt.LeftButton, pos=view.viewport().rect().center())
    assert win.display.large_view is view
    QtWidgets.QApplication.processEvents()
    assert view.width() > 1.5 * small.width() and view.height() > 1.5 * small.height()
    assert not col.isAncestorOf(view)
    win.step_all(2)                     # live: the column keeps drawing into it
    qtbot.waitUntil(lambda: view.snapshot is not None and view.snapshot.iteration == 3, timeout=20000)
    qtbot.keyClick(win, QtCore.Qt.Key_Escape)
    assert win.display.large_view is None and col.isAncestorOf(view)
    QtWidgets.QApplication.processEvents()
    assert view.size() == small
    # the right-click menu's entry does the same
    view.show_large_action.trigger()
    assert win.display.large_view is view
    view.show_large_action.trigger()
    assert win.display.large_view is None and col.isAncestorOf(view)
