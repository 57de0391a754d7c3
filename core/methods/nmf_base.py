"""The NMF family's shared loop: its state and the half-quadratic (HQ) iteration.

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
unchanged), so every state has unit-norm rows. Plain NMF's multiplicative update is the one
exception inside the iteration: that update is scale-equivariant (the rescaled factors give the
rescaled next iterate, the same product), so its steps work on the factors as the update leaves
them, as scikit-learn's does, and its states normalise them as above when ``components`` or
``coefficients`` is first read (:mod:`core.methods.nmf_frobenius`); what a state shows is the
same.

One loop for every method (half-quadratic, HQ)
----------------------------------------------
Each method is a weight function of the residual E = X − H W plus the same loop (Guan et al. 2019
Algorithm 2, eqs. 12–14): with the weights Q computed from the current residual,

1. coefficient step ``min_{H>=0} ½ Σ Q ∘ (X − H W)²``;
2. (TC-NMF, option) refresh Q from the new residual (Algorithm 2 line 7);
3. basis step ``min_{W>=0} ½ Σ Q ∘ (X − H W)²``;
4. normalise, then compute the residual, the method's scale (γ, c, δ, μ) and the weights Q
   for the next iteration (the state's ``entry_weights`` are the weights of its own residual,
   used by the next step: the authors' code order, §3.3(a)).

Steps 1 and 3 are weighted NLS problems solved by the shared solver of
:mod:`core.methods._wnls`: ``solver="nesterov"`` (default) runs Nesterov's optimal gradient
method, Guan et al. 2019 Algorithm 1, on all samples (pixels) at once — no Python loop over samples
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

Memory and per-step work (issue 12). A run keeps no work array of the data's size between
steps (:class:`core.methods._wnls.Scratch` keeps only small ones), and a state holds only its
weights (and mask, sparse part): ``fitted`` = HW is formed when first read (:data:`LAZY`). A
step forms the residual X − HW one block of rows at a time (HW never whole; the entries fitted
above max X, for the range rules, found in the same pass) and each method turns it into its
weights in place; everything else that reads all entries (``Q ∘ X``, TC-NMF's refreshed weights,
the objectives, Nagy's γ, the three-sigma thresholds, the medians of Huber- and L1-NMF) goes by
blocks, and order statistics are exact selections (:mod:`core.methods.nmf_weights`), never
sorts. The refreshed weights of TC-NMF's basis step (one array of the data's size) then hold
the next residual. On data above 2²¹ entries the residual and the weights are float32
(:func:`core.methods.nmf_weights.weights_dtype`; every sum over them in float64), half the
bytes. Plain NMF (:mod:`core.methods.nmf_frobenius`) forms nothing of the data's size: its
objective comes from the basis step's Gram products, and its step works in the factors' own
layouts (no transposed copies, no column-major copy of X).
``start`` forms no HW either. Measured on 10,000 × 4,096, r = 20 (benchmarks/bench_nmf.py
``--large``): a TC-NMF run peaks at 1.47× the data's bytes beyond X itself, the previous state
included (2.47× in all; was 3.47× with float64 weights and ~10.7× before the blockwise
routes), and holds 0.72× between steps. Data of at most 2²¹ entries (the built-in faces and
digits) take the direct routes (whole-array products and ``np.partition``) in float64, with
the iterates they always had; the blockwise routes give the same values up to round-off, the
float32 weights within their rounding (tests/core/test_nmf_scale.py).

float32 data (issue 32) are computed in float32 on the data itself (``preserves_float32``; a
session's NMF columns no longer share a float64 copy): the factors (the random start drawn in
float64 and rounded, so the same start as a float64 run's), residuals, weights, sparse part and the
solvers' products (Hessians, Gram matrices, OGM iterates) are float32, and every sum that makes
a number (objectives, ‖X‖², Nagy's γ, the three-sigma moments, medians) accumulates in float64.
``components_``, ``transform`` and ``inverse_transform`` are float32 (``transform``'s exact
per-row NNLS solves in float64, a row block at a time, and returns float32). On the built-in faces
and digits five float32 steps stay within 2e-5 of the float64 basis and 2e-4 of its objective
(tests/core/test_nmf_float32.py, which says why Huber-NMF's c and TC-NMF's truncated set are the
most sensitive); half the memory of float64.

Methods (catalogue keys): ``tc-nmf``, ``cauchy-nmf``, ``nmf``, ``l1-nmf``, ``rnmf-l1``,
``l21-nmf``, ``huber-nmf``, ``cim-nmf``.

State of every method (:class:`NMFState`)
-----------------------------------------
* ``components`` (r, d): unit-norm non-negative basis images; ``mean``: zeros (d,);
* ``coefficients`` (n, r): the non-negative coefficients (paper's Hᵀ) of that unit-norm basis
  (both normalised when first read after a multiplicative update of plain NMF);
* ``objective_history``, ``scalar_history``: :class:`core._readonly.Series`, read as tuples,
  sharing one append-only list per run (a step adds one item, copies nothing);
* ``fitted`` (n, d): the reconstruction ``coefficients @ components`` (grey levels), computed
  when first read (:data:`LAZY`): a step forms the residual by blocks of rows and never HW whole;
* ``entry_weights`` (n, d): the per-entry weights Q of the state's residual, max 1 (exactly 0 on
  truncated entries for TC-NMF), or None (plain NMF, L2,1-NMF);
* ``sample_weights`` (n,): per-sample mean of Q divided by its largest value (floored at
  :data:`SAMPLE_WEIGHT_FLOOR` so that log-scale views stay finite), or L2,1-NMF's per-sample
  weights, or None (plain NMF); ``details["mean weight"]``: the raw per-sample means of Q;
* ``details["truncated"]`` (TC-NMF): bool (n, d), the entries with weight exactly 0;
  ``sparse_part``: S (RNMF-L1);
* ``objective``: the method's own objective (each class says which); ``converged``: rule (16)
  of Guan et al. 2019, ``|J_t − J_{t−1}| <= tol · max_k |J_k − J_t|`` (the paper: ``|J_0 − J_t|``, the
  same for a decreasing objective), checked from iteration
  :data:`MIN_ITER` on, tol 1e-5 by default (the authors' code: from 20, tol 1e-4).

Bad input is refused by ``start`` before any work: negative entries (:class:`DataError` giving
their number and the minimum, suggesting to clip at 0), all-zero data, NaN/inf, n_components >=
min(n_samples, n_features), parameters out of range (:class:`ParameterError` naming them). A NaN
or infinity met while iterating raises :class:`SolverError`.
"""
from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass, field

import numpy as np

from sklearn.utils.validation import check_is_fitted

from .. import convergence
from .._readonly import appended
from ..base import SteppableEstimator, float_dtype
from ..params import ParamSpec
from ..errors import SolverError
from ..memory import fresh
from ..threads import ONE_THREAD_MAX_ENTRIES, blas_threads
from ._specs import N_COMPONENTS
from ._wnls import mu_update, wnls
from .nmf_state import (LAZY, STORED, NMFState, NMFContext, check_nonnegative, next_state,
                         normalise_factors)
from .nmf_weights import median_above, row_blocks, weights_dtype

__all__ = ["NMFState", "check_nonnegative", "NMFBase", "Evaluation", "entry_evaluation"]

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
#: Smallest reported sample weight (a fully truncated sample would otherwise get 0, whose log
#: the weight views cannot draw); the raw value is in ``details["mean weight"]``.
SAMPLE_WEIGHT_FLOOR = 1e-6
#: Divergence guard: a fit whose reconstruction exceeds max(X) + DIVERGE_FACTOR × (max X − min X)
#: raises SolverError (no data value explains it; entries with weight 0 are no longer held).
DIVERGE_FACTOR = 4.0
_TINY = float(np.finfo(float).tiny)

# ----------------------------------------------------------------------------- parameter specs
NMF_MAX_ITER = ParamSpec(
    "max_iter", "max iter", "int", 500,
    "stop after this many iterations if the stopping rule is not met first (at tol 1e-5 every "
    "NMF method met it within 500 on the built-in faces and digits)",
    low=1, high=100000, slider=(1, 2000))
NMF_TOL = ParamSpec(
    "tol", "tol", "float", 1e-5,
    "stop when the last objective change is below tol × the largest change since iteration 0 "
    "(Guan et al. 2019 rule 16; checked from iteration 10). The authors' code uses 1e-4, which stopped "
    "multiplicative-update NMF 3 % above scikit-learn's objective and left TC-NMF's coefficients "
    "1–2 % from their own weighted solution",
    low=0.0, scale="log", slider=(1e-8, 1e-1))
SOLVER = ParamSpec(
    "solver", "solver", "choice", "nesterov",
    "weighted NLS solver for each factor: Nesterov's optimal gradient method (Guan et al. 2019 "
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
#: The solver that runs Algorithm 1 exactly as the authors' public code does
#: (:func:`core.methods._wnls.wnls` ``code=True``; TC-NMF and Cauchy NMF offer it).
CODE_SOLVER = "nesterov-code"
COMMON = [N_COMPONENTS, NMF_MAX_ITER, NMF_TOL]
INNER = [SOLVER, INNER_MAX_ITER, RANDOM_STATE]



# ----------------------------------------------------------------------------- shared loop
@dataclass
class Evaluation:
    """What a method computes from a new iterate (its residual): :meth:`NMFBase._evaluate` returns it."""

    objective: float
    entry_weights: np.ndarray | None = None
    sample_weights: np.ndarray | None = None
    row_weights: np.ndarray | None = None          # per-sample HQ weights (L2,1)
    scalars: dict = field(default_factory=dict)
    details: dict = field(default_factory=dict)
    sparse_part: np.ndarray | None = None


def scale_to_max(H: np.ndarray, W: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(H d, W / d) with d the largest entry of each basis row of W (r, d): the authors' code's
    normalisation (Guan et al. 2019 code, §3.3(c) of the project's notes); HW unchanged. A row
    that is all 0 keeps scale 1."""
    d = W.max(axis=1)
    d = np.where(d > 0, d, 1.0)
    return H * d[None, :], W / d[:, None]


def _mean_weights(Q: np.ndarray, raw: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(sample_weights scaled to max 1 and floored, raw per-sample means) of entry weights Q, or
    of the per-sample means ``raw`` when given."""
    raw = Q.mean(axis=1, dtype=np.float64) if raw is None else raw
    top = float(raw.max())
    sw = raw / top if top > 0 else np.ones_like(raw)
    return np.maximum(sw, SAMPLE_WEIGHT_FLOOR), raw


class NMFBase(SteppableEstimator):
    """The HQ loop shared by every NMF method (see the module docstring). Subclasses implement
    :meth:`_evaluate` (objective and weights of an iterate) and may override :meth:`_target`,
    :meth:`_hq_weights` and :meth:`_refresh`. Its constructor takes the parameters of the
    plain baselines (NMF, L1-, Huber-, CIM-, L2,1-NMF); TC-NMF and RNMF-L1 define their own."""

    #: residuals, weights and products of a start and a step (core.working)
    work_factors = (1.75, 1.35)
    #: float32 input is computed in float32: factors, residuals, weights, the solvers' products
    #: (sums, objectives and the robust statistics accumulate in float64); tests/core/test_nmf_float32.py
    preserves_float32 = True

    def __init__(self, n_components: int = 10, max_iter: int = 500, tol: float = 1e-5,
                 solver: str = "nesterov", inner_max_iter: int = 30, random_state: int = 0):
        self.n_components = n_components
        self.max_iter = max_iter
        self.tol = tol
        self.solver = solver
        self.inner_max_iter = inner_max_iter
        self.random_state = random_state

    # ---------------------------------------------------------------- hooks
    def _evaluate(self, ctx: NMFContext, P: np.ndarray, E: np.ndarray, prev: NMFState | None, get) -> Evaluation:
        """Objective, weights and scalars of the iterate with reconstruction P and residual
        E = X − P. E is a fresh array owned by the callee, which may overwrite it (TC-NMF turns
        it into E² and then into its weights Q in place: no other array of the data's size).
        P is a :class:`_RowProduct` (HW read by blocks of rows, never whole; ``P.above``: the
        entries fitted above max X)."""
        raise NotImplementedError   # pragma: no cover

    def _target(self, ctx: NMFContext, state: NMFState) -> np.ndarray:
        return ctx.X

    def _hq_weights(self, state: NMFState):
        """(Q, per-sample weights) for the two weighted NLS steps of ``state``'s next iteration."""
        return state.entry_weights, state.details.get("row weights")

    def _refresh(self, ctx: NMFContext, H: np.ndarray, W: np.ndarray, state: NMFState, get):
        """Weights for the basis step from the residual ``X − H W`` after the coefficient step
        (H new, W the state's), or None to keep the state's weights."""
        return None

    def _reweigher(self, ctx: NMFContext, ev: Evaluation):
        """The state's frozen HQ weight function for ``transform`` (:class:`Reweigh`), or None
        when the coefficient step is unweighted (NMF, L2,1-NMF)."""
        return None

    # ---------------------------------------------------------------- init and helpers
    def _init_factors(self, X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Uniform [0, 1) random H₀ (n, r) and W₀ (r, d) from ``random_state`` (the authors' code:
        rand), both scaled by √s so that the mean of H₀W₀ equals the median of X (the mean of X
        when the median is 0); the code scales the max of W₀H₀ to median(V)."""
        n, d = X.shape
        r = int(self.n_components)
        rng = np.random.default_rng(self._seed)
        H = rng.random((n, r))
        W = rng.random((r, d))
        target = median_above(X, -np.inf)                  # by selection: no copy of X
        target = target if target is not None and target > 0 else float(X.mean())
        s = np.sqrt(target / float(H.mean(axis=0) @ W.mean(axis=1)))
        # drawn in float64 and rounded for float32 data: the same start as the float64 run's
        return (H * s).astype(X.dtype, copy=False), (W * s).astype(X.dtype, copy=False)

    #: Unit-norm basis rows, the inverse scale on the coefficients
    #: (:func:`core.methods.nmf_state.normalise_factors`).
    _normalise = staticmethod(normalise_factors)

    def _check_range(self, iteration: int, top: float, ctx: NMFContext):
        """Divergence guard: SolverError when max(HW) = ``top`` > max X + 4 (max X − min X)."""
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

    #: The method turns the residual into entry weights that its states keep: on large data the
    #: residual is then made in float32 (:func:`core.methods.nmf_weights.weights_dtype`).
    _keeps_weights = True

    def _residual(self, ctx: NMFContext, H: np.ndarray, W: np.ndarray, out: np.ndarray | None = None):
        """``E = X − HW`` into ``out`` (or a new array of :func:`core.memory.fresh`, float32 for a
        method that keeps weights on data above ``nmf_weights.WEIGHTS32_MIN`` entries) one block of
        rows at a time, HW never whole; returns (E, max HW, P) with P the :class:`_RowProduct` of H
        and W carrying the flat indices of the entries fitted above max X (found in the same pass)."""
        X = ctx.X
        if out is None:
            dtype = weights_dtype(X.size, X.dtype) if self._keeps_weights else X.dtype
            out = fresh(X.shape, dtype)
        E = out

        def into(rows: slice, Pb: np.ndarray) -> None:
            np.subtract(X[rows], Pb, out=E[rows])

        top, P = self._residual_rows(ctx, H, W, into)
        return E, top, P

    @staticmethod
    def _residual_rows(ctx: NMFContext, H: np.ndarray, W: np.ndarray, into) -> tuple[float, "_RowProduct"]:
        """The pass of :meth:`_residual` over blocks of rows: ``into(rows, HW[rows])`` for each block
        (which may overwrite the block product), after max HW and the entries fitted above max X
        are taken from it; returns (max HW, P)."""
        d = ctx.X.shape[1]
        top = -np.inf
        above: list[np.ndarray] = []
        for rows in row_blocks(*ctx.X.shape):
            Pb = H[rows] @ W
            top = max(top, float(Pb.max()))
            if top > ctx.xmax:
                idx = np.flatnonzero(Pb > ctx.xmax)
                if idx.size:
                    above.append(idx + rows.start * d)
            into(rows, Pb)
        flat = np.concatenate(above) if above else np.empty(0, dtype=np.intp)
        return top, _RowProduct(H, W, flat)

    def _make_state(self, ctx, H, W, ev: Evaluation, prev: NMFState | None, P,
                    counts: dict, tols: tuple, fitted_max: float | None = None,
                    extra: dict | None = None) -> NMFState:
        """The state of factors H, W with what ``ev`` computed, after ``prev`` (None: the
        initial state); ``extra``: private entries to keep with it (caches of the step)."""
        scalars = {**ev.scalars, **counts} if ev.scalars else counts
        if prev is not None:                # unchanged read-only mappings are shared (e.g. a
            last = prev.__dict__            # multiplicative update's counts and tolerances)
            if scalars == last["scalars"]:
                scalars = last["scalars"]
            details = last["details"]
            if (ev.details or ev.row_weights is not None or len(details) != 1
                    or details.get("inner tol") is not tols):
                details = None
        if prev is None or details is None:
            details = {**ev.details, "inner tol": tols}
            if ev.row_weights is not None:
                details["row weights"] = ev.row_weights
        reweigh = self._reweigher(ctx, ev)
        if prev is None:
            state = NMFState(method=self.name, iteration=0, objective=ev.objective,
                             objective_history=(ev.objective,), mean=np.zeros(W.shape[1], dtype=W.dtype),
                             _ctx=ctx, _data_range=(ctx.xmin, ctx.xmax), components=W,
                             coefficients=H, fitted=P, entry_weights=ev.entry_weights,
                             sample_weights=ev.sample_weights, sparse_part=ev.sparse_part,
                             scalars=scalars, details=details, reweigh=reweigh)
            state.__dict__["_fitted_max"] = fitted_max
            state.__dict__.update(extra or ())
            return state
        hist = last["objective_history"]
        J = float(ev.objective)
        # rule (16) with the largest |J_k − J_t| over the run in place of |J_0 − J_t| (the same
        # for a decreasing run): with γ, τ, δ or c re-estimated the objective's scale changes,
        # and TC-NMF on the 550-block faces ended *above* J_0, so |J_0 − J_t| was ~0.2 % of
        # its range and the rule was not met in 500 iterations
        lo, hi = last.get("_history_range") or (min(hist), max(hist))
        n_prev = last["iteration"] + 1
        converged = (n_prev >= MIN_ITER
                     and abs(J - last["objective"]) <= float(self.tol) * max(abs(hi - J), abs(lo - J)))
        # the next state, as ``SteppableEstimator._next_state`` makes it (scalar histories, the
        # other fields carried over) but built directly, its histories :class:`Series` sharing
        # the run's append-only lists (a tuple copy per step made a run of t steps O(t²) in
        # time and in the memory of the states kept) (:func:`core.methods.nmf_state.next_state`;
        # ``dataclasses.replace`` and the generic rule there took 26 µs, the dataclass
        # constructor ~10 µs, of a multiplicative update of ~100 µs on the built-in faces)
        past = last["scalar_history"]
        entries = {
            "iteration": n_prev, "objective": J, "objective_history": appended(hist, J),
            "converged": converged, _COMPONENTS: W, _COEFFICIENTS: H, _FITTED: P,
            _ENTRY_WEIGHTS: ev.entry_weights, "sample_weights": ev.sample_weights,
            "sparse_part": ev.sparse_part, "reweigh": reweigh, "scalars": scalars,
            "details": details,
            "scalar_history": {k: appended(past[k] if k in past else (float("nan"),) * n_prev, v)
                               for k, v in scalars.items()},
            "_fitted_max": fitted_max,                  # max HW, for the checks of a lazy fitted
            "_history_range": (min(lo, J), max(hi, J)),  # (no O(t) scan per step)
        }
        if extra:
            entries.update(extra)
        return next_state(prev, entries)

    def _solve(self, X, F, Y, side, Q, row_weights, tol, get, gram=None):
        """One factor update; returns (Y, iterations). ``gram``: the unweighted problem's
        (FᵀF, XᵀF) of the basis step when the caller already has them."""
        if self.solver == "mu":
            return mu_update(X, F, Y, side=side, Q=Q, row_weights=row_weights, get=get,
                             gram=gram), 1
        res = wnls(X, F, Y, side=side, Q=Q, row_weights=row_weights, tol=tol,
                   max_iter=int(self.inner_max_iter), get=get, gram=gram,
                   code=self.solver == CODE_SOLVER)
        return res.Y, res.n_iter

    @staticmethod
    def _next_tol(tol: float, k: int) -> float:
        return max(tol / 10.0, INNER_TOL_MIN) if k <= INNER_FAST else tol

    # ---------------------------------------------------------------- stepping
    @staticmethod
    def _threads(X: np.ndarray):
        """One BLAS thread for small data (``core.threads.ONE_THREAD_MAX_ENTRIES``; the
        ``one_blas_thread`` of :mod:`core.linalg`, without its two calls), else the policy's."""
        return blas_threads(1) if X.size <= ONE_THREAD_MAX_ENTRIES else nullcontext()

    @staticmethod
    def _context(X: np.ndarray) -> NMFContext:
        """The run's context (data checked non-negative, its range and squared norm)."""
        check_nonnegative(X)
        lo, hi = float(X.min()), float(X.max())
        sq_norm = sum(float(np.einsum("ij,ij->", X[rows], X[rows], dtype=np.float64))
                      for rows in row_blocks(*X.shape))          # (float32 X: summed in float64)
        return NMFContext(X=X, zero=ZERO_RESIDUAL * hi, xmin=lo, xmax=hi, sq_norm=sq_norm,
                    top_limit=hi + convergence.RANGE_MARGIN * max(hi - lo, abs(hi), abs(lo), _TINY))

    def _start(self, X: np.ndarray) -> NMFState:
        ctx = self._context(X)
        H, W = self._normalise(*self._init_factors(X))
        with self._threads(X), ctx.scratch.borrow() as get:
            E, top, P = self._residual(ctx, H, W)
            ev = self._evaluate(ctx, P, E, None, get)
        return self._make_state(ctx, H, W, ev, None, LAZY, {"k_H": 0, "k_W": 0},
                                (INNER_TOL, INNER_TOL), fitted_max=top)

    def _step(self, state: NMFState) -> NMFState:  # type: ignore[override]  # NMF methods make NMF states
        ctx: NMFContext = state._ctx
        t = state.iteration + 1
        H, W = state.coefficients, state.components     # (the solvers return new arrays)
        if self.solver == CODE_SOLVER:      # the authors' code's scaling: basis rows of max 1
            assert H is not None            # (OGM's iterates depend on it; the product does not)
            H, W = scale_to_max(H, W)
        Q, rw = self._hq_weights(state)
        tol_h, tol_w = state.details.get("inner tol", (INNER_TOL, INNER_TOL))
        with self._threads(ctx.X), ctx.scratch.borrow() as get:
            T = self._target(ctx, state)
            # coefficient step (paper's H-step): rows of X, per-sample weights cancel in it
            H, k_h = self._solve(T, W, H, "left", Q, None, tol_h, get)
            if not _finite(H):
                self._fail(t, "the coefficients")
            Qr = None if Q is None else self._refresh(ctx, H, W, state, get)
            # basis step (paper's W-step): columns of X
            W, k_w = self._solve(T, H, W, "right", Q if Qr is None else Qr, rw, tol_w, get)
            del T
            if not _finite(W):
                self._fail(t, "the basis images")
            H, W = self._normalise(H, W)
            # the residual goes into the refreshed weights' memory (no longer needed, already
            # mapped: a fresh array of the data's size costs its page faults) or a fresh array
            E, top, P = self._residual(ctx, H, W, out=Qr)
            del Qr
            self._check_range(t, top, ctx)
            ev = self._evaluate(ctx, P, E, state, get)
        if self.solver == "mu":
            tols = (tol_h, tol_w)
        else:
            tols = (self._next_tol(tol_h, k_h), self._next_tol(tol_w, k_w))
        return self._make_state(ctx, H, W, ev, state, LAZY, {"k_H": k_h, "k_W": k_w}, tols,
                                fitted_max=top)

    def start(self, X) -> NMFState:
        """As :meth:`core.base.SteppableEstimator.start` (parameters and data validated, the
        initial state checked), with ``fitted`` left lazy: the initial state gets the data's range
        when it is made, since the base's ``dataclasses.replace`` that sets it reads every field
        and so formed HW (1× the data's bytes at the start's peak, for nothing)."""
        with self._new_run():
            state = self._start(self._check_data(X))
        self._check_state(state)
        return state

    def _check_state(self, state) -> None:
        """The base class's checks; with ``fitted`` still lazy, the finiteness of the factors
        stands for it (checked by the step itself after each factor's update, so here only for
        the initial state), and the range check uses max HW as the step found it (or, when the step
        did not, the bound ``max HW <= max_j Σ_k (max_i H_ik) W_kj``; HW >= 0), forming HW only
        when that exceeds the limit."""
        if not state.fitted_is_lazy:
            return super()._check_state(state)
        Q = None if state.entry_weights_are_deferred else state.entry_weights  # (else from S)
        arrays = {"a sample weight": state.sample_weights, "an entry weight": Q,
                  "the sparse part": state.sparse_part}
        if state.iteration == 0:              # (a step checked its factors and its mean is 0)
            arrays.update({"the components": state.components,
                           "the coefficients": state.coefficients, "the mean": state.mean})
        convergence.check_finite(self.name, state.iteration, state.objective, arrays, state.scalars)
        self._check_lazy_range(state, state.__dict__.get("_fitted_max"))

    def _check_lazy_range(self, state: NMFState, top: float | None) -> None:
        """The range check of a state whose ``fitted`` is lazy, from ``top`` = max HW (or, when
        None, the bound ``max HW <= max_j Σ_k (max_i H_ik) W_kj``; HW >= 0), forming HW only when
        ``top`` exceeds the limit (:func:`core.convergence.check_within_range`)."""
        lo, hi = state._data_range if state._data_range is not None else (0.0, np.inf)
        width = max(hi - lo, abs(hi), abs(lo), _TINY)      # (as ``NMFContext.top_limit``)
        if top is None:
            H = state.coefficients
            assert H is not None                      # a fitted NMF state has its coefficients
            top = float((H.max(axis=0) @ state.components).max())
        if top > hi + convergence.RANGE_MARGIN * width:
            convergence.check_within_range(self.name, state.iteration, state.fitted,
                                           state._data_range)

    # ---------------------------------------------------------------- sklearn-style API
    def transform(self, X, weighted: bool = True) -> np.ndarray:
        """Non-negative coefficients (n, r) of X (n, d) with the learned basis fixed: the
        method's own reweighted problem with its scale parameters frozen (``weighted=True``), or
        NNLS (``weighted=False``), each row on its own (:func:`core.methods.nmf_state.transform_rows`:
        any order or subset of rows gives the same rows; continuous in X); stopping rule:
        relative change of a row's coefficients below 1e-10, at most 300 rounds. No special case
        for the training data: the fit's own coefficients (for the non-convex robust losses
        possibly another fixed point) are the final state's ``coefficients``
        (:meth:`fit_state`). float32 for float32 X.
        Raises DataError for negative X."""
        check_is_fitted(self, "state_")
        dtype = float_dtype(X)
        X = self._validate(X, reset=False, min_samples=1, min_features=1)
        check_nonnegative(X)
        with self._threads(X):
            return np.asarray(self.state_.transform(X, weighted), dtype=dtype)  # type: ignore[call-arg]  # an NMFState

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.positive_only = True       # NMF needs X >= 0 (refused with DataError)
        return tags

    def inverse_transform(self, H) -> np.ndarray:
        """``H @ components_`` (n, d) for coefficients H (n, r) (float32 for float32 H)."""
        H = self._check_coordinates(H, self.components_)
        return H @ self.components_.astype(H.dtype, copy=False)


class _RowProduct:
    """``H @ W`` (n, d) read by blocks of rows, never formed whole: ``P[rows] = H[rows] @ W``
    for a slice of rows (what :meth:`NMFBase._evaluate` gets as P). ``above``: the flat
    indices of the entries fitted above max X (the range rules of TC- and CIM-NMF)."""

    def __init__(self, H: np.ndarray, W: np.ndarray, above: np.ndarray):
        self.H, self.W, self.above = H, W, above
        self.shape = (H.shape[0], W.shape[1])

    def __getitem__(self, rows: slice) -> np.ndarray:
        return self.H[rows] @ self.W


_FITTED, _ENTRY_WEIGHTS = STORED["fitted"], STORED["entry_weights"]
_COMPONENTS, _COEFFICIENTS = STORED["components"], STORED["coefficients"]


def _finite(A: np.ndarray) -> bool:
    """Every entry of A is finite (one reduction: a sum of finite factors of grey-level data
    cannot overflow, and any NaN or ±inf makes it non-finite)."""
    return math.isfinite(float(A.sum()))


def entry_evaluation(Q, objective: float, scalars: dict, details: dict | None = None,
                     means: np.ndarray | None = None, **extra) -> Evaluation:
    """The :class:`Evaluation` of entry weights Q (an array, or a :class:`Deferred` with their
    per-sample ``means`` given)."""
    sw, raw = _mean_weights(Q, means)
    det = {"mean weight": raw}
    det.update(details or {})
    return Evaluation(objective=objective, entry_weights=Q, sample_weights=sw, scalars=scalars,
                 details=det, **extra)
