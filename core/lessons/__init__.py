"""Lessons: short guided sequences of steps whose claims are checked on the live result (issue 28).

A lesson is a TOML file a teacher can write by hand; the shipped ones are
``core/lessons/files/concepts/*.toml`` (concept lessons) and ``core/lessons/files/papers/*.toml``
(one per paper preset: :mod:`core.presets` is derived from them). The format::

    key = "weights-what-is-a-weight"      # unique; the CLI and the Lessons menu use it
    title = "What a weight is"
    concept = "Weights"                   # the Lessons menu groups by concept ("Papers" for presets)
    teaches = "Drag an outlier and watch its weight fall."      # one line, shown in the menu
    paper = ""                            # citation when the lesson reproduces a paper
    seed = 0                              # seed of every random draw of the data; --seed S overrides

    [[steps]]
    title = "One outlier"
    text = \"\"\"A few sentences; Unicode formulas allowed.\"\"\"
    look_at = "weights"                   # optional: a view to highlight (see LOOK_AT)
    action = { kind = "steps", n = 10 }   # "steps" (n iterations), "converge", "wait" (the user acts)

    [steps.setup]                         # optional after the first step: keep the previous setup
    task = "subspace"                     # "subspace" | "regression" | "playground"
    data = "builtin:faces"                # "builtin:NAME" | "toy:KEY" | "regression:SOURCE" | "playground:default"
    data_params = { }
    corruption = "rectangles"
    corruption_params = { fraction = 0.2, size_min = 0.5, size_max = 0.8, content = "dots" }
    methods = [ { key = "pca", params = { n_components = 5 } },
                { key = "pca-gm", params = { n_components = 5, p = 0.3 } } ]

    [[steps.claims]]
    text = "PCA-GM's eq. 14 error is below PCA's"
    check = "eq14_error[2] < eq14_error[1]"   # metric[column], numbers, + - * /, comparisons, and/or
    source = "paper"                      # "paper" or "ours"
    expect = "holds"                      # or "does-not-reproduce" (a paper claim, with its reason)
    reason = ""

Use::

    from robust_subspace_lab.core import lessons
    lesson = lessons.get("paper000-fig4")              # or lessons.load("my_lesson.toml")
    report = lessons.check(lesson, seed=3)             # headless: every step, every claim
    print(report.text())

The app's lesson panel runs the same :func:`evaluate` on its live columns (:class:`ColumnResult`).
"""
from __future__ import annotations

from pathlib import Path

from .check import CheckReport, LiveColumn, check, start_columns
from .claims import ClaimResult, evaluate
from .expr import CheckSyntaxError
from .loader import DATA_SOURCES, LOOK_AT, load, loads
from .measures import METRIC_SPECS, METRICS, ColumnResult
from .model import (ACTIONS, DOES_NOT_REPRODUCE, EXPECTS, HOLDS, SOURCES, TASKS, Action, Claim, Lesson,
                    LessonFileError, Preset, Setup, Step)

__all__ = ["Lesson", "Step", "Setup", "Action", "Claim", "Preset", "LessonFileError", "CheckSyntaxError",
           "load", "loads", "LESSONS", "get", "by_concept", "papers", "ColumnResult", "ClaimResult", "evaluate",
           "METRICS", "METRIC_SPECS", "CheckReport", "check", "start_columns", "LiveColumn", "LOOK_AT",
           "DATA_SOURCES", "TASKS", "ACTIONS", "SOURCES", "EXPECTS", "HOLDS", "DOES_NOT_REPRODUCE",
           "FILES", "PAPERS_CONCEPT", "resolve"]

#: where the shipped lesson files are
FILES = Path(__file__).resolve().parent / "files"
#: the concept of the lessons made from the paper presets
PAPERS_CONCEPT = "Papers"


def _shipped() -> tuple[Lesson, ...]:
    out = [load(p) for folder in ("concepts", "papers") for p in sorted((FILES / folder).glob("*.toml"))]
    keys = [lesson.key for lesson in out]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise LessonFileError(FILES, None, "key", f"lesson keys must be unique; repeated: {', '.join(dup)}")
    return tuple(out)


#: every shipped lesson: the concept lessons (by file name), then the paper lessons (by file name)
LESSONS: tuple[Lesson, ...] = _shipped()


def get(key: str) -> Lesson:
    """The shipped lesson ``key``; KeyError naming the known keys otherwise."""
    for lesson in LESSONS:
        if lesson.key == key:
            return lesson
    raise KeyError(f"unknown lesson {key!r}; known: {', '.join(lesson.key for lesson in LESSONS)}")


def resolve(key_or_path: str) -> Lesson:
    """A shipped lesson by key, or a lesson file by path (ending in ``.toml`` or existing).
    Raises KeyError (unknown key, known ones named) or :class:`LessonFileError`."""
    if key_or_path.endswith(".toml") or Path(key_or_path).is_file():
        return load(key_or_path)
    return get(key_or_path)


def by_concept() -> dict[str, list[Lesson]]:
    """The shipped lessons grouped by concept, concepts in order of first appearance (Papers last)."""
    out: dict[str, list[Lesson]] = {}
    for lesson in LESSONS:
        out.setdefault(lesson.concept, []).append(lesson)
    if PAPERS_CONCEPT in out:
        out[PAPERS_CONCEPT] = out.pop(PAPERS_CONCEPT)
    return out


def papers() -> tuple[Lesson, ...]:
    """The lessons made from the paper presets (``files/papers``), in file-name order."""
    folder = (FILES / "papers").resolve()
    return tuple(lesson for lesson in LESSONS if Path(lesson.path).resolve().parent == folder)
