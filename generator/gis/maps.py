"""Maps of a proposed zoning change, for newspaper notices and mailed letters.

R.I.G.L. § 45-24-53(b) asks the notice of a specific map change for a map showing the existing
and proposed boundaries, zoning district boundaries, labeled streets and roads, and city and town
boundaries where appropriate; 11 O.S. § 43-104 asks for a map of the area to be affected with
street names or numbers, streams or other landmarks. The map is printed in a newspaper legal
notice and in mailed letters, so it is drawn in grays only, about 5.5 in wide, with every label
7 pt or larger at that size, and the same layers always give the same bytes.

Coordinates are feet in a projected CRS, x east and y north, drawn at equal aspect. Everything is
laid out first on paper (inches), with labels placed greedily in order of importance so that
they avoid each other, the legend and the scale bar; then drawn. Matplotlib is imported only when
a map is drawn or measured: importing this module does not import it.
"""

from __future__ import annotations

import io
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient
from shapely.ops import polylabel, substring

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

DPI = 200
"""Resolution of the PNG, in dots per inch."""

_PAD = 0.04  # figure edge to map frame, in
_TITLE_BAND = 0.36  # room above the frame for the title (two lines at 7.5 pt), in
_INSET = 0.06  # map frame to legend and scale bar boxes, in
_BOX_PAD = 0.06  # inside the legend and scale bar boxes, in
_LABEL_PAD = 0.025  # clear space around each label, in
_MARGINS = (0.1, 0.2, 0.3, 0.45, 0.6, 0.8)  # default extent: content grown by these, tried in turn
_SEEN = 0.06  # a feature counts as shown if it comes this far inside the frame, in
_HALO_PT = 2.4
_ON_LINE = ("street", "buffer")  # labels set on their line, in a white box
_FRACTIONS = tuple(
    sorted((i / 20 for i in range(1, 20)), key=lambda t: (abs(t - 0.5), t))
)  # white stroke behind labels, pt

# Grays only: the map is printed in black and white.
_BLACK = "#000000"
_WHITE = "#ffffff"
_FONT_FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
    "bolditalic": "DejaVuSans-BoldOblique.ttf",
}
# kind: (font face, color, size in pt)
_TEXT = {
    "change": ("bold", _BLACK, 9.0),
    "street": ("regular", _BLACK, 7.0),
    "district": ("bold", "#333333", 9.0),
    "municipal": ("bolditalic", "#1a1a1a", 7.5),
    "water": ("italic", "#333333", 7.0),
    "buffer": ("regular", _BLACK, 7.0),
    "legend": ("regular", _BLACK, 7.0),
    "scale": ("regular", _BLACK, 7.0),
    "north": ("bold", _BLACK, 9.0),
    "title": ("bold", _BLACK, 9.0),
}
# layer: matplotlib patch keywords (linewidths in pt, dashes in pt)
_STYLE: dict[str, dict[str, Any]] = {
    "water": {"facecolor": "#ebebeb", "edgecolor": "#8c8c8c", "linewidth": 0.5, "zorder": 1},
    "water_line": {"edgecolor": "#8c8c8c", "linewidth": 2.8, "zorder": 1},
    "water_core": {"edgecolor": "#ebebeb", "linewidth": 1.4, "zorder": 1.1},
    "notified": {"facecolor": "#d4d4d4", "edgecolor": "none", "linewidth": 0, "zorder": 2},
    "parcel": {"edgecolor": "#7f7f7f", "linewidth": 0.4, "zorder": 3},
    "street": {"edgecolor": "#b3b3b3", "linewidth": 0.9, "zorder": 4},
    "district": {"edgecolor": "#333333", "linewidth": 1.3, "zorder": 5},
    "municipal": {
        "edgecolor": _BLACK,
        "linewidth": 2.0,
        "linestyle": (0, (9.0, 3.0, 2.0, 3.0)),
        "zorder": 6,
    },
    "buffer": {"edgecolor": _BLACK, "linewidth": 1.0, "linestyle": (0, (5.0, 3.0)), "zorder": 7},
    "subject_fill": {
        "facecolor": _WHITE,
        "edgecolor": "#7f7f7f",
        "hatch": "////",
        "linewidth": 0,
        "zorder": 8,
    },
    "subject": {"edgecolor": _BLACK, "linewidth": 2.4, "zorder": 9},
}
_LEGEND_TEXT = {
    "subject": "Area of proposed change",
    "notified": "Notified parcel",
    "buffer": "Notice distance",
    "district": "Zoning district boundary",
    "street": "Street centerline",
    "parcel": "Parcel line",
    "municipal": "Municipal boundary",
    "water": "Water",
}
_RC = {
    "svg.hashsalt": "zoning-notices-map",
    "svg.fonttype": "path",
    "font.family": "DejaVu Sans",
    "hatch.linewidth": 0.5,
    "lines.scale_dashes": False,
    "text.usetex": False,
    "figure.facecolor": _WHITE,
    "savefig.facecolor": _WHITE,
    "savefig.edgecolor": _WHITE,
}


@dataclass(frozen=True)
class MapLayers:
    """The layers of one map, in feet of a projected CRS (x east, y north)."""

    subject: BaseGeometry
    change_label: str
    parcels: Sequence[BaseGeometry] = ()
    notified: Sequence[BaseGeometry] = ()
    buffer: BaseGeometry | None = None
    buffer_label: str = ""
    districts: Sequence[tuple[BaseGeometry, str]] = ()
    streets: Sequence[tuple[BaseGeometry, str]] = ()
    boundaries: Sequence[tuple[BaseGeometry, str]] = ()
    water: Sequence[tuple[BaseGeometry, str]] = ()
    extent: tuple[float, float, float, float] | None = None


def draw(
    layers: MapLayers, *, title: str, width_in: float = 5.5, height_in: float = 4.0
) -> tuple[bytes, bytes]:
    """The map as (SVG bytes, PNG bytes at 200 dpi)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    layers = _valid(layers)
    plan = _plan(layers, title, width_in, height_in)
    description = _describe(layers, plan)
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(width_in, height_in), dpi=DPI)
        canvas = FigureCanvasAgg(fig)
        _draw_map(fig, layers, plan)
        _draw_labels(fig, plan)
        _draw_legend(fig, plan)
        _draw_furniture(fig, plan)
        _draw_title(fig, plan)

        canvas.draw()
        rgb = np.asarray(canvas.buffer_rgba())[..., :3]
        gray = Image.fromarray(np.ascontiguousarray(rgb)).convert("L")
        info = PngInfo()
        info.add_text("Title", title)
        info.add_text("Description", description)
        png = io.BytesIO()
        gray.save(png, format="PNG", dpi=(DPI, DPI), pnginfo=info)

        svg = io.BytesIO()
        fig.savefig(
            svg,
            format="svg",
            metadata={"Date": None, "Creator": None, "Title": title, "Description": description},
        )
    return svg.getvalue(), png.getvalue()


def shows(layers: MapLayers, *, width_in: float = 5.5, height_in: float = 4.0) -> list[str]:
    """What the drawn map shows, in the words the rule packs use: existing_and_proposed_boundaries, area_to_be_affected, zoning_district_boundaries, labeled_streets, municipal_boundaries, notified_parcels, scale_bar, north_arrow."""
    layers = _valid(layers)
    plan = _plan(layers, "", width_in, height_in)
    view = plan.frame.view(_SEEN)
    kinds = {label.kind for label in plan.labels}
    out: list[str] = []
    district_seen = any(g.intersects(view) for g, _ in layers.districts)
    if "change" in kinds and district_seen:
        out.append("existing_and_proposed_boundaries")
    if layers.subject.intersects(view):
        out.append("area_to_be_affected")
    if any(not g.boundary.intersection(view).is_empty for g, _ in layers.districts):
        out.append("zoning_district_boundaries")
    if "street" in kinds:
        out.append("labeled_streets")
    if any(not g.boundary.intersection(view).is_empty for g, _ in layers.boundaries):
        out.append("municipal_boundaries")
    if any(g.intersects(view) for g in layers.notified):
        out.append("notified_parcels")
    out += ["scale_bar", "north_arrow"]
    return out


# ---------------------------------------------------------------------------- layout ----


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


@dataclass(frozen=True)
class _Label:
    kind: str
    text: str
    x: float  # center on paper, in
    y: float
    angle: float  # degrees, counterclockwise, within (-90, 90]
    size: float  # pt
    rect: Polygon


@dataclass(frozen=True)
class _Plan:
    width_in: float
    height_in: float
    frame: _Frame
    title_lines: tuple[str, ...]
    title_size: float
    rows: tuple[tuple[str, str], ...]
    legend: tuple[float, float, float, float]
    furniture: tuple[float, float, float, float]
    scale_ft: float
    labels: tuple[_Label, ...]
    leaders: tuple[tuple[tuple[float, float], tuple[float, float]], ...]


def _valid(layers: MapLayers) -> MapLayers:
    """The layers with invalid geometries (self-touching rings, as county data has) made valid."""

    def fix(geoms: Sequence[BaseGeometry]) -> list[BaseGeometry]:
        arr = np.array(list(geoms), dtype=object)
        if not len(arr):
            return []
        bad = ~shapely.is_valid(arr)
        arr[bad] = shapely.make_valid(arr[bad])
        return list(arr)

    def fix_named(pairs: Sequence[tuple[BaseGeometry, str]]) -> list[tuple[BaseGeometry, str]]:
        return list(zip(fix([g for g, _ in pairs]), [n for _, n in pairs], strict=True))

    return replace(
        layers,
        subject=fix([layers.subject])[0],
        parcels=fix(layers.parcels),
        notified=fix(layers.notified),
        buffer=None if layers.buffer is None else fix([layers.buffer])[0],
        districts=fix_named(layers.districts),
        streets=fix_named(layers.streets),
        boundaries=fix_named(layers.boundaries),
        water=fix_named(layers.water),
    )


def _plan(layers: MapLayers, title: str, width_in: float, height_in: float) -> _Plan:
    if layers.subject is None or layers.subject.is_empty:
        raise ValueError("the map needs a subject: the area of the proposed change")
    if width_in < 2.5 or height_in < 2.0:
        raise ValueError(f"a map of {width_in} × {height_in} in is too small to be legible")
    if layers.extent is not None:
        x0, y0, x1, y1 = layers.extent
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"extent {layers.extent} is empty: it must be (x0, y0, x1, y1)")
    paper = (_PAD, _PAD, width_in - _PAD, height_in - _PAD - _TITLE_BAND)
    frame, rows, legend, furniture, scale_ft = _arrange(layers, paper)
    blocked = [_grow_box(legend, 0.03), _grow_box(furniture, 0.03)]
    labels, leaders = _place_labels(layers, frame, blocked)
    lines, size = _title_lines(title, width_in - 2 * _PAD)
    return _Plan(
        width_in,
        height_in,
        frame,
        lines,
        size,
        rows,
        legend,
        furniture,
        scale_ft,
        tuple(labels),
        tuple(leaders),
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


def _grow_box(b: Sequence[float], d: float) -> tuple[float, float, float, float]:
    return (b[0] - d, b[1] - d, b[2] + d, b[3] + d)


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


_HANDLE_W = 0.3
_HANDLE_GAP = 0.07
_ROW_H = 0.145


def _legend_size(rows: Sequence[tuple[str, str]]) -> tuple[float, float]:
    text_w = max(_measure(text, "legend")[0] for _, text in rows)
    return (2 * _BOX_PAD + _HANDLE_W + _HANDLE_GAP + text_w, 2 * _BOX_PAD + len(rows) * _ROW_H)


def _title_lines(title: str, width: float) -> tuple[tuple[str, ...], float]:
    """The title on one line at the largest size from 9 to 7 pt that fits, else on two."""
    title = " ".join(title.split())
    if not title:
        return (), _TEXT["title"][2]
    for size in (9.0, 8.5, 8.0, 7.5, 7.0):
        if _measure(title, "title", size)[0] <= width:
            return (title,), size
    for size in (7.5, 7.0):
        lines = _wrap(title, width, size)
        if len(lines) <= 2:
            return tuple(lines), size
    first, rest = _wrap(title, width, 7.0)[0], title
    rest = title[len(first) :].strip()
    while rest and _measure(rest + "…", "title", 7.0)[0] > width:
        rest = rest[:-1]
    return (first, rest.rstrip() + "…"), 7.0


def _wrap(text: str, width: float, size: float) -> list[str]:
    lines: list[str] = []
    for word in text.split():
        if lines and _measure(f"{lines[-1]} {word}", "title", size)[0] <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


@lru_cache(maxsize=64)
def _font(face: str, size: float) -> FontProperties:
    """Matplotlib's own DejaVu Sans, so every machine draws the same glyphs."""
    import matplotlib
    from matplotlib.font_manager import FontProperties

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / _FONT_FILES[face]
    return FontProperties(fname=path, size=size)


@lru_cache(maxsize=4096)
def _measure(text: str, kind: str, size: float | None = None) -> tuple[float, float]:
    """Width and height of text of a kind (lines apart by matplotlib's 1.2 spacing), in inches."""
    from matplotlib.textpath import text_to_path

    face, _, default = _TEXT[kind]
    prop = _font(face, size or default)
    lines = text.split("\n")
    w = max(text_to_path.get_text_width_height_descent(t, prop, ismath=False)[0] for t in lines)
    h = max(text_to_path.get_text_width_height_descent(t, prop, ismath=False)[1] for t in lines)
    _, h_lp, d_lp = text_to_path.get_text_width_height_descent("lp", prop, ismath=False)
    return w / 72, (max(h, h_lp) + (len(lines) - 1) * 1.2 * (h_lp - d_lp)) / 72


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


# ------------------------------------------------------------------- label placement ----


def _rect(x: float, y: float, w: float, h: float, angle: float) -> Polygon:
    """A w × h rectangle centered on (x, y), turned by angle degrees."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    pts = [(-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2)]
    return Polygon([(x + px * c - py * s, y + px * s + py * c) for px, py in pts])


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

    def __init__(self, frame: Polygon, blocked: Iterable[Sequence[float]]) -> None:
        self.frame = frame
        self.blocked = [box(*b) for b in blocked]
        self.taken: list[Polygon] = []

    def cost(self, rect: Polygon, soft: Sequence[tuple[BaseGeometry, float]]) -> float:
        """Infinite outside the frame or over the legend; overlap with taken spots (heavy), and features crossed (light)."""
        if not self.frame.contains(rect) or any(rect.intersects(b) for b in self.blocked):
            return math.inf
        area = rect.area
        c = 0.0
        for t in self.taken:
            if rect.intersects(t):
                c += 100.0 + 1000.0 * rect.intersection(t).area / area
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
    layers: MapLayers, frame: _Frame, blocked: Sequence[Sequence[float]]
) -> tuple[list[_Label], list[tuple[tuple[float, float], tuple[float, float]]]]:
    paper_box = box(*frame.paper)
    inner = box(*_grow_box(frame.paper, -0.02))
    view = box(*_grow_box(frame.extent, 0.02 * (frame.extent[2] - frame.extent[0])))

    def on_paper(geom: BaseGeometry) -> BaseGeometry:
        return frame.to_paper(geom.intersection(view)).intersection(paper_box)

    placer = _Placer(inner, blocked)
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


# ---------------------------------------------------------------------------- drawing ----


def _path(geom: BaseGeometry, *, closed: bool) -> Any:
    """A matplotlib path of the polygons (closed) or lines of a geometry."""
    from matplotlib.path import Path as MplPath

    verts: list[np.ndarray] = []
    codes: list[np.ndarray] = []
    rings: Iterable[Any]
    if closed:
        rings = (
            ring
            for poly in (orient(p, 1.0) for p in _polygons(geom))
            for ring in (poly.exterior, *poly.interiors)
        )
    else:
        rings = _lines(geom)
    for ring in rings:
        xy = np.asarray(ring.coords)[:, :2]
        if len(xy) < 2:
            continue
        c = np.full(len(xy), MplPath.LINETO, dtype=np.uint8)
        c[0] = MplPath.MOVETO
        if closed:
            c[-1] = MplPath.CLOSEPOLY
        verts.append(xy)
        codes.append(c)
    if not verts:
        return None
    return MplPath(np.concatenate(verts), np.concatenate(codes))


def _add(ax: Any, geom: BaseGeometry, style: str, *, closed: bool = True) -> None:
    from matplotlib.patches import PathPatch

    path = _path(geom, closed=closed)
    if path is None:
        return
    kw = dict(_STYLE[style])
    if "facecolor" not in kw:
        kw["fill"] = False
    cap = "butt" if "linestyle" in kw else "round"
    ax.add_patch(PathPatch(path, capstyle=cap, joinstyle="round", **kw))


def _draw_map(fig: Figure, layers: MapLayers, plan: _Plan) -> None:
    frame = plan.frame
    px0, py0, px1, py1 = frame.paper
    w, h = plan.width_in, plan.height_in
    ax = fig.add_axes((px0 / w, py0 / h, (px1 - px0) / w, (py1 - py0) / h))
    ax.set_xlim(frame.extent[0], frame.extent[2])
    ax.set_ylim(frame.extent[1], frame.extent[3])
    ax.set_aspect("equal", adjustable="datalim")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_linewidth(0.8)
        spine.set_edgecolor(_BLACK)
        spine.set_zorder(40)
    view = box(*_grow_box(frame.extent, 0.05 * (frame.extent[2] - frame.extent[0])))

    def near(geoms: Iterable[BaseGeometry]) -> BaseGeometry:
        arr = np.array([g for g in geoms if g is not None], dtype=object)
        if not len(arr):
            return Polygon()
        return shapely.union_all(shapely.intersection(arr[shapely.intersects(arr, view)], view))

    for geom, _ in layers.water:
        g = geom.intersection(view)
        parts = list(getattr(g, "geoms", [g]))
        _add(ax, shapely.union_all([p for p in parts if p.area > 0]), "water")
        lines = [p for p in parts if p.area == 0 and p.length > 0]
        if lines:
            _add(ax, shapely.union_all(lines), "water_line", closed=False)
            _add(ax, shapely.union_all(lines), "water_core", closed=False)
    _add(ax, near(layers.notified), "notified")
    parcels = np.array(list(layers.parcels), dtype=object)
    if len(parcels):
        _add(
            ax,
            shapely.GeometryCollection(
                list(shapely.intersection(parcels[shapely.intersects(parcels, view)], view))
            ),
            "parcel",
            closed=False,
        )
    _add(ax, near(g for g, _ in layers.streets), "street", closed=False)
    for geom, _ in layers.districts:
        _add(ax, geom.intersection(view), "district", closed=False)
    for geom, _ in layers.boundaries:
        _add(ax, geom.intersection(view), "municipal", closed=False)
    if layers.buffer is not None:
        _add(ax, layers.buffer.intersection(view), "buffer", closed=False)
    subject = layers.subject.intersection(view)
    _add(ax, subject, "subject_fill")
    _add(ax, subject, "subject", closed=False)


def _text(
    fig: Figure,
    x: float,
    y: float,
    text: str,
    kind: str,
    *,
    size: float | None = None,
    angle: float = 0.0,
    ha: str = "center",
    va: str = "center",
    halo: bool = True,
    zorder: float = 20.0,
) -> None:
    """Text on paper (inches), over a white halo drawn as its own artist so the SVG keeps the words."""
    from matplotlib import patheffects

    face, color, default = _TEXT[kind]
    kw: dict[str, Any] = {
        "transform": fig.dpi_scale_trans,
        "fontproperties": _font(face, size or default),
        "ha": ha,
        "va": va,
        "rotation": angle,
        "rotation_mode": "anchor",
        "parse_math": False,
    }
    if halo:
        stroke = patheffects.Stroke(linewidth=_HALO_PT, foreground=_WHITE)
        fig.text(x, y, text, color=_WHITE, path_effects=[stroke], zorder=zorder, **kw)
    fig.text(x, y, text, color=color, zorder=zorder + 1, **kw)


def _draw_labels(fig: Figure, plan: _Plan) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Polygon as MplPolygon

    for (ax, ay), (bx, by) in plan.leaders:
        fig.add_artist(
            Line2D(
                [ax, bx],
                [ay, by],
                transform=fig.dpi_scale_trans,
                color=_BLACK,
                linewidth=0.7,
                zorder=19,
            )
        )
    for label in plan.labels:
        if label.kind in _ON_LINE:  # a white box hides the line between the words too
            w, h = _measure(label.text, label.kind, label.size)
            knockout = _rect(label.x, label.y, w + 0.03, h + 0.01, label.angle)
            fig.add_artist(
                MplPolygon(
                    np.asarray(knockout.exterior.coords),
                    closed=True,
                    transform=fig.dpi_scale_trans,
                    facecolor=_WHITE,
                    edgecolor="none",
                    zorder=19.5,
                )
            )
        _text(fig, label.x, label.y, label.text, label.kind, size=label.size, angle=label.angle)


def _white_box(fig: Figure, rect: tuple[float, float, float, float]) -> None:
    """A framed white box on the page (legend, north arrow and scale bar), in inches."""
    from matplotlib.patches import Rectangle

    x0, y0, x1, y1 = rect
    box = Rectangle((x0, y0), x1 - x0, y1 - y0, transform=fig.dpi_scale_trans, facecolor=_WHITE,
                    edgecolor=_BLACK, linewidth=0.6, zorder=30)  # fmt: skip
    fig.add_artist(box)


def _draw_legend(fig: Figure, plan: _Plan) -> None:
    from matplotlib.lines import Line2D
    from matplotlib.patches import Rectangle

    t = fig.dpi_scale_trans
    x0, y0, x1, y1 = plan.legend
    _white_box(fig, (x0, y0, x1, y1))
    for i, (kind, text) in enumerate(plan.rows):
        cy = y1 - _BOX_PAD - (i + 0.5) * _ROW_H
        hx0, hx1 = x0 + _BOX_PAD, x0 + _BOX_PAD + _HANDLE_W
        hh = _ROW_H * 0.62
        if kind in ("subject", "notified", "water"):
            styles = ["subject_fill", "subject"] if kind == "subject" else [kind]
            for style in styles:
                kw = {k: v for k, v in _STYLE[style].items() if k != "zorder"}
                if "facecolor" not in kw:
                    kw["fill"] = False
                if kind == "subject":
                    kw["linewidth"] = min(kw.get("linewidth", 0), 1.8)
                if kind == "notified":
                    kw.update(edgecolor=_STYLE["parcel"]["edgecolor"], linewidth=0.4)
                fig.add_artist(
                    Rectangle((hx0, cy - hh / 2), hx1 - hx0, hh, transform=t, zorder=31, **kw)
                )
        else:
            style = _STYLE[kind]
            fig.add_artist(
                Line2D(
                    [hx0, hx1],
                    [cy, cy],
                    transform=t,
                    color=style["edgecolor"],
                    linewidth=style["linewidth"],
                    linestyle=style.get("linestyle", "-"),
                    solid_capstyle="butt",
                    dash_capstyle="butt",
                    zorder=31,
                )
            )
        _text(fig, hx1 + _HANDLE_GAP, cy, text, "legend", ha="left", halo=False, zorder=32)


def _draw_furniture(fig: Figure, plan: _Plan) -> None:
    """The north arrow and the scale bar, in their box."""
    from matplotlib.patches import Polygon as MplPolygon
    from matplotlib.patches import Rectangle

    t = fig.dpi_scale_trans
    x0, y0, x1, y1 = plan.furniture
    _white_box(fig, (x0, y0, x1, y1))
    # North arrow: a split arrowhead, black on the left, N above. Grid north: y is north.
    cx, base, top = x0 + _BOX_PAD + 0.08, y0 + _BOX_PAD + 0.02, y0 + _BOX_PAD + 0.27
    notch = base + 0.07
    left = [(cx, top), (cx - 0.07, base), (cx, notch)]
    right = [(cx, top), (cx, notch), (cx + 0.07, base)]
    # Both halves of the arrow and of the scale bar share one pen.
    pen = {"transform": t, "edgecolor": _BLACK, "linewidth": 0.6, "zorder": 31}
    for points, fill in ((left, _BLACK), (right, _WHITE)):
        fig.add_artist(MplPolygon(points, closed=True, facecolor=fill, **pen))
    _text(fig, cx, top + 0.02, "N", "north", va="bottom", halo=False, zorder=32)
    # Scale bar: two halves, black then white, labeled 0, half and the whole length in feet.
    length = plan.scale_ft * plan.frame.k
    bx = cx + 0.08 + 0.14
    by = y0 + _BOX_PAD + 0.17
    bh = 0.05
    for x, fill in ((bx, _BLACK), (bx + length / 2, _WHITE)):
        fig.add_artist(Rectangle((x, by), length / 2, bh, facecolor=fill, **pen))
    for x, text in _scale_ticks(plan.scale_ft, plan.frame.k):
        _text(fig, bx + x, by - 0.04, text, "scale", va="top", halo=False, zorder=32)


def _draw_title(fig: Figure, plan: _Plan) -> None:
    if not plan.title_lines:
        return
    top = plan.height_in - _PAD
    band = _TITLE_BAND - 0.02
    n = len(plan.title_lines)
    step = plan.title_size * 1.25 / 72
    first = top - band / 2 + (n - 1) * step / 2
    for i, line in enumerate(plan.title_lines):
        _text(
            fig,
            plan.width_in / 2,
            first - i * step,
            line,
            "title",
            size=plan.title_size,
            halo=False,
        )


def _describe(layers: MapLayers, plan: _Plan) -> str:
    """A plain description of what the map shows, for the SVG and PNG metadata."""
    parts = [
        f"Map of the area of proposed change ({layers.change_label.strip()}), outlined heavily"
    ]
    names = {label.kind: [] for label in plan.labels}
    for label in plan.labels:
        if label.text not in names[label.kind]:
            names[label.kind].append(label.text)
    if layers.buffer_label:
        parts.append(f"the notice distance ({layers.buffer_label}) dashed")
    if layers.notified:
        parts.append("notified parcels shaded")
    for kind, what in (
        ("district", "zoning districts"),
        ("street", "streets"),
        ("municipal", "municipalities"),
        ("water", "water"),
    ):
        if names.get(kind):
            parts.append(f"{what}: " + ", ".join(names[kind]))
    parts.append(f"scale bar of {plan.scale_ft:g} ft; north is up")
    return "; ".join(parts) + "."
