"""PCA-L1 (Kwak, *Principal component analysis based on L1-norm maximization*, IEEE TPAMI 2008):
greedy ℓ1-dispersion PCA, and its AUGMENT step, which RSPCA (Zhao et al. 2014 eq. (5)) reuses.

The stepping, states and deflation are those of :mod:`core.methods._greedy`.
"""
from __future__ import annotations

import numpy as np

from ..errors import SolverError
from ..params import ParamSpec, register
from ._greedy import MAX_ITER_COMPONENT, L1Greedy, deflate_left
from ._specs import N_COMPONENTS

__all__ = ["PCAL1", "augment", "l1_dispersion"]

RANDOM_STATE = ParamSpec(
    "random_state", "seed", "int", 0,
    "random seed of the perturbation Δw applied when a sample's projection is zero (rare; same seed, same run)",
    low=0, slider=(0, 100))


def l1_dispersion(w: np.ndarray, X: np.ndarray) -> float:
    """The ℓ1 dispersion ``‖X w‖₁ = Σ_i |x_iᵀw|`` (Zhao et al. 2014 eq. (3)/(4)); X (n, d), w (d,)."""
    return float(np.abs(np.asarray(X, dtype=float) @ np.asarray(w, dtype=float)).sum())


def augment(w: np.ndarray, X: np.ndarray) -> np.ndarray:
    """AUGMENT of Zhao et al. 2014, eq. (5) (Kwak 2008): ``v = Σ_i p_i x_i / ‖Σ_i p_i x_i‖₂`` with
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


@register(
    objective_note="maximised; drops at each new component (by design)",
    key="pca-l1", name="PCA-L1", family="PCA",
    reference="Kwak, IEEE TPAMI 2008 (Oh & Kwak 2016 §5.4, Zhao et al. 2014 §5.4 and eq. (5)): greedy ℓ1-dispersion "
              "maximisation with deflation",
    summary="Maximises Σ_i |wᵀx_i| one component at a time: w ← Σ_i sign(wᵀx_i) x_i until the signs "
            "stop changing, then deflate. Each sample pulls with the same force, whatever its size.",
    params=[N_COMPONENTS, MAX_ITER_COMPONENT, RANDOM_STATE],
)
class PCAL1(L1Greedy):
    """PCA-L1 (Kwak 2008), the greedy ℓ1-dispersion PCA used as a baseline by papers 000 and 002.

    For each component j = 1..m on the mean-centred data deflated by the previous components::

        max_{‖w‖₂ = 1}  ‖X_j w‖₁ = Σ_i |x_i^{(j)}·w|

    by Kwak's sign iteration (Zhao et al. 2014 eq. (5), AUGMENT): ``w ← X_jᵀs / ‖X_jᵀs‖`` with
    ``s_i = sign(x_i^{(j)}·w)`` (0 → +1), starting from the sample of largest norm,
    ``w(0) = x_{i*}/‖x_{i*}‖``, until the sign vector stops changing (an exact fixed point). At the
    fixed point, if a sample has a zero projection ``|x_i·w| <= 1e-12‖x_i‖`` the direction is
    perturbed by a random Δw of norm 1e-6 and the iteration continues (Kwak's "w ← (w + Δw)/‖·‖").
    Then ``X_{j+1} = X_j (I − w wᵀ)``. The ℓ1 dispersion never decreases within a component
    (Kwak's theorem, Zhao et al. 2014 Theorem 1). Components are orthonormal (each lies in the span of
    the deflated data), dense.

    Parameters
    ----------
    n_components : m, ``1 <= m < min(n_samples, n_features)``.
    max_iter : iteration cap per component.
    random_state : int >= 0 (or None, a RandomState or a Generator: a fresh seed per run), the seed of the perturbations Δw (scikit-learn's name; the app labels
        it "seed"). It matters only when a zero projection occurs at a fixed point.

    X is (n_samples, n_features) (the papers' columns are our rows), grey levels 0–255; it is
    centred at the sample mean (``mean`` of the states).

    State: see the module docstring (objective = ℓ1 dispersion of the current candidate, in
    grey levels; sample_weights = effective ℓ2 weights 1/|x_i·w|).

    Raises ParameterError (m, max_iter or random_state out of range), DataError (bad X), SolverError (zero update
    direction or non-finite values).
    """

    _sparse = False

    def __init__(self, n_components: int = 10, max_iter: int = 100, random_state: int = 0):
        self.n_components = n_components
        self.max_iter = max_iter
        self.random_state = random_state

    def _init(self, run, comp, r):
        if not comp.sq_norms.max() > 0:
            raise self._fail(comp, 0, "every deflated sample is zero; use fewer components")
        i = int(np.argmax(comp.sq_norms))
        x = deflate_left(comp.W, run.rows(i))
        return self._cand(run, comp, self._unit(comp, 0, x, "largest-norm sample"))

    def _advance(self, run, comp, cand):
        return self._l1_advance(run, comp, cand, lambda v: v, seed=run.seed)
