import os

from hypothesis import settings

# GUI tests run without a display.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# Hypothesis's example counts: the default run draws few examples per property; CI's second run
# (.ci/run: ``pytest -m "slow or hypothesis" --hypothesis-profile=thorough``) draws ten times as
# many. A property test without its own ``max_examples`` takes the profile's; one whose examples
# are costly scales it (``settings.default.max_examples // 4``: test_hostile_estimators).
settings.register_profile("default", deadline=None, max_examples=24)
settings.register_profile("thorough", deadline=None, max_examples=240)
settings.load_profile("default")

import re  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

#: the page whose "How to add a corruption" section holds the worked example the tests run as written
ARCHITECTURE = Path(__file__).resolve().parent.parent / "docs" / "architecture.md"


def corruption_example_source() -> str:
    """The one ```python block of docs/architecture.md's "How to add a corruption" section."""
    section = ARCHITECTURE.read_text(encoding="utf-8").split("## How to add a corruption\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(blocks) == 1, f"expected one python block in the section, found {len(blocks)}"
    return blocks[0]


@pytest.fixture
def example_corruption():
    """The docs' example corruption ("white_stripe") registered by running the docs' code as written;
    taken out of the registry after the test. Yields the namespace the code ran in."""
    from robust_subspace_lab.core.corruption import CORRUPTIONS

    namespace: dict = {}
    exec(compile(corruption_example_source(), str(ARCHITECTURE), "exec"), namespace)
    try:
        yield namespace
    finally:
        CORRUPTIONS.pop("white_stripe", None)
