"""Checks of the PCA family (papers 000 and 001) against the papers' claims.

Each test names the claim it checks: "000 claim N" refers to the list "Claims a re-implementation
can check" in the extraction of paper 000 (Oh & Kwak 2016), "001 claim N" to paper 001's.
"""
import numpy as np
import pytest

from robust_subspace_lab.core import catalogue
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.linalg import weighted_subspace
from robust_subspace_lab.core.methods import PCA, PCAGM, RPCAOM, GeneralizedMean
from robust_subspace_lab.core.metrics import principal_angles, reconstruction_error


def run(est, X):
    return list(est.iterate(X))


def assert_non_increasing(objectives, rtol=1e-8):
    J = np.asarray(objectives)
    rises = np.diff(J) / np.abs(J[:-1])
    assert np.all(rises <= rtol), f"objective rose by up to {rises.max():.3g} (relative) at iteration {rises.argmax() + 1}"


# ---------------------------------------------------------------- linear algebra
@pytest.mark.parametrize("shape", [(40, 90), (90, 40)], ids=["gram-route", "scatter-route"])
def test_weighted_subspace_matches_svd_of_weighted_data(shape, rng):
    """Identity used by both papers: the top eigenvectors of Σ w_i x_i x_iᵀ are the top right
    singular vectors of diag(√w) X (000 §3.2 'implementation used by the authors'; 001 eq. 16)."""
    X = rng.standard_normal(shape) @ np.diag(np.linspace(3, 1, shape[1]))
    w = rng.uniform(0.01, 1.0, shape[0])
    c = rng.standard_normal(shape[1])
    Xc = X - c
    for comps, evals, proj in (weighted_subspace(Xc, w, 5), weighted_subspace(X, w, 5, center=c),
                               weighted_subspace(X, w, 5, center=c, gram=Xc @ Xc.T)):
        _, s, Vt = np.linalg.svd(np.sqrt(w)[:, None] * Xc, full_matrices=False)
        assert principal_angles(comps, Vt[:5]).max() < 1e-8
        np.testing.assert_allclose(evals, s[:5] ** 2, rtol=1e-9)
        np.testing.assert_allclose(comps @ comps.T, np.eye(5), atol=1e-12)
        np.testing.assert_allclose(proj, Xc @ comps.T, rtol=1e-9, atol=1e-9 * np.abs(proj).max())


# ---------------------------------------------------------------- PCA-GM (paper 000)
def test_generalized_mean_p1_is_arithmetic_mean(occluded):
    """000 claim 1: with p = 1 Algorithm 1 returns the sample mean m_S."""
    gm = GeneralizedMean(p=1.0).fit(occluded.X)
    np.testing.assert_allclose(gm.mean_, occluded.X.mean(axis=0), rtol=0, atol=1e-10)
    assert gm.n_iter_ <= 1


def test_pcagm_p1_is_pca_after_one_iteration(occluded):
    """000 claim 1: with p = 1 all β_i = 1, so Algorithm 2 returns W_PCA after one iteration."""
    pca = PCA(n_components=10).fit(occluded.X)
    states = run(PCAGM(n_components=10, p=1.0), occluded.X)
    assert len(states) == 2 and states[1].converged  # one iteration, then the stopping rule holds
    assert principal_angles(states[1].components, pca.components_).max() < 1e-8
    np.testing.assert_allclose(states[1].sample_weights, 1.0)


@pytest.mark.parametrize("p", [0.1, 0.2, 0.3, 0.4, 0.5])
def test_pcagm_objective_never_increases(occluded, p):
    """000 claim 2: Σ_i (e_i + δ)^p is non-increasing over Algorithm 2 (MM argument, §3.5)."""
    states = run(PCAGM(n_components=10, p=p, max_iter=60, tol=0), occluded.X)
    assert_non_increasing([s.objective for s in states])
    assert states[-1].objective < states[0].objective


@pytest.mark.parametrize("p", [0.1, 0.3, 0.5])
def test_generalized_mean_objective_never_increases(occluded, p):
    """000 claim 2 for Algorithm 1: Σ_i (‖x_i − m‖² + δ)^p is non-increasing."""
    states = run(GeneralizedMean(p=p, max_iter=60, tol=0), occluded.X)
    assert_non_increasing([s.objective for s in states])


def test_robust_mean_on_fig1_toy():
    """000 claim 3 (Fig. 1 toy): 100 inliers N(0, 0.5 I), 10 outliers N((5, 5), 0.3 I); m_G for
    p = 0.1, 0.2 lies much closer to the inlier centre (0, 0) than the arithmetic mean, which the
    outliers pull by about 10/110 · 5 per coordinate. Over 10 draws: closer on every draw, and at
    most half the distance on average (measured: about a third)."""
    for p in (0.1, 0.2):
        dist_g, dist_s = [], []
        for seed in range(10):
            r = np.random.default_rng(seed)
            X = np.vstack([r.normal(0, np.sqrt(0.5), (100, 2)), r.normal(5, np.sqrt(0.3), (10, 2))])
            dist_s.append(np.linalg.norm(X.mean(axis=0)))
            dist_g.append(np.linalg.norm(GeneralizedMean(p=p).fit(X).mean_))
        assert np.all(np.array(dist_g) < np.array(dist_s)), (p, dist_g, dist_s)
        assert np.mean(dist_g) < 0.5 * np.mean(dist_s), (p, np.mean(dist_g), np.mean(dist_s))


def test_pcagm_rotation_invariance(occluded, rng):
    """000 claim 6: rotating the data by an orthogonal Q maps the components to Q W and leaves
    the reconstruction errors (hence the weights) unchanged."""
    X = occluded.X[:, :60]
    Q, _ = np.linalg.qr(rng.standard_normal((60, 60)))
    a = PCAGM(n_components=5, p=0.3, max_iter=20).fit(X)
    b = PCAGM(n_components=5, p=0.3, max_iter=20).fit(X @ Q)
    assert principal_angles(a.components_ @ Q, b.components_).max() < 1e-6
    np.testing.assert_allclose(a.sample_weights_, b.sample_weights_, rtol=1e-6)


def test_pcagm_downweights_dummy_images(with_dummies):
    """000 claims 7 and 13, as the issue states them: on 100 faces + 30 random-dot images,
    PCA-GM (p = 0.3, k = 10) gives the dummies a median weight >= 5× smaller than the faces',
    and a lower eq. (14) error than PCA (dummies excluded from the average, as the paper does)."""
    d = with_dummies
    gm = PCAGM(n_components=10, p=0.3).fit(d.X)
    pca = PCA(n_components=10).fit(d.X)
    w = gm.sample_weights_
    ratio = np.median(w[~d.added]) / np.median(w[d.added])
    assert ratio >= 5, ratio
    err_gm = reconstruction_error(gm.components_, d.X, d.X_clean, include=~d.added)
    err_pca = reconstruction_error(pca.components_, d.X, d.X_clean, include=~d.added)
    assert err_gm < err_pca, (err_gm, err_pca)


def test_pcagm_beats_pca_on_occluded_faces(occluded):
    """000 claim 7 (occlusion): with 20% of the faces occluded by rectangles of random dots,
    PCA-GM's eq. (14) error at k = 10 is lower than PCA's."""
    d = occluded
    gm = PCAGM(n_components=10, p=0.3).fit(d.X)
    pca = PCA(n_components=10).fit(d.X)
    err_gm = reconstruction_error(gm.components_, d.X, d.X_clean)
    err_pca = reconstruction_error(pca.components_, d.X, d.X_clean)
    assert err_gm < err_pca, (err_gm, err_pca)
    # and the occluded faces are the down-weighted ones (000 claim 13)
    w = gm.sample_weights_
    assert np.median(w[d.outliers]) < np.median(w[~d.outliers])


# ---------------------------------------------------------------- RPCA-OM (paper 001)
def test_rpcaom_first_iteration_is_pca(occluded):
    """001 claim 1: with D = I the first pass of Algorithm 1 is PCA with the ordinary mean."""
    s0 = RPCAOM(n_components=10).start(occluded.X)
    pca = PCA(n_components=10).fit(occluded.X)
    assert principal_angles(s0.components, pca.components_).max() < 1e-8
    np.testing.assert_allclose(s0.mean, occluded.X.mean(axis=0), atol=1e-9)


def test_rpcaom_objective_never_increases(occluded):
    """001 claim 2 (Theorem 1): J = Σ_i √(‖(I − UUᵀ)(x_i − b)‖² + ε) is non-increasing."""
    states = run(RPCAOM(n_components=10, max_iter=60, tol=0), occluded.X)
    assert_non_increasing([s.objective for s in states])
    assert states[-1].objective < states[0].objective


def test_rpcaom_translation_equivariance(occluded):
    """001 claim 6: adding c to every sample shifts b by c and leaves U and D unchanged."""
    X = occluded.X
    c = np.linspace(-20, 20, X.shape[1])
    a = RPCAOM(n_components=5, max_iter=15, tol=0).fit(X)
    b = RPCAOM(n_components=5, max_iter=15, tol=0).fit(X + c)
    np.testing.assert_allclose(b.mean_, a.mean_ + c, atol=1e-6)
    assert principal_angles(a.components_, b.components_).max() < 1e-6
    np.testing.assert_allclose(a.sample_weights_, b.sample_weights_, rtol=1e-6)


def test_rpcaom_kkt_at_fixed_point():
    """001 claim 3 (Theorem 2, eqs. 22–23): at convergence Σ_i r_i/‖r_i‖ = 0 and
    Σ_i r_i (b − x_i)ᵀU/‖r_i‖ lies in span(U), with r_i = (I − UUᵀ)(x_i − b). Checked where the fixed
    point is smooth (many samples, few features, no residual at 0): 500 samples near a 3-D subspace
    of R^20, 50 of them with large extra noise."""
    r = np.random.default_rng(0)
    X = r.standard_normal((500, 3)) @ r.standard_normal((3, 20)) * 3 + r.standard_normal((500, 20)) * 0.5 + 10
    X[:50] += r.standard_normal((50, 20)) * 8
    est = RPCAOM(n_components=3, max_iter=3000, tol=1e-15).fit(X)
    Xc = X - est.mean_
    U = est.components_
    R = Xc - (Xc @ U.T) @ U
    norms = np.linalg.norm(R, axis=1)
    assert norms.min() > 0.1 * np.median(norms)          # smooth fixed point
    g_b = (R / norms[:, None]).sum(axis=0)                # eq. (23), a sum of 500 unit vectors
    assert np.linalg.norm(g_b) < 1e-5, np.linalg.norm(g_b)
    G = (R / norms[:, None]).T @ (-Xc @ U.T)              # eq. (22) term, must equal UΛ
    off = G - U.T @ (U @ G)
    assert np.linalg.norm(off) < 1e-7 * np.abs(Xc).sum(), np.linalg.norm(off)


def test_rpcaom_mean_is_closer_to_clean_mean(occluded):
    """001 claim 7: with 20% occluded images the optimal mean b is closer to the mean of the clean
    images than the ℓ2 mean is, and occluded samples get smaller weights d_ii.

    b is only defined modulo span(U) (001 claim 5, eqs. 8 and 15): J(U, b + Uα) = J(U, b). So the
    distance is measured orthogonally to the learned subspace."""
    d = occluded
    est = RPCAOM(n_components=10).fit(d.X)
    U = est.components_
    clean_mean = d.X_clean.mean(axis=0)

    def off_subspace(v):
        return np.linalg.norm(v - U.T @ (U @ v))

    assert off_subspace(est.mean_ - clean_mean) < off_subspace(d.X.mean(axis=0) - clean_mean)
    w = est.sample_weights_
    assert np.median(w[d.outliers]) < np.median(w[~d.outliers])


def test_recorded_finding_reweighting_interpolates_samples(occluded):
    """Recorded finding (extraction 000 §3.4 pitfall 3; the papers do not report it): with 100
    samples in 625 dimensions and k = 10, both PCA-GM and RPCA-OM converge to an affine subspace
    that passes (almost) exactly through one or two samples; those samples' residuals fall to ~0
    and their weights dominate all others by orders of magnitude, while b drifts along span(U).
    The objectives still decrease and the occluded samples are still down-weighted on median.
    Measured (seed 0): RPCA-OM's smallest residual 0.006 vs a median of 726 grey levels, PCA-GM's
    (p = 0.1) 1.5 vs 723. This is why the app plots weights on a log scale."""
    d = occluded
    for est in (RPCAOM(n_components=10), PCAGM(n_components=10, p=0.1)):
        s = est.fit_state(d.X)
        Xc = d.X - s.mean
        r = np.linalg.norm(Xc - (Xc @ s.components.T) @ s.components, axis=1)
        assert r.min() < 1e-2 * np.median(r), (est.name, r.min(), np.median(r))
        assert s.sample_weights.argmax() == r.argmin()
        assert np.median(s.sample_weights) < 0.05


# ---------------------------------------------------------------- contract and bad input
@pytest.mark.parametrize("info", catalogue.methods(), ids=lambda i: i.key)
def test_catalogue_entries_are_consistent(info, occluded):
    """Every registered method: constructor keywords == its ParamSpecs, defaults valid, and
    start/step/fit/transform follow the estimator contract with the documented shapes.

    Greedy methods (PCA-L1, the sparse PCAs) show the components committed so far plus the
    current candidate, so their count grows to n_components; convex methods have no k and show as
    many components as the rank of their low-rank part; methods without sample weights give None."""
    est = info.create()
    assert set(est.get_params()) == {s.name for s in info.params}
    for s in info.params:
        s.validate(s.default)
    X = occluded.X
    s0 = est.start(X)
    s1 = est.step(s0)
    assert (s0.iteration, s1.iteration) == (0, 1)
    k = getattr(est, "n_components", None) or None          # convex methods: 0 = no rank cap
    for s in (s0, s1):
        assert s.components.ndim == 2 and s.components.shape[1] == X.shape[1]
        assert 1 <= s.n_components <= (k if k is not None else min(X.shape))
        np.testing.assert_allclose(np.linalg.norm(s.components, axis=1), 1.0, rtol=1e-9)
        assert s.mean.shape == (X.shape[1],)
        if s.sample_weights is not None:
            assert s.sample_weights.shape == (len(X),) and s.sample_weights.max() == pytest.approx(1.0)
        for part in (s.sparse_part, s.fitted):
            assert part is None or part.shape == X.shape
    assert len(s1.objective_history) == 2
    with pytest.raises(ValueError):
        s1.components[0, 0] = 1.0  # states are immutable
    final = est.fit_state(X)
    assert est.finished(est.state_)
    if k is not None:
        assert est.components_.shape == (k, X.shape[1])
    Y = est.transform(X)
    assert Y.shape == (len(X), len(est.components_))
    # the method's own reconstruction of its training data: the projection for the PCA methods;
    # the convex methods' low-rank part and NMF's HW lie in what inverse_transform spans, so
    # transform (the projection / the weighted solve) gives them back
    R_fit = final.training_reconstruction(X)
    if final.fitted is None:
        np.testing.assert_allclose(est.inverse_transform(Y), R_fit, atol=1e-8)
    elif info.family == "NMF":      # (to the weighted solve's own tolerance)
        R = est.inverse_transform(est.transform(R_fit, weighted=False))
        assert np.linalg.norm(R - R_fit) <= 1e-6 * np.linalg.norm(R_fit)
    else:
        np.testing.assert_allclose(est.inverse_transform(est.transform(R_fit)), R_fit, atol=1e-8)


@pytest.mark.parametrize("p", [0.0, -0.5, 1.5, float("nan"), "a"])
def test_pcagm_refuses_bad_p(occluded, p):
    with pytest.raises(ParameterError, match=r"\bp\b"):
        PCAGM(p=p).start(occluded.X)


@pytest.mark.parametrize("key", ["pca", "pca-gm", "rpca-om"])
def test_refuses_k_too_large(key, occluded):
    n, d = occluded.X.shape
    with pytest.raises(DataError, match="n_components"):
        catalogue.create(key, n_components=min(n, d)).start(occluded.X)
    with pytest.raises(ParameterError, match="n_components"):
        catalogue.create(key, n_components=0).start(occluded.X)


def test_refuses_non_finite_data(occluded):
    X = occluded.X.copy()
    X[3, 7] = np.nan
    with pytest.raises(DataError, match="NaN"):
        PCAGM().start(X)


def test_both_eigensolvers_give_the_same_subspace(rng, monkeypatch):
    """core.linalg.top_eigh: scipy's partial solver (small matrices) and numpy's full one (large
    matrices, releases the GIL) agree."""
    import robust_subspace_lab.core.linalg as L

    X = rng.standard_normal((60, 90)) @ np.diag(np.linspace(3, 1, 90))
    w = rng.uniform(0.1, 1.0, 60)
    a = weighted_subspace(X, w, 6)
    monkeypatch.setattr(L, "PARTIAL_EIGH_MAX", 10)
    b = weighted_subspace(X, w, 6)
    assert principal_angles(a[0], b[0]).max() < 1e-8
    np.testing.assert_allclose(a[1], b[1], rtol=1e-9)
    np.testing.assert_allclose(a[2], b[2], atol=1e-8 * np.abs(a[2]).max())


def test_every_method_has_a_guide_text():
    """The app's "what you are seeing" covers the whole catalogue (no method without help)."""
    from robust_subspace_lab.core import guide
    for info in catalogue.methods(None):
        assert len(guide.text(info.key)) > 40, info.key
    assert set(guide.GUIDE) == {m.key for m in catalogue.methods(None)}


def test_paramspec_refuses_text_for_numbers():
    """ "0.5" is text: refused with the parameter named, not silently converted."""
    spec = catalogue.get("pca-gm").spec("p")
    with pytest.raises(ParameterError, match="p must be a number"):
        spec.validate("0.5")
    assert spec.validate(0.5) == 0.5


def test_parameter_labels_are_unique_per_method():
    """Two parameters of one method never share a display symbol (the app labels controls by it)."""
    for info in catalogue.methods(None):
        symbols = [s.symbol for s in info.params]
        assert len(symbols) == len(set(symbols)), (info.key, symbols)


@pytest.mark.parametrize("info", catalogue.methods("subspace"), ids=lambda m: m.key)
def test_start_and_step_leave_the_estimator_unchanged(info):
    """scikit-learn's rule: ``start`` and ``step`` leave the parameters and every other attribute
    as they were (the run's seed travels with its states: start kept it as ``_run_seed``), and only
    add learned attributes, whose names end in ``_`` (``n_features_in_``; the convex methods'
    resolved ``gamma_``)."""
    X = np.random.default_rng(0).random((30, 120)) * 255
    est = info.estimator()
    est.set_params(**{k: v for k, v in (("n_components", 2), ("max_iter", 3)) if k in est.get_params()})
    params, attrs = est.get_params(), dict(vars(est))
    state = est.start(X)
    if not est.finished(state):
        est.step(state)
    added = vars(est).keys() - attrs.keys()
    assert all(name.endswith("_") for name in added), sorted(added)
    assert est.get_params() == params and all(vars(est)[k] is v for k, v in attrs.items())
