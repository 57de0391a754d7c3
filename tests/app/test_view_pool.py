"""Views built ahead while the window is idle (app.view_pool): a preset's new columns take them
instead of building twenty pyqtgraph views while six columns run."""
from __future__ import annotations

from PySide6 import QtWidgets

from robust_subspace_lab.app.view_pool import ViewPool

WAIT = 60000


class _Cheap(QtWidgets.QWidget):
    built = 0

    def __init__(self):
        super().__init__()
        type(self).built += 1


def test_the_pool_fills_only_while_idle_and_refills_after_a_take(qtbot):
    owner = QtWidgets.QWidget()
    qtbot.addWidget(owner)
    idle = {"now": False}
    pool = ViewPool([_Cheap], idle=lambda: idle["now"], parent=owner, per_class=2)
    owner.show()
    qtbot.wait(300)
    assert pool.spares == {_Cheap: 0}                    # busy: nothing built
    idle["now"] = True
    qtbot.waitUntil(lambda: pool.spares == {_Cheap: 2}, timeout=WAIT)
    view = pool.take(_Cheap)
    assert isinstance(view, _Cheap) and view.isHidden() and view.parent() is owner
    assert pool.spares == {_Cheap: 1} and pool.take(QtWidgets.QLabel) is None
    qtbot.waitUntil(lambda: pool.spares == {_Cheap: 2}, timeout=WAIT)
    assert _Cheap.built == 3


def test_a_presets_new_columns_take_their_views_from_the_pool(qtbot, make_window):
    win = make_window()
    pool = win.subspace.view_pool
    qtbot.waitUntil(lambda: all(n == pool.per_class for n in pool.spares.values()), timeout=WAIT)
    spares = {id(v) for views in pool._spares.values() for v in views}
    assert win.apply_preset("paper000-fig4")
    queue = win.subspace.build_queue
    qtbot.waitUntil(lambda: len(win.subspace.columns) == 6 and not queue.pending, timeout=WAIT)
    new = [v for col in win.subspace.columns[2:] for v in col.view_list if type(v) in pool.spares]
    assert len(new) == 4 * len(pool.spares)
    assert all(id(v) in spares for v in new)             # none built during the preset
    assert all(v.isVisible() for col in win.subspace.columns[2:] for v in col.views())
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    qtbot.waitUntil(lambda: all(n == pool.per_class for n in pool.spares.values()), timeout=WAIT)


def test_the_pool_waits_until_the_window_has_been_idle_for_a_while(qtbot):
    """A view is built only once idle() has held for QUIET_S: not in the frames and first paints
    that follow a data change (any busy moment starts the wait again). A fake clock; the pool's
    own timer is not let run."""
    from robust_subspace_lab.app.view_pool import QUIET_S
    owner = QtWidgets.QWidget()
    qtbot.addWidget(owner)
    owner.show()
    state = {"idle": True, "t": 100.0}
    pool = ViewPool([_Cheap], idle=lambda: state["idle"], parent=owner, per_class=3, clock=lambda: state["t"])

    def tick(t, idle=True):
        state["t"], state["idle"] = t, idle
        pool._fill_one()
        return pool.spares[_Cheap]

    assert tick(100.0) == 0                        # idle from now on
    assert tick(100.0 + 0.9 * QUIET_S) == 0        # not long enough
    assert tick(100.0 + 1.01 * QUIET_S) == 1       # quiet for QUIET_S: one view
    assert tick(100.0 + 1.1 * QUIET_S) == 2
    assert tick(101.0, idle=False) == 2            # busy: the wait starts again
    assert tick(101.1) == 2 and tick(101.1 + 0.9 * QUIET_S) == 2
    assert tick(101.1 + 1.01 * QUIET_S) == 3


def test_the_pool_waits_while_a_dialog_of_the_app_is_the_active_window(qtbot):
    """A dialog (the sweep dialog, an export) is active: no spare view is built until it closes
    (its opening and its runs then have the event loop to themselves)."""
    owner = QtWidgets.QWidget()
    qtbot.addWidget(owner)
    owner.show()
    owner.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is owner, timeout=WAIT)
    dialog = QtWidgets.QDialog(owner)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QtWidgets.QApplication.activeWindow() is dialog, timeout=WAIT)
    pool = ViewPool([_Cheap], idle=lambda: True, parent=owner, per_class=2)
    assert not pool._window_active_or_none()
    for _ in range(20):                                  # 20 ticks of the pool's timer, idle meanwhile
        with qtbot.waitSignal(pool._timer.timeout, timeout=WAIT):
            pass
    assert pool.spares == {_Cheap: 0}
    dialog.close()
    owner.activateWindow()
    qtbot.waitUntil(lambda: pool.spares == {_Cheap: 2}, timeout=WAIT)
