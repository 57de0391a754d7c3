"""The View contract (docs/architecture.md, "How to add a view"): every registered view, of both
tasks, declares a static ``shows`` and takes ``show_snapshot(None)``, which clears it: after a
real snapshot was drawn, None leaves no data drawn (no curve, point, bar or image but the colour
bars' fixed scales). A method column passes None before its first state and when its run
restarts; a view that kept the old drawing then showed another run's result."""
from __future__ import annotations

import inspect

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6 import QtWidgets

from robust_subspace_lab.core import catalogue, corruption, datasets, toys
from robust_subspace_lab.core.regression import data as rdata
from robust_subspace_lab.core.regression.views import regression_snapshot
from robust_subspace_lab.core.session import training_targets
from robust_subspace_lab.core.views import snapshot

from robust_subspace_lab.app.regression.outcome_views import ConfusionView, PredictionView, TestSamplesView
from robust_subspace_lab.app.views import for_task
from robust_subspace_lab.app.views.common import ColorBar

REGISTERED = list(dict.fromkeys(for_task("subspace") + for_task("regression")))

#: the regression Test section's views are drawn from the test outcome, not a snapshot
#: (RegressionWorkspace._draw_test): drawn here through their own methods, then cleared by None
OUTCOME = {
    TestSamplesView: lambda v: v.show_rows(np.full((2, 2, 8, 8), 128.0), ["a", "b"], ["#333", "#333"]),
    ConfusionView: lambda v: v.show_counts(np.array([[3, 1], [0, 4]]), ["0", "1"], "confusion"),
    PredictionView: lambda v: v.show_predictions(np.arange(6.0).reshape(3, 2), np.arange(6.0).reshape(3, 2) + 1),
}


def _subspace_snapshots() -> list:
    out = []
    faces = corruption.corrupt(datasets.load_builtin("faces", size=(16, 16)), "rectangles", seed=0)
    for data, key in ((faces, "tc-nmf"), (faces, "pcp"), (toys.TOYS["line"].function(), "pca-gm"),
                      (toys.TOYS["hastie"].function(), "pca")):
        est = catalogue.create(key, n_components=min(3, data.X.shape[1] - 1))
        out.append(snapshot(est.step(est.start(data.X)), data, clustering=False))
    return out


def _regression_snapshots() -> list:
    digits = rdata.regression_data(corruption.corrupt(rdata.digits_subset(6, 0, (16, 16)), "black_square"),
                                   test_fraction=0.5, seed=0, task="classification")
    out = []
    for data, key in ((rdata.synthetic_3d(seed=0), "rr"), (digits, "rlda")):
        est = catalogue.create(key)
        out.append(regression_snapshot(est.step(est.start(data.X_train, training_targets(est, data))), data))
    return out


@pytest.fixture(scope="module")
def snapshots():
    return {"subspace": _subspace_snapshots(), "regression": _regression_snapshots()}


def _in_colour_bar(item) -> bool:
    while item is not None:
        if isinstance(item, ColorBar):
            return True
        item = item.parentItem()
    return False


def _drawn(view) -> dict[str, int]:
    """What the view shows now: entries of each kind of visible data item (curves, points, bars,
    images; the colour bars' scales left out)."""
    scenes = [view.scene()] if isinstance(view, pg.GraphicsView) else []
    scenes += [v.scene() for v in view.findChildren(pg.GraphicsView)]
    out: dict[str, int] = {}
    for scene in scenes:
        for item in scene.items():
            if not item.isVisible() or _in_colour_bar(item):
                continue
            if isinstance(item, pg.PlotCurveItem):
                n = len(item.getData()[0] if item.getData()[0] is not None else ())
            elif isinstance(item, pg.ScatterPlotItem):
                n = len(item.data)
            elif isinstance(item, pg.ImageItem):
                n = 0 if item.image is None else item.image.size
            elif isinstance(item, pg.BarGraphItem):
                n = int(np.size(item.opts.get("height")))
            else:
                continue
            if n:
                out[type(item).__name__] = out.get(type(item).__name__, 0) + n
    return out


def test_every_registered_view_declares_the_contract():
    for cls in REGISTERED:
        assert isinstance(inspect.getattr_static(cls, "shows"), staticmethod), cls   # asked before it is built
        assert callable(getattr(cls, "show_snapshot", None)), cls
        assert not cls.shows(None), cls                       # nothing to show without a snapshot


@pytest.mark.parametrize("cls", REGISTERED, ids=[c.__name__ for c in REGISTERED])
def test_show_snapshot_none_clears_the_view(qtbot, snapshots, cls):
    view = cls()
    qtbot.addWidget(view)
    view.resize(340, 240)
    view.show()
    if cls in OUTCOME:
        OUTCOME[cls](view)
    else:
        tasks = sorted(cls.tasks)
        snap = next(s for t in tasks for s in snapshots[t] if cls.shows(s))
        view.show_snapshot(snap)
    QtWidgets.QApplication.processEvents()
    assert _drawn(view), f"{cls.__name__} drew nothing: the check below would prove nothing"
    view.show_snapshot(None)
    QtWidgets.QApplication.processEvents()
    assert _drawn(view) == {}, f"{cls.__name__} still shows {_drawn(view)} after show_snapshot(None)"
