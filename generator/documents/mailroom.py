"""What every piece of mail shares: who can be mailed, the address block, type fitted to a box.

Labels, lists, the firm mailing list and the letters all draw from the same pieces in the same
order, so their counts agree. Text is drawn with ReportLab in DejaVu Sans; a line too long for
its box is set smaller, down to a legible minimum, then wrapped — never clipped silently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from generator.findings import Finding
from generator.models.pack import Channel, NoticeParams
from generator.prepare import Prepared
from generator.recipients import Recipient

INCH = 72.0
PAGE_W, PAGE_H = 8.5 * INCH, 11 * INCH
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
                    "MAIL001",
                    f"{r.name}{' (parcel ' + ', '.join(r.parcels) + ')' if r.parcels else ''}:"
                    " no complete mailing address, no label or list line made — add it by hand",
                    rule=r.rules[0] if r.rules else None,
                    citation="; ".join(r.citations) or None,
                )
            )
    if not ok:
        findings.append(
            Finding("MAIL002", "no recipient to mail: no labels or mailing lists were made")
        )
    return Mailing(ok, findings)


def mails(prepared: Prepared) -> bool:
    """Whether the law requires mailed notice (or transmittals) and there is someone to mail."""
    channels = (Channel.MAIL, Channel.TRANSMITTAL)
    required = any(
        b.params.channel in channels
        for snap in prepared.plan.snapshots.values()
        for b in snap.of(NoticeParams)
    )
    return required and bool(prepared.recipients.recipients)


def last_line(r: Recipient) -> str:
    """`EAST PROVIDENCE RI 02914-1234`: the city line of an address block."""
    zip_code = f"{r.zip5}-{r.zip4}" if r.zip4 else r.zip5
    return f"{r.city} {r.state} {zip_code}"


def address_block(r: Recipient) -> list[str]:
    """The lines of a recipient's address block, name first."""
    return [r.name, *r.lines, last_line(r)]


def font() -> str:
    """The font every mail-room drawing uses, registered with ReportLab once."""
    from reportlab.pdfbase import pdfmetrics  # imported only when drawing
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        path = next((p for p in FONT_FILES if p.is_file()), None)
        if path is None:
            import matplotlib  # ships DejaVu Sans where the system has none

            path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        pdfmetrics.registerFont(TTFont(FONT, str(path)))
    return FONT


def fit(
    lines: list[str], width: float, height: float, largest: float = SIZE
) -> tuple[list[str], float, bool]:
    """Set `lines` in the box: the largest size from `largest` down to 6.5 pt, wrapping as needed."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    face = font()
    size = largest
    while True:
        wrapped: list[str] = []
        for line in lines:
            wrapped += _wrap(line, width, face, size, stringWidth)
        fits_width = all(stringWidth(w, face, size) <= width for w in wrapped)
        fits_height = len(wrapped) * size * 1.15 <= height
        if fits_width and fits_height:
            return wrapped, size, True
        if size <= MIN_SIZE:
            return wrapped, size, False
        size = max(MIN_SIZE, size - 0.5)


def _wrap(
    line: str, width: float, face: str, size: float, measure: Callable[[str, str, float], float]
) -> list[str]:
    words, out, current = line.split(), [], ""
    for word in words:
        trial = f"{current} {word}".strip()
        if current and measure(trial, face, size) > width:
            out.append(current)
            current = word
        else:
            current = trial
    return [*out, current] if current else out


def canvas(buffer: Any, title: str | None = None) -> Any:
    """A letter-size ReportLab canvas that writes the same bytes for the same drawing."""
    from reportlab.pdfgen import canvas as rl

    pdf = rl.Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    if title:
        pdf.setTitle(title)
    return pdf
