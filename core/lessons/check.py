"""Running a lesson without a window: :func:`check` sets up each step's data and columns, does
its action, and evaluates its claims (:func:`core.lessons.claims.evaluate`), as the app's lesson
panel does live.

The runs are the app's: :class:`core.session.Run` on the data of :func:`core.session.prepare`
(subspace task) or :func:`core.session.choice.build` (regression task), and
:class:`core.playground.Playground` for the playground; each solver runs inside
:data:`core.threads.RUNNING` as the app's solver jobs do (one BLAS thread on data of at most
:data:`core.threads.THREADED_MIN_ENTRIES` entries: on a busy two-core machine the PCA start of
paper 002's Table 4 lesson took 7.4 s with the default threads and 0.6 s with one). A column that cannot start or fails
(bad data, a diverged solver) ends the check with its message (``CheckReport.errors``).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from .. import catalogue
from ..threads import RUNNING
from ..corruption import Corrupted
from ..playground import Playground, default_points
from ..session import CorruptionSpec, DataSpec, Run, fit_to_data, prepare
from ..session.choice import DataChoice, build
from .claims import ClaimResult, evaluate
from .measures import ColumnResult
from .model import Action, Lesson, Setup, Step

__all__ = ["CheckReport", "check", "start_columns", "LiveColumn", "playground_data"]


class LiveColumn:
    """One column of a headless lesson run: :meth:`advance` by an :class:`Action`,
    :meth:`result` for :func:`evaluate`."""

    def __init__(self, task: str, key: str, params: dict, data, run=None, pg: Playground | None = None):
        self.task, self.key, self.params, self.data, self.run, self.pg = task, key, params, data, run, pg

    @property
    def state(self):
        return self.pg.state if self.pg is not None else self.run.history.last

    @property
    def finished(self) -> bool:
        return self.pg.finished if self.pg is not None else self.run.finished

    @property
    def stopped(self) -> str:
        """"converged", "stopped at max_iter" (the stopping rule was not met) or "" (still running)."""
        if not self.finished:
            return ""
        return "converged" if self.state.converged else "stopped at max_iter"

    @property
    def name(self) -> str:
        if self.pg is not None:
            from ..playground import methods
            return methods()[self.key]
        return self.run.info.name

    def advance(self, action: Action) -> None:
        """``action`` on this column: n iterations (fewer when it stops), to its stopping rule, or nothing."""
        if action.kind == "wait":
            return
        with RUNNING.solver(_entries(self.data)):
            if self.pg is not None:
                self.pg.step(action.n) if action.kind == "steps" else self.pg.run()
                return
            todo = action.n if action.kind == "steps" else None
            while not self.run.finished and (todo is None or todo > 0):
                before = self.run.iteration
                self.run.step(1)
                if self.run.iteration == before:      # closed form: nothing left to iterate
                    break
                if todo is not None:
                    todo -= 1

    def result(self) -> ColumnResult:
        return ColumnResult(self.key, dict(self.params), self.state, self.data, self.task)


def _entries(data) -> int:
    """The size of the data a solver runs on (for the BLAS thread policy)."""
    return int(np.asarray(data.X).size)


def _started(run: Run, data) -> Run:
    with RUNNING.solver(_entries(data)):
        run.start(data)
    return run


def playground_data(pg: Playground) -> Corrupted:
    """The playground's points as a :class:`~core.corruption.Corrupted` (n_points, 2), image shape
    (1, 2); the marked outliers are ``outliers`` and ``added`` (they have no clean version)."""
    pts = np.array(pg.points, dtype=float)
    out = np.array(pg.outliers, dtype=bool)
    return Corrupted(X=pts, X_clean=pts, mask=np.zeros(pts.shape, dtype=bool), outliers=out, added=out.copy(),
                     shape=(1, 2), labels=None, description=f"playground: {len(pts)} points, {out.sum()} outliers")


def start_columns(setup: Setup) -> list[LiveColumn]:
    """The data of ``setup`` (already seeded: :meth:`Setup.seeded`) and one started column per
    method. Raises core's DataError / ParameterError / SolverError (file, parameter or method named)."""
    kind, name = setup.source
    params = dict(setup.data_params)
    if setup.task == "playground":
        seed = int(params.pop("seed", 0))
        cols = []
        for key, mparams in setup.methods:
            points, outliers = default_points(seed, **params)
            pg = Playground(points, outliers, method=key, p=mparams.get("p"))
            cols.append(LiveColumn("playground", key, dict(mparams), playground_data(pg), pg=pg))
        return cols
    if setup.task == "regression":
        choice = DataChoice(source=name, options=params, corruption=setup.corruption,
                            corruption_params=dict(setup.corruption_params))
        data, _ = build(choice)
        cols = []
        for key, mparams in setup.methods:
            run = _started(Run(key, dict(mparams)), data)
            cols.append(LiveColumn("regression", key, run.params, data, run=run))
        return cols
    if kind == "toy":
        spec = DataSpec(kind="toy", name=name, options=params)
    else:
        size = params.pop("size", None)
        spec = DataSpec(kind="builtin", name=name, size=tuple(size) if size else None, options=params)
    data = prepare(spec, CorruptionSpec(setup.corruption, dict(setup.corruption_params)))
    cols = []
    for key, mparams in setup.methods:
        info = catalogue.get(key)
        run = _started(Run(key, fit_to_data(info, {**info.defaults(), **mparams}, data.X.shape)), data)
        cols.append(LiveColumn("subspace", key, run.params, data, run=run))
    return cols


@dataclass
class CheckReport:
    """What :func:`check` found.

    Attributes
    ----------
    lesson : the lesson; ``seed`` : the seed its data were drawn with.
    results : per step, ``(step, its ClaimResults)``.
    seconds : wall time of the whole run.
    errors : what stopped the run early (a column that could not start or failed), else empty.
    iterations : per step, ``(method name, iteration, how it stopped)`` of each column after its
        action; how it stopped is "converged", "stopped at max_iter" or "" (still running).
    ok : no error, and every asserted claim holds (declared non-reproducing claims never fail it).
    """

    lesson: Lesson
    seed: int
    results: list[tuple[Step, list[ClaimResult]]] = field(default_factory=list)
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)
    iterations: list[list[tuple[str, int, str]]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors and not any(r.fails for _, rs in self.results for r in rs)

    @property
    def claims(self) -> list[ClaimResult]:
        return [r for _, rs in self.results for r in rs]

    def counts(self) -> tuple[int, int]:
        """(claims as declared, all claims): asserted ones that hold plus declared non-reproducing ones."""
        rs = self.claims
        return sum(1 for r in rs if not r.fails), len(rs)

    def text(self) -> str:
        """The report a person reads: each step, each claim's line, a summary."""
        out = [f"Lesson {self.lesson.key}: {self.lesson.title} (seed {self.seed})"]
        n = len(self.lesson.steps)
        for i, (step, rs) in enumerate(self.results):
            where = self.iterations[i] if i < len(self.iterations) else []
            its = ", ".join(f"{name} {it}" + (f" ({done})" if done else "") for name, it, done in where)
            out.append(f"Step {i + 1}/{n} · {step.title}" + (f"  [iterations: {its}]" if its else ""))
            out.extend("  " + r.line for r in rs)
        out.extend("  error: " + e for e in self.errors)
        good, total = self.counts()
        fails = sum(r.fails for r in self.claims)
        declared = sum(1 for r in self.claims if not r.claim.asserted)
        out.append(f"{good}/{total} claims as declared ({declared} declared as not reproducing), "
                   f"{fails} failed, {self.seconds:.1f} s: {'OK' if self.ok else 'FAILED'}")
        return "\n".join(out)


def check(lesson: Lesson, seed: int | None = None,
          progress: Callable[[str], None] | None = None) -> CheckReport:
    """Run ``lesson`` headless: every step's setup (its random draws seeded by ``seed``, default
    the lesson's own :attr:`~Lesson.seed`), action and claims. ``progress(text)`` is called
    before each step. Returns a :class:`CheckReport`; raises nothing for a failing column (its
    message is in ``errors``), only for a programming error."""
    used = lesson.seed if seed is None else int(seed)
    report = CheckReport(lesson, used)
    t0 = time.perf_counter()
    columns: list[LiveColumn] = []
    for i, step in enumerate(lesson.steps):
        if progress is not None:
            progress(f"step {i + 1}/{len(lesson.steps)}: {step.title}")
        try:
            if step.setup is not None:
                columns = start_columns(step.setup.seeded(used))
            for col in columns:
                col.advance(step.action)
        except Exception as exc:             # core's errors name the file, parameter or method
            report.errors.append(f"step {i + 1} ({step.title}): {type(exc).__name__}: {exc}")
            break
        report.iterations.append([(c.name, int(c.state.iteration), c.stopped) for c in columns])
        report.results.append((step, evaluate(step.claims, [c.result() for c in columns])))
    report.seconds = time.perf_counter() - t0
    return report
