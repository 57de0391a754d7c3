"""The block Krylov route of :func:`core.linalg.weighted_top_eigenspace`: the top-k eigenvectors
of a weighted scatter ``S_w = X̃ᵀ diag(w) X̃`` (X̃ = X − c, never formed) on problems too large
for a d × d or n × n matrix (e.g. 10,000 images of 64 × 64).

Block Lanczos with full reorthogonalisation and a Rayleigh–Ritz step per iteration (Saad,
*Numerical Methods for Large Eigenvalue Problems*, 2011, §6.3 and §4.3; Musco & Musco, NeurIPS
2015, for its use on a warm or random start), with blocks of b = k + :data:`BLOCK_OVERSAMPLES`
rows (k + :data:`STEP_OVERSAMPLES` from a warm start), restarted from the top b Ritz vectors
after :data:`BLOCK_KRYLOV_BLOCKS` blocks. Each iteration costs two passes over X (``X̃ Qᵀ`` and ``Q S_w``); the stopping rule and the accuracy
measured against the exact eigenspace are in :func:`core.linalg.weighted_top_eigenspace`.
All the work is in X's dtype (float32 or float64) but the small b × b and Rayleigh–Ritz matrices
(float64).
"""
from __future__ import annotations

import numpy as np

from .lapack import orthonormal_columns
from .memory import fresh
from .threads import one_blas_thread

#: Extra rows of a block beyond k (real images have no gap after k). 5,000 digits of 96 × 96,
#: k = 10, PCA start then three PCA-GM steps: p = 20 took 6 + 4 + 3 + 3 block Krylov iterations
#: (float32 5 + 3 + 3 + 3), p = 10 7 + 5 + 4 + 4 (6 + 4 + 3 + 3), at about the same CPU time.
BLOCK_OVERSAMPLES = 20
#: Extra rows of a warm-started block beyond k (a reweighting step from the previous call's Ritz
#: block, whose first rows it takes with the matching columns of its products): the warm block is
#: close to the answer already, and each row costs two passes over X per iteration. Fits to
#: convergence on the 5,000 digits of 96 × 96 float32 (k = 5, two threads): steps 10-20 % less CPU
#: time than with 20 (PCA-GM 11 steps, RPCA-OM 4, as many), converged objectives within 3·10⁻⁸.
#: With 5 a step was cheaper still (PCA-GM 0.17 against 0.24 CPU s) and at 10,000 × 4096 (k = 20)
#: too, but one synthetic step ended 1.17·10⁻⁵ from the exact one against its angle tolerance of
#: 10⁻⁵ (``tests/core/test_block_route.py``): the rule's estimate of the remaining error needs rows
#: beyond k.
STEP_OVERSAMPLES = 10
#: Blocks of b rows in the block route's Krylov basis before a restart ((n + d) × 6b floats of memory).
BLOCK_KRYLOV_BLOCKS = 6
#: Default stopping threshold of the block iteration: on the estimated sine of the largest principal
#: angle between its top-k subspace and the exact one (see :func:`weighted_top_eigenspace`;
#: float64 data; float32: ``BLOCK_TOL_32``).
BLOCK_TOL = 1e-5
#: The same for float32 data, whose round-off (≈ 6e-8 relative) puts a floor under the angle
#: that two iterates can agree to.
BLOCK_TOL_32 = 1e-4


def _sin_largest_angle(A: np.ndarray, B: np.ndarray) -> float:
    """Sine of the largest principal angle between the row spaces of A (k, d) and B (k', d), both
    with orthonormal rows: the 2-norm of ``B − (B Aᵀ) A`` (accurate for tiny angles, unlike
    ``√(1 − cos²)``)."""
    R = B - (B @ A.T) @ A
    return _norm2_rows(R)


def _norm2_rows(R: np.ndarray) -> float:
    """The 2-norm of R (m, d) with few rows, ``√λ_max(R Rᵀ)``: as accurate as ``np.linalg.norm(R, 2)``
    for the largest singular value, and the GIL is released throughout (numpy's SVD without
    vectors, which that norm calls, holds it: :mod:`core.lapack`)."""
    if not R.size:
        return 0.0
    R64 = R.astype(np.float64, copy=False)
    return float(np.sqrt(max(np.linalg.eigvalsh(R64 @ R64.T)[-1], 0.0)))


def _block_converged(angles: list[float], tol: float) -> bool:
    """Rule (1) of the block route (:func:`weighted_top_eigenspace`) on the successive angles after
    expansions: ``a_t <= tol`` or, with ``r = a_t / a_{t−1} < 1``, ``a_t r/(1 − r) <= tol``."""
    a = angles[-1]
    if a <= tol:
        return True
    r = a / angles[-2] if len(angles) >= 2 and angles[-2] > 0 else np.inf
    return r < 1.0 and a * r / (1.0 - r) <= tol


def _cholesky_rows(Z: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(L⁻¹ Z, L⁻¹)``: Z's rows made orthonormal by a Cholesky QR in float64 (``L Lᵀ = Z Zᵀ``), for
    rows that are nearly orthonormal already, where it is as accurate as Householder QR at a
    fraction of its cost (9216 × 25: 0.4 vs 3.2 ms); None when Z Zᵀ is far from well conditioned
    (the caller then takes QR)."""
    Z64 = Z.astype(np.float64, copy=False)
    G = Z64 @ Z64.T
    diag = np.diag(G)
    if not np.all(np.isfinite(G)) or diag.min() <= 0.25 * diag.max() or diag.max() > 4.0:
        return None
    try:
        L = np.linalg.cholesky(G)
    except np.linalg.LinAlgError:
        return None
    if np.diag(L).min() < 0.5:      # far from orthonormal: Cholesky QR would lose orthogonality
        return None
    Linv = np.linalg.inv(L)
    return (Linv @ Z64).astype(Z.dtype, copy=False), Linv


def _orthonormal_rows_against(Z: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """Orthonormal rows spanning Z's rows without the span of ``basis`` (block Gram–Schmidt
    twice: Householder QR after the first projection, which copes with rows that are nearly
    dependent, and after the second, whose rows are orthonormal to round-off already, a Cholesky
    QR (:func:`_cholesky_rows`, QR if that declines)), on one BLAS thread (two made the QR of
    9216 × 30 float32 4.5 times as slow, 7.4 vs 1.6 ms). The QR is scipy's, which releases the
    GIL (:mod:`core.lapack`)."""
    with one_blas_thread():
        Z = Z - (Z @ basis.T) @ basis
        Z = orthonormal_columns(Z.T).T
        Z = Z - (Z @ basis.T) @ basis
        chol = _cholesky_rows(Z)
        return orthonormal_columns(Z.T).T if chol is None else chol[0]


def _times_rows(X: np.ndarray, Qt: np.ndarray) -> np.ndarray:
    """``X Qᵀ`` (n, b) for the b rows of Qt in the faster of the two orders OpenBLAS offers:
    ``X @ Qᵀ`` for float32 X, ``(Q Xᵀ)ᵀ`` for float64 (two threads, b = 30: 5,000 × 9,216 float32
    27 vs 36 ms, float64 58 vs 51 ms; 10,000 × 4,096 float32 27 vs 32 ms, float64 53 vs 44 ms)."""
    return X @ Qt.T if X.dtype == np.float32 else (Qt @ X.T).T


def block_eigenspace(X, weights, k, center, init, tol, max_iter, random_state, dtype, checkpoint,
                     init_products=None, residual_tol=None, sq=None):
    """The block Krylov iteration (see the module docstring) for the top-k eigenvectors of
    ``S_w = X̃ᵀ diag(w) X̃``, ``X̃ = X − center`` never formed. Returns ``(components (k, d),
    eigenvalues (k,), projections (n, k), n_iter, angle, block (b, d), products (n, b))`` with
    the components in the Ritz order and unoriented, or None if it did not converge within ``max_iter`` iterations
    (the caller then takes an exact route). ``tol`` None: :data:`BLOCK_TOL` (float64) or
    :data:`BLOCK_TOL_32`; ``max_iter`` None: as many iterations as cost about what the exact
    route costs, at least 10.

    ``init_products``: ``X @ initᵀ`` (n, b), uncentred, when ``init`` is the block a previous call
    on the same X returned (with its products, the last element returned): the first iteration
    then takes them instead of a pass over X (the previous Rayleigh–Ritz step had them already).
    The products returned are ``X @ blockᵀ`` of the block returned (uncentred), in X's dtype.

    ``residual_tol`` (with ``sq``, the squared norms ‖x_i − c‖² (n,)): also stop, from iteration 2
    on, when the samples' residuals ``e_i = sq_i − ‖W x̃_i‖²`` of two successive Ritz subspaces
    differ by at most ``residual_tol · Σ e_i`` in total (Σ|Δe_i|): what a reweighting step's
    weights are made of, which settles long before the subspace where the spectrum has no gap."""
    n, d = X.shape
    m = min(n, d)
    warm = init is not None and init.shape[0] > 0
    b = min(k + (STEP_OVERSAMPLES if warm else BLOCK_OVERSAMPLES), m)
    if tol is None:
        tol = BLOCK_TOL_32 if dtype == np.float32 else BLOCK_TOL
    if max_iter is None:
        exact_flops = (n * d * d if n > d else n * n * d) + 4 * m ** 3
        max_iter = max(10, int(np.ceil(exact_flops / (4 * n * d * b))))
    w = np.asarray(weights, dtype=float)
    c = None if center is None else np.asarray(center, dtype=dtype)
    rng = np.random.default_rng(random_state)
    prev = None
    if warm:
        prev = np.asarray(init, dtype=dtype)[:k]
        k0 = min(init.shape[0], b)
        Q = np.empty((d, b), dtype=dtype)
        Q[:, :k0] = np.asarray(init[:k0], dtype=dtype).T
        Q[:, k0:] = rng.standard_normal((d, b - k0))
    else:
        Q = rng.standard_normal((d, b)).astype(dtype)
    # (b, d): the newest block of the basis; a warm start that fills the block is orthonormal to
    # round-off already (the previous Ritz block), and a Cholesky QR is enough
    A0 = None                       # X Qᵀ of the first block, when known
    with one_blas_thread():         # scipy's QR and numpy's eigh release the GIL (the GUI thread runs meanwhile)
        chol = _cholesky_rows(Q.T) if warm and k0 == b else None
        if chol is None:
            Qt = orthonormal_columns(Q).T
        else:
            Qt, Linv = chol
            if init_products is not None and init_products.shape[0] == n and init_products.shape[1] >= b:
                # X initᵀ of the block's first b rows: its first b columns
                A0 = (np.asarray(init_products[:, :b], dtype=float) @ Linv.T).astype(dtype)   # X (L⁻¹Q)ᵀ
    rows = BLOCK_KRYLOV_BLOCKS * b
    B = np.empty((rows, d), dtype=dtype)            # B[:j]: orthonormal rows spanning the Krylov space
    XB = fresh((n, rows))                           # X̃ Bᵀ (float64), unweighted (core.memory: n-sized)
    M = np.empty((rows, rows))                      # lower triangle of B S_w Bᵀ = XBᵀ diag(w) XB
    j = 0
    angles: list[float] = []
    captured = None                                 # ‖W x̃_i‖² of the previous Ritz subspace
    for it in range(1, int(max_iter) + 1):
        checkpoint()
        q = len(Qt)
        A = _times_rows(X, Qt) if A0 is None else A0
        A0 = None
        if c is not None:
            A -= Qt @ c                             # X̃ Q = X Q − 1 (cᵀQ)
        B[j:j + q], XB[:, j:j + q] = Qt, A
        WA = XB[:, j:j + q] * w[:, None]
        M[j:j + q, :j + q] = (XB[:, :j + q].T @ WA).T
        j += q
        # Rayleigh–Ritz on span(B): Ritz values θ (decreasing), coefficients C
        theta, C = np.linalg.eigh(M[:j, :j], UPLO="L")
        theta, C = theta[::-1], C[:, ::-1]
        Wk = C[:, :k].T.astype(dtype) @ B[:j]
        if prev is not None:
            angles.append(_sin_largest_angle(prev, Wk))
            if it >= 2 and _block_converged(angles[1:] if warm else angles, tol):
                break
        if residual_tol is not None:
            P = XB[:, :j] @ C[:, :k]
            now = np.einsum("ij,ij->i", P, P)
            if captured is not None and it >= 2:
                total = float(np.maximum(sq - now, 0.0).sum())
                if float(np.abs(now - captured).sum()) <= residual_tol * total:
                    break
            captured = now
        prev = Wk
        checkpoint()
        if j + b > rows:
            # restart from the top b Ritz vectors (their products with X̃ known: no pass)
            Cb = C[:, :b]
            B[:b], XB[:, :b], M[:b, :b], j = Cb.T.astype(dtype) @ B[:j], XB[:, :j] @ Cb, np.diag(theta[:b]), b
            WA = XB[:, :b] * w[:, None]
        # S_w Q = X̃ᵀ diag(w) X̃ Q of the newest block (or of the restarted basis)
        WQ = WA.astype(dtype)
        Z = WQ.T @ X
        if c is not None:
            Z -= np.outer(WQ.sum(axis=0), c)
        if it == 1 and _norm2_rows(C[:, :k].T @ Z - theta[:k, None] * Wk) <= tol * (theta[k - 1] - theta[k]):
            break                                   # Davis–Kahan: sin θ <= ‖R‖ / gap
        # next block: orthogonalised against B (block Lanczos)
        Qt = _orthonormal_rows_against(Z, B[:j])[:d - j]
    else:
        return None
    proj = (XB[:, :j] @ C[:, :k]).astype(dtype)     # X̃ W_kᵀ from the last products: no extra pass
    block = C[:, :b].T.astype(dtype) @ B[:j]
    products = XB[:, :j] @ C[:, :b]                 # X̃ blockᵀ, then uncentred: X blockᵀ
    if c is not None:
        products += block @ c
    return (np.ascontiguousarray(Wk), np.maximum(theta[:k], 0.0), proj, it,
            float(angles[-1]) if angles else float("inf"), block, products.astype(dtype))
