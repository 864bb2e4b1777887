"""The insertion order: what the paper's legal desk needs to run each newspaper notice.

With every newspaper notice, a one-page order (PDF) and the same order as an e-mail ready to
send (`.eml`, addressed to the paper's `legal_email`, the copy attached as TXT and DOCX with the
map): the issues the schedule computed, the copy deadline, the classification, the notice's size
in the paper's legal type and the cost its rate card gives, a statute's cap on legal rates where
the pack states one, and whom to bill.

Size: every paragraph of the ad copy is wrapped at the legal column's characters per line, and
each blank line between paragraphs is a line too, as a legal column sets them; column inches
are the lines times the leading, rounded up to the next tenth of an inch. Money is exact
(`Decimal`), each insertion rounded to the cent, half up, then raised to the rate card's minimum.
The e-mail reads no clock and draws no random boundary: the same case gives the same bytes.
"""

from __future__ import annotations

import hashlib
import textwrap
from dataclasses import dataclass
from datetime import date, datetime
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime
from typing import Any

from markupsafe import Markup

from generator import schedule
from generator.agenda import PreparedAgenda
from generator.documents import agenda_notice, newspaper_notice, proof
from generator.documents.base import Built, DocumentType, File, Output
from generator.findings import Finding
from generator.kinds import DocumentKind, Format
from generator.models.newspaper import LegalType, RateCard
from generator.models.pack import Channel, LegalRateCap
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.render import calendar_file, pdf
from generator.render.filters import clock, long_date
from generator.render.templates import Templates

KIND = DocumentKind.INSERTION_ORDER
CENT = Decimal("0.01")
TENTH = Decimal("0.1")
POINTS_PER_INCH = Decimal(72)
_IMAGE_TYPES = {"png": "png", "jpg": "jpeg", "jpeg": "jpeg", "svg": "svg+xml"}


@dataclass(frozen=True)
class Size:
    """How much room the notice takes in the paper's legal column."""

    words: int
    lines: int
    column_inches: Decimal


def measure(text: str, legal: LegalType) -> Size:
    """The size of ad copy `text` set in the legal type `legal`."""
    lines = 0
    for paragraph in text.strip().splitlines():
        wrapped = textwrap.wrap(paragraph, legal.line_chars, break_on_hyphens=False)
        lines += max(1, len(wrapped))
    depth = Decimal(lines) * Decimal(str(legal.leading)) / POINTS_PER_INCH
    return Size(len(text.split()), lines, depth.quantize(TENTH, rounding=ROUND_CEILING))


@dataclass(frozen=True)
class Insertion:
    """One run of the notice and what it costs."""

    day: date
    rate: Decimal
    charge: Decimal
    minimum: bool  # the rate card's minimum charge, not units × rate


@dataclass(frozen=True)
class Estimate:
    """What the rate card charges for the notice's insertions and affidavit."""

    units: Decimal
    per: str  # "line" or "column_inch"
    insertions: tuple[Insertion, ...]
    affidavit_fee: Decimal

    @property
    def total(self) -> Decimal:
        """Every insertion and the affidavit."""
        return sum((i.charge for i in self.insertions), self.affidavit_fee)


def estimate(size: Size, card: RateCard, issues: list[date]) -> Estimate:
    """The cost of running a notice of `size` in `issues` at the rates of `card`."""
    units = Decimal(size.lines) if card.per == "line" else size.column_inches
    runs = []
    for n, day in enumerate(issues):
        rate = card.first_insertion if n == 0 else card.later_insertion
        charge = (units * rate).quantize(CENT, rounding=ROUND_HALF_UP)
        runs.append(
            Insertion(day, rate, max(charge, card.minimum_charge), charge < card.minimum_charge)
        )
    return Estimate(units, card.per, tuple(runs), card.affidavit_fee)


def over_cap(card: RateCard, legal: LegalType, cap: LegalRateCap) -> str | None:
    """How the rate card's first-insertion rate exceeds a cap stated in dollars, if it does."""
    lines_per_inch = POINTS_PER_INCH / Decimal(str(legal.leading))
    rate = card.first_insertion
    per_line = rate if card.per == "line" else rate / lines_per_inch
    per_inch = rate if card.per == "column_inch" else rate * lines_per_inch
    if cap.per_line and per_line > cap.per_line:
        return f"${per_line:.4f} a line is more than the cap of ${cap.per_line} a line"
    if cap.per_column_inch and per_inch > cap.per_column_inch:
        return (
            f"${per_inch:.2f} a column inch is more than the cap of ${cap.per_column_inch}"
            " a column inch"
        )
    return None


def money(amount: Decimal) -> str:
    """`$1,234.50`."""
    return f"${amount:,.2f}"


def _moment(value: date | datetime | None) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        return f"{long_date(value.date())}, {clock(value.time())}"
    return long_date(value)


def _copy_deadline(prepared: Prepared, doc: DocumentPlan) -> date | datetime | None:
    """The earliest day copy is due for the notice's issues, as the schedule computed it."""
    label = schedule.hearing_label(doc.hearing)
    due = [
        d.copy_deadline
        for d in prepared.deadlines
        if d.hearing == label and d.rule in doc.notice_ids and d.copy_deadline
    ]
    return min(due, key=lambda v: v.date() if isinstance(v, datetime) else v, default=None)


def _bill_to(prepared: Prepared) -> tuple[dict[str, Any] | None, str | None]:
    """Whom the paper bills (the case's word over the pack's), and the law that says so."""
    case = prepared.case
    stated = case.newspaper.bill_to if case.newspaper else None
    costs = prepared.pack.publication_costs
    party = stated or (costs.paid_by if costs else None)
    if party is None:
        return None, None
    citation = None if stated else (costs.citation if costs else None)
    if party == "applicant":
        who = case.applicant
        lines = [who.name, *([who.organization] if who.organization else [])]
    else:
        who = case.contact
        lines = [case.municipality, who.name + (f", {who.title}" if who.title else "")]
    if who.address:
        lines += [*who.address.lines, f"{who.address.city}, {who.address.state} {who.address.zip}"]
    if who.email:
        lines.append(who.email)
    return {"party": party, "lines": lines, "citation": citation}, citation


def build(prepared: Prepared, tpl: Templates) -> Built:
    """An insertion order (PDF and e-mail) for each newspaper notice."""
    papers = prepared.plan.of(Channel.NEWSPAPER)
    made = Built()
    for doc in papers:
        made += _one(prepared, tpl, doc, proof.named_after(KIND, doc, papers))
    return made


@dataclass(frozen=True)
class Copy:
    """The notice an order sends: one case's newspaper notice, or an agenda's combined one."""

    name: str  # the order's file name, without extension
    rules: tuple[str, ...]
    citation: str
    text: str  # the ad copy, as the paper sets it
    word: bytes
    copy_names: tuple[str, str]  # the TXT and DOCX attached
    issues: list[date]
    copy_deadline: date | datetime | None
    hearing: str
    cases: str  # "Case No. CD-2027-02"; for an agenda "Case Nos. CD-2027-02, TA-2027-01"
    maps: tuple[tuple[str, bytes], ...]
    affidavit: str | None  # the citation of the law that wants the publication proved
    key: str  # what makes the e-mail's Message-ID unique


def _one(prepared: Prepared, tpl: Templates, doc: DocumentPlan, name: str) -> Built:
    notice = newspaper_notice.context(prepared, tpl, doc)
    the_map = prepared.map
    maps: tuple[tuple[str, bytes], ...] = ()
    if the_map:
        # The raster Word gets where there is one (a paper's system takes a PNG), else the file.
        raster = the_map.name.endswith(".svg") and the_map.raster
        maps = (("map.png", the_map.raster),) if raster else ((the_map.name, the_map.data),)
    affidavit = proof.rule_for(prepared, doc, DocumentKind.AFFIDAVIT_OF_PUBLICATION)
    copy = Copy(
        name=name,
        rules=doc.notice_ids,
        citation=doc.citations,
        text=newspaper_notice.text_copy(tpl, notice),
        word=newspaper_notice.word_copy(prepared, tpl, notice),
        copy_names=(f"{doc.name}.txt", f"{doc.name}.docx"),
        issues=list(notice["publication_dates"]),
        copy_deadline=_copy_deadline(prepared, doc),
        hearing=f"{doc.hearing.body_name}, {long_date(doc.hearing.date)}",
        cases=f"Case No. {prepared.case.case_number}",
        maps=tuple(m for m in maps if m[1]),
        affidavit="; ".join(affidavit.citations) if affidavit else None,
        key=f"{prepared.case_file.id}.{name}",
    )
    return order(prepared, tpl, copy, _bill_to(prepared))


def order(
    prepared: Prepared,
    tpl: Templates,
    copy: Copy,
    billing: tuple[dict[str, Any] | None, str | None],
) -> Built:
    """The order (PDF and e-mail) for `copy`, run in the paper of `prepared`'s case.

    `prepared` gives the paper, its profile, the pack's rate cap and the clerk who sends it;
    `billing` is whom the paper bills and the law that says so (None: nobody says, ORDER003).
    """
    case, cf = prepared.case, prepared.case_file
    rule = copy.rules[0]
    findings: list[Finding] = []
    profile = cf.newspaper_profile
    paper = case.newspaper
    paper_name = (paper.name if paper else None) or (profile.name if profile else "the newspaper")
    legal, card = (profile.legal_type, profile.rate_card) if profile else (None, None)

    at = {"rule": rule, "document": f"{copy.name}.pdf"}

    size = measure(copy.text, legal) if legal else None
    cost = estimate(size, card, copy.issues) if size and card else None
    if cost is None:
        missing = "a newspaper profile" if profile is None else "`legal_type` and `rate_card`"
        findings.append(
            Finding(
                "ORDER001",
                f"the insertion order gives no size or cost estimate: {paper_name} has no"
                f" {missing} (data/newspapers/); ask the legal desk for a quote",
                citation=copy.citation,
                **at,
            )
        )
    cap = prepared.pack.legal_rate_cap
    if cap and card and legal and (why := over_cap(card, legal, cap)):
        findings.append(
            Finding("ORDER002", f"{paper_name}'s rate card: {why}", citation=cap.citation, **at)
        )
    bill, bill_law = billing
    if bill is None:
        findings.append(
            Finding(
                "ORDER003",
                "nothing says who pays the paper: state `publication_costs` in the pack (the"
                " ordinance or fee schedule) or `newspaper.bill_to` in the case",
                **at,
            )
        )
    email = paper.legal_email if paper else None
    if not email:
        findings.append(
            Finding(
                "ORDER004",
                f"{paper_name} has no `legal_email`: the e-mailed order is addressed to nobody",
                **at,
            )
        )
    order = {
        "name": copy.name,
        "paper": paper_name,
        "email": email,
        "classification": card.classification if card else "Legal Notices",
        "municipality": case.municipality,
        "cases": copy.cases,
        "hearing": copy.hearing,
        "citation": copy.citation,
        "insertions": [long_date(d) for d in copy.issues],
        "copy_deadline": _moment(copy.copy_deadline),
        "size": size,
        "legal_type": legal,
        "cost": cost,
        "sample": bool(card and card.sample),
        "rate_source": profile.source if profile else None,
        "cap": cap,
        "bill": bill,
        "bill_citation": bill_law,
        "contact": case.contact,
        "attachments": [*copy.copy_names, f"{copy.name}.pdf", *(m[0] for m in copy.maps)],
        "money": money,
        "affidavit": copy.affidavit,
    }
    context = {"order": order, "stylesheet": Markup(tpl.stylesheet)}  # noqa: S704  # our own file
    page = tpl.render(f"{KIND.value}.html.j2", context)
    order_pdf = pdf.write_pdf(page, {}, tpl.path)
    body = tpl.render_text(f"{KIND.value}.txt.j2", context)
    attachments = [
        (copy.copy_names[0], copy.text.encode(), "text", "plain; charset=utf-8"),
        (
            copy.copy_names[1],
            copy.word,
            "application",
            "vnd.openxmlformats-officedocument.wordprocessingml.document",
        ),
        (f"{copy.name}.pdf", order_pdf, "application", "pdf"),
    ]
    for map_name, data in copy.maps:
        subtype = _IMAGE_TYPES.get(map_name.rsplit(".", 1)[-1].lower(), "octet-stream")
        attachments.append((map_name, data, "image", subtype))
    sent = calendar_file.stamp_for(case.hearings[0].date, case.as_of)
    subject = (
        f"Insertion order: legal notice, {case.municipality}, {copy.cases}"
        f" ({', '.join(d.strftime('%b %-d, %Y') for d in copy.issues) or 'dates to confirm'})"
    )
    message = email_message(
        sender=case.contact.email or "",
        to=email or "",
        subject=subject,
        body=body,
        attachments=attachments,
        sent=sent,
        key=copy.key,
    )
    outputs = (
        Output(KIND, Format.PDF, f"{copy.name}.pdf", order_pdf, copy.rules),
        Output(KIND, Format.EML, f"{copy.name}.eml", message, copy.rules),
    )
    return Built(outputs, tuple(findings))


def build_for_agenda(agenda: PreparedAgenda, _tpl: Templates | None = None) -> Built:
    """One insertion order for an agenda's combined notice: its issues, its copy, every case.

    The paper bills whom every case's law or file says; where the cases disagree, nobody is
    named and ORDER003 says so.
    """
    the_layout, tpl, text, word = agenda_notice.copy_of(agenda)
    first = agenda.items[0].prepared
    proofs = [
        r
        for item in agenda.items
        if (r := proof.rule_for(item.prepared, item.doc, DocumentKind.AFFIDAVIT_OF_PUBLICATION))
    ]
    numbers = [item.case_number for item in agenda.items]
    name = agenda_notice.NAME
    copy = Copy(
        name=KIND.value,
        rules=tuple(dict.fromkeys(i for item in agenda.items for i in item.doc.notice_ids)),
        citation="; ".join(dict.fromkeys(item.doc.citations for item in agenda.items)),
        text=text,
        word=word,
        copy_names=(f"{name}.txt", f"{name}.docx"),
        issues=list(agenda.issues),
        copy_deadline=agenda.copy_deadline,
        hearing=f"{agenda.hearing.body_name}, {long_date(agenda.hearing.date)}",
        cases=("Case No. " if len(numbers) == 1 else "Case Nos. ") + ", ".join(numbers),
        maps=tuple(sorted(the_layout.maps.items())),
        affidavit="; ".join(dict.fromkeys(c for r in proofs for c in r.citations)) or None,
        key=f"{agenda.folder}.{KIND.value}",
    )
    bills = {repr(_bill_to(item.prepared)): _bill_to(item.prepared) for item in agenda.items}
    return order(first, tpl, copy, next(iter(bills.values())) if len(bills) == 1 else (None, None))


def email_message(
    *,
    sender: str,
    to: str,
    subject: str,
    body: str,
    attachments: list[tuple[str, bytes, str, str]],
    sent: datetime,
    key: str,
) -> bytes:
    """A MIME message with fixed Date, Message-ID and boundary: the same input, the same bytes."""
    digest = hashlib.sha256(key.encode() + body.encode())
    for _, data, _, _ in attachments:
        digest.update(data)
    tag = digest.hexdigest()[:24]
    msg = EmailMessage(policy=policy.SMTP)
    if sender:
        msg["From"] = sender
    if to:
        msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(sent)
    msg["Message-ID"] = f"<{tag}.{key}@notices.invalid>"
    msg["X-Unsent"] = "1"  # mail clients open it as a draft to send
    msg.set_content(body)
    for filename, data, maintype, subtype in attachments:
        msg.add_attachment(data, maintype=maintype, subtype=subtype, filename=filename)
    msg.set_boundary(f"=_order_{tag}")
    return msg.as_bytes()


DOCUMENT = DocumentType(
    KIND,
    "The order to the paper's legal desk (PDF and e-mail): issues, copy deadline, size, cost, cap, bill-to.",
    (File("{name}.pdf", Format.PDF), File("{name}.eml", Format.EML)),
    ("case", "plan", "schedule", "map", "newspaper profile"),
    lambda p: bool(p.plan.of(Channel.NEWSPAPER)),
    build,
)
# The same order for an agenda's one combined notice (`notices build --agenda`).
AGENDA_DOCUMENT = DocumentType(
    KIND,
    "The order to the paper's legal desk for an agenda's combined notice (PDF and e-mail).",
    DOCUMENT.files,
    ("case", "plan", "schedule", "map", "newspaper profile"),
    lambda agenda: bool(agenda.items),
    build_for_agenda,
)
