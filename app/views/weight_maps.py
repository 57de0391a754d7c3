"""Per-pixel weights Q of the chosen samples (robust NMF). See :class:`WeightMapView`."""
from __future__ import annotations

import math

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from .common import (TRUNCATED_COLOR, TRUNCATED_NAME, WEIGHT_CMAP, export_arrays, color_bar, is_scatter,
                      is_strip, mask_rgba, Mosaic, tile_overlays, View)

__all__ = ["WeightMapView"]

class WeightMapView(Mosaic, View):
    """Per-pixel weights Q of the chosen samples (``Snapshot.weight_maps``; robust NMF, paper
    003 Fig. 3): one map per sample, side by side, on a fixed 0–1 colour scale
    (:data:`WEIGHT_CMAP`, colour bar on the right) so that maps and iterations compare; pixels
    the method truncated (``Snapshot.truncated_maps``, Q = 0) painted over in the saturated
    :data:`TRUNCATED_COLOR`. Above each map: the sample index ("corrupted" for a sample the
    corruption touched; not in red, which marks truncation here), its mean weight and the share
    of its pixels truncated.

    Shown only for methods with per-entry weights; the ImageItems and captions are created once
    and reused on every frame."""

    title = "Pixel weights"
    name = "weightmap_view"
    default_visible = False
    area = "side"
    #: the snapshot drawn (None before the first, and while pyqtgraph builds the view: resizes
    #: reach the layout before the constructor ends)
    snapshot = None
    stretch = 5

    TITLE = "Pixel weights Q"
    TOP = 0.62              # room above the maps for the captions, in tile heights (set by _arrange)
    GAP = 0.12
    #: smallest map drawn (px); a view with no room for every map at this size shows fewer
    MIN_TILE = 16

    def __init__(self, capacity: int = 3, parent=None):
        super().__init__(self.TITLE, 1, capacity, capacity=capacity, parent=parent)
        cmap = pg.colormap.get(WEIGHT_CMAP)
        lut = cmap.getLookupTable(nPts=256)
        for img in self.items:
            img.setLookupTable(lut)
        self.colorbar = self.add_color_bar(color_bar(
            cmap, (0.0, 1.0), "weight Q (0–1)",
            [[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], [(0.25, ""), (0.75, "")]]))
        self.colorbar.setToolTip("Q = 1: pixel fully trusted; Q = 0: ignored")
        # the title never changes with the iteration: paint it from a cache
        cache = QtWidgets.QGraphicsItem.DeviceCoordinateCache
        self.title.setCacheMode(cache)
        self.overlays, self.captions = tile_overlays(self.vb, len(self.items), 7.5, (0.5, 1.0))
        self.shown_maps = 0
        self._caption_text = [None] * len(self.items)
        self._truncation = None
        self.snapshot = None
        self._tip = ("Per-pixel weight the method gives each pixel of the sample (1 = trusted, "
                     f"0 = ignored); {TRUNCATED_NAME}: truncated as an outlier (Q = 0)")
        self.setToolTip(self._tip)

    def _placed(self, shape) -> None:
        h, w = shape
        beside = self.rows > 1
        for i, (ov, t) in enumerate(zip(self.overlays, self.captions)):
            rect = self.tile_rect(i, 0) if beside else self.tile_rect(0, i)
            ov.setPos(rect.topLeft())
            if beside:            # right of its map, centred on it
                t.setAnchor((0.0, 0.5))
                t.setPos(rect.right() + 0.05 * w, rect.center().y())
            else:                 # above its map
                t.setAnchor((0.5, 1.0))
                t.setPos(rect.center().x(), -0.04 * h)

    def _arrange(self) -> None:
        """Lay the maps out side by side with their captions above (as wide as a caption at
        least), or, in a view too narrow for that, under each other with each caption beside its
        map (as far apart as a caption is high); in a view too small for either, fewer maps (the
        first ones). The captions never overlap or stick out. Called for each snapshot and resize."""
        snap = self.snapshot                          # None while pyqtgraph builds the view
        maps = None if snap is None else snap.weight_maps
        n = 0 if maps is None else min(len(maps), len(self.items))
        if not n:
            return
        for t, cached in zip(self.captions[:n], self._caption_text[:n]):     # whole again, if cut before
            if cached is not None and t.textItem.toPlainText() != cached[0]:
                t.setText(*cached)
        if self.toolTip() != self._tip:
            self.setToolTip(self._tip)
        shown = [t for t in self.captions[:n] if t.textItem.toPlainText()]
        margin = 2 * self.captions[0].textItem.document().documentMargin()
        # in steps of 12 px: a caption one digit longer at the next iteration moves nothing
        cap_w = 12.0 * math.ceil(max((t.textItem.boundingRect().width() for t in shown), default=0.0) / 12.0)
        cap_h = max((t.textItem.boundingRect().height() for t in shown), default=0.0)
        avail_w = max(self.width() - 8 - self.bars_width(), 1.0)
        avail_h = max(self.height() - self.title.boundingRect().height() - 8, 1.0)
        g = self.GAP
        for m in range(n, 0, -1):
            across = min(avail_w / (m + (m - 1) * g), avail_h - cap_h - 4)
            fits_across = across >= self.MIN_TILE and across * (1 + g) >= cap_w - margin + 2
            down, vgap = self._down_size(m, avail_w - cap_w - 8, avail_h, cap_h - margin + 2)
            if fits_across and (across >= 0.8 * down or down < self.MIN_TILE):
                self.vgap, self.TOP, self.RIGHT = None, (cap_h + 4) / across, 0.0
                self._show_maps(m, 1, m)
                return
            if down >= self.MIN_TILE or m == 1 and not shown:
                self.vgap, self.TOP, self.RIGHT = vgap, 0.0, (cap_w + 8) / max(down, 1.0)
                self._show_maps(m, m, 1)
                return
        # not even one map with its caption: the first map alone, its captions in the tooltip
        cached = [c for c in self._caption_text[:n] if c is not None]
        size, vgap = self._down_size(1, avail_w, avail_h, 0.0)
        self.vgap, self.TOP, self.RIGHT = vgap, 0.0, 0.0
        self.setToolTip(self._tip + "\n\n" + "\n".join(text.replace("\n", ", ") for text, _ in cached))
        self._show_maps(1, 1, 1)
        self.captions[0].setVisible(False)

    def _down_size(self, m: int, width: float, height: float, caption: float) -> tuple[float, float]:
        """(tile size in px, vertical gap in tile heights) of ``m`` maps under each other in
        ``width`` × ``height`` px, each at least ``caption`` px apart from the next one's top."""
        size = min(width, height / m)
        while size >= 1.0:
            gap = max(self.GAP * size, caption - size)
            if m * size + m * gap <= height:        # the mosaic keeps one gap below the last map
                return size, round(gap / size, 2)
            size -= 1.0
        return 0.0, self.GAP

    def _show_maps(self, m: int, rows: int, cols: int) -> None:
        """The first ``m`` maps on a rows × cols grid; the others hidden."""
        self.shown_maps = m
        self._layout(self.snapshot.weight_maps.shape[1:], rows, cols)
        for i, (img, ov, t) in enumerate(zip(self.items, self.overlays, self.captions)):
            if i >= m:
                img.setVisible(False)
                ov.setVisible(False)
                t.setVisible(False)
            else:
                t.setVisible(True)

    def resizeEvent(self, ev):
        super().resizeEvent(ev)
        self._arrange()

    def drawn_maps(self) -> list[np.ndarray]:
        """The weight maps as drawn, one per visible map."""
        return [img.image for img in self.items if img.isVisible() and img.image is not None]

    def drawn_truncated(self) -> list[np.ndarray]:
        """(h, w) bool per visible map: True where the truncation colour is painted."""
        return [ov.image[..., 3] > 0 if ov.isVisible() and ov.image is not None
                else np.zeros(img.image.shape, dtype=bool)
                for img, ov in zip(self.items, self.overlays) if img.isVisible() and img.image is not None]

    def caption_texts(self) -> list[str]:
        """The captions of the visible maps."""
        return [t.textItem.toPlainText() for t, img in zip(self.captions, self.items) if img.isVisible()]

    def _set_title(self, truncation: bool) -> None:
        if truncation == self._truncation:
            return
        self._truncation = truncation
        text = self.TITLE + "  <span style='color:#777;font-size:8pt'>(0–1"
        if truncation:
            sw = "#%02x%02x%02x" % TRUNCATED_COLOR[:3]
            text += (f"; <span style='background:{sw};color:white'>&nbsp;{TRUNCATED_NAME}&nbsp;</span>"
                     ": truncated, Q = 0")
        self.title.setText(text + ")</span>")

    def _set_caption(self, i: int, text: str, color) -> None:
        if self._caption_text[i] != (text, color):
            self._caption_text[i] = (text, color)
            self.captions[i].setText(text, color=color)

    def show_snapshot(self, snap) -> None:
        self.snapshot = snap
        maps = None if snap is None else snap.weight_maps
        n = 0 if maps is None else min(len(maps), len(self.items))
        cut = None if snap is None else snap.truncated_maps
        if n:
            self._set_title(cut is not None)
        for i, (img, ov) in enumerate(zip(self.items, self.overlays)):
            if i >= n:
                img.setVisible(False)
                ov.setVisible(False)
                self._set_caption(i, "", "#333333")
                continue
            img.setImage(maps[i], levels=(0.0, 1.0), autoLevels=False)
            img.setVisible(True)
            if cut is not None:
                ov.setImage(mask_rgba(np.asarray(cut[i], dtype=bool), TRUNCATED_COLOR),
                            autoLevels=False, levels=(0, 255))
            ov.setVisible(cut is not None)
            j = int(snap.samples[i])
            lines = [f"#{j}" + (" · corrupted" if bool(snap.outliers[j]) else " · clean")]
            if snap.mean_weights is not None:
                lines.append(f"mean Q {float(snap.mean_weights[j]):.2f}")
            if snap.truncated_share is not None:
                lines.append(f"{100.0 * float(snap.truncated_share[i]):.0f} % truncated")
            self._set_caption(i, "\n".join(lines), "#333333")
        self._arrange()

    @staticmethod
    def shows(snapshot) -> bool:
        return (snapshot is not None and snapshot.weight_maps is not None
                and not is_scatter(snapshot) and not is_strip(snapshot))

    def export_data(self, snapshot) -> dict:
        """sample (m,): indices of the chosen samples; weight_maps (m, h, w) in 0–1;
        truncated (m, h, w) 0/1 when the method truncates."""
        if not self.shows(snapshot):
            return {}
        return export_arrays(sample=snapshot.samples, weight_maps=snapshot.weight_maps,
                       truncated=None if snapshot.truncated_maps is None
                       else np.asarray(snapshot.truncated_maps, dtype=int))
