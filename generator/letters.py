"""Mailed letters for thousands of owners, as variable-data printing does it.

Every letter of a mailing says the same thing; only the address, the owner's parcels and the
page numbers differ. So the body is typeset once (WeasyPrint), each recipient's part is drawn
on its own layer (ReportLab, milliseconds a page), and every page shows the shared body as one
Form XObject beneath its own layer (pikepdf). Ten thousand letters take seconds, not the
minutes a page-by-page rendering would.

Page 1 carries the return address and the recipient's address where the windows of a #10
double-window envelope show them (the letter folded in three, top panel forward).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from generator.mailing import INCH, PAGE_H, PAGE_W, Mailing, address_block, fit
from generator.recipients import Recipient

# Positions on the page, in inches from the top-left corner (#10 double-window envelope).
RETURN_AT = (0.6, 0.45, 3.2, 0.8)  # x, y, width, height
ADDRESS_AT = (1.0, 2.35, 3.25, 0.95)
PARCELS_AT = (4.6, 2.35, 2.9, 0.95)  # beside the window, hidden in the envelope
BODY_TOP_IN = 3.5  # the letter text starts below both windows
PAGE_LABEL_Y = 0.45  # from the bottom


@dataclass(frozen=True)
class Letters:
    """A combined PDF of every letter, and how many pages it has."""

    pdf: bytes
    pages: int
    letters: int
    starts: tuple[int, ...] = ()  # the first page of each letter

    def split(self) -> list[bytes]:
        """One PDF per letter, cut from the combined file."""
        import pikepdf

        whole = pikepdf.open(io.BytesIO(self.pdf))
        out = []
        for first, end in zip(self.starts, (*self.starts[1:], self.pages), strict=True):
            one = pikepdf.new()
            one.pages.extend(whole.pages[first:end])
            buffer = io.BytesIO()
            one.save(buffer, compress_streams=True, deterministic_id=True)
            out.append(buffer.getvalue())
        return out


def combine(
    body_pdf: bytes,
    mailing: Mailing,
    *,
    sender: list[str],
    duplex: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Letters:
    """Every recipient's letter: the shared body under each recipient's own layer."""
    import pikepdf  # imported only when letters are made
    from reportlab.pdfgen import canvas

    from generator.mailing import _font

    font = _font()
    body = pikepdf.open(io.BytesIO(body_pdf))
    body_pages = len(body.pages)
    layer = io.BytesIO()
    pdf = canvas.Canvas(layer, pagesize=(PAGE_W, PAGE_H), invariant=True, pageCompression=1)
    under: list[int | None] = []  # for each page: which body page lies beneath it
    starts: list[int] = []
    for n, r in enumerate(mailing.pieces):
        starts.append(len(under))
        overflow = _parcel_lines(r, font) is None
        total = body_pages + (1 if overflow else 0)
        blank = duplex and total % 2 == 1
        for page in range(total):
            if page == 0:
                _box(pdf, font, sender, RETURN_AT, size=8.5)
                _box(pdf, font, address_block(r), ADDRESS_AT, size=10)
                lines = _parcel_lines(r, font)
                if lines is None:  # too many to show beside the window
                    lines = [f"Your parcels ({len(r.parcels)}): see the list on page {total}."]
                _box(pdf, font, lines, PARCELS_AT, size=7.5)
            if page == body_pages:  # the overflow page: the owner's parcels in full
                _overflow(pdf, font, r)
            pdf.setFont(font, 8)
            pdf.drawRightString(
                PAGE_W - 1 * INCH,
                PAGE_LABEL_Y * INCH,
                f"{r.name[:60]} — page {page + 1} of {total}",
            )
            pdf.showPage()
            under.append(page if page < body_pages else None)
        if blank:
            pdf.showPage()
            under.append(None)
        if progress:
            progress(n + 1)
    pdf.save()
    out = pikepdf.open(io.BytesIO(layer.getvalue()))
    shared = [out.copy_foreign(p.as_form_xobject()) for p in body.pages]
    for page, index in zip(out.pages, under, strict=True):
        if index is not None:  # by a fixed name, so the same letters give the same bytes
            if pikepdf.Name.Resources not in page.obj:
                page.obj[pikepdf.Name.Resources] = pikepdf.Dictionary()
            resources = page.obj[pikepdf.Name.Resources]
            if pikepdf.Name.XObject not in resources:
                resources[pikepdf.Name.XObject] = pikepdf.Dictionary()
            resources[pikepdf.Name.XObject][pikepdf.Name(f"/Body{index}")] = shared[index]
            page.contents_add(pikepdf.Stream(out, f"q /Body{index} Do Q".encode()), prepend=True)
    buffer = io.BytesIO()
    out.save(
        buffer,
        compress_streams=True,
        object_stream_mode=pikepdf.ObjectStreamMode.generate,
        deterministic_id=True,
    )
    return Letters(buffer.getvalue(), len(under), len(mailing.pieces), tuple(starts))


def _box(
    pdf: object, font: str, lines: list[str], at: tuple[float, float, float, float], *, size: float
) -> None:
    x, y, w, h = at
    fitted, used, _ = fit(lines, w * INCH, h * INCH)
    used = min(used, size)
    pdf.setFont(font, used)  # type: ignore[attr-defined]
    baseline = PAGE_H - y * INCH - used
    for line in fitted:
        pdf.drawString(x * INCH, baseline, line)  # type: ignore[attr-defined]
        baseline -= used * 1.15


def _parcel_lines(r: Recipient, font: str) -> list[str] | None:
    """The owner's parcels beside the window, or None when they need a page of their own."""
    if not r.parcels:
        return []
    lines = [
        f"Your parcel{'s' if len(r.parcels) > 1 else ''} near the proposal: {', '.join(r.parcels)}"
    ]
    _, _, ok = fit(lines, PARCELS_AT[2] * INCH, PARCELS_AT[3] * INCH)
    return lines if ok else None


def _overflow(pdf: object, font: str, r: Recipient) -> None:
    pdf.setFont(font, 11)  # type: ignore[attr-defined]
    y = PAGE_H - 1 * INCH
    pdf.drawString(1 * INCH, y, f"Parcels of {r.name} near the proposal ({len(r.parcels)})")  # type: ignore[attr-defined]
    pdf.setFont(font, 9)  # type: ignore[attr-defined]
    for k, parcel in enumerate(r.parcels):
        column, row = divmod(k, 60)
        pdf.drawString((1 + 2.2 * column) * INCH, y - 24 - row * 11, parcel)  # type: ignore[attr-defined]


TOKENS = {
    "name": "ZNTOKENNAME",
    "lines": ["ZNTOKENLINES"],
    "last_line": "ZNTOKENLAST",
    "parcels": "ZNTOKENPARCELS",
}


def for_word() -> list[dict[str, object]]:
    """One stand-in recipient: the Word letter is rendered once, then copied per recipient."""
    return [dict(TOKENS)]


def word(rendered: bytes, mailing: Mailing) -> bytes:
    """Every recipient's Word letter from one rendered letter (variable data, as for the PDF)."""
    import re
    import zipfile
    from xml.sax.saxutils import escape

    from generator.mailing import last_line
    from generator.render.docx import normalize

    source = zipfile.ZipFile(io.BytesIO(rendered))
    xml = source.read("word/document.xml").decode("utf-8")
    head, rest = xml.split("<w:body>", 1)
    body, tail = rest.rsplit("<w:sectPr", 1)
    plain = re.sub(
        r"<w:bookmark(Start|End)\b[^>]*/>", "", body
    )  # bookmarks once, in the first letter
    breaks = '</w:t><w:br/><w:t xml:space="preserve">'
    parts = []
    for n, r in enumerate(mailing.pieces):
        values = {
            "ZNTOKENNAME": escape(r.name),
            "ZNTOKENLINES": breaks.join(escape(x) for x in r.lines),
            "ZNTOKENLAST": escape(last_line(r)),
            "ZNTOKENPARCELS": escape(
                f"Your parcel{'s' if len(r.parcels) > 1 else ''} near the proposal: {', '.join(r.parcels)}"
                if r.parcels
                else ""
            ),
        }
        letter = body if n == 0 else plain
        for token, value in values.items():
            letter = letter.replace(token, value)
        # drawing ids must be unique in a document
        letter = re.sub(
            r'(<wp:docPr id=")(\d+)', lambda m, n=n: f"{m[1]}{int(m[2]) + 1000 * n}", letter
        )
        parts.append(letter)
    document = f"{head}<w:body>{''.join(parts)}<w:sectPr{tail}"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            data = (
                document.encode("utf-8")
                if item.filename == "word/document.xml"
                else source.read(item.filename)
            )
            target.writestr(item, data)
    return normalize(out.getvalue())
