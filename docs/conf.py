"""Sphinx configuration of the documentation site (``sphinx-build -W docs docs/_build/html``).

The API reference is generated from the numpydoc docstrings (autodoc + autosummary + numpydoc);
the page of catalogue estimators is written from :data:`robust_subspace_lab.core.catalogue.ESTIMATORS`
at every build (:func:`catalogue_rst`), so that it cannot drift from the catalogue. The examples
gallery (sphinx-gallery) runs every script of ``examples/`` on the shipped data.
"""
from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("MPLBACKEND", "Agg")
# numpydoc warns (a Python warning, not a Sphinx one) about the estimators' "State" section when
# autosummary reads a docstring; the pages show it (see _state_section below).
warnings.filterwarnings("ignore", message="Unknown section State", category=UserWarning)

project = "Robust Subspace Lab"
author = "Robust Subspace Lab maintainers"
copyright = "2026, Robust Subspace Lab maintainers"

try:
    from robust_subspace_lab import __version__ as release
except ImportError:                          # pragma: no cover - the docs need the package installed
    sys.exit("the documentation imports robust_subspace_lab: pip install -e \".[docs]\" first")
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip",
                    "auto_examples/*.md5", "auto_examples/*.pickle", "auto_examples/*.json",
                    "auto_examples/*.codeobj.json", "pypi_description.md", "guide/_lessons.md"]
templates_path = ["_templates"]
html_theme = "alabaster"
html_static_path: list[str] = []
html_title = f"Robust Subspace Lab {release}"

# --- API reference -----------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = False
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"                 # the numpydoc sections say the types
numpydoc_show_class_members = False        # autosummary lists members; numpydoc would list them twice
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

# Docstrings write absolute values and norms as |x|, which reStructuredText reads as a
# substitution reference: each one used in the core's docstrings stands for itself.
_BARS = ("E", "E₀", "x", "v_i", "T", "ŷ_i − y_i")
rst_prolog = "\n".join(f".. |{b}| replace:: \\|{b}\\|" for b in _BARS) + "\n"

myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]        # the moved README pages start at level-2 headings

# --- examples gallery --------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",           # every plot_*.py is executed
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "show_memory": False,
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "reset_modules": ("matplotlib",),
}


def catalogue_rst() -> str:
    """The reStructuredText of the catalogue page: one table row and one autosummary entry per
    estimator of :data:`robust_subspace_lab.core.catalogue.ESTIMATORS`, in the catalogue's order."""
    from robust_subspace_lab.core import catalogue

    lines = [
        ".. This file is written by docs/conf.py at every build from core.catalogue.ESTIMATORS: do not edit.",
        "",
        "Catalogue estimators",
        "====================",
        "",
        "Every method of :mod:`robust_subspace_lab.core.catalogue`, in the order the app lists them. Each "
        "is a scikit-learn estimator; ``catalogue.create(key, **params)`` makes one from its key.",
        "",
    ]
    for task, title in (("subspace", "Subspace methods"), ("regression", "Regression and classification")):
        infos = catalogue.methods(task)
        lines += [title, "-" * len(title), "", ".. list-table::", "   :header-rows: 1", "",
                  "   * - key", "     - class", "     - method", "     - family"]
        for info in infos:
            cls = info.estimator
            lines += [f"   * - ``{info.key}``", f"     - :class:`~{cls.__module__}.{cls.__name__}`",
                      f"     - {info.name}", f"     - {info.family}"]
        lines += [""]
    return "\n".join(lines)


def lessons_md() -> str:
    """The Markdown table of the shipped lessons (:data:`robust_subspace_lab.core.lessons.LESSONS`),
    by concept, included by guide/lessons.md."""
    from robust_subspace_lab.core import lessons

    def cell(text: str) -> str:
        return " ".join(str(text).split()).replace("|", "\\|")

    lines = ["<!-- Written by docs/conf.py at every build from core.lessons.LESSONS: do not edit. -->", ""]
    for concept, items in lessons.by_concept().items():
        lines += [f"**{cell(concept)}** ({len(items)})", "", "| key | title | teaches | steps |",
                  "| --- | --- | --- | --- |"]
        lines += [f"| `{x.key}` | {cell(x.title)} | {cell(x.teaches)} | {len(x.steps)} |" for x in items]
        lines += [""]
    return "\n".join(lines)


def _write(path: Path, text: str) -> None:
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def _write_catalogue(app) -> None:
    _write(HERE / "api" / "catalogue.rst", catalogue_rst())
    _write(HERE / "guide" / "_lessons.md", lessons_md())


def _skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's generated metadata-routing setters (``set_fit_request``, ...):
    they are scikit-learn's, not this library's, and their docstrings cite its own glossary."""
    if name.startswith("set_") and name.endswith("_request"):
        return True
    return None


def _state_section(app, what, name, obj, options, lines):
    """The estimators' ``State`` section (the fields of their :class:`~robust_subspace_lab.core.base.State`)
    is not a numpydoc section: shown as a rubric inside the Notes (before numpydoc reads the
    docstring, which would drop an unknown section)."""
    for i in range(len(lines) - 1):
        if lines[i].strip() == "State" and set(lines[i + 1].strip()) == {"-"}:
            indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
            body, j = [], i + 2
            while j < len(lines) and not (lines[j].strip() and j + 1 < len(lines)
                                          and set(lines[j + 1].strip()) == {"-"}
                                          and not lines[j].startswith(indent + " ")):
                line = lines[j]
                if line.startswith(indent) and not line.startswith(indent + " ") and " : " in line:
                    term, text = line.split(" : ", 1)       # "name : meaning" -> a definition list
                    body += [term, f"{indent}    {text}"]
                else:
                    body.append(line)
                j += 1
            lines[i:j] = [f"{indent}Notes", f"{indent}-----",
                          f"{indent}The fields of the state (:meth:`start` / :meth:`step`):", "", *body]
            return


def setup(app):
    _write_catalogue(app)               # before autosummary reads the sources
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-docstring", _state_section, priority=400)   # before numpydoc (500)
