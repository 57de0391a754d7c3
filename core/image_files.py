"""Image files in a folder: which entries may be read, and reading one safely as grey levels.

Used by :func:`core.datasets.load_folder`. Three rules keep a hostile folder from hanging or
exhausting the machine, and every refusal is a short reason the loader lists as skipped:

* only **regular files** are opened: named pipes (FIFOs), devices and sockets are named and
  never opened (opening a FIFO blocks until a writer comes); the check is made on the listing
  (:func:`os.stat`) and again on the open descriptor (opened non-blocking, then
  :func:`os.fstat`), so a file swapped for a pipe in between is refused too;
* the **declared size** of an image (its header, read lazily by Pillow) is checked against a
  pixel budget (:data:`MAX_PIXELS`) before anything is decoded: a 140 KB PNG that declares
  12000 × 12000 pixels is refused at once instead of decoding 2.4 GB;
* folders that cannot be listed and files that cannot be read are reported with the reason
  (e.g. ``"cannot be read (permission denied)"``).

File names that are not valid UTF-8 are kept as :func:`os.fsdecode` gives them (undecodable
bytes as lone surrogates, ``surrogateescape``): they open, hash (:func:`os.fsencode` gives the
bytes back) and round-trip through a session file.
"""
from __future__ import annotations

import errno
import os
import re
import stat
import warnings
from pathlib import Path

import numpy as np

__all__ = ["MAX_PIXELS", "list_files", "open_regular", "read_gray", "to_gray", "decode_pillow", "kind_of", "os_reason"]

#: the largest image (width × height of its first frame, as declared in its header) the loader
#: decodes; 25 megapixels (e.g. 6000 × 4000) decode to 200 MB of float64 grey levels
MAX_PIXELS = 25_000_000

_KINDS = ((stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISDIR, "a folder"))


def kind_of(mode: int) -> str:
    """What a non-regular file is, in words (``"a named pipe (FIFO)"``, ...)."""
    for test, name in _KINDS:
        if test(mode):
            return name
    return "a special file"


def os_reason(exc: OSError) -> str:
    """A short reason for an :class:`OSError` (``"permission denied"``, ...), without the path."""
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied"
    text = exc.strerror or type(exc).__name__
    return text[:1].lower() + text[1:]


def list_files(root: Path, recursive: bool) -> tuple[list[tuple[tuple[str, ...], Path]], list[tuple[str, str]]]:
    """The regular, non-hidden files below ``root`` as ``(relative path's components, path)``,
    sorted by the components, and ``(relative name, reason)`` for every entry skipped: named
    pipes, devices, sockets, broken links (never opened), and subfolders that cannot be listed
    (``"sub/"``). Hidden files and folders (name starting with ``.``) are ignored silently.

    Raises :class:`OSError` when ``root`` itself cannot be listed."""
    found: list[tuple[tuple[str, ...], Path]] = []
    skipped: list[tuple[str, str]] = []

    def on_error(exc: OSError) -> None:
        if exc.filename is None or os.path.normpath(exc.filename) == os.path.normpath(root):
            raise exc                               # the folder itself: the caller says so
        rel = Path(os.path.relpath(exc.filename, root)).as_posix()
        skipped.append((rel + "/", f"folder cannot be read ({os_reason(exc)})"))

    def consider(parts: tuple[str, ...], full: Path) -> None:
        try:
            mode = os.stat(full).st_mode          # follows links; never opens the file
        except OSError as exc:
            reason = "a broken link" if os.path.islink(full) else f"cannot be read ({os_reason(exc)})"
            skipped.append(("/".join(parts), reason))
            return
        if stat.S_ISREG(mode):
            found.append((parts, full))
        elif not stat.S_ISDIR(mode):
            skipped.append(("/".join(parts), f"{kind_of(mode)}, not a regular file"))

    if recursive:
        for dirpath, dirnames, filenames in os.walk(root, onerror=on_error):
            dirnames[:] = [d for d in dirnames if not d.startswith(".")]
            rel = os.path.relpath(dirpath, root)
            parts = () if rel == os.curdir else tuple(Path(rel).parts)
            for fn in filenames:
                if not fn.startswith("."):
                    consider(parts + (fn,), Path(dirpath, fn))
    else:
        with os.scandir(root) as it:
            for e in it:
                if not e.name.startswith("."):
                    consider((e.name,), Path(e.path))
    found.sort(key=lambda item: item[0])
    skipped.sort()
    return found, skipped


def open_regular(path: Path):
    """``path`` opened for binary reading, refusing (``ValueError``) anything but a regular file.
    Opened non-blocking, so that a named pipe put in the file's place never blocks."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{kind_of(mode)}, not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _declared_pixels(fh, path: Path) -> tuple[int, int] | None:
    """(width, height) of the image's first frame as its header declares it, or None when the
    header is not one Pillow or tifffile reads (the decoder then names the problem)."""
    from PIL import Image

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")             # DecompressionBombWarning: we decide below
            with Image.open(fh) as im:
                return im.size
    except Image.DecompressionBombError as exc:         # Pillow's own limit (2 × its MAX_IMAGE_PIXELS)
        found = re.search(r"\((\d+) pixels\)", str(exc))
        return (int(found.group(1)), 1) if found else (MAX_PIXELS + 1, 1)
    except Exception:  # noqa: BLE001 - not a header Pillow knows
        pass
    if path.suffix.lower() in (".tif", ".tiff"):
        try:
            import tifffile

            fh.seek(0)
            with tifffile.TiffFile(fh) as tif:
                shape = tif.pages[0].shape
            return int(shape[1]), int(shape[0])
        except Exception:  # noqa: BLE001
            return None
    return None


def short_reason(exc: BaseException, path: Path) -> str:
    """A decoder's error as a short reason (the path replaced by the file's name)."""
    msg = str(exc).splitlines()[0] if str(exc) else ""
    if "Could not find a backend" in msg or "cannot identify image file" in msg:
        return "unreadable image (unknown or damaged format)"
    msg = msg.replace(str(path), path.name)
    msg = re.sub(r"<_io\.\w+ name=('[^']*')>", r"\1", msg)
    if len(msg) > 80:
        msg = msg[:77] + "..."
    name = type(exc).__name__
    return f"unreadable image ({name}: {msg})" if msg else f"unreadable image ({name})"


#: extensions and Pillow modes read by :func:`decode_pillow` (single-frame images whose pixels
#: Pillow hands over as they are); everything else goes through :func:`skimage.io.imread`
PILLOW_EXTENSIONS = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".pgm", ".ppm", ".pnm", ".webp"})
_PILLOW_MODES = frozenset({"1", "L", "LA", "RGB", "RGBA", "P"})


def decode_pillow(source) -> np.ndarray | None:
    """The pixels of a single-frame PNG, JPEG, BMP, PNM or WebP (a path or a binary file) read
    with Pillow directly, as :func:`skimage.io.imread` gives them (its imageio plugin is Pillow
    too: a palette image is converted to its palette's mode, nothing else is changed), or None
    when this file is not one of those (other modes, several frames, or an error: the caller
    then reads it with imread, which names the problem). Reading directly skips imageio's
    per-file plugin search, which retries optional imports for every file (≈ 35 % of a
    folder's loading time)."""
    from PIL import Image

    try:
        with Image.open(source) as im:
            if im.mode not in _PILLOW_MODES or getattr(im, "n_frames", 1) != 1:
                return None
            if im.mode == "P":
                im = im.convert(im.palette.mode)   # type: ignore[assignment,union-attr]  # mode P has a palette
            return np.asarray(im)
    except Exception:  # noqa: BLE001 - damaged files are read (and explained) by imread
        return None


def _imread(fh, path: Path) -> np.ndarray:
    """:func:`skimage.io.imread` of one open file; ValueError with a short reason when it fails."""
    from skimage.io import imread

    fh.seek(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")          # decoder chatter on damaged files
            if path.suffix.lower() in (".tif", ".tiff"):
                # by path, so that skimage reads it with tifffile (multi-page, float, 16-bit);
                # the open handle has already been checked to be a regular file
                img = imread(os.fspath(path))
            else:
                img = imread(fh)
    except Exception as exc:  # decoders raise all kinds of errors on damaged files
        raise ValueError(short_reason(exc, path)) from exc
    if path.suffix.lower() == ".gif" and np.ndim(img) >= 3:
        img = img[0]            # frames come first (palette GIFs decode to grey or RGB): the first
    elif path.suffix.lower() in (".tif", ".tiff") and (
            np.ndim(img) == 4 or (np.ndim(img) == 3 and img.shape[-1] > 4)):
        img = img[0]            # a multi-page TIFF (pages first): its first page
    return img


def read_gray(path: Path, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """Read one image file as 2-D float64 grey levels on the 0–255 scale (see :func:`to_gray`):
    Pillow directly for the common formats, :func:`skimage.io.imread` for the others.

    Raises ``ValueError`` with a short reason (not a regular file, empty, declared larger than
    ``max_pixels`` — naming its width × height —, damaged, unsupported) and :class:`OSError`
    when the file cannot be opened."""
    try:
        fh = open_regular(path)
    except OSError as exc:
        raise ValueError(f"cannot be read ({os_reason(exc)})") from exc
    with fh:
        if os.fstat(fh.fileno()).st_size == 0:
            raise ValueError("empty file (0 bytes)")
        declared = _declared_pixels(fh, path)
        if declared is not None and declared[0] * declared[1] > max_pixels:
            w, h = declared
            size = f"{w} × {h} pixels" if h > 1 else f"{w:,} pixels"
            raise ValueError(f"image too large to load: it declares {size}, over the limit of "
                             f"{max_pixels:,} pixels")
        fh.seek(0)
        img = decode_pillow(fh) if path.suffix.lower() in PILLOW_EXTENSIONS else None
        if img is None:
            img = _imread(fh, path)
    return to_gray(img)


def to_gray(img: np.ndarray) -> np.ndarray:
    """One decoded image -> 2-D float64 grey levels on the 0–255 scale (the conversion
    :func:`core.datasets.load_folder` documents).

    Raises ``ValueError`` with a short reason when the array cannot be used.
    """
    img = np.asarray(img)
    if img.size == 0 or 0 in img.shape:
        raise ValueError(f"empty image (shape {img.shape})")
    # Intensity scale first, so that the colour conversion works on 0-255 values.
    if img.dtype == bool:
        arr = img.astype(np.float64) * 255.0
    elif img.dtype == np.uint8:
        arr = img.astype(np.float64)                  # already on the 0-255 scale
    elif np.issubdtype(img.dtype, np.integer):
        top = np.iinfo(img.dtype).max
        if top > 65535 and 0 <= img.min() and img.max() <= 65535:
            top = 65535         # 16-bit PGM/PNM decode to 32-bit integers (Pillow's "I" mode)
        arr = np.clip(img.astype(np.float64) * (255.0 / top), 0.0, 255.0)
    elif np.issubdtype(img.dtype, np.floating):
        arr = img.astype(np.float64)
        if not np.all(np.isfinite(arr)):
            raise ValueError("non-finite pixel values")
        if arr.max() <= 1.0:
            arr = arr * 255.0
    else:
        raise ValueError(f"unsupported pixel type {img.dtype}")

    if arr.ndim == 3 and arr.shape[-1] == 1:
        arr = arr[..., 0]
    if arr.ndim == 2:
        return arr
    if arr.ndim == 3 and arr.shape[-1] == 2:        # grey + alpha: alpha dropped
        return arr[..., 0].copy()
    if arr.ndim == 3 and arr.shape[-1] in (3, 4):   # RGB / RGBA: alpha dropped, then luminance
        from skimage.color import rgb2gray

        return rgb2gray(arr[..., :3])
    raise ValueError(f"unsupported image shape {img.shape}")
