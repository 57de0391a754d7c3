"""New arrays of the data's size whose first write costs the same per byte at any size.

numpy advises the kernel to back every array of 4 MB or more with transparent huge pages
(``madvise(MADV_HUGEPAGE)``). Where the kernel's ``transparent_hugepage/defrag`` is ``madvise`` (or
``always``), the page fault of each first write into such memory then compacts memory
synchronously whenever no free 2 MB page is at hand, and that cost grows faster than the array
and varies from run to run: measured on a 2-core, 24 GB machine shared with other jobs (CPU
seconds, one process), writing X/2 into a fresh array took 1.4 s then 0.10 s at 10,000 × 4096
float64 and 3.5 s then 0.4 s at 40,000 × 4096, against 0.19 and 0.65–0.84 s into the memory of
:func:`fresh` (and the same 0.07 / 0.23 s in both for a second write; reads alike). In the methods'
starts and steps this made the growth from 10,000 to 40,000 rows 5–7× instead of 4× (PCP's start
and step, the NMF family's starts: ``benchmarks/results_scale.md``).

The library cannot rely on an environment variable read when numpy is imported
(``NUMPY_MADVISE_HUGEPAGE``) nor on a private numpy switch, so the arrays of the data's size that
the methods keep in their states (an ALM's dual, sparse part and low-rank part, the NMF family's
residual turned entry weights) are allocated here instead, from anonymous memory mapped with
Python's :mod:`mmap` and advised *against* huge pages (``MADV_NOHUGEPAGE``, Linux): the first
write then faults in 4 kB pages, linear in the size under any ``transparent_hugepage`` setting.
Temporaries are avoided instead (work by blocks of rows, ``out=``). Below :data:`FRESH_MIN_BYTES`
(numpy's own threshold) and where :mod:`mmap` has no anonymous private mapping (Windows), plain
``numpy.zeros``.
"""
from __future__ import annotations

import mmap

import numpy as np

#: From this many bytes on, :func:`fresh` maps its own memory (numpy advises huge pages from 4 MiB).
FRESH_MIN_BYTES = 1 << 22

_PRIVATE: int | None = getattr(mmap, "MAP_PRIVATE", None)
_ANONYMOUS: int | None = getattr(mmap, "MAP_ANONYMOUS", None)
_NO_HUGE = getattr(mmap, "MADV_NOHUGEPAGE", None)


def fresh(shape, dtype=np.float64) -> np.ndarray:
    """A new C-ordered array of zeros of ``shape`` and ``dtype``, writable, whose memory is mapped
    when first written in small pages (see the module docstring): the same values and flags as
    ``numpy.zeros(shape, dtype)``. It owns its memory through its base (an :class:`mmap.mmap`),
    which is unmapped when the last array using it goes; it pickles and copies as any array."""
    dtype = np.dtype(dtype)
    shape = tuple(int(s) for s in np.atleast_1d(shape)) if np.ndim(shape) else (int(shape),)
    count = int(np.prod(shape, dtype=np.int64))
    nbytes = count * dtype.itemsize
    if nbytes == 0 or nbytes < FRESH_MIN_BYTES or _PRIVATE is None or _ANONYMOUS is None:
        return np.zeros(shape, dtype=dtype)
    buf = mmap.mmap(-1, nbytes, flags=_PRIVATE | _ANONYMOUS)
    if _NO_HUGE is not None:
        try:
            buf.madvise(_NO_HUGE)
        except OSError:             # a kernel without transparent huge pages: nothing to advise against
            pass
    return np.frombuffer(buf, dtype=dtype, count=count).reshape(shape)


def fresh_like(a: np.ndarray, dtype=None) -> np.ndarray:
    """:func:`fresh` of ``a``'s shape and dtype (or ``dtype``)."""
    return fresh(a.shape, a.dtype if dtype is None else dtype)
