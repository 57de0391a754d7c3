"""Opening a run of the Sweep dialog's results as a new method column of the window.

The run is recomputed from its task (:meth:`core.sweep.Sweep.task_for`): its method and
parameters, on its data and corruption drawn with its seed. The window's data and the other
columns stay as they are: when the run's corruption seed (or data) differs from the window's, the
new column gets the run's own data (prepared in a background data job); the other columns keep
their data, their states and the iteration they show."""
from __future__ import annotations

from robust_subspace_lab.core.session import prepare

from .subspace_workspace import MAX_COLUMNS
from .worker import error_message

__all__ = ["open_sweep_run"]


def open_sweep_run(win, dlg, row: dict):
    """Open the sweep run ``row`` of ``dlg``'s results in a new column of ``win`` and step it to
    the run's iteration count (a run stops at its stopping rule); returns the column, or None
    (the reason in the status bar) if its data cannot be made or no column can be added."""
    task = dlg.browser.sweep.task_for(row)
    ws = win.subspace
    if len(ws.columns) >= MAX_COLUMNS:
        win.statusBar().showMessage(f"At most {MAX_COLUMNS} columns: remove one (✕) to open the run", 10000)
        return None
    data, corr = task.data_for_seed()
    own = None
    if data != win.session.data or corr != win.session.corruption:
        same_images = data == win.session.data and getattr(ws, "imageset", None) is not None
        images = ws.imageset if same_images else None

        def work():
            return prepare(data, corr, images)

        outcome, value = ws.data_jobs.call(work, f"Preparing the data of the sweep run (seed {task.seed})")
        if outcome != "ok":
            if outcome == "error":
                win.statusBar().showMessage(f"Could not open the sweep run: {error_message(value)}", 10000)
            return None
        own = value
    col = ws.add_column(task.method, dict(task.params))
    if own is not None:
        col.runner.set_data(own)
        win.statusBar().showMessage(
            f"Column {col.index + 1}: {col.runner.info.name} from the sweep, on its own draw of the "
            f"corruption (seed {task.seed}); the other columns keep theirs", 10000)
    win.wait_idle()
    steps = int(row.get("n_iter") or 0)
    if steps > 0:
        col.runner.step(steps)
    return col
