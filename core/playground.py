"""The 2-D playground: points in the plane, a robust line fitted to them, one iteration at a time.

Qt-free model of the app's playground tab (issue 14, point 5). It holds the points (n, 2), which of
them the user marked as outliers, the method, and the states of the current run; the app draws them
and turns mouse gestures into :meth:`Playground.move_point`, :meth:`Playground.add_point` and
:meth:`Playground.remove_point`. Every edit refits from iteration 0 and steps again to the iteration
the user was looking at (or to convergence if the run had finished)::

    pg = Playground()                      # a line with a few outliers, fixed seed; HQ-PCA
    pg.set_method("pca-gm")
    pg.run()                               # to the stopping rule
    pg.move_point(pg.outlier_indices[0], (9.0, -9.0))
    pg.state.sample_weights                # the weights answer
    cs = pg.cross_section()                # J(θ) and its majorizer at the shown iteration

Methods (:func:`methods`): the catalogue's PCA, every sample-reweighting PCA
(:func:`core.methods.reweighted.registered`: PCA-GM, ℓ2,p-PCA-OM, RPCA-OM, R1-PCA, HQ-PCA, and any
new subclass of :class:`~core.methods.reweighted.ReweightedPCA` with a catalogue entry, with no edit
here) with one component (the fitted line is ``mean + s·components[0]``), and :class:`HuberLineFit`,
the M-estimator line fit that paper 004 sets against RR. Paper 004's own RR does not fit this
picture: with one input feature its low-rank prior on X (``‖D‖_*`` of a 1-row matrix is a plain
norm) has nothing to keep, and on the default points (:func:`default_points`) it returned slope 0.93
where least squares on the inliers gives 0.54 (on all points 0.52; the Huber fit 0.54), so the
playground uses the classic reweighted fit the paper describes in its §2.

Cross-section (:func:`cross_section`): the reweighted methods minimise ``J = Σ_i φ(a_i)`` where
``a_i`` is a squared residual and φ is concave and non-decreasing, by minimising at iteration t
the tangent majorizer (the half-quadratic / MM bound)::

    Q_t = Σ_i φ(a_i^t) + φ'(a_i^t) (a_i − a_i^t)   >=   J,   with equality at the iterate,

whose weights ``φ'(a_i^t)`` are the method's sample weights (up to scale). The playground draws J
and Q_t along the line's angle θ, the line turning about the current centre (the mean for the
PCA methods, the point of the line above x̄ for the line fit), every other variable held at its
value of iteration t. φ and φ′ are the method's own (:meth:`ReweightedPCA.loss
<core.methods.reweighted.ReweightedPCA.loss>`, :meth:`HuberLineFit.loss`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import catalogue
from .base import State, SteppableEstimator
from .errors import DataError, ParameterError
from .linalg import positive_floor
from .params import MethodInfo, ParamSpec
from .methods.reweighted import Loss, ReweightedPCA, registered
from .methods.robust_pca import huber_rho, huber_weight

__all__ = ["methods", "tunable", "make_estimator", "LINE_FIT", "DEFAULT_METHOD", "HuberLineFit", "CrossSection",
           "cross_section", "default_points", "Playground"]

#: key of the M-estimator line fit (not in the catalogue: it is a 2-D teaching aid)
LINE_FIT = "huber-line"

#: display name of the line fit
LINE_FIT_NAME = "Huber line fit (M-estimator)"


def _reweighted() -> dict[str, MethodInfo]:
    """key -> catalogue entry of every registered reweighted PCA, in the catalogue's order, then
    any others (not in the catalogue) in the order they were defined."""
    order = {cls: i for i, cls in enumerate(catalogue.ESTIMATORS)}
    family = sorted(registered(), key=lambda cls: order.get(cls, len(order)))
    infos = [cls._info for cls in family]
    return {info.key: info for info in infos if info is not None}


def methods() -> dict[str, str]:
    """The playground's methods, key -> display name, in the order the app lists them: PCA, every
    reweighted PCA (:func:`core.methods.reweighted.registered`, so a new one appears here), and
    the line fit. Read afresh at each call."""
    return {"pca": catalogue.get("pca").name,
            **{key: info.name for key, info in _reweighted().items()},
            LINE_FIT: LINE_FIT_NAME}


def tunable(key: str) -> dict[str, ParamSpec]:
    """The parameters of playground method ``key`` that a lesson may set (:class:`Playground`'s
    ``p``): ``{"p": spec}`` for a method that has p (PCA-GM, ℓ2,p-PCA-OM), else empty."""
    info = _reweighted().get(key)
    return {} if info is None else {s.name: s for s in info.params if s.name == "p"}


def _unknown(key: str) -> ParameterError:
    return ParameterError(f"method: unknown playground method {key!r}; known: {list(methods())}")

#: the method the playground opens with: HQ-PCA's Welsch weights are graded (the default points'
#: inliers 0.92–1, its outliers 0.002–0.01, slope 0.55 against the inliers' 0.5, effective number of
#: samples 24 of 28). PCA-GM (p = 0.3) and RPCA-OM collapse on these points: the line passes through
#: two of them, which get weight 1 and the other 26 below 1e-3 (effective number ≈ 2), because in
#: the plane a 1-component fit can put a point exactly on the line (eᵢ = 0, weight δ^(p−1)); that
#: is the lesson of picking them in the combo (core.collapse), not the first picture
DEFAULT_METHOD = "hq-pca"

#: Huber's tuning constant for 95 % efficiency at the normal model (Huber 1981)
HUBER_K = 1.345

#: the smallest number of points the playground keeps
MIN_POINTS = 3


# =========================================================================== the line fit
@dataclass(frozen=True, eq=False)
class _HuberRun:
    """A Huber line fit state's ``_ctx``: the points and Huber's scale c, fixed for the run."""

    X: np.ndarray
    scale: float


class HuberLineFit(SteppableEstimator):
    """Robust line ``y = t·x + b`` by Huber's M-estimator, iteratively reweighted least squares.

    The classic robust regression that Huang, Cabral & De la Torre, "Robust Regression", IEEE TPAMI
    38(2), 2016 (§2, the motivation after eq. (1)) contrast their RR with: minimise ``Σ_i ρ(y_i − t x_i − b)`` by
    re-weighting whole samples, ``min Σ_i w_i (y_i − t x_i − b)²``. Here ρ is Huber's (Huber,
    "Robust Statistics", 1981)::

        J(t, b) = Σ_i ρ_c(r_i),   r_i = |y_i − t x_i − b|,   ρ_c(r) = r² (r <= c),  2cr − c² (r > c)

    Iteration 0 is least squares (all weights 1). Each step solves the weighted least-squares
    problem with ``w_i = min(1, c / r_i)`` of the current line: as ρ_c(√a) is concave in a, that
    minimises the tangent majorizer ``Σ ρ_c(r_i^t) + w_i (r_i² − (r_i^t)²)`` exactly, so J never
    increases. The scale is fixed for the run (re-estimating it each step would break that):
    ``c = 1.345 · 1.4826 · median_i |r_i − median r|`` of the least-squares residuals (Huber's
    constant on the normalised MAD), or ``0.01 · min |r_i| > 0`` if that is 0.

    Stopping rule: J's relative decrease ``|J_t − J_{t+1}| <= tol·|J_t|``, or ``max_iter`` steps.

    X : (n_samples, 2) points, columns x and y (any units), at least 3 points, x not constant.
    State: ``components`` (1, 2) the line's unit direction (x component > 0); ``mean`` the point of
    the line above the mean x; ``sample_weights`` Huber's w_i (max 1); scalars ``c``, ``slope``,
    ``intercept``. Raises :class:`DataError` (not (n, 2), fewer than 3 points, constant x, NaN) and
    :class:`ParameterError` (max_iter < 1, tol < 0).
    """

    surrogate = "Q = Σ ρ(rᵗ) + wᵢ(r² − rᵗ²)"

    def __init__(self, max_iter: int = 100, tol: float = 1e-6):
        self.max_iter = max_iter
        self.tol = tol

    def _validated_params(self) -> dict[str, Any]:
        if not isinstance(self.max_iter, (int, np.integer)) or self.max_iter < 1:
            raise ParameterError(f"max_iter must be an integer >= 1, got {self.max_iter!r}")
        if not np.isfinite(self.tol) or self.tol < 0:
            raise ParameterError(f"tol must be >= 0, got {self.tol!r}")
        return self.get_params()

    def _check_data(self, X: Any) -> np.ndarray:
        X = self._validate(X, reset=True, min_samples=MIN_POINTS)
        if X.shape[1] != 2:
            raise DataError(f"the line fit needs points (n, 2) with columns x, y; got {X.shape[1]} columns")
        if np.ptp(X[:, 0]) <= 0:
            raise DataError("the line fit needs x coordinates that vary (every point has the same x)")
        return X

    def _line_state(self, X: np.ndarray, w: np.ndarray, c: float | None, prev: State | None) -> State:
        x, y = X[:, 0], X[:, 1]
        sw = w.sum()
        xm, ym = w @ x / sw, w @ y / sw
        dx = x - xm
        t = float(w @ (dx * (y - ym)) / (w @ (dx * dx)))
        b = float(ym - t * xm)
        a = (y - t * x - b) ** 2
        if c is None:                                   # iteration 0: the scale from the LS residuals
            r = np.sqrt(a)
            mad = float(np.median(np.abs(r - np.median(r))))
            c = HUBER_K * 1.4826 * mad
            if c <= 0:
                c = positive_floor(r) if np.any(r > 0) else 1.0
        J = float(huber_rho(a, c).sum())
        wn = huber_weight(a, c)
        wn = wn / wn.max()
        direction = np.array([[1.0, t]]) / np.hypot(1.0, t)
        xbar = float(x.mean())
        mean = np.array([xbar, t * xbar + b])
        scalars = {"c": c, "slope": t, "intercept": b}
        if prev is None:
            return State(method="Huber line fit", iteration=0, objective=J, objective_history=(J,),
                         components=direction, mean=mean, sample_weights=wn, scalars=scalars,
                         _ctx=_HuberRun(X, c))
        return self._next_state(prev, objective=J, components=direction, mean=mean,
                                sample_weights=wn, scalars=scalars)

    def _start(self, X: np.ndarray) -> State:
        return self._line_state(X, np.ones(len(X)), None, None)

    def _step(self, state: State) -> State:
        X, c = state._ctx.X, state._ctx.scale
        return self._line_state(X, np.asarray(state.sample_weights), c, state)

    def loss(self, state: State) -> Loss:
        """Huber's ρ_c(√a) of the squared vertical residual a, its derivative min(1, c/√a) (the
        weights), c the run's."""
        c = float(state.scalars["c"])
        return Loss(lambda a: huber_rho(a, c), lambda a: huber_weight(a, c), self.surrogate)


# =========================================================================== the cross-section
@dataclass(frozen=True)
class CrossSection:
    """The objective J and its majorizer Q_t along the line's angle (see :func:`cross_section`).

    theta : (m,) angles in radians, increasing, containing ``theta_now``.
    objective : (m,) J(θ). surrogate : (m,) Q_t(θ), or None for PCA (not reweighted: Q = J).
    theta_now : the angle of the shown iterate; ``objective_now`` J there (= the state's objective).
    formula : the bound in words, for the plot's title.
    """

    theta: np.ndarray
    objective: np.ndarray
    surrogate: np.ndarray | None
    theta_now: float
    objective_now: float
    formula: str


def _loss(estimator: SteppableEstimator, state: State) -> Loss | None:
    """φ, φ′ and the majoriser's formula of a reweighted method at ``state``; None for PCA."""
    if isinstance(estimator, (ReweightedPCA, HuberLineFit)):
        return estimator.loss(state)
    return None


def _angle(state: State) -> float:
    u = np.asarray(state.components[0], dtype=float)
    return float(np.arctan2(u[1], u[0]))


def squared_residuals(key: str, points: np.ndarray, centre: np.ndarray, theta: np.ndarray) -> np.ndarray:
    """a_i(θ), shape (len(theta), n): squared residuals of the points to the line through
    ``centre`` at angle θ — the orthogonal distance for the PCA methods, the vertical one
    ``y − ȳ_c − tan θ (x − x_c)`` for the line fit."""
    d = np.asarray(points, dtype=float) - centre
    theta = np.atleast_1d(np.asarray(theta, dtype=float))[:, None]
    if key == LINE_FIT:
        return (d[None, :, 1] - np.tan(theta) * d[None, :, 0]) ** 2
    return (-np.sin(theta) * d[None, :, 0] + np.cos(theta) * d[None, :, 1]) ** 2


def cross_section(method: "str | SteppableEstimator", state: State, points: np.ndarray, n_angles: int = 181,
                  half_width: float | None = None) -> CrossSection:
    """J(θ) and the majorizer Q_t(θ) of iteration t (``state``) along the line's angle θ.

    The line turns about ``state.mean``; θ spans the half-turn centred on the iterate's angle θ_t
    (PCA methods; a line's angle is defined modulo π) or (−90°, 90°) without its ends (line fit,
    slope tan θ). With ``a_i(θ)`` the squared residuals and the method's φ (its ``loss(state)``;
    see the module docstring), for instance:

    * PCA-GM (Oh & Kwak, Pattern Recognition 2016, eq. (10), Algorithm 2): φ(a) = (a + δ)^p,
      Q = Σ (e_i^t+δ)^p + p (e_i^t+δ)^{p−1} (e_i − e_i^t); its weights are eq. (11)'s β_i.
    * RPCA-OM (Nie, Yuan & Huang, ICML 2014, eq. (13), footnote 1, Theorem 1): φ(a) = √(a + ε),
      Q = Σ √(a_i^t+ε) + (a_i − a_i^t) / (2√(a_i^t+ε)), weights d_ii; the mean b is held at b_t
      (ℓ2,p-PCA-OM: φ(a) = (a + ε)^{p/2}).
    * R1-PCA (Ding, Zhou, He & Zha, ICML 2006) and the line fit: Huber's ρ_c(√a), concave in a,
      φ'(a) = min(1, c/√a) (the Huber weights), c held at the iterate's.
    * HQ-PCA (He, Hu, Zheng & Kong, IEEE TIP 2011, half-quadratic): φ(a) = 1 − exp(−a/2σ²),
      φ'(a) = exp(−a/2σ²)/2σ² (the Welsch weights up to scale), σ and the mean held.
    * PCA: J = Σ a_i, no surrogate (``None``).

    Every φ is concave, so its tangent at a_i^t lies above it: Q_t(θ) >= J(θ) for every θ, with
    equality at θ_t, and J(θ_t) is the state's objective.

    Parameters
    ----------
    method : the estimator that produced ``state`` (:func:`make_estimator`), or a key of
        :func:`methods` for that method with its default parameters.
    points : (n, 2) the run's data.
    n_angles : grid size (>= 3; θ_t is added to the grid).
    half_width : radians, in (0, π/2]: the grid spans only θ_t ± half_width (within the range
        above), to resolve a majorizer that is tight about θ_t (PCA-GM's weights span many decades
        when a point lies on the line: its bowl is a fraction of a degree wide). None: the range above.

    Raises
    ------
    ParameterError : an unknown key, n_angles < 3 or half_width out of range.
    """
    if n_angles < 3:
        raise ParameterError(f"n_angles must be >= 3, got {n_angles}")
    if half_width is not None and not 0.0 < half_width <= np.pi / 2:
        raise ParameterError(f"half_width must be in (0, π/2], got {half_width!r}")
    estimator = make_estimator(method) if isinstance(method, str) else method
    loss = _loss(estimator, state)
    key = LINE_FIT if isinstance(estimator, HuberLineFit) else "pca"      # which residuals
    phi: Callable = (lambda a: a) if loss is None else loss.phi
    centre = np.asarray(state.mean, dtype=float)
    t0 = _angle(state)
    hw = np.pi / 2 if half_width is None else float(half_width)
    if key == LINE_FIT:
        t0 = float(np.arctan(np.tan(t0)))              # the slope's angle, in (−π/2, π/2)
        lo, hi = max(-np.pi / 2, t0 - hw), min(np.pi / 2, t0 + hw)
        grid = np.linspace(lo, hi, n_angles + 2)
        grid = grid[(grid > -np.pi / 2) & (grid < np.pi / 2)]
    else:
        grid = t0 + np.linspace(-hw, hw, n_angles)
    theta = np.union1d(grid, [t0])
    a = squared_residuals(key, points, centre, theta)
    a_now = squared_residuals(key, points, centre, np.array([t0]))[0]
    J = phi(a).sum(axis=1)
    J_now = float(phi(a_now).sum())
    Q = None if loss is None else (phi(a_now) + loss.dphi(a_now) * (a - a_now)).sum(axis=1)
    return CrossSection(theta=theta, objective=J, surrogate=Q, theta_now=t0, objective_now=J_now,
                        formula="J = Σ r²" if loss is None else loss.formula)


# =========================================================================== the model
def default_points(seed: int = 0, n_inliers: int = 24, n_outliers: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The default picture: ``n_inliers`` points near the line y = 0.5 x + 1 (x in [−4, 4], noise
    σ = 0.25) and ``n_outliers`` points far above it. Returns points (n, 2) and the outlier mask
    (n,) bool; the same seed gives the same points."""
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(-4.0, 4.0, n_inliers))
    y = 0.5 * x + 1.0 + 0.25 * rng.standard_normal(n_inliers)
    xo = rng.uniform(-3.0, 3.0, n_outliers)
    yo = 0.5 * xo + 1.0 + rng.uniform(3.5, 5.5, n_outliers)
    points = np.column_stack([np.r_[x, xo], np.r_[y, yo]])
    return points, np.r_[np.zeros(n_inliers, bool), np.ones(n_outliers, bool)]


def make_estimator(key: str, p: float | None = None, max_iter: int = 100, tol: float = 1e-6
                   ) -> SteppableEstimator:
    """The estimator of playground method ``key`` (:func:`methods`) with one component; ``p`` is
    passed to a method that has it (None: the method's default, e.g. PCA-GM's 0.3). Raises
    :class:`ParameterError` for an unknown key."""
    if key == LINE_FIT:
        return HuberLineFit(max_iter=max_iter, tol=tol)
    if key == "pca":
        return catalogue.create(key, n_components=1)
    info = _reweighted().get(key)
    if info is None:
        raise _unknown(key)
    est = info.estimator()
    changes: dict[str, Any] = {"n_components": 1, "max_iter": max_iter, "tol": tol}
    if p is not None and "p" in est.get_params():
        changes["p"] = p
    return est.set_params(**changes)


class Playground:
    """The playground's model: points, user-marked outliers, the method and the run's states.

    Attributes: ``points`` (n, 2) float (read-only copy), ``outliers`` (n,) bool, ``method``
    (a key of :func:`methods`), ``p`` (passed to the methods that have it; None: their default), ``states`` (the states of iterations 0..T of the current run),
    ``shown`` (the iteration the view shows, 0..T), ``version`` (increases on every change, for
    the view to know when to redraw).

    Every edit (move, add, remove, method) refits from iteration 0 and steps to the iteration that
    was shown, or to the stopping rule if the run had reached it. Edits that would make the data
    unusable (fewer than :data:`MIN_POINTS` points, or points the method refuses such as all on
    one spot) raise :class:`DataError` and leave the model unchanged.
    """

    def __init__(self, points: np.ndarray | None = None, outliers: np.ndarray | None = None,
                 method: str = DEFAULT_METHOD, seed: int = 0, p: float | None = None, max_iter: int = 100):
        if points is None:
            points, default_out = default_points(seed)
            outliers = default_out if outliers is None else outliers
        pts = np.array(points, dtype=float)
        if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < MIN_POINTS:
            raise DataError(f"points must have shape (n, 2) with n >= {MIN_POINTS}, got {pts.shape}")
        out = np.zeros(len(pts), bool) if outliers is None else np.array(outliers, dtype=bool)
        if out.shape != (len(pts),):
            raise DataError(f"outliers must have shape ({len(pts)},), got {out.shape}")
        estimator = make_estimator(method, p=p, max_iter=max_iter)     # ParameterError for an unknown key
        self.p = None if p is None else float(p)
        self.max_iter = max_iter
        self.version = 0
        self._points, self.outliers, self.method = pts, out, method
        self.states: list[State] = []
        self.shown = 0
        self._to_end = False
        self._estimator = estimator
        self._refit()

    # ----------------------------------------------------------------- reading
    @property
    def points(self) -> np.ndarray:
        v = self._points.view()
        v.flags.writeable = False
        return v

    @property
    def state(self) -> State:
        """The shown state."""
        return self.states[self.shown]

    @property
    def weights(self) -> np.ndarray:
        """(n,) the shown state's sample weights in [0, 1] (all 1 for PCA)."""
        w = self.state.sample_weights
        return np.ones(len(self._points)) if w is None else np.clip(np.asarray(w, float), 0.0, 1.0)

    @property
    def finished(self) -> bool:
        """The run's last state meets the stopping rule (converged or ``max_iter``)."""
        return self._estimator.finished(self.states[-1])

    @property
    def outlier_indices(self) -> np.ndarray:
        return np.flatnonzero(self.outliers)

    @property
    def reweighted(self) -> bool:
        return self.method != "pca"

    def line(self, half_length: float) -> np.ndarray:
        """(2, 2) the two ends of the shown line, ``mean ± half_length · direction``."""
        u = np.asarray(self.state.components[0], float)
        m = np.asarray(self.state.mean, float)
        return np.vstack([m - half_length * u, m + half_length * u])

    @property
    def estimator(self) -> SteppableEstimator:
        """The estimator of the current method (one component)."""
        return self._estimator

    def loss(self) -> Loss | None:
        """φ, φ′ and the majoriser's formula of the method at the shown iteration; None for PCA."""
        return _loss(self._estimator, self.state)

    def cross_section(self, n_angles: int = 181, half_width: float | None = None) -> CrossSection:
        """J and the majorizer at the shown iteration (:func:`cross_section`)."""
        return cross_section(self._estimator, self.state, self._points, n_angles, half_width)

    def nearest(self, xy, radius: float) -> int | None:
        """Index of the point nearest to ``xy`` within ``radius`` (data units), or None."""
        d = np.hypot(*(self._points - np.asarray(xy, float)).T)
        i = int(np.argmin(d))
        return i if d[i] <= radius else None

    # ----------------------------------------------------------------- stepping
    def step(self, n: int = 1) -> None:
        """Show the next ``n`` iterations (computing them if needed; not past the stopping rule)."""
        for _ in range(int(n)):
            if self.shown + 1 < len(self.states):
                self.shown += 1
            elif not self.finished:
                self.states.append(self._estimator.step(self.states[-1]))
                self.shown = len(self.states) - 1
            else:
                break
        self._to_end = self.shown == len(self.states) - 1 and self.finished
        self.version += 1

    def run(self) -> None:
        """Step to the stopping rule and show the last iteration."""
        while not self.finished:
            self.states.append(self._estimator.step(self.states[-1]))
        self.shown = len(self.states) - 1
        self._to_end = True
        self.version += 1

    def reset(self) -> None:
        """Back to iteration 0 (the run's states are kept for the slider)."""
        self.shown = 0
        self._to_end = False
        self.version += 1

    def show(self, iteration: int) -> None:
        """Show iteration ``iteration`` of the computed ones (clipped to 0..T)."""
        self.shown = int(np.clip(iteration, 0, len(self.states) - 1))
        self._to_end = self.shown == len(self.states) - 1 and self.finished
        self.version += 1

    # ----------------------------------------------------------------- editing
    def set_method(self, key: str) -> None:
        """Switch to method ``key`` (:func:`methods`) and refit; ParameterError for an unknown key."""
        estimator = make_estimator(key, p=self.p, max_iter=self.max_iter)
        old = self.method, self._estimator
        self.method, self._estimator = key, estimator
        try:
            self._refit()
        except Exception:
            self.method, self._estimator = old
            raise

    def move_point(self, i: int, xy) -> None:
        """Move point ``i`` to ``xy`` and refit."""
        new = self._points.copy()
        new[int(i)] = np.asarray(xy, float)
        self._replace(new, self.outliers)

    def add_point(self, xy, outlier: bool = True) -> int:
        """Add a point at ``xy`` (marked as an outlier by default), refit; returns its index."""
        self._replace(np.vstack([self._points, np.asarray(xy, float)[None, :]]), np.r_[self.outliers, outlier])
        return len(self._points) - 1

    def remove_point(self, i: int) -> None:
        """Remove point ``i`` and refit; :class:`DataError` if fewer than 3 would remain."""
        if len(self._points) <= MIN_POINTS:
            raise DataError(f"the playground keeps at least {MIN_POINTS} points")
        keep = np.arange(len(self._points)) != int(i)
        self._replace(self._points[keep], self.outliers[keep])

    def _replace(self, points: np.ndarray, outliers: np.ndarray) -> None:
        if not np.all(np.isfinite(points)):
            raise DataError("points must be finite")
        old = self._points, self.outliers, self.states, self.shown
        self._points, self.outliers = points, outliers
        try:
            self._refit()
        except Exception:
            self._points, self.outliers, self.states, self.shown = old
            raise

    def _refit(self) -> None:
        """Iteration 0 on the current points, then step to the shown iteration (or the end)."""
        target = self.shown
        states = [self._estimator.start(self._points)]
        while (self._to_end or len(states) <= target) and not self._estimator.finished(states[-1]):
            states.append(self._estimator.step(states[-1]))
        self.states = states
        self.shown = len(states) - 1 if self._to_end else min(target, len(states) - 1)
        self.version += 1
