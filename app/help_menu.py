"""Help ▸ Keyboard shortcuts and Help ▸ About of the main window (a mixin of
:class:`app.main_window.MainWindow`: it reads the window's menu bar)."""
from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets

__all__ = ["ABOUT_PAPERS", "HelpActions"]

#: the papers the app implements (Help ▸ About)
ABOUT_PAPERS = (
    "J. Oh, N. Kwak, Generalized mean for robust principal component analysis, Pattern Recognition, 2016",
    "F. Nie, J. Yuan, H. Huang, Optimal Mean Robust Principal Component Analysis, ICML 2014",
    "Q. Zhao, D. Meng, Z. Xu, Robust sparse principal component analysis, Sci. China Inf. Sci., 2014",
    "N. Guan, T. Liu, Y. Zhang, D. Tao, L. S. Davis, Truncated Cauchy Non-negative Matrix Factorization, "
    "IEEE TPAMI, 2019",
    "D. Huang, R. Cabral, F. De la Torre, Robust Regression, IEEE TPAMI, 2016",
)


class HelpActions:
    """The Help menu's boxes (non-modal); mixed into the main window."""

    def shortcuts_text(self) -> str:
        """Every menu action with a shortcut, as "key: action" lines."""
        lines = []
        for menu_action in self.menuBar().actions():
            menu = menu_action.menu()
            for act in (menu.actions() if menu else []):
                keys = ", ".join(k.toString(QtGui.QKeySequence.NativeText) for k in act.shortcuts())
                if keys:
                    lines.append(f"{keys}: {menu_action.text().replace('&', '')} ▸ {act.text().replace('&', '')}")
        return "\n".join(lines)

    def show_shortcuts(self) -> QtWidgets.QMessageBox:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Information, "Keyboard shortcuts",
                                    self.shortcuts_text(), parent=self)
        box.setModal(False)
        box.show()
        self._help_box = box
        return box

    def about_text(self) -> str:
        from importlib.metadata import PackageNotFoundError, version
        try:
            ver = version("robust-subspace-lab")
        except PackageNotFoundError:
            ver = "(source checkout)"
        papers = "".join(f"<li>{p}</li>" for p in ABOUT_PAPERS)
        return (f"<b>Robust Subspace Lab</b> {ver}<br>Watch robust subspace methods down-weight outliers, "
                f"one iteration at a time.<br><br>It implements:<ul>{papers}</ul>"
                "Faces: Labeled Faces in the Wild (through scikit-image); digits: MNIST (Y. LeCun, C. Cortes, "
                "C. J. C. Burges). Licence: MIT.")

    def show_about(self) -> QtWidgets.QMessageBox:
        box = QtWidgets.QMessageBox(QtWidgets.QMessageBox.Information, "About Robust Subspace Lab", "", parent=self)
        box.setTextFormat(QtCore.Qt.RichText)
        box.setText(self.about_text())
        box.setModal(False)
        box.show()
        self._help_box = box
        return box
