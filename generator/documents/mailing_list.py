"""The list a mail house imports: one row a piece, in mailing order, with a sequence number.

Recipients the law lets be sent the notice by e-mail follow the pieces with no sequence number,
`delivery` `email` and their e-mail address: they are on the list, but nothing is mailed to them.
"""

from __future__ import annotations

from generator import csvfile
from generator.documents import mailroom
from generator.documents.base import Built, DocumentType, File, Output
from generator.kinds import DocumentKind, Format
from generator.prepare import Prepared
from generator.recipients import ADDRESS_COLUMNS
from generator.render.templates import Templates

KIND = DocumentKind.MAILING_LIST
COLUMNS = ["seq", "name", *ADDRESS_COLUMNS, "parcels", "group", "delivery", "email"]


def mail_house_csv(mailing: mailroom.Mailing) -> bytes:
    """mailing_list.csv."""
    numbered = [(str(n), r) for n, r in enumerate(mailing.pieces, 1)]
    return csvfile.write(
        COLUMNS,
        (
            [n, r.name, *r.address_row().values(), "; ".join(r.parcels), "; ".join(r.groups), r.delivery, r.email]
            for n, r in [*numbered, *(("", r) for r in mailing.emailed)]
        ),
    )  # fmt: skip


def build(prepared: Prepared, tpl: Templates) -> Built:
    """The mail-house list of every piece."""
    mailing = mailroom.pieces(prepared.recipients.recipients)
    if not mailing.pieces and not mailing.emailed:
        return Built()
    return Built((Output(KIND, Format.CSV, "mailing_list.csv", mail_house_csv(mailing)),))


DOCUMENT = DocumentType(
    KIND,
    "The mail house's list: one row a piece, in mailing order.",
    (File("mailing_list.csv", Format.CSV),),
    ("recipients",),
    mailroom.mails,
    build,
)
