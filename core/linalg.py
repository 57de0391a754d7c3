"""Shared linear algebra for the reweighted subspace methods.

Every reweighted PCA in the papers needs the top-k eigenvectors of a weighted scatter matrix
``S_w = Σ_i w_i x̃_i x̃_iᵀ = X̃ᵀ diag(w) X̃`` (paper 000 eq. 12; paper 001 eq. 16). This module
computes them once, in one place, from whichever of the two matrices is smaller:

* ``n_samples <= n_features``: the weighted Gram matrix ``D G D`` (n × n), ``D = diag(√w)``,
  ``G = X̃ X̃ᵀ`` (which callers can precompute once per run), then ``W = X̃ᵀ D V Λ^{-1/2}``;
* otherwise the scatter matrix ``S_w`` itself (d × d).

Both go through :func:`top_eigh` (only the k wanted eigenpairs of a matrix up to
:data:`PARTIAL_EIGH_MAX`), never a full SVD.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from scipy import linalg
from threadpoolctl import ThreadpoolController

_threadpools: ThreadpoolController | None = None


@contextmanager
def one_blas_thread():
    """Run the enclosed thin matrix products on one BLAS thread.

    The products with k columns here are memory-bound: on two cores OpenBLAS's threads gain
    nothing on them, and leave its thread pool in a state that slows the next threaded
    eigensolver twofold (measured at n = 1000, d = 2000, k = 40: ``eigh`` 81 ms after a threaded
    product, 40 ms after a single-threaded one; the products themselves 6.8 vs 5.7 ms). The
    eigensolver itself keeps all threads, which pay off for large n.
    """
    global _threadpools
    if _threadpools is None:
        _threadpools = ThreadpoolController()
    with _threadpools.limit(limits=1, user_api="blas"):
        yield


#: Largest symmetric matrix whose top eigenpairs are taken by scipy's partial solver
#: (``scipy.linalg.eigh(subset_by_index=…)``, ~40 ms at this size on two cores). scipy's LAPACK
#: wrappers hold the GIL, which would stall the app's GUI thread for the whole call on larger
#: matrices; above this size ``numpy.linalg.eigh`` (all eigenpairs, about twice the work, but
#: it releases the GIL) is used instead.
PARTIAL_EIGH_MAX = 1000


def top_eigh(M: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest eigenvalues (decreasing) and their eigenvectors (columns) of symmetric M.

    ``M`` may be overwritten. See :data:`PARTIAL_EIGH_MAX` for which solver runs."""
    n = M.shape[0]
    if n <= PARTIAL_EIGH_MAX:
        # M is symmetric: pass its transpose (Fortran order for a C-ordered M) so LAPACK needs no copy.
        evals, V = linalg.eigh(M.T, subset_by_index=[n - k, n - 1], driver="evr",
                               overwrite_a=True, check_finite=False)
    else:
        evals, V = np.linalg.eigh(M)
        evals, V = evals[n - k:], V[:, n - k:]
    return evals[::-1], V[:, ::-1]


def weighted_subspace(X: np.ndarray, weights: np.ndarray, k: int, center: np.ndarray | None = None,
                      gram: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Top-k eigenvectors of the weighted scatter ``Σ_i w_i (x_i − c)(x_i − c)ᵀ``.

    Parameters
    ----------
    X : (n_samples, n_features) data (rows are samples).
    weights : (n_samples,) non-negative sample weights (any overall scale).
    k : number of eigenvectors, ``1 <= k < min(n_samples, n_features)``.
    center : (n_features,) the centre c, or None if X is already centred.
    gram : optional centred Gram matrix ``(X − c)(X − c)ᵀ`` (n_samples, n_samples); used (and
        then required to be exact) when n_samples <= n_features. Callers that iterate compute
        it once per run, or update it cheaply when only the centre moves.

    Returns
    -------
    components : (k, n_features) orthonormal rows, by decreasing eigenvalue, signs fixed by :func:`orientation`.
    eigenvalues : (k,) the matching eigenvalues of the weighted scatter, decreasing.
    projections : (n_samples, k) coordinates ``(x_i − c) · component_j`` of every sample.
    """
    n, d = X.shape
    w = np.asarray(weights, dtype=float)
    if n <= d:
        Xc = None
        if gram is None:
            Xc = X if center is None else X - center
            gram = Xc @ Xc.T
        s = np.sqrt(w)
        evals, V = top_eigh(gram * s[:, None] * s[None, :], k)
        Vs = V * s[:, None]
        with one_blas_thread():
            # components ∝ (X − c)ᵀ D V (norm √λ); projections = (X − c)(X − c)ᵀ D V / √λ = G D V / √λ
            comps = X.T @ Vs
            if center is not None:
                comps -= np.outer(center, Vs.sum(axis=0))
            comps = comps.T
            norms = np.linalg.norm(comps, axis=1)
            if np.any(norms <= 1e-12 * max(norms.max(), 1e-300)):
                # k exceeds the rank of the weighted data: complete to an orthonormal basis.
                comps = linalg.qr(comps.T, mode="economic")[0].T
                Xc = (X if center is None else X - center) if Xc is None else Xc
                proj = Xc @ comps.T
            else:
                comps /= norms[:, None]
                proj = (gram @ Vs) / norms
    else:
        Xc = X if center is None else X - center
        evals, Wt = top_eigh(Xc.T @ (Xc * w[:, None]), k)
        comps = Wt.T
        with one_blas_thread():
            proj = Xc @ comps.T
    signs = orientation(comps)
    return comps * signs[:, None], np.maximum(evals, 0.0), proj * signs[None, :]


def orientation(components: np.ndarray) -> np.ndarray:
    """The signs (k,) that make each row's largest-magnitude entry positive.

    Eigenvectors are defined up to sign; fixing it keeps basis images from flickering between
    iterations."""
    idx = np.argmax(np.abs(components), axis=1)
    signs = np.sign(components[np.arange(len(components)), idx])
    signs[signs == 0] = 1.0
    return signs


def residual_sq(sq_norms: np.ndarray, projections: np.ndarray) -> np.ndarray:
    """Squared distances to the subspace, ``‖x̃_i‖² − ‖W x̃_i‖²``, from the precomputed squared
    norms (n,) and projections (n, k); clipped at 0 against round-off (paper 000 §3.4, pitfall 2)."""
    return np.maximum(sq_norms - np.einsum("ij,ij->i", projections, projections), 0.0)


def positive_floor(values: np.ndarray, factor: float = 0.01) -> float:
    """``factor × min`` of the positive entries of ``values`` (a δ/ε guard), or 1e-12 if none is positive."""
    pos = values[values > 0]
    return float(factor * pos.min()) if pos.size else 1e-12
