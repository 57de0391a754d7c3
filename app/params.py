"""Parameter controls built from :class:`core.params.ParamSpec` lists.

One function turns a tuple of specs (a method's ``MethodInfo.params`` or a corruption's
``CorruptionSpec.params``) into a pyqtgraph :class:`~pyqtgraph.parametertree.Parameter` group;
:class:`SpecSlider` is a slider for one numeric spec, mapped linearly or logarithmically over
``ParamSpec.slider`` (or the spec's bounds). No parameter name is hard-coded here: adding a method
or a corruption adds no app code.
"""
from __future__ import annotations

import math
from typing import Any, Iterable, Iterator

from pyqtgraph import SpinBox
from pyqtgraph.parametertree import Parameter, ParameterTree
from PySide6 import QtCore, QtWidgets

__all__ = ["spec_title", "range_hint", "guard_box", "refusal", "spec_tooltip", "build_group", "group_values", "set_group_values",
           "main_spec", "rebuild_group", "show_method", "slider_specs", "make_tree", "set_tree_group",
           "tree_group_steps", "SpecSlider", "format_value"]


def format_value(value: Any) -> str:
    """Short display text for a parameter value."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def range_hint(spec) -> str:
    """The valid range of a numeric spec in a few characters: "(1, 2)", "≥ 1", "> 0", or "" for
    other kinds and unbounded numbers."""
    if spec.kind not in ("int", "float") or (spec.low is None and spec.high is None):
        return ""
    return spec.range_text().removeprefix("in ")


def spec_title(spec) -> str:
    """Display title: the paper's symbol, plus the keyword name when it differs (so that two
    parameters with the same symbol never share a label), plus the valid range."""
    same = spec.symbol.replace(" ", "_").lower() == spec.name.lower()
    title = spec.symbol if same else f"{spec.symbol}  ({spec.name})"
    hint = range_hint(spec)
    return f"{title}  {hint}" if hint else title


def spec_tooltip(spec) -> str:
    return f"{spec.name}: {spec.doc}\nallowed: {spec.range_text()}; default {format_value(spec.default)}"


def _choice_label(choice: Any) -> str:
    return str(choice)


def _auto_number(spec) -> float:
    """The number a box shows for the word ``spec.auto`` (γ = "scale") before the data are known:
    its value for no samples (γ: the rule's floor, 1.5). The runner replaces it by the data's own
    (:func:`core.session.run.resolve_auto`)."""
    return spec.resolved(spec.auto, (0, 1))


def _is_auto(spec, value: Any) -> bool:          # spec: a core.params.ParamSpec
    return spec.auto is not None and isinstance(value, str) and value == spec.auto


def _spec_to_dict(spec, value: Any) -> dict:
    # a word (γ = "scale") is shown as its number; the box gives the word back while that number
    # is untouched (group_values)
    auto = _auto_number(spec) if _is_auto(spec, value) else None
    value = value if auto is None else auto
    # the box's "back to default" button needs a number: the one that stands for the word
    default = _auto_number(spec) if _is_auto(spec, spec.default) else spec.default
    base = {"name": spec.name, "title": spec_title(spec), "tip": spec_tooltip(spec),
            "value": value, "default": default, "spec": spec, "auto": auto}
    if spec.kind == "choice":
        base.update(type="list", limits={_choice_label(c): c for c in spec.choices})
    elif spec.kind == "bool":
        base.update(type="bool", value=bool(value))
    elif spec.kind == "int":
        base.update(type="int", limits=(spec.low, spec.high), step=1)
    else:  # float
        lo, hi = spec.slider if spec.slider is not None else (spec.low, spec.high)
        if spec.scale == "log":
            base.update(type="float", dec=True, step=0.5, minStep=1e-15, decimals=3)
        else:
            span = (hi - lo) if (lo is not None and hi is not None) else 1.0
            base.update(type="float", step=10 ** math.floor(math.log10(span / 20)) if span > 0 else 0.01,
                        decimals=4)
        # the spec's bounds as the box's limits; an excluded bound (ρ ∈ (1, 2): 1) is refused as
        # it is typed (guard_box), and a value set in code outside the range reaches the runner,
        # which refuses it with a message (not silently clamped to a nearby value)
        base.update(limits=(spec.low, spec.high))
    return base


def build_group(name: str, specs: Iterable, values: dict | None = None) -> Parameter:
    """A pyqtgraph group Parameter with one child per spec (value from ``values`` or the default)."""
    values = values or {}
    children = [_spec_to_dict(s, values.get(s.name, s.default)) for s in specs]
    return Parameter.create(name=name, type="group", children=children)


def group_values(group: Parameter) -> dict[str, Any]:
    """``{name: value}`` of the group's children, ints kept as ints; a box showing the number of
    its spec's word (γ = "scale", see :func:`build_group`) untouched gives the word."""
    out = {}
    for child in group.children():
        v = child.value()
        if child.type() == "int" and isinstance(v, float) and v == int(v):
            v = int(v)
        if child.opts.get("auto") is not None and v == child.opts["auto"]:
            v = child.opts["spec"].auto
        out[child.name()] = v
    return out


def set_group_values(group: Parameter, values: dict[str, Any]) -> None:
    """Set the children's values (unknown names are ignored). Callers that listen to the group
    guard against the resulting change signals themselves."""
    names = {c.name() for c in group.children()}
    for name, v in values.items():
        if name in names:
            child = group.child(name)
            spec = child.opts.get("spec")
            child.opts["auto"] = _auto_number(spec) if _is_auto(spec, v) else None
            child.setValue(v if child.opts["auto"] is None else child.opts["auto"])


def main_spec(specs: Iterable):
    """The parameter a slider is worth showing for: the first linear float parameter, otherwise
    the first numeric parameter with a slider range (e.g. k). None if there is none."""
    specs = list(specs)
    for s in specs:
        if s.kind == "float" and s.scale == "linear" and _slider_range(s) is not None:
            return s
    for s in specs:
        if s.kind in ("float", "int") and s.slider is not None:
            return s
    return None


def rebuild_group(old: Parameter | None, name: str, specs: Iterable, values: dict | None,
                  on_change) -> Parameter:
    """A fresh group for ``specs`` (see :func:`build_group`) whose tree changes call
    ``on_change(group, changes)``; ``old`` (the group it replaces, or None) is unwired first."""
    if old is not None:
        try:
            old.sigTreeStateChanged.disconnect(on_change)
        except (RuntimeError, TypeError):
            pass
    group = build_group(name, specs, values)
    group.sigTreeStateChanged.connect(on_change)
    return group


def show_method(combo: QtWidgets.QComboBox, info, values: dict, group: Parameter | None,
                group_key: str | None, rebuild) -> None:
    """Show method ``info`` with parameter ``values`` in a method combo and its parameter group:
    select it in ``combo`` (summary and reference as tooltip), then set the values in ``group``
    when it already belongs to ``info.key``, else call ``rebuild(info, values)``. Callers block
    their own change handlers around this."""
    i = combo.findData(info.key)
    if i >= 0:
        combo.setCurrentIndex(i)
    combo.setToolTip(f"{info.summary}\n\n{info.reference}")
    if group is not None and group_key == info.key:
        set_group_values(group, values)
    else:
        rebuild(info, values)


def slider_specs(specs: Iterable) -> list:
    """The numeric parameters a slider can drive (those with a slider range), in spec order."""
    return [s for s in specs if s.kind in ("float", "int") and _slider_range(s) is not None]


def _forget_root_item(state: dict) -> None:
    state.pop("_invRootItem", None)


def make_tree(group: Parameter | None, rows_visible: int | None = None) -> ParameterTree:
    """A compact ParameterTree showing the group's children at top level.

    pyqtgraph's TreeWidget keeps a Python wrapper of the tree's invisible root item. When the
    tree is deleted, Qt deletes that item but PySide does not invalidate the wrapper, so a later
    C++ object allocated at the same address comes back to Python as that stale wrapper (seen
    as ``QMenu`` objects turning into ``QTreeWidgetItem`` and as crashes after a window closes).
    The wrapper is dropped as soon as the tree is destroyed (the hook holds the tree's instance
    dict, not the tree, so it does not keep the tree alive)."""
    tree = ParameterTree(showHeader=False)
    tree.destroyed.connect(lambda *_, state=tree.__dict__: _forget_root_item(state))
    tree.setRootIsDecorated(False)
    tree.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarAsNeeded)
    tree.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarAlwaysOff)
    tree._column_sharer = _ColumnSharer(tree)
    set_tree_group(tree, group, rows_visible)
    return tree


def _titles(spec) -> list[str]:
    """A parameter's titles, longest first: :func:`spec_title`, without the range, the symbol with
    the range, the symbol alone (the full title and the range are in the row's tooltip)."""
    full, hint = spec_title(spec), range_hint(spec)
    bare = full.removesuffix(f"  {hint}") if hint else full
    return list(dict.fromkeys([full, bare, f"{spec.symbol}  {hint}" if hint else spec.symbol, spec.symbol]))


def _tree_items(tree) -> list:
    """Every item of ``tree``, depth first (a QTreeWidgetItemIterator kept the rows it had
    visited alive after the tree let go of them: each method change leaked its parameter group)."""
    out, todo = [], [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
    while todo:
        item = todo.pop(0)
        out.append(item)
        todo[:0] = [item.child(i) for i in range(item.childCount())]
    return out


class _ColumnSharer(QtCore.QObject):
    """Shares a parameter tree's width between names and values as it is resized: the values get
    the room their texts (and ↺ buttons) need, the names the rest; a name that does not fit there
    is shown shorter (:func:`_titles`), its full title in its tooltip."""

    def __init__(self, tree: ParameterTree):
        super().__init__(tree)
        self.tree = tree
        tree.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        if event.type() in (QtCore.QEvent.Resize, QtCore.QEvent.FontChange, QtCore.QEvent.Show):
            self.share()
        return False

    def share(self) -> None:
        tree = self.tree
        header = tree.header()
        if header.count() < 2:
            return
        room = tree.viewport().width()
        fm = tree.fontMetrics()
        pad = tree.indentation() + 12               # indentation, the item's margins
        value_need, rows = 0, []
        for item in _tree_items(tree):
            param = getattr(item, "param", None)      # (group rows have none; pyqtgraph's item types vary)
            spec = param.opts.get("spec") if param is not None else None
            if spec is None or item.isHidden():
                continue
            label, button = getattr(item, "displayLabel", None), getattr(item, "defaultBtn", None)
            need = 8 + (label.fontMetrics().horizontalAdvance(label.text()) if label is not None else 0)
            if button is not None and not button.isHidden():
                need += button.width() + 2
            value_need = max(value_need, need)
            rows.append((item, _titles(spec), param.opts.get("tip", "")))
        if not rows:
            return
        name_room = max(room - value_need, header.minimumSectionSize())
        widest = 0
        for item, titles, tip in rows:
            text = next((t for t in titles if fm.horizontalAdvance(t) + pad <= name_room), titles[-1])
            if item.text(0) != text:
                item.setText(0, text)
            item.setToolTip(0, f"{titles[0]}\n{tip}" if text != titles[0] else tip)
            widest = max(widest, fm.horizontalAdvance(text) + pad)
        header.setSectionResizeMode(0, QtWidgets.QHeaderView.Interactive)
        header.resizeSection(0, max(header.minimumSectionSize(), min(widest, name_room)))


def set_tree_group(tree: ParameterTree, group: Parameter | None, rows_visible: int | None = None,
                   fixed_rows: bool = False) -> None:
    """Show ``group`` in ``tree``, ``rows_visible`` rows high (None: every row; more rows scroll).
    ``fixed_rows``: always that height, even for fewer parameters (trees side by side align).

    The rows shown before are deleted (``QTreeWidget.clear``), not only taken out as pyqtgraph's
    ``ParameterTree.clear`` does: PySide's wrapper of the root item kept every taken row, and
    with it the replaced group, alive (one group and its rows leaked per method change); and
    pyqtgraph's list of the editors' holder widgets (``placeholders``, never pruned by it) is
    emptied with them. :func:`tree_group_steps` does the same in steps."""
    for _ in tree_group_steps(tree, group, rows_visible, fixed_rows):
        pass


def tree_group_steps(tree: ParameterTree, group: Parameter | None, rows_visible: int | None = None,
                     fixed_rows: bool = False) -> Iterator[None]:
    """:func:`set_tree_group` in steps, for a GUI-thread job queue (:meth:`app.ui_queue.UiQueue.
    post_steps`): each ``next`` does one part: the first clears and sizes the tree, each later one
    adds one parameter's row (1-4 ms: its editor widget is made and shown), the last sets the
    columns' widths. The steps stop early if the tree was given another group meanwhile. (A
    method column's whole tree, built in one job, took 10-28 ms of the GUI thread, plus the
    repaint: the six-column preset's longest event-loop gaps.)"""
    QtWidgets.QTreeWidget.clear(tree)
    tree.placeholders.clear()
    children = group.children() if group is not None else []
    n = len(children)
    rows = n if rows_visible is None else (rows_visible if fixed_rows else min(n, rows_visible))
    row_h = max(tree.fontMetrics().height() + 7, 21)      # the height pyqtgraph's editors use
    tree.setFixedHeight(rows * row_h + 2 * tree.frameWidth() + 3 if (n or fixed_rows) else 0)
    tree.setVisible(bool(n) or fixed_rows)
    tree.setIndentation(6)
    if n:
        # what pyqtgraph's ParameterTree.setParameters(group, showTop=False) does, a row a step
        def replaced() -> bool:                 # the tree shows something else now
            return tree.topLevelItemCount() != 1 or tree.topLevelItem(0) is not top

        top = group.makeTreeItem(depth=0)
        top.setText(0, "")
        top.setSizeHint(0, QtCore.QSize(1, 1))
        top.setSizeHint(1, QtCore.QSize(1, 1))
        tree.invisibleRootItem().addChild(top)
        top.treeWidgetChanged()
        for child in children:
            yield
            if replaced():
                return
            tree.addParameters(child, root=top, depth=0)
            for item in list(child.items.keys()):
                box = getattr(item, "widget", None)     # (only pyqtgraph's editor items have a widget)
                if isinstance(box, SpinBox) and child.opts.get("spec") is not None:
                    guard_box(box, child.opts["spec"])
        yield
        if replaced():
            return
    # The names get what the values leave them (_ColumnSharer); the editors take the rest.
    header = tree.header()
    header.setMinimumSectionSize(40)
    header.setSectionResizeMode(0, QtWidgets.QHeaderView.ResizeToContents)
    if header.count() > 1:
        header.setSectionResizeMode(1, QtWidgets.QHeaderView.Stretch)
    sharer = getattr(tree, "_column_sharer", None)   # (a tree from make_tree has one; another tree not)
    if sharer is not None:
        sharer.share()


def refusal(spec, text: str) -> str:
    """The message a GUI user reads when a box refuses ``text`` for ``spec``."""
    what = "a whole number" if spec.kind == "int" else "a number"
    hint = range_hint(spec)
    return (f"{spec.symbol}: “{text}” is not accepted; type {what}"
            + (f" in {hint}" if hint.startswith(("(", "[")) else f" {hint}" if hint else "")
            + " (decimal point, not comma)" * ("," in text))


def guard_box(box: SpinBox, spec) -> None:
    """Make the spin box ``box`` of ``spec`` refuse, as it is typed, what the method would
    refuse: a text that is no number ("1,5") or outside the spec's range (ρ = 1 for ρ ∈ (1, 2))
    is not applied and not left on screen: the box shows its last valid value again, and the
    refusal (with the valid range) appears as the box's tooltip and in ``box.refused``."""
    if getattr(box, "_guarded", False):          # (pyqtgraph's SpinBox: the mark this function sets on it)
        return
    box._guarded = True
    box.refused = ""
    try:
        box.editingFinished.disconnect(box.editingFinishedEvent)
    except (RuntimeError, TypeError):
        pass
    tip = box.toolTip()

    def finish():
        text = box.lineEdit().text()
        if text == box.lastText:
            return
        try:
            val = box.interpret()
        except Exception:                        # noqa: BLE001  (pyqtgraph's parser)
            val = False
        ok = val is not False and val is not None
        if ok:
            try:
                v = spec.validate(int(val) if spec.kind == "int" else float(val))
            except Exception:                    # noqa: BLE001  (ParameterError, ValueError)
                ok = False
        if not ok:
            box.refused = refusal(spec, text)
            box.setToolTip(box.refused)
            QtWidgets.QToolTip.showText(box.mapToGlobal(QtCore.QPoint(0, box.height())), box.refused, box)
            box.updateText()                     # the last valid value, not the refused text
            return
        box.refused = ""
        box.setToolTip(tip)
        if v != box.value():
            box.setValue(v, delaySignal=False)

    box.editingFinished.connect(finish)


def _slider_range(spec) -> tuple[float, float] | None:
    if spec.slider is not None:
        lo, hi = spec.slider
    else:
        lo, hi = spec.low, spec.high
    if lo is None or hi is None or not (hi > lo):
        return None
    if spec.scale == "log" and lo <= 0:
        return None
    return float(lo), float(hi)


class SpecSlider(QtWidgets.QWidget):
    """A labelled slider for one numeric :class:`ParamSpec`, bound to a pyqtgraph Parameter.

    The slider covers ``spec.slider`` (or the bounds) with 1000 steps, linearly or on a log scale
    (``spec.scale == "log"``); ints snap to whole numbers. Moving the slider sets the Parameter
    (which then emits its own change signal); a change of the Parameter moves the slider.
    """

    STEPS = 1000

    def __init__(self, spec, param: Parameter, parent=None):
        super().__init__(parent)
        self.spec = spec
        self.param = param
        lo_hi = _slider_range(spec)
        if lo_hi is None:
            raise ValueError(f"{spec.name} has no slider range")
        self.lo, self.hi = lo_hi
        lay = QtWidgets.QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.name_label = QtWidgets.QLabel(spec.symbol)
        self.name_label.setToolTip(spec_tooltip(spec))
        f = self.name_label.font()
        f.setBold(True)
        self.name_label.setFont(f)
        self.slider = QtWidgets.QSlider(QtCore.Qt.Horizontal)
        self.slider.setRange(0, self.STEPS if spec.kind == "float" else int(round(self.hi - self.lo)))
        self.slider.setToolTip(spec_tooltip(spec))
        self.value_label = QtWidgets.QLabel()
        self.value_label.setMinimumWidth(self.value_label.fontMetrics().horizontalAdvance("0.0000e-00"))
        self.value_label.setAlignment(QtCore.Qt.AlignRight | QtCore.Qt.AlignVCenter)
        lay.addWidget(self.name_label)
        lay.addWidget(self.slider, 1)
        lay.addWidget(self.value_label)
        self.slider.valueChanged.connect(self._on_slider)
        param.sigValueChanged.connect(self._on_param)
        self._sync(param.value())

    # ---------------------------------------------------------------- mapping
    def position_to_value(self, pos: int):
        if self.spec.kind == "int":
            return int(round(self.lo)) + int(pos)
        t = pos / self.STEPS
        if self.spec.scale == "log":
            return float(math.exp(math.log(self.lo) + t * (math.log(self.hi) - math.log(self.lo))))
        return float(self.lo + t * (self.hi - self.lo))

    def value_to_position(self, value) -> int:
        try:
            v = float(value)
        except (TypeError, ValueError):
            return 0
        v = min(max(v, self.lo), self.hi)
        if self.spec.kind == "int":
            return int(round(v - self.lo))
        if self.spec.scale == "log":
            t = (math.log(v) - math.log(self.lo)) / (math.log(self.hi) - math.log(self.lo))
        else:
            t = (v - self.lo) / (self.hi - self.lo)
        return int(round(t * self.STEPS))

    # ---------------------------------------------------------------- sync
    def _sync(self, value) -> None:
        self.value_label.setText(format_value(value))
        blocked = self.slider.blockSignals(True)
        self.slider.setValue(self.value_to_position(value))
        self.slider.blockSignals(blocked)

    def _on_slider(self, pos: int) -> None:
        value = self.position_to_value(pos)
        if self.spec.kind == "float":
            value = float(f"{value:.4g}")   # round to what the label shows
        self.value_label.setText(format_value(value))
        self.param.setValue(value)

    def _on_param(self, param, value) -> None:
        self._sync(value)

    def disconnect_param(self) -> None:
        try:
            self.param.sigValueChanged.disconnect(self._on_param)
        except (RuntimeError, TypeError):
            pass

    def discard(self) -> None:
        """Unwire from the parameter and delete the widget."""
        self.disconnect_param()
        self.setParent(None)
        self.deleteLater()
