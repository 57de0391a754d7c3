"""Export (app.export): every view of a column as PNG and SVG, the data behind it as CSV and NPZ
equal to the snapshot's arrays, and the whole window as PNG."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest
from PySide6 import QtGui

from robust_subspace_lab.app.export import (export_view_data, export_view_image, export_window_png,
                                            read_csv)


@pytest.fixture
def column(qtbot, make_window):
    win = make_window(methods=("pca-gm",))
    col = win.subspace.columns[0]
    win.step_all(2)
    qtbot.waitUntil(lambda: col.runner.iteration == 2 and not win.busy, timeout=20000)
    # (a refresh that draws may finish a frame begun before the steps came: wait for iteration 2's)
    qtbot.waitUntil(lambda: col.shown_snapshot is not None and col.shown_snapshot.iteration == 2
                    and not col.drawing, timeout=20000)
    return win, col


def test_every_view_exports_png_svg_and_its_data(column, tmp_path):
    win, col = column
    snap = col.shown_snapshot
    assert len(col.views()) >= 5
    for view in col.views():
        name = type(view).__name__
        png = export_view_image(view, tmp_path / f"{name}.png")
        img = QtGui.QImage(str(png))
        assert not img.isNull() and img.width() > 0 and img.height() > 0, name
        svg = export_view_image(view, tmp_path / f"{name}.svg")
        root = ET.parse(svg).getroot()
        assert root.tag.endswith("svg"), name
        data = view.export_data(snap)
        assert data, name
        npz = np.load(export_view_data(view, snap, tmp_path / f"{name}.npz"))
        assert set(npz.files) == set(data)
        for key, arr in data.items():
            np.testing.assert_array_equal(npz[key], arr)


def test_csv_round_trips_the_snapshot_arrays(column, tmp_path):
    win, col = column
    snap = col.shown_snapshot
    header, table = read_csv(export_view_data(col.objective_view, snap, tmp_path / "objective.csv"))
    assert header == ["iteration", "objective"]
    np.testing.assert_array_equal(table[:, 0], np.arange(3))
    np.testing.assert_allclose(table[:, 1], snap.objective_history, rtol=1e-9)
    header, table = read_csv(export_view_data(col.weights_view, snap, tmp_path / "weights.csv"))
    assert header[:2] == ["sample", "weight"] and "corrupted" in header
    np.testing.assert_allclose(table[:, 1], snap.sample_weights, rtol=1e-9)
    np.testing.assert_array_equal(table[:, header.index("corrupted")], snap.outliers.astype(int))
    # the basis images as one 3-D array: k·h rows of w values
    header, table = read_csv(export_view_data(col.basis_view, snap, tmp_path / "basis.csv"))
    k, h, w = snap.basis.shape
    assert table.shape == (k * h, w)
    np.testing.assert_allclose(table.reshape(k, h, w), snap.basis, rtol=1e-9, atol=1e-12)


def test_export_refuses_what_does_not_fit(column, tmp_path):
    win, col = column
    snap = col.shown_snapshot
    with pytest.raises(ValueError, match="NPZ"):          # several images of different kinds
        export_view_data(col.recon_view, snap, tmp_path / "recon.csv")
    with pytest.raises(ValueError, match=r"\.png"):
        export_view_image(col.basis_view, tmp_path / "basis.jpg")
    with pytest.raises(ValueError, match="no data"):       # the scatter shows nothing for faces
        export_view_data(col.scatter_view, snap, tmp_path / "scatter.npz")


def test_window_png(column, tmp_path):
    win, col = column
    img = QtGui.QImage(str(export_window_png(win, tmp_path / "window.png")))
    assert (img.width(), img.height()) == (win.width(), win.height())


def test_right_click_on_a_plot_view_opens_its_menu_with_the_exports(column, qtbot):
    """The plot views' ViewBox menus are built on the first right-click, not with the view (4.5 ms
    each, a quarter of a plot view's construction): a right-click opens pyqtgraph's menu with
    "Export image…" and "Export data…"."""
    from PySide6 import QtCore, QtWidgets
    from PySide6.QtTest import QTest

    from robust_subspace_lab.app.views.common import MenuOnDemandViewBox

    win, col = column
    plots = [v for v in col.views() if isinstance(getattr(v, "getPlotItem", None) and v.getPlotItem().vb,
                                                  MenuOnDemandViewBox)]
    assert len(plots) >= 2
    for view in plots:
        vb = view.getPlotItem().vb
        assert vb.menu is None                      # not built with the view
        centre = view.mapFromScene(vb.sceneBoundingRect().center())
        QTest.mouseClick(view.viewport(), QtCore.Qt.RightButton, QtCore.Qt.NoModifier, centre)
        qtbot.waitUntil(lambda: isinstance(QtWidgets.QApplication.activePopupWidget(), QtWidgets.QMenu),
                        timeout=5000)
        menu = QtWidgets.QApplication.activePopupWidget()
        texts = [a.text() for a in menu.actions()]
        assert "View All" in texts and "Export image…" in texts, texts
        assert texts[texts.index("Export image…") + 1] == "Export data…"
        menu.close()
        qtbot.waitUntil(lambda: QtWidgets.QApplication.activePopupWidget() is None, timeout=5000)
