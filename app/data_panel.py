"""The "Data" panel: data set (built-in or folder), image size, precision, and the corruption with its
parameters (built from ``core.corruption.CORRUPTIONS``). The panel only collects the user's
choices and shows what the window reports; :class:`~app.main_window.MainWindow` does the loading."""
from __future__ import annotations

import html
import os

from PySide6 import QtCore, QtWidgets

from robust_subspace_lab.core import corruption, datasets
from robust_subspace_lab.core.session import AUTO, AUTO_SINGLE_BYTES, FOLDER, TOY

from . import params as P

try:    # the papers' toy examples (optional: the app runs without them)
    from robust_subspace_lab.core import toys as _toys
    TOYS = dict(_toys.TOYS)
except Exception:  # noqa: BLE001 - a missing or half-written module must not stop the app
    _toys = None
    TOYS = {}

__all__ = ["DataPanel", "SIZES", "PRECISIONS", "PRECISION_TIP", "TOY", "TOYS", "auto_text"]

#: Image sizes offered (height, width); None = the files' own size.
SIZES: tuple = (None, (16, 16), (20, 20), (25, 25), (32, 32), (40, 40), (48, 48), (64, 64), (96, 96))

#: Precisions offered: (value of :attr:`core.session.DataSpec.precision`, text); the text of
#: "auto" gains what it chose for the data shown (:func:`auto_text`)
PRECISIONS: tuple = ((AUTO, "auto"), ("double", "double (float64)"),
                     ("single", "single (float32, half the memory)"))
#: Tooltip of the precision combo; the figures are measured by benchmarks/bench_precision.py
PRECISION_TIP = (
    "Floating-point type of the data every column shares.\n"
    f"Auto (the default): single when the images would take more than {AUTO_SINGLE_BYTES // 2 ** 20} MB\n"
    "in double (the 5,000 digits at 96 × 96), else double; the entry says which.\n"
    "Single (float32) is for large data (thousands of images): the data take half the\n"
    "memory, and the PCA family and the convex methods (PCP, Outlier Pursuit, CRPCA-OM)\n"
    "compute in float32, about half the time per pass over the data (PCA-GM on 5,000 digits\n"
    "of 96 × 96, one thread: 0.47 s per step instead of 0.88 s; peak memory 0.67 instead of\n"
    "1.19 GB). The other methods (PCA-L1, sparse PCA, the NMF family) convert the data to\n"
    "float64 when they start (a copy of their own).\n"
    "Results agree with double precision to about 1e-5 relative: after 3 steps of every\n"
    "method on the built-in faces and digits, errors, angles to the clean PCA and AUCs\n"
    "differed by at most 6e-6 relative (2.8e-5 after 10 steps).")

#: ms to wait after the last corruption-parameter change before applying it
APPLY_DELAY_MS = 200

# The source combo's values: a built-in set's name, ``(FOLDER, path)`` for a folder and ``(TOY, key)``
# for a toy example, with core's data kinds (core.session.DataSpec.kind): one key per source.


def _find(combo: QtWidgets.QComboBox, value) -> int:
    """Index of the item whose data equals ``value`` (QComboBox.findData compares Python
    objects such as tuples by identity), -1 if none."""
    for i in range(combo.count()):
        if combo.itemData(i) == value:
            return i
    return -1


def auto_text(dtype) -> str:
    """Text of the "auto" precision entry once data of numpy type ``dtype`` are shown."""
    return "auto: single (float32)" if dtype == "float32" else "auto: double (float64)"


def size_text(size) -> str:
    return "native size" if size is None else f"{size[0]} × {size[1]} px"


def _builtin_title(name: str) -> str:
    return datasets.BUILTIN_TITLES.get(name, f"{name} (built-in)")


def _add_header(combo: QtWidgets.QComboBox, text: str) -> None:
    """A disabled, bold group header item (item data None)."""
    combo.addItem(text, None)
    item = combo.model().item(combo.count() - 1)
    item.setFlags(QtCore.Qt.NoItemFlags)
    f = item.font()
    f.setBold(True)
    f.setItalic(True)
    item.setFont(f)



def show_param_group(tree, group, group_key, key, params, values, on_change):
    """Show the controls of ``params`` (registry entry ``key``) in ``tree``: update the values in
    place when ``group`` already shows that entry, else build a new group, swap it in and move the
    change handler over. Returns the group shown and its key."""
    if group is not None and group_key == key:
        P.set_group_values(group, values)
        return group, group_key
    if group is not None:
        try:
            group.sigTreeStateChanged.disconnect(on_change)
        except (RuntimeError, TypeError):
            pass
    group = P.build_group(key, params, values)
    P.set_tree_group(tree, group)
    group.sigTreeStateChanged.connect(on_change)
    return group, key

def _narrow_combo() -> QtWidgets.QComboBox:
    """A combo that does not widen the dock to its longest entry (the popup still shows it whole)."""
    combo = QtWidgets.QComboBox()
    combo.setSizeAdjustPolicy(QtWidgets.QComboBox.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(12)
    return combo


class DataPanel(QtWidgets.QWidget):
    """Controls for data and corruption. Emits requests; the window answers with ``show_*``."""

    builtin_requested = QtCore.Signal(str)
    folder_requested = QtCore.Signal()          # open the folder dialog
    reload_folder_requested = QtCore.Signal(str)
    size_requested = QtCore.Signal(object)
    precision_requested = QtCore.Signal(str)
    corruption_requested = QtCore.Signal(str, dict)
    toy_requested = QtCore.Signal(str, dict)

    def __init__(self, parent=None):
        super().__init__(parent)
        self._syncing = False
        self._group = None
        self._corruption_key = None
        lay = QtWidgets.QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)

        # ---------------------------------------------------------------- data
        data_box = QtWidgets.QGroupBox("Data")
        form = QtWidgets.QFormLayout(data_box)
        form.setFieldGrowthPolicy(QtWidgets.QFormLayout.AllNonFixedFieldsGrow)
        self.source_combo = _narrow_combo()
        if TOYS:
            _add_header(self.source_combo, "Image sets")
        for name in datasets.BUILTIN:
            self.source_combo.addItem(_builtin_title(name), name)
        if TOYS:
            _add_header(self.source_combo, "Toy examples")
            for key, spec in TOYS.items():
                self.source_combo.addItem(spec.name, (TOY, key))
                self.source_combo.setItemData(self.source_combo.count() - 1, spec.summary,
                                              QtCore.Qt.ToolTipRole)
        self.source_combo.setToolTip("Built-in data set, a toy example of the papers, or the folder you opened")
        self.source_combo.activated.connect(self._on_source)
        form.addRow(self.source_combo)       # the whole row: the longest names need about 230 px
        self.open_button = QtWidgets.QPushButton("Open folder…")
        self.open_button.setToolTip("Load every image in a folder (subfolders = classes)")
        self.open_button.clicked.connect(self.folder_requested)
        form.addRow("", self.open_button)
        self.size_combo = _narrow_combo()
        for s in SIZES:
            self.size_combo.addItem(size_text(s), s)
        self.size_combo.setToolTip("Resize every image to this size (smaller is faster)")
        self.size_combo.activated.connect(self._on_size)
        form.addRow("Image size", self.size_combo)
        self.precision_combo = _narrow_combo()
        for value, text in PRECISIONS:
            self.precision_combo.addItem(text, value)
        self.precision_combo.setToolTip(PRECISION_TIP)
        self.precision_combo.activated.connect(self._on_precision)
        form.addRow("Precision", self.precision_combo)
        self.data_info = QtWidgets.QLabel("")
        self.data_info.setWordWrap(True)
        self.data_info.setTextInteractionFlags(QtCore.Qt.TextSelectableByMouse)
        form.addRow(self.data_info)
        self.skipped_label = QtWidgets.QLabel("")
        self.skipped_label.setObjectName("skippedLabel")
        self.skipped_label.setWordWrap(True)
        self.skipped_label.setStyleSheet("color: #8a5a00;")
        self.skipped_label.setVisible(False)
        form.addRow(self.skipped_label)
        lay.addWidget(data_box)

        # ---------------------------------------------------------------- toy example
        self.toy_box = QtWidgets.QGroupBox("Toy example")
        tv = QtWidgets.QVBoxLayout(self.toy_box)
        self.toy_summary = QtWidgets.QLabel("")
        self.toy_summary.setWordWrap(True)
        self.toy_summary.setStyleSheet("color: #555; font-size: 8pt;")
        tv.addWidget(self.toy_summary)
        self.toy_tree = P.make_tree(None)
        tv.addWidget(self.toy_tree)
        self.toy_box.setVisible(False)
        self._toy_group = None
        self._toy_key = None
        lay.addWidget(self.toy_box)

        # ---------------------------------------------------------------- corruption
        corr_box = QtWidgets.QGroupBox("Corruption")
        self.corruption_box = corr_box
        v = QtWidgets.QVBoxLayout(corr_box)
        self.corruption_combo = _narrow_combo()
        for key, spec in corruption.CORRUPTIONS.items():
            if spec.missing_entries:      # NaN entries: only the regression workspace's RR-Missing
                continue
            self.corruption_combo.addItem(spec.name, key)
            self.corruption_combo.setItemData(self.corruption_combo.count() - 1, spec.summary,
                                              QtCore.Qt.ToolTipRole)
        self.corruption_combo.currentIndexChanged.connect(self._on_corruption_combo)
        v.addWidget(self.corruption_combo)
        self.corruption_summary = QtWidgets.QLabel("")
        self.corruption_summary.setWordWrap(True)
        self.corruption_summary.setStyleSheet("color: #555; font-size: 8pt;")
        v.addWidget(self.corruption_summary)
        self.tree = P.make_tree(None)
        v.addWidget(self.tree)
        self.corruption_info = QtWidgets.QLabel("")
        self.corruption_info.setWordWrap(True)
        v.addWidget(self.corruption_info)
        lay.addWidget(corr_box)

        self.message_label = QtWidgets.QLabel("")
        self.message_label.setObjectName("dataMessage")
        self.message_label.setWordWrap(True)
        self.message_label.setStyleSheet(
            "QLabel { background: #fdecea; color: #8a1c1c; border: 1px solid #f5c2c0;"
            " border-radius: 3px; padding: 4px; }")
        self.message_label.setVisible(False)
        lay.addWidget(self.message_label)

        # ---------------------------------------------------------------- legend
        help_box = QtWidgets.QGroupBox("Reading the views")
        hv = QtWidgets.QVBoxLayout(help_box)
        text = QtWidgets.QLabel(
            "<b>Sample weights</b>: how much each image counts at this iteration, on a log "
            "scale (the largest is 1; red bars: images the corruption touched). Low-rank + sparse "
            "methods show each image's outlier score ‖eᵢ‖ instead; NMF methods each image's mean "
            "pixel weight.<br>"
            "<b>Pixel weights Q</b> (NMF): how much each pixel counts, 0–1; red: truncated "
            "(ignored as an outlier).<br>"
            "<b>Basis images</b>: the learned components (grey = 0; yellow: exactly 0 for sparse "
            "PCA, with the count of non-zeros); for NMF, non-negative parts (black = 0).<br>"
            "<b>Objective</b>: the method's cost, per iteration; below it one of the method's own "
            "numbers (rank, μ, δ, …), chosen in the combo.<br>"
            "<b>E (sparse part)</b>: the outliers a low-rank + sparse method separates.<br>"
            "<b>Toy examples</b>: 2-D points with the learned directions through the mean.<br>"
            "<b>Error</b>: distance of the reconstructions to the <i>clean</i> images "
            "(grey levels; lower is better; Oh &amp; Kwak 2016, eq. 14). NMF: relative error ‖X_clean − WH‖ / ‖X_clean‖.<br>"
            "<b>Residual</b>: corrupted − reconstruction (blue −, red +).")
        text.setWordWrap(True)
        text.setStyleSheet("color: #333; font-size: 8pt;")
        hv.addWidget(text)
        lay.addWidget(help_box)
        lay.addStretch(1)

        self._apply_timer = QtCore.QTimer(self)
        self._apply_timer.setSingleShot(True)
        self._apply_timer.setInterval(APPLY_DELAY_MS)
        self._apply_timer.timeout.connect(self.apply_corruption)
        self._toy_timer = QtCore.QTimer(self)
        self._toy_timer.setSingleShot(True)
        self._toy_timer.setInterval(APPLY_DELAY_MS)
        self._toy_timer.timeout.connect(self.apply_toy)

    # ------------------------------------------------------------------ data
    def _on_source(self, index: int) -> None:
        value = self.source_combo.itemData(index)
        if value is None:                 # a group header
            return
        if isinstance(value, tuple) and value[0] == FOLDER:
            self.reload_folder_requested.emit(value[1])
        elif isinstance(value, tuple) and value[0] == TOY:
            key = value[1]
            values = P.group_values(self._toy_group) if self._toy_key == key else TOYS[key].defaults()
            self.toy_requested.emit(key, values)
        else:
            self.builtin_requested.emit(value)

    def select_source(self, value) -> bool:
        """Choose the entry whose data is ``value`` as the user would (a built-in name,
        ``(TOY, key)`` or ``(FOLDER, path)``). False if there is no such entry."""
        i = _find(self.source_combo, value)
        if i < 0:
            return False
        self.source_combo.setCurrentIndex(i)
        self.source_combo.activated.emit(i)
        return True

    # ------------------------------------------------------------------ toys
    def toy_group(self):
        """The pyqtgraph Parameter group of the shown toy's parameters (None without a toy)."""
        return self._toy_group

    def show_toy(self, key: str, values: dict, description: str = "") -> None:
        """Show the toy ``key`` with ``values``: its parameters, the corruption panel disabled
        (a toy already contains its outliers), image sizes disabled (points, not images)."""
        spec = TOYS[key]
        self._syncing = True
        try:
            i = _find(self.source_combo, (TOY, key))
            if i >= 0:
                self.source_combo.setCurrentIndex(i)
            self.toy_box.setTitle("Toy example")          # its name is in the Set combo above (a long
            self.toy_box.setToolTip(spec.name)            # title would widen the panel past its dock)
            self.toy_summary.setText(spec.summary)
            self._toy_group, self._toy_key = show_param_group(
                self.toy_tree, self._toy_group, self._toy_key, key, spec.params, values,
                self._on_toy_param_changed)
        finally:
            self._syncing = False
        self.toy_box.setVisible(True)
        self._set_toy_mode(True)
        if description:
            self.data_info.setText(html.escape(description))

    def show_toy_data(self, data) -> None:
        n, d = data.X.shape
        self._show_dtype(data.X.dtype)
        self.data_info.setText(f"{n} points · {d} features · {data.n_outliers} planted outliers<br>"
                               f"<span style='color:#666'>{html.escape(data.description)}</span>")
        self.show_skipped(())

    def _set_toy_mode(self, toy: bool) -> None:
        self.corruption_box.setEnabled(not toy)
        self.corruption_box.setToolTip("A toy example already contains its outliers" if toy else "")
        self.size_combo.setEnabled(not toy)
        if not toy:
            self.toy_box.setVisible(False)
            self._toy_timer.stop()

    def _on_toy_param_changed(self, group, changes) -> None:
        if self._syncing:
            return
        if any(change == "value" for _, change, _ in changes):
            self._toy_timer.start()

    def apply_toy(self) -> None:
        """Request the toy with the values in its controls now (normally after a short pause)."""
        self._toy_timer.stop()
        if self._toy_key is not None and self.toy_box.isVisible():
            self.toy_requested.emit(self._toy_key, P.group_values(self._toy_group))

    def _on_size(self, index: int) -> None:
        self.size_requested.emit(self.size_combo.itemData(index))

    def _on_precision(self, index: int) -> None:
        self.precision_requested.emit(self.precision_combo.itemData(index))

    def _show_dtype(self, dtype) -> None:
        """Name in the "auto" entry the type of the data shown (float32 or float64)."""
        i = _find(self.precision_combo, AUTO)
        if i >= 0:
            self.precision_combo.setItemText(i, auto_text(str(dtype)))

    def show_precision(self, precision: str) -> None:
        """Select ``precision`` ("auto", "double" or "single") without requesting it."""
        i = _find(self.precision_combo, precision)
        if i >= 0:
            self._syncing = True
            try:
                self.precision_combo.setCurrentIndex(i)
            finally:
                self._syncing = False

    def show_data(self, imageset, source_value, size) -> None:
        """Show the loaded set: select its entry, size and a summary; list skipped files."""
        self._set_toy_mode(False)
        self._syncing = True
        try:
            if isinstance(source_value, tuple):          # (FOLDER, path)
                i = _find(self.source_combo, source_value)
                if i < 0:
                    self.source_combo.addItem(f"Folder: {os.path.basename(source_value[1].rstrip(os.sep)) or source_value[1]}",
                                              source_value)
                    i = self.source_combo.count() - 1
                    self.source_combo.setItemData(i, source_value[1], QtCore.Qt.ToolTipRole)
                self.source_combo.setCurrentIndex(i)
            else:
                i = _find(self.source_combo, source_value)
                if i >= 0:
                    self.source_combo.setCurrentIndex(i)
            i = _find(self.size_combo, size)
            if i < 0:
                self.size_combo.addItem(size_text(size), size)
                i = self.size_combo.count() - 1
            self.size_combo.setCurrentIndex(i)
        finally:
            self._syncing = False
        self._show_dtype(imageset.images.dtype)
        h, w = imageset.shape
        self.data_info.setText(f"{len(imageset.images)} images · {h} × {w} px<br>"
                               f"<span style='color:#666'>{html.escape(str(imageset.source))}</span>")
        self.show_skipped(imageset.skipped)

    def show_skipped(self, skipped) -> None:
        skipped = tuple(skipped or ())
        if not skipped:
            self.skipped_label.setVisible(False)
            self.skipped_label.setText("")
            self.skipped_label.setToolTip("")
            return
        lines = [f"{html.escape(p)}: {html.escape(r)}" for p, r in skipped[:5]]
        more = f"<br>… and {len(skipped) - 5} more" if len(skipped) > 5 else ""
        self.skipped_label.setText(f"<b>{len(skipped)} file(s) skipped:</b><br>" + "<br>".join(lines) + more)
        self.skipped_label.setToolTip("\n".join(f"{p}: {r}" for p, r in skipped))
        self.skipped_label.setVisible(True)

    def show_message(self, text: str) -> None:
        self.message_label.setText(text)
        self.message_label.setVisible(bool(text))

    # ------------------------------------------------------------------ corruption
    def corruption_key(self) -> str:
        return self._corruption_key

    def corruption_group(self):
        """The pyqtgraph Parameter group of the corruption's parameters."""
        return self._group

    def corruption_values(self) -> dict:
        return P.group_values(self._group) if self._group is not None else {}

    def show_corruption(self, key: str, values: dict, description: str = "") -> None:
        """Show ``key`` with ``values`` in the controls (no request is emitted)."""
        spec = corruption.CORRUPTIONS[key]
        self._syncing = True
        try:
            i = self.corruption_combo.findData(key)
            if i >= 0:
                self.corruption_combo.setCurrentIndex(i)
            self.corruption_summary.setText(spec.summary)
            self._group, self._corruption_key = show_param_group(
                self.tree, self._group, self._corruption_key, key, spec.params, values,
                self._on_param_changed)
        finally:
            self._syncing = False
        if description:
            self.corruption_info.setText(f"<i>{html.escape(description)}</i>")

    def _on_corruption_combo(self, index: int) -> None:
        if self._syncing or index < 0:
            return
        key = self.corruption_combo.itemData(index)
        spec = corruption.CORRUPTIONS[key]
        values = spec.defaults()      # each model has its own sensible defaults
        self.show_corruption(key, values)
        self._apply_timer.stop()
        self.corruption_requested.emit(key, values)

    def _on_param_changed(self, group, changes) -> None:
        if self._syncing:
            return
        if any(change == "value" for _, change, _ in changes):
            self._apply_timer.start()

    def apply_corruption(self) -> None:
        """Request the corruption in the controls now (normally after a short pause)."""
        self._apply_timer.stop()
        if self._corruption_key is not None:
            self.corruption_requested.emit(self._corruption_key, self.corruption_values())
