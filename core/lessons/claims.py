"""Evaluating a step's claims on the live columns, the same for the app's lesson panel and the
headless check (:func:`evaluate`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from . import expr
from .measures import Cache, ColumnResult, value
from .model import HOLDS, Claim

__all__ = ["ClaimResult", "evaluate"]


@dataclass(frozen=True)
class ClaimResult:
    """A claim measured on the live result.

    Attributes
    ----------
    claim : the :class:`~core.lessons.model.Claim`.
    holds : the check is true on the measured numbers (the mark: ✓ or ✗).
    values : ``"metric[column]"`` → the number measured (None: not available for that column).
    ok : the result is what the lesson declares: an asserted claim holds, or a claim declared
        ``"does-not-reproduce"`` still does not (``holds`` False). A declared non-reproducing
        claim that holds is ``ok`` False but fails no check: the line says "now reproduces".
    line : ``"✓ PCA-GM's eq. 14 error is below PCA's (795.6 < 874.9) [paper]"``; a declared
        non-reproducing claim adds ``" — does not reproduce: <reason>"`` (or ``" — now
        reproduces (declared: <reason>)"``).
    """

    claim: Claim
    holds: bool
    values: dict = field(default_factory=dict)
    ok: bool = True
    line: str = ""

    @property
    def fails(self) -> bool:
        """An asserted claim that does not hold (what makes ``--check`` exit 1)."""
        return self.claim.asserted and not self.holds


def evaluate(claims: Sequence[Claim], columns: Sequence[ColumnResult]) -> list[ClaimResult]:
    """Each claim checked on ``columns`` (column 1 is ``columns[0]``). Pure: computes the metrics
    (:mod:`core.lessons.measures`, each once per column) and nothing else; a metric a column does
    not have, or a column that is not there, reads as None ("n/a") and its comparisons are false."""
    cache = Cache()
    values: dict[tuple[str, int], float | None] = {}

    def get(name: str, col: int) -> float | None:
        if (name, col) not in values:
            values[name, col] = value(name, columns[col - 1], cache) if 1 <= col <= len(columns) else None
        return values[name, col]

    out = []
    for claim in claims:
        tree = claim.tree or expr.parse(claim.check)
        holds = expr.evaluate_tree(tree, get)
        used = {f"{n}[{c}]": get(n, c) for n, c in expr.references(tree)}
        mark = "✓" if holds else "✗"
        line = f"{mark} {claim.text} ({expr.render(tree, get)}) [{claim.source}]"
        if claim.expect == HOLDS:
            ok = holds
        else:
            ok = not holds
            line += (f" — now reproduces (declared as not reproducing: {claim.reason})" if holds
                     else f" — does not reproduce: {claim.reason}")
        out.append(ClaimResult(claim=claim, holds=holds, values=used, ok=ok, line=line))
    return out
