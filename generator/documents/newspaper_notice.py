"""The newspaper legal notice of each hearing: ad copy (TXT), HTML, PDF, and a Word draft."""

from __future__ import annotations

from generator import schedule
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.markers import unmarked
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render import context as ctx
from generator.render import docx, pdf
from generator.render.templates import Templates

KIND = DocumentKind.NEWSPAPER_NOTICE


def build(prepared: Prepared, tpl: Templates) -> Built:
    """Each newspaper notice in every format, its publication dates from the schedule."""
    the_map, case = prepared.map, prepared.case
    files = {the_map.name: the_map.data} if the_map else {}
    made = Built()
    for doc in prepared.plan.of(Channel.NEWSPAPER):
        context = ctx.build(prepared.plan, doc, tpl.stylesheet)
        rules = doc.notice_ids
        context["publication_dates"] = schedule.issues_of(
            list(prepared.deadlines), rules, doc.hearing
        )
        html = tpl.render_notice(f"{KIND.value}.html.j2", context)
        text = tpl.render_notice_text(f"{KIND.value}.txt.j2", context)
        word = docx.render(
            tpl,
            tpl.find(f"{KIND.value}.docx"),
            context,
            full_text=case.amendment.full_text if case.amendment.print_full_text else None,
            map_image=the_map.word_image if the_map else None,
            title=f"Notice of {tpl.pack.terms['hearing']} — {case.case_number}",
        )
        outputs = (
            Output(KIND, Format.TXT, f"{doc.name}.txt", text.encode(), rules),
            Output(KIND, Format.HTML, f"{doc.name}.html", html.encode(), rules),
            Output(
                KIND, Format.PDF, f"{doc.name}.pdf", pdf.write_pdf(html, files, tpl.path), rules
            ),
            Output(KIND, Format.DOCX, f"{doc.name}.docx", word, rules),
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
