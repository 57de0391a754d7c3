"""Generalized sample mean and PCA-GM (Oh & Kwak, Pattern Recognition 2016; Oh & Kwak 2016)."""
from __future__ import annotations

import warnings

import numpy as np

from .. import convergence, interrupt
from ..base import State, SteppableEstimator
from ..params import ParamSpec, register
from ..linalg import positive_floor, sq_distances, thin_product_threads
from ._specs import EXACT_START, MAX_ITER, N_COMPONENTS, TOL
from .pca import KeepsFloat32
from .reweighted import ReweightedPCA, ReweightRun, normalised

P_GM = ParamSpec(
    "p", "p", "float", 0.3,
    "power of the generalized mean of the residuals; 1 = PCA, smaller = more robust (Oh & Kwak 2016 eq. 10)",
    low=0.0, high=1.0, low_open=True, slider=(0.01, 1.0))

#: key of a PCA-GM state's ``details``: whether its generalized mean m_G met its stopping rule
MEAN_CONVERGED = "m_G converged"


class GeneralizedMean(KeepsFloat32, SteppableEstimator):
    """Generalized sample mean ``m_G`` (Oh & Kwak 2016, Algorithm 1, eqs. 6–8).

    Minimises ``Σ_i (‖x_i − m‖² + δ_m)^p`` over m for ``0 < p <= 1`` by the paper's reweighting:
    ``α_i = (‖x_i − m⁽ᵗ⁾‖² + δ_m)^{p−1}`` (eq. 7), ``m⁽ᵗ⁺¹⁾ = Σ α_i x_i / Σ α_i`` (eq. 8), starting
    from the arithmetic mean. Each step exactly minimises a majoriser, so the objective never
    increases (Oh & Kwak 2016 §3.5, MM argument of the extraction). ``p = 1`` gives the arithmetic mean.

    The paper gives no δ for Algorithm 1; we use ``δ_m = 0.01 · min_i ‖x_i − m_S‖²`` (the
    extraction's analogue of the paper's δ for Algorithm 2), falling back to 1e-12 if every sample
    equals the mean. Nor does it give a stopping rule: we stop when the objective's relative
    decrease is below ``tol`` or after ``max_iter`` iterations.

    X: (n_samples, n_features), grey levels 0–255. ``mean_`` (n_features,); ``sample_weights_``
    are the α_i scaled to a maximum of 1; ``effective_n_samples_`` is their Kish effective number
    of samples (Σα)²/Σα² (also the state's scalar ``"effective n"``). The state's ``components``
    are empty, shape (0, n_features).

    Raises ParameterError (p not in (0, 1]), DataError (bad X), SolverError (non-finite objective).
    """

    reweights_samples = True     # see SteppableEstimator.reweights_samples

    def __init__(self, p: float = 0.3, max_iter: int = 100, tol: float = 1e-6):
        self.p = p
        self.max_iter = max_iter
        self.tol = tol

    def _validated_params(self):
        return {"p": P_GM.validate(self.p), "max_iter": MAX_ITER.validate(self.max_iter),
                "tol": TOL.validate(self.tol)}

    def _weights_and_objective(self, X, m, delta, sq=None):
        """(α, J) at the mean m; ``sq``: the squared distances ``‖x_i − m‖²`` when the caller has
        them (else one pass over X)."""
        sq = (sq_distances(X, m) if sq is None else sq).astype(float) + delta
        p = float(self.p)
        return sq ** (p - 1.0), float(np.sum(sq ** p))

    def _start(self, X: np.ndarray) -> State:
        m = X.mean(axis=0)
        sq = sq_distances(X, m)                 # (one pass over X for δ and the weights)
        delta = positive_floor(sq.astype(float))
        alpha, J = self._weights_and_objective(X, m, delta, sq)
        return State(method="generalized mean", iteration=0, objective=J, objective_history=(J,),
                     components=np.empty((0, X.shape[1])), mean=m,
                     sample_weights=normalised(alpha), scalars={"δ_m": delta}, _ctx=ReweightRun(X=X))

    def _step(self, state: State) -> State:
        X, delta = state._ctx.X, float(state.scalars["δ_m"])
        interrupt.checkpoint()
        alpha = state.sample_weights
        assert alpha is not None                  # the mean's states carry their weights
        with thin_product_threads(X):
            m = alpha.astype(X.dtype) @ X / X.dtype.type(alpha.sum())
        alpha, J = self._weights_and_objective(X, m, delta)
        return self._next_state(state, objective=J, mean=m, sample_weights=normalised(alpha))


@register(
    key="pca-gm", name="PCA-GM", family="PCA",
    reference="Oh & Kwak, Pattern Recognition 2016: Algorithm 2, eqs. (9)–(13); mean by Algorithm 1",
    summary="Minimises the generalized (power) mean of the residuals, Σ e_i^p: each step is PCA with "
            "sample weights β_i = e_i^(p−1), so samples that fit badly are down-weighted.",
    params=[N_COMPONENTS, P_GM, MAX_ITER, TOL, EXACT_START],
)
class PCAGM(ReweightedPCA):
    """PCA-GM: PCA with the generalized mean of the reconstruction errors (Oh & Kwak 2016, Algorithm 2).

    Objective (Oh & Kwak 2016 eq. 10 with the δ of eq. 13)::

        min_{W Wᵀ = I}  F(W) = Σ_i (e_i(W) + δ)^p,   e_i(W) = ‖x̃_i‖² − ‖W x̃_i‖²,   x̃_i = x_i − m_G

    (rows of W are the components; the paper's W is n × m with components as columns). Algorithm 2:
    ``β_i = (e_i(W⁽ᵗ⁾) + δ)^{p−1}`` (eq. 11), ``W⁽ᵗ⁺¹⁾`` = top-k eigenvectors of ``S_β = Σ β_i x̃_i x̃_iᵀ``
    (eq. 12). By concavity of a ↦ a^p each step minimises a majoriser of F, so F never increases
    for 0 < p <= 1 (extraction §3.5; the paper argues this informally, Fig. 2). In the terms of
    :class:`~core.methods.reweighted.ReweightedPCA`, whose iteration this is: ``φ(e) = (e + δ)^p``
    of the squared residual e, weights ∝ ``φ′(e)``, δ and p fixed for the run, centre fixed at m_G.

    Choices the paper leaves open, as the extraction recommends:

    * ``m_G`` is computed once, before Algorithm 2, by :class:`GeneralizedMean` with the same p
      (paper §3.2: the mean is an input, not re-estimated); iteration 0 is ``W_PCA`` of the
      m_G-centred data.
    * ``δ = 0.01 · min_i e_i(W_PCA)`` (paper §5.1), 1e-12 if every e_i is 0. The eigenvalue shift
      δ/n·Σβ of the paper's perturbed scatter does not change the eigenvectors and is omitted.
    * The eigenvectors of eq. (12) are computed by :func:`core.linalg.weighted_top_eigenspace`:
      exactly when ``min(n_samples, n_features) <= 400`` (:data:`core.linalg.EXACT_MAX`) or the
      exact route is cheaper (:func:`core.linalg.subspace_route`), else by block subspace iteration warm-started from
      the previous iteration's whole Ritz block (W and the oversampling rows, which already
      approximate the next eigenvectors: 4–6 iterations instead of 6–10 per step on 10,000 real
      digits), to a principal angle of 1e-5 between successive iterates. The warm start keeps F
      non-increasing (the block's span contains the previous W).
    * float32 X stays float32 (components, mean, projections); objectives are summed in float64.
    * Stopping rule: F's relative decrease ``|F_t − F_{t+1}| <= tol·|F_t|`` (then ``converged``), or
      ``max_iter`` (paper: 100) iterations. Residuals below round-off (``e_i <= 1e-12‖x̃_i‖²``) count
      as exactly 0 (:func:`core.linalg.residual_sq`), so samples on the subspace do not keep the
      weights flickering.

    Parameters
    ----------
    n_components : k, ``1 <= k < min(n_samples, n_features)``.
    p : power, in (0, 1]. p = 1 is PCA (all β_i = 1).
    max_iter, tol : stopping rule.
    exact_start : False (default): iteration 0's PCA subspace is computed on the block route only to
        :data:`core.linalg.START_TOL` in angle or :data:`core.linalg.START_RESIDUAL_TOL` in the
        residuals (what the first reweighted step needs: its weights come from
        residual norms, and its own subspace is converged to 1e-5 again); True: to 1e-5, as the
        steps (same converged fit, measured: :func:`core.linalg.start_tol`). Unless ``exact_start`` the
        steps too stop once the residuals settle to a hundredth of the objective's last relative
        change (:func:`core.linalg.step_residual_tol`; the same converged fit within 1e-6,
        tests/core/test_start_tol.py). The exact routes are exact either way.

    X is (n_samples, n_features) with grey levels on the 0–255 scale (δ and the errors are then in
    the paper's units).

    State
    -----
    objective : F(W) above, in (grey level)^(2p).
    sample_weights : β_i / max β (the β used for the next step).
    scalars : ``δ``, ``p``, ``mean iterations`` (Algorithm 1 iterations used for m_G), and
        ``effective n``, Kish's (Σβ)²/Σβ² (also the fitted ``effective_n_samples_``): far below n
        the weights have collapsed onto a few samples (:mod:`core.collapse`).

    Raises
    ------
    ParameterError : p not in (0, 1] or k out of range (named in the message).
    DataError : X not 2-D or non-finite.
    SolverError : the objective or the weights become non-finite.

    Note: with k at or above the number of outlying samples the subspace can absorb them, and then
    they get the *largest* weights (a sample on the subspace has e_i = 0, weight δ^(p−1)). The app
    shows this rather than hiding it. Measured on Oh & Kwak 2016's MNIST protocol (300 inliers, 60
    outliers): weight AUC 0.75 at k = 10, 0.66 at k = 50, 0.38 at k = 200; on the built-in faces with
    20 % occluded, 1.00 at k = 5 and 0.85–0.95 at k = 10 (one occluded face absorbed, weight 1).
    """

    surrogate = "Q = Σ (eᵗ+δ)ᵖ + p(eᵗ+δ)ᵖ⁻¹(e − eᵗ)"

    def __init__(self, n_components: int = 10, p: float = 0.3, max_iter: int = 100, tol: float = 1e-6,
                 exact_start: bool = False):
        self.n_components = n_components
        self.p = p
        self.max_iter = max_iter
        self.tol = tol
        self.exact_start = exact_start

    def phi(self, a, s):
        """``(e + δ)^p`` (eq. 10 with eq. 13's δ)."""
        return (a + s["δ"]) ** s["p"]

    def dphi(self, a, s):
        """``p (e + δ)^{p−1}``: eq. (11)'s β up to the factor p."""
        return s["p"] * (a + s["δ"]) ** (s["p"] - 1.0)

    def weight_rule(self, a, s):
        """β_i = (e_i + δ)^{p−1} (eq. 11), largest 1."""
        return normalised((a + s["δ"]) ** (s["p"] - 1.0))

    def _fixed_constants(self, X, a):
        """δ = 0.01 · min e_i(W_PCA) (paper §5.1), and p."""
        return {"δ": positive_floor(a), "p": float(self.p)}

    def _centre(self, X):
        """m_G, by :class:`GeneralizedMean` with the same p (Algorithm 1), and its iterations."""
        gm = GeneralizedMean(p=self.p, max_iter=self.max_iter, tol=self.tol)
        state = gm._start(X)          # X is validated already (and may be float32: kept)
        while not gm.finished(state):
            state = gm.step(state)
        if not state.converged:
            # the user called PCA-GM: say it of PCA-GM (its inner mean), not of an estimator they never named
            warnings.warn(f"{self.name}: its generalized mean m_G (Algorithm 1) stopped at max_iter = "
                          f"{int(self.max_iter)} before its stopping rule was met; the components are fitted "
                          "around that mean. Raise max_iter or tol to let it converge",
                          convergence.ConvergenceWarning, stacklevel=5)
        return state.mean, {"mean iterations": state.iteration}, {MEAN_CONVERGED: bool(state.converged)}

    def note(self, state: State) -> str:
        """Says when the generalized mean m_G stopped at max_iter unconverged (PCA-GM itself may
        still converge around it)."""
        if state.details.get(MEAN_CONVERGED) is False:
            return f"its generalized mean m_G stopped at max_iter = {int(self.max_iter)} without converging"
        return ""
