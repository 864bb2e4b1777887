"""Transmittals: the notice sent to councils, water suppliers, planning agencies and airports."""

from __future__ import annotations

from generator.documents import mail_merge
from generator.documents.base import Built, DocumentType, File
from generator.kinds import DocumentKind, Format
from generator.models.pack import Channel
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.TRANSMITTAL


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The transmittal of each hearing the law has the notice sent to other bodies."""
    return mail_merge.mail(prepared, tpl, prepared.plan.of(Channel.TRANSMITTAL), KIND)


DOCUMENT = DocumentType(
    KIND,
    "The notice sent, with a covering letter, to the bodies the law names.",
    (
        File("{name}.pdf", Format.PDF, KIND),
        File("{name}.docx", Format.DOCX, KIND),
        File("{name}/{n}.pdf", Format.PDF),
    ),
    ("case", "plan", "schedule", "recipients", "map"),
    lambda p: bool(p.plan.of(Channel.TRANSMITTAL)) and bool(p.recipients.recipients),
    build,
)
