"""The sheet posted in the clerk's office and public places, and a poster where it must be read from afar.

R.I.G.L. § 45-24-53(a) has the notice posted in the clerk's office and in one other municipal
building; A.R.S. § 9-462.04(A)(1), where no newspaper of general circulation serves the town,
in at least ten public places, legible from 100 ft. The sheet is a tagged letter-size page for a
bulletin board that ends with a record of where and by when it must be posted; where the law
wants the posted notice legible from afar, a poster at sign size comes with it. Values from the
case are data, escaped; no clock is read, so the same input gives the same bytes.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from generator import schedule
from generator.documents import sign
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.markers import unmarked
from generator.findings import Finding, cited
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel, NoticeParams
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render import context as ctx
from generator.render import pdf
from generator.render.filters import long_date
from generator.render.templates import Templates
from generator.rules.loader import Binding

KIND = DocumentKind.POSTING_NOTICE
TAGGED = "pdf/ua-1"  # tagged PDF (ISO 14289-1): structure tree, language, alt text of the map
POSTED_KINDS = ("clerk_office", "municipal_building", "public_place")  # the sheet goes on boards
_HEADING = re.compile(r"<h([1-6])>(.*?)</h\1>", re.DOTALL)


def build(prepared: Prepared, tpl: Templates) -> Built:
    """Each posting sheet (PDF and HTML), and a poster where the law wants it legible from afar."""
    the_map = prepared.map
    files = {the_map.name: the_map.data} if the_map else {}
    docs = prepared.plan.of(Channel.POSTING)
    made = Built()
    for doc in docs:
        html = tpl.render_notice("posting_notice.html.j2", posting_context(prepared, tpl, doc))
        data = pdf.write_pdf(html, files, tpl.path, variant=TAGGED)
        outputs = (
            Output(KIND, Format.PDF, f"{doc.name}.pdf", data, doc.notice_ids),
            Output(KIND, Format.HTML, f"{doc.name}.html", html.encode(), doc.notice_ids),
        )
        made += Built(outputs, tuple(unmarked(doc, outputs)) + _too_few_places(prepared, doc))
    posters = [d for d in docs if any(b.params.legible_from_ft for b in d.formats)]
    return made + sign.signs(prepared, tpl, posters, suffix="-poster")


def _required_places(doc: DocumentPlan) -> Binding[NoticeParams] | None:
    """The notice rule of `doc` that asks for the most posting places, if any names a number."""
    named = [(b.params.places.count, -i, b) for i, b in enumerate(doc.notices) if b.params.places]
    return max(named)[2] if named else None


def _too_few_places(prepared: Prepared, doc: DocumentPlan) -> tuple[Finding, ...]:
    """POST001 when the case names fewer places to post `doc` than the law requires."""
    rule = _required_places(doc)
    listed = [p for p in prepared.case.posting_places if p.kind in POSTED_KINDS]
    if rule is None or rule.params.places is None or len(listed) >= rule.params.places.count:
        return ()
    required = rule.params.places
    return (
        Finding(
            "POST001",
            f"the {doc.name} must be posted in {required.description} (at least"
            f" {required.count} {'place' if required.count == 1 else 'places'}); the case names"
            f" {len(listed) or 'none'}{' of them' if listed else ''}: add them to"
            " `posting_places` (kinds clerk_office, municipal_building, public_place)",
            **cited(rule),
            document=f"{doc.name}.pdf",
        ),
    )


def latest_posting(deadlines: list[schedule.Deadline], doc: DocumentPlan) -> date | None:
    """The last lawful day to post `doc`: the earliest `latest` of its notice rules for its hearing."""
    return schedule.window_of(deadlines, doc.notice_ids, doc.hearing)[1]


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


def posting_context(prepared: Prepared, tpl: Templates, doc: DocumentPlan) -> dict[str, Any]:
    """The notice context plus the posting facts: the post-by date and the places."""
    from markupsafe import Markup

    cf = prepared.case_file
    context = ctx.build(prepared.plan, doc, tpl.stylesheet)
    if context["full_text_html"]:
        # Only tags of our own Markdown converter are renamed; its text stays escaped.
        context["full_text_html"] = Markup(_demote_headings(str(context["full_text_html"])))  # noqa: S704
    latest = latest_posting(list(prepared.deadlines), doc)
    rule = _required_places(doc)
    required = rule.params.places if rule else None
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
        # A blank line to fill in for each place the law requires and the case does not name.
        "blanks": max(0, required.count - len(listed)) if required else 0,
        "website": website,
    }
    return context


DOCUMENT = DocumentType(
    KIND,
    "The notice posted in the clerk's office and public places, with its posting record.",
    (
        File("{name}.pdf", Format.PDF, KIND),
        File("{name}.html", Format.HTML, KIND),
        File("{name}-poster.pdf", Format.PDF, DocumentKind.SIGN),
    ),
    ("case", "plan", "schedule", "map"),
    lambda p: bool(p.plan.of(Channel.POSTING)),
    build,
)
