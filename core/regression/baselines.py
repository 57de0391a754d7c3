"""Baselines of paper 004 §5 (extraction §5.7), with RR's ``fit(X, Y)`` / ``predict`` / stepping API.

* :class:`LeastSquares` (LSR, eq. (1)), :class:`Ridge` (RR's initialisation and λ → ∞ limit),
  :class:`TLS` (total least squares, Golub & Van Loan), :class:`RPCALS` (PCP, then least squares on
  the low-rank part: "RPCA+LSR"), :class:`RANSAC` (consensus of ridge fits on random subsets),
  :class:`LDA` (LS-LDA, eq. (5): RLDA's λ → ∞ limit).

One-step methods return a converged state from ``start`` (iteration 0). RPCA+LSR steps PCP one
ALM iteration at a time (T is the least-squares fit to the current low-rank part); RANSAC runs
one trial per step. Samples are rows (see :mod:`core.regression._base`); every T is
(n_outputs, n_features + 1) with the intercept last.

Scale of ``alpha`` (α; Ridge, RANSAC, LDA; scikit-learn's name for a ridge penalty, e.g.
:class:`sklearn.linear_model.Ridge`): the ridge is ``alpha · n · v_X · mean(diag WᵀW)``
(``v_X`` the mean variance of the features): a fraction of the average diagonal entry of the
centred Gram matrix, and the bias column of ``[X, c1]`` is the constant ``c = s_X`` (the RMS of
X; so the intercept is penalised like a feature of the data's scale). RR's ``alpha`` is the same
ridge weight beside a regression term weighted η/2 instead of 1/2: RR with λ → ∞ (E = 0, D = X)
gives Ridge with ``alpha = RR's alpha / eta`` (RLDA: LDA likewise).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Mapping

import numpy as np

from .. import interrupt
from ..params import ParamSpec, register
from ..errors import DataError, SolverError
from ..methods.convex import PCP, PCP_PARAMS, no_cap_as_zero
from ._base import (Problem, RegressionEstimator, RegressionState, class_weighting, feature_variance, fro,
                    frozen, t_step, thin_singular_values)
from .estimators import REFERENCE, RULE

ALPHA_RIDGE = ParamSpec("alpha", "α", "float", 1e-3,
                        "ridge on T as a fraction of the average diagonal of the centred Gram matrix "
                        "(n·mean feature variance)",
                        low=0.0, low_open=True, scale="log", slider=(1e-8, 1.0))


@dataclass(frozen=True)
class _Ctx:
    """A baseline state's ``_ctx``: the run's problem, the method's own data (``extra``) and, for
    RPCA+LSR, the inner PCP estimator that steps the run (``inner``)."""

    problem: Problem
    extra: Any = None
    inner: Any = None


def _scale(X: np.ndarray) -> float:
    return math.sqrt(float(np.mean(X * X))) or 1.0


def _augment(X: np.ndarray, c: float) -> np.ndarray:
    return np.hstack([X, np.full((X.shape[0], 1), c)])


def _report(T: np.ndarray, c: float) -> np.ndarray:
    out = np.array(T, dtype=float)
    out[:, -1] *= c
    return out


def _ridge_fit(X: np.ndarray, Y: np.ndarray, alpha_rel: float, weights=None) -> np.ndarray:
    """T (p, d + 1) of ridge regression on [X, c1] with α = alpha_rel·n·s_X²·mean(diag M), intercept
    last (actual scale). ``weights``: (W, P, s) of :func:`class_weighting` or None."""
    n = X.shape[0]
    c = _scale(X)
    if weights is None:
        P = s = None
        mean_M = 1.0
    else:
        W, P, s = weights
        mean_M = float(np.mean(np.diag(W.T @ W)))
    T = t_step(_augment(X, c), Y, alpha_rel * n * feature_variance(X) * mean_M, P, s)
    return _report(T, c)


def _lstsq_fit(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """T (p, d + 1) of least squares on [X, c1] (minimum-norm solution when n < d + 1)."""
    c = _scale(X)
    T = np.linalg.lstsq(_augment(X, c), Y, rcond=None)[0].T
    return _report(T, c)


class _OneStep(RegressionEstimator):
    """A method solved in closed form: ``start`` returns the converged solution."""

    def _state(self, prob: Problem, T: np.ndarray, D: np.ndarray | None = None, *, objective: float,
               scalars: dict | None = None, details: dict | None = None, extra: Any = None,
               prev: RegressionState | None = None, converged: bool = True) -> RegressionState:
        D = np.array(prob.X if D is None else D)
        E = np.array(prob.X) - D
        if prob.missing is not None:
            E[prob.missing] = 0.0
        sv, comps = thin_singular_values(D)
        fit = prob.Y - (D @ T[:, :-1].T + T[:, -1])
        sc = {"rank": int(len(sv)), "fit error": fro(fit) / max(fro(prob.Y - prob.Y.mean(axis=0)), 1e-300)}
        sc.update(scalars or {})
        det = dict(details or {})
        if self._classifier:
            det["rule"] = prob.params.get("rule", "mean")
        fields = dict(D=frozen(D), E=frozen(E), T=frozen(np.asarray(T, dtype=float)),
                      singular_values=frozen(sv), converged=converged, scalars=sc,
                      components=frozen(comps), classes=prob.classes, details=det,
                      _ctx=_Ctx(problem=prob, extra=extra))
        return self._new_state(prev, objective=objective, **fields)

    def _step(self, state: RegressionState) -> RegressionState:
        return state


# =========================================================================== LSR, Ridge
@register(
    key="lsr", name="LSR", family="regression", task="regression",
    reference=REFERENCE + ": eq. (1) (least-squares regression baseline, §5.1)",
    summary="Least squares on [X, 1]: min ‖Y − T[X; 1]‖² (minimum-norm T when n < d + 1).",
    params=(),
)
class LeastSquares(_OneStep):
    """Least-squares regression (paper 004 eq. (1), with a bias): ``T = argmin ‖Y − [X, 1]Tᵀ‖_F²``,
    the minimum-norm solution (``numpy.linalg.lstsq``) when n_samples < n_features + 1.
    X (n_samples, n_features), Y (n_samples, n_outputs). State: D = X, E = 0, objective
    ``½‖Y − [X, 1]Tᵀ‖_F²``."""

    def __init__(self):
        pass

    def _start(self, prob: Problem) -> RegressionState:
        T = _lstsq_fit(prob.X, prob.Y)
        obj = 0.5 * fro(prob.Y - prob.X @ T[:, :-1].T - T[:, -1]) ** 2
        return self._state(prob, T, objective=obj)


@register(
    key="ridge", name="Ridge", family="regression", task="regression",
    reference=REFERENCE + ": Algorithm 1's initialisation (extraction §5.7)",
    summary="Ridge regression on [X, 1]; RR's starting point and its λ → ∞ limit.",
    params=(ALPHA_RIDGE,),
)
class RidgeRegression(_OneStep):
    """Ridge regression (catalogue key ``"ridge"``; named ``RidgeRegression`` so as not to shadow
    scikit-learn's ``Ridge`` in a shared namespace: ``Ridge`` is kept as an alias):
    ``T = Yᵀ[X, c1]([X, c1]ᵀ[X, c1] + αI)⁻¹`` (samples as rows), the paper's
    Alg. 1 initialisation with its product order corrected. ``alpha`` > 0 is relative (module
    docstring). State: D = X, E = 0, objective ``½‖Y − [X, 1]Tᵀ‖² + α/2‖T‖²`` (internal T)."""

    def __init__(self, alpha: float = 1e-3):
        self.alpha = alpha

    def _start(self, prob: Problem) -> RegressionState:
        T = _ridge_fit(prob.X, prob.Y, float(prob.params["alpha"]))
        obj = 0.5 * fro(prob.Y - prob.X @ T[:, :-1].T - T[:, -1]) ** 2
        return self._state(prob, T, objective=obj)


# =========================================================================== LDA (LS-LDA)
@register(
    key="lda", name="LDA", family="regression", task="regression",
    reference=REFERENCE + ": eq. (5) (LS-LDA of De la Torre's least-squares framework)",
    summary="Least-squares LDA: ridge regression of the class indicators weighted by "
            "(YYᵀ)^(-1/2); labels by nearest class mean (or 1-NN) in the output space.",
    params=(replace(ALPHA_RIDGE, default=3.0), RULE),
)
class LDA(_OneStep):
    """LS-LDA (paper 004 eq. (5)): ``min_T ‖(YYᵀ)^{-1/2}(Y − T[X; 1ᵀ])‖²`` (paper orientation),
    here ``min ‖(Y − [X, c1]Tᵀ)Wᵀ‖² + α‖T‖²`` with Y the 0/1 indicators (n, c) and
    ``W = (YᵀY)^{-1/2}``; RLDA's λ → ∞ limit. A ridge (``alpha`` > 0, relative) is needed when
    n_samples < n_features. ``fit(X, y)`` with labels y; ``predict`` returns labels by ``rule``
    (see :class:`~core.regression.RLDA`). Every class needs >= 2 samples. The default
    ``alpha = 3`` equals RLDA's default alpha/eta (the same T-ridge as RLDA's λ → ∞ limit)."""

    _classifier = True

    def __init__(self, alpha: float = 3.0, rule: str = "mean"):
        self.alpha = alpha
        self.rule = rule

    def _start(self, prob: Problem) -> RegressionState:
        weights = class_weighting(prob.Y)
        T = _ridge_fit(prob.X, prob.Y, float(prob.params["alpha"]), weights)
        R = (prob.Y - prob.X @ T[:, :-1].T - T[:, -1]) @ weights[0].T
        return self._state(prob, T, objective=0.5 * fro(R) ** 2)


# =========================================================================== TLS
@register(
    key="tls", name="TLS", family="regression", task="regression",
    reference=REFERENCE + ": baseline [39] (total least squares, Golub & Van Loan), §5.7",
    summary="Total least squares: the smallest isotropic correction of [X, Y] that makes them "
            "exactly linear; assumes the same Gaussian noise level in X and Y.",
    params=(),
)
class TLS(_OneStep):
    """Total least squares (Golub & Van Loan; paper 004's baseline [39], extraction §5.7).

    Centre X and Y, take the SVD ``C = [Xc, Yc] = UΣVᵀ`` (n × (d + p)), partition V with the last
    p columns as the y-block: ``B = −V_xy V_yy⁻¹`` (d × p), ``T = [Bᵀ, ȳ − Bᵀx̄]``. The corrected
    inputs ``D_TLS`` are the x-part of ``C − C V_y V_yᵀ`` plus x̄ (what Fig. 4 shows), E = X − D.

    TLS weighs errors in X and Y alike, so it depends on their relative scale (0–255 pixels vs.
    targets near 1: the correction goes almost entirely into Y's direction...); it is the paper's
    point that its isotropic-Gaussian assumption does not fit intra-sample outliers.

    Raises DataError when n_samples < n_features + n_outputs (TLS is then ill-posed: the
    smallest singular vectors are an arbitrary null-space basis; use Ridge or RPCA+LSR), and
    SolverError when V_yy is singular (no TLS solution)."""

    def __init__(self):
        pass

    def _start(self, prob: Problem) -> RegressionState:
        X, Y = prob.X, prob.Y
        n, d = X.shape
        p = Y.shape[1]
        if n < d + p:
            raise DataError(f"TLS needs n_samples >= n_features + n_outputs = {d + p}, got {n} samples "
                            "(it is ill-posed otherwise); use Ridge or RPCA+LSR")
        xm, ym = X.mean(axis=0), Y.mean(axis=0)
        C = np.hstack([X - xm, Y - ym])
        _, s, Vt = np.linalg.svd(C, full_matrices=False)
        V = Vt.T
        Vxy, Vyy = V[:d, d:], V[d:, d:]
        sv_yy = np.linalg.svd(Vyy, compute_uv=False)
        if sv_yy.min() <= 1e-12 * max(sv_yy.max(), 1e-300):
            raise SolverError("TLS has no solution on these data (the y-block V_yy of the smallest "
                              "singular vectors is singular)")
        B = -Vxy @ np.linalg.inv(Vyy)
        T = np.hstack([B.T, (ym - B.T @ xm)[:, None]])
        Vy = V[:, d:]
        corr = C - (C @ Vy) @ Vy.T
        D = corr[:, :d] + xm
        return self._state(prob, T, D, objective=0.5 * float(np.sum(s[d:] ** 2)),
                           scalars={"smallest σ": float(s[-1])})


# =========================================================================== RPCA + LSR
@register(
    key="rpca-lsr", name="RPCA+LSR", family="regression", task="regression",
    reference=REFERENCE + ": baseline §5.1 (RPCA [29] by PCP / inexact ALM, then least squares)",
    summary="Unsupervised cleaning first (PCP: X = L + S), then least squares on the low-rank L; "
            "one PCP iteration per step.",
    params=PCP_PARAMS,
)
class RPCALS(RegressionEstimator):
    """RPCA+LSR (paper 004 §5.1 baseline): PCP (:class:`core.methods.convex.PCP`, λ = lam_scale/
    √max(n, d), inexact ALM) on the training X, then least squares (minimum-norm) of Y on
    ``[L, 1]``. Each ``step`` is one PCP iteration; T is refitted to the current L.

    Test time (the paper does not say, §5.7): ``predict(X)`` applies T to the raw inputs;
    ``predict(X, clean=True)`` first runs PCP on the test batch (eq. (7), the same parameters)
    and applies T to its low-rank part.

    State: D = L (+ the PCP mean), E = S, scalars of PCP (``rank``, ``μ``, ``primal residual``),
    objective PCP's ``‖L‖_* + λ‖S‖₁``. Parameters: those of PCP (n_components=None: no rank
    cap). Stopping rule: PCP's (primal residual < tol, or max_iter).

    Default λ (Candès et al.'s 1/√max(n, d), the paper's RPCA [29]): on the §5.1 3-D example
    (3 features) it cuts the rank-2 plane to rank 1 (RAE_T 0.79 over 10 seeds, worse than LSR's
    0.03 — the paper's RPCA+LSR is also worse than its LSR: 0.464 vs 0.269). Candès et al.'s
    guarantee needs rank ≪ min(n, d); with lam_scale = 2 L keeps rank 2 (RAE_T 0.02). The
    default is kept as the paper's baseline."""

    __init__ = PCP.__init__         # the same keywords (PCP_PARAMS), stored unchanged

    def _catalogue_params(self) -> dict[str, Any]:
        return no_cap_as_zero(self.get_params())

    @staticmethod
    def _pcp(params: Mapping[str, Any]) -> PCP:
        """The inner PCP of a run with the validated parameters ``params``."""
        return PCP(**{k: params[k] for k in PCP._param_names()})

    def _wrap(self, prob: Problem, pcp: PCP, pstate, prev: RegressionState | None) -> RegressionState:
        # a checkpoint (core.interrupt) between the costly calls: each is 60-75 ms on 2,000 digits,
        # and together they held a Pause for up to 170 ms
        L = np.array(pstate.training_reconstruction(prob.X))
        interrupt.checkpoint()
        T = _lstsq_fit(L, prob.Y) if np.any(L) else _lstsq_fit(prob.X, prob.Y) * 0.0
        interrupt.checkpoint()
        E = np.array(pstate.sparse_part)
        sv = np.linalg.svd(L, compute_uv=False) if np.any(L) else np.zeros(0)
        sv = sv[sv > 1e-10 * max(sv.max(initial=0.0), 1e-300)]
        fit = prob.Y - (L @ T[:, :-1].T + T[:, -1])
        scalars = dict(pstate.scalars)
        scalars["fit error"] = fro(fit) / max(fro(prob.Y - prob.Y.mean(axis=0)), 1e-300)
        return self._new_state(prev, objective=pstate.objective, D=frozen(L), E=frozen(E),
                               T=frozen(T), singular_values=frozen(sv), converged=pstate.converged,
                               scalars=scalars, components=np.array(pstate.components),
                               classes=prob.classes, details={}, _ctx=_Ctx(problem=prob, extra=pstate, inner=pcp))

    def _inner(self, call, iteration: int):
        """``call()`` of the inner PCP; its SolverError re-raised in this method's name (the user
        called RPCA+LSR, not PCP)."""
        try:
            return call()
        except SolverError as e:
            at = e.iteration if e.iteration is not None else iteration
            raise SolverError(self.name, at, f"its PCP step: {e.reason}") from e

    def _start(self, prob: Problem) -> RegressionState:
        pcp = self._pcp(prob.params)
        return self._wrap(prob, pcp, self._inner(lambda: pcp.start(prob.X), 0), None)

    def _step(self, state: RegressionState) -> RegressionState:
        pcp = state._ctx.inner
        pstate = self._inner(lambda: pcp.step(state._ctx.extra), state.iteration + 1)
        return self._wrap(state._ctx.problem, pcp, pstate, state)

    def clean_inputs(self, X: Any, state: RegressionState | None = None) -> np.ndarray:
        """PCP's low-rank part of the test batch (eq. (7)), missing entries not allowed."""
        state = state or self._fitted_state()
        X = self._check_X(X, n_features=state.D.shape[1])
        if X.shape[0] < 2:
            return X
        return np.array(self._pcp(state._ctx.problem.params).fit_state(X).training_reconstruction(X))


# =========================================================================== RANSAC
RANSAC_PARAMS = (
    ParamSpec("n_trials", "trials", "int", 100, "number of random subsets tried (one per step)",
              low=1, high=100000, slider=(1, 1000)),
    ParamSpec("subset_size", "subset", "int", 0,
              "samples per random subset; 0 = automatic: min(n_features + 2, max(2, n_samples // 2))",
              low=0, slider=(0, 500)),
    ParamSpec("threshold", "τ", "float", 1.0,
              "inlier threshold as a multiple of the median residual norm ‖y_i − ŷ_i‖ of the "
              "all-sample fit", low=0.0, low_open=True, scale="log", slider=(0.05, 10.0)),
    ALPHA_RIDGE,
    ParamSpec("random_state", "seed", "int", 0, "random seed (same seed, same subsets)", low=0, slider=(0, 100)),
)


@register(
    key="ransac", name="RANSAC", family="regression", task="regression",
    reference=REFERENCE + ": baseline [11] (Fischler & Bolles), §5.1, §5.7",
    summary="Random sample consensus: ridge fits on random subsets, keep the one most samples "
            "agree with (residual below τ), refit on its consensus set; one trial per step.",
    params=RANSAC_PARAMS,
)
class RANSAC(RegressionEstimator):
    """RANSAC (Fischler & Bolles; paper 004 baseline [11], extraction §5.7).

    Rule, all documented choices (the paper tuned its own "to obtain the best testing error"):

    * scale: ``s = median_i ‖y_i − ŷ_i‖`` of the ridge fit to all samples (``alpha``);
    * each trial (one ``step``) draws ``subset_size`` samples without replacement
      (trial k uses ``numpy.random.default_rng([random_state, k])``, so stepping again from a kept state
      replays the same subsets; size 0 = ``min(d + 2, max(2, n // 2))``), fits ridge on
      them, and counts the inliers ``‖y_i − ŷ_i‖ <= threshold · s``; the best trial has the most
      inliers, ties broken by the smaller sum of inlier residuals;
    * T of the state is the ridge fit to the best consensus set so far (the final answer after
      ``n_trials`` steps).

    Only whole samples are rejected (RANSAC cannot correct intra-sample outliers): D = X, E = 0.
    details["inliers"] : (n_samples,) bool, the best consensus set. Scalars: ``inliers``
    (count), ``trial``.
    """

    def __init__(self, n_trials: int = 100, subset_size: int = 0, threshold: float = 1.0,
                 alpha: float = 1e-3, random_state: int = 0):
        self.n_trials = n_trials
        self.subset_size = subset_size
        self.threshold = threshold
        self.alpha = alpha
        self.random_state = random_state

    def finished(self, state: RegressionState) -> bool:
        return state.converged

    def _residuals(self, prob: Problem, T: np.ndarray) -> np.ndarray:
        R = prob.Y - prob.X @ T[:, :-1].T - T[:, -1]
        return np.sqrt(np.einsum("ij,ij->i", R, R))

    def _make(self, prob, prev, extra, best):
        inliers, score = best
        T = _ridge_fit(prob.X[inliers], prob.Y[inliers], float(prob.params["alpha"]))
        sv, comps = thin_singular_values(prob.X) if prev is None else (prev.singular_values, prev.components)
        r = self._residuals(prob, T)
        trial = extra["trial"]
        return self._new_state(prev, objective=float(0.5 * np.sum(r[inliers] ** 2)), D=frozen(np.array(prob.X)),
                               E=frozen(np.zeros_like(prob.X)), T=frozen(T), singular_values=sv,
                               converged=trial >= int(prob.params["n_trials"]),
                               scalars={"inliers": int(inliers.sum()), "trial": trial,
                                        "rank": int(len(sv))},
                               components=comps, classes=prob.classes,
                               details={"inliers": frozen(inliers.copy())},
                               _ctx=_Ctx(problem=prob, extra=dict(extra, best=best)))

    def _start(self, prob: Problem) -> RegressionState:
        n, d = prob.X.shape
        prm = prob.params
        m = int(prm["subset_size"]) or min(d + 2, max(2, n // 2))
        if m > n:
            raise DataError(f"subset_size = {m} exceeds the number of samples ({n})")
        T_all = _ridge_fit(prob.X, prob.Y, float(prm["alpha"]))
        r = self._residuals(prob, T_all)
        tau = float(prm["threshold"]) * float(np.median(r))
        inl = r <= tau
        if inl.sum() < 2:
            inl = r <= np.sort(r)[1]
        extra = {"m": m, "tau": tau, "trial": 0}
        return self._make(prob, None, extra, (inl, (int(inl.sum()), -float(r[inl].sum()))))

    def _step(self, state: RegressionState) -> RegressionState:
        prob = state._ctx.problem
        extra = dict(state._ctx.extra)
        best = extra.pop("best")
        rng = np.random.default_rng([int(prob.params["random_state"]), extra["trial"]])   # trial k: same subset on replay
        idx = rng.choice(prob.X.shape[0], size=extra["m"], replace=False)
        T = _ridge_fit(prob.X[idx], prob.Y[idx], float(prob.params["alpha"]))
        r = self._residuals(prob, T)
        inl = r <= extra["tau"]
        score = (int(inl.sum()), -float(r[inl].sum()))
        if inl.sum() >= 2 and score > best[1]:
            best = (inl, score)
        extra["trial"] += 1
        return self._make(prob, state, extra, best)


__all__ = ["LeastSquares", "RidgeRegression", "Ridge", "LDA", "TLS", "RPCALS", "RANSAC"]


#: The former name (shadows scikit-learn's ``Ridge`` when both are imported): an alias.
Ridge = RidgeRegression
