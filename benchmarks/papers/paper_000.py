"""Paper 000 — Oh & Kwak, "Generalized mean for robust principal component analysis", Pattern
Recognition 2016: every table/figure we can reproduce with our data, paper vs ours over seeds.

* Fig. 1 / Fig. 2: the paper's 2-D toys (``core.toys.robust_mean_toy``, ``line_toy``).
* Figs. 4–6 (Color FERET, 800 faces 40 × 50): the 100 built-in LFW faces 25 × 25 with the paper's
  outlier shares (80/160/240 of 800 = 10/20/30 %), occluding rectangles of random 0/255 dots or
  dummy images of random dots; eq. (14) error against the clean faces, clean mean.
* Table 1 (MNIST clustering): the paper's protocol on the shipped digits — 100 each of 3, 8, 9 and
  60 other digits, unit ℓ2 norm, W learned on all 360, K-means (K = 3) on the projected inliers
  with the paper's deterministic farthest-pair start; accuracy by the Hungarian matching.
* Table 2 (PCA-GM iterations < 50, fewer as p grows): on the faces and the MNIST protocol.
* The default lesson of the app (preset ``default-lesson``).
* Not reproducible: Fig. 9 / Table 3 (Small NORB, 48 600 images): no NORB data is shipped.

    python benchmarks/papers/paper_000.py [--quick | --full] [--seeds N]

Default: 5 seeds, ~4 min on one core. ``--quick``: fewer settings (< 1 min). ``--full``: 10 seeds
and every m. Prints Markdown tables (saved in ``results_paper_000.md``).
"""
from __future__ import annotations

import time
import warnings

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.cluster import KMeans

from _table import Cell, parse_args, print_table  # noqa: E402  (also puts the repo on sys.path)

from robust_subspace_lab.core import corruption, datasets, toys
from robust_subspace_lab.core.methods import PCA, PCAGM
from robust_subspace_lab.core.methods.generalized_mean import GeneralizedMean
from robust_subspace_lab.core.methods.robust_pca import HQPCA, R1PCA
from robust_subspace_lab.core.methods.sparse_pca import PCAL1
from robust_subspace_lab.core.metrics import clustering_accuracy, outlier_auc, principal_angles, reconstruction_error
from robust_subspace_lab.core.presets.paper_000 import DEFAULT_LESSON

warnings.simplefilter("ignore")     # ConvergenceWarning is reported in the tables, not on stderr


def fit(est, X):
    return est.fit(X)


# ------------------------------------------------------------------------------ toys
def toy_cells(seeds):
    mS, m1, m2 = [], [], []
    for s in seeds:
        X = toys.robust_mean_toy(seed=s).X
        mS.append(float(X.mean(axis=0).mean()))
        m1.append(float(np.linalg.norm(fit(GeneralizedMean(p=0.1), X).mean_)))
        m2.append(float(np.linalg.norm(fit(GeneralizedMean(p=0.2), X).mean_)))
    cells = [
        Cell("Fig. 1", "m_S (arithmetic mean)", "mean coordinate", 0.45, mS, "",
             ""),
        Cell("Fig. 1", "m_G p = 0.1", "‖m_G‖ (distance to the clean centre)", None, m1),
        Cell("Fig. 1", "m_G p = 0.2", "‖m_G‖", None, m2),
    ]
    pca_ang, gm_ang, gm_iters = [], [], []
    for s in seeds:
        X = toys.line_toy(seed=s).X
        ang = lambda w: float(np.degrees(np.arctan2(abs(w[1]), abs(w[0]))))  # noqa: E731
        pca_ang.append(ang(fit(PCA(n_components=1), X).components_[0]))
        gm = fit(PCAGM(n_components=1, p=0.3), X)
        gm_ang.append(ang(gm.components_[0]))
        gm_iters.append(gm.n_iter_)
    spread_pca = np.ptp(pca_ang) / 2
    cells += [
        Cell("Fig. 2", "PCA", "direction (°), clean 45°", 60.0, pca_ang, "°",
             f"the paper's value is one random draw; ours over seeds range "
             f"{min(pca_ang):.0f}–{max(pca_ang):.0f}°" if abs(np.mean(pca_ang) - 60) > spread_pca else ""),
        Cell("Fig. 2", "PCA-GM p = 0.3", "direction (°), clean 45°", 48.9, gm_ang, "°",
             f"one random draw in the paper; ours {min(gm_ang):.1f}–{max(gm_ang):.1f}° over seeds, "
             f"closer to 45° than PCA on {sum(abs(g - 45) < abs(p - 45) for g, p in zip(gm_ang, pca_ang))}"
             f" of {len(seeds)} seeds"),
        Cell("Fig. 2", "PCA-GM p = 0.3", "iterations", None, gm_iters),
    ]
    # the paper's draw gives PCA ≈ 60°; the explanation above is only filled when it is outside
    # our spread
    return cells


# ------------------------------------------------------------------------------ faces
FACE_METHODS = {
    "PCA": lambda k: PCA(n_components=k),
    "PCA-L1": lambda k: PCAL1(n_components=k),
    "R1-PCA": lambda k: R1PCA(n_components=k),
    "HQ-PCA": lambda k: HQPCA(n_components=k),
    "PCA-GM p=0.1": lambda k: PCAGM(n_components=k, p=0.1),
    "PCA-GM p=0.2": lambda k: PCAGM(n_components=k, p=0.2),
    "PCA-GM p=0.3": lambda k: PCAGM(n_components=k, p=0.3),
    "PCA-GM p=0.4": lambda k: PCAGM(n_components=k, p=0.4),
}


def face_runs(kind, share, ms, seeds):
    """eq. 14 errors (method → m → list over seeds), PCA-GM weight AUCs, and angle to clean PCA."""
    faces = datasets.lfw_faces()
    err = {n: {m: [] for m in ms} for n in FACE_METHODS}
    auc = {m: [] for m in ms}
    for s in seeds:
        if kind == "occlusion":
            data = corruption.corrupt(faces, "rectangles", fraction=share, content="dots", seed=s)
        else:
            data = corruption.corrupt(faces, "dot_images", fraction=share, seed=s)
        keep = ~data.added
        for m in ms:
            for name, make in FACE_METHODS.items():
                est = fit(make(m), data.X)
                err[name][m].append(reconstruction_error(est.components_, data.X, data.X_clean, include=keep))
                if name == "PCA-GM p=0.3":
                    auc[m].append(outlier_auc(est.sample_weights_, data.outliers))
    return err, auc


def face_cells(seeds, ms, shares):
    cells = []
    for kind, fig in (("occlusion", "Fig. 4"), ("dummies", "Fig. 5")):
        for share in shares:
            err, auc = face_runs(kind, share, ms, seeds)
            col = f"{int(round(share * 800))}/800 ≙ {share:.0%}"
            for m in ms:
                for name in FACE_METHODS:
                    cells.append(Cell(fig, f"{name}, m = {m}", f"eq. 14 error, {col}", None, err[name][m]))
                gm = np.minimum.reduce([np.array(err[f"PCA-GM p={p}"][m]) for p in (0.1, 0.2, 0.3)])
                rivals = np.minimum.reduce([np.array(err[n][m]) for n in ("PCA", "PCA-L1", "R1-PCA")])
                wins = (np.array(err["PCA-GM p=0.3"][m]) < rivals).astype(float)
                cells.append(Cell(fig, f"claim 7: PCA-GM p=0.3 below PCA, PCA-L1, R1-PCA; m = {m}",
                                  f"share of seeds, {col}", 1.0, list(wins), "",
                                  "" if wins.all() else
                                  f"fails on {int((1 - wins).sum())} seed(s): best PCA-GM (p ≤ 0.3) "
                                  f"{gm.mean():.0f} vs best rival {rivals.mean():.0f}; with 100 faces and "
                                  f"m = {m} the subspace has room for the {int(share * 100)} outliers "
                                  f"(weight AUC {np.mean(auc[m]):.2f})"))
                cells.append(Cell(fig, f"claim 13: PCA-GM p=0.3 weight AUC, m = {m}", col, None, auc[m]))
    return cells


# ------------------------------------------------------------------------------ MNIST (Table 1)
def mnist_sets(seed):
    """The paper's §5.2 protocol on the shipped digits: 100 random 3s, 8s and 9s (inliers) and 60
    random other digits (outliers), every sample scaled to unit ℓ2 norm."""
    digits = datasets.mnist_digits()
    rng = np.random.default_rng(seed)
    X, y = digits.X, digits.labels
    inl = np.concatenate([rng.choice(np.flatnonzero(y == c), 100, replace=False) for c in (3, 8, 9)])
    out = rng.choice(np.flatnonzero(~np.isin(y, (3, 8, 9))), 60, replace=False)
    Z = X[np.concatenate([inl, out])]
    Z = Z / np.linalg.norm(Z, axis=1, keepdims=True)
    is_out = np.arange(360) >= 300
    return Z, y[inl], is_out


def farthest_start(H):
    """The paper's deterministic K-means start: the two samples farthest apart, then the sample
    with the largest sum of distances to those two."""
    D = cdist(H, H)
    i, j = np.unravel_index(np.argmax(D), D.shape)
    k = int(np.argmax(D[i] + D[j]))
    return H[[i, j, k]]


def kmeans_acc(H, labels, start="paper", seed=0):
    if start == "paper":
        km = KMeans(3, init=farthest_start(H), n_init=1, max_iter=300).fit(H)
    else:
        km = KMeans(3, init="k-means++", n_init=1, random_state=seed).fit(H)
    return 100.0 * clustering_accuracy(labels, km.labels_)


def mnist_cells(seeds, ms, slow_ms):
    raw, raw_pp = [], []
    names = ("PCA", "PCA-GM p=0.3", "PCA-GM p=0.1", "HQ-PCA", "R1-PCA", "PCA-L1")
    acc = {n: {m: [] for m in ms} for n in names}
    acc_pp = {n: {m: [] for m in ms} for n in names}     # gain over raw with k-means++ (mean of 5)
    auc = {m: [] for m in ms}
    iters = {p: [] for p in (0.1, 0.3, 0.5, 0.7, 0.9)}
    for s in seeds:
        Z, labels, is_out = mnist_sets(s)
        inl = Z[~is_out]
        raw.append(kmeans_acc(inl, labels))
        raw_pp.append(np.mean([kmeans_acc(inl, labels, "k-means++", r) for r in range(5)]))
        for m in ms:
            for name in acc:
                if name in ("R1-PCA", "PCA-L1") and m not in slow_ms:
                    continue
                make = {"PCA": PCA, "HQ-PCA": HQPCA, "R1-PCA": R1PCA, "PCA-L1": PCAL1}.get(name)
                est = fit(make(n_components=m) if make else PCAGM(n_components=m, p=float(name[-3:])), Z)
                H = est.transform(inl)
                acc[name][m].append(kmeans_acc(H, labels))
                acc_pp[name][m].append(np.mean([kmeans_acc(H, labels, "k-means++", r) for r in range(5)])
                                       - raw_pp[-1])
                if name == "PCA-GM p=0.3":
                    auc[m].append(outlier_auc(est.sample_weights_, is_out))
        for p in iters:
            iters[p].append(fit(PCAGM(n_components=20, p=p), Z).n_iter_)
    spread = np.ptp(raw) / 2
    cells = [Cell("Table 1", "K-means on raw data (paper's farthest-pair start)", "accuracy (%)", 70.0, raw, "%",
                  "" if abs(np.mean(raw) - 70) <= spread else
                  f"our 300 inliers are a different random draw from 500 per class (the paper's from the "
                  f"first 10 000 training digits); the deterministic start makes one draw's accuracy swing "
                  f"{min(raw):.0f}–{max(raw):.0f} % over our seeds"),
             Cell("Table 1", "K-means on raw data (k-means++, mean of 5 starts)", "accuracy (%)", None, raw_pp, "%")]
    base = np.array(raw)
    for m in ms:
        for name, by_m in acc.items():
            if not by_m[m]:
                continue
            paper = 75.0 if (name == "PCA-GM p=0.3" and m == 200) else None
            gain = np.array(by_m[m]) - base
            expl = ""
            if paper is not None and abs(np.mean(by_m[m]) - paper) > np.ptp(by_m[m]) / 2:
                m0 = min(ms)
                g0 = np.array(acc[name][m0]) - base
                expl = (f"gain over raw {gain.mean():+.1f} points (paper +5): at m = 200 of 360 samples the "
                        f"subspace holds the 60 outliers too (weight AUC {np.mean(auc[m]):.2f}, < 0.5 = "
                        f"outliers weigh more; {np.mean(auc[m0]):.2f} at m = {m0}), and a 200-dim projection "
                        f"keeps almost all inlier distances, so K-means sees nearly the raw data. At m = {m0} "
                        f"the gain is {g0.mean():+.1f} points, but with a seed swing of ±{np.ptp(g0) / 2:.0f}: "
                        f"the paper's deterministic start swings the raw accuracy {min(raw):.0f}–{max(raw):.0f} % "
                        f"over our draws, and with k-means++ (mean of 5 starts) the gains shrink to "
                        f"{np.mean(acc_pp[name][m0]):+.1f} (m = {m0}) and {np.mean(acc_pp[name][m]):+.1f} (m = {m}) "
                        f"points — the paper's +5 is within the noise of its own protocol")
            cells.append(Cell("Table 1", f"{name}, m = {m}", "accuracy (%)", paper, by_m[m], "%", expl))
            cells.append(Cell("Table 1", f"{name}, m = {m}", "gain over raw (points)", None, list(gain)))
            cells.append(Cell("Table 1", f"{name}, m = {m}", "gain over raw, k-means++ ×5 (points)", None,
                              acc_pp[name][m]))
        cells.append(Cell("Table 1", f"PCA-GM p=0.3 weight AUC, m = {m}", "60 outliers vs 300 inliers", None, auc[m]))
    for p, its in iters.items():
        cells.append(Cell("Table 2", f"PCA-GM p = {p}, MNIST protocol, m = 20", "iterations (< 50)", None, its))
    return cells


def table2_faces(seeds):
    cells = []
    faces = datasets.lfw_faces()
    for p in (0.1, 0.3, 0.5, 0.7, 0.9):
        its = [fit(PCAGM(n_components=10, p=p),
                   corruption.corrupt(faces, "rectangles", fraction=0.3, seed=s).X).n_iter_ for s in seeds]
        cells.append(Cell("Table 2", f"PCA-GM p = {p}, faces 30 % occluded, m = 10", "iterations (< 50)", None, its))
    return cells


# ------------------------------------------------------------------------------ default lesson
def lesson_cells(seeds):
    faces = datasets.load_builtin(DEFAULT_LESSON["data"][1])
    k, p = DEFAULT_LESSON["n_components"], DEFAULT_LESSON["p"]
    rows = {key: [] for key in ("err PCA", "err GM", "amax PCA", "amax GM", "amean PCA", "amean GM", "auc")}
    for s in seeds:
        data = corruption.corrupt(faces, DEFAULT_LESSON["corruption"], **dict(DEFAULT_LESSON["corruption_params"], seed=s))
        ref = PCA(n_components=k).fit(data.X_clean).components_
        for tag, est in (("PCA", PCA(n_components=k)), ("GM", PCAGM(n_components=k, p=p))):
            fit(est, data.X)
            a = np.degrees(principal_angles(est.components_, ref))
            rows[f"err {tag}"].append(reconstruction_error(est.components_, data.X, data.X_clean))
            rows[f"amax {tag}"].append(float(a.max()))
            rows[f"amean {tag}"].append(float(a.mean()))
            if tag == "GM":
                rows["auc"].append(outlier_auc(est.sample_weights_, data.outliers))
    col = "faces, 20 % occluded (sides 50–80 %), k = 5"
    return [Cell("Lesson", "PCA", f"eq. 14 error, {col}", None, rows["err PCA"]),
            Cell("Lesson", "PCA-GM p = 0.3", f"eq. 14 error, {col}", None, rows["err GM"]),
            Cell("Lesson", "PCA", "largest angle to clean PCA (°)", None, rows["amax PCA"], "°"),
            Cell("Lesson", "PCA-GM p = 0.3", "largest angle to clean PCA (°)", None, rows["amax GM"], "°"),
            Cell("Lesson", "PCA", "mean principal angle to clean PCA (°)", None, rows["amean PCA"], "°"),
            Cell("Lesson", "PCA-GM p = 0.3", "mean principal angle to clean PCA (°)", None, rows["amean GM"], "°"),
            Cell("Lesson", "PCA-GM p = 0.3", "weight AUC (occluded vs clean)", None, rows["auc"])]


def main(argv=None):
    a, seeds = parse_args(__doc__, argv)
    n_seeds = len(seeds)
    if a.quick:
        face_ms, shares, mn_ms, slow = [10], [0.3], [20, 200], []
    elif a.full:
        face_ms, shares, mn_ms, slow = [5, 10, 20, 40], [0.1, 0.2, 0.3], [10, 20, 50, 100, 200, 300], [200, 300]
    else:
        face_ms, shares, mn_ms, slow = [5, 10, 20], [0.1, 0.3], [10, 50, 200], [200]
    t0 = time.perf_counter()
    print_table("Paper 000: toys (Figs. 1–2)", toy_cells(seeds), n_seeds)
    print_table("Paper 000: faces (Figs. 4–5; 100 LFW faces for 800 FERET faces)", face_cells(seeds, face_ms, shares), n_seeds)
    print_table("Paper 000: MNIST clustering (Table 1) and iterations (Table 2)",
                mnist_cells(seeds, mn_ms, slow) + table2_faces(seeds), n_seeds)
    print_table("App default lesson (preset default-lesson)", lesson_cells(seeds), n_seeds)
    print("\nNot reproducible: Fig. 9 / Table 3 (Small NORB): the data is not shipped.")
    print(f"\n(total {time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
