"""The firm mailing list of each mailing, in the layout of PS Form 3665 (or 3877 for certified mail).

Each planned mailing (`letters-planning`, `letters-council`, a transmittal) goes to the post
office on its own day, so each has its own list, named after it, of its own recipients.

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
from generator.models.pack import Channel
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.recipients import Recipient
from generator.render.filters import long_date
from generator.render.templates import Templates

KIND = DocumentKind.FIRM_MAILING_LIST
MAILINGS = (Channel.MAIL, Channel.TRANSMITTAL)  # what goes to the post office
PER_PAGE = 12
LEADING = 9.5 / 8  # of the addressee lines, to their size
FEWEST = 3  # the firm forms are for three or more pieces


def cell(r: Recipient, width: float, height: float) -> tuple[list[str], float]:
    """The addressee's lines in a row of the list, and their size.

    The envelope's block where it fits the row; else name, street and city run on, comma by
    comma; and what even that cannot hold ends in `…` (the envelope is then reported too).
    """
    block = mailroom.address(r, width, height, 8, leading=LEADING, postal=False)
    if block.whole:
        return block.lines, block.size
    one = ", ".join([block.addressee.name, *r.lines, mailroom.last_line(r)])
    lines, size, ok = mailroom.fit([one], width, height * 1.15 / LEADING, 8)
    if not ok:
        lines[-1] = mailroom.one_line(lines[-1] + mailroom.SHORTENED, width, size)[0]
    return lines, size


def firm_mailing_pdf(
    mailing: mailroom.Mailing, *, sender: list[str], certified: bool, title: str, words: Any
) -> bytes:
    """The firm mailing list of `mailing`; `words` are the macros of mail_phrases.j2."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

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
        # A line of its own, set smaller when the hearing's body has a long name.
        line, size = mailroom.one_line(title, PAGE_W - 2 * margin, 8)
        pdf.setFont(face, size)
        pdf.drawString(margin, y - 26, line)
        totals = [str(words.firm_listed(len(pieces))).strip(), str(words.firm_received()).strip()]
        beside = max(stringWidth(t, face, 8) for t in totals) + 12
        for k, line in enumerate(sender):  # left of the totals
            line, size = mailroom.one_line(line, PAGE_W - 2 * margin - beside, 8)
            pdf.setFont(face, size)
            pdf.drawString(margin, y - 40 - 10 * k, line)
        pdf.setFont(face, 8)
        pdf.drawRightString(PAGE_W - margin, y - 40, totals[0])
        pdf.drawRightString(PAGE_W - margin, y - 50, totals[1])
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
                column = 2 if certified else 1
                lines, size = cell(chunk[row], xs[column + 1] - xs[column] - 6, row_h - 5)
                pdf.setFont(face, size)
                for k, line in enumerate(lines):
                    pdf.drawString(xs[column] + 3, y_top - 3 - size * (1 + LEADING * k), line)
                pdf.setFont(face, 8)
            elif row == len(chunk):  # a diagonal line through the unused rows, as the form asks
                pdf.line(margin, y_top, xs[-1], y0 - PER_PAGE * row_h)
        for x in xs:
            pdf.line(x, top, x, y0 - PER_PAGE * row_h)
        pdf.drawString(margin, y0 - PER_PAGE * row_h - 16, str(words.firm_foot()).strip())
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def name_of(doc: DocumentPlan) -> str:
    """The list's file name, after its mailing: `firm_mailing_list-council` for `letters-council`.

    The letters of a case with one mailing are `letters`, so its list keeps the plain name; a
    transmittal mailing is named in full (`firm_mailing_list-transmittal-council`).
    """
    rest = doc.name.removeprefix(doc.kind.value) if doc.channel == Channel.MAIL else f"-{doc.name}"
    return KIND.value + rest


def build(prepared: Prepared, tpl: Templates) -> Built:
    """A firm mailing list for each mailing (a wave of letters or transmittals) of enough pieces."""
    case = prepared.case
    who = case.mail.sender or case.signer or case.contact
    address = who.address or case.examination.address
    sender = [case.municipality, ", ".join(x for x in (who.name, who.title) if x)]
    sender += [address.one_line()] if address else []
    words = tpl.phrases("mail_phrases.j2")
    made = Built()
    for doc in prepared.plan.of(*MAILINGS):
        mailing = mailroom.pieces(prepared.recipients_of(doc))
        if len(mailing.pieces) < FEWEST:
            continue
        hearing = doc.hearing
        title = str(words.firm_title(case.case_number, hearing.body_name, long_date(hearing.date)))
        data = firm_mailing_pdf(
            mailing,
            sender=sender,
            certified=case.mail.mail_class == "certified",
            title=title.strip(),
            words=words,
        )
        made += Built((Output(KIND, Format.PDF, f"{name_of(doc)}.pdf", data),))
    return made


DOCUMENT = DocumentType(
    KIND,
    "The firm mailing list of each mailing (PS Form 3665, or 3877 for certified mail), for three"
    " or more pieces.",
    (File("{name}.pdf", Format.PDF),),
    ("case", "plan", "recipients"),
    mailroom.mails,
    build,
)
