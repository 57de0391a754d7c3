"""The shipped concept lessons (issue 28): every file loads as a teacher's lesson should read, and
two fast ones run end to end headless with every asserted claim holding.

The claims themselves were chosen on corruption seeds 0–9, 11, 23, 57, 101 and checked on more
(``benchmarks/check_lessons.py``); the end-to-end runs here use seed 5 and 17.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from robust_subspace_lab.core import lessons

CONCEPTS = sorted((lessons.FILES / "concepts").glob("*.toml"))


def _concept_lessons():
    return [lesson for lesson in lessons.LESSONS if Path(lesson.path).parent.name == "concepts"]


def test_at_least_eight_concept_lessons_ship_and_each_is_in_the_menu():
    shipped = _concept_lessons()
    assert len(CONCEPTS) >= 8 and len(shipped) == len(CONCEPTS)
    listed = {lesson.key for group in lessons.by_concept().values() for lesson in group}
    for lesson in shipped:
        assert lesson.concept != lessons.PAPERS_CONCEPT, lesson.key
        assert lesson.key in listed
        assert lessons.get(lesson.key) is lesson


@pytest.mark.parametrize("path", CONCEPTS, ids=[p.stem for p in CONCEPTS])
def test_concept_lesson_loads_and_reads_as_a_lesson(path):
    lesson = lessons.load(path)
    assert lesson.title and lesson.teaches and "\n" not in lesson.teaches
    assert 2 <= len(lesson.steps) <= 5, "a lesson has 2–5 steps"
    assert lesson.steps[0].setup is not None, "the first step says what to load"
    asserted = [c for step in lesson.steps for c in step.claims if c.asserted]
    assert asserted, "a lesson asserts at least one claim"
    for step in lesson.steps:
        assert step.title and len(step.text.split()) >= 15, f"{lesson.key}: step {step.title!r} explains itself"
        for claim in step.claims:
            if not claim.asserted:       # only a paper's claim may be declared not to reproduce, with why
                assert claim.source == "paper" and claim.reason


def _check(key: str, seed: int):
    report = lessons.check(lessons.get(key), seed=seed)
    assert not report.errors, report.text()
    return report


def test_playground_lesson_runs_end_to_end_and_every_claim_holds():
    report = _check("weights-what-is-a-weight", seed=5)
    assert report.ok, report.text()
    assert [len(rs) for _, rs in report.results] == [len(s.claims) for s in report.lesson.steps]
    assert all(r.holds for r in report.claims)
    # the numbers behind "every outlier ends with a lower weight than every inlier" are in the line
    huber = report.results[1][1][0]
    assert huber.values["weight_outlier_max[1]"] < huber.values["weight_inlier_min[1]"]
    assert "✓" in huber.line


def test_regression_lesson_declares_the_papers_rae_y_as_not_reproducing():
    report = _check("regression-cleans-inputs", seed=17)
    assert report.ok, report.text()
    declared = [r for r in report.claims if not r.claim.asserted]
    assert len(declared) == 1 and not declared[0].holds and "does not reproduce" in declared[0].line
    ridge, rr = report.results[0][1], report.results[1][1]
    # ridge's inputs are the data; RR's cleaned inputs are much closer to the clean ones
    assert rr[0].values["cleaning_error[1]"] < 0.2 * ridge[0].values["input_error[1]"]
