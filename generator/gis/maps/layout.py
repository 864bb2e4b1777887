"""A map laid out on paper before it is drawn, and what a map so laid out shows."""

from __future__ import annotations

from dataclasses import dataclass

from generator.gis.maps.frame import _SEEN, _arrange, _Frame
from generator.gis.maps.labels import _Label, _place_labels
from generator.gis.maps.map_layers import MapLayers, _valid
from generator.gis.maps.style import _PAD


def shows(layers: MapLayers, *, width_in: float = 5.5, height_in: float = 4.0) -> list[str]:
    """What the drawn map shows, in the words the rule packs use: existing_and_proposed_boundaries, area_to_be_affected, zoning_district_boundaries, labeled_streets, municipal_boundaries, notified_parcels, scale_bar, north_arrow."""
    layers = _valid(layers)
    return _shows(layers, _plan(layers, width_in, height_in))


def _shows(layers: MapLayers, plan: _Plan) -> list[str]:
    """`shows` of valid layers already laid out (`drawing.draw_showing` lays out once for both)."""
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
    rows: tuple[tuple[str, str], ...]
    columns: int  # the legend's
    legend: tuple[float, float, float, float]
    furniture: tuple[float, float, float, float]
    scale_ft: float
    labels: tuple[_Label, ...]
    leaders: tuple[tuple[tuple[float, float], tuple[float, float]], ...]


def _plan(layers: MapLayers, width_in: float, height_in: float) -> _Plan:
    if layers.subject is None or layers.subject.is_empty:
        raise ValueError("the map needs a subject: the area of the proposed change")
    if width_in < 2.5 or height_in < 2.0:
        raise ValueError(f"a map of {width_in} × {height_in} in is too small to be legible")
    if layers.extent is not None:
        x0, y0, x1, y1 = layers.extent
        if not (x1 > x0 and y1 > y0):
            raise ValueError(f"extent {layers.extent} is empty: it must be (x0, y0, x1, y1)")
    # No title: the documents print the map's caption beneath it, and one title is enough.
    a = _arrange(layers, (_PAD, _PAD, width_in - _PAD, height_in - _PAD))
    labels, leaders = _place_labels(layers, a.frame)
    return _Plan(
        width_in,
        height_in,
        a.frame,
        a.rows,
        a.columns,
        a.legend,
        a.furniture,
        a.scale_ft,
        tuple(labels),
        tuple(leaders),
    )
