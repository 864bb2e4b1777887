"""What every proof of notice shares: the caption, the hearing, the notary, and its two files.

A proof is printed prefilled with everything the records know, as PDF (HTML through WeasyPrint)
and as DOCX (docxtpl) for the signer to edit; only what a person must write (the day of
deposit, the signature, the notary's part) is left blank, and each blank says what goes in it.
A proof the pack wants notarized is sworn (an affidavit: venue caption, oath, jurat); any
other is certified (a certificate: "I certify", no notary). Its wording is in proof_phrases.j2.
Values from the case are data, escaped in both formats; no clock is read.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from markupsafe import Markup

from generator.documents.base import Built, File, Output
from generator.kinds import DocumentKind, Format
from generator.models.case import Hearing
from generator.models.pack import ProofParams
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render import docx, pdf
from generator.render.filters import when
from generator.render.templates import Templates
from generator.rules.loader import Binding

BLANK = "_" * 24
SHORT_BLANK = "_" * 12
# Every proof: a PDF to sign as printed, and a Word file to edit first.
FILES = (File("{name}.pdf", Format.PDF), File("{name}.docx", Format.DOCX))


def plain_date(day: date) -> str:
    """`June 30, 2029`: a date no one needs the weekday of (a commission's end, a record's date)."""
    return f"{day:%B} {day.day}, {day.year}"


def rule_for(
    prepared: Prepared, doc: DocumentPlan, kind: DocumentKind
) -> Binding[ProofParams] | None:
    """The proof rule (of `kind`) that wants a notice of `doc` proved, if any."""
    snap = prepared.plan.snapshots[doc.hearing.date]
    return next(
        (
            b
            for b in snap.of(ProofParams)
            if b.params.document == kind and set(b.params.proves) & set(doc.notice_ids)
        ),
        None,
    )


def named_after(kind: DocumentKind, doc: DocumentPlan, docs: list[DocumentPlan]) -> str:
    """The proof's file name: after `doc`, one of the planned documents `docs` of its channel.

    `certificate_of_mailing-council` proves the mailing `letters-council`: each mailing or
    publication wave has its own proof, and a case with one wave keeps the plain name.
    """
    if len(docs) == 1:
        return kind.value
    rest = doc.name.removeprefix(doc.kind.value)
    return kind.value + (rest if rest.startswith("-") else f"-{doc.name}")


def venue_state(prepared: Prepared) -> str | None:
    """The state of the affidavit's venue caption, spelled out: the notary's, else the pack's.

    A notary's state given as the postal code of the pack's own state ("RI") is printed as
    the state pack names it ("Rhode Island").
    """
    notary = prepared.case.notary
    given = notary.state if notary else None
    state = next((f.pack for f in prepared.pack.chain if f.pack.level == "state"), None)
    if state is None:
        return given
    code = state.id.rsplit("-", 1)[-1].upper()
    return state.name if given is None or given.upper() == code else given


def context(
    prepared: Prepared,
    tpl: Templates,
    hearing: Hearing,
    kind: DocumentKind,
    proof: Binding[ProofParams] | None,
) -> dict[str, Any]:
    """What every proof prints: the case, the hearing, the caption and the notary."""
    case, notary = prepared.case, prepared.case.notary
    params = proof.params if proof else None
    return {
        "proof": {
            "document": kind.value,
            "blank": BLANK,
            "short_blank": SHORT_BLANK,
            "caption": {
                "state": venue_state(prepared) or BLANK,
                "county": (notary.county if notary else None) or BLANK,
            },
            "notary": {
                "name": (notary.name if notary else None) or BLANK,
                "expires": plain_date(notary.commission_expires)
                if notary and notary.commission_expires
                else BLANK,
            },
            "signed_by": (params.signed_by if params else None) or "",
            "notarized": bool(params and params.notarized),
            "attachments": list(params.attachments) if params else [],
            "citation": "; ".join(dict.fromkeys(proof.citations)) if proof else "",
        },
        **hearing_context(case, hearing, tpl),
    }


def hearing_context(case: Any, hearing: Any, tpl: Templates) -> dict[str, Any]:
    """What every proof and certificate of a hearing prints about the case and the hearing."""
    return {
        "municipality": case.municipality,
        "the_municipality": case.the_municipality,
        "case_number": case.case_number,
        "amendment": case.amendment,
        "hearing": hearing,
        "hearing_when": when(hearing.date, hearing.start_time),
        "hearing_address": hearing.address.one_line(),
        "terms": tpl.pack.terms,
        "stylesheet": Markup(tpl.stylesheet),  # noqa: S704  # our own file from templates/
    }


def render(
    tpl: Templates,
    kind: DocumentKind,
    name: str,
    template: str,
    context: dict[str, Any],
    rules: tuple[str, ...],
    word_template: str | None = None,
) -> Built:
    """The proof as PDF (`<template>.html.j2`) and as DOCX (`<word_template or template>.docx`)."""
    words = tpl.phrases("proof_phrases.j2", **context)
    context["proof"]["title"] = str(words.title()).strip()
    html = tpl.render(f"{template}.html.j2", context)
    word = docx.render(
        tpl,
        tpl.find(f"{word_template or template}.docx"),
        context,
        title=f"{context['proof']['title']} — {context['case_number']}",
    )
    return Built(
        (
            Output(kind, Format.PDF, f"{name}.pdf", pdf.write_pdf(html, {}, tpl.path), rules),
            Output(kind, Format.DOCX, f"{name}.docx", word, rules),
        )
    )
