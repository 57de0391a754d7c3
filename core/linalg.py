"""Shared linear algebra for the reweighted subspace methods.

Every reweighted PCA in the papers needs the top-k eigenvectors of a weighted scatter matrix
``S_w = Σ_i w_i x̃_i x̃_iᵀ = X̃ᵀ diag(w) X̃`` (paper 000 eq. 12; paper 001 eq. 16). This module
computes them in one place, :func:`weighted_top_eigenspace`, by one of three routes chosen by
:func:`subspace_route`:

* ``"gram"`` (exact, ``n_samples <= n_features``): the weighted Gram matrix ``D G D`` (n × n),
  ``D = diag(√w)``, ``G = X̃ X̃ᵀ`` (which callers can precompute once per run), then
  ``W = X̃ᵀ D V Λ^{-1/2}``;
* ``"scatter"`` (exact, otherwise): the scatter matrix ``S_w`` itself (d × d);
* ``"block"`` (large problems, e.g. 10,000 images of 64 × 64): a block Krylov (block Lanczos)
  iteration on the weighted data, warm-started from the previous iteration's Ritz block, that
  never forms an n × n or d × d matrix and stops when the estimated remaining principal angle to
  the exact eigenspace (from the last two successive angles) is at most its tolerance.

The exact routes go through :func:`top_eigh` (only the k wanted eigenpairs of a matrix up to
:data:`PARTIAL_EIGH_MAX`), never a full SVD. All routes keep X's dtype (float32 or float64).

:func:`leading_eigvecs` is the one guarded entry point to an iterative (ARPACK) eigensolver: a
deterministic non-zero start vector, an exact dense solve for small or degenerate (zero) matrices,
and a dense fallback when ARPACK fails, so that scipy's "starting vector is zero" and
no-convergence errors never reach a user.
"""
from __future__ import annotations

from contextlib import nullcontext
from typing import Callable, NamedTuple

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, LinearOperator, eigsh

from . import block_krylov, memory, threads
from .block_krylov import BLOCK_OVERSAMPLES
from .lapack import orthonormal_columns


def one_blas_thread():
    """Run the enclosed thin matrix products on one BLAS thread.

    The products with k columns here are memory-bound: on two cores OpenBLAS's threads gain
    nothing on them, and leave its thread pool in a state that slows the next threaded
    eigensolver twofold (measured at n = 1000, d = 2000, k = 40: ``eigh`` 81 ms after a threaded
    product, 40 ms after a single-threaded one; the products themselves 6.8 vs 5.7 ms). The
    eigensolver itself keeps all threads, which pay off for large n. (The one place that sets
    thread counts is :mod:`core.threads`; this is its ``one_blas_thread``.)
    """
    return threads.one_blas_thread()


#: Largest symmetric matrix whose top eigenpairs are taken by scipy's partial solver
#: (``scipy.linalg.eigh(subset_by_index=…)``); above it ``numpy.linalg.eigh`` (all eigenpairs).
#: scipy's LAPACK wrappers hold the GIL for the whole call, numpy's release it: a Python thread
#: beside the call (a GUI's event loop) waits for as long as scipy's runs. Measured on one BLAS
#: thread (two loaded cores), k = 10, the longest gap of a 1 ms ticker thread during the call:
#: n = 400 scipy 37 ms (gap 42), numpy 96 ms (gap 33); n = 500 scipy 60 ms (gap 117), numpy
#: 179 ms (gap 20); n = 784 scipy 296 ms (gap 343), numpy 637 ms (gap 52). The same rule for
#: every caller, script or app (it was 1000 unless the app switched it to 400): the exact routes
#: of :func:`subspace_route` meet 400 < n <= 1000 only with many components (see
#: :data:`EXACT_MAX`), where numpy's solver costs about twice scipy's; results agree to round-off.
PARTIAL_EIGH_MAX = 400


def top_eigh(M: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The k largest eigenvalues (decreasing) and their eigenvectors (columns) of symmetric M.

    ``M`` may be overwritten. Solver: see :data:`PARTIAL_EIGH_MAX`."""
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
    Q = orthonormal_columns(basis)
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


#: At or below this ``min(n_samples, n_features)``, the exact route (faces, the papers' small protocols); above, the
#: flop rule of :func:`subspace_route`. Was 1000: the 5,000 digits (5,000 × 784) took 156–169 ms per PCA-GM step on
#: one thread (scatter 72 ms, ``eigh`` 101 ms), 42–60 ms by the block route (same objective to 6 digits). A speed
#: rule of the numerics alone (it was tied to the app's GIL bound, now :data:`PARTIAL_EIGH_MAX`, by sharing its value).
EXACT_MAX = 400
ROUTES = ("auto", "gram", "scatter", "block")


def subspace_route(n_samples: int, n_features: int, k: int) -> str:
    """Which route :func:`weighted_top_eigenspace` takes with ``route="auto"``.

    * ``"gram"`` / ``"scatter"`` (exact): when ``m = min(n, d) <= EXACT_MAX``, or when the exact
      route's flop count per call is at most that of about four block iterations, i.e.
      ``[n > d]·n·d² + 4·m³ <= 16·n·d·b`` with ``b = k + BLOCK_OVERSAMPLES`` (forming the d × d
      scatter when n > d, plus the dense eigensolver, against 4 iterations of 2 passes over X
      with b columns). ``"gram"`` (the n × n weighted Gram matrix) when n <= d, else ``"scatter"``.
    * ``"block"`` otherwise: warm-started block subspace iteration on the weighted data, never
      forming an n × n or d × d matrix.

    At 10,000 × 4096 with k = 20 the exact route would cost ≈ 4·10¹¹ flops per call (22 s on one
    core for the d × d ``eigh`` and the scatter), a block iteration ≈ 7·10⁹ (0.2–0.3 s); a
    PCA-family step there takes 0.12–0.21 × scikit-learn's randomized PCA fit on synthetic rank-20
    data and 0.51–0.57 × on real digits, whose spectrum has no gap after k
    (``benchmarks/bench_scale.py --data mnist``).
    """
    n, d, k = int(n_samples), int(n_features), int(k)
    m = min(n, d)
    b = min(k + BLOCK_OVERSAMPLES, m)
    exact = "gram" if n <= d else "scatter"
    if m <= EXACT_MAX:
        return exact
    exact_flops = (n * d * d if n > d else 0) + 4 * m ** 3
    return exact if exact_flops <= 16 * n * d * b else "block"


def thin_product_threads(X: np.ndarray):
    """The thread context for a method's thin products with X (weighted means, projections):
    one BLAS thread on problems that take the exact route (measured: see :func:`one_blas_thread`),
    the caller's thread policy (:mod:`core.threads`) on larger ones."""
    n, d = X.shape
    return one_blas_thread() if min(n, d) <= EXACT_MAX else nullcontext()


class Eigenspace(NamedTuple):
    """What :func:`weighted_top_eigenspace` returns.

    Attributes
    ----------
    components : (k, n_features) orthonormal rows, by decreasing eigenvalue, signs fixed by
        :func:`orientation`; the dtype of X (float32 or float64).
    eigenvalues : (k,) the matching eigenvalues of the weighted scatter, decreasing, >= 0.
    projections : (n_samples, k) coordinates ``(x_i − c) · component_j`` of every sample.
    route : ``"gram"``, ``"scatter"`` or ``"block"`` (see :func:`subspace_route`).
    n_iter : block iterations done (0 on the exact routes).
    angle : sine of the largest principal angle between the last two block iterates' top-k
        subspaces (0.0 on the exact routes); the stopping rule also uses the one before it.
    block : (b, n_features) the block route's last orthonormal Ritz block (its first k rows are the
        components before the sign fix), the best ``init`` for the next weighted step (its extra
        rows already approximate the next eigenvectors); None on the exact routes.
    block_products : (n_samples, b) ``X @ blockᵀ`` (uncentred), from the last Rayleigh–Ritz step's
        products (no pass over X); None on the exact routes.
    """

    components: np.ndarray
    eigenvalues: np.ndarray
    projections: np.ndarray
    route: str
    n_iter: int
    angle: float
    block: np.ndarray | None = None
    block_products: np.ndarray | None = None

    @property
    def warm(self) -> "WarmStart | None":
        """The ``init`` for the next weighted step on the same X: the Ritz block with its
        products (the step's first pass over X is then saved), or None on the exact routes."""
        return None if self.block is None else WarmStart(self.block, self.block_products)


class WarmStart(NamedTuple):
    """A start for :func:`weighted_top_eigenspace`'s block route (``init``): the previous call's
    Ritz block (b, n_features) and ``X @ blockᵀ`` (n_samples, b), valid for that call's X only
    (``Eigenspace.warm``)."""

    block: np.ndarray
    products: np.ndarray | None


def weighted_top_eigenspace(X: np.ndarray, weights: np.ndarray, k: int, center: np.ndarray | None = None,
                            *, gram: np.ndarray | None = None, init: "np.ndarray | WarmStart | None" = None,
                            route: str = "auto", tol: float | None = None, max_iter: int | None = None,
                            random_state: int = 0, checkpoint: Callable[[], None] | None = None,
                            residual_tol: float | None = None, sq: np.ndarray | None = None
                            ) -> Eigenspace:
    """Top-k eigenvectors of the weighted scatter ``S_w = Σ_i w_i (x_i − c)(x_i − c)ᵀ``: the step
    every reweighted PCA of the papers takes (paper 000 eq. 12, paper 001 eq. 16, R1-PCA, HQ-PCA).

    Parameters
    ----------
    X : (n_samples, n_features) data (rows are samples), float64 or float32 (kept: the work and
        the results are in X's dtype).
    weights : (n_samples,) non-negative sample weights (any overall scale).
    k : number of eigenvectors, ``1 <= k < min(n_samples, n_features)``.
    center : (n_features,) the centre c, or None if X is already centred. Never subtracted from
        X as a whole on the block route (no centred copy of X is formed).
    gram : optional centred Gram matrix ``(X − c)(X − c)ᵀ`` (n, n), used by the ``"gram"`` route
        (then required exact). Callers that iterate compute it once per run when
        :func:`subspace_route` says ``"gram"``.
    init : optional (k', n_features) orthonormal rows (k' <= k + BLOCK_OVERSAMPLES) to start the
        block iteration from: the previous iteration's components; or the previous call's
        ``Eigenspace.warm`` on the same X (its Ritz block and the block's products with X, which
        save the first pass over X: one of the five of a typical step). Ignored by the exact routes.
    route : ``"auto"`` (the rule of :func:`subspace_route`), or force ``"gram"``, ``"scatter"``
        or ``"block"``.
    tol : block iteration's stopping threshold (default :data:`BLOCK_TOL`, float32
        :data:`BLOCK_TOL_32`).
    max_iter : block iterations allowed before falling back to the exact route (default: as many
        as cost about what the exact route costs, at least 10).
    random_state : seed of the block's random start columns (the results are deterministic).
    residual_tol, sq : block route only: also stop when the samples' residuals ``sq_i − ‖W x̃_i‖²``
        (``sq``: the squared distances ‖x_i − c‖², (n,)) of two successive iterations differ by at
        most ``residual_tol`` times their sum (Σ|Δe_i| <= residual_tol·Σe_i): the reweighted methods'
        PCA start (:data:`START_RESIDUAL_TOL`) and steps (:func:`step_residual_tol`), plain PCA
        (:data:`PCA_RESIDUAL_TOL`). None: the angle rule alone.
    checkpoint : called between block iterations and their costly products; the methods pass
        :func:`core.interrupt.checkpoint`, which raises :class:`core.interrupt.Cancelled` when the
        caller's run is cancelled (linalg sits beside interrupt in the layers and does not import it).

    Notes
    -----
    The routes:

    * ``"gram"`` (exact): the k top eigenpairs of ``D G D`` (n × n), ``D = diag(√w)``,
      ``G = X̃ X̃ᵀ``, then ``W = X̃ᵀ D V Λ^{-1/2}`` (the identity of paper 000 §3.2).
    * ``"scatter"`` (exact): the k top eigenpairs of ``S_w`` (d × d) itself.
      Both through :func:`top_eigh`.
    * ``"block"``: block Krylov iteration (block Lanczos with full reorthogonalisation and a
      Rayleigh–Ritz step per iteration: Saad, *Numerical Methods for Large Eigenvalue Problems*,
      2011, §6.3 and §4.3; Musco & Musco, NeurIPS 2015, for its use on a warm or random start) with
      blocks of b = k + :data:`BLOCK_OVERSAMPLES` rows, on ``S_w = X̃ᵀ diag(w) X̃``. The basis B
      (orthonormal rows) starts as ``init`` completed by seeded Gaussian rows (a cold start,
      ``init=None``, all Gaussian); each iteration takes the products ``A = X̃ Qᵀ`` of its newest
      block Q (one pass over X), the Rayleigh–Ritz step on span(B) from the small matrix ``B S_w Bᵀ
      = (X̃Bᵀ)ᵀ diag(w) (X̃Bᵀ)`` (its top k eigenvectors give the components, its eigenvalues
      theirs), and, if not stopped, the next block ``Q S_w = (diag(w) A)ᵀ X̃`` (a second pass)
      orthogonalised against B; after :data:`BLOCK_KRYLOV_BLOCKS` blocks it restarts from the top b
      Ritz vectors. (A subspace iteration, which keeps only the newest block, took 9 + 6 + 5 + 5
      iterations for 6 + 4 + 3 + 3 on the digits of :data:`BLOCK_OVERSAMPLES`.) The projections are
      ``(X̃Bᵀ) C_k`` of the last Rayleigh–Ritz step (C_k its top k eigenvectors): no pass over X
      beyond those of the iterations; zero weights are fine.

      Stopping rule, whichever comes first: (1) after the Rayleigh–Ritz step of iteration t >= 2,
      with ``a_t`` the sine of the largest principal angle between the top-k Ritz subspaces of
      iterations t − 1 and t, ``a_t <= tol``, or (t >= 3) the rate ``r = a_t / a_{t−1} < 1`` puts
      the estimated remaining error of geometric convergence, ``a_t · r / (1 − r)``, at or below
      ``tol``; (2) after the second pass of iteration 1, the Davis–Kahan bound ``‖R‖₂ / (θ_k −
      θ_{k+1}) <= tol`` on the sine to the exact eigenspace, R = S_w W_kᵀ − W_kᵀ diag(θ_{1..k}) the
      Ritz residual (from that pass's ``Q S_w``; the gap from the Ritz values): a warm start that is
      already converged stops after 2 passes. The angle a_1 between ``init`` and the first Ritz
      subspace never counts: it only sees the rotation inside span(init) (stopping on it kept an
      error of 2e-5 at tol 1e-5 on synthetic rank-20 data, k = 20, step after step), and it measures
      the change of the weights, not convergence (a rate from it stopped a float32 RPCA-OM step at
      1.7e-4, tol 1e-4). True sines measured against the exact eigenspace on digits (28², 32², 96²),
      faces and synthetic data (PCA-GM, RPCA-OM, HQ-PCA steps, k = 5–20): at most 0.8 × tol
      (float64) and 0.84 × tol (float32). If ``max_iter`` iterations do not get there (a tiny gap
      λ_k − λ_{k+1}), the exact route is taken instead.

      When ``init`` spans the previous components W₀, the first iteration's Ritz vectors satisfy
      ``tr(W S_w Wᵀ) >= tr(W₀ S_w W₀ᵀ)`` (span(B) contains W₀), and the later ones converge to
      the top-k eigenspace, which maximises it (span(B) only grows; a restart keeps the top b
      Ritz vectors); so the reweighting methods' objectives keep never increasing (tested).

    Returns
    -------
    :class:`Eigenspace` (components, eigenvalues, projections, route, n_iter, angle, block,
    block_products).

    Raises ValueError for an unknown ``route``; whatever ``checkpoint`` raises.
    """
    if route not in ROUTES:
        raise ValueError(f"route must be one of {ROUTES}, got {route!r}")
    n, d = X.shape
    k = int(k)
    dtype = X.dtype if X.dtype in (np.float32, np.float64) else np.dtype(np.float64)
    if route == "auto":
        route = subspace_route(n, d, k)
    if route == "block":
        init, products = (init.block, init.products) if isinstance(init, WarmStart) else (init, None)
        out = block_krylov.block_eigenspace(X, weights, k, center, init, tol, max_iter, random_state, dtype,
                                            checkpoint or _no_checkpoint, init_products=products,
                                            residual_tol=None if sq is None else residual_tol,
                                            sq=None if sq is None else np.asarray(sq, dtype=float))
        if out is not None:
            comps, evals, proj, n_iter, angle, block, products = out
            signs = orientation(comps).astype(dtype)
            return Eigenspace(comps * signs[:, None], evals, proj * signs[None, :], "block", n_iter, angle,
                              block, products)
        route = "gram" if n <= d else "scatter"
    comps, evals, proj = _exact_eigenspace(X, weights, k, center, gram, route, dtype,
                                           checkpoint or _no_checkpoint)
    return Eigenspace(comps, evals, proj, route, 0, 0.0)


def weighted_subspace(X: np.ndarray, weights: np.ndarray, k: int, center: np.ndarray | None = None,
                      gram: np.ndarray | None = None, init: np.ndarray | None = None,
                      route: str = "auto", checkpoint: Callable[[], None] | None = None
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(components, eigenvalues, projections)`` of :func:`weighted_top_eigenspace` (same
    parameters): the top-k eigenvectors (k, n_features), eigenvalues (k,) and coordinates
    (n_samples, k) of the weighted scatter ``Σ_i w_i (x_i − c)(x_i − c)ᵀ``."""
    out = weighted_top_eigenspace(X, weights, k, center, gram=gram, init=init, route=route,
                                  checkpoint=checkpoint)
    return out.components, out.eigenvalues, out.projections


#: rows per block when the exact route forms the d × d scatter (a checkpoint between blocks)
SCATTER_BLOCK_ROWS = 512


def _scatter(Xc: np.ndarray, w: np.ndarray, checkpoint: Callable[[], None]) -> np.ndarray:
    """``Xc.T @ (Xc * w[:, None])`` summed over blocks of :data:`SCATTER_BLOCK_ROWS` rows, with
    ``checkpoint()`` before each block (a cancelled step stops within one block's product).

    Each block is scaled by ``√w`` and multiplied by its own transpose, ``BᵀB``, which numpy
    computes by a symmetric rank-k update (BLAS ``syrk``: half the products of a general
    ``Bᵀ(B·w)``, and S exactly symmetric); the weights are non-negative."""
    n, d = Xc.shape
    S = np.zeros((d, d), dtype=Xc.dtype)
    root = np.sqrt(np.maximum(w, 0.0)).astype(Xc.dtype, copy=False)
    for i in range(0, n, SCATTER_BLOCK_ROWS):
        checkpoint()
        B = Xc[i:i + SCATTER_BLOCK_ROWS] * root[i:i + SCATTER_BLOCK_ROWS, None]
        S += B.T @ B
    return S


def _exact_eigenspace(X, weights, k, center, gram, route, dtype, checkpoint):
    """The ``"gram"`` (n × n) or ``"scatter"`` (d × d) route of :func:`weighted_top_eigenspace`,
    with ``checkpoint()`` between its costly calls."""
    w = np.asarray(weights, dtype=float)
    if center is not None:
        center = np.asarray(center, dtype=dtype)
    if route == "gram":
        Xc = None
        if gram is None:
            Xc = X if center is None else X - center
            gram = Xc @ Xc.T
        checkpoint()
        s = np.sqrt(w)
        evals, V = top_eigh(np.asarray(gram, dtype=float) * s[:, None] * s[None, :], k)
        Vs = (V * s[:, None]).astype(dtype, copy=False)
        with one_blas_thread():
            # components ∝ (X − c)ᵀ D V (norm √λ); projections = (X − c)(X − c)ᵀ D V / √λ = G D V / √λ
            comps = X.T @ Vs
            if center is not None:
                comps -= np.outer(center, Vs.sum(axis=0))
            comps = comps.T
            norms = np.linalg.norm(comps, axis=1)
            if np.any(norms <= 1e-12 * max(norms.max(), 1e-300)):
                # k exceeds the rank of the weighted data: complete to an orthonormal basis.
                comps = orthonormal_columns(comps.T).T
                Xc = (X if center is None else X - center) if Xc is None else Xc
                proj = Xc @ comps.T
            else:
                comps /= norms[:, None]
                proj = (np.asarray(gram, dtype=dtype) @ Vs) / norms
    else:
        Xc = X if center is None else X - center
        S = _scatter(Xc, w.astype(dtype), checkpoint)
        checkpoint()
        evals, Wt = top_eigh(S, k)
        checkpoint()
        comps = Wt.T.astype(dtype, copy=False)
        with one_blas_thread():
            proj = Xc @ comps.T
    signs = orientation(comps).astype(dtype)
    return comps * signs[:, None], np.maximum(evals, 0.0), proj * signs[None, :]


def _no_checkpoint() -> None:
    pass


#: Block-route tolerance of the reweighted methods' PCA start (iteration 0), instead of
#: :data:`BLOCK_TOL`: the start only has to give the first reweighted step its weights (from
#: residual norms) and warm start, and every step after it converges its own subspace to
#: :data:`BLOCK_TOL`. See :func:`start_tol` and the measurements there.
START_TOL = 1e-2
#: ... or when the samples' residuals of two successive iterations differ by at most this fraction of
#: their sum (:func:`weighted_top_eigenspace`'s ``residual_tol``): without a gap after k the
#: subspace angle inside the flat part of the spectrum converges slowly (more slowly with more
#: samples), the residuals the weights are made of do not.
START_RESIDUAL_TOL = 1e-3

#: Rows per block in :func:`sq_distances` (a few MB of temporaries at a time, not a copy of X).
SQ_DIST_ROWS = 256


def start_tol(exact: bool) -> dict:
    """The block route's stopping options for a reweighted method's PCA start, as keywords of
    :func:`weighted_top_eigenspace` (the caller adds ``sq``): ``tol`` :data:`START_TOL` and
    ``residual_tol`` :data:`START_RESIDUAL_TOL`, whichever is met first; ``{}`` (the default
    :data:`BLOCK_TOL` / :data:`BLOCK_TOL_32` alone) when the user asks for an ``exact_start``."""
    return {} if exact else {"tol": START_TOL, "residual_tol": START_RESIDUAL_TOL}


#: The reweighted methods' steps (:func:`step_residual_tol`): a step stops its block iteration when the
#: samples' residuals have settled to this fraction of the objective's relative change at the previous
#: step (at most :data:`START_RESIDUAL_TOL`): while the weights still move, the step's subspace only
#: has to be as good as the next weights need; as the fit converges the tolerance shrinks with the
#: change, and below the method's ``tol`` the step is as accurate as the angle rule alone makes it.
STEP_RESIDUAL_FACTOR = 1e-2
#: Plain PCA (its start is its answer): the block route also stops when the samples' residuals of two
#: successive iterations differ by at most this fraction of their sum. Measured at 10,000 × 4096,
#: k = 20, without a spectral gap (``benchmarks/bench_scale.py``'s default data): 12 block iterations
#: instead of 27, the reconstruction error within 2.6·10⁻⁷ (relative) of the exact one (scikit-learn's
#: randomized PCA: 6·10⁻⁴), each sample's residual within 1.1·10⁻⁴ of Σe in total.
PCA_RESIDUAL_TOL = 1e-4


def step_residual_tol(history: tuple[float, ...]) -> float:
    """The block route's ``residual_tol`` for a reweighted step after the objectives ``history``
    (J_0, …, J_t): :data:`STEP_RESIDUAL_FACTOR` times the last relative change
    ``|J_{t−1} − J_t| / |J_t|`` (the start's :data:`START_RESIDUAL_TOL` after iteration 0 and at most
    that). The fit's stopping rule may end the run only after a step whose tolerance is at or below the
    method's ``tol`` (:meth:`core.methods.reweighted.ReweightedPCA._step`)."""
    if len(history) < 2:
        return START_RESIDUAL_TOL
    change = abs(history[-2] - history[-1]) / max(abs(history[-1]), np.finfo(float).tiny)
    return min(START_RESIDUAL_TOL, STEP_RESIDUAL_FACTOR * change)


def pca_eigenspace(X: np.ndarray, center: np.ndarray, k: int, tol: float | None = None,
                   residual_tol: float | None = None, sq: np.ndarray | None = None
                   ) -> tuple[Eigenspace, np.ndarray | None]:
    """The top-``k`` principal subspace of X about ``center`` with every sample weighing 1 (the
    PCA start of the reweighted methods) as an :class:`Eigenspace` (its ``block`` is the warm
    start of the first weighted step on the block route), with the centred n × n Gram matrix, kept
    for the later weighted steps, formed only on the Gram route (else None). The route is the one
    :func:`subspace_route` chooses; cancellable at the block iterations
    (:func:`core.interrupt.checkpoint`). ``tol``, ``residual_tol``, ``sq``: the block route's stopping
    rule (:func:`weighted_top_eigenspace`; None: its default; the reweighted methods pass
    :func:`start_tol`). With a ``residual_tol`` (the good-enough starts, not ``exact_start``) on
    float64 data taking the block route, the iterations run in single precision
    (:func:`_single_precision_pca`)."""
    from . import interrupt

    gram = None
    route = subspace_route(X.shape[0], X.shape[1], k)
    if route == "gram":
        Xc = X - center
        gram = Xc @ Xc.T
        del Xc
    elif route == "block" and residual_tol is not None and sq is not None and X.dtype == np.float64:
        return _single_precision_pca(X, center, k, tol, residual_tol, sq, interrupt.checkpoint), None
    out = weighted_top_eigenspace(X, np.ones(len(X), dtype=X.dtype), k, center, gram=gram, tol=tol,
                                  residual_tol=residual_tol, sq=sq, checkpoint=interrupt.checkpoint)
    return out, gram


def _single_precision_pca(X: np.ndarray, center: np.ndarray, k: int, tol: float | None, residual_tol: float,
                          sq: np.ndarray, checkpoint: Callable[[], None]) -> Eigenspace:
    """:func:`pca_eigenspace`'s block route for a good-enough start on float64 X: the block Krylov
    iterations (all but a few per cent of the time, each two products with the data) run on a
    float32 copy of the *centred* data (``core.memory.fresh``, half X's size, written by blocks of
    rows: no float64 temporary), whose products take 0.75–0.85 of the float64 ones' time, with the
    same stopping rule (``residual_tol`` on the residuals, ``sq`` in float64; the angle ``tol`` at
    least :data:`BLOCK_TOL_32`, float32's floor); then one float64 pass makes the result float64-
    accurate: the components made orthonormal in float64, their projections ``(X − c) Wᵀ`` from X
    itself, and the Rayleigh–Ritz step inside their span (eigenvalues and order). The Ritz block
    for the first weighted step and its products with X come from the float32 iteration (a warm
    start only; each step converges on X itself). Centring first keeps float32's relative round-off
    (6·10⁻⁸) relative to the spread of the data, not to its offset.

    Measured at 10,000 × 4096 without a spectral gap, k = 20, one BLAS thread (CPU s): the
    reweighted methods' start 11 block iterations in 1.44–1.75 s instead of 1.9–2.0 s, the
    reconstruction error 8.7·10⁻⁷ above the exact one (float64 iterations: 6.9·10⁻⁷), Σ|Δe_i|/Σe_i
    2.8·10⁻⁴ (1.8·10⁻⁴)."""
    n, d = X.shape
    Xs = memory.fresh((n, d), np.float32)
    c = np.asarray(center, dtype=np.float64)
    for i in range(0, n, SQ_DIST_ROWS):
        np.subtract(X[i:i + SQ_DIST_ROWS], c, out=Xs[i:i + SQ_DIST_ROWS], casting="same_kind")
    tol32 = max(block_krylov.BLOCK_TOL_32, block_krylov.BLOCK_TOL if tol is None else float(tol))
    out = weighted_top_eigenspace(Xs, np.ones(n, dtype=np.float32), k, None, tol=tol32,
                                  residual_tol=residual_tol, sq=sq, checkpoint=checkpoint)
    del Xs
    checkpoint()
    with one_blas_thread():
        W = orthonormal_columns(out.components.astype(np.float64).T).T          # (k, d) float64
        P = (W @ X.T).T                                                          # one float64 pass
        P -= W @ c
        theta, V = np.linalg.eigh(P.T @ P)                                       # Rayleigh–Ritz in span(W)
        theta, V = theta[::-1], V[:, ::-1]
        W, P = V.T @ W, P @ V
    signs = orientation(W)
    block = products = None
    if out.block is not None and out.block_products is not None:
        block = out.block.astype(np.float64)
        products = out.block_products.astype(np.float64)                        # (X − c) blockᵀ ...
        products += block @ c                                                    # ... X blockᵀ
    return Eigenspace(W * signs[:, None], np.maximum(theta, 0.0), P * signs[None, :], out.route,
                      out.n_iter, out.angle, block, products)


def pca_subspace(X: np.ndarray, center: np.ndarray, k: int
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(components (k, d), projections (n, k), gram)`` of :func:`pca_eigenspace`."""
    out, gram = pca_eigenspace(X, center, k)
    return out.components, out.projections, gram


def sq_distances(X: np.ndarray, m: np.ndarray | None = None) -> np.ndarray:
    """Squared distances ``‖x_i − m‖²`` (n_samples,) of the rows of X to m (to 0 if m is None),
    in X's dtype, computed :data:`SQ_DIST_ROWS` rows at a time: the same numbers as
    ``einsum("ij,ij->i", X − m, X − m)`` without the two n × d temporaries."""
    n = X.shape[0]
    out = np.empty(n, dtype=X.dtype if X.dtype in (np.float32, np.float64) else np.float64)
    for i in range(0, n, SQ_DIST_ROWS):
        D = X[i:i + SQ_DIST_ROWS] if m is None else X[i:i + SQ_DIST_ROWS] - m
        np.einsum("ij,ij->i", D, D, out=out[i:i + SQ_DIST_ROWS])
    return out


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
