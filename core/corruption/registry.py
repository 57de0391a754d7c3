"""The registry of corruption models, :data:`CORRUPTIONS`, and :func:`corrupt`, which applies one by key.

Each entry (:class:`CorruptionInfo`, as a method's is a :class:`~core.params.MethodInfo`) carries a
:class:`~core.params.ParamSpec` per parameter, so that the app builds its controls, the sweep
command parses its values and a session checks them without knowing the corruptions. What a user
chose (a key and its values) is a :class:`core.session.CorruptionSpec`.

Adding a corruption (docs/architecture.md, "How to add a corruption"): write its function with the
public helpers of :mod:`.result`, and add a :class:`CorruptionInfo` to the tuple below (or, from a
script or plug-in, :func:`register_corruption`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..datasets import ImageSet, lfw_nonfaces
from ..errors import DataError, ParameterError
from ..params import HasParams, ParamSpec
from .noise import CLIP, DENSITY, SCALE, laplace_noise, no_corruption, salt_and_pepper
from .occlusion import (BLOCK, BLOCK_SIZE, CONTENT, MISSING_SHARE, SIZE_MAX, SIZE_MIN, SQUARE_SHARE, VALUE,
                        black_square, missing_blocks, occlude_rectangles, value_block)
from .outliers import add_dot_images, add_natural_outliers
from .result import SEED, Corrupted, fraction_param


@dataclass(frozen=True)
class CorruptionInfo(HasParams):
    """A registry entry: everything the app, the sweep command and a session need to offer and
    check a corruption model.

    Attributes
    ----------
    key : registry key (``"rectangles"``, ...): lowercase letters, digits and ``_``.
    name : display name.
    function : ``function(data, **params) -> Corrupted`` taking an :class:`~core.datasets.ImageSet`
        and exactly the names of ``params`` as keywords.
    params : one :class:`~core.params.ParamSpec` per parameter (defaults, ranges, tooltips).
    summary : one-line description, with the paper section where applicable.
    missing_entries : the corruption removes entries (NaN in ``X``); only methods that handle
        missing data can use it, so the subspace method columns do not offer it.
    check : ``check(values)`` for a rule between parameters (``size_min <= size_max``), called by
        :meth:`validate` after each value passed its spec; raises ParameterError naming a
        parameter. None: no such rule.
    """

    key: str
    name: str
    function: Callable[..., Corrupted]
    params: tuple[ParamSpec, ...]
    summary: str
    missing_entries: bool = False
    check: Callable[[dict[str, Any]], None] | None = dataclasses.field(default=None, compare=False, repr=False)

    def validate(self, **params: Any) -> dict[str, Any]:
        """The defaults overridden by ``params``, each checked by its spec, then by :attr:`check`:
        the one check of a corruption's parameters (:func:`corrupt`, the app, the sweep command, a
        session and a lesson all call it).

        Raises ParameterError for an unknown name, an out-of-range value or a broken rule between
        values (naming the parameter)."""
        values = super().validate(**params)
        if self.check is not None:
            self.check(values)
        return values


def _size_order(values: dict[str, Any]) -> None:
    if values["size_min"] > values["size_max"]:
        raise ParameterError(f"size_min must be <= size_max, got size_min={values['size_min']:g} "
                             f"> size_max={values['size_max']:g}")


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
CORRUPTIONS: dict[str, CorruptionInfo] = {
    spec.key: spec for spec in (
        CorruptionInfo(
            key="none", name="None", function=no_corruption, params=(),
            summary="The clean data, unchanged."),
        CorruptionInfo(
            key="rectangles", name="Occluding rectangles", function=_rectangles,
            params=(
                fraction_param(0.2, "fraction of the images that get one rectangle"),
                SIZE_MIN,
                SIZE_MAX,
                CONTENT,
                SEED,
            ),
            check=_size_order,
            summary="One random rectangle per chosen image, filled with random 0/255 dots "
                    "(Oh & Kwak 2016 §5.1) or black/white; Nie et al. 2014 §5.2 uses 20 % of the images "
                    "and sides of 0.5."),
        CorruptionInfo(
            key="quarter_block", name="¼-area block (Nie et al. 2014)", function=_quarter_block,
            params=(
                fraction_param(0.2, "fraction of the images that get one block"),
                CONTENT,
                SEED,
            ),
            summary="Paper 001 §5.2: 20 % of the images get one block of ¼ of the image area "
                    "(half the height × half the width) at a random place."),
        CorruptionInfo(
            key="fixed_rectangle", name="10×18 dot rectangle (Zhao et al. 2014)", function=_fixed_rectangle,
            params=(
                fraction_param(0.2, "fraction of the images that get one rectangle"),
                ParamSpec(name="height", symbol="height (px)", kind="int", default=10,
                          doc="rectangle height in pixels", low=1, slider=(1, 64)),
                ParamSpec(name="width", symbol="width (px)", kind="int", default=18,
                          doc="rectangle width in pixels", low=1, slider=(1, 64)),
                CONTENT,
                SEED,
            ),
            summary="Paper 002 §3.3: a 10 × 18 rectangle of random black and white dots at a random "
                    "place (on 28 × 28 digits; clipped to smaller images)."),
        CorruptionInfo(
            key="salt_pepper", name="Salt & pepper", function=salt_and_pepper,
            params=(
                fraction_param(1.0, "fraction of the images that get noise"),
                DENSITY,
                SEED,
            ),
            summary="Independent pixels replaced by 0 or 255 in the chosen images."),
        CorruptionInfo(
            key="salt_pepper_exact", name="Salt & pepper, exact p % (Guan et al. 2019)",
            function=_salt_pepper_exact,
            params=(
                fraction_param(1.0, "fraction of the images that get noise (Guan et al. 2019: all)"),
                dataclasses.replace(DENSITY, symbol="p", doc="share of each image's pixels set to 0 or 255, "
                                                             "exactly (Guan et al. 2019: 5 % to 60 %)"),
                SEED,
            ),
            summary="Paper 003 §5.2: exactly p % of the pixels of each image set to 0 or 255 "
                    "(half each), at random places."),
        CorruptionInfo(
            key="laplace", name="Laplace noise (Guan et al. 2019)", function=laplace_noise,
            params=(
                SCALE,
                CLIP,
                fraction_param(1.0, "fraction of the images that get noise (Guan et al. 2019: all)"),
                SEED,
            ),
            summary="Paper 003 §5.2: Laplace(0, δ) noise added to every pixel, clipped at 0 "
                    "(values above 255 kept)."),
        CorruptionInfo(
            key="value_block", name="Block of value 550 (Guan et al. 2019)", function=value_block,
            params=(
                BLOCK_SIZE,
                VALUE,
                fraction_param(1.0, "fraction of the images that get a block (Guan et al. 2019: all)"),
                SEED,
            ),
            summary="Paper 003 §5.2: one b × b block filled with 550 per image at a random place "
                    "(an extreme outlier, above the data range)."),
        CorruptionInfo(
            key="black_square", name="Black square (Huang et al. 2016)", function=black_square,
            params=(
                SQUARE_SHARE,
                fraction_param(1.0, "fraction of the images that get a square"),
                SEED,
            ),
            summary="Paper 004 §5.3: one black square covering a share of each image, at a random place."),
        CorruptionInfo(
            key="missing_blocks", name="Missing blocks (NaN, Huang et al. 2016)", function=missing_blocks,
            params=(
                MISSING_SHARE,
                BLOCK,
                fraction_param(1.0, "fraction of the images with missing blocks"),
                SEED,
            ),
            summary="Paper 004 §2.7/§5.5: square blocks of entries removed (NaN, mask = missing); "
                    "only for missing-data methods (RR-Missing) — subspace methods refuse NaN.",
            missing_entries=True),
        CorruptionInfo(
            key="dot_images", name="Random-dot images", function=add_dot_images,
            params=(
                fraction_param(0.3, "number of dummy images added, as a fraction of the data set"),
                SEED,
            ),
            summary="Dummy images of random 0/255 pixels appended as whole-sample outliers "
                    "(Oh & Kwak 2016 §5.1)."),
        CorruptionInfo(
            key="natural_outliers", name="Natural outliers (LFW non-faces)",
            function=_natural_outliers,
            params=(
                fraction_param(0.3, "number of LFW non-face images added, as a fraction of the "
                                    "data set (at most 100 images are available)"),
                SEED,
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

    Every parameter is checked by the entry's :meth:`CorruptionInfo.validate` (each value by its
    :class:`~core.params.ParamSpec`, then a rule between values such as ``size_min <= size_max``)
    before any work.

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
    spec = corruption_info(key)
    return spec.function(data, **spec.validate(**params))


def corruption_info(key: str) -> CorruptionInfo:
    """The registry entry of ``key``; ParameterError listing the known keys when there is none."""
    try:
        return CORRUPTIONS[key]
    except (KeyError, TypeError):
        raise ParameterError(f"unknown corruption {key!r}; known: {', '.join(CORRUPTIONS)}") from None


def register_corruption(info: CorruptionInfo) -> CorruptionInfo:
    """Add ``info`` to :data:`CORRUPTIONS` (last in the app's list) and return it.

    For a script or a plug-in; a corruption that ships with the project is an entry of the tuple
    above instead. Register before the window is built: the data panel, the regression tab and the
    sweep dialog list :data:`CORRUPTIONS` when they are made (the sweep command and sessions read
    it on every call).

    Raises ParameterError when the key is taken or not lowercase letters, digits and ``_``, or when
    a parameter's default does not pass its own spec or the entry's check (naming it); TypeError
    when ``info`` is not a CorruptionInfo or its ``function`` is not callable."""
    if not isinstance(info, CorruptionInfo):
        raise TypeError(f"register_corruption takes a CorruptionInfo, got {type(info).__name__}")
    if not isinstance(info.key, str) or not info.key or not all(c.islower() or c.isdigit() or c == "_"
                                                                 for c in info.key):
        raise ParameterError(f"a corruption key is lowercase letters, digits and _, got {info.key!r}")
    if info.key in CORRUPTIONS:
        raise ParameterError(f"corruption {info.key!r} is already registered ({CORRUPTIONS[info.key].name})")
    if not callable(info.function):
        raise TypeError(f"corruption {info.key!r}: function must be callable, got {info.function!r}")
    info.validate()                     # every default passes its spec and the entry's check
    CORRUPTIONS[info.key] = info
    return info
