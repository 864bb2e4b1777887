"""A map laid out on paper before it is drawn, and what a map so laid out shows."""

from __future__ import annotations

from dataclasses import dataclass

from generator.gis.maps.frame import _SEEN, _arrange, _Frame
from generator.gis.maps.geometry import _grow_box
from generator.gis.maps.labels import _Label, _place_labels
from generator.gis.maps.map_layers import MapLayers, _valid
from generator.gis.maps.style import _PAD, _TEXT, _TITLE_BAND, _measure


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
