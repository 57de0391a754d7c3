"""The 2-D playground tab, driven as a user would: the mouse drags a point in the plot, clicks add
and remove points, the combo picks a method, Step / Run / Reset and the slider move through the
iterations; the drawn weights, line and cross-section answer."""
from __future__ import annotations

import numpy as np
import pytest
from PySide6 import QtCore
from PySide6.QtTest import QTest

from robust_subspace_lab.app.playground import PlaygroundWorkspace
from robust_subspace_lab.app.views import configure_pyqtgraph
from robust_subspace_lab.app.workspace import Workspace

#: one frame period of the window's ~30 Hz frame timer
FRAME_MS = 33


@pytest.fixture
def tab(qtbot):
    configure_pyqtgraph()
    w = PlaygroundWorkspace(method="pca-gm")
    qtbot.addWidget(w)
    w.resize(1000, 560)
    w.show()
    qtbot.waitExposed(w)
    return w


def _drag(qtbot, tab, i, target_xy, steps=6):
    """Press on point i, move in a few steps to ``target_xy`` (data coordinates), release."""
    vp = tab.glw.viewport()
    start = tab.point_widget_pos(i)
    end = tab.glw.mapFromScene(tab.view_box.mapViewToScene(QtCore.QPointF(*map(float, target_xy))))
    QTest.mousePress(vp, QtCore.Qt.LeftButton, QtCore.Qt.NoModifier, start)
    for k in range(1, steps + 1):
        p = start + (end - start) * (k / steps)
        QTest.mouseMove(vp, QtCore.QPoint(round(p.x()), round(p.y())))
    QTest.mouseRelease(vp, QtCore.Qt.LeftButton, QtCore.Qt.NoModifier, end)
    return end


def test_is_a_workspace(tab):
    assert isinstance(tab, Workspace)
    assert tab.title and tab.tooltip and not tab.uses_data_dock
    assert not tab.running and not tab.busy
    assert "points" in tab.data_text()


def test_dragging_an_outlier_moves_the_line_and_changes_the_drawn_weights_within_a_frame(qtbot, tab):
    tab.set_method("pca")                    # PCA: the line follows the dragged point
    tab.step(2)
    i = int(tab.model.outlier_indices[0])
    line_before = tab.drawn_line()
    tab.set_method("pca-gm")
    sizes_before = tab.drawn_weights()
    pca_gm_line = tab.drawn_line()
    xy0 = tab.model.points[i].copy()
    target = xy0 + np.array([0.0, -2.5])
    end = _drag(qtbot, tab, i, target)
    # the model moved the point where the mouse let go (to within a pixel)
    got = tab.view_box.mapSceneToView(tab.glw.mapToScene(end))
    px = tab.view_box.viewPixelSize()
    assert abs(tab.model.points[i, 0] - got.x()) <= 2 * px[0]
    assert abs(tab.model.points[i, 1] - got.y()) <= 2 * px[1]
    # within one frame period the drawn sizes (weights) changed, and the dragged point is drawn there
    qtbot.waitUntil(lambda: not np.allclose(tab.drawn_weights(), sizes_before), timeout=FRAME_MS)
    x, y = tab.points_item.getData()
    assert abs(x[i] - tab.model.points[i, 0]) < 1e-9 and abs(y[i] - tab.model.points[i, 1]) < 1e-9
    assert not np.allclose(tab.drawn_line(), pca_gm_line)

    tab.set_method("pca")
    line_pca = tab.drawn_line()
    assert not np.allclose(line_pca, line_before)     # PCA's line moved with the point


def test_dragged_point_closer_to_the_line_gains_weight(qtbot, tab):
    """PCA-GM, run to the end: drag an outlier onto the fitted line; its drawn weight grows."""
    tab.run()
    qtbot.waitUntil(lambda: tab.finished, timeout=5000)
    assert not tab.running
    i = int(tab.model.outlier_indices[1])
    before = tab.drawn_weights()[i]
    m, u = tab.model.state.mean, tab.model.state.components[0]
    on_line = m + ((tab.model.points[i] - m) @ u) * u
    _drag(qtbot, tab, i, on_line)
    qtbot.waitUntil(lambda: tab.drawn_weights()[i] > before, timeout=FRAME_MS)
    assert tab.finished                      # refitted to the stopping rule, as it was


def test_click_adds_an_outlier_and_right_click_removes_it(qtbot, tab):
    n = len(tab.model.points)
    vp = tab.glw.viewport()
    spot = tab.glw.mapFromScene(tab.view_box.mapViewToScene(QtCore.QPointF(-3.0, 5.0)))
    QTest.mouseClick(vp, QtCore.Qt.LeftButton, QtCore.Qt.NoModifier, spot)
    qtbot.waitUntil(lambda: len(tab.points_item.getData()[0]) == n + 1, timeout=1000)
    assert tab.model.outliers[-1]
    np.testing.assert_allclose(tab.model.points[-1], [-3.0, 5.0], atol=0.05)
    QTest.mouseClick(vp, QtCore.Qt.RightButton, QtCore.Qt.NoModifier, tab.point_widget_pos(n))
    qtbot.waitUntil(lambda: len(tab.points_item.getData()[0]) == n, timeout=1000)
    QTest.mouseClick(vp, QtCore.Qt.LeftButton, QtCore.Qt.ControlModifier, tab.point_widget_pos(0))
    qtbot.waitUntil(lambda: len(tab.points_item.getData()[0]) == n - 1, timeout=1000)


def test_step_slider_reset_and_the_cross_section(qtbot, tab):
    tab.step(1)
    assert tab.slider.value() == 1 and tab.slider.maximum() == 1
    x, q = tab.surrogate_item.getData()
    _, j = tab.objective_item.getData()
    assert len(q) == len(j) > 10 and np.all(q >= j - 1e-9 * np.abs(j).max())
    tab.step(2)
    assert tab.slider.value() == 3
    tab.slider.setValue(1)
    assert tab.model.shown == 1 and "iteration 1" in tab.plane.titleLabel.text
    tab.reset()
    assert tab.slider.value() == 0 and tab.model.shown == 0
    tab.method_combo.setCurrentIndex(tab.method_combo.findData("pca"))
    assert tab.model.method == "pca"
    xs, _ = tab.surrogate_item.getData()
    assert xs is None or len(xs) == 0
    assert "no surrogate" in tab.section_plot.titleLabel.text


def test_refused_edit_shows_a_message_and_keeps_the_points(qtbot, tab):
    while len(tab.model.points) > 3:
        tab.remove_point(0)
    messages = []
    tab.status.connect(messages.append)
    tab.remove_point(0)
    assert len(tab.model.points) == 3
    assert messages and "at least 3" in messages[-1]
    assert "at least 3" in tab.message.text()


def _offer_a_new_reweighted_method(qtbot):
    """A reweighted PCA written as a subclass of the family's base class, registered: the tab's
    combo offers it, picking it refits with it and the cross-section draws its majoriser."""
    from robust_subspace_lab.core.methods._specs import MAX_ITER, N_COMPONENTS, TOL
    from robust_subspace_lab.core.methods.reweighted import ReweightedPCA
    from robust_subspace_lab.core.params import register

    @register(key="welsch-pca-test", name="Welsch PCA (test)", family="PCA", reference="test",
              summary="PCA with a Welsch loss of fixed width", params=[N_COMPONENTS, MAX_ITER, TOL])
    class WelschPCA(ReweightedPCA):
        def __init__(self, n_components=10, max_iter=100, tol=1e-6):
            self.n_components, self.max_iter, self.tol = n_components, max_iter, tol

        def phi(self, a, s):
            return 1.0 - np.exp(-a / s["h"])

        def dphi(self, a, s):
            return np.exp(-a / s["h"]) / s["h"]

        def _fixed_constants(self, X, a):
            return {"h": 2.0 * float(np.median(a))}

    configure_pyqtgraph()
    tab = PlaygroundWorkspace(method="pca-gm")
    qtbot.addWidget(tab)
    tab.show()
    i = tab.method_combo.findData("welsch-pca-test")
    assert i >= 0 and tab.method_combo.itemText(i) == "Welsch PCA (test)"
    tab.method_combo.setCurrentIndex(i)                # as a user picks it
    assert tab.model.method == "welsch-pca-test" and isinstance(tab.model.estimator, WelschPCA)
    tab.step(2)
    assert "Welsch PCA (test) — iteration 2" in tab.plane.titleLabel.text
    _, q = tab.surrogate_item.getData()
    _, j = tab.objective_item.getData()
    assert len(q) == len(j) > 10 and np.all(q >= j - 1e-9 * np.abs(j).max())
    tab.set_method("pca-gm")                           # the tab lets go of the test's class
    assert tab.model.method == "pca-gm"


def test_a_new_reweighted_method_appears_in_the_combo(qtbot):
    from robust_subspace_lab.core.playground import methods

    _offer_a_new_reweighted_method(qtbot)
    import gc
    gc.collect()
    assert "welsch-pca-test" not in methods()
