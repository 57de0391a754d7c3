"""Help menu: About (version, the papers), the shortcuts, and every method's help (Help ▸ Methods)
opened from the menu as a user would, on the current workspace's method."""
from importlib.metadata import version

from PySide6 import QtCore

from robust_subspace_lab.app import help as H
from robust_subspace_lab.app.main_window import REGRESSION_TAB
from robust_subspace_lab.core import catalogue, guide

WAIT = 15000


def _menu_action(win, text):
    (act,) = [a for a in win.help_menu.actions() if a.text().replace("&", "") == text]
    return act


def test_about_names_the_version_and_the_papers(make_window):
    from robust_subspace_lab.app.main_window import ABOUT_PAPERS
    win = make_window()
    text = win.show_about().text()
    assert f"</b> {version('robust-subspace-lab')}<br>" in text
    assert text.count("<li>") == len(ABOUT_PAPERS) == 5
    assert all(paper.replace("&", "&amp;") in text or paper in text for paper in ABOUT_PAPERS)


def test_methods_help_lists_every_method_and_shows_its_guide_and_source(qtbot, make_window):
    win = make_window()
    _menu_action(win, "Methods").trigger()
    box = win.methods_help
    qtbot.waitUntil(box.isVisible, timeout=WAIT)
    assert not box.isModal()
    assert box.keys == [m.key for m in catalogue.methods("subspace")] + \
        [m.key for m in catalogue.methods("regression")]
    assert box.current_key == win.subspace.columns[0].runner.key          # the first column's method
    for key in box.keys:
        item = box.list.item(box._rows[key])
        box.list.setCurrentItem(item)
        shown = box.text.toPlainText()
        info = catalogue.get(key)
        assert info.name in shown and info.reference in shown, key
        assert guide.text(key).split("\n")[0][:60] in shown, key
    box.close()


def test_methods_help_opens_on_the_regression_method_in_its_tab(qtbot, make_window):
    win = make_window()
    win.show_tab(REGRESSION_TAB)
    qtbot.waitUntil(lambda: not win.busy, timeout=WAIT)
    box = H.show_methods_help(win)
    assert box.current_key == win.current_workspace.method_info.key
    assert catalogue.get(box.current_key).task == "regression"
    box.close()


def test_headings_cannot_be_selected(make_window):
    win = make_window()
    box = H.show_methods_help(win)
    flags = box.list.item(0).flags()
    assert not flags & QtCore.Qt.ItemIsSelectable and box.list.item(0).text() == H.TASK_TITLES["subspace"]
    box.close()
