"""Evaluation measures as the papers define them. Intensities on the 0–255 grey-level scale.

Samples are rows everywhere (``(n_samples, n_features)``), as in the rest of ``core``.

* Subspace recovery: :func:`reconstruction_error` (paper 000), :func:`total_reconstruction_error`
  (001), :func:`err_m`, :func:`average_residual_error` (002), :func:`relative_error` (003),
  :func:`principal_angles`, :func:`outlier_auc`,
  :func:`effective_n_samples` (Kish), :func:`weight_share`.
* Clustering (paper 003 §5.4): :func:`kmeans_labels`, :func:`clustering_accuracy`,
  :func:`normalized_mutual_info`.
* Regression and classification (paper 004 §5.1, §5.6): :func:`coefficient_relative_error`
  (RAE_T), :func:`prediction_relative_error` (RAE_Y), :func:`root_mean_squared_error`,
  :func:`mean_absolute_error`, :func:`angles_from_cos_sin`, :func:`mean_angle_error` (yaw),
  :func:`classification_accuracy`, :func:`auroc`, :func:`mean_auroc`, :func:`min_ndc`.
"""
from __future__ import annotations

import warnings

import numpy as np
from scipy import linalg, stats
from scipy.cluster.vq import kmeans2
from scipy.optimize import linear_sum_assignment

from .errors import DataError, ParameterError
from .interrupt import checkpoint


def reconstruction_error(components: np.ndarray, X: np.ndarray, X_clean: np.ndarray,
                         clean_mean: np.ndarray | None = None,
                         include: np.ndarray | None = None) -> float:
    """Average reconstruction error against the clean data, paper 000 eq. (14).

    ::

        E(W) = (1/N) Σ_i ‖(x_i^ori − m) − WᵀW (x_i − m)‖₂

    Parameters
    ----------
    components : (k, n_features) orthonormal rows W (from any method).
    X : (n_samples, n_features) the training data the method saw (corrupted), 0–255.
    X_clean : (n_samples, n_features) the same samples before corruption (x_i^ori).
    clean_mean : m, the mean of the clean images; paper 000 uses the same clean mean for every
        method. Default: the mean of ``X_clean[include]``.
    include : (n_samples,) bool, the samples to average over. Paper 000 excludes added dummy
        images (pass ``~corrupted.added``). Default: all.

    Returns
    -------
    float, in grey levels (the norm is not squared, as in the paper).
    """
    X = _as_float(X)
    X_clean = _as_float(X_clean)
    n = X.shape[0]
    keep = _row_mask(include, n)
    count = int(np.count_nonzero(keep))
    if count == 0:
        return float("nan")
    if clean_mean is None:      # the mean of the included clean rows, without copying them
        m = X_clean.mean(axis=0) if count == n else (keep @ X_clean) / count
    else:
        m = np.asarray(clean_mean, dtype=float)
    return float(projection_residual_norms(components, X, X_clean, m)[keep].sum()) / count


def projection_residual_norms(components: np.ndarray, X: np.ndarray, X_clean: np.ndarray,
                              centres: np.ndarray, clean_sq: np.ndarray | None = None,
                              same_rows: np.ndarray | None = None) -> np.ndarray:
    """``‖(x_clean_i − c) − WᵀW (x_i − c)‖₂`` for every row i and every centre c, without any
    (n, d) temporary: with ``y_i = W (x_i − c)`` the square expands to
    ``‖x_clean_i − c‖² − 2 (W (x_clean_i − c))·y_i + y_iᵀ (W Wᵀ) y_i``: one product of X_clean
    with k + (number of centres) columns, one of X with k columns, and the rows' squared norms
    ``clean_sq`` (``‖x_clean_i‖²``; computed when not given). Rows where the expansion cancels
    (square ≤ 1e-8 ‖x_clean_i − c‖²: reconstructions within 1e-4 of the truth) are recomputed
    directly. ``components`` (k, d) need not be orthonormal. ``same_rows`` (n,) bool, optional,
    marks rows where X equals X_clean (an uncorrupted sample): X is read only on the others.

    Returns (n_samples,) for one centre (d,), (n_centres, n_samples) for centres (n_centres, d)."""
    W = np.asarray(components, dtype=float)
    C = np.atleast_2d(np.asarray(centres, dtype=float))
    X, X_clean = _as_float(X), _as_float(X_clean)
    k = W.shape[0]
    A = _times(X_clean, np.column_stack([W.T, C.T]))  # (n, k + m): W x_clean_i and x_clean_i · c
    if same_rows is None:
        B = _times(X, W.T)                            # (n, k): W x_i
    else:
        B = A[:, :k].copy()
        differ = np.flatnonzero(~np.asarray(same_rows, dtype=bool))
        for b in row_blocks(len(differ), X.shape[1]):
            B[differ[b]] = X[differ[b]] @ W.T
    if clean_sq is None:       # in float64 (a float32 sum lost 1e-6 relative), block by block
        clean_sq = np.zeros(X_clean.shape[0])
        for b in row_blocks(*X_clean.shape):
            rows = np.asarray(X_clean[b], dtype=np.float64)
            clean_sq[b] = np.einsum("ij,ij->i", rows, rows)
    G = W @ W.T
    out = np.empty((len(C), X.shape[0]))
    for j, c in enumerate(C):
        Wc = W @ c
        c_sq = clean_sq - 2.0 * A[:, k + j] + c @ c   # ‖x_clean_i − c‖²
        WC, Y = A[:, :k] - Wc, B - Wc
        sq = c_sq - 2.0 * np.einsum("ij,ij->i", WC, Y) + np.einsum("ij,jk,ik->i", Y, G, Y)
        out[j] = np.sqrt(np.maximum(sq, 0.0))
        close = np.flatnonzero(sq <= 1e-8 * np.maximum(c_sq, 0.0))
        for b in row_blocks(len(close), X.shape[1]):
            rows = close[b]
            R = (X_clean[rows] - c) - ((X[rows] - c) @ W.T) @ W
            out[j, rows] = np.linalg.norm(R, axis=1)
    return out if np.ndim(centres) == 2 else out[0]


#: entries (rows × features) of one block of rows in the per-sample sums of this module and of
#: :mod:`core.views` (8 MB of float64 temporaries): the whole data is never copied for a metric
BLOCK_ENTRIES = 2 ** 20


def row_blocks(n_samples: int, n_features: int, entries: int | None = None):
    """Slices over ``range(n_samples)`` of about ``entries // n_features`` rows each (at least
    one row; ``entries`` default :data:`BLOCK_ENTRIES`): the blocks of the per-sample sums."""
    entries = BLOCK_ENTRIES if entries is None else entries
    step = max(1, int(entries) // max(int(n_features), 1))
    return [slice(i, min(i + step, n_samples)) for i in range(0, n_samples, step)]


def _row_mask(include, n: int) -> np.ndarray:
    """``include`` (None: all rows; a boolean mask; or row indices) as an (n,) boolean mask."""
    if include is None:
        return np.ones(n, dtype=bool)
    include = np.asarray(include)
    if include.dtype == bool:
        return include
    mask = np.zeros(n, dtype=bool)
    mask[include] = True
    return mask


def _times(X: np.ndarray, M: np.ndarray) -> np.ndarray:
    """``X @ M`` in M's type (float64) with X converted one block of rows at a time: numpy's
    mixed float32 @ float64 product converts the whole of X first (a 457 MB temporary for the
    5,000 digits at 96 × 96 with dot images in single precision, per snapshot)."""
    if X.dtype == M.dtype:
        return X @ M
    out = np.empty((X.shape[0], M.shape[1]), dtype=np.result_type(X.dtype, M.dtype))
    for b in row_blocks(*X.shape):
        checkpoint()          # a cancelled run (core.interrupt) stops within a block
        out[b] = X[b] @ M
    return out


def _as_float(a) -> np.ndarray:
    """``a`` as a float array (no copy when it already is one)."""
    a = np.asarray(a)
    return a if np.issubdtype(a.dtype, np.floating) else a.astype(np.float64)


def principal_angles(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Principal angles (radians, increasing) between the row spaces of A (k1, d) and B (k2, d)."""
    return np.sort(linalg.subspace_angles(np.asarray(A).T, np.asarray(B).T))


def total_reconstruction_error(reconstruction: np.ndarray, X_clean: np.ndarray,
                               include: np.ndarray | None = None) -> float:
    """Paper 001's reconstruction error ``Σ_i ‖x_i^r − x_i^o‖₂`` (§5.3, unsquared, summed over
    samples): ``reconstruction`` (n, d) is each method's reconstruction of its (corrupted)
    training samples, ``X_clean`` (n, d) the originals, 0–255. ``include`` selects samples
    (default all). Returns grey levels."""
    rec, clean = _as_float(reconstruction), _as_float(X_clean)
    keep = _row_mask(include, rec.shape[0])
    total = 0.0
    for b in row_blocks(rec.shape[0], rec.shape[1]):       # no (n, d) temporaries
        total += float(np.linalg.norm(rec[b] - clean[b], axis=1)[keep[b]].sum())
    return total


def err_m(components: np.ndarray, X: np.ndarray, X_clean: np.ndarray, m: int | None = None,
          include: np.ndarray | None = None) -> float:
    """Paper 002's ERR(m), eq. (16) with the inner index typo fixed::

        ERR(m) = (1/n) Σ_i ‖x_i^org − Σ_{j<=m} w_j w_jᵀ x_i‖₂

    No mean is subtracted or added back (as in the paper); ``components`` (k, d) need not be
    orthogonal (sparse loadings); ``m`` defaults to all of them; ``include`` selects the scored
    samples (the paper scores only the original images, not added outliers). Grey levels."""
    W = np.asarray(components, dtype=float)[:m]
    X = np.asarray(X, dtype=float)
    X_clean = np.asarray(X_clean, dtype=float)
    if include is not None:
        X, X_clean = X[include], X_clean[include]
    return float(np.linalg.norm(X_clean - (X @ W.T) @ W, axis=1).mean())


def average_residual_error(w: np.ndarray, X: np.ndarray) -> float:
    """Paper 002's ARE (§3.1): ``(1/n) Σ_i ‖x_i − w wᵀ x_i‖₂`` for one unit direction w (d,)."""
    w = np.asarray(w, dtype=float)
    X = np.asarray(X, dtype=float)
    return float(np.linalg.norm(X - np.outer(X @ w, w), axis=1).mean())


def outlier_auc(weights: np.ndarray, outliers: np.ndarray) -> float:
    """ROC AUC of the sample weights as a detector of the corrupted samples: the probability
    that a corrupted sample has a *lower* weight than a clean one (ties count ½). 1 = perfect,
    0.5 = chance, < 0.5 = the method trusts the outliers more. NaN if either group is empty.
    Computed with the Mann–Whitney U statistic (scipy.stats.mannwhitneyu)."""
    weights = np.asarray(weights, dtype=float)
    outliers = np.asarray(outliers, dtype=bool)
    a, b = weights[~outliers], weights[outliers]
    if a.size == 0 or b.size == 0:
        return float("nan")
    u = stats.mannwhitneyu(a, b, alternative="two-sided").statistic
    return float(u / (a.size * b.size))



def effective_n_samples(weights) -> float:
    """Kish's effective number of samples of non-negative sample weights, ``(Σ wᵢ)² / Σ wᵢ²``.

    Between 1 (one sample carries all the weight) and n (equal weights); scale-free. A reweighting
    fit whose value falls far below n has *collapsed* onto a few samples: with weights such as
    eᵢ^(p−1) (paper 000) or 1/(2‖rᵢ‖) (paper 001), a sample the subspace fits almost exactly gets an
    almost infinite weight. L. Kish, *Survey Sampling*, Wiley 1965.

    Parameters
    ----------
    weights : (n_samples,) non-negative, finite.

    Returns
    -------
    float in [1, n_samples]; NaN if every weight is 0.

    Raises
    ------
    DataError if a weight is negative or not finite.
    """
    w = np.asarray(weights, dtype=float).ravel()
    if not np.all(np.isfinite(w)) or np.any(w < 0):
        raise DataError("weights must be finite and non-negative for the effective number of samples")
    top = w.max(initial=0.0)
    if top == 0.0:
        return float("nan")
    w = w / top                                   # scale-free, and no overflow in the squares
    return float(w.sum() ** 2 / np.dot(w, w))


def weight_share(weights, count: int) -> float:
    """The share of the total weight carried by the ``count`` largest weights (in [0, 1])."""
    w = np.sort(np.asarray(weights, dtype=float).ravel())[::-1]
    total = w.sum()
    return float(w[:max(int(count), 0)].sum() / total) if total > 0 else float("nan")

# --------------------------------------------------------------------------- relative errors

def _pair(a, b, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise DataError(f"{names[0]} and {names[1]} must have the same shape, got {a.shape} and {b.shape}")
    if a.size == 0:
        raise DataError(f"{names[0]} is empty")
    return a, b


def _relative(truth: np.ndarray, estimate: np.ndarray, name: str) -> float:
    den = float(np.linalg.norm(truth))
    num = float(np.linalg.norm(truth - estimate))
    if den == 0.0:
        raise DataError(f"{name} is all zeros: the relative error ‖{name} − estimate‖_F / ‖{name}‖_F is undefined")
    return num / den


def relative_error(X_clean, X_hat) -> float:
    """Relative reconstruction error against the clean data, paper 003 (Truncated CauchyNMF)
    §5.4 / Tables II–III::

        relative_error = ‖X_clean − X_hat‖_F / ‖X_clean‖_F

    where ``X_hat`` is the reconstruction (e.g. ``H @ W`` of an NMF fitted to the *corrupted*
    data; the paper writes ‖V̂ − WH‖_F / ‖V̂‖_F with samples as columns — the Frobenius norm does
    not care). The paper reports it in % (multiply by 100).

    Parameters
    ----------
    X_clean : array (any shape, typically (n_samples, n_features)), the clean data, 0–255.
    X_hat : array of the same shape, the reconstruction.

    Returns
    -------
    float >= 0 (0 when ``X_hat == X_clean``; NaN if ``X_hat`` holds NaN).

    Raises
    ------
    DataError : different shapes, empty arrays, or ``X_clean`` all zeros (undefined).
    """
    X_clean, X_hat = _pair(X_clean, X_hat, ("X_clean", "X_hat"))
    return _relative(X_clean, X_hat, "X_clean")


def coefficient_relative_error(T_true, T_hat, columns=None) -> float:
    """RAE_T of paper 004 (Robust Regression) §5.1 / Table 1, the relative error of a regression
    matrix::

        RAE_T = ‖T_hat[:, c] − T_true[:, c]‖_F / ‖T_true[:, c]‖_F

    The paper scores only the columns c = 1, 2 of T (d_y × (d_x + 1), the paper's layout, last
    column the bias) — column 3 multiplies a coordinate that is always 0 and the bias is left
    out. ``columns`` selects them (any numpy index along axis 1, e.g. ``[0, 1]`` or
    ``slice(0, 2)``); None scores the whole matrix. For a regressor stored as
    ((d_x + 1), d_y), pass the transposes.

    Raises DataError: different shapes, empty selection, or a zero ``T_true`` selection.
    """
    T_true, T_hat = _pair(T_true, T_hat, ("T_true", "T_hat"))
    if columns is not None:
        if T_true.ndim != 2:
            raise DataError(f"columns needs 2-D matrices, got shape {T_true.shape}")
        T_true, T_hat = T_true[:, columns], T_hat[:, columns]
        if T_true.size == 0:
            raise DataError(f"columns={columns!r} selects no column")
    return _relative(T_true, T_hat, "T_true")


def prediction_relative_error(Y_true, Y_pred) -> float:
    """RAE_Y of paper 004 §5.1 / Table 1, the relative error of the predicted outputs on the test
    samples::

        RAE_Y = ‖Y_pred − Y_true‖_F / ‖Y_true‖_F

    ``Y_true``, ``Y_pred``: arrays of one shape ((n_samples, d_y) here; the paper's d_y × n gives
    the same value). Raises DataError: different shapes, empty, or ``Y_true`` all zeros."""
    Y_true, Y_pred = _pair(Y_true, Y_pred, ("Y_true", "Y_pred"))
    return _relative(Y_true, Y_pred, "Y_true")


def root_mean_squared_error(y_true, y_pred) -> float:
    """RMSE = sqrt( (1/N) Σ_i (ŷ_i − y_i)² ) over all N entries (units of y). Standard; the
    papers report RAE (above) and angle errors instead. Raises DataError on different shapes."""
    y_true, y_pred = _pair(y_true, y_pred, ("y_true", "y_pred"))
    return float(np.sqrt(np.mean((y_pred - y_true) ** 2)))


def mean_absolute_error(y_true, y_pred) -> float:
    """MAE = (1/N) Σ_i |ŷ_i − y_i| over all N entries (units of y). For angles use
    :func:`mean_angle_error`, which wraps around. Raises DataError on different shapes."""
    y_true, y_pred = _pair(y_true, y_pred, ("y_true", "y_pred"))
    return float(np.mean(np.abs(y_pred - y_true)))


def angles_from_cos_sin(Y) -> np.ndarray:
    """Angles in degrees, θ̂ = atan2(ŷ_sin, ŷ_cos), from outputs ``Y`` of shape (n, 2) whose columns
    are the regression targets [cos θ, sin θ] (paper 004 §5.2: Y = [cos θ; sin θ]; the angle
    recovery is not spelled out in the paper). Returns (n,) in (−180, 180]."""
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 2 or Y.shape[1] != 2:
        raise DataError(f"Y must have shape (n_samples, 2) with columns [cos θ, sin θ], got {Y.shape}")
    return np.degrees(np.arctan2(Y[:, 1], Y[:, 0]))


def mean_angle_error(theta_true, theta_pred, degrees: bool = True) -> float:
    """Mean absolute angle error, paper 004 §5.2 / §5.6 (yaw error)::

        (1/N) Σ_i |θ̂_i − θ_i|,   the difference wrapped to [−180°, 180°)

    so that 179° vs −179° counts 2°, not 358° (the paper does not mention wrapping; for yaw in
    [−90°, 90°] it changes nothing). ``degrees``: the angles are in degrees (True) or radians;
    the result is in the same unit. Raises DataError on different shapes."""
    theta_true, theta_pred = _pair(theta_true, theta_pred, ("theta_true", "theta_pred"))
    period = 360.0 if degrees else 2.0 * np.pi
    d = np.mod(theta_pred - theta_true + period / 2.0, period) - period / 2.0
    return float(np.mean(np.abs(d)))


# --------------------------------------------------------------------------- classification

def _labels(labels, name: str) -> np.ndarray:
    a = np.asarray(labels)
    if a.ndim != 1:
        raise DataError(f"{name} must be one label per sample (1-D), got shape {a.shape}")
    return a


def _label_pair(a, b, names=("labels_true", "labels_pred")) -> tuple[np.ndarray, np.ndarray]:
    a, b = _labels(a, names[0]), _labels(b, names[1])
    if a.shape != b.shape:
        raise DataError(f"{names[0]} and {names[1]} must have the same length, got {a.size} and {b.size}")
    if a.size == 0:
        raise DataError(f"{names[0]} is empty")
    return a, b


def classification_accuracy(y_true, y_pred) -> float:
    """Recognition rate (paper 004 §5.3 / Table 3, paper 003 Table V): the fraction of samples
    whose predicted label equals the true one, (1/n) Σ_i 1[ŷ_i = y_i], in [0, 1] (the papers
    print %). Labels may be any comparable values. Raises DataError on different lengths."""
    y_true, y_pred = _label_pair(y_true, y_pred, ("y_true", "y_pred"))
    return float(np.mean(y_true == y_pred))


def confusion_matrix(y_true, y_pred, classes) -> np.ndarray:
    """Counts ``C[i, j]`` = number of samples of class ``classes[i]`` predicted as ``classes[j]``,
    shape (n_classes, n_classes), int; its trace over n is :func:`classification_accuracy`
    (paper 004 §5.3). Predictions outside ``classes`` are not counted. scikit-learn's
    ``confusion_matrix``; DataError on different lengths or no samples."""
    from sklearn.metrics import confusion_matrix as _sk_confusion

    y_true, y_pred = _label_pair(y_true, y_pred, ("y_true", "y_pred"))
    return _sk_confusion(y_true, y_pred, labels=list(classes)).astype(np.int64)


def _contingency(labels_true, labels_pred) -> np.ndarray:
    """Counts C[i, j] = #{samples of class i in cluster j} (classes and clusters in sorted order)."""
    _, ti = np.unique(labels_true, return_inverse=True)
    _, pj = np.unique(labels_pred, return_inverse=True)
    C = np.zeros((ti.max() + 1, pj.max() + 1), dtype=np.int64)
    np.add.at(C, (ti.ravel(), pj.ravel()), 1)
    return C


def clustering_accuracy(labels_true, labels_pred) -> float:
    """Clustering accuracy (ACC), paper 003 §5.4 (the formula is the standard one)::

        ACC = (1/n) Σ_i 1[ l_i = map(c_i) ]

    where ``map`` is the one-to-one assignment of clusters to classes that maximises the number of
    matches, found by the Hungarian algorithm (``scipy.optimize.linear_sum_assignment``) on the
    contingency table. Works when the numbers of clusters and classes differ: the surplus clusters
    (or classes) stay unmatched and their samples count as errors.

    Parameters
    ----------
    labels_true, labels_pred : (n,) any hashable, sortable labels (ints, strings); the names of
        the clusters do not matter (a permuted labelling scores 1).

    Returns
    -------
    float in [0, 1].

    Raises DataError: different lengths, empty, or not 1-D.
    """
    labels_true, labels_pred = _label_pair(labels_true, labels_pred)
    C = _contingency(labels_true, labels_pred)
    rows, cols = linear_sum_assignment(C, maximize=True)
    return float(C[rows, cols].sum() / labels_true.size)


_NMI_AVERAGES = ("arithmetic", "max", "min", "geometric")


def normalized_mutual_info(labels_true, labels_pred, average_method: str = "max") -> float:
    """Normalized mutual information (NMI), paper 003 §5.4::

        NMI = I(T; P) / norm(H(T), H(P))
        I(T; P) = Σ_ij (n_ij/n) ln( n·n_ij / (a_i b_j) ),   H(T) = −Σ_i (a_i/n) ln(a_i/n)

    with n_ij the contingency counts, a_i and b_j its row and column sums. Paper 003 names NMI but
    not its normaliser; the one definition used everywhere in this project (library, app,
    benchmarks) is ``"max"``, max(H(T), H(P)), as in the NMF clustering literature (e.g. Cai et
    al.'s GNMF). ``"arithmetic"`` (scikit-learn's default), ``"min"`` and ``"geometric"`` are
    offered for comparison. Computed by scikit-learn's ``normalized_mutual_info_score``.

    Edge cases: both labellings a single cluster → 1.0; one a single cluster and the other not →
    0.0. The result is clipped to [0, 1] against rounding.

    Raises DataError: different lengths, empty, or not 1-D; ParameterError: unknown
    ``average_method``.
    """
    from sklearn.metrics import normalized_mutual_info_score

    if average_method not in _NMI_AVERAGES:
        raise ParameterError(f"average_method must be one of {', '.join(_NMI_AVERAGES)}, got {average_method!r}")
    labels_true, labels_pred = _label_pair(labels_true, labels_pred)
    if np.unique(labels_true).size == 1 and np.unique(labels_pred).size == 1:
        return 1.0
    value = float(normalized_mutual_info_score(labels_true, labels_pred, average_method=average_method))
    return float(min(max(value, 0.0), 1.0))


def kmeans_labels(H, n_clusters: int, seed: int = 0, n_init: int = 10) -> np.ndarray:
    """Cluster the rows of ``H`` with k-means; paper 003 §5.3 clusters the NMF coefficients this
    way (K-means on H), and K-means on the raw data is its baseline.

    Lloyd's algorithm ``scipy.cluster.vq.kmeans2`` with k-means++ seeding, run ``n_init`` times;
    the run with the smallest inertia Σ_i ‖h_i − c_{label_i}‖² is kept (a run that left a cluster
    empty counts only if every run did). Deterministic for a given ``seed`` (each run draws from
    ``np.random.default_rng(seed)``). If ``H`` has at most ``n_clusters`` distinct rows, every
    distinct row is its own cluster (inertia 0, the optimum; fewer than ``n_clusters`` labels).

    Parameters
    ----------
    H : (n_samples, r) features, one sample per row (e.g. NMF coefficients, ``transform(X)``;
        the paper's H is r × n — pass its transpose). A 1-D array is one feature.
    n_clusters : k, 1 <= k <= n_samples.
    seed : non-negative int.
    n_init : number of k-means runs, >= 1.

    Returns
    -------
    (n_samples,) int64 labels in 0 … k−1.

    Raises
    ------
    ParameterError : n_clusters, seed or n_init out of range (named).
    DataError : H empty, more than 2-D, or not finite.
    """
    H = np.asarray(H, dtype=float)
    if H.ndim == 1:
        H = H[:, None]
    if H.ndim != 2 or H.shape[0] == 0:
        raise DataError(f"H must have shape (n_samples, n_features) with n_samples >= 1, got {H.shape}")
    if not np.all(np.isfinite(H)):
        raise DataError("H contains NaN or infinite values")
    n = H.shape[0]
    for name, value, low in (("n_clusters", n_clusters, 1), ("seed", seed, 0), ("n_init", n_init, 1)):
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < low:
            raise ParameterError(f"{name} must be an integer >= {low}, got {value!r}")
    if n_clusters > n:
        raise ParameterError(f"n_clusters must be <= n_samples = {n}, got {n_clusters}")

    distinct, inverse = np.unique(H, axis=0, return_inverse=True)
    if len(distinct) <= n_clusters:
        return inverse.ravel().astype(np.int64)

    rng = np.random.default_rng(seed)
    best = None
    for _ in range(int(n_init)):
        run_rng = np.random.default_rng(rng.integers(2 ** 63))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # "one of the clusters is empty": judged below
            try:
                centres, labels = kmeans2(H, int(n_clusters), minit="++", rng=run_rng)
            except TypeError:                         # SciPy < 1.15 names it seed
                centres, labels = kmeans2(H, int(n_clusters), minit="++", seed=run_rng)
        labels = labels.astype(np.int64)
        empty = int(n_clusters) - len(np.unique(labels))
        inertia = float(np.sum((H - centres[labels]) ** 2))
        key = (empty, inertia)
        if best is None or key < best[0]:
            best = (key, labels)
    assert best is not None                       # n_init >= 1 runs
    return best[1]


# --------------------------------------------------------------------------- detection scores

def auroc(labels, scores) -> float:
    """Area under the ROC curve (paper 004 §5.4–§5.5, Tables 4–5): the probability that a
    positive sample scores higher than a negative one, ties counting ½ (Mann–Whitney U / (n₊ n₋)).

    ``labels``: (n,) bool or 0/1, True = positive; ``scores``: (n,) decision values (higher =
    more positive). NaN if either class is empty. Raises DataError on different lengths."""
    labels, scores = _label_pair(labels, scores, ("labels", "scores"))
    pos = labels.astype(bool)
    scores = scores.astype(float)
    a, b = scores[pos], scores[~pos]
    if a.size == 0 or b.size == 0:
        return float("nan")
    u = stats.mannwhitneyu(a, b, alternative="two-sided").statistic
    return float(u / (a.size * b.size))


def mean_auroc(Y_true, scores) -> float:
    """Mean over classes of the per-class :func:`auroc`, paper 004 §5.6 (each class's column of the
    outputs is its decision value): ``Y_true`` (n, c) 0/1 indicator (multi-label allowed),
    ``scores`` (n, c). Classes with no positive or no negative sample are skipped (NaN if all
    are). Raises DataError on different shapes."""
    Y_true, scores = _pair(Y_true, scores, ("Y_true", "scores"))
    if Y_true.ndim != 2:
        raise DataError(f"Y_true must have shape (n_samples, n_classes), got {Y_true.shape}")
    values = [auroc(Y_true[:, j] > 0.5, scores[:, j]) for j in range(Y_true.shape[1])]
    values = [v for v in values if not np.isnan(v)]
    return float(np.mean(values)) if values else float("nan")


def min_ndc(labels, scores, c_miss: float = 80.0, c_fa: float = 1.0, p_target: float = 0.001) -> float:
    """Minimum normalized detection cost (NIST TRECVID MED), paper 004 §5.4 (MinNDC)::

        NDC(t) = [C_miss P_miss(t) P_T + C_fa P_fa(t) (1 − P_T)] / min(C_miss P_T, C_fa (1 − P_T))

    minimised over the thresholds t (a sample is detected when its score >= t, t ranging over the
    scores and +∞). P_miss = missed positives / positives, P_fa = detected negatives /
    negatives. The paper does not print the formula; the constants C_miss = 80, C_fa = 1,
    P_T = 0.001 are the MED 2010/2011 ones as recalled in the extraction (unverified), giving
    NDC = P_miss + 12.4875 P_fa. In [0, 1] (t = +∞ gives 1). Lower is better. NaN if either
    class is empty. Raises DataError on different lengths."""
    labels, scores = _label_pair(labels, scores, ("labels", "scores"))
    pos = labels.astype(bool)
    scores = scores.astype(float)
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos == 0 or n_neg == 0:
        return float("nan")
    order = np.argsort(-scores, kind="stable")
    s = scores[order]
    hits = np.cumsum(pos[order])                       # positives with score >= s[k]
    false = np.cumsum(~pos[order])
    last = np.flatnonzero(np.append(s[1:] != s[:-1], True))   # last index of each tie group
    tp = np.concatenate([[0], hits[last]])             # threshold +inf first, then each score
    fp = np.concatenate([[0], false[last]])
    p_miss = 1.0 - tp / n_pos
    p_fa = fp / n_neg
    ndc = (c_miss * p_miss * p_target + c_fa * p_fa * (1 - p_target)) / min(c_miss * p_target,
                                                                            c_fa * (1 - p_target))
    return float(ndc.min())
