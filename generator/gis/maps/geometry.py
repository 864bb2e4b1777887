"""Geometry helpers the layout, the labels and the drawing share.

A box grown or shrunk on every side, a turned rectangle, and the polygons or the lines inside any
geometry.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

from shapely.geometry import LineString, Polygon
from shapely.geometry.base import BaseGeometry


def _grow_box(b: Sequence[float], d: float) -> tuple[float, float, float, float]:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


def _rect(x: float, y: float, w: float, h: float, angle: float) -> Polygon:
    """A w × h rectangle centered on (x, y), turned by angle degrees."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return Polygon([(x + px * c - py * s, y + px * s + py * c) for px, py in pts])


def _polygons(geom: BaseGeometry) -> Iterator[Polygon]:
    if geom.is_empty:
        return
    if isinstance(geom, Polygon):
        yield geom
    elif hasattr(geom, "geoms"):
        for part in geom.geoms:
            yield from _polygons(part)


def _lines(geom: BaseGeometry) -> Iterator[LineString]:
    if geom.is_empty:
        return
    if isinstance(geom, LineString):
        yield geom
    elif isinstance(geom, Polygon):
        yield LineString(geom.exterior.coords)
        for ring in geom.interiors:
            yield LineString(ring.coords)
    elif hasattr(geom, "geoms"):
        for part in geom.geoms:
            yield from _lines(part)
