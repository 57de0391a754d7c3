"""Issue 28's last layout limits, driven as a person sees them and measured with
:func:`app.text_fit.clipped_texts`: reconstruction thumbnails of at least 48 px with three columns
beside the lesson panel at 1280×720, a wrapping label given the height of its wrapped text (the
lesson panel's "Checked: …" line), tick labels crowded out (a confusion matrix 70 px
across), and a scalar combo too narrow for its text (elided, the whole text in its
tooltip)."""
from __future__ import annotations

import numpy as np
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.app.layout import WrappedLabel
from robust_subspace_lab.app.text_fit import clipped_texts, describe

LONG = ("Checked at iteration 31: every claim it asserts holds; 2 paper claim(s) do not reproduce "
        "(as declared).")


def _host(qtbot, *widgets, width: int, height: int) -> QtWidgets.QWidget:
    """A window of ``width`` × ``height`` px holding ``widgets`` one above the other, the first
    stretching (as the lesson panel's step text does)."""
    host = QtWidgets.QWidget()
    qtbot.addWidget(host)
    lay = QtWidgets.QVBoxLayout(host)
    for i, w in enumerate(widgets):
        lay.addWidget(w, 1 if i == 0 else 0)
    host.resize(width, height)
    host.show()
    qtbot.waitExposed(host)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    return host


def test_the_lesson_panels_state_line_gets_the_height_of_its_wrapped_text(make_window, qtbot):
    win = make_window(methods=("pca",))
    win.resize(1280, 720)
    panel = win.lesson_panel
    panel.show()
    win.resizeDocks([panel], [240], QtCore.Qt.Horizontal)       # its least width: the line wraps
    qtbot.waitUntil(lambda: panel.width() < 400, timeout=5000)
    panel.state_label.setText(LONG)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    label = panel.state_label
    assert label.heightForWidth(label.width()) > 2 * label.fontMetrics().lineSpacing()
    assert label.height() >= label.heightForWidth(label.width())
    assert not [c for c in clipped_texts(win) if c.text == LONG], describe(clipped_texts(win))
    label.setText("Checked: every claim it asserts holds.")           # shorter: the room follows
    QtWidgets.QApplication.processEvents()
    assert label.minimumHeight() == label.heightForWidth(label.width())


def test_a_wrapped_label_in_a_squeezed_layout_is_never_shorter_than_its_lines(qtbot):
    label = WrappedLabel(LONG)
    host = _host(qtbot, QtWidgets.QTextBrowser(), label, width=240, height=300)
    host.layout().setSizeConstraint(QtWidgets.QLayout.SetNoConstraint)
    host.resize(240, 60)                       # less than everything needs
    QtWidgets.QApplication.processEvents()
    assert label.height() >= label.heightForWidth(label.width()) > 2 * label.fontMetrics().lineSpacing()


def test_tick_labels_crowded_out_are_reported_and_a_confusion_matrix_has_room(qtbot):
    from robust_subspace_lab.app.regression.outcome_views import ConfusionView

    view = ConfusionView()
    counts = np.diag(np.full(10, 5)) + 1
    host = _host(qtbot, view, width=90, height=110)
    view.show_counts(counts, [str(c) for c in range(10)], "Confusion (plain)")
    QtWidgets.QApplication.processEvents()
    kinds = {c.kind for c in clipped_texts(host)}
    # the axes leave out the names that would run into each other (common.Axis.generateDrawSpecs):
    # a name of a class missing is reported
    assert "tick labels left out" in kinds, kinds

    m = host.layout().contentsMargins()
    w, h = ConfusionView.MIN_SIZE
    host.resize(w + m.left() + m.right(), h + m.top() + m.bottom())      # the view at its least size
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert (view.width(), view.height()) == ConfusionView.MIN_SIZE
    assert not clipped_texts(host), describe(clipped_texts(host))


def test_a_scalar_name_too_long_for_its_chart_is_elided_with_the_whole_name_in_the_tooltip(qtbot):
    from robust_subspace_lab.app.views.scalars import ScalarHistoryView

    view = ScalarHistoryView()
    host = _host(qtbot, view, width=140, height=220)
    history = {"truncated fraction": np.array([0.2, 0.2, 0.2]), "γ": np.array([3.0, 2.0, 1.5])}
    view.show_snapshot(_snapshot(history))
    view.choose("truncated fraction")
    QtWidgets.QApplication.processEvents()
    combo = view.combo
    assert combo.currentText() == "truncated fraction  (constant)"
    assert combo.shown_text().endswith("…") and combo.shown_text() != combo.currentText()
    assert combo.currentText() in combo.toolTip()
    assert combo.mapTo(host, QtCore.QPoint(combo.width(), 0)).x() <= host.width()
    assert not [c for c in clipped_texts(host) if "QComboBox" in c.kind], describe(clipped_texts(host))

    host.resize(420, 220)                               # room: the whole text, the plain tooltip
    QtWidgets.QApplication.processEvents()
    QtWidgets.QApplication.processEvents()
    assert combo.shown_text() == combo.currentText()
    assert combo.currentText() not in combo.toolTip()


def _snapshot(history):
    """A snapshot with only a scalar history (what the scalar view reads)."""
    from types import SimpleNamespace

    return SimpleNamespace(scalar_history=history, iteration=len(next(iter(history.values()))) - 1)


def test_three_columns_beside_the_lesson_panel_at_1280_by_720_get_thumbnails_of_48_px(make_window, qtbot):
    win = make_window(methods=("pca", "pca-gm"))
    win.subspace.add_column("pca-gm")
    win.resize(1280, 720)
    win.lesson_panel.show()                   # the Data dock makes room: three columns fit beside it
    win.resizeDocks([win.lesson_panel], [250], QtCore.Qt.Horizontal)
    qtbot.waitUntil(lambda: win.width() == 1280 and all(c.runner.states for c in win.subspace.columns)
                    and not win.busy and all(not c.views_pending for c in win.subspace.columns), timeout=20000)
    win.step_all(1)
    qtbot.waitUntil(lambda: not win.busy and all(c.shown_index == len(c.runner.states) - 1 and not c.drawing
                                                 for c in win.subspace.columns), timeout=20000)
    for _ in range(3):
        QtWidgets.QApplication.processEvents()
    win.redraw_now()
    QtWidgets.QApplication.processEvents()
    for col in win.subspace.columns:
        assert col.width() < 400                          # narrow: side by side they were 40 px
        recon = col.recon_view
        tile = recon.vb.mapViewToDevice(recon.tile_rect(0, 0)).boundingRect()
        assert tile.width() >= 48 and tile.height() >= 48, (col.width(), tile)
    clips = clipped_texts(win)
    assert not clips, describe(clips)


def test_columns_that_do_not_fit_side_by_side_say_which_are_in_view(make_window, qtbot):
    win = make_window(methods=("pca", "pca"))
    for _ in range(2):
        win.subspace.add_column("pca")
    win.resize(1280, 720)                                       # four beside the Data dock do not fit
    cue = win.subspace.columns_cue
    qtbot.waitUntil(lambda: len(win.subspace.columns) == 4 and cue.isVisible(), timeout=20000)
    assert "of 4" in cue.text() and "to the right ▶" in cue.text(), cue.text()
    bar = win.subspace.horizontalScrollBar()
    before = bar.value()
    qtbot.mouseClick(cue, QtCore.Qt.LeftButton)                # the next column comes into view
    qtbot.waitUntil(lambda: bar.value() > before, timeout=5000)
    bar.setValue(bar.maximum())
    qtbot.waitUntil(lambda: "to the left" in cue.text() and "to the right" not in cue.text(), timeout=5000)
    assert not [c for c in clipped_texts(win) if "columnsCue" in c.where], describe(clipped_texts(win))
    win.resize(2600, 720)                                       # all in view: no cue
    qtbot.waitUntil(lambda: not cue.isVisible(), timeout=5000)


def test_numbers_along_a_narrow_axis_are_spread_not_written_into_each_other(qtbot):
    import pyqtgraph as pg

    from robust_subspace_lab.app.views.common import style_plot

    def chart(styled: bool):
        view = pg.PlotWidget()
        if styled:
            style_plot(view.getPlotItem(), "", "iteration", "")
        view.getPlotItem().setXRange(0, 90, padding=0)
        view.getPlotItem().setYRange(590, 720, padding=0)
        return view

    raw = chart(False)
    host = _host(qtbot, raw, width=110, height=160)           # pyqtgraph's own ticks: 20 40 60 80
    assert "overlapping tick labels" in {c.kind for c in clipped_texts(host)}, describe(clipped_texts(host))
    styled = chart(True)
    host = _host(qtbot, styled, width=110, height=160)
    assert not [c for c in clipped_texts(host) if "tick" in c.kind], describe(clipped_texts(host))
    from robust_subspace_lab.app.text_fit import _tick_texts

    assert _tick_texts(styled.getPlotItem().getAxis("bottom"))[0], "still a number along it"


def test_an_axis_label_is_set_again_only_when_its_text_changes(qapp):
    """The app's :class:`Axis` re-renders its label when the text or the SI prefix changes (a
    range from metres to kilometres), not at every range change (pyqtgraph did, ~0.12 ms each,
    twice per chart per frame)."""
    import pyqtgraph as pg

    from robust_subspace_lab.app.views.common import Axis, plot_widget_kwargs, style_plot

    plot = pg.PlotItem(**plot_widget_kwargs())
    style_plot(plot, "A chart", "distance")
    axis = plot.getAxis("bottom")
    assert isinstance(axis, Axis) and not plot.getAxis("top").isVisible()
    axis.setLabel("distance", units="m")
    set_html = []
    original = axis.label.setHtml
    axis.label.setHtml = lambda html: (set_html.append(html), original(html))
    for hi in (1.0, 2.0, 3.0):
        plot.setXRange(0, hi, padding=0)
        plot.vb.updateViewRange()
    assert set_html == []                                    # the same label: not set again
    plot.setXRange(0, 5000, padding=0)
    plot.vb.updateViewRange()
    assert len(set_html) == 1 and "km" in axis.label.toPlainText()
    axis.setLabel("height", units="m")
    assert "height" in axis.label.toPlainText()


def _flush():
    for _ in range(4):                       # layout requests, then the window's repaint
        QtWidgets.QApplication.sendPostedEvents(None, 0)
        QtWidgets.QApplication.processEvents()


def test_a_relayout_that_changes_no_size_leaves_the_scroll_bars_unpainted(qtbot):
    """ScrollRangesOnChange: a label's new text relayouts the scrolled widget but changes none of
    its size constraints: the scroll bars are not repainted (with both bars shown, Qt raised one
    above the other at each such relayout, repainting both); a taller widget still gets its new
    scroll range, the range Qt gives without the filter."""
    from robust_subspace_lab.app.layout import ScrollRangesOnChange

    def area(filtered: bool):
        sa = QtWidgets.QScrollArea()
        qtbot.addWidget(sa)
        sa.setWidgetResizable(True)
        inner = QtWidgets.QWidget()
        lay = QtWidgets.QVBoxLayout(inner)
        block = QtWidgets.QWidget()
        block.setMinimumSize(600, 600)               # both scroll bars shown
        label = QtWidgets.QLabel("iteration 1")
        label.setSizePolicy(QtWidgets.QSizePolicy.Ignored, QtWidgets.QSizePolicy.Fixed)
        lay.addWidget(block)
        lay.addWidget(label)
        sa.setWidget(inner)
        if filtered:
            ScrollRangesOnChange(sa)
        sa.resize(400, 300)
        sa.show()
        qtbot.waitExposed(sa)
        _flush()
        return sa, block, label

    sa, block, label = area(True)
    plain, plain_block, _ = area(False)
    bar = sa.verticalScrollBar()
    assert sa.horizontalScrollBar().isVisible() and bar.isVisible() and bar.maximum() == plain.verticalScrollBar().maximum() > 0
    painted = []

    class Paints(QtCore.QObject):
        def eventFilter(self, obj, event):
            if event.type() == QtCore.QEvent.Paint:
                painted.append(obj)
            return False
    spy = Paints()
    label.setText("iteration 1 of a run")        # (the first relayout after showing settles the hints)
    _flush()
    bar.installEventFilter(spy)
    for i in range(2, 6):
        label.setText(f"iteration {i} of a run")
        _flush()
        assert painted == [], i
    before = bar.maximum()
    block.setMinimumHeight(900)
    plain_block.setMinimumHeight(900)
    _flush()
    assert bar.maximum() == plain.verticalScrollBar().maximum() > before
