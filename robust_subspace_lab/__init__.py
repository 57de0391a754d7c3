"""Robust Subspace Lab: watch robust subspace methods down-weight outliers, one iteration at a time.

Two subpackages:

* :mod:`robust_subspace_lab.core`: the numerical library (estimators, data, corruptions, metrics,
  presets); numpy, scipy, scikit-image and scikit-learn; never imports Qt.
* :mod:`robust_subspace_lab.app`: the desktop application (PySide6 + pyqtgraph), a view of core.

``python -m robust_subspace_lab`` (or the ``robust-subspace-lab`` command) opens the app. In the
repository the two subpackages are the top-level folders ``core/`` and ``app/`` (setuptools
``package-dir``), so nothing named ``core`` or ``app`` is installed at the top of site-packages.
"""
from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("robust-subspace-lab")
except PackageNotFoundError:          # a source checkout that was never installed
    __version__ = "0+unknown"

__all__ = ["__version__"]
