"""The notice on the municipal website: one standalone accessible page, and a tagged PDF.

The page embeds its map and fetches nothing, runs no script, and has one h1, headings in order,
landmarks, and the map's alt text; the PDF beside it is tagged (PDF/UA-1).
"""

from __future__ import annotations

import base64

from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.markers import unmarked
from generator.documents.posting_notice import TAGGED, posting_context
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.plan import MapInfo
from generator.prepare import Prepared
from generator.render import pdf
from generator.render.templates import Templates

KIND = DocumentKind.WEBSITE_NOTICE


def build(prepared: Prepared, tpl: Templates) -> Built:
    """Each website notice as HTML (map inside) and as a tagged PDF."""
    the_map = prepared.map
    files = {the_map.name: the_map.data} if the_map else {}
    made = Built()
    for doc in prepared.plan.of(Channel.WEBSITE):
        context = posting_context(prepared, tpl, doc)
        embedded = dict(context)
        if the_map and context["map"]:
            # The page is published alone on the website, so the map travels inside it.
            embedded["map"] = {**context["map"], "src": _data_uri(the_map)}
        page = tpl.render_notice("website_notice.html.j2", embedded)
        # The sealed PDF fetcher serves packet files only, not data: URIs, so the PDF is drawn
        # from the same template naming the packet's map (vector, when the map is SVG).
        html = tpl.render_notice("website_notice.html.j2", context)
        data = pdf.write_pdf(html, files, tpl.path, variant=TAGGED)
        outputs = (
            Output(KIND, Format.HTML, f"{doc.name}.html", page.encode(), doc.notice_ids),
            Output(KIND, Format.PDF, f"{doc.name}.pdf", data, doc.notice_ids),
        )
        made += Built(outputs, tuple(unmarked(doc, outputs)))
    return made


def _data_uri(the_map: MapInfo) -> str:
    """The map as a base64 data: URI, the PNG raster standing in for an SVG map."""
    svg = the_map.name.endswith(".svg")
    data = the_map.raster if svg and the_map.raster else the_map.data
    if svg and not the_map.raster:
        kind = "image/svg+xml"
    else:
        kind = "image/jpeg" if data[:3] == b"\xff\xd8\xff" else "image/png"
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


DOCUMENT = DocumentType(
    KIND,
    "The notice on the municipal website: an accessible page and a tagged PDF.",
    (File("{name}.html", Format.HTML, KIND), File("{name}.pdf", Format.PDF, KIND)),
    ("case", "plan", "schedule", "map"),
    lambda p: bool(p.plan.of(Channel.WEBSITE)),
    build,
)
