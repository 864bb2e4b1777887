"""A certificate of posting (an affidavit, where the pack says notarized) for every posted notice.

One per sign, posting sheet and website notice: who posted it, where and on what day (a row and
a photograph slot per place), and beside it what the law requires of the posting.
"""

from __future__ import annotations

from generator import schedule
from generator.documents import proof, sign
from generator.documents.base import Built, DocumentType
from generator.documents.posting_notice import POSTED_KINDS
from generator.kinds import DocumentKind
from generator.models.pack import Channel
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render.filters import long_date
from generator.render.templates import Templates
from generator.rules.explain import describe_timing

KIND = DocumentKind.CERTIFICATE_OF_POSTING
POSTED = (Channel.SIGN, Channel.POSTING, Channel.WEBSITE)
# Where each kind of posted notice goes, by the kinds of `posting_places` in a case.
POSTED_AT = {
    DocumentKind.SIGN: ("property",),
    DocumentKind.POSTING_NOTICE: POSTED_KINDS,
    DocumentKind.WEBSITE_NOTICE: ("website",),
}


def _certify(prepared: Prepared, tpl: Templates, doc: DocumentPlan) -> Built:
    case = prepared.case
    rule = proof.rule_for(prepared, doc, KIND)
    context = proof.context(prepared, tpl, doc.hearing, KIND, rule)
    notice = doc.notices[0].params
    # Who posts: the narrowest rule that says (the city's officer, not the state's "local government").
    sent_by = next((b.params.sent_by for b in reversed(doc.notices) if b.params.sent_by), None)
    places = [p for p in case.posting_places if p.kind in POSTED_AT[doc.kind]]
    count = max([b.params.places.count for b in doc.notices if b.params.places] or [1])
    names = [p.name + (f", {p.address.one_line()}" if p.address else "") for p in places]
    earliest, latest = schedule.window_of(list(prepared.deadlines), doc.notice_ids, doc.hearing)
    where = [b.params.places.description for b in doc.notices if b.params.places]
    legible = None
    if doc.kind == DocumentKind.SIGN:
        need = sign.legibility(doc.formats, case.sign)
        legible = {
            "cap_in": f"{need.cap_in:g}",
            "distance_ft": f"{need.distance_ft:g}",
            "where": next(
                (b.params.legible_from for b in doc.formats if b.params.legible_from), None
            ),
        }
    context["proof"] |= {
        "posted": doc.kind.value,
        "sent_by": sent_by,
        "rows": names + [None] * max(0, count - len(names)),
        "photos": doc.kind != DocumentKind.WEBSITE_NOTICE,
        "post_by": long_date(latest) if latest else None,
        "post_from": long_date(earliest) if earliest else None,
        "where": where[0] if where else None,
        "count": count,
        "timing": describe_timing(notice.timing, notice.hearing.value) if notice.timing else "",
        "notice_citation": doc.citations,
        "legible": legible,
        "citation": (rule and "; ".join(dict.fromkeys(rule.citations))) or doc.citations,
    }
    words = tpl.phrases("proof_phrases.j2", **context)
    context["proof"] |= {
        "what": str(words.posted_what()).strip(),
        "requirements": [x.strip() for x in str(words.posting_rule()).splitlines() if x.strip()],
        "legibility": str(words.sign_legibility()).strip(),
    }
    name = f"{KIND.value}-{doc.name}"
    rules = tuple(rule.ids) if rule else tuple(sorted(doc.notice_ids))
    return proof.render(tpl, KIND, name, KIND.value, context, rules)


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The certificate of each posted notice."""
    made = Built()
    for doc in prepared.plan.of(*POSTED):
        made += _certify(prepared, tpl, doc)
    return made


DOCUMENT = DocumentType(
    KIND,
    "The certificate (or affidavit) that each sign, posting and website notice was posted.",
    proof.FILES,
    ("case", "plan", "schedule"),
    lambda p: bool(p.plan.of(*POSTED)),
    build,
)
