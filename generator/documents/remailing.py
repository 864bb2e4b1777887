"""Re-mailing of letters returned undeliverable: the same letters, to the other address of record."""

from __future__ import annotations

from dataclasses import replace

from generator import returned_mail
from generator.documents import mail_merge
from generator.documents.base import Built, DocumentType, File
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.LETTERS
PREFIX = "remail-"


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The letters of each mailing again, for the owners whose letter came back, to the new address."""
    pieces = returned_mail.returned(prepared)
    found = tuple(p.finding() for p in pieces)
    again = [p.remail for p in pieces if p.remail is not None]
    if not again:
        return Built((), found)
    only = replace(prepared, recipients=replace(prepared.recipients, recipients=again))
    made = mail_merge.mail(only, tpl, only.plan.of(Channel.MAIL), KIND)
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
