"""The reweighted methods' PCA start only as accurate as the first reweighted step needs
(``core.linalg.START_TOL``, issue 32): the converged fit is the one from the start converged to
the steps' accuracy (``exact_start=True``), on data with and without a spectral gap after k.

Small problems that take the block route (min(n, d) above ``EXACT_MAX`` and the flop rule), so the
start tolerance matters; "no gap": rank-k images whose component scales decay into the noise
floor, plus 10 % outlier rows of uniform 0–255 values (as ``benchmarks/bench_scale.py``'s default
case)."""
import numpy as np
import pytest
from threadpoolctl import threadpool_limits

import robust_subspace_lab.core.block_krylov as K
from robust_subspace_lab.core import linalg
from robust_subspace_lab.core.methods import HQPCA, PCAGM, R1PCA, RPCAOM

N, D, RANK = 800, 450, 10


def images(gap: bool, seed=0):
    rng = np.random.default_rng(seed)
    scales = np.full(RANK, 8.0) if gap else 8.0 * 0.85 ** np.arange(RANK)
    X = (rng.standard_normal((N, RANK)) * scales) @ rng.standard_normal((RANK, D)) + 128.0
    X += rng.standard_normal((N, D)) * 4.0
    out = rng.random(N) < 0.1
    X[out] = rng.random((int(out.sum()), D)) * 255.0
    return np.clip(X, 0.0, 255.0), out


def fit(est, X):
    with threadpool_limits(1):        # small products: one thread is faster (and fair on a shared machine)
        state = est.start(X)
        first = state
        while not est.finished(state):
            state = est.step(state)
    return first, state


def test_the_problem_takes_the_block_route_and_the_no_gap_case_has_no_gap():
    assert linalg.subspace_route(N, D, RANK) == "block"
    for gap, ok in ((False, lambda r: r > 0.9), (True, lambda r: r < 0.5)):
        X, _ = images(gap)
        with threadpool_limits(1):
            lam = np.linalg.eigvalsh(np.cov(X, rowvar=False))[::-1]
        assert ok(lam[RANK] / lam[RANK - 1])              # λ_{k+1}/λ_k: no gap, or a clear one


@pytest.mark.parametrize("cls, gap", [(PCAGM, False), (RPCAOM, False), (RPCAOM, True), (R1PCA, False),
                                      (HQPCA, False)])
def test_good_enough_start_gives_the_exact_start_fit(cls, gap):
    X, out = images(gap)
    first_exact, exact = fit(cls(n_components=RANK, exact_start=True), X)
    first_fast, fast = fit(cls(n_components=RANK), X)
    assert exact.converged and fast.converged
    # the default start really is a looser one (else this test compares a run with itself) ...
    assert K._sin_largest_angle(first_exact.components, first_fast.components) > 1e-6
    # ... and the converged fit is the same: objective to 1e-6 relative, the same weights ranking
    assert fast.objective == pytest.approx(exact.objective, rel=1e-6)
    we, wf = exact.sample_weights, fast.sample_weights
    n_out = int(out.sum())
    assert set(np.argsort(we)[:n_out]) == set(np.argsort(wf)[:n_out]) == set(np.flatnonzero(out))
    assert np.array_equal(np.argsort(we[out]), np.argsort(wf[out]))      # the outliers' order
    assert np.abs(we - wf).max() < 1e-4


def test_exact_start_is_a_parameter_and_the_start_tolerance_is_looser():
    for cls in (PCAGM, RPCAOM, R1PCA, HQPCA):
        assert cls(exact_start=True).get_params()["exact_start"] is True and cls().exact_start is False
    assert linalg.start_tol(True) == {}
    assert linalg.start_tol(False) == {"tol": linalg.START_TOL, "residual_tol": linalg.START_RESIDUAL_TOL}
    assert linalg.START_TOL > K.BLOCK_TOL
