"""Mailed notice: a letter to every recipient of each hearing's mailed notice, in PDF and Word."""

from __future__ import annotations

from generator.documents import mail_merge
from generator.kinds import DocumentKind
from generator.models.pack import Channel

DOCUMENT = mail_merge.document(
    DocumentKind.LETTERS,
    Channel.MAIL,
    "One letter per recipient (owners, persons the case adds, others the law names), the"
    " address in the envelope's window.",
)
