"""The ℓ2 sparse-PCA baselines of Zhao et al. 2014 (Zhao, Meng & Xu, *Robust sparse principal component analysis*, Sci China Inf Sci 2014, §5.4):
sPCA-rSVD (Shen & Huang, *Sparse principal component analysis via regularized low rank matrix
approximation*, J Multivar Anal 2008) and GPower (Journée, Nesterov, Richtárik & Sepulchre,
*Generalized power method for sparse principal component analysis*, JMLR 2010).

The stepping, states and deflation are those of :mod:`core.methods._greedy`.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..params import ParamSpec, register
from ._greedy import CENTER, K_NONZERO, MAX_ITER_COMPONENT, check_k, Greedy, soft_threshold_level, top_k
from ._specs import N_COMPONENTS

__all__ = ["SPCArSVD", "GPower"]

MAX_ITER_GPOWER = ParamSpec(
    "max_iter", "max iter", "int", 1000,
    "iteration cap per component; GPower's power iteration converges linearly and slowly when the "
    "leading gap is small (on the built-in faces a component needs up to ~250 iterations for tol 1e-6)",
    low=1, high=100000, slider=(1, 2000))
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


def _threshold_k(z: np.ndarray, k: int, rule: str) -> tuple[np.ndarray, float]:
    """sPCA-rSVD's ``h_λ(z)`` with λ set so that exactly the k largest |z_i| survive (ties by
    index): λ = θ_{k+1} (see :func:`sparse_projection`, p = 1). Returns (v, λ)."""
    a = np.abs(z)
    keep, theta_k, theta_k1 = top_k(a, k)
    lam = soft_threshold_level(a, theta_k, theta_k1)
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


@register(
    objective_note="jumps at each new component (by design)",
    key="spca-rsvd", name="sPCA-rSVD", family="sparse PCA",
    reference="Shen & Huang, J Multivar Anal 2008 (as summarised in Zhao et al. 2014 §5.4): rank-1 "
              "regularised SVD, alternating thresholding; projection deflation",
    summary="ℓ2 sparse PCA baseline: alternates u ← X v/‖X v‖ and v ← h_λ(Xᵀu) (hard, soft or SCAD "
            "thresholding, λ set so that exactly k loadings survive), then deflates.",
    params=[N_COMPONENTS, K_NONZERO, THRESHOLDING, CENTER, MAX_ITER_COMPONENT, TOL_W],
)
class SPCArSVD(Greedy):
    """sPCA-rSVD (Shen & Huang 2008), the ℓ2 sparse-PCA baseline of Zhao et al. 2014 (§5.4).

    Rank-1 problem on the deflated data: ``min_{u, v} ‖X_j − u vᵀ‖_F² + P_λ(v)``, ``‖u‖ = 1``
    (rows of X are samples), by alternating ``u = X_j v/‖X_j v‖`` and ``v = h_λ(X_jᵀu)`` with h_λ the
    hard (ℓ0), soft (ℓ1) or SCAD (a = 3.7) thresholding rule. λ is re-set at every iteration to
    the (k+1)-th largest ``|X_jᵀu|`` so that exactly k loadings survive (ties by index; Zhao et al. 2014:
    "λ can be set to give a fixed number of nonzeros"). Start: u = the leading left singular
    vector of X_j (via the leading eigenvector of ``X_jᵀX_j``), so the state at τ = 0 already
    shows the thresholded loadings. Stop a component when no loading of ``w = v/‖v‖`` moves by
    more than ``tol`` or after ``max_iter`` iterations.

    Deviation: deflation is by projection, ``X_{j+1} = X_j(I − w wᵀ)`` as in Zhao et al. 2014, instead of
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
        check_k(self.k_nonzero, X.shape[1])
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
    objective_note="maximised; drops at each new component (by design)",
    key="gpower", name="GPower", family="sparse PCA",
    reference="Journée, Nesterov, Richtárik & Sepulchre, JMLR 2010 (as summarised in Zhao et al. 2014 §5.4): "
              "single-unit GPower_ℓ1 / GPower_ℓ0 with deflation",
    summary="ℓ2 sparse PCA baseline: power iteration in sample space x ← Σ_i [|a_iᵀx| − γ]₊ sign(a_iᵀx) a_i "
            "(ℓ1) or Σ_i [(a_iᵀx)² > γ] (a_iᵀx) a_i (ℓ0); sparsity set by γ, not by a count.",
    params=[N_COMPONENTS, PENALTY, GAMMA, CENTER, MAX_ITER_GPOWER, TOL_F],
)
class GPower(Greedy):
    """GPower single-unit (Journée et al. 2010), ℓ1 and ℓ0 penalties, with deflation.

    Journée et al. write the data as ``A`` (samples × variables) with columns ``a_i`` (variable i),
    which is our X_j. With ``t = X_jᵀx`` for a unit x in sample space:

    * ℓ1: ``max_{‖x‖=1} f(x) = Σ_i [|t_i| − γ]₊²``; iteration ``x ← X_j z/‖X_j z‖`` with
      ``z_i = sign(t_i)[|t_i| − γ]₊``; loadings ``w = z/‖z‖``.
    * ℓ0: ``max_{‖x‖=1} f(x) = Σ_i [t_i² − γ]₊``; ``z_i = t_i·[t_i² > γ]``; ``w = z/‖z‖``.

    Start: x = the column of X_j with the largest norm (Journée et al.'s choice). Stop a component
    when f changes by less than ``tol`` relatively, or after ``max_iter`` iterations. Deflation
    ``X_{j+1} = X_j(I − w wᵀ)`` (as in Zhao et al. 2014).

    Scaling of γ: ``gamma`` is a fraction in [0, 1) of its largest useful value on the input data
    (after centring, before any deflation): ``γ = gamma · max_i ‖a_i‖`` for ℓ1 and
    ``γ = gamma · max_i ‖a_i‖²`` for ℓ0 (Journée et al.: for γ >= that value the solution is 0). The
    same γ is used for every component, as in Journée et al.'s deflation scheme. If the *first*
    component has an empty support (γ above every column) the run stops with SolverError (use a
    smaller gamma). A later component whose deflated columns all fall below γ (e.g. the rank of the
    data is used up) is set to the coordinate axis of the largest deflated column (GPower's own
    start, the best 1-sparse direction) with f = 0, and its loop ends — never a NaN or a hang. Sparsity is set
    by γ, not by a count (as in Zhao et al. 2014's Table 4).

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

    def _setup(self, colsq):
        top = float(colsq.max())
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
