"""Shared linear algebra for the reweighted subspace methods.

Every reweighted PCA in the papers needs the top-k eigenvectors of a weighted scatter matrix
``S_w = Σ_i w_i x̃_i x̃_iᵀ = X̃ᵀ diag(w) X̃`` (paper 000 eq. 12; paper 001 eq. 16). This module
computes them once, in one place, from whichever of the two matrices is smaller:

* ``n_samples <= n_features``: the weighted Gram matrix ``D G D`` (n × n), ``D = diag(√w)``,
  ``G = X̃ X̃ᵀ`` (which callers can precompute once per run), then ``W = X̃ᵀ D V Λ^{-1/2}``;
* otherwise the scatter matrix ``S_w`` itself (d × d).

Both use ``scipy.linalg.eigh(..., subset_by_index=...)``, so only the k wanted eigenpairs are
computed, never a full SVD.
"""
from __future__ import annotations

import numpy as np
from scipy import linalg


def orient(components: np.ndarray) -> np.ndarray:
    """Fix the arbitrary sign of each row so that its largest-magnitude entry is positive.

    Eigenvectors are defined up to sign; fixing it keeps basis images from flickering between
    iterations. Returns a new array; shape (k, d) unchanged.
    """
    idx = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(len(components)), idx])
    signs[signs == 0] = 1.0
    return components * signs[:, None]


def weighted_subspace(Xc: np.ndarray, weights: np.ndarray, k: int,
                      gram: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Top-k eigenvectors of ``Xcᵀ diag(weights) Xc``.

    Parameters
    ----------
    Xc : (n_samples, n_features) centred data.
    weights : (n_samples,) non-negative sample weights (any overall scale).
    k : number of eigenvectors, ``1 <= k < min(n_samples, n_features)``.
    gram : optional precomputed ``Xc @ Xc.T`` (n_samples, n_samples); used when n_samples <= n_features.

    Returns
    -------
    components : (k, n_features) orthonormal rows, by decreasing eigenvalue, signs fixed by :func:`orient`.
    eigenvalues : (k,) the matching eigenvalues of the weighted scatter, decreasing.
    """
    n, d = Xc.shape
    w = np.asarray(weights, dtype=float)
    if n <= d:
        G = Xc @ Xc.T if gram is None else gram
        s = np.sqrt(w)
        K = G * s[:, None] * s[None, :]
        # K is symmetric: pass its transpose (Fortran order) so LAPACK needs no copy.
        evals, V = linalg.eigh(K.T, subset_by_index=[n - k, n - 1], driver="evr",
                               overwrite_a=True, check_finite=False)
        evals, V = evals[::-1], V[:, ::-1]
        comps = (Xc.T @ (V * s[:, None])).T      # rows ∝ eigenvectors of the scatter (norm √λ)
        norms = np.linalg.norm(comps, axis=1)
        if np.any(norms <= 1e-12 * max(norms.max(), 1e-300)):
            # k exceeds the rank of the weighted data: complete to an orthonormal basis.
            comps = linalg.qr(comps.T, mode="economic")[0].T
        else:
            comps = comps / norms[:, None]
    else:
        S = Xc.T @ (Xc * w[:, None])
        evals, Wt = linalg.eigh(S, subset_by_index=[d - k, d - 1], driver="evr",
                                overwrite_a=True, check_finite=False)
        evals, comps = evals[::-1], Wt[:, ::-1].T
    return orient(comps), np.maximum(evals, 0.0)


def residual_sq(sq_norms: np.ndarray, Xc: np.ndarray, components: np.ndarray) -> np.ndarray:
    """Squared distances ``‖x̃_i − WᵀW x̃_i‖² = ‖x̃_i‖² − ‖W x̃_i‖²`` of each row to the subspace.

    ``sq_norms`` are the precomputed ``‖x̃_i‖²``. Round-off can make the difference slightly
    negative; it is clipped at 0 (paper 000, §3.4 pitfall 2). Shape (n_samples,).
    """
    proj = Xc @ components.T
    return np.maximum(sq_norms - np.einsum("ij,ij->i", proj, proj), 0.0)


def positive_floor(values: np.ndarray, factor: float = 0.01) -> float:
    """``factor × min`` of the positive entries of ``values`` (a δ/ε guard), or 1e-12 if none is positive."""
    pos = values[values > 0]
    return float(factor * pos.min()) if pos.size else 1e-12
