"""The affidavit of publication, for the newspaper to complete, its insertion dates prefilled."""

from __future__ import annotations

from generator import schedule
from generator.documents import proof
from generator.documents.base import Built, DocumentType
from generator.kinds import DocumentKind
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render.filters import long_date
from generator.render.templates import Templates

KIND = DocumentKind.AFFIDAVIT_OF_PUBLICATION


def build(prepared: Prepared, tpl: Templates) -> Built:
    """An affidavit for each newspaper notice the pack wants proved."""
    case = prepared.case
    made = Built()
    papers = prepared.plan.of(Channel.NEWSPAPER)
    for doc in papers:
        rule = proof.rule_for(prepared, doc, KIND)
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
        name = proof.named_after(KIND, doc, papers)  # one per publication wave, named after it
        made += proof.render(tpl, KIND, name, KIND.value, context, tuple(rule.ids))
    return made


DOCUMENT = DocumentType(
    KIND,
    "The newspaper's affidavit that the notice ran, with the dates it was scheduled to run.",
    proof.FILES,
    ("case", "plan", "schedule"),
    lambda p: any(proof.rule_for(p, d, KIND) for d in p.plan.of(Channel.NEWSPAPER)),
    build,
)
