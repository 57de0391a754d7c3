"""A column's words about its method (no numerics): the method combo box (the catalogue's methods
grouped by family), the short citation under it, and the longest texts its header can show."""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

from robust_subspace_lab.core import catalogue

__all__ = ["fill_method_combo", "citation", "CITATIONS", "LONGEST_STATUS", "LONGEST_COLLAPSE"]


def citation(reference: str) -> str:
    """The authors, venue and year of a catalogue reference: its text before the first ": "
    (the equations and algorithms after it go to the tooltip and the "?" text)."""
    return reference.split(": ", 1)[0]


#: the citation of every method of the columns (the reference label is as high as the longest)
CITATIONS = tuple(citation(m.reference) for m in catalogue.methods())
#: the longest status line a column shows (app.runner.ColumnRunner.status_line, max_iter case)
LONGEST_STATUS = "iteration 10000  ·  ⚠ stopped at max_iter (10000) without converging"
#: the longest collapse line (app.column_help.CollapseNote)
LONGEST_COLLAPSE = "⚠ weights collapsed: 10000 samples carry 100 % of the weight"


def fill_method_combo(combo: QtWidgets.QComboBox, infos) -> None:
    """The methods grouped by ``MethodInfo.family`` (families in order of first appearance),
    each family under a disabled header item (item data None); tooltips: summary + reference."""
    families: dict[str, list] = {}
    for info in infos:
        families.setdefault(info.family, []).append(info)
    model = QtGui.QStandardItemModel(combo)
    for family, members in families.items():
        header = QtGui.QStandardItem(family)
        header.setFlags(QtCore.Qt.NoItemFlags)
        f = header.font()
        f.setBold(True)
        f.setItalic(True)
        header.setFont(f)
        header.setForeground(QtGui.QBrush(QtGui.QColor("#666666")))
        model.appendRow(header)
        for info in members:
            item = QtGui.QStandardItem(info.name)
            item.setData(info.key, QtCore.Qt.UserRole)
            item.setToolTip(f"{info.summary}\n\n{info.reference}")
            model.appendRow(item)
    combo.setModel(model)
