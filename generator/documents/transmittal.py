"""Transmittals: the notice sent to councils, water suppliers, planning agencies and airports."""

from __future__ import annotations

from generator.documents import mail_merge
from generator.kinds import DocumentKind
from generator.models.pack import Channel

DOCUMENT = mail_merge.document(
    DocumentKind.TRANSMITTAL,
    Channel.TRANSMITTAL,
    "The notice sent, with a covering letter, to the bodies the law names.",
)
