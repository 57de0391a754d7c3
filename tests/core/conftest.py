import numpy as np
import pytest

from robust_subspace_lab.core import corruption, datasets


@pytest.fixture(scope="session")
def faces():
    """The 100 built-in LFW faces, 25×25, grey levels 0–255."""
    return datasets.lfw_faces()


@pytest.fixture(scope="session")
def occluded(faces):
    """20% of the faces occluded by one rectangle of random black/white dots (paper 000 §5.1)."""
    return corruption.corrupt(faces, "rectangles", fraction=0.2, content="dots", seed=0)


@pytest.fixture(scope="session")
def with_dummies(faces):
    """The 100 faces plus 30 images of random black/white dots (paper 000's dummy outliers)."""
    return corruption.corrupt(faces, "dot_images", fraction=0.3, seed=0)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
