"""ℓ1 and sparse PCA: PCA-L1 (Kwak 2008), RSPCA (paper 002), sPCA-rSVD and GPower.

All four are *greedy*: one component at a time, each on the data deflated by the components
before it, ``X_j = X_{j−1}(I − w_{j−1} w_{j−1}ᵀ)`` (paper 002, Algorithm 1 step 2.1). The papers
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
  current candidate (``Σ|wᵀx_i| = Σ (wᵀx_i)² / |wᵀx_i|``; paper 002 extraction §3.2), scaled to a
  maximum of 1. Guard: ``|x_i·w|`` is floored at ``1e-12 · max_i |x_i·w|`` (all ones if every
  projection is 0), so a sample with a (near) zero projection gets weight 1, none is infinite.
  ``None`` for the ℓ2 baselines.
* ``scalars``: ``component`` (1-based), ``τ`` (inner iteration of the current loop, 0 at its
  start vector), ``nonzeros`` (of the candidate), and the method's own numbers.

Deflation is applied implicitly: ``X_j = X₀ M_j`` with ``M_j = P_1 ⋯ P_{j−1}``,
``P_i = I − w_i w_iᵀ``, so ``X_j v = X₀(M_j v)`` and ``X_jᵀ y = M_jᵀ(X₀ᵀ y)`` cost one product
with ``X₀`` plus O(j·d); no deflated copy of the data is stored per component.

Errors: every method stops with :class:`~core.errors.SolverError` (naming the method, the
component and the iteration) when it meets a non-finite value, a zero update direction or an
empty support; parameters outside their ranges raise :class:`~core.errors.ParameterError` at
``start`` (the message names the parameter).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..base import State, SteppableEstimator
from ..params import ParamSpec, register
from ..errors import DataError, ParameterError, SolverError
from ..linalg import leading_eigvecs, one_blas_thread
from ._specs import N_COMPONENTS

__all__ = ["PCAL1", "RSPCA", "SPCArSVD", "GPower", "sparse_projection", "augment", "l1_dispersion"]

# ---------------------------------------------------------------------------- parameter specs

MAX_ITER_COMPONENT = ParamSpec(
    "max_iter", "max iter", "int", 100,
    "iteration cap per component (per restart for RSPCA); the loop normally stops earlier",
    low=1, high=100000, slider=(1, 500))
MAX_ITER_GPOWER = ParamSpec(
    "max_iter", "max iter", "int", 1000,
    "iteration cap per component; GPower's power iteration converges linearly and slowly when the "
    "leading gap is small (on the built-in faces a component needs up to ~250 iterations for tol 1e-6)",
    low=1, high=100000, slider=(1, 2000))
K_NONZERO = ParamSpec(
    "k_nonzero", "nnz", "int", 100,
    "non-zero loadings per component, the paper's k (1 <= nnz <= n_features; the paper uses 4 on Hastie, 400 on MNIST)",
    low=1, slider=(1, 784))
P_SPARSE = ParamSpec(
    "p", "p", "float", 0.5,
    "sparsity penalty ‖w‖_p^p: 0 = cardinality (hard threshold), 1/2 = half threshold, 1 = lasso (soft)",
    low=0.0, high=1.0, slider=(0.0, 1.0))
RESTARTS = ParamSpec(
    "restarts", "r", "int", 1,
    "random restarts per component, in addition to the PCA start and the all-ones start (best ℓ1 kept)",
    low=0, high=1000, slider=(0, 10))
PCA_START = ParamSpec(
    "pca_start", "PCA start", "bool", True,
    "also start each component from the leading eigenvector of the deflated scatter (paper 002 §2.5 "
    "strategy (a)); off = the paper's experiments (strategy (b): all-ones and random starts only)")
CENTER = ParamSpec(
    "center", "center", "bool", True,
    "subtract the sample mean first (paper 002 assumes centred data; its 2-D example looks uncentred)")
SEED = ParamSpec(
    "seed", "seed", "int", 0, "random seed of the random restarts and of the zero-projection perturbation",
    low=0, slider=(0, 100))
THRESHOLDING = ParamSpec(
    "thresholding", "h_λ", "choice", "hard",
    "thresholding rule of the rank-1 update: hard (ℓ0), soft (ℓ1) or SCAD (a = 3.7)",
    choices=("hard", "soft", "scad"))
TOL_W = ParamSpec(
    "tol", "tol", "float", 1e-6,
    "stop a component when no loading changes by more than this (max |Δw|) in one iteration",
    low=0.0, scale="log", slider=(1e-12, 1e-2))
PENALTY = ParamSpec(
    "penalty", "penalty", "choice", "l1",
    "GPower's sparsity penalty: l1 (soft threshold of |a_iᵀx|) or l0 (hard threshold of (a_iᵀx)²)",
    choices=("l1", "l0"))
GAMMA = ParamSpec(
    "gamma", "γ", "float", 0.1,
    "sparsity: γ as a fraction of max_i ‖a_i‖ (ℓ1) or max_i ‖a_i‖² (ℓ0) of the input data; larger = sparser",
    low=0.0, high=1.0, high_open=True, slider=(0.0, 0.99))
TOL_F = ParamSpec(
    "tol", "tol", "float", 1e-6,
    "stop a component when GPower's objective f changes by less than this, relatively",
    low=0.0, scale="log", slider=(1e-12, 1e-2))

#: SCAD's a (Fan & Li 2001; Shen & Huang 2008 use 3.7).
SCAD_A = 3.7
#: Δw of paper 002's stopping criterion (2): a perturbation of this ℓ2 size (extraction §3.5).
PERTURBATION = 1e-6
#: A projection counts as zero when ``|x_i·w| <= ZERO_PROJECTION · ‖x_i‖`` (extraction §3.5).
ZERO_PROJECTION = 1e-12
#: Iteration cap and tolerance of the fixed-point iteration (9) of SPARSE for 0 < p < 1.
FIXED_POINT_MAX_ITER = 500
#: Above this many features the PCA start multiplies by the data instead of forming XᵀX.
_COV_MAX_FEATURES = 2000


# ---------------------------------------------------------------------------- building blocks

def l1_dispersion(w: np.ndarray, X: np.ndarray) -> float:
    """The ℓ1 dispersion ``‖X w‖₁ = Σ_i |x_iᵀw|`` (paper 002 eq. (3)/(4)); X (n, d), w (d,)."""
    return float(np.abs(np.asarray(X, dtype=float) @ np.asarray(w, dtype=float)).sum())


def augment(w: np.ndarray, X: np.ndarray) -> np.ndarray:
    """AUGMENT of paper 002, eq. (5) (Kwak 2008): ``v = Σ_i p_i x_i / ‖Σ_i p_i x_i‖₂`` with
    ``p_i = +1`` if ``x_iᵀw >= 0`` else ``−1`` (a zero projection counts as +1).

    X (n_samples, n_features), w (n_features,). Returns the unit vector v (n_features,).
    Theorem 1 of the paper: ``‖X v‖₁ >= ‖X w‖₁`` for every unit w.

    Raises SolverError if ``Σ_i p_i x_i = 0`` (e.g. w = 0 on centred data: the update is undefined).
    """
    X = np.asarray(X, dtype=float)
    signs = np.where(X @ np.asarray(w, dtype=float) >= 0, 1.0, -1.0)
    v = X.T @ signs
    nv = float(np.linalg.norm(v))
    if not np.isfinite(nv) or nv == 0.0:
        raise SolverError("AUGMENT: Σ_i p_i x_i is zero or not finite, so the direction is undefined")
    return v / nv


def _top_k(a: np.ndarray, k: int) -> tuple[np.ndarray, float, float]:
    """Indices of the k largest entries of ``a >= 0`` (ties broken by the lower index), θ_k
    (the k-th largest value) and θ_{k+1} (0 if k = len(a))."""
    order = np.argsort(-a, kind="stable")
    theta_k = float(a[order[k - 1]])
    theta_k1 = float(a[order[k]]) if k < a.size else 0.0
    return order[:k], theta_k, theta_k1


def _soft_threshold_level(a: np.ndarray, theta_k: float, theta_k1: float) -> float:
    """λ for a soft threshold that keeps exactly the k chosen entries nonzero: θ_{k+1}, or, if
    θ_{k+1} ties with θ_k, the largest |v_i| strictly below θ_k (0 if none)."""
    if theta_k1 < theta_k:
        return theta_k1
    below = a[a < theta_k]
    return float(below.max()) if below.size else 0.0


def sparse_lambda(theta_k: float, p: float) -> float:
    """λ* of paper 002 Theorem 2: ``[2(1−p)]^{1−p} / (2−p)^{2−p} · θ_k^{2−p}`` — the multiplier of
    ``min_u ½(u − v)² + λ|u|^p`` whose threshold (Marjanovic & Solo 2012) is exactly θ_k.
    p = 0 gives θ_k²/2 (hard threshold at θ_k), p = 1 gives θ_k (soft threshold at θ_k)."""
    return (2.0 * (1.0 - p)) ** (1.0 - p) / (2.0 - p) ** (2.0 - p) * theta_k ** (2.0 - p)


def _fixed_point(a: np.ndarray, theta_k: float, p: float) -> np.ndarray:
    """The larger root β of ``β + λ* p β^{p−1} = a`` (eq. (8)) for every entry of ``a >= θ_k > 0``,
    by the fixed-point iteration (9) ``β ← a − λ* p β^{p−1}`` from ``β⁽⁰⁾ = a``, with the root
    kept in the corrected interval ``[2(1−p)θ_k/(2−p), a]`` (extraction §3.3 correction: the
    printed interval lacks the factor θ_k).

    The map is increasing, so the iterates decrease monotonically to the root; its slope there is
    at most p/2 (at the threshold β_λ), so the error shrinks at least by p/2 per iteration. We
    iterate until no entry moves by more than 4 ulp of ``a`` (at most FIXED_POINT_MAX_ITER times)."""
    lam = sparse_lambda(theta_k, p)
    lower = 2.0 * (1.0 - p) / (2.0 - p) * theta_k
    beta = a.copy()
    for _ in range(FIXED_POINT_MAX_ITER):
        new = np.maximum(a - lam * p * beta ** (p - 1.0), lower)
        if np.all(np.abs(new - beta) <= 4.0 * np.spacing(a)):
            beta = new
            break
        beta = new
    return beta


def sparse_projection(v: np.ndarray, k: int, p: float, *, closed_form: bool = True) -> np.ndarray:
    """SPARSE of paper 002 (eqs. (6)–(13)): the k-sparse thresholding of v for the ℓp penalty.

    Solves ``min_u ½‖u − v‖² + λ*‖u‖_p^p`` coordinate-wise (eq. (10)) with the multiplier λ*
    chosen so that exactly the k largest |v_i| survive. θ_k is the k-th largest |v_i|.

    * p = 0, eq. (11): hard threshold, ``u_i = v_i`` for the k kept entries (the best k-sparse
      Euclidean approximation of v).
    * p = 1, eq. (12) **with the extraction's correction**: soft threshold at θ_{k+1} (the
      (k+1)-th largest |v_i|, 0 if k = d) instead of θ_k, so that k entries (not k − 1) survive;
      ``u_i = sign(v_i)(|v_i| − θ_{k+1})``. If θ_{k+1} = θ_k (a tie at the boundary) the level is
      the largest |v_i| strictly below θ_k (0 if none), so the k kept entries stay nonzero.
    * p = 1/2, eq. (13) (half thresholding, closed form):
      ``u_i = (2/3) v_i (1 + cos(2π/3 − (2/3)φ_i))``, ``φ_i = arccos((√2/2)(θ_k/|v_i|)^{3/2})``.
    * other 0 < p < 1, eqs. (7)–(9): ``u_i = sign(v_i) β_i`` with β_i the larger root of
      ``β + λ* p β^{p−1} = |v_i|``, ``λ* = [2(1−p)]^{1−p}/(2−p)^{2−p} θ_k^{2−p}``, by the
      fixed-point iteration (9) (see :func:`_fixed_point`; root interval corrected to
      ``(2(1−p)θ_k/(2−p), |v_i|]``).

    Ties: the kept set is the k largest |v_i| with ties broken by the lower index (the printed
    rule ``|v_i| >= θ_k`` would keep more than k entries), all others are 0. So the output has
    exactly k nonzeros whenever v has at least k nonzero entries (fewer otherwise).

    Parameters
    ----------
    v : (d,) finite vector (for RSPCA the unit AUGMENT direction).
    k : number of nonzeros, ``1 <= k <= d``.
    p : in [0, 1].
    closed_form : at p = 1/2 use eq. (13) (default) or, if False, the iteration (9) (for checks).

    Returns
    -------
    u : (d,) the thresholded vector (not normalised).

    Raises
    ------
    ParameterError : k or p out of range (named). DataError : v not a finite 1-D vector.
    """
    v = np.asarray(v, dtype=float)
    if v.ndim != 1 or v.size == 0 or not np.all(np.isfinite(v)):
        raise DataError(f"v must be a non-empty finite 1-D vector, got shape {v.shape}")
    d = v.size
    if isinstance(k, bool) or int(k) != k or not 1 <= int(k) <= d:
        raise ParameterError(f"k_nonzero (nnz) must be an integer in [1, {d}] (the length of v), got {k!r}")
    k = int(k)
    p = float(p)
    if not 0.0 <= p <= 1.0:
        raise ParameterError(f"p must be in [0, 1], got {p!r}")
    a = np.abs(v)
    keep, theta_k, theta_k1 = _top_k(a, k)
    u = np.zeros(d)
    vk, ak = v[keep], a[keep]
    if p == 0.0:
        u[keep] = vk
    elif p == 1.0:
        u[keep] = np.sign(vk) * (ak - _soft_threshold_level(a, theta_k, theta_k1))
    elif theta_k == 0.0:                       # fewer than k nonzeros in v: λ* = 0, u = v
        u[keep] = vk
    elif p == 0.5 and closed_form:
        with np.errstate(divide="ignore", invalid="ignore"):
            phi = np.arccos(np.sqrt(0.5) * np.minimum(theta_k / ak, 1.0) ** 1.5)
        u[keep] = (2.0 / 3.0) * vk * (1.0 + np.cos(2.0 * np.pi / 3.0 - (2.0 / 3.0) * phi))
    else:
        u[keep] = np.sign(vk) * _fixed_point(ak, theta_k, p)
    return u


def _threshold_k(z: np.ndarray, k: int, rule: str) -> tuple[np.ndarray, float]:
    """sPCA-rSVD's ``h_λ(z)`` with λ set so that exactly the k largest |z_i| survive (ties by
    index): λ = θ_{k+1} (see :func:`sparse_projection`, p = 1). Returns (v, λ)."""
    a = np.abs(z)
    keep, theta_k, theta_k1 = _top_k(a, k)
    lam = _soft_threshold_level(a, theta_k, theta_k1)
    zk, ak = z[keep], a[keep]
    v = np.zeros_like(z)
    if rule == "hard":
        v[keep] = zk
    elif rule == "soft":
        v[keep] = np.sign(zk) * (ak - lam)
    else:   # SCAD (Fan & Li 2001): soft up to 2λ, linear interpolation up to aλ, identity above
        out = np.where(ak <= 2 * lam, np.sign(zk) * (ak - lam),
                       ((SCAD_A - 1) * zk - np.sign(zk) * SCAD_A * lam) / (SCAD_A - 2))
        v[keep] = np.where(ak > SCAD_A * lam, zk, out)
    return v, float(lam)


# ---------------------------------------------------------------------------- deflation

def _right(W: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``M v`` with ``M = P_1 ⋯ P_m``, ``P_i = I − w_i w_iᵀ`` (rows w_i of W); v (d,) or (d, c)."""
    v = np.array(v, dtype=float)
    for w in W[::-1]:
        v -= np.multiply.outer(w, w @ v) if v.ndim == 2 else w * (w @ v)
    return v


def _left(W: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``Mᵀ y = P_m ⋯ P_1 y``; y (d,) or (d, c)."""
    y = np.array(y, dtype=float)
    for w in W:
        y -= np.multiply.outer(w, w @ y) if y.ndim == 2 else w * (w @ y)
    return y


@dataclass(frozen=True, eq=False)
class _Run:
    """Shared by every state of one run: the centred data and constants."""

    X: np.ndarray              # (n, d) centred (or raw) data X₀, read-only
    mean: np.ndarray           # (d,)
    cov: np.ndarray | None     # X₀ᵀX₀ when the PCA start needs it and d is small enough
    const: dict                # method constants (γ, ...)
    total: float = 0.0         # ‖X₀‖_F²

    def times(self, W: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``X_j w`` for the data deflated by the rows of W."""
        return self.X @ _right(W, w)

    def t_times(self, W: np.ndarray, y: np.ndarray) -> np.ndarray:
        """``X_jᵀ y``."""
        return _left(W, self.X.T @ y)


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


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _effective_weights(proj: np.ndarray) -> np.ndarray:
    a = np.abs(proj)
    top = a.max()
    if not top > 0:
        return np.ones_like(a)
    a = np.maximum(a, 1e-12 * top)
    return a.min() / a


class _Greedy(SteppableEstimator):
    """Outer loop shared by the four greedy methods (components, restarts, commits, states)."""

    _l1_weights = True       # sample_weights = effective ℓ2 weights of the ℓ1 objective
    _needs_cov = False       # PCA start used
    _track_columns = False   # squared column norms of X_j needed (GPower)
    _sparse = True           # components have exact zeros (all but PCA-L1)

    # ------------------------------------------------------------------ hooks
    def _setup(self, X: np.ndarray) -> dict:
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
        return bool(getattr(self, "center", True))

    def finished(self, state: State) -> bool:
        """True once all ``n_components`` are committed (the stopping rule of the whole run).
        ``converged`` is then True when the kept loop of every component ended by the method's own
        rule, False when some component's kept loop was cut by ``max_iter`` (listed in
        ``details["capped components"]``)."""
        return bool(state._ctx[1].final)

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
        n, d = X.shape
        mean = X.mean(axis=0) if self._center() else np.zeros(d)
        X0 = _frozen(X - mean)
        cov = _frozen(X0.T @ X0) if self._needs_cov and d <= _COV_MAX_FEATURES else None
        run = _Run(X=X0, mean=_frozen(mean), cov=cov, const=self._setup(X0),
                   total=float(np.einsum("ij,ij->", X0, X0)))
        with one_blas_thread():
            return self._first_state(run)

    def _first_state(self, run: _Run) -> State:
        X0, d = run.X, run.X.shape[1]
        comp = _Component(j=0, W=_frozen(np.empty((0, d))),
                          sq_norms=_frozen(np.einsum("ij,ij->i", X0, X0)),
                          colsq=_frozen(np.einsum("ij,ij->j", X0, X0)) if self._track_columns else None,
                          cov=run.cov)
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
            R = run.X @ _right(W, np.eye(W.shape[1]))
            exhausted = float(np.einsum("ij,ij->", R, R)) <= 1e-20 * run.total
        return _Component(j=comp.j + 1, W=_frozen(W), sq_norms=_frozen(sq), colsq=colsq, cov=cov,
                          exhausted=exhausted)

    def _step(self, state: State) -> State:
        # Everything below is matrix-vector products (memory-bound): on one BLAS thread they run
        # 10x faster than with OpenBLAS's threads on a busy 2-core machine (measured on MNIST
        # sixes, 714 × 784, 40 components: 0.8 s vs 10–14 s). See core.linalg.one_blas_thread.
        with one_blas_thread():
            return self._step_1(state)

    def _step_1(self, state: State) -> State:
        run, prog = state._ctx
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
        fields = dict(components=comps, sample_weights=weights, scalars=scalars,
                      details=details, converged=converged, _ctx=(run, prog))
        if prev is None:
            return State(method=self.name, iteration=0, objective=cand.objective,
                         objective_history=(cand.objective,), mean=run.mean, **fields)
        return self._next_state(prev, objective=cand.objective, **fields)

    # ------------------------------------------------------------------ the ℓ1 (Kwak / RSPCA) loop
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
        rows = _left(comp.W, run.X[near].T)        # (d, m) the deflated samples
        return bool(np.any(rows[support] != 0))


# ---------------------------------------------------------------------------- PCA-L1

@register(
    key="pca-l1", name="PCA-L1", family="PCA",
    reference="Kwak, IEEE TPAMI 2008 (paper 000 §5.4, paper 002 §5.4 and eq. (5)): greedy ℓ1-dispersion "
              "maximisation with deflation",
    summary="Maximises Σ_i |wᵀx_i| one component at a time: w ← Σ_i sign(wᵀx_i) x_i until the signs "
            "stop changing, then deflate. Each sample pulls with the same force, whatever its size.",
    params=[N_COMPONENTS, MAX_ITER_COMPONENT],
)
class PCAL1(_Greedy):
    """PCA-L1 (Kwak 2008), the greedy ℓ1-dispersion PCA used as a baseline by papers 000 and 002.

    For each component j = 1..m on the mean-centred data deflated by the previous components::

        max_{‖w‖₂ = 1}  ‖X_j w‖₁ = Σ_i |x_i^{(j)}·w|

    by Kwak's sign iteration (paper 002 eq. (5), AUGMENT): ``w ← X_jᵀs / ‖X_jᵀs‖`` with
    ``s_i = sign(x_i^{(j)}·w)`` (0 → +1), starting from the sample of largest norm,
    ``w(0) = x_{i*}/‖x_{i*}‖``, until the sign vector stops changing (an exact fixed point). At the
    fixed point, if a sample has a zero projection ``|x_i·w| <= 1e-12‖x_i‖`` the direction is
    perturbed by a random Δw of norm 1e-6 and the iteration continues (Kwak's "w ← (w + Δw)/‖·‖").
    Then ``X_{j+1} = X_j (I − w wᵀ)``. The ℓ1 dispersion never decreases within a component
    (Kwak's theorem, paper 002 Theorem 1). Components are orthonormal (each lies in the span of
    the deflated data), dense.

    Parameters
    ----------
    n_components : m, ``1 <= m < min(n_samples, n_features)``.
    max_iter : iteration cap per component.

    X is (n_samples, n_features) (the papers' columns are our rows), grey levels 0–255; it is
    centred at the sample mean (``mean`` of the states).

    State: see the module docstring (objective = ℓ1 dispersion of the current candidate, in
    grey levels; sample_weights = effective ℓ2 weights 1/|x_i·w|).

    Raises ParameterError (m or max_iter out of range), DataError (bad X), SolverError (zero update
    direction or non-finite values).
    """

    _sparse = False

    def __init__(self, n_components: int = 10, max_iter: int = 100):
        self.n_components = n_components
        self.max_iter = max_iter

    def _init(self, run, comp, r):
        if not comp.sq_norms.max() > 0:
            raise self._fail(comp, 0, "every deflated sample is zero; use fewer components")
        i = int(np.argmax(comp.sq_norms))
        x = _left(comp.W, run.X[i])
        return self._cand(run, comp, self._unit(comp, 0, x, "largest-norm sample"))

    def _advance(self, run, comp, cand):
        return self._l1_advance(run, comp, cand, lambda v: v, seed=0)


# ---------------------------------------------------------------------------- RSPCA

@register(
    key="rspca", name="RSPCA", family="sparse PCA",
    reference="Zhao, Meng & Xu, Sci China Inf Sci 2014 (paper 002): Algorithm 1, AUGMENT eq. (5), "
              "SPARSE eqs. (6)–(13); ℓ1 threshold θ_{k+1} and interval of (8) corrected",
    summary="Robust sparse PCA: maximises the ℓ1 dispersion Σ_i |wᵀx_i| over unit w with k nonzero "
            "loadings (ℓp thresholding, p = 0, 1/2, 1 or any p in [0, 1]), greedily with deflation "
            "and restarts.",
    params=[N_COMPONENTS, P_SPARSE, K_NONZERO, RESTARTS, PCA_START, CENTER, SEED, MAX_ITER_COMPONENT],
)
class RSPCA(_Greedy):
    """RSPCA, paper 002 Algorithm 1 (Zhao, Meng & Xu 2014).

    Model (paper eq. (3), solved greedily as eq. (4))::

        w_j = argmax_{‖w‖₂ = 1, ‖w‖_p^p <= t}  ‖X_j w‖₁ = Σ_i |x_i^{(j)}·w|,    p ∈ [0, 1]

    with ``X_j = X_{j−1}(I − w_{j−1}w_{j−1}ᵀ)`` (step 2.1; the paper's samples are columns, ours are
    rows). The radius t is never used: each iteration keeps exactly k nonzeros. One iteration:

    1. ``v = AUGMENT(w, X_j) = X_jᵀs/‖X_jᵀs‖``, ``s_i = sign(x_i·w)`` (0 → +1), eq. (5);
    2. ``u = SPARSE(v, k)`` (:func:`sparse_projection`, eqs. (7)–(13));
    3. ``w = u/‖u‖``.

    Stopping (step 2.6): when the sign vector of the new w equals the previous one the next w would
    be identical — an exact, tolerance-free fixed point. Criterion (2): if then some sample sharing
    support with w has a zero projection (``|x_i·w| <= 1e-12‖x_i‖``), w is perturbed by a random
    Δw of norm 1e-6 and the loop continues. Otherwise, or after ``max_iter`` iterations, the
    restart ends with its final iterate.

    Starts (paper §2.5, "multiple runs, keep the largest objective"): for every component,
    (1) the PCA start — the leading eigenvector of ``X_jᵀX_j`` (strategy (a); only if
    ``pca_start``), computed by :func:`core.linalg.leading_eigvecs` on the d × d deflated scatter,
    which is kept up to date by a rank-2 update per component (for d <= 2000; above, by products
    with the data); (2) the all-ones vector ``1/√d``; (3..) ``restarts`` random unit vectors
    (Gaussian, seeded by ``(seed, j, r)``). The paper's experiments use strategy (b) only (all-ones
    and random starts, ``pca_start=False``); the PCA start is our default because it is the kept
    start on most components (38 of 40 on the shipped sixes with dummy images). Each restart runs
    to its stopping rule; the component kept is the final iterate with the largest ℓ1 dispersion.
    Every restart's final objective stays visible in ``details["restart objectives"]``. (The
    paper's all-0 start is not offered: it is undefined on centred data.)

    Corrections applied (extraction §3.3): for p = 1 the soft threshold is θ_{k+1}, not θ_k, so
    that k (not k − 1) loadings survive (with k = 1 the printed rule returns 0); the root interval
    of eq. (8) is ``(2(1−p)θ_k/(2−p), |v_i|]`` (the printed one lacks θ_k); ties at θ_k are broken
    by index so that exactly k entries survive.

    Convergence: monotone ℓ1 dispersion from the first sparse iterate on is proven for p = 0
    (Theorem 4). For p = 1/2 and p = 1 with a k-parametrised SPARSE it is *not* guaranteed and
    decreases do occur (extraction §3.6; see tests/core/test_sparse_pca.py) — the iteration cap
    ends cycles. Components have unit norm and exactly k nonzeros (whenever the AUGMENT direction
    has at least k nonzeros); they are only approximately orthogonal.

    Parameters
    ----------
    n_components : m, ``1 <= m < min(n_samples, n_features)``.
    p : in [0, 1]; closed forms at 0, 1/2, 1, the fixed-point iteration (9) otherwise.
    k_nonzero : k, nonzeros per component, ``1 <= k <= n_features`` (checked at ``start``).
    restarts : number of random starts r >= 0 in addition to the PCA and all-ones starts.
    pca_start : include the PCA start (default True; False = the paper's experimental protocol).
    center : subtract the sample mean first (paper: "centring is a user option"; its 2-D example
        matches uncentred data).
    seed : seed of the random starts and perturbations.
    max_iter : iteration cap per restart.

    X is (n_samples, n_features), grey levels 0–255.

    State: see the module docstring. ``scalars`` add ``restart`` (1-based index into
    ``details["starts"]``); ``details``: ``"restart objectives"`` (one tuple of final objectives per
    committed component), ``"current restart objectives"`` (finished restarts of the current
    component), ``"starts"`` (names of the starts).

    Raises
    ------
    ParameterError : p not in [0, 1], k_nonzero < 1 or > n_features, m out of range, ... (named).
    DataError : X not 2-D or non-finite.
    SolverError : zero AUGMENT direction, empty support or non-finite values.
    """

    def __init__(self, n_components: int = 10, p: float = 0.5, k_nonzero: int = 100, restarts: int = 1,
                 pca_start: bool = True, center: bool = True, seed: int = 0, max_iter: int = 100):
        self.n_components = n_components
        self.p = p
        self.k_nonzero = k_nonzero
        self.restarts = restarts
        self.pca_start = pca_start
        self.center = center
        self.seed = seed
        self.max_iter = max_iter

    @property
    def _needs_cov(self) -> bool:      # the deflated scatter is kept only for the PCA start
        return bool(self.pca_start)

    def _start(self, X):
        _check_k(self.k_nonzero, X.shape[1])
        return super()._start(X)

    def _n_starts(self):
        return int(bool(self.pca_start)) + 1 + int(self.restarts)

    def _start_names(self) -> tuple[str, ...]:
        return (("PCA",) if self.pca_start else ()) + ("all-ones",) + tuple(
            f"random {i}" for i in range(1, int(self.restarts) + 1))

    def _init(self, run, comp, r):
        d = run.X.shape[1]
        kind = r + (0 if self.pca_start else 1)     # 0 PCA, 1 all-ones, 2.. random (same seeds either way)
        if kind == 0:
            w = self._leading_direction(run, comp)
        elif kind == 1:
            w = np.full(d, 1.0 / np.sqrt(d))
        else:
            g = np.random.default_rng([int(self.seed), comp.j, kind]).standard_normal(d)
            w = g / np.linalg.norm(g)
        return self._cand(run, comp, w, scalars=(("restart", r + 1),))

    def _completion_scalars(self, run, r):
        return (("restart", r + 1),)

    def _advance(self, run, comp, cand):
        k, p = int(self.k_nonzero), float(self.p)
        return self._l1_advance(run, comp, cand, lambda v: sparse_projection(v, k, p), seed=int(self.seed))

    def _details(self, prog):
        return {"restart objectives": prog.history, "current restart objectives": prog.restart_objs,
                "starts": self._start_names()}


def _check_k(k, d: int) -> None:
    if int(k) > d:
        raise ParameterError(f"k_nonzero (nnz) must be <= n_features = {d}, got {k!r}")


# ---------------------------------------------------------------------------- sPCA-rSVD

@register(
    key="spca-rsvd", name="sPCA-rSVD", family="sparse PCA",
    reference="Shen & Huang, J Multivar Anal 2008 (as summarised in paper 002 §5.4): rank-1 "
              "regularised SVD, alternating thresholding; projection deflation",
    summary="ℓ2 sparse PCA baseline: alternates u ← X v/‖X v‖ and v ← h_λ(Xᵀu) (hard, soft or SCAD "
            "thresholding, λ set so that exactly k loadings survive), then deflates.",
    params=[N_COMPONENTS, K_NONZERO, THRESHOLDING, CENTER, MAX_ITER_COMPONENT, TOL_W],
)
class SPCArSVD(_Greedy):
    """sPCA-rSVD (Shen & Huang 2008), the ℓ2 sparse-PCA baseline of paper 002 (§5.4).

    Rank-1 problem on the deflated data: ``min_{u, v} ‖X_j − u vᵀ‖_F² + P_λ(v)``, ``‖u‖ = 1``
    (rows of X are samples), by alternating ``u = X_j v/‖X_j v‖`` and ``v = h_λ(X_jᵀu)`` with h_λ the
    hard (ℓ0), soft (ℓ1) or SCAD (a = 3.7) thresholding rule. λ is re-set at every iteration to
    the (k+1)-th largest ``|X_jᵀu|`` so that exactly k loadings survive (ties by index; paper 002:
    "λ can be set to give a fixed number of nonzeros"). Start: u = the leading left singular
    vector of X_j (via the leading eigenvector of ``X_jᵀX_j``), so the state at τ = 0 already
    shows the thresholded loadings. Stop a component when no loading of ``w = v/‖v‖`` moves by
    more than ``tol`` or after ``max_iter`` iterations.

    Deviation: deflation is by projection, ``X_{j+1} = X_j(I − w wᵀ)`` as in paper 002, instead of
    Shen & Huang's ``X − u vᵀ``, so that all greedy methods here deflate alike.

    Parameters
    ----------
    n_components : m. k_nonzero : k, ``1 <= k <= n_features``. thresholding : "hard", "soft",
    "scad". center : subtract the sample mean. max_iter, tol : per-component stopping rule.

    X is (n_samples, n_features), grey levels 0–255.

    State: objective = the ℓ1 dispersion ``‖X_j w‖₁`` (for comparison with the ℓ1 methods);
    ``scalars`` add ``λ`` (threshold level) and ``variance`` ``‖X_j w‖₂²``, the ℓ2 criterion;
    sample_weights None (every sample weighs 1 in the ℓ2 fit).

    Raises ParameterError (named), DataError, SolverError (zero or non-finite iterate).
    """

    _l1_weights = False
    _needs_cov = True

    def __init__(self, n_components: int = 10, k_nonzero: int = 100, thresholding: str = "hard",
                 center: bool = True, max_iter: int = 100, tol: float = 1e-6):
        self.n_components = n_components
        self.k_nonzero = k_nonzero
        self.thresholding = thresholding
        self.center = center
        self.max_iter = max_iter
        self.tol = tol

    def _start(self, X):
        _check_k(self.k_nonzero, X.shape[1])
        return super()._start(X)

    def _update(self, run, comp, proj, tau):
        u = self._unit(comp, tau, proj, "score vector X_j w")
        z = run.t_times(comp.W, u)
        v, lam = _threshold_k(z, int(self.k_nonzero), self.thresholding)
        w = self._unit(comp, tau, v, "thresholded loading vector")
        cand = self._cand(run, comp, w, tau=tau)
        return replace(cand, scalars=(("λ", lam), ("variance", float(cand.proj @ cand.proj))))

    def _completion_scalars(self, run, r):
        return (("λ", 0.0), ("variance", 0.0))

    def _init(self, run, comp, r):
        w_pca = self._leading_direction(run, comp)
        return self._update(run, comp, run.times(comp.W, w_pca), 0)

    def _advance(self, run, comp, cand):
        new = self._update(run, comp, cand.proj, cand.tau + 1)
        small = float(np.max(np.abs(new.w - cand.w))) <= float(self.tol)
        return replace(new, done=small or new.tau >= int(self.max_iter), fixed_point=small)


# ---------------------------------------------------------------------------- GPower

@register(
    key="gpower", name="GPower", family="sparse PCA",
    reference="Journée, Nesterov, Richtárik & Sepulchre, JMLR 2010 (as summarised in paper 002 §5.4): "
              "single-unit GPower_ℓ1 / GPower_ℓ0 with deflation",
    summary="ℓ2 sparse PCA baseline: power iteration in sample space x ← Σ_i [|a_iᵀx| − γ]₊ sign(a_iᵀx) a_i "
            "(ℓ1) or Σ_i [(a_iᵀx)² > γ] (a_iᵀx) a_i (ℓ0); sparsity set by γ, not by a count.",
    params=[N_COMPONENTS, PENALTY, GAMMA, CENTER, MAX_ITER_GPOWER, TOL_F],
)
class GPower(_Greedy):
    """GPower single-unit (Journée et al. 2010), ℓ1 and ℓ0 penalties, with deflation.

    Journée et al. write the data as ``A`` (samples × variables) with columns ``a_i`` (variable i),
    which is our X_j. With ``t = X_jᵀx`` for a unit x in sample space:

    * ℓ1: ``max_{‖x‖=1} f(x) = Σ_i [|t_i| − γ]₊²``; iteration ``x ← X_j z/‖X_j z‖`` with
      ``z_i = sign(t_i)[|t_i| − γ]₊``; loadings ``w = z/‖z‖``.
    * ℓ0: ``max_{‖x‖=1} f(x) = Σ_i [t_i² − γ]₊``; ``z_i = t_i·[t_i² > γ]``; ``w = z/‖z‖``.

    Start: x = the column of X_j with the largest norm (Journée et al.'s choice). Stop a component
    when f changes by less than ``tol`` relatively, or after ``max_iter`` iterations. Deflation
    ``X_{j+1} = X_j(I − w wᵀ)`` (as in paper 002).

    Scaling of γ: ``gamma`` is a fraction in [0, 1) of its largest useful value on the input data
    (after centring, before any deflation): ``γ = gamma · max_i ‖a_i‖`` for ℓ1 and
    ``γ = gamma · max_i ‖a_i‖²`` for ℓ0 (Journée et al.: for γ >= that value the solution is 0). The
    same γ is used for every component, as in Journée et al.'s deflation scheme. If the *first*
    component has an empty support (γ above every column) the run stops with SolverError (use a
    smaller gamma). A later component whose deflated columns all fall below γ (e.g. the rank of the
    data is used up) is set to the coordinate axis of the largest deflated column (GPower's own
    start, the best 1-sparse direction) with f = 0, and its loop ends — never a NaN or a hang. Sparsity is set
    by γ, not by a count (as in paper 002's Table 4).

    Parameters
    ----------
    n_components : m. penalty : "l1" or "l0". gamma : in [0, 1). center : subtract the sample mean.
    max_iter, tol : per-component stopping rule (default cap 1000: the power iteration converges
        linearly, with rate set by the gap after thresholding; with a cap of 100 the 10th component
        on the built-in faces was still changing f by 4e-4 relatively).

    X is (n_samples, n_features), grey levels 0–255.

    State: objective = the ℓ1 dispersion ``‖X_j w‖₁`` (for comparison); ``scalars`` add ``f``
    (GPower's own objective) and ``γ`` (absolute); sample_weights None.

    Raises ParameterError (named), DataError, SolverError (empty support — γ too large — or
    non-finite values).
    """

    _l1_weights = False
    _track_columns = True

    def __init__(self, n_components: int = 10, penalty: str = "l1", gamma: float = 0.1,
                 center: bool = True, max_iter: int = 1000, tol: float = 1e-6):
        self.n_components = n_components
        self.penalty = penalty
        self.gamma = gamma
        self.center = center
        self.max_iter = max_iter
        self.tol = tol

    def _setup(self, X):
        top = float(np.einsum("ij,ij->j", X, X).max())
        scale = np.sqrt(top) if self.penalty == "l1" else top
        return {"γ": float(self.gamma) * scale}

    def _update(self, run, comp, x, tau):
        gamma = run.const["γ"]
        t = run.t_times(comp.W, x)
        if self.penalty == "l1":
            excess = np.maximum(np.abs(t) - gamma, 0.0)
            z, f = np.sign(t) * excess, float(excess @ excess)
        else:
            keep = t * t > gamma
            z, f = np.where(keep, t, 0.0), float(np.sum(t[keep] ** 2 - gamma))
        if not np.any(z):
            if comp.j == 0:
                raise self._fail(comp, tau, f"gamma = {self.gamma:g} (γ = {gamma:.4g}) leaves every loading "
                                            "at or below the threshold (empty support); use a smaller gamma")
            # A later component with an empty support (γ above every deflated column, e.g. the
            # rank of the data used up): its loading is the largest deflated column's axis
            # (GPower's own start, the best 1-sparse direction), f = 0, and its loop ends.
            e = np.zeros(run.X.shape[1])
            e[int(np.argmax(comp.colsq))] = 1.0
            cand = self._cand(run, comp, e, tau=tau)
            return replace(cand, scalars=(("f", 0.0), ("γ", gamma)), aux=0.0, done=True, fixed_point=True)
        w = self._unit(comp, tau, z, "loading vector")
        cand = self._cand(run, comp, w, tau=tau)
        return replace(cand, scalars=(("f", f), ("γ", gamma)), aux=f)

    def _completion_scalars(self, run, r):
        return (("f", 0.0), ("γ", run.const["γ"]))

    def _init(self, run, comp, r):
        e = np.zeros(run.X.shape[1])
        e[int(np.argmax(comp.colsq))] = 1.0
        x = self._unit(comp, 0, run.times(comp.W, e), "largest column of the deflated data")
        return self._update(run, comp, x, 0)

    def _advance(self, run, comp, cand):
        x = self._unit(comp, cand.tau + 1, cand.proj, "score vector X_j w")
        new = self._update(run, comp, x, cand.tau + 1)
        if new.done:                       # empty support (see _update)
            return new
        small = abs(new.aux - cand.aux) <= float(self.tol) * abs(cand.aux)
        return replace(new, done=small or new.tau >= int(self.max_iter), fixed_point=small)
