"""The map frame on paper: the extent shown, the scale, and the legend and scale bar boxes.

The extent is chosen among a few margins around the change so that the legend and the scale bar,
each in a corner of the frame, cover neither the area of the change nor the notice distance,
and as little else as they can.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

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

_MARGINS = (0.1, 0.2, 0.3, 0.45, 0.6, 0.8)  # default extent: content grown by these, tried in turn
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


def _arrange(
    layers: MapLayers, paper: _Box
) -> tuple[_Frame, tuple[tuple[str, str], ...], _Box, _Box, float]:
    """The extent, the legend's rows, the legend and scale bar boxes (in corners clear of the subject and notice area), the scale length."""
    ratio = (paper[2] - paper[0]) / (paper[3] - paper[1])
    keep = layers.subject
    if layers.buffer is not None and not layers.buffer.is_empty:
        keep = keep.union(layers.buffer)
    if layers.extent is not None:
        extents = [_fit(layers.extent, ratio)]
    else:
        x0, y0, x1, y1 = keep.bounds
        if layers.buffer is None or layers.buffer.is_empty:
            grow = max(0.75 * max(x1 - x0, y1 - y0), 200.0)
            x0, y0, x1, y1 = x0 - grow, y0 - grow, x1 + grow, y1 + grow
        size = max(x1 - x0, y1 - y0)
        extents = [
            _fit((x0 - m * size, y0 - m * size, x1 + m * size, y1 + m * size), ratio)
            for m in _MARGINS
        ]
    shapely.prepare(keep)
    context = [
        (shapely.union_all([g for g, _ in layers.streets]), 0.5),
        (shapely.union_all([g.boundary for g, _ in layers.boundaries]), 1.0),
        (shapely.union_all([g.boundary for g, _ in layers.districts]), 0.3),
        (shapely.union_all([g for g, _ in layers.water]), 30.0),
        (shapely.union_all(list(layers.notified)), 5.0),
    ]
    context = [(g, w) for g, w in context if not g.is_empty]
    best: tuple[tuple[bool, float], _Frame, Any, _Box, _Box, float] | None = None
    for extent in extents:
        frame = _Frame(extent, paper)
        rows = _legend_rows(layers, frame.view(_SEEN))
        scale_ft = _scale_length(frame.k)
        furniture_size = _furniture_size(scale_ft, frame.k)
        covers, cost, legend, furniture = _corners(
            frame, _legend_size(rows), furniture_size, keep, context
        )
        if best is None or (covers, cost) < best[0]:
            best = ((covers, cost), frame, rows, legend, furniture, scale_ft)
        if not covers:
            break
    assert best is not None
    return best[1:]


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


def _corners(
    frame: _Frame,
    legend_size: tuple[float, float],
    furniture_size: tuple[float, float],
    keep: BaseGeometry,
    context: Sequence[tuple[BaseGeometry, float]],
) -> tuple[bool, float, tuple[float, float, float, float], tuple[float, float, float, float]]:
    """The best corners for the legend and the scale bar: whether they cover the subject or notice area, a cost, the two boxes."""
    legend_order = ("ur", "lr", "ul", "ll")
    furniture_order = ("ll", "lr", "ul", "ur")

    def place(corner: str, size: tuple[float, float]) -> tuple[float, float, float, float]:
        px0, py0, px1, py1 = frame.paper
        w, h = size
        x0 = px0 + _INSET if corner[1] == "l" else px1 - _INSET - w
        y0 = py0 + _INSET if corner[0] == "l" else py1 - _INSET - h
        return (x0, y0, x0 + w, y0 + h)

    def cost(paper_box: tuple[float, float, float, float]) -> tuple[bool, float]:
        feet = frame.to_feet(box(*_grow_box(paper_box, 0.04)))
        covered = keep.intersection(feet).area / feet.area if keep.intersects(feet) else 0.0
        c = 100.0 * covered
        for geom, weight in context:
            if geom.intersects(feet):
                part = geom.intersection(feet)
                c += weight * (part.area / feet.area or part.length / math.sqrt(feet.area))
        return covered > 0, c

    best: tuple[bool, float, Any, Any] | None = None
    for i, lc in enumerate(legend_order):
        for j, fc in enumerate(furniture_order):
            if lc == fc:
                continue
            legend, furniture = place(lc, legend_size), place(fc, furniture_size)
            (lcov, lcost), (fcov, fcost) = cost(legend), cost(furniture)
            total = lcost + fcost + 0.01 * (i + j)
            key = (lcov or fcov, total)
            if best is None or key < (best[0], best[1]):
                best = (key[0], total, legend, furniture)
    assert best is not None
    return best


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

    rows = [("subject", _LEGEND_TEXT["subject"])]
    if seen(layers.notified):
        rows.append(("notified", _LEGEND_TEXT["notified"]))
    if seen([layers.buffer]):
        text = _LEGEND_TEXT["buffer"]
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
            rows.append((kind, _LEGEND_TEXT[kind]))
    return tuple(rows)


def _legend_size(rows: Sequence[tuple[str, str]]) -> tuple[float, float]:
    text_w = max(_measure(text, "legend")[0] for _, text in rows)
    return (2 * _BOX_PAD + _HANDLE_W + _HANDLE_GAP + text_w, 2 * _BOX_PAD + len(rows) * _ROW_H)
