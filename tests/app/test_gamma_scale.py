"""γ = "scale" of Outlier Pursuit and CRPCA-OM in a method column, driven as a user drives it: the
γ control shows the number for the data shown, the run uses it, and it follows the data until
the user sets γ."""
from __future__ import annotations

import pytest
from robust_subspace_lab.core.methods.convex import gamma_scale

WAIT = 15000


def _settle(qtbot, win, col):
    qtbot.waitUntil(lambda: col.runner.data is win.subspace.data and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)


def _shown_and_used(col) -> tuple:
    """γ in the parameter tree, on the slider, in the runner's parameters and in the run."""
    return (col.param_group().child("gamma").value(), col._slider.value_label.text(),
            col.runner.params["gamma"], col.runner.estimator.gamma_)


@pytest.mark.slow
def test_gamma_control_follows_the_data_until_the_user_sets_it(qtbot, make_window):
    win = make_window(methods=("crpca-om",))
    col = win.subspace.columns[0]
    col.slider_combo.setCurrentIndex(col.slider_combo.findData("gamma"))     # the slider drives γ
    assert col._slider is not None and col._slider.spec.name == "gamma"
    faces = gamma_scale(*win.subspace.data.X.shape)
    assert win.subspace.data.X.shape == (100, 625) and faces == 1.5
    assert _shown_and_used(col) == (1.5, "1.5", 1.5, 1.5)

    # more samples than features: the digits at 14 × 14 (5,000 × 196: γ = 2√(n/d) = 10.1)
    messages = []
    win.statusBar().messageChanged.connect(messages.append)
    assert win.subspace.load_builtin("digits", size=(14, 14))
    _settle(qtbot, win, col)
    digits = gamma_scale(5000, 196)
    assert digits == 10.1
    assert _shown_and_used(col) == (digits, "10.1", digits, digits)
    assert any("γ = 10.1 for this data" in m for m in messages), messages     # the user is told

    # another parameter changed: γ stays "scale" and follows the next data
    col.param_group().child("rho").setValue(1.2)
    col.apply_params()
    qtbot.waitUntil(lambda: col.runner.params["rho"] == 1.2 and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    assert col.runner.estimator.gamma_ == digits
    assert win.subspace.load_builtin("faces")
    _settle(qtbot, win, col)
    assert _shown_and_used(col) == (1.5, "1.5", 1.5, 1.5) and col.runner.params["rho"] == 1.2

    # a γ the user sets is kept on any data
    col._slider.slider.setValue(col._slider.value_to_position(4.0))
    col.apply_params()
    qtbot.waitUntil(lambda: col.runner.params["gamma"] != 1.5 and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    chosen = col.runner.params["gamma"]
    assert abs(chosen - 4.0) < 0.05 and col.runner.estimator.gamma_ == chosen
    assert win.subspace.load_builtin("digits", size=(14, 14))
    _settle(qtbot, win, col)
    assert _shown_and_used(col)[::2] == (chosen, chosen)


def test_gamma_box_before_data_shows_the_square_data_value_and_keeps_the_word(qtbot):
    """Without data the box shows 1.5 (the rule's floor, its value for few samples) and gives
    "scale" back while untouched; a number set is a number."""
    from robust_subspace_lab.app import params as P
    from robust_subspace_lab.core import catalogue

    info = catalogue.get("outlier-pursuit")
    group = P.build_group(info.key, info.params)
    assert group.child("gamma").value() == 1.5
    assert P.group_values(group)["gamma"] == "scale" == info.defaults()["gamma"]
    group.child("gamma").setValue(2.5)
    assert P.group_values(group)["gamma"] == 2.5
    P.set_group_values(group, {"gamma": "scale"})
    assert group.child("gamma").value() == 1.5 and P.group_values(group)["gamma"] == "scale"
    P.set_group_values(group, {"gamma": 1.5})            # a number, though the same: a number
    assert P.group_values(group)["gamma"] == 1.5


def test_gamma_back_to_default_button_gives_the_rule_again(qtbot, make_window):
    """The tree's "back to default" button of γ (its default is the word "scale") sets the
    number that stands for the word, without an error (it raised ValueError: 'scale' is no
    float, found by the random-use benchmark)."""
    win = make_window(methods=("outlier-pursuit",))
    col = win.subspace.columns[0]
    gamma = col.param_group().child("gamma")
    gamma.setValue(4.0)
    col.apply_params()
    qtbot.waitUntil(lambda: col.runner.params["gamma"] == 4.0 and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    item = next(iter(gamma.items))
    with qtbot.capture_exceptions() as raised:
        item.defaultBtn.click()
        col.apply_params()
    assert not raised, raised
    qtbot.waitUntil(lambda: col.runner.params["gamma"] == 1.5 and bool(col.runner.states) and not win.busy,
                    timeout=WAIT)
    assert gamma.value() == 1.5 and col.runner.estimator.gamma_ == gamma_scale(*win.subspace.data.X.shape) == 1.5
