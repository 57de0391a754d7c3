"""Paper presets: the data, corruption and methods that reproduce one table or figure of a paper.

A :class:`Preset` is plain data, so the app's *Presets* menu, the scripts in
``benchmarks/papers/`` and a notebook all read the same settings::

    from robust_subspace_lab.core import presets
    for p in presets.PRESETS:
        print(p.key, p.title)

Each paper's presets live in one module (``paper_000`` ... ``paper_004``) and are listed here
explicitly.
"""
from __future__ import annotations

from . import paper_000, paper_001, paper_002, paper_003, paper_004
from .preset import Preset


__all__ = ["Preset", "PRESETS", "get"]


def _collect() -> tuple[Preset, ...]:
    out: list[Preset] = []
    for module in (paper_000, paper_001, paper_002, paper_003, paper_004):
        out.extend(module.PRESETS)
    keys = [p.key for p in out]
    if len(set(keys)) != len(keys):
        raise ValueError(f"preset keys must be unique: {keys}")
    return tuple(out)


PRESETS: tuple[Preset, ...] = _collect()


def get(key: str) -> Preset:
    """The preset ``key``; KeyError naming the known keys otherwise."""
    for p in PRESETS:
        if p.key == key:
            return p
    raise KeyError(f"unknown preset {key!r}; known: {[p.key for p in PRESETS]}")
