"""Plain Frobenius NMF (:class:`NMF`): multiplicative updates (Lee & Seung) or Nesterov (NeNMF).

The L2-NMF baseline of N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy
Non-Negative Matrix Factorization", IEEE TPAMI 41(1), 2019, §5.5; the orientation (X ≈ H W, one
image per row), the state and the stopping rule are those of :mod:`core.methods.nmf_base`.

Per-step work (issue 12 point 5). A step of plain NMF needs only products with the factors: the
coefficient step ``XWᵀ`` and ``WWᵀ``, the basis step ``G = HᵀH`` and ``C = HᵀX``, then ``WWᵀ``
of the new basis. Nothing of the data's size is formed (no HW, no residual), and

* the objective comes from those products, ``½‖X − HW‖² = ½(‖X‖² − 2⟨C, W⟩ + ⟨G, WWᵀ⟩)``
  (:func:`frobenius_objective`);
* the new basis's ``WWᵀ`` is kept with the state as the next coefficient step's Gram matrix
  (not formed twice);
* the multiplicative update keeps its factors unnormalised from step to step, as scikit-learn
  does (the update is scale-equivariant: rescaling row k of W by c and column k of H by 1/c
  rescales the next iterate the same way, the product HW unchanged), under the state's private
  ``_factors``; the state normalises them (unit-norm basis rows, the dead-row rule of
  :mod:`core.methods.nmf_base`) when ``components`` or ``coefficients`` is first read, so what a
  user, a view or ``fit`` sees is as documented there. A step whose squared basis-row norms leave
  :data:`LAZY_SQ_NORMS`, or with a dead row, normalises itself, as Nesterov's steps always do
  (its iterates are not scale-equivariant: L = λ_max(WWᵀ));
* finiteness: a NaN or ±inf in either factor makes the objective NaN or +inf (one in H makes
  the diagonal of G = HᵀH, one in W >= 0 that of WWᵀ, and so ⟨G, WWᵀ⟩, NaN or +inf), so a
  multiplicative update tests the objective alone and, when it is not finite, traces the fault
  to its factor (or to the objective itself); Nesterov's step tests HᵀH before its basis step (``G_kk = Σ_i H_ik²``, finite
  exactly when column k of H is). The divergence guard uses the bound
  ``max HW <= max_i Σ_k H_ik (max_j W_kj)`` (the same for any scaling of the factors; HW formed
  only when that bound exceeds the limit; on the built-in faces and digits it stayed below
  4 × max X, the limit being 5 ×), so the state is checked once, by the step that makes it,
  and built by :func:`core.methods.nmf_state.next_state`.

Measured (built-in faces 100 × 625, r = 10, one BLAS thread, CPU time of one multiplicative
update, ~100–110 µs in all on a busy 2-core machine): the five matrix products ~70 µs
(scikit-learn's iteration does the same five), the two updates' divisions and products
~12 µs, the new state ~6–11 µs (histories appended, not copied), the divergence bound ~5 µs,
the objective ~4 µs, the BLAS-thread context ~4 µs. Against scikit-learn's
``NMF(solver="mu")`` per iteration, same start, CPU time (benchmarks/bench_nmf.py): 1.10–1.16 ×
on the faces (1.70 × before issue 12's step work, 1.26–1.29 × with the normalisation in every
step), 0.7–0.75 × on 2,000 digits; its HW agrees with scikit-learn's to 1e-13.
"""
from __future__ import annotations

import math

import numpy as np

from .. import convergence
from ..params import register
from .nmf_base import COMMON, INNER, INNER_TOL, NMFContext, Evaluation, NMFBase
from .nmf_state import LAZY, NMFState

__all__ = ["FrobeniusNMF", "NMF", "frobenius_objective"]

#: The multiplicative update leaves its factors unnormalised while every squared basis-row norm
#: stays within these bounds (far from overflow and underflow of the Gram products); a step
#: whose factors leave them normalises them itself.
LAZY_SQ_NORMS = (1e-100, 1e100)
#: ... for float32 factors (float32 data; float32 overflows above 3.4e38)
LAZY_SQ_NORMS_32 = (1e-30, 1e30)


def frobenius_objective(ctx: NMFContext, G: np.ndarray, C: np.ndarray, W: np.ndarray,
                        WWt: np.ndarray) -> float:
    """``½‖X − HW‖²_F = ½(‖X‖² − 2⟨C, W⟩ + ⟨G, WWᵀ⟩)`` from ``G = HᵀH`` (r, r), ``C = HᵀX``
    (r, d), W (r, d) and ``WWᵀ`` (r, r), with ``ctx.sq_norm = ‖X‖²``: plain NMF's objective
    without HW. The three terms are summed in float64 and the result clipped at 0; its absolute
    error is of the order of machine epsilon × ‖X‖² (cancellation), so relative to the objective
    it stays near 1e-14 while the fit leaves a few % of ‖X‖² (the built-in data), and is larger
    only for a near-exact fit (tests/core/test_nmf_frobenius.py checks both against the direct
    ``½ Σ (X − HW)²``)."""
    return 0.5 * max(ctx.sq_norm - 2.0 * float(np.vdot(C, W)) + float(np.vdot(G, WWt)), 0.0)


@register(
    key="nmf", name="NMF", family="NMF",
    reference="Lee & Seung, NIPS 2001 (multiplicative updates); Guan et al., IEEE TSP 2012 (NeNMF), "
              "the L2-NMF baseline of Guan et al. 2019 §5.5",
    summary="Standard NMF, min ‖X − HW‖²_F: one Lee–Seung multiplicative update or one Nesterov "
            "NLS solve per factor and step. Every entry weighs the same.",
    params=[*COMMON, *INNER],
)
class FrobeniusNMF(NMFBase):
    """Frobenius NMF, ``min_{H,W>=0} ½‖X − HW‖²_F`` (objective in grey levels², with ½); catalogue
    key ``"nmf"``, named ``FrobeniusNMF`` so as not to shadow scikit-learn's ``NMF`` in a shared
    namespace (``NMF`` is kept as an alias).

    ``solver="nesterov"`` (default; Guan et al. 2019's L2-NMF is NeNMF): each factor solved by the
    shared OGM solver with unit weights (Algorithm 1 with Q ≡ 1, Gram form, exact L = λ_max(WWᵀ)),
    at most ``inner_max_iter`` iterations. ``solver="mu"``: one Lee–Seung multiplicative update
    per factor, ``H ← H ∘ (XWᵀ)/(HWWᵀ)``, ``W ← W ∘ (HᵀX)/(HᵀHW)`` (0/0 guard: keep the value);
    from the same start its iterates are scikit-learn's ``NMF(solver="mu")``'s up to round-off
    (the steps keep the factors unnormalised, as scikit-learn's; the state shows them with the
    unit-norm scaling, normalised when first read: module docstring).

    State: no weights (``entry_weights`` and ``sample_weights`` None); scalars ``k_H``, ``k_W``.
    Parameters: n_components, max_iter, tol, solver, inner_max_iter, random_state.
    X: (n_samples, n_features), non-negative (grey levels). Raises as the other NMF methods; a
    NaN or infinity in a factor or the objective raises :class:`~core.errors.SolverError` naming
    the iteration. Stopping rule: Guan et al. 2019 rule (16),
    ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` on the objective above, checked from iteration
    10 (defaults tol = 1e-5, max_iter = 500); ``transform``: see :class:`NMFState`.
    """

    _keeps_weights = False

    def _start(self, X: np.ndarray) -> NMFState:
        ctx = self._context(X)
        H, W = self._normalise(*self._init_factors(X))
        with self._threads(X):                      # no residual, as in the steps
            WWt = W @ W.T
            objective = frobenius_objective(ctx, H.T @ H, H.T @ X, W, WWt)
        return self._make_state(ctx, H, W, Evaluation(objective=objective), None, LAZY,
                                {"k_H": 0, "k_W": 0}, (INNER_TOL, INNER_TOL),
                                extra={"_gram": WWt})   # W Wᵀ of the state's own basis

    def _step(self, state: NMFState) -> NMFState:  # type: ignore[override]  # NMF methods make NMF states
        """One step without HW (module docstring): coefficient step, basis step, objective,
        checks; the normalisation in the step for Nesterov, on first read for MU."""
        ctx: NMFContext = state._ctx
        X = ctx.X
        t = state.iteration + 1
        last = state.__dict__
        factors = last.get("_factors")                  # the raw factors of a lazy state
        if factors is not None:
            H, W = factors[0], factors[1]               # (the solvers return new arrays)
        else:
            H, W = state.coefficients, state.components
        tol_h, tol_w = last["details"]["inner tol"]
        WWt = last.get("_gram")                         # W Wᵀ of those factors (absent from a
        mu = self.solver == "mu"                        # state made by replace())
        with self._threads(X):
            if WWt is None:
                WWt = W @ W.T
            # coefficient step (rows of X). X Wᵀ as (W Xᵀ)ᵀ, the layout of HᵀX below: on one
            # BLAS thread 1.23 against 1.60 ms on 2,000 digits (equal on the faces); made
            # row-major for Nesterov's iterations, not for one multiplicative update (the copy
            # cost 4 µs of a ~120 µs step on the faces). (A column-major copy of X, kept until
            # issue 12's step work, made the step slower, 0.89 against 0.79 × scikit-learn's MU
            # per iteration on the digits, and cost the data's bytes again; a row-major copy of
            # Xᵀ for this product alone made the faces step slower, 120 against 115 µs, though
            # the product alone is 22 against 28 µs: X and Xᵀ no longer fit in the cache.)
            XWt = (W @ X.T).T
            if not mu:
                XWt = np.ascontiguousarray(XWt)
            H, k_h = self._solve(X, W, H, "left", None, None, tol_h, None, gram=(WWt, XWt))
            G, C = H.T @ H, H.T @ X                 # (HᵀX: the faster of the two layouts)
            if not mu and not _finite_diagonal(G):  # (MU: from the objective, below)
                self._fail(t, "the coefficients")
            W, k_w = self._solve(X, H, W, "right", None, None, tol_w, None, gram=(G, C.T))
            WWt = W @ W.T
            objective = frobenius_objective(ctx, G, C, W, WWt)
            # the objective is finite exactly when both factors are: a NaN or ±inf in H makes
            # G = HᵀH, and one in W (>= 0) makes WWᵀ, non-finite on the diagonal, hence
            # ⟨G, WWᵀ⟩ NaN or +inf (inf × 0 is NaN); a NaN in H also spreads to W through its
            # update. So one test covers both, and a failure is then traced to its factor
            finite = math.isfinite(objective)
            sq = WWt.diagonal()                     # squared row norms of W (a view)
            sq_list = sq.tolist()                   # (r numbers: Python's min and max are
            lo, hi = min(sq_list), max(sq_list)     # faster than numpy's reductions)
            bounds = LAZY_SQ_NORMS_32 if W.dtype == np.float32 else LAZY_SQ_NORMS
            if mu and finite and bounds[0] < lo and hi < bounds[1]:
                # the multiplicative update is scale-equivariant (rescaling a basis row and its
                # coefficient column by inverse factors rescales the next iterate the same
                # way, the product unchanged): the factors stay as the update left them, as in
                # scikit-learn, and the state normalises them when first read
                lazy = (H, W, sq)
            elif lo > 0 and finite:
                lazy = None
                norms = np.sqrt(sq)
                inv = 1.0 / norms                   # unit-norm basis rows, as _normalise, in
                H *= norms                          # place (the solvers' own fresh arrays)
                W *= inv[:, None]
                WWt *= np.multiply.outer(inv, inv)  # WWᵀ of the unit-norm basis: next step's
            else:
                lazy = None
                if not _finite_diagonal(G):
                    self._fail(t, "the coefficients")
                if not _finite_diagonal(WWt):
                    self._fail(t, "the basis images")
                if not finite:
                    convergence.check_finite(self.name, t, objective, {}, {})
                H, W = self._normalise(H, W, sq * 1.0)   # a dead row is replaced,
                WWt = None                               # WWᵀ formed anew next step
            # max HW <= max_i Σ_k H_ik max_j W_kj (H, W >= 0; the same for any scaling of the
            # factors): the row maxima of W are one fast reduction (the column maxima of tall H,
            # the other bound, cost 2× the time)
            top = float((H @ np.maximum.reduce(W, axis=1)).max())
        if mu:
            tols = last["details"]["inner tol"]     # (the same object: the details are shared)
        else:
            tols = (self._next_tol(tol_h, k_h), self._next_tol(tol_w, k_w))
        extra = {"_gram": WWt, "_checked": True}     # (finite factors and objective, range)
        if lazy is not None:
            extra["_factors"] = lazy
            H = W = LAZY
        new = self._make_state(ctx, H, W, Evaluation(objective=objective), state, LAZY,
                               {"k_H": k_h, "k_W": k_w}, tols, fitted_max=top, extra=extra)
        if top > ctx.top_limit:                     # (the range check's own limit)
            self._check_lazy_range(new, top)
        return new

    def _check_state(self, state: NMFState) -> None:  # type: ignore[override]
        """Nothing more for a state this class's step made and checked (its factors' and
        objective's finiteness and the range, in :meth:`_step`); the full checks otherwise."""
        if not state.__dict__.get("_checked"):
            super()._check_state(state)


def _finite_diagonal(G: np.ndarray) -> bool:
    """The diagonal of a Gram matrix ``G = AᵀA`` (or ``AAᵀ``) is finite, i.e. every entry of A is
    (``G_kk`` is a sum of squares: NaN or ±inf in A makes it NaN or inf; so does overflow)."""
    return math.isfinite(float(G.trace()))


#: The former name (shadows scikit-learn's ``NMF`` when both are imported): an alias.
NMF = FrobeniusNMF
