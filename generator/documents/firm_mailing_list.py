"""The firm mailing list, in the layout of PS Form 3665 (or PS Form 3877 for certified mail).

The Postal Service's firm forms are for three or more pieces; numbered lines, totals, page x
of y, and a diagonal line through the unused rows, as the form asks. Its words are in
mail_phrases.j2.
"""

from __future__ import annotations

import io
from typing import Any

from generator.documents import mailroom
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.mailroom import INCH, PAGE_H, PAGE_W
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.render.templates import Templates

KIND = DocumentKind.FIRM_MAILING_LIST
PER_PAGE = 12
FEWEST = 3  # the firm forms are for three or more pieces


def firm_mailing_pdf(
    mailing: mailroom.Mailing, *, sender: list[str], certified: bool, title: str, words: Any
) -> bytes:
    """The firm mailing list of `mailing`; `words` are the macros of mail_phrases.j2."""
    face = mailroom.font()
    pieces = mailing.pieces
    pages = max(1, -(-len(pieces) // PER_PAGE))
    form = str(words.firm_form(certified)).strip()
    columns = words.certified_columns if certified else words.firm_columns
    out = io.BytesIO()
    pdf = mailroom.canvas(out, form)
    margin = 0.5 * INCH
    for page in range(pages):
        y = PAGE_H - margin
        pdf.setFont(face, 12)
        pdf.drawString(margin, y - 12, form)
        pdf.setFont(face, 8)
        pdf.drawRightString(PAGE_W - margin, y - 12, str(words.firm_page(page + 1, pages)).strip())
        pdf.drawString(margin, y - 26, title)
        for k, line in enumerate(sender):
            pdf.drawString(margin, y - 40 - 10 * k, line)
        pdf.drawRightString(PAGE_W - margin, y - 26, str(words.firm_listed(len(pieces))).strip())
        pdf.drawRightString(PAGE_W - margin, y - 36, str(words.firm_received()).strip())
        top = y - 40 - 10 * len(sender) - 12
        row_h = 0.62 * INCH
        xs = [margin]
        for _, w in columns:
            xs.append(xs[-1] + w * INCH)
        pdf.setFont(face, 8)
        for (label, _), x in zip(columns, xs, strict=False):
            pdf.drawString(x + 3, top - 11, label)
        pdf.line(margin, top, xs[-1], top)
        pdf.line(margin, top - 15, xs[-1], top - 15)
        y0 = top - 15
        chunk = pieces[page * PER_PAGE : (page + 1) * PER_PAGE]
        for row in range(PER_PAGE):
            y_top = y0 - row * row_h
            pdf.line(margin, y_top - row_h, xs[-1], y_top - row_h)
            if row < len(chunk):
                pdf.drawString(xs[0] + 3, y_top - 11, str(page * PER_PAGE + row + 1))
                addressee = xs[2] if certified else xs[1]
                for k, line in enumerate(mailroom.address_block(chunk[row])[:4]):
                    pdf.drawString(addressee + 3, y_top - 11 - 9.5 * k, line[:90])
            elif row == len(chunk):  # a diagonal line through the unused rows, as the form asks
                pdf.line(margin, y_top, xs[-1], y0 - PER_PAGE * row_h)
        for x in xs:
            pdf.line(x, top, x, y0 - PER_PAGE * row_h)
        pdf.drawString(margin, y0 - PER_PAGE * row_h - 16, str(words.firm_foot()).strip())
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The firm mailing list of every piece, when there are enough pieces for the form."""
    mailing = mailroom.pieces(prepared.recipients.recipients)
    if len(mailing.pieces) < FEWEST:
        return Built()
    case = prepared.case
    who = case.mail.sender or case.signer or case.contact
    address = who.address or case.examination.address
    sender = [case.municipality, ", ".join(x for x in (who.name, who.title) if x)]
    sender += [address.one_line()] if address else []
    words = tpl.phrases("mail_phrases.j2")
    title = str(words.firm_title(case.case_number, case.hearings[0].date)).strip()
    data = firm_mailing_pdf(
        mailing,
        sender=sender,
        certified=case.mail.mail_class == "certified",
        title=title,
        words=words,
    )
    return Built((Output(KIND, Format.PDF, "firm_mailing_list.pdf", data),))


DOCUMENT = DocumentType(
    KIND,
    "The firm mailing list (PS Form 3665, or 3877 for certified mail) for three or more pieces.",
    (File("firm_mailing_list.pdf", Format.PDF),),
    ("case", "recipients"),
    mailroom.mails,
    build,
)
