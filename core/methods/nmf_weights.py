"""The robust statistics and half-quadratic weight functions of the NMF family.

Paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019: Nagy's Cauchy scale (§3.4, eq. 18), the three-sigma
truncation threshold (§3.5), the truncated Cauchy weights and objective (eq. 2, Theorem 2,
Table I); and the frozen weight functions of every robust NMF method that
``NMFState.transform`` uses (:class:`_Reweigh`). Residuals E = X − HW are (n_samples,
n_features) arrays in grey levels.
"""
from __future__ import annotations

import numpy as np

__all__ = ["nagy_scale", "three_sigma_threshold", "cauchy_weights", "truncated_cauchy_objective"]


def _nonzero_sq(E2: np.ndarray, zero: float) -> np.ndarray:
    """The squared residuals that are not exact fits (a flat view when there is none)."""
    flat = E2.reshape(-1)
    keep = flat > zero * zero
    return flat if keep.all() else flat[keep]


def nagy_scale(E2: np.ndarray, gamma0: float | None = None, rtol: float = 1e-10,
               max_iter: int = 100) -> float:
    """Nagy's Cauchy scale γ of residuals E (paper 003 §3.4, eq. 18): the fixed point of
    ``γ ← γ √(1/e⁰ − 1)``, ``e⁰ = mean 1/(1 + E²/γ²)``, i.e. the root of::

        mean_ij γ² / (γ² + E_ij²) = ½           (mean weight ½; Cauchy ML scale equation)

    Solved by safeguarded Newton's method in x = γ² (the same fixed point as eq. 18; the
    authors' code offers Newton too), which needs 2–4 passes from a warm start where eq. 18 needs
    tens. The left side increases from 0 to 1 with x, so the root is unique; a bracket keeps
    every iterate positive. Stops when the relative change of x is below ``rtol``.

    Parameters: E2: squared residuals (any shape; zeros are counted as given, callers drop exact
    fits first); gamma0: warm start (default: the median |E| of a subsample, the answer for
    Cauchy residuals). Returns γ > 0 (``gamma0`` or 1 if every E is 0).
    """
    a = np.asarray(E2, dtype=float).reshape(-1)
    if a.size == 0 or not np.any(a > 0):
        return float(gamma0) if gamma0 else 1.0
    half = 0.5 * a.size
    if gamma0 is None or not gamma0 > 0:
        sub = a[:: max(1, a.size // 10001)]
        x = float(np.median(sub))
        x = x if x > 0 else float(a.mean())
    else:
        x = float(gamma0) ** 2
    lo, hi = 0.0, np.inf
    buf = np.empty_like(a)
    for _ in range(max_iter):
        np.add(a, x, out=buf)
        np.reciprocal(buf, out=buf)
        s1 = float(buf.sum())
        s2 = float(np.dot(buf, buf))
        h = x * s1 - half
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
    lower = np.partition(a, m - 1)[:m]                  # selection, O(N) (paper §3.6 note)
    np.sqrt(lower, out=lower)                           # (a fresh copy: work in place)
    mu = float(lower.sum()) / m
    if m < 2:
        return mu
    lower -= mu                                         # two-pass standard deviation, ddof = 1
    delta = float(np.sqrt(np.dot(lower, lower) / (m - 1)))
    return mu + 3.0 * delta


def _three_sigma_columns(E2: np.ndarray) -> np.ndarray:
    """Per-pixel ('local') three-sigma thresholds (d,) from squared residuals E2 (n, d): the rule
    of :func:`three_sigma_threshold` on each column (one pixel across the samples), the authors'
    code's 'tlv' weighting (paper 003 §3.5 states the global rule). Exact fits are not removed
    (per pixel they may be the whole lower half; the threshold floor then decides)."""
    n = E2.shape[0]
    m = max(n // 2, 1)
    lower = np.sqrt(np.partition(E2, m - 1, axis=0)[:m])
    mu = lower.mean(axis=0)
    sd = lower.std(axis=0, ddof=1) if m > 1 else np.zeros_like(mu)
    return mu + 3.0 * sd


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
    return _three_sigma_sq(_nonzero_sq(e * e, zero))


def cauchy_weights(E: np.ndarray, gamma: float, tau: float = np.inf) -> np.ndarray:
    """HQ weights of the Truncated Cauchy loss (paper 003 Theorem 2 / Table I):
    ``Q = 1 / (1 + (E/γ)²)`` where ``|E| <= τ``, exactly 0 where ``|E| > τ`` (τ = γ√σ; +inf for
    Cauchy NMF). Q ∈ (0, 1], Q = 1 at E = 0, Q = ½ at |E| = γ."""
    E2 = np.square(np.asarray(E, dtype=float))
    x = float(gamma) ** 2
    Q = x / (x + E2)
    if np.all(np.isfinite(tau)):
        Q[E2 > np.broadcast_to(np.square(np.asarray(tau, dtype=float)), E2.shape)] = 0.0
    return Q


def truncated_cauchy_objective(E: np.ndarray, gamma: float, tau: float = np.inf) -> float:
    """Objective (2) of paper 003 at scale γ and threshold τ = γ√σ::

        ½ Σ_ij g((E_ij/γ)²),  g(u) = ln(1 + u) for u <= σ, ln(1 + σ) beyond

    (σ = +inf: the Cauchy loss of Cauchy NMF). Dimensionless."""
    E2 = np.square(np.asarray(E, dtype=float)) / float(gamma) ** 2
    sigma = (float(tau) / float(gamma)) ** 2 if np.isfinite(tau) else np.inf
    return 0.5 * float(np.sum(np.minimum(np.log1p(E2), np.log1p(sigma))))


def _soft(T: np.ndarray, t: float) -> np.ndarray:
    return np.sign(T) * np.maximum(np.abs(T) - t, 0.0)



class _Reweigh:
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
            return None, _soft(E, 0.5 * p["lam"])
        raise ValueError(k)                    # pragma: no cover


