"""What a package index and a user's fresh environment see: the SPDX licence in the installed
metadata, ``--version``, the type-hint marker, and Dask as an optional extra (issue 30)."""
from __future__ import annotations

import re
import subprocess
import sys
from importlib import metadata, resources
from pathlib import Path

import pytest

try:                                   # Python >= 3.11
    import tomllib
except ModuleNotFoundError:            # Python 3.10
    import tomli as tomllib

from robust_subspace_lab.app.__main__ import main

ROOT = Path(__file__).resolve().parent.parent


def test_installed_metadata_carries_the_spdx_license_expression():
    meta = metadata.metadata("robust-subspace-lab")
    assert meta["License-Expression"] == "MIT"
    assert "LICENSE" in (meta.get_all("License-File") or [])
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert not any(c.startswith("License ::") for c in meta.get_all("Classifier") or [])  # PEP 639: not both
    extras = set(meta.get_all("Provides-Extra") or [])
    assert {"distributed", "docs", "test"} <= extras
    requires = meta.get_all("Requires-Dist") or []
    assert not [r for r in requires if r.startswith("dask") and "extra ==" not in r], requires


def test_version_flag_prints_the_installed_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"robust-subspace-lab {metadata.version('robust-subspace-lab')}"


def test_the_package_ships_its_type_hint_marker():
    assert resources.files("robust_subspace_lab").joinpath("py.typed").is_file()


def test_the_library_and_the_sweep_command_import_without_dask():
    code = ("import sys; sys.modules['dask'] = sys.modules['distributed'] = None\n"
            "import robust_subspace_lab.core.sweep, robust_subspace_lab.core.sweep_io, "
            "robust_subspace_lab.core.catalogue, robust_subspace_lab.app.__main__")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr


def test_dask_without_the_distributed_extra_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)          # as if the extra were not installed
    out = tmp_path / "rows.csv"
    args = ["sweep", "--data", "faces", "--size", "12x12", "--method", "pca", "--seeds", "1",
            "--dask", "tcp://127.0.0.1:1", "--out", str(out)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert 'pip install "robust-subspace-lab[distributed]"' in err and "--dask" in err
    assert not out.exists() or not out.read_text().strip().count("\n")     # no result row written


def test_the_package_description_has_no_relative_link_or_image():
    """A package index shows the long description without the repository: a relative image or
    link there is broken (pyproject's ``readme`` is a short description for that reason)."""
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    text = (ROOT / cfg["readme"]).read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)]+)\)", text) + re.findall(r"<img[^>]+src=\"([^\"]+)\"", text)
    assert all(t.startswith(("https://", "http://", "#")) for t in targets), targets
    assert metadata.metadata("robust-subspace-lab")["Description-Content-Type"] == "text/markdown"
