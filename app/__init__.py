"""Robust Subspace Lab desktop app (PySide6 + pyqtgraph).

Run ``python -m robust_subspace_lab`` or ``robust-subspace-lab``. The app draws what :mod:`core` computes and
holds no numerical method itself.

Modules
-------
``main_window``  the window: data panel, run controls, method columns, frame timer
``column``       one method column: method/parameter controls, views, iteration scrubber
``runner``       a column's run: estimator, kept states, jobs in the thread pool (GUI-thread logic)
``worker``       the QRunnable that starts/steps an estimator off the GUI thread
``views``        pyqtgraph views of one ``core.views.Snapshot``
``params``       controls built from ``core.params.ParamSpec``
``data_panel``   data set, image size and corruption controls
``__main__``     command line (``--folder``, ``--screenshot PATH --steps N``, ...)
"""

import os as _os

# One BLAS thread per solver: every column already runs in its own thread, and on the small
# matrices of a column (n_samples ≲ 1000) multi-threaded OpenBLAS mostly spins; measured on the
# built-in faces, one PCA-GM step takes 11 ms with the default threads and 0.6 ms with one. Only
# effective if numpy is not imported yet (as with ``python -m robust_subspace_lab``); the user's setting wins.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")
