"""The partial SVD behind the convex methods' singular value thresholding (core.prox): the
rank-predicted, warm-started block subspace iteration gives the exact SVT (to 1e-8 relative) on
the shipped digits and on low-rank + sparse data, recovers when the predicted rank is too low,
keeps float32, and stops on a cancel request. At high rank the Gram route (eigendecomposition of
the smaller Gram matrix) gives the exact SVT too, tall or wide, and steps aside when τ is too
small for it."""
from __future__ import annotations

import threading

import numpy as np
import pytest

from robust_subspace_lab.core import datasets, interrupt, prox
from robust_subspace_lab.core.methods.convex import PCP

ALLOW = np.zeros(1)          # any array: the partial SVD is allowed (None forbids it)


def rel(a, b):
    return np.linalg.norm(a - b) / max(np.linalg.norm(b), 1e-300)


def low_rank_plus_sparse(rng, n=600, d=450, rank=10, density=0.05):
    L = rng.standard_normal((n, rank)) @ rng.standard_normal((rank, d)) * 20
    S = np.where(rng.random((n, d)) < density, rng.uniform(-200, 200, (n, d)), 0.0)
    return L, S


@pytest.fixture(scope="module")
def digits():
    X = datasets.mnist_digits().X[:1000]
    return X - X.mean(axis=0)                     # 1000 × 784 grey levels, centred


@pytest.mark.parametrize("rank_wanted", [5, 25])
def test_partial_svt_equals_exact_svt_on_digits(digits, rank_wanted):
    """τ between the rank_wanted-th and the next singular value of the centred digits: the
    partial route is taken and agrees with the exact thin-SVD SVT to 1e-8."""
    s = np.linalg.svd(digits, compute_uv=False)
    tau = 0.5 * (s[rank_wanted - 1] + s[rank_wanted])
    res = prox.svt_predicted(digits, tau, rank_wanted, ALLOW)
    assert res.partial and res.rank == rank_wanted
    assert rel(res.matrix(), prox.svt(digits, tau)) < 1e-8
    assert res.nuclear == pytest.approx(float(np.sum(s[:rank_wanted] - tau)), rel=1e-10)


def test_partial_svt_equals_exact_svt_on_low_rank_plus_sparse(rng):
    L, S = low_rank_plus_sparse(rng)
    A = L + S
    s = np.linalg.svd(A, compute_uv=False)
    # τ in the gap after the planted rank, at the top, and inside the dense spectrum of the
    # sparse part (where the block may not converge and the exact SVD takes over: still exact)
    for tau, partial in ((0.5 * (s[9] + s[10]), True), (0.5 * s[0], True), (0.9 * s[10], None)):
        res = prox.svt_predicted(A, tau, 10, ALLOW)
        assert partial is None or res.partial
        assert res.rank == int(np.count_nonzero(s > tau))
        assert rel(res.matrix(), prox.svt(A, tau)) < 1e-8


def test_too_low_rank_prediction_grows_the_block(rng):
    """Predicted rank 2, true count above τ 30: the block is enlarged until the smallest computed
    singular value falls below τ (Lin, Chen & Ma's rule); the result is still the exact SVT."""
    L, S = low_rank_plus_sparse(rng, rank=40)
    A = L + S
    s = np.linalg.svd(A, compute_uv=False)
    tau = 0.5 * (s[29] + s[30])
    res = prox.svt_predicted(A, tau, 2, ALLOW)
    assert res.partial and res.rank == 30
    assert rel(res.matrix(), prox.svt(A, tau)) < 1e-8


def test_warm_start_from_the_previous_subspace(rng):
    """An ALM step changes A a little: warm-started from the previous right singular subspace,
    the next SVT converges in fewer block iterations and is still exact."""
    L, S = low_rank_plus_sparse(rng)
    A = L + S
    s = np.linalg.svd(A, compute_uv=False)
    tau = 0.5 * (s[9] + s[10])
    first = prox.svt_predicted(A, tau, 10, ALLOW)
    B = A + 0.01 * rng.standard_normal(A.shape)
    counts = {}
    original = prox.orthonormal_columns          # one QR per block iteration

    for label, start in (("cold", None), ("warm", first.subspace)):
        calls = []

        def counting(*a, **k):
            calls.append(1)
            return original(*a, **k)

        prox.orthonormal_columns = counting
        try:
            res = prox.svt_predicted(B, tau, first.k_next, ALLOW, start=start)
        finally:
            prox.orthonormal_columns = original
        counts[label] = len(calls)
        assert res.partial and rel(res.matrix(), prox.svt(B, tau)) < 1e-8
    assert counts["warm"] < counts["cold"]


def test_rank_cap_with_partial_svd(rng):
    L, S = low_rank_plus_sparse(rng)
    A = L + S
    U, s, Vt = np.linalg.svd(A, full_matrices=False)
    tau = 0.5 * (s[9] + s[10])
    res = prox.svt_predicted(A, tau, 10, ALLOW, max_rank=4)
    assert res.partial and res.rank == 4
    exact = (U[:, :4] * (s[:4] - tau)) @ Vt[:4]
    assert rel(res.matrix(), exact) < 1e-8


def test_spectral_norm_of_digits(digits):
    assert prox.spectral_norm(digits) == pytest.approx(np.linalg.norm(digits, 2), rel=1e-12)


def test_float32_in_float32_out(digits):
    """float32 input: float32 factors, and the SVT within float32 accuracy of float64's."""
    A32 = digits.astype(np.float32)
    s = np.linalg.svd(digits, compute_uv=False)
    tau = 0.5 * (s[9] + s[10])
    res = prox.svt_predicted(A32, tau, 10, ALLOW)
    assert res.partial and res.left.dtype == np.float32 and res.right.dtype == np.float32
    assert rel(res.matrix().astype(float), prox.svt(digits, tau)) < 1e-4


def test_cancel_stops_the_block_iteration(digits):
    stop = threading.Event()
    stop.set()
    with interrupt.cancellable(stop), pytest.raises(interrupt.Cancelled):
        prox.partial_svd(digits, 20)
    U, s, Vt = prox.partial_svd(digits, 3)                # outside: runs to convergence
    np.testing.assert_allclose(s, np.linalg.svd(digits, compute_uv=False)[:3], rtol=1e-10)


def test_pcp_recovers_low_rank_plus_sparse_on_the_partial_route(rng, monkeypatch):
    """Candès et al.'s exact recovery: rank 5 + 5 % gross errors at 400 × 420 (the partial SVD
    is used, min(n, d) >= PARTIAL_SVD_MIN_DIM): L and S are recovered."""
    n, d, r = 400, 420, 5
    L0 = rng.standard_normal((n, r)) @ rng.standard_normal((r, d))
    S0 = np.where(rng.random((n, d)) < 0.05, rng.uniform(-10, 10, (n, d)), 0.0)
    used = []
    original = prox.svt_predicted

    def spy(*a, **k):
        res = original(*a, **k)
        used.append(res.partial)
        return res

    monkeypatch.setattr("robust_subspace_lab.core.methods.convex.svt_predicted", spy)
    est = PCP()
    final = est.fit_state(L0 + S0)
    assert est.converged_ and sum(used) >= len(used) // 2
    assert rel(final.fitted, L0) < 1e-4
    assert rel(final.sparse_part, S0) < 1e-3
    assert est.rank_ == r


@pytest.mark.parametrize("wide", [False, True])
@pytest.mark.parametrize("fraction", [0.3, 0.9])
def test_gram_route_equals_exact_svt_at_high_rank(digits, wide, fraction):
    """Predicted rank above PARTIAL_SVD_MAX_FRACTION × min(n, d): the Gram route is taken (AᵀA
    for the tall 1000 × 784 digits, AAᵀ for their 784 × 1000 transpose) and gives the thin-SVD
    SVT to 1e-8, the same rank and nuclear norm, and unit right singular vectors."""
    A = digits.T.copy() if wide else digits
    s = np.linalg.svd(A, compute_uv=False)
    r = int(fraction * np.count_nonzero(s > 1e-6 * s[0]))    # a fraction of the numerical rank
    tau = 0.5 * (s[r - 1] + s[r])
    res = prox.svt_predicted(A, tau, r, ALLOW)
    assert res.route == "gram" and res.rank == r
    assert rel(res.matrix(), prox.svt(A, tau)) < 1e-8
    assert res.nuclear == pytest.approx(float(np.sum(s[:r] - tau)), rel=1e-10)
    np.testing.assert_allclose(np.linalg.norm(res.right, axis=1), 1.0, rtol=1e-10)


def test_gram_route_with_rank_cap_and_float32(digits):
    U, s, Vt = np.linalg.svd(digits, full_matrices=False)
    tau = 0.5 * (s[299] + s[300])
    res = prox.svt_predicted(digits, tau, 300, ALLOW, max_rank=120)
    assert res.route == "gram" and res.rank == 120
    assert rel(res.matrix(), (U[:, :120] * (s[:120] - tau)) @ Vt[:120]) < 1e-8
    res32 = prox.svt_predicted(digits.astype(np.float32), float(s[0]) * 0.05, 300, ALLOW)
    assert res32.route == "gram" and res32.left.dtype == np.float32 and res32.right.dtype == np.float32
    assert rel(res32.matrix().astype(float), prox.svt(digits, float(s[0]) * 0.05)) < 1e-4


def test_gram_route_steps_aside_for_a_tiny_tau(digits):
    """τ below GRAM_TAU_FACTOR·√eps·σ₁ (the Gram matrix's round-off would reach the SVT): the thin
    SVD is used, still the exact SVT (the digits' zero border pixels give exact zero σ's, which
    the Gram route would turn into ~1e-8·σ₁)."""
    s1 = np.linalg.norm(digits, 2)
    tau = 1e-9 * s1
    assert prox.gram_svd(digits, tau) is None
    res = prox.svt_predicted(digits, tau, 700, ALLOW)
    assert res.route == "svd" and rel(res.matrix(), prox.svt(digits, tau)) < 1e-12
