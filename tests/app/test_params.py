"""Controls built from ParamSpecs: no parameter name is hard-coded in the app."""
from __future__ import annotations

import math

import pytest

from robust_subspace_lab.app import params as P
from robust_subspace_lab.core import catalogue, corruption
from robust_subspace_lab.core.params import ParamSpec


def test_groups_follow_the_catalogue():
    for info in catalogue.methods():
        group = P.build_group(info.key, info.params)
        assert [c.name() for c in group.children()] == [s.name for s in info.params]
        assert P.group_values(group) == info.defaults()
        for spec, child in zip(info.params, group.children()):
            assert spec.doc in child.opts["tip"]
    for key, spec in corruption.CORRUPTIONS.items():
        group = P.build_group(key, spec.params)
        assert P.group_values(group) == spec.defaults()


def test_choice_and_int_controls():
    spec = corruption.CORRUPTIONS["rectangles"]
    group = P.build_group("r", spec.params)
    content = group.child("content")
    assert content.type() == "list"
    assert set(content.opts["limits"].values()) == {"dots", "black", "white"}
    seed = group.child("seed")
    assert seed.type() == "int"
    seed.setValue(7.0)
    assert P.group_values(group)["seed"] == 7 and isinstance(P.group_values(group)["seed"], int)


def test_main_slider_choice():
    assert P.main_spec(catalogue.get("pca-gm").params).name == "p"          # linear float
    assert P.main_spec(catalogue.get("rpca-om").params).name == "n_components"
    assert P.main_spec(catalogue.get("pca").params).name == "n_components"


@pytest.mark.parametrize("spec, values", [
    (ParamSpec("p", "p", "float", 0.3, "power", low=0.0, high=1.0, low_open=True, slider=(0.01, 1.0)),
     [0.01, 0.3, 1.0]),
    (ParamSpec("tol", "tol", "float", 1e-6, "tolerance", low=0.0, scale="log", slider=(1e-12, 1e-2)),
     [1e-12, 1e-6, 1e-2]),
    (ParamSpec("k", "k", "int", 10, "components", low=1, slider=(1, 60)), [1, 10, 60]),
])
def test_spec_slider_maps_linear_log_and_int(qtbot, spec, values):
    group = P.build_group("g", [spec])
    slider = P.SpecSlider(spec, group.child(spec.name))
    qtbot.addWidget(slider)
    for v in values:
        pos = slider.value_to_position(v)
        back = slider.position_to_value(pos)
        assert math.isclose(back, v, rel_tol=1e-2), (v, pos, back)
    # moving the slider sets the parameter; setting the parameter moves the slider
    slider.slider.setValue(slider.slider.maximum())
    assert math.isclose(group.child(spec.name).value(), spec.slider[1], rel_tol=1e-3)
    group.child(spec.name).setValue(values[1])
    assert slider.slider.value() == slider.value_to_position(values[1])
    if spec.scale == "log":      # the middle of a log slider is the geometric mean
        mid = slider.position_to_value(slider.STEPS // 2)
        assert math.isclose(mid, math.sqrt(spec.slider[0] * spec.slider[1]), rel_tol=1e-2)


def _rho_box(qtbot):
    """The spin box of ρ ∈ (1, 2) (PCP's ALM penalty growth) in a parameter tree."""
    import pyqtgraph as pg

    info = catalogue.get("pcp")
    spec = info.spec("rho")
    assert spec.low == 1.0 and spec.low_open and spec.high == 2.0 and spec.high_open
    group = P.build_group("pcp", info.params)
    tree = P.make_tree(group)
    qtbot.addWidget(tree)
    child = group.child("rho")
    box = next(item.widget for item in child.items.keys() if isinstance(item.widget, pg.SpinBox))
    return spec, child, box, tree


def _type(box, text):
    box.lineEdit().setText(text)
    box.editingFinished.emit()


def test_box_refuses_what_the_method_refuses_as_it_is_typed(qtbot):
    spec, child, box, tree = _rho_box(qtbot)
    before = child.value()
    for text in ("1,5", "1.0", "2", "abc"):
        _type(box, text)
        assert child.value() == before, text                   # nothing applied
        assert box.lineEdit().text() != text, text             # the refused text is not left on screen
        assert "(1, 2)" in box.refused and spec.symbol in box.refused, box.refused
    assert "decimal point" in P.refusal(spec, "1,5")
    _type(box, "1.5")
    assert child.value() == 1.5 and box.refused == ""
    spec.validate(child.value())


def test_labels_are_unique_and_show_the_range():
    for info in catalogue.methods():
        titles = [P.spec_title(s) for s in info.params]
        assert len(set(titles)) == len(titles), (info.key, titles)
        for s in info.params:
            if s.kind in ("int", "float") and s.low is not None and s.high is not None:
                assert s.range_text().removeprefix("in ") in P.spec_title(s)
    assert P.range_hint(catalogue.get("pcp").spec("rho")) == "(1, 2)"


def test_refusals_speak_to_a_gui_user():
    """Every numeric parameter refuses an out-of-range value with its range as a reader says it
    ("≥ 1", "> 0", "in (0, 1]"), never "inf"; NMF's refusal of negative data names the
    corruption's option by its label, not numpy."""
    import numpy as np

    from robust_subspace_lab.core.errors import DataError, ParameterError
    from robust_subspace_lab.core.methods.nmf_state import check_nonnegative

    for info in catalogue.methods():
        for s in info.params:
            if s.kind in ("int", "float") and s.low is not None:
                with pytest.raises(ParameterError) as err:
                    s.validate(s.low - 1)
                assert "inf" not in str(err.value) and s.range_text() in str(err.value), str(err.value)
    with pytest.raises(DataError) as err:
        check_nonnegative(np.array([[1.0, -2.0]]))
    clip = [p for c in corruption.CORRUPTIONS.values() for p in c.params if p.name == "clip"]
    assert clip and f'"{clip[0].symbol}"' in str(err.value) and "np." not in str(err.value)


def _rows(tree):
    top = tree.topLevelItem(0)
    return [(top.child(i).param.name(), top.child(i).param.value()) for i in range(top.childCount())]


def test_a_tree_built_in_steps_is_the_tree_built_at_once_and_stops_when_replaced(qtbot):
    """tree_group_steps (a row per job of the build queue) ends with the rows, guarded editors
    and column widths of set_tree_group; its leftover steps after the tree was given another
    group add nothing."""
    import pyqtgraph as pg

    info = catalogue.get("pcp")
    whole, parts = P.make_tree(None), P.make_tree(None)
    for t in (whole, parts):
        qtbot.addWidget(t)
    P.set_tree_group(whole, P.build_group("pcp", info.params))
    group = P.build_group("pcp", info.params)
    steps = P.tree_group_steps(parts, group)
    next(steps)
    assert parts.topLevelItem(0).childCount() == 0                 # cleared and sized only
    n = sum(1 for _ in steps)
    assert n == len(info.params) and _rows(parts) == _rows(whole)
    assert parts.height() == whole.height() and parts.header().sectionSize(0) == whole.header().sectionSize(0)
    boxes = [item.widget for c in group.children() for item in c.items.keys()
             if isinstance(getattr(item, "widget", None), pg.SpinBox)]
    assert boxes and all(b._guarded for b in boxes)
    # replaced half way: the old steps stop and the new group's rows stay alone
    old = P.tree_group_steps(parts, P.build_group("pcp", info.params))
    next(old), next(old)
    other = catalogue.get("pca-gm")
    P.set_tree_group(parts, P.build_group("pca-gm", other.params))
    assert list(old) == []
    assert [name for name, _ in _rows(parts)] == [s.name for s in other.params]
