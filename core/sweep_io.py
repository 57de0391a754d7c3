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
from .sweep import (BASE_COLUMNS, MethodGrid, Progress, Sweep, parse_assignments, parse_value, run_sweep,
                    spec_of)

__all__ = ["columns", "write_csv", "read_csv", "aggregate", "parse_method", "parse_grid", "parse_corruption",
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
        vals = [np.array(by_x[x]) for x in xs]
        out[method] = {"x": np.array(xs), "mean": np.array([v.mean() for v in vals]),
                       "std": np.array([v.std() for v in vals]), "n": np.array([v.size for v in vals])}
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
    checked by the corruption's ParamSpecs)."""
    key, _, rest = text.strip().partition(":")
    spec = CorruptionSpec(key.strip()).spec
    params = {name: parse_value(spec_of(spec, name, f"corruption {spec.key}"), v)
              for name, v in parse_assignments(rest, f"--corruption {text}")}
    spec.validate(**params)
    return CorruptionSpec(spec.key, params)


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
                grids: Sequence[tuple[str, Sequence[str]]], n_seeds: int = 3, base_seed: int = 0) -> Sweep:
    """A validated Sweep: each grid ``(name, texts)`` applies to every method with a parameter
    of that name (converted and checked by that method's ParamSpec). ParameterError for a grid
    no method has, or a value out of range (naming method and parameter)."""
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
    return Sweep(data, corruption, tuple(out), int(n_seeds), int(base_seed)).validate()


def _size(text: str):
    t = text.lower().replace("×", "x").strip()
    try:
        h, w = (int(v) for v in t.split("x", 1)) if "x" in t else (int(t),) * 2
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 32x32 or 32, got {text!r}") from None
    if h < 1 or w < 1:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return (h, w)


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
    p.add_argument("--seeds", type=int, default=3, metavar="N", help="seeds per grid point (default 3)")
    p.add_argument("--base-seed", type=int, default=0, metavar="S",
                   help="SeedSequence(S).spawn(N) gives the seeds (default 0)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="local worker processes (default 1; -1: one per CPU)")
    p.add_argument("--dask", metavar="tcp://HOST:PORT", default=None,
                   help="run on this Dask distributed scheduler's workers instead")
    p.add_argument("--out", required=True, metavar="CSV", help="the CSV file to write")
    return p


def cli(argv: Sequence[str] | None = None) -> int:
    """``robust-subspace-lab sweep ...``: run a sweep, print progress to stderr, write the CSV.
    Exit code 0, 2 for bad arguments (before any run), 1 on a failure."""
    args = build_parser().parse_args(argv)
    try:
        sweep = build_sweep(parse_data(args.data, args.size), parse_corruption(args.corruption),
                            [parse_method(m) for m in args.method], [parse_grid(g) for g in args.grid],
                            args.seeds, args.base_seed)
    except ParameterError as e:
        print(f"robust-subspace-lab sweep: {e}", file=sys.stderr)
        return 2
    progress = Progress(len(sweep.tasks()))
    where = f"on {args.dask}" if args.dask else f"with {args.jobs} job(s)"
    print(f"sweep: {progress.total} runs {where}", file=sys.stderr)

    def report(row):
        progress.update()
        err = f" ({row['error']})" if row.get("error") else ""
        print(f"sweep: {progress.text()}{err}", file=sys.stderr, flush=True)

    try:
        rows = run_sweep(sweep, n_jobs=args.jobs, dask_address=args.dask, on_result=report)
    except (ParameterError, DataError) as e:
        print(f"robust-subspace-lab sweep: {e}", file=sys.stderr)
        return 1
    write_csv(args.out, rows, sweep.swept_names)
    print(f"sweep: wrote {len(rows)} rows to {args.out}", file=sys.stderr)
    return 0
