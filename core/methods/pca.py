"""Standard PCA, as the papers' baseline."""
from __future__ import annotations

import numpy as np

from ..base import State, SteppableEstimator
from ..params import register
from ..linalg import PCA_RESIDUAL_TOL, pca_eigenspace, residual_sq, sq_distances
from ._specs import EXACT_PCA, N_COMPONENTS


class KeepsFloat32:
    """Mixin for the PCA-family estimators: float32 data stays float32 (issue 12, point 4): the
    whole run (passes over X, components, mean, projections) is in float32, half the memory and
    about half the time of float64 (:attr:`core.base.SteppableEstimator.preserves_float32`)."""

    preserves_float32 = True


@register(
    key="pca", name="PCA", family="PCA",
    reference="Jolliffe 2002; as written in Oh & Kwak 2016 §2.2 and Nie et al. 2014 eqs. (1)–(9)",
    summary="Least-squares subspace: top-k eigenvectors of the sample covariance. Every sample weighs 1.",
    params=[N_COMPONENTS, EXACT_PCA],
)
class PlainPCA(KeepsFloat32, SteppableEstimator):
    """Principal component analysis centred at the sample mean (catalogue key ``"pca"``;
    named ``PlainPCA`` so as not to shadow scikit-learn's ``PCA`` in a shared namespace;
    ``PCA`` is kept as an alias).

    Paper 000 §2.2: ``W_PCA = argmax_{WᵀW=I} tr(Wᵀ S W)`` with ``S`` the sample covariance, i.e. the
    top-k eigenvectors; Nie et al. 2014 eq. (9) shows that centring at the ℓ2 mean is optimal for PCA.
    Computed with :func:`core.linalg.weighted_top_eigenspace` (all weights 1), never a full SVD:
    exactly (k top eigenpairs of the n × n Gram or d × d covariance matrix) when
    ``min(n_samples, n_features) <= 400`` (:data:`core.linalg.EXACT_MAX`) or the exact route is the cheaper one, else by block
    Krylov iteration from a seeded random start (:func:`core.linalg.subspace_route` states the rule),
    stopped at an estimated sine of 1e-5 to the exact subspace or, unless ``exact_start``, as soon as
    the samples' squared residuals of two successive iterations differ by at most
    :data:`core.linalg.PCA_RESIDUAL_TOL` = 1e-4 of their sum, whichever comes first. Without a spectral
    gap after k the subspace itself is barely determined (the top eigenvalues fall smoothly) and the
    angle rule needs many iterations, while the reconstruction error settles early: at 10,000 × 4096,
    k = 20, on ``benchmarks/bench_scale.py``'s data without a gap, 12 block iterations instead of 27,
    the reconstruction error within 2.6·10⁻⁷ (relative) of the exact one, where scikit-learn's
    randomized PCA is 6·10⁻⁴ above it. On float64 data that residual-stopped route iterates in single
    precision on a float32 copy of the centred data (half X's memory while it runs) and ends with one
    float64 pass (:func:`core.linalg.pca_eigenspace`): 13 block iterations, 1.2·10⁻⁷ above the exact
    error, in 0.61–0.93 × the time of scikit-learn's fit measured beside it (``benchmarks/results_scale.md``).

    float32 X is kept float32 throughout (components, mean and projections); the objective is
    summed in float64.

    PCA is not iterative: ``start`` returns the solution (iteration 0, ``converged=True``); ``step``
    applies the same map again and returns the same fixed point with the iteration count advanced,
    so PCA can be stepped side by side with the iterative methods.

    Parameters
    ----------
    n_components : int, k in the papers; ``1 <= k < min(n_samples, n_features)``.
    exact_start : False (default): on the block route, stop once the residuals have settled (above);
        True: the angle rule alone (the subspace to 1e-5, as before issue 32). The exact routes
        ignore it.

    State
    -----
    objective : ``Σ_i ‖x̃_i − WᵀW x̃_i‖²`` (squared reconstruction error, units of (grey level)²).
    sample_weights : all ones.

    Raises
    ------
    ParameterError : k out of range (message names ``n_components``).
    DataError : X not 2-D, or non-finite.
    """

    def __init__(self, n_components: int = 10, exact_start: bool = False):
        self.n_components = n_components
        self.exact_start = exact_start

    def _start(self, X: np.ndarray) -> State:
        mean = X.mean(axis=0)
        sq = sq_distances(X, mean)
        if self.exact_start:
            out, _ = pca_eigenspace(X, mean, int(self.n_components))
        else:
            out, _ = pca_eigenspace(X, mean, int(self.n_components), residual_tol=PCA_RESIDUAL_TOL, sq=sq)
        e = residual_sq(sq, out.projections)
        J = float(e.sum(dtype=float))
        return State(method=self.name, iteration=0, objective=J, objective_history=(J,),
                     components=out.components, mean=mean, sample_weights=np.ones(len(X)), converged=True)

    def _step(self, state: State) -> State:
        return self._next_state(state, objective=state.objective, converged=True)


#: The former name (shadows scikit-learn's ``PCA`` when both are imported): an alias.
PCA = PlainPCA
