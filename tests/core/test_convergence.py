"""Every run says how it ended: converged, stopped at max_iter (ConvergenceWarning), or diverged."""
from __future__ import annotations

import pickle
import warnings
from dataclasses import replace

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from robust_subspace_lab.core import catalogue, convergence
from robust_subspace_lab.core.errors import DataError, SolverError
from robust_subspace_lab.core.methods import PCAGM

ITERATIVE = [m.key for m in catalogue.methods(None) if "max_iter" in m.defaults()]


def _problem(info, faces):
    X = faces.X[:60]
    if info.task == "subspace":
        return (X,)
    est = info.create()
    y = np.arange(len(X)) % 3
    return (X, y) if est._classifier else (X, X[:, :2] / 255.0)


# greedy methods (one component after another, deflation): max_iter caps each component's loop
PER_COMPONENT = {"pca-l1", "rspca", "spca-rsvd", "gpower"}


@pytest.mark.parametrize("key", ITERATIVE)
def test_max_iter_2_warns_and_records_it(key, faces, request):
    """fit ended by max_iter warns with scikit-learn's ConvergenceWarning and records it."""
    info = catalogue.get(key)
    params = {"max_iter": 2}
    if "tol" in info.defaults():                 # the smallest tolerance allowed: the rule is not met in 2
        spec = info.spec("tol")
        params["tol"] = 1e-300 if spec.low_open else spec.low
    est = info.create(**params)
    with pytest.warns(ConvergenceWarning, match="max_iter = 2"):
        est.fit(*_problem(info, faces))
    # a greedy method's n_iter_ counts the steps of every component (and restart)
    assert (est.n_iter_ >= 2 if key in PER_COMPONENT else est.n_iter_ == 2) and est.converged_ is False
    assert est.status(est.state_) == convergence.MAX_ITER


def test_converged_fit_is_silent(faces):
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        est = PCAGM(n_components=5, p=0.5, max_iter=500, tol=1e-6).fit(faces.X)
    assert est.converged_ and est.n_iter_ < 500
    assert est.status(est.state_) == convergence.CONVERGED
    assert convergence.describe(convergence.CONVERGED, est.n_iter_) == f"converged at iteration {est.n_iter_}"


def test_fitted_values_far_outside_the_data_range_are_divergence(faces):
    """The base's guard: a state whose fitted values leave the data's range by far stops the run
    with SolverError naming the method, the iteration and the range."""
    est = PCAGM(n_components=3)
    state = est.start(faces.X)
    lo, hi = state._data_range
    assert (lo, hi) == (faces.X.min(), faces.X.max())
    bad = replace(state, iteration=4, fitted=np.full(faces.X.shape, hi + 5 * (hi - lo)))
    with pytest.raises(SolverError, match="diverged at iteration 4: the fitted values reach") as info:
        est._check_state(bad)
    assert info.value.iteration == 4 and info.value.method == "PCA-GM"
    est._check_state(replace(state, fitted=np.full(faces.X.shape, hi + 3 * (hi - lo))))   # within the margin


def test_solver_error_pickles_with_its_parts():
    err = pickle.loads(pickle.dumps(SolverError("RR", 7, "D contains NaN or infinity")))
    assert (err.method, err.iteration, err.reason) == ("RR", 7, "D contains NaN or infinity")
    assert str(err) == "RR diverged at iteration 7: D contains NaN or infinity"


@pytest.mark.parametrize("X, word", [(np.zeros((5, 4)), "all zero"), (np.full((5, 4), 3.0), "all equal to 3"),
                                     (np.tile(np.arange(4.0), (5, 1)), "identical rows")])
def test_data_without_variation_is_named(X, word):
    with pytest.raises(DataError, match=word):
        convergence.check_varies(X)
    X2 = X.copy()
    X2[0, 0] += 1
    convergence.check_varies(X2)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_check_finite_finds_one_bad_entry_without_a_boolean_copy(dtype, bad):
    """check_finite reads an array's minimum and maximum (no n × d boolean temporary): one NaN or
    infinity anywhere is still found, in any floating type; finite, integer and empty arrays pass."""
    A = np.arange(24, dtype=dtype).reshape(4, 6)
    convergence.check_finite("m", 1, 0.0, {"A": A, "ints": np.arange(3), "none": np.zeros((0, 6))}, {})
    for idx in ((0, 0), (2, 3), (3, 5)):
        B = A.copy()
        B[idx] = bad
        with pytest.raises(SolverError, match="A contains NaN or infinity"):
            convergence.check_finite("m", 1, 0.0, {"A": B}, {})
