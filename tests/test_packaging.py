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
    on_disk = {"robust_subspace_lab." + ".".join(p.parent.relative_to(ROOT).parts)
               for top in ("core", "app") for p in (ROOT / top).rglob("__init__.py")}
    assert on_disk <= listed, f"packages missing from pyproject.toml: {sorted(on_disk - listed)}"
    dirs = cfg["package-dir"]
    assert dirs["robust_subspace_lab.core"] == "core" and dirs["robust_subspace_lab.app"] == "app"
    assert dirs["robust_subspace_lab.core.assets"] == "assets"
    # nothing named core or app at the top of site-packages
    assert all(name.startswith("robust_subspace_lab") for name in listed), listed
    for pattern in cfg["package-data"]["robust_subspace_lab.core.assets"]:
        assert list((ROOT / "assets").glob(pattern)), pattern


def test_builtin_digits_ship_under_one_megabyte():
    size = (ROOT / "assets" / "mnist-digits-5000.npz").stat().st_size
    assert size < 1_000_000, size
