"""Who must be notified: recipients.csv, and recipients.geojson where a parcel layer was read."""

from __future__ import annotations

from generator import recipients
from generator.documents.base import Built, DocumentType, File, Output
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.RECIPIENTS


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The recipients list and, with a parcel layer, the geometry behind it."""
    found = prepared.recipients
    out = [Output(KIND, Format.CSV, "recipients.csv", recipients.to_csv(found))]
    if found.subject is not None:
        out.append(Output(KIND, Format.GEOJSON, "recipients.geojson", recipients.to_geojson(found)))
    return Built(tuple(out))


DOCUMENT = DocumentType(
    KIND,
    "Who must be notified, why (rule and citation), and how the list was made.",
    (File("recipients.csv", Format.CSV), File("recipients.geojson", Format.GEOJSON)),
    ("recipients",),
    lambda p: bool(p.recipients.recipients or p.recipients.subject is not None),
    build,
)
