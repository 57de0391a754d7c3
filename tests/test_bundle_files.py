"""The desktop-bundle files are in place and agree with each other (fast; no build).

The build itself (minutes) is checked by ``packaging/smoke_test.sh``, not by pytest.
"""
import configparser
import os
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest

try:                                   # Python >= 3.11
    import tomllib
except ModuleNotFoundError:            # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
PACKAGING = ROOT / "packaging"
SPEC = PACKAGING / "robust-subspace-lab.spec"
ENTRY = PACKAGING / "robust_subspace_lab_main.py"
INSTALLER = PACKAGING / "install-desktop-entry.sh"
SCRIPTS = [PACKAGING / "build.sh", PACKAGING / "smoke_test.sh", PACKAGING / "check_fresh_debian.sh", INSTALLER]
DESKTOP = ROOT / "assets" / "robust-subspace-lab.desktop"
ICON_SIZES = (16, 32, 48, 64, 128, 256)
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def _console_script() -> tuple[str, str]:
    """(command name, "module:function") of the app's console script in pyproject.toml."""
    ((name, target),) = PYPROJECT["project"]["scripts"].items()
    return name, target


class _Recorder:
    """Stands in for PyInstaller's Analysis/PYZ/EXE/COLLECT and records the arguments."""

    calls: dict = {}

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
        self.binaries, self.datas, self.pure, self.scripts = [], list(kwargs.get("datas", [])), [], []
        _Recorder.calls[type(self).__name__] = self


def _run_spec(monkeypatch):
    """Execute the spec with PyInstaller's classes replaced by recorders; return its namespace."""
    collected = []

    def collect_data_files(package, includes=None, **kwargs):
        collected.append((package, list(includes or [])))
        return []

    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_data_files = collect_data_files
    monkeypatch.setitem(sys.modules, "PyInstaller", types.ModuleType("PyInstaller"))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils", types.ModuleType("PyInstaller.utils"))
    monkeypatch.setitem(sys.modules, "PyInstaller.utils.hooks", hooks)
    _Recorder.calls = {}
    ns = {"__name__": "__main__", "SPECPATH": str(PACKAGING),
          **{n: type(n, (_Recorder,), {}) for n in ("Analysis", "PYZ", "EXE", "COLLECT")}}
    exec(compile(SPEC.read_text(), str(SPEC), "exec"), ns)
    ns["_collected"] = collected
    return ns


def test_packaging_files_exist_and_scripts_are_executable():
    assert SPEC.is_file() and ENTRY.is_file()
    for script in SCRIPTS:
        assert script.is_file(), script
        assert os.access(script, os.X_OK), f"{script.name} is not executable"


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shell_scripts_parse(script):
    result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_entry_script_calls_the_console_script_target():
    _, target = _console_script()
    module, func = target.split(":")
    text = ENTRY.read_text()
    assert f"from {module} import {func}" in text
    assert f"sys.exit({func}())" in text
    compile(text, str(ENTRY), "exec")


def test_spec_names_the_entry_script_and_the_data(monkeypatch):
    ns = _run_spec(monkeypatch)
    analysis = _Recorder.calls["Analysis"]
    (scripts,) = analysis.args
    assert [Path(s).resolve() for s in scripts] == [ENTRY.resolve()]
    # the analysis reads build.sh's staged install (package-dir is not something PyInstaller reads)
    assert Path(analysis.kwargs["pathex"][0]).resolve() == (ROOT / "build" / "stage").resolve()
    assert 'RSL_STAGE="$STAGE"' in (PACKAGING / "build.sh").read_text()
    assert _Recorder.calls["EXE"].kwargs["name"] == _console_script()[0]
    assert _Recorder.calls["COLLECT"].kwargs["name"] == _console_script()[0]

    # The built-in data go where importlib.resources.files(<package>) finds them: the folder of the
    # package that pyproject.toml maps onto assets/.
    package_dirs = PYPROJECT["tool"]["setuptools"]["package-dir"]
    (package,) = [pkg for pkg, folder in package_dirs.items() if folder == "assets"]
    datas = {Path(src).relative_to(ROOT).as_posix(): dest for src, dest in analysis.kwargs["datas"]}
    for pattern in PYPROJECT["tool"]["setuptools"]["package-data"][package]:
        subdir = pattern.rpartition("/")[0]          # "icons/*.png" lands in core/assets/icons
        want = package.replace(".", "/") + (f"/{subdir}" if subdir else "")
        assert datas.get(f"assets/{pattern}") == want, (pattern, datas)
        assert list((ROOT / "assets").glob(pattern)), pattern
    for src in datas:
        assert list(ROOT.glob(src)), f"the spec's data {src} matches no file"

    # scikit-image's LFW subset (core.datasets.lfw_faces) is collected, and is where skimage reads it.
    skimage_data = [inc for pkg, inc in ns["_collected"] if pkg == "skimage.data"]
    assert skimage_data and "lfw_subset.npy" in skimage_data[0]
    import skimage.data
    assert (Path(skimage.data.__file__).parent / "lfw_subset.npy").is_file()


def test_spec_bundles_the_package_metadata_for_the_version(monkeypatch, tmp_path):
    """Help ▸ About reads the version with importlib.metadata: the staged install's .dist-info
    goes into the bundle under its own name (where importlib.metadata looks for it)."""
    dist_info = tmp_path / "robust_subspace_lab-9.8.7.dist-info"
    dist_info.mkdir()
    (dist_info / "METADATA").write_text("Name: robust-subspace-lab\nVersion: 9.8.7\n")
    monkeypatch.setenv("RSL_STAGE", str(tmp_path))
    _run_spec(monkeypatch)
    analysis = _Recorder.calls["Analysis"]
    assert (str(dist_info), dist_info.name) in analysis.kwargs["datas"]
    assert analysis.kwargs["pathex"] == [str(tmp_path)]


def test_readme_names_the_fresh_debian_check_and_it_uses_the_readme_line():
    script = (PACKAGING / "check_fresh_debian.sh").read_text()
    assert "packaging/check_fresh_debian.sh" in (ROOT / "README.md").read_text()
    # the line it runs is read from the README (not a copy that could drift)
    assert "grep -m1 '^sudo apt-get install ' \"$ROOT/README.md\"" in script


def test_spec_keeps_the_xcb_and_offscreen_platforms(monkeypatch):
    dropped = _run_spec(monkeypatch)["_dropped"]
    platforms = "PySide6/Qt/plugins/platforms/"
    assert not dropped(platforms + "libqxcb.so")
    assert not dropped(platforms + "libqoffscreen.so")
    assert not dropped("PySide6/Qt/plugins/xcbglintegrations/libqxcb-glx-integration.so")
    assert not dropped("PySide6/Qt/lib/libQt6XcbQpa.so.6")
    assert not dropped("PySide6/Qt/lib/libQt6Widgets.so.6")
    assert dropped(platforms + "libqwayland.so")
    assert dropped("PySide6/Qt/plugins/wayland-shell-integration/libxdg-shell.so")
    # the xcb plugin's system libraries stay (the bundle must open a window where they are missing)
    for lib in ("libxcb-cursor.so.0", "libxkbcommon-x11.so.0", "libglib-2.0.so.0", "libfontconfig.so.1",
                "libdbus-1.so.3", "pillow.libs/libharfbuzz-fb49c9fc.so.0.61450.0"):
        assert not dropped(lib), lib
    assert dropped("PySide6/Qt/plugins/platformthemes/libqgtk3.so")
    assert dropped("libcairo.so.2") and dropped("libpango-1.0.so.0")


def test_desktop_file_has_the_required_keys():
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str                     # desktop-entry keys are case-sensitive
    parser.read_string(DESKTOP.read_text(encoding="utf-8"))
    entry = parser["Desktop Entry"]
    command, _ = _console_script()
    assert entry["Type"] == "Application"
    assert entry["Name"] and entry["Comment"]
    assert entry["Exec"] == command
    assert entry["Icon"] == command
    assert entry["Terminal"] == "false"
    assert {"Education", "Science", "Math"} <= set(filter(None, entry["Categories"].split(";")))
    assert entry["Categories"].endswith(";")


@pytest.mark.parametrize("size", ICON_SIZES)
def test_icons_exist_at_every_size(size):
    from PIL import Image

    command, _ = _console_script()
    path = ROOT / "assets" / "icons" / f"{command}-{size}.png"
    with Image.open(path) as im:
        assert im.format == "PNG"
        assert im.size == (size, size)
        assert im.mode == "RGBA"
        alpha = im.getchannel("A")
        assert alpha.getextrema() == (0, 255)    # transparent corners, an opaque picture


def _fake_bundle(folder: Path) -> Path:
    """The layout build.sh leaves in dist/robust-subspace-lab/, with a stand-in executable."""
    command, _ = _console_script()
    folder.mkdir(parents=True)
    exe = folder / command
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    shutil.copy2(INSTALLER, folder)
    shutil.copy2(DESKTOP, folder)
    shutil.copytree(ROOT / "assets" / "icons", folder / "icons")
    return exe


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_desktop_entry_installer_round_trip(tmp_path):
    exe = _fake_bundle(tmp_path / "my bundle")
    data_home = tmp_path / "share"
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    installer = [str(exe.parent / INSTALLER.name)]
    subprocess.run(installer, env=env, check=True, capture_output=True)

    command, _ = _console_script()
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str
    parser.read(data_home / "applications" / f"{command}.desktop", encoding="utf-8")
    assert parser["Desktop Entry"]["Exec"] == f'"{exe}"'      # works without a PATH change
    assert parser["Desktop Entry"]["Icon"] == command
    for size in ICON_SIZES:
        assert (data_home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{command}.png").is_file()

    subprocess.run(installer + ["--uninstall"], env=env, check=True, capture_output=True)
    assert not list(data_home.rglob("*.desktop")) and not list(data_home.rglob(f"{command}.png"))


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_desktop_entry_installer_refuses_a_path_exec_cannot_hold(tmp_path):
    exe = _fake_bundle(tmp_path / "50% off")
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "share")}
    result = subprocess.run([str(exe.parent / INSTALLER.name)], env=env, capture_output=True, text=True)
    assert result.returncode == 1 and "Exec=" in result.stderr
    assert not (tmp_path / "share" / "applications").exists()
