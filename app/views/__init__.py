"""The view registry. A view is one class in one file (``app/views/<name>.py``, or
``app/regression/views.py`` for the regression workspace) that declares what it shows and for
which tasks (:class:`View`); adding a view is that file plus one line in :data:`VIEWS`.

A method column builds one of each view of task ``"subspace"`` (:func:`for_task`), places it by
its ``area`` and shows it when ``view.shows(snapshot)``. Each draws one :class:`core.views.Snapshot`
(or :class:`core.regression.views.RegressionSnapshot`); none computes anything numerical (only
reshaping and colour levels for display). The data behind a view is ``view.export_data(snapshot)``
(see :mod:`app.export`).

Subspace views (method columns):

* :class:`WeightsView`     per-sample weights (log bars), outlier scores ‖eᵢ‖ or mean pixel
                           weights (linear bars); samples the corruption touched in red
* :class:`WeightMapView`   per-pixel weights Q of the chosen samples (robust NMF, paper 003),
                           0–1 colour scale with a colour bar, truncated pixels in red
* :class:`ObjectiveView`   objective against iteration, line with markers
* :class:`ScalarHistoryView`  one of the method's scalars (rank, μ, δ, γ, …) against iteration,
                           optionally a second one on a right axis (truncated fraction)
* :class:`BasisView`       the first basis images, levels symmetric around 0 (eigenfaces) or from
                           0 (NMF parts: black = 0), with a colour bar
* :class:`LoadingsView`    components of data with few features as a heat map (zeros visible)
* :class:`ReconView`       clean | corrupted | reconstruction | residual (| E) of the chosen samples
* :class:`ScatterView`     2-D data (toy examples): points, outliers, mean and direction lines
"""
from __future__ import annotations

from .common import (COLORS, LINE_COLORS, RESIDUAL_RANGE, TITLE_SIZE, TRUNCATED_COLOR, TRUNCATED_NAME,
                      WEIGHT_CMAP, ZERO_COLOR, ZERO_NAME, View, DecadeAxis, Message, Mosaic, style_plot,
                      Title, configure_pyqtgraph, is_scatter, is_strip, keep_scenes_active)
from .basis import BasisView
from .loadings import LoadingsView
from .objective import ObjectiveView
from .recon import ReconView
from .scalars import ScalarHistoryView
from .scatter import ScatterView
from .weight_maps import WeightMapView
from .weights import WeightsView

# names other modules (app.regression.views, tests) import from here
__all__ = ["VIEWS", "View", "for_task", "WeightsView", "BasisView", "ObjectiveView", "ReconView",
           "ScalarHistoryView", "ScatterView", "LoadingsView", "WeightMapView", "COLORS", "ZERO_COLOR",
           "TRUNCATED_COLOR", "configure_pyqtgraph", "is_scatter", "is_strip", "LINE_COLORS", "RESIDUAL_RANGE", "TITLE_SIZE",
           "TRUNCATED_NAME", "WEIGHT_CMAP", "ZERO_NAME", "DecadeAxis", "Message", "Mosaic", "style_plot",
           "Title", "keep_scenes_active"]

#: Every view, in the order a workspace places them (within each area). One line per view.
VIEWS: list[type] = [
    WeightsView,
    WeightMapView,
    ObjectiveView,
    ScalarHistoryView,
    BasisView,
    LoadingsView,
    ReconView,
    ScatterView,
]


def _regression_views() -> list[type]:
    # imported here: app.regression imports this package (its views build on the mosaics)
    from ..regression import views as rv
    return list(rv.REGISTERED)


def for_task(task: str) -> list[type]:
    """The registered view classes of ``task`` ("subspace" or "regression"), in registry order.

    Raises:
        ValueError: ``task`` is neither "subspace" nor "regression".
    """
    if task not in ("subspace", "regression"):
        raise ValueError(f"task must be 'subspace' or 'regression', got {task!r}")
    every = VIEWS + [v for v in _regression_views() if v not in VIEWS]
    return [v for v in every if task in v.tasks]
