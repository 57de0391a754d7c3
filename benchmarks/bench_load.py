"""Folder loading against a plain ``skimage.io.imread`` loop over the same files (issue target:
``core.datasets.load_folder`` within 1.1× the plain loop). Both read every file of the folder;
the plain loop only reads (no conversion to grey levels, no checks), so the ratio is what our
checks and conversions cost. Best of ``--repeats`` runs each, interleaved (the disk cache is warm
after the first pass). For information, a plain Pillow loop (``np.asarray(Image.open(p))``, the
decoder both use underneath) is timed too: ``load_folder`` reads common formats with Pillow
directly, so that loop is the floor it can approach.

Run:  python benchmarks/make_image_folder.py /tmp/digits-10k --n 10000 --size 64
      python benchmarks/bench_load.py /tmp/digits-10k
"""
from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

import numpy as np
from PIL import Image
from skimage.io import imread

from robust_subspace_lab.core import datasets


def plain(folder: Path) -> int:
    n = 0
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.name.startswith("."):
            imread(os.fspath(p))
            n += 1
    return n


def plain_pillow(folder: Path) -> int:
    n = 0
    for p in sorted(folder.iterdir()):
        if p.is_file() and not p.name.startswith("."):
            with Image.open(p) as im:
                np.asarray(im)
            n += 1
    return n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    folder = Path(args.folder)
    t_plain, t_ours, t_pil = [], [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        n = plain(folder)
        t_plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        plain_pillow(folder)
        t_pil.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        got = datasets.load_folder(folder)
        t_ours.append(time.perf_counter() - t0)
    print(f"{n} files; plain imread loop {min(t_plain):.2f} s; load_folder {min(t_ours):.2f} s "
          f"({len(got.images)} images, {len(got.skipped)} skipped); ratio {min(t_ours) / min(t_plain):.2f} "
          f"(target ≤ 1.10)")
    print(f"plain Pillow loop {min(t_pil):.2f} s; load_folder / Pillow loop {min(t_ours) / min(t_pil):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
