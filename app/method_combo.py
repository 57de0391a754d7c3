"""The method combo box of a column: the catalogue's methods grouped by family (no numerics)."""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["fill_method_combo"]


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
