"""A session: the data, its corruption and the runs on them, free of Qt.

The app's window, columns and workspaces observe a :class:`Session` and hold no data, numerics
or domain rules of their own; a script builds the same session and gets the same arrays. The
subspace task (one run per method column, on :attr:`Session.data` corrupted by
:attr:`Session.corruption`) and the regression task (paper 004: runs on the
:class:`~core.session.choice.DataChoice` :attr:`Session.regression`) are two kinds of
:class:`~core.session.run.Run` in one session.

A session serialises to plain data (:meth:`Session.to_dict`, JSON-ready, with
:data:`FORMAT_VERSION`); the states themselves are not saved: the same specs, parameters and
seeds reproduce them.

Observers (the app) subscribe with :meth:`Session.subscribe`; every change calls them with
the name of what changed (``"data"``, ``"corruption"``, ``"regression"``, ``"runs"``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from ..errors import ParameterError
from .choice import DataChoice, build as build_regression
from .run import REGRESSION, SUBSPACE, Run
from .spec import CorruptionSpec, DataSpec, prepare

__all__ = ["Session", "FORMAT_VERSION"]


def _flag(value, name: str) -> bool:
    """A session file's true/false entry; anything else is refused (ParameterError naming it)."""
    if not isinstance(value, bool):
        raise ParameterError(f"session entry {name!r} must be true or false, got {value!r}")
    return value

#: version of :meth:`Session.to_dict`'s format (raise it when the format changes incompatibly)
FORMAT_VERSION = 1


@dataclass
class Session:
    """See the module docstring.

    Attributes
    ----------
    data : where the subspace task's images (or toy points) come from.
    corruption : how those images are corrupted (kind, parameters, seed).
    regression : the regression task's data choice (source, options, corruption, scope).
    runs : the runs, in the order the app shows them (subspace columns, then regression).
    test_cleaning : the regression task's test inputs are cleaned against the cleaned training
        inputs before the regressor is applied (Huang et al. 2016, Alg. 2; the app's
        "Test-time cleaning" switch); False: applied as they are.
    """

    data: DataSpec = field(default_factory=DataSpec)
    corruption: CorruptionSpec = field(default_factory=CorruptionSpec)
    regression: DataChoice = field(default_factory=DataChoice)
    runs: list[Run] = field(default_factory=list)
    test_cleaning: bool = False

    def __post_init__(self):
        self._observers: list[Callable[[str], None]] = []

    # ------------------------------------------------------------------ observers
    def subscribe(self, callback: Callable[[str], None]) -> None:
        self._observers.append(callback)

    def _changed(self, what: str) -> None:
        for cb in list(self._observers):
            cb(what)

    # ------------------------------------------------------------------ data
    def set_data(self, spec: DataSpec) -> None:
        self.data = spec
        self._changed("data")

    def set_corruption(self, spec: CorruptionSpec) -> None:
        self.corruption = spec
        self._changed("corruption")

    def set_regression(self, choice: DataChoice) -> None:
        self.regression = choice
        self._changed("regression")

    def set_test_cleaning(self, on: bool) -> None:
        self.test_cleaning = bool(on)
        self._changed("regression")

    def build(self, task: str = SUBSPACE, images=None):
        """The data a run of ``task`` sees: for ``"subspace"`` the loaded and corrupted images (a
        :class:`~core.corruption.Corrupted`; ``images`` reuses loaded ones), for ``"regression"``
        the :class:`~core.regression.data.RegressionData`. Raises core's DataError / ParameterError."""
        if task == REGRESSION:
            return build_regression(self.regression)[0]
        if task != SUBSPACE:
            raise ParameterError(f"task must be 'subspace' or 'regression', got {task!r}")
        return prepare(self.data, self.corruption, images)

    # ------------------------------------------------------------------ runs
    def add_run(self, method: str, params: Mapping[str, Any] | None = None) -> Run:
        run = Run(method, dict(params or {}))
        self.runs.append(run)
        self._changed("runs")
        return run

    def attach(self, run: Run) -> Run:
        """Add an existing run (the app's runner owns one)."""
        if run not in self.runs:
            self.runs.append(run)
            self._changed("runs")
        return run

    def remove_run(self, run: Run) -> None:
        self.runs = [r for r in self.runs if r is not run]
        self._changed("runs")

    def runs_of(self, task: str) -> list[Run]:
        return [r for r in self.runs if r.task == task]

    # ------------------------------------------------------------------ plain data
    def to_dict(self) -> dict:
        return {"format": "robust-subspace-lab session", "version": FORMAT_VERSION,
                "data": self.data.to_dict(), "corruption": self.corruption.to_dict(),
                "regression": self.regression.to_dict(), "test_cleaning": self.test_cleaning,
                "runs": [r.to_dict() for r in self.runs]}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Session":
        version = d.get("version")
        if version != FORMAT_VERSION:
            raise ParameterError(f"session format version {version!r} is not supported "
                                 f"(this version reads {FORMAT_VERSION})")
        return cls(data=DataSpec.from_dict(d.get("data") or {}),
                   corruption=CorruptionSpec.from_dict(d.get("corruption") or {}),
                   regression=DataChoice.from_dict(d.get("regression") or {}),
                   runs=[Run.from_dict(r) for r in d.get("runs") or ()],
                   test_cleaning=_flag(d.get("test_cleaning", False), "test_cleaning"))

    def to_json(self, **kwargs) -> str:
        return json.dumps(self.to_dict(), **kwargs)

    @classmethod
    def from_json(cls, text: str) -> "Session":
        return cls.from_dict(json.loads(text))
