"""The NMF family at scale: the blockwise routes that large data take (no temporary of the data's
size, order statistics by selection) give the same iterates as the direct routes small data take,
and a step's memory stays within 3× the data (issue 12 point 3).

The blockwise routes switch on above a size (``nmf_weights.DIRECT_MAX``, ``_wnls.SCRATCH_MAX_ENTRIES``);
the tests lower those thresholds so that a small problem takes them, and compare with the
direct route on the same problem, or with numpy's own ``partition``/``median``.
"""
import tracemalloc

import numpy as np
import pytest

from robust_subspace_lab.core import catalogue, interrupt
from robust_subspace_lab.core.errors import SolverError
from robust_subspace_lab.core.methods import _wnls, nmf_weights as NW


def take_blockwise_routes(m, float32=False):
    """Make every array above 600 entries take the blockwise route, in blocks of 256 entries
    (``m``: a monkeypatch); with ``float32``, also the float32 residual and weights."""
    m.setattr(NW, "DIRECT_MAX", 600)
    m.setattr(NW, "BLOCK", 256)
    m.setattr(NW, "SELECT_SAMPLE", 5000)
    m.setattr(_wnls, "SCRATCH_MAX_ENTRIES", 600)
    m.setattr(_wnls, "BLOCK", 256)
    if float32:
        m.setattr(NW, "WEIGHTS32_MIN", 600)


@pytest.fixture
def blockwise(monkeypatch):
    take_blockwise_routes(monkeypatch)


def five_steps(X, key, params):
    est = catalogue.create(key, n_components=5, **params)
    s = est.start(X)
    for _ in range(5):
        s = est.step(s)
    return s


def data(n=120, d=90, seed=0):
    """Non-negative rank-6 data with Laplace noise clipped at 0 (so many exact zeros and exact
    fits) and 10 % of the entries set to 400 (outliers)."""
    rng = np.random.default_rng(seed)
    X = rng.random((n, 6)) @ rng.random((6, d)) * 40.0
    X += rng.laplace(0.0, 8.0, X.shape)
    np.maximum(X, 0.0, out=X)
    X[rng.random(X.shape) < 0.1] = 400.0
    return X


def residual_like(size, seed=1):
    """Squared-residual-like values: many exact zeros, ties, a heavy tail."""
    rng = np.random.default_rng(seed)
    a = np.square(rng.standard_cauchy(size) * 3.0)
    a[rng.random(size) < 0.3] = 0.0
    a[rng.random(size) < 0.05] = 4.0                      # ties
    return a


@pytest.mark.parametrize("size", [5_000, 20_001])
def test_order_statistics_by_selection_equal_partition(blockwise, size):
    a = residual_like(size)
    floor = 1e-12
    kept = np.sort(a[a > floor])
    ks = [0, kept.size // 3, kept.size // 2 - 1, kept.size // 2, kept.size - 1]
    assert np.array_equal(NW.order_statistics(a, ks, floor), kept[ks])
    assert NW.median_above(a, floor) == np.median(kept)
    with pytest.raises(ValueError):
        NW.order_statistics(a, [kept.size], floor)


def test_order_statistics_exact_and_without_a_copy_on_row_structured_data(blockwise):
    """Values laid out by rows, each column at its own level (as pixels are): the selection stays
    exact and never copies the array. A regular-stride subsample (stride 8 here: only the
    lowest-level columns) brackets the median off target, which made the selection fall back on
    a copy of the data (10,000 × 4,096 benchmark data: 1.18× the data at NMF's start)."""
    rng = np.random.default_rng(3)
    a = ((np.arange(64) % 8)[None, :] + rng.random((640, 64))).reshape(-1)
    ks = [a.size // 2 - 1, a.size // 2]
    tracemalloc.start()
    try:
        got = NW.order_statistics(a, ks, -np.inf)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert np.array_equal(got, np.sort(a)[ks])
    assert peak < 0.5 * a.nbytes


def test_order_statistics_without_a_usable_sample(blockwise, monkeypatch):
    """With too small a subsample to bracket the positions, the selection falls back on the
    partition of the filtered copy: still exact."""
    monkeypatch.setattr(NW, "SELECT_SAMPLE", 50)
    a = residual_like(20_001)
    kept = np.sort(a[a > 0.5])
    ks = [0, kept.size // 2, kept.size - 1]
    assert np.array_equal(NW.order_statistics(a, ks, 0.5), kept[ks])


def test_three_sigma_and_nagy_blockwise_equal_direct(monkeypatch):
    """τ and γ of the blockwise route (selection, block sums) against the direct one
    (partition of a filtered copy, whole-array sums) on the same residuals: round-off apart."""
    a = residual_like(30_000).reshape(100, 300)
    zero = 1e-6
    tau_direct = NW.three_sigma_sq(a, zero)
    gamma_direct = NW.nagy_scale(a, zero=zero)
    # reference: the paper's rule written out (§3.5): lower half of the kept |E|, mean + 3 std
    e = np.sqrt(np.sort(a[a > zero * zero]))
    low = e[: e.size // 2]
    assert tau_direct == pytest.approx(low.mean() + 3 * low.std(ddof=1), rel=1e-12)
    # reference: the mean weight at Nagy's γ is ½ (eq. 18's fixed point)
    kept = a[a > zero * zero]
    assert np.mean(gamma_direct ** 2 / (gamma_direct ** 2 + kept)) == pytest.approx(0.5, rel=1e-9)
    monkeypatch.setattr(NW, "DIRECT_MAX", 600)
    monkeypatch.setattr(NW, "BLOCK", 256)
    monkeypatch.setattr(NW, "SELECT_SAMPLE", 5000)
    assert NW.three_sigma_sq(a, zero) == pytest.approx(tau_direct, rel=1e-12)
    assert NW.nagy_scale(a, zero=zero) == pytest.approx(gamma_direct, rel=1e-9)


@pytest.mark.parametrize("key,params", [
    ("tc-nmf", {}), ("tc-nmf", {"truncation": "local"}), ("cauchy-nmf", {}),
    ("huber-nmf", {}), ("l1-nmf", {}), ("cim-nmf", {}), ("rnmf-l1", {"lam": 60.0}),
    ("tc-nmf", {"solver": "mu"})])
def test_blockwise_iterates_equal_direct(monkeypatch, key, params):
    """Five iterations on the blockwise routes reproduce the direct routes' iterates, weights,
    objectives and scalars to round-off."""
    X = data()
    ref = five_steps(X, key, params)
    with monkeypatch.context() as m:
        take_blockwise_routes(m)
        got = five_steps(X, key, params)
    np.testing.assert_allclose(got.components, ref.components, rtol=1e-7, atol=1e-10)
    np.testing.assert_allclose(got.coefficients, ref.coefficients, rtol=1e-7, atol=1e-8)
    np.testing.assert_allclose(got.objective_history, ref.objective_history, rtol=1e-9)
    if ref.entry_weights is not None:
        np.testing.assert_allclose(got.entry_weights, ref.entry_weights, rtol=1e-7, atol=1e-12)
    for k, v in ref.scalars.items():
        assert got.scalars[k] == pytest.approx(v, rel=1e-7, abs=1e-12), k
    if "truncated" in ref.details:
        assert np.count_nonzero(got.details["truncated"] != ref.details["truncated"]) <= 2


@pytest.mark.parametrize("key,params", [
    ("tc-nmf", {}), ("tc-nmf", {"truncation": "local"}), ("cauchy-nmf", {}),
    ("huber-nmf", {}), ("l1-nmf", {}), ("cim-nmf", {}), ("rnmf-l1", {"lam": 60.0})])
def test_float32_weights_follow_the_float64_iterates(monkeypatch, key, params):
    """Data above ``WEIGHTS32_MIN`` entries keep their residual and weights (and RNMF-L1's sparse
    part) in float32, every sum in float64: five iterations stay within the float32 rounding
    (6e-8, propagated: measured ≤ 7e-7 of the largest value) of the float64 run."""
    X = data()
    ref = five_steps(X, key, params)
    with monkeypatch.context() as m:
        take_blockwise_routes(m, float32=True)
        got = five_steps(X, key, params)
    assert ref.entry_weights.dtype == np.float64 and got.entry_weights.dtype == np.float32
    if key == "rnmf-l1":
        assert got.sparse_part.dtype == np.float32
    for a, b in ((got.components, ref.components), (got.coefficients, ref.coefficients),
                 (got.entry_weights, ref.entry_weights)):
        np.testing.assert_allclose(a, b, rtol=0, atol=5e-6 * np.abs(b).max())
    np.testing.assert_allclose(got.objective_history, ref.objective_history, rtol=1e-6)
    for k, v in ref.scalars.items():
        assert got.scalars[k] == pytest.approx(v, rel=1e-6, abs=1e-12), k
    if "truncated" in ref.details:
        assert np.count_nonzero(got.details["truncated"] != ref.details["truncated"]) <= 2


@pytest.mark.parametrize("key,float32,peak_max,held_max", [
    ("tc-nmf", False, 3.0, 1.5), ("tc-nmf", True, 1.6, 0.75), ("huber-nmf", True, 1.4, 0.65),
    ("rnmf-l1", True, 1.8, 0.6)])
def test_run_memory_within_three_times_the_data(monkeypatch, key, float32, peak_max, held_max):
    """Issue 12 point 3: a run from ``start`` through two steps, the previous state held while
    the next is made, peaks within 3× the data's bytes (beyond X itself: tracemalloc starts after
    X is made). A state holds its weights Q (float64 1×, float32 0.5×; TC-NMF also its bool
    mask, 0.125×; RNMF-L1 S and Q) and never HW (formed only when read; ``start`` no longer forms
    it through ``dataclasses.replace``); a step adds TC-NMF's refreshed weights (whose memory then
    takes the residual and becomes the next Q) and blocks. Measured at this size: TC-NMF 2.7×
    with float64 weights; with float32 weights 1.47× (TC-NMF), 1.28× (Huber-NMF), 1.59×
    (RNMF-L1, whose weights are formed only when read; 2.21× when kept). The run used to keep
    5 work arrays of the data's size and peak at ~9.7×."""
    take_blockwise_routes(monkeypatch, float32=float32)
    X = data(400, 300)
    est = catalogue.create(key, n_components=5)
    tracemalloc.start()
    try:
        s = est.start(X)
        s = est.step(s)
        s = est.step(s)
        peak = tracemalloc.get_traced_memory()[1]
        held = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert s.iteration == 2 and s.fitted_is_lazy
    assert s.entry_weights.dtype == (np.float32 if float32 else np.float64)
    assert peak / X.nbytes <= peak_max
    assert held / X.nbytes <= held_max
    np.testing.assert_allclose(s.fitted, s.coefficients @ s.components, rtol=0, atol=1e-9)


def test_rnmf_weights_formed_when_first_read():
    """RNMF-L1's entry weights are a function of its sparse part, min(1, (λ/2)/|E|) =
    (λ/2)/(|S| + λ/2) (Table I): a state keeps S only and forms Q when first read (read-only,
    kept after), equal to the formula on the residual; its sample weights (made by the step, by
    blocks) are their row means; a pickled state forms the same Q."""
    import pickle

    X = data()
    est = catalogue.create("rnmf-l1", n_components=5, lam=60.0)
    s = est.step(est.step(est.start(X)))
    copy = pickle.loads(pickle.dumps(s))
    assert s.entry_weights_are_deferred and copy.entry_weights_are_deferred
    E = X - s.coefficients @ s.components
    Q = s.entry_weights
    assert not s.entry_weights_are_deferred and not Q.flags.writeable and s.entry_weights is Q
    np.testing.assert_allclose(Q, np.minimum(1.0, 30.0 / np.abs(E)), rtol=1e-12)
    raw = Q.mean(axis=1)
    np.testing.assert_allclose(s.details["mean weight"], raw, rtol=1e-12)
    np.testing.assert_allclose(s.sample_weights, np.maximum(raw / raw.max(), 1e-6), rtol=1e-12)
    np.testing.assert_array_equal(copy.entry_weights, Q)


@pytest.mark.parametrize("key", ["tc-nmf", "huber-nmf", "nmf"])
def test_cancel_inside_a_step(blockwise, key):
    """A cancel request reaches the inner loops of a step (the OGM iterations, the blocks), not
    only the start of the next step: an event that reads as set from its second check on (the
    first is ``step``'s own) stops the step with interrupt.Cancelled, and the state stepped
    from is unchanged."""
    import threading

    class SetAfterFirstCheck(threading.Event):
        def __init__(self):
            super().__init__()
            self.checks = 0

        def is_set(self):
            self.checks += 1
            return self.checks > 1

    X = data()
    est = catalogue.create(key, n_components=5)
    s = est.start(X)
    before = np.array(s.components)
    stop = SetAfterFirstCheck()
    with interrupt.cancellable(stop), pytest.raises(interrupt.Cancelled):
        est.step(s)
    assert stop.checks == 2
    assert np.array_equal(s.components, before)
    assert est.step(s).iteration == 1                     # the run goes on from it


# ------------------------------------------------------------------ plain NMF: no per-step waste
@pytest.mark.parametrize("solver", ["mu", "nesterov"])
def test_plain_nmf_objective_from_gram_products_and_lazy_fitted(solver):
    """Issue 12 point 5: plain NMF's step forms no reconstruction. Its objective, computed from
    the basis step's products (½(‖X‖² − 2⟨XᵀH, Wᵀ⟩ + ⟨HᵀH, WWᵀ⟩)), equals ½‖X − HW‖² on the
    built-in faces; ``fitted`` is HW, formed on first use, read-only, and survives pickling and
    ``dataclasses.replace``."""
    import dataclasses
    import pickle

    from robust_subspace_lab.core import datasets

    X = datasets.load_builtin("faces").X
    est = catalogue.create("nmf", n_components=10, solver=solver)
    s = est.start(X)                                    # the start forms no HW either
    R0 = X - s.coefficients @ s.components
    assert s.fitted_is_lazy and s.objective == pytest.approx(0.5 * float(np.sum(R0 * R0)), rel=1e-9)
    for _ in range(6):
        s = est.step(s)
    assert s.fitted_is_lazy
    copy = pickle.loads(pickle.dumps(s))
    assert copy.fitted_is_lazy
    P = s.fitted
    assert not s.fitted_is_lazy and not P.flags.writeable
    R = X - s.coefficients @ s.components
    assert s.objective == pytest.approx(0.5 * float(np.sum(R * R)), rel=1e-9)
    np.testing.assert_allclose(P, s.coefficients @ s.components, rtol=0, atol=1e-9)
    np.testing.assert_allclose(copy.fitted, P, rtol=0, atol=1e-9)
    assert dataclasses.replace(s, fitted=None).fitted is None
    # the divergence guard still holds without forming HW first: a fit 10⁴ × too large
    from robust_subspace_lab.core.methods.nmf_base import LAZY
    bad = dataclasses.replace(est.step(s), coefficients=np.array(s.coefficients) * 1e4,
                              fitted=LAZY)
    assert bad.fitted_is_lazy
    with pytest.raises(SolverError):
        est._check_state(bad)


# ------------------------------------------------------------------ one step against a reference
def _reference_tc_mu_step(X, H, W, Q, gamma, tau, tau_floor, zero):
    """One Truncated Cauchy NMF iteration (paper 003 Algorithm 2, weighted multiplicative
    updates, Q refreshed between the factors), written out plainly with whole arrays."""
    from scipy.optimize import brentq

    xmax = X.max()

    def mu(num, den, Y):
        return Y * np.where(den > 0, num / np.where(den > 0, den, 1.0), 1.0)

    def weights(E, P, g, t):
        Qn = g * g / (g * g + E * E)
        Qn[np.abs(E) > t] = 0.0
        Qn[P > xmax] = 1.0
        return Qn

    H = mu((Q * X) @ W.T, (Q * (H @ W)) @ W.T, H)                      # coefficient step
    Qr = weights(X - H @ W, H @ W, gamma, tau)                          # Algorithm 2 line 7
    W = mu(H.T @ (Qr * X), H.T @ (Qr * (H @ W)), W)                     # basis step
    norms = np.linalg.norm(W, axis=1)
    H, W = H * norms, W / norms[:, None]
    P = H @ W
    E = X - P
    e2 = (E * E).ravel()
    e2 = e2[e2 > zero * zero]                                           # exact fits left out
    g = np.sqrt(brentq(lambda x: np.mean(x / (x + e2)) - 0.5, 1e-12, e2.max() * 10, xtol=1e-14,
                       rtol=1e-14))                                     # Nagy: mean weight ½
    low = np.sort(np.sqrt(e2))[: e2.size // 2]
    t = max(low.mean() + 3 * low.std(ddof=1), tau_floor * g)           # three-sigma, floored
    sigma = (t / g) ** 2
    objective = 0.5 * np.sum(np.minimum(np.log1p(E * E / g ** 2), np.log1p(sigma)))
    return H, W, weights(E, P, g, t), g, t, objective


@pytest.mark.parametrize("route", ["direct", "blockwise", "float32"])
def test_tc_nmf_step_equals_a_plain_reference(monkeypatch, route):
    """A TC-NMF step (solver "mu", refreshed weights, γ and τ re-estimated) equals the plain
    whole-array writing of Algorithm 2 (with the module's documented choices: exact fits out of
    γ and τ, τ floored at 3γ, the range rule), on the direct and on the blockwise routes to
    round-off, and with the float32 residual and weights of large data to their rounding."""
    rtol = 1e-10 if route != "float32" else 1e-6
    if route != "direct":
        take_blockwise_routes(monkeypatch, float32=route == "float32")
    X = data()
    est = catalogue.create("tc-nmf", n_components=5, solver="mu")
    s = est.start(X)
    s = est.step(s)
    s = est.step(s)
    zero = 1e-9 * X.max()
    H, W, Q, g, t, J = _reference_tc_mu_step(X, np.array(s.coefficients), np.array(s.components),
                                             np.array(s.entry_weights), s.scalars["γ"],
                                             s.scalars["τ"], 3.0, zero)
    new = est.step(s)
    np.testing.assert_allclose(new.coefficients, H, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(new.components, W, rtol=rtol, atol=1e-2 * rtol)
    assert new.scalars["γ"] == pytest.approx(g, rel=10 * rtol)
    assert new.scalars["τ"] == pytest.approx(t, rel=10 * rtol)
    assert new.objective == pytest.approx(J, rel=10 * rtol)
    np.testing.assert_allclose(new.entry_weights, Q, rtol=100 * rtol, atol=1e-2 * rtol)
    np.testing.assert_allclose(new.fitted, H @ W, rtol=rtol, atol=10 * rtol)
    assert new.entry_weights.dtype == (np.float32 if route == "float32" else np.float64)
