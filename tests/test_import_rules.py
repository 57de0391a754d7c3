"""The import rules of the package, checked with import-linter on the installed layout.

The repo's folders core/ and app/ become robust_subspace_lab.core and robust_subspace_lab.app only
through setuptools' package-dir, which import-linter (grimp) does not read: the test lays the
package out in a temporary folder first, as pip installs it (robust_subspace_lab/{core,app}, the
package-dir mapping of pyproject.toml), and runs import-linter's command (with this interpreter) with the contracts of
pyproject.toml there.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def staged(tmp_path_factory) -> Path:
    """The package laid out by pyproject.toml's package-dir (sources only, no data)."""
    try:
        import tomllib
    except ModuleNotFoundError:        # Python 3.10
        import tomli as tomllib
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    target = tmp_path_factory.mktemp("installed")
    for package, folder in sorted(cfg["package-dir"].items()):
        dest = target.joinpath(*package.split("."))
        if package in cfg.get("package-data", {}):
            continue                   # data only (assets)
        shutil.copytree(ROOT / folder, dest, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return target


def _run(args: list[str], staged: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(staged)}
    return subprocess.run(args, cwd=staged, env=env, capture_output=True, text=True, timeout=300)


def test_import_linter_contracts_hold(staged):
    # import-linter's command run by this interpreter (not ``lint-imports`` from PATH: the tests
    # also run with a virtualenv's python whose bin/ is not on PATH)
    cli = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    res = _run([sys.executable, "-c", cli, "--config", str(ROOT / "pyproject.toml")], staged)
    assert res.returncode == 0, res.stdout + res.stderr
    assert " kept, 0 broken" in res.stdout, res.stdout


def test_importing_core_loads_no_qt(staged):
    code = ("import sys, robust_subspace_lab.core, robust_subspace_lab.core.catalogue as c; c.methods(None);"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph')"
            " or m.startswith('robust_subspace_lab.app')); print(bad); sys.exit(1 if bad else 0)")
    res = _run([sys.executable, "-c", code], staged)
    assert res.returncode == 0, res.stdout + res.stderr


def test_no_import_cycle_in_core(staged):
    """No module of core imports itself back, directly or through others (strongly connected
    components of grimp's import graph, all of size 1)."""
    code = r"""
import sys, grimp
g = grimp.build_graph("robust_subspace_lab")
core = sorted(m for m in g.modules if m.startswith("robust_subspace_lab.core"))
adj = {m: [d for d in g.find_modules_directly_imported_by(m) if d.startswith("robust_subspace_lab.core")]
       for m in core}
index, low, stack, on, cycles = {}, {}, [], set(), []
def visit(v, counter=[0]):
    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
    for w in adj[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            cycles.append(sorted(comp))
sys.setrecursionlimit(10000)
for m in core:
    if m not in index:
        visit(m)
print(len(core), cycles)
sys.exit(1 if cycles else 0)
"""
    res = _run([sys.executable, "-c", code], staged)
    assert res.returncode == 0, res.stdout + res.stderr
