"""Paper 001 — Nie, Yuan & Huang, "Optimal mean robust principal component analysis", ICML 2014:
the reweighted part (RPCA-OM, Algorithm 1; ℓ2,p re-weighting, Algorithm 2), paper vs ours.

(The convex CRPCA-OM / Outlier Pursuit part, Fig. 1, is reproduced by another script owner.)

* Table 1 (reconstruction error Σ_i ‖x_i^r − x_i^o‖₂ of PCA, L1PCA = PCA-L1, R1PCA and RPCA-OM,
  k = 10…50, 20 % of the images occluded by one ¼-area block): on the built-in faces (100 LFW
  faces, for the paper's face sets; compared with its AT&T rows, 400 faces) and on the shipped
  digits (a random 1000 of the 5000 per seed; the paper's MNIST subset size is not given). The
  paper's absolute errors depend on unknown image counts and sizes, so the comparable quantity is
  each method's error relative to PCA's at the same k (paper: its table's ratio).
* Claim 7 (optimal mean closer to the clean mean than the ℓ2 mean; occluded samples get smaller
  d_ii), claim 8 (RPCA-OM objective ≤ R1PCA-with-ℓ2-mean objective), claim 16 (re-weighting
  converges "usually in 20 iterations").

    python benchmarks/papers/paper_001.py [--quick | --full] [--seeds N]

Default: 5 seeds, k = 10, 20, 30, 40, 50 (~2 min on one core); ``--full``: all nine k, 10 seeds;
``--quick``: k = 10, 30. Output saved in ``results_paper_001.md``.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from _table import Cell, parse_args, print_table  # noqa: E402  (also puts the repo on sys.path)

from robust_subspace_lab.core import corruption, datasets
from robust_subspace_lab.core.methods import PCA, RPCAOM
from robust_subspace_lab.core.methods.robust_pca import R1PCA
from robust_subspace_lab.core.methods.sparse_pca import PCAL1
from robust_subspace_lab.core.metrics import outlier_auc, total_reconstruction_error

warnings.simplefilter("ignore")

KS = (10, 15, 20, 25, 30, 35, 40, 45, 50)
#: Paper 001 Table 1 rows (AT&T ×10^4, MNIST ×10^4), k = 10 … 50.
PAPER = {
    "faces": {"PCA": (29.333, 27.426, 26.152, 25.119, 24.270, 23.613, 23.002, 22.425, 21.931),
              "PCA-L1": (28.948, 27.141, 26.026, 24.980, 24.128, 23.432, 22.873, 22.319, 21.798),
              "R1-PCA": (28.877, 27.109, 25.784, 24.857, 23.903, 23.266, 22.742, 22.176, 21.676),
              "RPCA-OM": (28.774, 27.036, 25.713, 24.756, 23.814, 23.153, 22.631, 22.064, 21.549)},
    "digits": {"PCA": (20.964, 17.354, 15.849, 14.866, 13.890, 13.193, 12.559, 11.924, 10.776),
               "PCA-L1": (18.255, 16.384, 15.198, 14.282, 13.584, 12.895, 12.256, 11.666, 11.359),
               "R1-PCA": (17.911, 16.005, 14.865, 13.895, 13.044, 12.350, 11.719, 11.148, 10.774),
               "RPCA-OM": (17.885, 15.974, 14.859, 13.899, 13.037, 12.303, 11.707, 11.064, 10.627)},
}
PAPER_SET = {"faces": "AT&T", "digits": "MNIST"}
METHODS = {"PCA": PCA, "PCA-L1": PCAL1, "R1-PCA": R1PCA, "RPCA-OM": RPCAOM}


def load(name, seed):
    if name == "faces":
        base = datasets.lfw_faces()
    else:
        digits = datasets.mnist_digits()
        pick = np.sort(np.random.default_rng(1000 + seed).choice(len(digits.labels), 1000, replace=False))
        base = datasets.ImageSet(images=digits.images[pick], labels=digits.labels[pick],
                                 names=tuple(digits.names[i] for i in pick), source=digits.source)
    return corruption.corrupt(base, "quarter_block", fraction=0.2, seed=seed)


def table1(name, seeds, ks):
    err = {m: {k: [] for k in ks} for m in METHODS}
    iters, mean_gain, obj_gap = [], [], []
    auc = {k: [] for k in ks}
    occl_share = {k: [] for k in ks}   # share of PCA's error on the occluded samples
    for s in seeds:
        data = load(name, s)
        clean_mean = data.X_clean.mean(axis=0)
        for k in ks:
            for mname, cls in METHODS.items():
                est = cls(n_components=k)
                rec = est.fit_state(data.X).training_reconstruction(data.X)
                err[mname][k].append(total_reconstruction_error(rec, data.X_clean))
                if mname == "PCA":
                    occl_share[k].append(total_reconstruction_error(rec, data.X_clean, include=data.outliers)
                                         / err["PCA"][k][-1])
                if mname == "RPCA-OM":
                    iters.append(est.n_iter_)
                    auc[k].append(outlier_auc(est.sample_weights_, data.outliers))
                    # b is defined up to b + Uα (claim 5): compare the means off the subspace
                    U = est.components_
                    off = lambda v: float(np.linalg.norm(v - U.T @ (U @ v)))  # noqa: E731
                    mean_gain.append(off(data.X.mean(axis=0) - clean_mean) - off(est.mean_ - clean_mean))
                    # claim 8: R1PCA's loss Σ‖r_i‖ with b fixed to the ℓ2 mean (Algorithm 1 without
                    # step 2) vs RPCA-OM's optimum; here R1-PCA is Ding's Huber version, so compare
                    # with the ℓ2,1 loss of its subspace around the ℓ2 mean
                    r1 = METHODS["R1-PCA"](n_components=k).fit(data.X)
                    Xc = data.X - r1.mean_
                    R = Xc - (Xc @ r1.components_.T) @ r1.components_
                    Xb = data.X - est.mean_
                    Rb = Xb - (Xb @ est.components_.T) @ est.components_
                    obj_gap.append(float(np.linalg.norm(Rb, axis=1).sum() / np.linalg.norm(R, axis=1).sum()))
    cells = []
    for k in ks:
        i = KS.index(k)
        pca_ours = np.array(err["PCA"][k])
        for mname in ("PCA-L1", "R1-PCA", "RPCA-OM"):
            ratio = list(np.array(err[mname][k]) / pca_ours)
            paper = PAPER[name][mname][i] / PAPER[name]["PCA"][i]
            c = Cell("Table 1", f"{mname} / PCA, k = {k}", f"{name} (paper: {PAPER_SET[name]})", round(paper, 4), ratio)
            if c.large:
                c.explanation = explain(name, mname, k, np.mean(auc[k]), np.mean(occl_share[k]))
            cells.append(c)
        om, r1 = np.array(err["RPCA-OM"][k]), np.array(err["R1-PCA"][k])
        paper = 100 * (PAPER[name]["RPCA-OM"][i] / PAPER[name]["R1-PCA"][i] - 1)
        c = Cell("Table 1", f"RPCA-OM vs R1-PCA, k = {k}", f"{name}: error difference (%)", round(paper, 2),
                 list(100 * (om / r1 - 1)), "%")
        if c.large:
            c.explanation = ("the paper's margins are 0.1–1 % on one draw; ours is one corruption draw per seed "
                             "and the sign agrees" if c.mean < 0 else
                             "RPCA-OM loses to our R1-PCA here: our R1-PCA is Ding et al.'s Huber version "
                             "(weights 1 below the median residual), which the paper does not specify")
        cells.append(c)
    cells += [
        Cell("Claim 16", "RPCA-OM iterations (tol 1e-6)", name, 20.0, iters, "",
             "" if abs(np.mean(iters) - 20) <= np.ptp(iters) / 2 else
             f"our stopping rule (relative decrease of J below 1e-6) is met in {min(iters)}–{max(iters)} "
             "iterations; the paper gives no rule, only 'usually converges in 20 iterations'"),
        *[Cell("Claim 7", f"RPCA-OM weight AUC (occluded vs clean), k = {k}", name, None, auc[k]) for k in ks],
        Cell("Claim 7", "‖(I−UUᵀ)(m_ℓ2 − m_clean)‖ − ‖(I−UUᵀ)(b − m_clean)‖ (> 0: b closer), all k", name,
             None, mean_gain),
        Cell("Claim 8", "Σ‖r_i‖ RPCA-OM / same loss of R1-PCA (≤ 1)", name, None, obj_gap),
    ]
    return cells


def explain(name, mname, k, auc, share):
    n = 100 if name == "faces" else 1000
    if mname == "PCA-L1":
        return ("PCA-L1 maximises ℓ1 dispersion, not reconstruction (the paper's own remark); its ratio to PCA "
                "depends on the data set (the paper's rows range from 0.77 to 1.05 over its 12 sets)")
    if name == "faces":
        return (f"100 faces (paper's AT&T: 400), k/n = {k / n:.2f} (paper {k / 400:.2f}); RPCA-OM's weight AUC "
                f"here is {auc:.2f} (1 = occluded faces weigh least): the larger k/n, the more the 20 occluded "
                f"faces are fitted by the subspace instead of down-weighted; occluded faces carry "
                f"{100 * share:.0f} % of PCA's error")
    return (f"random 1000 of the shipped digits, ¼-area blocks of random dots (paper: subset, content and "
            f"scale unstated). RPCA-OM's weight AUC is {auc:.2f}, yet the occluded digits carry only "
            f"{100 * share:.0f} % of PCA's error, so down-weighting them can lower the total by at most that "
            "much; the paper's 15 % gain at k = 10 implies occlusions that dominate its error")


def main(argv=None):
    a, seeds = parse_args(__doc__, argv)
    n_seeds = len(seeds)
    ks = (10, 30) if a.quick else (KS if a.full else (10, 20, 30, 40, 50))
    t0 = time.perf_counter()
    for name in ("faces", "digits"):
        print_table(f"Paper 001 Table 1 (reweighted methods), {name}", table1(name, seeds, ks), n_seeds)
    print(f"\n(total {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
