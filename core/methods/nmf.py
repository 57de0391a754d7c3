"""Robust non-negative matrix factorisation: Truncated Cauchy NMF (paper 003) and its baselines.

Paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019 (arXiv:1906.00495). Section, equation, claim and
algorithm numbers below refer to that paper (claims: the project's list of its checkable claims).

Orientation (translated once here)
----------------------------------
The paper factorises V (m features × n samples) ≈ W H with W ∈ ℝ₊^{m×r} the basis and
H ∈ ℝ₊^{r×n} the coefficients. Here X = Vᵀ has shape (n_samples, n_features), one flattened
image per row, grey levels 0–255, and (scikit-learn's NMF convention)::

    X ≈ H_ours @ components_        H_ours = Hᵀ (n_samples, r),  components_ = Wᵀ (r, n_features)

``components_`` (``State.components``) are the basis images, ``transform(X)`` /
``State.coefficients`` the non-negative coefficients. The paper's H-step (one column of V per
sample) is our coefficient step, one *row* of X per sample; its W-step (one row of V per pixel)
is our basis step, one *column* of X per pixel. After every iteration each basis row is scaled
to unit ℓ2 norm and the coefficients get the inverse scale, so the product is unchanged (paper
003 Lemma 1 assumes unit-norm bases; the authors' code scales to max 1, §3.3(c)); a basis row
that became entirely 0 is replaced by the uniform unit row 1/√d with zero coefficients (product
unchanged), so every state has unit-norm rows.

One loop for every method (half-quadratic, HQ)
----------------------------------------------
Each method is a weight function of the residual E = X − H W plus the same loop (paper 003
Algorithm 2, eqs. 12–14): with the weights Q computed from the current residual,

1. coefficient step ``min_{H>=0} ½ Σ Q ∘ (X − H W)²``;
2. (TC-NMF, option) refresh Q from the new residual (Algorithm 2 line 7);
3. basis step ``min_{W>=0} ½ Σ Q ∘ (X − H W)²``;
4. normalise, then compute the residual, the method's scale (γ, c, δ, μ) and the weights Q
   for the next iteration (the state's ``entry_weights`` are the weights of its own residual,
   used by the next step: the authors' code order, §3.3(a)).

Steps 1 and 3 are weighted NLS problems solved by the shared solver of
:mod:`core.methods._wnls`: ``solver="nesterov"`` (default) runs Nesterov's optimal gradient
method, paper 003 Algorithm 1, on all samples (pixels) at once — no Python loop over samples
or pixels: every unit's r × r Hessian ``W D_j Wᵀ`` is built by one matrix product (or, for large r,
the gradient is formed from the weighted residual each iteration) — with step 1/L, L a batched
Collatz–Wielandt upper bound of the spectral norm ``‖W D_j Wᵀ‖₂`` after a few power steps (see
:func:`core.methods._wnls.lipschitz`), stopping rule (15) with ε₁ = 1e-2, divided by 10 (down to
the paper's floor 1e-3) once a solve needs at most 10 iterations (the NeNMF trick of the
authors' code), and at most ``inner_max_iter`` iterations (default 30; the authors' code runs
at least 20 and at most 500. Rule (15) at 1e-2 needs ~40 iterations on the faces and ~100 on
benchmarks/bench_nmf.py's data, so the cap usually binds and the tolerance never tightens.
Measured with TC-NMF: a cap of 20 reached rule (16) in 20–50 % less time on the faces at the same
relative error, but took 1.4× longer on the benchmark data (131 against 106 outer iterations,
higher final objective), so 30 stays); ``solver="mu"`` makes one weighted
multiplicative update per factor (Lee & Seung; the rule the baselines of §5.5 use). Both are
descent steps for the weighted problem, so for *frozen* weight parameters (γ, τ, c, ...) every
step is a majorise–minimise step of the method's objective (claim 3).

Methods (catalogue keys): ``tc-nmf``, ``cauchy-nmf``, ``nmf``, ``l1-nmf``, ``rnmf-l1``,
``l21-nmf``, ``huber-nmf``, ``cim-nmf``.

State of every method (:class:`NMFState`)
-----------------------------------------
* ``components`` (r, d): unit-norm non-negative basis images; ``mean``: zeros (d,);
* ``coefficients`` (n, r): the non-negative coefficients (paper's Hᵀ);
* ``fitted`` (n, d): the reconstruction ``coefficients @ components`` (grey levels);
* ``entry_weights`` (n, d): the per-entry weights Q of the state's residual, max 1 (exactly 0 on
  truncated entries for TC-NMF), or None (plain NMF, L2,1-NMF);
* ``sample_weights`` (n,): per-sample mean of Q divided by its largest value (floored at
  :data:`SAMPLE_WEIGHT_FLOOR` so that log-scale views stay finite), or L2,1-NMF's per-sample
  weights, or None (plain NMF); ``details["mean weight"]``: the raw per-sample means of Q;
* ``details["truncated"]`` (TC-NMF): bool (n, d), the entries with weight exactly 0;
  ``sparse_part``: S (RNMF-L1);
* ``objective``: the method's own objective (each class says which); ``converged``: rule (16)
  of paper 003, ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` (the paper: ``|J_0 − J_t|``, the
  same for a decreasing objective), checked from iteration
  :data:`MIN_ITER` on, tol 1e-5 by default (the authors' code: from 20, tol 1e-4).

Bad input is refused by ``start`` before any work: negative entries (:class:`DataError` giving
their number and the minimum, suggesting to clip at 0), all-zero data, NaN/inf, n_components >=
min(n_samples, n_features), parameters out of range (:class:`ParameterError` naming them). A NaN
or infinity met while iterating raises :class:`SolverError`.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from sklearn.utils.validation import check_is_fitted

from ..base import State, SteppableEstimator
from ..params import ParamSpec, register
from ..errors import DataError, SolverError
from ..linalg import one_blas_thread
from ._specs import N_COMPONENTS
from ._wnls import Scratch, mu_update, wnls

__all__ = ["NMFState", "NMF", "TruncatedCauchyNMF", "CauchyNMF", "L1NMF", "RNMFL1", "L21NMF",
           "HuberNMF", "CIMNMF", "cauchy_weights", "nagy_scale", "three_sigma_threshold",
           "truncated_cauchy_objective", "check_nonnegative"]

# ----------------------------------------------------------------------------- constants
#: Rule (16) is checked from this iteration on.
MIN_ITER = 10
#: Rule (15): starting relative tolerance ε₁ (authors' code), its floor (paper: max{ε₁, 1e-3}),
#: and the iteration count at or below which a factor's tolerance is divided by 10.
INNER_TOL = 1e-2
INNER_TOL_MIN = 1e-3
INNER_FAST = 10
#: Residuals with |E| <= ZERO_RESIDUAL × max(X) count as exact fits: they carry no information
#: on the noise scale and are left out of Nagy's estimate, the three-sigma rule and Huber's
#: median (extraction §8 "robust fallbacks"). Without this, data with large exactly fitted
#: regions (the black background of digits: more than half of the residuals exactly 0) would
#: give γ → 0, median |E| = 0 and a three-sigma threshold of 0, i.e. every other entry truncated.
ZERO_RESIDUAL = 1e-9
#: Nagy's γ is floored at GAMMA_MIN × (max X − min X) (ours): on 500 digits with 550-valued
#: blocks (mostly near-exact background residuals) Cauchy NMF's γ collapsed to 0.009 grey
#: levels, every weight fell to ~γ²/E², and the fit diverged (max HW 3452 at iteration 311).
GAMMA_MIN = 0.01
#: Smallest reported sample weight (a fully truncated sample would otherwise get 0, whose log
#: the weight views cannot draw); the raw value is in ``details["mean weight"]``.
SAMPLE_WEIGHT_FLOOR = 1e-6
#: L1-NMF smoothing schedule: μ₀ = median |E₀|, μ_t = max(L1_MU_DECAY^t μ₀, L1_MU_MIN × μ₀).
L1_MU_DECAY = 0.5
L1_MU_MIN = 1e-3
#: ``NMFState.transform``: NNLS of new samples by OGM to this relative tolerance / iteration cap.
TRANSFORM_TOL = 1e-6
TRANSFORM_MAX_ITER = 500
#: Weighted ``transform``: half-quadratic rounds stop when the coefficients change by less than
#: this (relative Frobenius), or after :data:`TRANSFORM_OUTER` rounds.
TRANSFORM_RTOL = 1e-6
TRANSFORM_OUTER = 200
#: Divergence guard: a fit whose reconstruction exceeds max(X) + DIVERGE_FACTOR × (max X − min X)
#: raises SolverError (no data value explains it; entries with weight 0 are no longer held).
DIVERGE_FACTOR = 4.0
#: Problems with at most this many entries run each iteration on one BLAS thread: their products
#: are too small to gain from threads, and on a busy 2-core machine threaded OpenBLAS made a
#: 100 × 625 TC-NMF run 3× slower (1.37 s vs 0.49 s for 50 iterations). Same rule as
#: :data:`core.methods.convex.ONE_THREAD_MAX_ENTRIES`.
ONE_THREAD_MAX_ENTRIES = 250_000

# ----------------------------------------------------------------------------- parameter specs
NMF_MAX_ITER = ParamSpec(
    "max_iter", "max iter", "int", 500,
    "stop after this many iterations if the stopping rule is not met first (at tol 1e-5 every "
    "NMF method met it within 500 on the built-in faces and digits)",
    low=1, high=100000, slider=(1, 2000))
NMF_TOL = ParamSpec(
    "tol", "tol", "float", 1e-5,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(paper 003 rule 16; checked from iteration 10). The authors' code uses 1e-4, which stopped "
    "multiplicative-update NMF 3 % above scikit-learn's objective and left TC-NMF's coefficients "
    "1–2 % from their own weighted solution",
    low=0.0, scale="log", slider=(1e-8, 1e-1))
SOLVER = ParamSpec(
    "solver", "solver", "choice", "nesterov",
    "weighted NLS solver for each factor: Nesterov's optimal gradient method (paper 003 "
    "Algorithm 1) or one multiplicative update (Lee–Seung)",
    choices=("nesterov", "mu"))
INNER_MAX_ITER = ParamSpec(
    "inner_max_iter", "inner iter", "int", 30,
    "at most this many Nesterov iterations per factor and step (rule 15 usually stops earlier)",
    low=1, high=10000, slider=(1, 200))
RANDOM_STATE = ParamSpec(
    "random_state", "seed", "int", 0,
    "seed of the random non-negative initialisation (same seed, same run)",
    low=0, slider=(0, 100))
GAMMA_MODE = ParamSpec(
    "gamma_mode", "γ estimate", "choice", "nagy",
    "Cauchy scale γ: re-estimated every iteration by Nagy's algorithm (paper 003 eq. 18) or fixed",
    choices=("nagy", "fixed"))
GAMMA = ParamSpec(
    "gamma", "γ", "float", 10.0,
    "fixed Cauchy scale γ in grey levels (used when γ estimate is 'fixed'): weight ½ where |E| = γ",
    low=0.0, low_open=True, scale="log", slider=(0.1, 255.0))
TRUNCATION = ParamSpec(
    "truncation", "truncation", "choice", "three-sigma",
    "which errors get weight 0: global three-sigma rule on |E| (paper 003 §3.5), per-pixel "
    "('local') three-sigma rule (the authors' code's 'tlv'), none (= Cauchy NMF), or "
    "|E| > γ√σ with a fixed σ",
    choices=("three-sigma", "local", "off", "fixed"))
SIGMA = ParamSpec(
    "sigma", "σ", "float", 9.0,
    "truncation parameter σ of eq. (2), used when truncation is 'fixed': errors with "
    "|E| > γ√σ get weight 0 (dimensionless; 9 means beyond 3γ)",
    low=0.0, low_open=True, scale="log", slider=(0.1, 1000.0))
TAU_FLOOR = ParamSpec(
    "tau_floor", "τ floor (×γ)", "float", 3.0,
    "lower bound c on the three-sigma threshold, τ >= c·γ (σ >= c²); 0 = the paper's and the "
    "authors' code's rule (its τ fell below γ on the faces and truncated ~48 % of the entries; "
    "c = 3 lowered the error against the clean faces from 38/42/36 % to 33/33/29 % on clean, "
    "Laplace δ = 40 and 550-block faces)",
    low=0.0, slider=(0.0, 10.0))
FREEZE = ParamSpec(
    "freeze_after", "freeze after", "int", 100,
    "keep γ and τ fixed from this iteration on (0 = re-estimate them every iteration, as the "
    "paper and the authors' code do); with them fixed every iteration is a majorise–minimise "
    "step and the stopping rule is met (on digits γ otherwise jumped between ~3 and ~40 "
    "forever)",
    low=0, high=100000, slider=(0, 500))
REFRESH = ParamSpec(
    "refresh_weights", "refresh Q", "bool", True,
    "recompute Q (same γ and threshold) between the coefficient and basis steps, as Algorithm 2 "
    "line 7 (the authors' code does not)")
LAMBDA = ParamSpec(
    "lam", "λ", "float", 100.0,
    "ℓ1 penalty on the outlier matrix S in grey levels: residuals beyond λ/2 go to S",
    low=0.0, low_open=True, scale="log", slider=(1.0, 1000.0))

L1_TOL = ParamSpec(
    "tol", "tol", "float", 1e-4,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(paper 003 rule 16; checked from iteration 10). 1e-4 for L1-NMF: its reweighted least "
    "squares still gained 4e-5 of the total progress per iteration after 300 iterations on the "
    "faces, so 1e-5 was not met within 500",
    low=0.0, scale="log", slider=(1e-8, 1e-1))
TC_TOL = ParamSpec(
    "tol", "tol", "float", 1e-4,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(paper 003 rule 16; checked from iteration 10; the authors' code: 1e-4). Not 1e-5: after "
    "the burn-in TC-NMF's objective still fell by ~1e-4 of its range per iteration on the faces "
    "with 550 blocks, and 1e-5 was not met in 500 iterations",
    low=0.0, scale="log", slider=(1e-8, 1e-1))
COMMON = [N_COMPONENTS, NMF_MAX_ITER, NMF_TOL]
INNER = [SOLVER, INNER_MAX_ITER, RANDOM_STATE]


# ----------------------------------------------------------------------------- state
@dataclass(frozen=True, eq=False)
class NMFState(State):
    """A :class:`~core.base.State` of an NMF method, plus the coefficients.

    ``transform(X)`` solves the method's own problem for new samples with the basis frozen: for
    a robust method (``reweigh`` set) the half-quadratic loop of the fit runs on the
    coefficients alone — weights from the residual with the state's scale parameters (γ, τ, δ,
    c, μ or λ) frozen, then the weighted NLS for the coefficients, until the coefficients change
    by less than :data:`TRANSFORM_RTOL` (relative Frobenius) or :data:`TRANSFORM_OUTER` rounds
    (the stopping rule). It starts from the unweighted NNLS coefficients
    ``argmin_{h >= 0} ‖x − hᵀ W‖²`` (OGM, Gram form, relative tolerance :data:`TRANSFORM_TOL`), which is what
    ``transform(X, weighted=False)`` returns (and what plain NMF and L2,1-NMF, whose coefficient
    step is unweighted, always return). On the training data itself the loop starts from the
    fitted coefficients instead: the truncated loss is not convex, and from the unweighted start
    TC-NMF reached another fixed point, 11 % away (faces, Laplace δ = 40). On the training data
    the weighted transform reproduces ``coefficients`` (tested to 1 %), so ``reconstruct(X)``
    reproduces ``fitted``. ``reconstruct(X) = transform(X) @ components``.

    coefficients : (n_samples, n_components) non-negative, or None.
    reweigh : callable ``(X, P) -> (Q, S)`` giving the entry weights Q (or None) and the sparse
        part S (or None, RNMF-L1) for data X and reconstruction P at the state's frozen scale
        parameters; None for the unweighted methods.
    """

    coefficients: np.ndarray | None = None
    reweigh: object = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        super().__post_init__()
        if isinstance(self.coefficients, np.ndarray):
            self.coefficients.flags.writeable = False

    def transform(self, X: np.ndarray, weighted: bool = True) -> np.ndarray:
        """Non-negative coefficients (n, n_components) of the rows of X (n, d) with the basis
        fixed: the method's own reweighted problem (``weighted=True``, default) or plain NNLS
        (``weighted=False``). See the class docstring for the stopping rule."""
        X = np.asarray(X, dtype=float)
        F = np.asarray(self.components, dtype=float)
        G = F @ F.T
        lam = float(np.linalg.eigvalsh(G)[-1])
        Y0 = np.maximum(X @ F.T, 0.0) / max(lam, np.finfo(float).tiny)
        H = wnls(X, F, Y0, side="left", tol=TRANSFORM_TOL, max_iter=TRANSFORM_MAX_ITER).Y
        if not weighted or self.reweigh is None:
            return H
        ctx = self._ctx
        if (ctx is not None and self.coefficients is not None and X.shape == ctx.X.shape
                and np.array_equal(X, ctx.X)):
            H = np.array(self.coefficients)   # the training data: the fit's own local solution
        for _ in range(TRANSFORM_OUTER):
            Q, S = self.reweigh(X, H @ F)
            T = X if S is None else X - S
            Hn = wnls(T, F, H, side="left", Q=Q, tol=TRANSFORM_TOL,
                      max_iter=TRANSFORM_MAX_ITER).Y
            change = float(np.linalg.norm(Hn - H))
            H = Hn
            if change <= TRANSFORM_RTOL * max(float(np.linalg.norm(H)), np.finfo(float).tiny):
                break
        return H

    def reconstruct(self, X: np.ndarray, weighted: bool = True) -> np.ndarray:
        """``transform(X, weighted) @ components``: the method's reconstruction of X (n, d)."""
        return self.transform(X, weighted) @ self.components


# ----------------------------------------------------------------------------- data checks
def check_nonnegative(X: np.ndarray) -> None:
    """Raise :class:`DataError` unless every entry of X is >= 0 and some entry is > 0."""
    neg = X < 0
    if neg.any():
        count = int(np.count_nonzero(neg))
        raise DataError(
            f"Negative values in data: NMF needs non-negative data, but X has {count} negative "
            f"entr{'y' if count == 1 else 'ies'} "
            f"(minimum {float(X.min()):.6g}); clip it at 0 first (e.g. np.clip(X, 0, None), or the "
            f"corruption's clip option)")
    if not X.any():
        raise DataError("NMF needs some positive data, but every entry of X is 0")


# ----------------------------------------------------------------------------- robust statistics
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


# ----------------------------------------------------------------------------- shared loop
@dataclass
class _Ctx:
    """Data shared by every state of one run (not copied): X, its scale, work arrays."""

    X: np.ndarray
    zero: float                      # ZERO_RESIDUAL × max(X)
    xmin: float = 0.0                # range of X (divergence guard, CIM's range rule)
    xmax: float = 0.0
    scratch: Scratch = field(default_factory=Scratch)


@dataclass
class _Eval:
    """What a method computes from a new iterate (its residual)."""

    objective: float
    entry_weights: np.ndarray | None = None
    sample_weights: np.ndarray | None = None
    row_weights: np.ndarray | None = None          # per-sample HQ weights (L2,1)
    scalars: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)
    sparse_part: np.ndarray | None = None


def _mean_weights(Q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(sample_weights scaled to max 1 and floored, raw per-sample means) of entry weights Q."""
    raw = Q.mean(axis=1)
    top = float(raw.max())
    sw = raw / top if top > 0 else np.ones_like(raw)
    return np.maximum(sw, SAMPLE_WEIGHT_FLOOR), raw


class _NMFBase(SteppableEstimator):
    """The HQ loop shared by every NMF method (see the module docstring). Subclasses implement
    :meth:`_evaluate` (objective and weights of an iterate) and may override :meth:`_target`,
    :meth:`_hq_weights` and :meth:`_refresh`. Its constructor takes the parameters of the
    plain baselines (NMF, L1-, Huber-, CIM-, L2,1-NMF); TC-NMF and RNMF-L1 define their own."""

    def __init__(self, n_components: int = 10, max_iter: int = 500, tol: float = 1e-5,
                 solver: str = "nesterov", inner_max_iter: int = 30, random_state: int = 0):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state

    # ---------------------------------------------------------------- hooks
    def _evaluate(self, ctx: _Ctx, P: np.ndarray, E: np.ndarray, prev: NMFState | None, get) -> _Eval:
        raise NotImplementedError   # pragma: no cover

    def _target(self, ctx: _Ctx, state: NMFState) -> np.ndarray:
        return ctx.X

    def _hq_weights(self, state: NMFState):
        """(Q, per-sample weights) for the two weighted NLS steps of ``state``'s next iteration."""
        return state.entry_weights, state.details.get("row weights")

    def _refresh(self, ctx: _Ctx, E: np.ndarray, state: NMFState, get):
        """Weights for the basis step from the residual after the coefficient step, or None to
        keep the state's weights."""
        return None

    def _reweigher(self, ctx: _Ctx, ev: _Eval):
        """The state's frozen HQ weight function for ``transform`` (:class:`_Reweigh`), or None
        when the coefficient step is unweighted (NMF, L2,1-NMF)."""
        return None

    # ---------------------------------------------------------------- init and helpers
    def _init_factors(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Uniform [0, 1) random H₀ (n, r) and W₀ (r, d) from ``random_state`` (the authors' code:
        rand), both scaled by √s so that the mean of H₀W₀ equals the median of X (the mean of X
        when the median is 0); the code scales the max of W₀H₀ to median(V)."""
        n, d = X.shape
        r = int(self.n_components)
        rng = np.random.default_rng(int(self.random_state))
        H = rng.random((n, r))
        W = rng.random((r, d))
        target = float(np.median(X))
        target = target if target > 0 else float(X.mean())
        s = np.sqrt(target / float(H.mean(axis=0) @ W.mean(axis=1)))
        return H * s, W * s

    @staticmethod
    def _normalise(H: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        norms = np.sqrt(np.einsum("kd,kd->k", W, W))
        dead = ~(norms > 0)
        H = H * np.where(dead, 0.0, norms)[None, :]
        W = W / np.where(dead, 1.0, norms)[:, None]
        if dead.any():
            W[dead] = 1.0 / np.sqrt(W.shape[1])
        return np.ascontiguousarray(H), np.ascontiguousarray(W)

    def _check_range(self, iteration: int, P: np.ndarray, ctx: _Ctx):
        """Divergence guard: SolverError when max(HW) > max X + 4 (max X − min X)."""
        top = float(P.max())
        limit = ctx.xmax + DIVERGE_FACTOR * (ctx.xmax - ctx.xmin)
        if top > limit:
            raise SolverError(
                f"{self.name} diverged at iteration {iteration}: the fitted values reach "
                f"{top:.4g}, far above the data's range [{ctx.xmin:.4g}, {ctx.xmax:.4g}] (limit "
                f"{limit:.4g}). Cause: entries whose weights fell to (about) 0 are no longer held "
                "by the data, so the factors drift there; try solver='mu', more components' "
                "worth of data, or another method.")

    def _fail(self, iteration: int, what: str):
        raise SolverError(f"{self.name} stopped at iteration {iteration}: {what} contain NaN or "
                          "infinity. The data may hold extreme values; try other parameters.")

    def _make_state(self, ctx, H, W, ev: _Eval, prev: NMFState | None, P: np.ndarray,
                    counts: dict, tols: tuple) -> NMFState:
        scalars = dict(ev.scalars)
        scalars.update(counts)
        details = dict(ev.details)
        details["inner tol"] = tols
        if ev.row_weights is not None:
            details["row weights"] = ev.row_weights
        fields = dict(components=W, entry_weights=ev.entry_weights,
                      sample_weights=ev.sample_weights, scalars=scalars, details=details,
                      fitted=P, sparse_part=ev.sparse_part, coefficients=H,
                      reweigh=self._reweigher(ctx, ev))
        if prev is None:
            return NMFState(method=self.name, iteration=0, objective=ev.objective,
                            objective_history=(ev.objective,), mean=np.zeros(W.shape[1]),
                            _ctx=ctx, **fields)
        hist = prev.objective_history
        J = ev.objective
        # rule (16) with the largest |J_k − J_t| over the run in place of |J_0 − J_t| (the same
        # for a decreasing run): with γ, τ, δ or c re-estimated the objective's scale changes,
        # and TC-NMF on the 550-block faces ended *above* J_0, so |J_0 − J_t| was ~0.2 % of
        # its range and the rule was not met in 500 iterations
        span = max(abs(max(hist) - J), abs(min(hist) - J))
        converged = (prev.iteration + 1 >= MIN_ITER
                     and abs(J - hist[-1]) <= float(self.tol) * span)
        return self._next_state(prev, objective=J, converged=bool(converged), **fields)

    def _solve(self, X, F, Y, side, Q, row_weights, tol, get):
        """One factor update; returns (Y, iterations)."""
        if self.solver == "mu":
            return mu_update(X, F, Y, side=side, Q=Q, row_weights=row_weights, get=get), 1
        res = wnls(X, F, Y, side=side, Q=Q, row_weights=row_weights, tol=tol,
                   max_iter=int(self.inner_max_iter), get=get)
        return res.Y, res.n_iter

    @staticmethod
    def _next_tol(tol: float, k: int) -> float:
        return max(tol / 10.0, INNER_TOL_MIN) if k <= INNER_FAST else tol

    # ---------------------------------------------------------------- stepping
    @staticmethod
    def _threads(X: np.ndarray):
        return one_blas_thread() if X.size <= ONE_THREAD_MAX_ENTRIES else nullcontext()

    def _start(self, X: np.ndarray) -> NMFState:
        check_nonnegative(X)
        ctx = _Ctx(X=X, zero=ZERO_RESIDUAL * float(X.max()), xmin=float(X.min()),
                   xmax=float(X.max()))
        H, W = self._normalise(*self._init_factors(X))
        with self._threads(X), ctx.scratch.borrow() as get:
            P = H @ W
            E = get("E", X.shape)
            np.subtract(X, P, out=E)
            ev = self._evaluate(ctx, P, E, None, get)
        return self._make_state(ctx, H, W, ev, None, P, {"k_H": 0, "k_W": 0},
                                (INNER_TOL, INNER_TOL))

    def _step(self, state: NMFState) -> NMFState:
        ctx: _Ctx = state._ctx
        t = state.iteration + 1
        H, W = np.array(state.coefficients), np.array(state.components)
        Q, rw = self._hq_weights(state)
        tol_h, tol_w = state.details.get("inner tol", (INNER_TOL, INNER_TOL))
        with self._threads(ctx.X), ctx.scratch.borrow() as get:
            T = self._target(ctx, state)
            # coefficient step (paper's H-step): rows of X, per-sample weights cancel in it
            H, k_h = self._solve(T, W, H, "left", Q, None, tol_h, get)
            if not np.all(np.isfinite(H)):
                self._fail(t, "the coefficients")
            Qw = Q
            if Q is not None:
                E = get("E", T.shape)
                np.matmul(H, W, out=E)
                np.subtract(ctx.X, E, out=E)
                Qr = self._refresh(ctx, E, state, get)
                Qw = Q if Qr is None else Qr
            # basis step (paper's W-step): columns of X
            W, k_w = self._solve(T, H, W, "right", Qw, rw, tol_w, get)
            if not np.all(np.isfinite(W)):
                self._fail(t, "the basis images")
            H, W = self._normalise(H, W)
            P = H @ W
            self._check_range(t, P, ctx)
            E = get("E", T.shape)
            np.subtract(ctx.X, P, out=E)
            ev = self._evaluate(ctx, P, E, state, get)
        if self.solver == "mu":
            tols = (tol_h, tol_w)
        else:
            tols = (self._next_tol(tol_h, k_h), self._next_tol(tol_w, k_w))
        return self._make_state(ctx, H, W, ev, state, P, {"k_H": k_h, "k_W": k_w}, tols)

    # ---------------------------------------------------------------- sklearn-style API
    def fit(self, X, y=None):
        """Run to the stopping rule; sets ``components_`` (r, d), ``coefficients_`` (n, r),
        ``mean_`` (zeros), ``sample_weights_``, ``n_iter_``, ``objective_``,
        ``objective_history_``, ``state_``."""
        super().fit(X)
        self.coefficients_ = np.array(self.state_.coefficients)
        return self

    def transform(self, X, weighted: bool = True) -> np.ndarray:
        """Non-negative coefficients (n, r) of X (n, d) with the learned basis fixed: the
        method's own reweighted problem with its scale parameters frozen (``weighted=True``), or
        unweighted NNLS (``weighted=False``); see :meth:`NMFState.transform` (stopping rule:
        relative change of the coefficients below 1e-6, at most 200 rounds). On the training
        data it reproduces ``coefficients_``."""
        check_is_fitted(self, "state_")
        X = self._validate(X, reset=False, min_samples=1, min_features=1)
        check_nonnegative(X)
        return self.state_.transform(X, weighted)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True       # NMF needs X >= 0 (refused with DataError)
        return tags

    def inverse_transform(self, H) -> np.ndarray:
        """``H @ components_`` (n, d) for coefficients H (n, r)."""
        return self._check_coordinates(H, self.components_) @ self.components_


def _abs_and_sq(E: np.ndarray, get) -> np.ndarray:
    E2 = get("E2", E.shape)
    np.multiply(E, E, out=E2)
    return E2


def _entry_eval(Q: np.ndarray, objective: float, scalars: dict, details: dict | None = None,
                **extra) -> _Eval:
    sw, raw = _mean_weights(Q)
    det = {"mean weight": raw}
    det.update(details or {})
    return _Eval(objective=objective, entry_weights=Q, sample_weights=sw, scalars=scalars,
                 details=det, **extra)


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


# ============================================================================= TC-NMF
_TC_REFERENCE = ("Guan, Liu, Zhang, Tao & Davis, Truncated Cauchy NMF, IEEE TPAMI 41(1) 2019 "
                 "(paper 003): eqs. (1)–(2), Theorem 2, Algorithms 1–2, Nagy eq. (18), §3.5")


@register(
    key="tc-nmf", name="Truncated Cauchy NMF", family="NMF", reference=_TC_REFERENCE,
    summary="NMF with the truncated Cauchy loss: HQ weights 1/(1+(E/γ)²), exactly 0 on errors "
            "beyond the three-sigma threshold; γ by Nagy's algorithm; Nesterov weighted NLS.",
    params=[N_COMPONENTS, GAMMA_MODE, GAMMA, TRUNCATION, SIGMA, TAU_FLOOR, FREEZE, REFRESH,
            NMF_MAX_ITER, TC_TOL, *INNER],
)
class TruncatedCauchyNMF(_NMFBase):
    """Truncated Cauchy NMF (paper 003), one HQ outer iteration (Algorithm 2) per ``step``.

    Model (eq. 2; X ≈ H W in our orientation, see the module docstring)::

        min_{H>=0, W>=0} ½ Σ_ij g(((X − HW)_ij/γ)²),   g(u) = ln(1+u) (u <= σ), ln(1+σ) (u > σ)

    i.e. the Cauchy loss truncated at |E| = τ = γ√σ (eq. 1). HQ (Theorem 2, eqs. 12–14) turns each
    iteration into two weighted NLS problems with weights::

        Q_ij = 1 / (1 + (E_ij/γ)²)   if |E_ij| <= τ,    0 otherwise          (E = X − HW)

    Each iteration, from the state's Q (computed from its own residual):

    1. coefficient step ``min_{H>=0} ½ Σ Q (X − HW)²`` (paper's H-step, Algorithm 2 lines 5–6);
    2. if ``refresh_weights`` (default, Algorithm 2 line 7): Q recomputed from X − H_new W with
       the *same* γ and τ (the paper does not say whether outliers are re-detected there; keeping
       γ and τ makes it an exact HQ weight update, so the iteration stays a majorise–minimise step
       of (2) when γ and τ are frozen). The authors' code does not refresh: one Q serves both
       steps, exactly as eqs. (12)–(14); ``refresh_weights=False`` gives that;
    3. basis step ``min_{W>=0} ½ Σ Q (X − HW)²`` (lines 8–9), then unit-norm basis rows;
    4. from the new residual: γ (``gamma_mode``: ``"nagy"`` = Nagy's estimate, :func:`nagy_scale`,
       warm-started at the previous γ, from all residuals except exact fits; ``"fixed"`` =
       ``gamma``, grey levels), τ (``truncation``: ``"three-sigma"`` = paper §3.5,
       :func:`three_sigma_threshold`; ``"off"`` = no truncation, Cauchy NMF; ``"fixed"`` = γ√σ with
       ``sigma`` the paper's dimensionless truncation parameter of eq. (2)), and the next Q. The
       γ update comes after the W-step, as in the authors' code (the paper's line 3 updates γ
       after computing Q, §3.3(a)).

    Threshold floor ``tau_floor`` = c (ours; default 3): τ = max(three-sigma τ, c·γ). Paper and
    authors' code: c = 0. Measured on the 100 built-in faces, r = 10, seed 0 (relative error
    against the clean faces, share of entries truncated): clean 37.8 % / 49 % (c = 0) against
    32.6 % / 25 % (c = 3); Laplace δ = 40: 42.3 % / 48 % against 33.5 % / 19 %; one 10 × 10
    block of 550 per face: 35.7 % / 49 % against 29.1 % / 28 % (plain NMF: 21.5 %, 26.2 %,
    123 %). The global three-sigma rule re-estimated every iteration lets the fit specialise on the
    entries it keeps: the residuals turn bimodal and τ falls below γ, so the paper's default
    truncates half of the data even without outliers (the authors' MATLAB code does the same);
    the floor keeps the weight of an entry at least 1/(1 + c²) before truncating it. The floor
    does not make TC-NMF beat plain NMF on clean or Laplace-noised faces; it wins on extreme
    outliers (the 550 blocks). Trade-off measured against it: clustering 300 built-in digits
    with one 9 × 9 block of 550 each (K-means on the coefficients, 5 seeds), the paper's rule
    gives ACC 31.9 % and any floor ~22 % (c = 1.5, 2, 3: 22.3, 21.1, 22.1 %; NMF 18.3 %): for
    clustering under extreme outliers set ``tau_floor=0``. Burn-in ``freeze_after`` (ours;
    default 100; paper and code: 0 = never): from that iteration on γ and τ keep their last
    values, so each iteration is a majorise–minimise step of (2) (claim 3) and rule (16) is met;
    before it, γ jumped between ~3 and ~40 every iteration on 300 built-in digits and the rule
    was not met in 500. Range rule (ours, as CIM-NMF's): an entry fitted above max(X) gets
    weight 1, not 0: it is a model error, not a corrupted observation. Without it TC-NMF
    diverged on 300 built-in digits (max(HW) 1461 at iteration 7, c = 0). ``refresh_weights``
    (paper: on, code: off) changed the errors by < 1 point in these runs. ``truncation="local"``
    (the authors' code's per-pixel rule 'tlv'; the paper states the global one): clean /
    Laplace / block faces 35.2 / 40.9 / 32.5 % (c = 0) and 30.3 / 33.5 / 29.1 % (c = 3), digit
    clustering with blocks ~24 % (global, c = 0: 32 %); ``details["τ per pixel"]`` holds the
    thresholds, ``scalars["τ"]`` their median.

    Solver: ``"nesterov"`` (default) = the shared OGM weighted NLS (Algorithm 1, batched, see
    :mod:`core.methods._wnls`), at most ``inner_max_iter`` iterations per factor; ``"mu"`` = one
    weighted multiplicative update per factor (the code's 'MUR').

    Objective: eq. (2) at the iterate's own γ and τ (dimensionless). With ``gamma_mode="fixed"``
    and ``truncation`` ``"fixed"`` or ``"off"`` it never increases (claim 3); with γ and τ
    re-estimated it may rise slightly (the paper claims no monotonicity).

    State: see the module docstring; ``entry_weights`` = Q (exactly 0 on truncated entries);
    ``details["truncated"]`` = the bool mask |E| > τ; scalars ``γ`` (grey levels), ``τ`` (grey
    levels), ``σ`` = (τ/γ)², ``truncated fraction`` (these three omitted when truncation is off:
    never NaN), ``k_H``, ``k_W`` (inner iterations of the step
    that produced the state).

    Parameters: n_components (r), gamma_mode, gamma (> 0), truncation, sigma (> 0),
    refresh_weights, max_iter, tol, solver, inner_max_iter, random_state. X: (n_samples,
    n_features), non-negative, grey levels 0–255 (Nagy makes the method scale-free; a fixed γ is
    in the units of X).

    Raises DataError (negative, all-zero or non-finite X), ParameterError (bad parameter, named),
    SolverError (NaN met).
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, gamma_mode: str = "nagy", gamma: float = 10.0,
                 truncation: str = "three-sigma", sigma: float = 9.0, tau_floor: float = 3.0,
                 freeze_after: int = 100, refresh_weights: bool = True,
                 max_iter: int = 500, tol: float = 1e-4, solver: str = "nesterov",
                 inner_max_iter: int = 30, random_state: int = 0):
        super().__init__(n_components=n_components, max_iter=max_iter, tol=tol, solver=solver,
                         inner_max_iter=inner_max_iter, random_state=random_state)
        self.gamma_mode = gamma_mode
        self.gamma = gamma
        self.truncation = truncation
        self.sigma = sigma
        self.tau_floor = tau_floor
        self.freeze_after = freeze_after
        self.refresh_weights = refresh_weights

    def _truncation(self) -> str:
        return getattr(self, "truncation", "off")

    def _gamma_tau(self, ctx: _Ctx, E2: np.ndarray, prev: NMFState | None) -> tuple[float, float]:
        burn = int(getattr(self, "freeze_after", 0))
        if prev is not None and burn > 0 and prev.iteration >= burn:     # frozen after burn-in
            return float(prev.scalars["γ"]), self._state_tau(prev)
        a = None
        if self.gamma_mode == "fixed":
            gamma = float(self.gamma)
        else:
            a = _nonzero_sq(E2, ctx.zero)
            g0 = None if prev is None else float(prev.scalars["γ"])
            gamma = max(nagy_scale(a, g0), GAMMA_MIN * (ctx.xmax - ctx.xmin))
        mode = self._truncation()
        if mode == "off":
            tau = np.inf
        elif mode == "fixed":
            tau = gamma * np.sqrt(float(self.sigma))
        elif mode == "local":
            tau = np.maximum(_three_sigma_columns(E2), float(getattr(self, "tau_floor", 0.0)) * gamma)
        else:
            a = _nonzero_sq(E2, ctx.zero) if a is None else a
            tau = max(_three_sigma_sq(a), float(getattr(self, "tau_floor", 0.0)) * gamma)
        return gamma, tau

    @staticmethod
    def _weights_into(Q: np.ndarray, E2: np.ndarray, gamma: float, tau: float):
        """Q ← γ²/(γ² + E²) (in place); returns the truncation mask (or None)."""
        x = gamma * gamma
        np.add(E2, x, out=Q)
        np.divide(x, Q, out=Q)
        if np.all(np.isfinite(tau)):
            mask = E2 > np.square(tau)
            np.multiply(Q, ~mask, out=Q)      # 15× faster than Q[mask] = 0 (a branchy scatter)
            return mask
        return None

    def _evaluate(self, ctx, P, E, prev, get):
        E2 = _abs_and_sq(E, get)
        gamma, tau = self._gamma_tau(ctx, E2, prev)
        Q = np.empty_like(E2)
        x = gamma * gamma
        np.add(E2, x, out=Q)
        np.divide(x, Q, out=Q)                                # untruncated weights
        L = get("log", E2.shape)
        np.log(Q, out=L)                                      # −ln(1 + (E/γ)²)
        finite = bool(np.all(np.isfinite(tau)))             # τ: float, or (d,) when local
        sigma = (np.asarray(tau) / gamma) ** 2 if finite else np.inf
        if finite:
            np.maximum(L, -np.log1p(sigma), out=L)            # g(u) = min(ln(1+u), ln(1+σ))
        objective = -0.5 * float(L.sum())
        if finite:
            mask = E2 > np.square(tau)
            np.multiply(Q, ~mask, out=Q)                      # Q = 0 on the truncated entries
        else:
            mask = np.zeros(E2.shape, dtype=bool)
        above = P > ctx.xmax                                  # range rule (class docstring)
        if above.any():
            Q[above] = 1.0
            mask &= ~above
        frac = float(np.count_nonzero(mask)) / mask.size
        scalars = {"γ": gamma}
        details = {"truncated": mask}
        if finite:                         # Cauchy NMF (no truncation): no τ, σ (never NaN)
            t = float(np.median(tau))      # local: the median of the per-pixel thresholds
            scalars.update({"τ": t, "σ": (t / gamma) ** 2, "truncated fraction": frac})
            if np.ndim(tau):
                details["τ per pixel"] = np.asarray(tau)
        mask.flags.writeable = False
        return _entry_eval(Q, objective, scalars, details)

    @staticmethod
    def _state_tau(state) -> float | np.ndarray:
        tau = state.details.get("τ per pixel")
        return tau if tau is not None else float(state.scalars.get("τ", np.inf))

    def _reweigher(self, ctx, ev):
        tau = ev.details.get("τ per pixel")
        return _Reweigh("cauchy", gamma=float(ev.scalars["γ"]), xmax=ctx.xmax,
                        tau=tau if tau is not None else float(ev.scalars.get("τ", np.inf)))

    def _refresh(self, ctx, E, state, get):
        if not self.refresh_weights:
            return None
        gamma = float(state.scalars["γ"])
        tau = self._state_tau(state)
        E2 = _abs_and_sq(E, get)
        Q = get("Q_refresh", E2.shape)
        self._weights_into(Q, E2, gamma, tau)
        Q[ctx.X - E > ctx.xmax] = 1.0                     # range rule
        return Q


@register(
    key="cauchy-nmf", name="Cauchy NMF", family="NMF",
    reference=_TC_REFERENCE + " — its σ = ∞ special case (Table IV baseline)",
    summary="NMF with the Cauchy loss ln(1+(E/γ)²): HQ weights 1/(1+(E/γ)²), never 0; γ by "
            "Nagy's algorithm; the same HQ + Nesterov solver as Truncated Cauchy NMF.",
    params=[N_COMPONENTS, GAMMA_MODE, GAMMA, FREEZE, REFRESH, NMF_MAX_ITER, TC_TOL, *INNER],
)
class CauchyNMF(TruncatedCauchyNMF):
    """Cauchy NMF (paper 003 §3.7): :class:`TruncatedCauchyNMF` with σ = +∞ (no truncation), the
    baseline of Table IV that shows that truncation, not the Cauchy kernel, handles the extreme
    outliers (claim 8). Objective: the Cauchy loss ½ Σ ln(1 + (E/γ)²) at the iterate's γ.
    Weights Q = 1/(1 + (E/γ)²) ∈ (0, 1], never 0. Same loop, solver and state as
    :class:`TruncatedCauchyNMF`, without the scalars ``τ``, ``σ`` and ``truncated fraction``
    (no truncation; they used to be shown as NaN).

    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, gamma_mode: str = "nagy", gamma: float = 10.0,
                 freeze_after: int = 100, refresh_weights: bool = True, max_iter: int = 500,
                 tol: float = 1e-4, solver: str = "nesterov", inner_max_iter: int = 30,
                 random_state: int = 0):
        super().__init__(n_components=n_components, gamma_mode=gamma_mode, gamma=gamma,
                         truncation="off", freeze_after=freeze_after,
                         refresh_weights=refresh_weights, max_iter=max_iter,
                         tol=tol, solver=solver, inner_max_iter=inner_max_iter,
                         random_state=random_state)
        del self.truncation, self.sigma, self.tau_floor   # not parameters of this method

    def _truncation(self) -> str:
        return "off"


# ============================================================================= Frobenius NMF
@register(
    key="nmf", name="NMF", family="NMF",
    reference="Lee & Seung, NIPS 2001 (multiplicative updates); Guan et al., IEEE TSP 2012 (NeNMF), "
              "the L2-NMF baseline of paper 003 §5.5",
    summary="Standard NMF, min ‖X − HW‖²_F: one Lee–Seung multiplicative update or one Nesterov "
            "NLS solve per factor and step. Every entry weighs the same.",
    params=[*COMMON, *INNER],
)
class NMF(_NMFBase):
    """Frobenius NMF, ``min_{H,W>=0} ½‖X − HW‖²_F`` (objective in grey levels², with ½).

    ``solver="nesterov"`` (default; paper 003's L2-NMF is NeNMF): each factor solved by the
    shared OGM solver with unit weights (Algorithm 1 with Q ≡ 1, Gram form, exact L = λ_max(WWᵀ)),
    at most ``inner_max_iter`` iterations. ``solver="mu"``: one Lee–Seung multiplicative update
    per factor, ``H ← H ∘ (XWᵀ)/(HWWᵀ)``, ``W ← W ∘ (HᵀX)/(HᵀHW)`` (0/0 guard: keep the value).

    State: no weights (``entry_weights`` and ``sample_weights`` None); scalars ``k_H``, ``k_W``.
    Parameters: n_components, max_iter, tol, solver, inner_max_iter, random_state.
    X: (n_samples, n_features), non-negative (grey levels). Raises as the other NMF methods.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        return _Eval(objective=0.5 * float(np.einsum("ij,ij->", E, E)))


# ============================================================================= L1-NMF
@register(
    key="l1-nmf", name="L1-NMF", family="NMF",
    reference="Lam 2008 / MahNMF (Guan et al. 2013), the L1-NMF baseline of paper 003 §5.5 and Table I",
    summary="min ‖X − HW‖₁ by reweighting: weights μ/max(|E|, μ) (a smoothed |E|), μ halved every "
            "iteration; Nesterov weighted NLS.",
    params=[N_COMPONENTS, NMF_MAX_ITER, L1_TOL, *INNER],
)
class L1NMF(_NMFBase):
    """L1-NMF, ``min_{H,W>=0} ‖X − HW‖₁``, by HQ / iteratively reweighted least squares on the
    smoothed loss ψ_μ(x) = x²/(2μ) (|x| <= μ), |x| − μ/2 (beyond) (MahNMF's Nesterov smoothing;
    extraction §5.5: 'IRLS/HQ with Q = 1/max(|E|, μ) and a decreasing μ').

    Weights (Table I, 1/|E|, smoothed and scaled to max 1): ``Q = μ / max(|E|, μ)`` ∈ (0, 1].
    Schedule: μ₀ = median |E₀| of the initial residual, then ``μ_t = max(μ₀/2^t, 10⁻³ μ₀)``
    (:data:`L1_MU_DECAY`, :data:`L1_MU_MIN`; the floor bounds the weights' dynamic range).
    Each step: the HQ loop of the module docstring with the state's Q (no refresh).

    Solver: shared OGM weighted NLS (``"nesterov"``, default) or one weighted multiplicative
    update (``"mu"``). Objective: the smoothed loss Σ ψ_μ(E) at the iterate's μ (grey levels),
    which each step decreases at fixed μ (so, once μ reaches its floor after ~10 iterations, the
    curve is monotone and rule (16) can be met); ψ_μ <= |x| <= ψ_μ + μ/2. The ℓ1 objective
    ‖X − HW‖₁ itself is ``scalars["ℓ1"]`` (it wobbled by up to nd·μ/2, so with it as the
    objective rule (16) at tol 1e-5 was not met in 500 iterations on the faces).
    State: entry_weights Q; sample_weights = mean Q / max; scalars ``μ`` (grey levels), ``ℓ1``,
    ``k_H``, ``k_W``.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, max_iter: int = 500, tol: float = 1e-4,
                 solver: str = "nesterov", inner_max_iter: int = 30, random_state: int = 0):
        super().__init__(n_components=n_components, max_iter=max_iter, tol=tol, solver=solver,
                         inner_max_iter=inner_max_iter, random_state=random_state)

    def _evaluate(self, ctx, P, E, prev, get):
        A = np.abs(E)
        if prev is None:
            nz = A[A > ctx.zero]
            mu = float(np.median(nz)) if nz.size else 1.0
            mu0 = mu
        else:
            mu0 = float(prev.details["μ₀"])
            mu = max(float(prev.scalars["μ"]) * L1_MU_DECAY, L1_MU_MIN * mu0)
        l1 = float(A.sum())
        small = A <= mu
        objective = float(np.sum(np.where(small, A * A / (2.0 * mu), A - 0.5 * mu)))
        np.maximum(A, mu, out=A)
        Q = np.divide(mu, A, out=A)
        return _entry_eval(Q, objective, {"μ": mu, "ℓ1": l1}, {"μ₀": mu0})

    def _reweigher(self, ctx, ev):
        return _Reweigh("ratio", s=float(ev.scalars["μ"]))


# ============================================================================= Huber-NMF
@register(
    key="huber-nmf", name="Huber-NMF", family="NMF",
    reference="Du, Li & Shen, ICDM 2012 (Huber loss), baseline of paper 003 §5.5 and Table I",
    summary="Huber loss with c = median |E|: weight 1 for |E| <= c, c/|E| beyond; Nesterov weighted NLS.",
    params=[*COMMON, *INNER],
)
class HuberNMF(_NMFBase):
    """Huber-NMF, ``min Σ l(E_ij, c)`` with ``l(x, c) = x²`` (|x| <= c), ``2c|x| − c²`` beyond, and
    ``c = median |E_ij|`` re-estimated from every iterate (paper 003 §4.7 / §5.5).

    HQ weights (Table I, scaled to max 1): ``Q = 1`` where |E| <= c, ``c/|E|`` beyond. Each step:
    the HQ loop of the module docstring with the state's Q. Guard: exact fits (|E| <= 1e-9 ×
    max X) are left out of the median, so c > 0 unless every residual is 0 (then Q = 1).

    Solver: shared OGM weighted NLS (``"nesterov"``, default) or one weighted multiplicative
    update (``"mu"``, Du et al.'s rule). Objective: Σ l(E, c) with the iterate's own c (grey
    levels²). State: entry_weights Q, sample_weights mean Q / max, scalars ``c``, ``k_H``, ``k_W``.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        A = np.abs(E)
        nz = A[A > ctx.zero] if ctx.zero > 0 else A
        c = float(np.median(nz)) if nz.size else 0.0
        if c <= 0:
            Q = np.ones_like(A)
            return _entry_eval(Q, float(np.einsum("ij,ij->", E, E)), {"c": c})
        objective = float(np.sum(np.where(A <= c, A * A, 2.0 * c * A - c * c)))
        np.maximum(A, c, out=A)
        Q = np.divide(c, A, out=A)
        return _entry_eval(Q, objective, {"c": c})

    def _reweigher(self, ctx, ev):
        c = float(ev.scalars["c"])
        return _Reweigh("ratio", s=c) if c > 0 else None


# ============================================================================= CIM-NMF
@register(
    key="cim-nmf", name="CIM-NMF", family="NMF",
    reference="Du, Li & Shen, ICDM 2012 (correntropy induced metric), baseline of paper 003 §5.5 and Table I",
    summary="Correntropy: Gaussian weights exp(−E²/2δ²) with δ² = ‖E‖²/(2nd) re-estimated; Nesterov weighted NLS.",
    params=[*COMMON, *INNER],
)
class CIMNMF(_NMFBase):
    """CIM-NMF, ``min Σ_ij (1 − exp(−E_ij²/(2δ²)))`` (the correntropy induced metric with the kernel
    scaled to 1 at 0; paper 003 Table I writes it with the Gaussian's 1/(√(2π)δ), which only
    rescales it at fixed δ), with the adaptive width ``δ² = ‖E‖²_F / (2nd)`` re-estimated from
    every iterate (Du et al.; extraction §5.5).

    HQ weights (Table I, corrected: (1/(√(2π)δ³))·e^{−E²/2δ²}, scaled to max 1):
    ``Q = exp(−E²/(2δ²))`` ∈ (0, 1] (exponentially decaying, underflows to exactly 0 for errors
    beyond ~39δ). Each step: the HQ loop of the module docstring. Guard: δ² floored at the
    smallest positive float (a perfect fit gives Q = 1).

    Range rule (ours, a correction): an entry whose fitted value lies above the data's maximum
    gets weight 1 instead of the Gaussian weight. Such an entry is not a corrupted observation
    (no data value lies there) but a model error. Without the rule the fit diverged: on the 100
    built-in faces with 10 % salt & pepper, r = 20, the Nesterov solver drove max(HW) from 385 at
    iteration 20 to 1037 at 200 (seed 1: 549 → 4771, relative error against the clean faces
    24 % → 54 %; clean faces, r = 10: 1846) while Σ(1 − Q) fell: overshooting entries get
    weight exp(−E²/2δ²) = 0 and nothing holds them, so a few components specialise on single
    faces. A weight floor of 0.01 (or 0.05) only slowed the drift (max 755 / 400 at 200), and a
    twice wider δ did not stop it; the range rule keeps max(HW) at ~275 with the error falling
    (23.3 % → 22.8 %). Du et al.'s own solver (``solver="mu"``) drifts too slowly to show it.
    ``scalars["above range"]`` is the share of entries the rule touched.

    Solver: shared OGM weighted NLS (``"nesterov"``, default) or one weighted multiplicative
    update (``"mu"``, Du et al.'s rule). Objective: Σ(1 − exp(−E²/(2δ²))) at the iterate's δ
    (dimensionless, in [0, nd]; the range rule does not change it). State: entry_weights Q,
    sample_weights, scalars ``δ`` (grey levels), ``above range``, ``k_H``, ``k_W``.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        E2 = _abs_and_sq(E, get)
        delta2 = max(float(E2.sum()) / (2.0 * E2.size), np.finfo(float).tiny)
        Q = np.multiply(E2, -0.5 / delta2)
        np.exp(Q, out=Q)
        objective = float(Q.size - Q.sum())
        above = P > ctx.xmax
        n_above = int(np.count_nonzero(above))
        if n_above:
            Q[above] = 1.0                                    # the range rule (class docstring)
        return _entry_eval(Q, objective, {"δ": float(np.sqrt(delta2)),
                                          "above range": n_above / Q.size})

    def _reweigher(self, ctx, ev):
        return _Reweigh("cim", delta2=float(ev.scalars["δ"]) ** 2, xmax=ctx.xmax)


# ============================================================================= L2,1-NMF
@register(
    key="l21-nmf", name="L2,1-NMF", family="NMF",
    reference="Kong, Ding & Huang, CIKM 2011 (robust NMF with the L2,1 norm), baseline of paper 003 §5.5 and Table I",
    summary="min Σ_i ‖x_i − h_iW‖₂: each sample weighted by 1/‖e_i‖; Nesterov weighted NLS or "
            "Kong et al.'s multiplicative rules.",
    params=[*COMMON, *INNER],
)
class L21NMF(_NMFBase):
    """L2,1-NMF, ``min_{H,W>=0} Σ_i ‖x_i − h_i W‖₂`` (the paper's column-wise ‖V − WH‖_{2,1}: our
    rows are its columns), by HQ with per-sample weights ``w_i = 1/‖e_i‖`` (Table I).

    Each step: coefficient step unweighted (a sample's weight scales its own sub-problem only, so
    it does not change its minimiser; Kong et al.'s H rule has the same cancellation), basis step
    with per-sample weights w (Q_ij = w_i). Guard: ‖e_i‖ is floored at 1e-12 × max_i ‖e_i‖ (all
    ones if every residual is 0), so an exactly fitted sample gets a large but finite weight.

    Solver: shared OGM weighted NLS in Gram form (``"nesterov"``, default) or Kong et al.'s
    multiplicative rules ``H ← H ∘ (XWᵀ)/(HWWᵀ)``, ``W ← W ∘ (HᵀDX)/(HᵀDHW)`` (``"mu"``,
    extraction §5.5 with D = diag(w)). Objective: Σ_i ‖e_i‖₂ (grey levels).
    State: ``entry_weights`` None; ``sample_weights`` = w / max(w) = min_k‖e_k‖ / ‖e_i‖ (floored
    like the others); ``details["residual norm"]`` = ‖e_i‖; scalars ``k_H``, ``k_W``.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        r = np.sqrt(np.einsum("ij,ij->i", E, E))
        top = float(r.max())
        if top > 0:
            w = 1.0 / np.maximum(r, 1e-12 * top)
            w /= w.max()
        else:
            w = np.ones_like(r)
        return _Eval(objective=float(r.sum()), sample_weights=np.maximum(w, SAMPLE_WEIGHT_FLOOR),
                     row_weights=w, details={"residual norm": r})


# ============================================================================= RNMF-L1
def _soft(T: np.ndarray, t: float) -> np.ndarray:
    return np.sign(T) * np.maximum(np.abs(T) - t, 0.0)


@register(
    key="rnmf-l1", name="RNMF-L1", family="NMF",
    reference="Zhang, Fang, Liu, Tang & Wu, ICDM workshops 2011 (robust NMF, sparse outliers), "
              "baseline of paper 003 §5.5 and Table I",
    summary="X ≈ HW + S with a sparse outlier matrix S: min ‖X − HW − S‖²_F + λ‖S‖₁; S by soft "
            "thresholding at λ/2, the factors by Nesterov NLS on X − S.",
    params=[N_COMPONENTS, LAMBDA, NMF_MAX_ITER, NMF_TOL, INNER_MAX_ITER, RANDOM_STATE],
)
class RNMFL1(_NMFBase):
    """RNMF-L1 (Zhang et al. 2011), ``min_{H,W>=0, S} ‖X − HW − S‖²_F + λ‖S‖₁``, by block
    coordinate descent, one sweep per ``step`` (extraction §5.5):

    1. coefficient step, then basis step: non-negative least squares on the target X − S
       (which may be negative: solved by the shared OGM solver, projected gradient, unit weights;
       Zhang et al. use multiplicative rules with positive and negative parts instead);
    2. ``S = soft(X − HW, λ/2)`` (the exact minimiser over S).

    Every block step is exact (S) or a descent step (OGM with its safeguard), so the objective
    never increases. λ (``lam``) is in grey levels: residuals with |E| > λ/2 go to S (the paper
    does not report its λ; the default 100 treats errors beyond 50 grey levels as outliers).

    Objective: ‖X − HW − S‖²_F + λ‖S‖₁ (grey levels²). State: ``sparse_part`` = S;
    ``fitted`` = HW (the low-rank part, without S); ``entry_weights`` = the effective weights of
    Table I, 1 − S/E = min(1, λ/(2|E|)) (1 where S = 0); sample_weights their mean / max; scalars
    ``sparse fraction`` (share of non-zero S), ``k_H``, ``k_W``. Solver: OGM only.
    Stopping rule: paper 003 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    solver = "nesterov"

    def __init__(self, n_components: int = 10, lam: float = 100.0, max_iter: int = 500,
                 tol: float = 1e-5, inner_max_iter: int = 30, random_state: int = 0):
        self.n_components = n_components
        self.lam = lam
        self.max_iter = max_iter
        self.tol = tol
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state

    def _target(self, ctx, state):
        return ctx.X - state.sparse_part

    def _hq_weights(self, state):
        return None, None                  # S enters through the target; unweighted steps

    def _evaluate(self, ctx, P, E, prev, get):
        half = 0.5 * float(self.lam)
        S = _soft(E, half)
        R = E - S
        objective = float(np.einsum("ij,ij->", R, R)) + float(self.lam) * float(np.abs(S).sum())
        A = np.abs(E)
        np.maximum(A, half, out=A)
        Q = np.divide(half, A, out=A)                        # 1 − S/E = min(1, λ/(2|E|))
        ev = _entry_eval(Q, objective, {"sparse fraction": float(np.count_nonzero(S)) / S.size},
                         sparse_part=S)
        return ev

    def _reweigher(self, ctx, ev):
        return _Reweigh("sparse", lam=float(self.lam))
