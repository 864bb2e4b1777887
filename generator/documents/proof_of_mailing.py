"""Proofs of mailed notice: the affidavit of mailing, the certificate of mailing, the certificate of actual notice.

Each live proof rule whose `proves` names a live mail (or actual-notice) rule of a hearing gives
one document for that hearing, with the list of recipients and the records they came from.
"""

from __future__ import annotations

import functools
from typing import Any

from generator.documents import mailroom, proof
from generator.documents.base import Built, DocumentType
from generator.kinds import DocumentKind
from generator.models.case import Hearing
from generator.models.pack import Channel, NoticeParams, ProofParams
from generator.prepare import Prepared
from generator.recipients import Recipient
from generator.render.filters import long_date
from generator.render.templates import Templates
from generator.rules.loader import Binding

KINDS = (
    DocumentKind.AFFIDAVIT_OF_MAILING,
    DocumentKind.CERTIFICATE_OF_MAILING,
    DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE,
)
MAILED = (Channel.MAIL, Channel.ACTUAL_NOTICE)
# What `certify_to` says when the statute names no one in particular: the body is named instead.
GENERIC_ADDRESSEES = ("the governing board", "the local government")


def wanted(
    prepared: Prepared,
) -> list[tuple[DocumentKind, Hearing, Binding[ProofParams], set[str]]]:
    """Every proof of mailing the law requires: (kind, hearing, proof rule, notice rule ids)."""
    case = prepared.case
    out = []
    for hearing in case.hearings:
        snap = prepared.plan.snapshots[hearing.date]
        mails = [
            b
            for b in snap.of(NoticeParams)
            if b.params.channel in MAILED and b.params.hearing.serves(hearing, case)
        ]
        for b in snap.of(ProofParams):
            notice_ids = {i for m in mails if set(b.params.proves) & set(m.ids) for i in m.ids}
            if b.params.document in KINDS and notice_ids:
                out.append((b.params.document, hearing, b, notice_ids))
    return out


def build(prepared: Prepared, tpl: Templates, kind: DocumentKind) -> Built:
    """The proofs of `kind`, prefilled."""
    if not prepared.recipients.recipients:
        return Built()  # the build reports elsewhere that there is no one to mail
    every = wanted(prepared)
    made = Built()
    names: list[str] = []
    for k, hearing, rule, notice_ids in every:
        if k != kind:
            continue
        served = _served(prepared, hearing, notice_ids)
        pieces = mailroom.pieces(served).pieces
        if kind != DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE and not pieces:
            continue
        many = sum(1 for other, *_ in every if other == kind) > 1
        name = f"{kind.value}-{hearing.body.value}" if many else kind.value
        if name in names:
            name += f"-{hearing.date.isoformat()}"
        names.append(name)
        context = _context(prepared, tpl, kind, hearing, rule, notice_ids)
        context["proof"]["recipients"] = [_row(r) for r in pieces]
        context["proof"]["count"] = len(pieces)
        context["proof"]["owners"] = _owners(prepared, served or prepared.recipients.recipients)
        made += proof.render(tpl, kind, name, "proof", context, tuple(rule.ids), kind.value)
    return made


def _served(prepared: Prepared, hearing: Hearing, notice_ids: set[str]) -> list[Recipient]:
    """The recipients of the proved notices of `hearing` (those added by hand included)."""
    docs = [
        d
        for d in prepared.plan.documents
        if d.hearing is hearing and set(d.notice_ids) & notice_ids
    ]
    served = {id(r) for doc in docs for r in prepared.recipients_of(doc)}
    return [r for r in prepared.recipients.recipients if id(r) in served]


def _row(r: Recipient) -> dict[str, str]:
    return {
        "name": r.name,
        "address": ", ".join([*r.lines, mailroom.last_line(r)]),
        "parcels": ", ".join(r.parcels),
    }


def _owners(prepared: Prepared, recipients: list[Recipient]) -> list[str]:
    """The owners of the subject parcels: from the tax listing, else as the case names them."""
    case = prepared.case
    subject = {p.id for p in case.parcels}
    listed = [r.name for r in recipients if r.kind == "owner" and subject & set(r.parcels)]
    named = [p.owner for p in case.parcels if p.owner]
    return list(dict.fromkeys(listed or named))


def _context(
    prepared: Prepared,
    tpl: Templates,
    kind: DocumentKind,
    hearing: Hearing,
    rule: Binding[ProofParams],
    notice_ids: set[str],
) -> dict[str, Any]:
    case, params, found = prepared.case, rule.params, prepared.recipients
    due = [
        d.latest
        for d in prepared.deadlines
        if d.hearing == f"{hearing.body.value} {hearing.date.isoformat()}"
        and d.rule in notice_ids
        and d.latest
    ]
    affiant = case.affiant or case.signer or case.contact
    sender = case.mail.sender or case.signer or case.contact
    provenance = found.provenance or {}
    parcels = next((x for x in provenance.get("layers", []) if x.get("layer") == "parcels"), None)
    pack = prepared.pack
    used = {
        x
        for r in found.recipients
        for x in r.rules
        if x in pack.origin and getattr(pack.rule(x).params, "notice", None) in notice_ids
    }
    certify_to = params.certify_to or ""
    context = proof.context(prepared, tpl, hearing, kind, rule)
    context["proof"] |= {
        "affiant": {"name": affiant.name, "title": affiant.title or ""},
        "sender": {"name": sender.name, "title": sender.title or ""},
        "applicant": case.applicant.name,
        "certify_to": None if certify_to.startswith(GENERIC_ADDRESSEES) else certify_to or None,
        "conclusive": params.conclusive_absent_fraud,
        "latest": long_date(min(due)) if due else None,
        "certified": case.mail.mail_class == "certified",
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


def _declare(kind: DocumentKind, summary: str) -> DocumentType:
    return DocumentType(
        kind,
        summary,
        proof.FILES,
        ("case", "plan", "schedule", "recipients"),
        lambda p: bool(p.recipients.recipients) and any(k == kind for k, *_ in wanted(p)),
        functools.partial(build, kind=kind),
    )


DOCUMENTS = (
    _declare(
        DocumentKind.AFFIDAVIT_OF_MAILING,
        "The sworn proof of mailing, with the list of recipients and the records behind it.",
    ),
    _declare(
        DocumentKind.CERTIFICATE_OF_MAILING,
        "The mailer's certificate of the notices deposited in the mail.",
    ),
    _declare(
        DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE,
        "The applicant's certificate that the owner received actual notice of the hearing.",
    ),
)
