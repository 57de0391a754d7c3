"""A sweep's text: its result table (CSV columns, writing, reading, mean and spread over seeds)
and its command line (``robust-subspace-lab sweep ...``), on top of :mod:`core.sweep`.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import sys
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from . import corruption as _corruption
from . import datasets
from .errors import DataError, ParameterError
from .session.spec import BUILTIN, FOLDER, TOY, CorruptionSpec, DataSpec
from .sweep import (BASE_COLUMNS, MAX_RUNS, MethodGrid, Progress, Sweep, check_runs, parse_assignments,
                    parse_value, run_sweep, spec_of)
from .sweep_exec import check_dask_address, local_jobs

__all__ = ["columns", "write_csv", "CsvStream", "read_csv", "aggregate", "parse_method", "parse_grid", "parse_corruption",
           "parse_data", "build_sweep", "cli"]


# ------------------------------------------------------------------------------------ tables
def columns(rows: Iterable[Mapping[str, Any]], swept: Sequence[str] = ()) -> list[str]:
    """The CSV columns of ``rows``: ``method``, the swept parameters, ``seed``, ``n_iter``,
    ``converged``, ``seconds``, then every metric in order of first appearance, then ``error``."""
    rows = list(rows)
    swept = list(dict.fromkeys(list(swept)))
    fixed = set(BASE_COLUMNS) | {"error"} | set(swept)
    metrics = list(dict.fromkeys(k for r in rows for k in r if k not in fixed))
    return ["method", *swept, *BASE_COLUMNS[1:], *metrics, "error"]


def _cell(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    return str(v)


def write_csv(path, rows: Sequence[Mapping[str, Any]], swept: Sequence[str] = ()) -> list[str]:
    """Write ``rows`` to ``path`` (one line per row; floats in full precision, missing values
    empty); returns the columns written."""
    cols = columns(rows, swept)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(cols)
        for r in rows:
            w.writerow([_cell(r.get(c)) for c in cols])
    return cols


class CsvStream:
    """The CSV of a sweep written as its runs finish, so that an interrupt or a crash keeps every
    finished row on disk: each row is appended (and flushed) as it comes; when a row brings a
    column the file does not have yet (another method's metrics), the file is rewritten with it
    (atomically, beside itself). :meth:`finish` rewrites it in task order.

    Opening checks the destination before any run: its folder must exist and it must be a
    regular file or absent (ParameterError naming the path otherwise)."""

    def __init__(self, path, swept: Sequence[str] = ()):
        self.path, self.swept = os.fspath(path), list(swept)
        self.rows: list[Mapping[str, Any]] = []
        folder = os.path.dirname(os.path.abspath(self.path))
        if not os.path.isdir(folder):
            raise ParameterError(f"--out {self.path}: the folder {folder} does not exist")
        if os.path.exists(self.path) and not os.path.isfile(self.path):
            raise ParameterError(f"--out {self.path}: not a regular file")
        self.cols: list[str] = []
        self._rewrite()

    def _rewrite(self, rows: Sequence[Mapping[str, Any]] | None = None) -> None:
        rows = self.rows if rows is None else rows
        tmp = f"{self.path}.part"
        try:
            self.cols = write_csv(tmp, rows, self.swept)
            os.replace(tmp, self.path)
        except OSError as exc:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise ParameterError(f"--out {self.path}: cannot write: {exc.strerror or exc}") from None

    def add(self, row: Mapping[str, Any]) -> None:
        """Write one finished row."""
        self.rows.append(row)
        if columns(self.rows, self.swept) != self.cols:
            self._rewrite()
            return
        with open(self.path, "a", newline="", encoding="utf-8") as f:
            csv.writer(f).writerow([_cell(row.get(c)) for c in self.cols])

    def finish(self, ordered: Sequence[Mapping[str, Any]]) -> None:
        """Rewrite the file with ``ordered`` (the rows in task order)."""
        self._rewrite(list(ordered))


def _parse_cell(text: str) -> Any:
    if text == "":
        return None
    if text in ("True", "False"):
        return text == "True"
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def read_csv(path) -> list[dict]:
    """The rows of a sweep CSV (numbers and booleans converted back; empty cells left out)."""
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: v for k, v in ((k, _parse_cell(t)) for k, t in r.items()) if v is not None}
                for r in csv.DictReader(f)]


def aggregate(rows: Iterable[Mapping[str, Any]], param: str, metric: str) -> dict[str, dict]:
    """``metric`` against the swept parameter ``param``, per method: ``{method: {"x": (m,),
    "mean": (m,), "std": (m,), "n": (m,)}}`` over the seeds at each value of ``param`` (std the
    population standard deviation, 0 for one seed). Rows without the metric are skipped; a
    method without ``param`` gets ``x`` empty and one overall mean (a baseline). Other swept
    parameters are pooled."""
    groups: dict[str, dict] = {}
    for r in rows:
        v = r.get(metric)
        if v is None or isinstance(v, bool):
            continue
        try:
            v = float(v)
        except (TypeError, ValueError):
            continue
        if not math.isfinite(v):
            continue
        x = r.get(param)
        groups.setdefault(str(r.get("method")), {}).setdefault(x, []).append(v)
    out = {}
    for method, by_x in groups.items():
        xs = sorted((x for x in by_x if x is not None), key=lambda t: (str(type(t)), t))
        if not xs:
            vals = np.array(by_x[None])
            out[method] = {"x": np.array([]), "mean": np.array([vals.mean()]),
                           "std": np.array([vals.std()]), "n": np.array([vals.size])}
            continue
        per_x = [np.array(by_x[x]) for x in xs]
        out[method] = {"x": np.array(xs), "mean": np.array([v.mean() for v in per_x]),
                       "std": np.array([v.std() for v in per_x]), "n": np.array([v.size for v in per_x])}
    return out


# ------------------------------------------------------------------------------------ text input
def parse_method(text: str) -> MethodGrid:
    """``"pca-gm"`` or ``"pca-gm:max_iter=20,n_components=5"`` (fixed values) → MethodGrid."""
    key, _, rest = text.strip().partition(":")
    info = MethodGrid(key.strip()).info
    fixed = {name: parse_value(spec_of(info, name, info.key), v)
             for name, v in parse_assignments(rest, f"--method {text}")}
    return MethodGrid(info.key, {}, fixed).validate()


def parse_grid(text: str) -> tuple[str, list[str]]:
    """``"p=0.1,0.5,1.0"`` → ``("p", ["0.1", "0.5", "1.0"])`` (converted per method later)."""
    name, sep, values = text.partition("=")
    vals = [v.strip() for v in values.split(",") if v.strip()]
    if not sep or not name.strip() or not vals:
        raise ParameterError(f"--grid must look like name=v1,v2,..., got {text!r}")
    return name.strip(), vals


def parse_corruption(text: str) -> CorruptionSpec:
    """``"rectangles"`` or ``"rectangles:fraction=0.3,content=black"`` → CorruptionSpec (values
    checked by the registry entry, :meth:`CorruptionSpec.validated`)."""
    key, _, rest = text.strip().partition(":")
    info = _corruption.corruption_info(key.strip())
    params = {name: parse_value(spec_of(info, name, f"corruption {info.key}"), v)
              for name, v in parse_assignments(rest, f"--corruption {text}")}
    chosen = CorruptionSpec(info.key, params)
    chosen.validated()
    return chosen


def parse_data(text: str, size: tuple[int, int] | None = None) -> DataSpec:
    """A built-in set's name (``faces``, ``digits``), ``toy:KEY`` or a folder of images."""
    t = text.strip()
    if t in datasets.BUILTIN:
        return DataSpec(BUILTIN, t, size)
    if t.startswith("toy:"):
        return DataSpec(TOY, t[4:])
    if os.path.isdir(os.path.expanduser(t)):
        return DataSpec(FOLDER, os.path.abspath(os.path.expanduser(t)), size)
    raise ParameterError(f"--data must be one of {', '.join(datasets.BUILTIN)}, toy:KEY or an existing "
                         f"folder, got {text!r}")


def build_sweep(data: DataSpec, corruption: CorruptionSpec, methods: Sequence[MethodGrid],
                grids: Sequence[tuple[str, Sequence[str]]], n_seeds: int = 3, base_seed: int = 0,
                max_runs: int = MAX_RUNS) -> Sweep:
    """A validated Sweep: each grid ``(name, texts)`` applies to every method with a parameter
    of that name (converted and checked by that method's ParamSpec). ParameterError for a grid
    no method has, a value out of range (naming method and parameter), or more than
    ``max_runs`` runs (counted before the seeds are drawn)."""
    grids = list(grids)
    names = [n for n, _ in grids]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ParameterError(f"--grid {', '.join(twice)} given twice")
    out = []
    for m in methods:
        info = m.info
        own = {s.name: s for s in info.params}
        grid = {name: tuple(parse_value(own[name], v) for v in texts)
                for name, texts in grids if name in own}
        out.append(MethodGrid(m.key, grid, {k: v for k, v in m.fixed.items() if k not in grid}))
    for name, _ in grids:
        if not any(name in {s.name for s in m.info.params} for m in methods):
            raise ParameterError(f"--grid {name}: none of the methods ({', '.join(m.key for m in methods)}) "
                                 f"has a parameter {name!r}")
    sweep = Sweep(data, corruption, tuple(out), int(n_seeds), int(base_seed))
    check_runs(sweep.n_runs, max_runs)
    return sweep.validate()


def _size(text: str):
    t = text.lower().replace("×", "x").strip()
    try:
        h, w = (int(v) for v in t.split("x", 1)) if "x" in t else (int(t),) * 2
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 32x32 or 32, got {text[:40]!r}") from None
    if not (1 <= h <= datasets.MAX_SIDE and 1 <= w <= datasets.MAX_SIDE):
        raise argparse.ArgumentTypeError(f"size must be between 1 and {datasets.MAX_SIDE} pixels a side, "
                                         f"got {text[:40]!r}")
    return (h, w)


def _int_arg(low: int, high: int | None = None, allow: tuple[int, ...] = ()):
    """An argparse type: an integer in [low, high] (or one of ``allow``)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text[:40]!r}") from None
        if value in allow or (value >= low and (high is None or value <= high)):
            return value
        wanted = f"at least {low}" if high is None else f"between {low} and {high}"
        extra = f" (or {', '.join(map(str, allow))})" if allow else ""
        raise argparse.ArgumentTypeError(f"must be {wanted}{extra}, got {text[:40]!r}")
    return parse


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="robust-subspace-lab sweep",
        description="Run methods x a grid of parameter values x seeds on one data set and corruption "
                    "(re-drawn per seed) and write one CSV row per run.",
        epilog="example: robust-subspace-lab sweep --data faces --corruption rectangles --method pca-gm "
               "--grid p=0.1,0.5,1.0 --seeds 3 --out results.csv [--dask tcp://HOST:PORT]")
    p.add_argument("--data", default="faces", metavar="NAME|toy:KEY|FOLDER",
                   help=f"built-in set ({', '.join(datasets.BUILTIN)}), toy:KEY, or a folder of images "
                        "(default faces)")
    p.add_argument("--size", type=_size, default=None, metavar="HxW", help="resize the images to H x W")
    p.add_argument("--corruption", default=_corruption.DEFAULT_CORRUPTION, metavar="KEY[:param=value,...]",
                   help=f"corruption key and parameters (default {_corruption.DEFAULT_CORRUPTION}); known: "
                        f"{', '.join(_corruption.CORRUPTIONS)}")
    p.add_argument("--method", action="append", required=True, metavar="KEY[:param=value,...]",
                   help="a method key with optional fixed parameters; repeat for more methods")
    p.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2,...",
                   help="values of a parameter to sweep (for every method that has it); repeat for a grid")
    p.add_argument("--seeds", type=_int_arg(1), default=3, metavar="N", help="seeds per grid point (default 3)")
    p.add_argument("--base-seed", type=_int_arg(0, 2 ** 32 - 1), default=0, metavar="S",
                   help="SeedSequence(S).spawn(N) gives the seeds (default 0)")
    p.add_argument("--jobs", type=_int_arg(1, allow=(-1,)), default=1, metavar="N",
                   help="local worker processes (default 1; -1: one per CPU; at most one per CPU)")
    p.add_argument("--max-runs", type=_int_arg(1), default=MAX_RUNS, metavar="N",
                   help=f"refuse a sweep of more runs than this (default {MAX_RUNS:,})")
    p.add_argument("--dask", metavar="tcp://HOST:PORT", default=None,
                   help="run on this Dask distributed scheduler's workers instead (tls://HOST:PORT for a "
                        "cluster others can reach: an unauthenticated scheduler runs anyone's code)")
    p.add_argument("--out", required=True, metavar="CSV",
                   help="the CSV file to write (each row as its run finishes)")
    return p


def cli(argv: Sequence[str] | None = None) -> int:
    """``robust-subspace-lab sweep ...``: run a sweep, print progress to stderr, write the CSV
    as the runs finish (an interrupt or a crash keeps the finished rows).

    Everything is checked before any run: the values (argparse's message for a malformed one),
    the grid's size (over ``--max-runs``, default :data:`core.sweep.MAX_RUNS`: refused), the
    output path, the Dask address; ``--jobs`` is capped at the number of CPUs.
    Exit code 0; 2 for bad arguments (before any run); 1 when the scheduler cannot be reached,
    a run raised, or every run failed; 130 on Ctrl-C (the finished rows kept)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    prog = "robust-subspace-lab sweep"
    try:
        if args.dask:
            check_dask_address(args.dask)
        methods = [parse_method(m) for m in args.method]
        grids = [parse_grid(g) for g in args.grid]
        data, corr = parse_data(args.data, args.size), parse_corruption(args.corruption)
        sweep = build_sweep(data, corr, methods, grids, args.seeds, args.base_seed, max_runs=args.max_runs)
        out = CsvStream(args.out, sweep.swept_names)
    except (ParameterError, DataError) as e:
        parser.print_usage(sys.stderr)
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    jobs = local_jobs(args.jobs)
    if not args.dask and args.jobs not in (-1, jobs):
        print(f"sweep: --jobs {args.jobs} capped at {jobs} (the number of CPUs)", file=sys.stderr)
    progress = Progress(sweep.n_runs)
    where = f"on {args.dask}" if args.dask else f"with {jobs} job(s)"
    print(f"sweep: {progress.total} runs {where}", file=sys.stderr)

    def report(row):
        out.add(row)
        progress.update()
        err = f" ({row['error']})" if row.get("error") else ""
        print(f"sweep: {progress.text()}{err}", file=sys.stderr, flush=True)

    try:
        rows = run_sweep(sweep, n_jobs=jobs, dask_address=args.dask, on_result=report)
    except (ParameterError, DataError) as e:
        print(f"{prog}: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"\n{prog}: interrupted; the {len(out.rows)} finished row(s) are in {args.out}", file=sys.stderr)
        return 130
    except Exception as e:  # noqa: BLE001 - a run failed in a way its row could not record
        print(f"{prog}: a run failed with {type(e).__name__}: {str(e)[:300]}; the {len(out.rows)} finished "
              f"row(s) are in {args.out}", file=sys.stderr)
        return 1
    out.finish(rows)
    failed = sum(1 for r in rows if r.get("error"))
    print(f"sweep: wrote {len(rows)} rows to {args.out}" + (f" ({failed} failed)" if failed else ""),
          file=sys.stderr)
    if rows and failed == len(rows):
        print(f"{prog}: every run failed (first: {rows[0]['error']})", file=sys.stderr)
        return 1
    return 0
