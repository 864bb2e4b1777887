"""Prefilled proofs of notice: of mailing, of actual notice, of publication and of posting.

Each live proof rule whose `proves` names a live mail (or actual-notice) rule of a hearing gives
one document for that hearing, as PDF (HTML through WeasyPrint) and as DOCX (docxtpl) for the
signer to edit. Everything the records know is printed: the case, the hearing, the pieces
mailed and the list of recipients with the records they came from; only what a person must
write (the day of deposit, the signature, the notary's part) is left blank. Values from the
case are data, escaped in both formats. No clock is read, so the same input gives the same bytes.
"""

from __future__ import annotations

import io
from typing import Any

from markupsafe import Markup

from generator import schedule
from generator.documents import DocumentKind, Format
from generator.inputs import CaseFile
from generator.models.case import Hearing
from generator.models.pack import Channel
from generator.plan import Plan, serves
from generator.postings import POSTED_KINDS
from generator.recipients import Recipient, RecipientList
from generator.render import templates
from generator.render.filters import long_date, when

DOCUMENTS = (
    DocumentKind.AFFIDAVIT_OF_MAILING,
    DocumentKind.CERTIFICATE_OF_MAILING,
    DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE,
)
MAILED = (Channel.MAIL, Channel.ACTUAL_NOTICE)
TITLES = {
    DocumentKind.AFFIDAVIT_OF_MAILING: "Affidavit of Mailing",
    DocumentKind.CERTIFICATE_OF_MAILING: "Certificate of Mailing",
    DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE: "Certificate of Actual Notice",
    DocumentKind.AFFIDAVIT_OF_PUBLICATION: "Affidavit of Publication",
}
BLANK = "_" * 24
SHORT_BLANK = "_" * 12
# Where each kind of posted notice goes, by the kinds of `posting_places` in a case.
POSTED_AT = {
    DocumentKind.SIGN: ("property",),
    DocumentKind.POSTING_NOTICE: POSTED_KINDS,
    DocumentKind.WEBSITE_NOTICE: ("website",),
}
WHAT = {
    DocumentKind.SIGN: "the sign giving notice",
    DocumentKind.POSTING_NOTICE: "the notice",
    DocumentKind.WEBSITE_NOTICE: "on the website the notice",
}
Proof = tuple[DocumentKind, Format, str, bytes, tuple[str, ...]]


def proof_outputs(
    the_plan: Plan, cf: CaseFile, found: RecipientList, deadlines: list[schedule.Deadline]
) -> list[Proof]:
    """The proof documents of mailed notice the pack requires, prefilled: (kind, format, path, data, rule ids)."""
    if not found.recipients:
        return []  # the build reports elsewhere that there is no one to mail
    from generator import mailing

    case, pack = cf.case, the_plan.pack
    wanted: list[tuple[DocumentKind, Hearing, Any, set[str]]] = []
    for hearing in case.hearings:
        snap = the_plan.snapshots[hearing.date]
        mails = [
            b
            for b in snap.of_kind("notice")
            if b.params.channel in MAILED  # type: ignore[attr-defined]
            and serves(b.params.hearing, hearing, case)  # type: ignore[attr-defined]
        ]
        for proof in snap.of_kind("proof"):
            kind = proof.params.document  # type: ignore[attr-defined]
            proves = set(proof.params.proves)  # type: ignore[attr-defined]
            notice_ids = {i for b in mails if proves & set(b.ids) for i in b.ids}
            if kind in DOCUMENTS and notice_ids:
                wanted.append((kind, hearing, proof, notice_ids))
    out: list[Proof] = []
    names: list[str] = []
    for kind, hearing, proof, notice_ids in wanted:
        served = [r for r in found.recipients if _serves(pack, r, notice_ids)]
        pieces = mailing.pieces(served).pieces
        if kind != DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE and not pieces:
            continue
        many = sum(1 for k, *_ in wanted if k == kind) > 1
        name = f"{kind.value}-{hearing.body.value}" if many else kind.value
        if name in names:
            name += f"-{hearing.date.isoformat()}"
        names.append(name)
        context = _context(the_plan, cf, found, deadlines, kind, hearing, proof, notice_ids)
        context["proof"]["recipients"] = [_row(r) for r in pieces]
        context["proof"]["count"] = len(pieces)
        context["proof"]["owners"] = _owners(case, served or found.recipients)
        out += _render_proof(pack, kind, name, "proof", context, proof.ids, docx=kind.value)
    return out


def _serves(pack: Any, r: Recipient, notice_ids: set[str]) -> bool:
    """Whether a recipient was selected by a rule of one of the proved notices."""
    return any(
        getattr(pack.rule(rule).params, "notice", None) in notice_ids
        for rule in r.rules
        if rule in pack.origin
    )


def _row(r: Recipient) -> dict[str, str]:
    from generator import mailing

    return {
        "name": r.name,
        "address": ", ".join([*r.lines, mailing.last_line(r)]),
        "parcels": ", ".join(r.parcels),
    }


def _owners(case: Any, recipients: list[Recipient]) -> list[str]:
    """The owners of the subject parcels: from the tax listing, else as the case names them."""
    subject = {p.id for p in case.parcels}
    listed = [r.name for r in recipients if r.kind == "owner" and subject & set(r.parcels)]
    named = [p.owner for p in case.parcels if p.owner]
    return list(dict.fromkeys(listed or named))


def _context(
    the_plan: Plan,
    cf: CaseFile,
    found: RecipientList,
    deadlines: list[schedule.Deadline],
    kind: DocumentKind,
    hearing: Hearing,
    proof: Any,
    notice_ids: set[str],
) -> dict[str, Any]:
    case, params = cf.case, proof.params
    label = schedule.hearing_label(hearing)
    due = [d.latest for d in deadlines if d.hearing == label and d.rule in notice_ids and d.latest]
    affiant = case.affiant or case.signer or case.contact
    sender = case.mail.sender or case.signer or case.contact
    provenance = found.provenance or {}
    parcels = next((x for x in provenance.get("layers", []) if x.get("layer") == "parcels"), None)
    pack = the_plan.pack
    used = {
        rule
        for r in found.recipients
        for rule in r.rules
        if rule in pack.origin and getattr(pack.rule(rule).params, "notice", None) in notice_ids
    }
    certify_to = params.certify_to or ""
    if not certify_to or certify_to.startswith(("the governing board", "the local government")):
        certify_to = f"the {hearing.body_name}"  # the generic words of the statute, named
    context = _base_context(the_plan, cf, hearing, kind, proof, TITLES[kind])
    context["proof"] |= {
        "affiant": {"name": affiant.name, "title": affiant.title or ""},
        "sender": {"name": sender.name, "title": sender.title or ""},
        "applicant": case.applicant.name,
        "certify_to": certify_to,
        "conclusive": params.conclusive_absent_fraud,
        "latest": long_date(min(due)) if due else None,
        "mail_class": "certified mail, postage prepaid"
        if case.mail.mail_class == "certified"
        else "first-class mail, postage prepaid",
        "source": {
            "method": provenance.get("method") or "",
            "as_of": (parcels or {}).get("as_of") or "",
            "rules": [
                {
                    "rule": x["rule"],
                    "citation": x.get("citation") or "",
                    "distance": f"{x['distance_ft']:g} feet" if x.get("distance_ft") else "",
                }
                for x in provenance.get("rules", [])
                if x.get("rule") in used
            ],
        },
        "parcel_ids": ", ".join(p.id for p in case.parcels),
    }
    return context


def _docx(pack: Any, template: Any, context: dict[str, Any]) -> bytes:
    """Render a proof's DOCX template, escaped, with reproducible bytes."""
    from docxtpl import DocxTemplate

    from generator.render.docx import normalize

    tpl = DocxTemplate(str(template))
    tpl.render(context, jinja_env=templates.environment(pack, autoescape=True), autoescape=True)
    tpl.docx.core_properties.title = f"{context['proof']['title']} — {context['case_number']}"
    out = io.BytesIO()
    tpl.save(out)
    return normalize(out.getvalue())


def publication_proofs(
    the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline]
) -> list[Proof]:
    """An affidavit of publication for each newspaper notice the pack wants proved, dates prefilled."""
    case, pack = cf.case, the_plan.pack
    out: list[Proof] = []
    for doc in the_plan.documents:
        notice_ids = {i for b in doc.notices for i in b.ids}
        snap = the_plan.snapshots[doc.hearing.date]
        proofs = [
            b
            for b in snap.of_kind("proof")
            if b.params.document == DocumentKind.AFFIDAVIT_OF_PUBLICATION  # type: ignore[attr-defined]
            and set(b.params.proves) & notice_ids  # type: ignore[attr-defined]
        ]
        if not proofs:
            continue
        proof = proofs[0]
        kind = DocumentKind.AFFIDAVIT_OF_PUBLICATION
        context = _base_context(the_plan, cf, doc.hearing, kind, proof, TITLES[kind])
        issues = schedule.issues_of(deadlines, tuple(notice_ids), doc.hearing)
        paper = case.newspaper
        context["proof"] |= {
            "newspaper": (paper.name if paper and paper.name else None) or BLANK,
            "general_circulation": bool(paper and paper.general_circulation),
            "insertions": [long_date(day) for day in issues],
            "notice_citation": "; ".join(
                dict.fromkeys(c for b in doc.notices for c in b.citations)
            ),
        }
        name = doc.name.replace(doc.kind.value, kind.value, 1)
        out += _render_proof(pack, kind, name, "affidavit_of_publication", context, proof.ids)
    return out


def posting_proofs(the_plan: Plan, cf: CaseFile, deadlines: list[schedule.Deadline]) -> list[Proof]:
    """A certificate of posting (an affidavit, where the pack says notarized) for every posted notice."""
    from generator.rules.explain import describe_timing

    case, pack = cf.case, the_plan.pack
    out: list[Proof] = []
    for doc in the_plan.signs + the_plan.postings + the_plan.websites:
        notice_ids = {i for b in doc.notices for i in b.ids}
        snap = the_plan.snapshots[doc.hearing.date]
        proof = next(
            (
                b
                for b in snap.of_kind("proof")
                if b.params.document == DocumentKind.CERTIFICATE_OF_POSTING  # type: ignore[attr-defined]
                and set(b.params.proves) & notice_ids  # type: ignore[attr-defined]
            ),
            None,
        )
        notarized = bool(proof and proof.params.notarized)  # type: ignore[attr-defined]
        kind = DocumentKind.CERTIFICATE_OF_POSTING
        title = "Affidavit of Posting" if notarized else "Certificate of Posting"
        context = _base_context(the_plan, cf, doc.hearing, kind, proof, title)
        notice = doc.notices[0].params
        places = [p for p in case.posting_places if p.kind in POSTED_AT[doc.kind]]
        count = max([b.params.places.count for b in doc.notices if b.params.places] or [1])  # type: ignore[attr-defined]
        names = [p.name + (f", {p.address.one_line()}" if p.address else "") for p in places]
        earliest, latest = schedule.window_of(deadlines, notice_ids, doc.hearing)
        where = [b.params.places.description for b in doc.notices if b.params.places]  # type: ignore[attr-defined]
        timing = describe_timing(notice.timing, notice.hearing.value) if notice.timing else ""  # type: ignore[attr-defined]
        cites = "; ".join(dict.fromkeys(c for b in doc.notices for c in b.citations))
        context["proof"] |= {
            "what": WHAT[doc.kind],
            "sent_by": notice.sent_by,  # type: ignore[attr-defined]
            "rows": names + [None] * max(0, count - len(names)),
            "photos": doc.kind != DocumentKind.WEBSITE_NOTICE,
            "post_by": long_date(latest) if latest else None,
            "post_from": long_date(earliest) if earliest else None,
            "remove_after": long_date(doc.hearing.date),
            "requirement": "The law requires the notice to be posted"
            + (f" {where[0]}" if where else "")
            + (f" ({count} {'place' if count == 1 else 'places'})" if count > 1 else "")
            + (f"{',' if where else ''} {timing}" if timing else "")
            + f" ({cites}).",
            "legibility": _legibility_sentence(doc, cf) if doc.kind == DocumentKind.SIGN else "",
            "citation": (proof and "; ".join(dict.fromkeys(proof.citations))) or cites,
        }
        name = f"{kind.value}-{doc.name}"
        rules = tuple(proof.ids) if proof else tuple(sorted(notice_ids))
        out += _render_proof(pack, kind, name, "certificate_of_posting", context, rules)
    return out


def _legibility_sentence(doc: Any, cf: CaseFile) -> str:
    from generator.signs import legibility

    need = legibility(doc.formats, cf.case.sign)
    where = next((b.params.legible_from for b in doc.formats if b.params.legible_from), None)
    return (
        f"The sign was the one generated for this case: its required items are in capitals"
        f" {need.cap_in:.2f} in tall, legible from {need.distance_ft:g} ft, and it was placed so as"
        f" to be legible from {where or 'the street it faces'}."
    )


def _base_context(
    the_plan: Plan, cf: CaseFile, hearing: Hearing, kind: DocumentKind, proof: Any, title: str
) -> dict[str, Any]:
    """What every proof prints: the case, the hearing, the caption and the notary."""
    case, notary = cf.case, cf.case.notary
    params = proof.params if proof else None
    stylesheet = templates.find(the_plan.pack, "notice.css").read_text(encoding="utf-8")
    return {
        "proof": {
            "document": kind.value,
            "title": title,
            "blank": BLANK,
            "short_blank": SHORT_BLANK,
            "caption": {
                "state": (notary.state if notary else None) or BLANK,
                "county": (notary.county if notary else None) or BLANK,
            },
            "notary": {
                "name": (notary.name if notary else None) or BLANK,
                "expires": long_date(notary.commission_expires)
                if notary and notary.commission_expires
                else BLANK,
            },
            "signed_by": (params.signed_by if params else None) or "",
            "notarized": bool(params and params.notarized),
            "attachments": list(params.attachments) if params else [],
            "citation": "; ".join(dict.fromkeys(proof.citations)) if proof else "",
        },
        "municipality": case.municipality,
        "case_number": case.case_number,
        "amendment": case.amendment,
        "hearing": hearing,
        "hearing_when": when(hearing.date, hearing.start_time),
        "hearing_address": hearing.address.one_line(),
        "terms": the_plan.pack.terms,
        "stylesheet": Markup(stylesheet),  # noqa: S704  # our own file from templates/
    }


def _render_proof(
    pack: Any,
    kind: DocumentKind,
    name: str,
    template: str,
    context: dict[str, Any],
    rules: Any,
    docx: str | None = None,
) -> list[Proof]:
    """The proof as PDF (`<template>.html.j2`) and as DOCX (`<docx or template>.docx`) to edit."""
    from generator.render import pdf

    env = templates.environment(pack, autoescape=True)
    html = templates.render(env, f"{template}.html.j2", context)
    data = pdf.write_pdf(html, {}, templates.search_path(pack))
    docx_data = _docx(pack, templates.find(pack, f"{docx or template}.docx"), context)
    return [
        (kind, Format.PDF, f"{name}.pdf", data, tuple(rules)),
        (kind, Format.DOCX, f"{name}.docx", docx_data, tuple(rules)),
    ]
