"""What the app draws for one state, computed here so that the app holds no numerics.

:func:`snapshot` turns a :class:`~core.base.State` and the :class:`~core.corruption.Corrupted`
data it was computed on into ready-to-draw arrays: basis images, reconstructions and residuals of
a few samples, the weights, and the error metric. Images are (height, width) float64 arrays;
intensities on the 0–255 scale except basis images (unit-norm vectors, signed) and per-pixel
weight maps (0–1).

Robust NMF (paper 003, family ``"NMF"``): the basis images are non-negative parts
(``Snapshot.nmf``); methods with per-entry weights Q get the weight maps of the chosen samples,
the truncated (rejected) pixels and the per-sample mean weights; the metrics are the paper's
(§5.4): relative error against the clean data and, when the data have labels, clustering
accuracy and NMI of k-means on the coefficients H.
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np

from . import catalogue, interrupt
from .base import EFFECTIVE_N, State
from .collapse import WeightCollapse, weight_collapse
from .corruption import Corrupted
from .linalg import weighted_top_eigenspace
from .metrics import (outlier_auc, principal_angles, projection_residual_norms, row_blocks,
                      total_reconstruction_error)


@dataclass(frozen=True, eq=False)
class Snapshot:
    """Display data of one method at one iteration.

    Attributes
    ----------
    iteration, objective, converged : copied from the state.
    objective_history : (iteration + 1,) objective per iteration so far.
    basis : (n_basis, h, w) the first basis images (components reshaped), signed, unit norm.
    sample_weights : (n_samples,) relative weights in (0, 1], or None.
    log_weights : (n_samples,) ``log10(sample_weights)`` (<= 0: orders of magnitude below the
        largest weight), or None. Reweighting spreads weights over many decades (β ∝ e^(p−1)), so
        the weight chart plots these.
    outliers : (n_samples,) bool, samples the corruption touched (for colouring).
    rows : (len(samples), 4, h, w): per chosen sample, clean | corrupted | reconstruction | residual
        (residual = corrupted − reconstruction; all in grey levels).
    samples : indices of the chosen samples.
    error : paper 000 eq. (14) against the clean images, added outlier images excluded (grey levels);
        None for NMF states (eq. 14 assumes orthonormal components and a mean: see ``relative_error``).
    scalars : the method's own numbers.
    scalar_history : name → (iteration + 1,) array of that scalar per iteration (NaN before it existed).
    metrics : name → value, for a metrics panel: ``"eq. 14 error (000)"``, ``"Σ‖xʳ−xᵒ‖ (001)"``
        (each method's own reconstruction of the training samples vs the clean ones, added
        outliers excluded), ``"weights AUC"`` (ROC AUC of the weights as an outlier detector;
        absent without weights or without corrupted samples), ``"mean angle to clean PCA (°)"`` (mean
        principal angle to the subspace PCA learns from the clean data, same k).
    sparse_maps : (len(samples), h, w) the rows of the sparse part E for the chosen samples, or None.
    basis_zero : (n_basis, h, w) bool, True where a basis image is exactly 0 (sparse loadings),
        or None when no basis image has a zero.
    details : the method's other arrays (e.g. ``"restart objectives"``, ``"mean weight"``), except
        per-entry ones of shape (n_samples, n_features) (TC-NMF's ``"truncated"``): the snapshot
        keeps only the chosen samples' rows of those (``truncated_maps``), so that cached
        snapshots of old iterations stay small.
    points : (n_samples, 2) the data when it has 2 features (toy examples: draw a scatter with
        ``mean`` and the ``directions``), else None.
    directions : (n_components, 2) the components when the data has 2 features, else None.
    mean : (n_features,) the state's mean.
    nmf : True for the NMF family (paper 003): ``basis`` holds non-negative parts (draw them on a
        sequential scale from 0), ``mean`` is 0 and the reconstruction is the method's ``WH``.
    weight_maps : (len(samples), h, w) the per-pixel weights Q (0–1) of the chosen samples, for
        methods with per-entry weights (``State.entry_weights``), else None.
    truncated_maps : (len(samples), h, w) bool, True on the entries the method truncated
        (rejected as outliers: Q = 0; ``State.details["truncated"]``), or None.
    truncated_share : (len(samples),) fraction of the pixels of each chosen sample truncated, or
        None (no truncation).
    mean_weights : (n_samples,) raw mean per-pixel weight of every sample (0–1; a sample-level
        outlier score: low = mostly rejected), or None without per-entry weights.
    relative_error : NMF only: ‖X_clean − WH‖_F / ‖X_clean‖_F (paper 003 §5.4) as a fraction,
        added outlier images excluded; else None.
    collapse : for a sample-reweighting method (its scalars hold ``"effective n"``) whose weights
        have collapsed onto a few samples, the :class:`~core.collapse.WeightCollapse` (its
        ``message`` is the column's line); else None.
    measured : False for a snapshot made without its measures (``snapshot(..., measured=False)``:
        ``error`` and ``relative_error`` None, ``metrics`` empty) until :meth:`with_measures` adds
        them; True otherwise.
    """

    method: str
    iteration: int
    objective: float
    converged: bool
    objective_history: np.ndarray
    basis: np.ndarray
    sample_weights: np.ndarray | None
    log_weights: np.ndarray | None
    outliers: np.ndarray
    rows: np.ndarray
    samples: np.ndarray
    error: float
    scalars: dict
    scalar_history: dict
    metrics: dict
    sparse_maps: np.ndarray | None
    basis_zero: np.ndarray | None
    details: dict
    points: np.ndarray | None
    directions: np.ndarray | None
    mean: np.ndarray
    nmf: bool = False
    weight_maps: np.ndarray | None = None
    truncated_maps: np.ndarray | None = None
    truncated_share: np.ndarray | None = None
    mean_weights: np.ndarray | None = None
    relative_error: float | None = None
    measured: bool = True
    collapse: WeightCollapse | None = None

    @property
    def measures(self) -> "Measures":
        """The snapshot's :class:`Measures` (error, relative error, metrics)."""
        return Measures(self.error, self.relative_error, dict(self.metrics))

    def with_measures(self, measures: "Measures") -> "Snapshot":
        """This snapshot with ``measures`` (of the same state: :func:`measure`) filled in."""
        return replace(self, error=measures.error,  # type: ignore[arg-type]  # None: not measured
                       relative_error=measures.relative_error,
                       metrics=dict(measures.metrics), measured=True)


class Measures(NamedTuple):
    """The numbers of a snapshot that cost passes over the data (~50–150 ms each at 5,000 × 9,216):
    ``error`` (paper 000 eq. 14, None for NMF), ``relative_error`` (NMF, else None) and the
    ``metrics`` dict (see :class:`Snapshot`)."""

    error: float | None
    relative_error: float | None
    metrics: dict


def default_samples(data: Corrupted, count: int = 3) -> np.ndarray:
    """A few samples worth showing: corrupted originals first (they show what the method does),
    then clean ones, in index order."""
    touched = np.flatnonzero(data.outliers & ~data.added)
    clean = np.flatnonzero(~data.outliers)
    added = np.flatnonzero(data.added)
    pick = [int(i) for i in (*touched[: max(count - 1, 1)], *clean[:1], *added[:1])]
    for i in range(data.n_samples):     # the rest in index order, only as many as needed
        if len(pick) >= count:
            break
        if i not in pick:
            pick.append(i)
    return np.array(pick[:count], dtype=int)


_CLEAN_PCA: "weakref.WeakKeyDictionary[Corrupted, dict]" = weakref.WeakKeyDictionary()
#: one fit at a time: the app's columns ask for the same reference from their worker threads
_CLEAN_PCA_LOCK = threading.Lock()
#: a snapshot of data with more entries than this goes without the "angle to clean PCA" while
#: another thread fits the reference, instead of waiting for it (at 10,000 × 4096 the fit took
#: 5–6 s on a loaded machine, 0.6–1 s since :data:`CLEAN_PCA_TOL`); on smaller data
#: every snapshot has it
CLEAN_PCA_WAIT_MAX_ENTRIES = 4_000_000


def clean_pca_components(data: Corrupted, k: int, wait: bool = True) -> np.ndarray | None:
    """The k components PCA learns from the clean samples (added outliers excluded), cached per
    data set; the reference of the "angle to clean PCA" metric. Shape (k, n_features).

    One fit at a time (the app's columns ask from their worker threads); with ``wait=False``,
    None while another thread is fitting (a snapshot then goes without the metric rather than
    wait: on 10,000 × 4096 the fit takes about as long as a PCA start). Exact on the exact route
    of :func:`core.linalg.subspace_route` (small data), else to :data:`CLEAN_PCA_TOL`."""
    if not _CLEAN_PCA_LOCK.acquire(blocking=wait):
        return None
    try:
        return _clean_pca_components(data, k)
    finally:
        _CLEAN_PCA_LOCK.release()


#: stopping threshold of the clean-PCA reference on the block route (sine of the largest principal
#: angle between successive iterates; see :func:`core.linalg.weighted_top_eigenspace`): the metric
#: shows a mean angle in degrees, and 1e-3 rad is 0.06°. Measured on the 10,000 clean digits of
#: 64 × 64 (one thread): k = 5, 6 block iterations instead of 8 at the default 1e-5 (1.5 vs 2.2 s),
#: largest principal angle to the 1e-5 reference 4.5e-5 rad; k = 20, 9 instead of 13 (2.5 vs
#: 4.0 s), 2.2e-4 rad (mean angle 0.001° apart); tested against the exact ``eigh``
#: (tests/core/test_subspace_scale.py). Small data take the exact route (no tolerance).
CLEAN_PCA_TOL = 1e-3


def _clean_pca_components(data: Corrupted, k: int) -> np.ndarray:
    cache = _CLEAN_PCA.setdefault(data, {})
    if k not in cache:
        Xc = data.X_clean[~data.added] if data.added.any() else data.X_clean   # no copy if none added
        k_eff = min(k, min(Xc.shape) - 1)
        if k_eff < 1:
            cache[k] = np.zeros((0, Xc.shape[1]))
        else:       # PCA of the clean samples (every weight 1, about their mean)
            cache[k] = weighted_top_eigenspace(Xc, np.ones(len(Xc)), k_eff, Xc.mean(axis=0), tol=CLEAN_PCA_TOL,
                                               checkpoint=interrupt.checkpoint).components
    return cache[k]


#: mean principal angle to the clean PCA subspace (the largest is set by the least determined
#: direction: with k = 10 on 100 faces it is ≈ 80–90° for every method, so it says nothing)
ANGLE = "mean angle to clean PCA (°)"


_CLEAN_STATS: "weakref.WeakKeyDictionary[Corrupted, tuple]" = weakref.WeakKeyDictionary()
_CLEAN_STATS_LOCK = threading.Lock()


def _clean_stats(data: Corrupted) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(the mean of the clean original samples (d,), ``‖x_clean_i‖²`` (n,), the rows where X
    equals X_clean (n,) bool), cached per data set."""
    with _CLEAN_STATS_LOCK:
        if data not in _CLEAN_STATS:
            keep = ~data.added
            mean = data.X_clean.mean(axis=0) if keep.all() else (keep @ data.X_clean) / max(keep.sum(), 1)
            same = np.ones(data.n_samples, dtype=bool)
            for b in row_blocks(*data.X.shape):
                same[b] = (data.X[b] == data.X_clean[b]).all(axis=1)
            _CLEAN_STATS[data] = (mean, np.einsum("ij,ij->i", data.X_clean, data.X_clean), same)
        return _CLEAN_STATS[data]


def subspace_errors(state: State, data: Corrupted) -> tuple[float, float]:
    """Paper 000's eq. 14 error (:func:`core.metrics.reconstruction_error` about the clean mean)
    and paper 001's ``Σ‖xʳ−xᵒ‖`` (:func:`core.metrics.total_reconstruction_error` of the state's
    reconstruction of its training data) over the original samples, both from one pass over X and
    X_clean (:func:`core.metrics.projection_residual_norms`), with no (n, d) temporaries."""
    keep = ~data.added
    clean_mean, clean_sq, same = _clean_stats(data)
    own = state.fitted is None and type(state).reconstruct is State.reconstruct
    centres = np.vstack([clean_mean, np.broadcast_to(state.mean, clean_mean.shape)]) if own else clean_mean[None]
    norms = projection_residual_norms(state.components, data.X, data.X_clean, centres, clean_sq, same)
    eq14 = float(norms[0][keep].mean()) if keep.any() else float("nan")
    if own:        # ‖mean + WᵀW (x − mean) − x_clean‖
        total = float(norms[1][keep].sum())
    elif state.fitted is not None:
        total = total_reconstruction_error(state.fitted, data.X_clean, include=keep)
    else:          # state.training_reconstruction(X), block by block
        total = sum(total_reconstruction_error(state.reconstruct(data.X[b]), data.X_clean[b], include=keep[b])
                    for b in row_blocks(*data.X.shape))
    return eq14, total


def _metrics(state: State, data: Corrupted, eq14: float, total: float) -> dict:
    out = {"eq. 14 error (000)": eq14, "Σ‖xʳ−xᵒ‖ (001)": total}
    if state.sample_weights is not None and data.outliers.any() and not data.outliers.all():
        out["weights AUC"] = outlier_auc(state.sample_weights, data.outliers)
    ref = clean_pca_components(data, state.n_components, wait=data.X.size <= CLEAN_PCA_WAIT_MAX_ENTRIES)
    if ref is not None and len(ref) and state.n_components:
        out[ANGLE] = float(np.degrees(principal_angles(state.components, ref).mean()))
    return out


# --------------------------------------------------------------------------------------- NMF
#: family name of the robust NMF methods (paper 003) in :mod:`core.catalogue`
NMF_FAMILY = "NMF"
#: metric names of NMF snapshots (see :func:`nmf_metrics`)
REL_ERROR = "relative error (%)"
ACC = "ACC (%)"                      # of k-means on H, see clustering_scores
NMI = "NMI"                          # core.metrics.normalized_mutual_info (normaliser max(H(C), H(C′)))
CAUGHT = "corrupted px cut (%)"      # share of the corrupted pixels truncated
PRECISION = "cut px corrupted (%)"   # share of the truncated pixels that are corrupted
#: seed of the k-means behind ACC and NMI (fixed, so that iterations compare)
KMEANS_SEED = 0
#: ACC and NMI are computed at every iteration when n_samples · k · r is at most this (k-means
#: with 10 restarts then takes ≲ 20 ms), else only at finished states (see :func:`snapshot`):
#: 400 × 40 × 40 (ORL with r = 40) costs ~0.2 s.
CLUSTERING_BUDGET = 100_000


def is_nmf(state: State) -> bool:
    """True for a state of the NMF family (non-negative parts, reconstruction ``fitted`` = WH).

    Decided by the catalogue family of ``state.method``; a state of an unregistered method
    counts as NMF when its mean is 0, its components are non-negative and it has ``fitted``."""
    for info in catalogue.methods(task=None):
        if info.name == state.method:
            return info.family == NMF_FAMILY
    return (state.fitted is not None and not np.any(state.mean)
            and bool(np.all(state.components >= 0)))


def coefficients(state: State) -> np.ndarray:
    """The NMF coefficients H as an (n_samples, n_components) array (one row per sample).

    Taken from the state when it carries them (attribute ``coefficients`` or ``H``, or
    ``details["H"]``; either orientation), else solved from ``fitted ≈ H W`` by least squares
    on the unit-norm components W (exact when ``fitted`` is WH: H in the unit-norm basis)."""
    # (any method's State: only an NMFState has fitted_is_lazy and coefficients)
    lazy = getattr(state, "fitted_is_lazy", False)             # (not computed for its shape)
    n = None if lazy or state.fitted is None else state.fitted.shape[0]
    r = state.n_components
    for H in (getattr(state, "coefficients", None), getattr(state, "H", None),
              state.details.get("H"), state.details.get("coefficients")):
        if isinstance(H, np.ndarray) and H.ndim == 2:
            if H.shape[1] == r and (n is None or H.shape[0] == n):
                return np.asarray(H, dtype=float)
            if H.shape[0] == r and (n is None or H.shape[1] == n):
                return np.asarray(H, dtype=float).T
    if state.fitted is None:
        raise ValueError(f"{state.method}: no coefficients H and no fitted WH to solve them from")
    W = np.asarray(state.components, dtype=float)
    # min_H ‖fitted − H W‖_F: H = fitted Wᵀ (W Wᵀ)⁻¹ (lstsq guards a rank-deficient W)
    return np.linalg.lstsq(W @ W.T, W @ np.asarray(state.fitted, dtype=float).T, rcond=None)[0].T


def _labels_for_clustering(data: Corrupted) -> np.ndarray | None:
    """Integer class labels of the original samples (added outliers excluded), or None when the
    data have no labels or a single class."""
    if data.labels is None:
        return None
    labels = np.asarray(data.labels)[~data.added]
    _, codes = np.unique(labels, return_inverse=True)
    return codes if codes.max(initial=0) >= 1 else None


def relative_error(state: State, data: Corrupted) -> float:
    """‖X_clean − WH‖_F / ‖X_clean‖_F over the original samples (added outlier images
    excluded), paper 003 §5.4; WH is the method's reconstruction of its training data.
    :func:`core.metrics.relative_error` summed over row blocks, so that neither the whole product
    WH (left lazy by the NMF states) nor a copy of the data is made (the 5,000 digits at 96 × 96
    with dot images: 1.3 GB of temporaries per snapshot before)."""
    keep = ~data.added
    num = den = 0.0
    for b in row_blocks(*data.X.shape):    # block by block: no (n, d) product or copy of the data
        rows = np.flatnonzero(keep[b]) + b.start
        if len(rows):
            clean = np.asarray(data.X_clean[rows], dtype=np.float64)
            diff = clean - _fitted_rows(state, data, rows)
            num, den = num + float(np.vdot(diff, diff)), den + float(np.vdot(clean, clean))
    # clean data all zeros (or no original sample): undefined; NaN in the reconstruction: NaN
    return float(np.sqrt(num / den)) if den > 0 else float("nan")


def _fitted_rows(state: State, data: Corrupted, rows) -> np.ndarray:
    """Rows ``rows`` of the state's reconstruction of its training data
    (:meth:`~core.base.State.training_reconstruction`) without computing the whole of a lazy NMF
    product (:meth:`~core.methods.nmf_state.NMFState.fitted_rows`)."""
    get = getattr(state, "fitted_rows", None)       # (an NMFState's; another State has none)
    if get is not None:
        return get(rows)
    return state.fitted[rows] if state.fitted is not None else state.reconstruct(data.X[rows])


_CLUSTERING: "weakref.WeakKeyDictionary[State, tuple]" = weakref.WeakKeyDictionary()


def clustering_cheap(state: State, data: Corrupted) -> bool:
    """True when ACC/NMI of ``state`` cost little enough to compute at every iteration
    (n_samples · k · r <= :data:`CLUSTERING_BUDGET`)."""
    labels = _labels_for_clustering(data)
    if labels is None:
        return True
    return len(labels) * (int(labels.max()) + 1) * state.n_components <= CLUSTERING_BUDGET


def clustering_scores(state: State, data: Corrupted, compute: bool = True) -> dict:
    """``{ACC: …, NMI: …}``: k-means (:func:`core.metrics.kmeans_labels`, k = number of classes,
    seed :data:`KMEANS_SEED`, 10 restarts) on the coefficients H of the original samples (added
    outlier images excluded) against the data's labels, paper 003 §5.3–5.4. ACC in % with the
    Hungarian matching; NMI normalised by max(H(C), H(C′)) (:func:`core.metrics.normalized_mutual_info`; the paper
    leaves it open). Empty without labels (or a single class). With ``compute`` False and no
    cached value, both are None ("computed at the end"). Cached per state and data."""
    labels = _labels_for_clustering(data)
    if labels is None:
        return {}
    hit = _CLUSTERING.get(state)
    if hit is not None and hit[0] is data:
        return dict(hit[1])
    if not compute:
        return {ACC: None, NMI: None}
    from . import metrics
    H = coefficients(state)[~data.added]
    k = int(labels.max()) + 1
    pred = metrics.kmeans_labels(H, k, KMEANS_SEED)
    out = {ACC: 100.0 * float(metrics.clustering_accuracy(labels, pred)),
           NMI: float(metrics.normalized_mutual_info(labels, pred))}
    _CLUSTERING[state] = (data, out)
    return dict(out)


def nmf_metrics(state: State, data: Corrupted, rel: float, clustering: bool = True) -> dict:
    """The metrics panel of an NMF state (paper 003 §5.4): relative error (%), the sample
    weights as outlier detector (AUC), the truncated pixels against the corrupted ones (the
    share of corrupted pixels truncated and of truncated pixels that are corrupted, %), and
    ACC (%) / NMI of k-means on H when the data have labels (None unless ``clustering``; see
    :func:`clustering_scores`)."""
    out = {REL_ERROR: 100.0 * rel}
    if state.sample_weights is not None and data.outliers.any() and not data.outliers.all():
        out["weights AUC"] = outlier_auc(state.sample_weights, data.outliers)
    cut = state.details.get("truncated")
    if isinstance(cut, np.ndarray) and cut.shape == data.mask.shape and data.mask.any():
        both = int(np.count_nonzero(cut & data.mask))
        out[CAUGHT] = 100.0 * both / int(np.count_nonzero(data.mask))
        n_cut = int(np.count_nonzero(cut))
        if n_cut:                      # undefined (0/0) while nothing is truncated: not shown
            out[PRECISION] = 100.0 * both / n_cut
    out.update(clustering_scores(state, data, compute=clustering))
    return out


def _weight_arrays(state: State, samples: np.ndarray, shape) -> dict:
    """The per-pixel weight fields of :class:`Snapshot` (all None without entry weights)."""
    Q = state.entry_weights
    if Q is None:
        return {}
    h, w = shape
    out = {"weight_maps": np.array(Q[samples], dtype=float).reshape(len(samples), h, w)}
    mw = state.details.get("mean weight")
    out["mean_weights"] = (np.asarray(mw, dtype=float) if mw is not None and np.shape(mw) == (Q.shape[0],)
                           else Q.mean(axis=1))
    cut = state.details.get("truncated")
    if isinstance(cut, np.ndarray) and cut.shape == Q.shape:
        c = np.array(cut[samples], dtype=bool)
        out["truncated_maps"] = c.reshape(len(samples), h, w)
        out["truncated_share"] = c.mean(axis=1)
    return out


def measure(state: State, data: Corrupted, clustering: bool | None = None) -> Measures:
    """The :class:`Measures` of ``state`` on ``data`` (one or two passes over X and X_clean);
    ``clustering`` as in :func:`snapshot`. Raises :class:`core.interrupt.Cancelled` when the
    caller's run is cancelled (checked between blocks of rows)."""
    interrupt.checkpoint()
    if is_nmf(state):      # eq. 14 projects onto mean + span(W) with W orthonormal: undefined for NMF parts
        rel = relative_error(state, data)
        return Measures(None, rel, nmf_metrics(state, data, rel, clustering=bool(
            clustering if clustering is not None else state.converged or clustering_cheap(state, data))))
    err, total = subspace_errors(state, data)
    return Measures(err, None, _metrics(state, data, err, total))


def snapshot(state: State, data: Corrupted, samples=None, n_basis: int = 10,
             clustering: bool | None = None, known=None, measured: bool = True) -> Snapshot:
    """Everything a method column shows for ``state``; see :class:`Snapshot`.

    ``clustering``: compute ACC and NMI of NMF states on labelled data (k-means on H, the one
    costly metric): True always, False never (they are None), None (default) when cheap
    (:func:`clustering_cheap`) or the state has converged. Callers that know the run is over
    (``estimator.finished(state)``) pass True.

    ``known``: the :class:`Measures` of the same state (or an earlier snapshot of it), taken as
    they are while the arrays are made anew (a few ms). ``measured=False`` (and no ``known``): the
    snapshot without its measures (``measured`` False), for a caller that shows the frame first
    and adds them with :meth:`Snapshot.with_measures` (:func:`measure`)."""
    h, w = data.shape
    samples = default_samples(data) if samples is None else np.asarray(samples, dtype=int)
    comps = state.components[:n_basis]
    Xs = data.X[samples]
    rec = _fitted_rows(state, data, samples)
    rows = np.stack([data.X_clean[samples], Xs, rec, Xs - rec], axis=1).reshape(len(samples), 4, h, w)
    nmf = is_nmf(state)
    measured = known is not None or measured
    if known is None and measured:
        known = measure(state, data, clustering)
    err, rel, metrics = (known.error, known.relative_error, dict(known.metrics)) if measured else (None, None, {})
    zero = comps == 0 if not nmf else np.zeros(comps.shape, dtype=bool)   # parts: 0 is ordinary
    two_d = data.X.shape[1] == 2
    # per-entry details (TC-NMF's "truncated") reach the views as the chosen samples' maps only
    details = {k: v for k, v in state.details.items()
               if not (isinstance(v, np.ndarray) and v.shape == data.X.shape)}
    return Snapshot(method=state.method, iteration=state.iteration, objective=state.objective,
                    converged=state.converged, objective_history=np.array(state.objective_history),
                    basis=comps.reshape(len(comps), h, w), sample_weights=state.sample_weights,
                    log_weights=None if state.sample_weights is None else np.log10(state.sample_weights),
                    outliers=data.outliers, rows=rows, samples=samples, error=err,  # type: ignore[arg-type]
                    scalars=dict(state.scalars),
                    scalar_history={k: np.array(v, dtype=float) for k, v in state.scalar_history.items()},
                    metrics=metrics,
                    sparse_maps=None if state.sparse_part is None
                    else state.sparse_part[samples].reshape(len(samples), h, w),
                    basis_zero=zero.reshape(len(comps), h, w) if zero.any() else None,
                    details=details,
                    points=data.X if two_d else None,
                    directions=state.components if two_d else None,
                    mean=state.mean, nmf=nmf, relative_error=rel, measured=measured,
                    collapse=collapse_of(state), **_weight_arrays(state, samples, (h, w)))


def collapse_of(state: State) -> WeightCollapse | None:
    """The weight collapse of a sample-reweighting method's state (:func:`core.collapse.weight_collapse`
    with the state's k), or None: not collapsed, or not a reweighting method (no ``"effective n"``)."""
    if EFFECTIVE_N not in state.scalars or state.sample_weights is None:
        return None
    return weight_collapse(state.sample_weights, state.n_components)
