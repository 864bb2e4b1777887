"""Labels placed on paper greedily, the most important first, clear of each other, in the frame.

The change goes inside its area if it fits (else beside it, with a leader), then municipal
names along their boundaries, street names along their lines, district codes inside their
districts, the notice distance on its ring and water names in or beside the water.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import polylabel, substring

from generator.gis.maps.frame import _Frame
from generator.gis.maps.geometry import _grow_box, _lines, _polygons, _rect
from generator.gis.maps.map_layers import MapLayers
from generator.gis.maps.style import _TEXT, _measure

_LABEL_PAD = 0.025  # clear space around each label, in
_FRACTIONS = tuple(sorted((i / 20 for i in range(1, 20)), key=lambda t: (abs(t - 0.5), t)))


@dataclass(frozen=True)
class _Label:
    kind: str
    text: str
    x: float  # center on paper, in
    y: float
    angle: float  # degrees, counterclockwise, within (-90, 90]
    size: float  # pt
    rect: Polygon


def _two_lines(text: str) -> str | None:
    """A long label broken in two: after the arrow if it has one, else at the middle space."""
    if "→" in text:
        head, _, tail = text.partition("→")
        if head.strip() and tail.strip():
            return f"{head.strip()} →\n{tail.strip()}"
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return None
    cut = min(spaces, key=lambda i: abs(i - len(text) / 2))
    return f"{text[:cut]}\n{text[cut + 1 :]}"


def _upright(dx: float, dy: float) -> float:
    """The angle of a direction, turned so text along it reads left to right or bottom to top."""
    a = math.degrees(math.atan2(dy, dx))
    if a > 90:
        a -= 180
    elif a <= -90:
        a += 180
    return a


@dataclass(frozen=True)
class _Candidate:
    x: float
    y: float
    angle: float
    size: float
    preference: float  # added to the cost; lower is better
    within: BaseGeometry | None = None  # the label must lie inside this (paper)


class _Placer:
    """Greedy label placement on paper: each label takes the cheapest free spot."""

    def __init__(self, frame: Polygon) -> None:
        self.frame = frame
        self.taken: list[Polygon] = []

    def cost(self, rect: Polygon, soft: Sequence[tuple[BaseGeometry, float]]) -> float:
        """Infinite outside the frame or over a label already placed; features crossed cost a little."""
        if not self.frame.contains(rect) or any(rect.intersects(t) for t in self.taken):
            return math.inf
        c = 0.0
        for geom, weight in soft:
            if shapely.intersects(geom, rect):
                c += weight
        return c

    def place(
        self,
        kind: str,
        text: str,
        candidates: Iterable[_Candidate],
        soft: Sequence[tuple[BaseGeometry, float]],
        *,
        limit: float = math.inf,
    ) -> _Label | None:
        """The cheapest candidate costing less than limit, taken; None if there is none."""
        return self.place_any(kind, [(text, 0.0)], lambda _t, _e: candidates, soft, limit=limit)

    def place_any(
        self,
        kind: str,
        variants: Sequence[tuple[str, float]],
        spots: Callable[[str, float], Iterable[_Candidate]],
        soft: Sequence[tuple[BaseGeometry, float]],
        *,
        limit: float = math.inf,
    ) -> _Label | None:
        """The cheapest spot for any wording of a label (text, extra cost), taken; None if none costs less than limit."""
        best: tuple[float, _Label] | None = None
        for text, extra in variants:
            best = self._best(kind, text, spots(text, extra), soft, limit, best)
        if best is None:
            return None
        self.taken.append(best[1].rect)
        return best[1]

    def _best(
        self,
        kind: str,
        text: str,
        candidates: Iterable[_Candidate],
        soft: Sequence[tuple[BaseGeometry, float]],
        limit: float,
        best: tuple[float, _Label] | None,
    ) -> tuple[float, _Label] | None:
        for cand in candidates:
            w, h = _measure(text, kind, cand.size)
            rect = _rect(cand.x, cand.y, w + 2 * _LABEL_PAD, h + 2 * _LABEL_PAD, cand.angle)
            c = cand.preference + self.cost(rect, soft)
            if cand.within is not None and not cand.within.contains(rect):
                c += 200.0
            if c < limit and (best is None or c < best[0]):
                best = (c, _Label(kind, text, cand.x, cand.y, cand.angle, cand.size, rect))
        return best


def _merged(geoms: Iterable[BaseGeometry]) -> list[LineString]:
    """Lines joined where they meet end to end, longest first."""
    lines = [line for g in geoms for line in _lines(g)]
    if not lines:
        return []
    merged = list(_lines(shapely.line_merge(shapely.union_all(lines))))
    return sorted(merged, key=lambda line: -line.length)


def _along(
    pieces: Sequence[LineString],
    length: float,
    size: float,
    *,
    offset: float = 0.0,
    fractions: Sequence[float] = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9),
) -> Iterator[tuple[float, float, float, float]]:
    """Spots for a label of a length along lines: (x, y, angle, preference), optionally set off to either side."""
    for rank, piece in enumerate(pieces[:6]):
        total = piece.length
        if total <= 0:
            continue
        spots = (
            [(t * total, 0.0) for t in fractions]
            if total >= length
            else [(total / 2, 25.0 + 10 * (1 - total / length))]
        )
        for i, (d, extra) in enumerate(spots):
            lo, hi = max(d - length / 2, 0.0), min(d + length / 2, total)
            if total >= length and (d - length / 2 < 0 or d + length / 2 > total):
                continue
            p0, p1, mid = piece.interpolate(lo), piece.interpolate(hi), piece.interpolate(d)
            angle = _upright(p1.x - p0.x, p1.y - p0.y)
            chord = LineString([p0, p1])
            bend = max(
                (chord.distance(Point(c)) for c in substring(piece, lo, hi).coords), default=0
            )
            pref = extra + 0.3 * i + 2.0 * rank + (20.0 * bend / size if bend > 0.3 * size else 0.0)
            if offset:
                nx, ny = -math.sin(math.radians(angle)), math.cos(math.radians(angle))
                for side in (1.0, -1.0):
                    yield mid.x + side * offset * nx, mid.y + side * offset * ny, angle, pref
            else:
                yield mid.x, mid.y, angle, pref


def _inside(piece: Polygon, w: float, h: float) -> Iterator[tuple[float, float, float]]:
    """Spots inside a polygon for a w × h label: the pole of inaccessibility, then deep grid points."""
    pole = polylabel(piece, tolerance=0.01)
    yield pole.x, pole.y, 0.0
    x0, y0, x1, y1 = piece.bounds
    n = 14
    xs, ys = np.meshgrid(np.linspace(x0, x1, n + 2)[1:-1], np.linspace(y0, y1, n + 2)[1:-1])
    xs, ys = xs.ravel(), ys.ravel()
    inside = shapely.contains_xy(piece, xs, ys)
    xs, ys = xs[inside], ys[inside]
    if not len(xs):
        return
    depth = shapely.distance(piece.exterior, shapely.points(xs, ys))
    order = np.lexsort((ys, xs, -depth))[:40]
    for rank, i in enumerate(order):
        yield float(xs[i]), float(ys[i]), 0.5 + 0.1 * rank


def _inside_or_beside(
    piece: Polygon, w: float, h: float, size: float, *, beside: float = 20.0
) -> Iterator[_Candidate]:
    """Spots for a label inside a polygon, then around it (costing more) if it does not fit."""
    for x, y, p in _inside(piece, w, h):
        yield _Candidate(x, y, 0.0, size, p, within=piece)
    bx0, by0, bx1, by1 = piece.bounds
    c = Point((bx0 + bx1) / 2, (by0 + by1) / 2)
    for gap in (0.06, 0.15, 0.3, 0.5):
        for i, (ux, uy) in enumerate(
            ((0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1), (1, 0), (-1, 0))
        ):
            x = c.x + ux * ((bx1 - bx0) / 2 + w / 2 + gap)
            y = c.y + uy * ((by1 - by0) / 2 + h / 2 + gap)
            yield _Candidate(x, y, 0.0, size, beside + 0.5 * i + 25 * gap)


def _place_labels(
    layers: MapLayers, frame: _Frame
) -> tuple[list[_Label], list[tuple[tuple[float, float], tuple[float, float]]]]:
    paper_box = box(*frame.paper)
    inner = box(*_grow_box(frame.paper, -0.02))
    view = box(*_grow_box(frame.extent, 0.02 * (frame.extent[2] - frame.extent[0])))

    def on_paper(geom: BaseGeometry) -> BaseGeometry:
        return frame.to_paper(geom.intersection(view)).intersection(paper_box)

    placer = _Placer(inner)
    subject = on_paper(layers.subject)
    subject_edge = subject.boundary
    street_lines = {
        name: on_paper(shapely.union_all([g for g, n in layers.streets if n == name]))
        for _, name in layers.streets
    }
    all_streets = shapely.union_all(list(street_lines.values())) if street_lines else Point()
    districts = [(on_paper(g), code) for g, code in layers.districts]
    district_edges = shapely.union_all([g.boundary for g, _ in districts]) if districts else Point()
    buffer = on_paper(layers.buffer) if layers.buffer is not None else Polygon()
    ring = buffer.boundary if not buffer.is_empty else Point()
    towns = [
        (on_paper(g), frame.to_paper(g).boundary.intersection(inner), name)
        for g, name in layers.boundaries
    ]
    town_edges = shapely.union_all([e for _, e, _ in towns]) if towns else Point()
    for g in (subject, subject_edge, all_streets, district_edges, ring, town_edges):
        shapely.prepare(g)
    labels: list[_Label] = []
    leaders: list[tuple[tuple[float, float], tuple[float, float]]] = []

    # The change, inside the subject if it fits (shrinking to 7 pt), else beside it with a leader.
    if layers.change_label.strip() and not subject.is_empty:
        text = layers.change_label.strip()
        pieces = sorted(_polygons(subject), key=lambda p: -p.area)
        main = pieces[0]

        def change_spots(text: str, extra: float) -> Iterator[_Candidate]:
            for size, pref in ((9.0, 0.0), (8.0, 4.0), (7.0, 8.0)):
                w, h = _measure(text, "change", size)
                for x, y, p in _inside(main, w, h):
                    yield _Candidate(x, y, 0.0, size, extra + pref + p, within=main)
            w, h = _measure(text, "change", 9.0)
            for cand in _inside_or_beside(main, w, h, 9.0, beside=20.0 + extra):
                if cand.within is None:
                    yield cand

        soft = [
            (all_streets, 3.0),
            (district_edges, 2.0),
            (ring, 2.0),
            (town_edges, 2.0),
            (subject_edge, 15.0),
        ]
        variants = [(text, 0.0)]
        broken = _two_lines(text) if _measure(text, "change")[0] > 1.5 else None
        if broken:
            variants.append((broken, 1.0))
        label = placer.place_any("change", variants, change_spots, soft)
        if label is not None:
            labels.append(label)
            if not main.contains(Point(label.x, label.y)):
                target = main.representative_point() if main.area > 0 else main.centroid
                leader = LineString([(label.x, label.y), (target.x, target.y)]).difference(
                    label.rect
                )
                if isinstance(leader, LineString) and not leader.is_empty:
                    (ax, ay), (bx, by) = leader.coords[0], leader.coords[-1]
                    leaders.append(((ax, ay), (bx, by)))
                    placer.taken.append(leader.buffer(0.01))

    # Municipal names inside their polygons, along the visible boundary.
    for poly, edge, name in towns:
        text = name.strip()
        if not text or edge.is_empty or poly.is_empty:
            continue
        w, h = _measure(text, "municipal")
        offset = h / 2 + _LABEL_PAD + 0.04
        spots = (
            _Candidate(x, y, a, _TEXT["municipal"][2], p, within=poly)
            for x, y, a, p in _along(
                _merged([edge]), w + 0.1, h, offset=offset, fractions=_FRACTIONS
            )
        )
        soft = [(all_streets, 8.0), (subject, 30.0), (ring, 4.0), (district_edges, 2.0)]
        label = placer.place("municipal", text, spots, soft, limit=150.0)
        if label is not None:
            labels.append(label)

    # Street names along their lines, centered on the centerline, mid-block if possible.
    for name, lines in street_lines.items():
        text = name.strip()
        if not text or lines.is_empty:
            continue
        w, h = _measure(text, "street")
        pieces = _merged([lines.intersection(box(*_grow_box(frame.paper, -0.07)))])
        others = all_streets.difference(lines.buffer(0.01))
        soft = [
            (others, 8.0),
            (subject_edge, 30.0),
            (district_edges, 3.0),
            (ring, 3.0),
            (town_edges, 4.0),
        ]
        # Along the line; failing that (a street crossing a corner), beside it.
        spots = itertools.chain(
            (
                _Candidate(x, y, a, _TEXT["street"][2], p)
                for x, y, a, p in _along(pieces, w + 0.08, h)
            ),
            (
                _Candidate(x, y, a, _TEXT["street"][2], 40.0 + p + 10 * k)
                for k, off in enumerate((0.8 * h, 1.6 * h))
                for x, y, a, p in _along(_merged([lines]), w + 0.08, h, offset=off)
            ),
        )
        label = placer.place("street", text, spots, soft)
        if label is not None:
            labels.append(label)

    # District codes inside their districts, within the frame, away from the subject.
    for geom, code in districts:
        text = code.strip()
        if not text or geom.is_empty:
            continue
        w, h = _measure(text, "district")
        pieces = sorted(_polygons(geom.intersection(inner)), key=lambda p: -p.area)
        for rank, piece in enumerate(pieces):
            if rank and piece.area < 8 * w * h:
                break
            spots = (
                _Candidate(x, y, 0.0, _TEXT["district"][2], p, within=piece)
                for x, y, p in _inside(piece, w, h)
            )
            soft = [
                (all_streets, 10.0),
                (subject, 30.0),
                (district_edges, 20.0),
                (ring, 4.0),
                (town_edges, 4.0),
            ]
            label = placer.place("district", text, spots, soft, limit=150.0)
            if label is not None:
                labels.append(label)

    # The notice distance on its dashed line, near the top if it is free.
    if layers.buffer_label.strip() and not ring.is_empty:
        text = layers.buffer_label.strip()
        w, h = _measure(text, "buffer")
        pieces = _merged([ring.intersection(inner)])
        y0, y1 = buffer.bounds[1], buffer.bounds[3]

        def ring_spots() -> Iterator[_Candidate]:
            for piece in pieces[:4]:
                n = 48
                for i in range(n):
                    d0 = piece.length * i / n
                    lo, hi = d0 - (w + 0.06) / 2, d0 + (w + 0.06) / 2
                    if lo < 0 or hi > piece.length:
                        continue
                    p0, p1, mid = (
                        piece.interpolate(lo),
                        piece.interpolate(hi),
                        piece.interpolate(d0),
                    )
                    angle = _upright(p1.x - p0.x, p1.y - p0.y)
                    high = (y1 - mid.y) / (y1 - y0) if y1 > y0 else 0.0
                    yield _Candidate(
                        mid.x, mid.y, angle, _TEXT["buffer"][2], 2.0 * high + abs(angle) / 45
                    )

        soft = [(all_streets, 10.0), (subject, 30.0), (district_edges, 3.0), (town_edges, 4.0)]
        label = placer.place("buffer", text, ring_spots(), soft)
        if label is not None:
            labels.append(label)

    # Water: names inside ponds, beside streams.
    for geom, name in layers.water:
        text = name.strip()
        g = on_paper(geom)
        if not text or g.is_empty:
            continue
        w, h = _measure(text, "water")
        polys = sorted(_polygons(g.intersection(inner)), key=lambda p: -p.area)
        soft = [(all_streets, 10.0), (subject, 30.0), (ring, 3.0), (district_edges, 3.0)]
        if polys:
            spots: Iterator[_Candidate] = _inside_or_beside(polys[0], w, h, _TEXT["water"][2])
        else:
            spots = (
                _Candidate(x, y, a, _TEXT["water"][2], p)
                for x, y, a, p in _along(
                    _merged([g.intersection(inner)]), w + 0.08, h, offset=h / 2 + 0.05
                )
            )
        label = placer.place("water", text, spots, soft, limit=300.0)
        if label is not None:
            labels.append(label)
    return labels, leaders
