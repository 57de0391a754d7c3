"""Evaluation measures as the papers define them. Intensities on the 0–255 grey-level scale."""
from __future__ import annotations

import numpy as np
from scipy import linalg, stats


def reconstruction_error(components: np.ndarray, X: np.ndarray, X_clean: np.ndarray,
                         clean_mean: np.ndarray | None = None,
                         include: np.ndarray | None = None) -> float:
    """Average reconstruction error against the clean data, paper 000 eq. (14)::

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
    X = np.asarray(X, dtype=float)
    X_clean = np.asarray(X_clean, dtype=float)
    if include is not None:
        X, X_clean = X[include], X_clean[include]
    m = X_clean.mean(axis=0) if clean_mean is None else clean_mean
    W = np.asarray(components, dtype=float)
    R = (X_clean - m) - ((X - m) @ W.T) @ W
    return float(np.linalg.norm(R, axis=1).mean())


def principal_angles(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """Principal angles (radians, increasing) between the row spaces of A (k1, d) and B (k2, d)."""
    return np.sort(linalg.subspace_angles(np.asarray(A).T, np.asarray(B).T))


def total_reconstruction_error(reconstruction: np.ndarray, X_clean: np.ndarray,
                               include: np.ndarray | None = None) -> float:
    """Paper 001's reconstruction error ``Σ_i ‖x_i^r − x_i^o‖₂`` (§5.3, unsquared, summed over
    samples): ``reconstruction`` (n, d) is each method's reconstruction of its (corrupted)
    training samples, ``X_clean`` (n, d) the originals, 0–255. ``include`` selects samples
    (default all). Returns grey levels."""
    R = np.asarray(reconstruction, dtype=float) - np.asarray(X_clean, dtype=float)
    if include is not None:
        R = R[include]
    return float(np.linalg.norm(R, axis=1).sum())


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
