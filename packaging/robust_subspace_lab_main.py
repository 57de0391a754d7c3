"""Entry script of the PyInstaller bundle (``packaging/robust-subspace-lab.spec``).

The one place that names the app's import path: when the package moves (e.g. to
``robust_subspace_lab.app.__main__``), change the import below and nothing else.
"""
import sys

from robust_subspace_lab.app.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
