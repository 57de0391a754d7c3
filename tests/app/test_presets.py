"""Lessons ▸ Papers ▸ …: each paper preset (a paper lesson) sets its data, corruption, methods and
parameters, and runs, with its lesson in the lesson panel."""
from __future__ import annotations

import pytest

from robust_subspace_lab.core import presets

WAIT = 60000


def _menu_actions(menu):
    for act in menu.actions():
        if act.menu():
            yield from _menu_actions(act.menu())
        elif act.data():
            yield act


def test_every_preset_is_in_the_menu(make_window):
    win = make_window()
    papers = next(a.menu() for a in win.lessons_menu.actions() if a.menu() and a.text() == "Papers")
    keys = {a.data() for a in _menu_actions(papers)}
    assert keys == {p.key for p in presets.PRESETS}


#: the presets the default run opens: the opening lesson (built-in faces) and one per paper (toys
#: and the regression tab); every other preset runs under the slow marker
FAST = ("default-lesson", "paper000-fig1", "paper001-l2p", "paper002-table1", "paper003-fig4", "paper004-table1-rr")


def test_the_default_runs_presets_exist():
    assert set(FAST) <= {p.key for p in presets.PRESETS}


@pytest.mark.parametrize("key", [p.key if p.key in FAST else pytest.param(p.key, marks=pytest.mark.slow)
                                 for p in presets.PRESETS])
def test_preset_sets_up_and_runs(qtbot, make_window, key):
    pre = presets.get(key)
    win = make_window()
    action = next(a for a in _menu_actions(win.lessons_menu) if a.data() == key)
    action.trigger()                                  # as a user picks it from the menu
    assert win.lesson_panel.isVisible() and win.lesson_panel.lesson.key == key
    if pre.task == "regression":
        ws = win.regression
        assert win.current_workspace is win.regression
        qtbot.waitUntil(lambda: bool(ws.runner.states) or bool(ws.runner.error), timeout=WAIT)
        win.pause_all()
        assert not ws.runner.error, ws.runner.error
        assert ws.runner.key == pre.methods[0][0]
        for name, value in pre.methods[0][1].items():
            assert ws.runner.params[name] == value
        return
    qtbot.waitUntil(lambda: all(c.runner.states or c.runner.error for c in win.subspace.columns), timeout=WAIT)
    win.pause_all()
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    assert [c.runner.key for c in win.subspace.columns] == [m for m, _ in pre.methods]
    for col, (_, params) in zip(win.subspace.columns, pre.methods):
        assert not col.runner.error, col.runner.error
        for name, value in params.items():
            assert col.runner.params[name] == value
    kind, name = pre.data
    if kind == "builtin":
        assert win.subspace.source == ("builtin", name) and win.subspace.corruption_key == pre.corruption
        for pname, value in pre.corruption_params.items():
            assert win.subspace.corruption_params[pname] == value
    else:
        assert win.subspace.source[1] == name


def test_a_preset_starts_no_old_method_on_its_data(qtbot, make_window, monkeypatch):
    """The columns there are held while the preset changes the data and the methods: their old
    methods neither go on stepping nor start on the preset's data only to be replaced (three NMF
    columns on large digits reached 2.8 GB resident so)."""
    from robust_subspace_lab.app import worker

    win = make_window(methods=("nmf", "cauchy-nmf"))
    win.subspace.columns[0].runner.run()
    started = []
    original = worker.SolverJob._start_state

    def spy(self):
        started.append((type(self.estimator).__name__, self.data))
        return original(self)

    monkeypatch.setattr(worker.SolverJob, "_start_state", spy)
    before = win.subspace.data
    pre = presets.get("paper001-table1-digits")
    assert win.apply_preset(pre.key)
    qtbot.waitUntil(lambda: all(c.runner.states or c.runner.error for c in win.subspace.columns), timeout=WAIT)
    win.pause_all()
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    on_new = [name for name, d in started if d is not before]     # the preset's data (and steps to it)
    assert on_new and not {"NMF", "CauchyNMF"} & set(on_new), on_new
    assert [c.runner.key for c in win.subspace.columns] == [m for m, _ in pre.methods]


def test_a_preset_gives_its_methods_their_own_defaults(qtbot, make_window):
    """A preset's column takes the method's defaults for what the preset does not name, not the
    values of the method it replaces: a Truncated Cauchy NMF column after a PCA-GM column with
    max_iter = 7 ran 7 iterations in the window while the headless lesson check ran its default."""
    from dataclasses import replace

    from robust_subspace_lab.core import catalogue

    win = make_window(methods=("pca-gm",))
    col = win.subspace.columns[0]
    assert col.runner.set_params({"max_iter": 7, "n_components": 2})
    base = presets.get("default-lesson")
    pre = replace(base, methods=(("cauchy-nmf", {"n_components": 3}),))
    assert win.apply_preset(pre, run=False)
    qtbot.waitUntil(lambda: col.runner.key == "cauchy-nmf" and bool(col.runner.states), timeout=WAIT)
    defaults = catalogue.get("cauchy-nmf").defaults()
    assert col.runner.params["max_iter"] == defaults["max_iter"] != 7
    assert col.runner.params["n_components"] == 3
