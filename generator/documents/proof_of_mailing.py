"""Proofs of mailed notice: the affidavit of mailing, the certificate of mailing, the certificate of actual notice.

Each mailing wave (one planned mail or actual-notice document, such as `letters-council`) that a
live proof rule `proves` gets its own proof, named after it, listing that wave's recipients and
the records they came from, and dated by that wave's hearing.
"""

from __future__ import annotations

import functools
from datetime import date
from typing import Any

from generator import returned_mail, schedule
from generator.documents import mailroom, proof
from generator.documents.base import Built, DocumentType
from generator.kinds import DocumentKind
from generator.models.pack import Channel, ProofParams
from generator.models.recipient_rules import DELIVERY_RANK, RecipientsParams
from generator.plan import DocumentPlan
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
    prepared: Prepared, kind: DocumentKind
) -> list[tuple[DocumentPlan, Binding[ProofParams]]]:
    """Every mailing wave the law wants proved by a proof of `kind`, with the proof rule."""
    out = []
    for doc in prepared.plan.of(*MAILED):
        rule = proof.rule_for(prepared, doc, kind)
        if rule is not None:
            out.append((doc, rule))
    return out


def build(prepared: Prepared, tpl: Templates, kind: DocumentKind) -> Built:
    """The proofs of `kind`, one per mailing wave, prefilled."""
    made = Built()
    returned = returned_mail.returned(prepared)
    for doc, rule in wanted(prepared, kind):
        served = prepared.recipients_of(doc)
        mailing = mailroom.pieces(served)
        pieces = mailing.pieces + mailing.emailed  # the e-mailed are listed at their e-mail address
        if kind != DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE and not pieces:
            continue  # the build reports elsewhere that there is no one to mail
        context = _context(prepared, tpl, kind, doc, rule)
        context["proof"] |= {
            "recipients": [_row(r) for r in pieces],
            "count": len(pieces),
            "owners": _owners(prepared, served),
            "source": _source(prepared, doc, pieces),
            # Letters of this mailing that came back undeliverable, and where they went next.
            "returned": [
                _row(p.mailed)
                | {
                    "received_on": long_date(p.received_on),
                    "remailed_to": ", ".join([*p.remail.lines, mailroom.last_line(p.remail)])
                    if p.remail
                    else "",
                }
                for p in returned
                if p.mailed in served
            ],
        }
        name = proof.named_after(kind, doc, prepared.plan.of(doc.channel))
        made += proof.render(tpl, kind, name, "proof", context, tuple(rule.ids), kind.value)
    return made


def _row(r: Recipient) -> dict[str, str]:
    return {
        "name": r.name,
        "address": f"e-mailed to {r.email or '(no e-mail address)'}"
        if r.delivery == "email"
        else ", ".join([*r.lines, mailroom.last_line(r)]),
        "parcels": ", ".join(r.parcels),
    }


def _owners(prepared: Prepared, recipients: list[Recipient]) -> list[str]:
    """The owners of the subject parcels: from the tax listing, else as the case names them."""
    case = prepared.case
    subject = {p.id for p in case.parcels}
    listed = [r.name for r in recipients if r.kind == "owner" and subject & set(r.parcels)]
    named = [p.owner for p in case.parcels if p.owner]
    return list(dict.fromkeys(listed or named))


def _source(prepared: Prepared, doc: DocumentPlan, pieces: list[Recipient]) -> dict[str, Any]:
    """Who the listed persons are, in the law's groups, and the records they were taken from.

    The template words each group ("owners of record of parcels within 300 feet of the
    subject parcel"); the records are the parcel layer or the assessor's radius list, with
    their date (a labelled blank when the case does not give it).
    """
    snap = prepared.plan.snapshots[doc.hearing.date]
    used = {x for r in pieces for x in r.rules}
    groups = []
    for b in snap.of(RecipientsParams):
        p = b.params
        if p.notice not in doc.notice_ids or not used & set(b.ids):
            continue
        groups.append(
            {
                "group": p.group.value,
                "distance": f"{p.distance_ft:,g}" if p.distance_ft else "",
                "across": [x.replace("_", " ") for x in p.includes_across],
                "outside": list(p.mailing_address_outside),
                "title": b.rule.title,
                "citation": "; ".join(dict.fromkeys(b.citations)),
                # How this group was sent the notice, as its recipients were (the strictest).
                "delivery": _delivery(pieces, b.ids),
                "count": sum(1 for r in pieces if set(r.rules) & set(b.ids)),
            }
        )
    layers = (prepared.recipients.provenance or {}).get("layers", [])
    records = next((x for x in layers if x.get("layer") in ("parcels", "radius_list")), None)
    as_of = (records or {}).get("as_of")
    return {
        "groups": groups,
        "records": (records or {}).get("layer"),
        "as_of": proof.plain_date(date.fromisoformat(as_of)) if as_of else None,
        "by_hand": sum(1 for r in pieces if not r.rules),
    }


def _delivery(pieces: list[Recipient], rule_ids: list[str]) -> str:
    """The method a group's recipients were sent the notice by: first_class, certified, email."""
    methods = {r.delivery for r in pieces if set(r.rules) & set(rule_ids) and r.delivery}
    return max(methods, key=lambda m: DELIVERY_RANK.get(m, -1), default="")


def _context(
    prepared: Prepared,
    tpl: Templates,
    kind: DocumentKind,
    doc: DocumentPlan,
    rule: Binding[ProofParams],
) -> dict[str, Any]:
    case, params, hearing = prepared.case, rule.params, doc.hearing
    label = schedule.hearing_label(hearing)
    due = [
        d.latest
        for d in prepared.deadlines
        if d.hearing == label and d.rule in doc.notice_ids and d.latest
    ]
    affiant = case.affiant or case.signer or case.contact
    sender = case.mail.sender or case.signer or case.contact
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
        "parcel_ids": ", ".join(p.id for p in case.parcels),
        "parcel_count": len(case.parcels),
        "with_map": prepared.map is not None,
    }
    return context


def _declare(kind: DocumentKind, summary: str) -> DocumentType:
    return DocumentType(
        kind,
        summary,
        proof.FILES,
        ("case", "plan", "schedule", "recipients"),
        lambda p: bool(p.recipients.recipients) and bool(wanted(p, kind)),
        functools.partial(build, kind=kind),
    )


DOCUMENTS = (
    _declare(
        DocumentKind.AFFIDAVIT_OF_MAILING,
        "The sworn proof of each mailing, with the list of its recipients and the records behind it.",
    ),
    _declare(
        DocumentKind.CERTIFICATE_OF_MAILING,
        "The mailer's certificate of the notices of one mailing deposited in the mail.",
    ),
    _declare(
        DocumentKind.CERTIFICATE_OF_ACTUAL_NOTICE,
        "The applicant's certificate that the owner received actual notice of the hearing.",
    ),
)
