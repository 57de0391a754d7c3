"""Proximal operators and the SVDs behind them, shared by the low-rank + sparse methods
(:mod:`core.methods.convex`) and robust regression (:mod:`core.regression`).

* :func:`soft_threshold` (ℓ1), :func:`row_shrink` (ℓ2,1 over samples; :func:`row_shrink_factors`),
  :func:`svt` (nuclear norm);
* :func:`svt_predicted`: SVT with Lin, Chen & Ma's rank prediction, by a partial SVD (block
  subspace iteration, warm-started from the previous iteration's singular subspace) when the
  matrix is large and the predicted rank low, else the exact thin SVD; an optional rank cap;
* :func:`thin_svd`, :func:`partial_svd`, :func:`leading_block`, :func:`leading_triplet`,
  :func:`spectral_norm`: the SVDs,
  guarded so that no scipy-internal error (ARPACK's "starting vector is zero") reaches a user.

Every function keeps the floating type of its input (float32 in, float32 out).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import linalg

from . import interrupt, memory
from .lapack import orthonormal_columns
from .linalg import one_blas_thread, orientation

#: Partial SVD (see the module docstring) only when min(n, d) is at least this ...
PARTIAL_SVD_MIN_DIM = 400
#: ... and the predicted number of singular values above τ is at most this fraction of min(n, d)
#: (above it the exact thin SVD is cheaper: a block iteration costs 4·n·d·k flops, gesdd about
#: 6·n·d·min(n, d), and a block straddling τ inside a dense noise bulk needs 10–20 iterations;
#: 0.25 made PCP on 1000 digits (rank ~200) 3 × slower than the exact route).
PARTIAL_SVD_MAX_FRACTION = 0.1
#: The block of the partial SVD holds this many vectors more than the predicted rank (the
#: oversampling of Halko, Martinsson & Tropp 2011; scikit-learn's ``n_oversamples``) ...
PARTIAL_SVD_OVERSAMPLING = 10
#: ... and is enlarged when fewer than this many of its singular values fall below τ.
PARTIAL_SVD_GUARD = 5
#: A Ritz triplet (σ, u, v) of the block counts as converged when ‖Av − σu‖₂ <= tol·σ₁, with tol
#: this value for float64 (for float32: 100 × its machine epsilon, 1.2e-5).
PARTIAL_SVD_TOL = 1e-10
#: Residual tolerance of :func:`leading_triplet`: σ₁ is then exact to ~tol² (a Ritz value's error
#: is quadratic in the residual), and v₁ (only shown at iteration 0) to ~tol/gap. 1e-10 took
#: 108 s on 10,000 × 4096 centred data whose σ₁ and σ₂ are close; after 32 block iterations the
#: unconverged block is used (no exact-SVD fallback).
LEADING_TRIPLET_TOL = 1e-6
#: At most this many block iterations (two passes over A each) per block size; then the block is
#: doubled (convergence speeds up with the block size), up to the limit above, then the exact SVD.
PARTIAL_SVD_MAX_ITER = 8
#: At most this many basis images in ``State.components``.
MAX_COMPONENTS = 100


# =========================================================================== proximal steps
def soft_threshold(T: np.ndarray, tau: float) -> np.ndarray:
    """Entrywise soft thresholding ``sign(t)·max(|t| − τ, 0)``: the minimiser of
    ``½‖S − T‖_F² + τ‖S‖₁`` (the S step of PCP; paper 001 §3.4, Wright et al.'s ℓ1 variant; RNMF-L1's
    sparse part, paper 003). One new array (of :func:`core.memory.fresh`) and no other temporary of
    T's size."""
    S = np.abs(T, out=memory.fresh_like(T))
    S -= tau
    np.maximum(S, 0.0, out=S)
    return np.copysign(S, T, out=S)


def soft_threshold_inplace(T: np.ndarray, tau: float, rows: int = 256) -> float:
    """:func:`soft_threshold` written into T, by blocks of ``rows`` rows (one temporary of |T| per
    block, none of T's size: the big ALM iterations are memory-bound, and a fresh array of the
    data's size costs its page faults); returns ``‖S‖₁``. Zeros of S carry T's sign (−0.0)."""
    l1 = 0.0
    for i in range(0, T.shape[0], rows):
        B = T[i:i + rows]
        M = np.abs(B)
        M -= tau
        np.maximum(M, 0.0, out=M)
        l1 += float(M.sum())
        np.copysign(M, B, out=B)
    return l1


def row_shrink(T: np.ndarray, tau: float, *, overwrite: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Sample-wise (row-wise here) ℓ2 shrinkage, the closed form of paper 001 eq. (33)::

        argmin_E ½‖E − T‖_F² + τ‖E‖_{2,1},   e_i = (‖t_i‖₂ − τ)₊ t_i / ‖t_i‖₂

    (the paper's columns are our rows). Returns ``(E, row norms ‖e_i‖₂)``; rows with
    ``‖t_i‖ <= τ`` become exactly 0. ``overwrite``: E is written into T (no new array)."""
    scale, _, shrunk = row_shrink_factors(T, tau)
    if overwrite:
        T *= scale[:, None]
        return T, shrunk
    return T * scale[:, None], shrunk


def row_shrink_factors(T: np.ndarray, tau: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The per-row factors of :func:`row_shrink`: ``(scale, rest, shrunk)`` with
    ``e_i = scale_i t_i``, ``t_i − e_i = rest_i t_i`` and ``shrunk_i = ‖e_i‖₂``, where
    ``scale_i = (1 − τ/‖t_i‖)₊`` and ``rest_i = min(1, τ/‖t_i‖)`` (1 for a zero row), each computed
    directly (``rest`` is not ``1 − scale``, which loses digits when ‖t_i‖ ≫ τ). ``rest`` gives
    the ℓ2,1 subgradient the ALMs' dual update needs: ``(t_i − e_i)/τ`` has norm <= 1."""
    norms = np.sqrt(np.einsum("ij,ij->i", T, T))
    shrunk = np.maximum(norms - tau, 0.0)
    scale = np.divide(shrunk, norms, out=np.zeros_like(norms), where=shrunk > 0)
    rest = np.divide(tau, norms, out=np.ones_like(norms), where=norms > tau)
    return scale, rest, shrunk


def thin_svd(A: np.ndarray):
    """``U, s, Vt = svd(A, full_matrices=False)`` (LAPACK ``gesdd``; ``gesvd`` when it fails to
    converge). Keeps A's floating type."""
    try:
        # numpy's wrapper releases the GIL (scipy.linalg's holds it for the whole call, which
        # froze the app's window for ~0.6 s per iteration on the digits); same LAPACK gesdd.
        return np.linalg.svd(A, full_matrices=False)
    except np.linalg.LinAlgError:   # gesdd very rarely fails to converge; gesvd is slower but sturdier
        return linalg.svd(A, full_matrices=False, lapack_driver="gesvd", check_finite=False)


#: The Gram route (:func:`gram_svd`) only when τ >= this × √eps × σ₁: an eigenvalue λ = σ² of the
#: Gram matrix carries an absolute error of about eps·σ₁², so σ one of about eps·σ₁²/σ, which for
#: every σ > τ is then <= √eps·σ₁/100 (float64: 1.5e-10·σ₁); below it the thin SVD is used.
GRAM_TAU_FACTOR = 100.0


def gram_svd(A: np.ndarray, tau: float, cap: int | None = None):
    """The singular triplets of A (n, d) above τ (at most ``cap``) from the eigendecomposition of
    the smaller Gram matrix, ``AᵀA`` (d × d) when n >= d, else ``AAᵀ`` (n × n), by LAPACK
    ``syevd`` (numpy's ``eigh``, which releases the GIL). Returns ``(U (n, r), s (m,), Vt (m, d))``
    with s decreasing over all m = min(n, d) values (the Ritz values of the Gram matrix, clipped at
    0) and Vt (or, n < d, U) complete, but U (or Vt) only for the r = #{σ > τ} (capped) triplets
    the SVT needs: ``U = AV/σ`` (``Vᵀ = UᵀA/σ``). Returns None when ``τ < GRAM_TAU_FACTOR·√eps·σ₁``
    (see :data:`GRAM_TAU_FACTOR`): the caller then uses the thin SVD.

    Cost: ``n·d·m`` (the Gram product) + O(m³) (the eigensolver) + ``2·n·d·r`` (U), against about
    ``6·n·d·m`` for ``gesdd`` with vectors (measured on one thread: 5,000 × 2048, rank 30–100 %:
    3.6–5.4 s against 9.4 s, relative difference of the SVT 4e-13–2e-12)."""
    n, d = A.shape
    tall = n >= d
    with one_blas_thread():
        G = A.T @ A if tall else A @ A.T
        interrupt.checkpoint()
        w, W = np.linalg.eigh(G)
        del G
        interrupt.checkpoint()
        w, W = w[::-1], W[:, ::-1]
        s = np.sqrt(np.maximum(w, 0.0))
        if s[0] == 0 or tau < GRAM_TAU_FACTOR * math.sqrt(float(np.finfo(A.dtype).eps)) * s[0]:
            return None
        r = int(np.count_nonzero(s > tau))
        if cap:
            r = min(r, int(cap))
        if tall:
            Vt = np.ascontiguousarray(W.T)
            U = (A @ W[:, :r]) / s[:r]
        else:     # Vᵀ for the r triplets, and unit rows for a few more (a warm start's block)
            kk = min(r + 1 + PARTIAL_SVD_OVERSAMPLING, len(s))
            U = np.ascontiguousarray(W[:, :r])
            Vt = W[:, :kk].T @ A
            pos = s[:kk] > 0
            Vt[pos] /= s[:kk][pos, None]
    return U, s.astype(A.dtype, copy=False), Vt


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
    subspace: np.ndarray | None = None   # (k, d) right singular vectors to warm-start the next partial SVD
    route: str = "svd"      # "partial" (partial_svd), "gram" (gram_svd) or "svd" (thin_svd)

    def matrix(self, fresh: bool = False) -> np.ndarray:
        """``left @ right`` (n, d); ``fresh``: into memory of :func:`core.memory.fresh` (an array the
        caller's states keep: its first write then costs the same per byte at any size)."""
        with one_blas_thread():
            if not fresh:
                return self.left @ self.right
            out = memory.fresh((self.left.shape[0], self.right.shape[1]),
                               np.result_type(self.left, self.right))
            return np.matmul(self.left, self.right, out=out)


def _tolerance(dtype) -> float:
    return max(PARTIAL_SVD_TOL, 100.0 * float(np.finfo(dtype).eps))


def _orthonormal_block(d: int, k: int, start: np.ndarray | None, dtype, seed: int = 0) -> np.ndarray:
    """(d, k) orthonormal columns: the rows of ``start`` (a previous right singular subspace) first,
    completed by a fixed Gaussian draw (deterministic)."""
    cols = [] if start is None or not len(start) else [np.asarray(start, dtype=dtype)[:k].T]
    have = cols[0].shape[1] if cols else 0
    if have < k:
        cols.append(np.random.default_rng(seed).standard_normal((d, k - have)).astype(dtype, copy=False))
    return orthonormal_columns(np.hstack(cols) if len(cols) > 1 else cols[0])


def _block_too_small(above: int, k: int, cap: int | None, m: int) -> bool:
    """Fewer than PARTIAL_SVD_GUARD of k values at or below τ, the cap not reached sooner, and k < m."""
    return above > k - PARTIAL_SVD_GUARD and (not cap or cap > k - PARTIAL_SVD_GUARD) and k < m


def partial_svd(A: np.ndarray, k: int, start: np.ndarray | None = None, *, tau: float | None = None,
                cap: int | None = None, tol: float | None = None, max_iter: int | None = None):
    """The leading singular triplets of A (n, d) by block subspace iteration with Rayleigh–Ritz
    (Halko, Martinsson & Tropp, "Finding structure with randomness", SIAM Review 2011, Algorithms
    4.4 and 5.1: the randomized SVD with power iterations, here iterated to convergence)::

        Q ← orthonormal (d, k) block: the rows of ``start`` (warm start) + Gaussian columns
        repeat:  W = A Q;  U_q = qr(W);  U_b Σ Vᵀ = svd(U_qᵀ A);  U = U_q U_b;  Q = V

    By construction ``Aᵀu_i = σ_i v_i`` exactly; the other residual ``‖A v_i − σ_i u_i‖₂`` is read
    off the next ``W = A Q``. Stops when it is <= ``tol``·σ₁ for the wanted triplets, and returns
    ``(U (n, k), s (k,) decreasing, Vt (k, d))``. Wanted: all k (``tau`` None; the block then
    holds k + PARTIAL_SVD_OVERSAMPLING vectors, and 4 × PARTIAL_SVD_MAX_ITER iterations are
    allowed), or those with
    σ > ``tau``; at most ``cap`` (None: no cap). With ``tau`` the first triplet below τ, which
    certifies the rank, needs only residual ρ <= √tol·σ₁ or σ̂ + ρ <= τ: only its value matters,
    and a Ritz value's error is of the order of the squared residual over the spectral gap
    (Parlett, "The Symmetric Eigenvalue Problem", 1998, Thm 11.7.1), while its vector lies in a
    dense noise bulk and converges slowly. With ``tau``, returns early, unconverged, when fewer than :data:`PARTIAL_SVD_GUARD` of
    the k values fall at or below τ and the cap does not end the count sooner (the caller
    enlarges k), and also, as unconverged, when a residual's last reduction factor predicts no
    convergence within the iterations left (status "bulk" when only the first value below τ is
    that slow: τ lies in a dense part of the spectrum). Returns None when not converged after
    ``max_iter`` iterations (default
    :data:`PARTIAL_SVD_MAX_ITER`). ``tol`` defaults to :data:`PARTIAL_SVD_TOL` (float64) or
    100 × machine epsilon (float32). Two passes over A per iteration, on one BLAS thread (memory-bound
    thin products on this 2-core machine); :func:`core.interrupt.checkpoint` between iterations."""
    n, d = A.shape
    k = int(min(k, n, d))
    if tau is None:       # k wanted: iterate a block with oversampling (the last ones converge slowly)
        got = _block_svd(A, min(k + PARTIAL_SVD_OVERSAMPLING, n, d), start, tau=None, cap=k, tol=tol,
                         max_iter=max_iter or 4 * PARTIAL_SVD_MAX_ITER)
        if got is None or got[3] == "max_iter":
            return None
        return got[0][:, :k], got[1][:k], got[2][:k]
    got = _block_svd(A, k, start, tau=tau, cap=cap, tol=tol, max_iter=max_iter)
    if got is None or got[3] == "max_iter":
        return None
    return got[:3]


def _block_svd(A, k, start, *, tau, cap, tol, max_iter):
    """:func:`partial_svd`'s iteration; returns (U, s, Vt, status) with status "converged",
    "grow" (block too small for τ), "max_iter" (the last, unconverged, block) or "bulk" (see
    :func:`partial_svd`), or None when a
    non-finite value appears."""
    n, d = A.shape
    k = int(min(k, n, d))
    dtype = A.dtype if A.dtype in (np.float32, np.float64) else np.float64
    tol = _tolerance(dtype) if tol is None else float(tol)
    max_iter = PARTIAL_SVD_MAX_ITER if max_iter is None else int(max_iter)
    with one_blas_thread():
        Q = _orthonormal_block(d, k, start, dtype)
        prev = last = None
        for it in range(max_iter + 1):
            interrupt.checkpoint()
            W = A @ Q
            if prev is not None:
                U, s, Vt = prev
                m = min(k, cap) if cap else k
                limits = np.full(m, tol)
                if tau is not None:
                    above = int(np.count_nonzero(s > tau))
                    if _block_too_small(above, k, cap, min(n, d)):
                        return (*prev, "grow")                    # the caller grows k
                    if above < m:          # the first value below τ: only its value matters
                        m = above + 1
                        limits = np.full(m, tol)
                        limits[-1] = math.sqrt(tol)
                if s[0] == 0:
                    return (*prev, "converged")
                D = W[:, :m] - U[:, :m] * s[:m]
                res = np.sqrt(np.einsum("ij,ij->j", D, D))
                ok = res <= limits * float(s[0])
                if tau is not None and m == above + 1 and s[above] + res[above] <= tau:
                    ok[above] = True       # σ̂ + ‖Av − σ̂u‖ <= τ: clearly below τ
                if np.all(ok):
                    return (*prev, "converged")
                if tau is not None:        # too slow for the iterations left: grow now
                    q = res / (limits * float(s[0]))               # > 1: not converged
                    if last is not None and last[0] == m and it >= 3:
                        rate = q / last[1]
                        hopeless = ~ok & ((rate >= 1) | (q * rate ** (max_iter - it) > 1))
                        if np.any(hopeless):
                            bulk = m == above + 1 and not np.any(hopeless[:above])
                            return (*prev, "bulk" if bulk else "max_iter")
                    last = (m, q)
            Uq = orthonormal_columns(W)
            Ub, s, Vt = np.linalg.svd(Uq.T @ A, full_matrices=False)
            if not np.all(np.isfinite(s)):
                return None
            prev = (Uq @ Ub, s, Vt)
            Q = Vt.T
    return (*prev, "max_iter")


def svt_predicted(A: np.ndarray, tau: float, k_pred: int, v0: np.ndarray | None,
                   max_rank: int | None = None, start: np.ndarray | None = None) -> SVTResult:
    """SVT_τ(A) = U(Σ − τ)₊Vᵀ by a partial SVD with rank prediction, the Gram route, or the exact
    thin SVD.

    Rule (Lin, Chen & Ma, "The augmented Lagrange multiplier method for exact recovery of
    corrupted low-rank matrices", UILU-ENG-09-2215, 2010, §4, with PROPACK replaced by
    :func:`partial_svd`): only the singular triplets above τ enter the SVT, so when
    ``min(n, d) >= PARTIAL_SVD_MIN_DIM`` and the predicted rank ``k_pred`` is at most
    ``PARTIAL_SVD_MAX_FRACTION × min(n, d)``, a block of k = k_pred + ``PARTIAL_SVD_OVERSAMPLING``
    vectors, warm-started from ``start`` (the previous iteration's right singular subspace,
    ``SVTResult.subspace``), is iterated until every triplet above τ and the first one below it
    has converged (residual <= ``PARTIAL_SVD_TOL``·σ₁, see :func:`partial_svd`). If fewer than
    ``PARTIAL_SVD_GUARD`` of the k computed values are <= τ (the predicted rank was too low), or
    the block has not converged after ``PARTIAL_SVD_MAX_ITER`` iterations (or, by its residuals'
    reduction rate, will not), k is doubled (at least
    1.5 × the count above τ + the oversampling) and the block iteration resumed from the current
    block; once k reaches the limit without convergence, or when only the first value below τ
    fails to converge (τ inside a dense part of the spectrum, where a larger block hardly helps;
    measured at 10,000 × 4096: a rank-50 SVT took 28 s of CPU with two failed blocks before the
    Gram route), the exact route is used: for large matrices :func:`gram_svd` (unless τ is too
    small for it), else the thin SVD. Values left uncomputed are <= τ and SVT sets them
    to 0, so the result is the exact SVT up to the residual tolerance (measured: 1e-12 relative on
    the shipped digits and on low-rank + sparse data, tests/core/test_partial_svd.py).
    The next prediction is ``k_next = rank + 1`` (Lin, Chen & Ma's ``sv = svp + 1``; the block's
    oversampling leaves room for the rank to grow by up to 5 without enlarging the block).

    ``v0``: None never uses the partial SVD (any array allows it; kept for callers' runs); the
    Gram route, exact, is open to every call.
    ``max_rank`` (None: no cap) keeps at most that many singular values:
    ``U_k(Σ_k − τ)₊V_kᵀ``, the exact minimiser of ``½‖Z − A‖_F² + τ‖Z‖_*`` subject to
    ``rank Z <= k`` (von Neumann's trace inequality: the best rank-k choice keeps the k largest
    shrunken singular values). A's floating type is kept (float32 in, float32 factors out)."""
    m = min(A.shape)
    cap = m if not max_rank else int(max_rank)
    k_max = int(PARTIAL_SVD_MAX_FRACTION * m)
    U = None
    partial = False
    route = "svd"
    k_pred = min(k_pred, cap)
    subspace = None
    if v0 is not None and m >= PARTIAL_SVD_MIN_DIM and 1 <= k_pred <= k_max and np.any(A):
        k = min(k_pred + PARTIAL_SVD_OVERSAMPLING, m)
        block = start
        while True:
            got = _block_svd(A, k, block, tau=tau, cap=cap, tol=None, max_iter=None)
            if got is None:
                break
            U, s, Vt, status = got
            if status == "converged":
                partial = True
                break
            if k >= k_max or status == "bulk":
                U = None           # τ inside a dense spectrum: a larger block hardly helps
                break
            above = int(np.count_nonzero(s > tau))
            k, block = min(max(2 * k, above + above // 2 + PARTIAL_SVD_OVERSAMPLING), k_max, m), Vt
        if not partial:
            U = None
        else:
            subspace, route = Vt, "partial"
    if U is None and m >= PARTIAL_SVD_MIN_DIM and np.any(A):
        got = gram_svd(A, tau, cap)
        if got is not None:
            U, s, Vt = got
            route = "gram"
            subspace = Vt[:min(int(np.count_nonzero(s > tau)) + 1 + PARTIAL_SVD_OVERSAMPLING, m)]
    if U is None:
        U, s, Vt = thin_svd(A)
    r = min(int(np.count_nonzero(s > tau)), cap)
    sr = (s[:r] - tau).astype(U.dtype, copy=False)
    comps = Vt[:max(1, min(r, MAX_COMPONENTS))]
    comps = comps * orientation(comps)[:, None]
    return SVTResult(left=U[:, :r] * sr, right=Vt[:r], rank=r, nuclear=float(sr.sum()),
                      components=comps, k_next=min(r + 1, cap), partial=partial,
                      subspace=subspace, route=route)


def leading_block(A: np.ndarray, size: int = 1 + PARTIAL_SVD_OVERSAMPLING):
    """(σ₁, v₁ (1, d), block) of A: σ₁'s triplet by :func:`partial_svd`'s block iteration with a
    block of ``size`` vectors (residual <= :data:`LEADING_TRIPLET_TOL`·σ₁) for large matrices,
    the exact dense SVD for small ones and as the fallback. ``block`` ((size, d) right Ritz
    vectors, or None after the exact SVD) warm-starts a later :func:`svt_predicted` of the same or
    a nearby matrix (``start``): the ALMs' first SVT thresholds the very matrix whose σ₁ their
    start needs. A block larger than 1 + PARTIAL_SVD_OVERSAMPLING converges faster when σ₁ sits
    in a cluster (the rate is σ_{size+1}/σ₁ per pass). A zero matrix gives (0, e₁, None). Never a
    scipy-internal error (ARPACK's "starting vector is zero" on a zero or tiny-rank matrix, which
    the former ARPACK route had to guard)."""
    if not np.any(A):
        return 0.0, np.eye(1, A.shape[1], dtype=A.dtype), None
    if min(A.shape) >= PARTIAL_SVD_MIN_DIM:
        try:
            # an unconverged block is kept (σ₁'s Ritz value is then a lower bound accurate to
            # ~residual²/gap): the full SVD of a large matrix is never worth it here
            got = _block_svd(A, min(size, *A.shape), None, tau=None, cap=1,
                             tol=LEADING_TRIPLET_TOL, max_iter=4 * PARTIAL_SVD_MAX_ITER)
        except (linalg.LinAlgError, np.linalg.LinAlgError, ValueError):
            got = None
        if got is not None and np.isfinite(got[1][0]) and got[1][0] > 0:
            return float(got[1][0]), got[2][:1], got[2]
    _, s, Vt = thin_svd(A)
    return float(s[0]), Vt[:1], None


def leading_triplet(A: np.ndarray):
    """(σ₁, v₁ (1, d)) of A by :func:`leading_block` (a block of 1 + PARTIAL_SVD_OVERSAMPLING)."""
    return leading_block(A)[:2]


def top_right_vector(A: np.ndarray) -> np.ndarray:
    """(1, d) the leading right singular vector of A (sign fixed), for the state of iteration 0."""
    Vt = leading_triplet(A)[1]
    return Vt * orientation(Vt)[:, None]


def spectral_norm(A: np.ndarray) -> float:
    """‖A‖₂ (0 for a zero matrix; never an ARPACK error)."""
    return leading_triplet(A)[0]
