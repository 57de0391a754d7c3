"""Degenerate data, for every method of the catalogue (issue: "trust what it shows").

Each method either fits (weights, components, diagnostics and the metrics the app shows all
finite) or refuses *before the run* with :class:`DataError` naming the condition. No other
exception (scipy's ``ArpackError``, ``LinAlgError``, a ZeroDivision...) may reach a user, and no
NaN may appear in a state, a diagnostic or a metric.
"""
from __future__ import annotations

import dataclasses
import math
import warnings

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, corruption
from robust_subspace_lab.core.errors import DataError
from robust_subspace_lab.core.regression.views import regression_snapshot
from robust_subspace_lab.core.views import snapshot

SHAPE = (6, 8)          # 48 pixels per image
N = 60


def _images(X: np.ndarray) -> np.ndarray:
    return X.reshape(len(X), *SHAPE)


def _rank2(rng) -> np.ndarray:
    """Non-negative rank-2 data (NMF needs X >= 0), 0–255."""
    A = rng.uniform(0, 1, (N, 2))
    B = rng.uniform(0, 1, (2, SHAPE[0] * SHAPE[1]))
    return 255 * (A @ B) / (A @ B).max()


def _one_pixel() -> np.ndarray:
    X = np.zeros((N, SHAPE[0] * SHAPE[1]))
    X[0, 5] = 255.0
    return X


def _one_different() -> np.ndarray:
    X = np.full((N, SHAPE[0] * SHAPE[1]), 100.0)
    X[3] = np.linspace(0, 255, X.shape[1])
    return X


def _exact_subspace(rng) -> np.ndarray:
    """Samples lying exactly on a 1-D affine subspace but one: zero residuals for the rest."""
    d = SHAPE[0] * SHAPE[1]
    t = rng.uniform(0, 1, (N, 1))
    X = 50 + 150 * t * np.linspace(0, 1, d)[None, :]
    X[0] = rng.uniform(0, 255, d)
    return X


REFUSED = {   # name → data: every method must refuse these with DataError before the run
    "all zero": lambda rng: np.zeros((N, 48)),
    "constant": lambda rng: np.full((N, 48), 7.0),
    "one sample": lambda rng: rng.uniform(0, 255, (1, 48)),
}
FITTED = {    # name → data: every method must fit these, or refuse with DataError
    "rank 2, k above the rank": _rank2,
    "zero but one pixel": lambda rng: _one_pixel(),
    "one sample differs": lambda rng: _one_different(),
    "samples exactly on a line": _exact_subspace,
}


def _small(info, **extra) -> dict:
    """Fast settings: few iterations, k = 5 where the method has components."""
    names = {s.name for s in info.params}
    params = {k: v for k, v in {"n_components": 5, "max_iter": 15, "inner_max_iter": 10,
                                "restarts": 0, "k_nonzero": 10}.items() if k in names}
    params.update(extra)
    return params


def _numbers(obj, path="") -> list[tuple[str, float]]:
    """Every float reachable in ``obj`` (dataclasses, mappings, sequences, arrays)."""
    out = []
    if obj is None or isinstance(obj, (str, bytes, bool)):
        return out
    if isinstance(obj, (int, float, np.floating, np.integer)):
        return [(path, float(obj))]
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind in "fc" and obj.size and not np.all(np.isfinite(obj)):
            return [(path, float("nan"))]
        return out
    if dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            if not f.name.startswith("_"):
                out += _numbers(getattr(obj, f.name), f"{path}.{f.name}")
        return out
    if hasattr(obj, "items"):
        for k, v in obj.items():
            out += _numbers(v, f"{path}[{k!r}]")
        return out
    if isinstance(obj, (tuple, list)):
        for i, v in enumerate(obj):
            out += _numbers(v, f"{path}[{i}]")
    return out


def _assert_finite(obj, what: str) -> None:
    bad = [p for p, v in _numbers(obj) if not math.isfinite(v)]
    assert not bad, f"{what}: NaN/inf at {bad[:5]}"


SUBSPACE = [m.key for m in catalogue.methods("subspace")]
REGRESSION = [m.key for m in catalogue.methods("regression")]


def _run_subspace(key: str, X: np.ndarray):
    info = catalogue.get(key)
    est = info.create(**_small(info))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(est.iterate(X))
    return est, states


@pytest.mark.parametrize("case", list(REFUSED))
@pytest.mark.parametrize("key", SUBSPACE)
def test_subspace_refuses_data_without_variation(key, case):
    X = REFUSED[case](np.random.default_rng(0))
    with pytest.raises(DataError):
        _run_subspace(key, X)


@pytest.mark.parametrize("key", [k for k in SUBSPACE if "n_components" in catalogue.get(k).defaults()])
def test_subspace_refuses_fewer_samples_than_components(key):
    X = np.random.default_rng(0).uniform(0, 255, (4, 48))
    with pytest.raises(DataError, match="n_components"):
        _run_subspace(key, X)


@pytest.mark.parametrize("case", list(FITTED))
@pytest.mark.parametrize("key", SUBSPACE)
def test_subspace_fits_degenerate_data_without_nan(key, case):
    X = FITTED[case](np.random.default_rng(1))
    try:
        est, states = _run_subspace(key, X)
    except DataError:
        return                                   # refused before the run, with a named condition
    data = corruption.corrupt(_images(X), "none")
    for state in (states[0], states[-1]):
        _assert_finite(state, f"{key} on {case!r}, state {state.iteration}")
        _assert_finite(snapshot(state, data, clustering=False), f"{key} on {case!r}, view of state {state.iteration}")
    assert est.status(states[-1]) in ("converged", "max_iter")


def _regression_data(X: np.ndarray, classifier: bool, rng):
    from robust_subspace_lab.core.regression.data import RegressionData

    n = len(X)
    train = np.arange(n) % 4 != 0
    if classifier:
        labels = np.arange(n) % 3
        Y = np.eye(3)[labels]
        return RegressionData(X=X, Y=Y, train=train, X_clean=X.copy(), labels=labels, classes=(0, 1, 2),
                              shape=SHAPE), labels
    Y = X[:, :2] * 0.5 + rng.normal(0, 1, (n, 2))
    return RegressionData(X=X, Y=Y, train=train, X_clean=X.copy(), shape=SHAPE), Y


def _run_regression(key: str, X: np.ndarray, rng):
    info = catalogue.get(key)
    est = info.create(**_small(info))
    data, targets = _regression_data(X, est._classifier, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        states = list(est.iterate(X[data.train], targets[data.train]))
    return est, states, data


@pytest.mark.parametrize("case", ["all zero", "constant"])
@pytest.mark.parametrize("key", REGRESSION)
def test_regression_refuses_data_without_variation(key, case):
    rng = np.random.default_rng(0)
    X = REFUSED[case](rng)
    with pytest.raises(DataError):
        _run_regression(key, X, rng)


@pytest.mark.parametrize("case", list(FITTED))
@pytest.mark.parametrize("key", REGRESSION)
def test_regression_fits_degenerate_data_without_nan(key, case):
    rng = np.random.default_rng(2)
    X = FITTED[case](rng)
    try:
        est, states, data = _run_regression(key, X, rng)
    except DataError:
        return
    for state in (states[0], states[-1]):
        _assert_finite(state, f"{key} on {case!r}, state {state.iteration}")
        _assert_finite(regression_snapshot(state, data), f"{key} on {case!r}, view of state {state.iteration}")
    assert est.status(states[-1]) in ("converged", "max_iter")


@pytest.mark.parametrize("key", SUBSPACE)
def test_subspace_refuses_missing_entries_in_words_for_a_user(key):
    """The 'missing blocks' corruption writes NaN; a subspace method refuses it before the run
    with a message naming the method and the corruption, not scikit-learn's options."""
    from robust_subspace_lab.core import datasets
    images = datasets.load_builtin("faces", size=(12, 12))
    X = corruption.missing_blocks(images, share=0.1, block=3, seed=1).X
    assert np.isnan(X).any()
    with pytest.raises(DataError) as info:
        _run_subspace(key, X)
    text = str(info.value)
    assert catalogue.get(key).create().name in text and "missing blocks" in text
    assert "allow_nan" not in text and "HistGradientBoosting" not in text
