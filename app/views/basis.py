"""The first basis images (eigenfaces, sparse loadings, NMF parts). See :class:`BasisView`."""
from __future__ import annotations

import numpy as np

from .common import (GREY, ZERO_COLOR, ZERO_NAME, View, export_arrays, color_bar, Mosaic, tile_overlays,
                      zero_rgba, fitting_font, is_scatter, is_strip)

__all__ = ["BasisView"]

class BasisView(Mosaic, View):
    """The first basis images (up to ``capacity``), on the grid that makes them largest in the
    space available; grey levels symmetric around 0 for each image (mid grey = 0, white = its
    largest positive entry, black = its negative).

    Sparse loadings (``Snapshot.basis_zero`` not None): pixels that are exactly 0 are painted in
    the flat :data:`ZERO_COLOR` over the image, and the number of non-zeros is written under
    each image (also in the title's tooltip).

    NMF parts (``Snapshot.nmf``) are non-negative: each is drawn on a sequential grey scale from
    0 (black) to its largest entry (white), so the parts read as bright regions on black."""

    title = "Basis images"
    name = "basis_view"
    stretch = 2
    #: the number of tiles in use (0 before the first snapshot, and while pyqtgraph builds the view)
    _n = 0

    TITLE = "Basis images"
    NMF_TITLE = "NMF parts"
    #: each image is drawn on its own scale: the bar is in units of its largest |value|
    BAR_LABEL = "value ÷ largest |value|"
    NMF_BAR_LABEL = "value ÷ largest value"
    COUNT_GAP = 0.32        # room under each tile for its count, in tile heights

    def __init__(self, capacity: int = 10, parent=None):
        super().__init__(self.TITLE, 2, (capacity + 1) // 2, capacity=capacity, parent=parent)
        self.overlays, self.count_labels = tile_overlays(self.vb, len(self.items), 7.5, (0.5, 0.0))
        for t in self.count_labels:
            t.setVisible(False)
        self.snapshot = None
        self.nonzeros: list[int] = []
        self._n = 0
        self.nmf = False
        self.vb.sigTransformChanged.connect(self._fit_counts)
        self.colorbar = self.add_color_bar(color_bar(GREY, (-1.0, 1.0), self.BAR_LABEL,
                                                      [[(-1.0, "−1"), (0.0, "0"), (1.0, "1")]]))

    def best_grid(self, n: int, shape) -> tuple[int, int]:
        """(rows, cols) giving the largest tiles for ``n`` images of ``shape`` in this view."""
        width = max(self.width() - 8 - self.bars_width(), 1)
        height = max(self.height() - self.title.boundingRect().height() - 8, 1)
        h, w = shape
        g, gv = self.gaps(shape)
        extra = gv if self.vgap is not None else 0.0
        best = (0.0, 1, max(n, 1))
        for rows in range(1, max(n, 1) + 1):
            cols = -(-n // rows)
            scale = min(width / (cols * w + (cols - 1) * g), height / (rows * h + (rows - 1) * gv + extra))
            if scale > best[0] * 1.0001:
                best = (scale, rows, cols)
        return best[1], best[2]

    def resizeEvent(self, ev) -> None:
        super().resizeEvent(ev)
        if self._n and self._tile is not None:
            self._layout(self._tile, *self.best_grid(self._n, self._tile))

    def _placed(self, shape) -> None:
        h, w = shape
        for i, (ov, t) in enumerate(zip(self.overlays, self.count_labels)):
            r, c = divmod(i, self.cols)
            rect = self.tile_rect(r, c)
            ov.setPos(rect.topLeft())
            t.setPos(rect.center().x(), rect.bottom() + 0.02 * h)
        self._fit_counts()

    def _fit_counts(self, *_) -> None:
        """The non-zero counts in the largest font that fits under their tiles as drawn now;
        without their "≠ 0" (the title says what they count) when even 6 pt does not."""
        px = self.vb.viewPixelSize()
        texts = [f"{nz} ≠ 0" for nz in self.nonzeros]
        if self._tile is None or not texts or not px or px[0] <= 0 or px[1] <= 0:
            return
        h, w = self._tile
        g, gv = self.gaps()
        margin = 2 * self.count_labels[0].textItem.document().documentMargin()
        width, height = (w + g) / px[0] - margin - 2, (gv - 0.02 * h) / px[1] - margin
        font = fitting_font(texts, width, height)
        if font is None:
            texts = [str(nz) for nz in self.nonzeros]
            font = fitting_font(texts, width, height)
        # tiles too small for even 6 pt counts under them (ten basis images in a 90 px view):
        # none written, rather than counts over the next row or past the view's edge (the
        # yellow of the exact zeros still shows them)
        for i, t in enumerate(self.count_labels):
            t.setVisible(font is not None and i < len(self.nonzeros))
        if font is None:
            return
        for t, text in zip(self.count_labels, texts):
            if t.textItem.toPlainText() != text or t.textItem.font().pointSizeF() != font.pointSizeF():
                t.setFont(font)
                t.setText(text)

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        basis = None if snap is None else snap.basis
        n = 0 if basis is None else min(len(basis), len(self.items))
        self._n = n
        zero = None if snap is None or snap.basis_zero is None else np.asarray(snap.basis_zero, dtype=bool)
        nmf = bool(getattr(snap, "nmf", False))
        if nmf != self.nmf:
            self.colorbar.setLevels((0.0, 1.0) if nmf else (-1.0, 1.0))
            axis = self.colorbar.getAxis("right")
            axis.setTicks([[(0.0, "0"), (0.5, "0.5"), (1.0, "1")]] if nmf
                          else [[(-1.0, "−1"), (0.0, "0"), (1.0, "1")]])
            axis.setLabel(self.NMF_BAR_LABEL if nmf else self.BAR_LABEL)
        self.nmf = nmf
        self.vgap = self.COUNT_GAP if zero is not None else None
        if n:
            self._layout(basis.shape[1:], *self.best_grid(n, basis.shape[1:]))
        self.nonzeros = []
        for i, img in enumerate(self.items):
            ov, lab = self.overlays[i], self.count_labels[i]
            if i < n:
                b = basis[i]
                if nmf:                                 # parts ≥ 0: black = 0, white = largest
                    m = float(np.max(b))
                    img.setImage(b, levels=(0.0, m if m > 0 else 1.0), autoLevels=False)
                else:
                    m = float(np.max(np.abs(b))) or 1.0
                    img.setImage(b, levels=(-m, m), autoLevels=False)
                img.setVisible(True)
                if zero is not None:
                    ov.setImage(zero_rgba(zero[i]), autoLevels=False, levels=(0, 255))
                    nz = int(b.size - np.count_nonzero(zero[i]))
                    self.nonzeros.append(nz)
                ov.setVisible(zero is not None)
                lab.setVisible(zero is not None)
            else:
                img.setVisible(False)
                ov.setVisible(False)
                lab.setVisible(False)
        self._fit_counts()
        if snap is not None:
            name = self.NMF_TITLE if nmf else self.TITLE
            text = f"{name}: first {n}" if n else f"{name}: none"
            if zero is not None:
                sw = "#%02x%02x%02x" % ZERO_COLOR[:3]
                text += (f"  <span style='color:#777;font-size:8pt'>(<span style='background:{sw}'>"
                         f"&nbsp;{ZERO_NAME}&nbsp;</span>: exactly 0; count: non-zeros)</span>")
                tip = "Non-zero pixels per component: " + ", ".join(
                    f"{i + 1}: {nz}" for i, nz in enumerate(self.nonzeros))
            elif nmf:
                text += "  <span style='color:#777;font-size:8pt'>(black = 0, white = largest)</span>"
                tip = ("Non-negative parts W (rows of unit norm), each on its own scale from 0 "
                       "(black) to its largest entry (white)")
            else:
                text += "  <span style='color:#777;font-size:8pt'>(grey = 0)</span>"
                tip = ""
            if text != self.title.text:
                self.title.setText(text)
            if self.toolTip() != tip:
                self.setToolTip(tip)

    @staticmethod
    def shows(snapshot) -> bool:
        return snapshot is not None and not is_scatter(snapshot) and not is_strip(snapshot)

    def export_data(self, snapshot) -> dict:
        """basis (k, h, w): the basis images (unit-norm rows, no units); exactly_zero (k, h, w)
        for sparse loadings."""
        if not self.shows(snapshot):
            return {}
        return export_arrays(basis=snapshot.basis, exactly_zero=snapshot.basis_zero)
