"""The command line: ``--screenshot PATH --steps N`` saves a PNG of the window and exits 0."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6 import QtGui

from robust_subspace_lab.app.__main__ import main

ROOT = Path(__file__).resolve().parents[2]


def test_screenshot_in_process(qapp, tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), "--steps", "2"]) == 0
    img = QtGui.QImage(str(out))
    assert not img.isNull()
    assert img.width() >= 1200 and img.height() >= 800
    assert "PCA-GM: iteration 2" in capsys.readouterr().out


def test_screenshot_fails_cleanly_on_a_bad_folder(qapp, tmp_path, capsys):
    out = tmp_path / "shot.png"
    assert main(["--screenshot", str(out), "--folder", str(tmp_path / "missing")]) != 0
    assert "does not exist" in capsys.readouterr().err
    assert not out.exists()


def test_unknown_method_is_refused(qapp, capsys):
    assert main(["--methods", "pca,nope", "--screenshot", "x.png"]) == 2
    assert "nope" in capsys.readouterr().err


def test_screenshot_subprocess(tmp_path):
    """``python -m robust_subspace_lab`` as a user runs it (own QApplication, offscreen set by the app)."""
    out = tmp_path / "sub.png"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    proc = subprocess.run([sys.executable, "-m", "app", "--screenshot", str(out), "--steps", "1",
                           "--methods", "pca-gm,rpca-om"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 10000
