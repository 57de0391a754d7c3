"""The start-up check that names missing Qt system libraries (no Qt window is opened here)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from robust_subspace_lab.app import system_check as sc

README = Path(__file__).resolve().parents[2] / "README.md"


def test_readme_lists_every_package_the_check_knows():
    text = README.read_text(encoding="utf-8")
    assert sc.DEBIAN_LINE.replace("sudo ", "") in text
    assert sc.FEDORA_LINE.replace("sudo ", "") in text


def test_hint_names_the_libraries_and_both_install_commands():
    hint = sc.install_hint(["libxcb-cursor.so.0", "libxkbcommon-x11.so.0"])
    assert "libxcb-cursor.so.0, libxkbcommon-x11.so.0" in hint
    assert "sudo apt-get install libxcb-cursor0 libxkbcommon-x11-0" in hint
    assert "sudo dnf install libxkbcommon-x11 xcb-util-cursor" in hint


def test_offscreen_and_other_systems_are_not_checked(monkeypatch):
    assert not sc.needs_check("offscreen")
    monkeypatch.setattr(sys, "platform", "win32")
    assert not sc.needs_check("")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the xcb check is for Linux")
def test_missing_library_found_by_ldd(monkeypatch):
    """ldd's "not found" lines are what the check reports (here: a faked ldd output)."""
    class Done:
        stdout = "\tlibxcb-icccm.so.4 => not found\n\tlibc.so.6 => /lib/libc.so.6 (0x1)\n"

    monkeypatch.setattr(sc.subprocess, "run", lambda *a, **k: Done())
    monkeypatch.setattr(sc.shutil, "which", lambda name: "/usr/bin/ldd")
    monkeypatch.setattr(sc, "_qt_files", lambda: [Path("libqxcb.so")])
    monkeypatch.setattr(sc, "_loadable", lambda name: name != "libxcb-cursor.so.0")
    assert sc.missing_libraries() == ["libxcb-cursor.so.0", "libxcb-icccm.so.4"]


def test_main_refuses_with_the_hint_instead_of_a_qt_abort(monkeypatch, capsys):
    from robust_subspace_lab.app.__main__ import main
    monkeypatch.setattr("robust_subspace_lab.app.__main__._running_qapplication", lambda: None)
    monkeypatch.setattr(sc, "needs_check", lambda platform=None: True)
    monkeypatch.setattr(sc, "missing_libraries", lambda: ["libxcb-cursor.so.0"])
    assert main([]) == 3
    assert "libxcb-cursor.so.0" in capsys.readouterr().err
