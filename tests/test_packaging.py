"""The install carries every package and the built-in data (a user's machine has only the install)."""
from pathlib import Path

try:                                   # Python >= 3.11
    import tomllib
except ModuleNotFoundError:            # Python 3.10, the lowest requires-python allows
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def test_pyproject_lists_every_package():
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(cfg["packages"])
    on_disk = {".".join(p.parent.relative_to(ROOT).parts)
               for top in ("core", "app") for p in (ROOT / top).rglob("__init__.py")}
    assert on_disk <= listed, f"packages missing from pyproject.toml: {sorted(on_disk - listed)}"
    assert cfg["package-dir"]["core.assets"] == "assets"
    for pattern in cfg["package-data"]["core.assets"]:
        assert list((ROOT / "assets").glob(pattern)), pattern


def test_builtin_digits_ship_under_one_megabyte():
    size = (ROOT / "assets" / "mnist-digits-5000.npz").stat().st_size
    assert size < 1_000_000, size
