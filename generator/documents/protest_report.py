"""The protest report: the petition weighed, as JSON and as a PDF with the map of the protest area.

A standalone writer (`notices protest`), not a document of the packet: a protest is filed after
the packet is out. It writes `<out>/<case-id>/protest/`: protest.json, protest.pdf and the map
(protest_map.svg/.png) drawn in the notice map's styles, the signing parcels as the marked ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from generator.inputs import CaseFile
from generator.models.case import case_id_from_path
from generator.protest import Weighed
from generator.rules.loader import ResolvedPack
from generator.votes import VotesNeeded

FOLDER = "protest"
# The legend of the protest map: the notice map's styles, saying what they mark here.
LEGEND = {"notified": "Parcel whose owner signed", "buffer": "Protest area line"}


@dataclass
class _Selection:
    """What the map draws (a `notice_map.Selection`): the change, the protest area, the signers."""

    subject: Any
    crs: Any
    buffers: dict[float, Any]
    selected: Any


def draw(cf: CaseFile, weighed: Weighed) -> tuple[bytes, bytes] | None:
    """The map of the protest area and the signing parcels, as (SVG, PNG); None without a subject."""
    from generator.gis import maps
    from generator.gis.notice_map import map_layers

    buffers = {t.threshold.radius_ft: t.geometry for t in weighed.tests if t.threshold.radius_ft}
    layers = map_layers(cf, _Selection(weighed.subject, weighed.crs, buffers, weighed.signed))
    if layers is None:
        return None
    return maps.draw(
        replace(layers, legend=LEGEND),
        title=f"{cf.case.municipality}: protest area of case {cf.case.case_number}",
    )


def write_report(
    cf: CaseFile, pack: ResolvedPack, weighed: Weighed, votes: VotesNeeded | None, out_root: Path
) -> list[Path]:
    """Write protest.json, the map and protest.pdf under `out_root/<case-id>/protest/`."""
    from markupsafe import Markup

    from generator.render import pdf
    from generator.render.templates import for_pack
    from generator.writer import write

    folder = out_root / case_id_from_path(cf.path) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    data = weighed.as_json() | {
        "case": cf.case.case_number,
        "votes": votes.as_json() if votes else None,
    }
    written = [
        write(folder, "protest.json", json.dumps(data, indent=2, ensure_ascii=False).encode())
    ]
    files: dict[str, bytes] = {}
    drawn = draw(cf, weighed)
    if drawn:
        files["protest_map.svg"], png = drawn
        written.append(write(folder, "protest_map.svg", files["protest_map.svg"]))
        written.append(write(folder, "protest_map.png", png))
    tpl = for_pack(pack)
    html = tpl.render(
        "protest_report.html.j2",
        {
            "stylesheet": Markup(tpl.stylesheet),  # noqa: S704  # our own file from templates/
            "case": cf.case,
            "report": data,
            "map": "protest_map.svg" if drawn else None,
        },
    )
    written.append(write(folder, "protest.pdf", pdf.write_pdf(html, files, tpl.path)))
    return written
