"""Re-mailing of letters returned undeliverable: the same letters, to the other address of record."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from generator import returned_mail
from generator.documents import mail_merge
from generator.documents.base import Built, DocumentType, File
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.LETTERS
PREFIX = "remail-"
SUNDAY = 6


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The letters of each mailing again, for the owners whose letter came back, to the new address."""
    pieces = returned_mail.returned(prepared)
    found = tuple(p.finding() for p in pieces)
    again = [p.remail for p in pieces if p.remail is not None]
    if not again:
        return Built((), found)
    only = replace(prepared, recipients=replace(prepared.recipients, recipients=again))
    # Written again once the letter is back, never dated before (a letter returned April 6 is
    # not re-mailed "March 31"); the post office takes no mail on a Sunday. A mailing whose
    # hearing is held by then is not written again.
    back = max(p.received_on for p in pieces if p.remail is not None)
    back += timedelta(days=1) if back.weekday() == SUNDAY else timedelta(0)
    docs = [
        replace(d, out=(max(d.out[-1], back) if d.out else back,))
        for d in only.plan.of(Channel.MAIL)
    ]
    docs = [d for d in docs if d.out[-1] < d.hearing.date]
    if not docs:
        return Built((), found)
    made = mail_merge.mail(only, tpl, docs, KIND)
    outputs = tuple(replace(o, path=PREFIX + o.path) for o in made.outputs)
    return Built(outputs, found + made.findings)


DOCUMENT = DocumentType(
    KIND,
    "The letters returned undeliverable, written again to the other address the tax record"
    " holds (the proof of mailing lists the returned pieces).",
    # Not linted again: the same letters as the mailing's, which are, to another address.
    (File(PREFIX + "{name}.pdf", Format.PDF), File(PREFIX + "{name}.docx", Format.DOCX)),
    ("case", "plan", "schedule", "recipients", "map"),
    lambda p: bool(p.case.record and p.case.record.returned_mail and p.plan.of(Channel.MAIL)),
    build,
)
