"""Before Qt starts on Linux: are the system libraries its xcb platform plugin needs present?

When one is missing Qt aborts with "could not load the Qt platform plugin "xcb"", which does not
say which library is missing. :func:`missing_libraries` finds them first (``ldd`` on the plugin
and its Qt libraries, and a ``dlopen`` of the libraries Qt loads at run time), and
:func:`install_hint` gives the command that installs them on Debian/Ubuntu and on Fedora.
"""
from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

#: shared library → (Debian/Ubuntu package, Fedora package)
PACKAGES: dict[str, tuple[str, str]] = {
    "libGL.so.1": ("libgl1", "mesa-libGL"),
    "libEGL.so.1": ("libegl1", "mesa-libEGL"),
    "libOpenGL.so.0": ("libopengl0", "libglvnd-opengl"),
    "libxkbcommon.so.0": ("libxkbcommon0", "libxkbcommon"),
    "libxkbcommon-x11.so.0": ("libxkbcommon-x11-0", "libxkbcommon-x11"),
    "libfontconfig.so.1": ("libfontconfig1", "fontconfig"),
    "libfreetype.so.6": ("libfreetype6", "freetype"),
    "libglib-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libgthread-2.0.so.0": ("libglib2.0-0", "glib2"),
    "libdbus-1.so.3": ("libdbus-1-3", "dbus-libs"),
    "libX11.so.6": ("libx11-6", "libX11"),
    "libX11-xcb.so.1": ("libx11-xcb1", "libX11-xcb"),
    "libxcb.so.1": ("libxcb1", "libxcb"),
    "libxcb-cursor.so.0": ("libxcb-cursor0", "xcb-util-cursor"),
    "libxcb-icccm.so.4": ("libxcb-icccm4", "xcb-util-wm"),
    "libxcb-keysyms.so.1": ("libxcb-keysyms1", "xcb-util-keysyms"),
    "libxcb-shape.so.0": ("libxcb-shape0", "libxcb"),
    "libxcb-image.so.0": ("libxcb-image0", "xcb-util-image"),
    "libxcb-render-util.so.0": ("libxcb-render-util0", "xcb-util-renderutil"),
    "libxcb-util.so.1": ("libxcb-util1", "xcb-util"),
    "libxcb-randr.so.0": ("libxcb-randr0", "libxcb"),
    "libxcb-xfixes.so.0": ("libxcb-xfixes0", "libxcb"),
    "libxcb-sync.so.1": ("libxcb-sync1", "libxcb"),
    "libxcb-xkb.so.1": ("libxcb-xkb1", "libxcb"),
    "libxcb-shm.so.0": ("libxcb-shm0", "libxcb"),
    "libxcb-render.so.0": ("libxcb-render0", "libxcb"),
}

#: the Debian/Ubuntu and Fedora lines the README gives (every package of :data:`PACKAGES`)
DEBIAN_LINE = "sudo apt-get install " + " ".join(sorted({d for d, _ in PACKAGES.values()}))
FEDORA_LINE = "sudo dnf install " + " ".join(sorted({f for _, f in PACKAGES.values()}))

#: loaded by Qt with dlopen at run time, so ldd does not list them
_DLOPENED = ("libxcb-cursor.so.0", "libEGL.so.1", "libGL.so.1")

_NO_CHECK_PLATFORMS = ("offscreen", "minimal", "vnc", "linuxfb", "eglfs", "wayland")


def _qt_files() -> list[Path]:
    try:
        import PySide6
    except ImportError:
        return []
    qt = Path(PySide6.__file__).resolve().parent / "Qt"
    files = [qt / "plugins" / "platforms" / "libqxcb.so", qt / "lib" / "libQt6XcbQpa.so.6",
             qt / "lib" / "libQt6Gui.so.6", qt / "lib" / "libQt6Widgets.so.6"]
    return [f for f in files if f.exists()]


def _ldd_missing(files: list[Path]) -> set[str]:
    ldd = shutil.which("ldd")
    if not ldd or not files:
        return set()
    missing = set()
    for f in files:
        try:
            out = subprocess.run([ldd, str(f)], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for line in out.splitlines():
            if "not found" in line:
                missing.add(line.split("=>")[0].strip())
    return missing


def _loadable(name: str) -> bool:
    try:
        ctypes.CDLL(name)
        return True
    except OSError:
        return False


def needs_check(platform: str | None = None) -> bool:
    """True on Linux when Qt will use its xcb (X11) platform plugin."""
    if not sys.platform.startswith("linux"):
        return False
    platform = (platform if platform is not None else os.environ.get("QT_QPA_PLATFORM", "")).lower()
    return not platform.startswith(_NO_CHECK_PLATFORMS)


def missing_libraries() -> list[str]:
    """The shared libraries Qt's xcb plugin needs that this system lacks (sorted); empty when
    nothing is missing or the check cannot run."""
    missing = _ldd_missing(_qt_files())
    missing.update(name for name in _DLOPENED if not _loadable(name))
    return sorted(missing)


def install_hint(missing: list[str]) -> str:
    """A message naming the missing libraries and the commands that install them."""
    deb = sorted({PACKAGES[m][0] for m in missing if m in PACKAGES})
    fed = sorted({PACKAGES[m][1] for m in missing if m in PACKAGES})
    lines = ["robust-subspace-lab: Qt cannot open a window: these system libraries are missing:",
             "  " + ", ".join(missing)]
    if deb:
        lines += ["Install them with", f"  Debian/Ubuntu: sudo apt-get install {' '.join(deb)}",
                  f"  Fedora:        sudo dnf install {' '.join(fed)}"]
    lines += ["(Without a display, --screenshot runs offscreen and needs none of them.)"]
    return "\n".join(lines)


def check_display() -> str | None:
    """A message when a window cannot be opened (missing libraries, no display), else None."""
    if not needs_check():
        return None
    missing = missing_libraries()
    if missing:
        return install_hint(missing)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        return ("robust-subspace-lab: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
                "Run it in a desktop session, or use --screenshot PATH to run offscreen.")
    return None
