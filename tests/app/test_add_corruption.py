"""A corruption added as docs/architecture.md "How to add a corruption" shows (its worked example, run
as written by the ``example_corruption`` fixture of tests/conftest.py): the window built after it is
registered offers it in the data panel and the regression tab, builds its parameter tree from its
ParamSpecs, and corrupts the images with it when a person picks it and edits a value."""
from __future__ import annotations

WAIT = 20000


def test_the_window_offers_a_registered_corruption(qtbot, make_window, example_corruption):
    win = make_window(size=(24, 24))
    ws = win.subspace
    combo = ws.data_panel.corruption_combo
    i = combo.findData("white_stripe")
    assert i == combo.count() - 1 and combo.itemText(i) == "White stripe"
    assert ws.corruption_key != "white_stripe"
    assert win.regression.corruption_combo.findData("white_stripe") >= 0

    combo.setCurrentIndex(i)                                    # as a person picks it
    qtbot.waitUntil(lambda: ws.corruption_key == "white_stripe" and not ws.busy, timeout=WAIT)
    group = ws.data_panel.corruption_group()
    assert [c.name() for c in group.children()] == ["fraction", "width", "seed"]
    assert ws.data.description.startswith("white 2-px stripes on 20 of 100 images")

    group.child("width").setValue(5)                            # edit its own parameter
    ws.data_panel.apply_corruption()
    qtbot.waitUntil(lambda: ws.corruption_params.get("width") == 5 and not ws.busy, timeout=WAIT)
    assert ws.data.description.startswith("white 5-px stripes")
    assert all(c.runner.data is ws.data for c in ws.columns)
    assert ws.session.corruption.key == "white_stripe" and ws.session.corruption.params["width"] == 5
