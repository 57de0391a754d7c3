"""Weighted non-negative least squares (WNLS): the inner solver shared by the NMF methods.

Every NMF method of :mod:`core.methods.nmf` alternates two convex sub-problems, one per factor,
with a fixed non-negative weight matrix ``Q`` (paper 003, Guan et al., TPAMI 2019, §3.1: the HQ
H- and W-steps)::

    side="left":   min_{Y >= 0}  ½ Σ_ij Q_ij (X − Y F)_ij²     Y (n, r), F (r, d)   (coefficients)
    side="right":  min_{Y >= 0}  ½ Σ_ij Q_ij (X − F Y)_ij²     F (n, r), Y (r, d)   (basis)

The problems separate: each row of Y (left) or column of Y (right) — a *unit* below — is an
independent r-variable problem with Hessian ``F diag(Q_i·) Fᵀ`` (left) or ``Fᵀ diag(Q_·j) F``
(right). Paper 003 writes the data as V (features × samples) ≈ W H; with our X = Vᵀ (samples as
rows) the paper's H-step is ``side="left"`` with Y = Hᵀ, F = Wᵀ, and its W-step is
``side="right"`` with Y = Wᵀ, F = Hᵀ.

:func:`wnls` is Algorithm 1 of paper 003 (Nesterov's optimal gradient method, OGM) run on all
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
  therefore a descent step for every unit (what paper 003 claim 3 — HQ as majorise–minimise —
  needs).

Without an entry-weight matrix (``Q=None``, optionally per-sample ``row_weights`` w with
``Q_ij = w_i``) the Gram form is used: ``∇ = Y(FFᵀ) − XFᵀ`` costs O(n r²) per iteration after
one O(n d r) product, and L is the exact ``λ_max`` of the r × r Gram matrix.

:func:`mu_update` is one weighted multiplicative update (Lee & Seung 2001; the weighted form of
paper 003 §3.7, the rule of the baselines of §5.5), with the 0/0 guard described there.
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np

__all__ = ["lipschitz", "wnls", "mu_update", "weighted_objective", "Scratch", "WNLSResult",
           "HESSIAN_MAX_ENTRIES"]

#: Power steps of the batched Collatz–Wielandt bound of :func:`lipschitz` (cost: 2 products with
#: F per step). One step gives a bound within a few % of the exact ``λ_max`` (tested in
#: tests/core/test_nmf.py).
POWER_STEPS = 1


class Scratch:
    """Reusable work arrays of one NMF run (allocating 400 × 1024 temporaries costs ~8× the
    arithmetic done in them, page faults). Not shared between threads: :meth:`borrow` hands out
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
            yield lambda name, shape: np.empty(shape)

    def _get(self, name: str, shape: tuple) -> np.ndarray:
        arr = self._arrays.get(name)
        if arr is None or arr.shape != tuple(shape):
            arr = self._arrays[name] = np.empty(shape)
        return arr


def _fresh(name, shape):
    return np.empty(shape)


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
    D = _residual(X, F, _units(Y, side), side, np.empty(X.shape))
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
    if side == "left":
        s = F.sum(axis=0)                                   # (d,): Fᵀ1
        T = get("lip", Q.shape)
        np.multiply(Q, s[None, :], out=T)
        y = T @ F.T                                         # (n, r) = M_u 1
    else:
        s = F.sum(axis=1)                                   # (n,): F1
        T = get("lip", Q.shape)
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
    w = None if row_weights is None else np.asarray(row_weights, dtype=float)
    if side == "left":
        Gm = F @ F.T
        C = X @ F.T                                         # (n, r)
    else:
        Fw = F if w is None else F * w[:, None]
        Gm = F.T @ Fw
        C = X.T @ Fw                                        # (d, r)
    return Gm, C, (w if side == "left" else None)


def _hessians(X, F, Q, side, get):
    """Every unit's Hessian and linear term at once: M (units, r, r) and b (units, r) with
    ``∇_u(y) = M_u y − b_u``. Left: ``M_i = F diag(Q_i·) Fᵀ`` = row i of ``Q K``, where row j of
    K (d, r(r+1)/2) holds the upper triangle of ``f_j f_jᵀ`` (f_j column j of F): one product of
    n d r(r+1)/2 flops (symmetry halves it); ``b = (Q∘X) Fᵀ``. Right: the same with Qᵀ and the
    rows of F."""
    r = F.shape[0] if side == "left" else F.shape[1]
    iu, ju = np.triu_indices(r)
    cols = F.T if side == "left" else F                     # (d, r) or (n, r): one f per row
    K = cols[:, iu] * cols[:, ju]
    T = get("hess_T", X.shape)
    np.multiply(Q, X, out=T)
    if side == "left":
        Mt = Q @ K
        b = T @ F.T
    else:
        Mt = Q.T @ K
        b = T.T @ F
    M = np.empty((Mt.shape[0], r, r))
    M[:, iu, ju] = Mt
    M[:, ju, iu] = Mt
    return M, b


def _batched_lipschitz(M: np.ndarray, power_steps: int = 3) -> np.ndarray:
    """Collatz–Wielandt upper bounds of ``λ_max(M_u)`` for non-negative symmetric M (units, r, r)
    (see :func:`lipschitz`), from x = 1 and ``power_steps`` power iterations; cheap matvecs."""
    y = M.sum(axis=2)
    L = y.max(axis=1)
    for _ in range(power_steps):
        top = y.max(axis=1, keepdims=True)
        x = np.maximum(y, 1e-12 * top)
        x[top[:, 0] <= 0] = 1.0
        y = np.matmul(M, x[:, :, None])[:, :, 0]
        L = np.minimum(L, (y / x).max(axis=1))
    return np.maximum(L, 0.0)


#: Batched-Hessian route of :func:`wnls` only while its arrays hold at most this many entries
#: (units × r², 8 bytes each: 80 MB).
HESSIAN_MAX_ENTRIES = 10_000_000


def _use_hessian(X, F, side, max_iter) -> bool:
    """Batched Hessians cost one product of X.size·r(r+1)/2 flops (≈ r/4 OGM iterations of the
    residual route, 4·X.size·r flops each) and then O(r²) per unit and iteration: worth it when
    ``r < 4 · max_iter`` and the arrays fit :data:`HESSIAN_MAX_ENTRIES`."""
    r = F.shape[0] if side == "left" else F.shape[1]
    units = X.shape[0] if side == "left" else X.shape[1]
    other = X.shape[1] if side == "left" else X.shape[0]
    p = r * (r + 1) // 2
    return r < 4 * max_iter and max(units * r * r, other * p) <= HESSIAN_MAX_ENTRIES


def wnls(X: np.ndarray, F: np.ndarray, Y0: np.ndarray, *, side: str = "left",
         Q: np.ndarray | None = None, row_weights: np.ndarray | None = None,
         tol: float = 1e-2, max_iter: int = 50, get=None, route: str = "auto") -> WNLSResult:
    """Solve the WNLS problem of the module docstring from ``Y0`` by OGM (paper 003 Algorithm 1).

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
        (:func:`_use_hessian`). Same iterates up to round-off.

    Returns
    -------
    WNLSResult (Y in the layout of Y0, non-negative).
    """
    get = get or _fresh
    Y0u = np.maximum(_units(np.asarray(Y0, dtype=float), side), 0.0)
    m = Y0u.shape[0]
    if Q is not None and route == "auto":
        route = "hessian" if _use_hessian(X, F, side, max_iter) else "residual"
    if Q is None:
        Gm, C, w = _gram(X, F, side, row_weights)
        lam = float(np.linalg.eigvalsh(Gm)[-1]) if Gm.size else 0.0
        L = np.full(m, max(lam, 0.0)) if w is None else np.maximum(w, 0.0) * max(lam, 0.0)

        def grad(Zu):
            G = Zu @ Gm - C
            return G if w is None else G * w[:, None]

        def unit_obj_delta(Yu, Y0u):                        # f_u(Y) − f_u(Y0)
            d = (-np.einsum("ur,ur->u", Yu - Y0u, C)
                 + 0.5 * (np.einsum("ur,ur->u", Yu @ Gm, Yu) - np.einsum("ur,ur->u", Y0u @ Gm, Y0u)))
            return d if w is None else d * w
    elif route == "hessian":
        M, b = _hessians(X, F, Q, side, get)
        L = _batched_lipschitz(M)

        def grad(Zu):
            return np.matmul(M, Zu[:, :, None])[:, :, 0] - b

        def quad(Yu):
            return 0.5 * np.einsum("ur,ur->u", np.matmul(M, Yu[:, :, None])[:, :, 0], Yu) \
                - np.einsum("ur,ur->u", b, Yu)

        def unit_obj_delta(Yu, Y0u):
            return quad(Yu) - quad(Y0u)
    else:
        L = lipschitz(F, Q, side, get=get)
        D = get("wnls_D", X.shape)
        f0 = None

        def grad(Zu):
            _residual(X, F, Zu, side, D)
            np.multiply(D, Q, out=D)
            return _back(D, F, side)

        def unit_obj(Yu):
            _residual(X, F, Yu, side, D)
            T = get("wnls_T", X.shape)
            np.multiply(D, D, out=T)
            np.multiply(T, Q, out=T)
            return 0.5 * _unit_sums(T, side)

        def unit_obj_delta(Yu, Y0u):
            return unit_obj(Yu) - f0

        f0 = unit_obj(Y0u)

    invL = np.divide(1.0, L, out=np.zeros_like(L), where=L > 0)[:, None]
    Yu = Y0u.copy()
    Zu = Y0u
    alpha = 1.0
    pgn0 = None
    k = 0
    while k < max_iter:
        G = grad(Zu)
        pg = G[(G < 0) | (Zu > 0)]
        pgn = float(np.sqrt(np.dot(pg, pg)))
        if pgn0 is None:
            pgn0 = pgn
            if pgn0 == 0.0:
                break
        elif pgn <= tol * pgn0:
            break
        Ynew = Zu - G * invL
        np.maximum(Ynew, 0.0, out=Ynew)
        alpha_new = 0.5 * (1.0 + np.sqrt(4.0 * alpha * alpha + 1.0))
        Zu = Ynew + ((alpha - 1.0) / alpha_new) * (Ynew - Yu)
        Yu, alpha = Ynew, alpha_new
        k += 1
    restored = 0
    if k:
        worse = unit_obj_delta(Yu, Y0u) > 0
        restored = int(np.count_nonzero(worse))
        if restored:
            Yu[worse] = Y0u[worse]
    Y = Yu if side == "left" else Yu.T
    return WNLSResult(Y=np.ascontiguousarray(Y), n_iter=k, restored=restored)


def mu_update(X: np.ndarray, F: np.ndarray, Y: np.ndarray, *, side: str = "left",
              Q: np.ndarray | None = None, row_weights: np.ndarray | None = None,
              get=None) -> np.ndarray:
    """One (weighted) multiplicative update of Y for the WNLS problem (X >= 0 required).

    Left: ``Y ← Y ∘ ((Q∘X) Fᵀ) / ((Q∘(YF)) Fᵀ)``; right: ``Y ← Y ∘ (Fᵀ(Q∘X)) / (Fᵀ(Q∘(FY)))``
    (Lee & Seung 2001 with weights; paper 003 §3.7 'MUR'). Guard: where the denominator is 0 (no
    weight reaches that variable) Y is kept, instead of the code's ``+eps`` which would send it
    to 0. A majorise–minimise step: the weighted objective never increases.
    """
    get = get or _fresh
    Yu = _units(np.asarray(Y, dtype=float), side)
    if Q is None:
        Gm, C, w = _gram(X, F, side, row_weights)
        num, den = C, Yu @ Gm                               # w cancels on the left side
    else:
        T = get("mu_T", X.shape)
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
