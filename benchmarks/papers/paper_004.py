"""Paper 004 (Huang, Cabral & De la Torre, "Robust Regression", IEEE TPAMI 38(2), 2016): the
paper's tables with our data, paper value vs ours over seeds (``_table.Cell``).

* Table 1 (§5.1.1): the synthetic 3-D example (:func:`core.regression.data.synthetic_3d`),
  RAE_T and RAE_Y of LSR, RANSAC, TLS, RPCA+LSR and RR at their defaults.
* Table 3 (§5.2.1, "Downsample" rows): AR faces with black squares → the built-in digits
  (downsampled to 14 × 14 = 196-D, 15 training and 15 test images per class) with one black
  square covering 0 / 5 / 20 / 40 % of every image: 1-NN and RLDA against the paper's cells, LDA
  and RLDA with the test-time cleaning (eq. 8) as ours only.
* Table 5 (§5.3): PubFig/Multi-PIE attributes with missing feature blocks are not shipped; its
  claim (RLDA-missing beats LDA with the missing entries filled) is checked on the digits with
  square blocks of missing pixels (``core.corruption.missing_blocks``).

Every difference larger than the seed spread carries an explanation measured here.

    python benchmarks/papers/paper_004.py [--quick] [--full] [--seeds N]

Default: 5 seeds (Table 1 with 10, the paper's count); ``--quick``: 5 seeds, Table 3 at 20 %
only; ``--full``: 10 seeds everywhere.
"""
from __future__ import annotations

import time
import warnings

import numpy as np

from _table import Cell, parse_args, print_table  # also puts the repository root on sys.path

from robust_subspace_lab.core import corruption
from robust_subspace_lab.core.regression import LDA, RANSAC, RLDA, RLDAMissing, RPCALS, RR, TLS, LeastSquares, data

SIZE = (14, 14)
PER_CLASS = 15


def rae_t(T, d):
    c = list(d.scored_columns)
    return float(np.linalg.norm(T[:, c] - d.T_true[:, c]) / np.linalg.norm(d.T_true[:, c]))


def rae_y(Yhat, Y):
    return float(np.linalg.norm(Yhat - Y) / np.linalg.norm(Y))


# =========================================================================== Table 1
TABLE1 = {"LSR": (0.269, 0.035), "RANSAC": (0.256, 0.036), "TLS": (0.269, 0.925),
          "RPCA+LSR": (0.464, 0.051), "RR": (0.035, 0.015)}


def table1(seeds: int) -> list[Cell]:
    make = {"LSR": LeastSquares, "RANSAC": RANSAC, "TLS": TLS, "RPCA+LSR": RPCALS, "RR": RR}
    res = {k: ([], []) for k in make}
    extra = {"RR clean": [], "RR oracle": [], "RPCA λ×2": [], "LSR noise 3": [], "RPCA rank": []}
    for seed in range(seeds):
        d = data.synthetic_3d(seed=seed)
        for name, cls in make.items():
            est = cls().fit(d.X_train, d.Y_train)
            res[name][0].append(rae_t(est.T_, d))
            res[name][1].append(rae_y(est.predict(d.X_test), d.Y_test))
            if name == "RR":
                extra["RR clean"].append(rae_y(est.predict(d.X_test, clean=True), d.Y_test))
                extra["RR oracle"].append(rae_y(est.predict(d.X_clean[d.test]), d.Y_test))
            if name == "RPCA+LSR":
                extra["RPCA rank"].append(est.state_.scalars["rank"])
                extra["RPCA λ×2"].append(rae_t(RPCALS(lam_scale=2.0).fit(d.X_train, d.Y_train).T_, d))
        d3 = data.synthetic_3d(seed=seed, noise=3.0)
        extra["LSR noise 3"].append(rae_t(LeastSquares().fit(d3.X_train, d3.Y_train).T_, d3))
    m = {k: float(np.mean(v)) for k, v in extra.items()}
    gen = (f"generator details unstated (T* distribution, noise scale): with our reading (T* ~ randn, "
           f"U[0,6] plane, N(0,1) errors) LSR itself is far better than the paper's; measured: LSR RAE_T "
           f"{np.mean(res['LSR'][0]):.3f} at noise 1, {m['LSR noise 3']:.3f} at noise 3")
    expl = {
        ("LSR", 0): gen, ("RANSAC", 0): gen, ("TLS", 0): gen,
        ("LSR", 1): gen, ("RANSAC", 1): gen,
        ("TLS", 1): "TLS is catastrophic on RAE_Y in the paper (0.925) and not here: same generator "
                    "question as LSR",
        ("RPCA+LSR", 0): (f"PCP's default λ = 1/√max(n, d) over-cleans a 3-feature matrix (mean rank of L "
                          f"{m['RPCA rank']:.1f}, the plane has rank 2): the paper's RPCA+LSR is worse than "
                          f"LSR too; with λ×2 RAE_T is {m['RPCA λ×2']:.3f}"),
        ("RPCA+LSR", 1): "same over-cleaning (rank-1 L) as RAE_T",
        ("RR", 0): gen,
        ("RR", 1): (f"in-plane test errors cannot be removed by any cleaning: RR's T on the clean test "
                    f"inputs gives RAE_Y {m['RR oracle']:.3f} (the paper's 0.015); with the test-time "
                    f"cleaning (eq. 8) {m['RR clean']:.3f}"),
    }
    cells = []
    for name, (pt, py) in TABLE1.items():
        for j, (metric, pv) in enumerate((("RAE_T", pt), ("RAE_Y", py))):
            c = Cell("Table 1", name, metric, pv, res[name][j])
            if c.large:
                c.explanation = expl.get((name, j), "")
            cells.append(c)
    return cells


# =========================================================================== Table 3
TABLE3 = {0.0: (68.5, 89.8), 0.05: (33.7, 85.1), 0.2: (9.7, 72.4), 0.4: (7.4, 61.4)}


def _occluded_digits(seed: int, share: float):
    imgs = data.digits_subset(2 * PER_CLASS, seed, SIZE)
    c = corruption.black_square(imgs, share=share, seed=seed) if share > 0 else corruption.no_corruption(imgs)
    return data.regression_data(c, seed=seed, task="classification")


def _one_nn(d) -> float:
    from robust_subspace_lab.core.regression._base import nearest_rows
    pred = d.labels[d.train][nearest_rows(d.X_test, d.X_train)]
    return float(np.mean(pred == d.labels[d.test]))


def table3(seeds: int, shares) -> list[Cell]:
    cells = []
    for share in shares:
        acc = {"1-NN": [], "LDA": [], "RLDA": [], "RLDA+clean": [], "zeros": []}
        for seed in range(seeds):
            d = _occluded_digits(seed, share)
            acc["1-NN"].append(100 * _one_nn(d))
            acc["LDA"].append(100 * LDA().fit(d.X_train, d.targets_train).score(d.X_test, d.targets_test))
            r = RLDA().fit(d.X_train, d.targets_train)
            acc["RLDA"].append(100 * r.score(d.X_test, d.targets_test))
            acc["RLDA+clean"].append(100 * r.score(d.X_test, d.targets_test, clean=True))
            acc["zeros"].append(100 * float(np.mean(d.X_clean == 0)))
        p_nn, p_rlda = TABLE3[share]
        col = f"{int(share * 100)} % square"
        data_note = (f"AR faces (100 subjects, 13 training images each, 540-D) → built-in digits (10 classes, "
                     f"{PER_CLASS} per class, 196-D): different data")
        nn = Cell("Table 3", "1-NN", col, p_nn, acc["1-NN"], unit=" %")
        if nn.large:
            nn.explanation = data_note + "; digits are easier for 1-NN than 100 identities"
        rl = Cell("Table 3", "RLDA", col, p_rlda, acc["RLDA"], unit=" %")
        if rl.large:
            rl.explanation = (f"{data_note}. On the digits RLDA ≈ LDA ({np.mean(acc['LDA']):.1f} %): "
                              f"{np.mean(acc['zeros']):.0f} % of the clean pixels are 0, the strokes are "
                              f"themselves sparse, so the ℓ1 term cannot tell them from an occlusion")
        cells += [nn, Cell("Table 3", "LDA (ours only)", col, None, acc["LDA"], unit=" %"), rl,
                  Cell("Table 3", "RLDA + test cleaning eq. 8 (ours only)", col, None, acc["RLDA+clean"],
                       unit=" %")]
    return cells


# =========================================================================== Table 5 (claim)
def table5(seeds: int) -> list[Cell]:
    rl, ld = [], []
    for seed in range(seeds):
        imgs = data.digits_subset(2 * PER_CLASS, seed, SIZE)
        c = corruption.missing_blocks(imgs, share=0.3, block=3, seed=seed)
        d = data.regression_data(c, seed=seed, task="classification")
        rl.append(100 * RLDAMissing().fit(d.X_train, d.targets_train).score(d.X_test, d.targets_test, clean=True))
        fill = np.nanmean(d.X_train, axis=0)
        ld.append(100 * LDA().fit(np.where(np.isnan(d.X_train), fill, d.X_train), d.targets_train)
                  .score(np.where(np.isnan(d.X_test), fill, d.X_test), d.targets_test))
    return [Cell("Table 5 (claim)", "RLDA-Missing, eq. 10 at test", "digits, 30 % missing", None, rl, unit=" %"),
            Cell("Table 5 (claim)", "LDA, mean-filled", "digits, 30 % missing", None, ld, unit=" %")]


def main(argv=None):
    a, seed_list = parse_args(__doc__, argv)
    seeds = len(seed_list)
    shares = (0.2,) if a.quick else (0.0, 0.05, 0.2, 0.4)
    t0 = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print_table("Paper 004, Table 1: synthetic 3-D example (RAE, defaults)", table1(max(seeds, 10)),
                    max(seeds, 10))
        print_table("Paper 004, Table 3 (Downsample rows): accuracy under black squares, digits 14 × 14",
                    table3(seeds, shares), seeds)
        print_table("Paper 004, Table 5 claim: RLDA-Missing vs LDA with missing pixels (accuracy)",
                    table5(seeds), seeds)
    print(f"\n(run time {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
