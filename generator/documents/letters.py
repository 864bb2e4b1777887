"""Mailed notice: a letter to every recipient of each hearing's mailed notice, in PDF and Word."""

from __future__ import annotations

from generator.documents import mail_merge
from generator.documents.base import Built, DocumentType, File
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.LETTERS


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The letters of each hearing whose notice the law has mailed."""
    return mail_merge.mail(prepared, tpl, prepared.plan.of(Channel.MAIL), KIND)


DOCUMENT = DocumentType(
    KIND,
    "One letter per recipient (owners, persons the case adds, others the law names), the"
    " address in the envelope's window.",
    (
        File("{name}.pdf", Format.PDF, KIND),
        File("{name}.docx", Format.DOCX, KIND),
        File("{name}/{n}.pdf", Format.PDF),
    ),
    ("case", "plan", "schedule", "recipients", "map"),
    lambda p: bool(p.plan.of(Channel.MAIL)) and bool(p.recipients.recipients),
    build,
)
