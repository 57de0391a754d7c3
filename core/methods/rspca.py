"""RSPCA, robust sparse PCA: Zhao et al. 2014 (Zhao, Meng & Xu, *Robust sparse principal component analysis*, Sci China Inf Sci 2014),
Algorithm 1 with AUGMENT (eq. (5)) and SPARSE (eqs. (6)–(13)).

The stepping, states and deflation are those of :mod:`core.methods._greedy`; AUGMENT is
:func:`core.methods.pca_l1.augment`.
"""
from __future__ import annotations

import numpy as np

from ..errors import DataError, ParameterError
from ..params import ParamSpec, register
from ._greedy import (CENTER, K_NONZERO, MAX_ITER_COMPONENT, check_k, L1Greedy, soft_threshold_level,
                      top_k)
from ._specs import N_COMPONENTS

__all__ = ["RSPCA", "sparse_projection", "sparse_lambda"]

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
    "also start each component from the leading eigenvector of the deflated scatter (Zhao et al. 2014 §2.5 "
    "strategy (a)); off = the paper's experiments (strategy (b): all-ones and random starts only)")
RANDOM_STATE = ParamSpec(
    "random_state", "seed", "int", 0,
    "random seed of the random restarts and of the zero-projection perturbation (same seed, same run)",
    low=0, slider=(0, 100))

#: Iteration cap and tolerance of the fixed-point iteration (9) of SPARSE for 0 < p < 1.
FIXED_POINT_MAX_ITER = 500


def sparse_lambda(theta_k: float, p: float) -> float:
    """λ* of Zhao et al. 2014 Theorem 2: ``[2(1−p)]^{1−p} / (2−p)^{2−p} · θ_k^{2−p}`` — the multiplier of
    ``min_u ½(u − v)² + λ|u|^p`` whose threshold (Marjanovic & Solo 2012) is exactly θ_k.
    p = 0 gives θ_k²/2 (hard threshold at θ_k), p = 1 gives θ_k (soft threshold at θ_k)."""
    return (2.0 * (1.0 - p)) ** (1.0 - p) / (2.0 - p) ** (2.0 - p) * theta_k ** (2.0 - p)


def _fixed_point(a: np.ndarray, theta_k: float, p: float) -> np.ndarray:
    """The larger root β of ``β + λ* p β^{p−1} = a`` (eq. (8)) for every entry of ``a >= θ_k > 0``,
    by the fixed-point iteration (9) ``β ← a − λ* p β^{p−1}`` from ``β⁽⁰⁾ = a``, with the root
    kept in the corrected interval ``[2(1−p)θ_k/(2−p), a]`` (a correction of the paper: the
    interval printed with eq. (8) lacks the factor θ_k).

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
    """SPARSE of Zhao et al. 2014 (eqs. (6)–(13)): the k-sparse thresholding of v for the ℓp penalty.

    Solves ``min_u ½‖u − v‖² + λ*‖u‖_p^p`` coordinate-wise (eq. (10)) with the multiplier λ*
    chosen so that exactly the k largest |v_i| survive. θ_k is the k-th largest |v_i|.

    * p = 0, eq. (11): hard threshold, ``u_i = v_i`` for the k kept entries (the best k-sparse
      Euclidean approximation of v).
    * p = 1, eq. (12) **corrected**: soft threshold at θ_{k+1} (the
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
    keep, theta_k, theta_k1 = top_k(a, k)
    u = np.zeros(d)
    vk, ak = v[keep], a[keep]
    if p == 0.0:
        u[keep] = vk
    elif p == 1.0:
        u[keep] = np.sign(vk) * (ak - soft_threshold_level(a, theta_k, theta_k1))
    elif theta_k == 0.0:                       # fewer than k nonzeros in v: λ* = 0, u = v
        u[keep] = vk
    elif p == 0.5 and closed_form:
        with np.errstate(divide="ignore", invalid="ignore"):
            phi = np.arccos(np.sqrt(0.5) * np.minimum(theta_k / ak, 1.0) ** 1.5)
        u[keep] = (2.0 / 3.0) * vk * (1.0 + np.cos(2.0 * np.pi / 3.0 - (2.0 / 3.0) * phi))
    else:
        u[keep] = np.sign(vk) * _fixed_point(ak, theta_k, p)
    return u


@register(
    objective_note="maximised; drops at each new component (by design)",
    key="rspca", name="RSPCA", family="sparse PCA",
    reference="Zhao, Meng & Xu, Sci China Inf Sci 2014: Algorithm 1, AUGMENT eq. (5), "
              "SPARSE eqs. (6)–(13); ℓ1 threshold θ_{k+1} and interval of (8) corrected",
    summary="Robust sparse PCA: maximises the ℓ1 dispersion Σ_i |wᵀx_i| over unit w with k nonzero "
            "loadings (ℓp thresholding, p = 0, 1/2, 1 or any p in [0, 1]), greedily with deflation "
            "and restarts.",
    params=[N_COMPONENTS, P_SPARSE, K_NONZERO, RESTARTS, PCA_START, CENTER, RANDOM_STATE, MAX_ITER_COMPONENT],
)
class RSPCA(L1Greedy):
    """RSPCA, Zhao et al. 2014 Algorithm 1 (Zhao, Meng & Xu 2014).

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
    (Gaussian, seeded by ``(random_state, j, r)``). The paper's experiments use strategy (b) only (all-ones
    and random starts, ``pca_start=False``); the PCA start is our default because it is the kept
    start on most components (38 of 40 on the shipped sixes with dummy images). Each restart runs
    to its stopping rule; the component kept is the final iterate with the largest ℓ1 dispersion.
    Every restart's final objective stays visible in ``details["restart objectives"]``. (The
    paper's all-0 start is not offered: it is undefined on centred data.)

    Corrections of the paper applied here: for p = 1 the soft threshold is θ_{k+1}, not θ_k, so
    that k (not k − 1) loadings survive (with k = 1 the printed rule returns 0); the root interval
    of eq. (8) is ``(2(1−p)θ_k/(2−p), |v_i|]`` (the printed one lacks θ_k); ties at θ_k are broken
    by index so that exactly k entries survive.

    Convergence: monotone ℓ1 dispersion from the first sparse iterate on is proven for p = 0
    (Theorem 4). For p = 1/2 and p = 1 with a k-parametrised SPARSE it is *not* guaranteed and
    decreases do occur (Theorem 4's argument for p = 1 needs a fixed radius t, while the
    k-parametrised SPARSE changes it every iteration; tests/core/test_sparse_pca.py shows the
    decreases) — the iteration cap ends cycles. Components have unit norm and exactly k nonzeros (whenever the AUGMENT direction
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
    random_state : int >= 0 (or None, a RandomState or a Generator: a fresh seed per run), the seed of the random starts and perturbations (scikit-learn's name;
        the app labels it "seed").
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
                 pca_start: bool = True, center: bool = True, random_state: int = 0,
                 max_iter: int = 100):
        self.n_components = n_components
        self.p = p
        self.k_nonzero = k_nonzero
        self.restarts = restarts
        self.pca_start = pca_start
        self.center = center
        self.random_state = random_state
        self.max_iter = max_iter

    @property
    def _needs_cov(self) -> bool:  # type: ignore[override]  # the deflated scatter is kept only for the PCA start
        return bool(self.pca_start)

    def _start(self, X):
        check_k(self.k_nonzero, X.shape[1])
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
            g = np.random.default_rng([run.seed, comp.j, kind]).standard_normal(d)
            w = g / np.linalg.norm(g)
        return self._cand(run, comp, w, scalars=(("restart", r + 1),))

    def _completion_scalars(self, run, r):
        return (("restart", r + 1),)

    def _advance(self, run, comp, cand):
        k, p = int(self.k_nonzero), float(self.p)
        return self._l1_advance(run, comp, cand, lambda v: sparse_projection(v, k, p), seed=run.seed)

    def _details(self, prog):
        return {"restart objectives": prog.history, "current restart objectives": prog.restart_objs,
                "starts": self._start_names()}
