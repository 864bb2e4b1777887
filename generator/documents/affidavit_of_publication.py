"""The affidavit of publication, for the newspaper to complete, its insertion dates prefilled."""

from __future__ import annotations

from generator import schedule
from generator.documents import proof
from generator.documents.base import Built, DocumentType, File
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel, ProofParams
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render.filters import long_date
from generator.render.templates import Templates
from generator.rules.loader import Binding

KIND = DocumentKind.AFFIDAVIT_OF_PUBLICATION


def _proof_of(prepared: Prepared, doc: DocumentPlan) -> Binding[ProofParams] | None:
    """The proof rule that wants `doc`'s publication proved, if any."""
    snap = prepared.plan.snapshots[doc.hearing.date]
    return next(
        (
            b
            for b in snap.of(ProofParams)
            if b.params.document == KIND and set(b.params.proves) & set(doc.notice_ids)
        ),
        None,
    )


def build(prepared: Prepared, tpl: Templates) -> Built:
    """An affidavit for each newspaper notice the pack wants proved."""
    case = prepared.case
    made = Built()
    for doc in prepared.plan.of(Channel.NEWSPAPER):
        rule = _proof_of(prepared, doc)
        if rule is None:
            continue
        context = proof.context(prepared, tpl, doc.hearing, KIND, rule)
        issues = schedule.issues_of(list(prepared.deadlines), doc.notice_ids, doc.hearing)
        paper = case.newspaper
        context["proof"] |= {
            "newspaper": (paper.name if paper and paper.name else None) or proof.BLANK,
            "general_circulation": bool(paper and paper.general_circulation),
            "insertions": [long_date(day) for day in issues],
            "notice_citation": doc.citations,
        }
        name = doc.name.replace(doc.kind.value, KIND.value, 1)
        made += proof.render(tpl, KIND, name, KIND.value, context, tuple(rule.ids))
    return made


DOCUMENT = DocumentType(
    KIND,
    "The newspaper's affidavit that the notice ran, with the dates it was scheduled to run.",
    (File("{name}.pdf", Format.PDF), File("{name}.docx", Format.DOCX)),
    ("case", "plan", "schedule"),
    lambda p: any(_proof_of(p, d) for d in p.plan.of(Channel.NEWSPAPER)),
    build,
)
