"""The lesson command line (issue 28): --list-lessons, --lesson KEY --check [--seed S] and its exit codes."""
from __future__ import annotations

import subprocess
import sys

from robust_subspace_lab.app.__main__ import main
from robust_subspace_lab.core import lessons

VALID = '''\
key = "cli-toy"
title = "A line with outliers"
concept = "Weights"
teaches = "PCA-GM converges on the 2-D line toy."

[[steps]]
title = "Fit"
text = "Run PCA-GM on the line with outliers."
action = { kind = "converge" }

[steps.setup]
task = "subspace"
data = "toy:line"
methods = [ { key = "pca-gm", params = { n_components = 1, p = 0.3 } } ]

[[steps.claims]]
text = "PCA-GM converges within 50 iterations"
check = "converged[1] == 1 and iterations[1] <= 50"
'''


def test_list_lessons_prints_every_key(capsys):
    assert main(["--list-lessons"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in out] == [lesson.key for lesson in lessons.LESSONS]


def test_bad_key_and_broken_file_exit_2_without_traceback(capsys, tmp_path):
    assert main(["--lesson", "no-such-lesson", "--check"]) == 2
    err = capsys.readouterr().err
    assert "unknown lesson 'no-such-lesson'" in err and "Traceback" not in err
    broken = tmp_path / "broken.toml"
    broken.write_text(VALID.replace('kind = "converge"', 'kind = "run"'), encoding="utf-8")
    assert main(["--lesson", str(broken), "--check"]) == 2
    err = capsys.readouterr().err
    assert f"{broken}, line 9: steps[1].action.kind: expected one of steps, converge, wait; got 'run'" in err
    assert main(["--check"]) == 2 and "need --lesson" in capsys.readouterr().err


def test_check_exit_codes(capsys, tmp_path):
    good = tmp_path / "good.toml"
    good.write_text(VALID, encoding="utf-8")
    assert main(["--lesson", str(good), "--check", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "(seed 5)" in out and "OK" in out
    failing = tmp_path / "failing.toml"
    failing.write_text(VALID.replace("iterations[1] <= 50", "iterations[1] > 1000"), encoding="utf-8")
    assert main(["--lesson", str(failing), "--check", "--seed", "5"]) == 1
    out = capsys.readouterr().out
    assert "✗ PCA-GM converges within 50 iterations" in out and "FAILED" in out


def test_check_imports_no_qt(tmp_path):
    """A fresh process: --check runs the shipped toy lesson of paper 000 Fig. 1 without Qt."""
    code = ("import sys\nfrom robust_subspace_lab.app.__main__ import main\n"
            "rc = main(['--lesson', 'paper000-fig1', '--check', '--seed', '13'])\n"
            "print('qt loaded:', 'PySide6' in sys.modules)\nsys.exit(rc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "qt loaded: False" in done.stdout and "Lesson paper000-fig1" in done.stdout
