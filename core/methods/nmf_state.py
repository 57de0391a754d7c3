"""The state of every NMF method (:class:`NMFState`): the factors, the lazily formed
reconstruction, and ``transform`` of new samples with the basis fixed; and the context its
states share (:class:`NMFContext`: the data, its scale, work arrays).

Paper 003: N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, "Truncated Cauchy Non-Negative Matrix
Factorization", IEEE TPAMI 41(1), 2019. Orientation and fields: see :mod:`core.methods.nmf_base`.
"""
from __future__ import annotations

import dataclasses
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import nnls
from sklearn.exceptions import ConvergenceWarning

from .._readonly import ReadOnlyDict
from ..base import State
from ..errors import DataError
from ._wnls import Scratch

__all__ = ["NMFState", "NMFContext", "LAZY", "Deferred", "check_nonnegative", "next_state", "normalise_factors"]

#: Weighted ``transform``: a row's half-quadratic rounds stop when its coefficients change by
#: less than this (relative ℓ2), or after :data:`TRANSFORM_OUTER` rounds.
TRANSFORM_RTOL = 1e-10
TRANSFORM_OUTER = 300
#: ... and a row still changing by more than this after them is reported (ConvergenceWarning);
#: the rows of L1-NMF's slowly converging reweighting may end between the two
TRANSFORM_WARN = 1e-6
#: ``NMFState.transform`` solves this many rows at a time (each row is solved on its own, so the
#: blocks change nothing but the size of the float64 work arrays: 64 MB at 4,096 features)
TRANSFORM_ROWS = 2048


# ----------------------------------------------------------------------------- transform
def rows_nnls(T: np.ndarray, F: np.ndarray, Q: np.ndarray | None = None,
              support: np.ndarray | None = None) -> np.ndarray:
    """``argmin_{h_i >= 0} Σ_j q_ij (t_ij − (h_i F)_j)²`` for every row i of T (n, d) on its own,
    F (r, d) the basis, Q (n, d) the entry weights (None: all 1); returns H (n, r).

    Exact, from the r × r normal equations ``G_i h = b_i`` (``G_i = F diag(q_i) Fᵀ``,
    ``b_i = F (q_i ∘ t_i)``). ``support`` (n, r) bool, a guess of each row's positive entries
    (e.g. the previous round's): the equations restricted to it are solved for all rows at once
    and a row whose solution is positive there and whose gradient is >= 0 off it meets the KKT
    conditions, so it is the NNLS solution. Every other row is solved by the Lawson–Hanson
    active-set method (:func:`scipy.optimize.nnls`) on ``‖A_i h − y_i‖`` with ``A_i = Λ^½ Vᵀ``,
    ``y_i = Λ^-½ Vᵀ b_i`` (``G_i = VΛVᵀ``; eigenvalues below 1e-12 λ_max dropped: b_i lies in
    the range of G_i). Either way a row's solution is the same continuous function of that row
    (unique when G_i is non-singular), independent of the other rows and of their order."""
    n, r = T.shape[0], F.shape[0]
    H = np.zeros((n, r))
    if n == 0:
        return H
    if Q is None:
        G = np.broadcast_to(F @ F.T, (n, r, r))
        B = T @ F.T
    else:
        B = (Q * T) @ F.T
        pairs = np.ascontiguousarray((F.T[:, :, None] * F.T[:, None, :]).reshape(F.shape[1], r * r))
        G = (Q @ pairs).reshape(n, r, r)             # G_i[k, l] = Σ_j q_ij F_kj F_lj: one product
    todo = np.ones(n, dtype=bool)
    if support is not None and support.any():
        both = support[:, :, None] & support[:, None, :]
        Gs = np.where(both, G, 0.0)
        Gs[:, np.arange(r), np.arange(r)] += ~support          # identity off the support
        try:
            Hs = np.linalg.solve(Gs, np.where(support, B, 0.0)[:, :, None])[:, :, 0]
        except np.linalg.LinAlgError:
            Hs = None
        if Hs is not None:
            grad = np.einsum("nkl,nl->nk", G, Hs) - B
            tol = 1e-10 * (np.abs(B).max(axis=1, keepdims=True) + np.finfo(float).tiny)
            ok = np.all(np.where(support, Hs > 0, grad >= -tol), axis=1) & np.isfinite(Hs).all(axis=1)
            H[ok] = Hs[ok]
            todo = ~ok
    rows = np.flatnonzero(todo)
    if rows.size:
        lam, V = np.linalg.eigh(G[rows])
        for j, i in enumerate(rows):
            keep = lam[j] > 1e-12 * max(float(lam[j, -1]), np.finfo(float).tiny)
            if keep.any():
                Vk = V[j][:, keep]
                root = np.sqrt(lam[j, keep])
                H[i] = nnls(root[:, None] * Vk.T, (Vk.T @ B[i]) / root)[0]
    return H


def transform_rows(X: np.ndarray, F: np.ndarray, reweigh=None, method: str = "NMF") -> np.ndarray:
    """Coefficients (n, r) of the rows of X (n, d) in the basis F (r, d): NNLS (:func:`rows_nnls`),
    then, for a robust method (``reweigh``, the state's HQ weight function with its scale
    parameters frozen), the half-quadratic loop of the fit on the coefficients alone —
    weights from the residual, then the weighted NNLS — for each row until its coefficients
    change by less than :data:`TRANSFORM_RTOL` (relative ℓ2) or :data:`TRANSFORM_OUTER` rounds.
    Each row is solved on its own (its own stopping), so the result for a row is a function of
    that row alone: any order or subset of rows gives the same rows, and it is continuous in X
    (up to the loss's own switches, e.g. TC-NMF's truncation). Warns
    :class:`~sklearn.exceptions.ConvergenceWarning` (naming ``method``) when rows still change
    by more than :data:`TRANSFORM_WARN` after the last round."""
    X = np.asarray(X, dtype=float)
    F = np.asarray(F, dtype=float)
    H = rows_nnls(X, F, support=np.ones((len(X), len(F)), dtype=bool))
    if reweigh is None:
        return H
    active = np.arange(len(X))
    rel = np.zeros(0)
    for _ in range(TRANSFORM_OUTER):
        Xa, Ha = X[active], H[active]
        Q, S = reweigh(Xa, Ha @ F)
        Hn = rows_nnls(Xa if S is None else Xa - S, F, Q, support=Ha > 0)
        H[active] = Hn
        rel = np.linalg.norm(Hn - Ha, axis=1) / np.maximum(np.linalg.norm(Hn, axis=1), np.finfo(float).tiny)
        moving = rel > TRANSFORM_RTOL
        active, rel = active[moving], rel[moving]
        if not active.size:
            break
    if rel.size and rel.max() > TRANSFORM_WARN:
        warnings.warn(f"{method} transform: the coefficients of {rel.size} sample(s) still changed "
                      f"by up to {rel.max():.2g} (relative) after {TRANSFORM_OUTER} half-quadratic rounds",
                      ConvergenceWarning, stacklevel=3)
    return H


# ----------------------------------------------------------------------------- run context
@dataclass
class NMFContext:
    """Data shared by every state of one run (not copied): X, its scale, work arrays."""

    X: np.ndarray
    zero: float                      # ZERO_RESIDUAL × max(X)
    xmin: float = 0.0                # range of X (divergence guard, CIM's range rule)
    xmax: float = 0.0
    sq_norm: float = 0.0             # ‖X‖²_F (plain NMF's objective from Gram products)
    top_limit: float = np.inf        # the largest fitted value the range check lets pass
    scratch: Scratch = field(default_factory=Scratch)


# ----------------------------------------------------------------------------- state
class _Lazy:
    """Marker of a ``fitted`` left to be computed on first use (pickles as the one instance)."""

    def __reduce__(self):
        return "LAZY"

    def __repr__(self):
        return "LAZY"


#: ``NMFState(fitted=LAZY)``: the reconstruction is computed when first read.
LAZY = _Lazy()


class Deferred:
    """An array given to :class:`NMFState` as ``fn(*args)``, computed when first read (for
    ``entry_weights`` that are a function of what the state keeps anyway, e.g. RNMF-L1's
    weights of its sparse part). Picklable when ``fn`` is a module-level function."""

    def __init__(self, fn, *args):
        self.fn, self.args = fn, args

    def __call__(self) -> np.ndarray:
        return self.fn(*self.args)


@dataclass(frozen=True, eq=False)
class _NMFFields(State):
    """The fields an NMF state adds to :class:`~core.base.State` (see :class:`NMFState`), declared
    on a base class so that :class:`NMFState`'s own body can define the properties through which
    ``coefficients`` (like the inherited ``fitted``, ``entry_weights`` and ``components``) is read."""

    coefficients: np.ndarray | None = None
    reweigh: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True, eq=False)
class NMFState(_NMFFields):
    """A :class:`~core.base.State` of an NMF method, plus the coefficients.

    ``transform(X)`` solves the method's own problem for the rows of X with the basis frozen
    (:func:`transform_rows`): plain NNLS ``argmin_{h >= 0} ‖x − hᵀ W‖²`` (exact, per row), then for
    a robust method (``reweigh`` set) the half-quadratic loop of the fit on the coefficients
    alone — weights from the residual with the state's scale parameters (γ, τ, δ, c, μ or λ)
    frozen, then the weighted NNLS — each row until its coefficients change by less than
    :data:`TRANSFORM_RTOL` or :data:`TRANSFORM_OUTER` rounds. ``transform(X, weighted=False)``
    returns the NNLS coefficients (what plain NMF and L2,1-NMF, whose coefficient step is
    unweighted, always return). The training data get no special case: the truncated loss is not
    convex, so from the NNLS start TC-NMF may reach another fixed point than the fit's own
    coefficients (11 % away on the faces, Laplace δ = 40); the fit's coefficients are the final
    state's (``fit_state``). ``reconstruct(X) = transform(X) @ components``.

    components, coefficients : as :class:`~core.base.State`, and (n_samples, n_components)
        non-negative (or None): always the unit-norm basis rows and the coefficients scaled to
        match (:func:`normalise_factors`). A step that keeps its factors unnormalised (plain
        NMF's multiplicative update, :mod:`core.methods.nmf_frobenius`) gives both as
        :data:`LAZY` with its raw factors under the private entry ``_factors`` = (H, W, squared
        row norms of W); both are then normalised together when either is first read
        (``factors_are_lazy`` tells), and ``fitted`` is the product of the raw factors (the
        same product up to round-off).
    fitted : as :class:`~core.base.State`; given as :data:`LAZY` (every step), it is computed as
        ``coefficients @ components`` when first read (``fitted_is_lazy`` tells). Note that
        ``dataclasses.replace`` without ``fitted=`` reads it, so a replacement that changes the
        factors must pass ``fitted=LAZY`` (or the new product).
    entry_weights : as :class:`~core.base.State`, or a :class:`Deferred` computed on first
        read (``entry_weights_are_deferred`` tells).
    reweigh : callable ``(X, P) -> (Q, S)`` giving the entry weights Q (or None) and the sparse
        part S (or None, RNMF-L1) for data X and reconstruction P at the state's frozen scale
        parameters; None for the unweighted methods.

    The four fields ``fitted``, ``entry_weights``, ``components`` and ``coefficients`` are
    properties (defined below) over the instance entries ``_fitted``, ... (:data:`STORED`); the
    generated ``__init__`` and ``dataclasses.replace`` set them through the properties' setters.
    """

    def __post_init__(self):
        self.__dict__["_initialising"] = True           # (State's checks: no lazy product yet)
        try:
            super().__post_init__()
        finally:
            del self.__dict__["_initialising"]
        if isinstance(self.coefficients, np.ndarray):
            self.coefficients.flags.writeable = False

    @property  # type: ignore[misc]  # a dataclass field read through a property
    def fitted(self) -> np.ndarray | None:
        """(n_samples, n_features) the reconstruction HW (grey levels), computed as ``coefficients @
        components`` on first use when the method left it to be (:data:`LAZY`)."""
        P = self.__dict__.get("_fitted")
        if P is LAZY:
            if self.__dict__.get("_initialising"):
                return None
            factors = self.__dict__.get("_factors")
            H, W = factors[:2] if factors is not None else (self.coefficients, self.components)
            P = np.asarray(H) @ np.asarray(W)
            P.flags.writeable = False
            self.__dict__["_fitted"] = P
        return P

    @fitted.setter
    def fitted(self, value) -> None:
        self.__dict__["_fitted"] = value

    def fitted_rows(self, rows) -> np.ndarray:
        """``fitted[rows]`` (``rows``: a slice or indices) without computing and keeping the
        whole (n, d) product when it is still :data:`LAZY` (then ``H[rows] @ W`` of the same
        factors, equal to round-off): what a view of a few samples or a metric computed block by
        block needs. A float64 WH of the 5,000 digits at 96 × 96 with 1,500 dot images is 457 MB,
        which the newest state of every NMF column kept once a snapshot had read ``fitted``."""
        P = self.__dict__.get("_fitted")
        if P is not LAZY:
            return self.fitted[rows]           # type: ignore[index]  # set (not None) here
        factors = self.__dict__.get("_factors")
        H, W = factors[:2] if factors is not None else (self.coefficients, self.components)
        return np.asarray(H)[rows] @ np.asarray(W)

    @property  # type: ignore[misc]  # a dataclass field read through a property
    def components(self) -> np.ndarray:
        """(n_components, n_features) the unit-norm basis images, normalised on first read when
        left :data:`LAZY`."""
        W: Any = self.__dict__.get("_components")
        if W is LAZY:
            W = self._normalise_lazy()[1]
        return W

    @components.setter
    def components(self, value) -> None:
        self.__dict__["_components"] = value

    @property  # type: ignore[misc]  # a dataclass field read through a property
    def coefficients(self) -> np.ndarray | None:
        """(n_samples, n_components) the coefficients, or None; scaled to match the unit-norm basis
        on first read when left :data:`LAZY`."""
        H = self.__dict__.get("_coefficients")
        if H is LAZY:
            H = self._normalise_lazy()[0]
        return H

    @coefficients.setter
    def coefficients(self, value) -> None:
        self.__dict__["_coefficients"] = value

    def _normalise_lazy(self):
        """Normalise the raw ``_factors`` (into new arrays) and keep them as ``coefficients`` and
        ``components``. (Two threads reading at once may both compute it: the same values.)"""
        H, W, sq_norms = self.__dict__["_factors"]
        H, W = normalise_factors(np.array(H), np.array(W), sq_norms)
        H.flags.writeable = W.flags.writeable = False
        self.__dict__["_coefficients"], self.__dict__["_components"] = H, W
        return H, W

    @property
    def factors_are_lazy(self) -> bool:
        """``components`` and ``coefficients`` have not been normalised yet (on first read)."""
        return self.__dict__.get("_components") is LAZY

    @property  # type: ignore[misc]  # a dataclass field read through a property
    def entry_weights(self) -> np.ndarray | None:
        """(n_samples, n_features) the entry weights Q, or None; computed on first read when given
        as a :class:`Deferred`."""
        Q = self.__dict__.get("_entry_weights")
        if isinstance(Q, Deferred):
            if self.__dict__.get("_initialising"):
                return None
            Q = Q()
            Q.flags.writeable = False
            self.__dict__["_entry_weights"] = Q
        return Q

    @entry_weights.setter
    def entry_weights(self, value) -> None:
        self.__dict__["_entry_weights"] = value

    @property
    def entry_weights_are_deferred(self) -> bool:
        """``entry_weights`` have not been computed yet (they will be on first read)."""
        return isinstance(self.__dict__.get("_entry_weights"), Deferred)

    @property
    def fitted_is_lazy(self) -> bool:
        """``fitted`` has not been computed yet (it will be on first use)."""
        return self.__dict__.get("_fitted") is LAZY

    def transform(self, X: np.ndarray, weighted: bool = True) -> np.ndarray:
        """Non-negative coefficients (n, n_components) of the rows of X (n, d) with the basis
        fixed: the method's own reweighted problem (``weighted=True``, default) or plain NNLS
        (``weighted=False``). Every row is solved on its own (:func:`transform_rows`): the
        result for a row does not depend on the other rows, their order or the training data.
        Solved in float64 :data:`TRANSFORM_ROWS` rows at a time (no float64 copy of a float32 X
        whole); float32 for float32 X."""
        X = np.asarray(X)
        out = np.empty((len(X), len(self.components)),
                       dtype=np.float32 if X.dtype == np.float32 else np.float64)
        for i in range(0, len(X), TRANSFORM_ROWS):
            out[i:i + TRANSFORM_ROWS] = transform_rows(X[i:i + TRANSFORM_ROWS], self.components,
                                                       self.reweigh if weighted else None, self.method)
        return out

    def _detached_changes(self) -> dict:
        return {"coefficients": None}     # (n_samples, r): the fit's (the final state's, fit_state)

    def reconstruct(self, X: np.ndarray, weighted: bool = True) -> np.ndarray:
        """``transform(X, weighted) @ components``: the method's reconstruction of X (n, d)."""
        return self.transform(X, weighted) @ self.components


#: The fields an NMF state reads through a property (above), kept under a leading underscore.
_PROPERTIES = ("fitted", "entry_weights", "components", "coefficients")
#: Where an NMF state keeps each field in its instance dictionary: under the field's name, but
#: the properties' fields (:data:`_PROPERTIES`) under a leading underscore.
STORED = {f.name: "_" + f.name if f.name in _PROPERTIES else f.name
          for f in dataclasses.fields(NMFState)}
#: The fields a step carries over from the state before it unchanged (the run's own: method,
#: mean, context and data range); a step gives every other field anew.
CARRIED = frozenset({"method", "mean", "_ctx", "_data_range"})
#: The array fields a state makes read-only (``State.__post_init__`` and NMFState's).
_ARRAYS = ("_components", "sample_weights", "_entry_weights", "sparse_part", "_fitted",
           "_coefficients")


def next_state(prev: NMFState, entries: dict) -> NMFState:
    """The state a step makes after ``prev``, without the dataclass's generic constructor: the
    fields in :data:`CARRIED` taken from ``prev``, every other entry from ``entries`` (keyed as
    the instance dictionary keys them, :data:`STORED`; private entries such as caches may be
    added), the new arrays made read-only and ``scalars``, ``details`` and ``scalar_history``
    made read-only mappings (a :class:`ReadOnlyDict` given is kept: e.g. the previous state's
    own ``details`` when unchanged), as ``NMFState(**fields)`` makes them (tests/core/test_nmf_frobenius.py
    compares the two). Nothing else of ``prev`` (its caches) is carried over. ``entries`` must
    give every field outside :data:`CARRIED` (KeyError otherwise) and ``scalar_history`` must
    hold every scalar's history. On the built-in faces this takes ~2 µs against ~10 µs for the
    constructor, of a multiplicative update of ~100 µs."""
    last = prev.__dict__
    d = {name: last[name] for name in _CARRIED}         # (nothing else of prev: no caches)
    d.update(entries)
    if not d.keys() >= _REQUIRED:
        raise KeyError(f"next_state: no value for {sorted(_REQUIRED - d.keys())}")
    for name in _ARRAYS:
        a = d[name]
        if type(a) is np.ndarray:
            a.setflags(write=False)         # (``a.flags.writeable = False`` costs 4× as much)
    factors = d.get("_factors")
    if factors is not None:                  # (H, W, squared norms) of a lazy normalisation
        factors[0].setflags(write=False)
        factors[1].setflags(write=False)
        if factors[2].flags.writeable:       # (a diagonal view is read-only already)
            factors[2].setflags(write=False)
    for name in ("scalars", "details", "scalar_history"):
        if type(d[name]) is not ReadOnlyDict:   # (one of the previous state's may be reused)
            d[name] = ReadOnlyDict(d[name])
    state = object.__new__(NMFState)
    state.__dict__.update(d)
    return state


_REQUIRED = frozenset(STORED.values())
_CARRIED = tuple(sorted(CARRIED))


# ----------------------------------------------------------------------------- normalisation
def normalise_factors(H: np.ndarray, W: np.ndarray, sq_norms: np.ndarray | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Unit-norm basis rows, the inverse scale on the coefficients (the product HW unchanged); a
    basis row that is entirely 0 becomes the uniform unit row 1/√d with zero coefficients (see
    :mod:`core.methods.nmf_base`). In place when H (n, r) and W (r, d) are C-contiguous
    (callers pass their own fresh arrays). ``sq_norms``: the squared row norms of W when the
    caller has them."""
    H, W = np.ascontiguousarray(H), np.ascontiguousarray(W)
    norms = np.sqrt(np.einsum("kd,kd->k", W, W) if sq_norms is None else sq_norms)
    if norms.min() > 0:
        H *= norms
        W *= (1.0 / norms)[:, None]                 # (a product: 2× faster than a division)
        return H, W
    dead = ~(norms > 0)
    H *= np.where(dead, 0.0, norms)[None, :]
    W /= np.where(dead, 1.0, norms)[:, None]
    W[dead] = 1.0 / np.sqrt(W.shape[1])
    return H, W


# ----------------------------------------------------------------------------- data checks
def check_nonnegative(X: np.ndarray) -> None:
    """Raise :class:`DataError` unless every entry of X is >= 0 and some entry is > 0. Reads X's
    minimum first (no boolean copy of X's size: 164 MB at 40,000 × 4096, written at every start)."""
    if float(X.min()) < 0:
        count = int(np.count_nonzero(X < 0))
        raise DataError(
            f"Negative values in data: NMF needs non-negative data, but the data have {count} "
            f"negative entr{'y' if count == 1 else 'ies'} "
            f"(minimum {float(X.min()):.6g}); clip the data at 0 first (the corruption's "
            f"\"clip at 0\" option)")
    if not X.any():
        raise DataError("NMF needs some positive data, but every entry of the data is 0")
