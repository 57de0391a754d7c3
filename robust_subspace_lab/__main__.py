"""``python -m robust_subspace_lab``: the desktop app (see :mod:`robust_subspace_lab.app.__main__`)."""
import sys

from robust_subspace_lab.app.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
