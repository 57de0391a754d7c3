"""The good-enough PCA start iterates on a float32 copy of the centred data and finishes with one
float64 pass (``core.linalg._single_precision_pca``, issue 32): its result is float64-accurate for
the subspace it found, it does not depend on the data's offset, and the exact route stays float64."""
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from robust_subspace_lab.core import linalg
from robust_subspace_lab.core.methods import PCAGM, PlainPCA

N, D, RANK = 800, 450, 10          # the block route (min(n, d) above EXACT_MAX)


def images(gap: bool):
    """Rank-10 images around grey level 128 plus noise, 10 % outlier rows, component scales equal
    (a gap after k) or decaying into the noise (none)."""
    rng = np.random.default_rng(1)
    scales = 8.0 * (np.ones(RANK) if gap else 0.85 ** np.arange(RANK))
    X = 128.0 + (rng.standard_normal((N, RANK)) * scales) @ rng.standard_normal((RANK, D))
    X += 4.0 * rng.standard_normal((N, D))
    X[::10] = 255.0 * rng.random((N // 10, D))
    return np.clip(X, 0.0, 255.0), None


def _start(X, **kw):
    mean = X.mean(axis=0)
    sq = linalg.sq_distances(X, mean)
    with threadpool_limits(1):
        out, gram = linalg.pca_eigenspace(X, mean, RANK, sq=sq, **kw)
    return out, mean, sq, gram


def test_single_precision_start_is_float64_accurate_for_its_subspace(monkeypatch):
    X, _ = images(gap=False)
    calls = []
    monkeypatch.setattr(linalg, "_single_precision_pca",
                        lambda *a, _f=linalg._single_precision_pca: calls.append(1) or _f(*a))
    out, mean, sq, gram = _start(X, **linalg.start_tol(False))
    assert calls and gram is None and out.route == "block"
    W, P = out.components, out.projections
    assert W.dtype == P.dtype == np.float64
    np.testing.assert_allclose(W @ W.T, np.eye(RANK), atol=1e-13)                    # orthonormal in float64
    np.testing.assert_allclose(P, (X - mean) @ W.T, rtol=0, atol=1e-10 * np.abs(P).max())
    # Rayleigh–Ritz inside span(W): the projections' columns are orthogonal, by decreasing eigenvalue
    G = P.T @ P
    np.testing.assert_allclose(G, np.diag(out.eigenvalues), atol=1e-9 * out.eigenvalues[0])
    assert np.all(np.diff(out.eigenvalues) <= 0)
    # as good a start as the float64 iteration's: reconstruction error within 1e-5 of the exact one
    exact, *_ = _start(X)
    J, Je = (linalg.residual_sq(sq, o.projections).sum() for o in (out, exact))
    assert J >= Je * (1 - 1e-12) and J == pytest.approx(Je, rel=1e-5)
    # the warm start it hands to the first step: X @ blockᵀ to float32 round-off
    np.testing.assert_allclose(out.block_products, X @ out.block.T, rtol=0,
                               atol=1e-5 * np.abs(out.block_products).max())


def test_single_precision_start_does_not_depend_on_the_offset():
    """The copy is of the centred data: a float32 copy of X itself would lose the spread of data
    far from 0 (here 1e6 ± 128, where float32 steps are 0.06)."""
    X, _ = images(gap=True)
    out, _, sq, _ = _start(X, **linalg.start_tol(False))
    far, _, sq_far, _ = _start(X + 1e6, **linalg.start_tol(False))
    e, e_far = linalg.residual_sq(sq, out.projections), linalg.residual_sq(sq_far, far.projections)
    np.testing.assert_allclose(e_far, e, rtol=1e-4)


def test_exact_start_and_float32_data_keep_their_routes(monkeypatch):
    X, _ = images(gap=False)
    monkeypatch.setattr(linalg, "_single_precision_pca", lambda *a: pytest.fail("single-precision start"))
    for est in (PCAGM(n_components=RANK, exact_start=True), PlainPCA(n_components=RANK, exact_start=True)):
        with threadpool_limits(1):
            assert est.start(X).components.dtype == np.float64
    with threadpool_limits(1):
        s32 = PlainPCA(n_components=RANK).start(X.astype(np.float32))
    assert s32.components.dtype == np.float32 and len(X) == N
