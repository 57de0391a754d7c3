"""scikit-learn's estimator contract, checked by scikit-learn itself: every check of
``check_estimator`` for every catalogue estimator, at the settings scikit-learn uses for its own
fixed-rank decompositions (``n_components=1``), with no expected failure and no exception
(``parametrize_with_checks``: one test per estimator and check).

The default run checks one estimator per kind of estimator (a robust PCA, a sparse PCA, a
low-rank + sparse method, an NMF, a regressor and a classifier); the other 25 estimators' checks
(about 1,100 tests, most of the suite's count) run under the ``slow`` marker
(``python -m pytest -m slow``, which CI runs too)."""
from __future__ import annotations

import pytest
from sklearn.base import is_classifier, is_regressor
from sklearn.utils.estimator_checks import parametrize_with_checks

from robust_subspace_lab.core import catalogue

#: one estimator of each family (``CatalogueEntry.family``), the regression family twice: its
#: regressors and its classifiers go through different checks
REPRESENTATIVES = ("pca-gm", "rspca", "pcp", "tc-nmf", "rr", "rlda")


def _small(info):
    """check_estimator fits tiny data (down to 2 features): one component, one non-zero loading;
    a short run where the catalogue allows one (the checks compare runs, not optima: the NMF
    family's 500 and the convex methods' 500 iterations made these checks take minutes)."""
    names = info.defaults()
    short = {"n_components": 1, "k_nonzero": 1}
    if info.family == "NMF" or info.family == "low-rank + sparse":
        short["max_iter"] = 50
    return info.create(**{k: v for k, v in short.items() if k in names})


def test_the_representatives_cover_every_family_and_kind():
    """Each family, and each of scikit-learn's kinds (transformer, regressor, classifier) the
    catalogue has, is checked by the default run."""
    def kinds(estimators):
        return {(is_classifier(e), is_regressor(e)) for e in estimators}

    every = catalogue.methods(None)
    chosen = [catalogue.get(k) for k in REPRESENTATIVES]
    assert {m.family for m in chosen} == {m.family for m in every}
    assert kinds(m.create() for m in chosen) == kinds(m.create() for m in every)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([_small(catalogue.get(k)) for k in REPRESENTATIVES])
def test_scikit_learn_check(estimator, check):
    check(estimator)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@parametrize_with_checks([_small(m) for m in catalogue.methods(None) if m.key not in REPRESENTATIVES])
def test_scikit_learn_check_every_other_estimator(estimator, check):
    check(estimator)
