"""Robust Subspace Lab core: robust subspace methods as steppable estimators, data, corruptions
and metrics. Pure numpy/scipy/scikit-image; never imports Qt.

Quick start::

    from robust_subspace_lab.core import catalogue, datasets, corruption, metrics
    faces = datasets.lfw_faces()
    data = corruption.corrupt(faces, "rectangles", fraction=0.2, seed=0)
    est = catalogue.create("pca-gm", n_components=10, p=0.3).fit(data.X)
    metrics.reconstruction_error(est.components_, data.X, data.X_clean)
"""
from .base import State, SteppableEstimator
from .errors import DataError, ParameterError, SolverError

__all__ = ["State", "SteppableEstimator", "DataError", "ParameterError", "SolverError"]
