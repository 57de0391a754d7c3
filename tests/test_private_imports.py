"""No module of core/ or app/ imports another module's private name (issue 31, item 6).

A helper that a second module needs is public: it has a name without a leading underscore and a
docstring, and it is part of its module's API. Read from the source with :mod:`ast`, for every
module of core/ and app/:

* ``from M import _name`` is refused, whatever M is (ours or a third party's), except a package
  importing its own private submodule (``from . import _wnls`` inside ``core.methods``);
* a private module (a path component ``_name``, e.g. ``core.methods._greedy``) is private to the
  package that holds it: only modules inside that package (or its subpackages) import from it
  (``core._readonly`` is core's; ``app.views`` has no private module that the app outside it reads).
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "robust_subspace_lab"
FOLDERS = ("core", "app")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules() -> list[tuple[str, Path]]:
    """(dotted module name under the package, path) of every module of core/ and app/."""
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found.append((".".join(parts), path))
    return found


def _is_our_module(dotted: str) -> bool:
    """``dotted`` (relative to the package: ``core.methods._wnls``) is a module or package of ours."""
    base = ROOT.joinpath(*dotted.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _imports(module: str, path: Path, source: str):
    """(line, imported module, names or None) of every import in ``module``; our modules are given
    relative to the package (``core.base``), a third party's absolutely with a leading ``!``."""
    package = module.split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(ast.parse(source, str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + (node.module.split(".") if node.module else []))
            elif node.module == PACKAGE or node.module.startswith(PACKAGE + "."):
                target = node.module[len(PACKAGE) + 1:]
            else:
                target = "!" + node.module
            yield node.lineno, target, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(PACKAGE + "."):
                    yield node.lineno, alias.name[len(PACKAGE) + 1:], None
                else:
                    yield node.lineno, "!" + alias.name, None


def violations(module: str, path: Path, source: str | None = None) -> list[str]:
    """What ``module`` (at ``path``; its text ``source``, read from ``path`` when None) imports
    that is private to another module, one line each."""
    source = path.read_text(encoding="utf-8") if source is None else source
    where = f"{path.relative_to(ROOT)}"
    own_package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for line, target, names in _imports(module, path, source):
        ours = not target.startswith("!")
        parts = target.lstrip("!").split(".")
        for i, part in enumerate(parts):
            holder = parts[:i]                         # the package the private module belongs to
            if _private(part) and not (ours and own_package[:len(holder)] == holder):
                found.append(f"{where}:{line}: imports the private module {'.'.join(parts[:i + 1])}")
                break
        for name in names or ():
            if not _private(name):
                continue
            submodule = f"{target}.{name}"
            if ours and own_package[:len(target.split("."))] == target.split(".") and _is_our_module(submodule):
                continue                               # a private submodule of its own package
            found.append(f"{where}:{line}: imports the private name {name} from {target.lstrip('!')}")
    return found


def test_no_module_imports_another_modules_private_name():
    found = [v for module, path in _modules() for v in violations(module, path)]
    assert not found, "helpers another module needs must be public:\n" + "\n".join(found)


@pytest.mark.parametrize("source, bad", [
    ("from .result import _check_data\n", True),            # a sibling's private helper
    ("from sklearn.utils.validation import _num_samples\n", True),   # a third party's
    ("from ..views._common import View\n", True),           # another package's private module
    ("import sklearn.utils._param_validation\n", True),
    ("from ._greedy import Greedy\n", False),                # its own package's private module
    ("from .. import _readonly\n", False),                   # a private module of an enclosing package
    ("from . import _wnls\n", False),                        # its own private submodule
    ("from .result import Corrupted\n", False),
])
def test_the_rule_refuses_private_names_and_keeps_package_private_modules(source, bad):
    """The check itself, on one-line modules placed in core/methods (a package with the private
    modules _greedy and _wnls, under core, which has _readonly)."""
    path = ROOT / "core" / "methods" / "probe.py"
    assert bool(violations("core.methods.probe", path, source)) is bad
