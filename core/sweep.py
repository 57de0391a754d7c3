"""Parameter sweeps: methods × a grid of parameter values × seeds, on one data set and corruption,
run in worker processes on this machine or on a Dask distributed cluster.

A :class:`Sweep` is plain data (a :class:`~core.session.spec.DataSpec`, a
:class:`~core.session.spec.CorruptionSpec`, one :class:`MethodGrid` per method, the number of
seeds and a base seed). :meth:`Sweep.tasks` expands it into :class:`Task` values, one per
(method, parameter values, seed); :func:`run_task` turns one task into one result row (a pure
function of the task: it loads the data, re-draws the corruption with the task's seed, runs the
method to its stopping rule and measures it against the clean truth); :func:`run_sweep` runs the
tasks on an executor and streams the rows back as they finish.

Seeds
    ``numpy.random.SeedSequence(base_seed).spawn(n_seeds)``, each child reduced to one 32-bit
    integer (:func:`spawn_seeds`). A task's seed is the corruption's ``seed`` (the corruption is
    re-drawn per seed; a toy data set is re-drawn instead) and, unless fixed or swept, the
    method's own ``random_state`` / ``seed`` (NMF initialisation, RSPCA restarts), so that the
    spread over seeds covers every random choice of a run.

Executors (one code path)
    Both are :class:`concurrent.futures.Executor`\\ s fed the same :func:`run_task` and the same
    tasks, so the same seeds give the same rows:

    * local, ``n_jobs == 1``: one thread of this process; Cancel also stops the running fit at
      its next :func:`core.interrupt.checkpoint`;
    * local, ``n_jobs > 1``: joblib's loky worker processes (``get_reusable_executor``), BLAS
      limited to ``cpu_count // n_jobs`` threads per worker; Cancel kills the workers;
    * ``dask_address``: ``distributed.Client(address).get_executor()``, the tasks run on that
      cluster's workers (which need this package installed, and a folder data set at the same
      path); Cancel cancels the futures.

    At most ``2 × workers`` tasks are submitted ahead, so Cancel stops submitting at once.

Rows (:func:`run_task`)
    ``method``, each swept parameter by its name, ``seed``, ``n_iter``, ``converged`` (the
    method's stopping rule was met; False when ``max_iter`` ended the run or it diverged),
    ``seconds`` (wall time of the fit), the metrics of :func:`measure` that the method has, and
    ``error`` (empty, or the message of a :class:`~core.errors.SolverError` /
    :class:`~core.errors.DataError` that ended the run; its metric cells are then empty). A metric
    that is undefined is left out of the row (an empty CSV cell), never NaN.

Command line: ``robust-subspace-lab sweep --help`` (:func:`cli`).
"""
from __future__ import annotations

import concurrent.futures as cf
import dataclasses
import functools
import itertools
import json
import math
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from . import catalogue, interrupt, views
from . import toys
from .corruption import Corrupted
from .errors import DataError, ParameterError, SolverError
from .params import ParamSpec
from .session.spec import TOY, CorruptionSpec, DataSpec, prepare
from .sweep_exec import make_executor

__all__ = ["MethodGrid", "Sweep", "Task", "Progress", "spawn_seeds", "run_task", "run_sweep", "measure",
           "replay", "MAX_RUNS", "check_runs", "parse_value", "parse_assignments", "spec_of", "BASE_COLUMNS", "METRIC_NAMES",
           "METRIC_LABELS", "METRIC_RANGES", "metric_label"]

#: the columns every row has, in CSV order (the swept parameters go after ``method``)
BASE_COLUMNS = ("method", "seed", "n_iter", "converged", "seconds")

#: the names of :func:`core.views.snapshot`'s metrics in a sweep's rows (snake_case CSV columns)
METRIC_NAMES: dict[str, str] = {
    "eq. 14 error (000)": "reconstruction_error",
    "Σ‖xʳ−xᵒ‖ (001)": "total_reconstruction_error",
    "weights AUC": "outlier_auc",
    views.ANGLE: "angle_to_clean_pca_deg",
    views.REL_ERROR: "relative_error_pct",
    views.ACC: "acc_pct",
    views.NMI: "nmi",
    views.CAUGHT: "corrupted_px_cut_pct",
    views.PRECISION: "cut_px_corrupted_pct",
}

#: the window's name of each metric column of a sweep's rows (the inverse of :data:`METRIC_NAMES`):
#: the results browser shows a metric under the name the method columns give it
METRIC_LABELS: dict[str, str] = {column: label for label, column in METRIC_NAMES.items()}

#: the range of the metric columns that have one (a plot of them is drawn on it: an AUC on 0–1)
METRIC_RANGES: dict[str, tuple[float, float]] = {
    "outlier_auc": (0.0, 1.0), "nmi": (0.0, 1.0), "acc_pct": (0.0, 100.0),
    "corrupted_px_cut_pct": (0.0, 100.0), "cut_px_corrupted_pct": (0.0, 100.0),
}


def metric_label(column: str) -> str:
    """The window's name of a sweep row's column (``"reconstruction_error"`` → ``"eq. 14 error
    (000)"``); other columns (``n_iter``, a parameter) keep their own."""
    return METRIC_LABELS.get(column, column)


#: the methods' own seed parameters (set to the task's seed unless fixed or swept)
_METHOD_SEEDS = ("random_state",)


# ------------------------------------------------------------------------------------ values
def _key(value: Any) -> str:
    """A hashable, order-independent text form of plain data (cache keys)."""
    return json.dumps(value, sort_keys=True, default=str)


def _plain_value(v: Any) -> Any:
    return v.item() if hasattr(v, "item") else v


def parse_value(spec: ParamSpec, text: str) -> Any:
    """``text`` as a value of ``spec`` (``"0.5"`` → 0.5, ``"true"`` → True, ``"hard"`` → ``"hard"``),
    checked by :meth:`ParamSpec.validate`. Raises ParameterError naming the parameter."""
    t = str(text).strip()
    if spec.kind == "bool":
        low = t.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        raise ParameterError(f"{spec.name} must be true or false, got {text!r}")
    if spec.kind == "choice":
        for c in spec.choices:
            if str(c) == t:
                return c
        raise ParameterError(f"{spec.name} must be {spec.range_text()}, got {text!r}")
    num: float
    if spec.kind == "int":
        try:
            num = int(t)                  # "50.0", "inf", "1e3" are not integers
        except ValueError:
            raise ParameterError(f"{spec.name} must be an integer {spec.range_text()}, got {text[:60]!r}") from None
        return spec.validate(num)
    try:
        num = float(t)
    except ValueError:
        raise ParameterError(f"{spec.name} must be a number {spec.range_text()}, got {text[:60]!r}") from None
    return spec.validate(num)


def spec_of(owner, name: str, what: str) -> ParamSpec:
    try:
        return owner.spec(name)
    except KeyError:
        raise ParameterError(f"{what} has no parameter {name!r}; its parameters: "
                             f"{', '.join(s.name for s in owner.params) or 'none'}") from None


def parse_assignments(text: str, what: str) -> list[tuple[str, str]]:
    """``"a=1,b=x"`` → ``[("a", "1"), ("b", "x")]``; ParameterError for an item without ``=``."""
    out = []
    for item in (t for t in text.split(",") if t.strip()):
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParameterError(f"{what}: expected name=value, got {item.strip()!r}")
        out.append((name.strip(), value.strip()))
    return out


#: the most runs a sweep starts without being told it may (``--max-runs``)
MAX_RUNS = 10_000


def check_runs(n_runs: int, max_runs: int) -> None:
    """ParameterError when ``n_runs`` is over ``max_runs`` (saying how to allow it)."""
    if n_runs > max_runs:
        raise ParameterError(f"the sweep has {n_runs:,} runs, more than the limit of {max_runs:,}; "
                             f"narrow the grid or the seeds, or allow it with --max-runs {n_runs}")


# ------------------------------------------------------------------------------------ the spec
@dataclass(frozen=True)
class MethodGrid:
    """One method of a sweep: its catalogue key, the swept parameters (name → the values, in
    order; every combination is run) and the fixed ones (name → value; the rest take their
    defaults). Values are checked by the method's ParamSpecs (:meth:`validate`)."""

    key: str
    grid: Mapping[str, tuple] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "grid", {str(k): tuple(_plain_value(v) for v in vs)
                                          for k, vs in dict(self.grid).items()})
        object.__setattr__(self, "fixed", {str(k): _plain_value(v) for k, v in dict(self.fixed).items()})

    @property
    def info(self):
        try:
            return catalogue.get(self.key)
        except KeyError as e:
            raise ParameterError(str(e.args[0])) from None

    def validate(self) -> "MethodGrid":
        """Check the key (a subspace method), every swept and fixed value; ParameterError names
        the method and parameter. Returns a copy with the values converted to their types."""
        info = self.info
        if info.task != "subspace":
            raise ParameterError(f"method {self.key!r} is a {info.task} method; sweeps run subspace methods")
        swept, fixed_in = info.current(self.grid), info.current(self.fixed)     # former names read as today's
        both = sorted(set(swept) & set(fixed_in))
        if both:
            raise ParameterError(f"{self.key}: {', '.join(both)} both swept and fixed")
        grid = {}
        for name, values in swept.items():
            spec = spec_of(info, name, self.key)
            if not values:
                raise ParameterError(f"{self.key}: the grid of {name} is empty")
            grid[name] = tuple(spec.validate(v) for v in values)
        fixed = {name: spec_of(info, name, self.key).validate(v) for name, v in fixed_in.items()}
        return MethodGrid(self.key, grid, fixed)

    def points(self) -> list[dict]:
        """Every combination of the swept values (the last parameter varies fastest)."""
        names = list(self.grid)
        return [dict(zip(names, combo)) for combo in itertools.product(*(self.grid[n] for n in names))]


def spawn_seeds(base_seed: int, n_seeds: int) -> list[int]:
    """``n_seeds`` independent seeds from ``numpy.random.SeedSequence(base_seed).spawn``, each
    the first 32-bit word of its child's state (integers in [0, 2³²))."""
    if int(n_seeds) < 1:
        raise ParameterError(f"n_seeds must be at least 1, got {n_seeds!r}")
    if int(base_seed) < 0:
        raise ParameterError(f"base seed must be >= 0, got {base_seed!r}")
    children = np.random.SeedSequence(int(base_seed)).spawn(int(n_seeds))
    return [int(c.generate_state(1, dtype=np.uint32)[0]) for c in children]


@dataclass(frozen=True)
class Task:
    """One run of a sweep: plain data, picklable, the whole input of :func:`run_task`.

    ``index`` orders the rows (methods, then grid points, then seeds, as :meth:`Sweep.tasks`
    lists them); ``swept`` holds the swept parameters' values, ``params`` every parameter the
    estimator is built with (the swept ones, the fixed ones and the seeded ones)."""

    index: int
    method: str
    swept: Mapping[str, Any]
    params: Mapping[str, Any]
    seed: int
    data: DataSpec
    corruption: CorruptionSpec

    def data_for_seed(self) -> tuple[DataSpec, CorruptionSpec]:
        """The data and corruption re-drawn with this task's seed: the corruption's ``seed``, or
        for a toy (which carries its own outliers) the toy's ``seed``."""
        data = self.data
        if data.kind == TOY:
            if "seed" in toys.TOYS[data.name].defaults():
                data = data.with_(options={**dict(data.options), "seed": self.seed})
            return data, self.corruption
        return data, self.corruption.with_seed(self.seed)


@dataclass(frozen=True)
class Sweep:
    """What to run: ``methods`` × their grids × ``n_seeds`` seeds on ``data`` corrupted by
    ``corruption`` (its ``seed`` is replaced per task). See the module notes."""

    data: DataSpec
    corruption: CorruptionSpec
    methods: tuple[MethodGrid, ...]
    n_seeds: int = 3
    base_seed: int = 0

    def __post_init__(self):
        object.__setattr__(self, "methods", tuple(self.methods))

    def validate(self) -> "Sweep":
        """Check everything a run would refuse, before any run: the methods and their values,
        the corruption's key and values, the data's kind (ParameterError, naming the parameter).
        Returns a copy with the values converted to their parameters' types."""
        if not self.methods:
            raise ParameterError("a sweep needs at least one method")
        methods = tuple(m.validate() for m in self.methods)
        keys = [m.key for m in methods]
        if len(set(keys)) != len(keys):
            raise ParameterError(f"a method is listed twice: {', '.join(keys)}")
        if self.data.kind != TOY:
            if self.corruption.info.missing_entries:
                raise ParameterError(f"corruption {self.corruption.key!r} removes entries; "
                                     "the subspace methods cannot use it")
            self.corruption.validated()
        elif self.data.name not in toys.TOYS:
            raise ParameterError(f"unknown toy {self.data.name!r}; known: {', '.join(toys.TOYS)}")
        spawn_seeds(self.base_seed, self.n_seeds)
        return dataclasses.replace(self, methods=methods)

    @property
    def seeds(self) -> list[int]:
        return spawn_seeds(self.base_seed, self.n_seeds)

    @property
    def n_runs(self) -> int:
        """How many runs :meth:`tasks` lists (counted, not listed: a 10⁶-run grid costs nothing)."""
        return int(self.n_seeds) * sum(math.prod(len(v) for v in m.grid.values()) for m in self.methods)

    @property
    def swept_names(self) -> list[str]:
        """The swept parameters' names, in order of first appearance."""
        return list(dict.fromkeys(n for m in self.methods for n in m.grid))

    def tasks(self) -> list[Task]:
        """One :class:`Task` per (method, grid point, seed), in row order."""
        seeds = self.seeds
        out: list = []
        for m in self.methods:
            info = m.info
            names = {s.name for s in info.params}
            for point in m.points():
                for seed in seeds:
                    params = {**m.fixed, **point}
                    for s in _METHOD_SEEDS:
                        if s in names and s not in params:
                            params[s] = seed
                    out.append(Task(len(out), m.key, point, params, seed, self.data, self.corruption))
        return out

    def task_for(self, row: Mapping[str, Any]) -> Task:
        """The task that produced ``row`` (its method, swept values and seed), to recompute it
        (:func:`replay`). KeyError if this sweep has no such task."""
        def same(a, b):
            try:
                return float(a) == float(b)
            except (TypeError, ValueError):
                return str(a) == str(b)
        for t in self.tasks():
            if (t.method == row.get("method") and same(t.seed, row.get("seed"))
                    and all(same(v, row.get(k)) for k, v in t.swept.items())):
                return t
        raise KeyError(f"no run of this sweep matches {dict(row)!r}")

    def to_dict(self) -> dict:
        return {"data": self.data.to_dict(), "corruption": self.corruption.to_dict(),
                "methods": [{"key": m.key, "grid": {k: list(v) for k, v in m.grid.items()},
                             "fixed": dict(m.fixed)} for m in self.methods],
                "n_seeds": self.n_seeds, "base_seed": self.base_seed}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Sweep":
        """The sweep of :meth:`to_dict`'s plain data, validated (:meth:`validate`, at most
        :data:`MAX_RUNS` runs). Raises ParameterError naming what is wrong."""
        try:
            methods = tuple(MethodGrid(m["key"], m.get("grid", {}), m.get("fixed", {})) for m in d["methods"])
            n_seeds, base_seed = d.get("n_seeds", 3), d.get("base_seed", 0)
            data, corruption = DataSpec.from_dict(d["data"]), CorruptionSpec.from_dict(d["corruption"])
        except (KeyError, TypeError, AttributeError, ValueError) as e:
            raise ParameterError(f"not a sweep: {type(e).__name__}: {e}"[:200]) from None
        for name, value, low in (("n_seeds", n_seeds, 1), ("base_seed", base_seed, 0)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value < 2 ** 32:
                raise ParameterError(f"{name} must be an integer in [{low}, 2**32), got {value!r}"[:160])
        sweep = cls(data, corruption, methods, n_seeds, base_seed)
        check_runs(sweep.n_runs, MAX_RUNS)
        return sweep.validate()


# ------------------------------------------------------------------------------------ one run
@functools.lru_cache(maxsize=4)
def _load(data_key: str):
    """The loaded images of a DataSpec (cached per process: the workers of a sweep load once; a
    sweep run in the calling process clears it when it ends: 352 MB for the digits at 96 × 96)."""
    return DataSpec.from_dict(json.loads(data_key)).load()


def _prepared(task: Task) -> Corrupted:
    data, corruption = task.data_for_seed()
    if data.kind == TOY:
        return prepare(data, corruption)
    return prepare(data, corruption, images=_load(_key(data.to_dict())))


def measure(state, data: Corrupted) -> dict[str, float]:
    """The metrics of a finished ``state`` against the clean truth, named as in
    :data:`METRIC_NAMES`: those of :func:`core.views.snapshot` (paper 000's eq. 14 error
    ``reconstruction_error`` and ``outlier_auc`` of the sample weights for the PCA family; the
    relative error, ACC and NMI for NMF). Undefined metrics (None or NaN) are left out."""
    snap = views.snapshot(state, data, clustering=True)
    out = {}
    for name, value in snap.metrics.items():
        if value is None:
            continue
        value = float(value)
        if math.isfinite(value):
            out[METRIC_NAMES.get(name, name)] = value
    return out


def run_task(task: Task) -> dict:
    """Run one task: a pure function of ``task`` (see the module notes for the row's columns).

    Raises :class:`core.interrupt.Cancelled` when run inside :func:`core.interrupt.cancellable`
    and cancelled; a :class:`SolverError` or :class:`DataError` of the run becomes a row with
    ``converged`` False and ``error`` set."""
    info = catalogue.get(task.method)
    row: dict[str, Any] = {"method": task.method, **dict(task.swept), "seed": task.seed}
    est = info.create(**dict(task.params))
    t0 = time.perf_counter()
    state = None
    try:
        data = _prepared(task)
        for state in est.iterate(data.X):
            interrupt.checkpoint()
        assert state is not None                  # iterate yields the start at least
        status = est.status(state)
        row.update(n_iter=int(state.iteration), converged=status == "converged",
                   seconds=time.perf_counter() - t0)
        row.update(measure(state, data))
        row["error"] = ""
    except (SolverError, DataError, ParameterError) as e:
        it = e.iteration if isinstance(e, SolverError) else None
        row.update(n_iter=int(it if it is not None else (state.iteration if state is not None else 0)),
                   converged=False, seconds=time.perf_counter() - t0, error=str(e))
    return row


def replay(task: Task) -> tuple[Corrupted, list]:
    """Recompute a run step by step (its data re-drawn from its seed): ``(data, states)`` with
    every :class:`~core.base.State` from iteration 0 to the end, as the app's columns keep them.
    Raises what the run raises (SolverError, DataError)."""
    info = catalogue.get(task.method)
    data = _prepared(task)
    return data, list(info.create(**dict(task.params)).iterate(data.X))


# ------------------------------------------------------------------------------------ running
class Progress:
    """Count done and an estimate of the time left: the elapsed time per finished run so far
    times the runs left (runs finish in parallel, and the observed rate already includes that)."""

    def __init__(self, total: int, clock: Callable[[], float] = time.monotonic):
        self.total, self.done, self._clock = int(total), 0, clock
        self.started = clock()

    def update(self, n: int = 1) -> None:
        self.done += n

    @property
    def elapsed(self) -> float:
        return self._clock() - self.started

    @property
    def seconds_left(self) -> float | None:
        """None before the first run finished."""
        if self.done == 0:
            return None
        return self.elapsed / self.done * (self.total - self.done)

    def text(self) -> str:
        left = self.seconds_left
        eta = "" if left is None else f", about {_duration(left)} left"
        return f"{self.done}/{self.total} runs done{eta}"


def _duration(seconds: float) -> str:
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


def run_sweep(sweep: Sweep, n_jobs: int = 1, dask_address: str | None = None,
              on_result: Callable[[dict], None] | None = None,
              cancel: threading.Event | None = None, poll: float = 0.1,
              give_way: Callable[[threading.Event | None], None] | None = None) -> list[dict]:
    """Run every task of ``sweep`` (validated first: ParameterError before any run) and return
    the rows in task order (:meth:`Sweep.tasks`: deterministic whatever order they finished in).

    Parameters
    ----------
    n_jobs : local worker processes (1: a thread of this process; -1: one per CPU), capped at
        the number of CPUs (:func:`core.sweep_exec.local_jobs`). Ignored with ``dask_address``.
    dask_address : a Dask scheduler's address (``tcp://HOST:PORT``, ``tls://HOST:PORT``): run on
        that cluster (the form is checked; connecting gives up after
        :data:`core.sweep_exec.DASK_CONNECT_SECONDS`).
    on_result : called with each row as it finishes (in the calling thread, in finishing order).
    cancel : when set (from another thread, or by ``on_result``), no more task is submitted,
        the pending ones are dropped and the finished rows so far are returned.
    poll : seconds between looks at ``cancel`` while waiting.
    give_way : with ``n_jobs = 1``, called at the runs' cancel checkpoints
        (:func:`core.interrupt.cancellable`): the app passes one that pauses the run while its
        window's event loop is late, as its own solver threads do.

    Raises ParameterError (a bad sweep, ``n_jobs`` 0, a malformed address, a scheduler that
    cannot be reached or does not answer: the message says which) and whatever a run raises
    besides the errors recorded in its row.
    """
    sweep = sweep.validate()
    tasks = sweep.tasks()
    stop = threading.Event()       # set when the caller cancels, or this function is left early
    # the runs' checkpoints watch ``stop``; ``give_way`` is handed the caller's own event
    gw = None if give_way is None else (lambda _event: give_way(cancel))
    ex = make_executor(run_task, n_jobs, dask_address, stop, gw, on_close=_load.cache_clear)
    rows: dict[int, dict] = {}
    pending: dict[cf.Future, int] = {}
    queue = iter(tasks)
    cancelled = False

    def stop_requested() -> bool:
        if cancel is not None and cancel.is_set():
            stop.set()
        return stop.is_set()

    def fill() -> None:
        while len(pending) < ex.width and not stop_requested():
            t = next(queue, None)
            if t is None:
                return
            pending[ex.submit(t)] = t.index

    try:
        fill()
        while pending:
            if stop_requested():
                cancelled = True
                break
            done, _ = cf.wait(list(pending), timeout=poll, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                index = pending.pop(fut)
                try:
                    row = fut.result()
                except (interrupt.Cancelled, cf.CancelledError):
                    cancelled = True
                    continue
                rows[index] = row
                if on_result is not None:
                    on_result(row)
            fill()
        cancelled = cancelled or stop_requested()
    finally:
        # also on an exception (Ctrl-C, a row callback failing): the running fit is stopped at its
        # next checkpoint rather than waited for; the rows so far were handed to on_result
        for fut in pending:
            fut.cancel()
        ex.close(cancelled or bool(pending))
    return [rows[i] for i in sorted(rows)]
