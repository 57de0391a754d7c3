"""scikit-learn's estimator contract, checked by scikit-learn itself (``check_estimator``)."""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV
from sklearn.utils.estimator_checks import check_estimator

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.methods import PCAGM

# Not yet conformant (strict: each must start passing, then leave this list).
PENDING: set[str] = set()

#: checks that cannot apply to a method, with the reason
EXCEPTIONS = {
    # The robust NMF transform solves the method's own reweighted problem per sample (non-convex,
    # components and scales frozen) to a relative tolerance of 1e-6, starting from the fitted
    # coefficients for training rows: permuted or sub-sampled inputs agree to that tolerance, not
    # to scikit-learn's 1e-7 (plain NMF and the convex reweightings L2,1-NMF and RNMF-L1 pass).
    "check_methods_sample_order_invariance": {"tc-nmf", "cauchy-nmf", "l1-nmf", "huber-nmf", "cim-nmf"},
    "check_methods_subset_invariance": {"tc-nmf", "cauchy-nmf", "l1-nmf", "huber-nmf", "cim-nmf"},
}


def _small(info) -> dict:
    """check_estimator fits on tiny data (down to 2 features): one component, one non-zero."""
    names = info.defaults()
    return {k: v for k, v in {"n_components": 1, "k_nonzero": 1}.items() if k in names}


@pytest.mark.parametrize("key", [m.key for m in catalogue.methods(None)])
def test_check_estimator_passes(key, request):
    if key in PENDING:
        request.applymarker(pytest.mark.xfail(strict=True, reason="not yet conformant"))
    info = catalogue.get(key)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(info.create(**_small(info)), on_fail=None)
    failed = [(r["check_name"], str(r["exception"])[:200]) for r in results
              if r["status"] == "failed" and key not in EXCEPTIONS.get(r["check_name"], ())]
    assert not failed, failed


def test_fitted_estimator_pickles_clones_and_refuses_before_fit(faces):
    est = PCAGM(n_components=4, p=0.5)
    with pytest.raises(NotFittedError):
        est.transform(faces.X)
    est.fit(faces.X)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.transform(faces.X), est.transform(faces.X))
    assert again.state_.scalars == est.state_.scalars
    fresh = clone(est)
    assert fresh.get_params() == est.get_params() and not hasattr(fresh, "state_")


def test_grid_search_over_p(faces):
    """GridSearchCV picks p by the held-out reconstruction error (a scorer of our own)."""
    def neg_error(est, X, y=None):
        R = est.inverse_transform(est.transform(X))
        return -float(np.mean(np.linalg.norm(X - R, axis=1)))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        search = GridSearchCV(PCAGM(n_components=5), {"p": [0.2, 1.0]}, scoring=neg_error, cv=3).fit(faces.X)
    assert search.best_params_["p"] in (0.2, 1.0)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
