"""Per-pixel weights Q of the chosen samples (robust NMF). See :class:`WeightMapView`."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6 import QtWidgets

from ._common import (TRUNCATED_COLOR, TRUNCATED_NAME, WEIGHT_CMAP, _arrays, _color_bar, is_scatter,
                      is_strip, _mask_rgba, _Mosaic, _tile_overlays, View)

__all__ = ["WeightMapView"]

class WeightMapView(_Mosaic, View):
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
    stretch = 5

    TITLE = "Pixel weights Q"
    TOP = 0.62              # room above the maps for the three-line captions, in tile heights
    GAP = 0.12

    def __init__(self, capacity: int = 3, parent=None):
        super().__init__(self.TITLE, 1, capacity, capacity=capacity, parent=parent)
        cmap = pg.colormap.get(WEIGHT_CMAP)
        lut = cmap.getLookupTable(nPts=256)
        for img in self.items:
            img.setLookupTable(lut)
        self.colorbar = self.add_color_bar(_color_bar(
            cmap, (0.0, 1.0), "weight Q (0–1)",
            [[(0.0, "0"), (0.5, "0.5"), (1.0, "1")], [(0.25, ""), (0.75, "")]]))
        self.colorbar.setToolTip("Q = 1: pixel fully trusted; Q = 0: ignored")
        # the title never changes with the iteration: paint it from a cache
        cache = QtWidgets.QGraphicsItem.DeviceCoordinateCache
        self.title.setCacheMode(cache)
        self.overlays, self.captions = _tile_overlays(self.vb, len(self.items), 8.0, (0.5, 1.0))
        self._caption_text = [None] * len(self.items)
        self._truncation = None
        self.snapshot = None
        self.setToolTip("Per-pixel weight the method gives each pixel of the sample (1 = trusted, "
                        f"0 = ignored); {TRUNCATED_NAME}: truncated as an outlier (Q = 0)")

    def _placed(self, shape) -> None:
        h, w = shape
        for c, (ov, t) in enumerate(zip(self.overlays, self.captions)):
            rect = self.tile_rect(0, c)
            ov.setPos(rect.topLeft())
            t.setPos(rect.center().x(), -0.04 * h)

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
            self._layout(maps.shape[1:], 1, n)
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
                ov.setImage(_mask_rgba(np.asarray(cut[i], dtype=bool), TRUNCATED_COLOR),
                            autoLevels=False, levels=(0, 255))
            ov.setVisible(cut is not None)
            j = int(snap.samples[i])
            lines = [f"#{j}" + (" · corrupted" if bool(snap.outliers[j]) else " · clean")]
            if snap.mean_weights is not None:
                lines.append(f"mean Q {float(snap.mean_weights[j]):.2f}")
            if snap.truncated_share is not None:
                lines.append(f"{100.0 * float(snap.truncated_share[i]):.0f} % truncated")
            self._set_caption(i, "\n".join(lines), "#333333")

    @staticmethod
    def shows(snapshot) -> bool:
        return (snapshot is not None and snapshot.weight_maps is not None
                and not is_scatter(snapshot) and not is_strip(snapshot))

    def export_data(self, snapshot) -> dict:
        """sample (m,): indices of the chosen samples; weight_maps (m, h, w) in 0–1;
        truncated (m, h, w) 0/1 when the method truncates."""
        if not self.shows(snapshot):
            return {}
        return _arrays(sample=snapshot.samples, weight_maps=snapshot.weight_maps,
                       truncated=None if snapshot.truncated_maps is None
                       else np.asarray(snapshot.truncated_maps, dtype=int))
