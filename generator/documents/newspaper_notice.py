"""The newspaper legal notice of each hearing: ad copy (TXT), HTML, PDF, and a Word draft."""

from __future__ import annotations

from typing import Any

from generator import schedule
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.markers import unmarked
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render import context as ctx
from generator.render import docx, pdf
from generator.render.templates import Templates

KIND = DocumentKind.NEWSPAPER_NOTICE


def context(prepared: Prepared, tpl: Templates, doc: DocumentPlan) -> dict[str, Any]:
    """What the notice's templates read: the plan's clauses, and the issues from the schedule."""
    out = ctx.build(prepared.plan, doc, tpl.stylesheet)
    out["publication_dates"] = schedule.issues_of(
        list(prepared.deadlines), doc.notice_ids, doc.hearing
    )
    return out


def text_copy(tpl: Templates, context: dict[str, Any]) -> str:
    """The ad copy, as plain text: what the paper sets."""
    return tpl.render_text(f"{KIND.value}.txt.j2", context)


def word_copy(prepared: Prepared, tpl: Templates, context: dict[str, Any]) -> bytes:
    """The notice as a Word draft, with the full text and the map when the case has them."""
    case, the_map = prepared.case, prepared.map
    return docx.render(
        tpl,
        tpl.find(f"{KIND.value}.docx"),
        context,
        full_text=case.amendment.full_text if case.amendment.print_full_text else None,
        map_image=the_map.word_image if the_map else None,
        title=f"Notice of {tpl.pack.terms['hearing']} — {case.case_number}",
    )


def build(prepared: Prepared, tpl: Templates) -> Built:
    """Each newspaper notice in every format, its publication dates from the schedule."""
    the_map = prepared.map
    files = {the_map.name: the_map.data} if the_map else {}
    made = Built()
    for doc in prepared.plan.of(Channel.NEWSPAPER):
        context_ = context(prepared, tpl, doc)
        rules = doc.notice_ids
        html = tpl.render(f"{KIND.value}.html.j2", context_)
        outputs = (
            Output(KIND, Format.TXT, f"{doc.name}.txt", text_copy(tpl, context_).encode(), rules),
            Output(KIND, Format.HTML, f"{doc.name}.html", html.encode(), rules),
            Output(
                KIND, Format.PDF, f"{doc.name}.pdf", pdf.write_pdf(html, files, tpl.path), rules
            ),
            Output(
                KIND, Format.DOCX, f"{doc.name}.docx", word_copy(prepared, tpl, context_), rules
            ),
        )
        made += Built(outputs, tuple(unmarked(doc, outputs)))
    return made


DOCUMENT = DocumentType(
    KIND,
    "The legal notice each hearing's newspaper notice rules require, as ad copy and drafts.",
    (
        File("{name}.txt", Format.TXT, KIND),
        File("{name}.html", Format.HTML, KIND),
        File("{name}.pdf", Format.PDF, KIND),
        File("{name}.docx", Format.DOCX, KIND),
    ),
    ("case", "plan", "schedule", "map"),
    lambda p: bool(p.plan.of(Channel.NEWSPAPER)),
    build,
)
