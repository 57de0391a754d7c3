"""The documentation's sources (issue 30): the API reference names every catalogue estimator
(its page is written from the catalogue at build time, docs/conf.py), the gallery has at least
ten examples on the shipped data, and CI builds the site with warnings as errors. The build
itself runs in .ci/run after the tests (sphinx-build -W), not here."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

from robust_subspace_lab.core import catalogue

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def _conf():
    spec = importlib.util.spec_from_file_location("docs_conf", DOCS / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_catalogue_page_lists_every_catalogue_estimator():
    text = _conf().catalogue_rst()
    assert len(catalogue.ESTIMATORS) == len(catalogue.methods(None)) > 20
    for info in catalogue.methods(None):
        cls = info.estimator
        assert f":class:`~{cls.__module__}.{cls.__name__}`" in text, cls
        assert f"``{info.key}``" in text, info.key
        # the recursive API reference documents it where it is defined: a public module of core
        assert cls.__module__.startswith("robust_subspace_lab.core."), cls.__module__
        assert not any(part.startswith("_") for part in cls.__module__.split(".")), cls.__module__
        assert not cls.__name__.startswith("_") and cls.__doc__, cls


def test_the_api_reference_covers_the_whole_core_recursively():
    api = (DOCS / "api" / "index.rst").read_text()
    assert re.search(r":recursive:\s*\n\s*\n\s*robust_subspace_lab\.core\s*$", api, re.M), api
    template = (DOCS / "_templates" / "autosummary" / "module.rst").read_text()
    assert ":members:" in template and ":recursive:" in template


def test_the_gallery_has_ten_examples_on_the_shipped_data():
    scripts = sorted((ROOT / "examples").glob("plot_*.py"))
    assert len(scripts) >= 10, scripts
    for path in scripts:
        text = path.read_text(encoding="utf-8")
        assert text.startswith('"""'), f"{path.name}: sphinx-gallery needs a docstring title"
        assert "matplotlib.pyplot" in text, f"{path.name} draws no figure"
        assert re.search(r"datasets\.(lfw_faces|mnist_digits)|synthetic_3d|DataSpec\(\"builtin\"", text), path.name
        assert "/work/shared" not in text and "fetch_" not in text and "urlopen" not in text, path.name


def test_every_guide_page_is_in_the_site():
    index = (DOCS / "index.rst").read_text()
    for page in sorted(p for p in (DOCS / "guide").glob("*.md") if not p.name.startswith("_")):
        assert f"guide/{page.stem}" in index, page.name


def test_ci_builds_the_docs_with_warnings_as_errors_after_the_tests():
    run = (ROOT / ".ci" / "run").read_text()
    tests = run.index("python -m pytest")
    docs = run.index("python -m sphinx -W")
    assert tests < docs


def test_the_lessons_page_lists_every_shipped_lesson():
    from robust_subspace_lab.core import lessons

    text = _conf().lessons_md()
    assert lessons.LESSONS
    for lesson in lessons.LESSONS:
        assert f"| `{lesson.key}` |" in text, lesson.key


def test_the_install_page_gives_the_system_check_lines():
    from robust_subspace_lab.app import system_check

    text = (DOCS / "guide" / "install.md").read_text(encoding="utf-8")
    assert system_check.DEBIAN_LINE in text and system_check.FEDORA_LINE in text
