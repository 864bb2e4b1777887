"""The mail room's files: Avery 5160 labels, the mail-house list, and the firm mailing list.

Labels are drawn directly with ReportLab at the exact Avery 5160 geometry (30 a sheet,
2.625 × 1 in, 0.1875 in side and 0.5 in top margins, 2.75 in horizontal pitch): a sheet costs
milliseconds, where an HTML layout costs ~165 ms. A name or address too long for a label is
set smaller, down to a legible minimum, then wrapped; what still does not fit is reported by
name, never clipped silently. The firm mailing list follows PS Form 3665 (first-class,
certificate of mailing), or PS Form 3877 when the case sends certified mail.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from pathlib import Path

from generator.plan import Finding
from generator.recipients import Recipient

INCH = 72.0
PAGE_W, PAGE_H = 8.5 * INCH, 11 * INCH
# Avery 5160 / 8160 (legal-domain.md §6)
LABEL_W, LABEL_H = 2.625 * INCH, 1.0 * INCH
LEFT, TOP = 0.1875 * INCH, 0.5 * INCH
PITCH_X, PITCH_Y = 2.75 * INCH, 1.0 * INCH
COLUMNS, ROWS = 3, 10
PAD = 0.1 * INCH
SIZE, MIN_SIZE = 9.0, 6.5  # points: the usual label size, and the smallest still legible
FONT_FILES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)
FONT = "LabelSans"


@dataclass(frozen=True)
class Mailing:
    """The pieces to mail: recipients with a full address; the rest are reported."""

    pieces: list[Recipient]
    findings: list[Finding]


def pieces(recipients: list[Recipient]) -> Mailing:
    """The recipients a letter can be addressed to, and a warning for each that cannot."""
    ok, findings = [], []
    for r in recipients:
        if r.lines and r.city and r.state and r.zip5:
            ok.append(r)
        else:
            findings.append(
                Finding(
                    "warning",
                    "MAIL001",
                    f"{r.name}: no complete mailing address, no label or list line made — add it by hand",
                    r.rules[0] if r.rules else None,
                )
            )
    if not ok:
        findings.append(
            Finding("info", "MAIL002", "no recipient to mail: no labels or mailing lists were made")
        )
    return Mailing(ok, findings)


def last_line(r: Recipient) -> str:
    """`EAST PROVIDENCE RI 02914-1234`: the city line of an address block."""
    zip_code = f"{r.zip5}-{r.zip4}" if r.zip4 else r.zip5
    return f"{r.city} {r.state} {zip_code}"


def address_block(r: Recipient) -> list[str]:
    """The lines of a recipient's address block, name first."""
    return [r.name, *r.lines, last_line(r)]


def mail_house_csv(mailing: Mailing) -> bytes:
    """The list a mail house imports: one row a piece, in mailing order, with a sequence number."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["seq", "name", "address_1", "address_2", "city", "state", "zip", "zip4", "parcels"]
    )
    for n, r in enumerate(mailing.pieces, 1):
        lines = [*r.lines, "", ""]
        writer.writerow(
            [
                n,
                r.name,
                lines[0],
                " / ".join(r.lines[1:]),
                r.city,
                r.state,
                r.zip5,
                r.zip4,
                "; ".join(r.parcels),
            ]
        )
    return out.getvalue().encode("utf-8")


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics  # imported only when drawing
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        path = next((p for p in FONT_FILES if p.is_file()), None)
        if path is None:
            import matplotlib  # ships DejaVu Sans where the system has none

            path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        pdfmetrics.registerFont(TTFont(FONT, str(path)))
    return FONT


def fit(lines: list[str], width: float, height: float) -> tuple[list[str], float, bool]:
    """Set `lines` in the box: the largest size from 9 pt down to 6.5 pt, wrapping when needed."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    font = _font()
    size = SIZE
    while True:
        wrapped: list[str] = []
        for line in lines:
            wrapped += _wrap(line, width, font, size, stringWidth)
        fits_width = all(stringWidth(w, font, size) <= width for w in wrapped)
        fits_height = len(wrapped) * size * 1.15 <= height
        if fits_width and fits_height:
            return wrapped, size, True
        if size <= MIN_SIZE:
            return wrapped, size, False
        size = max(MIN_SIZE, size - 0.5)


def _wrap(line: str, width: float, font: str, size: float, measure: object) -> list[str]:
    words, out, current = line.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and measure(trial, font, size) > width:  # type: ignore[operator]
            out.append(current)
            current = word
        else:
            current = trial
    return [*out, current] if current else out


def label_origin(index: int) -> tuple[float, float]:
    """The top-left corner (points, from the page's top-left) of label `index` on its sheet."""
    k = index % (COLUMNS * ROWS)
    row, col = divmod(k, COLUMNS)
    return LEFT + col * PITCH_X, TOP + row * PITCH_Y


def labels_pdf(mailing: Mailing) -> tuple[bytes, list[Finding]]:
    """Avery 5160 sheets, one label a piece; a label that cannot hold its address is reported."""
    from reportlab.pdfgen import canvas

    font = _font()
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    pdf.setTitle("Mailing labels (Avery 5160)")
    findings = []
    for i, r in enumerate(mailing.pieces):
        if i and i % (COLUMNS * ROWS) == 0:
            pdf.showPage()
        x, top = label_origin(i)
        lines, size, ok = fit(address_block(r), LABEL_W - 2 * PAD, LABEL_H - 2 * PAD)
        if not ok:
            findings.append(
                Finding(
                    "warning",
                    "MAIL003",
                    f"{r.name}: the address does not fit a label even at {MIN_SIZE} pt; check label {i + 1} by hand",
                )
            )
        leading = size * 1.15
        y = PAGE_H - top - PAD - size  # first baseline
        pdf.setFont(font, size)
        for line in lines:
            pdf.drawString(x + PAD, y, line)
            y -= leading
    if mailing.pieces:
        pdf.showPage()
    pdf.save()
    return out.getvalue(), findings


def firm_mailing_pdf(mailing: Mailing, *, sender: list[str], certified: bool, title: str) -> bytes:
    """The firm mailing list in the layout of PS Form 3665 (or PS Form 3877 for certified mail)."""
    from reportlab.pdfgen import canvas

    font = _font()
    per_page = 12
    pages = max(1, -(-len(mailing.pieces) // per_page))
    form = (
        "PS Form 3877 — Firm Mailing Book for Accountable Mail"
        if certified
        else "PS Form 3665 — Certificate of Mailing, Firm"
    )
    out = io.BytesIO()
    pdf = canvas.Canvas(out, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    pdf.setTitle(form)
    margin = 0.5 * INCH
    for page in range(pages):
        y = PAGE_H - margin
        pdf.setFont(font, 12)
        pdf.drawString(margin, y - 12, form)
        pdf.setFont(font, 8)
        pdf.drawRightString(PAGE_W - margin, y - 12, f"Page {page + 1} of {pages}")
        pdf.drawString(margin, y - 26, title)
        for k, line in enumerate(sender):
            pdf.drawString(margin, y - 40 - 10 * k, line)
        pdf.drawRightString(
            PAGE_W - margin,
            y - 26,
            f"Total number of pieces listed by sender: {len(mailing.pieces)}",
        )
        pdf.drawRightString(
            PAGE_W - margin, y - 36, "Total number of pieces received at post office: ______"
        )
        top = y - 40 - 10 * len(sender) - 12
        columns = [
            ("No.", 0.35),
            ("Addressee (name, street, city, state, ZIP)", 4.6),
            ("Postage", 0.8),
            ("Fee", 0.8),
        ]
        if certified:
            columns = [
                ("No.", 0.35),
                ("Article number", 1.3),
                ("Addressee", 3.5),
                ("Postage", 0.6),
                ("Fee", 0.6),
            ]
        row_h = 0.62 * INCH
        xs = [margin]
        for _, w in columns:
            xs.append(xs[-1] + w * INCH)
        pdf.setFont(font, 8)
        for (label, _), x in zip(columns, xs, strict=False):
            pdf.drawString(x + 3, top - 11, label)
        pdf.line(margin, top, xs[-1], top)
        pdf.line(margin, top - 15, xs[-1], top - 15)
        y0 = top - 15
        chunk = mailing.pieces[page * per_page : (page + 1) * per_page]
        for row in range(per_page):
            y_top = y0 - row * row_h
            pdf.line(margin, y_top - row_h, xs[-1], y_top - row_h)
            if row < len(chunk):
                r = chunk[row]
                pdf.drawString(xs[0] + 3, y_top - 11, str(page * per_page + row + 1))
                addressee = xs[2] if certified else xs[1]
                for k, line in enumerate(address_block(r)[:4]):
                    pdf.drawString(addressee + 3, y_top - 11 - 9.5 * k, line[:90])
            elif row == len(chunk):  # a diagonal line through the unused rows, as the form asks
                pdf.line(margin, y_top, xs[-1], y0 - per_page * row_h)
        for x in xs:
            pdf.line(x, top, x, y0 - per_page * row_h)
        foot = y0 - per_page * row_h - 16
        pdf.drawString(
            margin,
            foot,
            "Postmark and date of receipt: ____________________    Postmaster (name of receiving employee): ____________________",
        )
        pdf.showPage()
    pdf.save()
    return out.getvalue()
