"""The map of the change: the clerk's image, or the one drawn from the GIS layers."""

from __future__ import annotations

from generator.documents.base import Built, DocumentType, File, Output
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.MAP


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The map file the notices name (and its PNG for Word, when the map is SVG)."""
    the_map = prepared.map
    if the_map is None:
        return Built()
    suffix = the_map.name.rsplit(".", 1)[1].replace("jpeg", "jpg")
    outputs = [Output(KIND, Format(suffix), the_map.name, the_map.data)]
    if the_map.raster and the_map.name.endswith(".svg"):
        outputs.append(Output(KIND, Format.PNG, "map.png", the_map.raster))
    return Built(tuple(outputs))


DOCUMENT = DocumentType(
    KIND,
    "The map of the change the notices carry.",
    (
        File("map.svg", Format.SVG),
        File("map.png", Format.PNG),
        File("map.jpg", Format.JPG),
    ),
    ("map",),
    lambda p: p.map is not None,
    build,
)
