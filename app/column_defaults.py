"""What a column added without a method gets: the first catalogue method not shown yet, with the
number of components of the columns shown.

The catalogue's default k = 10 suits the digits (5,000 samples) but not the 100 built-in faces
with a fifth of them occluded: there the subspace has room for occluded faces, which then fit
almost exactly and take nearly all the weight of PCA-GM (effective number of samples 8 of 100 at
p = 0.3) and of RPCA-OM (3 of 100), where the window's k = 5 gives 81 and 88 (core.collapse). A
new column therefore takes the k the other columns use."""
from __future__ import annotations

from robust_subspace_lab.core import catalogue

__all__ = ["next_column"]


def next_column(columns: list, params: dict | None = None) -> tuple[str, dict | None]:
    """``(key, params)`` of a column added to ``columns`` without a method: the first method
    of the catalogue not shown (the first one if all are), with ``params`` as given, else with
    the last shown column's ``n_components`` when both methods have one (else None: defaults)."""
    shown = {c.key for c in columns}
    keys = [m.key for m in catalogue.methods()]
    key = next((k for k in keys if k not in shown), keys[0])
    if params is None:
        ks = [c.runner.params["n_components"] for c in columns if "n_components" in c.runner.params]
        if ks and "n_components" in catalogue.get(key).defaults():
            params = {"n_components": ks[-1]}
    return key, params
