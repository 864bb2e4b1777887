"""What every piece of mail shares: who can be mailed, the address block, type fitted to a box.

Labels, lists, the firm mailing list and the letters all draw from the same pieces in the same
order, so their counts agree. Text is drawn with ReportLab in DejaVu Sans; a line too long for
its box is wrapped and set smaller, down to a legible minimum — never clipped silently, never
run past its box.

An address block keeps to what the Postal Service's readers take (USPS Publication 28, Postal
Addressing Standards): "The Postal Service and commercial MLOCR equipment can read a maximum of
40 characters per line within a maximum of 8 separate words per line. If either parameter is
exceeded, the MLOCR ignores the entire line" (§ 35, pe.usps.com/text/pub28/28c3_005.htm). The
name, the delivery address line and the city, state and ZIP line are the block's last three
lines and carry its distribution; the name "should be printed on a single line … If necessary it
may be wrapped down" (§ 343.1, pe.usps.com/text/pub28/pub28c3_015.htm); and where a name must be
made shorter, § 35 itself shortens it (abbreviations, words removed). So every line of a window
or label block is at most 40 characters and 8 words, the name takes at most NAME_LINES of them
and is shortened (`…`) beyond, and the street and city lines are printed whole or the piece is
reported, never silently cut.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.findings import Finding
from generator.models.pack import Channel, NoticeParams
from generator.prepare import Prepared
from generator.recipients import Recipient

INCH = 72.0
PAGE_W, PAGE_H = 8.5 * INCH, 11 * INCH
SIZE, MIN_SIZE = 9.0, 6.5  # points: the usual label size, and the smallest still legible
LINE_CHARS, LINE_WORDS = 40, 8  # the most an address line may hold (Publication 28 § 35)
NAME_LINES = 3  # the name wrapped down (§ 343.1), below it two street lines and the city line
SHORTENED = "\u2026"  # how a shortened name ends: a horizontal ellipsis
FONT_FILES = (
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    Path("/usr/share/fonts/TTF/DejaVuSans.ttf"),
)
FONT = "LabelSans"


@dataclass(frozen=True)
class Mailing:
    """The pieces to mail: recipients with a full address; the rest are reported.

    `emailed`: the recipients whose group the law lets be sent the notice by e-mail. They are
    no piece of mail (no label, no firm-list line); lists and proofs show them as e-mailed.
    """

    pieces: list[Recipient]
    findings: list[Finding]
    emailed: list[Recipient] = field(default_factory=list)


def pieces(recipients: list[Recipient]) -> Mailing:
    """The recipients a letter can be addressed to, and a warning for each that cannot."""
    ok, findings, emailed = [], [], []
    for r in recipients:
        if r.delivery == "email":
            emailed.append(r)  # a missing e-mail address is already RCPT008
        elif r.mailable:
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
    if not ok and not emailed:
        findings.append(
            Finding("MAIL002", "no recipient to mail: no labels or mailing lists were made")
        )
    return Mailing(ok, findings, emailed)


def shortened(recipients: list[Recipient]) -> list[Finding]:
    """A warning for each recipient whose name the address block prints shortened.

    A warning, not an error: the street and city lines that carry the delivery point are
    printed whole, and the Postal Service's own guidelines shorten a name that exceeds the line
    (Publication 28 § 35). The full name stays on recipients.csv, mailing_list.csv and the
    proof's list of persons mailed.
    """
    return [
        Finding(
            "MAIL005",
            f"{described(r)}: the name has {len(r.name):,} characters, more than"
            f" {NAME_LINES} address lines of {LINE_CHARS} hold; envelope window, label and firm"
            f" list print its first {len(addressee(r).name) - 1} characters and “{SHORTENED}”. The full"
            " name is on recipients.csv and the list of persons mailed; check the record",
            rule=r.rules[0] if r.rules else None,
            citation="; ".join(r.citations) or None,
        )
        for r in recipients
        if addressee(r).shortened
    ]


def described(r: Recipient) -> str:
    """A recipient as a finding names them: the name (a long one's first line) and parcels."""
    name = _first(r.name) if addressee(r).shortened else r.name
    parcels = ", ".join(r.parcels[:3]) + (
        f" and {len(r.parcels) - 3} more" if len(r.parcels) > 3 else ""
    )
    owns = f" (parcel{'s' if len(r.parcels) > 1 else ''} {parcels})" if r.parcels else ""
    return f"{name}{owns}"


def _first(name: str) -> str:
    """The first postal line of a long name, and `…`."""
    lines = wrap(name, _postal, 1) or [("", 0)]
    return lines[0][0] + SHORTENED


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
    """`EAST PROVIDENCE RI 02914-1234` (abroad, the country): an address block's last line."""
    return r.last_line


@dataclass(frozen=True)
class Addressee:
    """The name an address block prints: the records' name, or its beginning and `…`."""

    name: str
    shortened: bool


def _postal(line: str) -> bool:
    return len(line) <= LINE_CHARS and len(line.split()) <= LINE_WORDS


def _postal_lines(text: str) -> list[tuple[str, int]]:
    return wrap(text, _postal, NAME_LINES + 1) or []


def addressee(r: Recipient) -> Addressee:
    """The name as an address block prints it: whole within NAME_LINES postal lines, else cut."""
    if len(_postal_lines(r.name)) <= NAME_LINES:
        return Addressee(r.name, False)
    # The lines that fit, then a word or a letter less until the ellipsis fits too.
    cut = r.name[: _postal_lines(r.name)[NAME_LINES - 1][1]]
    while cut and len(_postal_lines(cut + SHORTENED)) > NAME_LINES:
        words = cut.rsplit(None, 1)
        cut = words[0] if len(words) > 1 and len(words[1]) < LINE_CHARS else cut[:-1]
    return Addressee(cut.rstrip() + SHORTENED, True)


@dataclass(frozen=True)
class Block:
    """An address block set in a box: its lines as drawn, their size, and whether it is whole.

    `whole` is false when a street or city line had to be left out or cut: the piece is then
    not addressed as the records give it.
    """

    lines: list[str]
    size: float
    whole: bool
    addressee: Addressee


def address(
    r: Recipient,
    width: float,
    height: float,
    largest: float = SIZE,
    *,
    leading: float = 1.15,
    postal: bool = True,
) -> Block:
    """`r`'s address block in a box (points), wrapped and set as large as fits, down to MIN_SIZE.

    With `postal`, every line keeps to the Publication 28 limits (a window or a label, which
    the Postal Service reads). Where even MIN_SIZE does not hold it, the bottom lines are kept -
    the delivery address line and the city, state and ZIP line (§ 343.1) - under as much of the
    name as there is room for, and the block is not `whole`.
    """
    name = addressee(r)
    parts = [name.name, *r.lines, last_line(r)]
    lines, size, room, fits = _set(parts, width, height, largest, leading, postal=postal)
    if lines is not None and len(lines) <= room:
        return Block(lines, size, True, name)
    # Too much for the box: the last lines, under as much of the name as one line holds.
    rest = [text for part in parts[1:] for text, _ in wrap(part, fits) or []]
    first, *more = [text for text, _ in wrap(name.name, fits, 2) or []] or [""]
    if more:
        first = first.removesuffix(SHORTENED)
        while first and not fits(first + SHORTENED):
            first = first[:-1]
        first = first.rstrip() + SHORTENED
    return Block([first, *rest[-max(room - 1, 1) :]], size, False, name)


def _any(word: str) -> bool:
    return True


def _never(word: str) -> bool:
    return False


def _too_long(word: str) -> bool:
    return len(word) > LINE_CHARS


def fit(
    lines: list[str], width: float, height: float, largest: float = SIZE
) -> tuple[list[str], float, bool]:
    """Set `lines` in the box: the largest size from `largest` down to 6.5 pt, wrapping as needed.

    A word wider than the box is broken where the line is full. False when even the smallest
    size does not hold them all in the box's height.
    """
    wrapped, size, room, _ = _set(lines, width, height, largest, 1.15, postal=False)
    if wrapped is not None and len(wrapped) <= room:
        return wrapped, size, True
    return (wrapped or [])[: max(room, 1)], size, False


def _set(
    parts: list[str], width: float, height: float, largest: float, leading: float, *, postal: bool
) -> tuple[list[str] | None, float, int, Callable[[str], bool]]:
    """Set `parts` in the box as large as they fit, from `largest` down to MIN_SIZE.

    Returns the wrapped lines (None, or more than `room` lines, when even MIN_SIZE does not hold
    them), the size, the lines the box holds at that size, and the test a line passed there.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    face = font()
    size = largest
    while True:

        def fits(line: str, size: float = size) -> bool:
            return stringWidth(line, face, size) <= width and (not postal or _postal(line))

        room = int(height / (size * leading) + 1e-9)
        # A word is broken to fit the width only at the least size: a smaller size comes first.
        breaks = _any if size <= MIN_SIZE else _too_long if postal else _never
        lines: list[str] | None = []
        for part in parts:
            wrapped = wrap(part, fits, room + 1, breaks=breaks)
            if wrapped is None or lines is None:
                lines = None
                break
            lines += [text for text, _ in wrapped]
        if (lines is not None and len(lines) <= room) or size <= MIN_SIZE:
            return lines, size, room, fits
        size = max(MIN_SIZE, size - 0.5)


def one_line(text: str, width: float, largest: float = SIZE) -> tuple[str, float]:
    """`text` on one line of `width`: set smaller down to MIN_SIZE, then cut short with `…`."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    face = font()
    size = largest
    while stringWidth(text, face, size) > width and size > MIN_SIZE:
        size = max(MIN_SIZE, size - 0.5)
    if stringWidth(text, face, size) <= width:
        return text, size
    keep = _longest(text, lambda s: stringWidth(s + SHORTENED, face, size) <= width)
    return text[:keep].rstrip() + SHORTENED, size


def wrap(
    text: str,
    fits: Callable[[str], bool],
    most: int | None = None,
    *,
    breaks: Callable[[str], bool] = _any,
) -> list[tuple[str, int]] | None:
    """`text` in lines that each `fits`, each with the offset in `text` where it ends.

    Lines break between words, and inside a word only where one word alone does not fit and
    `breaks` allows it (else None: the caller tries a smaller size first). Stops after `most`
    lines (a 5,000-character name needs no more than the box can show).
    """
    if most is None or most > 0:
        # Most address lines fit whole: one measurement instead of one a word. Exact, since
        # whatever a line fits, every beginning of it fits too.
        whole = " ".join(text.split())
        if whole and fits(whole):
            return [(whole, len(text.rstrip()))]
    out: list[tuple[str, int]] = []
    line, end = "", 0
    for match in re.finditer(r"\S+", text):
        if most is not None and len(out) >= most:
            return out[:most]
        word, start = match.group(), match.start()
        trial = f"{line} {word}" if line else word
        if fits(trial):
            line, end = trial, match.end()
            continue
        if line:
            out.append((line, end))
        if not fits(word) and not breaks(word):
            return None
        while not fits(word) and len(word) > 1 and (most is None or len(out) < most):
            cut = _longest(word, fits)
            out.append((word[:cut], start + cut))
            word, start = word[cut:], start + cut
        line, end = word, match.end()
    if line:
        out.append((line, end))
    return out if most is None else out[:most]


def _longest(word: str, fits: Callable[[str], bool]) -> int:
    """How many of `word`'s first characters fit (at least one)."""
    low, high = 1, len(word)
    while low < high:
        middle = (low + high + 1) // 2
        if fits(word[:middle]):
            low = middle
        else:
            high = middle - 1
    return low


def font() -> str:
    """The font every mail-room drawing uses, registered with ReportLab once."""
    global _registered
    if _registered:  # asked for before every line drawn
        return FONT
    from reportlab.pdfbase import pdfmetrics  # imported only when drawing
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        path = next((p for p in FONT_FILES if p.is_file()), None)
        if path is None:
            import matplotlib  # ships DejaVu Sans where the system has none

            path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
        pdfmetrics.registerFont(TTFont(FONT, str(path)))
    _registered = True
    return FONT


_registered = False


def canvas(buffer: Any, title: str | None = None) -> Any:
    """A letter-size ReportLab canvas that writes the same bytes for the same drawing."""
    from reportlab.pdfgen import canvas as rl

    pdf = rl.Canvas(buffer, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    if title:
        pdf.setTitle(title)
    return pdf
