"""Where the files shipped with the project are: ``assets/`` (the built-in digits, the icons),
installed as the package data ``robust_subspace_lab.core.assets``."""
from __future__ import annotations

from pathlib import Path

from .errors import DataError

__all__ = ["asset_path"]


def asset_path(name: str) -> Path:
    """Path of a file shipped under ``assets/`` (installed as the package data ``core.assets``;
    also found in a source checkout and in the desktop bundle). Raises :class:`DataError` naming
    the file when it is missing."""
    from importlib import resources

    try:
        path = Path(str(resources.files("robust_subspace_lab.core.assets") / name))
        if path.is_file():
            return path
    except ModuleNotFoundError:
        pass
    path = Path(__file__).resolve().parent.parent / "assets" / name   # a source checkout
    if not path.is_file():
        raise DataError(f"shipped file {name!r} is missing from this installation "
                        f"(looked in the package data and in {path.parent}); reinstall the project")
    return path
