"""Paper 003 (Guan, Liu, Zhang, Tao & Davis, "Truncated Cauchy Non-negative Matrix Factorization",
IEEE TPAMI 2019): the paper's numbers against ours, with measured explanations.

Reproducible with the shipped data (the paper's ORL/AR/Caltech sets are not shipped):

* Table II (relative error ‖X_clean − HW‖_F / ‖X_clean‖_F, %, Laplace noise δ) and Table III
  (salt & pepper, exactly p % of each image): on the 100 built-in LFW faces (25 × 25; ORL:
  400 faces of 40 people, 32 × 32), r = 10.
* Table IV (clustering ACC %, one b × b block of value 550 per image): on 300 built-in digits
  (30 per class, 28 × 28), r = 10, K-means on the coefficients; b scaled to the same share of
  the pixels as the paper's b = 10 and 14 on 32 × 32 (9.8 %, 19.1 %): b = 9 and 12.
* Fig. 4 (line y = 0.2x, 40 points contaminated in x and 40 in y): slope of the r = 1 basis.

TC-NMF appears twice: with our default threshold floor (τ >= 3γ, ``tau_floor=3``) and with the
paper's rule (``tau_floor=0``). Every method runs at its catalogue defaults (stopping rule:
paper 003 rule 16 at tol 1e-5, at most 500 iterations). Seeds change the corruption and the
initialisation together.

    python benchmarks/papers/paper_003.py            # ~5 min on one core, 5 seeds
    python benchmarks/papers/paper_003.py --quick    # 3 seeds, fewer cells (~1–2 min)
    python benchmarks/papers/paper_003.py --full     # 10 seeds, every cell (p = 10 %, b = 14 too)
"""
from __future__ import annotations

import argparse
import os
import time
import warnings

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from _table import Cell, print_table  # noqa: E402  (puts the repo on sys.path)
from robust_subspace_lab.core import catalogue, corruption, datasets, toys  # noqa: E402
from robust_subspace_lab.core.datasets import ImageSet  # noqa: E402
from robust_subspace_lab.core.metrics import clustering_accuracy, kmeans_labels, relative_error  # noqa: E402

METHODS = [("nmf", {}, "L2-NMF"), ("l1-nmf", {}, "L1-NMF"), ("cim-nmf", {}, "CIM-NMF"),
           ("tc-nmf", {}, "TC-NMF (τ ≥ 3γ)"), ("tc-nmf", {"tau_floor": 0.0}, "TC-NMF (paper rule)")]
# Table II / III rows (paper values, %), columns as in METHODS (TC twice: same paper value).
TABLE2 = {40: [14.78, 13.56, 15.93, 13.41, 13.41], 120: [36.30, 21.33, 18.95, 15.94, 15.94]}
TABLE3 = {10: [15.36, 11.50, 12.25, 12.27, 12.27], 30: [24.44, 13.25, 13.86, 11.80, 11.80]}
# Table IV ACC (%), b = 10 and 14 on ORL: L2-NMF, CauchyNMF, CIM-NMF, TC-NMF.
TABLE4 = {10: {"nmf": 17.10, "cauchy-nmf": 19.27, "cim-nmf": 58.48, "tc-nmf": 57.80},
          14: {"nmf": 17.25, "cauchy-nmf": 19.03, "cim-nmf": 26.88, "tc-nmf": 55.38}}
B_OURS = {10: 9, 14: 12}


def fit(key, params, X, seed):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return catalogue.create(key, random_state=seed, **params).fit_state(X)


def faces_tables(seeds, deltas, densities):
    faces = datasets.lfw_faces()
    cells = []
    clean_floor = [relative_error(faces.X, fit("nmf", {"n_components": 10}, faces.X, s).fitted)
                   for s in seeds]
    floor = 100 * float(np.mean(clean_floor))
    for table, levels, corr in (("Table II", deltas, "laplace"), ("Table III", densities, "salt_pepper_exact")):
        paper = TABLE2 if corr == "laplace" else TABLE3
        for lev in levels:
            col = f"δ = {lev}" if corr == "laplace" else f"p = {lev} %"
            per = {i: [] for i in range(len(METHODS))}
            trunc = {i: [] for i in range(len(METHODS))}
            for s in seeds:
                kw = {"scale": float(lev)} if corr == "laplace" else {"density": lev / 100.0}
                c = corruption.corrupt(faces, corr, seed=s, **kw)
                for i, (key, p, _) in enumerate(METHODS):
                    st = fit(key, {"n_components": 10, **p}, c.X, s)
                    per[i].append(100 * relative_error(c.X_clean, st.fitted))
                    trunc[i].append(st.scalars.get("truncated fraction", 0.0))
            for i, (key, p, name) in enumerate(METHODS):
                cell = Cell(table, name, col, paper[lev][i], per[i], unit="%")
                if cell.large:
                    why = (f"data: rank-10 NMF of the 100 clean LFW faces (100 people) already "
                           f"leaves {floor:.1f} % (measured), ORL (40 people × 10 images) is far "
                           f"more redundant")
                    if key == "tc-nmf":
                        why += (f"; TC-NMF truncates {100 * np.mean(trunc[i]):.0f} % of the entries "
                                "(measured)")
                    cell.explanation = why
                cells.append(cell)
    return cells


def digits_subset(per_class=30):
    d = datasets.mnist_digits()
    idx = np.concatenate([np.flatnonzero(d.labels == k)[:per_class] for k in range(10)])
    return ImageSet(images=d.images[idx], labels=d.labels[idx],
                    names=tuple(d.names[i] for i in idx), source=d.source + f" ({per_class}/class)")


def digits_table(seeds, sizes):
    d = digits_subset()
    cells = []
    keys = [("nmf", {}, "L2-NMF"), ("cauchy-nmf", {}, "CauchyNMF"), ("cim-nmf", {}, "CIM-NMF"),
            ("tc-nmf", {}, "TC-NMF (τ ≥ 3γ)"), ("tc-nmf", {"tau_floor": 0.0}, "TC-NMF (paper rule)")]
    clean_acc = []
    for s in seeds:
        st = fit("nmf", {"n_components": 10}, d.X, s)
        clean_acc.append(100 * clustering_accuracy(d.labels, kmeans_labels(st.coefficients, 10, seed=s)))
    for b in sizes:
        accs = {i: [] for i in range(len(keys))}
        for s in seeds:
            c = corruption.corrupt(d, "value_block", size=B_OURS[b], value=550.0, seed=s)
            for i, (key, p, _) in enumerate(keys):
                st = fit(key, {"n_components": 10, **p}, c.X, s)
                lab = kmeans_labels(st.coefficients, 10, seed=s)
                accs[i].append(100 * clustering_accuracy(d.labels, lab))
        for i, (key, p, name) in enumerate(keys):
            cell = Cell("Table IV", name, f"b = {b} (ours {B_OURS[b]} on 28²)", TABLE4[b][key],
                        accs[i], unit="%")
            if cell.large:
                cell.explanation = (f"data: 10 digit classes (chance 10 %, clean-digit NMF "
                                    f"{np.mean(clean_acc):.0f} % measured) vs 40 ORL people "
                                    "(chance 2.5 %)")
            cells.append(cell)
    return cells


def toy_table(seeds):
    cells = []
    for key, p, name in [("nmf", {}, "L2-NMF"), ("l1-nmf", {}, "L1-NMF"), ("tc-nmf", {}, "TC-NMF (τ ≥ 3γ)"),
                         ("tc-nmf", {"tau_floor": 0.0}, "TC-NMF (paper rule)")]:
        slopes = []
        for s in seeds:
            t = toys.make_toy("nmf_line", n_outliers=80, direction="both", noise=0.1, seed=s)
            w = fit(key, {"n_components": 1, **p}, t.X, s).components[0]
            slopes.append(float(w[1] / w[0]))
        paper = 0.2 if key == "tc-nmf" else None
        ok = [100.0 * (abs(v - 0.2) < 0.02) for v in slopes]
        hit = Cell("Fig. 4(d)", name, "runs with |slope − 0.2| < 0.02", 100.0 if key == "tc-nmf" else 0.0,
                   ok, unit="%")
        if hit.large:
            hit.explanation = ("per seed: " + ", ".join(f"{v:.3f}" for v in slopes) + "; the init "
                               "and the truncation of one coordinate per point decide (measured)")
        cells.append(hit)
        cell = Cell("Fig. 4(d)", name, "slope (true 0.2)", paper, slopes)
        if cell.large:
            cell.explanation = (f"max |slope − 0.2| over seeds {max(abs(v - 0.2) for v in slopes):.3f}: "
                                "in 2-D a point with one truncated coordinate is fitted exactly on "
                                "the other and stops constraining the line (noise 0.1 added; the "
                                "paper's magnitudes are not given)")
        cells.append(cell)
    return cells


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="3 seeds, fewer cells")
    ap.add_argument("--full", action="store_true", help="10 seeds")
    a = ap.parse_args()
    seeds = list(range(3 if a.quick else 10 if a.full else 5))
    t0 = time.time()
    print("# Paper 003 (Truncated Cauchy NMF): paper vs ours")
    print_table("Fig. 4: line toy, 80 of 180 points contaminated", toy_table(seeds), len(seeds))
    print_table("Tables II–III: relative error (%) against the clean faces, r = 10",
                faces_tables(seeds, [40] if a.quick else [40, 120],
                             [] if a.quick else [10, 30] if a.full else [30]),
                len(seeds))
    print_table("Table IV: clustering ACC (%) with 550-valued blocks, 300 digits, r = 10",
                digits_table(seeds, [10, 14] if a.full else [10]), len(seeds))
    print(f"\n(total {time.time() - t0:.0f} s)")


if __name__ == "__main__":
    main()
