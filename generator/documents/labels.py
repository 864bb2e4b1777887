"""Mailing labels: Avery 5160 sheets drawn at their exact geometry, one label a piece.

Drawn directly with ReportLab (30 a sheet, 2.625 × 1 in, 0.1875 in side and 0.5 in top margins,
2.75 in horizontal pitch): a sheet costs milliseconds, where an HTML layout costs ~165 ms.
"""

from __future__ import annotations

import io

from generator.documents import mailroom
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.mailroom import INCH, MIN_SIZE, PAGE_H
from generator.findings import Finding
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.LABELS
# Avery 5160 / 8160 (legal-domain.md §6)
LABEL_W, LABEL_H = 2.625 * INCH, 1.0 * INCH
LEFT, TOP = 0.1875 * INCH, 0.5 * INCH
PITCH_X, PITCH_Y = 2.75 * INCH, 1.0 * INCH
COLUMNS, ROWS = 3, 10
PAD = 0.1 * INCH


def label_origin(index: int) -> tuple[float, float]:
    """The top-left corner (points, from the page's top-left) of label `index` on its sheet."""
    k = index % (COLUMNS * ROWS)
    row, col = divmod(k, COLUMNS)
    return LEFT + col * PITCH_X, TOP + row * PITCH_Y


def labels_pdf(mailing: mailroom.Mailing, title: str) -> tuple[bytes, list[Finding]]:
    """Avery 5160 sheets, one label a piece; a label that cannot hold its address is reported."""
    face = mailroom.font()
    out = io.BytesIO()
    pdf = mailroom.canvas(out, title)
    findings = []
    for i, r in enumerate(mailing.pieces):
        if i and i % (COLUMNS * ROWS) == 0:
            pdf.showPage()
        x, top = label_origin(i)
        block = mailroom.address(r, LABEL_W - 2 * PAD, LABEL_H - 2 * PAD)
        if not block.whole:
            findings.append(
                Finding(
                    "MAIL003",
                    f"{mailroom.described(r)}: the address does not fit a label even at"
                    f" {MIN_SIZE} pt; label {i + 1} shows only its last lines — address this"
                    " piece by hand",
                    rule=r.rules[0] if r.rules else None,
                    citation="; ".join(r.citations) or None,
                    document="labels.pdf",
                )
            )
        size = block.size
        leading = size * 1.15
        y = PAGE_H - top - PAD - size  # first baseline
        pdf.setFont(face, size)
        for line in block.lines:
            pdf.drawString(x + PAD, y, line)
            y -= leading
    if mailing.pieces:
        pdf.showPage()
    pdf.save()
    return out.getvalue(), findings


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The labels of every piece (and the warnings of recipients who cannot be mailed)."""
    mailing = mailroom.pieces(prepared.recipients.recipients)
    if not mailing.pieces:
        return Built((), tuple(mailing.findings))
    title = str(tpl.phrases("mail_phrases.j2").labels_title()).strip()
    data, findings = labels_pdf(mailing, title)
    output = Output(KIND, Format.PDF, "labels.pdf", data)
    # The labels cover every piece: they tell, once, of every name printed shortened.
    named = mailroom.shortened(mailing.pieces)
    return Built((output,), tuple(mailing.findings + named + findings))


DOCUMENT = DocumentType(
    KIND,
    "Avery 5160 mailing labels, one a piece, in mailing order.",
    (File("labels.pdf", Format.PDF),),
    ("recipients",),
    mailroom.mails,
    build,
)
