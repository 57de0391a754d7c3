"""The records of a lesson (plain, frozen data) and the :class:`Preset` a setup becomes.

A :class:`Lesson` is a sequence of :class:`Step`; a step may carry a :class:`Setup` (task, data,
corruption, methods: one column per method), an :class:`Action` (step N iterations, run to
convergence, or wait for the user) and :class:`Claim` s checked on the result. The file format
is described in :mod:`core.lessons` (and :mod:`core.lessons.loader`, which builds these).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["LessonFileError", "Preset", "Setup", "Action", "Claim", "Step", "Lesson",
           "TASKS", "ACTIONS", "SOURCES", "EXPECTS", "HOLDS", "DOES_NOT_REPRODUCE"]

#: the workspace a setup opens
TASKS = ("subspace", "regression", "playground")
#: what a step does after its setup: n iterations, run to the stopping rule, or wait for the user
ACTIONS = ("steps", "converge", "wait")
#: who makes a claim: the paper the lesson reproduces, or the lab
SOURCES = ("paper", "ours")
HOLDS, DOES_NOT_REPRODUCE = "holds", "does-not-reproduce"
#: what a lesson says of a claim: asserted (it must hold) or a paper claim shown as not reproducing
EXPECTS = (HOLDS, DOES_NOT_REPRODUCE)


class LessonFileError(ValueError):
    """A lesson file that cannot be used: the message names the file, the line (where known) and
    the field, e.g. ``"lesson.toml, line 14: steps[2].action.kind: expected one of steps, converge,
    wait; got 'run'"``. Attributes ``path``, ``line`` (1-based or None) and ``field`` (dotted
    path, 1-based list positions, or "")."""

    def __init__(self, path: str | Path, line: int | None, field: str, problem: str):
        self.path, self.line, self.field, self.problem = str(path), line, field, problem
        where = str(path) + (f", line {line}" if line else "")
        super().__init__(f"{where}: {field + ': ' if field else ''}{problem}")


@dataclass(frozen=True)
class Preset:
    """One reproducible setting (a paper preset, or the setup of a lesson's step), what the app's
    ``apply_preset`` applies.

    Attributes
    ----------
    key : unique identifier, ``"paper000-fig4"``.
    title : menu text, e.g. ``"Paper 000 · Figs. 4 and 6: ..."``.
    paper : citation of the paper (authors, title, venue, year), or "".
    reproduces : which table/figure/claim of the paper, in words (for lessons: what it teaches).
    task : ``"subspace"`` (method columns), ``"regression"`` (regression workspace) or
        ``"playground"`` (the 2-D playground).
    data : ``("builtin", name)``, ``("toy", key)`` for :mod:`core.toys`, ``("regression", source)``
        with source ``"synthetic"`` or ``"digits"``, or ``("playground", "default")``.
    data_params : keyword arguments of the loader (``{"size": (28, 28)}``), of the toy, of the
        regression data (:data:`core.session.choice.OPTION_SPECS`) or of the playground's points.
    corruption : a key of :data:`core.corruption.CORRUPTIONS` (``"none"`` for clean data;
        ignored for toys, which carry their own outliers).
    corruption_params : its parameters (the seed included).
    methods : ``(catalogue key, parameters)`` per column, left to right (the regression workspace
        runs the first; the playground takes keys of :func:`core.playground.methods`).
    steps : how many iterations to run after applying the preset (``0``: run to convergence).
    note : what to look at, and how our numbers compare with the paper's (one or two sentences).
    """

    key: str
    title: str
    paper: str
    reproduces: str
    task: str
    data: tuple[str, str]
    methods: tuple[tuple[str, dict[str, Any]], ...]
    data_params: dict[str, Any] = field(default_factory=dict)
    corruption: str = "none"
    corruption_params: dict[str, Any] = field(default_factory=dict)
    steps: int = 0
    note: str = ""


@dataclass(frozen=True)
class Setup:
    """What a step puts on screen.

    Attributes
    ----------
    task : one of :data:`TASKS`.
    data : ``"builtin:faces"``, ``"builtin:digits"``, ``"toy:KEY"`` (:data:`core.toys.TOYS`),
        ``"regression:synthetic"``, ``"regression:digits"`` or ``"playground:default"``.
    data_params : the loader's, toy's, regression data's or playground's options.
    corruption, corruption_params : a key of :data:`core.corruption.CORRUPTIONS` and its parameters.
    methods : ``((key, params), ...)``, one column each.
    """

    task: str
    data: str
    data_params: dict = field(default_factory=dict)
    corruption: str = "none"
    corruption_params: dict = field(default_factory=dict)
    methods: tuple[tuple[str, dict], ...] = ()

    @property
    def source(self) -> tuple[str, str]:
        """``data`` split at its colon: ``("builtin", "faces")``."""
        kind, _, name = self.data.partition(":")
        return kind, name

    def seeded(self, seed: int | None) -> "Setup":
        """This setup with every random draw of its data seeded by ``seed``: the corruption's
        seed, a toy's seed (a toy carries its own outliers), the regression data's and the
        playground points' seed, where they have one. ``None``: unchanged."""
        if seed is None:
            return self
        from .. import corruption as _corruption
        cparams = dict(self.corruption_params)
        spec = _corruption.CORRUPTIONS.get(self.corruption)
        if spec is not None and "seed" in spec.defaults():
            cparams["seed"] = int(seed)
        dparams = dict(self.data_params)
        if self.source[0] in ("toy", "regression", "playground") and _has_seed(self):
            dparams["seed"] = int(seed)
        return dataclasses.replace(self, corruption_params=cparams, data_params=dparams)

    def as_preset(self, seed: int | None = None, **fields: Any) -> Preset:
        """The :class:`Preset` of this setup with ``seed`` (:meth:`seeded`), so that the app's
        ``apply_preset`` applies it; ``fields`` give the preset's key, title, paper, reproduces,
        steps and note (default "" and 0)."""
        s = self.seeded(seed)
        base: dict[str, Any] = dict(key="", title="", paper="", reproduces="", steps=0, note="")
        base.update(fields)
        return Preset(task=s.task, data=s.source, methods=tuple((k, dict(p)) for k, p in s.methods),
                      data_params=dict(s.data_params), corruption=s.corruption,
                      corruption_params=dict(s.corruption_params), **base)


def _has_seed(setup: Setup) -> bool:
    kind, name = setup.source
    if kind == "toy":
        from .. import toys
        spec = toys.TOYS.get(name)
        return spec is not None and "seed" in spec.defaults()
    return kind in ("regression", "playground")


@dataclass(frozen=True)
class Action:
    """What a step does: ``kind`` ``"steps"`` (``n`` iterations of every column, fewer if one
    stops), ``"converge"`` (every column to its stopping rule: converged or ``max_iter``) or
    ``"wait"`` (the user acts, e.g. drags a point; a headless check does nothing)."""

    kind: str = "wait"
    n: int = 0


@dataclass(frozen=True)
class Claim:
    """A checkable statement about the live result.

    Attributes
    ----------
    text : the statement in words ("PCA-GM's eq. 14 error is below PCA's").
    check : the expression (:mod:`core.lessons.expr`): ``"eq14_error[2] < eq14_error[1]"``.
    source : ``"paper"`` or ``"ours"``.
    expect : ``"holds"`` (asserted: a check fails when it does not hold) or
        ``"does-not-reproduce"`` (a paper's claim our data do not bear out, shown as such).
    reason : one line why it does not reproduce ("" for asserted claims).
    tree : the parsed check (:func:`core.lessons.expr.parse`).
    """

    text: str
    check: str
    source: str = "ours"
    expect: str = HOLDS
    reason: str = ""
    tree: tuple = field(default=(), compare=False, repr=False)

    @property
    def asserted(self) -> bool:
        return self.expect == HOLDS


@dataclass(frozen=True)
class Step:
    """One step of a lesson: ``title``, ``text`` (a few sentences, Unicode formulas), ``setup``
    (None: keep the previous step's setup and results), ``action``, ``look_at`` (a view key to
    highlight, or None) and ``claims``."""

    title: str
    text: str
    setup: Setup | None
    action: Action
    look_at: str | None = None
    claims: tuple[Claim, ...] = ()


@dataclass(frozen=True)
class Lesson:
    """A lesson: ``key`` (unique; the CLI and menus use it), ``title``, ``concept`` (the Lessons
    menu groups by it; paper presets use ``"Papers"``), ``teaches`` (one line), ``paper`` (citation
    or ""), ``seed`` (default seed of its random draws: see :meth:`Setup.seeded`), ``steps`` and
    ``path`` (the file it was read from)."""

    key: str
    title: str
    concept: str
    teaches: str
    paper: str
    seed: int
    steps: tuple[Step, ...]
    path: str = ""

    def setup_at(self, index: int) -> Setup:
        """The setup in force at step ``index`` (0-based): its own or the last earlier one."""
        for step in reversed(self.steps[: index + 1]):
            if step.setup is not None:
                return step.setup
        raise IndexError(f"step {index + 1} of lesson {self.key!r} has no setup before it")

    def preset(self, index: int = 0, seed: int | None = None) -> Preset:
        """Step ``index``'s setup as a :class:`Preset` (key and title of the lesson, the step's
        text as note, iterations from its action), drawn with ``seed`` (default: the lesson's)."""
        step = self.steps[index]
        n = step.action.n if step.action.kind == "steps" else 0
        return self.setup_at(index).as_preset(self.seed if seed is None else seed, key=self.key, title=self.title,
                                              paper=self.paper, reproduces=self.teaches, steps=n,
                                              note=" ".join(step.text.split()))
