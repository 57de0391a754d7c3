"""Draw the app icon set ``assets/icons/robust-subspace-lab-<N>.png`` (N = 16 ... 256 px).

The picture is the app's idea in one glance: a cloud of blue points along a line (the fitted
subspace) and three red points far from it (the outliers a robust method down-weights).
Drawn with Pillow at 1024 px and reduced with a Lanczos filter, so every size is antialiased.
Run from the repository root: ``python packaging/make_icons.py``. Deterministic: the same PNGs
every time.
"""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw

SIZES = (16, 32, 48, 64, 128, 256)
NAME = "robust-subspace-lab"
BIG = 1024

BACKGROUND = (244, 246, 250, 255)
BORDER = (52, 73, 110, 255)
LINE = (40, 40, 48, 255)
INLIER = (44, 110, 200, 255)
OUTLIER = (214, 45, 45, 255)


def draw(size: int = BIG) -> Image.Image:
    """The icon at ``size`` x ``size`` pixels (RGBA)."""
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size / 1024.0
    # rounded square tile
    d.rounded_rectangle([24 * s, 24 * s, 1000 * s, 1000 * s], radius=180 * s,
                        fill=BACKGROUND, outline=BORDER, width=max(1, round(36 * s)))
    # the fitted line: from lower left to upper right
    p0, p1 = np.array([150.0, 800.0]), np.array([874.0, 224.0])
    d.line([tuple(p0 * s), tuple(p1 * s)], fill=LINE, width=max(1, round(44 * s)))
    # inliers: evenly spread along the line, small fixed offsets across it
    direction = (p1 - p0) / np.linalg.norm(p1 - p0)
    normal = np.array([-direction[1], direction[0]])
    offsets = [-55, 40, -30, 60, -45, 25, 50, -60]
    ts = np.linspace(0.08, 0.92, len(offsets))
    r_in = 58
    for t, o in zip(ts, offsets):
        c = (p0 + t * (p1 - p0) + o * normal) * s
        d.ellipse([c[0] - r_in * s, c[1] - r_in * s, c[0] + r_in * s, c[1] + r_in * s], fill=INLIER)
    # outliers: far off the line
    r_out = 70
    for c in ((250, 270), (770, 760), (420, 230)):
        c = np.array(c) * s
        d.ellipse([c[0] - r_out * s, c[1] - r_out * s, c[0] + r_out * s, c[1] + r_out * s], fill=OUTLIER)
    return img


def main(out_dir: str | None = None) -> int:
    out = Path(out_dir) if out_dir else Path(__file__).resolve().parent.parent / "assets" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    big = draw(BIG)
    for n in SIZES:
        big.resize((n, n), Image.LANCZOS).save(out / f"{NAME}-{n}.png", optimize=True)
    print(f"wrote {len(SIZES)} icons to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
