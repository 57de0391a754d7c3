"""Proximal operators and the SVDs behind them, shared by the low-rank + sparse methods
(:mod:`core.methods.convex`) and robust regression (:mod:`core.regression`).

* :func:`soft_threshold` (ℓ1), :func:`row_shrink` (ℓ2,1 over samples), :func:`svt` (nuclear norm);
* :func:`svt_predicted`: SVT with Lin, Chen & Ma's rank prediction, by a partial (ARPACK) SVD when
  the matrix is large and the predicted rank low, else the exact thin SVD; an optional rank cap;
* :func:`thin_svd`, :func:`partial_svd`, :func:`leading_triplet`, :func:`spectral_norm`: the SVDs,
  guarded so that no scipy-internal error (ARPACK's "starting vector is zero") reaches a user.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, svds

from .linalg import one_blas_thread, orientation

#: Partial SVD (see the module docstring) only when min(n, d) is at least this ...
PARTIAL_SVD_MIN_DIM = 400
#: ... and the predicted number of singular values above τ is at most this fraction of min(n, d).
PARTIAL_SVD_MAX_FRACTION = 0.1
#: At most this many basis images in ``State.components``.
MAX_COMPONENTS = 100
#: Problems with at most this many entries run each iteration on one BLAS thread: their SVDs are
#: too small to gain from threads, and a busy 2-core machine makes threaded ones 2–4× slower
#: (measured: 100 × 625 SVD + norm 15 ms threaded vs 3.9 ms on one thread).
ONE_THREAD_MAX_ENTRIES = 250_000


# =========================================================================== proximal steps
def soft_threshold(T: np.ndarray, tau: float) -> np.ndarray:
    """Entrywise soft thresholding ``sign(t)·max(|t| − τ, 0)``: the minimiser of
    ``½‖S − T‖_F² + τ‖S‖₁`` (the S step of PCP; paper 001 §3.4, Wright et al.'s ℓ1 variant)."""
    return np.sign(T) * np.maximum(np.abs(T) - tau, 0.0)


def row_shrink(T: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray]:
    """Sample-wise (row-wise here) ℓ2 shrinkage, the closed form of paper 001 eq. (33)::

        argmin_E ½‖E − T‖_F² + τ‖E‖_{2,1},   e_i = (‖t_i‖₂ − τ)₊ t_i / ‖t_i‖₂

    (the paper's columns are our rows). Returns ``(E, row norms ‖e_i‖₂)``; rows with
    ``‖t_i‖ <= τ`` become exactly 0."""
    norms = np.sqrt(np.einsum("ij,ij->i", T, T))
    shrunk = np.maximum(norms - tau, 0.0)
    scale = np.divide(shrunk, norms, out=np.zeros_like(norms), where=shrunk > 0)
    return T * scale[:, None], shrunk


def thin_svd(A: np.ndarray):
    try:
        # numpy's wrapper releases the GIL (scipy.linalg's holds it for the whole call, which
        # froze the app's window for ~0.6 s per iteration on the digits); same LAPACK gesdd.
        return np.linalg.svd(A, full_matrices=False)
    except np.linalg.LinAlgError:   # gesdd very rarely fails to converge; gesvd is slower but sturdier
        return linalg.svd(A, full_matrices=False, lapack_driver="gesvd", check_finite=False)


def svt(A: np.ndarray, tau: float) -> np.ndarray:
    """Singular value thresholding ``U(Σ − τI)₊Vᵀ`` (exact thin SVD): the minimiser of
    ``½‖Z − A‖_F² + τ‖Z‖_*`` (Cai, Candès & Shen 2010). Same shape as A."""
    U, s, Vt = thin_svd(A)
    r = int(np.count_nonzero(s > tau))
    return (U[:, :r] * (s[:r] - tau)) @ Vt[:r]


# =========================================================================== SVT with rank prediction
@dataclass(frozen=True)
class SVTResult:
    left: np.ndarray        # (n, r) U_r (Σ_r − τ)
    right: np.ndarray       # (r, d) V_rᵀ
    rank: int               # r = #{σ > τ}
    nuclear: float          # ‖Z‖_* = Σ (σ − τ)₊
    components: np.ndarray  # (max(1, min(r, MAX_COMPONENTS)), d) leading right singular vectors
    k_next: int             # predicted number of singular triplets for the next iteration
    partial: bool           # the partial SVD was used

    def matrix(self) -> np.ndarray:
        with one_blas_thread():
            return self.left @ self.right


def partial_svd(A: np.ndarray, k: int, v0: np.ndarray):
    # Lanczos is a sequence of memory-bound matrix-vector products: one BLAS thread is 2× faster
    # on this 2-core machine (svds k = 30 of a 1000 × 2000 matrix: 68 ms vs 144 ms threaded).
    with one_blas_thread():
        U, s, Vt = svds(A, k=k, v0=v0, tol=0, solver="arpack")
    order = np.argsort(s)[::-1]
    return U[:, order], s[order], Vt[order]


def svt_predicted(A: np.ndarray, tau: float, k_pred: int, v0: np.ndarray | None,
                   max_rank: int | None = None) -> SVTResult:
    """SVT_τ(A) with the exact thin SVD or, when large and predicted low rank, a partial SVD
    (module docstring). ``v0`` (min(n, d),) is ARPACK's deterministic start vector (None: never
    use the partial SVD). ``max_rank`` (None: no cap) keeps at most that many singular values:
    ``U_k(Σ_k − τ)₊V_kᵀ``, the exact minimiser of ``½‖Z − A‖_F² + τ‖Z‖_*`` subject to
    ``rank Z <= k`` (von Neumann's trace inequality: the best rank-k choice keeps the k largest
    shrunken singular values)."""
    m = min(A.shape)
    cap = m if not max_rank else int(max_rank)
    k_max = int(PARTIAL_SVD_MAX_FRACTION * m)
    margin = max(5, int(math.ceil(0.01 * m)))
    U = None
    partial = False
    k_pred = min(k_pred, cap)
    if v0 is not None and m >= PARTIAL_SVD_MIN_DIM and 1 <= k_pred <= k_max and np.any(A):
        k = k_pred
        while True:
            try:
                U, s, Vt = partial_svd(A, k, v0)
            except (ArpackNoConvergence, ArpackError, linalg.LinAlgError, ValueError):
                U = None
                break
            if not np.all(np.isfinite(s)):
                U = None
                break
            if np.count_nonzero(s > tau) < k or k >= cap:   # every singular value above τ (or the cap)
                partial = True
                break
            if k >= k_max:
                U = None
                break
            k = min(2 * k, k_max, cap)
    if U is None:
        U, s, Vt = thin_svd(A)
    r = min(int(np.count_nonzero(s > tau)), cap)
    sr = s[:r] - tau
    comps = Vt[:max(1, min(r, MAX_COMPONENTS))]
    comps = comps * orientation(comps)[:, None]
    return SVTResult(left=U[:, :r] * sr, right=Vt[:r], rank=r, nuclear=float(sr.sum()),
                      components=comps, k_next=min(r + margin, cap), partial=partial)


def leading_triplet(A: np.ndarray):
    """(σ₁, v₁ (1, d)) of A: ARPACK for large matrices, with the exact dense SVD as the fallback
    for degenerate ones (ARPACK raises "starting vector is zero" on a zero or tiny-rank matrix:
    such scipy-internal errors never reach the user). A zero matrix gives (0, e₁)."""
    if not np.any(A):
        return 0.0, np.eye(1, A.shape[1])
    if min(A.shape) >= PARTIAL_SVD_MIN_DIM:
        v0 = np.random.default_rng(0).standard_normal(min(A.shape))
        try:
            _, s, Vt = partial_svd(A, 1, v0)
            if s.size and np.isfinite(s[0]) and s[0] > 0:
                return float(s[0]), Vt[:1]
        except (ArpackNoConvergence, ArpackError, linalg.LinAlgError, ValueError):
            pass
    _, s, Vt = thin_svd(A)
    return float(s[0]), Vt[:1]


def top_right_vector(A: np.ndarray) -> np.ndarray:
    """(1, d) the leading right singular vector of A (sign fixed), for the state of iteration 0."""
    Vt = leading_triplet(A)[1]
    return Vt * orientation(Vt)[:, None]


def spectral_norm(A: np.ndarray) -> float:
    """‖A‖₂ (0 for a zero matrix; never an ARPACK error)."""
    return leading_triplet(A)[0]
