"""Hostile sweeps (issue 29): every bad value is an argparse-style message before any run (never a
traceback), the output path is checked first, rows reach the CSV as runs finish (an interrupt
keeps them), an over-large grid is refused unless allowed, ``--jobs`` is capped, a run where
every row failed exits non-zero, and ``--dask`` checks the address and never hangs."""
from __future__ import annotations

import os
import socket
import threading

import pytest

from robust_subspace_lab.core import sweep as sw, sweep_exec, sweep_io
from robust_subspace_lab.core.errors import ParameterError


def _cli(capsys, *args):
    """``(exit code, stderr)`` of the sweep command run in this process."""
    try:
        code = sweep_io.cli(list(args))
    except SystemExit as exc:            # argparse's own refusals
        code = exc.code
    return code, capsys.readouterr().err


BASE = ("--data", "toy:line", "--method", "pca")


@pytest.mark.parametrize("args, says", [
    (("--jobs", "0"), "--jobs"),
    (("--jobs", "two"), "--jobs"),
    (("--seeds", "0"), "--seeds"),
    (("--base-seed", "-1"), "--base-seed"),
    (("--size", "100000x100000"), "--size"),
    (("--size", "0x5"), "--size"),
    (("--grid", "n_components=inf"), "n_components must be an integer"),
    (("--grid", "n_components=50.0"), "n_components must be an integer"),
    (("--grid", "n_components=1" + "0" * 400), "n_components"),
    (("--grid", "p=inf"), "none of the methods"),
    (("--method", "pca-gm", "--grid", "p=inf"), "p must be finite"),
    (("--method", "pca-gm", "--grid", "p=1e999"), "p must be finite"),
    (("--method", "pca-gm:max_iter=1e3"), "max_iter must be an integer"),
    (("--grid", "n_components"), "--grid must look like"),
    (("--corruption", "nope"), "unknown corruption"),
    (("--dask", "http://127.0.0.1:8786"), "--dask must look like"),
    (("--dask", "tcp://127.0.0.1"), "--dask must look like"),
    (("--dask", "tcp://127.0.0.1:99999"), "--dask must look like"),
])
def test_bad_values_are_one_line_messages_before_any_run(capsys, tmp_path, args, says):
    code, err = _cli(capsys, *BASE, "--out", str(tmp_path / "r.csv"), *args)
    assert code == 2 and says in err and "Traceback" not in err
    assert "error:" in err and "runs with" not in err          # refused before any run


def test_the_output_path_is_checked_before_any_run(capsys, tmp_path):
    code, err = _cli(capsys, *BASE, "--out", str(tmp_path / "missing" / "r.csv"))
    assert code == 2 and "does not exist" in err and "runs with" not in err
    (tmp_path / "dir.csv").mkdir()
    code, err = _cli(capsys, *BASE, "--out", str(tmp_path / "dir.csv"))
    assert code == 2 and "not a regular file" in err


def test_a_grid_over_the_cap_is_refused_unless_allowed(capsys, tmp_path):
    values = ",".join(str(k) for k in range(1, 2))
    code, err = _cli(capsys, *BASE, "--grid", f"n_components={values}", "--seeds", "10001",
                     "--out", str(tmp_path / "r.csv"))
    assert code == 2 and "10,001 runs" in err and "--max-runs 10001" in err
    code, err = _cli(capsys, *BASE, "--seeds", "3", "--max-runs", "2", "--out", str(tmp_path / "r.csv"))
    assert code == 2 and "3 runs" in err
    huge = sweep_io.build_sweep(*_toy(), [sweep_io.parse_method("pca-gm")],
                                [("p", [str(0.001 * i) for i in range(1, 1001)])], n_seeds=1000,
                                max_runs=10 ** 6)
    assert huge.n_runs == 10 ** 6                  # counted, not listed


def _toy():
    return sweep_io.parse_data("toy:line"), sweep_io.parse_corruption("none")


def test_n_runs_counts_what_tasks_lists():
    s = sweep_io.build_sweep(*_toy(), [sweep_io.parse_method("pca-gm"), sweep_io.parse_method("pca")],
                             [("p", ["0.2", "0.5"]), ("max_iter", ["3", "4", "5"])], n_seeds=2)
    assert s.n_runs == len(s.tasks()) == 2 * (2 * 3 + 1)       # pca has neither: one point


def test_jobs_are_capped_at_the_cpus():
    cpus = os.cpu_count() or 1
    assert sweep_exec.local_jobs(100_000) == cpus and sweep_exec.local_jobs(-1) == cpus
    assert sweep_exec.local_jobs(1) == 1
    for bad in (0, 1.5, True):
        with pytest.raises(ParameterError, match="jobs"):
            sweep_exec.local_jobs(bad)


def test_rows_reach_the_csv_as_runs_finish_and_an_interrupt_keeps_them(capsys, tmp_path, monkeypatch):
    out = tmp_path / "r.csv"
    seen = []
    real_update = sw.Progress.update

    def update(self, n=1):
        real_update(self, n)
        seen.append(sweep_io.read_csv(out))         # the file already holds every finished row
        if self.done == 2:
            raise KeyboardInterrupt                  # as Ctrl-C during the third run
    monkeypatch.setattr(sw.Progress, "update", update)
    code, err = _cli(capsys, *BASE, "--seeds", "5", "--out", str(out))
    assert code == 130 and "interrupted" in err and "Traceback" not in err
    assert [len(rows) for rows in seen] == [1, 2]
    assert len(sweep_io.read_csv(out)) == 2


def test_the_csv_is_rewritten_when_a_row_brings_new_columns(tmp_path):
    stream = sweep_io.CsvStream(tmp_path / "r.csv", ["p"])
    stream.add({"method": "a", "p": 0.1, "seed": 1, "metric_a": 1.0, "error": ""})
    stream.add({"method": "b", "seed": 2, "metric_b": 2.0, "error": ""})
    rows = sweep_io.read_csv(tmp_path / "r.csv")
    assert [r.get("metric_a") for r in rows] == [1.0, None] and rows[1]["metric_b"] == 2.0
    stream.finish(list(reversed(stream.rows)))
    assert [r["method"] for r in sweep_io.read_csv(tmp_path / "r.csv")] == ["b", "a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv"]


def test_a_sweep_where_every_run_failed_exits_non_zero(capsys, tmp_path):
    code, err = _cli(capsys, "--data", "toy:line", "--method", "pca:n_components=5", "--seeds", "2",
                     "--out", str(tmp_path / "r.csv"))
    assert code == 1 and "every run failed" in err
    assert len(sweep_io.read_csv(tmp_path / "r.csv")) == 2          # the rows say why


@pytest.mark.slow          # waits for the sweep's time limit (~2.4 s); CI's second run has it
def test_a_scheduler_that_accepts_but_never_answers_is_given_up(monkeypatch, capsys, tmp_path):
    pytest.importorskip("distributed")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(4)
    held = []
    threading.Thread(target=lambda: held.append(server.accept()), daemon=True).start()
    monkeypatch.setattr(sweep_exec, "DASK_CONNECT_SECONDS", 1.0)
    port = server.getsockname()[1]
    code, err = _cli(capsys, *BASE, "--seeds", "1", "--dask", f"tcp://127.0.0.1:{port}",
                     "--out", str(tmp_path / "r.csv"))
    server.close()
    assert code == 1 and "did not answer" in err and "Traceback" not in err


def test_a_saved_sweep_with_bad_fields_is_a_parameter_error():
    good = sweep_io.build_sweep(*_toy(), [sweep_io.parse_method("pca-gm")], [("p", ["0.2"])], n_seeds=2).to_dict()
    assert sw.Sweep.from_dict(good).n_runs == 2
    for bad in ({**good, "methods": 3}, {**good, "n_seeds": 1e300}, {**good, "n_seeds": 10 ** 9},
                {**good, "base_seed": -1}, {**good, "methods": [{"key": "pca-gm", "grid": {"p": [float("inf")]}}]},
                {**good, "methods": [{"key": "pca", "grid": {"n_components": [50.0]}}]}, {"data": 1}):
        with pytest.raises(ParameterError):
            sw.Sweep.from_dict(bad)
