"""LAPACK calls chosen for the desktop app's sake: the wrapper that releases the GIL.

The app's solvers run in threads of the same interpreter as its GUI thread; a LAPACK call whose
Python wrapper holds the GIL stops the window for its whole length. Which wrapper releases it is
not documented; measured here (numpy 2.4, scipy 1.17, one BLAS thread; "share" is the speed of a
pure-Python loop in another thread while the call runs in a loop, 1.0 = undisturbed):

============================================  ==========  ====  ========================
call                                          size        ms    share
============================================  ==========  ====  ========================
``numpy.linalg.qr(A)`` (reduced)              5000 × 60   13.3  0.76 (0.58 at 9216 × 30)
``scipy.linalg.qr(A, mode="economic")``       5000 × 60   6.8   0.99 (1.06 at 9216 × 30)
``numpy.linalg.qr``                           2000 × 784  130   0.60
``scipy.linalg.qr(mode="economic")``          2000 × 784  121   0.84
``numpy.linalg.eigh``, ``eigvalsh``, ``svd``  784         —     0.89–0.99
``scipy.linalg.eigh``, ``svd``, ``svdvals``   784         —     0.02–0.04
============================================  ==========  ====  ========================

So QR goes through scipy (also 1.1–2.8× faster: numpy copies the matrix twice around
``geqrf``/``orgqr``), eigenproblems and SVDs through numpy (see :mod:`core.linalg` for scipy's
partial eigensolver on small matrices). ``benchmarks/bench_gui.py --why`` and
``py-spy record --gil`` on the app show what holds the GIL.
"""
from __future__ import annotations

import numpy as np
from scipy import linalg

__all__ = ["orthonormal_columns"]


def orthonormal_columns(A: np.ndarray) -> np.ndarray:
    """Q of the thin QR factorisation ``A = QR`` (Householder, LAPACK ``geqrf`` + ``orgqr``) of A
    (m, n), m >= n or not: Q is (m, min(m, n)) with orthonormal columns spanning A's columns
    when A has full column rank; float32 stays float32. The GIL is released during the LAPACK
    calls (module docstring). A is not modified; raises ValueError for non-finite entries only
    as LAPACK's result would (NaN in Q), not by checking."""
    return linalg.qr(A, mode="economic", check_finite=False)[0]
