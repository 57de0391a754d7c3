"""What every view shares: colours, plot styling, the image mosaic, and :class:`View`, the
declaration a view class makes to join the registry (:mod:`app.views`)."""
from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import shiboken6
from PySide6 import QtCore, QtGui, QtWidgets

from . import scaling

__all__ = ["View", "COLORS", "TITLE_SIZE", "ZERO_COLOR", "ZERO_NAME", "TRUNCATED_COLOR", "TRUNCATED_NAME",
           "WEIGHT_CMAP", "LINE_COLORS", "RESIDUAL_RANGE", "GREY", "DIVERGING", "OUTLIER_SCORE",
           "configure_pyqtgraph", "is_scatter", "is_strip", "style_plot", "wrapping_title", "Title", "Message",
           "DecadeAxis", "Mosaic", "ColorBar", "color_bar", "mask_rgba", "zero_rgba", "tile_overlays",
           "export_arrays", "fitting_font", "MenuOnDemandViewBox", "keep_scenes_active", "keep_text_space",
           "plot_widget_kwargs"]

COLORS = {
    "clean": (70, 120, 200),        # bars of untouched samples
    "corrupted": (220, 50, 47),     # bars of samples the corruption touched
    "curve": (30, 90, 170),
    "scalar": (200, 110, 20),
    "scalar2": (120, 60, 170),     # second scalar (right axis)
    "title": "#222222",
    "axis": "#444444",
}
TITLE_SIZE = "10pt"
#: exact zeros of sparse loadings are painted in this flat colour (RGBA) and named so in titles
ZERO_COLOR = (255, 214, 64, 255)
ZERO_NAME = "yellow"
#: truncated (rejected, Q = 0) pixels of the weight maps are painted in this saturated colour
TRUNCATED_COLOR = (255, 0, 0, 255)
TRUNCATED_NAME = "red"
#: colour map of the per-pixel weights (0 = dark violet … 1 = yellow; no red in it)
WEIGHT_CMAP = "viridis"
#: colours of the direction lines of the 2-D scatter (first component solid)
LINE_COLORS = ((30, 90, 170), (0, 150, 110), (150, 60, 170), (200, 110, 20))
#: Residuals (grey levels) are shown on this fixed symmetric range, so that images and iterations
#: compare; larger residuals saturate.
RESIDUAL_RANGE = 128.0


def configure_pyqtgraph() -> None:
    """Global pyqtgraph options of the app (call before creating any view); the views follow
    the window's zoom (:mod:`app.views.scaling`)."""
    pg.setConfigOptions(imageAxisOrder="row-major", antialias=True, background="w", foreground="k")
    scaling.install()


def wrapping_title(plot: pg.PlotItem) -> "Title":
    """Give ``plot`` a :class:`Title` (wrapping at the plot's width, its row as high as the
    wrapped text) in place of pyqtgraph's title label, and return it."""
    old = plot.titleLabel
    plot.layout.removeItem(old)
    old.setParentItem(None)
    if old.scene() is not None:
        old.scene().removeItem(old)
    title = Title(" ", row=(plot.layout, 0))
    title.setParentItem(plot)
    plot.titleLabel = title
    plot.layout.addItem(title, 0, 1)
    return title


#: the room a vertical axis keeps for its tick labels from the start (pyqtgraph: 30 px), enough for
#: "-0.0025" or "80000" at the default font, so that the first frame of new data rarely widens it
TICK_TEXT_PX = 40


def keep_text_space(axis: pg.AxisItem, text_px: int = 0) -> None:
    """Let ``axis`` widen for longer tick labels but never narrow again (pyqtgraph's
    ``autoReduceTextSpace`` off). By default an axis narrows as soon as its labels are 10 px
    shorter, which re-lays out its plot after the paint that measured them and paints the whole
    plot a second time: an objective chart going from 10⁵ to 3 took 7.6 + 9.4 ms instead of
    6.8 ms, and after a data change the views of a column repainted each other in one turn of
    the event loop (benchmarks/bench_gui.py, choosing the digits). ``text_px``: room for the
    labels of a vertical axis from the start (its first frame of new data then rarely widens it:
    choosing the digits after the faces, 53-56 scene paints instead of 55-61)."""
    if text_px and axis.orientation in ("left", "right"):
        axis.textWidth = max(axis.textWidth, int(text_px))     # pyqtgraph's measured label width
    axis.setStyle(autoReduceTextSpace=False)


def style_plot(plot: pg.PlotItem, title: str, bottom: str, left: str | None = None) -> None:
    """The app's look for a chart: its axes :class:`Axis` (a plot built with other axes gets
    them), the left and bottom ones shown (a view shows another one itself, later), a wrapping
    :class:`Title`, the axis labels ``bottom`` and ``left`` (None: no left label), a light
    horizontal grid and the axis colours."""
    plain = {name: Axis(name) for name in AXIS_SIDES if not isinstance(plot.getAxis(name), Axis)}
    if plain:
        plot.setAxisItems(plain)
    for name in ("top", "right"):        # (pyqtgraph shows every axis it is given)
        plot.hideAxis(name)
    wrapping_title(plot)
    plot.setTitle(title, size=TITLE_SIZE, color=COLORS["title"])
    plot.setLabel("bottom", bottom)
    if left:
        plot.setLabel("left", left)
    plot.showGrid(x=False, y=True, alpha=0.25)
    plot.setMenuEnabled(False, enableViewBoxMenu=True)   # right click: View All, Export…
    for name in ("left", "bottom"):
        ax = plot.getAxis(name)
        ax.setTextPen(COLORS["axis"])
        ax.setPen(COLORS["axis"])
    # Axes and title are re-rendered only when they change (range, size), not on every frame:
    # the tick text is the most expensive part of a plot's paint.
    for name in AXIS_SIDES:
        ax = plot.getAxis(name)
        ax.setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)
        keep_text_space(ax, TICK_TEXT_PX)
        # pyqtgraph centres an axis label only in the axis's resizeEvent: a label whose text or
        # font changes, or an axis resized without one, kept an old place (a column's "sample
        # index" 24 px left of its axis)
        ax.geometryChanged.connect(lambda ax=ax: _place_axis_label(ax))
        ax.label.document().documentLayout().documentSizeChanged.connect(lambda _s, ax=ax: _place_axis_label(ax))
    plot.titleLabel.setCacheMode(QtWidgets.QGraphicsItem.DeviceCoordinateCache)


def _place_axis_label(axis: pg.AxisItem) -> None:
    """Centre ``axis``'s label again (pyqtgraph does it in its resizeEvent); nothing once the
    axis or its label is being deleted (a plot's scene is deleted item by item, and the items
    left still change size: the label was read after Qt had deleted it)."""
    if shiboken6.isValid(axis) and shiboken6.isValid(axis.label):
        axis.resizeEvent(None)


#: px kept between two tick labels along a horizontal axis
TICK_GAP = 6
#: the four sides of a pyqtgraph plot
AXIS_SIDES = ("left", "bottom", "top", "right")


class Axis(pg.AxisItem):
    """The axis of the app's charts: pyqtgraph's ``AxisItem`` with three changes.

    * **No crowded tick texts** (:meth:`generateDrawSpecs`): a tick text that would run into one
      already placed (the first level's are placed first) is left out. pyqtgraph checks only how
      much of the axis its texts fill, and a log axis within one decade wrote "6·10²", "7·10²",
      "8·10²" into each other where they crowd.
    * **Spread ticks along a horizontal axis** (:meth:`tickSpacing`): automatic ticks never
      closer than their labels are wide. pyqtgraph always writes its first level of ticks,
      however narrow the axis (a two-axis chart 60 px wide wrote "20 40 60 80" into each other).
      The major spacing is doubled or more (1, 2, 5 × 10ᵏ) until the widest label and
      :data:`TICK_GAP` fit between two ticks; the spacing it had becomes the minor one. Explicit
      ticks (``setTicks``, ``setTickSpacing``) are kept.
    * **The label is set again only when it changes** (``_updateLabel``): pyqtgraph re-renders
      the label's HTML (and re-measures the axis) at every range change, ~0.12 ms each: 90 times
      in the relayout of the 6-column preset, and twice per chart per frame while a run draws.
    """

    _label_set: tuple | None = None       # (HTML, font) of the label as last set

    def _updateLabel(self):
        key = (self.labelString(), QtGui.QFont(self.label.font()))
        if key != self._label_set:
            self._label_set = key
            super()._updateLabel()
            return
        self.picture = None               # (the tick texts may still change with the range)
        self.update()

    def generateDrawSpecs(self, p):
        specs = super().generateDrawSpecs(p)
        if specs is None:
            return specs
        axis_spec, tick_specs, text_specs = specs
        kept: list = []
        for rect, flags, text in text_specs:
            crossed = (rect.intersected(other) for other, _, _ in kept)
            if not any(c.width() > 1 and c.height() > 1 for c in crossed):      # text_fit's tolerance
                kept.append((rect, flags, text))
        return axis_spec, tick_specs, kept

    def tickSpacing(self, minVal, maxVal, size):
        levels = super().tickSpacing(minVal, maxVal, size)
        lo, hi = minVal, maxVal
        if (self.orientation not in ("bottom", "top") or self._tickSpacing is not None or not levels
                or size <= 0 or hi <= lo):
            return levels
        major = levels[0][0]
        font = self.style.get("tickFont") or self.font()
        fm = QtGui.QFontMetricsF(font)
        strings = self.tickStrings([lo, hi, major * np.ceil(lo / major)], self.autoSIPrefixScale * self.scale, major)
        wide = max(fm.horizontalAdvance(str(t)) for t in strings) + TICK_GAP
        spread = major
        while (spread / (hi - lo)) * size < wide and spread < (hi - lo):
            digits = spread / 10 ** np.floor(np.log10(spread))
            spread *= 2.5 if round(digits) == 2 else 2       # 1 → 2 → 5 → 10
        if spread == major:
            return levels
        return [(spread, 0), (major, 0)]


class Message(pg.TextItem):
    """A grey centred note drawn over a chart in place of data (e.g. "no sample weights")."""

    def __init__(self):
        super().__init__("", color=(120, 120, 120), anchor=(0.5, 0.5))


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


class DecadeAxis(Axis):
    """Left axis of the weights chart: the value v is drawn as 10^v (``decades``), or as is."""

    decades = True

    def tickStrings(self, values, scale, spacing):
        if not self.decades:
            return super().tickStrings(values, scale, spacing)
        return ["1" if round(v) == 0 else "10" + str(int(round(v))).translate(_SUPERSCRIPT)
                if abs(v - round(v)) < 1e-9 else "" for v in values]


class MenuOnDemandViewBox(pg.ViewBox):
    """A ViewBox whose right-click menu (pyqtgraph's ViewBoxMenu: two axis forms, 4.5 ms of the
    GUI thread, a quarter of a plot view's construction) is built the first time it is asked
    for; :meth:`add_actions` adds actions to it then (or at once if it is built). Otherwise a
    pyqtgraph ViewBox with its menu enabled."""

    def __init__(self, *args, **kwargs):
        kwargs["enableMenu"] = False             # no menu built now...
        super().__init__(*args, **kwargs)
        self.state["enableMenu"] = True          # ... but a right-click asks for one
        self._extra_actions: list = []

    def add_actions(self, actions) -> None:
        """Add ``actions`` (after a separator) to the menu, when it is built."""
        self._extra_actions.extend(actions)
        if self.menu is not None:
            self._add_to(self.menu, actions)

    @staticmethod
    def _add_to(menu, actions) -> None:
        menu.addSeparator()
        for act in actions:
            menu.addAction(act)

    def _built_menu(self):
        if self.menu is None and self.menuEnabled():
            from pyqtgraph.graphicsItems.ViewBox.ViewBoxMenu import ViewBoxMenu
            self.menu = ViewBoxMenu(self)
            self.updateViewLists()
            if self._extra_actions:
                self._add_to(self.menu, self._extra_actions)
        return self.menu

    def _applyMenuEnabled(self):
        # pyqtgraph builds the menu when it is enabled (setMenuEnabled, setState): not yet
        if not self.menuEnabled() and self.menu is not None:
            self.menu.setParent(None)
            self.menu = None

    def getMenu(self, ev):
        return self._built_menu()

    def getContextMenus(self, event):
        menu = self._built_menu()
        return menu.actions() if menu is not None else []


class _SceneStaysActive(QtCore.QObject):
    """Event filter of :func:`keep_scenes_active`: swallows a scene's WindowDeactivate."""

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 (Qt's name)
        return event.type() == QtCore.QEvent.Type.WindowDeactivate


_SCENE_FILTER = _SceneStaysActive()


def keep_scenes_active(widget: QtWidgets.QWidget) -> QtWidgets.QWidget:
    """Keep the pyqtgraph scenes in ``widget`` (a view, a workspace) active when its window is
    deactivated, and return ``widget``.

    A window that loses the focus to a dialog (Tools ▸ Sweep…, Export, a message box) sends
    WindowDeactivate to each scene, which passes it to every item, and pyqtgraph's items (all
    QGraphicsWidgets) then repaint: every chart of the window was drawn again, 2-3 ms per scene,
    in the event-loop gap that showed the dialog (its longest gap 40-42 ms; 23-26 ms without).
    Nothing in the views looks different when the window is inactive. The scene still counts
    activations, so later ones change nothing either."""
    views = widget.findChildren(pg.GraphicsView)
    if isinstance(widget, pg.GraphicsView):
        views.append(widget)
    for view in views:
        view.scene().installEventFilter(_SCENE_FILTER)
    return widget


def plot_widget_kwargs(**kwargs) -> dict:
    """Keyword arguments of a view's ``pg.PlotWidget`` (or its subclass): its ViewBox builds its
    menu on demand (:class:`MenuOnDemandViewBox`), its axes are :class:`Axis` (those of
    ``axisItems`` in ``kwargs`` taken instead); the other ``kwargs`` added."""
    axes = {name: Axis(name) for name in AXIS_SIDES if name not in kwargs.get("axisItems", {})}
    return {"viewBox": MenuOnDemandViewBox(), **kwargs, "axisItems": {**axes, **kwargs.get("axisItems", {})}}


class View:
    """The declaration of a view (a mixin placed after the Qt base class).

    A view is one class in one file under ``app/views/`` (or ``app/regression/views.py``) and one
    line in :data:`app.views.VIEWS`. It declares

    * ``title``: its name for a user (menus, export file names); a class attribute (the image
      mosaics keep their title *label item* in the instance attribute of the same name, so read it
      as ``type(view).title``);
    * ``tasks``: the workspaces that show it: ``{"subspace"}`` (method columns) or
      ``{"regression"}``;
    * ``name``: the attribute under which the column keeps it (``column.basis_view``);
    * ``area``: where a method column places it: ``"side"`` (top left, under each other),
      ``"curves"`` (top right, under each other) or ``"bottom"`` (side by side);
    * ``stretch``: its share of the area; ``min_extra``: pixels more than the area's minimum
      height; ``default_visible``: shown before the first snapshot;
    * ``shows(snapshot) -> bool``: whether it has something to show for this snapshot (hidden
      otherwise); a static method (it looks at the snapshot only), since a method column asks
      the class before building a view that is hidden by default;
    * ``show_snapshot(snapshot)``: draw it (``show`` is QWidget's own "make visible" and is left to
      Qt);
    * ``export_data(snapshot) -> dict[str, np.ndarray]``: the data behind it, for the Export menu
      (arrays as drawn, in the snapshot's units: grey levels 0–255, weights 0–1).
    """

    title: str = ""
    tasks: frozenset = frozenset({"subspace"})
    name: str = ""
    area: str = "bottom"
    stretch: int = 1
    #: px (unzoomed) added to its area's minimum height (app.column.VIEW_MIN_HEIGHT)
    min_extra: int = 0
    #: shown before the first snapshot arrives
    default_visible: bool = True
    #: a double click shows it large (View ▸ show large, :mod:`app.display`)
    enlargeable: bool = True

    @staticmethod
    def shows(snapshot) -> bool:
        return snapshot is not None

    def export_data(self, snapshot) -> dict:
        return {}


#: grey scale of the images (black = low end, white = high end)
GREY = pg.ColorMap([0.0, 1.0], [(0, 0, 0), (255, 255, 255)], name="grey")
#: diverging scale of residuals and signed loadings (blue −, white 0, red +)
DIVERGING = "CET-D1"


def export_arrays(**kw) -> dict:
    """The items of ``kw`` that are not None, as numpy arrays."""
    return {k: np.asarray(v) for k, v in kw.items() if v is not None}


class ColorBar(pg.GraphicsWidget):
    """A fixed colour bar: the colour map as an image beside an axis whose label names the
    quantity and its unit; vertical (axis on the right, low values at the bottom) or horizontal
    (axis below, low values at the left).

    pyqtgraph's ``ColorBarItem`` is an interactive PlotItem: building one (its menus and four
    axes) took ~8 ms of the GUI thread, the largest part of building an image view. The views'
    bars are never interactive, so this one is a ViewBox, an ImageItem and one AxisItem (< 1 ms),
    with the part of ``ColorBarItem``'s interface the views use: :meth:`levels`,
    :meth:`setLevels`, :meth:`setColorMap` and :meth:`getAxis`."""

    def __init__(self, cmap, values, label: str, ticks=None, horizontal: bool = False, width: int = 8):
        super().__init__()
        self.horizontal = bool(horizontal)
        grid = QtWidgets.QGraphicsGridLayout()
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setSpacing(0)
        self.setLayout(grid)
        self.vb = pg.ViewBox(enableMenu=False, enableMouse=False, defaultPadding=0.0)
        self.image = pg.ImageItem(axisOrder="row-major")
        self.vb.addItem(self.image)
        self.axis = pg.AxisItem("bottom" if self.horizontal else "right", pen=COLORS["axis"],
                                textPen=COLORS["axis"])
        self.axis.linkToView(self.vb)
        self.axis.setLabel(label, color=COLORS["axis"], **{"font-size": "7.5pt"})
        # end values shown (pyqtgraph drops a tick text more than 15 px past the axis's ends: the
        # residual bar's "−128" at 9 pt, 33 px wide, was never drawn), in the axis label's size
        tick_font = scaling.base_font()
        tick_font.setPointSizeF(7.5)
        self.axis.setStyle(tickTextOffset=2, tickLength=-4, hideOverlappingLabels=False, tickFont=tick_font)
        keep_text_space(self.axis)
        if ticks is not None:
            self.axis.setTicks(ticks)
        if self.horizontal:
            self.vb.setFixedHeight(width)
            grid.addItem(self.vb, 0, 0)
            grid.addItem(self.axis, 1, 0)
        else:
            self.vb.setFixedWidth(width)
            grid.addItem(self.vb, 0, 0)
            grid.addItem(self.axis, 0, 1)
            # the end values are centred on the bar's ends: room for half a line above and below,
            # else the bottom one ("−1") is cut by the view's edge
            half = int(np.ceil(QtGui.QFontMetrics(tick_font).height() / 2))
            grid.setContentsMargins(0, half, 0, half)
        self.frame = QtWidgets.QGraphicsRectItem(self.vb)     # the outline
        self.frame.setPen(pg.mkPen(COLORS["axis"]))
        self._levels = (0.0, 1.0)
        self.setColorMap(cmap)
        self.setLevels(values)
        cache = QtWidgets.QGraphicsItem.DeviceCoordinateCache
        self.setCacheMode(cache)
        self.axis.setCacheMode(cache)

    def setColorMap(self, cmap) -> None:
        """Show ``cmap`` (a pyqtgraph ColorMap or its name)."""
        cmap = pg.colormap.get(cmap) if isinstance(cmap, str) else cmap
        ramp = np.arange(256, dtype=np.uint8)
        self.image.setImage(ramp[None, :] if self.horizontal else ramp[:, None],
                            lut=cmap.getLookupTable(nPts=256), levels=(0, 255), autoLevels=False)

    def levels(self) -> tuple[float, float]:
        """The values at the two ends of the bar."""
        return self._levels

    def setLevels(self, values) -> None:
        """Span the values ``(low, high)`` (the axis follows)."""
        lo, hi = float(values[0]), float(values[1])
        self._levels = (lo, hi)
        span = (hi - lo) or 1.0
        rect = QtCore.QRectF(lo, 0.0, span, 1.0) if self.horizontal else QtCore.QRectF(0.0, lo, 1.0, span)
        self.image.setRect(rect)
        self.frame.setRect(rect)
        if self.horizontal:
            self.vb.setRange(xRange=(lo, lo + span), yRange=(0.0, 1.0), padding=0.0)
        else:
            self.vb.setRange(xRange=(0.0, 1.0), yRange=(lo, lo + span), padding=0.0)

    def getAxis(self, name: str) -> pg.AxisItem:
        """The bar's axis (``"right"`` of a vertical bar, ``"bottom"`` of a horizontal one)."""
        if name != self.axis.orientation:
            raise KeyError(f"this colour bar has no {name!r} axis (it has {self.axis.orientation!r})")
        return self.axis


def color_bar(cmap, values, label: str, ticks=None, horizontal: bool = False) -> ColorBar:
    """A fixed (not interactive) colour bar with an axis label in words and units; vertical (axis
    on the right) or horizontal (axis below)."""
    return ColorBar(cmap, values, label, ticks, horizontal=horizontal)


#: key of ``Snapshot.details`` holding a per-sample outlier score (convex methods: ‖e_i‖)
OUTLIER_SCORE = "outlier score"


def mask_rgba(mask: np.ndarray, color) -> np.ndarray:
    """(…, 4) uint8: ``color`` where ``mask``, transparent elsewhere."""
    out = np.zeros(mask.shape + (4,), dtype=np.uint8)
    out[mask] = color
    return out


def zero_rgba(zero: np.ndarray) -> np.ndarray:
    """(…, 4) uint8: the zero colour where ``zero``, transparent elsewhere."""
    return mask_rgba(zero, ZERO_COLOR)


class Title(pg.LabelItem):
    """A title that never widens its view and is never clipped: a text longer than the view's
    width wraps onto more lines (left-aligned), and the title is as high as its lines (``row``:
    the ``(QGraphicsGridLayout, row)`` whose fixed height follows it, a PlotItem's title row).
    A single word wider than the view still sticks out (:mod:`app.text_fit` reports it)."""

    #: below this width (px, before the first layout) the text is not wrapped
    MIN_WRAP = 24

    def __init__(self, text: str = " ", row=None, **kw):
        kw.setdefault("justify", "left")
        self._row = row
        super().__init__(text, **kw)
        option = self.item.document().defaultTextOption()
        option.setWrapMode(QtGui.QTextOption.WordWrap)     # between words only: a longer word sticks out
        self.item.document().setDefaultTextOption(option)

    def _wrap(self) -> None:
        width = self.rect().width()
        target = width if width >= self.MIN_WRAP else -1
        if abs(self.item.textWidth() - target) > 0.5:
            self.item.setTextWidth(target)

    def setText(self, text, **args):
        self._wrap()
        super().setText(text, **args)

    def resizeEvent(self, ev):
        self._wrap()
        super().resizeEvent(ev)

    def updateMin(self):
        h = self.item.boundingRect().height()
        self.setMinimumWidth(0)
        self._sizeHint = {QtCore.Qt.SizeHint.MinimumSize: (0, h), QtCore.Qt.SizeHint.PreferredSize: (0, h),
                          QtCore.Qt.SizeHint.MaximumSize: (-1, -1), QtCore.Qt.SizeHint.MinimumDescent: (0, 0)}
        if self._row is not None and self.isVisible():
            layout, row = self._row
            if not shiboken6.isValid(layout):
                # its plot is being deleted (a scene's items go one by one, and one going changes
                # the fonts, so the sizes, of those left): an error raised here, inside Qt's
                # destructor, ended the process in a segmentation fault (benchmarks/screenshots.py)
                self._row = None
                return
            if abs(layout.rowMinimumHeight(row) - h) > 0.5 or abs(self.maximumHeight() - h) > 0.5:
                self.setMaximumHeight(h)
                layout.setRowFixedHeight(row, h)
        self.updateGeometry()


class Mosaic(pg.GraphicsLayoutWidget):
    """A title and one ViewBox holding a grid of ImageItems (one per tile), so that every tile
    gets the same size and the grid scales as a whole. 1 data unit = 1 pixel of the images."""

    GAP = 0.08          # gap between tiles, in tile widths
    TOP = 0.0           # room above the grid for column headers, in tile heights
    LEFT = 0.0          # room left of the grid for row labels, in tile widths
    RIGHT = 0.0         # room right of the grid (labels beside the tiles), in tile widths

    def __init__(self, title: str, rows: int, cols: int, capacity: int | None = None, parent=None):
        super().__init__(parent)
        self.setBackground("w")
        self.ci.setContentsMargins(2, 2, 2, 2)
        self.ci.layout.setSpacing(0)
        self.title = Title(title, size=TITLE_SIZE, color=COLORS["title"])
        self.ci.addItem(self.title, row=0, col=0)
        self.vb = self.ci.addViewBox(row=1, col=0, lockAspect=True, enableMouse=False, invertY=True,
                                     enableMenu=False)
        self.rows, self.cols = rows, cols
        self.items: list[pg.ImageItem] = []
        for _ in range(capacity or rows * cols):
            img = pg.ImageItem(axisOrder="row-major")
            self.vb.addItem(img)
            self.items.append(img)
        self._key = None                # (tile shape, rows, cols, vgap) the tiles are laid out for
        self._tile = None
        self.vgap = None                # vertical gap in tile heights (None: same as GAP)
        self.bars: list[ColorBar] = []          # right of the tiles
        self.below_bars: list[ColorBar] = []    # under the tiles
        self.bar_row = None
        self.setMinimumSize(120, 90)

    def add_color_bar(self, bar: ColorBar, below: bool = False) -> ColorBar:
        """Place ``bar`` right of the tiles (after the bars already there; the title spans all),
        or, ``below``, in a row under the tiles (horizontal bars, side by side)."""
        if below:
            if self.bar_row is None:
                self.bar_row = self.ci.addLayout(row=2, col=0)
                self.bar_row.setContentsMargins(16, 2, 16, 0)     # room for half an end value ("+128")
                self.bar_row.layout.setHorizontalSpacing(28)    # the end values of two bars apart
            self.bar_row.addItem(bar)
            self.below_bars.append(bar)
            return bar
        self.bars.append(bar)
        col = len(self.bars)
        self.ci.removeItem(self.title)
        self.ci.addItem(self.title, row=0, col=0, colspan=col + 1)
        self.ci.addItem(bar, row=1, col=col)
        self.ci.layout.setColumnSpacing(col - 1, 6)     # a bar does not touch the tiles
        return bar

    def bars_width(self) -> float:
        """Width in pixels taken by the colour bars (their axes and labels included)."""
        return float(sum(max(b.geometry().width(), 40.0) + 6.0 for b in self.bars if b.isVisible()))

    def gaps(self, shape=None) -> tuple[float, float]:
        """(horizontal, vertical) gap between tiles in data units."""
        h, w = self._tile if shape is None else shape
        g = self.GAP * w
        return g, (g if self.vgap is None else self.vgap * h)

    def tile_rect(self, r: int, c: int) -> QtCore.QRectF:
        h, w = self._tile
        g, gv = self.gaps()
        return QtCore.QRectF(c * (w + g), r * (h + gv), w, h)

    def _layout(self, shape, rows: int | None = None, cols: int | None = None) -> bool:
        """Place the tiles for images of ``shape`` on a rows × cols grid; True if it changed."""
        shape = tuple(int(v) for v in shape)
        rows = rows or self.rows
        cols = cols or self.cols
        key = (shape, rows, cols, self.vgap, round(self.TOP, 3), round(self.RIGHT, 3))
        if key == self._key:
            return False
        self._key = key
        self._tile = shape
        self.rows, self.cols = rows, cols
        h, w = shape
        g, gv = self.gaps()
        for i, img in enumerate(self.items):
            r, c = divmod(i, cols)
            img.setPos(self.tile_rect(r, c).topLeft())
        width = cols * w + (cols - 1) * g
        height = rows * h + (rows - 1) * gv + (gv if self.vgap is not None else 0.0)
        top, left, right = self.TOP * h, self.LEFT * w, self.RIGHT * w
        self.vb.setRange(QtCore.QRectF(-left, -top, width + left + right, height + top), padding=0.0)
        self._placed(shape)
        return True

    def _placed(self, shape) -> None:
        """Hook: position labels after a layout change."""


#: point sizes tried, largest first, for labels that must fit their tiles (headers, counts)
LABEL_PT = (8.0, 7.5, 7.0, 6.5, 6.0)


def fitting_font(texts, width: float, height: float, sizes=LABEL_PT) -> QtGui.QFont | None:
    """The largest of ``sizes`` (points, unzoomed: the scene magnifies) in which every one of
    ``texts`` is at most ``width`` px wide and ``height`` px high; None if none is."""
    for pt in sizes:
        font = scaling.base_font()
        font.setPointSizeF(pt)
        fm = QtGui.QFontMetrics(font)
        if max((fm.horizontalAdvance(t) for t in texts), default=0) <= width and fm.height() <= height:
            return font
    return None


def tile_overlays(vb, n: int, point_size: float, anchor) -> tuple[list, list]:
    """``n`` hidden overlay images (drawn above the tiles) and ``n`` text labels in ``vb``."""
    font = QtGui.QFont()
    font.setPointSizeF(point_size)
    overlays, labels = [], []
    for _ in range(n):
        ov = pg.ImageItem(axisOrder="row-major")
        ov.setZValue(1)
        ov.setVisible(False)
        vb.addItem(ov)
        overlays.append(ov)
        t = pg.TextItem("", color="#333333", anchor=anchor)
        t.setFont(font)
        vb.addItem(t, ignoreBounds=True)
        labels.append(t)
    return overlays, labels


def is_scatter(snapshot) -> bool:
    """2-D data (toy examples): drawn as a scatter, not as images."""
    return snapshot is not None and snapshot.points is not None


def is_strip(snapshot) -> bool:
    """Data with few features (images one pixel high): the loadings heat map, not images."""
    return (snapshot is not None and not is_scatter(snapshot) and len(snapshot.basis.shape) == 3
            and min(snapshot.basis.shape[1:]) == 1)
