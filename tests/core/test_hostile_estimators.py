"""Extreme values and parameters against every catalogue estimator (issue 29): a result with
finite numbers and consistent shapes, or the library's own error (ParameterError, DataError,
SolverError), never a foreign exception and never a silent wrong result.

Property-based (Hypothesis): shapes, dtypes, scales and parameter values drawn from each method's
ParamSpecs; plus the issue's cases as plain regression tests."""
from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.errors import DataError, ParameterError, SolverError
from robust_subspace_lab.core.session.run import Run

OURS = (ParameterError, DataError, SolverError)
METHODS = [info.key for info in catalogue.methods(None)]
#: the most iterations a drawn fit runs (the properties are about values, not convergence)
STEPS = 4


def _value(spec):
    """A strategy of valid values of one ParamSpec (numbers kept small enough for tiny data)."""
    if spec.kind == "choice":
        return st.sampled_from(spec.choices)
    if spec.kind == "bool":
        return st.booleans()
    if spec.kind == "int":
        low = 0 if spec.low is None else int(math.floor(spec.low)) + (1 if spec.low_open and spec.low == int(spec.low) else 0)
        high = low + 6 if spec.high is None else int(spec.high) - (1 if spec.high_open else 0)
        if spec.name == "max_iter":
            high = min(high, STEPS)
        return st.integers(low, max(low, min(high, low + 6)))
    low = -10.0 if spec.low is None else float(spec.low)
    high = low + 10.0 if spec.high is None else float(spec.high)
    numbers = st.floats(low, high, exclude_min=spec.low_open, exclude_max=spec.high_open,
                        allow_nan=False, allow_infinity=False)
    return numbers | st.just(spec.auto) if spec.auto else numbers


def _fit(info, params, X, rng):
    est = info.create(**params)
    if info.task == "regression":
        n = X.shape[0]
        if getattr(info.estimator, "_classifier", False):
            Y = np.arange(n) % 2
        else:
            Y = X[:, :1] @ np.ones((1, 2)) + rng.standard_normal((n, 2))
        return est.fit(X, Y)
    return est.fit(X)


_SCALES = st.sampled_from([1.0, 255.0, 1e-300, 1e150, -255.0])


@pytest.mark.parametrize("key", METHODS)
@settings(max_examples=max(3, settings.default.max_examples // 4), suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_drawn_data_and_parameters_give_a_result_or_our_error(key, data):
    info = catalogue.get(key)
    n = data.draw(st.integers(2, 12), label="n_samples")
    d = data.draw(st.integers(2, 8), label="n_features")
    dtype = data.draw(st.sampled_from([np.float64, np.float32]), label="dtype")
    seed = data.draw(st.integers(0, 2 ** 16), label="seed")
    rng = np.random.default_rng(seed)
    X = rng.random((n, d)) * data.draw(_SCALES, label="scale")
    if data.draw(st.booleans(), label="one extreme entry"):
        X[rng.integers(n), rng.integers(d)] = data.draw(st.sampled_from([1e300, -1e300, 1e30, 0.0]))
    X = X.astype(dtype) if np.all(np.abs(X) < np.finfo(dtype).max) else X
    params = {s.name: data.draw(_value(s), label=s.name) for s in info.params}
    if "max_iter" in params:
        params["max_iter"] = min(params["max_iter"], STEPS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            est = _fit(info, params, X, rng)
        except OURS:
            return
    for name in ("components_", "coef_", "mean_", "objective_"):
        value = getattr(est, name, None)
        if value is not None:
            assert np.all(np.isfinite(value)), (key, name)
    if info.task == "subspace" and hasattr(est, "transform"):
        T = est.transform(X)
        assert T.shape[0] == n and np.all(np.isfinite(T))
        back = est.inverse_transform(T)
        assert back.shape == X.shape and np.all(np.isfinite(back))


@pytest.mark.parametrize("key", METHODS)
def test_entries_near_1e300_are_a_data_error_before_the_run(key):
    info = catalogue.get(key)
    rng = np.random.default_rng(0)
    X = rng.random((30, 20)) * 255
    X[3, 4] = 1e300
    with pytest.raises(DataError, match="rescale"):
        _fit(info, {}, X, rng)


@pytest.mark.parametrize("key", METHODS)
def test_every_integer_parameter_refuses_floats_inf_and_huge_values_by_name(key):
    info = catalogue.get(key)
    for spec in info.params:
        if spec.kind != "int":
            continue
        for bad in (float(spec.default if spec.default is not None else 1) + 0.0, math.inf, 10 ** 400, True):
            with pytest.raises(ParameterError, match=spec.name):
                info.validate(**{spec.name: bad})
        with pytest.raises(ParameterError, match=spec.name):          # and when the fit starts
            _fit(info, {spec.name: 10 ** 400}, np.random.default_rng(0).random((10, 6)) * 255,
                 np.random.default_rng(0))


def test_n_components_50_0_on_30_by_20_is_refused_by_every_method_that_has_it():
    X = np.random.default_rng(0).random((30, 20)) * 255
    for info in catalogue.methods(None):
        if any(s.name == "n_components" for s in info.params):
            with pytest.raises(ParameterError, match="n_components must be an integer"):
                _fit(info, {"n_components": 50.0}, X, np.random.default_rng(0))
            with pytest.raises(DataError, match="n_components"):       # the integer: too many for the data
                _fit(info, {"n_components": 50}, X, np.random.default_rng(0))


def _rank0():
    X = np.random.default_rng(0).random((30, 20)) * 255
    est = catalogue.create("crpca-om").fit(X)        # its default γ leaves no low-rank part here
    return est, X


def test_a_convex_fit_of_rank_0_has_no_components_and_says_so():
    est, X = _rank0()
    assert est.rank_ == 0
    assert est.components_.shape == (0, 20) and est.basis_.shape == (0, 20)
    T = est.transform(X)
    assert T.shape == (30, 0)
    np.testing.assert_allclose(est.inverse_transform(T), np.broadcast_to(est.mean_, X.shape))
    assert "rank 0" in est.note(est.state_)
    run = Run("crpca-om", {})
    run.history.append(est.state_)
    assert "rank 0" in run.status(est)[1]


def test_rank_0_shows_for_pcp_and_outlier_pursuit_too():
    rng = np.random.default_rng(1)
    X = rng.random((30, 20)) * 255
    for key, params in (("pcp", {"lam_scale": 0.02}), ("outlier-pursuit", {"gamma": 10.0})):
        est = catalogue.create(key, **params).fit(X)
        assert est.rank_ == 0, key
        assert est.components_.shape == (0, 20) and est.transform(X).shape == (30, 0)
        assert "rank 0" in est.note(est.state_)


def test_pca_gm_speaks_of_itself_when_its_mean_stops_early():
    rng = np.random.default_rng(1)
    X = rng.random((40, 15)) * 255
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        est = catalogue.create("pca-gm", max_iter=2, n_components=2).fit(X)
    texts = [str(w.message) for w in caught]
    assert texts and all("GeneralizedMean" not in t for t in texts)
    assert any(t.startswith("PCA-GM: its generalized mean") for t in texts)
    assert "generalized mean" in est.note(est.state_)
    # the note is the state's (an estimator that did not run it, as a reopened session's, says it too)
    assert "generalized mean" in catalogue.create("pca-gm", max_iter=2, n_components=2).note(est.state_)


def test_an_inner_solvers_failure_is_named_after_the_method_called():
    """RPCA+LSR runs PCP inside: its failure (here λ = 5e-324, found by the property above)
    names RPCA+LSR, with the iteration."""
    X = np.random.default_rng(0).random((6, 4))
    est = catalogue.create("rpca-lsr", lam_scale=5e-324, max_iter=2)
    with pytest.raises(SolverError) as err:
        est.fit(X, X[:, :1])
    assert err.value.method == est.name and "PCP" in err.value.reason and err.value.iteration == 0
