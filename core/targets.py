"""Numeric targets per image file, read from a CSV (the regression workspace's own folders).

:func:`load_targets_csv` is used by :func:`core.datasets.load_folder` (``targets_csv=``) and
re-exported there.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Sequence

import numpy as np

from .errors import DataError

__all__ = ["load_targets_csv"]


def load_targets_csv(path: str | os.PathLike, names: Sequence[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Numeric targets per image from a CSV file (for regression, e.g. a yaw angle per face).

    Format: one row per image, ``file,target_1,...,target_p`` (comma-separated; blank lines and
    lines starting with ``#`` are ignored). ``file`` is the image's name as in
    :attr:`ImageSet.names` (its path relative to the folder, ``/`` separators, e.g.
    ``s1/img01.png``) or just its file name (``img01.png``) when no other image has that file
    name. The first row is a header (target names) when one of its target cells is not a
    number and its ``file`` cell names no image; otherwise the targets are named
    ``target_1`` ... ``target_p``. Rows naming files that are not in ``names`` (e.g. skipped
    files) are ignored.

    Parameters
    ----------
    path : the CSV file.
    names : the image names, in the order of the returned rows.

    Returns
    -------
    ``(targets, target_names)``: (len(names), p) float64 array and a tuple of p column names.

    Raises
    ------
    DataError, naming the CSV file and the row (line number, 1-based) where it applies:
    the file cannot be read or holds no data row; a row has a different number of columns than
    the first; a target value is not a finite number; two rows name the same image; a bare file
    name matches several images; some images have no row (the message names them).
    """
    import csv

    csv_path = Path(path).expanduser()
    where = f"targets file '{csv_path}'"
    try:
        if not stat.S_ISREG(os.stat(csv_path).st_mode):      # a named pipe would block the open
            raise DataError(f"cannot read {where}: not a regular file")
        with open(csv_path, newline="", encoding="utf-8-sig") as fh:
            rows = [(i + 1, row) for i, row in enumerate(csv.reader(fh))]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise DataError(f"cannot read {where}: {exc}") from exc
    rows = [(ln, [c.strip() for c in row]) for ln, row in rows
            if row and any(c.strip() for c in row) and not row[0].strip().startswith("#")]
    if not rows:
        raise DataError(f"{where} holds no rows")

    names = [str(n) for n in names]
    index = {n: i for i, n in enumerate(names)}
    base: dict[str, list[int]] = {}
    for j, n in enumerate(names):
        base.setdefault(n.rsplit("/", 1)[-1], []).append(j)

    def lookup(key: str, line: int) -> int | None:
        key = key.replace("\\", "/")
        if key in index:
            return index[key]
        hits = [] if "/" in key else base.get(key, [])
        if len(hits) > 1:
            shown = ", ".join(names[h] for h in hits[:3])
            raise DataError(f"{where}, row {line}: file name '{key}' matches several images ({shown}); "
                            "give the path relative to the folder")
        return hits[0] if hits else None

    def number(cell: str) -> float | None:
        try:
            v = float(cell)
        except ValueError:
            return None
        return v

    first_line, first = rows[0]
    if len(first) < 2:
        raise DataError(f"{where}, row {first_line}: expected 'file,target,...' with at least one "
                        f"target column, got {len(first)} column(s)")
    n_cols = len(first)
    header = None
    if any(number(c) is None for c in first[1:]) and lookup(first[0], first_line) is None:
        header = tuple(c or f"target_{j}" for j, c in enumerate(first[1:], start=1))
        rows = rows[1:]
    if not rows:
        raise DataError(f"{where} holds a header but no data row")
    target_names = header or tuple(f"target_{j}" for j in range(1, n_cols))

    values = np.full((len(names), n_cols - 1), np.nan)
    seen: dict[int, int] = {}
    for line, row in rows:
        if len(row) != n_cols:
            raise DataError(f"{where}, row {line}: {len(row)} column(s), expected {n_cols} "
                            f"(file and {n_cols - 1} target(s))")
        i = lookup(row[0], line)
        if i is None:
            continue                     # a file that is not in the set (e.g. skipped): ignored
        if i in seen:
            raise DataError(f"{where}, rows {seen[i]} and {line}: both give targets for '{names[i]}'")
        seen[i] = line
        for j, cell in enumerate(row[1:]):
            v = number(cell)
            if v is None or not np.isfinite(v):
                col = target_names[j]
                raise DataError(f"{where}, row {line} (file '{row[0]}'), column '{col}': "
                                f"{cell!r} is not a finite number")
            values[i, j] = v
    missing = [names[i] for i in range(len(names)) if i not in seen]
    if missing:
        shown = ", ".join(missing[:5]) + (", ..." if len(missing) > 5 else "")
        raise DataError(f"{where} has no targets for {len(missing)} of {len(names)} image(s): {shown}")
    return values, tuple(target_names)
