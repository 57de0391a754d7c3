"""scikit-learn's estimator contract, checked by scikit-learn itself: every check of
``check_estimator`` for every catalogue estimator, at the settings scikit-learn uses for its own
fixed-rank decompositions (``n_components=1``), with no expected failure and no exception
(``parametrize_with_checks``: one test per estimator and check)."""
from __future__ import annotations

import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

from robust_subspace_lab.core import catalogue


def _small(info):
    """check_estimator fits tiny data (down to 2 features): one component, one non-zero loading;
    a short run where the catalogue allows one (the checks compare runs, not optima: the NMF
    family's 500 and the convex methods' 500 iterations made these checks take minutes)."""
    names = info.defaults()
    short = {"n_components": 1, "k_nonzero": 1}
    if info.family == "NMF" or info.family == "low-rank + sparse":
        short["max_iter"] = 50
    return info.create(**{k: v for k, v in short.items() if k in names})


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([_small(m) for m in catalogue.methods(None)])
def test_scikit_learn_check(estimator, check):
    check(estimator)
