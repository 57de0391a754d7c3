"""MainWindow reaches its tabs only through the Workspace interface (docs/architecture.md): the
window's own code (app.main_window and its mixins app.session_io, app.help_menu) reads no member
of a workspace that app.workspace.Workspace does not declare, and forwards none of a tab's own
members; a new tab therefore works in the window by implementing that interface alone."""
from __future__ import annotations

import ast
from pathlib import Path

from robust_subspace_lab.app.workspace import Workspace

APP = Path(__file__).resolve().parents[2] / "app"
WINDOW_MODULES = ("main_window.py", "session_io.py", "help_menu.py")
#: the signals every workspace declares itself (Qt needs them on the QObject class)
SIGNALS = {"status", "activity", "frame_due"}
INTERFACE = {n for n in dir(Workspace) if not n.startswith("__")} | SIGNALS


def _workspace_reads(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, member) of every ``<workspace>.member`` read: ``ws``/``shown`` (the loop and the
    tab shown) and ``self.current_workspace``, ``self.subspace``, ``self.regression``,
    ``self.workspaces[i]``."""
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        v = node.value
        if isinstance(v, ast.Name) and v.id in ("ws", "shown"):
            out.append((node.lineno, node.attr))
        elif isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "self" \
                and v.attr in ("current_workspace", "subspace", "regression"):
            out.append((node.lineno, node.attr))
        elif isinstance(v, ast.Subscript) and isinstance(v.value, ast.Attribute) and v.value.attr == "workspaces":
            out.append((node.lineno, node.attr))
    return out


def test_the_window_reads_only_the_workspace_interface_of_its_tabs():
    outside = {}
    for name in WINDOW_MODULES:
        tree = ast.parse((APP / name).read_text(encoding="utf-8"))
        bad = [(line, attr) for line, attr in _workspace_reads(tree) if attr not in INTERFACE]
        if bad:
            outside[name] = bad
    assert not outside, f"members outside app.workspace.Workspace: {outside}"


def test_the_window_forwards_no_member_of_a_tab():
    """No ``property(lambda self: self.subspace.x)`` nor ``def x(...): return self.subspace.x(...)``."""
    tree = ast.parse((APP / "main_window.py").read_text(encoding="utf-8"))
    window = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "MainWindow")
    forwarders = []
    for node in window.body:
        body = ast.dump(node)
        if "attr='subspace'" in body or "attr='regression'" in body:
            if not (isinstance(node, ast.FunctionDef) and node.name == "__init__"):
                forwarders.append(getattr(node, "name", None) or ast.unparse(node)[:60])
    assert not forwarders, forwarders


def test_the_opening_state_is_restored_and_a_folder_that_fails_gives_way(make_window, tmp_path):
    """The window's opening state goes through Workspace.restore as an opened session does: a
    folder that cannot be loaded gives way to the built-in data, and the tab says why."""
    win = make_window(methods=("pca", "pca-gm"), folder=str(tmp_path / "missing"), size=(16, 16))
    assert win.session.data.kind == "builtin" and win.subspace.data.shape == (16, 16)
    assert [c.key for c in win.subspace.columns] == ["pca", "pca-gm"]
    assert [r.method for r in win.session.runs_of("subspace")] == ["pca", "pca-gm"]
    assert "missing" in win.last_error and "showing the built-in data instead" in win.last_error
    assert win.open_folder_action.isEnabled()                 # File ▸ Open folder… acts on the tab shown
    for ws in win.workspaces:
        win.show_tab(ws.title)
        assert win.open_folder_action.isEnabled() == ws.opens_folders
