"""Prefilled proofs of mailed notice: affidavit and certificate of mailing, of actual notice.

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
}
BLANK = "_" * 24
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
    stylesheet = templates.find(pack, "notice.css").read_text(encoding="utf-8")
    env = templates.environment(pack, autoescape=True)
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
        context["stylesheet"] = Markup(stylesheet)  # noqa: S704  # our own file from templates/
        rules = tuple(proof.ids)
        html = templates.render(env, "proof.html.j2", context)
        from generator.render import pdf

        data = pdf.write_pdf(html, {}, templates.search_path(pack))
        out.append((kind, Format.PDF, f"{name}.pdf", data, rules))
        docx_data = _docx(pack, templates.find(pack, f"{kind.value}.docx"), context)
        out.append((kind, Format.DOCX, f"{name}.docx", docx_data, rules))
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
    notary = case.notary
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
    data = {
        "document": kind.value,
        "title": TITLES[kind],
        "blank": BLANK,
        "caption": {
            "state": (notary.state if notary else None) or BLANK,
            "county": (notary.county if notary else None) or BLANK,
        },
        "affiant": {"name": affiant.name, "title": affiant.title or ""},
        "sender": {"name": sender.name, "title": sender.title or ""},
        "applicant": case.applicant.name,
        "signed_by": params.signed_by or "",
        "certify_to": certify_to,
        "conclusive": params.conclusive_absent_fraud,
        "notarized": params.notarized,
        "notary": {
            "name": (notary.name if notary else None) or BLANK,
            "expires": long_date(notary.commission_expires)
            if notary and notary.commission_expires
            else BLANK,
        },
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
        "attachments": list(params.attachments),
        "citation": "; ".join(dict.fromkeys(proof.citations)),
        "parcel_ids": ", ".join(p.id for p in case.parcels),
    }
    return {
        "proof": data,
        "municipality": case.municipality,
        "case_number": case.case_number,
        "amendment": case.amendment,
        "hearing": hearing,
        "hearing_when": when(hearing.date, hearing.start_time),
        "hearing_address": hearing.address.one_line(),
        "terms": the_plan.pack.terms,
    }


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
