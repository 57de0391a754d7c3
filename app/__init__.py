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

BLAS threads are set by policy (:mod:`core.threads`: all cores for one running solver, shared
when several run, one thread on small data), applied by :mod:`app.worker` whenever the number of
running solver jobs changes; a user's ``OMP_NUM_THREADS`` / ``OPENBLAS_NUM_THREADS`` caps it.
"""
