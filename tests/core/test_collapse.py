"""Collapsed sample weights: ``effective_n_samples_`` of the reweighting estimators, the rule of
core.collapse, and where it holds on the built-in faces (issue 28, "honest reweighting pictures")."""
import warnings

import numpy as np
import pytest
from sklearn.exceptions import NotFittedError

from robust_subspace_lab.core import catalogue, corruption, datasets
from robust_subspace_lab.core.base import EFFECTIVE_N
from robust_subspace_lab.core.collapse import collapse_threshold, weight_collapse
from robust_subspace_lab.core.metrics import weight_share
from robust_subspace_lab.core.presets.paper_000 import DEFAULT_LESSON
from robust_subspace_lab.core.views import collapse_of

REWEIGHTING = ("pca-gm", "rpca-om", "l2p-pca-om", "r1-pca", "hq-pca")


@pytest.fixture(scope="module")
def faces():
    return datasets.lfw_faces()


def _kish(w):
    w = np.asarray(w, dtype=float)
    return w.sum() ** 2 / (w ** 2).sum()


@pytest.mark.parametrize("key", REWEIGHTING)
def test_effective_n_samples_is_kish_of_the_fitted_weights(key, faces):
    X = faces.X[:60]
    est = catalogue.create(key, n_components=3)
    with pytest.raises(NotFittedError):
        est.effective_n_samples_
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(X)
    assert est.effective_n_samples_ == pytest.approx(_kish(est.sample_weights_), rel=1e-12)
    assert 1.0 <= est.effective_n_samples_ <= len(X)
    # the state carries it at every iteration: its history ends at the fitted value
    history = est.state_.scalar_history[EFFECTIVE_N]
    assert len(history) == est.n_iter_ + 1
    assert history[-1] == pytest.approx(est.effective_n_samples_)
    assert est.state_.scalars[EFFECTIVE_N] == pytest.approx(est.effective_n_samples_)


def test_a_method_without_sample_weights_has_no_effective_n_samples(faces):
    est = catalogue.create("pcp", max_iter=3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        est.fit(faces.X[:30])
    assert not hasattr(est, "effective_n_samples_")
    assert EFFECTIVE_N not in est.state_.scalars


def test_collapse_rule_threshold_and_message():
    assert collapse_threshold(100, 10) == 20            # 2k
    assert collapse_threshold(1000, 5) == 50            # 5 % of n
    assert weight_collapse(np.ones(100), 10) is None    # equal weights: n_eff = n
    # 3 samples at weight 1, 97 at 1e-4: n_eff ≈ 3.0, below max(2k, 5) = 10
    w = np.r_[np.ones(3), np.full(97, 1e-4)]
    c = weight_collapse(w, 5)
    assert c is not None and c.carriers == 3 and c.effective_n == pytest.approx(_kish(w))
    assert c.share == pytest.approx(3 / w.sum())
    assert c.message == "weights collapsed: 3 samples carry 100 % of the weight"
    assert "of 100" in c.detail and "= 10" in c.detail
    # just above the threshold: no message; just below: a message
    spread = np.r_[np.ones(10), np.zeros(90)]          # n_eff = 10 exactly
    assert weight_collapse(spread, 5) is None
    assert weight_collapse(spread, 6) is not None        # threshold 12
    assert weight_collapse(np.r_[1.0, np.zeros(99)], 1).message.startswith("weights collapsed: 1 sample carries")


def _final_state(key, X, **params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return catalogue.create(key, **params).fit_state(X)


def test_opening_window_defaults_do_not_collapse(faces):
    data = corruption.corrupt(faces, DEFAULT_LESSON["corruption"], **DEFAULT_LESSON["corruption_params"])
    for key in REWEIGHTING:
        state = _final_state(key, data.X, n_components=DEFAULT_LESSON["n_components"])
        assert collapse_of(state) is None, (key, state.scalars[EFFECTIVE_N])


def test_paper_000_figs_4_and_6_setting_collapses_and_says_so(faces):
    """Figs. 4/6 on the 100 built-in faces (30 % occluded, k = 10, p = 0.1): the paper's δ is
    applied, yet one occluded face enters the subspace (eᵢ ≈ 0, weight δ^(p−1)) and carries most
    of the weight; a larger p spreads it (effective n grows with p)."""
    data = corruption.corrupt(faces, "rectangles", fraction=0.3, size_min=0.3, size_max=0.6, content="dots",
                              seed=0)
    low = _final_state("pca-gm", data.X, n_components=10, p=0.1)
    c = collapse_of(low)
    assert c is not None and c.effective_n < collapse_threshold(100, 10)
    top = int(np.argmax(low.sample_weights))
    assert data.outliers[top]                            # an occluded face carries the fit
    high = _final_state("pca-gm", data.X, n_components=10, p=0.6)
    assert high.scalars[EFFECTIVE_N] > low.scalars[EFFECTIVE_N]


def test_playground_opens_on_graded_weights_and_pca_gm_collapses_there():
    """The playground's first picture (HQ-PCA) grades the weights: the inliers keep most of the
    weight, the outliers get little, none collapses; PCA-GM (p = 0.3) on the same points puts
    the line through two of them (the collapse lesson, picked in the combo; with k = 1 and 28
    points the rule's bar max(2k, 5 % of n) is 2 samples, so the column rule does not flag it)."""
    from robust_subspace_lab.core.playground import Playground
    pg = Playground()
    pg.run()
    w = pg.weights
    assert pg.method == "hq-pca" and collapse_of(pg.state) is None
    assert pg.state.scalars[EFFECTIVE_N] > 0.75 * len(w)
    assert w[pg.outliers].max() < 0.1 < w[~pg.outliers].min()
    gm = Playground(method="pca-gm")
    gm.run()
    assert gm.state.scalars[EFFECTIVE_N] < 3 and weight_share(gm.weights, 2) > 0.9


def test_cross_section_half_width_zooms_about_the_iterate():
    from robust_subspace_lab.core.playground import Playground
    pg = Playground(method="pca-gm")
    pg.run()
    wide, narrow = pg.cross_section(181), pg.cross_section(181, half_width=np.radians(0.5))
    assert np.ptp(narrow.theta) == pytest.approx(np.radians(1.0))
    assert narrow.theta.min() <= narrow.theta_now <= narrow.theta.max()
    assert narrow.objective_now == pytest.approx(wide.objective_now)
    assert np.all(narrow.surrogate >= narrow.objective - 1e-9 * abs(narrow.objective_now))   # still a majorizer
