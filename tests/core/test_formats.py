"""Every image format scikit-image reads loads from a folder, as the grey levels the file holds
(issue 13: "every format scikit-image reads loads, palette GIF included"). Each file is written
with Pillow from a known array, and the loaded image is compared with its luminance on 0–255."""
import numpy as np
import pytest
from PIL import Image

from robust_subspace_lab.core.datasets import SUPPORTED_EXTENSIONS, load_folder

H, W = 12, 10
#: a grey ramp 0..238 and a pure green image (luminance 0.7154 · 255)
RAMP = (np.arange(H * W).reshape(H, W) * 2).astype(np.uint8)
GREEN = np.zeros((H, W, 3), dtype=np.uint8)
GREEN[..., 1] = 255
GREEN_GREY = 0.7154 * 255


def _rgba(rgb):
    return np.dstack([rgb, np.full((H, W), 128, dtype=np.uint8)])


def _save_frames(path, frames, **kw):
    frames[0].save(path, save_all=True, append_images=frames[1:], **kw)


# name -> (writer, expected grey image, absolute tolerance)
CASES = {
    "palette_grey.gif": (lambda p: Image.fromarray(RAMP).convert("P").save(p), RAMP, 1.0),
    "palette_colour.gif": (lambda p: Image.fromarray(GREEN).convert("P", palette=Image.ADAPTIVE).save(p),
                           GREEN_GREY, 1.0),
    "palette_transparent.gif": (lambda p: Image.fromarray(GREEN).convert("P", palette=Image.ADAPTIVE)
                                .save(p, transparency=0), GREEN_GREY, 1.0),
    "animated.gif": (lambda p: _save_frames(p, [Image.fromarray(np.full((H, W), v, np.uint8)).convert("P")
                                                for v in (40, 200)]), 40.0, 1.0),
    "deep.png": (lambda p: Image.fromarray((RAMP.astype(np.uint16) * 257)).save(p), RAMP, 1e-9),
    "rgba.png": (lambda p: Image.fromarray(_rgba(GREEN)).save(p), GREEN_GREY, 1e-6),
    "palette.png": (lambda p: Image.fromarray(RAMP).convert("P").save(p), RAMP, 1.0),
    "grey_alpha.png": (lambda p: Image.fromarray(RAMP).convert("LA").save(p), RAMP, 1e-9),
    "bilevel.png": (lambda p: Image.fromarray(RAMP >= 128).save(p), (RAMP >= 128) * 255.0, 1e-9),
    "rgb.tif": (lambda p: Image.fromarray(GREEN).save(p), GREEN_GREY, 1e-6),
    "deep.tif": (lambda p: Image.fromarray((RAMP.astype(np.uint16) * 257)).save(p), RAMP, 1e-9),
    "pages.tif": (lambda p: _save_frames(p, [Image.fromarray(np.full((H, W), v, np.uint8))
                                             for v in (40, 200)]), 40.0, 1e-9),
    "float.tif": (lambda p: Image.fromarray(RAMP.astype(np.float32) / 255).save(p), RAMP, 1e-4),
    "rgb.webp": (lambda p: Image.fromarray(GREEN).save(p, lossless=True), GREEN_GREY, 1e-6),
    "rgba.webp": (lambda p: Image.fromarray(_rgba(GREEN)).save(p, lossless=True), GREEN_GREY, 1e-6),
    "rgb.bmp": (lambda p: Image.fromarray(GREEN).save(p), GREEN_GREY, 1e-6),
    "palette.bmp": (lambda p: Image.fromarray(RAMP).convert("P").save(p), RAMP, 1e-9),
    "grey.pgm": (lambda p: Image.fromarray(RAMP).save(p), RAMP, 1e-9),
    "deep.pgm": (lambda p: Image.fromarray((RAMP.astype(np.uint16) * 257)).save(p), RAMP, 1e-9),
    "rgb.ppm": (lambda p: Image.fromarray(GREEN).save(p), GREEN_GREY, 1e-6),
    "grey.jpg": (lambda p: Image.fromarray(RAMP).save(p, quality=100), RAMP, 3.0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_format_loads_as_its_grey_levels(tmp_path, name):
    write, expected, atol = CASES[name]
    write(tmp_path / name)
    data = load_folder(tmp_path)
    assert data.names == (name,) and not data.skipped, data.skipped
    assert data.images[0].shape == (H, W)
    np.testing.assert_allclose(data.images[0], np.broadcast_to(expected, (H, W)), atol=atol)


def test_every_extension_tried_is_covered_here():
    tried = {"." + name.rsplit(".", 1)[1] for name in CASES}
    assert tried <= set(SUPPORTED_EXTENSIONS)
    assert set(SUPPORTED_EXTENSIONS) - tried <= {".jpeg", ".pnm", ".tiff"}   # aliases of tried ones
