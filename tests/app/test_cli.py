"""The command line: ``--screenshot PATH --steps N`` saves a PNG of the window and exits 0."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

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


@pytest.mark.slow          # a process of its own (~2.5 s); CI's second run has it
def test_screenshot_subprocess(tmp_path):
    """``python -m robust_subspace_lab`` as a user runs it (own QApplication, offscreen set by the app)."""
    out = tmp_path / "sub.png"
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    proc = subprocess.run([sys.executable, "-m", "robust_subspace_lab", "--screenshot", str(out), "--steps", "1",
                           "--methods", "pca-gm,rpca-om"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 10000


# ------------------------------------------------------------------------------ sweep subcommand
SWEEP_ARGS = ["sweep", "--data", "faces", "--size", "20x20", "--corruption", "rectangles",
              "--method", "pca-gm:max_iter=30", "--grid", "p=0.1,0.5,1.0", "--seeds", "3"]


def _run_sweep_cli(tmp_path, name, extra=()):
    """``python -m robust_subspace_lab.app sweep ...`` in a fresh process; the CSV's rows."""
    import csv

    out = tmp_path / name
    code = ("import sys; from robust_subspace_lab.app.__main__ import main; rc = main(sys.argv[1:]); "
            "assert not [m for m in sys.modules if m.startswith(('PySide6', 'pyqtgraph'))], 'Qt imported'; "
            "sys.exit(rc)")
    proc = subprocess.run([sys.executable, "-c", code, *SWEEP_ARGS, "--out", str(out), *extra],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "9/9 runs done" in proc.stderr
    with open(out, newline="") as f:
        return list(csv.DictReader(f))


def test_sweep_subcommand_writes_one_row_per_run(tmp_path):
    rows = _run_sweep_cli(tmp_path, "results.csv")
    assert len(rows) == 9
    cols = list(rows[0])
    assert cols[:6] == ["method", "p", "seed", "n_iter", "converged", "seconds"]
    assert {"reconstruction_error", "outlier_auc"} <= set(cols)
    assert sorted({r["p"] for r in rows}) == ["0.1", "0.5", "1.0"]
    assert len({r["seed"] for r in rows}) == 3
    assert all(r["reconstruction_error"] and r["converged"] in ("True", "False") for r in rows)


@pytest.mark.slow          # starts a Dask scheduler and workers (~5 s); CI's second run has it
def test_sweep_subcommand_on_a_dask_scheduler_writes_the_same_rows(tmp_path):
    import csv

    from robust_subspace_lab.core import sweep_io as sw

    distributed = pytest.importorskip("distributed")
    args = sw.build_parser().parse_args(SWEEP_ARGS[1:] + ["--out", "-"])     # the same sweep, in process
    local_sweep = sw.build_sweep(sw.parse_data(args.data, args.size), sw.parse_corruption(args.corruption),
                                 [sw.parse_method(m) for m in args.method], [sw.parse_grid(g) for g in args.grid],
                                 args.seeds)
    sw.write_csv(tmp_path / "local.csv", sw.run_sweep(local_sweep), local_sweep.swept_names)
    with open(tmp_path / "local.csv", newline="") as f:
        local = list(csv.DictReader(f))
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = _run_sweep_cli(tmp_path, "dask.csv", ["--dask", cluster.scheduler_address])
    strip = lambda rows: [{k: v for k, v in r.items() if k != "seconds"} for r in rows]  # noqa: E731
    assert strip(remote) == strip(local)


def test_sweep_subcommand_refuses_a_bad_grid_before_running(tmp_path, capsys):
    out = tmp_path / "bad.csv"
    assert main(["sweep", "--method", "pca-gm", "--grid", "p=0.5,3", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "p must be" in err and "3" in err
    assert not out.exists()
    assert main(["sweep", "--method", "pca-gm", "--corruption", "rectangles:nope=1", "--out", str(out)]) == 2
    assert "nope" in capsys.readouterr().err
