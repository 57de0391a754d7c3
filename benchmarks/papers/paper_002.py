"""Paper 002 — Zhao, Meng & Xu, "Robust sparse principal component analysis", Science China
Information Sciences 2014: every table/figure we can reproduce, paper vs ours over seeds.

* Table 1 (2-D example, §3.1): ``core.toys.sparse_2d_toy``; first PC and ARE.
* Figs. 2–3 / Tables 2–3 (Hastie data, §3.2): ``core.toys.hastie_toy`` with n = 10 000, σ² (noise)
  and δ² (500 outliers) on a grid of the paper's range; misidentification rate
  MR = (1/20) Σ_{j=1,2} |supp(ŵ_j) Δ S_j| (the paper never defines MR; this is the extraction's
  proposal), and whether RSPCA's two supports are exactly {x5..x8}, {x1..x4} (Tables 2–3).
* Table 4 (MNIST digit 6, §3.3): the 500 shipped sixes; "noise": 2000/7000 of the images get a
  10 × 18 rectangle of random 0/255 dots; "outliers": 3000 dummy images of random dots per 7000
  sixes (214 here). ERR(m) of eq. (16) against the clean sixes, dummies not scored; k = 400
  nonzeros. The paper's absolute ERR depends on its ≈7000 sixes, so the comparable quantity is the
  ratio to PCA's ERR; CPU time as the ratio RSPCA / PCA-L1 on the same run.
* Fig. 6 (classification): 300 train / 200 test per digit (paper 1000 / 500; we ship 500 per
  digit), 20 % of the training digits with the 10 × 18 dot rectangle, 1-NN on m = 40 features.

    python benchmarks/papers/paper_002.py [--quick | --full] [--seeds N]

Default: 5 seeds, m = 40 for Table 4 (~4 min on one core); ``--full``: m = 100 as in the paper,
more grid points; ``--quick``: fewer settings. Output saved in ``results_paper_002.md``.
"""
from __future__ import annotations

import time
import warnings

import numpy as np
from sklearn.neighbors import KNeighborsClassifier

from _table import Cell, parse_args, print_table  # noqa: E402  (also puts the repo on sys.path)

from robust_subspace_lab.core import corruption, datasets, toys
from robust_subspace_lab.core.methods import PCA
from robust_subspace_lab.core.methods.sparse_pca import RSPCA, GPower, PCAL1, SPCArSVD
from robust_subspace_lab.core.metrics import average_residual_error, err_m

warnings.simplefilter("ignore")


# ------------------------------------------------------------------------------ Table 1 (2-D)
def toy_cells(seeds):
    pca_u, pca_c, l1, rs_first, rs_are, l2_are = [], [], [], [], [], []
    for s in seeds:
        X = toys.sparse_2d_toy(seed=s).X
        w = np.linalg.eigh(X.T @ X)[1][:, -1]            # uncentred PCA (the paper's numbers)
        pca_u.append(abs(w[0]))
        pca_c.append(abs(PCA(n_components=1).fit(X).components_[0, 0]))
        l1.append(abs(PCAL1(n_components=1).fit(X).components_[0, 0]))
        r = RSPCA(n_components=1, k_nonzero=1, p=0.0, center=False).fit(X)
        rs_first.append(abs(r.components_[0, 0]))
        rs_are.append(average_residual_error(r.components_[0], X))
        g = SPCArSVD(n_components=1, k_nonzero=1, center=False).fit(X)
        l2_are.append(average_residual_error(g.components_[0], X))
    are_spread = np.ptp(rs_are) / 2
    return [
        Cell("Table 1", "PCA (uncentred), |PC1_x|", "2-D example", 0.6811, pca_u),
        Cell("Table 1", "PCA (centred, ours by default), |PC1_x|", "2-D example", 0.6811, pca_c, "",
             f"centring turns PC1 to |x| = {np.mean(pca_c):.3f}; uncentred (row above) matches: the paper did "
             "not centre this example"),
        Cell("Table 1", "PCA-L1 (centred), |PC1_x|", "2-D example", 0.9699, l1, "",
             "ours centres (PCA-L1 has no uncentred option); the paper's draw is uncentred"
             if abs(np.mean(l1) - 0.9699) > np.ptp(l1) / 2 else ""),
        Cell("Table 1", "RSPCA p = 0, k = 1, |PC1_x|", "2-D example", 1.0, rs_first),
        Cell("Table 1", "RSPCA p = 0, ARE", "2-D example", 0.5720, rs_are, "",
             "" if abs(np.mean(rs_are) - 0.572) <= are_spread else
             f"ARE = mean|y_i| for PC1 = (1, 0): one noise draw in the paper; ours "
             f"{min(rs_are):.3f}–{max(rs_are):.3f} over seeds (expectation ≈ 0.66 with outliers at 7)"),
        Cell("Table 1", "sPCA-rSVD (ℓ2 sparse), ARE", "2-D example", 1.25, l2_are),
    ]


# ------------------------------------------------------------------------------ Hastie (Figs. 2–3)
def mr(components):
    S = toys.HASTIE_SUPPORTS
    bad = 0
    for j in range(2):
        supp = set(np.flatnonzero(components[j]))
        bad += len(supp.symmetric_difference(S[j]))
    return bad / 20.0


HASTIE_METHODS = {   # RSPCA with the paper's experimental starts (all-ones + random), and with ours
    "RSPCA p=0": lambda: RSPCA(n_components=2, k_nonzero=4, p=0.0, pca_start=False),
    "RSPCA p=1/2": lambda: RSPCA(n_components=2, k_nonzero=4, p=0.5, pca_start=False),
    "RSPCA p=1": lambda: RSPCA(n_components=2, k_nonzero=4, p=1.0, pca_start=False),
    "RSPCA p=0 + PCA start": lambda: RSPCA(n_components=2, k_nonzero=4, p=0.0),
    "sPCA-rSVD hard": lambda: SPCArSVD(n_components=2, k_nonzero=4),
    "GPower ℓ1": lambda: GPower(n_components=2, gamma=0.5),
}


def hastie_cells(seeds, noise_grid, outlier_grid):
    cells = []
    for kind, grid in (("noise σ²", noise_grid), ("outliers δ²", outlier_grid)):
        fig = "Fig. 2" if kind.startswith("noise") else "Fig. 3"
        for v in grid:
            res = {n: [] for n in HASTIE_METHODS}
            gain = []      # ℓ1 dispersion of PC1: with the PCA start / paper's starts
            for s in seeds:
                if kind.startswith("noise"):
                    X = toys.hastie_toy(n=10000, noise_var=float(v), seed=s).X
                else:
                    X = toys.hastie_toy(n=10000, n_outliers=500, outlier_var=float(v), seed=s).X
                pc1 = {}
                for name, make in HASTIE_METHODS.items():
                    try:
                        est = make().fit(X)
                        res[name].append(mr(est.components_))
                        pc1[name] = max(est.state_.details["restart objectives"][0]) \
                            if name.startswith("RSPCA") else None
                    except Exception:        # noqa: BLE001 — a failed run counts as all wrong
                        res[name].append(1.0)
                if pc1.get("RSPCA p=0") and pc1.get("RSPCA p=0 + PCA start"):
                    gain.append(pc1["RSPCA p=0 + PCA start"] / pc1["RSPCA p=0"])
            for name, vals in res.items():
                paper = 0.0 if name.startswith("RSPCA") else None
                c = Cell(fig, f"{name}, MR", f"{kind} = {v}", paper, vals)
                if c.large and "PCA start" in name:
                    c.explanation = (f"from the PCA start RSPCA reaches a PC1 with a {100 * (np.mean(gain) - 1):.1f} % "
                                     "higher ℓ1 dispersion than from the paper's starts, with x9/x10 (V3 = −0.3V1 + "
                                     "0.925V2, and the outliers' variables) in its support: the better optimum of "
                                     "the ℓ1 model is not the true support; the paper's MR ≈ 0 relies on its starts")
                elif c.large:
                    c.explanation = (f"misses a support on {sum(x > 0 for x in vals)} of {len(vals)} seeds: at "
                                     "large noise the result depends on the start (the paper's own §3.2 warning); "
                                     "the paper plots moving averages over 10 neighbouring σ²")
                cells.append(c)
            if gain:
                cells.append(Cell(fig, "RSPCA p=0: ℓ1 dispersion of PC1, PCA start / paper's starts", f"{kind} = {v}",
                                  None, gain))
    return cells


# ------------------------------------------------------------------------------ MNIST (Table 4)
PAPER_T4 = {   # ERR ratio to PCA (noise, outliers) and CPU time (s), paper 002 Table 4
    "PCA-L1": (889.2563 / 905.0617, 507.5231 / 570.3221),
    "sPCA-rSVD ℓ0": (914.5049 / 905.0617, 573.1356 / 570.3221),
    "GPower ℓ1": (906.1718 / 905.0617, 571.294 / 570.3221),
    "RSPCA ℓ1": (918.8353 / 905.0617, 646.3972 / 570.3221),
    "RSPCA ℓ0": (896.3046 / 905.0617, 505.9623 / 570.3221),
    "RSPCA ℓ1/2": (897.0606 / 905.0617, 505.6411 / 570.3221),
}
PAPER_TIME = {"noise": 307.25 / 561.23, "outliers": 560.30 / 936.77}   # RSPCA ℓ0 / PCA-L1


def sixes(kind, seed):
    six = datasets.mnist_digits(digits=[6])
    if kind == "noise":
        return corruption.corrupt(six, "fixed_rectangle", fraction=2000 / 7000, height=10, width=18,
                                  content="dots", seed=seed)
    return corruption.corrupt(six, "dot_images", fraction=3000 / 7000, seed=seed)


def table4_cells(seeds, m):
    makers = {
        "PCA": lambda: PCA(n_components=m),
        "PCA-L1": lambda: PCAL1(n_components=m),
        "sPCA-rSVD ℓ0": lambda: SPCArSVD(n_components=m, k_nonzero=400),
        "GPower ℓ1": lambda: GPower(n_components=m, gamma=0.1),
        # the paper's experimental starts (§2.5 strategy (b)): all-ones + random, no PCA start
        "RSPCA ℓ1": lambda: RSPCA(n_components=m, k_nonzero=400, p=1.0, pca_start=False),
        "RSPCA ℓ0": lambda: RSPCA(n_components=m, k_nonzero=400, p=0.0, pca_start=False),
        "RSPCA ℓ1/2": lambda: RSPCA(n_components=m, k_nonzero=400, p=0.5, pca_start=False),
    }
    cells = []
    for ci, kind in enumerate(("noise", "outliers")):
        ratio = {n: [] for n in makers if n != "PCA"}
        tratio, nnz, l1_vs_pca = [], {n: [] for n in makers}, []
        for s in seeds:
            data = sixes(kind, s)
            keep = ~data.added
            errs, times = {}, {}
            for name, make in makers.items():
                t = time.process_time()
                est = make().fit(data.X)
                times[name] = time.process_time() - t
                st = est.state_
                # eq. (16) on the centred data, with each method's own centre (every method centres)
                errs[name] = err_m(st.components, data.X - st.mean, data.X_clean - st.mean, m=m, include=keep)
                nnz[name].append(float(np.count_nonzero(st.components, axis=1).mean()))
            for name in ratio:
                ratio[name].append(errs[name] / errs["PCA"])
            tratio.append(times["RSPCA ℓ0"] / times["PCA-L1"])
            l1_vs_pca.append(times["PCA-L1"] / max(times["PCA"], 1e-9))
        for name, vals in ratio.items():
            c = Cell("Table 4", f"{name} ERR({m}) / PCA", f"digit 6, {kind}", round(PAPER_T4[name][ci], 4), vals)
            if c.large:
                c.explanation = t4_explain(name, kind, np.mean(vals), PAPER_T4[name][ci], np.mean(ratio["PCA-L1"]), m)
            cells.append(c)
        for name in ("GPower ℓ1",):
            cells.append(Cell("Table 4", f"{name} average sparsity", f"digit 6, {kind}", 609.13 if ci == 0 else 591.77,
                              nnz[name], "", "our γ = 0.1 × the largest column norm (the paper's γ is not given)"))
        c = Cell("Table 4", "CPU time RSPCA ℓ0 / PCA-L1", f"digit 6, {kind}", round(PAPER_TIME[kind], 3), tratio)
        if c.large:
            c.explanation = ("RSPCA runs 2 starts per component (all-ones + 1 random, the paper's protocol) and "
                             "PCA-L1 one; each start takes about as many iterations as PCA-L1 and an iteration "
                             "costs ~1.2× (SPARSE's sort): see benchmarks/bench_rspca.py. The paper's PCA-L1 "
                             f"took 561 s against PCA's 2.3 s, 250× — ours takes {np.median(l1_vs_pca):.0f}× PCA's time, so "
                             "the paper's 'RSPCA faster than PCA-L1' reflects its PCA-L1 code")
        cells.append(c)
    return cells


def t4_explain(name, kind, ours, paper, l1, m):
    if name.startswith("RSPCA") and kind == "outliers":
        return (f"ratio {ours:.3f} vs paper {paper:.3f}; ours within {100 * abs(ours - l1) / l1:.1f} % of PCA-L1 "
                f"({l1:.3f}) as the paper claims ('about equal to PCA-L1'); 214 dummies per 500 sixes and m = "
                f"{m} (paper 100 PCs of ≈7000 sixes) change the size of the gain over PCA")
    if kind == "noise":
        return (f"ours {ours:.3f} vs {paper:.3f}: 143 of 500 sixes carry a 10 × 18 dot rectangle; with a "
                "different number of PCs and samples the ratios of the paper's noise case (all within "
                "±2 % of PCA) shift by a few per cent")
    return (f"ours {ours:.3f} vs {paper:.3f}: same protocol at our scale (500 sixes + 214 dummies, m = {m}); "
            f"PCA-L1 itself is at {l1:.3f} of PCA here (paper 0.890): the size of every robust gain is set by "
            "the outlier share and m")


# ------------------------------------------------------------------------------ Fig. 6
def classification_cells(seeds, m):
    digits = datasets.mnist_digits()
    acc = {"raw 1-NN": [], "PCA": [], "RSPCA ℓ0": []}
    for s in seeds:
        rng = np.random.default_rng(s)
        tr, te = [], []
        for c in range(10):
            idx = rng.permutation(np.flatnonzero(digits.labels == c))
            tr += list(idx[:300])
            te += list(idx[300:500])
        train = datasets.ImageSet(images=digits.images[tr], labels=digits.labels[tr],
                                  names=tuple(digits.names[i] for i in tr), source=digits.source)
        noisy = corruption.corrupt(train, "fixed_rectangle", fraction=0.2, height=10, width=18, content="dots", seed=s)
        Xtr, ytr = noisy.X, digits.labels[tr]
        Xte, yte = digits.X[te], digits.labels[te]
        knn = lambda A, B: float(KNeighborsClassifier(1).fit(A, ytr).score(B, yte))  # noqa: E731
        acc["raw 1-NN"].append(100 * knn(Xtr, Xte))
        for name, est in (("PCA", PCA(n_components=m)),
                          ("RSPCA ℓ0", RSPCA(n_components=m, k_nonzero=400, p=0.0, pca_start=False))):
            est.fit(Xtr)
            acc[name].append(100 * knn(est.transform(Xtr), est.transform(Xte)))
    best = acc["RSPCA ℓ0"]
    return [Cell("Fig. 6", "raw 1-NN", "accuracy (%)", None, acc["raw 1-NN"], "%"),
            Cell("Fig. 6", f"PCA, {m} features", "accuracy (%)", None, acc["PCA"], "%"),
            Cell("Fig. 6", f"RSPCA ℓ0, {m} features", "accuracy (%)", 95.80, best, "%",
                 f"we train on 3000 digits (paper 10 000): 1-NN accuracy grows with the training set; raw 1-NN "
                 f"on ours is {np.mean(acc['raw 1-NN']):.1f} %, and RSPCA − raw = "
                 f"{np.mean(best) - np.mean(acc['raw 1-NN']):+.1f} points (paper: RSPCA beats raw at ≥ 40 features)")]


def main(argv=None):
    a, seeds = parse_args(__doc__, argv)
    n_seeds = len(seeds)
    if a.quick:
        noise, outl, m, cls = (1, 4000), (6000,), 10, False
    elif a.full:
        noise, outl, m, cls = (1, 500, 1000, 2000, 3000, 4000), (1, 1000, 3000, 6000), 100, True
    else:
        noise, outl, m, cls = (1, 1000, 4000), (1, 3000, 6000), 40, True
    t0 = time.perf_counter()
    print_table("Paper 002: 2-D example (Table 1)", toy_cells(seeds), n_seeds)
    print_table("Paper 002: Hastie data (Figs. 2–3, Tables 2–3), n = 10 000", hastie_cells(seeds, noise, outl), n_seeds)
    print_table(f"Paper 002: MNIST digit 6 (Table 4), {m} PCs, k = 400", table4_cells(seeds, m), n_seeds)
    if cls:
        print_table("Paper 002: classification (Fig. 6), 20 % noisy training digits", classification_cells(seeds, 40),
                    n_seeds)
    print(f"\n(total {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
