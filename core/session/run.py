"""One run of a session: a method with its parameters and seed on the session's data, stepped by
the caller, its states kept in a :class:`~core.session.history.History` within a memory budget.

The subspace task (robust PCA, sparse PCA, NMF: ``estimator.start(X)``) and the regression task
(paper 004: ``estimator.start(X_train, targets)``) are two kinds of :class:`Run`, not two code
paths: :meth:`Run.start`, :meth:`Run.step`, :meth:`Run.fit` and :meth:`Run.status` are the same.

The domain rules the app needs before it starts a run live here too, free of Qt:

* :data:`DATA_LIMITS` and :func:`fit_to_data`: size parameters whose largest value depends on
  the data (k < min(n_samples, n_features); at most n_features non-zero loadings) are lowered
  for small data (2-D toy points) instead of refused, and a word a number parameter accepts
  (Outlier Pursuit's and CRPCA-OM's γ = "scale", :attr:`core.params.ParamSpec.auto`) is
  resolved to its number for the data's shape (:func:`resolve_auto`, :func:`as_wanted`);
* :func:`is_classifier`, :func:`accepts_missing`, :func:`missing_variant` and
  :func:`plan_method`: whether a regression method can run on given data (a classifier needs
  class labels; a method without missing-data support is switched to its variant that learns
  from the observed entries only, paper 004 §2.7 — D. Huang, R. Cabral, F. De la Torre, Robust
  Regression, IEEE TPAMI, 2016).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np
from sklearn.utils import get_tags

from .. import catalogue, convergence
from ..errors import ParameterError, SolverError
from .history import History, STATE_BYTES_BUDGET
from .spec import solver_input

__all__ = ["Run", "TASKS", "SUBSPACE", "REGRESSION", "DATA_LIMITS", "data_limits", "fit_to_data",
           "validated", "resolve_auto", "as_wanted", "is_classifier", "accepts_missing", "missing_variant",
           "plan_method", "training_targets"]

SUBSPACE, REGRESSION = "subspace", "regression"
TASKS = (SUBSPACE, REGRESSION)
#: the parameters that seed a method's random draws, by the field's names
SEED_NAMES = ("random_state", "seed")

#: Size parameters whose largest allowed value depends on the data, as functions of
#: (n_samples, n_features) — the checks core's ``start`` makes.
DATA_LIMITS: Mapping[str, Callable[[int, int], int]] = {
    "n_components": lambda n, d: max(min(n, d) - 1, 1),
    "k_nonzero": lambda n, d: d,
}


def data_limits(shape: tuple[int, int] | None) -> dict[str, int]:
    """Largest value of each size parameter of :data:`DATA_LIMITS` for data of ``shape``
    (n_samples, n_features); ``{}`` without data."""
    if shape is None:
        return {}
    n, d = int(shape[0]), int(shape[1])
    return {name: f(n, d) for name, f in DATA_LIMITS.items()}


def fit_to_data(info, wanted: Mapping[str, Any], shape: tuple[int, int] | None) -> dict:
    """``wanted`` with every integer size parameter of ``info`` lowered to what data of ``shape``
    allow (never below the parameter's own lower bound) and every word resolved
    (:func:`resolve_auto`). Other values are unchanged."""
    limits = data_limits(shape)
    out = dict(wanted)
    for spec in info.params:
        if spec.kind == "int" and spec.name in limits and spec.name in out:
            hi = limits[spec.name]
            if spec.low is not None:
                hi = max(hi, int(spec.low))
            out[spec.name] = min(int(out[spec.name]), hi)
    return resolve_auto(info, out, shape)


def resolve_auto(info, params: Mapping[str, Any], shape: tuple[int, int] | None) -> dict:
    """``params`` with each parameter given as its spec's word (γ = "scale") replaced by the
    number it stands for on data of ``shape`` (:meth:`core.params.ParamSpec.resolved`): the
    number the run uses, shown in the controls. Unchanged without data (the estimator resolves
    the word when it starts)."""
    out = dict(params)
    if shape is not None:
        for spec in info.params:
            if spec.auto is not None and spec.name in out:
                out[spec.name] = spec.resolved(out[spec.name], shape)
    return out


def as_wanted(info, params: Mapping[str, Any], shape: tuple[int, int] | None) -> dict:
    """``params`` as the user's choice: a number equal to what its spec's word gives on data of
    ``shape`` is the word again (the controls send back the resolved γ they show; kept as
    "scale", it is resolved afresh for data of another shape). Unchanged without data."""
    out = dict(params)
    if shape is not None:
        for spec in info.params:
            if spec.auto is not None and spec.name in out and not isinstance(out[spec.name], str) \
                    and out[spec.name] == spec.resolved(spec.auto, shape):
                out[spec.name] = spec.auto
    return out


def validated(info, params: Mapping[str, Any]) -> dict:
    """Every parameter of ``info`` (defaults filled in; a former name read as today's,
    :meth:`core.params.MethodInfo.current`; names it does not have dropped), each checked by its
    ParamSpec (ParameterError naming the parameter)."""
    values = info.defaults()
    values.update({k: v for k, v in info.current(params).items() if k in values})
    return {s.name: s.validate(values[s.name]) for s in info.params}


# ---------------------------------------------------------------------------- regression rules
def is_classifier(method) -> bool:
    """The method (a catalogue entry, an estimator or its class) takes class labels as targets
    (RLDA, LDA): it needs labelled data."""
    cls = getattr(method, "estimator", method)   # (a catalogue entry, an estimator or its class)
    cls = cls if isinstance(cls, type) else type(cls)
    return bool(getattr(cls, "_classifier", False))   # (only regression estimators declare it)


def accepts_missing(info) -> bool:
    """The method learns from inputs with missing entries (NaN): scikit-learn's ``allow_nan`` tag."""
    return bool(get_tags(info.create()).input_tags.allow_nan)


def missing_variant(info):
    """The catalogue entry of the variant of ``info`` that learns from the observed entries
    only (RR → RR-Missing, RLDA → RLDA-Missing: the subclass that accepts missing entries and
    classifies as ``info`` does), or None."""
    for other in catalogue.methods(info.task):
        if other.key != info.key and issubclass(other.estimator, info.estimator) \
                and accepts_missing(other) and is_classifier(other) == is_classifier(info):
            return other
    return None


def plan_method(info, data) -> tuple[str, str, str]:
    """Whether the regression method ``info`` can run on ``data`` (a RegressionData):
    ``("ok", key, "")``, ``("switch", other key, note)`` (to its missing-data variant) or
    ``("refuse", "", message)`` (a classifier on numeric targets; missing entries and no variant)."""
    if data is None:
        return "ok", info.key, ""
    missing = int(np.isnan(np.asarray(data.X)).sum())
    if is_classifier(info) and not data.is_classification:
        return ("refuse", "", f"{info.name} is a classifier: it needs class labels (the digits, or a folder "
                f"with one subfolder per class), but this data has numeric targets "
                f"({', '.join(data.target_names[:3])}). Choose RR or a regression baseline.")
    if missing and not accepts_missing(info):
        other = missing_variant(info)
        if other is not None:
            return ("switch", other.key, f"{info.name} needs complete inputs and the data has {missing} missing "
                    f"entries: switched to {other.name} (the same model learnt from the observed entries "
                    "only, paper 004 §2.7).")
        return ("refuse", "", f"{info.name} needs complete inputs, but the data has {missing} missing entries "
                "(NaN). Choose RR-Missing or RLDA-Missing, which learn from the observed entries only.")
    return "ok", info.key, ""


def regressor_for(data, default: str = "rr"):
    """The regression method for ``data`` with numeric targets when a classifier was chosen:
    ``default`` (RR), or its missing-data variant when the inputs have missing entries."""
    info = catalogue.get(default)
    if np.isnan(np.asarray(data.X)).any():
        info = missing_variant(info) or info
    return info


def training_targets(method, data):
    """What ``start`` takes as targets: class labels for classifiers (RLDA, LDA), the target
    matrix Y otherwise (for labelled data the 0/1 class indicators, so that RR or a regression
    baseline can be compared with RLDA on the same digits)."""
    return data.targets_train if is_classifier(method) else data.Y_train


# ---------------------------------------------------------------------------- the run
@dataclass
class Run:
    """One method on the session's data.

    Attributes
    ----------
    method : catalogue key (its task, ``"subspace"`` or ``"regression"``, is the catalogue's).
    params : every parameter of the method (validated; defaults filled in).
    history : the states so far (see :class:`~core.session.history.History`).
    error : why the last start/step failed ("" if it did not); ``diverged`` when that was a
        :class:`SolverError` (the states are kept up to the last good iteration).
    saved_iteration : how far the run had got when it was saved (:meth:`from_dict`; -1 for a
        new run or one never started): a reopened run is stepped there again. Until it starts,
        :meth:`to_dict` writes it back, so a session opened and saved again loses nothing.
    """

    method: str
    params: dict = field(default_factory=dict)
    history: History = field(default_factory=History, repr=False, compare=False)
    error: str = ""
    diverged: bool = False
    saved_iteration: int = field(default=-1, compare=False)
    # the estimator of the run, once started (None before): what steps it and judges its states
    _est: Any = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self):
        self.params = validated(self.info, self.params)

    # ------------------------------------------------------------------ what it is
    @property
    def info(self):
        return catalogue.get(self.method)

    @property
    def task(self) -> str:
        return self.info.task

    @property
    def seed(self) -> int | None:
        """The value of the method's seed parameter (``random_state``), or None if it has none."""
        return next((self.params[n] for n in SEED_NAMES if n in self.params), None)

    def estimator(self):
        """A fresh estimator with :attr:`params` (immutable once a run has started from it)."""
        return self.info.create(**self.params)

    def with_params(self, **changes: Any) -> "Run":
        """A new run of the same method with ``changes`` over :attr:`params` (ParameterError if invalid)."""
        return Run(self.method, {**self.params, **changes}, self.history.like())

    @property
    def states(self) -> list:
        return self.history.states

    @property
    def iteration(self) -> int:
        return self.history.last.iteration if self.history.states else -1

    # ------------------------------------------------------------------ stepping
    @staticmethod
    def start_state(estimator, info, data):
        """Iteration 0 of ``estimator`` on ``data``: ``start(X)`` for the subspace task (a
        :class:`~core.corruption.Corrupted`), ``start(X_train, targets)`` for regression (a
        :class:`~core.regression.data.RegressionData`)."""
        if info.task == REGRESSION:
            return estimator.start(data.X_train, training_targets(info, data))
        return estimator.start(solver_input(estimator, data.X))

    def start(self, data, estimator=None):
        """Start on ``data`` (the history restarts at iteration 0); returns that state.
        Raises core's ParameterError / DataError / SolverError (also recorded in :attr:`error`)."""
        est = estimator if estimator is not None else self.estimator()
        self.history.clear()
        self.history.data = data
        self._est = est
        try:
            state = self.start_state(est, self.info, data)
        except Exception as exc:
            self._failed(exc)
            raise
        self.error, self.diverged = "", False
        self.history.start(state)
        return state

    def step(self, n: int = 1):
        """``n`` more iterations from the newest state (fewer if the stopping rule is met);
        returns the newest state. A SolverError ends the run at its last good state."""
        est = self._estimator_in_use()
        for _ in range(int(n)):
            state = self.history.last
            try:
                new = est.step(state)
            except Exception as exc:
                self._failed(exc)
                raise
            if new.iteration <= state.iteration:
                break                   # solved in closed form: nothing left to iterate
            self.history.append(new)
        return self.history.last

    def fit(self, data, max_steps: int | None = None):
        """Start and step until the method's stopping rule (or ``max_steps`` more iterations)."""
        self.start(data)
        est = self._estimator_in_use()
        steps = 0
        while not est.finished(self.history.last) and (max_steps is None or steps < max_steps):
            before = self.iteration
            self.step(1)
            if self.iteration == before:
                break
            steps += 1
        return self.history.last

    def record_start(self, state, estimator) -> None:
        """A caller that started the estimator itself (a worker thread) records iteration 0."""
        self._est = estimator
        self.error, self.diverged = "", False
        self.history.start(state)

    def record_step(self, state) -> None:
        """A caller that stepped the estimator itself records one more state."""
        self.history.append(state)

    def record_failure(self, message: str, diverged: bool) -> None:
        self.error, self.diverged = message, bool(diverged) and bool(self.history.states)

    def _failed(self, exc: BaseException) -> None:
        self.record_failure(str(exc), isinstance(exc, SolverError))

    def _estimator_in_use(self):
        est = self._est
        if est is None or not self.history.states:
            raise ParameterError(f"{self.info.name}: start the run on data before stepping it")
        return est

    # ------------------------------------------------------------------ status
    @property
    def finished(self) -> bool:
        est = self._est
        return bool(self.history.states) and est is not None and est.finished(self.history.last)

    def status(self, estimator=None) -> tuple[str, str]:
        """``(kind, text)``: kind one of :mod:`core.convergence`'s ``"converged"``,
        ``"max_iter"``, ``"diverged"``, ``"running"`` (``""`` before the first state), and the
        sentence of :func:`core.convergence.describe`. A converged run stepped on further stays
        at its fixed point: the iteration reported is the first at which the rule was met."""
        if not self.history.states:
            return "", ""
        if self.diverged:
            return convergence.DIVERGED, self.error
        est = estimator if estimator is not None else self._est or self.estimator()
        last = self.history.last
        kind = est.status(last)
        at = next((s.iteration for s in self.history.states if s.converged), last.iteration) \
            if kind == convergence.CONVERGED else last.iteration
        text = convergence.describe(kind, at, est.iteration_cap())
        note = est.note(last) if hasattr(est, "note") else ""
        return kind, f"{text}; {note}" if note else text

    # ------------------------------------------------------------------ plain data
    def to_dict(self) -> dict:
        """Method, parameters and how far the run got (the states themselves are not saved: the
        same data, parameters and seed reproduce them)."""
        from .spec import plain
        kind, _ = self.status() if self.history.states else ("", "")
        iteration = self.iteration if self.history.states else self.saved_iteration
        return {"method": self.method, "task": self.task, "params": plain(self.params),
                "iteration": iteration, "status": kind}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], budget: int = STATE_BYTES_BUDGET) -> "Run":
        """The run :meth:`to_dict` described: its method and parameters (validated:
        ParameterError names a bad one), no states yet, :attr:`saved_iteration` the iteration
        it had reached."""
        return cls(d["method"], dict(d.get("params") or {}), History(budget),
                   saved_iteration=int(d.get("iteration", -1)))
