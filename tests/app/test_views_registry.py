"""The view registry (app.views.VIEWS): every registered view draws real snapshots of the
built-in data and the toys without error and without NaN text; a view added to the registry
appears in a method column; three columns fit a 1366 × 768 window."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import catalogue, corruption, datasets, toys
from robust_subspace_lab.core.views import snapshot

from robust_subspace_lab.app import views
from robust_subspace_lab.app.views import VIEWS, View, for_task

#: (data, method): faces with rectangles, a low-rank + sparse method, robust NMF with per-pixel
#: weights, a sparse PCA, 2-D points and data of ten features
CASES = [("faces", "pca-gm"), ("faces", "pcp"), ("faces", "tc-nmf"), ("faces", "spca-rsvd"),
         ("line", "pca-gm"), ("hastie", "pca")]


def _data(name):
    if name == "faces":
        return corruption.corrupt(datasets.load_builtin("faces"), "rectangles", seed=0)
    return toys.TOYS[name].function()


def _snapshots(name, key, steps=2):
    data = _data(name)
    est = catalogue.create(key, n_components=min(3, data.X.shape[1] - 1))
    state = est.start(data.X)
    out = [snapshot(state, data, clustering=False)]
    for _ in range(steps):
        state = est.step(state)
        out.append(snapshot(state, data, clustering=False))
    return out


def _texts(widget) -> list[str]:
    """Every text the widget shows: labels, titles, axis labels and ticks, text items."""
    out = [w.text() for w in widget.findChildren(QtWidgets.QLabel)]
    out += [w.currentText() for w in widget.findChildren(QtWidgets.QComboBox)]
    scenes = [widget.scene()] if isinstance(widget, pg.GraphicsView) else []
    scenes += [v.scene() for v in widget.findChildren(pg.GraphicsView)]
    for scene in scenes:
        for item in scene.items():
            if isinstance(item, pg.LabelItem):
                out.append(item.text)
            elif isinstance(item, pg.TextItem):
                out.append(item.textItem.toPlainText())
            elif isinstance(item, pg.AxisItem):
                out.append(item.labelText)
                for level in item.tickValues(*item.range, item.geometry().width() or 100) \
                        if item.range[1] > item.range[0] else []:
                    out += [str(s) for s in item.tickStrings(level[1], 1.0, level[0] or 1.0)]
    return out


def test_registry_lists_each_view_once_with_its_declaration():
    names = [v.name for v in VIEWS]
    assert len(set(VIEWS)) == len(VIEWS) and len(set(names)) == len(names)
    for cls in for_task("subspace") + for_task("regression"):
        assert issubclass(cls, View) and cls.title and cls.tasks <= {"subspace", "regression"}, cls
        assert cls.area in ("side", "curves", "bottom"), cls
    assert {v.__name__ for v in for_task("regression")} >= {"ObjectiveView", "InputImagesView",
                                                          "ConfusionView", "PredictionView"}
    with pytest.raises(ValueError, match="task"):
        for_task("clustering")


@pytest.mark.parametrize("data,key", CASES, ids=[f"{d}-{k}" for d, k in CASES])
def test_every_view_draws_real_snapshots_without_nan(qtbot, data, key):
    snaps = _snapshots(data, key)
    shown = set()
    for cls in for_task("subspace"):
        view = cls()
        qtbot.addWidget(view)
        view.resize(340, 200)
        view.show()
        for snap in snaps:
            if not view.shows(snap):
                continue
            shown.add(cls.__name__)
            view.show_snapshot(snap)
            QtWidgets.QApplication.processEvents()
            bad = [t for t in _texts(view) if "nan" in str(t).lower().split() or "nan" == str(t).lower()]
            assert not bad, (cls.__name__, bad)
            for name, arr in view.export_data(snap).items():
                a = np.asarray(arr)
                assert a.size and (a.dtype.kind not in "fc" or np.all(np.isfinite(a))), (cls.__name__, name)
    expect = {"WeightsView", "ObjectiveView", "ScalarHistoryView"}
    expect |= ({"ScatterView"} if data == "line" else {"LoadingsView"} if data == "hastie"
               else {"BasisView", "ReconView"})
    if key == "tc-nmf":
        expect.add("WeightMapView")
    assert expect <= shown, expect - shown


class _CountView(pg.PlotWidget, View):
    """A view added as a user would: one class, one line in VIEWS."""
    title = "Sample count"
    name = "count_view"
    area = "curves"

    def __init__(self, parent=None):
        super().__init__(parent)
        self.drawn = None

    def show_snapshot(self, snap) -> None:
        self.drawn = None if snap is None else len(snap.outliers)

    def export_data(self, snap) -> dict:
        return {"n": np.array([len(snap.outliers)])}


def test_a_view_added_to_the_registry_appears_in_a_column(qtbot, make_window, monkeypatch):
    monkeypatch.setattr(views, "VIEWS", VIEWS + [_CountView])
    win = make_window(methods=("pca",))
    col = win.subspace.columns[0]
    assert isinstance(col.count_view, _CountView) and col.count_view in col.views()
    col.refresh(force=True)
    qtbot.waitUntil(lambda: col.count_view.drawn == win.subspace.data.n_samples, timeout=10000)
    assert col.count_view.isVisible()


def test_three_columns_fit_1366_by_768(qtbot, make_window, monkeypatch):
    from robust_subspace_lab.app import main_window
    monkeypatch.setattr(main_window, "COLUMN_MIN_WIDTH", 330)
    win = make_window(methods=("pca", "pca-gm", "rpca-om"))
    win.resize(1366, 768)
    qtbot.waitUntil(lambda: win.width() == 1366, timeout=5000)
    for col in win.subspace.columns:
        col.refresh(force=True)
    right = win.centralWidget().mapTo(win, win.centralWidget().rect().topRight()).x()

    def inside(view) -> bool:
        x = view.mapTo(win, view.rect().topLeft()).x()
        return x >= 0 and x + view.width() <= right + 1

    # the views are built and placed one per event-loop turn (app.ui_queue): wait until the
    # columns are laid out at the new size, then check every view
    qtbot.waitUntil(lambda: not win.subspace.build_queue.pending
                    and all(inside(v) for c in win.subspace.columns for v in c.views()), timeout=10000)
    for col in win.subspace.columns:
        assert col.isVisible() and col.width() >= 330
        for view in col.views():
            top_left = view.mapTo(win, view.rect().topLeft())
            # inside the window, not clipped on the right, and large enough to read; a window too
            # low for every view scrolls the columns vertically to each one (app.column.VIEW_MIN_HEIGHT)
            assert top_left.x() >= 0 and top_left.x() + view.width() <= right + 1, type(view).__name__
            assert view.width() >= 100 and view.height() >= 80, (type(view).__name__, view.size())
            centre = view.mapTo(win.subspace.widget(), view.rect().center())
            win.subspace.ensureVisible(centre.x(), centre.y(), 0, view.height() // 2)
            QtWidgets.QApplication.processEvents()
            top_left = view.mapTo(win, view.rect().topLeft())
            assert top_left.y() >= 0 and top_left.y() + view.height() <= win.height(), type(view).__name__


def test_plot_axes_widen_but_never_narrow(qtbot):
    """An objective chart whose tick labels get shorter keeps its axis width (pyqtgraph's
    autoReduceTextSpace off): narrowing re-laid out the plot after the paint that measured the
    labels and painted it a second time, and after a data change the columns' charts repainted
    one another within one turn of the event loop."""
    from types import SimpleNamespace
    from robust_subspace_lab.app.views.objective import ObjectiveView

    view = ObjectiveView()
    qtbot.addWidget(view)
    view.resize(320, 220)
    view.show()
    axis = view.getPlotItem().getAxis("left")
    widths = []
    for values in ([123456.0, 98765.0, 91234.0], [2.5, 1.25, 1.0], [0.0125, 0.011, 0.0105]):
        view.show_snapshot(SimpleNamespace(objective_history=tuple(values), iteration=2, method="PCA"))
        view.grab()                                   # paints: the labels are measured
        QtWidgets.QApplication.processEvents()        # the relayout, if any
        widths.append(axis.width())
    assert widths[0] > 0
    assert widths == sorted(widths), f"the axis narrowed: {widths}"


def test_the_views_scenes_stay_active_when_a_dialog_takes_the_focus(make_window, qtbot):
    """A dialog taking the focus does not deactivate the window's chart scenes: deactivated,
    pyqtgraph's items repaint every chart of the window in the turn that shows the dialog."""
    win = make_window(methods=("pca", "pca-gm"), size=(20, 20))
    win.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is win, timeout=15000)
    scenes = [v.scene() for c in win.subspace.columns for view in c.views()
              for v in view.findChildren(pg.GraphicsView) + ([view] if isinstance(view, pg.GraphicsView) else [])]
    assert scenes and all(s.isActive() for s in scenes)
    box = QtWidgets.QDialog(win)
    box.show()
    box.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is box, timeout=15000)
    assert all(s.isActive() for s in scenes)
    plain = pg.PlotWidget()                 # a scene without the filter is deactivated
    qtbot.addWidget(plain)
    QtWidgets.QApplication.sendEvent(plain.scene(), QtCore.QEvent(QtCore.QEvent.Type.WindowActivate))
    assert plain.scene().isActive()
    QtWidgets.QApplication.sendEvent(plain.scene(), QtCore.QEvent(QtCore.QEvent.Type.WindowDeactivate))
    assert not plain.scene().isActive()
    box.close()
