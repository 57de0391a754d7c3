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
