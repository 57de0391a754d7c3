"""The registry of corruption models, :data:`CORRUPTIONS`, and :func:`corrupt`, which applies one by key.

Each entry (:class:`CorruptionSpec`) carries a :class:`~core.params.ParamSpec` per parameter, so
that the app builds its controls without knowing the corruptions.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..datasets import ImageSet, lfw_nonfaces
from ..errors import DataError, ParameterError
from ..params import HasParams, ParamSpec
from .noise import laplace_noise, no_corruption, salt_and_pepper
from .occlusion import black_square, missing_blocks, occlude_rectangles, value_block
from .outliers import add_dot_images, add_natural_outliers
from .result import Corrupted


@dataclass(frozen=True)
class CorruptionSpec(HasParams):
    """A registry entry: everything the app needs to offer a corruption model.

    Attributes
    ----------
    key : registry key (``"rectangles"``, ...).
    name : display name.
    function : ``function(data, **params) -> Corrupted`` taking exactly the names of ``params``.
    params : one :class:`~core.params.ParamSpec` per parameter (defaults, ranges, tooltips).
    summary : one-line description, with the paper section where applicable.
    missing_entries : the corruption removes entries (NaN in ``X``); only methods that handle
        missing data can use it, so the subspace method columns do not offer it.
    """

    key: str
    name: str
    function: Callable[..., Corrupted]
    params: tuple[ParamSpec, ...]
    summary: str
    missing_entries: bool = False


def _fraction_spec(default: float, doc: str) -> ParamSpec:
    return ParamSpec(name="fraction", symbol="fraction", kind="float", default=default, doc=doc,
                     low=0.0, high=1.0)


_CONTENT = ParamSpec(name="content", symbol="content", kind="choice", default="dots",
                     doc="what fills the rectangle: random 0/255 dots, black or white",
                     choices=("dots", "black", "white"))
_SEED = ParamSpec(name="seed", symbol="seed", kind="int", default=0,
                  doc="random seed (same seed, same corruption)", low=0, slider=(0, 100))


def _rectangles(data, *, fraction, size_min, size_max, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_range=(size_min, size_max),
                              content=content, seed=seed)


def _quarter_block(data, *, fraction, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_range=(0.5, 0.5), content=content, seed=seed)


def _fixed_rectangle(data, *, fraction, height, width, content, seed):
    return occlude_rectangles(data, fraction=fraction, size_px=(height, width), content=content, seed=seed)


def _salt_pepper_exact(data, *, fraction, density, seed):
    return salt_and_pepper(data, fraction=fraction, density=density, seed=seed, exact=True)


def _natural_outliers(data, *, fraction, seed):
    return add_natural_outliers(data, lfw_nonfaces(), fraction=fraction, seed=seed)


#: Corruption models by key, in the order the app should list them.
CORRUPTIONS: dict[str, CorruptionSpec] = {
    spec.key: spec for spec in (
        CorruptionSpec(
            key="none", name="None", function=no_corruption, params=(),
            summary="The clean data, unchanged."),
        CorruptionSpec(
            key="rectangles", name="Occluding rectangles", function=_rectangles,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one rectangle"),
                ParamSpec(name="size_min", symbol="size min", kind="float", default=0.3,
                          doc="smallest rectangle side, as a fraction of the image side",
                          low=0.0, high=1.0, low_open=True),
                ParamSpec(name="size_max", symbol="size max", kind="float", default=0.6,
                          doc="largest rectangle side, as a fraction of the image side",
                          low=0.0, high=1.0, low_open=True),
                _CONTENT,
                _SEED,
            ),
            summary="One random rectangle per chosen image, filled with random 0/255 dots "
                    "(Oh & Kwak 2016 §5.1) or black/white; Nie et al. 2014 §5.2 uses 20 % of the images "
                    "and sides of 0.5."),
        CorruptionSpec(
            key="quarter_block", name="¼-area block (Nie et al. 2014)", function=_quarter_block,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one block"),
                _CONTENT,
                _SEED,
            ),
            summary="Paper 001 §5.2: 20 % of the images get one block of ¼ of the image area "
                    "(half the height × half the width) at a random place."),
        CorruptionSpec(
            key="fixed_rectangle", name="10×18 dot rectangle (Zhao et al. 2014)", function=_fixed_rectangle,
            params=(
                _fraction_spec(0.2, "fraction of the images that get one rectangle"),
                ParamSpec(name="height", symbol="height (px)", kind="int", default=10,
                          doc="rectangle height in pixels", low=1, slider=(1, 64)),
                ParamSpec(name="width", symbol="width (px)", kind="int", default=18,
                          doc="rectangle width in pixels", low=1, slider=(1, 64)),
                _CONTENT,
                _SEED,
            ),
            summary="Paper 002 §3.3: a 10 × 18 rectangle of random black and white dots at a random "
                    "place (on 28 × 28 digits; clipped to smaller images)."),
        CorruptionSpec(
            key="salt_pepper", name="Salt & pepper", function=salt_and_pepper,
            params=(
                _fraction_spec(1.0, "fraction of the images that get noise"),
                ParamSpec(name="density", symbol="density", kind="float", default=0.1,
                          doc="probability that a pixel is replaced by 0 or 255",
                          low=0.0, high=1.0),
                _SEED,
            ),
            summary="Independent pixels replaced by 0 or 255 in the chosen images."),
        CorruptionSpec(
            key="salt_pepper_exact", name="Salt & pepper, exact p % (Guan et al. 2019)",
            function=_salt_pepper_exact,
            params=(
                _fraction_spec(1.0, "fraction of the images that get noise (Guan et al. 2019: all)"),
                ParamSpec(name="density", symbol="p", kind="float", default=0.1,
                          doc="share of each image's pixels set to 0 or 255, exactly "
                              "(Guan et al. 2019: 5 % to 60 %)",
                          low=0.0, high=1.0),
                _SEED,
            ),
            summary="Paper 003 §5.2: exactly p % of the pixels of each image set to 0 or 255 "
                    "(half each), at random places."),
        CorruptionSpec(
            key="laplace", name="Laplace noise (Guan et al. 2019)", function=laplace_noise,
            params=(
                ParamSpec(name="scale", symbol="δ", kind="float", default=40.0,
                          doc="Laplace scale in grey levels (Guan et al. 2019: 40 to 280)",
                          low=0.0, slider=(0.0, 300.0)),
                ParamSpec(name="clip", symbol="clip at 0", kind="bool", default=True,
                          doc="set negative values to 0 (NMF methods refuse negative data)"),
                _fraction_spec(1.0, "fraction of the images that get noise (Guan et al. 2019: all)"),
                _SEED,
            ),
            summary="Paper 003 §5.2: Laplace(0, δ) noise added to every pixel, clipped at 0 "
                    "(values above 255 kept)."),
        CorruptionSpec(
            key="value_block", name="Block of value 550 (Guan et al. 2019)", function=value_block,
            params=(
                ParamSpec(name="size", symbol="b (px)", kind="int", default=12,
                          doc="block side in pixels (Guan et al. 2019: 10 to 22 on 32 × 32 faces)",
                          low=1, slider=(1, 64)),
                ParamSpec(name="value", symbol="value", kind="float", default=550.0,
                          doc="grey level written in the block (Guan et al. 2019: 550, above the 0–255 range)",
                          low=0.0, slider=(0.0, 1000.0)),
                _fraction_spec(1.0, "fraction of the images that get a block (Guan et al. 2019: all)"),
                _SEED,
            ),
            summary="Paper 003 §5.2: one b × b block filled with 550 per image at a random place "
                    "(an extreme outlier, above the data range)."),
        CorruptionSpec(
            key="black_square", name="Black square (Huang et al. 2016)", function=black_square,
            params=(
                ParamSpec(name="share", symbol="share", kind="float", default=0.2,
                          doc="share of each image covered by the square (Huang et al. 2016: 5 %, 20 %, 40 %)",
                          low=0.0, high=1.0),
                _fraction_spec(1.0, "fraction of the images that get a square"),
                _SEED,
            ),
            summary="Paper 004 §5.3: one black square covering a share of each image, at a random place."),
        CorruptionSpec(
            key="missing_blocks", name="Missing blocks (NaN, Huang et al. 2016)", function=missing_blocks,
            params=(
                ParamSpec(name="share", symbol="share", kind="float", default=0.1,
                          doc="share of each image's entries that go missing (about; whole blocks)",
                          low=0.0, high=1.0),
                ParamSpec(name="block", symbol="block (px)", kind="int", default=4,
                          doc="side of the missing square blocks in pixels",
                          low=1, slider=(1, 32)),
                _fraction_spec(1.0, "fraction of the images with missing blocks"),
                _SEED,
            ),
            summary="Paper 004 §2.7/§5.5: square blocks of entries removed (NaN, mask = missing); "
                    "only for missing-data methods (RR-Missing) — subspace methods refuse NaN.",
            missing_entries=True),
        CorruptionSpec(
            key="dot_images", name="Random-dot images", function=add_dot_images,
            params=(
                _fraction_spec(0.3, "number of dummy images added, as a fraction of the data set"),
                _SEED,
            ),
            summary="Dummy images of random 0/255 pixels appended as whole-sample outliers "
                    "(Oh & Kwak 2016 §5.1)."),
        CorruptionSpec(
            key="natural_outliers", name="Natural outliers (LFW non-faces)",
            function=_natural_outliers,
            params=(
                _fraction_spec(0.3, "number of LFW non-face images added, as a fraction of the "
                                    "data set (at most 100 images are available)"),
                _SEED,
            ),
            summary="Real non-face images (LFW background patches, resized to the data) appended "
                    "as whole-sample outliers."),
    )
}

#: The corruption the app starts with (its defaults: fraction 0.2, content "dots").
DEFAULT_CORRUPTION = "rectangles"


def as_imageset(data: Any, image_shape: tuple[int, int] | None = None) -> ImageSet:
    """``data`` as an :class:`ImageSet`: an ImageSet unchanged; a plain array of images
    ``(n_samples, height, width)``; or a data matrix ``(n_samples, n_features)`` with
    ``image_shape=(height, width)``. Grey levels 0–255 (not checked). No labels.

    Raises :class:`DataError` naming the shape when the array cannot be read as images."""
    if isinstance(data, ImageSet):
        return data
    try:
        arr = np.asarray(data, dtype=np.float64)
    except (TypeError, ValueError):
        raise DataError(f"data must be an ImageSet or an array of images, got {type(data).__name__}") from None
    if arr.ndim == 2:
        if image_shape is None:
            raise DataError(f"a data matrix of shape {arr.shape} needs image_shape=(height, width) "
                            "to be corrupted as images; or pass images of shape (n, height, width)")
        h, w = (int(v) for v in image_shape)
        if h * w != arr.shape[1]:
            raise DataError(f"image_shape {image_shape} does not match the {arr.shape[1]} features of X")
        arr = arr.reshape(len(arr), h, w)
    elif arr.ndim != 3:
        raise DataError(f"images must have shape (n_samples, height, width), got an array of shape {arr.shape}")
    return ImageSet(images=arr, labels=None, names=tuple(f"array/{i}" for i in range(len(arr))),
                    source="array")


def corrupt(data: ImageSet | np.ndarray, key: str, *, image_shape: tuple[int, int] | None = None,
            **params: Any) -> Corrupted:
    """Apply the corruption ``CORRUPTIONS[key]`` with ``params`` (missing ones take defaults).

    ``data`` is an :class:`ImageSet`, an array of images ``(n_samples, height, width)``, or a
    data matrix ``(n_samples, n_features)`` with ``image_shape=(height, width)``
    (:func:`as_imageset`).

    Every parameter is checked with its :meth:`ParamSpec.validate`, and ``size_min <= size_max``
    for ``"rectangles"``, before any work.

    Returns
    -------
    Corrupted (see the individual functions for shapes).

    Raises
    ------
    ParameterError : unknown ``key`` (listing the known keys), unknown parameter names, or a value
        out of range (the message names the parameter).
    DataError : ``data`` is not a non-empty image set or array of images.
    """
    data = as_imageset(data, image_shape)
    try:
        spec = CORRUPTIONS[key]
    except (KeyError, TypeError):
        raise ParameterError(f"unknown corruption {key!r}; known: {', '.join(CORRUPTIONS)}") from None
    values = spec.validate(**params)
    if "size_min" in values and "size_max" in values and values["size_min"] > values["size_max"]:
        raise ParameterError(f"size_min must be <= size_max, got size_min={values['size_min']:g} "
                             f"> size_max={values['size_max']:g}")
    return spec.function(data, **values)
