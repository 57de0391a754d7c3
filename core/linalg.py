"""Shared linear algebra for the reweighted subspace methods.

Every reweighted PCA in the papers needs the top-k eigenvectors of a weighted scatter matrix
``S_w = Σ_i w_i x̃_i x̃_iᵀ = X̃ᵀ diag(w) X̃`` (paper 000 eq. 12; paper 001 eq. 16). This module
computes them once, in one place, from whichever of the two matrices is smaller:

* ``n_samples <= n_features``: the weighted Gram matrix ``D G D`` (n × n), ``D = diag(√w)``,
  ``G = X̃ X̃ᵀ`` (which callers can precompute once per run), then ``W = X̃ᵀ D V Λ^{-1/2}``;
* otherwise the scatter matrix ``S_w`` itself (d × d).

Both go through :func:`top_eigh` (only the k wanted eigenpairs of a matrix up to
:data:`PARTIAL_EIGH_MAX`), never a full SVD.

:func:`leading_eigvecs` is the one guarded entry point to an iterative (ARPACK) eigensolver: a
deterministic non-zero start vector, an exact dense solve for small or degenerate (zero) matrices,
and a dense fallback when ARPACK fails, so that scipy's "starting vector is zero" and
no-convergence errors never reach a user.
"""
from __future__ import annotations

from contextlib import contextmanager

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh
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


#: At or below this size :func:`leading_eigvecs` solves a dense matrix exactly (LAPACK ``evr``).
DENSE_EIGH_MAX = 256


def _start_vector(d: int) -> np.ndarray:
    """A deterministic start vector for ARPACK with every entry non-zero and no special direction
    (a fixed Gaussian draw): never orthogonal to a generic eigenvector, never all-zero."""
    v0 = np.random.default_rng(12345).standard_normal(d)
    v0[v0 == 0] = 1.0
    return v0


def _completion(d: int, k: int, avoid: np.ndarray | None = None) -> np.ndarray:
    """k orthonormal columns (d, k), orthogonal to the columns of ``avoid`` where possible: the
    eigenvectors of a zero (or rank-exhausted) matrix are any orthonormal set; this picks one
    deterministically (QR of ``[avoid, I]``)."""
    basis = np.eye(d) if avoid is None or avoid.size == 0 else np.hstack([avoid, np.eye(d)])
    Q = linalg.qr(basis, mode="economic")[0]
    start = 0 if avoid is None or avoid.size == 0 else avoid.shape[1]
    return Q[:, start:start + k]


def leading_eigvecs(M, k: int = 1, d: int | None = None, tol: float = 1e-10
                    ) -> tuple[np.ndarray, np.ndarray]:
    """The k largest eigenvalues (decreasing) and eigenvectors (d, k) of a symmetric positive
    semidefinite matrix, safely.

    Parameters
    ----------
    M : (d, d) ndarray, or a callable ``v -> M v`` (then ``d`` is required).
    k : number of eigenpairs, ``1 <= k < d``.
    tol : relative accuracy of ARPACK's Ritz values (the dense paths are exact).

    Solver: ``scipy.linalg.eigh(subset_by_index=…)`` (exact) when M is an array with
    ``d <= DENSE_EIGH_MAX``; otherwise ``scipy.sparse.linalg.eigsh`` from the deterministic
    non-zero start :func:`_start_vector`. If ARPACK raises (zero start vector after deflation,
    no convergence, ...), or the matrix is zero, it falls back to the exact dense solve (forming
    M from its products with the identity when M is a callable). A zero matrix returns
    eigenvalues 0 and an arbitrary orthonormal set of vectors. Eigenvalues below 0 from round-off
    are clipped to 0. Never raises for finite input.
    """
    dense = isinstance(M, np.ndarray)
    if dense:
        d = M.shape[0]
    if d is None:
        raise ValueError("leading_eigvecs: d is required when M is a callable")
    k = int(k)

    def exact(A):
        A = np.asarray(A, dtype=float)
        A = (A + A.T) / 2.0
        if not np.any(A):
            return np.zeros(k), _completion(d, k)
        evals, V = linalg.eigh(A, subset_by_index=[d - k, d - 1], driver="evr", check_finite=False)
        return evals[::-1], V[:, ::-1]

    def materialise():
        return M if dense else np.column_stack([M(e) for e in np.eye(d)])

    if dense and (d <= DENSE_EIGH_MAX or k >= d - 1 or not np.any(M)):
        evals, V = exact(M)
    else:
        op = LinearOperator((d, d), matvec=(lambda x: M @ np.ravel(x)) if dense else
                            (lambda x: M(np.ravel(x))), dtype=float)
        try:
            evals, V = eigsh(op, k=k, which="LA", v0=_start_vector(d), tol=tol, maxiter=max(1000, 20 * d))
            order = np.argsort(evals)[::-1]
            evals, V = evals[order], V[:, order]
            if not (np.all(np.isfinite(V)) and np.all(np.isfinite(evals))):
                raise ArpackError(-9999)
        except (ArpackError, ArpackNoConvergence, ValueError):
            evals, V = exact(materialise())
    return np.maximum(evals, 0.0), V


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


#: A squared residual at or below this fraction of the sample's squared norm is round-off of the
#: subtraction ``‖x̃‖² − ‖Wx̃‖²`` (about 1e-16 relative): the sample lies on the subspace, e = 0.
RESIDUAL_ROUNDOFF = 1e-12


def residual_sq(sq_norms: np.ndarray, projections: np.ndarray) -> np.ndarray:
    """Squared distances to the subspace, ``‖x̃_i‖² − ‖W x̃_i‖²``, from the precomputed squared
    norms (n,) and projections (n, k); clipped at 0 against round-off (paper 000 §3.4, pitfall 2),
    and set to exactly 0 when at most :data:`RESIDUAL_ROUNDOFF` × ‖x̃_i‖² (a sample on the
    subspace), so that weights such as e^(p−1) or 1/‖r‖ see a true zero (then guarded by the
    method's δ or ε) instead of round-off noise that would keep the iteration from settling."""
    e = sq_norms - np.einsum("ij,ij->i", projections, projections)
    return np.where(e > RESIDUAL_ROUNDOFF * sq_norms, e, 0.0)


def positive_floor(values: np.ndarray, factor: float = 0.01) -> float:
    """``factor × min`` of the positive entries of ``values`` (a δ/ε guard), or 1e-12 if none is positive."""
    pos = values[values > 0]
    return float(factor * pos.min()) if pos.size else 1e-12
