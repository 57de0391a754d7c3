"""Corruption models. Each returns the corrupted data with the clean data and what changed.

Intensities on the 0–255 grey-level scale. Every function takes a ``seed`` and is reproducible;
none modifies its input.

Within-sample corruption (the image keeps its place, some pixels are replaced):

* :func:`occlude_rectangles` — one rectangle per chosen image; paper 000 (PCA-GM) §5.1
  "outlier type 1" (rectangles of random 0/255 dots) and paper 001 (RPCA-OM) §5.2
  (20 % of the images, a block of 1/4 of the image: ``size_range=(0.5, 0.5)``).
* :func:`salt_and_pepper` — 0/255 pixels: independent per pixel (``exact=False``, key
  ``"salt_pepper"``) or exactly ``round(p · pixels)`` per image (``exact=True``, key
  ``"salt_pepper_exact"``, paper 003 (Truncated CauchyNMF) §5.2).
* :func:`laplace_noise` — additive Laplace noise of scale δ, paper 003 §5.2 (clipped at 0).
* :func:`value_block` — one b × b block of value 550 per image, paper 003 §5.2.
* :func:`black_square` — one black square covering a share of the image, paper 004 (Robust
  Regression) §5.3.
* :func:`missing_blocks` — square blocks of missing entries (NaN in ``X``, ``mask`` True), for the
  missing-data methods of paper 004 §2.7 / §5.5. Subspace methods refuse NaN data.

Whole-sample outliers (images appended at the end of the data set):

* :func:`add_dot_images` — paper 000 §5.1 "outlier type 2": dummy images of random 0/255 pixels.
* :func:`add_natural_outliers` — real images of something else (e.g. LFW non-faces).

:data:`CORRUPTIONS` lists them, each a :class:`CorruptionInfo` with a
:class:`~core.params.ParamSpec` per parameter, so that the app can build its controls without
knowing them; :func:`corrupt` applies one by key. What a user chose, a key and its values, is a
:class:`core.session.CorruptionSpec`. A new corruption is a function written with the public
helpers of :mod:`.result` (:func:`check_data`, :func:`choose`, :data:`SEED`, ...) and one
:class:`CorruptionInfo` (docs/architecture.md, "How to add a corruption").

Which samples are hit: ``fraction`` in [0, 1] selects ``round(fraction * n)`` samples (Python's
``round``, halves to even), drawn without replacement with ``np.random.default_rng(seed)``.

Range of the values: the clean data are grey levels 0–255 and most corruptions stay in that
range. Two of paper 003's protocols deliberately leave it: :func:`laplace_noise` can exceed 255
(only the negative side is clipped, and only with ``clip=True``) and :func:`value_block` writes
550. :func:`missing_blocks` writes NaN.

Sources (cited by number above): paper 000, J. Oh & N. Kwak, *Generalized mean for robust principal
component analysis*, Pattern Recognition 2016; paper 001, F. Nie, J. Yuan & H. Huang, *Optimal mean
robust principal component analysis*, ICML 2014; paper 002, Q. Zhao, D. Meng & Z. Xu, *Robust sparse
principal component analysis*, Sci China Inf Sci 2014; paper 003, N. Guan, T. Liu, Y. Zhang, D. Tao &
L. S. Davis, *Truncated Cauchy non-negative matrix factorization*, IEEE TPAMI 2019; paper 004,
D. Huang, R. Cabral & F. De la Torre, *Robust regression*, IEEE TPAMI 2016.

Modules (everything public is imported here, so ``corruption.corrupt``, ``corruption.CORRUPTIONS``,
``corruption.Corrupted`` and every function above are reached from this package):

* :mod:`.result` — :class:`Corrupted` and the parameters, checks and draws the corruptions share
  (:data:`SEED`, :data:`FRACTION`, :func:`fraction_param`, :func:`check_data`, :func:`n_hit`,
  :func:`choose`, :func:`row_chunks`, :func:`labels_copy`, :func:`outlier_labels`, :func:`images_word`);
* :mod:`.noise` — :func:`no_corruption`, :func:`salt_and_pepper`, :func:`laplace_noise`;
* :mod:`.occlusion` — :func:`occlude_rectangles`, :func:`value_block`, :func:`black_square`,
  :func:`missing_blocks`;
* :mod:`.outliers` — :func:`add_dot_images`, :func:`add_natural_outliers`;
* :mod:`.registry` — :class:`CorruptionInfo`, :data:`CORRUPTIONS`, :data:`DEFAULT_CORRUPTION`,
  :func:`corruption_info`, :func:`register_corruption`, :func:`as_imageset`, :func:`corrupt`.

``core.corruption.CorruptionSpec`` was the registry entry's name until it was renamed
:class:`CorruptionInfo` (the user's choice keeps the name :class:`core.session.CorruptionSpec`);
the old name still gives :class:`CorruptionInfo` with a DeprecationWarning and goes in 1.0.
"""
from __future__ import annotations

import warnings
from typing import Any

from .noise import laplace_noise, no_corruption, salt_and_pepper
from .occlusion import black_square, missing_blocks, occlude_rectangles, value_block
from .outliers import add_dot_images, add_natural_outliers
from .registry import (CORRUPTIONS, DEFAULT_CORRUPTION, CorruptionInfo, as_imageset, corrupt, corruption_info,
                       register_corruption)
from .result import (FRACTION, SEED, Corrupted, check_data, choose, fraction_param, images_word, labels_copy,
                     n_hit, outlier_labels, row_chunks)

__all__ = [
    "Corrupted", "CorruptionInfo", "CORRUPTIONS", "DEFAULT_CORRUPTION", "corrupt", "as_imageset",
    "corruption_info", "register_corruption",
    "SEED", "FRACTION", "fraction_param", "check_data", "n_hit", "choose", "row_chunks", "labels_copy",
    "outlier_labels", "images_word",
    "no_corruption", "occlude_rectangles", "salt_and_pepper", "laplace_noise", "value_block",
    "black_square", "missing_blocks", "add_dot_images", "add_natural_outliers",
]


def __getattr__(name: str) -> Any:
    if name == "CorruptionSpec":      # the registry entry's old name (the user's choice is core.session's)
        warnings.warn("core.corruption.CorruptionSpec is now core.corruption.CorruptionInfo (the registry entry); "
                      "core.session.CorruptionSpec is the user's choice of one", DeprecationWarning, stacklevel=2)
        return CorruptionInfo
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
