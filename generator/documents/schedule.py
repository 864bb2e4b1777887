"""The schedule: every deadline as JSON (DESIGN.md §6), an iCalendar file, and a page to print."""

from __future__ import annotations

import json

from generator import continuance
from generator.documents.base import Built, DocumentType, File, Output
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.render import calendar_file, pdf
from generator.render import context as ctx
from generator.render.templates import Templates

KIND = DocumentKind.SCHEDULE


def as_json(prepared: Prepared) -> str:
    """schedule.json: the same text `notices schedule --format json` prints."""
    return (
        json.dumps([d.as_json() for d in prepared.deadlines], indent=2, ensure_ascii=False) + "\n"
    )


def as_ics(prepared: Prepared) -> bytes:
    """schedule.ics: one event per deadline (and per copy deadline)."""
    case = prepared.case
    stamp = calendar_file.stamp_for(case.hearings[0].date, case.as_of)
    title = f"{case.municipality} {case.case_number} notice deadlines"
    return calendar_file.ics(
        list(prepared.deadlines), uid_prefix=prepared.case_file.id, title=title, stamp=stamp
    )


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The schedule in every format; a hearing the record says was continued is marked."""
    context = ctx.schedule_context(prepared.plan, list(prepared.deadlines), tpl.stylesheet)
    continued = continuance.decide(prepared.case_file, prepared.pack)
    context["continuances"] = continuance.marks(continued)
    page = tpl.render("schedule.html.j2", context)
    return Built(
        (
            Output(KIND, Format.JSON, "schedule.json", as_json(prepared).encode()),
            Output(KIND, Format.ICS, "schedule.ics", as_ics(prepared)),
            Output(KIND, Format.HTML, "schedule.html", page.encode()),
            Output(KIND, Format.PDF, "schedule.pdf", pdf.write_pdf(page, {}, tpl.path)),
        ),
        tuple(c.finding() for c in continued),
    )


DOCUMENT = DocumentType(
    KIND,
    "Every deadline the law sets for the case: its window, newspaper issues, rule and derivation.",
    (
        File("schedule.json", Format.JSON),
        File("schedule.ics", Format.ICS),
        File("schedule.html", Format.HTML),
        File("schedule.pdf", Format.PDF),
    ),
    ("case", "plan", "schedule"),
    lambda p: True,
    build,
)
