"""Truncated Cauchy NMF (Guan et al. 2019) and Cauchy NMF, its σ = ∞ special case.

N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019 (arXiv:1906.00495). The shared HQ loop, the state and
the orientation (X ≈ H W, one sample per row) are described in :mod:`core.methods.nmf_base`;
the robust statistics (Nagy's γ, the three-sigma threshold) in :mod:`core.methods.nmf_weights`.
"""
from __future__ import annotations

import dataclasses

import numpy as np

from ..memory import fresh
from ..params import ParamSpec, register
from ._specs import N_COMPONENTS
from .nmf_base import (CODE_SOLVER, INNER_MAX_ITER, NMF_MAX_ITER, RANDOM_STATE, SOLVER, NMFBase,
                       NMFContext, NMFState, entry_evaluation)
from .nmf_weights import (Reweigh, three_sigma_columns, nagy_scale, row_blocks, three_sigma_sq,
                          weights_dtype)

__all__ = ["TruncatedCauchyNMF", "CauchyNMF", "AUTHORS_SETTINGS"]

#: Default γ floor: Nagy's γ is floored at GAMMA_MIN × (max X − min X) (ours): on 500 digits
#: with 550-valued blocks (mostly near-exact background residuals) Cauchy NMF's γ collapsed to
#: 0.009 grey levels, every weight fell to ~γ²/E², and the fit diverged (max HW 3452 at
#: iteration 311).
GAMMA_MIN = 0.01

GAMMA_MODE = ParamSpec(
    "gamma_mode", "γ estimate", "choice", "nagy",
    "Cauchy scale γ: re-estimated every iteration by Nagy's algorithm (Guan et al. 2019 eq. 18) or fixed",
    choices=("nagy", "fixed"))
GAMMA = ParamSpec(
    "gamma", "γ", "float", 10.0,
    "fixed Cauchy scale γ in grey levels (used when γ estimate is 'fixed'): weight ½ where |E| = γ",
    low=0.0, low_open=True, scale="log", slider=(0.1, 255.0))
TRUNCATION = ParamSpec(
    "truncation", "truncation", "choice", "three-sigma",
    "which errors get weight 0: global three-sigma rule on |E| (Guan et al. 2019 §3.5), per-pixel "
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
GAMMA_FLOOR = ParamSpec(
    "gamma_floor", "γ floor (×range)", "float", GAMMA_MIN,
    "Nagy's γ is at least this fraction of the data's range max X − min X (ours; 0 = the paper's "
    "and the authors' code's unfloored estimate, whose γ collapsed to 0.009 grey levels on "
    "digits with 550 blocks and let the fit diverge)",
    low=0.0, high=1.0, slider=(0.0, 0.1))
RANGE_RULE = ParamSpec(
    "range_rule", "range rule", "bool", True,
    "an entry fitted above the data's maximum gets weight 1 instead of a Cauchy weight or "
    "truncation: a model error, not a corrupted observation (ours; off = the paper and the "
    "authors' code; without it TC-NMF diverged on 300 built-in digits)")
TC_SOLVER = dataclasses.replace(
    SOLVER, choices=(*SOLVER.choices, CODE_SOLVER),
    doc=SOLVER.doc + "; or Algorithm 1 as the authors' public code runs it (nesterov-code: at "
    "least 20 inner iterations, exact Lipschitz constants, basis rows scaled to max 1)")
TC_INNER = [TC_SOLVER, INNER_MAX_ITER, RANDOM_STATE]
TC_TOL = ParamSpec(
    "tol", "tol", "float", 1e-4,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(Guan et al. 2019 rule 16; checked from iteration 10; the authors' code: 1e-4). Not 1e-5: after "
    "the burn-in TC-NMF's objective still fell by ~1e-4 of its range per iteration on the faces "
    "with 550 blocks, and 1e-5 was not met in 500 iterations",
    low=0.0, scale="log", slider=(1e-8, 1e-1))


#: The paper's and the authors' public code's settings (Guan et al. 2019; CauchyNMF.m with the
#: global three-sigma weighting 'tgv' and Nagy's γ): every rule of ours off (τ floor, burn-in
#: freeze, weight refresh, γ floor, range rule), the code's OGM and its outer tolerance. From the
#: same start the estimator then gives the code's iterates up to round-off (tested on faces;
#: on data with exactly fitted regions, e.g. digits' background, the code divides by zero where
#: every weight of a pixel is 0, and ours, which leaves exact fits out of γ and τ, does not follow).
AUTHORS_SETTINGS = dict(tau_floor=0.0, freeze_after=0, refresh_weights=False, gamma_floor=0.0,
                        range_rule=False, solver=CODE_SOLVER, inner_max_iter=500, tol=1e-4)
# ============================================================================= TC-NMF
_TC_REFERENCE = ("Guan, Liu, Zhang, Tao & Davis, Truncated Cauchy NMF, IEEE TPAMI 41(1) 2019 "
                 "(Guan et al. 2019): eqs. (1)–(2), Theorem 2, Algorithms 1–2, Nagy eq. (18), §3.5")


@register(
    objective_note="may rise: γ and truncation re-estimated (by design)",
    key="tc-nmf", name="Truncated Cauchy NMF", family="NMF", reference=_TC_REFERENCE,
    summary="NMF with the truncated Cauchy loss: HQ weights 1/(1+(E/γ)²), exactly 0 on errors "
            "beyond the three-sigma threshold; γ by Nagy's algorithm; Nesterov weighted NLS.",
    params=[N_COMPONENTS, GAMMA_MODE, GAMMA, TRUNCATION, SIGMA, TAU_FLOOR, FREEZE, REFRESH,
            GAMMA_FLOOR, RANGE_RULE, NMF_MAX_ITER, TC_TOL, *TC_INNER],
)
class TruncatedCauchyNMF(NMFBase):
    """Truncated Cauchy NMF (Guan et al. 2019), one HQ outer iteration (Algorithm 2) per ``step``.

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
    was not met in 500. Range rule ``range_rule`` (ours, as CIM-NMF's; default on): an entry
    fitted above max(X) gets weight 1, not 0: it is a model error, not a corrupted observation.
    Without it TC-NMF diverged on 300 built-in digits (max(HW) 1461 at iteration 7, c = 0). γ floor
    ``gamma_floor`` (ours; default 0.01): γ >= gamma_floor × (max X − min X) (see
    :data:`GAMMA_MIN`). The paper's method as published: :data:`AUTHORS_SETTINGS` (every rule of
    ours off, ``solver="nesterov-code"``); from the same start it gives the authors' public
    code's iterates up to round-off (on 100 faces with 8 × 8 blocks: HW within 1e-12 relative
    after 50 iterations; with only the range rule and the γ floor off, our own OGM drifts to
    0.7 % after 1 iteration and 8.7 % after 50 — the code's own iterates move by 5.8 % if only
    its basis scaling changes, so no looser reproduction is meaningful). ``refresh_weights``
    (paper: on, code: off) changed the errors by < 1 point in these runs. ``truncation="local"``
    (the authors' code's per-pixel rule 'tlv'; the paper states the global one): clean /
    Laplace / block faces 35.2 / 40.9 / 32.5 % (c = 0) and 30.3 / 33.5 / 29.1 % (c = 3), digit
    clustering with blocks ~24 % (global, c = 0: 32 %); ``details["τ per pixel"]`` holds the
    thresholds, ``scalars["τ"]`` their median.

    Solver: ``"nesterov"`` (default) = the shared OGM weighted NLS (Algorithm 1, batched, see
    :mod:`core.methods._wnls`), at most ``inner_max_iter`` iterations per factor; ``"mu"`` = one
    weighted multiplicative update per factor (the code's 'MUR'); ``"nesterov-code"`` = Algorithm 1
    as the authors' code runs it (at least 20 iterations, exact Lipschitz constants, the
    projected search point, basis rows scaled to max 1 inside the step; ``wnls(code=True)``).

    Objective: eq. (2) at the iterate's own γ and τ (dimensionless). With ``gamma_mode="fixed"``
    and ``truncation`` ``"fixed"`` or ``"off"`` it never increases (claim 3); with γ and τ
    re-estimated it may rise slightly (the paper claims no monotonicity).

    State: see the module docstring; ``entry_weights`` = Q (exactly 0 on truncated entries);
    ``details["truncated"]`` = the bool mask |E| > τ; scalars ``γ`` (grey levels), ``τ`` (grey
    levels), ``σ`` = (τ/γ)², ``truncated fraction`` (these three omitted when truncation is off:
    never NaN), ``k_H``, ``k_W`` (inner iterations of the step
    that produced the state).

    Parameters: n_components (r), gamma_mode, gamma (> 0), truncation, sigma (> 0), tau_floor,
    freeze_after, refresh_weights, gamma_floor (>= 0), range_rule, max_iter, tol, solver,
    inner_max_iter, random_state. X: (n_samples,
    n_features), non-negative, grey levels 0–255 (Nagy makes the method scale-free; a fixed γ is
    in the units of X).

    Raises DataError (negative, all-zero or non-finite X), ParameterError (bad parameter, named),
    SolverError (NaN met).
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, gamma_mode: str = "nagy", gamma: float = 10.0,
                 truncation: str = "three-sigma", sigma: float = 9.0, tau_floor: float = 3.0,
                 freeze_after: int = 100, refresh_weights: bool = True,
                 gamma_floor: float = GAMMA_MIN, range_rule: bool = True,
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
        self.gamma_floor = gamma_floor
        self.range_rule = range_rule

    def _xmax(self, ctx: NMFContext) -> float:
        """The range rule's bound: max X, or +inf when the rule is off (no entry is above it)."""
        return ctx.xmax if self.range_rule else np.inf

    def _truncation(self) -> str:
        """The truncation rule in use (:class:`CauchyNMF`, which has no such parameter: "off")."""
        return self.truncation

    def _gamma_tau(self, ctx: NMFContext, E2: np.ndarray, prev: NMFState | None) -> tuple[float, float]:
        burn = int(self.freeze_after)
        if prev is not None and burn > 0 and prev.iteration >= burn:     # frozen after burn-in
            return float(prev.scalars["γ"]), self._state_tau(prev)  # type: ignore[return-value]  # τ per pixel
        if self.gamma_mode == "fixed":
            gamma = float(self.gamma)
        else:
            g0 = None if prev is None else float(prev.scalars["γ"])
            gamma = max(nagy_scale(E2, g0, zero=ctx.zero),
                        float(self.gamma_floor) * (ctx.xmax - ctx.xmin))
        mode = self._truncation()
        if mode == "off":
            tau = np.inf
        elif mode == "fixed":
            tau = gamma * np.sqrt(float(self.sigma))
        elif mode == "local":
            tau = np.maximum(three_sigma_columns(E2), float(self.tau_floor) * gamma)
        else:
            tau = max(three_sigma_sq(E2, ctx.zero), float(self.tau_floor) * gamma)
        return gamma, tau

    @staticmethod
    def _weights_block(Q: np.ndarray, E2: np.ndarray, P: np.ndarray | None, gamma: float, tau,
                       xmax: float) -> None:
        """Q ← γ²/(γ² + E²), 0 where E² > τ², 1 where the fitted value P > xmax (the range rule;
        P None: not here); Q may be E2 itself (in place). τ: float or (d,) per pixel, +inf for
        no truncation."""
        x = gamma * gamma
        cut = E2 > np.square(tau) if np.all(np.isfinite(tau)) else None
        np.add(E2, x, out=Q)
        np.divide(x, Q, out=Q)
        if cut is not None:
            np.multiply(Q, ~cut, out=Q)        # 15× faster than Q[cut] = 0 (a branchy scatter)
        if P is not None:
            Q[P > xmax] = 1.0

    def _evaluate(self, ctx, P, E, prev, get):
        # E (a fresh array) becomes E² and then the weights Q in place; the objective and the
        # mask are formed block by block: no other temporary of the data's size
        E2 = np.multiply(E, E, out=E)
        gamma, tau = self._gamma_tau(ctx, E2, prev)
        x = gamma * gamma
        finite = bool(np.all(np.isfinite(tau)))             # τ: float, or (d,) when local
        sigma = (np.asarray(tau) / gamma) ** 2 if finite else np.inf
        cap = -np.log1p(sigma) if finite else None
        tau2 = np.square(tau) if finite else None
        mask = fresh(E2.shape, bool)
        total = 0.0
        for rows in row_blocks(*E2.shape):
            e2 = E2[rows]
            L = np.add(e2, x, dtype=np.float64)              # (float64 for float32 residuals)
            np.divide(x, L, out=L)
            np.log(L, out=L)                                  # −ln(1 + (E/γ)²)
            if finite:
                np.maximum(L, cap, out=L)                     # g(u) = min(ln(1+u), ln(1+σ))
            total += float(L.sum())
            if finite:
                np.greater(e2, tau2, out=mask[rows])
            self._weights_block(e2, e2, None, gamma, tau, ctx.xmax)   # Q
        objective = -0.5 * total
        Q = E2
        if self.range_rule:                                   # (class docstring)
            Q.reshape(-1)[P.above] = 1.0
            mask.reshape(-1)[P.above] = False
        frac = float(np.count_nonzero(mask)) / mask.size
        scalars = {"γ": gamma}
        details = {"truncated": mask}
        if finite:                         # Cauchy NMF (no truncation): no τ, σ (never NaN)
            t = float(np.median(tau))      # local: the median of the per-pixel thresholds
            scalars.update({"τ": t, "σ": (t / gamma) ** 2, "truncated fraction": frac})
            if np.ndim(tau):
                details["τ per pixel"] = np.asarray(tau)
        mask.flags.writeable = False
        return entry_evaluation(Q, objective, scalars, details)

    @staticmethod
    def _state_tau(state) -> float | np.ndarray:
        tau = state.details.get("τ per pixel")
        return tau if tau is not None else float(state.scalars.get("τ", np.inf))

    def _reweigher(self, ctx, ev):
        tau = ev.details.get("τ per pixel")
        return Reweigh("cauchy", gamma=float(ev.scalars["γ"]), xmax=self._xmax(ctx),
                        tau=tau if tau is not None else float(ev.scalars.get("τ", np.inf)))

    def _refresh(self, ctx, H, W, state, get):
        if not self.refresh_weights:
            return None
        gamma = float(state.scalars["γ"])
        tau = self._state_tau(state)
        X = ctx.X
        Q = fresh(X.shape, weights_dtype(X.size, X.dtype))
        for rows in row_blocks(*X.shape):               # Q from X − HW, one block of rows at a time
            P = H[rows] @ W
            E2 = np.subtract(X[rows], P)
            np.multiply(E2, E2, out=E2)
            self._weights_block(Q[rows], E2, P, gamma, tau, self._xmax(ctx))
        return Q


@register(
    objective_note="may rise: γ re-estimated each iteration (by design)",
    key="cauchy-nmf", name="Cauchy NMF", family="NMF",
    reference=_TC_REFERENCE + " — its σ = ∞ special case (Table IV baseline)",
    summary="NMF with the Cauchy loss ln(1+(E/γ)²): HQ weights 1/(1+(E/γ)²), never 0; γ by "
            "Nagy's algorithm; the same HQ + Nesterov solver as Truncated Cauchy NMF.",
    params=[N_COMPONENTS, GAMMA_MODE, GAMMA, FREEZE, REFRESH, GAMMA_FLOOR, RANGE_RULE,
            NMF_MAX_ITER, TC_TOL, *TC_INNER],
)
class CauchyNMF(TruncatedCauchyNMF):
    """Cauchy NMF (Guan et al. 2019 §3.7): :class:`TruncatedCauchyNMF` with σ = +∞ (no truncation), the
    baseline of Table IV that shows that truncation, not the Cauchy kernel, handles the extreme
    outliers (claim 8). Objective: the Cauchy loss ½ Σ ln(1 + (E/γ)²) at the iterate's γ.
    Weights Q = 1/(1 + (E/γ)²) ∈ (0, 1], never 0. Same loop, solver and state as
    :class:`TruncatedCauchyNMF`, without the scalars ``τ``, ``σ`` and ``truncated fraction``
    (no truncation; they used to be shown as NaN).

    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, gamma_mode: str = "nagy", gamma: float = 10.0,
                 freeze_after: int = 100, refresh_weights: bool = True,
                 gamma_floor: float = GAMMA_MIN, range_rule: bool = True, max_iter: int = 500,
                 tol: float = 1e-4, solver: str = "nesterov", inner_max_iter: int = 30,
                 random_state: int = 0):
        super().__init__(n_components=n_components, gamma_mode=gamma_mode, gamma=gamma,
                         truncation="off", freeze_after=freeze_after,
                         refresh_weights=refresh_weights, gamma_floor=gamma_floor,
                         range_rule=range_rule, max_iter=max_iter,
                         tol=tol, solver=solver, inner_max_iter=inner_max_iter,
                         random_state=random_state)
        del self.truncation, self.sigma, self.tau_floor   # not parameters of this method

    def _truncation(self) -> str:
        return "off"
