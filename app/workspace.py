"""What the main window asks of a workspace (one tab): the one interface behind its run controls.

The window's toolbar (Step, Run, Pause, Reset), its frame timer, its status bar and Quit talk
to the workspace shown through this interface only, so the window never tests which kind of
task a tab holds. A workspace is a ``QWidget`` that also provides:

* ``title`` and ``tooltip`` (the tab's text), ``task`` (the kind of run it holds: presets of that
  task are applied by it), ``uses_data_dock`` (it has a left Data dock: ``dock_widget()``);
* ``dock_widget()``, ``menu()``, ``toolbar_widgets()``: its own dock, menu and toolbar widgets
  (shown or enabled only with its tab), or None / [];
* ``opens_folders`` and ``choose_folder()``: File ▸ Open folder… (Ctrl+O) on the tab shown (a
  folder dialog, then its data from that folder); ``show_error(text)``: say why a data request
  failed (its message area and the status bar: ``last_error`` then holds ``text``);
* ``show_help()``: Help ▸ What you are seeing (F1): the teaching text of the method shown (of
  the focused column, in a tab of columns), or None when the tab has none;
* ``apply_preset(preset)``: set its data, methods and parameters from a :mod:`core.presets` entry;
* ``undo_recorder(stack)``: an object recording its changes on the window's ``QUndoStack``
  (Edit ▸ Undo), with a ``paused()`` context, or None when its changes are not undoable;
* ``restore(saved)``: take its part of an opened session (``saved``, a :class:`core.session.Session`
  read by ``Session.from_dict``): its data, methods, parameters, and each run started again and
  stepped to the iteration it had reached (``Run.saved_iteration``); "" or why its data could not
  be loaded (it then keeps what it had). A workspace whose state is not saved keeps the default;
* ``last_error``: why its last data request failed ("" if it did not); ``errors()`` and
  ``summary()``: one line per failed run and one line about how far the runs got (command line);
* ``step(n)``, ``run()``, ``pause()``, ``reset()``: the run controls, acting on all its runs;
* ``running``, ``busy``, ``finished``: for the buttons (a run in flight; any job in flight or
  queued; every run has met its stopping rule);
* ``refresh(force=False) -> bool``: draw what changed since the last call (called by the
  window's ~30 Hz frame timer; True when something was drawn), ``frame_share()`` the number of
  timer ticks it wants per frame period (one per column), ``drawing``: a frame is drawn in
  parts and its next part is due at once;
* ``activated()``: the tab was shown (load lazily here);
* ``data_text()``: one line describing its data for the status bar;
* ``run_target``: words for the tooltips ("every column", "the regression solver");
* ``shutdown()``: cancel every job (the window is closing);
* the signals ``status(str)`` (a message for the status bar) and ``activity()`` (busy/running
  changed); one whose runs compute off the GUI thread also has ``frame_due()`` (a run has
  something new to draw: the window draws it at once instead of at its timer's next tick).

:class:`Workspace` gives the defaults; a workspace subclasses it together with its Qt widget
class (``class RegressionWorkspace(Workspace, QtWidgets.QWidget)`` is not possible with two
QObject bases, so the defaults are a plain mixin and the signals are declared by each class).
"""
from __future__ import annotations

__all__ = ["Workspace"]


class Workspace:
    """Mixin with the defaults of the workspace interface (see the module docstring)."""

    title: str = ""
    tooltip: str = ""
    task: str = ""
    uses_data_dock: bool = False
    opens_folders: bool = False
    run_target: str = "every run"
    last_error: str = ""

    # what the window shows with the tab ----------------------------------------------------
    def dock_widget(self):
        return None

    def menu(self):
        return None

    def toolbar_widgets(self) -> list:
        return []

    def choose_folder(self) -> None:
        """File ▸ Open folder… (only offered when :attr:`opens_folders`)."""

    def show_error(self, text: str) -> None:
        """Say why a data request failed."""
        self.last_error = text
        self.status.emit(text)

    def show_help(self):
        """The "what you are seeing" box of the method shown, or None."""
        return None

    def apply_preset(self, preset) -> bool:
        raise NotImplementedError

    def undo_recorder(self, stack):
        """What records this tab's changes on ``stack`` (Edit ▸ Undo), or None."""
        return None

    def restore(self, saved) -> str:
        """Take this tab's part of the opened session ``saved`` (see the module docstring).
        The default: nothing of the tab is saved, nothing to restore."""
        return ""

    def errors(self) -> list[str]:
        return []

    def summary(self) -> str:
        return ""

    # run controls ------------------------------------------------------------------------
    def step(self, n: int = 1) -> None:
        raise NotImplementedError

    def run(self) -> None:
        raise NotImplementedError

    def pause(self) -> None:
        raise NotImplementedError

    def reset(self) -> None:
        raise NotImplementedError

    @property
    def running(self) -> bool:
        return False

    @property
    def busy(self) -> bool:
        return False

    @property
    def finished(self) -> bool:
        return False

    # drawing -----------------------------------------------------------------------------
    def refresh(self, force: bool = False) -> bool:
        return False

    def frame_share(self) -> int:
        """Timer ticks per frame period this workspace wants (each tick draws one part)."""
        return 1

    @property
    def drawing(self) -> bool:
        """A frame is partly drawn: the next tick should come at once (after the repaint)."""
        return False

    # life cycle --------------------------------------------------------------------------
    def activated(self) -> None:
        """The tab was shown."""

    def data_text(self) -> str:
        return ""

    def shutdown(self) -> None:
        """Cancel every job; nothing new is started."""
