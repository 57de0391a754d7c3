"""Checks of the low-rank + sparse methods (PCP, Outlier Pursuit, CRPCA-OM) against paper 001's claims.

"001 claim N" refers to the list "Claims a re-implementation can check" (§7) in the extraction of
paper 001 (Nie, Yuan & Huang, ICML 2014). Data are (n_samples, n_features), grey levels 0–255.
"""
from dataclasses import replace

import numpy as np
import pytest
from scipy import optimize

from robust_subspace_lab.core import catalogue, corruption, datasets, prox
from robust_subspace_lab.core.errors import DataError, ParameterError, SolverError
from robust_subspace_lab.core.methods.convex import (CRPCAOM, PCP, OutlierPursuit, gamma_scale, optimal_mean_svt,
                                                    row_shrink, svt)
from robust_subspace_lab.core.metrics import total_reconstruction_error


def nuclear(Z):
    return float(np.linalg.svd(Z, compute_uv=False).sum())


def run(est, X):
    """All states of a run; checks 001 claim 17 (ALM convergence) on every data set it is given:
    the stopping rule is met by the primal residual, and every objective and scalar is finite."""
    states = list(est.iterate(X))
    last = states[-1]
    assert last.converged, f"{est!r} did not converge in {last.iteration} iterations"
    assert last.scalars["primal residual"] < est.tol
    assert np.all(np.isfinite(last.objective_history))
    for name, values in last.scalar_history.items():
        assert np.all(np.isfinite(values[1:])), name
    return states


def low_rank_data(rng, n=60, d=80, rank=3, outlier_rows=6):
    """Low-rank images around 128 plus a few outlying samples of random 0/255 dots."""
    X = 128 + rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d)) * 15
    X[:outlier_rows] = 255.0 * (rng.random((outlier_rows, d)) < 0.5)
    return X


@pytest.fixture(scope="module")
def occluded_001():
    """Paper 001's protocol: 20 % of the faces get one block of half the side (1/4 of the area)
    of random 0/255 dots."""
    faces = datasets.lfw_faces()
    return corruption.corrupt(faces, "rectangles", fraction=0.2, size_min=0.5, size_max=0.5,
                              content="dots", seed=0)


# ---------------------------------------------------------------- closed-form steps
def test_bz_step_is_exact_minimiser_of_eq32(rng):
    """001 claim 11 / Theorem 3: b = mean of X̃ and Z = SVT of the centred X̃ minimise (32)
    ½‖X̃ − 1bᵀ − Z‖² + τ‖Z‖_*; every random perturbation of (b, Z) is worse; Zᵀ1 = 0
    (the paper's Z1 = 0, samples being our rows)."""
    Xt = 128 + rng.standard_normal((30, 4)) @ rng.standard_normal((4, 20)) * 20 \
        + rng.standard_normal((30, 20)) * 5
    s = np.linalg.svd(Xt - Xt.mean(axis=0), compute_uv=False)
    tau = float(s[2])                       # thresholding active: rank 2 kept, the rest cut

    def f(b, Z):
        return 0.5 * np.sum((Xt - b - Z) ** 2) + tau * nuclear(Z)

    b, Z = optimal_mean_svt(Xt, tau)
    np.testing.assert_allclose(b, Xt.mean(axis=0))
    assert np.linalg.matrix_rank(Z) == 2
    assert np.abs(Z.sum(axis=0)).max() < 1e-10
    f0 = f(b, Z)
    for scale in (1e-3, 1e-1, 10.0):
        for _ in range(40):
            db = rng.standard_normal(b.shape) * scale
            dZ = rng.standard_normal(Z.shape) * scale
            assert f(b + db, Z) > f0
            assert f(b, Z + dZ) > f0
            assert f(b + db, Z + dZ) > f0
    # the optimality condition (37): X̃H − Z ∈ τ∂‖Z‖_*, hence ‖X̃H − Z‖₂ <= τ
    assert np.linalg.norm(Xt - b - Z, 2) <= tau * (1 + 1e-12)


def test_centring_lowers_nuclear_norm(rng):
    """001 claim 12 (Lemma 3): ‖ZH‖_* < ‖Z‖_* whenever ZH ≠ Z (H centres the samples)."""
    for _ in range(20):
        n, d = rng.integers(3, 15, size=2)
        Z = rng.standard_normal((n, d)) @ np.diag(rng.uniform(0.1, 3, d)) + rng.standard_normal(d)
        ZH = Z - Z.mean(axis=0)
        assert not np.allclose(ZH, Z)
        assert nuclear(ZH) < nuclear(Z)
    Zc = ZH                                  # already centred: ZH = Z, equal norms
    assert nuclear(Zc - Zc.mean(axis=0)) == pytest.approx(nuclear(Zc), rel=1e-12)


def test_row_shrinkage_minimises_eq33(rng):
    """001 claim 13: e_i = (‖t_i‖ − τ)₊ t_i/‖t_i‖ minimises (33) ½‖E − T‖² + τ‖E‖_{2,1}
    (ℓ2,1 over samples = rows here): it matches scipy.optimize and beats random perturbations."""
    T = rng.standard_normal((5, 3)) * np.array([[0.2], [1.0], [3.0], [0.5], [2.0]])
    tau = 1.0

    def f(E):
        return 0.5 * np.sum((E - T) ** 2) + tau * np.linalg.norm(E, axis=1).sum()

    E, norms = row_shrink(T, tau)
    np.testing.assert_allclose(norms, np.linalg.norm(E, axis=1))
    small = np.linalg.norm(T, axis=1) <= tau
    assert small.any() and (~small).any()
    assert np.all(E[small] == 0)
    res = optimize.minimize(lambda v: f(v.reshape(T.shape)), T.ravel(), method="Powell",
                            options={"xtol": 1e-10, "ftol": 1e-15, "maxiter": 200000})
    assert f(E) <= res.fun + 1e-10
    np.testing.assert_allclose(E, res.x.reshape(T.shape), atol=1e-5)
    f0 = f(E)
    for scale in (1e-4, 1e-2, 1.0):
        for _ in range(40):
            assert f(E + rng.standard_normal(E.shape) * scale) > f0


def test_svt_is_prox_of_nuclear_norm(rng):
    """SVT_τ(A) minimises ½‖Z − A‖² + τ‖Z‖_* (used by all three methods)."""
    A = rng.standard_normal((12, 9))
    tau = 1.5
    Z = svt(A, tau)
    f0 = 0.5 * np.sum((Z - A) ** 2) + tau * nuclear(Z)
    for _ in range(50):
        Zp = Z + rng.standard_normal(Z.shape) * 0.05
        assert 0.5 * np.sum((Zp - A) ** 2) + tau * nuclear(Zp) > f0


# ---------------------------------------------------------------- whole runs
def test_pcp_recovers_planted_low_rank_plus_sparse(rng):
    """Candès et al. 2011: PCP with λ = 1/√max(n, d) recovers a rank-5 200 × 200 matrix from 5 %
    gross sparse errors of random size up to ±255, as large as the entries of L₀ (inexact ALM of
    Lin et al.; the error is bounded by tol·‖X‖/‖L₀‖: measured 5e-8); 001 claim 17 on this data."""
    n = 200
    L0 = rng.standard_normal((n, 5)) @ rng.standard_normal((5, n)) * 10
    S0 = np.where(rng.random((n, n)) < 0.05, rng.uniform(-255, 255, (n, n)), 0.0)
    states = run(PCP(), L0 + S0)
    last = states[-1]
    assert np.linalg.norm(last.fitted - L0) / np.linalg.norm(L0) < 1e-5
    assert np.linalg.norm(last.sparse_part - S0) / np.linalg.norm(S0) < 1e-5
    assert last.scalars["rank"] == 5
    assert len(states) < 100       # ρ = 1.1: 65 iterations


def test_small_gamma_fits_data_exactly(rng):
    """001 claim 15: for small γ (here 0.5; E = 0 is optimal for every γ <= 1 since the rows of
    UVᵀ have norm <= 1) E = 0 and Z reproduces X, so Outlier Pursuit and CRPCA-OM give the same
    reconstructions."""
    X = rng.uniform(0, 255, (40, 60))
    om = run(CRPCAOM(gamma=0.5), X)[-1]
    op = run(OutlierPursuit(gamma=0.5), X)[-1]
    for state in (om, op):
        assert np.all(state.sparse_part == 0)
        assert np.all(state.details["outlier score"] == 0)
        assert np.linalg.norm(state.fitted - X) / np.linalg.norm(X) < 1e-6
    assert np.linalg.norm(om.fitted - op.fitted) / np.linalg.norm(X) < 1e-6


def test_crpca_om_iterates_have_centred_z(occluded_001):
    """001 claim 11 on the iterates: every Z = fitted − 1bᵀ has zero column sums (paper: Z1 = 0)."""
    for state in run(CRPCAOM(gamma=2.0), occluded_001.X)[1:]:
        Z = state.fitted - state.mean
        assert np.abs(Z.sum(axis=0)).max() < 1e-10 * 255 * len(Z)


def test_crpca_om_translation_equivariant_outlier_pursuit_not(occluded_001, rng):
    """001 claim 6: adding c to every sample shifts CRPCA-OM's b by c and leaves Z and E unchanged;
    uncentred Outlier Pursuit's reconstruction changes."""
    X = occluded_001.X
    c = rng.uniform(-60, 60, X.shape[1])
    a = run(CRPCAOM(gamma=2.0), X)[-1]
    b = run(CRPCAOM(gamma=2.0), X + c)[-1]
    scale = np.linalg.norm(X)
    assert np.abs((b.mean - c) - a.mean).max() < 1e-6
    assert np.linalg.norm((b.fitted - b.mean) - (a.fitted - a.mean)) / scale < 1e-9
    assert np.linalg.norm(b.sparse_part - a.sparse_part) / scale < 1e-9
    assert a.scalars["rank"] == b.scalars["rank"] > 0
    p = run(OutlierPursuit(gamma=2.0), X)[-1]
    q = run(OutlierPursuit(gamma=2.0), X + c)[-1]
    assert np.linalg.norm((q.fitted - c) - p.fitted) / scale > 1e-2
    # centring first restores equivariance (the mean is added back)
    r = run(OutlierPursuit(gamma=2.0, center=True), X)[-1]
    s = run(OutlierPursuit(gamma=2.0, center=True), X + c)[-1]
    assert np.linalg.norm((s.fitted - c) - r.fitted) / scale < 1e-9


@pytest.mark.parametrize("gamma", [2.0, 30.0])
def test_crpca_om_beats_outlier_pursuit_on_occluded_faces(occluded_001, gamma):
    """001 claim 14 (Figure 1), paper 001's protocol on the built-in faces: CRPCA-OM's error
    Σ‖b + z_i − x_i^o‖ is lower than uncentred Outlier Pursuit's Σ‖z_i − x_i^o‖ at the same γ.

    Measured (ρ = 1.1): γ = 2: 90 694 vs 90 790 (rank 7 both); γ = 30 (the paper's range):
    115 171 vs 316 355 — degenerate: with n = 100 samples Z = 0 for every γ >= √n = 10, so
    CRPCA-OM reconstructs every face by b and Outlier Pursuit by 0."""
    X, X0 = occluded_001.X, occluded_001.X_clean
    om = run(CRPCAOM(gamma=gamma), X)[-1]
    op = run(OutlierPursuit(gamma=gamma), X)[-1]
    e_om = total_reconstruction_error(om.training_reconstruction(X), X0)
    e_op = total_reconstruction_error(op.training_reconstruction(X), X0)
    assert e_om < e_op
    if gamma >= np.sqrt(len(X)):
        assert om.scalars["rank"] == op.scalars["rank"] == 0


def test_partial_svd_matches_exact_svd(monkeypatch, rng):
    """The rank-predicted partial SVD (block subspace iteration) gives the same iterates as the exact thin SVD."""
    X = low_rank_data(rng, n=200, d=300, rank=3, outlier_rows=15)
    monkeypatch.setattr(prox, "PARTIAL_SVD_MIN_DIM", 10**9)
    exact = {cls: run(cls(), X)[-1] for cls in (PCP, CRPCAOM)}
    calls = []
    original = prox._block_svd

    def counting(A, k, start, **kw):
        calls.append(k)
        return original(A, k, start, **kw)

    monkeypatch.setattr(prox, "PARTIAL_SVD_MIN_DIM", 100)
    monkeypatch.setattr(prox, "_block_svd", counting)
    for cls, ref in exact.items():
        calls.clear()
        got = run(cls(), X)[-1]
        assert len(calls) >= got.iteration // 2, f"{cls.__name__}: partial SVD used {len(calls)} times"
        assert got.iteration == ref.iteration
        assert got.scalars["rank"] == ref.scalars["rank"]
        np.testing.assert_allclose(got.fitted, ref.fitted, rtol=0, atol=1e-7 * np.abs(X).max())
        np.testing.assert_allclose(got.sparse_part, ref.sparse_part, rtol=0, atol=1e-7 * np.abs(X).max())


# ---------------------------------------------------------------- state contract, parameters, errors
@pytest.mark.parametrize("make", [PCP, lambda: PCP(center=True), OutlierPursuit,
                                  lambda: OutlierPursuit(center=True), CRPCAOM],
                         ids=["pcp", "pcp-centred", "op", "op-centred", "crpca-om"])
def test_steppable_state_contract(make, rng):
    X = low_rank_data(rng)
    n, d = X.shape
    est = make()
    s0 = est.start(X)
    s1 = est.step(s0)
    s2 = est.step(s1)
    assert [s.iteration for s in (s0, s1, s2)] == [0, 1, 2]
    assert est.step(s1).objective == s2.objective                 # stepping does not modify a state
    np.testing.assert_array_equal(est.step(s1).fitted, s2.fitted)
    for s in (s0, s1, s2):
        assert s.sparse_part.shape == s.fitted.shape == (n, d)
        assert s.mean.shape == (d,)
        assert 1 <= s.components.shape[0] <= 100 and s.components.shape[1] == d
        np.testing.assert_allclose(np.linalg.norm(s.components, axis=1), 1.0)
        assert s.sample_weights is None
        assert s.details["outlier score"].shape == (n,)
        assert {"rank", "μ", "primal residual"} <= set(s.scalars)
        assert all(len(v) == s.iteration + 1 for v in s.scalar_history.values())
    assert s2.scalars["μ"] > s1.scalars["μ"]
    final = run(make(), X)[-1]
    assert final.components.shape[0] == max(1, final.scalars["rank"])
    np.testing.assert_allclose(final.details["outlier score"], np.linalg.norm(final.sparse_part, axis=1))
    assert final.scalars["rank"] == np.linalg.matrix_rank(final.fitted - final.mean, tol=1e-6 * 255)
    if isinstance(est, OutlierPursuit) and not est.center:
        assert np.all(final.mean == 0)


def test_outlier_scores_flag_outlying_samples(rng):
    """The outlier score ‖e_i‖ is largest for the samples of random dots."""
    X = low_rank_data(rng, n=60, d=80, rank=3, outlier_rows=6)
    for est in (CRPCAOM(gamma=2.0), OutlierPursuit(gamma=2.0, center=True)):
        score = run(est, X)[-1].details["outlier score"]
        assert score[:6].min() > score[6:].max()


def test_catalogue_entries():
    for key, cls in (("pcp", PCP), ("outlier-pursuit", OutlierPursuit), ("crpca-om", CRPCAOM)):
        info = catalogue.get(key)
        assert info.family == "low-rank + sparse" and info.estimator is cls
        assert [p.name for p in info.params] == cls._param_names()
        assert isinstance(info.create(), cls)
        assert info.spec("max_iter").default == 500 and info.spec("tol").default == 1e-7


@pytest.mark.parametrize("make,name", [
    (lambda: CRPCAOM(gamma=0.0), "gamma"), (lambda: CRPCAOM(gamma=-1.0), "gamma"),
    (lambda: CRPCAOM(rho=1.0), "rho"), (lambda: CRPCAOM(rho=2.0), "rho"),
    (lambda: CRPCAOM(rho=0.5), "rho"), (lambda: OutlierPursuit(gamma=0.0), "gamma"),
    (lambda: OutlierPursuit(rho=2.5), "rho"), (lambda: PCP(lam_scale=0.0), "lam_scale"),
    (lambda: PCP(rho=1.0), "rho"), (lambda: CRPCAOM(max_iter=0), "max_iter"),
    (lambda: CRPCAOM(tol=-1e-3), "tol"), (lambda: OutlierPursuit(center="yes"), "center"),
])
def test_bad_parameters_refused_at_start(make, name, rng):
    with pytest.raises(ParameterError, match=name):
        make().start(rng.uniform(0, 255, (10, 12)))


def test_non_finite_values_raise_solver_error(rng):
    X = rng.uniform(0, 255, (10, 12))
    est = CRPCAOM()
    s0 = est.start(X)
    bad = replace(s0, _ctx=replace(s0._ctx, dual=np.full_like(X, np.nan)))
    with pytest.raises(SolverError, match="CRPCA-OM stopped at iteration 1"):
        est.step(bad)
    with pytest.raises(DataError, match="rescale"):
        PCP().start(X * 1e160)      # ‖X‖_F would overflow: refused before the run (issue 29)


@pytest.mark.parametrize("cls", [OutlierPursuit, CRPCAOM])
def test_small_gamma_fits_every_sample_below_the_leverage_bound(cls):
    """The γ docstring's claim: with more samples than features, E = 0 and Z = X (full rank)
    exactly when γ·max_i ‖u_i‖ <= 1 (U of the data, centred for CRPCA-OM), a bound near
    √(n/d) = 2 here, not 1: at 0.97 × the bound E is exactly 0, at 1.03 × it is not."""
    rng = np.random.default_rng(0)
    n, d = 400, 100
    X = 128 + rng.standard_normal((n, 5)) @ rng.standard_normal((5, d)) * 10 + 4 * rng.standard_normal((n, d))
    U = np.linalg.svd(X - X.mean(axis=0) if cls is CRPCAOM else X, full_matrices=False)[0]
    bound = 1.0 / np.sqrt(np.max(np.einsum("ij,ij->i", U, U)))
    assert 1.5 < bound < 2.0
    below, above = cls(gamma=0.97 * bound, max_iter=2000), cls(gamma=1.03 * bound, max_iter=2000)
    s_below, s_above = below.fit_state(X), above.fit_state(X)
    assert below.converged_ and above.converged_
    assert not np.any(s_below.sparse_part) and below.rank_ == d
    assert np.count_nonzero(np.linalg.norm(s_above.sparse_part, axis=1)) > 0


def test_gram_route_gives_the_exact_iterates_at_high_rank(monkeypatch):
    """Outlier Pursuit and CRPCA-OM below the leverage bound (γ = 1.5 < √(n/d) = 2 on tall noisy
    data): the ranks climb to full and the high-rank SVTs take the Gram route (about half of them, the
    others the partial SVD); the run equals the one with
    the thin SVD everywhere, iteration by iteration count, rank and fit."""
    rng = np.random.default_rng(1)
    n, d = 480, 120
    X = 128 + rng.standard_normal((n, 5)) @ rng.standard_normal((5, d)) * 10 + 4 * rng.standard_normal((n, d))
    monkeypatch.setattr(prox, "PARTIAL_SVD_MIN_DIM", 10**9)
    exact = {cls: run(cls(gamma=1.5), X)[-1] for cls in (OutlierPursuit, CRPCAOM)}
    routes = []
    original = prox.gram_svd

    def spy(*a, **k):
        got = original(*a, **k)
        routes.append(got is not None)
        return got

    monkeypatch.setattr(prox, "PARTIAL_SVD_MIN_DIM", 100)
    monkeypatch.setattr(prox, "gram_svd", spy)
    for cls, ref in exact.items():
        routes.clear()
        got = run(cls(gamma=1.5), X)[-1]
        assert sum(routes) >= 5, f"{cls.__name__}: Gram route taken {sum(routes)} times"
        assert got.iteration == ref.iteration and got.scalars["rank"] == ref.scalars["rank"] >= d - 1
        np.testing.assert_allclose(got.fitted, ref.fitted, rtol=0, atol=1e-7 * np.abs(X).max())
        np.testing.assert_allclose(got.sparse_part, ref.sparse_part, rtol=0, atol=1e-7 * np.abs(X).max())


# --------------------------------------------------------------------------- γ = "scale"
def tall_data(n=600, d=150, rank=5, seed=0):
    """More samples than features (√(n/d) = 2): rank 5 plus noise (sd 2) around 128, 10 % of
    the rows replaced by uniform 0–255 noise. Returns X and the outlier rows."""
    rng = np.random.default_rng(seed)
    X = 128 + rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d)) * (40 / np.sqrt(rank))
    X += 2.0 * rng.standard_normal((n, d))
    out = np.zeros(n, bool)
    out[rng.choice(n, n // 10, replace=False)] = True
    X[out] = rng.uniform(0, 255, (out.sum(), d))
    return X, out


@pytest.mark.parametrize("cls", [OutlierPursuit, CRPCAOM])
def test_default_gamma_gives_a_low_rank_fit_on_tall_data(cls):
    """With more samples than features a fixed γ = 1.5 lies below the bound ≈ √(n/d) = 2 under
    which E = 0 and Z = X: the fit reproduces the data at full rank (the former default). The
    default γ = "scale" = 2√(n/d) = 4 finds the planted rank (plus the mean direction for
    Outlier Pursuit) and the outlier rows by their scores."""
    X, out = tall_data()
    fixed = cls(gamma=1.5).fit(X)
    assert fixed.rank_ == X.shape[1]
    est = cls().fit(X)
    assert est.gamma == "scale" and est.gamma_ == 4.0 and est.converged_
    assert 5 <= est.rank_ <= 6
    score = est.state_.details["outlier score"]
    assert score[out].min() > score[~out].max()


@pytest.mark.parametrize("shape", [(100, 625), (351, 625), (625, 625), (5000, 784), (10_000, 4096), (600, 150)])
def test_scale_is_the_rule(shape):
    n, d = shape
    want = max(1.5, 2.0 * np.sqrt(n / d))
    assert gamma_scale(n, d) == pytest.approx(want, rel=5e-4)       # 4 significant digits
    assert gamma_scale(n, d) == float(f"{want:.4g}")
    assert catalogue.get("crpca-om").spec("gamma").resolved("scale", shape) == gamma_scale(n, d)


@pytest.mark.parametrize("cls", [OutlierPursuit, CRPCAOM])
def test_scale_runs_as_its_number_and_a_number_is_used_unchanged(cls):
    """gamma="scale" stores the resolved γ as ``gamma_`` and gives the very run of that number;
    a number is used as given (the objective ‖E‖_{2,1} + γ‖Z‖_* is computed with it)."""
    X, _ = tall_data(n=300, d=60, seed=1)

    def steps(est, n=15):
        state = est.start(X)
        for _ in range(n):
            state = est.step(state)
        return state

    auto = cls()
    a = steps(auto)
    assert auto.gamma == "scale" and auto.gamma_ == gamma_scale(300, 60) == 4.472
    b = steps(cls(gamma=4.472))
    np.testing.assert_array_equal(a.objective_history, b.objective_history)
    np.testing.assert_array_equal(a.fitted, b.fitted)
    for gamma in (2.0, 7.25):
        est = cls(gamma=gamma)
        s = steps(est)
        assert est.gamma == gamma and est.gamma_ == gamma
        Z = s.fitted - s.mean
        objective = np.linalg.norm(s.sparse_part, axis=1).sum() + gamma * nuclear(Z)
        assert s.objective == pytest.approx(objective, rel=1e-6)


@pytest.mark.parametrize("bad", ["auto", "Scale", "", "1.5", None])
@pytest.mark.parametrize("cls", [OutlierPursuit, CRPCAOM])
def test_other_words_for_gamma_are_refused(cls, bad, rng):
    with pytest.raises(ParameterError, match=r"gamma.*'scale'") as err:
        cls(gamma=bad).start(rng.uniform(0, 255, (10, 12)))
    if isinstance(bad, str):
        assert "γ" in str(err.value)
    with pytest.raises(ParameterError, match="gamma"):
        catalogue.get(cls._info.key).validate(gamma=bad)
