"""The laid-out map drawn by matplotlib in grays, as SVG and PNG bytes the same on every run."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
from shapely.geometry import Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.geometry.polygon import orient

from generator.gis.maps.frame import _furniture_size, _legend_cells, _scale_ticks
from generator.gis.maps.geometry import _grow_box, _lines, _polygons, _rect
from generator.gis.maps.layout import _Plan, _plan, _shows
from generator.gis.maps.map_layers import MapLayers, _valid
from generator.gis.maps.style import (
    _BLACK,
    _BOX_PAD,
    _HALO_PT,
    _HANDLE_GAP,
    _HANDLE_W,
    _ON_LINE,
    _RC,
    _ROW_H,
    _STYLE,
    _TEXT,
    _WHITE,
    _font,
    _measure,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

DPI = 200
"""Resolution of the PNG, in dots per inch."""


def draw(
    layers: MapLayers, *, title: str, width_in: float = 5.5, height_in: float = 4.0
) -> tuple[bytes, bytes]:
    """The map as (SVG bytes, PNG bytes at 200 dpi); the title is the files' metadata, not drawn."""
    svg, png, _ = draw_showing(layers, title=title, width_in=width_in, height_in=height_in)
    return svg, png


def draw_showing(
    layers: MapLayers, *, title: str, width_in: float = 5.5, height_in: float = 4.0
) -> tuple[bytes, bytes, list[str]]:
    """`draw`, and what the map shows (`layout.shows`): laid out once for both (~25 ms)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    layers = _valid(layers)
    plan = _plan(layers, width_in, height_in)
    description = _describe(layers, plan)
    with matplotlib.rc_context(_RC):
        fig = Figure(figsize=(width_in, height_in), dpi=DPI)
        canvas = FigureCanvasAgg(fig)
        _draw_map(fig, layers, plan)
        _draw_labels(fig, plan)
        _draw_legend(fig, plan)
        _draw_furniture(fig, plan)

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
    return svg.getvalue(), png.getvalue(), _shows(layers, plan)


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
    cells, (_, h) = _legend_cells(plan.rows, plan.columns)
    top = y1 - (y1 - y0 - h) / 2  # the rows centered in a box the band may make taller
    for (dx, dy), (kind, text) in zip(cells, plan.rows, strict=True):
        cy = top - dy - 0.5 * _ROW_H
        hx0, hx1 = x0 + dx, x0 + dx + _HANDLE_W
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
    _white_box(fig, plan.furniture)
    # The arrow and the bar centered in a box the band may make larger than they need.
    w, h = _furniture_size(plan.scale_ft, plan.frame.k)
    x0 = (plan.furniture[0] + plan.furniture[2] - w) / 2
    y0 = (plan.furniture[1] + plan.furniture[3] - h) / 2
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
