"""Process-wide settings in one place (issue 31, point 2): ``app.process.configure`` sets them and
undoes them; a MainWindow built and closed in a script leaves the process as it found it."""
from __future__ import annotations

import gc
import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from robust_subspace_lab.core import linalg, threads  # noqa: E402


#: (n_samples, n_features, k): the faces, the digits, a folder of 500 images of 64 x 64
_SHAPES = ((100, 625, 5), (5000, 784, 5), (500, 4096, 10))


def _process_state():
    return {"switch interval": sys.getswitchinterval(), "gc thresholds": gc.get_threshold(),
            "gc enabled": gc.isenabled(), "routes": [linalg.subspace_route(*shape) for shape in _SHAPES],
            "partial eigh bound": linalg.PARTIAL_EIGH_MAX,
            "BLAS threads": threads.current_blas_threads(), "frozen objects": gc.get_freeze_count()}


def test_configure_sets_the_app_settings_and_restore_puts_back_the_process(qapp):
    from robust_subspace_lab.app import memory
    from robust_subspace_lab.app.process import configure

    before = _process_state()
    assert before["gc enabled"]
    restore = configure()
    try:
        assert not gc.isenabled() and memory._collectors
        assert gc.get_freeze_count() > before["frozen objects"]     # the modules' objects, frozen
        assert threads.current_blas_threads() == 1
    finally:
        restore()
    assert _process_state() == before
    assert not memory._collectors


def test_building_and_closing_a_window_leaves_the_process_unchanged(qtbot):
    from robust_subspace_lab.app.main_window import MainWindow

    before = _process_state()
    win = MainWindow(speed="max")
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: all(c.runner.states for c in win.subspace.columns) and not win.busy, timeout=15000)
    assert _process_state() == before
    win.close()
    assert _process_state() == before
