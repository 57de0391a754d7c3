"""Check every lesson over several seeds: ``robust-subspace-lab --lesson KEY --check --seed S`` for each.

Prints one row per (lesson, seed): seconds, claims as declared / total, and OK or FAILED with the
claims that failed; at the end the slowest run and the failures. Each run is a fresh process (as a
teacher runs it), so the seconds include the start-up (~2–4 s of imports).

    python benchmarks/check_lessons.py                       # every lesson, seeds 1 2 3 11 23 101
    python benchmarks/check_lessons.py --seeds 1-9 --lessons paper000-fig4,default-lesson
    python benchmarks/check_lessons.py --concept Papers --verbose      # print each report in full

Results: benchmarks/results_check_lessons.md. Exit code 1 if any run failed (an asserted claim did not hold, or a column failed), else 0.
"""
from __future__ import annotations

import argparse
import re
import subprocess
import sys
import time


def _seeds(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        if "-" in part:
            lo, hi = (int(v) for v in part.split("-"))
            out.extend(range(lo, hi + 1))
        elif part.strip():
            out.append(int(part))
    return out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seeds", default="1,2,3,11,23,101", help="comma-separated seeds or ranges (default 1,2,3,11,23,101)")
    p.add_argument("--lessons", default="", help="comma-separated lesson keys (default: every lesson)")
    p.add_argument("--concept", default="", help="only the lessons of this concept (e.g. Papers)")
    p.add_argument("--verbose", action="store_true", help="print every report in full")
    p.add_argument("--timeout", type=float, default=600.0, help="give up one run after this many seconds")
    args = p.parse_args(argv)

    from robust_subspace_lab.core import lessons

    chosen = [lessons.get(k) for k in args.lessons.split(",") if k] if args.lessons else list(lessons.LESSONS)
    if args.concept:
        chosen = [lesson for lesson in chosen if lesson.concept == args.concept]
    seeds = _seeds(args.seeds)
    print(f"{'lesson':32s} {'seed':>5s} {'seconds':>8s} {'claims':>7s}  result")
    failures, slowest = [], (0.0, "")
    for lesson in chosen:
        for seed in seeds:
            t0 = time.perf_counter()
            try:
                done = subprocess.run([sys.executable, "-m", "robust_subspace_lab", "--lesson", lesson.key, "--check",
                                       "--seed", str(seed)], capture_output=True, text=True, timeout=args.timeout)
                out, code = done.stdout, done.returncode
            except subprocess.TimeoutExpired:
                out, code = "", -1
            seconds = time.perf_counter() - t0
            m = re.search(r"^(\d+)/(\d+) claims as declared", out, re.MULTILINE)
            claims = f"{m.group(1)}/{m.group(2)}" if m else "?"
            result = {0: "OK", 1: "FAILED", -1: f"TIMEOUT ({args.timeout:g} s)"}.get(code, f"exit {code}")
            bad = [line.strip() for line in out.splitlines()
                   if line.strip().startswith("✗") and "does not reproduce" not in line or "error:" in line]
            print(f"{lesson.key:32s} {seed:5d} {seconds:8.1f} {claims:>7s}  {result}"
                  + ("".join(f"\n{'':48s}{b}" for b in bad) if code else ""), flush=True)
            if args.verbose:
                print(out)
            if code:
                failures.append((lesson.key, seed, result))
            slowest = max(slowest, (seconds, f"{lesson.key} seed {seed}"))
    print(f"\n{len(chosen)} lessons × {len(seeds)} seeds; slowest {slowest[0]:.1f} s ({slowest[1]}); "
          f"{len(failures)} failed" + "".join(f"\n  {k} seed {s}: {r}" for k, s, r in failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
