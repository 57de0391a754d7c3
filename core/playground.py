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

Methods (:data:`METHODS`): the catalogue's PCA, PCA-GM, RPCA-OM, R1-PCA and HQ-PCA with one component
(the fitted line is ``mean + s·components[0]``), and :class:`HuberLineFit`, the M-estimator line fit
that paper 004 sets against RR. Paper 004's own RR does not fit this picture: with one input
feature its low-rank prior on X (``‖D‖_*`` of a 1-row matrix is a plain norm) has nothing to
keep, and on the default points (:func:`default_points`) it returned slope 0.93 where least squares
on the inliers gives 0.54 (on all points 0.52; the Huber fit 0.54), so the playground uses the
classic reweighted fit the paper describes in its §2.

Cross-section (:func:`cross_section`): the reweighted methods minimise ``J = Σ_i φ(a_i)`` where
``a_i`` is a squared residual and φ is concave and non-decreasing, by minimising at iteration t
the tangent majorizer (the half-quadratic / MM bound)::

    Q_t = Σ_i φ(a_i^t) + φ'(a_i^t) (a_i − a_i^t)   >=   J,   with equality at the iterate,

whose weights ``φ'(a_i^t)`` are the method's sample weights (up to scale). The playground draws J
and Q_t along the line's angle θ, the line turning about the current centre (the mean for the
PCA methods, the point of the line above x̄ for the line fit), every other variable held at its
value of iteration t.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import catalogue
from .base import State, SteppableEstimator
from .errors import DataError, ParameterError
from .linalg import positive_floor

__all__ = ["METHODS", "LINE_FIT", "DEFAULT_METHOD", "HuberLineFit", "CrossSection", "cross_section",
           "default_points", "Playground"]

#: key of the M-estimator line fit (not in the catalogue: it is a 2-D teaching aid)
LINE_FIT = "huber-line"

#: the playground's methods, key -> display name, in the order the app lists them
METHODS: dict[str, str] = {
    "pca": "PCA", "pca-gm": "PCA-GM", "rpca-om": "RPCA-OM", "r1-pca": "R1-PCA", "hq-pca": "HQ-PCA",
    LINE_FIT: "Huber line fit (M-estimator)",
}

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
def _huber(a: np.ndarray, c: float) -> np.ndarray:
    """Huber's ρ as a function of the squared residual a = r²: a (r <= c), 2c·r − c² (r > c)."""
    r = np.sqrt(a)
    return np.where(r <= c, a, 2.0 * c * r - c * c)


def _huber_weight(a: np.ndarray, c: float) -> np.ndarray:
    """dρ/da = min(1, c/r): Huber's weight."""
    r = np.sqrt(a)
    return np.where(r <= c, 1.0, c / np.maximum(r, c))


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
        J = float(_huber(a, c).sum())
        wn = _huber_weight(a, c)
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


def _phi(key: str, state: State) -> tuple[Callable, Callable, str]:
    """φ(a) and φ'(a) of the method ``key``, a the squared residual, with the state's constants."""
    s = state.scalars
    if key == "pca":
        return (lambda a: a), (lambda a: np.ones_like(a)), "J = Σ r²"
    if key == "pca-gm":
        # Oh & Kwak, Pattern Recognition 2016, eqs. (10)–(11): F = Σ (e_i + δ)^p, β_i = (e_i + δ)^(p−1)
        p, d = float(s["p"]), float(s["δ"])
        return ((lambda a: (a + d) ** p), (lambda a: p * (a + d) ** (p - 1.0)),
                "Q = Σ (eᵗ+δ)ᵖ + p(eᵗ+δ)ᵖ⁻¹(e − eᵗ)")
    if key == "rpca-om":
        # Nie, Yuan & Huang, ICML 2014, eq. (13) with footnote 1 and Theorem 1: √(a+ε) ≤ √(aᵗ+ε) + (a−aᵗ)/(2√(aᵗ+ε))
        eps = float(s["ε"])
        return ((lambda a: np.sqrt(a + eps)), (lambda a: 0.5 / np.sqrt(a + eps)),
                "Q = Σ √(rᵗ²+ε) + (r² − rᵗ²)/(2√(rᵗ²+ε))")
    if key in ("r1-pca", LINE_FIT):
        # Huber's ρ in a = r²: concave, derivative min(1, c/r) = the Huber weight (Ding et al. ICML 2006)
        c = float(s["c"])
        return (lambda a: _huber(a, c)), (lambda a: _huber_weight(a, c)), "Q = Σ ρ(rᵗ) + wᵢ(r² − rᵗ²)"
    if key == "hq-pca":
        # He, Hu, Zheng & Kong, IEEE TIP 2011: Welsch 1 − exp(−a/2σ²), weight exp(−a/2σ²) (σ held fixed)
        s2 = 2.0 * float(s["σ"]) ** 2
        return ((lambda a: 1.0 - np.exp(-a / s2)), (lambda a: np.exp(-a / s2) / s2),
                "Q = Σ φ(rᵗ²) + φ'(rᵗ²)(r² − rᵗ²),  φ(a) = 1 − e^(−a/2σ²)")
    raise ParameterError(f"method: unknown playground method {key!r}; known: {list(METHODS)}")


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


def cross_section(key: str, state: State, points: np.ndarray, n_angles: int = 181,
                  half_width: float | None = None) -> CrossSection:
    """J(θ) and the majorizer Q_t(θ) of iteration t (``state``) along the line's angle θ.

    The line turns about ``state.mean``; θ spans the half-turn centred on the iterate's angle θ_t
    (PCA methods; a line's angle is defined modulo π) or (−90°, 90°) without its ends (line fit,
    slope tan θ). With ``a_i(θ)`` the squared residuals and the method's φ (see the module
    docstring):

    * PCA-GM (Oh & Kwak, Pattern Recognition 2016, eq. (10), Algorithm 2): φ(a) = (a + δ)^p,
      Q = Σ (e_i^t+δ)^p + p (e_i^t+δ)^{p−1} (e_i − e_i^t); its weights are eq. (11)'s β_i.
    * RPCA-OM (Nie, Yuan & Huang, ICML 2014, eq. (13), footnote 1, Theorem 1): φ(a) = √(a + ε),
      Q = Σ √(a_i^t+ε) + (a_i − a_i^t) / (2√(a_i^t+ε)), weights d_ii; the mean b is held at b_t.
    * R1-PCA (Ding, Zhou, He & Zha, ICML 2006) and the line fit: Huber's ρ_c(√a), concave in a,
      φ'(a) = min(1, c/√a) (the Huber weights), c held at the iterate's.
    * HQ-PCA (He, Hu, Zheng & Kong, IEEE TIP 2011, half-quadratic): φ(a) = 1 − exp(−a/2σ²),
      φ'(a) = exp(−a/2σ²)/2σ² (the Welsch weights up to scale), σ and the mean held.
    * PCA: J = Σ a_i, no surrogate (``None``).

    Every φ is concave, so its tangent at a_i^t lies above it: Q_t(θ) >= J(θ) for every θ, with
    equality at θ_t, and J(θ_t) is the state's objective.

    Parameters
    ----------
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
    phi, dphi, formula = _phi(key, state)
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
    Q = None
    if key != "pca":
        Q = (phi(a_now) + dphi(a_now) * (a - a_now)).sum(axis=1)
    return CrossSection(theta=theta, objective=J, surrogate=Q, theta_now=t0, objective_now=J_now,
                        formula=formula)


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


def make_estimator(key: str, p: float = 0.3, max_iter: int = 100, tol: float = 1e-6):
    """The estimator of playground method ``key`` with one component (``p`` for PCA-GM)."""
    if key == LINE_FIT:
        return HuberLineFit(max_iter=max_iter, tol=tol)
    if key not in METHODS:
        raise ParameterError(f"method: unknown playground method {key!r}; known: {list(METHODS)}")
    if key == "pca":
        return catalogue.create(key, n_components=1)
    if key == "pca-gm":
        return catalogue.create(key, n_components=1, p=p, max_iter=max_iter, tol=tol)
    return catalogue.create(key, n_components=1, max_iter=max_iter, tol=tol)


class Playground:
    """The playground's model: points, user-marked outliers, the method and the run's states.

    Attributes: ``points`` (n, 2) float (read-only copy), ``outliers`` (n,) bool, ``method``
    (a key of :data:`METHODS`), ``states`` (the states of iterations 0..T of the current run),
    ``shown`` (the iteration the view shows, 0..T), ``version`` (increases on every change, for
    the view to know when to redraw).

    Every edit (move, add, remove, method) refits from iteration 0 and steps to the iteration that
    was shown, or to the stopping rule if the run had reached it. Edits that would make the data
    unusable (fewer than :data:`MIN_POINTS` points, or points the method refuses such as all on
    one spot) raise :class:`DataError` and leave the model unchanged.
    """

    def __init__(self, points: np.ndarray | None = None, outliers: np.ndarray | None = None,
                 method: str = DEFAULT_METHOD, seed: int = 0, p: float = 0.3, max_iter: int = 100):
        if points is None:
            points, default_out = default_points(seed)
            outliers = default_out if outliers is None else outliers
        pts = np.array(points, dtype=float)
        if pts.ndim != 2 or pts.shape[1] != 2 or len(pts) < MIN_POINTS:
            raise DataError(f"points must have shape (n, 2) with n >= {MIN_POINTS}, got {pts.shape}")
        out = np.zeros(len(pts), bool) if outliers is None else np.array(outliers, dtype=bool)
        if out.shape != (len(pts),):
            raise DataError(f"outliers must have shape ({len(pts)},), got {out.shape}")
        if method not in METHODS:
            raise ParameterError(f"method: unknown playground method {method!r}; known: {list(METHODS)}")
        self.p = p
        self.max_iter = max_iter
        self.version = 0
        self._points, self.outliers, self.method = pts, out, method
        self.states: list[State] = []
        self.shown = 0
        self._to_end = False
        self._estimator = make_estimator(method, p=p, max_iter=max_iter)
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

    def cross_section(self, n_angles: int = 181, half_width: float | None = None) -> CrossSection:
        """J and the majorizer at the shown iteration (:func:`cross_section`)."""
        return cross_section(self.method, self.state, self._points, n_angles, half_width)

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
        if key not in METHODS:
            raise ParameterError(f"method: unknown playground method {key!r}; known: {list(METHODS)}")
        old = self.method, self._estimator
        self.method, self._estimator = key, make_estimator(key, p=self.p, max_iter=self.max_iter)
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
