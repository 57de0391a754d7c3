"""The numbers a claim may check (``metric[column]``), one definition each.

Every metric is a function of one live column (:class:`ColumnResult`: its catalogue key,
parameters, current state and the data it runs on). They are taken from where the app's views
take them: :func:`core.views.measure` (paper 000's eq. 14 error, paper 001's Σ‖xʳ−xᵒ‖, paper
003's relative error, ACC/NMI, truncated pixels), :func:`core.regression.views.regression_snapshot`
(paper 004's RAE_T, RAE_Y, accuracies, cleaning error) and :mod:`core.metrics` (weights as an
outlier detector, Kish's effective number of samples, principal angles, paper 002's ARE).

A metric that does not apply to a column (weights of PCA, eq. 14 of an NMF) is ``None``: the
claim line says "n/a" and the comparison is false.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

import numpy as np

from .. import metrics as _m
from .. import views as _views

__all__ = ["ColumnResult", "Metric", "METRIC_SPECS", "METRICS", "value", "Cache"]


@dataclass(eq=False)
class ColumnResult:
    """One live column: ``key`` (catalogue key, or a playground method key), ``params``, the
    current ``state`` (a :class:`core.base.State` or a regression state), the ``data`` it runs on
    (a :class:`core.corruption.Corrupted`; for regression a
    :class:`core.regression.data.RegressionData`; for the playground its points as a Corrupted
    whose outliers are the user-marked points) and the ``task``."""

    key: str
    params: Mapping[str, Any]
    state: Any
    data: Any
    task: str = "subspace"


@dataclass(frozen=True)
class Metric:
    """``name`` (as checks write it), ``doc`` (one line, with the unit), ``tasks`` it is measured
    on, and ``compute(column, cache)`` → float or None."""

    name: str
    doc: str
    tasks: tuple[str, ...]
    compute: Callable[[ColumnResult, "Cache"], float | None]


class Cache:
    """The costly measures of each column, computed once per :func:`core.lessons.evaluate` call."""

    def __init__(self):
        self._store: dict[tuple[int, str], Any] = {}

    def get(self, column: ColumnResult, what: str, make: Callable[[], Any]) -> Any:
        key = (id(column), what)
        if key not in self._store:
            self._store[key] = make()
        return self._store[key]


# ------------------------------------------------------------------------------- helpers
def _measures(col: ColumnResult, cache: Cache):
    return cache.get(col, "measure", lambda: _views.measure(col.state, col.data, clustering=True))


def _measured(name: str):
    def compute(col: ColumnResult, cache: Cache):
        if col.task == "playground":
            return None
        v = _measures(col, cache).metrics.get(name)
        return None if v is None else float(v)
    return compute


def _weights(col: ColumnResult) -> np.ndarray | None:
    w = getattr(col.state, "sample_weights", None)   # (a State has them, a RegressionState not)
    if w is None:
        return None
    w = np.asarray(w, dtype=float)
    top = w.max(initial=0.0)
    return w / top if top > 0 else None


def _outliers(col: ColumnResult) -> np.ndarray | None:
    out = getattr(col.data, "outliers", None)   # (a Corrupted has them, RegressionData not)
    return None if out is None else np.asarray(out, dtype=bool)


def _weights_where(reduce: Callable[[np.ndarray], float], outlier: bool):
    def compute(col: ColumnResult, cache: Cache):
        w, out = _weights(col), _outliers(col)
        if w is None or out is None or len(out) != len(w):
            return None
        part = w[out] if outlier else w[~out]
        return float(reduce(part)) if part.size else None
    return compute


def _weights_auc(col: ColumnResult, cache: Cache):
    w, out = _weights(col), _outliers(col)
    if w is None or out is None or len(out) != len(w) or out.all() or not out.any():
        return None
    return _m.outlier_auc(w, out)


def _effective_n(col: ColumnResult, cache: Cache):
    w = _weights(col)
    return None if w is None else _m.effective_n_samples(w)


def _outlier_share(col: ColumnResult, cache: Cache):
    w, out = _weights(col), _outliers(col)
    if w is None or out is None or len(out) != len(w):
        return None
    return float(w[out].sum() / w.sum())


def _angles(col: ColumnResult, cache: Cache) -> np.ndarray | None:
    def make():
        comps = np.asarray(col.state.components, dtype=float)
        if comps.ndim != 2 or not len(comps) or _views.is_nmf(col.state):
            return None
        ref = _views.clean_pca_components(col.data, len(comps))
        if ref is None or not len(ref):
            return None
        return np.degrees(_m.principal_angles(comps, ref))
    return None if col.task == "regression" else cache.get(col, "angles", make)


def _angle_stat(col: ColumnResult, cache: Cache, reduce) -> float | None:
    angles = _angles(col, cache)
    return None if angles is None else float(reduce(angles))


def _eq14(col: ColumnResult, cache: Cache):
    if col.task != "subspace":
        return None
    v = _measures(col, cache).error
    return None if v is None else float(v)


def _relative_error(col: ColumnResult, cache: Cache):
    if col.task != "subspace":
        return None
    v = _measures(col, cache).relative_error
    return None if v is None else 100.0 * float(v)


def _mean_error(col: ColumnResult, cache: Cache):
    if col.task == "regression" or (col.task == "subspace" and _views.is_nmf(col.state)):
        return None                      # NMF has no mean (its reconstruction is WH)
    data = col.data
    keep = ~np.asarray(data.added, dtype=bool)
    if not keep.any():
        return None
    clean_mean = np.asarray(data.X_clean, dtype=float)[keep].mean(axis=0)
    return float(np.linalg.norm(np.asarray(col.state.mean, dtype=float) - clean_mean))


def _nonzero(col: ColumnResult, cache: Cache):
    if col.task != "subspace":
        return None
    return float(np.count_nonzero(np.asarray(col.state.components)))


def _outlier_feature_loading(col: ColumnResult, cache: Cache):
    """Largest |loading| (unit-norm components) on a feature the corruption changed in some sample."""
    if col.task != "subspace":
        return None
    touched = np.asarray(col.data.mask, dtype=bool).any(axis=0)
    if not touched.any() or touched.all():
        return None
    comps = np.asarray(col.state.components, dtype=float)
    norms = np.linalg.norm(comps, axis=1, keepdims=True)
    comps = comps / np.where(norms > 0, norms, 1.0)
    return float(np.abs(comps[:, touched]).max())


def _are(col: ColumnResult, cache: Cache):
    if col.task != "subspace" or _views.is_nmf(col.state):
        return None
    return _m.average_residual_error(np.asarray(col.state.components, dtype=float)[0], col.data.X)


def _err(col: ColumnResult, cache: Cache):
    """Paper 002 eq. 16 ERR of all the components, on the data centred by the method's own mean,
    added outliers not scored (as benchmarks/papers/paper_002.py)."""
    if col.task != "subspace" or _views.is_nmf(col.state):
        return None
    data, mean = col.data, np.asarray(col.state.mean, dtype=float)
    return _m.err_m(col.state.components, data.X - mean, data.X_clean - mean, include=~np.asarray(data.added))


def _support_errors(col: ColumnResult, cache: Cache):
    """Support entries of the first two components that differ from the Hastie data's true
    supports (x5–x8 and x1–x4), over the 20 entries, the two matched in the better order."""
    from ..toys import HASTIE_SUPPORTS
    data = col.data
    if col.task != "subspace" or data.X.shape[1] != 10 or not str(data.description).startswith("Hastie"):
        return None
    comps = np.asarray(col.state.components)
    if len(comps) < 2:
        return None
    found = [set(np.flatnonzero(comps[j])) for j in range(2)]
    true = [set(s) for s in HASTIE_SUPPORTS]
    return min(len(found[0] ^ true[a]) + len(found[1] ^ true[1 - a]) for a in (0, 1)) / 20.0


def _regression(name: str):
    def compute(col: ColumnResult, cache: Cache):
        if col.task != "regression":
            return None
        from ..regression.views import regression_snapshot
        snap = cache.get(col, "regression", lambda: regression_snapshot(col.state, col.data))
        v = snap.metrics.get(name)
        return None if v is None else float(v)
    return compute


def _state(attr: str, convert=float):
    def compute(col: ColumnResult, cache: Cache):
        v = getattr(col.state, attr, None)
        return None if v is None else float(convert(v))
    return compute


_SUB, _PG, _REG = "subspace", "playground", "regression"
_ALL = (_SUB, _REG, _PG)

#: every metric a check may use, by name
METRIC_SPECS: dict[str, Metric] = {m.name: m for m in (
    Metric("eq14_error", "paper 000 eq. 14 error against the clean images (grey levels, added outliers "
           "excluded); PCA family only", (_SUB,), _eq14),
    Metric("total_error", "paper 001's Σ‖xʳ−xᵒ‖: each sample's reconstruction against its clean version, "
           "summed (grey levels)", (_SUB,), _measured("Σ‖xʳ−xᵒ‖ (001)")),
    Metric("relative_error", "paper 003 §5.4: ‖X_clean − WH‖_F / ‖X_clean‖_F in % (NMF family)", (_SUB,),
           _relative_error),
    Metric("weights_auc", "ROC AUC of the sample weights as an outlier detector (1: every outlier weighs "
           "less than every inlier; 0.5 chance)", (_SUB, _PG), _weights_auc),
    Metric("mean_angle", "mean principal angle to the subspace PCA learns from the clean samples (°)",
           (_SUB, _PG), lambda c, k: _angle_stat(c, k, np.mean)),
    Metric("max_angle", "largest principal angle to the clean samples' PCA subspace (°)",
           (_SUB, _PG), lambda c, k: _angle_stat(c, k, np.max)),
    Metric("mean_error", "distance of the learned mean from the clean samples' mean (data units)",
           (_SUB, _PG), _mean_error),
    Metric("objective", "the method's objective at the current iteration", _ALL, _state("objective")),
    Metric("iterations", "iterations done", _ALL, _state("iteration")),
    Metric("converged", "1 when the method's stopping rule is met, else 0", _ALL, _state("converged")),
    Metric("effective_n_samples", "Kish's (Σw)²/Σw² of the sample weights: 1 (one sample carries all) "
           "to n (equal weights)", (_SUB, _PG), _effective_n),
    Metric("weight_outlier_max", "largest relative weight (weights / their maximum) of an outlier",
           (_SUB, _PG), _weights_where(np.max, True)),
    Metric("weight_outlier_mean", "mean relative weight of the outliers", (_SUB, _PG), _weights_where(np.mean, True)),
    Metric("weight_inlier_min", "smallest relative weight of an inlier", (_SUB, _PG), _weights_where(np.min, False)),
    Metric("weight_inlier_mean", "mean relative weight of the inliers", (_SUB, _PG), _weights_where(np.mean, False)),
    Metric("outlier_weight_share", "share of the total weight the outliers carry (0–1)", (_SUB, _PG),
           _outlier_share),
    Metric("nonzero_loadings", "number of non-zero entries of the components (sparse PCA)", (_SUB,), _nonzero),
    Metric("outlier_feature_loading", "largest |loading| of a unit-norm component on a feature the "
           "corruption changed (paper 002's outlier variables)", (_SUB,), _outlier_feature_loading),
    Metric("are", "paper 002 §3.1 ARE of the first component: mean ‖xᵢ − w wᵀxᵢ‖", (_SUB,), _are),
    Metric("err", "paper 002 eq. 16 ERR: mean ‖x_clean − WᵀW x‖ of the centred samples, added outliers not "
           "scored (grey levels)", (_SUB,), _err),
    Metric("support_errors", "paper 002's MR on the Hastie data: share of the 20 support entries of the first "
           "two components that are wrong (true: x5–x8 and x1–x4, matched in either order: the two factors' "
           "variances, 300 and 290, are close and the noise decides which comes first); other data: n/a",
           (_SUB,), _support_errors),
    Metric("acc", "paper 003: clustering accuracy of k-means on H (%)", (_SUB,), _measured(_views.ACC)),
    Metric("nmi", "paper 003: normalised mutual information of k-means on H", (_SUB,), _measured(_views.NMI)),
    Metric("truncated_caught", "share of the corrupted pixels the method truncated (%)", (_SUB,),
           _measured(_views.CAUGHT)),
    Metric("truncated_precision", "share of the truncated pixels that are corrupted (%)", (_SUB,),
           _measured(_views.PRECISION)),
    Metric("rae_t", "paper 004 §5.1 relative error of the regressor T against the truth", (_REG,),
           _regression("RAE_T")),
    Metric("rae_y_test", "paper 004 §5.1 relative error of the test predictions", (_REG,),
           _regression("RAE_Y test")),
    Metric("rae_y_train", "relative error of the training predictions", (_REG,), _regression("RAE_Y train")),
    Metric("test_accuracy", "share of the test samples classified right (0–1)", (_REG,),
           _regression("test accuracy")),
    Metric("train_accuracy", "share of the training samples classified right (0–1)", (_REG,),
           _regression("train accuracy")),
    Metric("cleaning_error", "‖D − X_clean‖_F / ‖X_clean‖_F: the cleaned inputs against the clean ones",
           (_REG,), _regression("cleaning error")),
    Metric("input_error", "‖X − X_clean‖_F / ‖X_clean‖_F: the corrupted inputs against the clean ones "
           "(the reference for cleaning_error)", (_REG,), _regression("input error")),
)}

#: metric name → its one-line description (the names a check may use)
METRICS: dict[str, str] = {name: m.doc for name, m in METRIC_SPECS.items()}


def value(name: str, column: ColumnResult, cache: Cache | None = None) -> float | None:
    """Metric ``name`` of ``column`` (None when it does not apply or is not finite).
    KeyError for an unknown name."""
    metric = METRIC_SPECS[name]
    if column.task not in metric.tasks:
        return None
    v = metric.compute(column, cache if cache is not None else Cache())
    return None if v is None or not np.isfinite(v) else float(v)
