"""Checks of Robust Regression (paper 004: Huang, Cabral & De la Torre, TPAMI 2016) and its baselines.

"claim N" refers to the list "Claims a re-implementation can check" (§7) of the project's
technical extraction of paper 004. Samples are rows: X (n_samples, n_features),
Y (n_samples, n_outputs); images are grey levels 0–255.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning, NotFittedError

from robust_subspace_lab.core import catalogue, corruption, datasets
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.methods.convex import PCP
from robust_subspace_lab.core.regression import (LDA, RANSAC, RLDA, RR, TLS, LeastSquares, RegressionState, Ridge, RLDAMissing,
                             RPCALS, RRMissing, clean_test)
from robust_subspace_lab.core.regression._base import t_step
from robust_subspace_lab.core.regression.data import regression_data, subsample_per_class, synthetic_3d, train_test_split
from robust_subspace_lab.core.regression.views import regression_snapshot


# ---------------------------------------------------------------- helpers
def run(est, X, Y):
    """All states of a run; checks claim 11 (solver behaviour) on every data set it is given:
    the ALM stops exactly when both relative primal residuals r1, r2 are below tol (not before:
    every earlier iteration >= 1 has max(r1, r2) >= tol), and every objective and scalar is finite."""
    states = list(est.iterate(X, Y))
    last = states[-1]
    tol = est.tol
    assert last.converged, f"{est!r} did not converge in {last.iteration} iterations"
    assert last.scalars["r1"] < tol and last.scalars["r2"] < tol
    for s in states[1:-1]:
        assert max(s.scalars["r1"], s.scalars["r2"]) >= tol
    assert not states[0].converged            # iteration 0 is feasible but never "converged"
    assert np.all(np.isfinite(last.objective_history))
    for name, values in last.scalar_history.items():
        assert np.all(np.isfinite(values)), name
    return states


def rel(A, B):
    return float(np.linalg.norm(np.asarray(A) - np.asarray(B)) / np.linalg.norm(B))


def rae_T(T, T_true):
    """Paper 004 §5.1: relative error of the first two columns of T."""
    return rel(np.asarray(T)[:, :2], np.asarray(T_true)[:, :2])


def low_rank_sparse(rng, n=60, d=80, rank=3, density=0.05):
    """Low-rank 'images' around 128 with 5 % of the entries replaced by 0 or 255."""
    X = 128 + rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d)) * 15
    hit = rng.random((n, d)) < density
    X[hit] = 255.0 * (rng.random(hit.sum()) < 0.5)
    return X


@pytest.fixture(scope="module")
def synth():
    return [synthetic_3d(seed=s) for s in range(10)]


# ---------------------------------------------------------------- claim 1: limits
def test_eta_to_zero_cleans_like_rpca(rng):
    """Claim 1 (limits): with η → 0 RR's cleaning is RPCA's — D equals PCP's low-rank part with
    the same λ on the same X (relative difference < 1e-6)."""
    X = low_rank_sparse(rng)
    Y = rng.standard_normal((len(X), 2))
    low_rank = PCP(lam_scale=1.0, rho=1.1, tol=1e-12, max_iter=5000).fit_state(X).fitted
    rr = RR(lam_scale=1.0, eta=1e-9, tol=1e-9, max_iter=5000)
    states = run(rr, X, Y)
    diff = rel(states[-1].D, low_rank)
    assert diff < 1e-6, diff


def test_lambda_to_infinity_gives_ridge(rng):
    """Claim 1 (limits): with λ → ∞, E = 0, D = X and T is ridge regression on [X; 1ᵀ] (with
    the T-step ridge γ/η); likewise RLDA → LDA."""
    X = low_rank_sparse(rng, n=40, d=30)
    Y = rng.standard_normal((40, 2))
    st = run(RR(lam_scale=1e8, eta=10.0, alpha=0.5, tol=1e-10), X, Y)[-1]
    assert np.abs(st.E).max() == 0.0
    assert rel(st.D, X) < 1e-8
    ridge = Ridge(alpha=0.05).fit(X, Y)
    assert rel(st.T, ridge.T_) < 1e-6
    y = np.repeat(np.arange(4), 10)
    st = run(RLDA(lam_scale=1e8, eta=2.0, alpha=1.0, tol=1e-10), X, y)[-1]
    assert rel(st.T, LDA(alpha=0.5).fit(X, y).T_) < 1e-6


# ---------------------------------------------------------------- claim 11: each block step is exact
def test_t_step_solves_its_ridge_problem(rng):
    """Claim 11 (each subproblem's update does not increase its own block objective): the
    corrected T-step (product order fixed, full W through the Sylvester form of §3.5) is the
    exact minimiser of ‖(Y − D̂Tᵀ)Wᵀ‖² + γ‖T‖²: zero gradient, on both the n and the d side."""
    for n, q in ((30, 12), (12, 30)):
        Dh = rng.standard_normal((n, q))
        Y = rng.standard_normal((n, 3))
        A = rng.standard_normal((3, 3))
        Minv = A @ A.T + np.eye(3)
        s, P = np.linalg.eigh(Minv)
        M = np.linalg.inv(Minv)
        gamma = 0.7
        T_full = t_step(Dh, Y, gamma, P, s)
        grad = M @ T_full @ (Dh.T @ Dh) + gamma * T_full - M @ Y.T @ Dh
        assert np.abs(grad).max() < 1e-9 * max(1.0, np.abs(M @ Y.T @ Dh).max())
        T_id = t_step(Dh, Y, gamma)
        grad = T_id @ (Dh.T @ Dh) + gamma * T_id - Y.T @ Dh
        assert np.abs(grad).max() < 1e-9 * max(1.0, np.abs(Y.T @ Dh).max())


def test_objective_finite_and_decreasing_overall(rng):
    """Claim 11: r1, r2 fall below tol; the objective ends below its value at the first
    iterations (no monotonicity is claimed by the paper, and ALM objectives are not monotone)."""
    X = low_rank_sparse(rng)
    Y = X[:, :5] @ rng.standard_normal((5, 2)) / 100
    states = run(RR(), X, Y)
    h = states[-1].objective_history
    assert h[-1] < h[0]


# ---------------------------------------------------------------- claims 2, 3: synthetic 3-D (§5.1)
def test_synthetic_3d_rr_beats_lsr_on_T_and_cleans_both_kinds(synth):
    """Claims 2 and 3 (paper 004 §5.1, 10 repetitions): RR's relative error of T (first two
    columns) is below half of least squares' on average (Table 1: 0.035 vs 0.269), and RR removes
    both the in-plane (dim 2) and the out-of-plane (dim 3) errors of the training samples: the
    cleaned points are closer to the clean ones than the corrupted inputs were, for both kinds;
    RPCA (PCP, same λ) removes only the out-of-plane errors.

    Measured (λ·√max = 3, i.e. λ = 0.3 as the extraction's check, η = 100, γ = 1e-2, ρ = 1.1):
    RAE_T RR 0.0027 ± 0.0029 vs LSR 0.0274 ± 0.0132 (ratio 0.10; the paper's absolute numbers are
    not reproduced, its generator differs, §8); mean distance to the clean points, in-plane
    0.009 (RR) / 0.707 (input) / 0.707 (RPCA), out-of-plane 0.005 / 0.834 / 0.000."""
    rr_T, ls_T, dist = [], [], {k: [] for k in ("rr in", "x in", "rr out", "x out", "rpca in", "rpca out")}
    for d in synth:
        states = run(RR(lam_scale=3.0, eta=100.0, alpha=1e-2), d.X_train, d.Y_train)
        rr = states[-1]
        rr_T.append(rae_T(rr.T, d.T_true))
        ls_T.append(rae_T(LeastSquares().fit(d.X_train, d.Y_train).T_, d.T_true))
        rp = RPCALS(lam_scale=3.0).fit(d.X_train, d.Y_train)
        clean = d.X_clean[d.train]
        for kind, key in (("in-plane", "in"), ("out-of-plane", "out")):
            m = d.kinds[kind][d.train]
            dist[f"rr {key}"].append(np.linalg.norm(rr.D[m] - clean[m], axis=1).mean())
            dist[f"x {key}"].append(np.linalg.norm(d.X_train[m] - clean[m], axis=1).mean())
            dist[f"rpca {key}"].append(np.linalg.norm(rp.D_[m] - clean[m], axis=1).mean())
    assert np.mean(rr_T) < 0.5 * np.mean(ls_T), (np.mean(rr_T), np.mean(ls_T))
    mean = {k: float(np.mean(v)) for k, v in dist.items()}
    assert mean["rr in"] < mean["x in"] and mean["rr out"] < mean["x out"], mean
    assert all(a < b for a, b in zip(dist["rr in"], dist["x in"]))
    assert all(a < b for a, b in zip(dist["rr out"], dist["x out"]))
    # RPCA: out-of-plane removed, in-plane left (Fig. 2e)
    assert mean["rpca out"] < 0.1 * mean["x out"]
    assert mean["rpca in"] > 0.9 * mean["x in"]


def test_synthetic_3d_test_error_finding(synth):
    """Claim 3, RAE_Y (recorded finding, extraction §8): the paper's RAE_Y(RR) < RAE_Y(LSR)
    (0.015 vs 0.035) is not reproduced with our reading of the generator — in-plane noise on the
    test inputs cannot be removed by any cleaning, and the test-time cleaning (Alg. 2) does not
    help. Measured over the 10 repetitions: LSR 0.0752, RR plain 0.0749 (T's third column is
    ~0, so out-of-plane test noise is ignored), RR + Alg. 2 (λ/‖D‖_*, eq. 8) 0.0961 (over-cleans),
    RR + Alg. 2 with λ′ = λ 0.0749. Kept as a check that RR is not worse than LSR without
    cleaning, and that the cleaned prediction stays within 30 % of it."""
    plain, cleaned, ls = [], [], []
    for d in synth[:3]:
        rr = RR(lam_scale=3.0, eta=100.0, alpha=1e-2).fit(d.X_train, d.Y_train)
        plain.append(rel(rr.predict(d.X_test), d.Y_test))
        cleaned.append(rel(rr.predict(d.X_test, clean=True), d.Y_test))
        ls.append(rel(LeastSquares().fit(d.X_train, d.Y_train).predict(d.X_test), d.Y_test))
    assert np.mean(plain) <= np.mean(ls) * 1.01
    assert np.mean(cleaned) < 1.3 * np.mean(plain)


def test_test_time_cleaning_removes_out_of_plane_noise(synth):
    """Alg. 2 (eq. 8 solved with the corrections of §3.6): converges (residual < tol), cleaned
    test points lie in the training plane (out-of-plane test noise removed), shapes as documented."""
    d = synth[0]
    rr = RR(lam_scale=3.0, eta=100.0, alpha=1e-2).fit(d.X_train, d.Y_train)
    lam = rr.state_.details["λ"]
    res = clean_test(d.X_test, rr.D_, lam, weight="alg2")
    assert res.converged and res.residual < 1e-7
    assert res.D.shape == d.X_test.shape and res.Z.shape == (len(d.X_test), len(d.X_train))
    out = d.kinds["out-of-plane"][d.test]
    clean = d.X_clean[d.test]
    assert np.linalg.norm(res.D[out] - clean[out], axis=1).mean() < \
        0.1 * np.linalg.norm(d.X_test[out] - clean[out], axis=1).mean()
    np.testing.assert_allclose(res.D + res.E, d.X_test, atol=1e-6)
    with pytest.raises(ParameterError, match="weight"):
        clean_test(d.X_test, rr.D_, lam, weight="nope")


# ---------------------------------------------------------------- claim 6: RLDA vs LDA on occluded digits
@pytest.mark.slow
def test_rlda_vs_lda_on_digits_with_black_squares_finding():
    """Claim 6 (paper 004 §5.3, AR robustness, transposed to the built-in digits): with black
    squares on 20 % of the pixels of training and test images, RLDA's accuracy >= LDA's on the
    same data (LDA with RLDA's T-ridge γ/η, so that LDA is RLDA's λ → ∞ limit).

    RECORDED FINDING — the claim does not hold reliably on our data. Protocol: 30 digits per
    class at 28 × 28 (``core.corruption.black_square``, share 0.2, on every image), split 15/15
    per class (stratified), seeds 0–3; RLDA defaults (λ·√max = 2, η = 1, γ = 3, nearest class
    mean), plain prediction (T on the raw occluded test images). Measured: RLDA
    0.547 / 0.520 / 0.600 / 0.520 (mean 0.547) vs LDA 0.533 / 0.547 / 0.613 / 0.527 (mean 0.555).
    With the earlier inline square placement (same recipe, other random positions) RLDA won
    0.535 vs 0.530; over a grid of λ, η and T-ridges RLDA stayed within ±2 points of LDA with
    the same ridge. So RLDA ≈ LDA here, not the paper's margins (Table 3). The test-time cleaning
    (Alg. 2, eq. 8) lowers the accuracy further (seed 0: 0.447 vs 0.547 plain): on 0–255 images
    the linearised solver hardly moves Z from its nearest-neighbour start.

    Kept as a check that RLDA stays within 2 points of LDA on average and beats it on at least
    one seed."""
    digits = datasets.mnist_digits()
    acc_r, acc_l = [], []
    for seed in range(4):
        occluded = corruption.black_square(subsample_per_class(digits, 30, seed=seed), share=0.2, seed=seed)
        data = regression_data(occluded, test_fraction=0.5, seed=seed)
        rlda = RLDA()
        states = run(rlda, data.X_train, data.targets_train)
        rlda._set_fitted(states[-1])
        acc_r.append(rlda.score(data.X_test, data.targets_test))
        acc_l.append(LDA(alpha=rlda.alpha / rlda.eta).fit(data.X_train, data.targets_train)
                     .score(data.X_test, data.targets_test))
    assert np.mean(acc_r) >= np.mean(acc_l) - 0.02, (acc_r, acc_l)
    assert any(r > b for r, b in zip(acc_r, acc_l)), (acc_r, acc_l)


# ---------------------------------------------------------------- claim 10: missing data
def test_rr_missing_predictions_close_to_complete_data():
    """Claim 10 (paper 004 §5.5, RR-Missing): with 10 % of the training entries missing in blocks
    (``core.corruption.missing_blocks``: 4 × 4 blocks, share 0.1 of every image), RR-Missing's
    test predictions stay within 10 % of RR's on the complete data (relative to the spread of
    the latter, ‖P_miss − P_full‖ / ‖P_full − mean‖), and the filled values are closer to the
    truth than the feature means. Measured with the RR defaults (λ·√max = 2, η = 10, γ = 1e-2):
    0.086 (a ridge on mean-filled data: 0.114); filled-entry error 0.295 vs 0.378 for the
    feature means. Data: the 100 LFW faces, targets the mean brightness of the left and top
    halves, 60 for training."""
    faces = datasets.lfw_faces()
    X = faces.X
    n = len(X)
    left = np.zeros((25, 25))
    left[:, :12] = 1.0
    Y = np.stack([(X * left.ravel()).sum(1), (X * left.T.ravel()).sum(1)], axis=1) / 300.0
    rng = np.random.default_rng(0)
    tr = np.zeros(n, dtype=bool)
    tr[rng.choice(n, 60, replace=False)] = True
    train_set = datasets.ImageSet(images=faces.images[tr], labels=None,
                                  names=tuple(np.array(faces.names)[tr]), source="LFW train")
    holed = corruption.missing_blocks(train_set, share=0.1, block=4, seed=0)
    Xm, miss = holed.X, holed.mask
    assert 0.08 < miss.mean() < 0.12 and np.array_equal(np.isnan(Xm), miss)
    full = RR().fit(X[tr], Y[tr])
    est = RRMissing()
    st = run(est, Xm, Y[tr])[-1]
    est._set_fitted(st)
    P0, P1 = full.predict(X[~tr]), est.predict(X[~tr])
    spread = np.linalg.norm(P0 - P0.mean(0))
    assert np.linalg.norm(P1 - P0) / spread < 0.10
    # filled values (D at missing entries) vs the truth, and the state's conventions
    assert np.all(st.E[miss] == 0.0)
    filled = est.filled()
    assert not np.isnan(filled).any()
    np.testing.assert_array_equal(filled[~miss], Xm[~miss])
    truth = X[tr][miss]
    means = np.broadcast_to(np.nanmean(Xm, axis=0), Xm.shape)[miss]
    assert np.linalg.norm(filled[miss] - truth) < np.linalg.norm(means - truth)
    # test inputs with missing entries: cleaned by eq. (10) and filled
    test_set = datasets.ImageSet(images=faces.images[~tr], labels=None,
                                 names=tuple(np.array(faces.names)[~tr]), source="LFW test")
    Xt = corruption.missing_blocks(test_set, share=0.1, block=4, seed=1).X
    res = est.clean(Xt)
    assert not np.isnan(res.D).any() and np.all(res.E[np.isnan(Xt)] == 0)
    assert est.predict(Xt).shape == (int((~tr).sum()), 2)


def test_rlda_missing_runs_and_plain_rr_refuses_nan(rng):
    """RLDA-Missing accepts NaN inputs; RR and RLDA refuse them with a message naming RR-Missing."""
    X = low_rank_sparse(rng, n=40, d=30)
    y = np.repeat(np.arange(4), 10)
    Xm = X.copy()
    Xm[:8, :10] = np.nan
    st = run(RLDAMissing(), Xm, y)[-1]
    assert st.D.shape == X.shape and np.isfinite(st.D).all()
    for est in (RR(), RLDA()):
        with pytest.raises(DataError, match="Missing"):
            est.start(Xm, y if est._classifier else X[:, :2])


# ---------------------------------------------------------------- refusals
@pytest.mark.parametrize("name", ["lam_scale", "eta", "alpha"])
@pytest.mark.parametrize("value", [0.0, -1.0])
@pytest.mark.parametrize("cls", [RR, RLDA, RRMissing])
def test_nonpositive_weights_refused_naming_the_parameter(cls, name, value, rng):
    """λ, η, γ must be > 0: refused before any work by a ParameterError naming the parameter."""
    X = rng.standard_normal((10, 4))
    y = np.repeat([0, 1], 5) if cls is RLDA else rng.standard_normal(10)
    est = cls(**{name: value})
    with pytest.raises(ParameterError, match=rf"^{name} \("):
        est.start(X, y)
    spec = catalogue.get(cls._info.key).spec(name)
    assert spec.low == 0.0 and spec.low_open and spec.scale == "log"


def test_single_sample_class_refused(rng):
    """A class with a single sample is refused (DataError naming the class) by RLDA, LDA and the
    stratified split."""
    X = rng.standard_normal((7, 4))
    y = np.array([0, 0, 0, 1, 1, 1, 7])
    for est in (RLDA(), LDA()):
        with pytest.raises(DataError, match="class 7 has a single sample"):
            est.fit(X, y)
    with pytest.raises(DataError, match="class 'x' has a single sample"):
        train_test_split(np.array(["a", "a", "x"]))


def test_bad_shapes_refused(rng):
    X = rng.standard_normal((10, 4))
    with pytest.raises(DataError, match="n_samples = 10"):
        RR().start(X, np.ones(9))
    with pytest.raises(DataError, match="NaN or infinite"):
        RR().start(X, np.full(10, np.nan))
    with pytest.raises(NotFittedError, match="not fitted"):   # scikit-learn's error, our words
        RR().predict(X)


# ---------------------------------------------------------------- state, API and catalogue
def test_state_is_immutable_and_documented_shapes(rng):
    X = low_rank_sparse(rng, n=30, d=20)
    Y = rng.standard_normal((30, 2))
    est = RR(max_iter=5)
    s0 = est.start(X, Y)
    s1 = est.step(s0)
    assert isinstance(s1, RegressionState) and s1.iteration == 1 and s0.iteration == 0
    assert s1.T.shape == (2, 21) and s1.coef.shape == (2, 20) and s1.intercept.shape == (2,)
    assert s1.D.shape == s1.E.shape == X.shape
    for arr in (s1.D, s1.E, s1.T, s1.singular_values):
        with pytest.raises(ValueError):
            arr[...] = 0
    assert len(s1.scalar_history["r1"]) == 2 and len(s1.objective_history) == 2
    assert {"μ1", "μ2", "r1", "r2", "rank", "nnz(E)"} <= set(s1.scalars)
    np.testing.assert_allclose(s1.predict_outputs(X), X @ s1.coef.T + s1.intercept)
    # stepping the same state twice gives the same result (rewind)
    np.testing.assert_array_equal(est.step(s0).D, s1.D)
    est.fit(X, Y)
    assert est.n_iter_ == 5 and est.coef_.shape == (2, 20)
    assert est.predict(X[:3]).shape == (3, 2)


def test_catalogue_lists_regression_methods_apart():
    """Every method is registered with task="regression"; the subspace list does not show them."""
    keys = {m.key for m in catalogue.methods("regression")}
    assert {"rr", "rr-missing", "rlda", "rlda-missing", "lsr", "ridge", "tls", "rpca-lsr", "ransac",
            "lda"} <= keys
    assert not keys & {m.key for m in catalogue.methods()}
    for key in keys:
        info = catalogue.get(key)
        assert info.family == "regression" and info.task == "regression"
        est = info.create()
        assert set(est.get_params()) == {s.name for s in info.params}


# ---------------------------------------------------------------- baselines
def test_baselines_on_exact_linear_data(rng):
    """LSR, ridge (tiny γ), TLS and RANSAC recover T exactly on noise-free linear data; RPCA+LSR
    steps PCP and refits T every step."""
    X = rng.standard_normal((50, 4)) * 10 + 50
    T = rng.standard_normal((2, 5))
    Y = X @ T[:, :4].T + T[:, 4]
    for est in (LeastSquares(), Ridge(alpha=1e-12), TLS(), RANSAC(n_trials=5, alpha=1e-12)):
        est.fit(X, Y)
        assert rel(est.T_, T) < 1e-6, type(est).__name__
    states = list(RPCALS(max_iter=3).iterate(X, Y))
    assert [s.iteration for s in states] == [0, 1, 2, 3]
    with pytest.raises(DataError, match="TLS needs"):
        TLS().fit(X[:4], Y[:4])


def test_ransac_rejects_gross_outliers(rng):
    """RANSAC's consensus excludes samples with grossly wrong targets; stepping replays trials."""
    X = rng.standard_normal((60, 3))
    T = rng.standard_normal((1, 4))
    Y = X @ T[:, :3].T + T[:, 3] + 0.01 * rng.standard_normal((60, 1))
    Y[:10] += 20.0
    est = RANSAC(n_trials=30, threshold=0.5, random_state=1)
    states = list(est.iterate(X, Y))
    best = states[-1]
    assert not best.details["inliers"][:10].any() and best.details["inliers"][10:].mean() > 0.8
    assert rel(best.T, T) < 0.05
    np.testing.assert_array_equal(est.step(states[3]).T, states[4].T)


# ---------------------------------------------------------------- snapshot
def test_snapshot_3d_and_images(synth):
    """regression_snapshot: points for the 3-D example, image rows and weight images for images,
    metrics against the truth."""
    d = synth[0]
    est = RR(lam_scale=3.0, eta=100.0, alpha=1e-2, max_iter=20)
    st = est.start(d.X_train, d.Y_train)
    snap0 = regression_snapshot(st, d)
    for _ in range(3):
        st = est.step(st)
    snap = regression_snapshot(st, d)
    assert snap.points is not None and set(snap.points) == {"input", "cleaned", "clean"}
    assert snap.rows is None and snap.weights is None
    assert {"RAE_T", "RAE_Y train", "RAE_Y test", "cleaning error",
            "distance to clean: in-plane", "distance to clean: out-of-plane"} <= set(snap.metrics)
    assert snap.metrics["input error"] == pytest.approx(snap0.metrics["cleaning error"])
    assert snap.train_outputs.shape == d.Y_train.shape and snap.test_outputs.shape == d.Y_test.shape
    assert len(snap.scalar_history["r1"]) == 4

    digits = subsample_per_class(datasets.mnist_digits(), 6, seed=0)
    data = regression_data(corruption.corrupt(digits, "rectangles", fraction=0.5, seed=0), seed=0)
    est = RLDA(max_iter=3)
    st = est.start(data.X_train, data.targets_train)
    st = est.step(st)
    snap = regression_snapshot(st, data, samples=[0, 1])
    assert snap.rows.shape == (2, 4, 28, 28) and snap.weights.shape == (10, 28, 28)
    assert snap.output_names == tuple(str(c) for c in range(10))
    assert 0.0 <= snap.metrics["test accuracy"] <= 1.0
    assert snap.test_predictions.shape == (int(data.test.sum()),)


def test_rpca_lsr_stops_between_its_costly_calls(monkeypatch):
    """RPCA+LSR's step is a PCP iteration, then least squares on L and the singular values of L
    (each 60-75 ms on 2,000 digits): a Pause arriving during the least squares stops the step
    before the SVD (they held it for up to 170 ms), and nothing of the step is kept."""
    import threading

    from robust_subspace_lab.core import interrupt
    import robust_subspace_lab.core.regression.baselines as B

    data = synthetic_3d(seed=0)
    est = catalogue.create("rpca-lsr")
    state = est.start(data.X[data.train], data.Y[data.train])
    pause, calls = threading.Event(), []
    lstsq, svd = B._lstsq_fit, np.linalg.svd

    def paused_lstsq(L, Y):
        pause.set()                    # the user pauses while the least squares run
        return lstsq(L, Y)

    monkeypatch.setattr(B, "_lstsq_fit", paused_lstsq)
    monkeypatch.setattr(B.np.linalg, "svd", lambda *a, **k: (pause.is_set() and calls.append("svd")) or svd(*a, **k))
    with interrupt.cancellable(pause), pytest.raises(interrupt.Cancelled):
        est.step(state)
    assert calls == []


@pytest.mark.parametrize("info", catalogue.methods("regression"), ids=lambda m: m.key)
def test_start_step_and_fit_leave_the_estimator_unchanged(info, rng):
    """scikit-learn's rule: ``start``, ``step`` and ``fit`` leave the parameters and every other
    attribute as they were (the validated parameters travel with the run's states: start kept them
    as ``_params``) and only add learned attributes, whose names end in ``_`` (``start``:
    ``n_features_in_``, as scikit-learn's ``validate_data`` sets it)."""
    X = rng.standard_normal((24, 4)) * 10 + 50
    y = np.repeat([0, 1, 2], 8)
    Y = y if info.estimator._classifier else X @ rng.standard_normal((4, 2)) + 0.1 * rng.standard_normal((24, 2))
    est = info.estimator()
    if "max_iter" in est.get_params():
        est.set_params(max_iter=3)
    params, attrs = est.get_params(), dict(vars(est))
    state = est.start(X, Y)
    if not est.finished(state):
        est.step(state)
    added = vars(est).keys() - attrs.keys()
    assert all(name.endswith("_") for name in added), sorted(added)
    assert est.get_params() == params and {k: vars(est)[k] for k in attrs} == attrs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        est.fit(X, Y)
    added = vars(est).keys() - attrs.keys()
    assert added and all(name.endswith("_") for name in added), sorted(added)
    assert est.get_params() == params and {k: vars(est)[k] for k in attrs} == attrs
