"""Steppable estimators: the contract every method in :mod:`core.methods` follows.

A method is one class with scikit-learn conventions (hyperparameters are constructor keywords,
stored unchanged; ``fit(X)`` learns; learned attributes end in ``_``). Its iteration is exposed
one step at a time on an explicit, immutable :class:`State`::

    est = PCAGM(n_components=10, p=0.3)
    state = est.start(X)          # iteration 0: the initialisation (for PCA-GM, the PCA solution)
    while not est.finished(state):
        state = est.step(state)   # one iteration of the paper's algorithm
    est.fit(X)                    # the same loop, then components_, mean_, ... are set

Data ``X`` has shape ``(n_samples, n_features)``: one flattened image per row. The papers write
samples as columns; each method's docstring translates once.
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Iterator, Mapping

import numpy as np
from sklearn.base import ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils.validation import check_array, check_is_fitted, validate_data

from ._readonly import ReadOnlyDict, Series
from . import convergence, interrupt
from .metrics import effective_n_samples
from .params import EstimatorParams, seed_from
from .errors import DataError

#: the scalar of a sample-reweighting method's states holding Kish's effective number of samples
#: of its weights (:func:`core.metrics.effective_n_samples`; see ``reweights_samples``)
EFFECTIVE_N = "effective n"


@dataclass(frozen=True, eq=False)
class State:
    """Everything a view needs at one iteration of one method.

    Attributes
    ----------
    method : display name of the method that produced the state.
    iteration : 0 for the initialisation returned by ``start``, then 1, 2, ...
    objective : value of the method's objective at this iterate (see the method's docstring).
    objective_history : objectives of iterations 0..iteration, for the objective curve: a tuple,
        or a :class:`~core._readonly.Series` (read as a tuple; the NMF methods' histories share
        one append-only list per run).
    components : (n_components, n_features) unit-norm rows (the basis images); orthonormal for the
        PCA methods, only approximately orthogonal for the sparse ones (deflation).
    mean : (n_features,) the centre the method uses.
    sample_weights : (n_samples,) relative weight of each sample at this iterate, scaled so that the
        largest is 1 (the methods are invariant to the scale of the weights), or ``None``.
    entry_weights : (n_samples, n_features) per-entry weights where the method has them, else ``None``.
    converged : the method's stopping rule is met.
    scalars : the method's own numbers at this iterate (e.g. ``{"δ": 1.3}``, ``{"rank": 7}``), read-only.
    scalar_history : for every name in ``scalars``, its values at iterations 0..iteration
        (filled in by ``SteppableEstimator._next_state``), for curves of μ, rank, γ, ...; tuples
        or :class:`~core._readonly.Series`, as ``objective_history``.
    sparse_part : (n_samples, n_features) the sparse outlier matrix E of low-rank + sparse
        methods (grey levels), else ``None``.
    fitted : (n_samples, n_features) the method's own reconstruction of the training samples when
        it is not the projection onto ``mean + span(components)`` (e.g. ``b1ᵀ + Z`` for CRPCA-OM),
        else ``None``.
    details : read-only mapping of other method-specific arrays to show (e.g. every restart's
        objective for RSPCA), else empty.
    """

    method: str
    iteration: int
    objective: float
    objective_history: tuple[float, ...]
    components: np.ndarray
    mean: np.ndarray
    sample_weights: np.ndarray | None = None
    entry_weights: np.ndarray | None = None
    converged: bool = False
    scalars: Mapping[str, float] = field(default_factory=dict)
    scalar_history: Mapping[str, tuple] = field(default_factory=dict)
    sparse_part: np.ndarray | None = None
    fitted: np.ndarray | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    # Data and caches shared (not copied) by every state of one run. Not part of the public API.
    _ctx: Any = field(default=None, repr=False)
    # (min, max) of the training data, set by ``start``: fitted values far outside it mean divergence.
    _data_range: tuple[float, float] | None = field(default=None, repr=False)

    def __post_init__(self):
        for name in ("components", "mean", "sample_weights", "entry_weights", "sparse_part", "fitted"):
            arr = getattr(self, name)
            if isinstance(arr, np.ndarray):
                arr.flags.writeable = False
        scalars = dict(self.scalars)
        history = {k: v if type(v) is Series else tuple(v)      # (a Series is immutable)
                   for k, v in self.scalar_history.items()}
        for k, v in scalars.items():          # a fresh state starts each scalar's history
            history.setdefault(k, (v,))
        object.__setattr__(self, "scalars", ReadOnlyDict(scalars))
        object.__setattr__(self, "scalar_history", ReadOnlyDict(history))
        object.__setattr__(self, "details", ReadOnlyDict(dict(self.details)))

    @property
    def n_components(self) -> int:
        return self.components.shape[0]

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Coordinates ``(X - mean) @ components.T``, shape (n, n_components); float32 when X and
        the state are float32, else float64."""
        X = np.asarray(X)
        if X.dtype not in (np.float32, np.float64):
            X = X.astype(np.float64)
        return (X - self.mean) @ self.components.T

    def reconstruct(self, X: np.ndarray) -> np.ndarray:
        """``mean + WᵀW (X − mean)``: for orthonormal W the projection of X onto the affine
        subspace ``mean + span(components)``; for sparse W, paper 002's eq. (16). Same shape as X."""
        return self.mean + self.transform(X) @ self.components

    def training_reconstruction(self, X: np.ndarray) -> np.ndarray:
        """The method's reconstruction of its training data X: ``fitted`` where the method has its
        own (low-rank part of a convex method), else :meth:`reconstruct`."""
        return self.fitted if self.fitted is not None else self.reconstruct(X)

    def detached(self, n_samples: int) -> "State":
        """This state without what is the size of the training data (``fitted``,
        ``sparse_part``, ``entry_weights``, the run's context, and any 2-D array of ``details``
        with one row per training sample): what a fitted estimator keeps as ``state_`` (its
        pickle holds no training data). The per-sample ``sample_weights`` and the 1-D per-sample
        details (e.g. ``"outlier score"``) stay; the whole state of every iteration is what
        :meth:`SteppableEstimator.start` / :meth:`~SteppableEstimator.step` give."""
        details = {k: v for k, v in self.details.items()
                   if not (isinstance(v, np.ndarray) and v.ndim >= 2 and v.shape[0] == n_samples)}
        return replace(self, fitted=None, sparse_part=None, entry_weights=None, details=details,
                       _ctx=None, **self._detached_changes())

    def _detached_changes(self) -> dict:
        """Further fields :meth:`detached` clears (subclasses: e.g. the NMF coefficients)."""
        return {}


def float_dtype(X: Any) -> type:
    """``np.float32`` when X (an array, or a DataFrame whose columns are all float32) holds
    float32 numbers, else ``np.float64``: the dtype of what ``transform`` and
    ``inverse_transform`` return for X (scikit-learn's ``preserves_dtype``)."""
    dtype = getattr(X, "dtype", None)
    if dtype is None and hasattr(X, "dtypes"):
        kinds = set(X.dtypes)
        dtype = kinds.pop() if len(kinds) == 1 else None
    return np.float32 if dtype == np.float32 else np.float64


def _n_rows(X: Any) -> int:
    """The number of samples of ``X``, any array-like ``fit`` accepts (an array, a DataFrame, a
    list, an object with only ``__array__``), without converting it when it has a shape or length."""
    shape = getattr(X, "shape", None)            # (X is of any type the caller passes)
    if shape is not None and len(shape):
        return int(shape[0])
    return len(X) if hasattr(X, "__len__") else len(np.asarray(X))


#: the int seed of the run a :meth:`SteppableEstimator.start` is making, in this thread (None outside one)
_RUN_SEED: ContextVar[int | None] = ContextVar("_RUN_SEED", default=None)


class SteppableEstimator(ClassNamePrefixFeaturesOutMixin, TransformerMixin, EstimatorParams):
    """Base class. Subclasses implement ``_start(X)`` and ``_step(state)``.

    Subclasses are registered in :mod:`core.catalogue`, whose :class:`~core.params.ParamSpec`
    list is the single source of the parameters' ranges; :meth:`start` validates against it and
    raises :class:`~core.errors.ParameterError` naming the parameter before any work is done.
    Parameters (``get_params``, ``set_params``, ``repr``, ``name``) come from
    :class:`~core.params.EstimatorParams`.

    scikit-learn conventions: ``transform`` is one continuous function of its input (no special
    case for the training data) and ``fit_transform(X)`` is ``fit(X).transform(X)``; the
    method's own decomposition of its training data (low-rank and sparse parts, the NMF
    coefficients of the fit) is the final state's, :meth:`fit_state`; :meth:`score` is the
    negative mean squared reconstruction error per sample (so ``GridSearchCV`` needs no scorer), ``get_feature_names_out`` gives ``<classname>0``, ...
    (so ``set_output(transform="pandas")`` works), and float32 input gives float32 outputs
    (``components_``, ``mean_``, ``transform``, ``inverse_transform``), computed in float32 by
    the methods that set :attr:`preserves_float32`, else in float64 and returned as float32.
    """

    # Hyperparameters the shared loop reads. A method's constructor sets those it takes (stored
    # unchanged, scikit-learn's rule); a method without one keeps the class default here.
    #: the iteration cap of an iterative method (its constructor sets it). Declared, not given a
    #: class default: scikit-learn reads ``hasattr(est, "max_iter")`` as "iterative" and then
    #: requires ``n_iter_ >= 1`` (check_transformer_n_iter), which a closed-form fit (PlainPCA,
    #: finished at its start) does not have; :meth:`_iteration_cap` reads it.
    max_iter: int | None
    #: the relative-decrease tolerance of :meth:`_next_state` (0: only an unchanged objective)
    tol: float = 0.0
    #: the number of components k (None: a method without a fixed k)
    n_components: Any = None
    #: the seed of a method's random draws (0 for a method that draws none)
    random_state: Any = 0

    def iteration_cap(self) -> int | None:
        """``max_iter``, or None for a method without one (closed form, finished after its
        first step; see the declaration above)."""
        return getattr(self, "max_iter", None)      # (absent on closed-form methods: by design)

    def _iteration_cap(self) -> int:
        """``max_iter``, or 1 for a method without one."""
        cap = self.iteration_cap()
        return 1 if cap is None else int(cap)

    #: float32 input is computed in float32 end to end (half the memory and time of float64);
    #: a method sets this once its updates are checked in single precision
    preserves_float32: bool = False
    #: float32 input is taken as it is and the method converts what it keeps itself (the greedy
    #: methods centre it into float64 at once): no float64 copy of the whole input first
    accepts_float32: bool = False
    #: temporaries of a start and of a step, as multiples of the input's bytes (X.nbytes): the
    #: estimate by which :mod:`core.working` admits solvers that run at once (the PCA family's,
    #: measured 0.12 on 5,000 × 4,096 and 0.38 on 5,000 × 784; heavier families set their own)
    work_factors: tuple[float, float] = (0.5, 0.5)
    #: each step is a fit weighted by the state's ``sample_weights``, recomputed from its residuals
    #: (PCA-GM, RPCA-OM, R1-PCA, HQ-PCA): the states then carry the weights' effective number of
    #: samples as the scalar :data:`EFFECTIVE_N` (so that its history is kept and shown), and the
    #: collapse rule of :mod:`core.collapse` applies to them
    reweights_samples: bool = False

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        if tags.transformer_tags is not None:     # (computed in float64 where not preserves_float32)
            tags.transformer_tags.preserves_dtype = ["float64", "float32"]
        return tags

    @property
    def _n_features_out(self) -> int:
        """Number of coordinates ``transform`` gives (``get_feature_names_out``)."""
        return self.components_.shape[0]

    def _validate(self, X: Any, *, reset: bool, min_samples: int = 2, min_features: int = 2) -> np.ndarray:
        """scikit-learn's ``validate_data`` (2-D, numeric, finite, not sparse or complex, enough
        samples and features; ``n_features_in_`` set when ``reset``, checked otherwise), as a
        float64 array, or float32 when the input is float32 and the class sets
        :attr:`preserves_float32`; its ValueError becomes :class:`DataError` with the same message."""
        try:
            X = validate_data(self, X, dtype=[np.float64, np.float32], ensure_min_samples=min_samples,
                              ensure_min_features=min_features, reset=reset)
        except ValueError as exc:
            message = str(exc)
            if "NaN" in message and not self.__sklearn_tags__().input_tags.allow_nan:
                # scikit-learn's text names its own functions and options; say it for a user
                message = (f"{self.name} cannot learn from data with missing entries (NaN), such as "
                           "the pixels removed by the 'missing blocks' corruption; the missing-data "
                           "regression methods (RR-Missing, RLDA-Missing) accept them. Fill the "
                           "missing entries first, or use one of those.")
            raise DataError(message) from None
        convergence.check_scale(X)              # entries near 1e300: DataError before any run
        if (self.preserves_float32 or self.accepts_float32) and X.dtype == np.float32:
            return X
        return np.asarray(X, dtype=np.float64)

    def _check_data(self, X: Any) -> np.ndarray:
        """X as a float64 array, or :class:`DataError` naming what is wrong: not 2-D, fewer than 2
        samples or features, NaN/inf, sparse or complex, every sample identical (e.g. all
        zero), or ``n_components >= min(n_samples, n_features)``."""
        X = self._validate(X, reset=True)
        n, d = X.shape
        convergence.check_varies(X)
        k = self.n_components
        if k is not None and isinstance(k, (int, np.integer)) and int(k) >= min(n, d):
            raise DataError(f"n_components (k) = {k} needs more data: k must be smaller than "
                            f"min(n_samples, n_features) = min({n}, {d})")
        return X

    # ----------------------------------------------------------------- stepping
    def start(self, X: Any) -> State:
        """Validate parameters and data, and return the initial state (iteration 0). The estimator
        is not changed (what a run needs later travels in its states)."""
        with self._new_run():
            X = self._check_data(X)
            with convergence.numeric_failures(self.name, 0):
                state = self._start(X)
        state = replace(state, _data_range=(float(X.min()), float(X.max())),
                        scalars=self._with_effective_n(state.scalars, state.sample_weights))
        self._check_state(state)
        return state

    @contextmanager
    def _new_run(self) -> Iterator[dict[str, Any]]:
        """Validate the parameters of a new run (ParameterError naming the first bad one) and,
        while the run starts, make its int seed :attr:`_seed` (from ``random_state``, drawn
        afresh for None, a RandomState or a Generator). A method whose steps draw random numbers
        keeps the seed in its run's context (e.g. the greedy methods' ``_Run.seed``)."""
        params = self._validated_params()
        token = _RUN_SEED.set(int(params.get("random_state", 0)))
        try:
            yield params
        finally:
            _RUN_SEED.reset(token)

    @property
    def _seed(self) -> int:
        """The int seed of the run being started (inside :meth:`start`); elsewhere the seed
        ``random_state`` gives (a fresh one for None, a RandomState or a Generator)."""
        seed = _RUN_SEED.get()
        return int(seed_from(self.random_state)) if seed is None else seed

    def step(self, state: State) -> State:
        """One iteration of the method from ``state``; returns a new state (``state`` is unchanged).

        Raises :class:`~core.interrupt.Cancelled` when the calling thread's cancel flag is set
        (:mod:`core.interrupt`): before the iteration and at the checkpoints of its inner loops."""
        interrupt.checkpoint()
        with convergence.numeric_failures(self.name, state.iteration + 1):
            new = self._step(state)
        self._check_state(new)
        return new

    def finished(self, state: State) -> bool:
        """The stopping rule: converged, or ``max_iter`` iterations done."""
        return self.status(state) != convergence.RUNNING

    def note(self, state: State) -> str:
        """Something the status line should add about ``state`` beyond converged / stopped /
        diverged (e.g. a convex fit of rank 0), or ""."""
        return ""

    def status(self, state: State) -> str:
        """``"converged"`` (the method's stopping rule is met), ``"max_iter"`` (stopped unconverged)
        or ``"running"``; see :mod:`core.convergence`. (A diverged run raised :class:`SolverError`.)"""
        return convergence.status(state.converged, state.iteration, self._iteration_cap())

    def iterate(self, X: Any) -> Iterator[State]:
        """Yield the state of every iteration, from ``start(X)`` until :meth:`finished`."""
        state = self.start(X)
        yield state
        while not self.finished(state):
            state = self.step(state)
            yield state

    def fit(self, X: Any, y: Any = None) -> "SteppableEstimator":
        """Run the iteration to its stopping rule and set the learned attributes.

        Sets ``components_`` (n_components, n_features), ``mean_`` (n_features,),
        ``sample_weights_`` (n_samples,) or None, ``n_iter_``, ``converged_`` (the stopping rule
        was met), ``objective_`` and ``objective_history_``, ``n_features_in_``, and ``state_``:
        the final :class:`State` without what is the size of the training data
        (:meth:`State.detached`: no ``fitted``, ``sparse_part``, ``entry_weights``), so that a
        fitted estimator, and its pickle, holds no copy of X. Every iteration's whole state
        is what :meth:`start` / :meth:`step` (or :meth:`iterate`) give; :meth:`fit_state`
        returns the final one whole. float32 X gives float32 ``components_`` and ``mean_``.
        ``effective_n_samples_`` is derived from ``sample_weights_``.

        Warns :class:`~sklearn.exceptions.ConvergenceWarning` when ``max_iter`` ends the run
        before the stopping rule is met. Raises :class:`~core.errors.SolverError` when the run
        diverges (NaN/inf, or fitted values far outside the data's range).
        """
        self.fit_state(X)
        return self

    def fit_state(self, X: Any) -> State:
        """:meth:`fit`, returning the final :class:`State` whole: the method's decomposition of
        its training data, which the fitted estimator does not keep (the size of X): ``fitted``
        (its reconstruction: ``mean + L`` of PCP, ``b + Z`` of CRPCA-OM, ``HW`` of NMF),
        ``sparse_part`` (S, E), ``entry_weights``, the NMF ``coefficients`` (the fit's own H).
        ``state.training_reconstruction(X)`` is the reconstruction for every method."""
        for state in self.iterate(X):
            pass
        self.converged_ = bool(state.converged)
        if not self.converged_:
            convergence.warn_unconverged(self.name, int(state.iteration if self.iteration_cap() is None else self._iteration_cap()))
        dtype = float_dtype(X)
        self._set_fitted(state, dtype)
        self.state_ = state.detached(_n_rows(X))
        return state

    def _set_fitted(self, state: State, dtype: type) -> None:
        """Set the learned attributes from the final ``state`` (float32 ones for float32 input)."""
        self.components_: np.ndarray = np.array(state.components, dtype=dtype)
        self.mean_: np.ndarray = np.array(state.mean, dtype=dtype)
        self.sample_weights_ = None if state.sample_weights is None else np.array(state.sample_weights)
        self.n_iter_ = state.iteration
        self.objective_ = state.objective
        self.objective_history_ = np.array(state.objective_history)

    @property
    def effective_n_samples_(self) -> float:
        """Kish's effective number of samples ``(Σwᵢ)²/Σwᵢ²`` of the fitted ``sample_weights_``
        (:func:`core.metrics.effective_n_samples`), in [1, n_samples]: far below n_samples, the
        fit rests on a few samples (:mod:`core.collapse`). ``NotFittedError`` before ``fit``;
        AttributeError for a method without sample weights."""
        check_is_fitted(self, "state_")
        if self.sample_weights_ is None:                 # (set by every fit, with state_)
            raise AttributeError(f"{self.name} has no sample weights, so no effective_n_samples_")
        return effective_n_samples(self.sample_weights_)

    def transform(self, X: Any) -> np.ndarray:
        """Coordinates of X (n_samples, n_features) in the learned basis, shape
        (n_samples, n_components): ``(X − mean_) components_ᵀ``, one continuous function of X
        (float32 for float32 X). Raises ``NotFittedError`` before ``fit`` and
        :class:`DataError` for X that does not match the training data's features."""
        check_is_fitted(self, "state_")
        dtype = float_dtype(X)
        X = self._validate(X, reset=False, min_samples=1, min_features=1)
        return np.asarray(self.state_.transform(X), dtype=dtype)

    def _check_coordinates(self, Y: Any, basis: np.ndarray) -> np.ndarray:
        """Coordinates Y (n_samples, len(basis)) checked as scikit-learn does, as float64, or
        float32 when Y is (``NotFittedError`` before ``fit``; :class:`DataError` naming the
        mismatch)."""
        check_is_fitted(self, "state_")
        dtype = float_dtype(Y)
        try:
            Y = check_array(Y, dtype=[np.float64, np.float32], ensure_min_features=0)
        except ValueError as exc:
            raise DataError(str(exc)) from None
        if Y.shape[1] != len(basis):
            raise DataError(f"Y has {Y.shape[1]} coordinates but the model has {len(basis)} components")
        return np.asarray(Y, dtype=dtype)

    def inverse_transform(self, Y: Any) -> np.ndarray:
        """Back from coordinates (n_samples, n_components) to images (n_samples, n_features):
        ``Y components_ + mean_`` (float32 for float32 Y)."""
        Y = self._check_coordinates(Y, self.components_)
        return (Y @ self.components_.astype(Y.dtype, copy=False)
                + self.mean_.astype(Y.dtype, copy=False))

    def score(self, X: Any, y: Any = None) -> float:
        """The negative mean squared reconstruction error per sample,
        ``−(1/n) Σ_i ‖x_i − x̂_i‖²`` with ``x̂ = inverse_transform(transform(x))`` (units of
        (grey level)²; higher is better, 0 for a perfect reconstruction), so that
        ``GridSearchCV`` and ``cross_val_score`` need no scorer. ``y`` is ignored.

        For the robust methods this is not their own objective: it scores every candidate by the
        same squared error on held-out samples (outliers in them count fully)."""
        check_is_fitted(self, "state_")
        X = self._validate(X, reset=False, min_samples=1, min_features=1)
        R = X - self.inverse_transform(self.transform(X))
        return -float(np.einsum("ij,ij->", R, R, dtype=np.float64)) / X.shape[0]

    # ----------------------------------------------------------------- helpers for subclasses
    def _next_state(self, prev: State, *, objective: float, **changes: Any) -> State:
        """The state after ``prev`` with the given fields changed; sets ``converged`` by the
        relative-decrease rule ``|J_t - J_{t+1}| <= tol * |J_t|``."""
        tol = float(self.tol)
        changes["scalars"] = self._with_effective_n(changes.get("scalars", prev.scalars),
                                                    changes.get("sample_weights", prev.sample_weights))
        converged = abs(prev.objective - objective) <= tol * max(abs(prev.objective), np.finfo(float).tiny)
        changes.setdefault("converged", converged)
        scalars = changes["scalars"]
        n_prev = prev.iteration + 1
        history = {}
        for k, v in scalars.items():   # a scalar new at this iteration has NaN before it
            history[k] = tuple(prev.scalar_history.get(k, (float("nan"),) * n_prev)) + (v,)
        changes["scalar_history"] = history
        return replace(prev, iteration=prev.iteration + 1, objective=float(objective),
                       objective_history=prev.objective_history + (float(objective),), **changes)

    def _with_effective_n(self, scalars: Mapping[str, float], weights) -> Mapping[str, float]:
        """``scalars`` with :data:`EFFECTIVE_N` of ``weights`` added for a method that
        :attr:`reweights_samples` (unchanged otherwise)."""
        if not self.reweights_samples or weights is None:
            return scalars
        return {**scalars, EFFECTIVE_N: effective_n_samples(weights)}

    def _check_state(self, state: State) -> None:
        """Raise :class:`SolverError` (the run diverged) on a non-finite objective, array or
        scalar, or on fitted values far outside the data's range (:mod:`core.convergence`)."""
        arrays = {"the components": state.components, "the mean": state.mean,
                  "a sample weight": state.sample_weights, "an entry weight": state.entry_weights,
                  "the fitted values": state.fitted, "the sparse part": state.sparse_part}
        convergence.check_finite(self.name, state.iteration, state.objective, arrays, state.scalars)
        convergence.check_within_range(self.name, state.iteration, state.fitted, state._data_range)

    def _start(self, X: np.ndarray) -> State:  # pragma: no cover - abstract
        raise NotImplementedError

    def _step(self, state: State) -> State:  # pragma: no cover - abstract
        raise NotImplementedError
