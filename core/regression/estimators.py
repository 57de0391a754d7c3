"""Robust Regression (RR), Robust LDA (RLDA), their missing-data versions and test-time cleaning.

Source: D. Huang, R. Cabral, F. De la Torre, "Robust Regression", IEEE TPAMI 38(2), 2016
(paper 004). Equations and algorithm numbers below are the paper's; "§" numbers refer to the
project's technical extraction of the paper (its corrections of the paper's typos are named where
applied).

Orientation: the paper's samples are columns (X ∈ ℝ^{d×n}); here they are rows, X (n, d),
Y (n, p), D̂ = [D, c·1] (n, d + 1), T (p, d + 1) as in the paper, prediction ``D̂ Tᵀ`` (the
paper's ``T D̂``). See :mod:`core.regression._base`.

Scale of the parameters (not in the paper, which reports no values). The user's ``lam_scale``,
``eta`` and ``alpha`` are dimensionless; the solver uses

* ``λ = lam_scale / √max(n_samples, n_features)`` — PCP's scale and PCP's parameter
  (:class:`core.methods.convex.PCP`, Candès et al.: ``lam_scale = 1`` is their λ); λ is
  dimensionless because ‖D‖_* and ‖E‖₁ both scale like X;
* ``η = eta · s_X / s_Y²`` with ``s_X`` the RMS of the (observed) entries of X and ``s_Y²`` the
  mean square of the centred weighted targets ``(Y − ȳ)Wᵀ``: multiplying X or Y by a constant
  leaves D/X, E/X and the predictions unchanged;
* ``alpha`` weighs a ridge ``α/2‖T‖²`` in the objective, next to the regression term's η/2
  (scikit-learn's name for a ridge penalty, as :class:`~core.regression.baselines.RidgeRegression`'s
  ``alpha``, whose objective has the regression term with weight 1/2 instead of η/2: RR with
  λ → ∞ is Ridge with ``alpha = RR's alpha / eta``). Alg. 1's T-step then minimises
  ``‖W(Y − TD̂)‖² + γ‖T‖²`` (the paper's γ) with ``γ = α/η`` in these units; the solver uses
  ``γ = (alpha / eta) · n · v_X · mean(diag WᵀW)``, ``v_X`` the mean variance of the features:
  ``alpha/eta`` is the T-step ridge as a fraction of the average diagonal of the centred Gram
  matrix. (The extraction, §3.3, leaves open whether Alg. 1's γ is relative to η; with a ridge
  that grows with η, a large η lets D inflate to shrink T — measured on the 3-D example:
  RAE_T 0.16 at η = 100 — so the ridge is kept in the objective's own units.);
* the bias row of D̂ is the constant ``c = s_X`` instead of the paper's 1 (so the ridge treats
  the intercept like a feature of the data's scale; on data with RMS 1 it is the paper's 1ᵀ).
  ``RegressionState.T`` always holds the actual intercept in its last column.

The effective λ, η and T-step ridge γ (the paper's symbols) are in ``state.details`` (``"λ"``,
``"η"``, ``"γ"``).

Names before 2026-11: ``lam`` (now ``lam_scale``, PCP's name of the same number) and ``gamma``
(now ``alpha``); sessions and lessons that say the old names still load
(:attr:`core.params.MethodInfo.renamed`, with a DeprecationWarning, until 1.0).

Convergence (measured at the defaults, ρ = 1.1, tol 1e-7, µ₀ = 1.25/‖·‖₂; gap = objective above a
run with ρ = 1.02 / 1.05 and tol 1e-10): RR on the §5.1 3-D example 94 iterations, gap 1e-8;
RLDA on the built-in digits at 14 × 14 with black squares (100 training images) 76 iterations,
gap 2e-6; at 28 × 28 (150 training images) 101 iterations, gap 4e-3 — the problem is biconvex and
the ALM's end point depends on its path there (ρ = 1.05: 176 iterations, 1.6e-3). With the
paper's µ₀ = dn/(4‖X‖₁) the same run froze at D ≈ X, 1e-1 above.
"""
from __future__ import annotations

import math
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from scipy import linalg

from ..params import ParamSpec, register
from ..errors import ParameterError, SolverError
from ..linalg import one_blas_thread, orientation
from .. import interrupt
from ..prox import soft_threshold, spectral_norm, svt_predicted, thin_svd
from ..threads import ONE_THREAD_MAX_ENTRIES
from ._base import (RULES, Problem, RegressionEstimator, RegressionState, class_weighting,
                    feature_variance, fro, frozen, t_step)
REFERENCE = "Huang, Cabral & De la Torre, Robust Regression, IEEE TPAMI 38(2) 2016"

#: µ is capped at this multiple of its initial value (as PCP: Lin, Chen & Ma 2010).
MU_MAX_RATIO = 1e7
#: µ of the test-time cleaning is capped at this multiple of its initial value.
MU_MAX_RATIO_TEST = 1e7


# =========================================================================== parameters
LAM_SCALE = ParamSpec("lam_scale", "λ·√max(n,d)", "float", 2.0,
                "weight λ of ‖E‖₁ (sparsity of the outliers) as a multiple of 1/√max(n_samples, n_features), "
                "as PCP's; larger: fewer entries treated as outliers",
                low=0.0, low_open=True, scale="log", slider=(0.05, 20.0))
ETA = ParamSpec("eta", "η", "float", 10.0,
                "weight of the regression term (η → 0: RPCA; large: the cleaning follows the targets), "
                "in units of s_X/s_Y² (RMS of X over the mean square of the centred targets)",
                low=0.0, low_open=True, scale="log", slider=(1e-3, 1e4))
ALPHA = ParamSpec("alpha", "α", "float", 1e-2,
                  "ridge α/2‖T‖² on the regressor, beside the regression term's η/2; Alg. 1's T-step ridge "
                  "γ is α/η as a fraction of the average diagonal of the centred Gram matrix (n·mean "
                  "feature variance). Needed when n_samples < n_features or the test inputs are not "
                  "cleaned; too large and D inflates to shrink T",
                  low=0.0, low_open=True, scale="log", slider=(1e-6, 1.0))
RHO = ParamSpec("rho", "ρ", "float", 1.1,
                "µ1, µ2 (and µ of the test-time cleaning) grow by this factor each iteration; "
                "larger converges in fewer iterations but less accurately",
                low=1.0, high=2.0, low_open=True, high_open=True, slider=(1.02, 1.9))
TEST_WEIGHT = ParamSpec("test_weight", "λ′", "choice", "basis",
                        "dictionary and weight of ‖E_te‖₁ in the test-time cleaning (eq. 8): 'basis' an "
                        "orthonormal basis of the cleaned training samples with the training λ (eq. 7's "
                        "balance, exact), 'eq8' the training samples with λ/‖D‖_* (as printed; over-cleans), "
                        "'spectral' λ/‖D‖₂ or 'alg2' λ (Algorithm 2 as printed; depends on the data's scale)",
                        choices=("basis", "eq8", "spectral", "alg2"))
RULE = ParamSpec("rule", "rule", "choice", "mean",
                 "how an output vector gets its label: nearest class mean of the projected training "
                 "samples, 1-NN among them (the paper's k-NN), or the largest output",
                 choices=RULES)
MAX_ITER_RR = ParamSpec("max_iter", "max iter", "int", 500, "stop after this many ALM iterations",
                        low=1, high=100000, slider=(1, 2000))
TOL_RR = ParamSpec("tol", "tol", "float", 1e-7,
                   "stop when both relative primal residuals r1 = ‖X − D − E‖/‖X‖ and "
                   "r2 = ‖D̂ − [D, 1]‖/‖D̂‖ fall below this (paper: 1e-8)",
                   low=0.0, low_open=True, scale="log", slider=(1e-10, 1e-3))

RR_PARAMS = (LAM_SCALE, ETA, ALPHA, RHO, TEST_WEIGHT, MAX_ITER_RR, TOL_RR)
#: the parameters' former names (sessions and lessons written before the rename still load)
RR_RENAMED = {"lam": "lam_scale", "gamma": "alpha"}
#: RLDA's defaults, measured on the built-in digits with a black square on 20 % of every image
#: (15 training images per class, seed 0; LDA 53.3 %): λ·√max = 2 cleans (17 % of the entries in
#: E) but scores 41.3 % (test-time cleaning: 19 %); λ·√max = 5: 54.0 % (E 0.5 %; cleaning 46.7 %);
#: λ·√max = 20: 53.3 %. Training-side cleaning cannot gain on these data: MNIST digits are
#: themselves sparse (white strokes on ~80 % zero background), so an ℓ1 outlier term cannot tell
#: a stroke from an occlusion, and a black square on the black background removes ink without
#: leaving an outlier to detect. λ·√max = 5 is the smallest value that does not lose accuracy
#: against LDA; paper 004's AR faces (dense images, black squares on skin) are the case it is for.
RLDA_PARAMS = (replace(LAM_SCALE, default=5.0), replace(ETA, default=1.0), replace(ALPHA, default=3.0),
               RHO, TEST_WEIGHT, RULE, MAX_ITER_RR, TOL_RR)


# =========================================================================== test-time cleaning
@dataclass(frozen=True, eq=False)
class TestCleaning:
    """Result of the test-time cleaning (paper 004 Alg. 2 / eq. (8); eq. (10) with missing entries).

    Attributes
    ----------
    D : (n_test, n_features) cleaned test inputs ``D_te = Z D`` (missing entries filled).
    E : (n_test, n_features) their outliers (0 at missing entries).
    Z : (n_test, n_train) coefficients over the cleaned training samples (the paper's Z_teᵀ).
    n_iter : iterations run. residual : final max(‖X_te − Z D − E‖_F, ‖Z̃ − J‖_F)/‖X_te‖_F (the
        stopping rule of :func:`clean_test`). converged : residual < tol. residual_history :
        residual per iteration.
    lam : the weight λ′ used on ‖E_te‖₁. nearest : (n_test,) index of the nearest cleaned training
        sample (the initialisation).
    """

    __test__ = False     # not a pytest class

    D: np.ndarray
    E: np.ndarray
    Z: np.ndarray
    n_iter: int
    residual: float
    converged: bool
    residual_history: tuple
    lam: float
    nearest: np.ndarray


def _masked_nearest(X: np.ndarray, observed: np.ndarray | None, D: np.ndarray) -> np.ndarray:
    """Index of the nearest row of D for each row of X, distances over the observed entries only."""
    if observed is None:
        d2 = np.einsum("ij,ij->i", X, X)[:, None] - 2.0 * X @ D.T + np.einsum("ij,ij->i", D, D)[None, :]
    else:
        obs = observed.astype(float)
        Xo = np.where(observed, X, 0.0)
        d2 = np.einsum("ij,ij->i", Xo, Xo)[:, None] - 2.0 * Xo @ D.T + obs @ (D * D).T
    return np.argmin(d2, axis=1)


TEST_WEIGHTS = ("basis", "eq8", "spectral", "alg2")


def clean_test(X_te: np.ndarray, D: np.ndarray, lam: float, *, weight: str = "basis", rho: float = 1.1,
               tol: float = 1e-7, max_iter: int = 1000, missing: np.ndarray | None = None,
               should_stop=None) -> TestCleaning:
    """Clean test inputs against the cleaned training inputs D: paper 004 eq. (8) (eq. (10) with
    missing entries, extraction §3.7)::

        min_{Z, E} ‖Z‖_* + λ′‖E‖₁   s.t.  X_te = Z D + E     (rows: the paper's X_te = D Z_te + E_te)

    Solver (not the paper's Algorithm 2). The paper solves eq. (8) by a linearised ALM
    (LADMAP, Alg. 2). Its linearised Z-step moves Z by ≈ gradient/(µ‖D‖₂²); on 0–255 images
    ‖D‖₂ is dominated by the mean image, so Z hardly leaves its one-hot nearest-neighbour start
    before the growing µ lets E absorb the residual: measured on the occluded digits, Alg. 2
    "converged" after 3 iterations with D_te = the nearest training image and E = 81 % of each
    test image. Here eq. (8) is solved exactly by the standard ALM for this (LRR-type) problem
    (Liu et al.'s splitting Z = J), on D̃ = D/‖D‖₂ (Z̃ = ‖D‖₂ Z, so ‖Z‖_* = ‖Z̃‖_*/‖D‖₂)::

        J ← SVT(Z̃ + Y₂/µ, 1/µ)
        Z̃ ← ((X_te − E + Y₁/µ) D̃ᵀ + J − Y₂/µ)(D̃D̃ᵀ + I)⁻¹
        E ← shrink(X_te − Z̃D̃ + Y₁/µ, λ̃/µ),  λ̃ = ‖D‖₂ λ′   (free at missing entries, eq. (10))
        Y₁ += µ(X_te − Z̃D̃ − E);  Y₂ += µ(Z̃ − J);  µ ← min(ρµ, 1e7 µ₀),  µ₀ = 1.25/‖X_te‖₂

    from the paper's initialisation (Z one-hot on the nearest cleaned training sample,
    E = X_te − ZD). Stopping rule: ``‖X_te − ZD − E‖_F/‖X_te‖_F < tol`` **and**
    ``‖Z̃ − J‖_F/‖X_te‖_F < tol`` (Z̃ has grey-level units), or ``max_iter`` iterations.

    Parameters
    ----------
    X_te : (n_test, n_features) test inputs (same units as D; NaN allowed where ``missing``).
    D : (n_train, n_features) cleaned training inputs.
    lam : the training λ (effective value, not ``lam``).
    weight : the dictionary and the weight λ′ of ‖E_te‖₁. ``"basis"`` (default): the dictionary
        is an orthonormal basis V_rᵀ of the row space of D (D_te = Z̃ V_rᵀ, any combination of
        the cleaned training samples, as eq. (8)) and λ′ = λ, the training value; then
        ‖Z̃‖_* = ‖D_te‖_* exactly, so this is eq. (7) (RPCA on the test batch with the training
        λ) restricted to the span of the cleaned training data — the balance eq. (8)'s λ/‖D‖_*
        approximates (‖D Z‖_* <= ‖D‖₂‖Z‖_* <= ‖D‖_*‖Z‖_*: dividing by ‖D‖_* overprices D_te, and
        E takes whole images: measured on the 3-D example RAE_Y 0.61 against 0.08 without
        cleaning). ``"eq8"`` λ/‖D‖_* over the training samples (eq. (8) as printed), ``"spectral"``
        λ/‖D‖₂ (not in the paper: since ‖ZD‖_* <= ‖D‖₂‖Z‖_* it keeps eq. (7)'s balance
        ‖D_te‖_* + λ‖E_te‖₁ that eq. (8) aims at), ``"alg2"`` λ (Algorithm 2 as printed).
    rho : growth of µ (the paper's ρ_t). tol, max_iter : stopping rule.
    missing : (n_test, n_features) bool, True at missing entries (E is free there, the cleaned
        value ``(ZD)_ij`` fills them), or None (then NaN entries of X_te are taken as missing).
    should_stop : optional callable, checked every iteration; when it returns True the current
        (unconverged, ``converged=False``) iterate is returned at once (for a GUI that cancels).

    ‖Z‖_* couples the test samples, so a sample's cleaning depends on the rest of the batch
    (transductive, §2.6). Raises ParameterError for an unknown ``weight``.
    """
    if weight not in TEST_WEIGHTS:
        raise ParameterError(f"weight must be one of {TEST_WEIGHTS}, got {weight!r}")
    X_te = np.array(X_te, dtype=float)
    D = np.asarray(D, dtype=float)
    if missing is None and np.isnan(X_te).any():
        missing = np.isnan(X_te)
    observed = None if missing is None or not np.any(missing) else ~np.asarray(missing, dtype=bool)
    if observed is not None:
        X_te = np.where(observed, X_te, 0.0)
    n_te, d = X_te.shape
    n = D.shape[0]
    s_all = np.linalg.svd(D, compute_uv=False)
    nuclear = float(s_all.sum())
    s1 = float(s_all[0]) if s_all.size else 0.0
    lam_p = {"eq8": lam / max(nuclear, 1e-300), "spectral": lam / max(s1, 1e-300),
             "alg2": float(lam), "basis": float(lam)}[weight]
    nearest = _masked_nearest(X_te, observed, D)
    Z = np.zeros((n_te, n))
    Z[np.arange(n_te), nearest] = 1.0
    norm_X = fro(X_te)
    if s1 == 0.0 or norm_X == 0.0:
        ZD = Z @ D
        return TestCleaning(D=frozen(ZD), E=frozen(np.where(observed, X_te - ZD, 0.0) if observed is not None
                                                    else X_te - ZD),
                            Z=frozen(Z), n_iter=0, residual=0.0, converged=True, residual_history=(0.0,),
                            lam=lam_p, nearest=frozen(nearest))
    if weight == "basis":
        # dictionary: orthonormal basis V_rᵀ of the row space of D; Z̃ = C the coordinates, so
        # ‖Z̃‖_* = ‖D_te‖_* exactly and λ′ = λ keeps eq. (7)'s balance (see the docstring)
        _, sv, Vt = thin_svd(D)
        keep = sv > 1e-10 * s1
        U_r, s_r, Dt = thin_svd(D)[0][:, keep], sv[keep], Vt[keep]
        lam_t = lam_p
        Zt = (Z @ D) @ Dt.T
    else:
        Dt = D / s1
        lam_t = lam_p * s1
        Zt = Z * s1
    J = Zt.copy()
    ZD = Zt @ Dt
    E = X_te - ZD
    if observed is not None:
        E = np.where(observed, E, 0.0)
    G = Dt @ Dt.T
    G[np.diag_indices_from(G)] += 1.0
    chol = linalg.cho_factor(G, lower=True, check_finite=False)
    Y1 = np.zeros_like(X_te)
    Y2 = np.zeros_like(Zt)
    mu = 1.25 / (spectral_norm(X_te) or 1.0)
    mu_max = MU_MAX_RATIO_TEST * mu
    v0 = np.random.default_rng(0).standard_normal(min(n_te, n))
    k_pred = max(5, int(0.01 * min(n_te, n)))
    start = None                         # warm start of the partial SVD (previous singular subspace)
    history = []
    residual, it = float("inf"), 0
    ctx = one_blas_thread() if n_te * max(n, d) <= ONE_THREAD_MAX_ENTRIES else nullcontext()
    with ctx:
        for it in range(1, int(max_iter) + 1):
            interrupt.checkpoint()
            res = svt_predicted(Zt + Y2 / mu, 1.0 / mu, k_pred, v0, start=start)
            k_pred, start = res.k_next, res.subspace
            J = res.matrix()
            rhs = (X_te - E + Y1 / mu) @ Dt.T + J - Y2 / mu
            Zt = linalg.cho_solve(chol, rhs.T, check_finite=False).T
            ZD = Zt @ Dt
            Q = X_te - ZD + Y1 / mu
            E = soft_threshold(Q, lam_t / mu)
            if observed is not None:
                E = np.where(observed, E, Q)
            R1 = X_te - ZD - E
            R2 = Zt - J
            Y1 = Y1 + mu * R1
            Y2 = Y2 + mu * R2
            residual = max(fro(R1), fro(R2)) / norm_X
            history.append(residual)
            mu = min(rho * mu, mu_max)
            if not math.isfinite(residual):
                raise SolverError(f"test-time cleaning stopped at iteration {it}: the residual is not finite")
            if residual < tol or (should_stop is not None and should_stop()):
                break
    if observed is not None:
        E = np.where(observed, E, 0.0)
    Z = (Zt / s_r) @ U_r.T if weight == "basis" else Zt / s1     # coefficients over the rows of D
    return TestCleaning(D=frozen(ZD), E=frozen(E), Z=frozen(Z), n_iter=it, residual=residual,
                        converged=residual < tol, residual_history=tuple(history), lam=lam_p,
                        nearest=frozen(nearest))


# =========================================================================== RR (Algorithm 1)
@dataclass(frozen=True)
class _Run:
    """Shared by every state of one RR run (never modified)."""
    problem: Problem
    X: np.ndarray                 # (n, d) inputs, missing entries filled with feature means
    observed: np.ndarray | None   # (n, d) True at observed entries, or None (all observed)
    Y: np.ndarray                 # (n, p)
    YM: np.ndarray                # (n, p) Y WᵀW
    W: np.ndarray | None          # (p, p), None for the identity
    P: np.ndarray | None          # M⁻¹ = P diag(s) Pᵀ (None: identity)
    s: np.ndarray | None
    c: float                      # constant of D̂'s bias column (s_X)
    lam: float
    eta: float
    gamma: float                  # Alg. 1's T-step ridge γ_T (objective: η/2 γ_T ‖T‖²)
    gamma_solve: float            # the ridge passed to t_step (γ_T, or γ_T/m₀ when M = m₀I)
    rho: float
    norm_X: float                 # ‖P_Ω X‖_F
    v0: np.ndarray
    mu_max1: float
    mu_max2: float
    scales: tuple                 # (s_X, s_Y)


@dataclass(frozen=True)
class _Iter:
    run: _Run
    Dh: np.ndarray      # (n, d + 1) the variable D̂
    G1: np.ndarray      # Γ1 (n, d)
    G2: np.ndarray      # Γ2 (n, d + 1)
    mu1: float
    mu2: float
    k_pred: int
    T: np.ndarray       # (p, d + 1) internal T (bias column multiplies c)
    E_full: np.ndarray  # (n, d) E including its free values at missing entries
    subspace: np.ndarray | None = None   # (k, d) warm start of the next partial SVD

    @property
    def problem(self) -> Problem:
        return self.run.problem


class _RRBase(RegressionEstimator):
    """RR's ALM (paper 004 Alg. 1 with the extraction's corrections §3.3–§3.5, §3.7)."""

    _class_weights = False

    # ----------------------------------------------------------------- helpers
    def _threads(self, X):
        return one_blas_thread() if X.size <= ONE_THREAD_MAX_ENTRIES else nullcontext()

    def _augment(self, D: np.ndarray, c: float) -> np.ndarray:
        return np.hstack([D, np.full((D.shape[0], 1), c)])

    def _report_T(self, run: _Run, T: np.ndarray) -> np.ndarray:
        out = T.copy()
        out[:, -1] *= run.c
        return out

    def _weighted(self, run: _Run, R: np.ndarray) -> np.ndarray:
        return R if run.W is None else R @ run.W.T

    def _objective(self, run: _Run, D: np.ndarray, T: np.ndarray, nuclear: float, E_obs: np.ndarray):
        fit = run.Y - self._augment(D, run.c) @ T.T
        data = 0.5 * run.eta * fro(self._weighted(run, fit)) ** 2
        ridge = 0.5 * run.eta * run.gamma * fro(T) ** 2
        return data + ridge + nuclear + run.lam * float(np.abs(E_obs).sum()), fit

    def _details(self, run: _Run) -> dict:
        det = {"λ": run.lam, "η": run.eta, "γ": run.gamma, "s_X": run.scales[0], "s_Y": run.scales[1],
               "bias constant c": run.c}
        if self._classifier:
            det["rule"] = run.problem.params.get("rule", "mean")
        if run.observed is not None:
            det["missing"] = frozen(~run.observed)
        return det

    # ----------------------------------------------------------------- start
    def _start(self, prob: Problem) -> RegressionState:
        with self._threads(prob.X):
            return self._first(prob)

    def _first(self, prob: Problem) -> RegressionState:
        prm = prob.params
        X, Y = prob.X, prob.Y
        n, d = X.shape
        p = Y.shape[1]
        observed = None if prob.missing is None else ~prob.missing
        Xo = X if observed is None else np.where(observed, X, 0.0)
        n_obs = X.size if observed is None else int(observed.sum())
        s_X = math.sqrt(fro(Xo) ** 2 / n_obs) or 1.0
        if self._class_weights:
            W, P, s = class_weighting(Y)
            M = W.T @ W
            mean_M = float(np.mean(np.diag(M)))
            if np.allclose(s, s[0], rtol=1e-12):
                # balanced classes: M⁻¹ = s₀I, and the T-step's ridge γM⁻¹ = γs₀I needs no
                # eigendecomposition (handled below by scaling γ)
                P = s = None                  # type: ignore[assignment]
        else:
            W = P = s = None                  # type: ignore[assignment]
            M = None
            mean_M = 1.0
        Yc = Y - Y.mean(axis=0)
        s_Y2 = fro(Yc if W is None else Yc @ W.T) ** 2 / (n * p)
        if not s_Y2 > 0:
            s_Y2 = 1.0
        lam = float(prm["lam_scale"]) / math.sqrt(max(n, d))
        eta = float(prm["eta"]) * s_X / s_Y2
        # Alg. 1's T-step ridge γ_T = γ/η (the objective's ridge γ/2‖T‖² over the data term's η)
        gamma = float(prm["alpha"]) / float(prm["eta"]) * n * feature_variance(Xo, observed) * mean_M
        c = s_X
        norm_X = fro(Xo) or 1.0
        norm2_X = spectral_norm(Xo) or 1.0
        # ridge of the t_step call: γ, or γ/m₀ when M = m₀I (γM⁻¹ = (γ/m₀)I, solved with M = I)
        gamma_solve = gamma / float(np.diag(M)[0]) if (self._class_weights and P is None) else gamma
        D = X.copy()
        Dh = self._augment(D, c)
        T = t_step(Dh, Y, gamma_solve, P, s)
        G1 = Xo / norm2_X
        norm2_Dh = spectral_norm(Dh) or 1.0
        G2 = Dh / norm2_Dh
        # µ₀ = 1.25/‖·‖₂ (Lin, Chen & Ma's choice for PCP; the extraction's alternative to the
        # paper's dn/(4‖X‖₁)). The latter is ~100× larger on 0–255 images: the SVT threshold
        # 1/(µ1 + µ2) is then below every singular value of interest and the ALM freezes with
        # D ≈ X (measured, occluded digits: RLDA full rank, objective 10 % above the minimum).
        mu1 = 1.25 / norm2_X
        mu2 = 1.25 / norm2_Dh
        v0 = np.random.default_rng(0).standard_normal(min(n, d))
        run = _Run(problem=prob, X=frozen(X), observed=None if observed is None else frozen(observed),
                   Y=Y, YM=frozen(Y if M is None else Y @ M), W=W, P=P, s=s, c=c, lam=lam, eta=eta,
                   gamma=gamma, gamma_solve=gamma_solve, rho=float(prm["rho"]), norm_X=norm_X, v0=v0,
                   mu_max1=MU_MAX_RATIO * mu1, mu_max2=MU_MAX_RATIO * mu2, scales=(s_X, math.sqrt(s_Y2)))
        _, sv, Vt = thin_svd(D)
        keep = sv > 1e-12 * max(float(sv[0]) if sv.size else 0.0, 1e-300)
        comps = Vt[:max(1, min(int(keep.sum()), 100))]
        comps = comps * orientation(comps)[:, None]
        E = np.zeros_like(X)
        objective, fit = self._objective(run, D, T, float(sv.sum()), E)
        ctx = _Iter(run=run, Dh=frozen(Dh), G1=frozen(G1), G2=frozen(G2), mu1=mu1, mu2=mu2,
                    k_pred=max(5, int(keep.sum()) + 5), T=frozen(T), E_full=frozen(E))
        scalars = self._scalars(run, mu1, mu2, 0.0, 0.0, int(keep.sum()), E, fit, float(sv.sum()))
        # Iteration 0 is feasible (D = X, E = 0, D̂ = [D, c1]): r1 = r2 = 0, but it is never
        # "converged" — the ALM has not started.
        return self._new_state(None, objective=objective, D=frozen(D), E=frozen(E),
                               T=frozen(self._report_T(run, T)), singular_values=frozen(sv[keep]),
                               converged=False, scalars=scalars, components=frozen(comps),
                               classes=prob.classes, details=self._details(run), _ctx=ctx)

    def _scalars(self, run, mu1, mu2, r1, r2, rank, E_obs, fit, nuclear) -> dict:
        n_obs = run.X.size if run.observed is None else int(run.observed.sum())
        Yc = run.Y - run.Y.mean(axis=0)
        return {"μ1": float(mu1), "μ2": float(mu2), "r1": float(r1), "r2": float(r2),
                "primal residual": float(max(r1, r2)), "rank": int(rank),
                "nnz(E)": float(np.count_nonzero(E_obs)) / n_obs,
                "‖D‖_*": float(nuclear),
                "fit error": fro(self._weighted(run, fit)) / max(fro(self._weighted(run, Yc)), 1e-300)}

    # ----------------------------------------------------------------- one ALM iteration
    def _step(self, state: RegressionState) -> RegressionState:
        it: _Iter = state._ctx
        with self._threads(it.run.X):
            return self._iterate(state, it)

    def _iterate(self, state: RegressionState, it: _Iter) -> RegressionState:
        run = it.run
        X, c, eta, mu1, mu2 = run.X, run.c, run.eta, it.mu1, it.mu2
        n, d = X.shape
        D_prev = np.asarray(state.D)
        # (1) T-step: ridge on the current D̂ (product order fixed, most recent D̂; §3.3)
        T = t_step(np.asarray(it.Dh), run.Y, run.gamma_solve, run.P, run.s)
        # (2) D̂-step: (η TᵀMT + µ2 I)⁻¹(η TᵀMY − Γ2 + µ2[D; 1ᵀ]) with the missing W restored
        #     (TᵀWᵀWY), by Woodbury with A = WT (§3.5); rows here, so the system is solved from the right
        A = T if run.W is None else run.W @ T
        Rhs = eta * (run.YM @ T) - it.G2 + mu2 * self._augment(D_prev, c)
        S = mu2 * np.eye(A.shape[0]) + eta * (A @ A.T)
        Dh = (Rhs - eta * ((Rhs @ A.T) @ np.linalg.solve(S, A))) / mu2
        # (3) D-step: SVT of the completed square, β = µ1 + µ2, fresh D̂ (§3.3)
        beta = mu1 + mu2
        Zc = (it.G1 + mu1 * (X - it.E_full) + it.G2[:, :d] + mu2 * Dh[:, :d]) / beta
        if not np.all(np.isfinite(Zc)):
            raise SolverError(f"{self.name} stopped at iteration {state.iteration + 1}: the matrix to "
                              "threshold is NaN or infinite; rescale the data or change the parameters")
        interrupt.checkpoint()
        res = svt_predicted(Zc, 1.0 / beta, it.k_pred, run.v0, start=it.subspace)
        interrupt.checkpoint()
        D = res.matrix()
        # (4) E-step with the fresh D; unpenalised (free) at missing entries (RR-Missing, §3.7)
        Q = X - D + it.G1 / mu1
        E = soft_threshold(Q, run.lam / mu1)
        if run.observed is not None:
            E = np.where(run.observed, E, Q)
        # (5) multipliers with this iteration's µ, then µ ← min(ρµ, µ_max) (standard form, §3.3)
        R1 = X - D - E
        R2 = Dh - self._augment(D, c)
        G1 = it.G1 + mu1 * R1
        G2 = it.G2 + mu2 * R2
        r1 = fro(R1) / run.norm_X
        r2 = fro(R2) / max(fro(Dh), 1e-300)
        E_obs = E if run.observed is None else np.where(run.observed, E, 0.0)
        objective, fit = self._objective(run, D, T, res.nuclear, E_obs)
        sv = np.sqrt(np.einsum("ij,ij->j", res.left, res.left))    # singular values of D: σ − τ
        tol = float(run.problem.params["tol"])
        ctx = _Iter(run=run, Dh=frozen(Dh), G1=frozen(G1), G2=frozen(G2),
                    mu1=min(run.rho * mu1, run.mu_max1), mu2=min(run.rho * mu2, run.mu_max2),
                    k_pred=res.k_next, T=frozen(T), E_full=frozen(E), subspace=res.subspace)
        scalars = self._scalars(run, mu1, mu2, r1, r2, res.rank, E_obs, fit, res.nuclear)
        return self._new_state(state, objective=objective, D=frozen(D), E=frozen(E_obs),
                               T=frozen(self._report_T(run, T)), singular_values=frozen(sv),
                               converged=bool(r1 < tol and r2 < tol), scalars=scalars,
                               components=res.components, _ctx=ctx)

    # ----------------------------------------------------------------- test time
    def clean(self, X: Any, state: RegressionState | None = None, should_stop=None) -> TestCleaning:
        """Clean test inputs X (n_test, n_features) against the cleaned training data: paper 004
        Alg. 2 / eq. (8) (eq. (10) where X holds NaN), see :func:`clean_test`. Uses the fitted
        state (or ``state``), its λ, and the estimator's ``test_weight``, ``rho``, ``tol`` and
        ``max_iter``; ``should_stop`` (callable, optional) cancels between iterations. Returns a
        :class:`TestCleaning` (cleaned inputs ``D``, outliers ``E``, ...)."""
        state = state or self._fitted_state()
        it: _Iter = state._ctx
        X = self._check_X(X, n_features=state.D.shape[1])
        prm = self._validated_params()
        return clean_test(X, np.asarray(state.D), it.run.lam, weight=prm["test_weight"], rho=prm["rho"],
                          tol=prm["tol"], max_iter=prm["max_iter"], should_stop=should_stop)

    def clean_inputs(self, X: Any, state: RegressionState | None = None) -> np.ndarray:
        """The cleaned test inputs ``D_te = Z D`` of :meth:`clean` (n_test, n_features)."""
        return np.array(self.clean(X, state=state).D)

    def filled(self, state: RegressionState | None = None) -> np.ndarray:
        """The training inputs with missing entries filled from D (``P_Ω(X) + P_Ωᶜ(D)``, §3.7)."""
        state = state or self._fitted_state()
        run: _Run = state._ctx.run
        if run.observed is None:
            return np.array(run.X)
        return np.where(run.observed, run.X, state.D)


_RR_DOC = """
    Algorithm (one ALM iteration per ``step``; samples are rows, see the module docstring)::

        T  ← argmin ‖(Y − D̂Tᵀ)Wᵀ‖² + γ‖T‖²                      (1) ridge on the current D̂
        D̂  ← (ηYMT − Γ2 + µ2[D, c1]) (ηTᵀMT + µ2 I)⁻¹              (2) M = WᵀW, by Woodbury
        D  ← SVT_{1/β}((Γ1 + µ1(X − E) + Γ2[:, :d] + µ2 D̂[:, :d]) / β),  β = µ1 + µ2   (3)
        E  ← shrink(X − D + Γ1/µ1, λ/µ1)                          (4) (free at missing entries)
        Γ1 ← Γ1 + µ1(X − D − E);  Γ2 ← Γ2 + µ2(D̂ − [D, c1]);  µ ← min(ρµ, 1e7 µ₀)   (5)

    Initialisation: D = X, E = 0, D̂ = [X, c1], T = ridge on D̂, Γ1 = X/‖X‖₂, Γ2 = D̂/‖D̂‖₂,
    µ1 = 1.25/‖X‖₂, µ2 = 1.25/‖D̂‖₂ (Lin, Chen & Ma; see the corrections below).

    Corrections of the paper's Algorithm 1 applied (extraction §3.3): T is (p, d + 1) (the paper
    says (d+1) × p); the T-update's product order (``Y D̂ᵀ(D̂D̂ᵀ + γI)⁻¹``, also at the
    initialisation) and the most recent D̂; the D̂-update's missing W (``TᵀWᵀWY``); Γ2 initialised
    from D̂ (right shape); µ₀ = 1.25/‖X‖₂ (the paper prints "(dn/4)‖X‖₁", which stops the solver
    with D ≈ X; its evident intent dn/(4‖X‖₁) is still ~100× too stiff on 0–255 images and froze
    the ALM at D ≈ X, 10 % above the minimum, on the occluded digits); fresh D̂ in the D-step and fresh D in the E-step; multipliers updated with this
    iteration's µ; the stopping rule is "r1 < tol **and** r2 < tol" (the paper's loop condition
    "r1 > tol and r2 > tol" would stop when either is small), or ``max_iter``. Iteration 0 is never
    converged. γ is used for a full W through the Sylvester form of §3.5.

    Objective (of the iterate, with D̂ replaced by [D, c1]; γ_T = γ/η the T-step ridge)::

        η/2 ‖(Y − [D, c1]Tᵀ)Wᵀ‖_F² + ηγ_T/2 ‖T‖_F² + ‖D‖_* + λ‖E‖₁

    (eq. (3) plus the ridge that Alg. 1's T-step minimises; the T-step is an exact block minimiser
    of it). The problem is biconvex (the paper's "convex" is block-wise only), so the ALM is a
    heuristic without convergence proof.

    State: ``D`` cleaned inputs, ``E`` outliers, ``T`` (p, d + 1) with the intercept last,
    ``singular_values`` of D; scalars ``μ1``, ``μ2`` (of the iteration), ``r1``, ``r2``,
    ``primal residual`` (max of the two), ``rank``, ``nnz(E)`` (fraction of observed entries),
    ``‖D‖_*``, ``fit error`` ‖(Y − [D,1]Tᵀ)Wᵀ‖/‖(Y − ȳ)Wᵀ‖; details: the effective ``λ``, ``η``,
    ``γ``, ``s_X``, ``s_Y``, ``bias constant c``.

    Prediction: ``predict(X)`` applies T to the raw inputs; ``predict(X, clean=True)`` cleans
    them first by Alg. 2 (:meth:`clean`), the paper's rule ``Y_te = T[D Z_te; 1ᵀ]``.

    Raises ParameterError (at ``start``, naming the parameter: lam_scale, eta, alpha <= 0, ...), DataError
    (bad X / Y), SolverError (NaN or infinity, naming the iteration).
"""


@register(
    key="rr", name="RR", family="regression", task="regression",
    reference=REFERENCE + ": eq. (3), Algorithm 1 (with the extraction's corrections)",
    summary="Robust regression: X = D + E with D low-rank and E sparse, the regressor learnt "
            "only from the cleaned D, jointly with the decomposition (supervised cleaning).",
    params=RR_PARAMS, renamed=RR_RENAMED,
)
class RR(_RRBase):
    __doc__ = """Robust Regression (paper 004 eq. (3), Algorithm 1)::

        min_{T, D, E}  η/2 ‖W(Y − T D̂)‖_F² + ‖D‖_* + λ‖E‖₁   s.t.  X = D + E,  D̂ = [D; 1ᵀ]

    (the paper's columns; here X, D, E are (n_samples, n_features), Y (n_samples, n_outputs), W = I).

    Parameters
    ----------
    lam_scale : λ·√max(n, d) > 0 (sparsity of E; PCP's ``lam_scale``). eta : η in units of
        s_X/s_Y² > 0. alpha : weight of the ridge α/2‖T‖² on T > 0; alpha/eta is Alg. 1's T-step
        ridge γ relative to the average diagonal of the centred Gram matrix (see the module
        docstring for the scales).
    rho : 1 < ρ < 2, growth of µ1, µ2. test_weight : dictionary and weight of the test-time
        cleaning (``"basis"`` default, ``"eq8"``, ``"spectral"``, ``"alg2"``: see :func:`clean_test`). max_iter, tol : stopping rule.

    X : grey levels 0–255 for images (any scale: the parameters are scale-free).
    """ + _RR_DOC

    def __init__(self, lam_scale: float = 2.0, eta: float = 10.0, alpha: float = 1e-2, rho: float = 1.1,
                 test_weight: str = "basis", max_iter: int = 500, tol: float = 1e-7):
        self.lam_scale = lam_scale
        self.eta = eta
        self.alpha = alpha
        self.rho = rho
        self.test_weight = test_weight
        self.max_iter = max_iter
        self.tol = tol


@register(
    key="rr-missing", name="RR-Missing", family="regression", task="regression",
    reference=REFERENCE + ": eq. (9)–(10), algorithm derived in the extraction §3.7",
    summary="RR with missing input entries (NaN): E unpenalised there, the missing values "
            "filled from the low-rank D.",
    params=RR_PARAMS, renamed=RR_RENAMED,
)
class RRMissing(RR):
    __doc__ = """RR with missing data (paper 004 eq. (9); test time eq. (10))::

        min η/2 ‖W(Y − T D̂)‖² + ‖D‖_* + λ‖E‖₁   s.t.  P_Ω(X) = P_Ω(D + E),  D̂ = [D; 1ᵀ]

    X holds NaN at the missing entries (Ωᶜ; e.g. :func:`core.corruption.missing_blocks`). Solved
    as the extraction §3.7 derives (the paper says only "similar to Eq. (3)"): Algorithm 1 on X
    with the missing entries filled by the feature means of the observed ones (the starting D)
    and only the E-step changed — E is not shrunk at missing entries, so it absorbs ``X − D``
    there and the constraint binds on Ω only. Norms for the residuals and µ₀ use the observed
    entries. ``state.E`` is 0 at missing entries (its value at the optimum of eq. (9)),
    ``state.D`` holds the filled-in values, :meth:`filled` returns ``P_Ω(X) + P_Ωᶜ(D)``. Test
    inputs with NaN are cleaned by eq. (10) (Alg. 2 with the same masked E-step); the plain
    ``predict`` fills them with the training feature means. Complete data give exactly RR.

    Parameters: as :class:`RR`.
    """ + _RR_DOC

    _allow_missing = True


@register(
    objective_note="may zigzag while its ALM converges (by design)",
    key="rlda", name="RLDA", family="regression", task="regression",
    reference=REFERENCE + ": eq. (6) (LS-LDA eq. (5) with RR's cleaning), Algorithm 1",
    summary="Robust LDA: RR with 0/1 class-indicator targets weighted by W = (YYᵀ)^(-1/2); "
            "labels by nearest class mean (or 1-NN) in the output space.",
    params=RLDA_PARAMS, renamed=RR_RENAMED,
)
class RLDA(RR):
    __doc__ = """Robust LDA (paper 004 eq. (6)): RR with Y the 0/1 class-indicator matrix and the
    output weighting ``W = (YYᵀ)^{-1/2}`` (paper orientation; here ``(YᵀY)^{-1/2}`` with Y
    (n_samples, n_classes), ``= diag(n_c)^{-1/2}`` for exclusive classes) that compensates for
    unequal class sizes (LS-LDA, eq. (5)). T-step for this W by the §3.5 formula
    (``M⁻¹ = YᵀY``, no inverse square root needed).

    ``fit(X, y)`` takes class labels y (n_samples,) (integers or strings; a one-hot (n, c) 0/1
    matrix is accepted too); every class needs >= 2 samples (DataError naming the class).
    ``predict(X, clean=False)`` returns labels: the outputs ``[x, 1]Tᵀ`` (or of the cleaned x
    with ``clean=True``, Alg. 2 — the paper's test rule) are assigned by ``rule``: ``"mean"``
    nearest class mean of the projected cleaned training samples ``[D, 1]Tᵀ`` (default),
    ``"1nn"`` nearest projected training sample (the paper's k-NN with k = 1; the paper does not
    state k), ``"argmax"`` the largest output. ``decision_function`` returns the outputs.

    Parameters: as :class:`RR`, plus ``rule``.
    """ + _RR_DOC

    _classifier = True
    _class_weights = True

    def __init__(self, lam_scale: float = 5.0, eta: float = 1.0, alpha: float = 3.0, rho: float = 1.1,
                 test_weight: str = "basis", rule: str = "mean", max_iter: int = 500, tol: float = 1e-7):
        super().__init__(lam_scale=lam_scale, eta=eta, alpha=alpha, rho=rho, test_weight=test_weight,
                         max_iter=max_iter, tol=tol)
        self.rule = rule


@register(
    objective_note="may zigzag while its ALM converges (by design)",
    key="rlda-missing", name="RLDA-Missing", family="regression", task="regression",
    reference=REFERENCE + ": eq. (9)–(10) with W = (YYᵀ)^(-1/2) (§5.5), extraction §3.7",
    summary="RLDA with missing input entries (NaN), filled from the low-rank D.",
    params=RLDA_PARAMS, renamed=RR_RENAMED,
)
class RLDAMissing(RLDA):
    __doc__ = """RLDA with missing data ("RLDA-missing", paper 004 §5.5): :class:`RLDA` with the
    masked E-step of :class:`RRMissing`. X holds NaN at missing entries.

    Parameters: as :class:`RLDA`.
    """ + _RR_DOC

    _allow_missing = True


__all__ = ["RR", "RRMissing", "RLDA", "RLDAMissing", "TestCleaning", "clean_test"]
