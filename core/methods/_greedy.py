"""The greedy outer loop shared by PCA-L1, RSPCA, sPCA-rSVD and GPower: components, restarts,
deflation and states.

All four are *greedy*: one component at a time, each on the data deflated by the components
before it, ``X_j = X_{j−1}(I − w_{j−1} w_{j−1}ᵀ)`` (Zhao et al. 2014: Zhao, Meng & Xu, *Robust sparse
principal component analysis*, Sci China Inf Sci 2014, Algorithm 1 step 2.1). The papers
write the data as ``d × n`` with samples as columns; here ``X`` is ``(n_samples, n_features)``
with samples as rows, so the paper's ``wᵀx_i`` is ``(X w)_i``, its ``Σ_i p_i x_i`` is ``Xᵀp`` and
its ``x_i ← (I − wwᵀ)x_i`` is ``X ← X(I − wwᵀ)``.

Stepping (common to the four estimators)
----------------------------------------
One :meth:`step` is one inner iteration of the current component (one AUGMENT + SPARSE +
normalise for RSPCA, one sign update for PCA-L1, one power / thresholding update for the ℓ2
baselines). When the current loop stops (exact fixed point, the method's tolerance, or
``max_iter`` iterations), the *next* step starts the next restart (RSPCA) or commits the
component, deflates and shows the start vector ``w(0)`` of the next component. After the last
component is committed one more step returns the final state, and :meth:`finished` is True.

Stopping rule of a run: all ``n_components`` committed. ``converged`` is True in the final state
exactly when, for every component, the loop that produced the kept iterate ended by the method's
own rule (exact fixed point for PCA-L1/RSPCA, ``tol`` for sPCA-rSVD/GPower) and not by the
``max_iter`` cap; the capped components are listed in ``details["capped components"]`` (so a fit
that hit a cap warns, see :meth:`core.base.SteppableEstimator.fit`).

Degenerate data: once deflation has used up the rank of X (``‖X_j‖_F² <= 1e-20 ‖X₀‖_F²``, checked
exactly), the remaining components are an orthonormal completion (a coordinate axis, made
orthogonal to the committed components for PCA-L1) — any unit vector then has dispersion 0 — and
their loops end at once. No ARPACK call ever sees a zero operator (see :func:`core.linalg.leading_eigvecs`).

State fields (all four):

* ``components``: the committed components followed by the current candidate, so it grows from
  1 to ``n_components`` rows; each row has unit ℓ2 norm; sparse methods have exact zeros (except
  the dense start vector ``w(0)`` of an RSPCA restart, shown at the first iterate of each
  restart). In the final state: the committed components only.
* ``mean``: the centring vector (zeros when ``center=False``).
* ``objective``: the ℓ1 dispersion ``‖X_j w‖₁ = Σ_i |x_i^{(j)}·w|`` of the current candidate w
  on the current deflated data ``X_j`` (grey levels for image data). It is the objective of
  PCA-L1 and RSPCA; for the ℓ2 baselines it is shown for comparison (their own criterion is in
  ``scalars``). The curve restarts at every new component (and every RSPCA restart).
* ``sample_weights``: for PCA-L1 and RSPCA the effective ℓ2 weights ``1/|x_i^{(j)}·w|`` of the
  current candidate (``Σ|wᵀx_i| = Σ (wᵀx_i)² / |wᵀx_i|``, the ℓ1 dispersion read as a reweighted ℓ2 one), scaled to a
  maximum of 1. Guard: ``|x_i·w|`` is floored at ``1e-12 · max_i |x_i·w|`` (all ones if every
  projection is 0), so a sample with a (near) zero projection gets weight 1, none is infinite.
  ``None`` for the ℓ2 baselines.
* ``scalars``: ``component`` (1-based), ``τ`` (inner iteration of the current loop, 0 at its
  start vector), ``nonzeros`` (of the candidate), and the method's own numbers.

Deflation is applied implicitly: ``X_j = X₀ M_j`` with ``M_j = P_1 ⋯ P_{j−1}``,
``P_i = I − w_i w_iᵀ``, so ``X_j v = X₀(M_j v)`` and ``X_jᵀ y = M_jᵀ(X₀ᵀ y)`` cost one product
with ``X₀`` plus O(j·d); no deflated copy of the data is stored per component. Centring is
implicit too for large inputs (a centred float64 copy over 64 MB): ``X₀v = Xv − (m·v)1``, so a
run holds no copy of the data (:class:`_Run`).

Errors: every method stops with :class:`~core.errors.SolverError` (naming the method, the
component and the iteration) when it meets a non-finite value, a zero update direction or an
empty support; parameters outside their ranges raise :class:`~core.errors.ParameterError` at
``start`` (the message names the parameter).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator

import numpy as np

from ..base import State, SteppableEstimator
from ..errors import ParameterError, SolverError
from ..linalg import leading_eigvecs, one_blas_thread
from ..params import ParamSpec

# ---------------------------------------------------------------------------- shared parameter specs

MAX_ITER_COMPONENT = ParamSpec(
    "max_iter", "max iter", "int", 100,
    "iteration cap per component (per restart for RSPCA); the loop normally stops earlier",
    low=1, high=100000, slider=(1, 500))
K_NONZERO = ParamSpec(
    "k_nonzero", "nnz", "int", 100,
    "non-zero loadings per component, the paper's k (1 <= nnz <= n_features; the paper uses 4 on Hastie, 400 on MNIST)",
    low=1, slider=(1, 784))
CENTER = ParamSpec(
    "center", "centre", "bool", True,
    "subtract the sample mean first (Zhao et al. 2014 assumes centred data; its 2-D example looks uncentred)")

#: Δw of Zhao et al. 2014's stopping criterion (2) (§2.5, Algorithm 1 step 2.6): the paper says only "a small
#: random vector"; this ℓ2 size is our choice.
PERTURBATION = 1e-6
#: A projection counts as zero in criterion (2) when ``|x_i·w| <= ZERO_PROJECTION · ‖x_i‖`` (the paper tests
#: ``wᵀx_i = 0`` exactly; a relative tolerance is our choice).
ZERO_PROJECTION = 1e-12
#: Above this many features the PCA start multiplies by the data instead of forming XᵀX.
_COV_MAX_FEATURES = 2000
#: Inputs whose centred float64 copy would take more bytes than this are not copied: products are
#: centred implicitly (:class:`_Run`). Below it the small copy keeps the products' arithmetic of
#: the papers' examples exactly as it was, and cache-resident products fast.
_COPY_MAX_BYTES = 64 * 2 ** 20
#: Bytes of one float64 block of rows formed from an input that is not copied.
_BLOCK_BYTES = 4 * 2 ** 20


def top_k(a: np.ndarray, k: int) -> tuple[np.ndarray, float, float]:
    """Indices of the k largest entries of ``a >= 0`` (ties broken by the lower index), θ_k
    (the k-th largest value) and θ_{k+1} (0 if k = len(a))."""
    order = np.argsort(-a, kind="stable")
    theta_k = float(a[order[k - 1]])
    theta_k1 = float(a[order[k]]) if k < a.size else 0.0
    return order[:k], theta_k, theta_k1


def soft_threshold_level(a: np.ndarray, theta_k: float, theta_k1: float) -> float:
    """λ for a soft threshold that keeps exactly the k chosen entries nonzero: θ_{k+1}, or, if
    θ_{k+1} ties with θ_k, the largest |v_i| strictly below θ_k (0 if none)."""
    if theta_k1 < theta_k:
        return theta_k1
    below = a[a < theta_k]
    return float(below.max()) if below.size else 0.0


def check_k(k, d: int) -> None:
    if int(k) > d:
        raise ParameterError(f"k_nonzero (nnz) must be <= n_features = {d}, got {k!r}")


# ---------------------------------------------------------------------------- deflation

def deflate_right(W: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``M v`` with ``M = P_1 ⋯ P_m``, ``P_i = I − w_i w_iᵀ`` (rows w_i of W); v (d,) or (d, c)."""
    v = np.array(v, dtype=float)
    for w in W[::-1]:
        v -= np.multiply.outer(w, w @ v) if v.ndim == 2 else w * (w @ v)
    return v


def deflate_left(W: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Mᵀ y = P_m ⋯ P_1 y``; y (d,) or (d, c)."""
    y = np.array(y, dtype=float)
    for w in W:
        y -= np.multiply.outer(w, w @ y) if y.ndim == 2 else w * (w @ y)
    return y


@dataclass(frozen=True, eq=False)
class _Run:
    """Shared by every state of one run: the data ``X₀`` (centred, or raw when ``center=False``)
    and constants.

    ``X₀`` is held one of two ways:

    * ``copied``: ``X`` is ``X₀`` itself, a read-only float64 array (inputs whose centred copy
      takes at most :data:`_COPY_MAX_BYTES`, and float64 inputs that are not centred);
    * otherwise ``X`` is the input as given (float32 or float64, not copied: the 5,000 digits at
      96 × 96 would take 352 MB per copy). Products are taken with X in float64 (a float32 X
      converted in row blocks of :data:`_BLOCK_BYTES`) and centred by the rank-one correction
      ``X₀v = Xv − (m·v)1``, ``X₀ᵀy = Xᵀy − m Σ_i y_i``; norms and rows are formed from the
      centred rows ``x_i − m`` (:meth:`blocks`). The correction adds round-off of order
      ``ε‖x_i‖‖v‖`` where the copy has ``ε‖x_i − m‖‖v‖`` (the same order for images, whose mean is
      within their range).
    """

    X: np.ndarray              # (n, d) X₀ when `copied`, else the input
    mean: np.ndarray           # (d,)
    cov: np.ndarray | None     # X₀ᵀX₀ when the PCA start needs it and d is small enough
    const: dict                # method constants (γ, ...)
    total: float = 0.0         # ‖X₀‖_F²
    copied: bool = True
    seed: int = 0              # the run's int seed (random restarts, perturbations)

    def blocks(self, centred: bool = True) -> Iterator[tuple[slice, np.ndarray]]:
        """``(rows, block)`` over row blocks of X₀ (``centred``) or of X, in float64; a block is
        valid until the next one is made (one buffer is reused)."""
        n, d = self.X.shape
        if self.copied or (not centred and self.X.dtype == np.float64):
            yield slice(0, n), self.X
            return
        step = max(1, _BLOCK_BYTES // (8 * d))
        buf = np.empty((min(step, n), d))
        for i in range(0, n, step):
            j = min(i + step, n)
            block = buf[: j - i]
            if centred:
                np.subtract(self.X[i:j], self.mean, out=block)
            else:
                block[...] = self.X[i:j]
            yield slice(i, j), block

    def rows(self, index) -> np.ndarray:
        """Rows of X₀ (float64; a fancy index or an integer)."""
        return self.X[index] if self.copied else np.subtract(self.X[index], self.mean, dtype=np.float64)

    def product(self, v: np.ndarray) -> np.ndarray:
        """``X₀ v`` for v (d,) or (d, c)."""
        if self.copied:
            return self.X @ v
        out = np.empty((self.X.shape[0],) + v.shape[1:])
        for rows, B in self.blocks(centred=False):
            out[rows] = B @ v
        out -= self.mean @ v
        return out

    def t_product(self, y: np.ndarray) -> np.ndarray:
        """``X₀ᵀ y`` for y (n,) or (n, c)."""
        if self.copied:
            return self.X.T @ y
        acc = np.zeros((self.X.shape[1],) + y.shape[1:])
        for rows, B in self.blocks(centred=False):
            acc += B.T @ y[rows]
        acc -= np.multiply.outer(self.mean, y.sum(axis=0))
        return acc

    def times(self, W: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``X_j w`` for the data deflated by the rows of W."""
        return self.product(deflate_right(W, w))

    def t_times(self, W: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``X_jᵀ y``."""
        return deflate_left(W, self.t_product(y))

    def deflated_sq_norm(self, W: np.ndarray) -> float:
        """``‖X₀ M‖_F²`` for the data deflated by the rows of W (row blocks: no (n, d) or (d, d)
        temporary)."""
        return float(sum(np.einsum("ij,ij->", R, R) for R in (deflate_left(W, B.T) for _, B in self.blocks())))


@dataclass(frozen=True, eq=False)
class _Component:
    """The deflated data of component j (0-based) described by the committed rows W."""

    j: int
    W: np.ndarray              # (j, d) committed components
    sq_norms: np.ndarray       # (n,) ‖x_i^{(j)}‖²
    colsq: np.ndarray | None   # (d,) squared column norms of X_j (GPower), else None
    cov: np.ndarray | None = None  # (d, d) X_jᵀX_j (PCA start), deflated by O(d²) updates
    exhausted: bool = False    # X_j is (numerically) zero: the rank of X is used up


@dataclass(frozen=True, eq=False)
class _Cand:
    """One iterate of the current loop."""

    w: np.ndarray              # (d,) unit
    proj: np.ndarray           # (n,) X_j w
    objective: float           # ‖X_j w‖₁
    tau: int = 0
    done: bool = False
    fixed_point: bool = False
    perturbations: int = 0
    scalars: tuple = ()        # method's own (name, value) pairs
    aux: Any = None            # method's own data for the next iteration


@dataclass(frozen=True, eq=False)
class _Progress:
    comp: _Component
    r: int                                  # restart index, 0-based
    cand: _Cand
    restart_objs: tuple[float, ...]         # final objectives of the finished restarts of comp
    best: _Cand | None
    history: tuple[tuple[float, ...], ...]  # restart objectives of every committed component
    capped: tuple[int, ...] = ()            # 1-based components whose kept loop hit max_iter
    final: bool = False                     # every component committed


@dataclass(frozen=True, eq=False)
class _Context:
    """A greedy state's ``_ctx``: the run's data, shared by every state of the run, and where the
    loop is (the state's own)."""

    run: _Run
    progress: _Progress


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _run_data(X: np.ndarray, center: bool) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(mean, X₀ or X, copied)`` for :class:`_Run` (mean 0 when not ``center``). A float32 X is
    centred into float64 (the same numbers as converting it first: the conversion is exact)."""
    d = X.shape[1]
    mean = _frozen(X.mean(axis=0, dtype=np.float64) if center else np.zeros(d))
    if not center and X.dtype == np.float64:
        return mean, _frozen(X.view()), True
    if X.shape[0] * d * 8 <= _COPY_MAX_BYTES:
        return mean, _frozen(np.subtract(X, mean, dtype=np.float64)), True
    return mean, _frozen(X.view()), False


def _effective_weights(proj: np.ndarray) -> np.ndarray:
    a = np.abs(proj)
    top = a.max()
    if not top > 0:
        return np.ones_like(a)
    a = np.maximum(a, 1e-12 * top)
    return a.min() / a


class Greedy(SteppableEstimator):
    """Outer loop shared by the four greedy methods (components, restarts, commits, states)."""

    #: centre the data first (the sparse PCAs' parameter; PCA-L1 always centres)
    center: bool = True
    #: the iteration cap per component (every greedy method's constructor sets it)
    max_iter: int

    accepts_float32 = True   # X₀ is formed in float64 (_Run), so float32 input needs no float64 copy first
    #: (core.working) the start's blocks and statistics, and a step's vectors; the centred copy of a
    #: small input is added by work_estimate
    work_factors = (0.3, 0.05)

    def work_estimate(self, input_bytes: int, phase: str) -> int:
        """Bytes of temporaries for :mod:`core.working`, on an input of ``input_bytes`` in float64:
        :attr:`work_factors` times the input, plus at the start the centred copy when the input is
        copied (at most :data:`_COPY_MAX_BYTES`; measured 1.0–1.17 × the input with it)."""
        start, step = self.work_factors
        if phase != "start":
            return int(step * input_bytes)
        return int(start * input_bytes) + (int(input_bytes) if input_bytes <= _COPY_MAX_BYTES else 0)

    _l1_weights = True       # sample_weights = effective ℓ2 weights of the ℓ1 objective
    _needs_cov = False       # PCA start used
    _track_columns = False   # squared column norms of X_j needed (GPower)
    _sparse = True           # components have exact zeros (all but PCA-L1)

    # ------------------------------------------------------------------ hooks
    def _setup(self, colsq: np.ndarray) -> dict:
        """The method's constants from the squared column norms (d,) of X₀."""
        return {}

    def _n_starts(self) -> int:
        return 1

    def _init(self, run: _Run, comp: _Component, r: int) -> _Cand:  # pragma: no cover
        raise NotImplementedError

    def _advance(self, run: _Run, comp: _Component, cand: _Cand) -> _Cand:  # pragma: no cover
        raise NotImplementedError

    def _details(self, prog: _Progress) -> dict:
        return {}

    def _center(self) -> bool:
        return bool(self.center)

    def finished(self, state: State) -> bool:
        """True once all ``n_components`` are committed (the stopping rule of the whole run).
        ``converged`` is then True when the kept loop of every component ended by the method's own
        rule, False when some component's kept loop was cut by ``max_iter`` (listed in
        ``details["capped components"]``). A fitted estimator's ``state_`` (detached from its
        run: :meth:`~core.base.State.detached`) is the final state: finished."""
        return state._ctx is None or bool(state._ctx.progress.final)

    # ------------------------------------------------------------------ helpers
    def _fail(self, comp: _Component, tau: int, why: str) -> SolverError:
        return SolverError(f"{self.name} stopped at component {comp.j + 1}, iteration {tau}: {why}")

    def _cand(self, run: _Run, comp: _Component, w: np.ndarray, **fields) -> _Cand:
        proj = run.times(comp.W, w)
        obj = float(np.abs(proj).sum())
        if not np.isfinite(obj) or not np.all(np.isfinite(w)):
            raise self._fail(comp, fields.get("tau", 0), "a loading or projection is NaN or infinite")
        return _Cand(w=_frozen(w), proj=_frozen(proj), objective=obj, **fields)

    def _unit(self, comp: _Component, tau: int, u: np.ndarray, what: str) -> np.ndarray:
        nu = float(np.linalg.norm(u))
        if not np.isfinite(nu):
            raise self._fail(comp, tau, f"the {what} is NaN or infinite")
        if nu == 0.0:
            raise self._fail(comp, tau, f"the {what} is zero (empty support); the deflated data have "
                                        "no dispersion left in that direction — try fewer components")
        return u / nu

    def _leading_direction(self, run: _Run, comp: _Component) -> np.ndarray:
        """Leading eigenvector of ``X_jᵀX_j`` (the PCA start on the deflated data), sign fixed so
        that its largest-magnitude entry is positive."""
        W, d = comp.W, run.X.shape[1]
        if comp.cov is not None:    # the deflated scatter X_jᵀX_j, kept up to date by _deflate
            v = leading_eigvecs(comp.cov, 1)[1][:, 0]
        else:                       # d > _COV_MAX_FEATURES: products with the data
            v = leading_eigvecs(lambda x: run.t_times(W, run.times(W, x)), 1, d=d)[1][:, 0]
        if not np.all(np.isfinite(v)):
            raise self._fail(comp, 0, "the PCA start vector is not finite")
        i = int(np.argmax(np.abs(v)))
        return v / np.linalg.norm(v) * (1.0 if v[i] >= 0 else -1.0)

    def _begin(self, run: _Run, comp: _Component, r: int) -> _Cand:
        """The start of restart r of component comp: the method's own start, or — when the rank of
        the data is used up (``comp.exhausted``) — an orthonormal completion, which ends its loop
        at once (any unit vector orthogonal to the committed components is then a solution: every
        one has dispersion 0)."""
        if not comp.exhausted:
            return self._init(run, comp, r)
        d = run.X.shape[1]
        # the coordinate axis least covered by the committed components, made orthogonal to them
        e = np.zeros(d)
        e[int(np.argmin(np.einsum("ij,ij->j", comp.W, comp.W)))] = 1.0
        w = e if self._sparse else e - comp.W.T @ (comp.W @ e)
        nw = float(np.linalg.norm(w))
        w = w / nw if nw > 1e-8 else leading_eigvecs(np.eye(d) - comp.W.T @ comp.W, 1)[1][:, 0]
        return replace(self._cand(run, comp, w), done=True, fixed_point=True,
                       scalars=self._completion_scalars(run, r))

    def _completion_scalars(self, run: _Run, r: int) -> tuple:
        """The method's own scalars for a completion component (same names as its other states,
        so that every scalar's history stays complete)."""
        return ()

    # ------------------------------------------------------------------ stepping
    def _start(self, X: np.ndarray) -> State:
        mean, X0, copied = _run_data(X, self._center())
        run = _Run(X=X0, mean=mean, cov=None, const={}, copied=copied, seed=self._seed)
        d = X.shape[1]
        # One pass over X₀: squared row and column norms, and X₀ᵀX₀ for the PCA start.
        sq_norms, colsq, cov = np.empty(X.shape[0]), np.zeros(d), None
        need_cov = self._needs_cov and d <= _COV_MAX_FEATURES
        for rows, B in run.blocks():
            sq_norms[rows] = np.einsum("ij,ij->i", B, B)
            colsq += np.einsum("ij,ij->j", B, B)
            if need_cov:
                if cov is None:
                    cov = B.T @ B
                else:
                    cov += B.T @ B
        run = replace(run, cov=None if cov is None else _frozen(cov), const=self._setup(colsq),
                      total=float(sq_norms.sum()))
        with one_blas_thread():
            return self._first_state(run, sq_norms, colsq)

    def _first_state(self, run: _Run, sq_norms: np.ndarray, colsq: np.ndarray) -> State:
        comp = _Component(j=0, W=_frozen(np.empty((0, run.X.shape[1]))), sq_norms=_frozen(sq_norms),
                          colsq=_frozen(colsq) if self._track_columns else None, cov=run.cov)
        prog = _Progress(comp=comp, r=0, cand=self._begin(run, comp, 0), restart_objs=(), best=None,
                         history=())
        return self._state(None, run, prog, False)

    def _deflate(self, run: _Run, comp: _Component, best: _Cand) -> _Component:
        w, p = best.w, best.proj
        colsq = None
        if comp.colsq is not None:   # ‖c_i − (X_j w) w_i‖² = ‖c_i‖² − 2 w_i (X_jᵀX_j w)_i + w_i² ‖X_j w‖²
            colsq = _frozen(np.maximum(comp.colsq - 2.0 * w * run.t_times(comp.W, p) + w * w * (p @ p), 0.0))
        cov = None
        if comp.cov is not None:     # (I − wwᵀ) C (I − wwᵀ) = C − w hᵀ − h wᵀ, h = C w − (wᵀCw/2) w
            c = comp.cov @ w
            h = c - 0.5 * float(w @ c) * w
            cov = comp.cov - np.outer(w, h)
            cov -= np.outer(h, w)
            cov = _frozen(cov)
        sq = np.maximum(comp.sq_norms - p * p, 0.0)
        W = np.vstack([comp.W, w[None, :]])
        # Rank used up: the deflated data are round-off (‖X_j‖_F² <= 1e-20 ‖X₀‖_F²), checked on the
        # exact residual X₀ M_j (the running ‖x_i‖² − (x_i·w)² carries round-off of 1e-16 ‖X₀‖_F²).
        exhausted = comp.exhausted
        if not exhausted and float(sq.sum()) <= 1e-12 * run.total:
            exhausted = run.deflated_sq_norm(W) <= 1e-20 * run.total
        return _Component(j=comp.j + 1, W=_frozen(W), sq_norms=_frozen(sq), colsq=colsq, cov=cov,
                          exhausted=exhausted)

    def _step(self, state: State) -> State:
        # Everything below is matrix-vector products (memory-bound): on one BLAS thread they run
        # 10x faster than with OpenBLAS's threads on a busy 2-core machine (measured on MNIST
        # sixes, 714 × 784, 40 components: 0.8 s vs 10–14 s). See core.linalg.one_blas_thread.
        with one_blas_thread():
            return self._step_1(state)

    def _step_1(self, state: State) -> State:
        run, prog = state._ctx.run, state._ctx.progress
        if prog.final:
            return self._next_state(state, objective=state.objective, converged=state.converged)
        cand = prog.cand
        if not cand.done:
            return self._state(state, run, replace(prog, cand=self._advance(run, prog.comp, cand)), False)
        restart_objs = prog.restart_objs + (cand.objective,)
        best = cand if prog.best is None or cand.objective > prog.best.objective else prog.best
        if prog.r + 1 < self._n_starts():
            r = prog.r + 1
            new = replace(prog, r=r, cand=self._begin(run, prog.comp, r), restart_objs=restart_objs, best=best)
            return self._state(state, run, new, False)
        history = prog.history + (restart_objs,)
        capped = prog.capped + (() if best.fixed_point else (prog.comp.j + 1,))
        if prog.comp.j + 1 >= int(self.n_components):
            comp = replace(prog.comp, j=prog.comp.j + 1,
                           W=_frozen(np.vstack([prog.comp.W, best.w[None, :]])))
            final = _Progress(comp=comp, r=prog.r, cand=best, restart_objs=(), best=None, history=history,
                              capped=capped, final=True)
            return self._state(state, run, final, not capped)
        comp = self._deflate(run, prog.comp, best)
        new = _Progress(comp=comp, r=0, cand=self._begin(run, comp, 0), restart_objs=(), best=None,
                        history=history, capped=capped)
        return self._state(state, run, new, False)

    def _state(self, prev: State | None, run: _Run, prog: _Progress, converged: bool) -> State:
        cand = prog.cand
        comps = prog.comp.W.copy() if prog.final else np.vstack([prog.comp.W, cand.w[None, :]])
        weights = _effective_weights(cand.proj) if self._l1_weights else None
        scalars = {"component": min(prog.comp.j + 1, int(self.n_components)), "τ": cand.tau,
                   "nonzeros": int(np.count_nonzero(cand.w)), **dict(cand.scalars)}
        details = {**self._details(prog), "capped components": prog.capped}
        fields: dict[str, Any] = dict(components=comps, sample_weights=weights, scalars=scalars,
                      details=details, converged=converged, _ctx=_Context(run, prog))
        if prev is None:
            return State(method=self.name, iteration=0, objective=cand.objective,
                         objective_history=(cand.objective,), mean=run.mean, **fields)
        return self._next_state(prev, objective=cand.objective, **fields)



class L1Greedy(Greedy):
    """The ℓ1-dispersion loop of PCA-L1 and RSPCA (Kwak's sign iteration, Zhao et al. 2014 Algorithm 1
    steps 2.3–2.6): AUGMENT, an optional SPARSE, normalise; the random perturbation Δw of
    criterion (2) is drawn from the estimator's ``random_state``."""

    def _l1_advance(self, run: _Run, comp: _Component, cand: _Cand, sparsify, seed: int) -> _Cand:
        """One AUGMENT (+ SPARSE) + normalise; stops at the exact fixed point (sign vector
        unchanged) unless a sample sharing support with w has a zero projection (criterion (2)),
        in which case w is perturbed by Δw and the loop goes on; or after max_iter iterations."""
        tau = cand.tau + 1
        signs = cand.proj >= 0
        v = run.t_times(comp.W, np.where(signs, 1.0, -1.0))
        if not np.linalg.norm(v) > 1e-12 * np.sqrt(max(float(comp.sq_norms.sum()), 1e-300)):
            # Σ_i p_i x_i = 0 (e.g. w orthogonal to every deflated sample, so all signs are +1 on
            # data summing to 0): AUGMENT is undefined and no update is possible; the restart ends
            # with its current iterate and the best-of-restarts rule decides.
            return replace(cand, tau=tau, done=True, fixed_point=True)
        v = self._unit(comp, tau, v, "AUGMENT direction Σ_i p_i x_i")
        w = self._unit(comp, tau, sparsify(v), "sparse loading vector")
        new = self._cand(run, comp, w, tau=tau, perturbations=cand.perturbations, scalars=cand.scalars)
        fixed = bool(np.array_equal(new.proj >= 0, signs))
        if fixed and self._zero_projection(run, comp, new):
            g = np.random.default_rng([seed, comp.j, tau, cand.perturbations]).standard_normal(w.size)
            w = w + PERTURBATION * g / np.linalg.norm(g)
            w = w / np.linalg.norm(w)
            return self._cand(run, comp, w, tau=tau, perturbations=cand.perturbations + 1,
                              scalars=cand.scalars, done=tau >= int(self.max_iter))
        return replace(new, done=fixed or tau >= int(self.max_iter), fixed_point=fixed)

    @staticmethod
    def _zero_projection(run: _Run, comp: _Component, cand: _Cand) -> bool:
        """Paper 002 criterion (2): some x_i^{(j)} with ``|x_i·w| <= 1e-12 ‖x_i‖`` and
        ``supp(x_i) ∩ supp(w) ≠ ∅``."""
        near = np.flatnonzero(np.abs(cand.proj) <= ZERO_PROJECTION * np.sqrt(comp.sq_norms))
        if near.size == 0:
            return False
        support = cand.w != 0
        rows = deflate_left(comp.W, run.rows(near).T)        # (d, m) the deflated samples
        return bool(np.any(rows[support] != 0))
