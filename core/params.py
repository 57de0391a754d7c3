"""Parameter specs and the estimators' parameter base: the bottom layer of the core.

:class:`ParamSpec` describes one hyperparameter (symbol, type, range, default, scale, meaning);
:class:`HasParams` checks a set of them; :class:`EstimatorParams` is the base of every estimator
(scikit-learn's ``BaseEstimator``, checked against its catalogue entry); :func:`register` attaches
a method's :class:`MethodInfo` to its estimator class. The catalogue (:mod:`core.catalogue`) lists
the estimators explicitly; nothing is registered by importing a module.

Parameter checks live here (:meth:`ParamSpec.validate`), so that the app and a script refuse the
same impossible values with the same message.

Names: a parameter keeps one name for one concept everywhere (core, app, docs), scikit-learn's name
where it has one (``n_components``, ``max_iter``, ``tol``, ``alpha``, ``random_state``) and the
paper's symbol otherwise (``p``, ``gamma`` for γ, ``lam`` for λ). The ParamSpec's ``symbol`` is the
label the app shows; two parameters of one method never share it (``k`` is the number of
components, ``nnz`` the number of non-zero loadings).

Seeds, the one rule:

* an estimator's seed is its ``random_state`` keyword (scikit-learn's estimator convention, which
  ``check_estimator`` relies on), an int >= 0, labelled "seed" in the app; as in scikit-learn it
  may also be None, a :class:`numpy.random.RandomState` or a :class:`numpy.random.Generator`,
  which give a fresh int seed at each run (:func:`seed_from`). Every estimator that draws random
  numbers (random starts, initialisations, perturbations, subsets) takes it, and no estimator
  takes ``seed``;
* a data draw takes ``seed``, the int >= 0 given to ``numpy.random.default_rng``: the corruptions
  (:mod:`core.corruption`), the toy data sets (:mod:`core.toys`), the regression data splits and
  subsamples (:mod:`core.regression.data`).
"""
from __future__ import annotations

import inspect
import math
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils import check_random_state

from .errors import ParameterError


@dataclass(frozen=True)
class ParamSpec:
    """Specification of one hyperparameter.

    Attributes
    ----------
    name : keyword argument of the estimator (``"p"``, ``"n_components"``, ...).
    symbol : what the papers write (``"p"``, ``"k"``, ``"γ"``, ``"λ"``).
    kind : ``"float"``, ``"int"``, ``"choice"`` or ``"bool"``.
    default : default value.
    low, high : bounds (``None`` = unbounded); ``low_open`` / ``high_open`` exclude the bound.
    scale : ``"linear"`` or ``"log"`` (how a slider should map its range).
    choices : allowed values for ``kind == "choice"``.
    doc : a one-line meaning, shown as a tooltip.
    slider : range ``(lo, hi)`` a slider should offer when the bounds are open-ended.
    auto : a word a number parameter also accepts (or None), resolved from the data's shape when
        the run starts (scikit-learn's ``SVC(gamma="scale")``): ``resolve(n_samples, n_features)``
        gives the number (:meth:`resolved`). Outlier Pursuit's and CRPCA-OM's ``gamma="scale"``.
    """

    name: str
    symbol: str
    kind: str
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    high_open: bool = False
    scale: str = "linear"
    choices: tuple = ()
    slider: tuple[float, float] | None = None
    auto: str | None = None
    resolve: Callable[[int, int], float] | None = field(default=None, compare=False, repr=False)

    def resolved(self, value: Any, shape: tuple[int, int]) -> Any:
        """``value``, or the number the word :attr:`auto` stands for on data of ``shape``
        (n_samples, n_features)."""
        if self.auto is not None and isinstance(value, str) and value == self.auto:
            assert self.resolve is not None, f"{self.name}: auto={self.auto!r} needs resolve"
            return float(self.resolve(int(shape[0]), int(shape[1])))
        return value

    def range_text(self) -> str:
        """The allowed values as a reader says them: "in (0, 1]", "≥ 1", "> 0", "one of 'a', 'b'"
        ("any value" for an unbounded number; never "inf")."""
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind == "bool":
            return "True or False"
        if self.low is None and self.high is None:
            return "any value"
        if self.high is None:
            return f"{'>' if self.low_open else '≥'} {self.low:g}"
        if self.low is None:
            return f"{'<' if self.high_open else '≤'} {self.high:g}"
        left = "(" if self.low_open else "["
        right = ")" if self.high_open else "]"
        return f"in {left}{self.low:g}, {self.high:g}{right}"

    def _bounds(self) -> str:
        text = self.range_text()
        return "" if text == "any value" else " " + text

    def validate(self, value: Any) -> Any:
        """Return ``value`` (converted to the spec's type) or raise :class:`ParameterError`."""
        if self.kind == "choice":
            if value not in self.choices:
                raise ParameterError(f"{self.name} must be {self.range_text()}, got {value!r}")
            return value
        if self.kind == "bool":
            if not isinstance(value, (bool, int)) or value not in (0, 1):
                raise ParameterError(f"{self.name} must be True or False, got {value!r}")
            return bool(value)
        auto = "" if self.auto is None else f" or {self.auto!r}"
        if auto and isinstance(value, str):
            if value == self.auto:
                return value
            label = self.name if self.symbol == self.name else f"{self.name} ({self.symbol})"
            raise ParameterError(f"{label} must be a number{self._bounds()}{auto}, got {value!r}")
        num: float
        if self.kind == "int":
            # an integer parameter takes integers only (Python's or numpy's): 50.0, inf, "5" and
            # True are refused, and a huge one (10**400) is compared as an integer, never floated
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise ParameterError(f"{self.name} must be an integer{self._bounds()}, got {_short(value)}")
            num = int(value)
            if not -2 ** 63 <= num < 2 ** 63:       # what numpy and the solvers can hold
                raise ParameterError(f"{self.name} must be an integer{self._bounds()} (and below 2**63), "
                                     f"got {_short(value)}")
        else:
            try:
                if isinstance(value, (bool, np.bool_, str, bytes)):   # "1.5" is text, not a number
                    raise TypeError
                num = float(value)
            except (TypeError, ValueError):
                raise ParameterError(f"{self.name} must be a number{self._bounds()}{auto}, "
                                     f"got {_short(value)}") from None
            except OverflowError:                     # an integer beyond float's range (10**400)
                num = math.inf
            if not math.isfinite(num):
                raise ParameterError(f"{self.name} must be finite, got {_short(value)}")
        bad_low = self.low is not None and (num <= self.low if self.low_open else num < self.low)
        bad_high = self.high is not None and (num >= self.high if self.high_open else num > self.high)
        if bad_low or bad_high:
            label = self.name if self.symbol == self.name else f"{self.name} ({self.symbol})"
            raise ParameterError(f"{label} must be {self.range_text()}, got {_short(value)}")
        return num


def _short(value: Any) -> str:
    """``repr(value)`` cut to 60 characters (a 400-digit integer is not worth printing)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + f"... ({len(text)} characters)"


class HasParams:
    """Mixin for registry entries with ``name`` and ``params`` (a tuple of :class:`ParamSpec`)."""

    name: str
    params: tuple[ParamSpec, ...]

    def defaults(self) -> dict[str, Any]:
        """``{parameter name: default}``."""
        return {s.name: s.default for s in self.params}

    def spec(self, name: str) -> ParamSpec:
        """The spec of parameter ``name``; KeyError if there is none."""
        for s in self.params:
            if s.name == name:
                return s
        raise KeyError(f"{self.name} has no parameter {name!r}")

    def validate(self, **params: Any) -> dict[str, Any]:
        """The defaults overridden by ``params``, each checked by its spec.

        Raises ParameterError for an unknown name or an out-of-range value (naming it)."""
        values = self.defaults()
        unknown = sorted(set(params) - set(values))
        if unknown:
            raise ParameterError(f"{self.name} has no parameter(s) {', '.join(unknown)}; "
                                 f"its parameters: {', '.join(values) or 'none'}")
        values.update(params)
        return {s.name: s.validate(values[s.name]) for s in self.params}


def seed_from(random_state: Any) -> Any:
    """The int seed of an estimator's ``random_state``, as scikit-learn takes it: an int is
    itself (checked against the catalogue's range like any parameter); None (numpy's global
    generator), a :class:`numpy.random.RandomState` or a :class:`numpy.random.Generator` gives a
    fresh draw in [0, 2³¹ − 1), so that each run differs, as in scikit-learn (through
    :func:`sklearn.utils.check_random_state`, which does not take a Generator: one is drawn from
    directly). Anything else is returned unchanged, for the catalogue's check to refuse."""
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2 ** 31 - 1))
    if random_state is None or isinstance(random_state, np.random.RandomState):
        return int(check_random_state(random_state).randint(2 ** 31 - 1))
    return random_state


class EstimatorParams(BaseEstimator):
    """Base of every estimator: scikit-learn's :class:`~sklearn.base.BaseEstimator` (parameters
    are the constructor's keywords, stored unchanged under the same names; ``get_params``,
    ``set_params``, ``clone`` and ``repr`` as in scikit-learn), with the parameters checked
    against the estimator's catalogue entry (:meth:`_validated_params`).

    Used by :class:`core.base.SteppableEstimator` and
    :class:`core.regression._base.RegressionEstimator`.
    """

    _info: "MethodInfo | None" = None  # set by :func:`register`

    @classmethod
    def _param_names(cls) -> list[str]:
        """The constructor's keywords in signature order (``get_params`` sorts them)."""
        sig = inspect.signature(cls.__init__)
        return [n for n, p in sig.parameters.items()
                if n != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def set_params(self, **params: Any):
        """Set parameters by name; :class:`ParameterError` (a ValueError) for an unknown name."""
        valid = set(self._param_names())
        for name in params:
            if name not in valid:
                raise ParameterError(f"{type(self).__name__} has no parameter {name!r}; "
                                     f"its parameters: {', '.join(sorted(valid))}")
        return super().set_params(**params)

    @property
    def name(self) -> str:
        return self._info.name if self._info is not None else type(self).__name__

    def _catalogue_params(self) -> dict[str, Any]:
        """The hyperparameters as the catalogue spells them: ``get_params()``, for a subclass to
        translate a value it stores unchanged but the catalogue writes otherwise (without
        changing the estimator)."""
        return self.get_params()

    def _validated_params(self) -> dict[str, Any]:
        """Check every hyperparameter against the catalogue; raise ParameterError naming the first
        bad one. ``random_state`` comes back as an int seed (:func:`seed_from`: a fresh draw for
        None, a RandomState or a Generator)."""
        params = self._catalogue_params()
        if "random_state" in params:
            params["random_state"] = seed_from(params["random_state"])
        if self._info is None:
            return params
        return self._info.validate(**params)


@dataclass(frozen=True)
class MethodInfo(HasParams):
    """A catalogue entry: everything the app needs to offer a method."""

    key: str
    name: str
    family: str
    reference: str
    summary: str
    params: tuple[ParamSpec, ...]
    estimator: type = field(repr=False)
    task: str = "subspace"
    #: "" if the method's objective never increases; else one line on why its curve rises or
    #: zigzags by design (the objective chart shows it under the curve, so that a rise is not
    #: read as a failure)
    objective_note: str = ""
    #: former parameter names → today's (``{"lam": "lam_scale"}``): what sessions, lessons and
    #: scripts written before a rename still say (:meth:`current`). A former name is accepted
    #: with a DeprecationWarning until 1.0, then refused as any unknown name.
    renamed: Mapping[str, str] = field(default_factory=dict, compare=False)

    def current(self, params: Mapping[str, Any]) -> dict[str, Any]:
        """``params`` with each former name (:attr:`renamed`) replaced by today's, and a
        DeprecationWarning naming both; other names unchanged (not checked here).

        Raises ParameterError when a former name and today's are both given."""
        out = dict(params)
        for old, new in self.renamed.items():
            if old in out:
                if new in out:
                    raise ParameterError(f"{self.name}: {old} is the former name of {new}; give {new} only")
                warnings.warn(f"{self.name}: the parameter {old!r} is now {new!r} (the old name goes in 1.0)",
                              DeprecationWarning, stacklevel=3)
                out[new] = out.pop(old)
        return out

    def create(self, **params: Any):
        """Build the estimator with the defaults overridden by ``params`` (former names accepted:
        :meth:`current`).

        Unknown names raise ParameterError now; values are checked when the run starts
        (``start``/``fit``), as scikit-learn does, so that a script can set them freely first."""
        params = self.current(params)
        values = self.defaults()
        unknown = set(params) - set(values)
        if unknown:
            raise ParameterError(f"{self.name} has no parameter(s) {sorted(unknown)}")
        values.update(params)
        return self.estimator(**values)



TASKS = ("subspace", "regression")


def register(*, key: str, name: str, family: str, reference: str, summary: str,
             params: Sequence[ParamSpec], task: str = "subspace",
             objective_note: str = "", renamed: Mapping[str, str] | None = None) -> Callable[[type], type]:
    """Class decorator attaching a method's catalogue entry (:class:`MethodInfo`) to its
    estimator as ``_info``; :mod:`core.catalogue` lists the estimators explicitly.

    The estimator's constructor keywords must be exactly the names of ``params``. ``task`` is
    ``"subspace"`` (learns from X alone: ``start(X)``; shown in the method columns) or
    ``"regression"`` (learns X → targets: ``start(X, Y)``; shown in the regression workspace).
    ``objective_note``: for a method whose objective is not monotone by design, one line saying
    why (see :attr:`MethodInfo.objective_note`); "" otherwise. ``renamed``: former parameter
    names → today's, still read from sessions and lessons (:meth:`MethodInfo.current`).
    """
    if task not in TASKS:
        raise ValueError(f"task must be one of {TASKS}, got {task!r}")

    def deco(cls: Any) -> Any:               # an estimator class: gets its catalogue entry
        cls._info = MethodInfo(key=key, name=name, family=family, reference=reference,
                               summary=summary, params=tuple(params), estimator=cls, task=task,
                               objective_note=objective_note, renamed=dict(renamed or {}))
        return cls

    return deco


