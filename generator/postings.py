"""The notice posted on the municipal website and the sheet posted in the clerk's office and public places.

R.I.G.L. § 45-24-53(a) has the notice posted in the clerk's office, in one other municipal
building and on the municipal website; A.R.S. § 9-462.04(A)(1), where no newspaper of general
circulation serves the town, in at least ten public places. The website notice is a standalone,
accessible page (its map embedded, nothing fetched, no scripts) with a tagged PDF beside it; the
posting sheet is a letter-size page for a bulletin board, tagged too, that ends with a record of
where and by when it must be posted. Values from the case are data, escaped; no clock is read, so
the same input gives the same bytes.
"""

from __future__ import annotations

import base64
import re
from datetime import date
from typing import Any

from generator import schedule
from generator.documents import DocumentKind, Format
from generator.inputs import CaseFile
from generator.plan import DocumentPlan, MapInfo, Plan
from generator.render import context as ctx
from generator.render import pdf, templates
from generator.render.filters import long_date

Posting = tuple[DocumentKind, Format, str, bytes, tuple[str, ...]]
TAGGED = "pdf/ua-1"  # tagged PDF (ISO 14289-1): structure tree, language, alt text of the map
POSTED_KINDS = ("clerk_office", "municipal_building", "public_place")  # the sheet goes on boards
_HEADING = re.compile(r"<h([1-6])>(.*?)</h\1>", re.DOTALL)


def posting_outputs(
    the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline]
) -> list[Posting]:
    """The website notices (HTML and PDF) and posting sheets (PDF and HTML): (kind, format, path, data, rule ids)."""
    if not (the_plan.websites or the_plan.postings):
        return []
    pack = the_plan.pack
    env = templates.environment(pack, autoescape=True)
    stylesheet = templates.find(pack, "notice.css").read_text(encoding="utf-8")
    allowed = templates.search_path(pack)
    the_map = the_plan.map
    files = {the_map.name: the_map.data} if the_map else {}
    out: list[Posting] = []
    for doc in the_plan.websites:
        context = _context(the_plan, cf, doc, deadlines, stylesheet)
        rules = _rule_ids(doc)
        embedded = dict(context)
        if the_map and context["map"]:
            # The page is published alone on the website, so the map travels inside it.
            embedded["map"] = {**context["map"], "src": _data_uri(the_map)}
        page = templates.render(env, "website_notice.html.j2", embedded)
        out.append((doc.kind, Format.HTML, f"{doc.name}.html", page.encode(), rules))
        # The sealed PDF fetcher serves packet files only, not data: URIs, so the PDF is drawn
        # from the same template naming the packet's map (vector, when the map is SVG).
        html = templates.render(env, "website_notice.html.j2", context)
        data = pdf.write_pdf(html, files, allowed, variant=TAGGED)
        out.append((doc.kind, Format.PDF, f"{doc.name}.pdf", data, rules))
    for doc in the_plan.postings:
        context = _context(the_plan, cf, doc, deadlines, stylesheet)
        rules = _rule_ids(doc)
        html = templates.render(env, "posting_notice.html.j2", context)
        data = pdf.write_pdf(html, files, allowed, variant=TAGGED)
        out.append((doc.kind, Format.PDF, f"{doc.name}.pdf", data, rules))
        out.append((doc.kind, Format.HTML, f"{doc.name}.html", html.encode(), rules))
    return out


def latest_posting(deadlines: list[schedule.Deadline], doc: DocumentPlan) -> date | None:
    """The last lawful day to post `doc`: the earliest `latest` of its notice rules for its hearing."""
    return schedule.window_of(deadlines, _rule_ids(doc), doc.hearing)[1]


def _rule_ids(doc: DocumentPlan) -> tuple[str, ...]:
    """The ids of the notice rules that require `doc`, in plan order."""
    return tuple(dict.fromkeys(i for b in doc.notices for i in b.ids))


def _data_uri(the_map: MapInfo) -> str:
    """The map as a base64 data: URI, the PNG raster standing in for an SVG map."""
    svg = the_map.name.endswith(".svg")
    data = the_map.raster if svg and the_map.raster else the_map.data
    if svg and not the_map.raster:
        kind = "image/svg+xml"
    else:
        kind = "image/jpeg" if data[:3] == b"\xff\xd8\xff" else "image/png"
    return f"data:{kind};base64,{base64.b64encode(data).decode('ascii')}"


def _demote_headings(html: str) -> str:
    """Put the amendment's own headings under the notice's h2, never skipping a level.

    The page has one h1 (the notice's title) and the proposal's h2; a Markdown `#` in the
    amendment text would otherwise make a second h1, and `#` then `###` would skip a level,
    which screen readers and PDF/UA checkers report.
    """
    level = 2

    def one(m: re.Match[str]) -> str:
        nonlocal level
        level = min(int(m.group(1)) + 2, level + 1, 6)
        return f"<h{level}>{m.group(2)}</h{level}>"

    return _HEADING.sub(one, html)


def _context(
    the_plan: Plan,
    cf: CaseFile,
    doc: DocumentPlan,
    deadlines: list[schedule.Deadline],
    stylesheet: str,
) -> dict[str, Any]:
    """The notice context plus the posting facts: the post-by date and the places."""
    from markupsafe import Markup

    context = ctx.build(the_plan, doc, stylesheet)
    if context["full_text_html"]:
        # Only tags of our own Markdown converter are renamed; its text stays escaped.
        context["full_text_html"] = Markup(_demote_headings(str(context["full_text_html"])))  # noqa: S704
    latest = latest_posting(deadlines, doc)
    places = [b.params.places for b in doc.notices if getattr(b.params, "places", None)]  # type: ignore[attr-defined]
    required = max(places, key=lambda p: p.count) if places else None
    listed = [p for p in cf.case.posting_places if p.kind in POSTED_KINDS]
    website = next((p.name for p in cf.case.posting_places if p.kind == "website"), None)
    context["posting"] = {
        "latest": long_date(latest) if latest else None,
        "hearing_date": long_date(doc.hearing.date),
        "citations": "; ".join(dict.fromkeys(c for b in doc.notices for c in b.citations)),
        "count": required.count if required else None,
        "description": required.description if required else None,
        "places": [
            {"name": p.name, "address": p.address.one_line() if p.address else None} for p in listed
        ],
        "short": bool(required and len(listed) < required.count),
        "website": website,
    }
    return context
