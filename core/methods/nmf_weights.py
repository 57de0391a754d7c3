"""The robust statistics and half-quadratic weight functions of the NMF family.

Paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019: Nagy's Cauchy scale (§3.4, eq. 18), the three-sigma
truncation threshold (§3.5), the truncated Cauchy weights and objective (eq. 2, Theorem 2,
Table I); and the frozen weight functions of every robust NMF method that
``NMFState.transform`` uses (:class:`Reweigh`). Residuals E = X − HW are (n_samples,
n_features) arrays in grey levels.
"""
from __future__ import annotations

import numpy as np

from ..interrupt import checkpoint
from ..prox import soft_threshold

__all__ = ["nagy_scale", "three_sigma_threshold", "three_sigma_sq", "order_statistics",
           "median_above", "row_blocks", "weights_dtype", "cauchy_weights",
           "truncated_cauchy_objective", "three_sigma_columns", "Reweigh"]


#: Residual-sized arrays are read in blocks of this many entries (2 MB of float64) by the
#: passes below, so that none of them keeps a temporary of the data's size.
BLOCK = 1 << 18
#: Arrays of at most this many entries take the direct route (a filtered copy, ``np.partition``,
#: whole-array sums): the built-in faces (62,500) and digits (1,568,000) keep exactly the
#: iterates they had. Larger ones take the blockwise route (same values up to round-off).
DIRECT_MAX = 1 << 21
#: Residuals and entry weights of data with more than this many entries are kept in float32
#: (:func:`weights_dtype`): the weights of a state and the residual a step turns into them take
#: half the bytes (Truncated Cauchy NMF at 10,000 × 4,096 peaked at 3.5× the data's bytes with
#: them in float64). Their rounding (relative 6e-8) is far below what the weights resolve; every
#: sum over them (objectives, Nagy's γ, the three-sigma moments, the Hessians) accumulates in
#: float64. Smaller data (the built-in faces and digits) keep float64 and exactly their iterates.
WEIGHTS32_MIN = 1 << 21
#: Size of the regular subsample that brackets an order statistic before the exact selection.
SELECT_SAMPLE = 200_000


def _blocks(a: np.ndarray):
    """Consecutive views of the flat array a, BLOCK entries each."""
    for i in range(0, a.size, BLOCK):
        yield a[i:i + BLOCK]


def row_blocks(n: int, d: int):
    """Slices of the rows of an (n, d) array, about BLOCK entries each (one slice, all rows, when
    n·d <= DIRECT_MAX: the direct route). Each block calls :func:`core.interrupt.checkpoint`."""
    rows = n if n * d <= DIRECT_MAX else max(1, BLOCK // max(d, 1))
    for i in range(0, n, rows):
        checkpoint()
        yield slice(i, min(i + rows, n))


def weights_dtype(size: int, data_dtype=np.float64) -> type:
    """dtype of the residual and entry weights of data with ``size`` entries of ``data_dtype``:
    float32 for float32 data (the NMF family computes float32 input in float32) and above
    :data:`WEIGHTS32_MIN` entries, else float64."""
    return np.float32 if size > WEIGHTS32_MIN or np.dtype(data_dtype) == np.float32 else np.float64


def _nonzero_sq(E2: np.ndarray, zero: float) -> np.ndarray:
    """The squared residuals that are not exact fits (a flat view when there is none)."""
    flat = E2.reshape(-1)
    keep = flat > zero * zero
    return flat if keep.all() else flat[keep]


def _floats(a) -> np.ndarray:
    """a as a flat float32 or float64 array (float32 kept: no copy of float32 residuals)."""
    a = np.asarray(a)
    return (a if a.dtype in (np.float32, np.float64) else a.astype(np.float64)).reshape(-1)


def _count_above(a: np.ndarray, floor: float) -> int:
    return sum(int(np.count_nonzero(b > floor)) for b in _blocks(a))


def order_statistics(a: np.ndarray, ks, floor: float = 0.0) -> np.ndarray:
    """The values of sorted position ``ks`` (0-based) among the entries of ``a`` above ``floor``,
    exactly (what ``np.partition(a[a > floor], ks)[ks]`` gives), without a copy of ``a``.

    Selection (no sort), ``O(N)``: a seeded random subsample of :data:`SELECT_SAMPLE` entries
    brackets the wanted positions (4 binomial standard deviations wide); one blockwise pass
    counts the entries below the bracket and gathers the few inside it (a few % of N), which
    ``np.partition`` then orders. Should the bracket miss, a 4× and then a 16× wider one is
    tried (one more pass each), and only then the filtered copy is partitioned. Arrays of at most :data:`DIRECT_MAX` entries take that direct route.
    Raises ValueError when a position is outside ``[0, N)``."""
    a = np.asarray(a).reshape(-1)
    ks = np.atleast_1d(np.asarray(ks, dtype=np.intp))
    if a.size > DIRECT_MAX:
        n_kept = _count_above(a, floor)
        if ks.min() < 0 or ks.max() >= n_kept:
            raise ValueError(f"order statistic {ks} out of range for {n_kept} entries")
        # a seeded random subsample: a regular stride follows the rows' layout, and on
        # benchmarks/bench_nmf.py's 10,000 × 4,096 data its median bracket missed (true quantile
        # 0.501 for the intended 0.49), which cost a copy of the data
        s = a[np.random.default_rng(0).integers(0, a.size, SELECT_SAMPLE)]
        s = s[s > floor]
        if s.size >= 1000:
            q = ks / n_kept
            for widen in (1.0, 4.0, 16.0):                    # a missed bracket: a wider one
                eps = widen * (4.0 / np.sqrt(s.size) + 1e-3)
                lo = float(np.quantile(s, max(float(q.min()) - eps, 0.0)))
                hi = float(np.quantile(s, min(float(q.max()) + eps, 1.0)))
                below, inside = 0, []
                for b in _blocks(a):
                    checkpoint()
                    b = b[b > floor]
                    below += int(np.count_nonzero(b < lo))
                    inside.append(b[(b >= lo) & (b <= hi)])
                c = np.concatenate(inside)
                pos = ks - below
                if pos.min() >= 0 and pos.max() < c.size:
                    c.partition(pos)
                    return c[pos]
    kept = a[a > floor]
    if ks.min() < 0 or ks.max() >= kept.size:
        raise ValueError(f"order statistic {ks} out of range for {kept.size} entries")
    kept.partition(ks)
    return kept[ks]


def median_above(a: np.ndarray, floor: float = 0.0) -> float | None:
    """``np.median(a[a > floor])`` by selection (:func:`order_statistics`), None when no entry
    is above ``floor``. For the medians of Huber-NMF's c and L1-NMF's μ₀."""
    a = np.asarray(a).reshape(-1)
    if a.size <= DIRECT_MAX:
        kept = a[a > floor]
        return float(np.median(kept)) if kept.size else None
    n = _count_above(a, floor)
    if n == 0:
        return None
    m = n // 2
    if n % 2:
        return float(order_statistics(a, [m], floor)[0])
    lo, hi = order_statistics(a, [m - 1, m], floor)
    return float((lo + hi) / 2)


def nagy_scale(E2: np.ndarray, gamma0: float | None = None, rtol: float = 1e-10,
               max_iter: int = 100, zero: float | None = None) -> float:
    """Nagy's Cauchy scale γ of residuals E (Guan et al. 2019 §3.4, eq. 18): the fixed point of
    ``γ ← γ √(1/e⁰ − 1)``, ``e⁰ = mean 1/(1 + E²/γ²)``, i.e. the root of::

        mean_ij γ² / (γ² + E_ij²) = ½           (mean weight ½; Cauchy ML scale equation)

    Solved by safeguarded Newton's method in x = γ² (the same fixed point as eq. 18; the
    authors' code offers Newton too), which needs 2–4 passes from a warm start where eq. 18 needs
    tens. The left side increases from 0 to 1 with x, so the root is unique; a bracket keeps
    every iterate positive. Stops when the relative change of x is below ``rtol``.

    Parameters: E2: squared residuals (any shape); zero: when given, the exact fits
    (``E² <= zero²``) are left out (None: every entry counts, zeros included); gamma0: warm start
    (default: the median |E| of a subsample, the answer for Cauchy residuals). Returns γ > 0
    (``gamma0`` or 1 if every E is 0). Arrays above :data:`DIRECT_MAX` entries are read in
    blocks (no temporary of their size).
    """
    a = _floats(E2)
    floor = None if zero is None else float(zero) ** 2
    if a.size <= DIRECT_MAX:
        if floor is not None:
            a = _nonzero_sq(a, float(zero))     # type: ignore[arg-type]  # zero is set with floor
        floor = None
        if a.size == 0 or not np.any(a > 0):
            return float(gamma0) if gamma0 else 1.0
        buf = np.empty(a.size)

        def sums(x):                                    # (count, Σ 1/(a + x), Σ 1/(a + x)²)
            np.add(a, x, out=buf, dtype=np.float64)
            np.reciprocal(buf, out=buf)
            return a.size, float(buf.sum()), float(np.dot(buf, buf))
    else:
        buf = np.empty(BLOCK)
        keep = np.empty(BLOCK, dtype=bool)
        cnt = _count_above(a, 0.0 if floor is None else floor)
        if cnt == 0:
            return float(gamma0) if gamma0 else 1.0

        def sums(x):                       # the exact fits masked out by a product, not a copy
            checkpoint()
            s1, s2 = 0.0, 0.0
            for b in _blocks(a):
                t = buf[:b.size]
                np.add(b, x, out=t, dtype=np.float64)
                np.reciprocal(t, out=t)
                if floor is not None:
                    k = keep[:b.size]
                    np.greater(b, floor, out=k)
                    np.multiply(t, k, out=t)
                s1 += float(t.sum())
                s2 += float(np.dot(t, t))
            return cnt, s1, s2
    if gamma0 is None or not gamma0 > 0:
        sub = a[:: max(1, a.size // 10001)]
        if floor is not None:
            sub = sub[sub > floor]
        x = float(np.median(sub)) if sub.size else 0.0
        x = x if x > 0 else float(a.mean())
    else:
        x = float(gamma0) ** 2
    lo, hi = 0.0, np.inf
    for _ in range(max_iter):
        count, s1, s2 = sums(x)
        h = x * s1 - 0.5 * count
        if h == 0.0:
            break
        if h > 0:
            hi = min(hi, x)
        else:
            lo = max(lo, x)
        dh = s1 - x * s2
        x_new = x - h / dh if dh > 0 else np.nan
        if abs(x_new - x) <= rtol * x:                  # converged (also catches a NaN step: False)
            x = x_new
            break
        if not (lo < x_new < hi):                       # outside the bracket: bisect (geometric)
            if lo > 0 and np.isfinite(hi):
                x_new = np.sqrt(lo * hi)
            else:
                x_new = x * 4.0 if h < 0 else x / 4.0
        x = x_new
    return float(np.sqrt(x))


def _three_sigma_sq(a: np.ndarray) -> float:
    """Three-sigma threshold from squared residuals a (1-D, exact fits removed)."""
    if a.size == 0:
        return np.inf
    m = max(a.size // 2, 1)
    lower = np.asarray(np.partition(a, m - 1)[:m], dtype=np.float64)   # selection, O(N)
    np.sqrt(lower, out=lower)                           # (a fresh copy: work in place)
    mu = float(lower.sum()) / m
    if m < 2:
        return mu
    lower -= mu                                         # two-pass standard deviation, ddof = 1
    delta = float(np.sqrt(np.dot(lower, lower) / (m - 1)))
    return mu + 3.0 * delta


def three_sigma_sq(E2: np.ndarray, zero: float) -> float:
    """The three-sigma threshold τ of :func:`three_sigma_threshold` from squared residuals E2
    (any shape), exact fits (``E² <= zero²``) left out, without a copy of E2.

    Arrays above :data:`DIRECT_MAX` entries: v, the ⌊N/2⌋-th smallest kept E², by selection
    (:func:`order_statistics`); the lower half is every kept E² < v plus as many copies of v as
    make up ⌊N/2⌋ (the ties), whose √ give μ and δ (one blockwise pass, ddof = 1). The same
    set as the direct route's ``np.partition``, so the same τ up to round-off (one pass of sums
    of √a and a; the variance as Σa − mμ², whose cancellation costs a few ulps when δ ~ μ)."""
    a = _floats(E2)
    if a.size <= DIRECT_MAX:
        return _three_sigma_sq(_nonzero_sq(a, zero))
    floor = float(zero) ** 2
    n = _count_above(a, floor)
    if n == 0:
        return np.inf
    m = max(n // 2, 1)
    v = float(order_statistics(a, [m - 1], floor)[0])
    sv = float(np.sqrt(v))
    buf = np.empty(BLOCK)
    keep = np.empty(BLOCK, dtype=bool)
    low = np.empty(BLOCK, dtype=bool)
    count, s1, s2 = 0, 0.0, 0.0
    for b in _blocks(a):                   # Σ√a and Σa over the kept a < v: masks, no copies
        t, k, lo = buf[:b.size], keep[:b.size], low[:b.size]
        np.greater(b, floor, out=k)
        np.less(b, v, out=lo)
        np.logical_and(k, lo, out=k)
        np.sqrt(b, out=t, dtype=np.float64)
        np.multiply(t, k, out=t)
        count += int(np.count_nonzero(k))
        s1 += float(t.sum())
        s2 += float(np.dot(t, t))
    ties = m - count                       # copies of v that complete the lower half
    s1 += ties * sv
    s2 += ties * v
    mu = s1 / m
    if m < 2:
        return mu
    var = max(s2 - m * mu * mu, 0.0) / (m - 1)     # ddof = 1; Σ(√a − μ)² = Σa − mμ²
    return mu + 3.0 * float(np.sqrt(var))


def three_sigma_columns(E2: np.ndarray) -> np.ndarray:
    """Per-pixel ('local') three-sigma thresholds (d,) from squared residuals E2 (n, d): the rule
    of :func:`three_sigma_threshold` on each column (one pixel across the samples), the authors'
    code's 'tlv' weighting (Guan et al. 2019 §3.5 states the global rule). Exact fits are not removed
    (per pixel they may be the whole lower half; the threshold floor then decides). Selection
    (``np.partition``) on blocks of columns: no copy of the data's size."""
    n, d = E2.shape
    m = max(n // 2, 1)
    cols = d if E2.size <= DIRECT_MAX else max(1, BLOCK // max(n, 1))
    out = np.empty(d)
    for j in range(0, d, cols):
        checkpoint()
        sl = slice(j, min(j + cols, d))
        lower = np.sqrt(np.partition(E2[:, sl], m - 1, axis=0)[:m], dtype=np.float64)
        mu = lower.mean(axis=0)
        sd = lower.std(axis=0, ddof=1) if m > 1 else np.zeros_like(mu)
        out[sl] = mu + 3.0 * sd
    return out


def three_sigma_threshold(abs_e: np.ndarray, zero: float = 0.0) -> float:
    """Paper 003 §3.5: the implicit truncation threshold τ = μ + 3δ, with μ and δ the mean and
    standard deviation (ddof = 1, as MATLAB's std) of the ⌊N/2⌋ smallest |E| (the part assumed
    Gaussian). Entries with |E| > τ are the outliers.

    Corrections: the paper flags ``|θ − μ| > 3δ``; only the upper side is used, because
    eq. (1) truncates *large* errors (the two-sided rule would flag near-zero residuals whenever
    the lower half sits away from 0). Exact fits (|E| <= ``zero``) are left out (module constant
    :data:`ZERO_RESIDUAL`); with δ = 0 the threshold is μ; with no residual left, +inf.
    Expect τ ≈ 1.3 × median|E| and ~40 % of entries truncated on outlier-free residuals (claim 4).
    """
    e = np.abs(np.asarray(abs_e, dtype=float)).reshape(-1)
    return three_sigma_sq(e * e, zero)


def cauchy_weights(E: np.ndarray, gamma: float, tau: float = np.inf) -> np.ndarray:
    """HQ weights of the Truncated Cauchy loss (Guan et al. 2019 Theorem 2 / Table I):
    ``Q = 1 / (1 + (E/γ)²)`` where ``|E| <= τ``, exactly 0 where ``|E| > τ`` (τ = γ√σ; +inf for
    Cauchy NMF). Q ∈ (0, 1], Q = 1 at E = 0, Q = ½ at |E| = γ."""
    E2 = np.square(np.asarray(E, dtype=float))
    x = float(gamma) ** 2
    Q = x / (x + E2)
    if np.all(np.isfinite(tau)):
        Q[E2 > np.broadcast_to(np.square(np.asarray(tau, dtype=float)), E2.shape)] = 0.0
    return Q


def truncated_cauchy_objective(E: np.ndarray, gamma: float, tau: float = np.inf) -> float:
    """Objective (2) of Guan et al. 2019 at scale γ and threshold τ = γ√σ::

        ½ Σ_ij g((E_ij/γ)²),  g(u) = ln(1 + u) for u <= σ, ln(1 + σ) beyond

    (σ = +inf: the Cauchy loss of Cauchy NMF). Dimensionless."""
    E2 = np.square(np.asarray(E, dtype=float)) / float(gamma) ** 2
    sigma = (float(tau) / float(gamma)) ** 2 if np.isfinite(tau) else np.inf
    return 0.5 * float(np.sum(np.minimum(np.log1p(E2), np.log1p(sigma))))





class Reweigh:
    """The HQ weights of a state with its scale parameters frozen (``NMFState.reweigh``):
    ``(X, P) -> (Q, S)``. Picklable (plain data), unlike a closure."""

    def __init__(self, kind: str, **params):
        self.kind = kind
        self.params = params

    def __call__(self, X: np.ndarray, P: np.ndarray):
        E = X - P
        k, p = self.kind, self.params
        if k == "cauchy":
            Q = cauchy_weights(E, p["gamma"], p["tau"])
            Q[P > p["xmax"]] = 1.0
            return Q, None
        if k == "cim":
            Q = np.exp(np.square(E) * (-0.5 / p["delta2"]))
            if p["xmax"] is not None:
                Q[P > p["xmax"]] = 1.0
            return Q, None
        if k == "ratio":                       # Q = s / max(|E|, s): L1 (s = μ), Huber (s = c)
            A = np.maximum(np.abs(E), p["s"])
            return np.divide(p["s"], A, out=A), None
        if k == "sparse":                      # RNMF-L1: S = soft(X − HW, λ/2)
            return None, soft_threshold(E, 0.5 * p["lam"])
        raise ValueError(k)                    # pragma: no cover


