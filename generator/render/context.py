"""The one template context: everything a notice template may print, named once."""

from __future__ import annotations

import re
import string
from datetime import date, time
from typing import Any

from markupsafe import Markup

from generator import __version__
from generator.models import slots
from generator.models.pack import ClauseParams, ClauseTopic, Placement
from generator.models.slots import SlotSource
from generator.plan import DocumentPlan, Plan
from generator.render import accommodation
from generator.render.filters import clock, long_date, when
from generator.render.markdown_text import to_html, to_plain


def build(plan: Plan, doc: DocumentPlan, stylesheet: str) -> dict[str, Any]:
    """The context for rendering `doc` of `plan` in any format."""
    case = plan.case
    hearing = doc.hearing
    topics = doc.topics()
    clauses: dict[str, dict[str, Any]] = {}
    source = SlotSource(case, hearing, plan.pack.governing_body)
    custom: dict[str, list[dict[str, Any]]] = {p.value: [] for p in Placement}
    for b in doc.clauses:
        p = b.params
        if p.topic == ClauseTopic.CUSTOM:
            text = clause_text(p, source)
            if text is None:
                continue  # a slot the case leaves empty: the plan says so (PLAN001)
            key = f"custom_{b.rule.id}"  # a topic of its own, for the markers and bookmarks
            clauses[key] = {"ids": list(b.ids), "wording": text, "citations": list(b.citations)}
            custom[p.placement.value if p.placement else Placement.END.value].append(
                {"key": key, "text": text, **typed(p, b.citations)}
            )
            continue
        entry = clauses.setdefault(
            p.topic.value, {"ids": topics[p.topic.value], "wording": None, "citations": []}
        )
        entry["wording"] = entry["wording"] or (p.wording and " ".join(p.wording.split()))
        entry["citations"] += [c for c in b.citations if c not in entry["citations"]]

    def wording(topic: str, default: str) -> str:
        return (clauses.get(topic) or {}).get("wording") or default

    others = [
        {
            "body_name": h.body_name,
            "when": when(h.date, h.start_time),
            "place": h.place,
            "address": h.address.one_line(),
        }
        for h in doc.ahead(case.hearings)
        if h is not hearing
    ]
    the_map = plan.map
    return {
        "tool_version": __version__,
        "case_number": case.case_number,
        "municipality": case.municipality,
        "the_municipality": case.the_municipality,
        # The subject line names the case; a title that repeats the number would print it twice.
        "amendment": case.amendment.model_copy(
            update={"title": without_case_number(case.amendment.title, case.case_number)}
        ),
        "applicant": case.applicant,
        "parcels": case.parcels,
        "area_description": case.area_description,
        "hearing": hearing,
        "hearing_when": when(hearing.date, hearing.start_time),
        "hearing_date": long_date(hearing.date),
        "hearing_time": clock(hearing.start_time),
        "hearing_address": hearing.address.one_line(),
        "other_hearings": others,
        "examination": case.examination,
        "examination_address": case.examination.address.one_line()
        if case.examination.address
        else None,
        "contact": case.contact,
        "accommodation": accommodation.context(plan, hearing),
        "signer": case.signer or case.contact,
        "newspaper": case.newspaper,
        "clauses": clauses,
        "custom_clauses": custom,  # by placement: the statements pack-defined clauses print
        "municipality_kind": case.municipality_kind.value if case.municipality_kind else None,
        "governing_body": slots.value("municipality.body_name", source),
        "terms": plan.pack.terms,
        "publication_dates": [],  # the schedule fills these in
        "wording": wording,
        "map": {
            "src": the_map.name,
            "files": the_map.name + (" (vector) or map.png" if the_map.raster else ""),
            "caption": the_map.caption,
            "alt": the_map.alt,
        }
        if the_map
        else None,
        # to_html escapes any raw HTML in the Markdown, so its output is safe
        "full_text_html": (
            Markup(to_html(case.amendment.full_text))  # noqa: S704
            if case.amendment.full_text
            else None
        ),
        "full_text_plain": to_plain(case.amendment.full_text) if case.amendment.full_text else None,
        "stylesheet": Markup(stylesheet),  # noqa: S704  # our own file from templates/
    }


def typed(params: ClauseParams, citations: Any) -> dict[str, Any]:
    """How a pack-defined clause's type is printed: a CSS declaration, Word's run, a typesetter's line.

    Plain text cannot carry type, so the newspaper's copy tells the typesetter in a bracketed
    line before the statement, with the law that asks it: a legal-advertising desk sets such
    marked copy and proofs it, and the proof is what the linter can check.
    """
    kind = params.type
    if kind is None:
        return {"type": None, "css": None, "instruction": None}
    css = []
    if kind.min_points is not None:
        css.append(f"font-size: {kind.min_points:g}pt")
    if kind.bold:
        css.append("font-weight: bold")
    law = "; ".join(dict.fromkeys(citations))
    return {
        "type": {"bold": kind.bold, "points": kind.min_points},
        "css": "; ".join(css),
        "instruction": f"[TYPESETTER: set the next paragraph in {kind.describe()}"
        + (f" ({law})" if law else "")
        + "]",
    }


def clause_text(params: ClauseParams, source: SlotSource) -> str | None:
    """A pack-defined clause's statement with its slots filled; None if the case leaves one empty."""
    template = " ".join((params.template or "").split())
    values: dict[str, str] = {}
    for name in dict.fromkeys(slots.template_slots(template)):
        found = params.slots.get(name) if name in params.slots else slots.value(name, source)
        if found is None:
            return None
        values[name] = _shown(found)
    # Slot names hold dots (`hearing.date`), which str.format would read as attributes.
    return "".join(
        text + (values[name] if name is not None else "")
        for text, name, _spec, _conv in string.Formatter().parse(template)
    )


def _shown(found: Any) -> str:
    """A slot's value as a notice prints it: dates and times in words."""
    if isinstance(found, date):
        return long_date(found)
    if isinstance(found, time):
        return clock(found)
    if isinstance(found, float) and found.is_integer():
        return str(int(found))
    return str(found)


def schedule_context(plan: Plan, deadlines: list[Any], stylesheet: str) -> dict[str, Any]:
    """The context of the schedule page: dates as dates and hearings by name, for the clerk's words."""
    from generator.schedule.deadline import hearing_label

    case = plan.case
    hearings = {hearing_label(h): h for h in case.hearings}
    return {
        "municipality": case.municipality,
        "the_municipality": case.the_municipality,
        "case_number": case.case_number,
        "jurisdiction_name": plan.pack.pack.name,
        "hearings": [
            {"body_name": h.body_name, "when": when(h.date, h.start_time)} for h in case.hearings
        ],
        "deadlines": [
            {
                "action": d.action,
                "latest": d.latest,
                "earliest": d.earliest,
                "issues": d.issues,
                "copy_deadline": d.copy_deadline,
                "hearing": hearings.get(d.hearing) if d.hearing else None,
                "citation": d.citation,
                "derivation": d.derivation,
                "required": d.required,
                "problem": d.problem,
            }
            for d in deadlines
        ],
        "stylesheet": Markup(stylesheet),  # noqa: S704  # our own file from templates/
    }


def without_case_number(title: str, case_number: str) -> str:
    """`Rezoning of Lot 4 (Case RZ-1)` less its bracketed case number: `Rezoning of Lot 4`."""
    number = re.escape(case_number)
    bracketed = rf"\s*[(\[](?:case\s*(?:no\.?|number)?\s*)?{number}[)\]]"
    return re.sub(bracketed, "", title, flags=re.IGNORECASE).strip() or title
