"""Low-rank + sparse (convex) methods, each solved by the inexact augmented Lagrange multiplier
method (ALM), one ALM iteration per ``step``:

* :class:`PCP` — Principal Component Pursuit (Candès, Li, Ma & Wright 2011), entrywise ℓ1;
* :class:`OutlierPursuit` — Xu, Caramanis & Sanghavi 2012, Nie et al. 2014 eq. (29) (its baseline
  "CRPCA"), sample-wise ℓ2,1;
* :class:`CRPCAOM` — Nie et al. 2014 (Nie, Yuan & Huang, ICML 2014) Algorithm 3, eq. (30): Outlier
  Pursuit with the mean b as a variable.

Orientation. The papers' data matrix is d × n with one sample per *column*; here X is
(n_samples, n_features) with one sample per *row*. So the papers' column-wise ℓ2,1 norm
``‖M‖_{2,1} = Σ_i ‖m_i‖₂`` (a sum over samples) is the sum of the ℓ2 norms of the **rows** here,
the papers' ``b1ᵀ`` is ``1bᵀ`` (b broadcast to every row), the papers' ``Z1 = 0`` (zero row sums of
a d × n Z) is ``Zᵀ1 = 0`` here (every column of Z sums to zero over the samples), and the
papers' centring ``X̃H`` is ``X̃ − 1 mean(X̃)ᵀ`` (subtract the mean row).

The module-level functions :func:`soft_threshold`, :func:`row_shrink`, :func:`svt` and
:func:`optimal_mean_svt` are the exact proximal steps (closed forms) the methods use, exposed
for checks.

Singular value thresholding. Every iteration needs ``SVT_τ(A) = U(Σ − τI)₊Vᵀ`` of an
n × d matrix. It is computed with the exact thin SVD (LAPACK ``gesdd``) unless the matrix is
large (``min(n, d) >= PARTIAL_SVD_MIN_DIM``) and the predicted number of singular values above τ
is small (``<= PARTIAL_SVD_MAX_FRACTION × min(n, d)``): then only the leading singular triplets
are computed (:func:`core.prox.partial_svd`: block subspace iteration with Rayleigh–Ritz,
warm-started from the previous iteration's right singular subspace, iterated until the
residuals ``‖Av − σu‖`` of the triplets above τ are <= 1e-10·σ₁), with the predicted-rank
strategy of Lin, Chen & Ma (2010): k = (rank of the previous iteration) + 1 + an oversampling of
10; if fewer than 5 of the k computed singular values fall below τ, the block is enlarged and
the iteration resumed. At high rank (and when the block fails to converge) the exact route is
the eigendecomposition of the smaller Gram matrix (:func:`core.prox.gram_svd`, 2–3 × faster than
``gesdd``; the thin SVD when τ is too small for it). Only singular values <= τ are left
uncomputed, and SVT sets them to zero, so the result is the exact SVT up to round-off
(tests/core/test_partial_svd.py: within 1e-8 relative). See :func:`core.prox.svt_predicted` for
the rule. The start's σ₁ (PCP's µ₀) or v₁ (iteration 0's component) is computed with a block of
the first predicted rank that then warm-starts the first SVT.

Cost at scale. Each iteration writes its outputs (the sparse part, the dual, the low-rank part)
into the arrays it allocates for them, with no other temporary of the data's size: the dual
update is taken from the E (or S) step's input, ``Λ_new = µ(T − E)`` (``Y_new = µ(A − L)`` for
PCP), and the primal residual is ``(Λ_new − Λ)/µ``, computed by blocks of rows. At 10,000 × 4096
with the planted rank 20 an iteration takes about one scikit-learn randomized PCA fit
(benchmarks/bench_convex_scale.py); when the model's optimum has high rank (Outlier Pursuit and
CRPCA-OM with γ below √(n_samples/n_features), see γ below: the former fixed default 1.5 on such
data) every iteration needs a high-rank SVT, about 10 × that; the default γ = "scale" avoids it.

Precision. float32 data are processed in float32 (the iterates, the SVD, the fitted parts);
the stopping rule's ``tol`` is then at least 10 × float32's machine epsilon (1.2e-6).
(The estimators' ``start`` receives float64 today: ``core.base`` converts every input.)
"""
from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sklearn.utils.validation import check_is_fitted

from ..base import State, SteppableEstimator, float_dtype
from ..params import ParamSpec, register
from ..errors import SolverError
from ..linalg import one_blas_thread, orientation
from ..memory import fresh_like
from .. import interrupt
from ..prox import (PARTIAL_SVD_OVERSAMPLING, leading_block, row_shrink,
                    row_shrink_factors, soft_threshold, soft_threshold_inplace, svt, svt_predicted)
from ..threads import ONE_THREAD_MAX_ENTRIES
from ._specs import MAX_ITER, TOL

#: Paper 001 Algorithm 3: initial penalty µ₀ = 0.1 and cap µ_max = 1e8, read as values for
#: intensities in [0, 1]: µ has units of 1/intensity, so both are divided by the data's range
#: (the largest range max_i x_ij − min_i x_ij of a feature: 255 for grey-level images; unchanged
#: when a vector is added to every sample, so CRPCA-OM's iterates are translation-equivariant).
#: Taken literally on 0–255 data (µ₀ = 0.1), the ALM meets its primal stopping rule within a few
#: iterations at a point far from the minimum (on the occluded faces, γ = 3: objective 3.08e5
#: against the minimum 1.28e5): the penalty is then 255 times too stiff. Also used for Outlier
#: Pursuit ("the same ALM without b").
MU0_ALM = 0.1
#: The predicted rank of the first SVT (Lin, Chen & Ma 2010 start with sv = 10).
K_PRED0 = 10
MU_MAX_ALM = 1e8
#: Lin, Chen & Ma 2010 (inexact ALM for PCP): µ₀ = PCP_MU0_FACTOR / ‖X‖₂, µ_max = µ₀ × 1e7.
PCP_MU0_FACTOR = 1.25
PCP_MU_MAX_RATIO = 1e7
N_COMPONENTS_CAP = ParamSpec(
    "n_components", "k", "int", 0,
    "rank cap: the SVT keeps at most k singular values (0 = no cap, the convex model's own rank)",
    low=0, slider=(0, 100))



# =========================================================================== the optimal-mean step
def optimal_mean_svt(Xt: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """The (b, Z) step of Nie et al. 2014 Algorithm 3: the unique minimiser of its eq. (32)::

        min_{b, Z} ½‖X̃ − 1bᵀ − Z‖_F² + τ‖Z‖_*

    Theorem 3: ``b = mean of the rows of X̃`` (the paper's ``(1/n) X̃1``) and ``Z = SVT_τ`` of the
    centred ``X̃ − 1bᵀ`` (the paper's ``X̃H``), so that ``Zᵀ1 = 0`` (paper: ``Z1 = 0``).
    Xt is (n_samples, n_features); returns ``b`` (n_features,) and ``Z`` (n_samples, n_features)."""
    b = Xt.mean(axis=0)
    return b, svt(Xt - b, tau)


# =========================================================================== shared ALM machinery
@dataclass(frozen=True)
class _Run:
    """Shared by every state of one run (never modified)."""
    X: np.ndarray           # the data the ALM sees (centred when ``center``), (n, d)
    offset: np.ndarray      # (d,) added back to the low-rank part for ``fitted`` (centring vector or 0)
    norm_X: float           # ‖X‖_F of the data the ALM sees (> 0, or 1.0 if X = 0)
    v0: np.ndarray | None   # ARPACK start vector, or None for no partial SVD
    mu0: float              # µ of the first iteration
    mu_max: float           # cap on µ
    gamma: float = 0.0      # γ of this run, "scale" resolved (Outlier Pursuit, CRPCA-OM)


@dataclass(frozen=True)
class _Iterate:
    """The ALM variables a state carries besides what it shows (arrays read-only)."""
    run: _Run
    dual: np.ndarray        # Λ (Nie et al. 2014) / Y (Lin et al.), (n, d)
    mu: float               # µ for the next iteration
    k_pred: int             # predicted number of singular triplets for the next SVT
    factors: tuple | None   # (U_r(Σ_r − τ), V_rᵀ): Z / L of this iterate as factors (None: 0)
    subspace: np.ndarray | None = None  # (k, d) right singular block warm-starting the next partial SVD

    def low_rank(self) -> np.ndarray:
        if self.factors is None:
            return _zeros(self.run.X)
        with one_blas_thread():
            return self.factors[0] @ self.factors[1]


def _zeros(like: np.ndarray) -> np.ndarray:
    """A zero array of ``like``'s shape and dtype from :func:`core.memory.fresh` (memory mapped
    already zeroed, in small pages when first written), not ``np.zeros_like`` (which writes every
    zero: at 40,000 × 4096 the page faults of that write cost 1–7 s, more than linearly in the size)."""
    return fresh_like(like)


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


RHO_DOC = ("µ grows by this factor each iteration (1 < ρ < 2): larger converges in fewer "
           "iterations but less accurately per iteration")
MAX_ITER_ALM = replace(MAX_ITER, default=500, doc="stop after this many ALM iterations")
TOL_ALM = replace(TOL, default=1e-7, doc="stop when the primal residual ‖X − low-rank − sparse‖_F/‖X‖_F "
                                          "falls below this")
CENTER_DOC = ("subtract the ℓ2 mean of the samples first and add it back to the reconstruction "
              "(False: run on the raw data)")


def _check_finite(est, A: np.ndarray, iteration: int) -> None:
    """SolverError unless every entry of A is finite (one reduction, no boolean temporary: a sum
    of finite values is finite unless they reach ~1e308, far beyond any data this accepts)."""
    if not math.isfinite(float(np.einsum("ij->", A))):
        est._fail(iteration, "the matrix to threshold")


def _previous_low_rank(state: State, it: "_Iterate") -> np.ndarray | None:
    """The low-rank part L of ``state`` (None for 0): ``fitted − mean`` (``fitted`` itself when the
    mean is 0, no copy), else the product of its factors."""
    if it.factors is None:
        return None
    if not np.any(state.mean):
        return state.fitted
    return it.low_rank()


def _tol_floor(dtype) -> float:
    """The smallest primal residual the ALM can reach in ``dtype``: 0 for float64 (``tol`` rules),
    10 × machine epsilon (1.2e-6) for float32, where a ``tol`` of 1e-7 is never met (measured: PCP
    on 1000 digits ran to max_iter = 500 in float32, 140 iterations in float64)."""
    return 0.0 if np.dtype(dtype) == np.float64 else 10.0 * float(np.finfo(dtype).eps)


def _fro(A: np.ndarray) -> float:
    """‖A‖_F without BLAS (see ONE_THREAD_MAX_ENTRIES)."""
    return math.sqrt(float(np.einsum("ij,ij->", A, A)))


def _fro_diff(A: np.ndarray, B: np.ndarray | None, rows: int = 256) -> float:
    """‖A − B‖_F (``‖A‖_F`` when B is None) by blocks of rows: no full-size temporary (the ALM
    iterations at 10,000 × 4096 are memory-bound)."""
    if B is None:
        return _fro(A)
    total = 0.0
    for i in range(0, A.shape[0], rows):
        D = A[i:i + rows] - B[i:i + rows]
        total += float(np.einsum("ij,ij->", D, D))
    return math.sqrt(total)


#: The first SVT of each ALM warm-starts from the block its start computed σ₁ (or v₁) with: a
#: block of the first predicted rank plus the oversampling (:func:`core.prox.svt_predicted`).
START_BLOCK = K_PRED0 + PARTIAL_SVD_OVERSAMPLING


def no_cap_as_zero(params: dict[str, Any]) -> dict[str, Any]:
    """``params`` with ``n_components=None`` (no rank cap, stored unchanged by the estimator) as
    the catalogue spells it: 0."""
    return dict(params, n_components=0) if params.get("n_components", 0) is None else params


class _InexactALM(SteppableEstimator):
    """Common code: state assembly, the NaN guard and the stopping rule (primal residual < tol)."""

    n_components: int | None          # None: no rank cap (the catalogue spells it 0)

    _partial_svd_allowed = True
    #: float32 data are solved in float32 (tolerance floored at 1.2e-6, see the stopping rule)
    preserves_float32 = True
    work_factors = (4.2, 3.3)    # L, S, the dual and the SVT's blocks (core.working)

    # ----------------------------------------------------------------- rank cap
    def _rank_cap(self) -> int | None:
        k = self.n_components
        return None if k is None or int(k) == 0 else int(k)

    def _catalogue_params(self) -> dict[str, Any]:
        return no_cap_as_zero(self.get_params())

    # ----------------------------------------------------------------- fitted attributes
    def _set_fitted(self, state: State, dtype: type) -> None:
        """The attributes of :meth:`SteppableEstimator.fit` plus

        * ``rank_`` : the rank of the fitted low-rank part (L or Z);
        * ``gamma_`` (Outlier Pursuit, CRPCA-OM; set by ``start``) : the γ used, "scale" resolved;
        * ``basis_`` : (rank_, n_features) all its right singular vectors (``components_`` holds
          at most 100 of them; none, shape (0, n_features), when rank_ = 0: the low-rank part is
          zero, and :meth:`note` says so in the status line).

        The low-rank and sparse parts of the training data are not kept (the size of X): they
        are the final state's ``fitted`` and ``sparse_part`` (:meth:`fit_state`)."""
        super()._set_fitted(state, dtype)
        it: _Iterate = state._ctx
        self.rank_ = int(state.scalars["rank"])
        if it.factors is not None and it.factors[1].shape[0]:
            basis: np.ndarray = np.array(it.factors[1], dtype=dtype)
            basis *= orientation(basis)[:, None]
        else:
            basis = np.zeros((0, state.mean.shape[0]), dtype=dtype)   # rank 0 (Z = 0)
        self.basis_ = basis
        if self.rank_ == 0:
            self.components_ = basis.copy()        # (0, n_features): no direction was learned

    @property
    def _n_features_out(self) -> int:
        return self.basis_.shape[0]

    def note(self, state: State) -> str:
        """``"rank 0: ..."`` when the fitted low-rank part is zero (the weight between the two
        terms, λ or γ, sent the whole data to the sparse part), else ""."""
        if int(state.scalars.get("rank", 1)) == 0:
            return ("rank 0: the low-rank part is zero and everything went to the sparse part; "
                    "another λ (PCP: larger) or γ (smaller) keeps a low-rank part")
        return ""

    def transform(self, X: Any) -> np.ndarray:
        """Coordinates (n_samples, rank_) of X in the learned basis ``basis_`` (the right
        singular vectors of the fitted low-rank part): the orthogonal projection
        ``(X − mean_) basis_ᵀ`` of every sample, training samples included (the model has no
        sparse part for a given sample; the training data's own low-rank part L is the final
        state's, :meth:`fit_state`: ``fitted − mean``). One linear function of X: continuous,
        row by row. float32 for float32 X."""
        check_is_fitted(self, "state_")
        dtype = float_dtype(X)
        X = self._validate(X, reset=False, min_samples=1, min_features=1)
        return np.asarray((X - self.mean_) @ self.basis_.T, dtype=dtype)

    def inverse_transform(self, Y: Any) -> np.ndarray:
        """Images ``Y basis_ + mean_`` (n_samples, n_features) from coordinates (n_samples, rank_)."""
        Y = self._check_coordinates(Y, self.basis_)
        return Y @ self.basis_.astype(Y.dtype, copy=False) + self.mean_.astype(Y.dtype, copy=False)

    def _threads(self, X: np.ndarray):
        return one_blas_thread() if X.size <= ONE_THREAD_MAX_ENTRIES else nullcontext()

    def _start(self, X: np.ndarray) -> State:
        with self._threads(X):
            return self._first(X)

    def _step(self, state: State) -> State:
        with self._threads(state._ctx.run.X):
            return self._iterate(state)

    def _fail(self, iteration: int, what: str):
        raise SolverError(f"{self.name} stopped at iteration {iteration}: {what} is NaN or infinite. "
                          "The data may hold extreme values; rescale it (e.g. to grey levels 0–255).")

    def _make_run(self, X: np.ndarray, center: bool) -> _Run:
        offset = X.mean(axis=0) if center else np.zeros(X.shape[1], dtype=X.dtype)
        Xa = np.subtract(X, offset, out=fresh_like(X)) if center else X
        norm = _fro(Xa)
        if not math.isfinite(norm):
            self._fail(0, "‖X‖_F")
        v0 = (np.random.default_rng(0).standard_normal(min(X.shape))
              if self._partial_svd_allowed else None)
        scale = float(np.ptp(X, axis=0).max()) or 1.0    # largest feature range: shift-invariant
        return _Run(X=_frozen(Xa), offset=_frozen(offset), norm_X=norm if norm > 0 else 1.0, v0=v0,
                    mu0=MU0_ALM / scale, mu_max=MU_MAX_ALM / scale)

    def _state(self, prev: State | None, *, run: _Run, dual, mu, k_pred, low_rank, factors, sparse, mean,
               components, rank, mu_used, residual, objective, sparse_norms,
               dual_residual=1.0, subspace=None, owned=False) -> State:
        """``owned``: low_rank is the caller's to overwrite (the mean is then added in place)."""
        n = run.X.shape[0]
        if low_rank is None:
            fitted = _zeros(run.X)
            if np.any(mean):
                fitted[...] = mean
        elif np.any(mean) and owned:
            low_rank += mean
            fitted = low_rank
        elif np.any(mean):
            fitted = np.add(low_rank, mean, out=fresh_like(low_rank))
        else:                      # no offset: the reconstruction is the low-rank part itself
            fitted = low_rank
        ctx = _Iterate(run=run, dual=_frozen(dual), mu=mu, k_pred=k_pred,
                       factors=factors, subspace=subspace)
        # The dual residual compares two iterates: at iteration 0 (no step yet) it is shown as 1.
        scalars = {"rank": int(rank), "μ": float(mu_used), "primal residual": float(residual),
                   "dual residual": float(dual_residual)}
        fields: dict[str, Any] = dict(
            components=components, mean=mean, sample_weights=None, sparse_part=sparse,
            fitted=fitted, details={"outlier score": _frozen(np.asarray(sparse_norms, dtype=float).reshape(n))},
            scalars=scalars,
            converged=bool(residual < max(float(self.tol), _tol_floor(run.X.dtype))), _ctx=ctx)
        if prev is None:
            return State(method=self.name, iteration=0, objective=float(objective),
                         objective_history=(float(objective),), **fields)
        if not (math.isfinite(objective) and math.isfinite(residual)):
            self._fail(prev.iteration + 1, "the objective or the primal residual")
        return self._next_state(prev, objective=objective, **fields)


# =========================================================================== PCP
PCP_PARAMS = (
    ParamSpec("lam_scale", "λ·√max(n,d)", "float", 1.0,
              "λ as a multiple of Candès et al.'s 1/√max(n_samples, n_features)",
              low=0.0, low_open=True, scale="log", slider=(0.1, 10.0)),
    ParamSpec("center", "centre", "bool", False, CENTER_DOC),
    ParamSpec("rho", "ρ", "float", 1.1, RHO_DOC, low=1.0, high=2.0, low_open=True, high_open=True,
              slider=(1.05, 1.95)),
    MAX_ITER_ALM,
    TOL_ALM,
    N_COMPONENTS_CAP,
)


_RANK_CAP_DOC = """n_components : None (default, no cap: the convex model's own rank) or k >= 1: the SVT keeps
        at most k singular values, ``U_k(Σ_k − τ)₊V_kᵀ`` (the exact prox of the nuclear norm
        under ``rank <= k``; the problem is then no longer convex). The catalogue spells None as 0.

    Fitted attributes (besides those of ``SteppableEstimator.fit``): ``rank_`` (rank of the
    low-rank part, also the scalar ``rank``), ``basis_`` (rank_, n_features) its right singular
    vectors. ``transform(X)`` is the orthogonal projection ``(X − mean_) basis_ᵀ`` of any X,
    training data included (``fit_transform(X) = fit(X).transform(X)``);
    ``inverse_transform(C) = C basis_ + mean_``. The method's own decomposition of its training
    data, the reconstruction L + mean / Z + b and the sparse part S / E, is the final state's
    ``fitted`` and ``sparse_part`` (:meth:`fit_state`); the estimator does not keep them."""


@register(
    objective_note="rises from 0 as L + S = X is enforced (by design)",
    key="pcp", name="PCP", family="low-rank + sparse",
    reference="Candès, Li, Ma & Wright, J. ACM 2011 (Principal Component Pursuit); inexact ALM of "
              "Lin, Chen & Ma 2010; Nie et al. 2014 eq. (28)",
    summary="Splits the data into a low-rank part L and an entrywise sparse part S: "
            "min ‖L‖_* + λ‖S‖₁ subject to X = L + S.",
    params=PCP_PARAMS,
)
class PCP(_InexactALM):
    __doc__ = """Principal Component Pursuit (Candès, Li, Ma & Wright 2011) by inexact ALM::

        min_{L, S} ‖L‖_* + λ‖S‖₁   subject to   X = L + S,     λ = lam_scale / √max(n, d)

    (Nie et al. 2014 eq. (28) is the same model written unconstrained with γ = 1/λ). ℓ1 is entrywise,
    so the sample/feature orientation does not matter. Inexact ALM of Lin, Chen & Ma (2010,
    ``inexact_alm_rpca``), one iteration per step::

        S ← soft_threshold(X − L + Y/µ, λ/µ)
        L ← SVT(X − S + Y/µ, 1/µ)
        Y ← Y + µ (X − L − S);   µ ← min(ρµ, µ̄)

    with their standard choices: ``Y₀ = X / max(‖X‖₂, ‖X‖_∞/λ)``, ``L₀ = S₀ = 0``,
    ``µ₀ = 1.25/‖X‖₂``, ``µ̄ = 1e7 µ₀``; ρ (parameter) 1.1 rather than their 1.5. Stops when the primal residual
    ``‖X − L − S‖_F/‖X‖_F < tol``, or after ``max_iter`` iterations.

    Parameters
    ----------
    lam_scale : λ in units of 1/√max(n_samples, n_features) (Candès et al.'s choice is 1; the
        catalogue cannot hold "None = automatic", hence the scale), > 0.
    center : False (default) runs on the raw data as Candès et al.; True subtracts the ℓ2 mean
        of the samples first and adds it back to the reconstruction.
    rho : 1 < ρ < 2. Default 1.1: on the built-in faces PCP then stops 6e-7 above the optimum
        (100 iterations); Lin et al.'s 1.5 stopped 5e-4 above it with rank 61 instead of 56, because
        the primal-residual rule is met once µ is large, before the minimum is reached.
    max_iter, tol : stopping rule.
    {rank_cap}

    X is (n_samples, n_features), grey levels 0–255 (any scale works: the model is homogeneous).

    State
    -----
    objective : ``‖L‖_* + λ‖S‖₁`` of the current iterate (0 at iteration 0, where L = S = 0).
    components : the leading right singular vectors of L (feature-space directions), as many as
        its rank (at least 1, at most 100); at iteration 0 that of the data.
    mean : the centring vector (center=True) or zeros. fitted : ``L + mean``.
    sparse_part : S. details["outlier score"] : ‖s_i‖₂ per sample. sample_weights : None.
    scalars : ``rank`` (of L), ``μ`` (the µ of this iteration), ``primal residual`` (the
        stopping rule), ``dual residual`` ``µ‖L − L_prev‖_F/‖Y‖_F`` (diagnostic; 1 at iteration 0, where no step has been taken).

    Raises ParameterError (at ``start``, naming the parameter), DataError (bad X), SolverError
    (a NaN or infinite value, naming the iteration).
    """.replace("{rank_cap}", _RANK_CAP_DOC)

    def __init__(self, lam_scale: float = 1.0, center: bool = False, rho: float = 1.1,
                 max_iter: int = 500, tol: float = 1e-7, n_components: int | None = None):
        self.lam_scale = lam_scale
        self.center = center
        self.rho = rho
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components

    def _lambda(self, X: np.ndarray) -> float:
        return float(self.lam_scale) / math.sqrt(max(X.shape))

    def _first(self, X: np.ndarray) -> State:
        run = self._make_run(X, bool(self.center))
        Xa, lam = run.X, self._lambda(X)
        norm2, v1, block = leading_block(Xa, START_BLOCK)
        if norm2 > 0:
            dual = np.divide(Xa, max(norm2, max(float(Xa.max()), -float(Xa.min())) / lam),   # ‖X‖_∞: no |X| copy
                             out=_zeros(Xa))
            mu = PCP_MU0_FACTOR / norm2
        else:
            dual, mu = _zeros(Xa), 1.0
        run = replace(run, mu0=mu, mu_max=PCP_MU_MAX_RATIO * mu)
        residual = _fro(Xa) / run.norm_X
        comps = v1 * orientation(v1)[:, None] if norm2 > 0 else np.eye(1, X.shape[1], dtype=X.dtype)
        return self._state(None, run=run, dual=dual, mu=mu, k_pred=K_PRED0,
                           low_rank=None, factors=None, sparse=_zeros(Xa), mean=run.offset,
                           components=comps, rank=0, mu_used=mu, residual=residual, objective=0.0,
                           sparse_norms=np.zeros(len(X)), subspace=block)

    def _iterate(self, state: State) -> State:
        # Memory-bound at scale (10,000 × 4096: each full-size pass ~0.1 s): the steps below are
        # written in place, with as few full-size temporaries as the immutable states allow.
        it: _Iterate = state._ctx
        run, mu, Y = it.run, it.mu, it.dual
        X, lam, k = run.X, self._lambda(run.X), state.iteration + 1
        L_prev = _previous_low_rank(state, it)
        # the arrays the new state keeps (A: the dual, S, L) in memory of core.memory.fresh
        A = np.divide(Y, mu, out=_zeros(Y))
        A += X                                         # X + Y/µ
        S = _zeros(A)
        if L_prev is not None:
            np.subtract(A, L_prev, out=S)
        else:
            np.copyto(S, A)
        l1 = soft_threshold_inplace(S, lam / mu)       # S = shrink_{λ/µ}(X − L + Y/µ)
        A -= S                                         # A = X − S + Y/µ, thresholded below
        _check_finite(self, A, k)
        interrupt.checkpoint()
        res = svt_predicted(A, 1.0 / mu, it.k_pred, run.v0, self._rank_cap(), start=it.subspace)
        L = res.matrix(fresh=True)
        interrupt.checkpoint()
        # Y ← Y + µ(X − L − S) = µ(A − L), in A's memory; the primal residual X − L − S = (Y_new − Y)/µ
        A -= L
        A *= mu
        Y_new = A
        residual = _fro_diff(Y_new, Y) / mu / run.norm_X
        Y = Y_new
        dual_res = mu * _fro_diff(L, L_prev) / max(_fro(Y), 1e-300)
        objective = res.nuclear + lam * l1
        return self._state(state, run=run, dual=Y, mu=min(float(self.rho) * mu, run.mu_max), k_pred=res.k_next,
                           low_rank=L, owned=True, factors=(res.left, res.right), sparse=S, mean=run.offset,
                           components=res.components,
                           rank=res.rank, mu_used=mu, residual=residual, objective=objective,
                           sparse_norms=np.sqrt(np.einsum("ij,ij->i", S, S)), dual_residual=dual_res,
                           subspace=res.subspace)


# =========================================================================== Outlier Pursuit / CRPCA-OM
#: ``gamma="scale"``: γ = max(GAMMA_FLOOR, GAMMA_SCALE · √(n_samples/n_features)) (see _GAMMA_DOC)
GAMMA_FLOOR = 1.5
GAMMA_SCALE = 2.0


def gamma_scale(n_samples: int, n_features: int) -> float:
    """The γ that ``gamma="scale"`` stands for on data of n_samples × n_features:
    ``max(1.5, 2·√(n_samples/n_features))`` to 4 significant digits (the number the app shows is
    the one used): 1.5 (the former fixed default) up to n_samples = 0.5625·n_features."""
    return float(f"{max(GAMMA_FLOOR, GAMMA_SCALE * math.sqrt(n_samples / n_features)):.4g}")


GAMMA = ParamSpec(
    "gamma", "γ", "float", "scale",
    "weight of the nuclear norm: larger γ, lower rank (Z = 0 once γ >= √n_samples); "
    "'scale' (default): max(1.5, 2·√(n_samples/n_features)), from the data's shape",
    low=0.0, low_open=True, scale="log", slider=(0.1, 100.0), auto="scale", resolve=gamma_scale)
RHO_ALM = ParamSpec("rho", "ρ", "float", 1.1, RHO_DOC, low=1.0, high=2.0, low_open=True,
                    high_open=True, slider=(1.05, 1.95))


class _L21ALM(_InexactALM):
    """Paper 001 Algorithm 3 (optimal mean) or the same ALM without b (Outlier Pursuit)."""

    _optimal_mean = True
    #: centre the data first (Outlier Pursuit's parameter; CRPCA-OM learns its mean b instead)
    center: bool = False

    def _first(self, X: np.ndarray) -> State:
        run = self._make_run(X, bool(self.center))
        Xa = run.X
        self.gamma_ = float(GAMMA.resolved(self.gamma, X.shape))
        run = replace(run, gamma=self.gamma_)
        # Paper 001 Algorithm 3: E = 0, Λ = 0, µ = µ₀. Iteration 0 shows Z = 0 with the b the
        # first step will compute (the mean of the rows, CRPCA-OM) or b = 0 (Outlier Pursuit).
        b = Xa.mean(axis=0) if self._optimal_mean else np.zeros(X.shape[1], dtype=X.dtype)
        C = np.subtract(Xa, b, out=_zeros(Xa))
        residual = _fro(C) / run.norm_X
        # v₁ of C for the display; its block warm-starts the first SVT, whose matrix is C itself
        _, v1, block = leading_block(C, START_BLOCK)
        comps = v1 * orientation(v1)[:, None]
        return self._state(None, run=run, dual=_zeros(Xa), mu=run.mu0,
                           k_pred=K_PRED0, low_rank=None, factors=None,
                           sparse=_zeros(Xa), mean=run.offset + b, components=comps, rank=0,
                           mu_used=run.mu0, residual=residual, objective=0.0,
                           sparse_norms=np.zeros(len(X)), subspace=block)

    def _iterate(self, state: State) -> State:
        # In place where the immutable states allow (see PCP._iterate).
        it: _Iterate = state._ctx
        run, mu, Lam = it.run, it.mu, it.dual
        X, gamma, k = run.X, run.gamma, state.iteration + 1
        E_prev = state.sparse_part
        # 1. (b, Z) ← argmin ½‖X̃ − 1bᵀ − Z‖² + (γ/µ)‖Z‖_*, X̃ = X − E + Λ/µ  (eq. 32, Theorem 3)
        A = np.divide(Lam, mu, out=_zeros(Lam))       # the new state's E, in core.memory.fresh memory
        A += X
        A -= E_prev  # type: ignore[arg-type]  # X̃ (the sparse part of an ALM state is set)
        if self._optimal_mean:
            b = A.mean(axis=0)
            A -= b
        else:
            b = np.zeros(X.shape[1], dtype=X.dtype)
        _check_finite(self, A, k)
        interrupt.checkpoint()
        res = svt_predicted(A, gamma / mu, it.k_pred, run.v0, self._rank_cap(), start=it.subspace)
        Z = res.matrix(fresh=True)
        interrupt.checkpoint()
        # 2. E ← argmin ½‖E − T‖² + (1/µ)‖E‖_{2,1}, T = X − 1bᵀ − Z + Λ/µ = (X̃ − 1bᵀ) + E_prev − Z
        #    (eq. 33, row-wise here), all in A's memory
        A += E_prev  # type: ignore[arg-type]
        A -= Z
        scale, rest, e_norms = row_shrink_factors(A, 1.0 / mu)
        # 3. Λ ← Λ + µ(X − 1bᵀ − Z − E) = µ(T − E) = µ·rest_i·t_i (rows of norm <= 1); the primal
        #    residual X − 1bᵀ − Z − E = (Λ_new − Λ)/µ.  4. µ ← min(ρµ, µ_max)
        Lam_new = np.multiply(A, (mu * rest)[:, None], out=_zeros(A))
        A *= scale[:, None]
        E = A
        residual = _fro_diff(Lam_new, Lam) / mu / run.norm_X
        Lam = Lam_new
        dual_res = mu * _fro_diff(E, E_prev) / max(_fro(Lam), 1e-300)
        objective = float(e_norms.sum()) + gamma * res.nuclear
        return self._state(state, run=run, dual=Lam, mu=min(float(self.rho) * mu, run.mu_max),
                           k_pred=res.k_next, low_rank=Z, owned=True, factors=(res.left, res.right), sparse=E,
                           mean=run.offset + b,
                           components=res.components, rank=res.rank, mu_used=mu, residual=residual,
                           objective=objective, sparse_norms=e_norms, dual_residual=dual_res,
                           subspace=res.subspace)


_L21_STATE_DOC = """
    State
    -----
    objective : ``‖E‖_{2,1} + γ‖Z‖_*`` of the current iterate (0 at iteration 0, where E = Z = 0).
    components : the leading right singular vectors of Z (feature-space directions, the basis
        images), as many as its rank (at least 1, at most 100); at iteration 0 that of the data.
    mean : {mean}. fitted : ``1·meanᵀ + Z``, the method's reconstruction {rec}.
    sparse_part : E (grey levels). details["outlier score"] : ‖e_i‖₂ per sample (large for
        outlying samples). sample_weights : None.
    scalars : ``rank`` (of Z), ``μ`` (the µ of this iteration), ``primal residual``
        ``‖X − 1bᵀ − Z − E‖_F/‖X‖_F`` (the stopping rule), ``dual residual``
        ``µ‖E − E_prev‖_F/‖Λ‖_F`` (how far the (b, Z) step is from optimal for the new E; a
        diagnostic only; 1 at iteration 0, where no step has been taken).

    Raises ParameterError (at ``start``, naming the parameter: γ <= 0, ρ outside (1, 2), ...),
    DataError (bad X), SolverError (a NaN or infinite value, naming the iteration).
"""

_GAMMA_DOC = """gamma : γ > 0, or "scale" (default): γ = max(1.5, 2·√(n_samples/n_features)) to 4
        significant digits (:func:`gamma_scale`), resolved when the run starts and stored as
        ``gamma_`` (as scikit-learn's ``SVC(gamma="scale")``); any other text raises
        ParameterError. Why the shape. The paper's Figure 1 uses γ = 30–90 (0–255 images of
        ~1000 pixels), but the solution does not depend on the pixel scale, only on the shape:
        with the sample-wise ℓ2,1 loss the dual variable Λ has rows of norm <= 1, so ‖Λ‖₂ <= √n
        and Z = 0 (rank 0, reconstruction = the mean only) as soon as γ >= √n_samples. At the
        other end E = 0 and Z reproduces the data (full rank) exactly when γ·max_i ‖u_i‖₂ <= 1,
        u_i the rows of U in the thin SVD X = UΣVᵀ (of the centred data for CRPCA-OM): Λ = γUVᵀ
        must have rows of norm <= 1 (the ℓ2,1 subgradient at E = 0), and with full column rank
        UVᵀ is the only subgradient of ‖X‖_* (tested at 0.97 and 1.03 × that γ). With
        n_samples <= n_features the rows of U are unit vectors and the bound is γ <= 1; with
        more samples than features the leverages ‖u_i‖² average n_features/n_samples, so for
        noisy data the bound approaches √(n_samples/n_features). So the useful range is about
        max(1, √(n_samples/n_features)) < γ < √n_samples; "scale" keeps the former fixed 1.5
        where n_samples <= 0.5625·n_features and takes 2 × the lower end above. Measured (to
        convergence, the app's default corruption: 20 % of the images with rectangles of dots;
        AUC of the outlier score ‖e_i‖ against the occluded images; relative error of the
        reconstruction against the clean images; CRPCA-OM, Outlier Pursuit alike):
        the 100 faces (100 × 625, γ = 1.5 as before): rank 16, AUC 1.000, error 0.250 (γ = 2:
        rank 7, 0.288; γ = 3: rank 2, 0.339). The 5,000 digits (5,000 × 784, γ = 5.051, measured at 5.05):
        rank 95–96, AUC 1.000, error 0.40, where the former 1.5 ended at rank 717 of 784 (the data
        reproduced) with AUC 0.830 and error 0.365, and 1.5·√(n/d) = 3.79 at rank 230, AUC
        1.000, error 0.325; with the lesson's rank cap k = 5 γ hardly matters there (AUC
        0.977–0.981, error 0.640–0.651 for γ = 1.5–5.05; PCA 0.639). Synthetic 10,000 × 4096
        (rank 20 plus noise, 10 % outlier rows; γ = 3.125): ranks 20–21 from the first
        iteration (benchmarks/bench_convex_scale.py), where 1.5·√(n/d) = 2.34 passes through
        rank 203 at iteration 2 (an ALM transient of the early, small µ) and γ = 1.5 climbs to
        full rank. The slider (log scale) offers 0.1–100. No pixel scaling makes the paper's γ = 30–90
        meaningful (both norms are 1-homogeneous: X/255 gives Z/255 at the same γ); only
        n_samples > 900–8100 would. Taken literally (µ₀ = 0.1 on 0–255 data) Algorithm 3 stops
        after ~40 iterations far from the minimum with rank 3 at γ = 30 on the faces — a likely
        source of the paper's non-trivial ranks. To choose the rank directly, use
        ``n_components``."""


@register(
    objective_note="rises from 0 as its constraint is enforced (by design)",
    key="outlier-pursuit", name="Outlier Pursuit", family="low-rank + sparse",
    reference="Xu, Caramanis & Sanghavi, IEEE TIT 2012; Nie et al. 2014 eq. (29) (its baseline CRPCA), "
              "solved by Algorithm 3 without b",
    summary="Low-rank part Z plus sample-sparse part E (whole outlying samples): "
            "min ‖X − Z‖_{2,1} + γ‖Z‖_*, ℓ2,1 summed over samples.",
    params=(GAMMA, ParamSpec("center", "centre", "bool", False, CENTER_DOC), RHO_ALM,
            MAX_ITER_ALM, TOL_ALM, N_COMPONENTS_CAP),
)
class OutlierPursuit(_L21ALM):
    __doc__ = """Outlier Pursuit (Xu, Caramanis & Sanghavi 2012), Nie et al. 2014 eq. (29), baseline "CRPCA"::

        min_Z ‖X − Z‖_{2,1} + γ‖Z‖_*  ⇔  min ‖E‖_{2,1} + γ‖Z‖_*  s.t.  X = Z + E

    ‖·‖_{2,1} sums the ℓ2 norms of the samples: the papers' columns, our rows. Solved by paper
    001's Algorithm 3 without b (b ≡ 0): inexact ALM with E = Λ = 0, µ₀ = 0.1/s,
    µ ← min(ρµ, 1e8/s), s the data's range (see :class:`CRPCAOM`)::

        Z ← SVT(X − E + Λ/µ, γ/µ);   E ← row_shrink(X − Z + Λ/µ, 1/µ)
        Λ ← Λ + µ(X − Z − E)

    Stops when ``‖X − Z − E‖_F/‖X‖_F < tol`` or after ``max_iter`` iterations.

    Centring. Paper 001 is ambiguous whether its CRPCA ran on centred data (§3.4 of the
    extraction), so both are offered: ``center=False`` (default) runs on the raw data, and the
    reconstruction is ``z_i`` (not translation-equivariant, 001 claim 6); ``center=True``
    subtracts the ℓ2 mean m of the samples first and reconstructs ``m + z_i``.

    Parameters
    ----------
    {gamma}
    center : see above.
    rho : 1 < ρ < 2 (the paper gives no value; default 1.1, see :class:`CRPCAOM`).
    max_iter, tol : stopping rule (default 500, 1e-7).
    {rank_cap}

    X is (n_samples, n_features), grey levels 0–255.
    {state}""".replace("{rank_cap}", _RANK_CAP_DOC).replace("{gamma}", _GAMMA_DOC).replace("{state}", _L21_STATE_DOC.replace(
        "{mean}", "the ℓ2 mean m (center=True) or zeros").replace("{rec}", "``m + z_i`` or ``z_i``"))

    _optimal_mean = False

    def __init__(self, gamma: float | str = "scale", center: bool = False, rho: float = 1.1,
                 max_iter: int = 500, tol: float = 1e-7, n_components: int | None = None):
        self.gamma = gamma
        self.center = center
        self.rho = rho
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components


@register(
    objective_note="rises from 0 as its constraint is enforced (by design)",
    key="crpca-om", name="CRPCA-OM", family="low-rank + sparse",
    reference="Nie, Yuan & Huang, ICML 2014: Algorithm 3, eqs. (30)–(33), Theorem 3",
    summary="Outlier Pursuit with the mean as a variable: min_(b,Z) ‖X − 1bᵀ − Z‖_{2,1} + γ‖Z‖_*; "
            "each ALM step's b is the mean of X − E + Λ/µ, so outlying samples (large E) stop "
            "pulling the mean.",
    params=(GAMMA, RHO_ALM, MAX_ITER_ALM, TOL_ALM, N_COMPONENTS_CAP),
)
class CRPCAOM(_L21ALM):
    __doc__ = """CRPCA-OM, Nie et al. 2014 Algorithm 3 (inexact ALM), eq. (30)::

        min_{b, Z} ‖X − 1bᵀ − Z‖_{2,1} + γ‖Z‖_*  ⇔  min ‖E‖_{2,1} + γ‖Z‖_*  s.t.  X − 1bᵀ − Z = E  (31)

    The paper's samples are the columns of a d × n matrix and ‖·‖_{2,1} sums column norms; here
    samples are rows, so it sums the ℓ2 norms of the rows, ``b1ᵀ`` is ``1bᵀ`` and the paper's
    ``Z1 = 0`` is ``Zᵀ1 = 0`` (the columns of Z sum to zero over the samples). One iteration, with
    µ₀ = 0.1/s, µ_max = 1e8/s, E = Λ = 0 at the start (s: see below)::

        1. X̃ = X − E + Λ/µ;  b = mean of the rows of X̃;  Z = SVT(X̃ − 1bᵀ, γ/µ)
           (the exact minimiser of eq. (32), Theorem 3: see :func:`optimal_mean_svt`)
        2. E = row_shrink(X − 1bᵀ − Z + Λ/µ, 1/µ)     (eq. 33, closed form; :func:`row_shrink`)
        3. Λ ← Λ + µ(X − 1bᵀ − Z − E)
        4. µ ← min(ρµ, 1e8)

    (the paper numbers step 4 "3." again: a typo). Stopping rule (the paper gives none; the
    standard inexact-ALM one): ``‖X − 1bᵀ − Z − E‖_F/‖X‖_F < tol`` or ``max_iter`` iterations.
    Symbols in the extracted text were damaged and rebuilt by the extraction (§3.4); nothing
    else is corrected.

    Data scale (interpretation, not in the paper). The paper's µ₀ = 0.1 and µ_max = 1e8 are
    absolute, but µ has units of 1/intensity (the E step thresholds rows at 1/µ grey levels).
    They are read as values for intensities in [0, 1] and divided by the data's range
    s = max_j (max_i x_ij − min_i x_ij) (255 for grey levels; unchanged by translations).
    Taken literally on 0–255 data the ALM meets its stopping rule after 2 iterations at a point
    far from the minimum (occluded faces, γ = 3: objective 3.08e5, minimum 1.28e5, full rank 99
    instead of 2), because the primal residual can vanish before the dual one does.

    Translation-equivariant: adding c to every sample shifts b by c and leaves Z and E unchanged
    (001 claim 6).

    Parameters
    ----------
    {gamma}
    rho : 1 < ρ < 2 (the paper gives only the range). Default 1.1: on the occluded faces it
        stops after 20–30 iterations with the objective within 1e-9 of the minimum (dual
        residual ~1e-5); ρ = 1.2 takes as many iterations and lands 1e-6 off, ρ = 1.5 2e-3 off.
    max_iter, tol : stopping rule (default 500, 1e-7).
    {rank_cap}

    X is (n_samples, n_features), grey levels 0–255.
    {state}""".replace("{rank_cap}", _RANK_CAP_DOC).replace("{gamma}", _GAMMA_DOC).replace("{state}", _L21_STATE_DOC.replace(
        "{mean}", "b, the optimal mean").replace("{rec}", "``b + z_i`` (Nie et al. 2014 §5.3)"))

    _optimal_mean = True

    def __init__(self, gamma: float | str = "scale", rho: float = 1.1, max_iter: int = 500, tol: float = 1e-7,
                 n_components: int | None = None):
        self.gamma = gamma
        self.rho = rho
        self.max_iter = max_iter
        self.tol = tol
        self.n_components = n_components


__all__ = ["PCP", "OutlierPursuit", "CRPCAOM", "soft_threshold", "row_shrink", "svt",
           "optimal_mean_svt", "no_cap_as_zero"]
