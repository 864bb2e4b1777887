"""The map frame on paper: the extent shown, the scale, and the legend and scale bar boxes.

The frame shows the change and its notice distance with a margin; the legend and the scale bar
sit outside it, so that they hide no parcel, no part of the notice distance and no label.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry

from generator.gis.maps.geometry import _grow_box
from generator.gis.maps.map_layers import MapLayers
from generator.gis.maps.style import (
    _BOX_PAD,
    _HANDLE_GAP,
    _HANDLE_W,
    _INSET,
    _LEGEND_TEXT,
    _ROW_H,
    _measure,
)

_MARGIN = 0.3  # default extent: the change and its notice distance, grown by this share
_COLUMN_GAP = 0.14  # between the legend's columns, in
_SEEN = 0.06  # a feature counts as shown if it comes this far inside the frame, in


@dataclass(frozen=True)
class _Frame:
    """The map frame: the extent in feet and where it sits on paper, in inches."""

    extent: tuple[float, float, float, float]
    paper: tuple[float, float, float, float]

    @property
    def k(self) -> float:
        """Inches of paper per foot."""
        return (self.paper[2] - self.paper[0]) / (self.extent[2] - self.extent[0])

    def view(self, inset_in: float = 0.0) -> Polygon:
        """The extent in feet, less an inset given in inches of paper."""
        return box(*_grow_box(self.extent, -inset_in / self.k))

    def to_paper(self, geom: BaseGeometry) -> BaseGeometry:
        """A geometry in feet, moved onto the paper."""
        k = self.k
        return affinity.affine_transform(
            geom,
            [k, 0, 0, k, self.paper[0] - self.extent[0] * k, self.paper[1] - self.extent[1] * k],
        )

    def to_feet(self, geom: BaseGeometry) -> BaseGeometry:
        """A geometry on paper, moved back into feet."""
        k = self.k
        return affinity.affine_transform(
            geom,
            [
                1 / k,
                0,
                0,
                1 / k,
                self.extent[0] - self.paper[0] / k,
                self.extent[1] - self.paper[1] / k,
            ],
        )


_Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Arrangement:
    """The frame and, outside it, the legend (its rows, columns and box) and the scale bar box."""

    frame: _Frame
    rows: tuple[tuple[str, str], ...]
    columns: int
    legend: _Box
    furniture: _Box
    scale_ft: float


def _arrange(layers: MapLayers, paper: _Box) -> _Arrangement:
    """The map frame, with the legend and the scale bar outside it, to its right or below it.

    Inside the frame they would hide parcels, the notice distance or labels wherever they sat
    (a town map has parcels in every corner), so they sit beside it, on whichever side leaves
    the frame that shows the change the largest.
    """
    right, below = _beside(layers, paper, "right"), _beside(layers, paper, "below")
    stacked = (right.legend[3] - right.legend[1]) + (right.furniture[3] - right.furniture[1])
    fits = stacked + _INSET <= paper[3] - paper[1]
    return right if fits and right.frame.k > below.frame.k + 1e-9 else below


def _beside(layers: MapLayers, paper: _Box, side: str) -> _Arrangement:
    """The arrangement with the legend and the scale bar in a band on one side of the frame."""
    px0, py0, px1, py1 = paper
    band = 0.0
    # The band's size and the frame's scale depend on each other: the band only grows until it
    # holds what the frame beside it needs (a few sizes of legend and scale bar: it ends).
    while True:
        on_paper = _frame_paper(paper, side, band)
        frame = _Frame(_extent(layers, on_paper), on_paper)
        rows = _legend_rows(layers, frame.view(_SEEN))
        scale_ft = _scale_length(frame.k)
        fw, fh = _furniture_size(scale_ft, frame.k)
        if side == "right":
            columns = 1
            lw, lh = _legend_size(rows, columns)
            need = max(lw, fw)
        else:
            room = px1 - px0 - fw - _INSET
            columns = max(
                (n for n in range(1, len(rows) + 1) if _legend_size(rows, n)[0] <= room),
                default=1,
            )
            lw, lh = _legend_size(rows, columns)
            need = max(lh, fh)
        if need <= band + 1e-9:
            break
        band = need
    if side == "right":  # one column at the right: the legend at the top, the scale bar beneath
        x0 = px1 - band
        legend, furniture = (x0, py1 - lh, px1, py1), (x0, py0, px1, py0 + fh)
    else:  # one band below: the legend at the left, the scale bar at the right
        legend, furniture = (px0, py0, px0 + lw, py0 + band), (px1 - fw, py0, px1, py0 + band)
    return _Arrangement(frame, rows, columns, legend, furniture, scale_ft)


def _frame_paper(paper: _Box, side: str, band: float) -> _Box:
    """The frame on paper: the paper less a band (and a gap) on the right or at the bottom."""
    px0, py0, px1, py1 = paper
    if side == "right":
        return (px0, py0, px1 - band - _INSET, py1)
    return (px0, py0 + band + _INSET, px1, py1)


def _extent(layers: MapLayers, paper: _Box) -> tuple[float, float, float, float]:
    """The extent shown in a frame on paper: the given one, or the change and its notice distance with a margin; at the frame's shape."""
    ratio = (paper[2] - paper[0]) / (paper[3] - paper[1])
    if layers.extent is not None:
        return _fit(layers.extent, ratio)
    keep = layers.subject
    if layers.buffer is not None and not layers.buffer.is_empty:
        keep = keep.union(layers.buffer)
    x0, y0, x1, y1 = keep.bounds
    if layers.buffer is None or layers.buffer.is_empty:
        grow = max(0.75 * max(x1 - x0, y1 - y0), 200.0)
        x0, y0, x1, y1 = x0 - grow, y0 - grow, x1 + grow, y1 + grow
    m = _MARGIN * max(x1 - x0, y1 - y0)
    return _fit((x0 - m, y0 - m, x1 + m, y1 + m), ratio)


def _fit(extent: Sequence[float], ratio: float) -> tuple[float, float, float, float]:
    """The extent grown about its center to the frame's width:height ratio."""
    x0, y0, x1, y1 = extent
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if w / h < ratio:
        w = h * ratio
    else:
        h = w / ratio
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def _scale_length(k: float) -> float:
    """A round length in feet (1, 2 or 5 times a power of ten) drawing at most 1.3 in."""
    most = 1.3 / k
    power = 10.0 ** math.floor(math.log10(most))
    for step in (5.0, 2.0, 1.0):
        if step * power <= most:
            return step * power
    return power


def _scale_ticks(scale_ft: float, k: float) -> list[tuple[float, str]]:
    """The scale bar's labels, in inches from its left end: 0, the half if it has room, the length."""
    length = scale_ft * k
    ticks = [(0.0, "0"), (length / 2, f"{scale_ft / 2:g}"), (length, f"{scale_ft:g} ft")]
    widths = [_measure(text, "scale")[0] for _, text in ticks]
    room = length / 2 - widths[1] / 2 - max(widths[0], widths[2]) / 2
    return ticks if room >= 0.08 else [ticks[0], ticks[2]]


def _furniture_size(scale_ft: float, k: float) -> tuple[float, float]:
    """The box holding the north arrow and the scale bar, in inches."""
    end_w, _ = _measure(f"{scale_ft:g} ft", "scale")
    return (2 * _BOX_PAD + 0.16 + 0.14 + scale_ft * k + end_w / 2, 2 * _BOX_PAD + 0.42)


def _legend_rows(layers: MapLayers, view: Polygon) -> tuple[tuple[str, str], ...]:
    """The symbols the map shows in a view, with their names."""

    def seen(geoms: Iterable[BaseGeometry | None]) -> bool:
        arr = np.array([g for g in geoms if g is not None], dtype=object)
        return bool(len(arr)) and bool(shapely.intersects(arr, view).any())

    words = {**_LEGEND_TEXT, **(layers.legend or {})}
    rows = [("subject", words["subject"])]
    if seen(layers.notified):
        rows.append(("notified", words["notified"]))
    if seen([layers.buffer]):
        text = words["buffer"]
        rows.append(("buffer", f"{text} ({layers.buffer_label})" if layers.buffer_label else text))
    for kind, present in (
        ("district", any(not g.boundary.intersection(view).is_empty for g, _ in layers.districts)),
        (
            "municipal",
            any(not g.boundary.intersection(view).is_empty for g, _ in layers.boundaries),
        ),
        ("parcel", seen(layers.parcels)),
        ("street", seen(g for g, _ in layers.streets)),
        ("water", seen(g for g, _ in layers.water)),
    ):
        if present:
            rows.append((kind, words[kind]))
    return tuple(rows)


def _legend_cells(
    rows: Sequence[tuple[str, str]], columns: int
) -> tuple[list[tuple[float, float]], tuple[float, float]]:
    """Where each legend row starts, from the box's top-left corner (down is +y), and the box's size; rows fill the columns top to bottom."""
    per = math.ceil(len(rows) / columns)
    cells: list[tuple[float, float]] = []
    x = _BOX_PAD
    for first in range(0, len(rows), per):
        group = rows[first : first + per]
        cells += [(x, _BOX_PAD + i * _ROW_H) for i in range(len(group))]
        x += _HANDLE_W + _HANDLE_GAP + max(_measure(text, "legend")[0] for _, text in group)
        x += _COLUMN_GAP
    return cells, (x - _COLUMN_GAP + _BOX_PAD, 2 * _BOX_PAD + per * _ROW_H)


def _legend_size(rows: Sequence[tuple[str, str]], columns: int) -> tuple[float, float]:
    """The legend box's width and height, its rows in so many columns."""
    return _legend_cells(rows, columns)[1]
