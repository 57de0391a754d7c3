"""Print the *Reproducing the papers* tables of docs/papers.md (moved from the README) from the saved script outputs.

    python benchmarks/papers/readme_section.py > /tmp/section.md

Reads ``results_paper_*.md`` beside this file (the saved output of each ``paper_NNN.py``) and
keeps the rows that compare with a number the paper gives (``paper`` is not ``—``), one table per
paper, with our mean ± half-range over seeds, the difference and its explanation. Fails (exit 1)
if a difference larger than the seed spread has no explanation.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TITLES = {
    "000": "Generalized mean PCA (Oh & Kwak, Pattern Recognition 2016)",
    "001": "Optimal mean robust PCA (Nie, Yuan & Huang, ICML 2014)",
    "002": "Robust sparse PCA (Zhao, Meng & Xu, Sci. China Inf. Sci. 2014)",
    "003": "Truncated Cauchy NMF (Guan et al., IEEE TPAMI 2019)",
    "004": "Robust regression (Huang, Cabral & De la Torre, IEEE TPAMI 2016)",
}


def rows(path: Path):
    """(table title, cells) for every table of a results file."""
    title = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("### "):
            title = line[4:].strip()
        elif line.startswith("| ") and not line.startswith("| table") and not line.startswith("| ---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 7:
                yield title, cells


def main() -> int:
    unexplained = 0
    out = []
    for paper, title in TITLES.items():
        files = sorted(HERE.glob(f"results_paper_{paper}*.md"))
        if not files:
            continue
        out += [f"#### {title}", "",
                "| where | row | column | paper | ours (mean ± half-range) | difference | why |",
                "| --- | --- | --- | --- | --- | --- | --- |"]
        for f in files:
            for _, (table, row, column, pap, ours, diff, why) in rows(f):
                if pap in ("—", "-", ""):
                    continue
                if "UNEXPLAINED" in why:
                    unexplained += 1
                out.append(f"| {table} | {row} | {column} | {pap} | {ours} | {diff} | {why} |")
        out += ["", "Full output: " + ", ".join(f"[`{f.name}`](benchmarks/papers/{f.name})" for f in files), ""]
    print("\n".join(out))
    if unexplained:
        print(f"{unexplained} large difference(s) without an explanation", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
