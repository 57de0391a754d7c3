"""What a session's data are: where the images come from (:class:`DataSpec`) and how they are
corrupted (:class:`CorruptionSpec`), as plain values that load, serialise and compare.

Both are frozen dataclasses of plain data (strings, numbers, tuples, mappings), so a session
file, a sweep and the app describe the same data the same way, and the same spec with the same
seed gives the same arrays (every corruption and toy draws from ``numpy.random.default_rng(seed)``).
"""
from __future__ import annotations

import dataclasses
import os
import threading
import weakref
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np

from .._readonly import ReadOnlyDict
from .. import corruption as _corruption
from .. import datasets, toys
from ..corruption import Corrupted
from ..datasets import ImageSet
from ..errors import ParameterError

__all__ = ["BUILTIN", "FOLDER", "TOY", "AUTO", "DOUBLE", "SINGLE", "PRECISIONS", "PRECISION_CHOICES",
           "AUTO_SINGLE_BYTES", "DataSpec", "CorruptionSpec", "prepare", "share_clean", "in_precision",
           "auto_precision", "solver_input", "shared_double", "DATA_KINDS", "plain"]

BUILTIN, FOLDER, TOY = "builtin", "folder", "toy"
#: the values :attr:`DataSpec.kind` takes
DATA_KINDS = (BUILTIN, FOLDER, TOY)
#: :attr:`DataSpec.precision`: the floating-point type of the data every run of a session shares
DOUBLE, SINGLE = "double", "single"
PRECISIONS: Mapping[str, type] = ReadOnlyDict({DOUBLE: np.float64, SINGLE: np.float32})
#: :attr:`DataSpec.precision` "auto" (the default): single when the images in double precision
#: would take more than :data:`AUTO_SINGLE_BYTES`, else double (:func:`auto_precision`)
AUTO = "auto"
#: the values :attr:`DataSpec.precision` takes
PRECISION_CHOICES: tuple[str, ...] = (AUTO, DOUBLE, SINGLE)
#: Above this many bytes of images in float64, "auto" chooses single precision: 256 MB, so the
#: 5,000 built-in digits at 96 × 96 (369 MB in double) are single and every smaller built-in
#: size (64 × 64: 164 MB), the faces and the toys are double. Measured with the window at
#: 96 × 96, random-dot images added and four columns (tests' heavy state, see
#: benchmarks/monkey.py): see the "Precision" lines of docs/benchmarks.md.
AUTO_SINGLE_BYTES = 256 * 2 ** 20


def auto_precision(n_values: int) -> str:
    """The precision "auto" gives data of ``n_values`` numbers: :data:`SINGLE` when they take more
    than :data:`AUTO_SINGLE_BYTES` in float64 (8 bytes each), else :data:`DOUBLE`."""
    return SINGLE if 8 * int(n_values) > AUTO_SINGLE_BYTES else DOUBLE


def plain(value: Any) -> Any:
    """``value`` as JSON-ready plain data (tuples and arrays as lists, mappings as dicts, numpy
    scalars as Python numbers): what every ``to_dict`` of a session writes."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if hasattr(value, "tolist"):                 # numpy scalars and arrays
        return value.tolist()
    return value


@dataclass(frozen=True)
class DataSpec:
    """Where the images come from.

    Attributes
    ----------
    kind : ``"builtin"`` (a set of :data:`core.datasets.BUILTIN`), ``"folder"`` (every image of a
        folder) or ``"toy"`` (a point set of :data:`core.toys.TOYS`, planted outliers included).
    name : the built-in set's name, the folder's path (made absolute), or the toy's key.
    size : ``(height, width)`` to resize every image to, or ``None`` for their own size (images only).
    options : the built-in loader's options (e.g. ``{"digits": [6]}``) or the toy's parameters.
    precision : ``"auto"`` (the default: single when the images take more than
        :data:`AUTO_SINGLE_BYTES` in double, see :meth:`resolved`), ``"double"`` (float64) or
        ``"single"`` (float32): the type of the
        images :meth:`load` gives and of the corrupted data X and the clean data X_clean that
        :func:`prepare` makes (the same 0–255 grey levels, each rounded to float32's 24-bit
        significand, relative 6e-8). In single precision the PCA family, the convex methods and
        the NMF family compute in float32; the greedy methods (PCA-L1, RSPCA, sparse PCA) take
        float32 X as it is and compute in float64 from it
        (:attr:`core.base.SteppableEstimator.preserves_float32`, ``accepts_float32``). Measured
        (benchmarks/bench_precision.py): PCA-GM on the 5,000 digits at 96 × 96, one BLAS thread,
        0.47 s per step instead of 0.88 s and a process peak of 0.67 instead of 1.19 GB; after 3
        steps of every subspace method on the 100 faces and the 1,500 digits 0, 1, 7, each
        metric of :func:`core.views.snapshot` (errors, angle to the clean PCA, AUC, NMF relative
        error, ACC, NMI) within 6e-6 relative of double precision (2.8e-5 after 10 steps).
    """

    kind: str = BUILTIN
    name: str = "faces"
    size: tuple[int, int] | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    precision: str = AUTO

    def __post_init__(self):
        if self.kind not in DATA_KINDS:
            raise ParameterError(f"data kind must be one of {', '.join(DATA_KINDS)}, got {self.kind!r}")
        if self.precision not in PRECISION_CHOICES:
            raise ParameterError(f"precision must be one of {', '.join(PRECISION_CHOICES)}, got {self.precision!r}")
        if self.size is not None:
            object.__setattr__(self, "size", tuple(int(v) for v in self.size))
        if self.kind == FOLDER and isinstance(self.name, str) and self.name:
            # absolute: a session saved from a relative --folder reopens from any directory
            object.__setattr__(self, "name", os.path.abspath(os.path.expanduser(self.name)))
        object.__setattr__(self, "options", ReadOnlyDict(dict(self.options)))

    @property
    def is_toy(self) -> bool:
        return self.kind == TOY

    def resolved(self, n_values: int) -> str:
        """The precision of data of ``n_values`` numbers: :attr:`precision`, or for "auto"
        :func:`auto_precision` (always "double" or "single")."""
        return auto_precision(n_values) if self.precision == AUTO else self.precision

    def dtype_for(self, n_values: int) -> np.dtype:
        """The numpy type (float64 or float32) of data of ``n_values`` numbers (:meth:`resolved`)."""
        return np.dtype(PRECISIONS[self.resolved(n_values)])

    def with_(self, **changes: Any) -> "DataSpec":
        return dataclasses.replace(self, **changes)

    def load(self) -> ImageSet | Corrupted:
        """The images (an :class:`ImageSet`, its pixels read-only), or for a toy its points with
        their outliers (a :class:`Corrupted`), in :attr:`precision` (built-in sets loaded in it;
        a folder's or a toy's float64 converted, then let go).
        Raises core's DataError / ParameterError (file, option or value named)."""
        if self.kind == TOY:
            toy = toys.make_toy(self.name, **dict(self.options))
            return in_precision(toy, self.resolved(toy.X.size))
        if self.kind == FOLDER:
            images = datasets.load_folder(self.name, size=self.size)
        else:
            # in the precision at once: the 5,000 digits at 96 × 96 in single precision were
            # resized into a float64 set (352 MB) beside their float32 copy
            images = datasets.load_builtin(self.name, size=self.size, dtype=self.dtype_for, **dict(self.options))
        images = _images_in(images, self.dtype_for(images.images.size))
        # read-only: a corruption then takes them as its clean data instead of copying them (a
        # third array of the data's size while corrupting: the 5,000 digits at 96 × 96 in double
        # precision took the window to 2.2 GB resident), and share_clean keeps them as that one array
        images.images.flags.writeable = False
        return images

    def to_dict(self) -> dict:
        return {"kind": self.kind, "name": self.name, "size": plain(self.size), "options": plain(self.options),
                "precision": self.precision}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "DataSpec":
        """The spec of :meth:`to_dict`'s plain data; a dict without ``precision`` (written before
        it existed) is double precision, as it was then ("auto" is the default of new specs)."""
        size = d.get("size")
        return cls(kind=d.get("kind", BUILTIN), name=d.get("name", "faces"),
                   size=tuple(size) if size is not None else None, options=dict(d.get("options") or {}),
                   precision=d.get("precision") or DOUBLE)


@dataclass(frozen=True)
class CorruptionSpec:
    """What the user chose to corrupt the images with: a key of :data:`core.corruption.CORRUPTIONS`
    and its parameters (``seed`` among them; missing ones take their defaults). The registry entry
    the key names, with the parameters' specs, is its :attr:`info` (a
    :class:`core.corruption.CorruptionInfo`)."""

    key: str = _corruption.DEFAULT_CORRUPTION
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        object.__setattr__(self, "params", ReadOnlyDict(dict(self.params)))

    @property
    def info(self) -> "_corruption.CorruptionInfo":
        """The registry entry of :attr:`key`; ParameterError listing the known keys when there is none."""
        return _corruption.corruption_info(self.key)

    def values(self) -> dict:
        """Every parameter, defaults filled in (not validated: :meth:`validated` and :meth:`apply` validate)."""
        return {**self.info.defaults(), **dict(self.params)}

    def validated(self) -> dict:
        """Every parameter, defaults filled in, checked by the registry entry
        (:meth:`core.corruption.CorruptionInfo.validate`, the one check: each value by its spec,
        then the rules between values). Raises ParameterError naming the key or the parameter."""
        return self.info.validate(**dict(self.params))

    @property
    def seed(self) -> int | None:
        return self.values().get("seed")

    def with_seed(self, seed: int) -> "CorruptionSpec":
        """The same corruption drawn with another seed (when it has one)."""
        if "seed" not in self.info.defaults():
            return self
        return dataclasses.replace(self, params={**dict(self.params), "seed": int(seed)})

    def with_(self, **changes: Any) -> "CorruptionSpec":
        return dataclasses.replace(self, **changes)

    def apply(self, images: ImageSet) -> Corrupted:
        """The corrupted data (:func:`core.corruption.corrupt`): ParameterError names a bad value."""
        return _corruption.corrupt(images, self.key, **dict(self.params))

    def to_dict(self) -> dict:
        return {"key": self.key, "params": plain(self.params)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "CorruptionSpec":
        return cls(key=d.get("key", _corruption.DEFAULT_CORRUPTION), params=dict(d.get("params") or {}))


def prepare(data: DataSpec, corruption: CorruptionSpec, images: ImageSet | None = None) -> Corrupted:
    """The data a run sees: ``data`` loaded (or the already loaded ``images``) and corrupted by
    ``corruption``, X and X_clean in ``data.precision`` (:func:`in_precision`; "auto" resolved
    on the number of pixels of the images, before corruption, :meth:`DataSpec.resolved`). A toy
    carries its own outliers: the corruption is not applied to it.

    In single precision the images are rounded to float32 before they are corrupted, so that
    corrupting again the images :func:`share_clean` keeps (a float32 view of X_clean) gives the
    same arrays as preparing afresh from the spec."""
    loaded = images if images is not None else data.load()
    if isinstance(loaded, Corrupted):
        return in_precision(loaded, data.resolved(loaded.X.size))
    precision = data.resolved(loaded.images.size)
    loaded = corruption.apply(_images_in(loaded, PRECISIONS[precision]))     # float32 images stay float32
    return in_precision(loaded, precision)


def _images_in(images: ImageSet, dtype) -> ImageSet:
    """``images`` with pixels of ``dtype`` (itself when they are)."""
    if images.images.dtype == np.dtype(dtype):
        return images
    return dataclasses.replace(images, images=images.images.astype(dtype))


def in_precision(data: Corrupted, precision: str) -> Corrupted:
    """``data`` with X and X_clean in ``precision`` (a key of :data:`PRECISIONS`): ``data``
    itself when they already are, else a :class:`Corrupted` with converted copies (every other
    field shared). Raises ParameterError for an unknown ``precision``."""
    if precision not in PRECISIONS:
        raise ParameterError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
    dtype = np.dtype(PRECISIONS[precision])
    if data.X.dtype == dtype and data.X_clean.dtype == dtype:
        return data
    same = data.X_clean is data.X
    X = data.X.astype(dtype, copy=False)
    return dataclasses.replace(data, X=X, X_clean=X if same else data.X_clean.astype(dtype, copy=False))


def share_clean(images: ImageSet, data: Corrupted) -> ImageSet:
    """``images`` whose pixels are a read-only view of ``data.X_clean``'s first rows, so that the
    loaded images and the clean data they were corrupted from are one array in memory (a
    corruption copies the images into ``X_clean``, which holds them unchanged: the same values).
    Keep this instead of ``images`` to corrupt again later. ``images`` itself is returned when
    ``data`` was not made from them (a toy, or other shapes).

    Raises nothing; ``images`` is not modified."""
    if not isinstance(images, ImageSet) or not isinstance(data, Corrupted):
        return images
    n = len(images)
    if (data.X_clean.shape[0] < n
            or data.X_clean.shape[1] != images.images[0].size or tuple(data.shape) != images.shape):
        return images
    view = data.X_clean[:n].reshape(images.images.shape)
    view.flags.writeable = False
    return dataclasses.replace(images, images=view)


#: id(float32 X) -> (weak references to X and to its float64 copy): the one copy
#: :func:`solver_input` gives every method that computes in float64, kept alive by the runs that
#: hold it (the NMF family keeps X in its states; PCA-L1 and sparse PCA keep only their centred
#: data, so the copy goes once they have started) and dropped with X
_DOUBLES: dict[int, tuple[weakref.ref, weakref.ref]] = {}
_DOUBLES_LOCK = threading.Lock()


def shared_double(X: np.ndarray) -> np.ndarray | None:
    """The float64 copy of ``X`` that :func:`solver_input` made and shares while a run holds it,
    or None (none made, none held any more, or ``X`` is not float32). For memory accounting: its
    bytes are the data's, not a run's."""
    entry = _DOUBLES.get(id(X))
    return entry[1]() if entry is not None and entry[0]() is X else None


def solver_input(estimator: Any, X: np.ndarray) -> np.ndarray:
    """``X`` as ``estimator`` computes on it: ``X`` itself when it is not float32 or the estimator
    computes in float32 or converts what it keeps itself
    (:attr:`core.base.SteppableEstimator.preserves_float32`, ``accepts_float32``); else a
    read-only float64 copy shared by every estimator given the same ``X`` while one of them holds
    it (the columns of a window in single precision: each method computing in double would
    convert X to float64 and keep it, a copy per column: 457 MB each for the 5,000 digits at
    96 × 96 with 1,500 dot images; every catalogue method now computes in float32 or takes float32
    as it is, so this serves a method that does neither). Thread-safe; raises nothing."""
    if X.dtype != np.float32 or getattr(estimator, "preserves_float32", False) \
            or getattr(estimator, "accepts_float32", False):
        return X
    with _DOUBLES_LOCK:
        copy = shared_double(X)
        if copy is None:
            copy = X.astype(np.float64)
            copy.flags.writeable = False
            key = id(X)
            _DOUBLES[key] = (weakref.ref(X, lambda _ref, key=key: _DOUBLES.pop(key, None)),  # type: ignore[misc]
                             weakref.ref(copy))
        return copy
