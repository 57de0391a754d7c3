"""Robust regression: paper 004 (Huang, Cabral & De la Torre, "Robust Regression", IEEE TPAMI 2016).

Importing this package registers its methods in :mod:`core.catalogue` with ``task="regression"``
(``catalogue.methods("regression")``): RR, RR-Missing, RLDA, RLDA-Missing and the baselines LSR,
Ridge, LDA, TLS, RPCA+LSR, RANSAC.

Quick start::

    from robust_subspace_lab.core.regression import RR, data, views
    d = data.synthetic_3d(seed=0)
    est = RR(lam_scale=3, eta=100, alpha=1e-2)
    state = est.start(d.X_train, d.targets_train)
    while not est.finished(state):
        state = est.step(state)
        snap = views.regression_snapshot(state, d)     # what a view draws
    est.fit(d.X_train, d.targets_train).predict(d.X_test, clean=True)

Samples are rows: X (n_samples, n_features), Y (n_samples, n_outputs); T (n_outputs,
n_features + 1) with the intercept last. See :mod:`core.regression._base`.
"""
from ._base import RegressionEstimator, RegressionState
from .estimators import RLDA, RR, RLDAMissing, RRMissing, TestCleaning, clean_test
from .baselines import LDA, RANSAC, TLS, LeastSquares, Ridge, RidgeRegression, RPCALS
from . import data, views  # noqa: F401

__all__ = ["RegressionEstimator", "RegressionState", "RR", "RRMissing", "RLDA", "RLDAMissing",
           "TestCleaning", "clean_test", "LeastSquares", "RidgeRegression", "Ridge", "LDA", "TLS", "RPCALS", "RANSAC",
           "data", "views"]
