"""The map of a change, drawn from the case's GIS layers for the notices that must carry one."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import Any, Protocol

from generator.inputs import CaseFile

MARGIN_SHARE = 0.25  # room around the notification distance


class Selection(Protocol):
    """What the recipients stage found that the map shows (a `RecipientList`)."""

    subject: Any  # the subject area, in the measuring CRS
    crs: Any
    buffers: dict[float, Any]  # the notification distances drawn around it
    selected: Any  # the notified parcels


@dataclass(frozen=True)
class DrawnMap:
    """A map drawn for the packet: SVG for HTML and PDF, PNG for Word, and what it shows."""

    svg: bytes
    png: bytes
    caption: str
    alt: str
    shows: list[str]


def _code(district: str | None) -> str:
    """`Residential 4 (R-4)` → `R-4`: the code a map label has room for."""
    if not district:
        return "?"
    match = re.search(r"\(([^()]+)\)\s*$", district)
    return match.group(1) if match else district.split(" ")[0]


def map_layers(cf: CaseFile, found: Selection) -> Any:
    """What the map of the change draws (a `maps.MapLayers`), read from the case's GIS layers; None without a subject."""
    if found.subject is None or found.crs is None:
        return None
    import shapely  # heavy: imported only when a map is drawn

    from generator.gis import maps
    from generator.gis.layers import LayerReader

    gis = cf.case.gis
    assert gis
    distance = max(found.buffers, default=200.0)
    x0, y0, x1, y1 = found.subject.buffer(distance).bounds
    pad = max(x1 - x0, y1 - y0) * MARGIN_SHARE
    bbox = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)

    def read(name: str, label: str) -> list[tuple[Any, str]]:
        spec = getattr(gis, name)
        if spec is None:
            return []
        frame = LayerReader(cf, name, spec, found.crs).read(bbox=bbox)
        return [
            (geom, str(value))
            for geom, value in zip(frame.geometry.values, frame[label], strict=True)
            if geom is not None
        ]

    context = [g for g, _ in read("parcels", "parcel_id")] if gis.parcels else []
    notified = list(found.selected.geometry.values) if found.selected is not None else []
    return maps.MapLayers(
        subject=found.subject,
        change_label=", ".join(_changes(cf)),
        parcels=context,
        notified=[g for g in notified if not shapely.equals(g, found.subject)],
        buffer=found.buffers.get(distance),
        buffer_label=f"{distance:,g} ft" if found.buffers else "",
        districts=read("zoning", "district"),
        streets=read("streets", "name"),
        boundaries=read("municipal_boundaries", "name"),
        water=read("water_sources", "name"),
        extent=bbox,
    )


def drawn(layers: Any, title: str) -> tuple[bytes, bytes, list[str]]:
    """`maps.draw_showing(layers, title=title)`, from the cache when drawn before from the same.

    The key holds every input of the drawing: the layers (geometries as WKB, exact to the bit),
    the title, the source of `generator/gis/maps/` and the versions of the libraries that lay
    out, draw and encode it. Matplotlib is then not even imported (~0.4 s of `notices recipients`).
    """
    from generator.gis import maps
    from generator.gis.cache import drawn_map

    return drawn_map(_ident(layers, title), lambda: maps.draw_showing(layers, title=title))


def _ident(layers: Any, title: str) -> bytes:
    """Everything `maps.draw_showing` draws from, as bytes."""
    import shapely

    def wkb(geom: Any) -> str | None:
        return None if geom is None else shapely.to_wkb(geom, hex=True, output_dimension=3)

    def named(pairs: Any) -> list[tuple[str | None, str]]:
        return [(wkb(g), name) for g, name in pairs]

    drawn_from = (
        title,
        wkb(layers.subject),
        layers.change_label,
        [wkb(g) for g in layers.parcels],
        [wkb(g) for g in layers.notified],
        wkb(layers.buffer),
        layers.buffer_label,
        named(layers.districts),
        named(layers.streets),
        named(layers.boundaries),
        named(layers.water),
        layers.extent,
        sorted(layers.legend.items()) if layers.legend else None,
    )
    return repr((_drawing_code(), drawn_from)).encode()


@cache
def _drawing_code() -> tuple[str, ...]:
    """The drawing code's own hash and the versions of what it draws and encodes with."""
    import shapely

    from generator.gis import maps

    digest = hashlib.sha256()
    for path in sorted(Path(maps.__file__).parent.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    versions = [metadata.version(d) for d in ("matplotlib", "pillow", "numpy", "shapely")]
    return (digest.hexdigest(), *versions, shapely.geos_version_string)


def _changes(cf: CaseFile) -> list[str]:
    """`R-1 → C-2` for each distinct change of district, sorted."""
    return sorted(
        {f"{_code(p.current_district)} → {_code(p.proposed_district)}" for p in cf.case.parcels}
    )


def draw_change(cf: CaseFile, found: Selection) -> DrawnMap | None:
    """Draw the subject area, districts, streets, boundaries, the distance line and notified parcels."""
    layers = map_layers(cf, found)
    if layers is None:
        return None

    case = cf.case
    changes = ", ".join(_changes(cf))
    places = "; ".join(p.address or p.id for p in case.parcels)
    # The caption is the map's one title: the documents print it beneath the map, which does
    # not draw it again (it names the files' metadata only).
    caption = f"{case.municipality}: proposed change of {places} ({changes})"
    svg, png, seen = drawn(layers, caption)
    alt = (
        f"Map of {places} in {case.municipality}, outlined, with the change {changes}, the zoning districts"
        f" around it, the named streets, {'the ' + layers.buffer_label + ' notification distance and ' if layers.buffer_label else ''}"
        "the parcels whose owners are notified."
    )
    shows = [*seen, "area_to_be_affected"]
    if case.gis and case.gis.municipal_boundaries and "municipal_boundaries" not in shows:
        # R.I.G.L. § 45-24-53(b) asks for town lines "where appropriate": the layer was read
        # and no town line falls within the map's area, so there is none to show.
        shows.append("municipal_boundaries")
    return DrawnMap(svg, png, caption, alt, shows)
