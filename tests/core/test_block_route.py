"""The block route of core.linalg.weighted_top_eigenspace (block Krylov iteration, issue 12): its
stopping rule against the exact eigensolver on real and synthetic data, its projections (taken
from the iteration's own products), zero weights, restarts and its Ritz block.

"Exact" is the Gram or scatter route with the same weights and centre, in float64.
"""
import warnings

import numpy as np
import pytest

import robust_subspace_lab.core.block_krylov as K
import robust_subspace_lab.core.linalg as L
from robust_subspace_lab.core import datasets
from robust_subspace_lab.core.linalg import weighted_top_eigenspace
from robust_subspace_lab.core.methods import HQPCA, PCAGM, RPCAOM


def exact(X, w, k, c):
    X = np.asarray(X, dtype=float)
    n, d = X.shape
    return weighted_top_eigenspace(X, w, k, None if c is None else np.asarray(c, float),
                                   route="gram" if n <= d else "scatter")


def sin_to(ref, W):
    """Sine of the largest principal angle between the row spaces (orthonormal rows)."""
    return K._sin_largest_angle(np.asarray(ref, float), np.asarray(W, float))


def synthetic(n=600, d=1024, rank=20, seed=0):
    """Rank-20 'images' plus noise with 10 % outlier rows of 0/255 dots (as benchmarks/bench_scale.py)."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, rank)) @ (rng.standard_normal((rank, d)) * 8.0) + 128.0
    X += rng.standard_normal((n, d)) * 4.0
    out = rng.random(n) < 0.1
    X[out] = (rng.random((int(out.sum()), d)) < 0.5) * 255.0
    return np.clip(X, 0.0, 255.0)


def block_calls(monkeypatch):
    """Send every weighted eigenproblem to the block route and record (weights, centre, k, result)."""
    calls = []
    orig = K.block_eigenspace

    def spy(X, w, k, c, init, *rest, **kw):
        out = orig(X, w, k, c, init, *rest, **kw)
        got = None if out is None else L.Eigenspace(*out[:3], "block", *out[3:])   # before the sign fix
        calls.append((np.array(w, dtype=float), None if c is None else np.array(c, dtype=float), k, got))
        return out

    monkeypatch.setattr(L, "subspace_route", lambda *a: "block")
    monkeypatch.setattr(K, "block_eigenspace", spy)
    return calls


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("data,cls,k,steps", [pytest.param("digits", PCAGM, 10, 4, marks=pytest.mark.slow),
                                              pytest.param("digits", RPCAOM, 5, 4, marks=pytest.mark.slow),
                                              ("faces", HQPCA, 10, 4), ("synthetic", PCAGM, 20, 7)])
def test_every_step_is_within_tol_of_the_exact_step(data, cls, k, steps, dtype, faces, monkeypatch):
    """Each weighted step of a method run on the block route (PCA start cold, then warm-started
    steps) is within the route's tolerance of the exact eigenspace with the same weights: sine of
    the largest principal angle <= BLOCK_TOL (float64) / BLOCK_TOL_32 (float32), eigenvalues
    within 1e-6 (1e-4) relative, projections = (X − c) Wᵀ. The synthetic run at k = 20 reaches
    steps whose weights hardly change: the former rule stopped those on the first iteration's
    angle and kept an error of 2e-5 at tol 1e-5."""
    X = {"digits": lambda: datasets.mnist_digits().X[::5], "faces": lambda: faces.X,
         "synthetic": synthetic}[data]().astype(dtype)
    calls = block_calls(monkeypatch)
    # the start to the steps' accuracy too (the default start stops earlier: tests/core/test_start_tol.py)
    exact_start = {"exact_start": True} if "exact_start" in cls().get_params() else {}
    est = cls(n_components=k, max_iter=steps, tol=0.0, **exact_start)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # max_iter reached: on purpose
        list(est.iterate(X))
    assert len(calls) == steps + 1
    tol = K.BLOCK_TOL if dtype == "float64" else K.BLOCK_TOL_32
    for w, c, kk, got in calls:
        ref = exact(X, w, kk, c)
        assert got.route == "block" and got.components.dtype == X.dtype
        assert sin_to(ref.components, got.components) <= tol
        np.testing.assert_allclose(got.eigenvalues, ref.eigenvalues, rtol=1e-6 if dtype == "float64" else 1e-4)
        Xc = np.asarray(X, float) - (0 if c is None else c)
        np.testing.assert_allclose(got.projections, Xc @ np.asarray(got.components, float).T,
                                   atol=(1e-9 if dtype == "float64" else 1e-4) * np.abs(got.projections).max())


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("centred", [True, False])
def test_projections_with_zero_weights(dtype, centred, rng):
    """Samples of weight 0 (a third of them) still get their coordinates ``(x_i − c)·w_j``: the
    projections come from the unweighted products X̃ Bᵀ, never divided by √w; the components are
    the exact ones of the weighted scatter, which ignores those samples."""
    X = datasets.mnist_digits().X[:800].astype(dtype)
    w = rng.uniform(0.1, 1.0, len(X))
    w[rng.random(len(X)) < 1 / 3] = 0.0
    c = (w @ X.astype(float) / w.sum()) if centred else None
    got = weighted_top_eigenspace(X, w, 8, c, route="block")
    ref = exact(X, w, 8, c)
    tol = K.BLOCK_TOL if dtype == "float64" else K.BLOCK_TOL_32
    assert sin_to(ref.components, got.components) <= tol
    Xc = X.astype(float) - (0 if c is None else c)
    P = Xc @ np.asarray(got.components, float).T
    scale = np.abs(P).max()
    np.testing.assert_allclose(got.projections, P, atol=(1e-10 if dtype == "float64" else 1e-5) * scale)
    assert np.abs(got.projections[w == 0]).max() > 0.01 * scale


def test_stopping_rule_estimates_the_remaining_error():
    """Rule (1) on the angles after expansions: stop when a_t <= tol, or when a_t·r/(1 − r) <= tol
    with r = a_t/a_{t−1} < 1 (never on a rate from one angle)."""
    assert K._block_converged([1e-3, 1e-4], tol=2e-5)          # r = 0.1: estimate 1.1e-5
    assert not K._block_converged([1e-3, 1e-4], tol=1e-5)
    assert not K._block_converged([1e-4, 2e-4], tol=1e-4)      # not converging: only a_t itself
    assert K._block_converged([1e-4, 9e-5], tol=1e-4)
    assert not K._block_converged([0.0, 1e-3], tol=1e-4)
    assert not K._block_converged([2e-4], tol=1e-4) and K._block_converged([1e-4], tol=1e-4)


def test_converged_start_stops_after_one_iteration_by_the_residual_bound(rng):
    """Warm-started from the exact step's own Ritz block with the same weights, rule (2) (the
    Davis–Kahan residual bound after the first iteration's second pass) stops at iteration 1; with
    weights changed by 10 % it iterates on and still ends within tol of the exact step."""
    X = datasets.mnist_digits().X[::5]
    c = X.mean(axis=0)
    w = rng.uniform(0.1, 1.0, len(X))
    first = weighted_top_eigenspace(X, w, 10, c, route="block", tol=1e-12, max_iter=100)
    again = weighted_top_eigenspace(X, w, 10, c, route="block", init=first.block)
    assert again.n_iter == 1 and sin_to(exact(X, w, 10, c).components, again.components) <= K.BLOCK_TOL
    w2 = w * rng.uniform(0.9, 1.1, len(w))
    moved = weighted_top_eigenspace(X, w2, 10, c, route="block", init=first.block)
    assert moved.n_iter >= 2 and sin_to(exact(X, w2, 10, c).components, moved.components) <= K.BLOCK_TOL


def test_restarts_keep_converging_and_the_ritz_block_is_orthonormal(rng, monkeypatch):
    """With a restart after every second block, a tight tolerance is still reached (to the exact
    eigenspace); the returned Ritz block has orthonormal rows, the components (up to sign) first."""
    X = datasets.mnist_digits().X[::5]
    w = rng.uniform(0.1, 1.0, len(X))
    c = X.mean(axis=0)
    monkeypatch.setattr(K, "BLOCK_KRYLOV_BLOCKS", 2)
    got = weighted_top_eigenspace(X, w, 10, c, route="block", tol=1e-9, max_iter=200)
    ref = exact(X, w, 10, c)
    assert got.route == "block" and got.n_iter > 2
    assert sin_to(ref.components, got.components) < 1e-7
    B = got.block
    assert B.shape == (10 + K.BLOCK_OVERSAMPLES, X.shape[1])
    np.testing.assert_allclose(B @ B.T, np.eye(len(B)), atol=1e-10)
    np.testing.assert_allclose(np.abs(np.sum(B[:10] * got.components, axis=1)), 1.0, atol=1e-10)


def test_cholesky_qr_orthonormalises_nearly_orthonormal_rows_and_declines_the_others(rng):
    """The Cholesky QR of the second Gram–Schmidt round: rows orthonormal to 1e-3 come out
    orthonormal to round-off with the same span; dependent or badly scaled rows are declined
    (None: the caller takes Householder QR), as is a zero row."""
    Q = np.linalg.qr(rng.standard_normal((500, 12)))[0].T
    for dtype, eps in ((np.float64, 1e-12), (np.float32, 1e-5)):
        near = (Q + 1e-3 * rng.standard_normal(Q.shape)).astype(dtype)
        out = K._cholesky_rows(near)
        assert out is not None
        R = out[0]
        assert R.dtype == dtype
        np.testing.assert_allclose(R.astype(float) @ R.T.astype(float), np.eye(12), atol=eps)
        assert sin_to(R.astype(float), np.linalg.qr(near.T.astype(float))[0].T) <= 100 * eps
    dependent = Q.copy()
    dependent[5] = dependent[4]
    assert K._cholesky_rows(dependent) is None
    assert K._cholesky_rows(10.0 * Q) is None
    zero = Q.copy()
    zero[0] = 0.0
    assert K._cholesky_rows(zero) is None
    # the orthonormalisation against a basis ends orthonormal and orthogonal to it either way
    basis, Z = Q[:6], rng.standard_normal((6, 500))
    out = K._orthonormal_rows_against(Z, basis)
    np.testing.assert_allclose(out @ out.T, np.eye(6), atol=1e-12)
    assert np.abs(out @ basis.T).max() <= 1e-12


@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_warm_start_with_products_saves_the_first_pass_and_changes_nothing(rng, monkeypatch, dtype):
    """``Eigenspace.warm`` carries the Ritz block's products with X (uncentred: valid for any next
    centre): the next step's first iteration takes them instead of a pass over X, and ends where
    the same step warm-started from the block alone ends (to round-off), within tol of the exact
    step; the products returned are X @ blockᵀ."""
    X = datasets.mnist_digits().X[::5].astype(dtype)
    c1, c2 = X.mean(axis=0), np.median(X, axis=0)          # the centre moves (RPCA-OM, HQ-PCA)
    w1, w2 = rng.uniform(0.1, 1.0, len(X)), rng.uniform(0.1, 1.0, len(X))
    first = weighted_top_eigenspace(X, w1, 10, c1, route="block")
    scale = np.abs(X.astype(float) @ first.block.astype(float).T).max()
    np.testing.assert_allclose(first.block_products, X.astype(float) @ first.block.astype(float).T,
                               atol=(1e-9 if dtype == "float64" else 1e-5) * scale)
    passes = []
    orig = K._times_rows
    monkeypatch.setattr(K, "_times_rows", lambda X, Q: passes.append(len(Q)) or orig(X, Q))
    plain = weighted_top_eigenspace(X, w2, 10, c2, route="block", init=first.block)
    n_plain = len(passes)
    passes.clear()
    warm = weighted_top_eigenspace(X, w2, 10, c2, route="block", init=first.warm)
    assert len(passes) == n_plain - 1 and warm.n_iter == plain.n_iter
    tol = K.BLOCK_TOL if dtype == "float64" else K.BLOCK_TOL_32
    assert sin_to(plain.components, warm.components) <= (1e-9 if dtype == "float64" else 1e-5)
    assert sin_to(exact(X, w2, 10, c2).components, warm.components) <= tol
    np.testing.assert_allclose(warm.eigenvalues, plain.eigenvalues, rtol=1e-9 if dtype == "float64" else 1e-5)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(300, 12), (12, 300), (40, 40)])
def test_orthonormal_columns_is_a_thin_qr(rng, dtype, shape):
    """core.lapack.orthonormal_columns (scipy's QR, which lets the GUI thread run) is the thin Q
    of A: orthonormal columns, A = Q (QᵀA) with QᵀA upper triangular, A's dtype and A untouched,
    for C- and Fortran-ordered A."""
    from robust_subspace_lab.core.lapack import orthonormal_columns
    eps = float(np.finfo(dtype).eps)
    for A in (rng.standard_normal(shape).astype(dtype), np.asfortranarray(rng.standard_normal(shape).astype(dtype))):
        before = A.copy()
        Q = orthonormal_columns(A)
        m = min(shape)
        assert Q.dtype == dtype and Q.shape == (shape[0], m)
        assert np.abs(Q.T @ Q - np.eye(m)).max() <= 50 * eps
        R = Q.T @ A
        assert np.abs(np.tril(R, -1)).max() <= 50 * eps * np.abs(A).max() * shape[0]
        assert np.abs(Q @ R - A).max() <= 50 * eps * np.abs(A).max() * shape[0]
        np.testing.assert_array_equal(A, before)


@pytest.mark.parametrize("scale", [1.0, 1e-6, 1e-12])
def test_norm2_rows_is_the_spectral_norm(rng, scale):
    """The block route's 2-norm of a few-row matrix (√λmax(R Rᵀ), which lets the GUI thread run)
    equals numpy's spectral norm to round-off, at any scale, for float64 and float32 R."""
    from robust_subspace_lab.core.block_krylov import _norm2_rows
    for rows in (1, 5, 25):
        R = scale * rng.standard_normal((rows, 2000)) * np.logspace(0, -3, 2000)
        assert _norm2_rows(R) == pytest.approx(np.linalg.norm(R, 2), rel=1e-12)
        R32 = R.astype(np.float32)
        assert _norm2_rows(R32) == pytest.approx(np.linalg.norm(R32.astype(float), 2), rel=1e-6)
    assert _norm2_rows(np.zeros((0, 10))) == 0.0
