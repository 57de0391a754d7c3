"""The steppable-regression contract shared by RR, RLDA and the baselines.

A regression method learns a linear map from inputs X (n_samples, n_features) to targets
Y (n_samples, n_outputs), possibly cleaning X on the way. Like the subspace methods of
:mod:`core.base` its iteration is exposed one step at a time on an explicit immutable state::

    est = RR(lam_scale=1.0, eta=1.0)
    state = est.start(X, Y)            # iteration 0: the initialisation
    while not est.finished(state):
        state = est.step(state)        # one iteration of the paper's algorithm
    est.fit(X, Y)                      # the same loop, then coef_, intercept_, T_, ... are set

Orientation. Paper 004 (Huang, Cabral & De la Torre, "Robust Regression", TPAMI 2016) writes
samples as *columns*: X ∈ ℝ^{d×n}, Y ∈ ℝ^{d_y×n}, T ∈ ℝ^{d_y×(d+1)}, D̂ = [D; 1ᵀ]. Here samples
are *rows*: X, D, E are (n, d), Y is (n, p), D̂ = [D, c·1] is (n, d + 1) and the prediction
``T D̂`` of the paper is ``D̂ Tᵀ`` here. T keeps the paper's (corrected, §2.1 of the extraction)
shape (n_outputs, n_features + 1).

Classifiers (RLDA, LDA) take integer (or any hashable) class labels ``y`` (n_samples,), encode
them as the 0/1 indicator matrix Y (n, c) (``Y[i, j] = 1`` if sample i is of class ``classes_[j]``;
the paper's transposed ``y_ij``) and ``predict`` returns labels.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

import numpy as np
from sklearn.utils.validation import check_is_fitted, validate_data

from .._readonly import ReadOnlyDict
from .. import convergence
from ..params import EstimatorParams
from ..errors import DataError


# =========================================================================== state
@dataclass(frozen=True, eq=False)
class RegressionState:
    """Everything a view needs at one iteration of one regression method (immutable; arrays read-only).

    Attributes
    ----------
    method : display name of the method.
    iteration : 0 for the initialisation returned by ``start``, then 1, 2, ...
    objective : the method's objective at this iterate (see the method's docstring).
    objective_history : objectives of iterations 0..iteration.
    D : (n_samples, n_features) the cleaned training inputs (same units as X; for missing
        entries the filled-in values).
    E : (n_samples, n_features) the outliers ``X − D`` the method removed (0 at missing entries).
    T : (n_outputs, n_features + 1) the regressor *with* its bias: ``T[:, :-1]`` is the
        (n_outputs, n_features) weight part (one weight image per output when the inputs are
        images; also :attr:`coef`) and ``T[:, -1]`` the intercept (:attr:`intercept`), so that the
        prediction for inputs ``x`` is ``T[:, :-1] @ x + T[:, -1]``.
    singular_values : (r,) the non-zero singular values of D, decreasing (r = rank of D).
    scalars : the method's own numbers at this iterate (read-only), e.g. ``μ1``, ``μ2``, ``r1``,
        ``r2`` (relative primal residuals), ``rank``, ``nnz(E)``.
    scalar_history : for every name in ``scalars`` its values at iterations 0..iteration.
    converged : the method's stopping rule is met.
    components : (k, n_features) leading right singular vectors of D (basis images, k <= 100),
        or None.
    classes : the class labels (classifiers), else None.
    details : other method-specific values (read-only mapping), e.g. ``"rule"`` of a classifier,
        ``"missing"`` (n, d) bool mask of missing entries.
    """

    method: str
    iteration: int
    objective: float
    objective_history: tuple[float, ...]
    D: np.ndarray
    E: np.ndarray
    T: np.ndarray
    singular_values: np.ndarray
    converged: bool = False
    scalars: Mapping[str, float] = field(default_factory=dict)
    scalar_history: Mapping[str, tuple] = field(default_factory=dict)
    components: np.ndarray | None = None
    classes: tuple | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    # Solver variables and data shared by the states of one run. Not part of the public API.
    _ctx: Any = field(default=None, repr=False)

    def __post_init__(self):
        for name in ("D", "E", "T", "singular_values", "components"):
            arr = getattr(self, name)
            if isinstance(arr, np.ndarray):
                arr.flags.writeable = False
        for v in self.details.values():
            if isinstance(v, np.ndarray):
                v.flags.writeable = False
        scalars = dict(self.scalars)
        history = {k: tuple(v) for k, v in self.scalar_history.items()}
        for k, v in scalars.items():
            history.setdefault(k, (v,))
        object.__setattr__(self, "scalars", ReadOnlyDict(scalars))
        object.__setattr__(self, "scalar_history", ReadOnlyDict(history))
        object.__setattr__(self, "details", ReadOnlyDict(dict(self.details)))

    @property
    def coef(self) -> np.ndarray:
        """(n_outputs, n_features) the weight part of T (weight images)."""
        return self.T[:, :-1]

    @property
    def intercept(self) -> np.ndarray:
        """(n_outputs,) the bias column of T."""
        return self.T[:, -1]

    @property
    def rank(self) -> int:
        return int(len(self.singular_values))

    def predict_outputs(self, X: np.ndarray) -> np.ndarray:
        """Plain prediction ``X coefᵀ + intercept`` (n, n_outputs), no cleaning of X."""
        return np.asarray(X, dtype=float) @ self.coef.T + self.intercept

    def fitted_outputs(self) -> np.ndarray:
        """The regressor applied to the cleaned training inputs, ``[D, 1] Tᵀ`` (n_samples, n_outputs)."""
        return self.predict_outputs(self.D)


# =========================================================================== helpers
def frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def fro(A: np.ndarray) -> float:
    """‖A‖_F (einsum: no BLAS threads)."""
    A = np.asarray(A).ravel()
    return math.sqrt(float(np.dot(A, A))) if A.size else 0.0


def encode_labels(y: Any, what: str = "y") -> tuple[np.ndarray, tuple, np.ndarray]:
    """Class labels (n,) → (codes (n,) int in 0..c−1, classes tuple, indicator Y (n, c) 0/1).

    Also accepts a one-hot (n, c) 0/1 matrix with exactly one 1 per row (classes 0..c−1).

    Raises DataError: fewer than 2 classes, or a class with a single sample (named): LDA-type
    methods need every class to have at least two samples (a class mean from one sample is
    that sample, and a stratified split could not put it in both sets).
    """
    arr = np.asarray(y)
    if arr.ndim == 2:
        if not (np.isin(arr, (0, 1)).all() and np.all(arr.sum(axis=1) == 1)):
            raise DataError(f"{what} as a 2-D array must be one-hot (0/1, exactly one 1 per row); "
                            "pass class labels (n_samples,) instead")
        codes = np.argmax(arr, axis=1)
        classes = tuple(range(arr.shape[1]))
    elif arr.ndim == 1:
        if arr.dtype.kind == "f":
            if not np.all(np.isfinite(arr)) or np.any(arr != np.round(arr)):
                raise DataError(f"{what} must hold class labels (integers or strings), got non-integer numbers")
            arr = arr.astype(np.int64)
        classes_arr, codes = np.unique(arr, return_inverse=True)
        classes = tuple(c.item() if hasattr(c, "item") else c for c in classes_arr)
    else:
        raise DataError(f"{what} must be class labels of shape (n_samples,), got shape {arr.shape}")
    c = len(classes)
    if c < 2:
        raise DataError(f"{what} holds {c} class; classification needs at least 2 classes")
    counts = np.bincount(codes, minlength=c)
    single = [classes[j] for j in np.flatnonzero(counts < 2)]
    if single:
        shown = ", ".join(repr(s) for s in single[:5]) + (", ..." if len(single) > 5 else "")
        raise DataError(f"class {shown} has a single sample; every class needs at least 2 "
                        f"samples (remove the class or add samples)")
    Y = np.zeros((len(codes), c))
    Y[np.arange(len(codes)), codes] = 1.0
    return codes.astype(np.intp), classes, Y


def class_weighting(Y: np.ndarray, eps: float = 1e-10) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """RLDA's output weighting W = (YᵀY)^{-1/2} (paper eqs. (5)–(6); YYᵀ in the paper's orientation).

    Returns ``(W, P, s)`` with ``M⁻¹ = (WᵀW)⁻¹ = YᵀY = P diag(s) Pᵀ`` (what the T-step of §3.5
    needs). A singular YᵀY (duplicate or empty label columns) gets ``eps·trace/c`` added (guard)."""
    C = Y.T @ Y
    c = C.shape[0]
    s, P = np.linalg.eigh(C)
    floor = eps * max(float(np.trace(C)) / c, 1.0)
    s = np.maximum(s, floor)
    W = (P / np.sqrt(s)) @ P.T
    return W, P, s


def t_step(Dh: np.ndarray, Y: np.ndarray, gamma: float, P: np.ndarray | None = None,
           s: np.ndarray | None = None) -> np.ndarray:
    """Ridge T-step of paper 004 Alg. 1 step 1 with the extraction's corrections (§3.3, §3.5).

    Returns the unique T (p, q) minimising ``‖(Y − Dh Tᵀ) Wᵀ‖_F² + γ‖T‖_F²`` (rows here, i.e. the
    paper's ``‖W(Y − T D̂)‖² + γ‖T‖²``), the solution of the Sylvester equation
    ``M T G + γT = M Yᵀ Dh`` with ``M = WᵀW`` and ``G = Dhᵀ Dh``:

    * W = I (``P is None``): ``T = Yᵀ Dh (G + γI)⁻¹`` — the paper's formula with its product order
      fixed — computed from the smaller of G (q × q) and the Gram matrix ``Dh Dhᵀ`` (n × n)
      (push-through identity ``Yᵀ (Dh Dhᵀ + γI)⁻¹ Dh``), by one linear solve;
    * general W, given ``M⁻¹ = P diag(s) Pᵀ``: ``T = P[(Pᵀ Yᵀ Dh Q) ⊘ (1ℓᵀ + γ s1ᵀ)]Qᵀ`` with
      ``G = Q diag(ℓ) Qᵀ`` (extraction §3.5), or on the n side
      ``T = P[(Pᵀ Yᵀ U) ⊘ (1λᵀ + γ s1ᵀ)] Uᵀ Dh`` with ``Dh Dhᵀ = U diag(λ) Uᵀ``. A diagonal W
      (classes) is the special case P = I, ``s_i = 1/w_ii²`` (the paper's row-wise t_i).
    """
    n, q = Dh.shape
    if P is None:
        if q <= n:
            G = Dh.T @ Dh
            G[np.diag_indices_from(G)] += gamma
            return np.linalg.solve(G, Dh.T @ Y).T
        K = Dh @ Dh.T
        K[np.diag_indices_from(K)] += gamma
        return np.linalg.solve(K, Y).T @ Dh
    assert s is not None                          # given with P
    if q <= n:
        ell, Q = np.linalg.eigh(Dh.T @ Dh)
        B = P.T @ ((Y.T @ Dh) @ Q)
        return P @ (B / (np.maximum(ell, 0.0)[None, :] + gamma * s[:, None])) @ Q.T
    lam, U = np.linalg.eigh(Dh @ Dh.T)
    B = P.T @ (Y.T @ U)
    return P @ (B / (np.maximum(lam, 0.0)[None, :] + gamma * s[:, None])) @ (U.T @ Dh)


def feature_variance(X: np.ndarray, observed: np.ndarray | None = None) -> float:
    """Mean over the features of the variance of the (observed) entries of X — the scale of the
    ridges (``gamma`` is relative to n × this, the average diagonal of the centred Gram matrix).
    Guard: 1.0 when X is constant."""
    if observed is None:
        v = float(np.mean(np.var(X, axis=0)))
    else:
        cnt = np.maximum(observed.sum(axis=0), 1)
        mean = np.where(observed, X, 0.0).sum(axis=0) / cnt
        v = float(np.mean(np.where(observed, (X - mean) ** 2, 0.0).sum(axis=0) / cnt))
    return v if v > 0 else 1.0


def nearest_rows(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """For every row of A, the index of the nearest row of B (Euclidean)."""
    d2 = (np.einsum("ij,ij->i", A, A)[:, None] - 2.0 * A @ B.T + np.einsum("ij,ij->i", B, B)[None, :])
    return np.argmin(d2, axis=1)


RULES = ("mean", "1nn", "argmax")


def classify(outputs: np.ndarray, train_outputs: np.ndarray, codes: np.ndarray, n_classes: int,
             rule: str) -> np.ndarray:
    """Class codes (n,) of ``outputs`` (n, c) in the output space (paper 004 §3.8):

    * ``"mean"``: nearest class mean of the projected training samples ``train_outputs``;
    * ``"1nn"``: the class of the nearest projected training sample (the paper's k-NN, k = 1);
    * ``"argmax"``: the largest output component.
    """
    if rule == "argmax":
        return np.argmax(outputs, axis=1)
    if rule == "1nn":
        return codes[nearest_rows(outputs, train_outputs)]
    means = np.zeros((n_classes, outputs.shape[1]))
    np.add.at(means, codes, train_outputs)
    means /= np.bincount(codes, minlength=n_classes)[:, None]
    return nearest_rows(outputs, means)


# =========================================================================== estimator base
@dataclass(frozen=True)
class Problem:
    """The checked training data of one run (shared by every state, never modified)."""
    X: np.ndarray                  # (n, d) inputs; missing entries filled (see the estimator)
    Y: np.ndarray                  # (n, p) targets (indicator matrix for classifiers)
    missing: np.ndarray | None     # (n, d) bool, True at missing entries, or None
    codes: np.ndarray | None       # (n,) class codes (classifiers)
    classes: tuple | None
    fill: np.ndarray               # (d,) per-feature fill value for missing inputs at prediction
    #: the estimator's validated parameters at ``start`` (read-only): what the run's steps use,
    #: so that ``start`` leaves the estimator unchanged
    params: Mapping[str, Any] = field(default_factory=lambda: ReadOnlyDict({}), compare=False)


class RegressionEstimator(EstimatorParams):
    """Base class of the regression methods (:data:`core.catalogue` task ``"regression"``).

    Subclasses implement ``_start(problem) -> RegressionState`` and ``_step(state)``; one-step
    methods return a converged state from ``_start``. Parameters are validated against the
    catalogue's ParamSpecs by :meth:`start` (ParameterError naming the parameter, before any work).

    Parameters (``get_params``, ``set_params``, ``repr``, ``name``) come from
    :class:`~core.params.EstimatorParams`, as for the subspace methods.

    Class attributes: ``_classifier`` (targets are class labels; ``predict`` returns labels),
    ``_allow_missing`` (X may hold NaN at missing entries).
    """

    _classifier = False
    _allow_missing = False
    #: the iteration cap, for the iterative methods' constructors to set (None: a one-step method)
    max_iter: int | None = None

    # ----------------------------------------------------------------- data
    def _check_X(self, X: Any, what: str = "X", n_features: int | None = None) -> np.ndarray:
        """A float64 copy of X checked as scikit-learn does (``validate_data``: 2-D, numeric, not
        sparse or complex, not empty; ``n_features_in_`` set when fitting, ``n_features`` checked
        when predicting), or :class:`DataError` naming what is wrong: infinite values, NaN for a
        method without missing-data support, an entirely missing row."""
        try:
            X = validate_data(self, X, dtype=np.float64, ensure_all_finite="allow-nan",
                              ensure_min_samples=1, reset=n_features is None)
        except ValueError as exc:
            raise DataError(f"{what}: {exc}") from None
        X = np.array(X, dtype=np.float64)        # a copy: the caller's array is never touched
        if n_features is not None and X.shape[1] != n_features:
            raise DataError(f"{what} has {X.shape[1]} features but the model was fitted on {n_features}")
        if np.isinf(X).any():
            raise DataError(f"{what} contains {int(np.isinf(X).sum())} infinite value(s)")
        nan = np.isnan(X)
        if nan.any() and not self._allow_missing:
            raise DataError(f"{what} contains {int(nan.sum())} missing (NaN) value(s); {self.name} needs "
                            "complete data (use RR-Missing / RLDA-Missing, or fill them first)")
        if nan.all(axis=1).any():
            raise DataError(f"{what} row {int(np.flatnonzero(nan.all(axis=1))[0])} is entirely missing (NaN)")
        convergence.check_scale(X, what)        # entries near 1e300: DataError before any run
        return X

    def _problem(self, X: Any, Y: Any) -> Problem:
        X = self._check_X(X)
        n, d = X.shape
        if n < 2:
            raise DataError(f"X needs at least 2 samples, got n_samples = {n}")
        convergence.check_varies(X)
        if self._classifier:
            Yarr = np.asarray(Y)
            if len(Yarr) != n:
                raise DataError(f"y has {len(Yarr)} labels but X has {n} samples")
            codes, classes, Ym = encode_labels(Yarr)
        else:
            Ym = np.array(Y, dtype=np.float64)
            if Ym.ndim == 1:
                Ym = Ym[:, None]
            if Ym.ndim != 2 or Ym.shape[0] != n:
                raise DataError(f"Y must have shape (n_samples, n_outputs) or (n_samples,) with "
                                f"n_samples = {n}, got shape {np.shape(Y)}")
            if not np.all(np.isfinite(Ym)):
                raise DataError(f"Y contains {int(np.count_nonzero(~np.isfinite(Ym)))} NaN or infinite value(s)")
            convergence.check_scale(Ym, "Y")
            codes, classes = None, None
        nan = np.isnan(X)
        missing = nan if nan.any() else None
        if missing is not None:
            counts = (~nan).sum(axis=0)
            sums = np.where(nan, 0.0, X).sum(axis=0)
            fill = np.divide(sums, counts, out=np.zeros(d), where=counts > 0)   # all-missing feature: 0
        else:
            fill = X.mean(axis=0)
        if missing is not None:
            X = np.where(nan, fill[None, :], X)
        return Problem(X=frozen(X), Y=frozen(Ym), missing=None if missing is None else frozen(missing),
                       codes=codes, classes=classes, fill=frozen(fill))

    # ----------------------------------------------------------------- stepping
    def start(self, X: Any, Y: Any) -> RegressionState:
        """Validate parameters and data; return the initial state (iteration 0).

        X : (n_samples, n_features) inputs (grey levels 0–255 for images; NaN at missing entries
        for the ``-missing`` methods). Y : (n_samples, n_outputs) or (n_samples,) targets, or class
        labels (n_samples,) for classifiers.

        Raises ParameterError (naming the parameter), DataError (bad X or Y). The estimator is
        not changed: the validated parameters travel with the run (``Problem.params``)."""
        params = ReadOnlyDict(self._validated_params())
        prob = replace(self._problem(X, Y), params=params)
        with convergence.numeric_failures(self.name, 0):
            state = self._start(prob)
        self._check_state(state)
        return state

    def step(self, state: RegressionState) -> RegressionState:
        """One iteration from ``state`` with the parameters of its run (those :meth:`start`
        validated); returns a new state (``state`` and the estimator are unchanged)."""
        with convergence.numeric_failures(self.name, state.iteration + 1):
            new = self._step(state)
        self._check_state(new)
        return new

    def finished(self, state: RegressionState) -> bool:
        """The stopping rule: converged, or ``max_iter`` iterations done."""
        return self.status(state) != convergence.RUNNING

    def iteration_cap(self) -> int | None:
        """``max_iter`` (None: a one-step method), as :meth:`core.base.SteppableEstimator.iteration_cap`."""
        return self.max_iter

    def status(self, state: RegressionState) -> str:
        """``"converged"``, ``"max_iter"`` or ``"running"`` (see :mod:`core.convergence`)."""
        return convergence.status(state.converged, state.iteration, self.max_iter or 0)

    def iterate(self, X: Any, Y: Any) -> Iterator[RegressionState]:
        """Yield the state of every iteration from ``start(X, Y)`` until :meth:`finished`."""
        state = self.start(X, Y)
        yield state
        while not self.finished(state):
            state = self.step(state)
            yield state

    def fit(self, X: Any, Y: Any) -> "RegressionEstimator":
        """Run to the stopping rule and set the learned attributes:

        ``state_`` (final :class:`RegressionState`), ``T_`` (n_outputs, n_features + 1),
        ``coef_`` (n_outputs, n_features), ``intercept_`` (n_outputs,), ``D_``, ``E_``
        (n_samples, n_features), ``n_iter_``, ``objective_``, ``objective_history_``,
        ``converged_``; classifiers also ``classes_``.

        Warns :class:`~sklearn.exceptions.ConvergenceWarning` when ``max_iter`` ends the run
        before the stopping rule is met; raises :class:`SolverError` when it diverges."""
        for state in self.iterate(X, Y):
            pass
        if not state.converged:
            convergence.warn_unconverged(self.name, int(state.iteration if self.max_iter is None else self.max_iter))
        return self._set_fitted(state)

    def _set_fitted(self, state: RegressionState) -> "RegressionEstimator":
        self.state_ = state
        self.T_ = np.array(state.T)
        self.coef_ = self.T_[:, :-1].copy()
        self.intercept_ = self.T_[:, -1].copy()
        self.D_ = np.array(state.D)
        self.E_ = np.array(state.E)
        self.n_iter_ = state.iteration
        self.objective_ = state.objective
        self.objective_history_ = np.array(state.objective_history)
        self.converged_ = bool(state.converged)
        if self._classifier:
            self.classes_ = np.array(state.classes)
        return self

    # ----------------------------------------------------------------- prediction
    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.allow_nan = bool(self._allow_missing)   # NaN marks a missing entry
        return tags

    def _fitted_state(self) -> RegressionState:
        """The fitted state; scikit-learn's ``NotFittedError`` before ``fit``."""
        check_is_fitted(self, "state_", msg=f"{self.name} is not fitted yet: call fit(X, Y) first")
        return self.state_

    def clean_inputs(self, X: Any, state: RegressionState | None = None) -> np.ndarray:
        """The test inputs the regressor is applied to. Default: X itself, missing entries filled
        with the training feature means. Methods with test-time cleaning override this."""
        state = state or self._fitted_state()
        prob: Problem = state._ctx.problem
        X = self._check_X(X, n_features=state.D.shape[1])
        return np.where(np.isnan(X), prob.fill[None, :], X)

    def decision_function(self, X: Any, clean: bool = False,
                          state: RegressionState | None = None) -> np.ndarray:
        """Outputs ``[x, 1] Tᵀ`` (n, n_outputs) for X (n, n_features); with ``clean=True`` the
        method's test-time cleaning is applied to X first (where it has one)."""
        state = state or self._fitted_state()
        if clean:
            Xc = self.clean_inputs(X, state=state)
        else:
            Xc = RegressionEstimator.clean_inputs(self, X, state=state)
        return state.predict_outputs(Xc)

    def predict(self, X: Any, clean: bool = False, state: RegressionState | None = None) -> np.ndarray:
        """Predicted targets (n, n_outputs) — or class labels (n,) for classifiers — for X.

        ``clean=False``: plain ``T[x; 1]`` on the raw inputs (missing entries filled with the
        training feature means). ``clean=True``: the method's test-time cleaning first (RR/RLDA:
        paper 004 Alg. 2, eq. (8)); methods without one ignore it."""
        state = state or self._fitted_state()
        out = self.decision_function(X, clean=clean, state=state)
        if not self._classifier:
            return out
        return self.labels_from_outputs(out, state)

    def labels_from_outputs(self, outputs: np.ndarray, state: RegressionState | None = None) -> np.ndarray:
        """Class labels from outputs (n, c) by the estimator's ``rule`` (see :func:`classify`)."""
        state = state or self._fitted_state()
        prob: Problem = state._ctx.problem
        assert prob.codes is not None and prob.classes is not None   # a classifier's problem
        rule = state.details.get("rule", "mean")
        codes = classify(outputs, state.fitted_outputs(), prob.codes, len(prob.classes), rule)
        return np.asarray(prob.classes)[codes]

    def score(self, X: Any, y: Any, sample_weight: Any = None, clean: bool = False) -> float:
        """Higher is better, as in scikit-learn: accuracy for classifiers, the coefficient of
        determination R² (averaged over the outputs) for regression, on (X, y). (The relative
        error ‖Ŷ − Y‖_F/‖Y‖_F of paper 004 is :func:`core.metrics.prediction_relative_error`.)"""
        from sklearn.metrics import accuracy_score, r2_score

        pred = self.predict(X, clean=clean)
        if self._classifier:
            return float(accuracy_score(np.asarray(y), pred, sample_weight=sample_weight))
        y = np.asarray(y, dtype=float).reshape(pred.shape)
        return float(r2_score(y, pred, sample_weight=sample_weight))

    # ----------------------------------------------------------------- helpers for subclasses
    def _new_state(self, prev: RegressionState | None, *, objective: float, **fields: Any) -> RegressionState:
        objective = float(objective)
        if prev is None:
            return RegressionState(method=self.name, iteration=0, objective=objective,
                                   objective_history=(objective,), **fields)
        scalars = fields.get("scalars", prev.scalars)
        n_prev = prev.iteration + 1
        history = {k: tuple(prev.scalar_history.get(k, (float("nan"),) * n_prev)) + (v,)
                   for k, v in scalars.items()}
        return replace(prev, iteration=prev.iteration + 1, objective=objective,
                       objective_history=prev.objective_history + (objective,),
                       scalar_history=history, **fields)

    def _check_state(self, state: RegressionState) -> None:
        """Raise :class:`SolverError` (diverged) on a non-finite objective, D, E, T or scalar."""
        convergence.check_finite(self.name, state.iteration, state.objective,
                                 {"D": state.D, "E": state.E, "T": state.T}, state.scalars)

    def _start(self, prob: Problem) -> RegressionState:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step(self, state: RegressionState) -> RegressionState:  # pragma: no cover - abstract
        raise NotImplementedError


def thin_singular_values(D: np.ndarray, rtol: float = 1e-10) -> tuple[np.ndarray, np.ndarray]:
    """Non-zero singular values (decreasing) and up to 100 leading right singular vectors of D
    (exact thin SVD through numpy, which releases the GIL). For the one-step baselines."""
    if not D.size:
        return np.zeros(0), np.zeros((0, D.shape[1]))
    _, s, Vt = np.linalg.svd(D, full_matrices=False)
    keep = s > rtol * max(float(s[0]), 1e-300)
    from ..linalg import orientation
    comps = Vt[:max(1, min(int(keep.sum()), 100))]
    return s[keep], comps * orientation(comps)[:, None]
