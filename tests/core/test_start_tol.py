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
from robust_subspace_lab.core import corruption, datasets, linalg
from robust_subspace_lab.core.methods import HQPCA, PCAGM, R1PCA, RPCAOM, L2pPCAOM, PlainPCA, reweighted
from robust_subspace_lab.core.metrics import principal_angles

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


# ------------------------------------------------------------------ loose steps while the weights move
@pytest.fixture(scope="module")
def digits_lesson():
    """1000 of the shipped digits (28 × 28) corrupted as the app's lesson: large enough for the block route."""
    data = corruption.corrupt(datasets.mnist_digits(), "rectangles", fraction=0.2, content="dots", seed=0)
    return data.X[::5]


def solves(monkeypatch):
    """Record (block iterations, residual_tol) of every weighted eigensolve of the reweighted methods."""
    log, orig = [], linalg.weighted_top_eigenspace

    def logged(*args, **kw):
        out = orig(*args, **kw)
        log.append((out.n_iter, kw.get("residual_tol")))
        return out

    monkeypatch.setattr(linalg, "weighted_top_eigenspace", logged)
    monkeypatch.setattr(reweighted, "weighted_top_eigenspace", logged)
    return log


@pytest.mark.parametrize("cls", [PCAGM, RPCAOM, HQPCA])
def test_loose_steps_give_the_exact_fit_on_shipped_digits(cls, digits_lesson, monkeypatch):
    X = digits_lesson
    assert linalg.subspace_route(*X.shape, 20) == "block"
    log = solves(monkeypatch)
    est = cls(n_components=20)
    _, exact = fit(cls(n_components=20, exact_start=True), X)
    exact_log = list(log)
    log.clear()
    _, fast = fit(est, X)
    assert exact.converged and fast.converged
    assert fast.objective == pytest.approx(exact.objective, rel=1e-6)
    assert np.abs(exact.sample_weights - fast.sample_weights).max() < 1e-4
    # the exact fit's steps use the angle rule alone; the fast one's first step the start's tolerance,
    # its tolerances shrink with the objective's change, and the step that ends the run is at most tol
    assert all(r is None for _, r in exact_log)
    rtols = [r for _, r in log[1:]]
    assert rtols[0] == linalg.START_RESIDUAL_TOL and rtols[-1] <= est.tol
    assert sum(i for i, _ in log) < sum(i for i, _ in exact_log)       # less work for the same fit


def test_step_residual_tol_follows_the_objectives_change():
    assert linalg.step_residual_tol((5.0,)) == linalg.START_RESIDUAL_TOL              # the first step
    assert linalg.step_residual_tol((100.0, 50.0)) == linalg.START_RESIDUAL_TOL       # capped
    assert linalg.step_residual_tol((1.0 + 1e-4, 1.0)) == pytest.approx(linalg.STEP_RESIDUAL_FACTOR * 1e-4)
    assert linalg.step_residual_tol((3.0, 3.0)) == 0.0


def test_a_loose_step_never_ends_the_run(digits_lesson):
    """p = 2 is PCA: the weights never move, so the loose first step already changes J by less than
    tol; the run still takes one more step at a tolerance of at most tol before it stops."""
    est = L2pPCAOM(n_components=20, p=2.0)
    with threadpool_limits(1):
        s0 = est.start(digits_lesson)
        s1 = est.step(s0)
        assert abs(s1.objective - s0.objective) <= est.tol * s0.objective and not s1.converged
        assert est.step(s1).converged


@pytest.mark.parametrize("gap", [False, True])
def test_plain_pca_stops_when_the_residuals_settle(gap, digits_lesson):
    """Plain PCA's default block route stops on the residual rule (PCA_RESIDUAL_TOL): the reconstruction
    error within 1e-6 (relative) of the exact one; ``exact_start=True`` keeps the subspace to 1e-5."""
    for X in (images(gap)[0], digits_lesson):
        k = RANK if X.shape[1] == D else 20
        c = X.mean(axis=0)
        exact = linalg.weighted_top_eigenspace(X, np.ones(len(X)), k, c, route="gram")
        J = float(linalg.residual_sq(linalg.sq_distances(X, c), exact.projections).sum())
        with threadpool_limits(1):
            fast, slow = PlainPCA(n_components=k).start(X), PlainPCA(n_components=k, exact_start=True).start(X)
        assert fast.objective == pytest.approx(J, rel=1e-6) and slow.objective == pytest.approx(J, rel=1e-9)
        assert principal_angles(slow.components, exact.components).max() < 1e-5
        assert PlainPCA().exact_start is False and PlainPCA(exact_start=True).get_params()["exact_start"] is True
