"""The 2-D playground's model (core.playground): the majorizers of the reweighted methods on the
angle cross-section, monotone descent, and how the fit answers a dragged outlier."""
import numpy as np
import pytest

from robust_subspace_lab.core import playground as pgm
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.playground import LINE_FIT, Playground, cross_section, methods

REWEIGHTED = [k for k in methods() if k != "pca"]


def _angle_of_line(state):
    u = state.components[0]
    return np.arctan2(u[1], u[0])


@pytest.mark.parametrize("key", REWEIGHTED)
@pytest.mark.parametrize("iteration", [0, 1, 3])
def test_surrogate_majorizes_the_objective_and_touches_it_at_the_iterate(key, iteration):
    pg = Playground(method=key)
    pg.step(iteration)
    cs = pg.cross_section(n_angles=721)
    # J at the iterate on the cross-section is the estimator's own objective of that state
    np.testing.assert_allclose(cs.objective_now, pg.state.objective, rtol=1e-6)
    now = np.flatnonzero(cs.theta == cs.theta_now)
    assert now.size == 1
    # Q_t(θ_t) = J(θ_t)
    np.testing.assert_allclose(cs.surrogate[now], cs.objective[now], rtol=1e-12)
    # Q_t(θ) >= J(θ) everywhere on the cross-section, strictly away from the iterate (the bound is
    # not the objective itself)
    scale = np.abs(cs.objective).max()
    assert np.all(cs.surrogate >= cs.objective - 1e-12 * scale)
    far = np.abs(cs.theta - cs.theta_now) > 0.3
    assert np.all(cs.surrogate[far] > cs.objective[far])


def test_pca_has_no_surrogate_and_its_objective_is_the_sum_of_squared_distances():
    pg = Playground(method="pca")
    cs = pg.cross_section()
    assert cs.surrogate is None
    d = pg.points - pg.points.mean(axis=0)
    expect = [np.sum((-np.sin(t) * d[:, 0] + np.cos(t) * d[:, 1]) ** 2) for t in cs.theta[::20]]
    np.testing.assert_allclose(cs.objective[::20], expect, rtol=1e-12)
    # PCA's line is the minimum of J over every direction
    assert cs.objective_now <= cs.objective.min() * (1 + 1e-12)


@pytest.mark.parametrize("key", ["pca-gm", "r1-pca"])
def test_surrogate_minimiser_is_the_next_iterate(key):
    """PCA-GM and R1-PCA keep their centre fixed, so the next iterate's angle minimises Q_t over
    every angle: the weighted PCA step is the exact minimiser of the majorizer."""
    pg = Playground(method=key)
    pg.step(1)
    nxt = pg.state
    pg.reset()
    cs = pg.cross_section(n_angles=2001)
    loss = pg.loss()
    phi, dphi = loss.phi, loss.dphi
    a_now = pgm.squared_residuals(key, pg.points, pg.state.mean, cs.theta_now)[0]
    a_next = pgm.squared_residuals(key, pg.points, pg.state.mean, _angle_of_line(nxt))[0]
    q_next = np.sum(phi(a_now) + dphi(a_now) * (a_next - a_now))
    assert q_next <= cs.surrogate.min() * (1 + 1e-12)


@pytest.mark.parametrize("key", ["pca-gm", "rpca-om", LINE_FIT])
def test_stepping_never_increases_the_objective(key):
    """PCA-GM (Oh & Kwak 2016), RPCA-OM (Nie et al. 2014, Theorem 1) and the Huber IRLS line
    (fixed scale) are MM algorithms: each step minimises a majorizer, so J does not increase."""
    pg = Playground(method=key)
    pg.run()
    J = np.array(pg.states[-1].objective_history)
    assert len(J) > 2
    assert np.all(np.diff(J) <= 1e-10 * J[:-1])
    assert J[-1] < J[0]


def test_dragging_an_outlier_far_lowers_its_pca_gm_weight_and_tilts_pca():
    """Three times as far from the line, the outlier's PCA-GM weight relative to the inliers' (the
    methods are invariant to the weights' scale) falls: β = (e + δ)^(p−1) with e about 9 times
    larger. PCA's line, which weighs every point 1, tilts towards it instead."""
    pg = Playground(method="pca-gm")
    i = int(pg.outlier_indices[0])
    inliers = ~pg.outliers
    pg.run()

    def relative_weight():
        return pg.weights[i] / np.median(pg.weights[inliers])

    before, angle_gm = relative_weight(), _angle_of_line(pg.state)
    u = pg.state.components[0]
    normal = np.array([-u[1], u[0]])
    dist = (pg.points[i] - pg.state.mean) @ normal
    far = pg.points[i] + 2 * dist * normal          # three times as far from the fitted line
    pg.move_point(i, far)
    assert pg.finished                               # a finished run is refitted to its end
    assert relative_weight() < 0.5 * before
    tilt_gm = abs(np.sin(_angle_of_line(pg.state) - angle_gm))

    pca = Playground(method="pca")
    angle_before = _angle_of_line(pca.state)
    pca.move_point(i, far)
    tilt_pca = abs(np.sin(_angle_of_line(pca.state) - angle_before))
    assert tilt_pca > np.sin(np.radians(5))
    assert tilt_gm < tilt_pca / 3                    # PCA-GM's line barely moves
    assert np.all(pca.weights == 1)


def test_robust_line_fit_recovers_the_inlier_slope_where_least_squares_does_not():
    pts, out = pgm.default_points(seed=0)
    est = pgm.HuberLineFit().fit(pts)
    fit = np.array([est.state_.scalars["slope"], est.state_.scalars["intercept"]])
    ls = np.polyfit(pts[:, 0], pts[:, 1], 1)
    inl = np.polyfit(pts[~out, 0], pts[~out, 1], 1)
    # the outliers lie above the line: least squares is lifted (intercept), Huber hardly
    assert np.all(np.abs(fit - inl) < 0.5 * np.abs(ls - inl))
    # weights answer: every marked outlier weighs less than every inlier
    w = est.sample_weights_
    assert w[out].max() < w[~out].min()


def test_edits_refit_and_keep_the_shown_iteration():
    pg = Playground(method="rpca-om")
    pg.step(2)
    n = len(pg.points)
    j = pg.add_point((0.0, -8.0))
    assert j == n and pg.outliers[j] and pg.shown == 2 and pg.state.iteration == 2
    assert pg.state.sample_weights.shape == (n + 1,)
    pg.remove_point(j)
    assert len(pg.points) == n and pg.shown == 2
    v = pg.version
    pg.show(0)
    assert pg.version > v and pg.state.iteration == 0


def test_bad_edits_are_refused_and_leave_the_model_unchanged():
    pg = Playground(points=[[0, 0], [1, 1], [2, 2.5]], method="pca-gm")
    before = pg.points.copy()
    with pytest.raises(DataError, match="at least 3"):
        pg.remove_point(0)
    with pytest.raises(DataError, match="finite"):
        pg.move_point(0, (np.nan, 0))
    np.testing.assert_array_equal(pg.points, before)
    with pytest.raises(ParameterError, match="method"):
        pg.set_method("nope")
    assert pg.method == "pca-gm"
    line = Playground(points=[[0, 0], [1, 1], [2, 2.5]], method=LINE_FIT)
    line.move_point(0, (1, 5))
    with pytest.raises(DataError, match="x coordinates"):
        line.move_point(2, (1, 3))
    assert line.points[2, 0] == 2
    with pytest.raises(ParameterError, match="n_angles"):
        cross_section("pca", pg.state, pg.points, n_angles=2)


def test_default_points_are_seeded():
    a, ma = pgm.default_points(seed=0)
    b, mb = pgm.default_points(seed=0)
    c, _ = pgm.default_points(seed=1)
    np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(ma, mb)
    assert not np.array_equal(a, c)
    assert a.shape == (28, 2) and ma.sum() == 4
