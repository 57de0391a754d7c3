"""The catalogue says which objectives are not monotone by design (MethodInfo.objective_note):
the objective chart shows the note as a caption, so that a rising curve is not read as a failure."""
from __future__ import annotations

from robust_subspace_lab.core import catalogue

#: objectives that rise or zigzag by design (issue 28; see each estimator's docstring)
NOT_MONOTONE = ("pcp", "outlier-pursuit", "tc-nmf", "cauchy-nmf", "rlda", "rspca", "pca-l1", "gpower")
#: majorise-minimise methods whose objective never increases (their docstrings prove it)
MONOTONE = ("pca-gm", "rpca-om", "l2p-pca-om", "nmf")


def test_not_monotone_objectives_say_why_in_one_line():
    for key in NOT_MONOTONE:
        note = catalogue.get(key).objective_note
        assert note and "\n" not in note and "by design" in note, key
    for key in MONOTONE:
        assert catalogue.get(key).objective_note == "", key


def test_a_note_is_short_enough_for_a_caption():
    notes = [m.objective_note for m in catalogue.methods(None) if m.objective_note]
    assert notes and all(len(n) <= 80 for n in notes)
