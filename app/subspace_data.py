"""The data side of the "Subspace methods" workspace: its Data panel and the requests it makes.

:class:`SubspaceData` is a mixin of :class:`app.subspace_workspace.SubspaceWorkspace` (the
columns and presets live there). The data panel asks for a built-in set, a folder, a size, a
precision, a corruption or a toy; the workspace updates the session's :class:`DataSpec` /
:class:`CorruptionSpec`, builds the data in a background data job (:class:`app.worker.DataJobs`:
loading, resizing and corrupting never run on the GUI thread, which keeps drawing, shows a
progress bar and takes a Cancel), and hands the result to every column
(:meth:`SubspaceData._hand_over`). On any error or a Cancel the data shown so far are kept and
the message says why.

The workspace provides ``session``, ``data_jobs``, ``columns``, ``status`` (a signal) and
``_closed``.
"""
from __future__ import annotations

import os

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import corruption
from robust_subspace_lab.core.errors import DataError, ParameterError
from robust_subspace_lab.core.session import BUILTIN, FOLDER, TOY, CorruptionSpec, DataSpec, prepare, share_clean

from .data_panel import TOYS, DataPanel
from .worker import error_message

__all__ = ["SubspaceData"]


def _load_error(exc: BaseException) -> str:
    return error_message(exc) if not isinstance(exc, OSError) else f"Data problem: {exc}"


class SubspaceData:
    """Mixin: the subspace workspace's data (see the module docstring)."""

    def _build_data_panel(self) -> None:
        """The Data panel (in a scroll area: the window's left dock) and its requests."""
        self.imageset = None              # the images loaded (None for a toy)
        self.data = None                  # the corrupted data every column runs on
        self.last_error = ""
        self._skipped_box: QtWidgets.QMessageBox | None = None

        self.data_panel = DataPanel()
        self.data_panel.builtin_requested.connect(lambda name: self.load_builtin(name))
        self.data_panel.folder_requested.connect(self.choose_folder)
        self.data_panel.reload_folder_requested.connect(lambda p: self.open_folder(p))
        self.data_panel.size_requested.connect(self.set_image_size)
        self.data_panel.precision_requested.connect(self.set_precision)
        self.data_panel.corruption_requested.connect(self.set_corruption)
        self.data_panel.toy_requested.connect(lambda key, params: self.load_toy(key, params))
        self._dock_scroll = QtWidgets.QScrollArea()
        self._dock_scroll.setWidgetResizable(True)
        self._dock_scroll.setFrameShape(QtWidgets.QFrame.NoFrame)
        self._dock_scroll.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
        self._dock_scroll.setWidget(self.data_panel)

    def dock_widget(self) -> QtWidgets.QWidget:
        """The Data panel (the window puts it in its left dock)."""
        return self._dock_scroll

    def data_text(self) -> str:
        return self.data.description if self.data is not None else ""

    # ================================================================== session values
    @property
    def source(self) -> tuple[str, str]:
        """``(kind, name)`` of the session's data as the Data panel names them
        (``("builtin", "faces")``, ``("folder", path)``, ``("toy", key)``: :attr:`DataSpec.kind`, the
        keys of the panel's folder and toy entries too)."""
        return self.session.data.kind, self.session.data.name

    @property
    def size_option(self):
        return self.session.data.size

    @property
    def precision(self) -> str:
        """The session data's precision, "double" or "single" (:attr:`DataSpec.precision`)."""
        return self.session.data.precision

    @property
    def toy_params(self) -> dict:
        return dict(self.session.data.options) if self.session.data.is_toy else {}

    @property
    def corruption_key(self) -> str:
        return self.session.corruption.key

    @property
    def corruption_params(self) -> dict:
        return dict(self.session.corruption.params)

    # ================================================================== data
    def show_error(self, text: str) -> None:
        """Say why a request failed (Data panel and status bar)."""
        self.last_error = text
        self.data_panel.show_message(text)
        self.status.emit(text)

    def _hand_over(self, data) -> None:
        self.data = data
        self.last_error = ""
        self.data_panel.show_message("")
        for c in self.columns:
            c.runner.set_data(data)
            c.follow_live()

    def _load(self, spec: DataSpec, interactive: bool = False) -> bool:
        """Load ``spec`` and corrupt it with the session's corruption in a background data job,
        then hand the result to every column. On any error or a Cancel keep everything as it
        was and say why."""
        corr = self.session.corruption
        what = os.path.basename(spec.name) if spec.kind == FOLDER else spec.name

        def work():
            images = spec.load()
            try:
                data = prepare(spec, corr, images)
            except (DataError, ParameterError) as exc:
                raise type(exc)(f"{exc} (corruption '{corr.key}' on the new data)") from exc
            return share_clean(images, data), data       # the images kept once, as X_clean

        outcome, value = self.data_jobs.call(work, f"Loading {what}")
        if outcome == "superseded":
            return False
        if outcome == "cancelled":
            if not self._closed:
                self.show_error(f"Loading {what} cancelled — kept: {self.data_text() or 'no data'}")
            return False
        if outcome == "error":
            self.show_error(_load_error(value))
            return False
        imageset, data = value
        self.imageset = imageset
        self.session.set_data(spec)
        self.data_panel.show_data(imageset, spec.name if spec.kind != FOLDER else (FOLDER, spec.name), spec.size)
        self.data_panel.show_precision(spec.precision)
        self.data_panel.show_corruption(corr.key, dict(corr.params), data.description)
        msg = f"Loaded {len(imageset.images)} images ({imageset.shape[0]} × {imageset.shape[1]} px)"
        if imageset.skipped:
            msg += f"; {len(imageset.skipped)} file(s) skipped: " + ", ".join(
                p for p, _ in imageset.skipped[:3]) + ("…" if len(imageset.skipped) > 3 else "")
            if interactive:
                self._show_skipped_dialog(imageset)
        self._hand_over(data)
        self.status.emit(msg)
        return True

    def load_builtin(self, name: str, size=..., **options) -> bool:
        """Load the built-in set ``name`` (keeps the current size unless ``size`` is given), with
        the loader's ``options`` (e.g. ``digits=[6]``)."""
        size = self.size_option if size is ... else size
        return self._load(DataSpec(BUILTIN, name, size=size, options=options, precision=self.precision))

    def open_folder(self, path: str, size=..., interactive: bool = False) -> bool:
        """Load every image of ``path``; skipped files are listed in the Data panel and the status
        bar (and a dialog when ``interactive``). Returns False (and keeps the data) on error."""
        size = self.size_option if size is ... else size
        return self._load(DataSpec(FOLDER, os.fspath(path), size=size, precision=self.precision), interactive)

    def choose_folder(self) -> None:
        start = self.session.data.name if self.session.data.kind == FOLDER else os.getcwd()
        path = QtWidgets.QFileDialog.getExistingDirectory(self, "Open a folder of images", start)
        if path:
            self.open_folder(path, interactive=True)

    def set_image_size(self, size) -> bool:
        """Reload the current data at ``size`` ((height, width) or None)."""
        spec = self.session.data
        if spec.is_toy:           # points, not images: nothing to resize (kept for the next images)
            self.session.set_data(spec.with_(size=size))
            return True
        ok = self._load(spec.with_(size=size))
        if not ok and self.imageset is not None:
            self.data_panel.show_data(self.imageset, spec.name if spec.kind != FOLDER else (FOLDER, spec.name),
                                      spec.size)
        return ok

    def set_precision(self, precision: str) -> bool:
        """Rebuild the current data in ``precision`` ("double" or "single", see
        :attr:`core.session.DataSpec.precision`) in the background data job, as a size change
        does; every column restarts on the one new array. On an error or a Cancel the data and
        the precision shown are kept and the message says why."""
        spec = self.session.data
        if precision == spec.precision:
            return True
        if spec.is_toy:
            ok = self.load_toy(spec.name, dict(spec.options), precision=precision)
        else:
            try:
                new = spec.with_(precision=precision)
            except ParameterError as exc:
                self.show_error(_load_error(exc))
                ok = False
            else:
                ok = self._load(new)
        if not ok:
            self.data_panel.show_precision(self.precision)
        return ok

    def set_corruption(self, key: str, params: dict | None = None) -> bool:
        """Corrupt the current images with ``key`` (``params`` over its defaults); every column
        restarts. On an invalid value the previous corruption is kept and the message names it."""
        spec = corruption.CORRUPTIONS.get(key)
        values = {**(spec.defaults() if spec else {}), **(params or {})}
        new = CorruptionSpec(key, values)
        if self.session.data.is_toy or self.imageset is None:
            # a toy has its own outliers; the choice is kept for the next image set
            self.session.set_corruption(new)
            return True
        # no local reference to the images: this call may wait (nested) while newer ones replace them
        outcome, value = self.data_jobs.call(lambda d=self.session.data, im=self.imageset: prepare(d, new, im),
                                             f"Corrupting ({key})")
        if outcome == "superseded":
            return False
        if outcome != "ok":
            text = _load_error(value) if outcome == "error" else "Corruption cancelled"
            kept = self.data.description if self.data is not None else "no data"
            if not self._closed:
                self.show_error(text + f" — kept: {kept}")
                self.data_panel.show_corruption(self.corruption_key, self.corruption_params, kept)
            return False
        self.imageset = share_clean(self.imageset, value)     # the newest request's images, kept once as X_clean
        self.session.set_corruption(new)
        self.data_panel.show_corruption(key, values, value.description)
        self._hand_over(value)
        self.status.emit(f"Corruption: {value.description}")
        return True

    def load_toy(self, key: str, params: dict | None = None, precision: str | None = None) -> bool:
        """Use the papers' toy example ``key`` (``core.toys``) with ``params`` over its defaults,
        in ``precision`` (default: the session's). A toy already contains its planted outliers:
        the corruption is not applied (and its panel is disabled) until an image set is chosen
        again."""
        tspec = TOYS.get(key)
        if tspec is None:
            self.show_error(f"Data problem: unknown toy example {key!r}")
            return False
        values = {**tspec.defaults(), **(params or {})}
        spec = DataSpec(TOY, key, size=self.size_option, options=values, precision=precision or self.precision)
        outcome, value = self.data_jobs.call(spec.load, f"Building the toy {key}")     # in spec.precision
        if outcome == "superseded":
            return False
        if outcome != "ok":
            text = _load_error(value) if outcome == "error" else f"Toy {key} cancelled"
            self.show_error(text + (f" — kept: {self.data.description}" if self.data else ""))
            if self.session.data.kind == TOY and self.session.data.name == key:
                self.data_panel.show_toy(key, self.toy_params)
            return False
        self.imageset = None
        self.session.set_data(spec)
        self.data_panel.show_toy(key, values)
        self.data_panel.show_toy_data(value)
        self.data_panel.show_precision(spec.precision)
        self._hand_over(value)
        self.status.emit(f"Toy example: {value.description}")
        return True

    def _show_skipped_dialog(self, imageset) -> None:
        box = QtWidgets.QMessageBox(self)
        box.setIcon(QtWidgets.QMessageBox.Warning)
        box.setWindowTitle("Some files were skipped")
        box.setText(f"{len(imageset.images)} images loaded; {len(imageset.skipped)} file(s) could not be used.")
        first = "\n".join(f"{p}: {r}" for p, r in imageset.skipped[:3])
        more = f"\n… and {len(imageset.skipped) - 3} more" if len(imageset.skipped) > 3 else ""
        box.setInformativeText(first + more)
        box.setDetailedText("\n".join(f"{p}: {r}" for p, r in imageset.skipped))
        box.setStandardButtons(QtWidgets.QMessageBox.Ok)
        box.setModal(False)
        box.open()          # not exec(): never block the event loop
        self._skipped_box = box
