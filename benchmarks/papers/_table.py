"""One way to print a paper-versus-ours table, shared by the ``paper_NNN.py`` scripts.

Each reproducible cell is a :class:`Cell`: the paper's value, our values over seeds, and an
explanation when the difference is larger than our spread over seeds. :func:`print_table` prints
a Markdown table (paste it into docs/papers.md, *Reproducing the papers*) and flags every
unexplained large difference.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

# Run from a source checkout without installing: make `core` importable.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


@dataclass
class Cell:
    table: str                 # "Table 2", "Fig. 4", "Claim 3"
    row: str                   # e.g. the method or setting
    column: str                # e.g. the data set or parameter value
    paper: float | None        # the paper's number (None: the paper gives no number, only a claim)
    ours: list[float] = field(default_factory=list)   # one value per seed
    unit: str = ""
    explanation: str = ""      # why |ours - paper| exceeds the seed spread (measured, not guessed)

    @property
    def mean(self) -> float:
        return float(np.mean(self.ours)) if self.ours else float("nan")

    @property
    def spread(self) -> float:
        """Half the range over seeds (0 for one seed)."""
        return float(np.ptp(self.ours) / 2) if len(self.ours) > 1 else 0.0

    @property
    def difference(self) -> float | None:
        return None if self.paper is None else self.mean - self.paper

    @property
    def large(self) -> bool:
        d = self.difference
        return d is not None and abs(d) > max(self.spread, 1e-12)


def _fmt(x: float | None, unit: str = "") -> str:
    if x is None:
        return "—"
    return f"{x:.3g}{unit}"


def print_table(title: str, cells: list[Cell], seeds: int) -> None:
    """Print the cells as a Markdown table; every large difference must carry an explanation."""
    print(f"\n### {title} ({seeds} seeds)\n")
    print("| table | row | column | paper | ours (mean ± half-range) | difference | explanation |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    missing = 0
    for c in cells:
        ours = f"{_fmt(c.mean, c.unit)} ± {_fmt(c.spread, c.unit)}"
        d = c.difference
        diff = "—" if d is None else f"{d:+.3g}{c.unit}"
        expl = c.explanation or ("" if not c.large else "**UNEXPLAINED**")
        missing += c.large and not c.explanation
        print(f"| {c.table} | {c.row} | {c.column} | {_fmt(c.paper, c.unit)} | {ours} | {diff} | {expl} |")
    if missing:
        print(f"\n{missing} large difference(s) without an explanation.")


def parse_args(doc: str, argv=None):
    """The scripts' common command line: ``--quick`` (a fast subset), ``--full`` (10 seeds and
    every cell), ``--seeds N``. Returns ``(args, seeds)`` with ``seeds`` the list 0..N−1 (5 by
    default)."""
    import argparse

    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--quick", action="store_true", help="a fast subset of the cells")
    g.add_argument("--full", action="store_true", help="10 seeds and every cell")
    ap.add_argument("--seeds", type=int, default=None, help="number of seeds (default 5, 10 with --full)")
    a = ap.parse_args(argv)
    return a, list(range(a.seeds or (10 if a.full else 5)))
