"""The robust NMF baselines of Guan et al. 2019 (§5.5, Table I): L1-NMF, Huber-NMF, CIM-NMF, L2,1-NMF
and RNMF-L1.

Each is a weight function of the residual plus the shared HQ loop of
:mod:`core.methods.nmf_base` (the papers of each method are cited in its class docstring;
Guan et al. 2019: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019).
"""
from __future__ import annotations

import numpy as np

from ..params import ParamSpec, register
from ..prox import soft_threshold
from ._specs import N_COMPONENTS
from .nmf_base import (COMMON, INNER, INNER_MAX_ITER, NMF_MAX_ITER, NMF_TOL, RANDOM_STATE,
                       SAMPLE_WEIGHT_FLOOR, Evaluation, NMFBase, entry_evaluation)
from .nmf_state import Deferred
from .nmf_weights import Reweigh, median_above, row_blocks

__all__ = ["L1NMF", "HuberNMF", "CIMNMF", "L21NMF", "RNMFL1"]

#: L1-NMF smoothing schedule: μ₀ = median |E₀|, μ_t = max(L1_MU_DECAY^t μ₀, L1_MU_MIN × μ₀).
L1_MU_DECAY = 0.5
L1_MU_MIN = 1e-3

LAMBDA = ParamSpec(
    "lam", "λ", "float", 100.0,
    "ℓ1 penalty on the outlier matrix S in grey levels: residuals beyond λ/2 go to S",
    low=0.0, low_open=True, scale="log", slider=(1.0, 1000.0))

L1_TOL = ParamSpec(
    "tol", "tol", "float", 1e-4,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(Guan et al. 2019 rule 16; checked from iteration 10). 1e-4 for L1-NMF: its reweighted least "
    "squares still gained 4e-5 of the total progress per iteration after 300 iterations on the "
    "faces, so 1e-5 was not met within 500",
    low=0.0, scale="log", slider=(1e-8, 1e-1))


# ============================================================================= L1-NMF
@register(
    key="l1-nmf", name="L1-NMF", family="NMF",
    reference="Lam 2008 / MahNMF (Guan et al. 2013), the L1-NMF baseline of Guan et al. 2019 §5.5 and Table I",
    summary="min ‖X − HW‖₁ by reweighting: weights μ/max(|E|, μ) (a smoothed |E|), μ halved every "
            "iteration; Nesterov weighted NLS.",
    params=[N_COMPONENTS, NMF_MAX_ITER, L1_TOL, *INNER],
)
class L1NMF(NMFBase):
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
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-4, see the ``tol`` parameter, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def __init__(self, n_components: int = 10, max_iter: int = 500, tol: float = 1e-4,
                 solver: str = "nesterov", inner_max_iter: int = 30, random_state: int = 0):
        super().__init__(n_components=n_components, max_iter=max_iter, tol=tol, solver=solver,
                         inner_max_iter=inner_max_iter, random_state=random_state)

    def _evaluate(self, ctx, P, E, prev, get):
        A = np.abs(E, out=E)                                  # E becomes |E| and then Q
        if prev is None:
            mu = median_above(A, ctx.zero)
            mu = 1.0 if mu is None else mu
            mu0 = mu
        else:
            mu0 = float(prev.details["μ₀"])
            mu = max(float(prev.scalars["μ"]) * L1_MU_DECAY, L1_MU_MIN * mu0)
        l1 = float(A.sum(dtype=np.float64))
        objective = 0.0
        for rows in row_blocks(*A.shape):
            a = np.asarray(A[rows], dtype=np.float64)
            objective += float(np.sum(np.where(a <= mu, a * a / (2.0 * mu), a - 0.5 * mu)))
        np.maximum(A, mu, out=A)
        Q = np.divide(mu, A, out=A)
        return entry_evaluation(Q, objective, {"μ": mu, "ℓ1": l1}, {"μ₀": mu0})

    def _reweigher(self, ctx, ev):
        return Reweigh("ratio", s=float(ev.scalars["μ"]))


# ============================================================================= Huber-NMF
@register(
    key="huber-nmf", name="Huber-NMF", family="NMF",
    reference="Du, Li & Shen, ICDM 2012 (Huber loss), baseline of Guan et al. 2019 §5.5 and Table I",
    summary="Huber loss with c = median |E|: weight 1 for |E| <= c, c/|E| beyond; Nesterov weighted NLS.",
    params=[*COMMON, *INNER],
)
class HuberNMF(NMFBase):
    """Huber-NMF, ``min Σ l(E_ij, c)`` with ``l(x, c) = x²`` (|x| <= c), ``2c|x| − c²`` beyond, and
    ``c = median |E_ij|`` re-estimated from every iterate (Guan et al. 2019 §4.7 / §5.5).

    HQ weights (Table I, scaled to max 1): ``Q = 1`` where |E| <= c, ``c/|E|`` beyond. Each step:
    the HQ loop of the module docstring with the state's Q. Guard: exact fits (|E| <= 1e-9 ×
    max X) are left out of the median, so c > 0 unless every residual is 0 (then Q = 1).

    Solver: shared OGM weighted NLS (``"nesterov"``, default) or one weighted multiplicative
    update (``"mu"``, Du et al.'s rule). Objective: Σ l(E, c) with the iterate's own c (grey
    levels²). State: entry_weights Q, sample_weights mean Q / max, scalars ``c``, ``k_H``, ``k_W``.
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        A = np.abs(E, out=E)                                  # E becomes |E| and then Q
        c = median_above(A, ctx.zero) or 0.0                 # median by selection, no sort
        if c <= 0:
            objective = float(np.einsum("ij,ij->", A, A, dtype=np.float64))
            A.fill(1.0)
            return entry_evaluation(A, objective, {"c": c})
        objective = 0.0
        for rows in row_blocks(*A.shape):
            a = np.asarray(A[rows], dtype=np.float64)
            objective += float(np.sum(np.where(a <= c, a * a, 2.0 * c * a - c * c)))
        np.maximum(A, c, out=A)
        Q = np.divide(c, A, out=A)
        return entry_evaluation(Q, objective, {"c": c})

    def _reweigher(self, ctx, ev):
        c = float(ev.scalars["c"])
        return Reweigh("ratio", s=c) if c > 0 else None


# ============================================================================= CIM-NMF
@register(
    key="cim-nmf", name="CIM-NMF", family="NMF",
    reference="Du, Li & Shen, ICDM 2012 (correntropy induced metric), baseline of Guan et al. 2019 §5.5 and Table I",
    summary="Correntropy: Gaussian weights exp(−E²/2δ²) with δ² = ‖E‖²/(2nd) re-estimated; Nesterov weighted NLS.",
    params=[*COMMON, *INNER],
)
class CIMNMF(NMFBase):
    """CIM-NMF, ``min Σ_ij (1 − exp(−E_ij²/(2δ²)))`` (the correntropy induced metric with the kernel
    scaled to 1 at 0; Guan et al. 2019 Table I writes it with the Gaussian's 1/(√(2π)δ), which only
    rescales it at fixed δ), with the adaptive width ``δ² = ‖E‖²_F / (2nd)`` re-estimated from
    every iterate (Du et al.; extraction §5.5).

    HQ weights (Table I, corrected: (1/(√(2π)δ³))·e^{−E²/2δ²}, scaled to max 1):
    ``Q = exp(−E²/(2δ²))`` ∈ (0, 1] (exponentially decaying, underflows to exactly 0 for errors
    beyond ~39δ; ~13δ for the float32 weights of data above ``nmf_weights.WEIGHTS32_MIN`` entries). Each step: the HQ loop of the module docstring. Guard: δ² floored at the
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
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    def _evaluate(self, ctx, P, E, prev, get):
        E2 = np.multiply(E, E, out=E)                       # E becomes E² and then Q
        delta2 = max(float(E2.sum(dtype=np.float64)) / (2.0 * E2.size), np.finfo(float).tiny)
        Q = np.multiply(E2, -0.5 / delta2, out=E2)
        np.exp(Q, out=Q)
        objective = float(Q.size - Q.sum(dtype=np.float64))
        Q.reshape(-1)[P.above] = 1.0                          # the range rule (class docstring)
        n_above = int(P.above.size)
        return entry_evaluation(Q, objective, {"δ": float(np.sqrt(delta2)),
                                          "above range": n_above / Q.size})

    def _reweigher(self, ctx, ev):
        return Reweigh("cim", delta2=float(ev.scalars["δ"]) ** 2, xmax=ctx.xmax)


# ============================================================================= L2,1-NMF
@register(
    key="l21-nmf", name="L2,1-NMF", family="NMF",
    reference="Kong, Ding & Huang, CIKM 2011 (robust NMF with the L2,1 norm), baseline of Guan et al. 2019 §5.5 and Table I",
    summary="min Σ_i ‖x_i − h_iW‖₂: each sample weighted by 1/‖e_i‖; Nesterov weighted NLS or "
            "Kong et al.'s multiplicative rules.",
    params=[*COMMON, *INNER],
)
class L21NMF(NMFBase):
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
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
    above, checked from iteration 10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see
    :class:`NMFState`.
    """

    _keeps_weights = False                  # per-sample weights only: no residual of the data's size

    def _residual(self, ctx, H, W, out=None):
        """The residuals' row norms ‖e_i‖ (n,) in place of E (all this method needs of it), by blocks
        of rows into each block's product (no array of the data's size); (r, max HW, P)."""
        X = ctx.X
        sq = np.empty(X.shape[0], dtype=X.dtype)

        def into(rows: slice, Pb: np.ndarray) -> None:
            np.subtract(X[rows], Pb, out=Pb)
            np.einsum("ij,ij->i", Pb, Pb, out=sq[rows])

        top, P = self._residual_rows(ctx, H, W, into)
        return np.sqrt(sq), top, P

    def _evaluate(self, ctx, P, E, prev, get):
        r = E                               # the row norms (see _residual)
        top = float(r.max())
        if top > 0:
            w = 1.0 / np.maximum(r, 1e-12 * top)
            w /= w.max()
        else:
            w = np.ones_like(r)
        return Evaluation(objective=float(r.sum()), sample_weights=np.maximum(w, SAMPLE_WEIGHT_FLOOR),
                     row_weights=w, details={"residual norm": r})


# ============================================================================= RNMF-L1
def _sparse_weights(S: np.ndarray, half: float) -> np.ndarray:
    """RNMF-L1's effective weights (Table I) from its sparse part S = soft(E, λ/2):
    ``1 − S/E = min(1, (λ/2)/|E|) = (λ/2)/(|S| + λ/2)`` (|E| = |S| + λ/2 where S ≠ 0; 1 where
    S = 0), in S's dtype."""
    Q = np.abs(S)
    Q += half
    return np.divide(half, Q, out=Q)


class _Shifted:
    """RNMF-L1's target ``X − S`` (n, d), never formed whole: :meth:`gram` gives the Gram-form
    products of its unweighted factor steps one block of rows at a time (one block, the whole
    array, for data of at most ``nmf_weights.DIRECT_MAX`` entries)."""

    def __init__(self, X: np.ndarray, S: np.ndarray):
        self.X, self.S = X, S

    def gram(self, F: np.ndarray, side: str) -> tuple[np.ndarray, np.ndarray]:
        """``(F Fᵀ, (X − S) Fᵀ)`` for the coefficient step (F = W, (r, d)) or
        ``(Fᵀ F, (X − S)ᵀ F)`` for the basis step (F = H, (n, r)), the layout of
        :func:`core.methods._wnls.wnls`'s ``gram``."""
        X, S = self.X, self.S
        n, d = X.shape
        if side == "left":
            C = np.empty((n, F.shape[0]))
            for rows in row_blocks(n, d):
                np.matmul(np.subtract(X[rows], S[rows], dtype=np.float64), F.T, out=C[rows])
            return F @ F.T, C
        CT = np.zeros((F.shape[1], d))
        for rows in row_blocks(n, d):
            CT += F[rows].T @ np.subtract(X[rows], S[rows], dtype=np.float64)
        return F.T @ F, CT.T


@register(
    key="rnmf-l1", name="RNMF-L1", family="NMF",
    reference="Zhang, Fang, Liu, Tang & Wu, ICDM workshops 2011 (robust NMF, sparse outliers), "
              "baseline of Guan et al. 2019 §5.5 and Table I",
    summary="X ≈ HW + S with a sparse outlier matrix S: min ‖X − HW − S‖²_F + λ‖S‖₁; S by soft "
            "thresholding at λ/2, the factors by Nesterov NLS on X − S.",
    params=[N_COMPONENTS, LAMBDA, NMF_MAX_ITER, NMF_TOL, INNER_MAX_ITER, RANDOM_STATE],
)
class RNMFL1(NMFBase):
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
    Table I, 1 − S/E = min(1, λ/(2|E|)) (1 where S = 0), a function of S computed when first read
    (not kept otherwise: at 10,000 × 4,096 they are half the state); sample_weights their mean /
    max; scalars
    ``sparse fraction`` (share of non-zero S), ``k_H``, ``k_W``. Solver: OGM only.
    Stopping rule: Guan et al. 2019 rule (16), ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective
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
        return _Shifted(ctx.X, state.sparse_part)

    def _solve(self, X, F, Y, side, Q, row_weights, tol, get, gram=None):
        # the target X − S enters only through its Gram products, formed by blocks of rows
        return super()._solve(X, F, Y, side, Q, row_weights, tol, get, gram=X.gram(F, side))

    def _hq_weights(self, state):
        return None, None                  # S enters through the target; unweighted steps

    def _evaluate(self, ctx, P, E, prev, get):
        half = 0.5 * float(self.lam)
        S = soft_threshold(E, half)
        l1, objective = 0.0, 0.0
        means = np.empty(E.shape[0])
        for rows in row_blocks(*E.shape):
            r = np.subtract(E[rows], S[rows], dtype=np.float64)
            objective += float(np.einsum("ij,ij->", r, r))
            np.abs(S[rows], out=r)
            l1 += float(r.sum())
            means[rows] = _sparse_weights(S[rows], half).mean(axis=1)
        objective += float(self.lam) * l1
        del E                      # Q is a function of S: computed when first read
        return entry_evaluation(Deferred(_sparse_weights, S, half), objective,
                           {"sparse fraction": float(np.count_nonzero(S)) / S.size},
                           means=means, sparse_part=S)

    def _reweigher(self, ctx, ev):
        return Reweigh("sparse", lam=float(self.lam))
