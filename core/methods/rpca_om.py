"""RPCA-OM: ℓ2,1 robust PCA with the mean optimised (Nie, Yuan, Huang, ICML 2014; Nie et al. 2014)."""
from __future__ import annotations


from ..params import ParamSpec, register
from ..linalg import sq_distances
from ._specs import EXACT_START, MAX_ITER, N_COMPONENTS, TOL
from .reweighted import ReweightedPCA, normalised

#: ε of Nie et al. 2014's footnote 1 (‖z‖ replaced by √(‖z‖² + ε), "ε → 0"), relative to the mean
#: squared distance of the samples to their ℓ2 mean. It only guards the division in d_ii.
EPS_REL = 1e-10


P_L2P = ParamSpec(
    "p", "p", "float", 1.0,
    "exponent of the residual norms, Σ‖rᵢ‖ᵖ; 1 = RPCA-OM, 2 = PCA, smaller = more robust",
    low=0.0, high=2.0, low_open=True, slider=(0.1, 2.0))


@register(
    key="l2p-pca-om", name="ℓ2,p-PCA-OM", family="PCA",
    reference="Nie, Yuan & Huang, ICML 2014: Algorithm 2 (general re-weighting, eq. 27) "
              "applied to Σ‖(I − UUᵀ)(xᵢ − b)‖ᵖ; p = 1 is Algorithm 1 (RPCA-OM)",
    summary="Minimises the sum of residual norms to the power p with the mean as a variable: each step is a "
            "weighted PCA around the weighted mean, weights dᵢ ∝ ‖rᵢ‖^(p−2).",
    params=[N_COMPONENTS, P_L2P, MAX_ITER, TOL, EXACT_START],
)
class L2pPCAOM(ReweightedPCA):
    """ℓ2,p PCA with optimal mean: Nie et al. 2014's re-weighting (Algorithm 2) applied to model A′.

    Objective (Nie et al. 2014 eq. 13 generalised as in the extraction's model A′, with the smoothing
    of its footnote 1)::

        min_{b, UᵀU = I}  J(U, b) = Σ_i (‖(I − UUᵀ)(x_i − b)‖² + ε)^{p/2},   0 < p <= 2

    The paper's samples are the columns of a d × n matrix; here they are the rows of X and the
    columns of U are the rows of ``components``. With ``h(t) = (t + ε)^{p/2}`` concave for p <= 2,
    Algorithm 2 takes ``d_ii = h'(g_i) ∝ (‖r_i‖² + ε)^{(p−2)/2}`` (its supergradient), then solves
    the weighted problem (14) exactly, so J never increases (Nie et al. 2014 §3.3). Each iteration, with
    the weights ``d_ii`` of the previous one:

    1. ``b = Σ d_ii x_i / Σ d_ii`` (eq. 15 with α = 0, the weighted mean);
    2. ``U`` = top-k eigenvectors of ``Σ d_ii (x_i − b)(x_i − b)ᵀ = X H_d Xᵀ`` (eq. 16) — the paper's
       Algorithm 1 says the k *right* singular vectors of ``X(D^{1/2} − D11ᵀD^{1/2}/1ᵀD1)``; that
       is a typo, U is d × k so they are the *left* ones (correction from the extraction, §2.4);
    3. ``d_ii = (‖(I − UUᵀ)(x_i − b)‖² + ε)^{(p−2)/2}`` (the constant p/2 does not change U or b).

    In the terms of :class:`~core.methods.reweighted.ReweightedPCA`, whose iteration this is: φ = h
    of the squared residual, weights ∝ φ′, ε fixed for the run, the centre moving (step 1).

    p = 1 is RPCA-OM (Algorithm 1, weights 1/(2‖r_i‖)); p = 2 is PCA. Initialisation D = I, so the
    state of iteration 0 (the paper's first pass) is PCA with the ordinary mean.
    ε = 1e-10 × mean_i ‖x_i − x̄‖² (the paper gives no value; it only guards the negative power).
    Stop when J's relative decrease is below ``tol`` or after ``max_iter`` iterations.

    Step 2 is computed by :func:`core.linalg.weighted_top_eigenspace`: exactly when
    ``min(n_samples, n_features) <= 400`` (:data:`core.linalg.EXACT_MAX`) or the exact route is cheaper
    (:func:`core.linalg.subspace_route`), else by block subspace iteration warm-started from the
    previous step's Ritz block (U and its oversampling rows), to a principal angle of 1e-5 between successive iterates, without forming a
    centred copy of X or any n × n / d × d matrix. The warm start keeps J non-increasing. float32
    X stays float32 (components, mean, projections); objectives are summed in float64.

    Parameters
    ----------
    n_components : k, ``1 <= k < min(n_samples, n_features)``.
    p : exponent in (0, 2].
    max_iter, tol : stopping rule (the paper gives none; it "usually converges in 20 iterations").
    exact_start : False (default): iteration 0's weighted PCA (all weights 1) is computed on the
        block route only to :data:`core.linalg.START_TOL` in angle or :data:`core.linalg.START_RESIDUAL_TOL`
        in the residuals (what the first reweighted step needs);
        True: to 1e-5, as the steps (same converged fit: :func:`core.linalg.start_tol`), and every
        step to 1e-5 (else the steps stop at :func:`core.linalg.step_residual_tol`, see :class:`core.methods.PCAGM`).

    X is (n_samples, n_features), grey levels 0–255.

    State
    -----
    objective : J(U, b) above, in grey levels^p.
    mean : b, the optimal mean.
    sample_weights : d_ii / max d (the weights of the next step).
    scalars : ``ε``, and ``effective n``, Kish's (Σd)²/Σd² (also the fitted
        ``effective_n_samples_``): far below n the weights have collapsed (:mod:`core.collapse`).

    Raises ParameterError (k or p out of range), DataError (bad X), SolverError (non-finite values).
    """

    moving_mean = True
    surrogate = "Q = Σ φ(rᵗ²) + φ′(rᵗ²)(r² − rᵗ²),  φ(a) = (a+ε)^(p/2)"

    def __init__(self, n_components: int = 10, p: float = 1.0, max_iter: int = 100, tol: float = 1e-6,
                 exact_start: bool = False):
        self.n_components = n_components
        self.p = p
        self.max_iter = max_iter
        self.tol = tol
        self.exact_start = exact_start

    def phi(self, a, s):
        """``h(a) = (a + ε)^{p/2}`` of the squared residual a (eq. 13 generalised, footnote 1's ε)."""
        return (a + s["ε"]) ** (float(self.p) / 2.0)

    def dphi(self, a, s):
        """``h′(a) = (p/2)(a + ε)^{(p−2)/2}``: Algorithm 2's d_ii up to the constant p/2."""
        p = float(self.p)
        return p / 2.0 * (a + s["ε"]) ** ((p - 2.0) / 2.0)

    def weight_rule(self, a, s):
        """Step 3's ``d_ii = (a_i + ε)^{(p−2)/2}``, largest 1."""
        return normalised((a + s["ε"]) ** ((float(self.p) - 2.0) / 2.0))

    def _fixed_constants(self, X, a):
        """ε = :data:`EPS_REL` × mean_i ‖x_i − x̄‖² (1e-300 for data that are all 0)."""
        return {"ε": EPS_REL * float(sq_distances(X, X.mean(axis=0)).mean(dtype=float)) or 1e-300}


@register(
    key="rpca-om", name="RPCA-OM", family="PCA",
    reference="Nie, Yuan & Huang, ICML 2014: Algorithm 1, eqs. (13)–(16); "
              "'right' singular vectors corrected to left",
    summary="Minimises the sum of (unsquared) residual norms with the mean as a variable: each step is a "
            "weighted PCA around the weighted mean, weights d_i = 1/(2‖residual_i‖).",
    params=[N_COMPONENTS, MAX_ITER, TOL, EXACT_START],
)
class RPCAOM(L2pPCAOM):
    """RPCA-OM, Nie et al. 2014 Algorithm 1: :class:`L2pPCAOM` with p = 1.

    Objective (Nie et al. 2014 eq. 13, smoothed as its footnote 1)::

        min_{b, UᵀU = I}  J(U, b) = Σ_i √(‖(I − UUᵀ)(x_i − b)‖² + ε)

    Weights ``d_ii = 1 / (2 √(‖(I − UUᵀ)(x_i − b)‖² + ε))``; Theorem 1: J never increases. The
    paper's "k right singular vectors" in Algorithm 1 are corrected to left (see :class:`L2pPCAOM`
    for the steps, the ε guard, the stopping rule and the state).

    Parameters: n_components (k), max_iter, tol, exact_start (see :class:`L2pPCAOM`). X (n_samples,
    n_features), grey levels 0–255.
    Raises ParameterError (k out of range), DataError (bad X), SolverError (non-finite values).
    """

    surrogate = "Q = Σ √(rᵗ²+ε) + (r² − rᵗ²)/(2√(rᵗ²+ε))"

    def __init__(self, n_components: int = 10, max_iter: int = 100, tol: float = 1e-6, exact_start: bool = False):
        super().__init__(n_components=n_components, p=1.0, max_iter=max_iter, tol=tol, exact_start=exact_start)
