"""Weighted non-negative least squares (WNLS): the inner solver shared by the NMF methods.

Every NMF method of :mod:`core.methods.nmf` alternates two convex sub-problems, one per factor,
with a fixed non-negative weight matrix ``Q`` (Guan et al. 2019, Guan et al., TPAMI 2019, §3.1: the HQ
H- and W-steps)::

    side="left":   min_{Y >= 0}  ½ Σ_ij Q_ij (X − Y F)_ij²     Y (n, r), F (r, d)   (coefficients)
    side="right":  min_{Y >= 0}  ½ Σ_ij Q_ij (X − F Y)_ij²     F (n, r), Y (r, d)   (basis)

The problems separate: each row of Y (left) or column of Y (right) — a *unit* below — is an
independent r-variable problem with Hessian ``F diag(Q_i·) Fᵀ`` (left) or ``Fᵀ diag(Q_·j) F``
(right). Paper 003 writes the data as V (features × samples) ≈ W H; with our X = Vᵀ (samples as
rows) the paper's H-step is ``side="left"`` with Y = Hᵀ, F = Wᵀ, and its W-step is
``side="right"`` with Y = Wᵀ, F = Hᵀ.

:func:`wnls` is Algorithm 1 of Guan et al. 2019 (Nesterov's optimal gradient method, OGM) run on all
units at once with matrix products (no Python loop over samples or pixels):

* gradients ``∇_u(y) = M_u y − b_u`` of every unit at once, by one of two equivalent routes:
  *batched Hessians* (every unit's r × r ``M_u = F diag(Q_u) Fᵀ`` built by one matrix product of
  n·d·r(r+1)/2 flops, then O(r²) per unit and iteration: the default when r < 4 × the iteration
  cap and the arrays fit :data:`HESSIAN_MAX_ENTRIES`) or *residuals* (``(Q∘(YF − X))Fᵀ``, two
  products of n·d·r flops per iteration, no r² memory);
* step ``1/L_u`` per unit, ``L_u`` an upper bound of the unit's Lipschitz constant (the spectral
  norm ``‖F diag(Q_u) Fᵀ‖₂`` of Algorithm 1 line 2) by the Collatz–Wielandt bound of a
  non-negative matrix after a few batched power steps (3 on the Hessians, 1 on the residual
  route), see :func:`lipschitz` — never below the true constant, within a few % of it;
* projected-gradient stopping rule (15), checked jointly over all units at the search point (as
  the authors' code does): ``‖∇ᴾ(Z_k)‖_F <= tol · ‖∇ᴾ(Z_0)‖_F`` with ``∇ᴾ_l = ∇_l`` if ``z_l > 0``,
  ``min(0, ∇_l)`` if ``z_l = 0`` (the paper prints ``>= 0`` in the first case, a typo);
* output: the last projected iterate ``h_k = Π₊(·)`` (always feasible; the paper returns the search
  point ``z_k``, which can be negative; the authors' code projects it);
* corrections: a unit whose Lipschitz bound is 0 (every weight of the unit is 0, e.g. a fully
  truncated sample) is left unchanged (no division by 0); OGM is not monotone, so a unit whose
  weighted objective ended above its starting value is returned to its start. Each call is
  therefore a descent step for every unit (what Guan et al. 2019 claim 3 — HQ as majorise–minimise —
  needs).

Cost of a weighted call on the Hessian route (X n × d, r), and why it cannot be much lower: the
Hessian product, n·d·r(r+1)/2 multiply–adds (the mnr² term of Guan et al. 2019 §3.6; the authors'
code pays it too, for its exact per-column Lipschitz constants), runs at the core's peak; each
OGM iteration then reads every unit's r × r Hessian once (one batched matvec, memory-bound)
plus ~10 passes over (units, r) vectors. Measured at n = 400, d = 1024, r = 40, one BLAS thread
(benchmarks/bench_nmf.py, which prints these parts): the two Hessian products 22 ms, the whole
builds (K, gather, b) 27 ms, one matvec 0.07 ms (coefficients) / 0.2 ms (basis), against
2.3–2.6 ms for a whole Lee–Seung iteration (3 products of n·d·r; the Hessian products have
(r + 1)/3 ≈ 14× its flops). A TC-NMF outer iteration therefore costs ~9× a multiplicative update
in the Hessian products alone, ~11× with the rest of the builds and ~15× with the matvecs of
30 (capped) OGM iterations per factor, before any vector update, Lipschitz bound, Nagy,
three-sigma, objective or weights (together ~5× more: measured ~20×). The residual route avoids
the r² term but costs two n·d·r products per OGM iteration (≈ one Lee–Seung iteration each):
cheaper only below ~r/4 iterations (:func:`_use_hessian`).

Without an entry-weight matrix (``Q=None``, optionally per-sample ``row_weights`` w with
``Q_ij = w_i``) the Gram form is used: ``∇ = Y(FFᵀ) − XFᵀ`` costs O(n r²) per iteration after
one O(n d r) product, and L is the exact ``λ_max`` of the r × r Gram matrix.

:func:`mu_update` is one weighted multiplicative update (Lee & Seung 2001; the weighted form of
Guan et al. 2019 §3.7, the rule of the baselines of §5.5), with the 0/0 guard described there.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

from ..interrupt import checkpoint
from ..memory import fresh

__all__ = ["lipschitz", "wnls", "mu_update", "weighted_objective", "Scratch", "WNLSResult",
           "HESSIAN_MAX_ENTRIES"]

#: Power steps of the batched Collatz–Wielandt bound of :func:`lipschitz` (cost: 2 products with
#: F per step). One step gives a bound within a few % of the exact ``λ_max`` (tested in
#: tests/core/test_nmf.py).
POWER_STEPS = 1


#: :class:`Scratch` keeps work arrays of at most this many entries (16 MB) between calls; larger
#: ones are allocated for each use and freed after it, so a run on large data holds no work array
#: of the data's size (nor the per-unit Hessian stacks) between its steps.
SCRATCH_MAX_ENTRIES = 1 << 21
#: Entries per block of rows of the blockwise products (``Q ∘ X`` of :func:`_hessians`; 8 MB,
#: large enough for the products with F to run at full speed).
BLOCK = 1 << 20


class Scratch:
    """Reusable work arrays of one NMF run (allocating 400 × 1024 temporaries costs ~8× the
    arithmetic done in them, page faults), up to :data:`SCRATCH_MAX_ENTRIES` entries each.
    Not shared between threads: :meth:`borrow` hands out
    the cached arrays to one caller at a time and fresh ones to a concurrent caller."""

    def __init__(self):
        self._arrays: dict = {}
        self._lock = threading.Lock()

    def __getstate__(self):              # copies and pickles start with empty work arrays
        return {}

    def __setstate__(self, state):
        self.__init__()

    @contextmanager
    def borrow(self):
        if self._lock.acquire(blocking=False):
            try:
                yield self._get
            finally:
                self._lock.release()
        else:                                   # another thread is stepping the same run
            yield _fresh

    def _get(self, name: str, shape: tuple, dtype=np.float64) -> np.ndarray:
        if int(np.prod(shape)) > SCRATCH_MAX_ENTRIES:   # large: fresh, freed after use
            self._arrays.pop(name, None)
            return fresh(shape, dtype)
        arr = self._arrays.get(name)
        if arr is None or arr.shape != tuple(shape) or arr.dtype != dtype:
            arr = self._arrays[name] = np.empty(shape, dtype=dtype)
        return arr


def _fresh(name, shape, dtype=np.float64):
    """A work array for one use, in memory of :func:`core.memory.fresh` (whose first write costs
    the same per byte at any size: the per-unit Hessians of 40,000 rows are 130 MB)."""
    return fresh(shape, dtype)


def work_dtype(*arrays) -> np.dtype:
    """The dtype the solvers compute in: float32 when every array given is float32 (float32
    data and factors: the NMF family keeps float32 input in float32), else float64."""
    return np.dtype(np.float32 if all(a.dtype == np.float32 for a in arrays) else np.float64)


@dataclass(frozen=True)
class WNLSResult:
    """Output of :func:`wnls`: the solution Y (same layout as ``Y0``), the number of OGM
    iterations (gradient steps) taken, and the number of units returned to their start because
    OGM did not lower their objective."""

    Y: np.ndarray
    n_iter: int
    restored: int


# ----------------------------------------------------------------------------- helpers
def _units(Y: np.ndarray, side: str) -> np.ndarray:
    """Y in the "units × r" layout: Y itself (left) or Yᵀ (right)."""
    return Y if side == "left" else Y.T


def _residual(X, F, Yu, side, out):
    """``out = (Y F − X)`` (left) or ``(F Y − X)`` (right), shape of X; Yu in units layout."""
    if side == "left":
        np.matmul(Yu, F, out=out)
    else:
        np.matmul(F, Yu.T, out=out)
    np.subtract(out, X, out=out)
    return out


def _back(R, F, side):
    """Gradient in units layout from the weighted residual R: ``R Fᵀ`` (left) or ``Rᵀ F`` (right)."""
    return R @ F.T if side == "left" else R.T @ F


def _unit_sums(A, side):
    return A.sum(axis=1) if side == "left" else A.sum(axis=0)


def weighted_objective(X, F, Y, Q=None, side="left", row_weights=None) -> np.ndarray:
    """Per-unit ``½ Σ Q (X − YF)²`` (left: per row of Y, (n,); right: per column of Y, (d,))."""
    D = _residual(X, F, _units(Y, side), side, np.empty(X.shape, dtype=work_dtype(X, F)))
    W = Q if Q is not None else (np.ones(X.shape) if row_weights is None
                                 else np.broadcast_to(np.asarray(row_weights, float)[:, None], X.shape))
    return 0.5 * _unit_sums(W * D * D, side)


def lipschitz(F: np.ndarray, Q: np.ndarray, side: str = "left", power_steps: int = POWER_STEPS,
              get=_fresh) -> np.ndarray:
    """Upper bounds of the per-unit Lipschitz constants ``λ_max(M_u)`` of the WNLS gradients.

    ``M_u = F diag(Q_u·) Fᵀ`` (left, u a row of X) or ``Fᵀ diag(Q_·u) F`` (right, u a column).
    F and Q are non-negative, so every ``M_u`` has non-negative entries and for any x > 0
    ``λ_max(M_u) = ρ(M_u) <= ‖D⁻¹ M_u D‖_∞ = max_a (M_u x)_a / x_a`` (D = diag(x): an induced
    norm bounds the spectral radius; Collatz–Wielandt). With x = 1 this is the largest row sum;
    ``power_steps`` power iterations ``x ← M_u x`` from 1 make it tight (the minimum over the
    tried x is returned). All units at once: ``M_u x_u`` for every u costs two products with F.
    Never below the true constant, so the OGM step ``1/L`` is always safe. A unit whose weights
    are all 0 gets 0.

    Returns (n_units,) = (n,) for left, (d,) for right.
    """
    dtype = work_dtype(F, Q)
    if side == "left":
        s = F.sum(axis=0)                                   # (d,): Fᵀ1
        T = get("lip", Q.shape, dtype)
        np.multiply(Q, s[None, :], out=T)
        y = T @ F.T                                         # (n, r) = M_u 1
    else:
        s = F.sum(axis=1)                                   # (n,): F1
        T = get("lip", Q.shape, dtype)
        np.multiply(Q, s[:, None], out=T)
        y = T.T @ F                                         # (d, r)
    L = y.max(axis=1)
    for _ in range(int(power_steps)):
        top = y.max(axis=1, keepdims=True)
        x = np.maximum(y, 1e-12 * top)
        x[top[:, 0] <= 0] = 1.0
        if side == "left":
            np.matmul(x, F, out=T)
            np.multiply(T, Q, out=T)
            y = T @ F.T
        else:
            np.matmul(F, x.T, out=T)
            np.multiply(T, Q, out=T)
            y = T.T @ F
        L = np.minimum(L, (y / x).max(axis=1))
    return np.maximum(L, 0.0)


def _gram(X, F, side, row_weights):
    """Gram form of the unweighted (or per-sample weighted) problem: (Gm (r, r), C (units, r), w)."""
    w = None if row_weights is None else np.asarray(row_weights, dtype=F.dtype)
    if side == "left":
        Gm = F @ F.T
        C = X @ F.T                                         # (n, r)
    else:
        Fw = F if w is None else F * w[:, None]
        Gm = F.T @ Fw
        C = (Fw.T @ X).T                                    # (d, r); FᵀX is the faster product
    return Gm, C, (w if side == "left" else None)


_TRI: dict = {}


def _triangle(r: int):
    """(iu, ju, full): the upper-triangle index pairs (a <= b, row-major) of an r × r matrix and,
    for every entry (a, b) of the full matrix in row-major order, the position of (min, max) in
    that list (cached per r)."""
    tri = _TRI.get(r)
    if tri is None:
        iu, ju = np.triu_indices(r)
        pos = np.empty((r, r), dtype=np.intp)
        pos[iu, ju] = np.arange(iu.size)
        pos[ju, iu] = np.arange(iu.size)
        tri = _TRI[r] = (iu, ju, pos.reshape(-1))
    return tri


def _hessians(X, F, Q, side, get):
    """Every unit's Hessian and linear term at once: M (units, r, r) and b (units, r) with
    ``∇_u(y) = M_u y − b_u``. Left: ``M_i = F diag(Q_i·) Fᵀ`` = row i of ``Q K``, where row j of
    K (d, r(r+1)/2) holds the upper triangle of ``f_j f_jᵀ`` (f_j column j of F): one product of
    n d r(r+1)/2 flops (symmetry halves it; at r = 40 this product is ~90 % of the call and runs
    at the core's peak), then one gather copies each unit's triangle into its full r × r matrix
    (a row-major ``take``; the two scattered triangle writes it replaces cost 4×);
    ``b = (Q∘X) Fᵀ``. Right: the same with Qᵀ and the rows of F.

    K, the packed product and M come from ``get``, one set per side (their shapes differ), so
    a run keeps them between steps while each has at most :data:`SCRATCH_MAX_ENTRIES` entries
    (for X 400 × 1024, r = 40: 37 MB): fresh 5–13 MB arrays every call cost page faults,
    measured +40 % on this function. Larger ones are made for the call and freed after it.
    ``Q ∘ X`` is formed one block of rows at a time (no array of the data's size); float32
    weights (large data, :func:`core.methods.nmf_weights.weights_dtype`) enter the Hessian
    product one block of rows at a time too, converted to float64 (products and sums in float64)."""
    r = F.shape[0] if side == "left" else F.shape[1]
    dtype = F.dtype                      # float32 factors (float32 data): the products in float32
    iu, ju, full = _triangle(r)
    p = iu.size
    # K: one row (left: column of Kᵀ) per f_j, the products f_ja f_jb (a <= b) in the order of
    # (iu, ju), built one a at a time (r products, no (·, p) temporaries)
    if side == "left":
        KT = get("hess_K_left", (p, F.shape[1]), dtype)    # Kᵀ (p, d)
        at = 0
        for a in range(r):
            np.multiply(F[a], F[a:], out=KT[at:at + r - a])
            at += r - a
        K, A = KT.T, Q
    else:
        K = get("hess_K_right", (F.shape[0], p), dtype)    # K (n, p)
        at = 0
        for a in range(r):
            np.multiply(F[:, a:a + 1], F[:, a:], out=K[:, at:at + r - a])
            at += r - a
        A = Q.T
    units = A.shape[0]
    Mt = get("hess_Mt_" + side, (units, p), dtype)
    n, d = X.shape
    rows = n if X.size <= SCRATCH_MAX_ENTRIES else max(1, BLOCK // max(d, 1))
    if Q.dtype == Mt.dtype:
        np.matmul(A, K, out=Mt)
    else:          # float32 weights (large data): float64 products one block of rows at a time
        for i in range(0, n, rows):
            checkpoint()
            sl = slice(i, min(i + rows, n))
            Qb = np.asarray(Q[sl], dtype=Mt.dtype)
            if side == "left":
                np.matmul(Qb, K, out=Mt[sl])
            elif i == 0:
                np.matmul(Qb.T, K[sl], out=Mt)
            else:
                Mt += Qb.T @ K[sl]
    checkpoint()
    M = get("hess_M_" + side, (units, r, r), dtype)
    np.take(Mt, full, axis=1, out=M.reshape(units, r * r), mode="clip")   # (mode "raise" buffers: a temporary of M's size)
    # b = (Q∘X)Fᵀ (left) or (Q∘X)ᵀF (right), one block of rows of X at a time (one block, as
    # one product, when X is small: the same values as before)
    b = np.empty((units, r), dtype=dtype)
    for i in range(0, n, rows):
        checkpoint()
        sl = slice(i, min(i + rows, n))
        T = get("hess_T", X[sl].shape, np.result_type(Q.dtype, X.dtype))
        np.multiply(Q[sl], X[sl], out=T)
        if side == "left":
            np.matmul(T, F.T, out=b[sl])
        elif i == 0:
            np.matmul(T.T, F[sl], out=b)
        else:
            b += T.T @ F[sl]
    return M, b


def _matvec(M: np.ndarray, Y: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """``M_u y_u`` for every unit: M (units, r, r) symmetric, Y (units, r) -> (units, r).

    Computed as the row vectors ``y_uᵀ M_u`` (= ``(M_u y_u)ᵀ`` by symmetry): numpy's stacked
    (1 × r)(r × r) products are 5–20 % faster than the (r × r)(r × 1) ones."""
    if out is None:
        out = np.empty(Y.shape, dtype=np.result_type(M.dtype, Y.dtype))
    np.matmul(Y[:, None, :], M, out=out[:, None, :])
    return out


def _batched_lipschitz(M: np.ndarray, power_steps: int = 3) -> np.ndarray:
    """Collatz–Wielandt upper bounds of ``λ_max(M_u)`` for non-negative symmetric M (units, r, r)
    (see :func:`lipschitz`), from x = 1 and ``power_steps`` power iterations; cheap matvecs (the
    row sums too: a matvec with 1 reads M at full speed, ``M.sum(axis=2)`` at a quarter)."""
    y = _matvec(M, np.ones(M.shape[:2], dtype=M.dtype))
    L = y.max(axis=1)
    x = np.empty_like(y)
    for _ in range(power_steps):
        top = y.max(axis=1, keepdims=True)
        np.maximum(y, 1e-12 * top, out=x)
        x[top[:, 0] <= 0] = 1.0
        _matvec(M, x, out=y)
        L = np.minimum(L, (y / x).max(axis=1))
    return np.maximum(L, 0.0)


#: Batched-Hessian route of :func:`wnls` only while its arrays hold at most this many entries
#: (units × r², 8 bytes each: 80 MB), or at most the data's own number of entries if that is larger
#: (the residual route holds two scratch arrays of the data's size, so it never saves memory there).
#: A fixed cap alone switched Truncated Cauchy NMF's coefficient step (units = rows, r = 20) to the
#: residual route between 20,000 and 40,000 rows × 4096 (issue 32): 40,000 × 400 = 1.6·10⁷ entries;
#: the step then cost 30 inner iterations of two passes over X instead of one Hessian product,
#: superlinear growth in n.
HESSIAN_MAX_ENTRIES = 10_000_000

#: ``code=True`` (the authors' public code's OGM, CauchyOGM): at least this many iterations.
CODE_MIN_ITER = 20


def _use_hessian(X, F, side, max_iter) -> bool:
    """Batched Hessians cost one product of X.size·r(r+1)/2 flops (≈ r/4 OGM iterations of the
    residual route, 4·X.size·r flops each) and then O(r²) per unit and iteration: worth it when
    ``r < 4 · max_iter`` and the arrays fit ``max(HESSIAN_MAX_ENTRIES, X.size)``
    (:data:`HESSIAN_MAX_ENTRIES`): the cost stays linear in the number of units."""
    r = F.shape[0] if side == "left" else F.shape[1]
    units = X.shape[0] if side == "left" else X.shape[1]
    other = X.shape[1] if side == "left" else X.shape[0]
    p = r * (r + 1) // 2
    return r < 4 * max_iter and max(units * r * r, other * p) <= max(HESSIAN_MAX_ENTRIES, X.size)


def wnls(X: np.ndarray, F: np.ndarray, Y0: np.ndarray, *, side: str = "left",
         Q: np.ndarray | None = None, row_weights: np.ndarray | None = None,
         tol: float = 1e-2, max_iter: int = 50, get=None, route: str = "auto",
         gram: tuple | None = None, code: bool = False) -> WNLSResult:
    """Solve the WNLS problem of the module docstring from ``Y0`` by OGM (Guan et al. 2019 Algorithm 1).

    Parameters
    ----------
    X : (n, d) target (may hold negative values, e.g. X − S for RNMF-L1).
    F : (r, d) for ``side="left"``, (n, r) for ``side="right"``; non-negative.
    Y0 : (n, r) for left, (r, d) for right; non-negative start (warm start from the last iterate).
    Q : (n, d) non-negative entry weights, or None for the Gram form (then ``row_weights`` (n,)
        gives per-sample weights ``Q_ij = w_i``, or None for unit weights).
    tol : relative tolerance of rule (15).
    max_iter : at most this many OGM iterations (gradient steps).
    get : scratch-array getter (from :meth:`Scratch.borrow`), or None to allocate.
    route : how the gradient of a weighted problem is computed: ``"hessian"`` (every unit's r × r
        Hessian built once by one product, then O(r²) per unit and iteration, Lipschitz bounds
        from 3 cheap power steps), ``"residual"`` (``∇ = (Q∘(YF − X))Fᵀ`` each iteration, two
        products with F, no r² memory; Lipschitz bounds by :func:`lipschitz`), or ``"auto"``
        (:func:`_use_hessian`). Same gradients up to round-off; the two Lipschitz bounds differ
        by a few %, so the iterates differ slightly (both are Algorithm 1 with a safe step).
    gram : for the unweighted problem (Q and row_weights None) the products ``(Gm, C)`` of the
        Gram form when the caller has them: left ``(F Fᵀ, X Fᵀ)``, right ``(Fᵀ F, Xᵀ F)``.
    code : run Algorithm 1 as the authors' public code does (CauchyOGM, Guan et al. 2019), not
        with this module's choices: at least :data:`CODE_MIN_ITER` iterations before rule (15)
        is tested, the exact per-unit Lipschitz constants ``λ_max(M_u)`` (batched ``eigvalsh``;
        a weighted problem takes the Hessian route), the output ``Π₊(z_k)`` (the projected
        search point, not the last projected iterate) and no return of units whose objective
        rose. Used to follow that code from the same start (``solver="nesterov-code"``).

    Returns
    -------
    WNLSResult (Y in the layout of Y0, non-negative).
    """
    get = get or _fresh
    dtype = F.dtype if F.dtype == np.float32 else np.dtype(np.float64)   # (X − S of RNMF-L1: no array)
    Y0u = np.maximum(_units(np.asarray(Y0, dtype=dtype), side), 0.0)
    m = Y0u.shape[0]
    if Q is not None and (route == "auto" or code):
        route = "hessian" if code or _use_hessian(X, F, side, max_iter) else "residual"
    if Q is None:
        Gm, C, w = _gram(X, F, side, row_weights) if gram is None else (*gram, None)
        lam = float(np.linalg.eigvalsh(Gm)[-1]) if Gm.size else 0.0
        L = np.full(m, max(lam, 0.0)) if w is None else np.maximum(w, 0.0) * max(lam, 0.0)

        def grad(Zu, G):
            np.matmul(Zu, Gm, out=G)
            np.subtract(G, C, out=G)
            if w is not None:
                np.multiply(G, w[:, None], out=G)

        def unit_obj_delta(Yu, Y0u):                        # f_u(Y) − f_u(Y0)
            D, S = Yu - Y0u, Yu + Y0u                       # ½(YᵀGY − Y0ᵀGY0) = ½ DᵀG S
            d = np.einsum("ur,ur->u", D, 0.5 * (S @ Gm) - C)
            return d if w is None else d * w
    elif route == "hessian":
        M, b = _hessians(X, F, Q, side, get)
        L = np.linalg.eigvalsh(M)[:, -1] if code else _batched_lipschitz(M)

        def grad(Zu, G):
            _matvec(M, Zu, out=G)
            np.subtract(G, b, out=G)

        def unit_obj_delta(Yu, Y0u):                        # ½(YᵀMY − Y0ᵀMY0) − bᵀ(Y − Y0)
            D, S = Yu - Y0u, Yu + Y0u                       # = Dᵀ(½ M S − b): one matvec
            MS = _matvec(M, S)
            MS *= 0.5
            MS -= b
            return np.einsum("ur,ur->u", D, MS)
    else:
        L = lipschitz(F, Q, side, get=get)
        D = get("wnls_D", X.shape, work_dtype(X, F, Q))
        f0 = None

        def grad(Zu, G):
            _residual(X, F, Zu, side, D)
            np.multiply(D, Q, out=D)
            if side == "left":
                np.matmul(D, F.T, out=G)
            else:
                np.matmul(D.T, F, out=G)

        def unit_obj(Yu):
            _residual(X, F, Yu, side, D)
            T = get("wnls_T", X.shape, D.dtype)
            np.multiply(D, D, out=T)
            np.multiply(T, Q, out=T)
            return 0.5 * _unit_sums(T, side)

        def unit_obj_delta(Yu, Y0u):
            return unit_obj(Yu) - f0

        f0 = unit_obj(Y0u)

    invL = np.divide(1.0, L, out=np.zeros_like(L), where=L > 0)[:, None]
    if Q is None and row_weights is None and m:         # one L for every unit: a scalar step
        invL = float(invL[0, 0])                        # (a broadcast product costs 3× more)
    # OGM (Algorithm 1) on (m, r) work arrays, updated in place: Yu the projected iterate h_k,
    # Zu the search point z_k, G the gradient at Zu, T scratch.
    Yu = Y0u.copy()
    Yn = np.empty_like(Yu)
    Zu = Y0u.copy()
    G = np.empty_like(Yu)
    T = np.empty_like(Yu)
    keep = np.empty(Yu.shape, dtype=bool)
    neg = np.empty(Yu.shape, dtype=bool)
    flat = T.reshape(-1)
    alpha = 1.0
    pgn0 = None
    k = 0
    min_iter = CODE_MIN_ITER if code else 0
    while k < max_iter:
        checkpoint()
        grad(Zu, G)
        # projected gradient at the search point: ∇ where z > 0, min(0, ∇) where z <= 0, i.e.
        # ∇ where (z > 0 or ∇ < 0) and 0 elsewhere (a product with the mask: np.copyto(where=)
        # and boolean indexing are 5–10× slower)
        np.greater(Zu, 0.0, out=keep)
        np.less(G, 0.0, out=neg)
        np.logical_or(keep, neg, out=keep)
        np.multiply(G, keep, out=T)
        pgn = float(np.sqrt(np.dot(flat, flat)))
        if pgn0 is None:
            pgn0 = pgn
            if pgn0 == 0.0:
                break
        elif pgn <= tol * pgn0 and k >= min_iter:
            break
        np.multiply(G, invL, out=T)                         # h_{k+1} = Π₊(z_k − ∇/L)
        np.subtract(Zu, T, out=Yn)
        np.maximum(Yn, 0.0, out=Yn)
        alpha_new = 0.5 * (1.0 + np.sqrt(4.0 * alpha * alpha + 1.0))
        np.subtract(Yn, Yu, out=Zu)                         # z_{k+1} = h_{k+1} + β (h_{k+1} − h_k)
        np.multiply(Zu, (alpha - 1.0) / alpha_new, out=Zu)
        np.add(Zu, Yn, out=Zu)
        Yu, Yn = Yn, Yu
        alpha = alpha_new
        k += 1
    restored = 0
    if code:                                                # Π₊(z_k), no safeguard
        Yu = np.maximum(Zu, 0.0, out=Zu)
    elif k:
        worse = unit_obj_delta(Yu, Y0u) > 0
        restored = int(np.count_nonzero(worse))
        if restored:
            Yu[worse] = Y0u[worse]
    Y = Yu if side == "left" else Yu.T
    return WNLSResult(Y=np.ascontiguousarray(Y), n_iter=k, restored=restored)


def mu_update(X: np.ndarray, F: np.ndarray, Y: np.ndarray, *, side: str = "left",
              Q: np.ndarray | None = None, row_weights: np.ndarray | None = None,
              get=None, gram: tuple | None = None) -> np.ndarray:
    """One (weighted) multiplicative update of Y for the WNLS problem (X >= 0 required).

    Left: ``Y ← Y ∘ ((Q∘X) Fᵀ) / ((Q∘(YF)) Fᵀ)``; right: ``Y ← Y ∘ (Fᵀ(Q∘X)) / (Fᵀ(Q∘(FY)))``
    (Lee & Seung 2001 with weights; Guan et al. 2019 §3.7 'MUR'). Guard: where the denominator is 0 (no
    weight reaches that variable) Y is kept, instead of the code's ``+eps`` which would send it
    to 0. A majorise–minimise step: the weighted objective never increases. ``gram``: as for
    :func:`wnls` (unweighted problem only).
    """
    get = get or _fresh
    Y = np.asarray(Y, dtype=F.dtype if F.dtype == np.float32 else np.float64)
    if Q is None:                        # Gram form, in Y's own layout (no transposes, no copies)
        Gm, C, w = _gram(X, F, side, row_weights) if gram is None else (*gram, None)
        if side == "left":
            num, den = C, Y @ Gm                            # w cancels on the left side
        else:
            num, den = C.T, Gm @ Y                          # (r, d); Gm symmetric
        if den.min() > 0:                                   # (the guard's where= costs 2×)
            ratio = np.divide(num, den, out=den)
        else:
            ratio = np.divide(num, den, out=np.ones_like(den), where=den > 0)
        return np.multiply(Y, ratio, out=ratio)             # (ratio >= 0: X >= 0, F >= 0)
    Yu = _units(Y, side)
    T = get("mu_T", X.shape, work_dtype(X, F, Q))
    np.multiply(Q, X, out=T)
    num = _back(T, F, side)
    if side == "left":
        np.matmul(Yu, F, out=T)
    else:
        np.matmul(F, Yu.T, out=T)
    np.multiply(T, Q, out=T)
    den = _back(T, F, side)
    ratio = np.divide(num, den, out=np.ones_like(den), where=den > 0)
    Yu = Yu * np.maximum(ratio, 0.0)
    Y = Yu if side == "left" else Yu.T
    return np.ascontiguousarray(Y)
