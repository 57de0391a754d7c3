"""Tests for core.datasets: folder loading (fixtures generated in tmp_path) and built-in sets."""
from __future__ import annotations

import numpy as np
import pytest
from skimage import io

from robust_subspace_lab.core.datasets import (BUILTIN, SUPPORTED_EXTENSIONS, ImageSet, lfw_faces, lfw_nonfaces,
                           load_builtin, load_folder, resize_images)
from robust_subspace_lab.core import datasets
from robust_subspace_lab.core.errors import DataError, ParameterError


def _save(path, img):
    path.parent.mkdir(parents=True, exist_ok=True)
    io.imsave(str(path), img, check_contrast=False)


def _gradient(h=12, w=10, offset=0):
    return ((np.arange(h * w).reshape(h, w) * 2 + offset) % 256).astype(np.uint8)


@pytest.fixture
def mixed_folder(tmp_path):
    """Two labelled subfolders of good PNGs plus every kind of trouble."""
    root = tmp_path / "data"
    _save(root / "alice" / "a1.png", _gradient(offset=0))
    _save(root / "alice" / "a2.png", _gradient(offset=10))
    _save(root / "bob" / "b1.png", _gradient(offset=20))
    _save(root / "bob" / "b2.jpg", _gradient(offset=30))
    rgba = np.zeros((12, 10, 4), dtype=np.uint8)
    rgba[..., 0] = 255          # pure red, half transparent
    rgba[..., 3] = 128
    _save(root / "bob" / "rgba.png", rgba)
    (root / "bob" / "broken.png").write_bytes(np.random.default_rng(0).bytes(300))
    (root / "alice" / "notes.txt").write_text("not an image")
    (root / "alice" / "empty.png").write_bytes(b"")
    (root / ".hidden.png").write_bytes(b"junk")
    (root / "bob" / ".DS_Store").write_bytes(b"junk")
    return root


def test_supported_extensions():
    for ext in (".png", ".jpg", ".jpeg", ".pgm", ".ppm", ".pnm", ".bmp", ".tif", ".tiff", ".gif", ".webp"):
        assert ext in SUPPORTED_EXTENSIONS


def test_palette_and_animated_gifs_load(tmp_path):
    """Palette GIFs (grey and colour palettes) load as grey levels; an animated GIF gives its
    first frame (before: "not an image file")."""
    from PIL import Image

    ramp = (np.arange(12 * 10).reshape(12, 10) * 2).astype(np.uint8)
    Image.fromarray(ramp).convert("P").save(tmp_path / "grey.gif")
    green = np.zeros((12, 10, 3), dtype=np.uint8)
    green[..., 1] = 255
    Image.fromarray(green).convert("P", palette=Image.ADAPTIVE).save(tmp_path / "green.gif")
    frames = [Image.fromarray(np.full((12, 10), v, dtype=np.uint8)).convert("P") for v in (40, 200)]
    frames[0].save(tmp_path / "anim.gif", save_all=True, append_images=frames[1:])
    data = load_folder(tmp_path)
    assert data.names == ("anim.gif", "green.gif", "grey.gif") and not data.skipped
    np.testing.assert_allclose(data.images[2], ramp, atol=1.0)
    np.testing.assert_allclose(data.images[1], 0.7154 * 255, atol=1.0)      # luminance of green
    np.testing.assert_allclose(data.images[0], 40.0, atol=1.0)


def test_load_folder_labels_names_and_skipped(mixed_folder):
    data = load_folder(mixed_folder)
    assert isinstance(data, ImageSet)
    assert data.names == ("alice/a1.png", "alice/a2.png", "bob/b1.png", "bob/b2.jpg", "bob/rgba.png")
    assert list(data.labels) == ["alice", "alice", "bob", "bob", "bob"]
    assert data.images.shape == (5, 12, 10)
    assert data.images.dtype == np.float64
    assert data.shape == (12, 10)
    assert data.X.shape == (5, 120)
    assert data.images.min() >= 0 and data.images.max() <= 255
    # 8-bit PNG loads exactly on the 0-255 scale
    np.testing.assert_array_equal(data.images[0], _gradient(offset=0).astype(float))
    # RGBA: alpha dropped, then luminance of pure red
    np.testing.assert_allclose(data.images[4], 0.2125 * 255, atol=1e-6)

    skipped = dict(data.skipped)
    assert set(skipped) == {"alice/empty.png", "alice/notes.txt", "bob/broken.png"}
    assert skipped["alice/notes.txt"] == "not an image file (.txt)"
    assert "empty" in skipped["alice/empty.png"]
    assert skipped["bob/broken.png"]          # a short, non-empty reason
    assert all(not name.split("/")[-1].startswith(".") for name, _ in data.skipped)
    assert data.source == str(mixed_folder)


def test_load_folder_is_deterministic(mixed_folder):
    a, b = load_folder(mixed_folder), load_folder(mixed_folder)
    assert a.names == b.names
    np.testing.assert_array_equal(a.images, b.images)


def test_load_folder_non_recursive(mixed_folder):
    _save(mixed_folder / "top.png", _gradient())
    data = load_folder(mixed_folder, recursive=False)
    assert data.names == ("top.png",)
    assert data.labels is None


def test_root_files_get_empty_label(mixed_folder):
    _save(mixed_folder / "top.png", _gradient())
    data = load_folder(mixed_folder)
    assert data.names[-1] == "top.png"
    assert data.labels[-1] == ""


def test_flat_folder_has_no_labels(tmp_path):
    for i in range(3):
        _save(tmp_path / f"img{i}.PNG", _gradient(offset=i))   # upper-case extension
    data = load_folder(tmp_path)
    assert data.labels is None
    assert data.names == ("img0.PNG", "img1.PNG", "img2.PNG")


def test_sixteen_bit_png_scaled_to_255(tmp_path):
    img = np.linspace(0, 65535, 12 * 10).reshape(12, 10).astype(np.uint16)
    img[0, 0], img[-1, -1] = 0, 65535
    _save(tmp_path / "deep.png", img)
    data = load_folder(tmp_path)
    assert data.images.max() == pytest.approx(255.0)
    assert data.images.min() == pytest.approx(0.0)
    np.testing.assert_allclose(data.images[0], img * (255.0 / 65535.0))


def test_pgm_from_raw_bytes(tmp_path):
    pixels = np.arange(12, dtype=np.uint8).reshape(3, 4) * 20
    (tmp_path / "raw.pgm").write_bytes(b"P5\n4 3\n255\n" + pixels.tobytes())
    data = load_folder(tmp_path)
    np.testing.assert_array_equal(data.images[0], pixels.astype(float))


def test_other_formats(tmp_path):
    rgb = np.zeros((12, 10, 3), dtype=np.uint8)
    rgb[..., 1] = 255                                   # pure green
    _save(tmp_path / "a.tif", rgb)
    _save(tmp_path / "b.BMP", rgb)
    _save(tmp_path / "c.ppm", rgb)
    grey_alpha = np.zeros((12, 10, 2), dtype=np.uint8)
    grey_alpha[..., 0], grey_alpha[..., 1] = 100, 7
    _save(tmp_path / "d.png", grey_alpha)
    _save(tmp_path / "e.tiff", np.full((12, 10), 0.5, dtype=np.float32))   # float in [0, 1]
    _save(tmp_path / "f.tif", np.zeros((3, 12, 10, 5), dtype=np.uint8))  # unsupported shape
    (tmp_path / "g.tif").write_bytes(np.random.default_rng(2).bytes(200))
    data = load_folder(tmp_path)
    assert data.names == ("a.tif", "b.BMP", "c.ppm", "d.png", "e.tiff")
    means = data.X.mean(axis=1)
    np.testing.assert_allclose(means[:3], 0.7154 * 255, atol=1e-6)
    np.testing.assert_allclose(means[3:], [100.0, 127.5])
    skipped = dict(data.skipped)
    assert set(skipped) == {"f.tif", "g.tif"}
    assert "shape" in skipped["f.tif"]


@pytest.mark.filterwarnings("error")
def test_broken_files_leave_no_open_handles(tmp_path):
    import gc

    _save(tmp_path / "ok.png", _gradient())
    for i in range(3):
        (tmp_path / f"bad{i}.png").write_bytes(np.random.default_rng(i).bytes(100))
        (tmp_path / f"bad{i}.jpg").write_bytes(b"\xff\xd8\xff" + bytes(40))
    data = load_folder(tmp_path)
    gc.collect()
    assert data.names == ("ok.png",) and len(data.skipped) == 6


def test_mixed_sizes_resized_to_most_common(tmp_path):
    _save(tmp_path / "a.png", _gradient(12, 10))
    _save(tmp_path / "b.png", _gradient(12, 10, 5))
    _save(tmp_path / "c.png", _gradient(30, 17))
    _save(tmp_path / "d.png", np.full((5, 5), 200, dtype=np.uint8))
    data = load_folder(tmp_path)
    assert data.images.shape == (4, 12, 10)
    np.testing.assert_allclose(data.images[3], 200.0)
    assert data.images.min() >= 0 and data.images.max() <= 255


def test_explicit_size(tmp_path):
    _save(tmp_path / "a.png", _gradient(12, 10))
    _save(tmp_path / "b.png", _gradient(30, 17))
    data = load_folder(tmp_path, size=(8, 6))
    assert data.images.shape == (2, 8, 6)


@pytest.mark.parametrize("size", [(0, 5), (5,), "ab", (2.5, 3), (-1, 4), (True, 3)])
def test_bad_size(tmp_path, size):
    _save(tmp_path / "a.png", _gradient())
    with pytest.raises(ParameterError, match="size"):
        load_folder(tmp_path, size=size)


def test_empty_folder(tmp_path):
    empty = tmp_path / "nothing_here"
    empty.mkdir()
    with pytest.raises(DataError, match="nothing_here"):
        load_folder(empty)


def test_only_broken_files(tmp_path):
    root = tmp_path / "broken_set"
    root.mkdir()
    (root / "x.png").write_bytes(b"\x89PNG not really")
    (root / "y.jpg").write_bytes(np.random.default_rng(1).bytes(100))
    (root / "z.csv").write_text("1,2,3")
    with pytest.raises(DataError) as info:
        load_folder(root)
    msg = str(info.value)
    assert "broken_set" in msg
    assert "3 file(s) skipped" in msg
    assert "not an image file (.csv)" in msg


def test_nonexistent_path(tmp_path):
    missing = tmp_path / "does_not_exist"
    with pytest.raises(DataError, match="does_not_exist"):
        load_folder(missing)


def test_file_instead_of_folder(tmp_path):
    f = tmp_path / "single.png"
    _save(f, _gradient())
    with pytest.raises(DataError, match="single.png"):
        load_folder(f)


def test_resize_images_helper():
    imgs = [np.full((4, 4), 100.0), np.arange(36, dtype=float).reshape(6, 6)]
    out = resize_images(imgs, (3, 5))
    assert out.shape == (2, 3, 5) and out.dtype == np.float64
    np.testing.assert_allclose(out[0], 100.0)
    stack = np.ones((2, 3, 5))
    same = resize_images(stack, (3, 5))
    assert same is not stack
    np.testing.assert_array_equal(same, stack)
    with pytest.raises(ParameterError, match="size"):
        resize_images(imgs, (0, 3))


def test_lfw_faces():
    faces = lfw_faces()
    assert len(faces) == 100
    assert faces.images.shape == (100, 25, 25)
    assert faces.images.dtype == np.float64
    assert faces.images.min() >= 0 and faces.images.max() <= 255
    assert faces.images.max() > 1          # really on the 0-255 scale
    assert faces.labels is None
    assert faces.names[0] == "lfw-face/0" and faces.names[-1] == "lfw-face/99"
    assert "LFW" in faces.source


def test_lfw_nonfaces_differ_from_faces():
    faces, others = lfw_faces(), lfw_nonfaces()
    assert others.images.shape == (100, 25, 25)
    assert others.images.max() > 1 and others.images.max() <= 255
    assert others.names[0] == "lfw-nonface/0"
    assert not np.array_equal(faces.images, others.images)


def test_lfw_resize():
    faces = lfw_faces(size=(20, 16))
    assert faces.images.shape == (100, 20, 16)
    assert faces.images.min() >= 0 and faces.images.max() <= 255


def test_builtin_registry():
    assert "faces" in BUILTIN
    data = load_builtin("faces")
    assert data.images.shape == (100, 25, 25)
    assert load_builtin("faces", size=(10, 10)).shape == (10, 10)
    with pytest.raises(DataError, match="faces"):
        load_builtin("no-such-set")


def test_builtin_digits():
    """The shipped MNIST subset: 5,000 digits, 500 per class, 28×28 on the 0–255 scale."""
    from robust_subspace_lab.core.datasets import BUILTIN, BUILTIN_TITLES, load_builtin, mnist_digits

    d = load_builtin("digits")
    assert d.images.shape == (5000, 28, 28)
    assert np.bincount(d.labels).tolist() == [500] * 10
    assert d.images.min() == 0 and d.images.max() == 255
    sixes = mnist_digits(digits=[6])
    assert len(sixes) == 500 and set(sixes.labels) == {6}
    assert set(BUILTIN) == set(BUILTIN_TITLES)
    with pytest.raises(ParameterError, match="digits"):
        mnist_digits(digits=[11])


def test_direct_pillow_reading_gives_imreads_pixels(tmp_path):
    """The loader reads common formats with Pillow directly (skipping imageio's per-file plugin
    search): every mode it takes must give exactly the pixels skimage.io.imread gives."""
    from PIL import Image

    from robust_subspace_lab.core.image_files import decode_pillow as _decode_pillow

    rng = np.random.default_rng(3)
    rgba = rng.integers(0, 256, size=(12, 10, 4), dtype=np.uint8)
    cases = {
        "l.png": Image.fromarray(rgba[..., 0]),
        "la.png": Image.fromarray(rgba[..., :2].copy(), mode="LA"),
        "rgb.png": Image.fromarray(rgba[..., :3].copy()),
        "rgba.png": Image.fromarray(rgba),
        "bits.png": Image.fromarray(rgba[..., 0] > 128),
        "palette.png": Image.fromarray(rgba[..., :3].copy()).convert("P", palette=Image.ADAPTIVE),
        "l.jpg": Image.fromarray(rgba[..., 0]),
        "rgb.jpg": Image.fromarray(rgba[..., :3].copy()),
        "rgb.bmp": Image.fromarray(rgba[..., :3].copy()),
        "l.pgm": Image.fromarray(rgba[..., 0]),
    }
    for name, im in cases.items():
        im.save(tmp_path / name)
        ours = _decode_pillow(str(tmp_path / name))
        assert ours is not None, name
        theirs = io.imread(str(tmp_path / name))
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape, name
        np.testing.assert_array_equal(ours, theirs, err_msg=name)
    data = load_folder(tmp_path)
    assert len(data) == len(cases) and not data.skipped
    # 16-bit PNGs, multi-frame files and damaged files are left to imread
    _save(tmp_path / "deep.png", np.arange(120, dtype=np.uint16).reshape(12, 10) * 500)
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(30))
    assert _decode_pillow(str(tmp_path / "deep.png")) is None
    assert _decode_pillow(str(tmp_path / "broken.png")) is None


def test_folder_loads_into_one_stack_with_odd_sizes_and_gaps(tmp_path):
    """Images of the first shape go into one preallocated stack; a broken file between them
    leaves no gap, and odd-sized images are resized into place (same result as resize_images)."""
    _save(tmp_path / "a.png", _gradient(12, 10))
    (tmp_path / "b.png").write_bytes(b"junk")
    _save(tmp_path / "c.png", _gradient(30, 17, 3))
    _save(tmp_path / "d.png", _gradient(12, 10, 9))
    data = load_folder(tmp_path)
    assert data.names == ("a.png", "c.png", "d.png") and dict(data.skipped).keys() == {"b.png"}
    np.testing.assert_array_equal(data.images[0], _gradient(12, 10))
    np.testing.assert_array_equal(data.images[2], _gradient(12, 10, 9))
    np.testing.assert_array_equal(data.images[1], resize_images([_gradient(30, 17, 3)], (12, 10))[0])
    # the majority shape need not be the first one met
    _save(tmp_path / "e.png", _gradient(30, 17, 5))
    _save(tmp_path / "f.png", _gradient(30, 17, 7))
    data = load_folder(tmp_path)
    assert data.images.shape == (5, 30, 17)
    np.testing.assert_array_equal(data.images[3], _gradient(30, 17, 5))


def test_builtin_sets_load_in_single_precision_without_a_double_set_first():
    """A built-in set loads straight into float32 (each image resized in float64, then stored):
    the float64 values rounded, and no float64 set of the whole size on the way."""
    import tracemalloc
    seen = []

    def precision(n_values):            # a caller's rule, told the size before anything is allocated
        seen.append(n_values)
        return np.float32

    double = datasets.mnist_digits(size=(64, 64), digits=[6])
    tracemalloc.start()
    try:
        single = datasets.load_builtin("digits", size=(64, 64), dtype=precision, digits=[6])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert seen == [double.images.size] and single.images.dtype == np.float32
    np.testing.assert_array_equal(single.images, double.images.astype(np.float32))
    assert single.names == double.names and np.array_equal(single.labels, double.labels)
    assert peak < single.images.nbytes * 1.5, peak / single.images.nbytes    # a float64 set was 2x more
    native = datasets.load_builtin("faces", dtype=np.float32)
    np.testing.assert_array_equal(native.images, datasets.lfw_faces().images.astype(np.float32))


@pytest.mark.slow
def test_regression_digits_resize_only_the_images_kept():
    import tracemalloc
    from robust_subspace_lab.core.regression import data as rdata
    whole = rdata.subsample_per_class(datasets.mnist_digits(size=(64, 64)), 20, seed=3)
    tracemalloc.start()
    try:
        kept = rdata.digits_subset(20, 3, (64, 64))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(kept.images, whole.images)
    assert kept.names == whole.names and kept.source == whole.source
    # the 5,000 digits resized took 164 MB; the native ones in float64 take 31 MB
    assert peak < 5000 * 64 * 64 * 8 / 2, peak / 2 ** 20
