"""Where a regression run's data come from: the choices a user makes, turned into a
:class:`core.regression.data.RegressionData` by core's loaders (free of Qt; the app's regression
workspace shows and edits a :class:`DataChoice`, a session saves it).

A :class:`DataChoice` names a source (the paper's synthetic 3-D example, the built-in digits, or
a folder of images, with a CSV of numeric targets or with subfolders as classes), its options,
the corruption (a key of :data:`core.corruption.CORRUPTIONS` and its parameters) and which
inputs it hits (training and test, training only, test only). :func:`build` does the work and
raises core's DataError / ParameterError (naming the file, row, class or parameter) unchanged,
so a caller (the app's workspace) can show them and keep the data it had.
"""
from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field

import numpy as np

from .. import corruption, datasets
from ..params import ParamSpec
from ..errors import ParameterError
from ..regression import data as rdata
from .spec import plain

__all__ = ["SYNTHETIC", "DIGITS", "FOLDER", "SOURCES", "SOURCE_TITLES", "OPTION_SPECS", "SCOPES",
           "DataChoice", "build", "parse_size", "describe"]

SYNTHETIC = "synthetic"
DIGITS = "digits"
FOLDER = "folder"
SOURCES = (SYNTHETIC, DIGITS)
SOURCE_TITLES = {SYNTHETIC: "Synthetic 3-D (paper 004 §5.1)",
                 DIGITS: "MNIST digits, class labels (built-in)",
                 FOLDER: "Folder"}

#: Image sizes offered (text of the choice → (height, width) or None for the files' own size).
SIZE_CHOICES = ("native", "16×16", "20×20", "24×24", "32×32", "48×48")

_SEED = ParamSpec("seed", "seed", "int", 0, "random seed of the data (points, subsets, split)",
                  low=0, slider=(0, 100))
_TEST = ParamSpec("test_fraction", "test share", "float", 0.5,
                  "share of the samples held out as the test set (of every class for labelled data)",
                  low=0.0, high=1.0, low_open=True, high_open=True, slider=(0.1, 0.9))
_SIZE = ParamSpec("size", "image size", "choice", "native",
                  "resize every image to this size (smaller steps faster); native: the files' own size "
                  "(28 × 28 for the digits)", choices=SIZE_CHOICES)

#: The options of each source, as ParamSpecs (the workspace builds its controls from them).
OPTION_SPECS: dict[str, tuple[ParamSpec, ...]] = {
    SYNTHETIC: (
        _SEED,
        ParamSpec("noise", "σ", "float", 1.0,
                  "standard deviation of the in-plane and out-of-plane errors", low=0.0, slider=(0.0, 3.0)),
        ParamSpec("n_in_plane", "in-plane", "int", 20, "samples with noise on a coordinate in the plane",
                  low=0, high=100, slider=(0, 100)),
        ParamSpec("n_out_of_plane", "out-of-plane", "int", 20,
                  "samples with noise on the coordinate out of the plane", low=0, high=100, slider=(0, 100)),
    ),
    DIGITS: (
        ParamSpec("per_class", "per class", "int", 50,
                  "images of every digit (half of them, by the test share, for testing); "
                  "more is slower to step", low=1, high=500, slider=(2, 500)),
        _SIZE, _TEST, _SEED,
    ),
    FOLDER: (_SIZE, _TEST, _SEED),
}

#: Which inputs the corruption hits: value → label.
SCOPES = rdata.SCOPES


def parse_size(text):
    """``"native"`` → None, ``"32×32"`` → (32, 32)."""
    if text in (None, "native"):
        return None
    h, w = str(text).replace("x", "×").split("×")
    return (int(h), int(w))


@dataclass(frozen=True)
class DataChoice:
    """What the user chose (see the module docstring)."""

    source: str = SYNTHETIC
    options: dict = field(default_factory=dict)
    path: str | None = None
    targets_csv: str | None = None
    corruption: str = "black_square"
    corruption_params: dict = field(default_factory=dict)
    scope: str = "both"

    def __post_init__(self):
        # absolute: a session saved from a relative path reopens from any directory
        for name in ("path", "targets_csv"):
            value = getattr(self, name)
            if isinstance(value, str) and value:
                object.__setattr__(self, name, os.path.abspath(os.path.expanduser(value)))

    def with_(self, **changes) -> "DataChoice":
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict:
        return {"source": self.source, "options": plain(self.options), "path": self.path,
                "targets_csv": self.targets_csv, "corruption": self.corruption,
                "corruption_params": plain(self.corruption_params), "scope": self.scope}

    @classmethod
    def from_dict(cls, d) -> "DataChoice":
        return cls(source=d.get("source", SYNTHETIC), options=dict(d.get("options") or {}),
                   path=d.get("path"), targets_csv=d.get("targets_csv"),
                   corruption=d.get("corruption", "black_square"),
                   corruption_params=dict(d.get("corruption_params") or {}), scope=d.get("scope", "both"))

    def values(self) -> dict:
        """The options with the defaults of the source filled in."""
        specs = OPTION_SPECS[self.source]
        return {**{s.name: s.default for s in specs}, **{k: v for k, v in self.options.items()
                                                          if k in {s.name for s in specs}}}

    @property
    def uses_corruption(self) -> bool:
        """The synthetic example has its own errors; image data take the chosen corruption."""
        return self.source != SYNTHETIC


def _checked(specs, values: dict) -> dict:
    return {s.name: s.validate(values[s.name]) for s in specs}


def build(choice: DataChoice):
    """The RegressionData of ``choice`` (and the ImageSet it came from, or None).

    Returns ``(data, imageset)``. Raises DataError / ParameterError from core (file, row, class or
    parameter named) — the caller keeps its previous data."""
    specs = OPTION_SPECS[choice.source if choice.source in OPTION_SPECS else FOLDER]
    opts = _checked(specs, choice.values()) if choice.source in OPTION_SPECS else {}
    if choice.source == SYNTHETIC:
        return rdata.synthetic_3d(seed=opts["seed"], noise=opts["noise"], n_in_plane=opts["n_in_plane"],
                                  n_out_of_plane=opts["n_out_of_plane"]), None
    size = parse_size(opts["size"])
    if choice.source == DIGITS:
        images = rdata.digits_subset(opts["per_class"], opts["seed"], size)
        task = "classification"
        targets = None
    elif choice.source == FOLDER:
        if not choice.path:
            raise ParameterError("no folder chosen: open a folder of images first")
        images = datasets.load_folder(choice.path, size, targets_csv=choice.targets_csv)
        task = "regression" if choice.targets_csv else "classification"
        targets = images.targets if choice.targets_csv else None
    else:
        raise ParameterError(f"unknown data source {choice.source!r}")
    key = choice.corruption if choice.corruption in corruption.CORRUPTIONS else "none"
    corrupted = corruption.corrupt(images, key, **dict(choice.corruption_params))
    data = rdata.regression_data(corrupted, targets=targets, test_fraction=opts["test_fraction"],
                                 seed=opts["seed"], task=task)
    if targets is not None and images.target_names:
        data = dataclasses.replace(data, target_names=tuple(images.target_names))
    if choice.source == FOLDER:
        where = "targets from " + os.path.basename(choice.targets_csv) if choice.targets_csv \
            else "subfolders as classes"
        data = dataclasses.replace(data, description=f"{images.source} ({where}); {corrupted.description}")
    return rdata.restrict_corruption(data, choice.scope), images


def describe(data) -> str:
    """One line about the loaded data for the info label."""
    n_tr, n_te = int(data.train.sum()), int((~data.train).sum())
    d = data.X.shape[1]
    shape = f"{data.shape[0]} × {data.shape[1]} px" if data.shape is not None else f"{d} features"
    task = (f"{len(data.classes)} classes" if data.is_classification
            else f"{data.Y.shape[1]} target(s): {', '.join(data.target_names[:4])}")
    touched = np.zeros(data.n_samples, dtype=bool)
    for v in data.kinds.values():
        touched |= np.asarray(v)
    missing = int(np.isnan(data.X).sum())
    parts = [f"{n_tr} training + {n_te} test samples", shape, task,
             f"corrupted: {int(touched[data.train].sum())} train / {int(touched[~data.train].sum())} test"]
    if missing:
        parts.append(f"{missing} missing entries (NaN)")
    return " · ".join(parts)
