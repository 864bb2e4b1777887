"""The combined legal notice of an agenda: one heading, one section per case, shared statements once.

Each case's section is worded by its own pack's `phrases.j2`, from the same context as its own
newspaper notice, so it says what that case's law requires. A statement every case makes in the
same words (the hearing's time and place, the right to be heard, where to examine the proposals,
whom to ask, accommodation) is printed once, marked for every rule that requires it; one worded
differently stays in each case's section. Each section opens with `Item N — Case No. X`, and the
shared statements that follow the sections with `agenda.SHARED_HEADING`: the linter finds each
case's part of the notice by these lines in any format, printed or not.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field, replace
from typing import Any

from markupsafe import Markup

from generator.agenda import SHARED_HEADING, Item, PreparedAgenda, named
from generator.documents import proof
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.markers import unmarked
from generator.kinds import DocumentKind, Format
from generator.render import context as ctx
from generator.render import docx, pdf, templates
from generator.render.filters import long_date
from generator.render.markdown_text import to_plain
from generator.render.templates import Templates

KIND = DocumentKind.AGENDA_NOTICE
NAME = KIND.value

# The statements a case's section may share with the others, by where the shared one goes.
_HEAD = ("hearing", "heard")
_TAIL = ("examine", "from_clerk", "amended", "contact", "accommodation")


# A map's file format by its suffix (a clerk's JPEG may be `.jpeg`).
_IMAGE = {"svg": Format.SVG, "png": Format.PNG, "jpg": Format.JPG, "jpeg": Format.JPG}


@dataclass(frozen=True)
class Para:
    """One paragraph of the notice: its words, and the clause rules it satisfies (its markers)."""

    text: str
    ids: tuple[str, ...] = ()
    style: str = "p"  # p, list (text is the lead-in), proposal (text is the heading), map
    lines: tuple[str, ...] = ()  # a list's items; a proposal's paragraphs
    image: str | None = None  # a map's file in the packet
    alt: str = ""
    slot: str | None = field(default=None, compare=False)  # a statement cases may share


@dataclass(frozen=True)
class Section:
    """One case's part of the notice."""

    item: Item
    subject: str
    paras: tuple[Para, ...]


@dataclass(frozen=True)
class Layout:
    """The whole notice, before any format: what every format prints, in order."""

    title: str
    subject: str
    head: tuple[Para, ...]
    sections: tuple[Section, ...]
    tail: tuple[Para, ...]
    signature: str
    publication: str
    maps: dict[str, bytes]  # file name in the packet → image, for the HTML and PDF
    rasters: dict[str, bytes]  # file name → an image Word can embed


def _squash(value: Any) -> str:
    return " ".join(str(value).split())


def map_name(item: Item) -> str | None:
    """The file a case's map is published as in the agenda's packet: `map-<case id>.svg`."""
    the_map = item.prepared.map
    if the_map is None:
        return None
    return f"map-{item.prepared.case_file.id}.{the_map.name.rsplit('.', 1)[-1]}"


def _context(agenda: PreparedAgenda, item: Item, tpl: Templates) -> dict[str, Any]:
    context = ctx.build(item.prepared.plan, item.doc, tpl.stylesheet)
    context["publication_dates"] = list(agenda.issues)
    if context["map"]:
        context["map"] = dict(context["map"], src=map_name(item), files=map_name(item))
    return context


def _paras(item: Item, context: dict[str, Any], words: Any) -> list[Para]:
    """A case's paragraphs in the order of its own notice (templates/_base/notice_body.html.j2)."""
    clauses, case = context["clauses"], item.prepared.case
    amendment = context["amendment"]

    def ids(topic: str) -> tuple[str, ...]:
        return tuple(clauses.get(topic, {}).get("ids", []))

    def para(topic: str | None, text: Any, slot: str | None = None, *more: str) -> Para:
        marks = tuple(dict.fromkeys(i for t in (topic, *more) if t for i in ids(t)))
        return Para(_squash(text), marks, slot=slot)

    def custom(placement: str) -> list[Para]:
        return [para(c["key"], c["text"]) for c in context["custom_clauses"][placement]]

    def when_in(*topics: str) -> list[Para]:
        return [para(t, getattr(words, t)()) for t in topics if t in clauses]

    out = [para("under_consideration", words.under_consideration())]
    out += custom("before_hearing")
    out.append(para("hearing_when_where", words.hearing_when_where(), "hearing", "hearing_body"))
    if context["other_hearings"]:
        out.append(para(None, words.other_hearings_sentence()))
    out += custom("after_hearing")
    if "right_to_be_heard" in clauses:
        out.append(para("right_to_be_heard", words.right_to_be_heard(), "heard"))
    if case.parcels:
        parcels = tuple(_squash(words.parcel(p)) for p in case.parcels)
        out.append(
            replace(
                para("property_identification", words.property_intro()), style="list", lines=parcels
            )
        )
    out += when_in("district_change")
    if case.area_description:
        out.append(para("area_description", words.area_sentence()))
    body = [_squash(words.applicant_line())] if _squash(words.applicant_line()) else []
    if amendment.print_full_text and context["full_text_plain"]:
        body += [p for p in to_plain(case.amendment.full_text or "").split("\n\n") if p.strip()]
    else:
        body.append(_squash(amendment.summary))
    out.append(
        replace(
            para("proposal_statement", words.proposal_heading()),
            style="proposal",
            lines=tuple(body),
        )
    )
    if "intent_and_effect" in clauses or (
        amendment.intent_and_effect and not amendment.print_full_text
    ):
        out.append(para("intent_and_effect", words.intent_and_effect()))
    out += when_in(
        "standards_changes",
        "nature_and_extent",
        "proposed_use",
        "noise_zone_statement",
        "special_use_permit_review",
    )
    if context["map"]:
        out.append(
            replace(
                para("map", words.map_caption()),
                style="map",
                image=context["map"]["src"],
                alt=context["map"]["alt"],
            )
        )
    out.append(para("where_to_examine", words.where_to_examine(), "examine"))
    if "full_text_from_clerk" in clauses:
        out.append(para("full_text_from_clerk", words.full_text_from_clerk(), "from_clerk"))
    out += when_in("merger_clause")
    if "may_be_amended" in clauses:
        out.append(para("may_be_amended", words.may_be_amended(), "amended"))
    out += custom("end")
    out.append(para(None, words.contact_line(), "contact"))
    out.append(para("accommodation", words.accommodation_line(), "accommodation"))
    return out


def layout(agenda: PreparedAgenda) -> Layout:
    """The notice's paragraphs: shared statements once, the rest in each case's section."""
    drafts = []
    for item in agenda.items:
        tpl = templates.for_pack(item.prepared.pack)
        context = _context(agenda, item, tpl)
        words = tpl.phrases("phrases.j2", **context)
        drafts.append((item, context, words, _paras(item, context, words)))
    by_slot: dict[str, list[Para]] = {}
    for *_, paras in drafts:
        for p in paras:
            if p.slot:
                by_slot.setdefault(p.slot, []).append(p)
    # A statement is shared when every case makes it, in the same words; a statement only some
    # cases' law requires stays with them, so no reader takes it for every case's.
    shared = {
        slot: Para(ps[0].text, tuple(dict.fromkeys(i for p in ps for i in p.ids)), slot=slot)
        for slot, ps in by_slot.items()
        if len(ps) == len(drafts) and len({p.text for p in ps}) == 1
    }
    sections = tuple(
        Section(item, _squash(words.subject()), tuple(p for p in paras if p.slot not in shared))
        for item, _, words, paras in drafts
    )
    first_context, first_words = drafts[0][1], drafts[0][2]
    signatures = list(dict.fromkeys(_squash(words.signature()) for *_, words, _ in drafts))
    hearing = agenda.hearing
    subject = " — ".join(
        (
            first_context["municipality"],
            agenda.agenda.title or hearing.body_name,
            long_date(hearing.date),
        )
    )
    maps, rasters = {}, {}
    for item in agenda.items:
        name, the_map = map_name(item), item.prepared.map
        if name and the_map:
            maps[name] = the_map.data
            if the_map.word_image:
                rasters[name] = the_map.word_image
    plural = "S" if len(agenda.items) > 1 else ""
    return Layout(
        title=_squash(first_words.title()) + plural,
        subject=subject,
        head=tuple(shared[s] for s in _HEAD if s in shared),
        sections=sections,
        tail=tuple(shared[s] for s in _TAIL if s in shared),
        signature=" ".join(signatures),
        publication=_squash(first_words.publication_dates_line()),
        maps=maps,
        rasters=rasters,
    )


def build(agenda: PreparedAgenda, _tpl: Templates | None = None) -> Built:
    """The combined notice as ad copy (TXT), HTML, PDF and a Word draft, with each case's map.

    Each case is worded by its own pack's templates; `_tpl` is unused (the registry's shape).
    """
    the_layout, tpl, text, word = copy_of(agenda)
    context = {
        "notice": the_layout,
        "shared_heading": SHARED_HEADING,
        "stylesheet": Markup(tpl.stylesheet),  # noqa: S704  # our own file from templates/
    }
    rules = tuple(dict.fromkeys(i for item in agenda.items for i in item.doc.notice_ids))
    html = tpl.render(f"{NAME}.html.j2", context)
    outputs = (
        Output(KIND, Format.TXT, f"{NAME}.txt", text.encode(), rules),
        Output(KIND, Format.HTML, f"{NAME}.html", html.encode(), rules),
        Output(
            KIND, Format.PDF, f"{NAME}.pdf", pdf.write_pdf(html, the_layout.maps, tpl.path), rules
        ),
        Output(KIND, Format.DOCX, f"{NAME}.docx", word, rules),
        *(
            Output(DocumentKind.MAP, _IMAGE[name.rsplit(".", 1)[-1]], name, data)
            for name, data in sorted(the_layout.maps.items())
        ),
    )
    found = [
        named(f, item.case_number)
        for item in agenda.items
        for f in unmarked(replace(item.doc, name=NAME), outputs)
    ]
    return Built(outputs, tuple(found))


def copy_of(agenda: PreparedAgenda) -> tuple[Layout, Templates, str, bytes]:
    """The combined notice laid out, the templates that word it, its ad copy and Word draft."""
    the_layout = layout(agenda)
    tpl = templates.for_pack(agenda.items[0].prepared.pack)
    context = {"notice": the_layout, "shared_heading": SHARED_HEADING}
    return the_layout, tpl, tpl.render_text(f"{NAME}.txt.j2", context), _word(tpl, the_layout)


def _word(tpl: Templates, notice: Layout) -> bytes:
    """The Word draft, in the newspaper notice's styles, each clause in a bookmark of its rule."""
    from docx import Document
    from docx.shared import Inches

    document = Document(str(tpl.find("newspaper_notice.docx")))
    body = document.element.body
    for child in list(body):
        if not child.tag.endswith("}sectPr"):
            body.remove(child)
    marks = _Marks()

    def add(text: str, style: str = "Notice Body", ids: tuple[str, ...] = ()) -> Any:
        paragraph = document.add_paragraph(text, style=style)
        marks.wrap(paragraph, ids)
        return paragraph

    def put(p: Para) -> None:
        if p.style == "list":
            add(p.text, ids=p.ids)
            for line in p.lines:
                add(line, "List Bullet", p.ids)
        elif p.style == "proposal":
            add(p.text, "Notice Lead-in", p.ids)
            for line in p.lines:
                add(line, ids=p.ids)
        elif p.style == "map":
            image = notice.rasters.get(p.image or "")
            if image:
                paragraph = add("", ids=p.ids)
                paragraph.add_run().add_picture(io.BytesIO(image), width=Inches(5.5))
            add(p.text, "Caption", p.ids)
        else:
            add(p.text, ids=p.ids)

    add(notice.title, "Notice Title")
    add(notice.subject, "Notice Subject")
    for p in notice.head:
        put(p)
    for section in notice.sections:
        add(section.item.heading, "Heading 2")
        add(section.subject, "Notice Lead-in")
        for p in section.paras:
            put(p)
    add(SHARED_HEADING, "Heading 2")
    for p in notice.tail:
        put(p)
    add(notice.signature)
    if notice.publication:
        add(notice.publication)
    document.core_properties.title = notice.title
    out = io.BytesIO()
    document.save(out)
    return docx.normalize(out.getvalue())


class _Marks:
    """Word bookmarks `clause_<rule id>` around the paragraphs of each clause, as `render.docx`."""

    def __init__(self) -> None:
        self.next = 1

    def wrap(self, paragraph: Any, ids: tuple[str, ...]) -> None:
        """Bookmark the whole of `paragraph` for each rule id."""
        from docx.oxml import OxmlElement
        from docx.oxml.ns import qn

        for rule_id in ids:
            start, end = OxmlElement("w:bookmarkStart"), OxmlElement("w:bookmarkEnd")
            start.set(qn("w:id"), str(self.next))
            start.set(qn("w:name"), f"clause_{rule_id}")
            end.set(qn("w:id"), str(self.next))
            self.next += 1
            p = paragraph._p  # python-docx exposes no bookmark API
            ppr = p.pPr
            if ppr is not None:
                ppr.addnext(start)
            else:
                p.insert(0, start)
            p.append(end)


DOCUMENT = DocumentType(
    KIND,
    "An agenda's one legal notice: a common heading, a section per case, shared statements once.",
    (
        File("{name}.txt", Format.TXT, KIND),
        File("{name}.html", Format.HTML, KIND),
        File("{name}.pdf", Format.PDF, KIND),
        File("{name}.docx", Format.DOCX, KIND),
    ),
    ("case", "plan", "schedule", "map"),
    lambda agenda: bool(agenda.items),
    build,
)


def build_affidavit(agenda: PreparedAgenda, tpl: Templates | None = None) -> Built:
    """One affidavit of publication of the combined notice, listing every case it notices.

    Its form (sworn or certified, who signs, what is attached) is that of the first case whose
    law wants the publication proved; the insertions are the combined notice's.
    """
    kind = DocumentKind.AFFIDAVIT_OF_PUBLICATION
    proved = [
        (item, rule)
        for item in agenda.items
        if (rule := proof.rule_for(item.prepared, item.doc, kind))
    ]
    if not proved:
        return Built()
    first, rule = proved[0]
    tpl = tpl or templates.for_pack(first.prepared.pack)
    context = proof.context(first.prepared, tpl, agenda.hearing, kind, rule)
    paper = first.prepared.case.newspaper
    numbers = ", ".join(item.case_number for item in agenda.items)
    context["case_number"] = numbers
    context["amendment"] = first.prepared.case.amendment.model_copy(
        update={
            "title": f"the {len(agenda.items)} matters listed below (Case Nos. {numbers})"
            if len(agenda.items) > 1
            else f"the matter listed below (Case No. {numbers})"
        }
    )
    context["cases"] = [
        {
            "case_number": item.case_number,
            "title": ctx.without_case_number(item.prepared.case.amendment.title, item.case_number),
            "citation": item.doc.citations,
        }
        for item in agenda.items
    ]
    context["proof"] |= {
        "newspaper": (paper.name if paper and paper.name else None) or proof.BLANK,
        "general_circulation": bool(paper and paper.general_circulation),
        "insertions": [long_date(day) for day in agenda.issues],
        "notice_citation": "; ".join(dict.fromkeys(item.doc.citations for item in agenda.items)),
    }
    ids = tuple(dict.fromkeys(i for _, r in proved for i in r.ids))
    return proof.render(
        tpl, kind, kind.value, "agenda_affidavit", context, ids, word_template=kind.value
    )


AFFIDAVIT = DocumentType(
    DocumentKind.AFFIDAVIT_OF_PUBLICATION,
    "The newspaper's one affidavit that an agenda's notice ran, listing every case it notices.",
    proof.FILES,
    ("case", "plan", "schedule"),
    lambda agenda: any(
        proof.rule_for(i.prepared, i.doc, DocumentKind.AFFIDAVIT_OF_PUBLICATION)
        for i in agenda.items
    ),
    build_affidavit,
)
