"""Evaluation measures as the papers define them. Intensities on the 0–255 grey-level scale."""
from __future__ import annotations

import numpy as np
from scipy import linalg


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
