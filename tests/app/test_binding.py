"""The installed Qt binding keeps the interpreter's singletons alive.

PySide6 6.12.0 on CPython < 3.12 drops a reference to None/True on every signal emit and every
Qt call that returns nothing; a long session then aborts with "Fatal Python error: none_dealloc".
pyproject.toml excludes that version; this test catches a binding with the bug however it got
installed.
"""
from __future__ import annotations

import sys

from PySide6 import QtCore


class _Emitter(QtCore.QObject):
    sig = QtCore.Signal()


def test_emits_and_void_calls_keep_reference_counts():
    obj = _Emitter()
    before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(1000):
        obj.sig.emit()
        obj.setObjectName("x")
    after = sys.getrefcount(None), sys.getrefcount(True)
    assert after[0] >= before[0] - 50 and after[1] >= before[1] - 50, (before, after)
