"""Write a folder of PNG images for the scale benchmarks (the app on a user's own folder).

The images are the built-in MNIST digits (5,000; or the 10,000 of ``--source FILE.npz`` with
an ``images`` array), resized to ``--size`` × ``--size`` with scikit-image and repeated with a
one-pixel shift when more are asked for than there are, as 8-bit grey PNGs named
``img00000.png``, .... Files already there with the same names are overwritten.

Run:  python benchmarks/make_image_folder.py /tmp/digits-10k --n 10000 --size 64
"""
from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from skimage.io import imsave
from skimage.transform import resize

from robust_subspace_lab.core import datasets


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder")
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--size", type=int, default=64)
    ap.add_argument("--source", default=None, help="an .npz with an 'images' array (else the built-in digits)")
    args = ap.parse_args(argv)
    images = np.load(args.source)["images"] if args.source else datasets.mnist_digits().images
    out = Path(args.folder)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.n):
        img = images[i % len(images)]
        if i >= len(images):
            img = np.roll(img, i // len(images), axis=1)
        img = resize(np.asarray(img, dtype=float) / 255.0, (args.size, args.size), anti_aliasing=True)
        imsave(out / f"img{i:05d}.png", (np.clip(img, 0, 1) * 255).astype(np.uint8), check_contrast=False)
    print(f"wrote {args.n} PNGs of {args.size}×{args.size} to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
