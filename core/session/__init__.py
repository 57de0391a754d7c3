"""The session model, free of Qt: what data, which corruption, which runs.

A script, a sweep and the app describe and reproduce the same work through these plain values.
"""
from .spec import BUILTIN, FOLDER, TOY, CorruptionSpec, DataSpec, prepare

__all__ = ["BUILTIN", "FOLDER", "TOY", "CorruptionSpec", "DataSpec", "prepare"]
