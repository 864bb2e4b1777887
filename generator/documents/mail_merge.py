"""Mailed letters for thousands of recipients, as variable-data printing does it.

Every letter of a mailing says the same thing; only the greeting, the address, the owner's
parcels and the page numbers differ. So the body is typeset once per greeting (WeasyPrint; all
owners share one) and copied into the letters PDF once, as Form XObjects (pikepdf); then each
page is written as it is made (generator/render/pdf_stream.py): its own few lines drawn straight
into a content stream, its shared body painted beneath them. Ten thousand letters take seconds,
not the minutes a page-by-page rendering would, and no step holds every page.

Page 1 carries the return address and the recipient's address where the windows of a #10
double-window envelope show them (the letter folded in three, top panel forward).
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from generator.documents import mailroom
from generator.documents.base import Built, DocumentType, File, Output
from generator.documents.mailroom import INCH, PAGE_H, PAGE_W
from generator.errors import UserError
from generator.findings import Finding
from generator.kinds import DocumentKind, Format
from generator.models.languages import Language
from generator.models.pack import Channel
from generator.plan import DocumentPlan
from generator.prepare import Prepared
from generator.recipients import Recipient
from generator.render import context as ctx
from generator.render import docx, pdf, pdf_stream
from generator.render.filters import long_date
from generator.render.languages import localize
from generator.render.templates import Templates

# Where a letter folded in thirds shows through a #10 double-window envelope, in inches from the
# page's top-left corner (x, y, width, height). The address window shows about 0.9-5.3 in from
# the left and 2.0-3.1 in from the top, whichever way the sheet settles; USPS asks for 1/8 in
# of clear space between the address and every edge of the window, and nothing else in it.
ADDRESS_AT = (1.125, 2.15, 4.0, 0.8)  # inside 1.025-5.175 x 2.125-2.975 in
RETURN_AT = (1.0, 0.55, 3.0, 0.7)  # the upper-left (return address) window
PARCELS_AT = (5.55, 2.15, 1.95, 0.8)  # beside the window, right of anything it can show
WINDOW_SIZE = 10.0  # points: the address in the window, as large as it fits up to this
BODY_TOP_IN = 3.3  # the letter's text starts below the address window
PAGE_LABEL_Y = 0.45  # from the bottom
# Counts the letters made, for a progress counter on the terminal (set by the caller).
PROGRESS: ContextVar[Callable[[int], None] | None] = ContextVar("letters_progress", default=None)


@dataclass(frozen=True)
class Letters:
    """A combined PDF of every letter, and how many pages it has."""

    pdf: bytes
    pages: int
    letters: int
    starts: tuple[int, ...] = ()  # the first page of each letter
    cut: tuple[int, ...] = ()  # the letters whose address the window cannot show whole

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


@dataclass(frozen=True)
class Greeter:
    """How each letter of one mailing greets its recipient, and the words drawn over the body."""

    letter: Any  # the macros of letter_phrases.j2
    mail: Any  # the macros of mail_phrases.j2
    transmittal: bool
    citations: str
    spanish: Any = None  # the macros of es/letter_phrases.j2, when the letters are in Spanish too

    def __call__(self, r: Recipient) -> tuple[str, ...]:
        """The salutation and the reason for writing to `r` (then the same in Spanish).

        The reason cites the rules under which `r` is notified (its groups'), not every rule the
        letter serves: a school district notified under one subsection is not told of another.
        """
        citations = "; ".join(r.citations) or self.citations
        return tuple(
            said
            for words in (self.letter, self.spanish)
            if words is not None
            for said in (
                str(words.salutation(r)).strip(),
                " ".join(str(words.reason(r, self.transmittal, citations)).split()),
            )
        )


def document(kind: DocumentKind, channel: Channel, summary: str) -> DocumentType:
    """The declaration of a mail-merged kind (letters, transmittals): the documents of `channel`."""
    return DocumentType(
        kind,
        summary,
        (
            File("{name}.pdf", Format.PDF, kind),
            File("{name}.docx", Format.DOCX, kind),
            File("{name}/{n}.pdf", Format.PDF),
        ),
        ("case", "plan", "schedule", "recipients", "map"),
        lambda p: bool(p.plan.of(channel)) and bool(p.recipients.recipients),
        lambda p, tpl: mail(p, tpl, p.plan.of(channel), kind),
    )


def mail(prepared: Prepared, tpl: Templates, docs: list[DocumentPlan], kind: DocumentKind) -> Built:
    """The letters (or transmittals) of each planned document: one combined PDF and DOCX each."""
    case = prepared.case
    _check_sender(prepared)
    made = Built()
    for doc in docs:
        mailing = mailroom.pieces(prepared.recipients_of(doc))
        # An e-mailed recipient with a postal address still gets its letter, to send as e-mail.
        pieces = mailing.pieces + [r for r in mailing.emailed if r.mailable]
        if not pieces:
            continue
        rules = tuple(sorted(doc.notice_ids))
        greet = Greeter(
            tpl.phrases(
                "letter_phrases.j2",
                municipality=case.municipality,
                the_municipality=case.the_municipality,
                amendment=case.amendment,
                terms=prepared.plan.pack.terms,
            ),
            tpl.phrases("mail_phrases.j2"),
            kind == DocumentKind.TRANSMITTAL,
            doc.citations,
            tpl.phrases_in(
                Language.ES,
                "letter_phrases.j2",
                municipality=localize(case.municipality, tpl.speech.spanish),
                amendment=case.amendment,
                terms={
                    k: tpl.speech.spanish.get(v, v) for k, v in prepared.plan.pack.terms.items()
                },
            )
            if Language.ES in tpl.speech.languages
            else None,
        )
        date = long_date(doc.dated or doc.hearing.date)  # the plan dates every document
        contexts = {
            greeting: _context(prepared, tpl, doc, date, greeting)
            for greeting in dict.fromkeys(map(greet, pieces))
        }
        the_map = prepared.map
        files = {the_map.name: the_map.data} if the_map else {}
        bodies = {
            greeting: pdf.write_pdf(tpl.render_notice("letter.html.j2", context), files, tpl.path)
            for greeting, context in contexts.items()
        }
        combined = combine(
            bodies, pieces, greet, sender=_sender(prepared), duplex=case.options.duplex_letters
        )
        outputs = [Output(kind, Format.PDF, f"{doc.name}.pdf", combined.pdf, rules)]
        if case.options.letter_files:  # one file per letter as well, on request
            for n, (one, r) in enumerate(zip(combined.split(), pieces, strict=True), 1):
                slug = re.sub(r"[^a-z0-9]+", "-", r.name.lower()).strip("-")[:40]
                outputs.append(
                    Output(kind, Format.PDF, f"{doc.name}/{n:05d}-{slug}.pdf", one, rules)
                )
        rendered = {
            greeting: _word_letter(prepared, tpl, context) for greeting, context in contexts.items()
        }
        word = combine_word(rendered, pieces, greet)
        outputs.append(Output(kind, Format.DOCX, f"{doc.name}.docx", word, rules))
        cut = [
            Finding(
                "MAIL003",
                f"{mailroom.described(pieces[n])}: the address does not fit the envelope window"
                f" even at {mailroom.MIN_SIZE} pt; letter {n + 1} shows only its last lines —"
                " address this piece by hand",
                rule=pieces[n].rules[0] if pieces[n].rules else None,
                citation="; ".join(pieces[n].citations) or None,
                document=f"{doc.name}.pdf",
            )
            for n in combined.cut
        ]
        made += Built(tuple(outputs), tuple(cut))
    return made


def _context(
    prepared: Prepared, tpl: Templates, doc: DocumentPlan, date: str, greeting: tuple[str, ...]
) -> dict[str, Any]:
    context = ctx.build(prepared.plan, doc, tpl.stylesheet)
    context["letter"] = {
        "date": date,
        "salutation": greeting[0],
        "reason": greeting[1],
        "body_top_in": BODY_TOP_IN,
        "sender": _sender(prepared),
    }
    if len(greeting) > 2:  # the Spanish letter's own greeting (languages.spanish_context)
        context["letter"]["spanish"] = {"salutation": greeting[2], "reason": greeting[3]}
    return context


def _sender(prepared: Prepared) -> list[str]:
    """The return address: the municipality, the signer, and where replies go."""
    return [line for line, _ in _sender_fields(prepared)]


def _sender_fields(prepared: Prepared) -> list[tuple[str, tuple[str, ...]]]:
    """The return address's lines, each with the field of the case it comes from."""
    case = prepared.case
    who, whose = (case.signer, "signer") if case.signer else (case.contact, "contact")
    if case.mail.sender and case.mail.sender.address:
        address, where = case.mail.sender.address, ("mail", "sender", "address")
    elif who.address:
        address, where = who.address, (whose, "address")
    else:
        address, where = case.examination.address, ("examination", "address")
    sender = [
        (case.municipality, ("municipality",)),
        (", ".join(x for x in (who.name, who.title) if x), (whose,)),
    ]
    if address:
        sender += [(line, (*where, "lines")) for line in address.lines]
        sender += [(f"{address.city} {address.state} {address.zip}", (*where, "city"))]
    return sender


def _check_sender(prepared: Prepared) -> None:
    """The return address fits its window, or the case is told which field is too long."""
    sender = _sender_fields(prepared)
    _, _, ok = mailroom.fit([line for line, _ in sender], RETURN_AT[2] * INCH, RETURN_AT[3] * INCH)
    if ok:
        return
    line, where = max(sender, key=lambda lf: len(lf[0]))
    raise UserError(
        prepared.case_file.problem(
            where,
            f"the return address ({len(sender)} lines, the longest {len(line):,} characters)"
            f" does not fit the envelope's return window ({RETURN_AT[2]:g} × {RETURN_AT[3]:g} in)"
            f" even at {mailroom.MIN_SIZE} pt: shorten it",
        )
    )


def combine(
    bodies: dict[tuple[str, ...], bytes],
    pieces: list[Recipient],
    greet: Greeter,
    *,
    sender: list[str],
    duplex: bool = False,
) -> Letters:
    """Every recipient's letter: the body of their greeting under each recipient's own layer.

    Written as made (generator/render/pdf_stream.py): each body page once, as a Form XObject
    with its own paint stream (`q /Body0 Do Q`); then each page's dictionary and its own layer,
    drawn straight into a content stream; the font subset last. No step holds every page.
    """
    import pikepdf  # imported only when letters are made
    from reportlab.pdfbase.pdfmetrics import getFont, stringWidth

    face = mailroom.font()
    progress = PROGRESS.get()
    keys = list(bodies)
    opened = [pikepdf.open(io.BytesIO(bodies[key])) for key in keys]
    holder, forms = pdf_stream.copy_forms([list(doc.pages) for doc in opened])
    buffer = io.BytesIO()
    writer = pdf_stream.Writer(buffer, reserved=len(holder.objects))
    catalog, tree = pdf_stream.write_copied(writer, holder)
    del holder
    for doc in opened:
        doc.close()
    font = pdf_stream.Font(getFont(face).face)
    font_ref = writer.reserve()
    fonts = b"/Font << %s %d 0 R >>" % (pdf_stream.FONT_NAME, font_ref)
    plain = writer.add_packed(b"<< %s >>" % fonts)  # the resources of a page with no body
    beneath: dict[tuple[int, int], tuple[int, int]] = {}  # body page: (its resources, its paint)
    for (b, i), form in sorted(forms.items()):
        # By a fixed name, so the same letters give the same bytes.
        name = f"/Body{i}" if b == 0 else f"/Body{b}x{i}"
        resources = writer.add_packed(
            b"<< %s /XObject << %s %d 0 R >> >>" % (fonts, name.encode(), form)
        )
        paint = writer.add(pdf_stream.stream_object(f"q {name} Do Q".encode(), flate=False))
        beneath[b, i] = (resources, paint)
    box = b"[0 0 %s %s]" % (pdf_stream.number(PAGE_W), pdf_stream.number(PAGE_H))
    kids: list[int] = []

    def finish(page: pdf_stream.Page, under: tuple[int, int] | None) -> None:
        own = writer.add(pdf_stream.stream_object(page.content()))
        if under is None:
            resources, contents = plain, b"%d 0 R" % own
        else:
            resources, paint = beneath[under]
            contents = b"[%d 0 R %d 0 R]" % (paint, own)
        kids.append(
            writer.add_packed(
                b"<< /Type /Page /Parent %d 0 R /MediaBox %s /Resources %d 0 R /Contents %s >>"
                % (tree, box, resources, contents)
            )
        )

    # The return address is the same on every letter: fitted to its window once.
    returned, returned_size, _ = mailroom.fit(sender, RETURN_AT[2] * INCH, RETURN_AT[3] * INCH, 8.5)
    starts: list[int] = []
    cut: list[int] = []
    for n, r in enumerate(pieces):
        body = keys.index(greet(r))
        body_pages = len(opened[body].pages)
        starts.append(len(kids))
        lines = _parcel_lines(r, greet.mail)
        overflow = [] if lines is not None else _overflow_pages(r, greet.mail)
        total = body_pages + len(overflow)
        block = mailroom.address(r, ADDRESS_AT[2] * INCH, ADDRESS_AT[3] * INCH, WINDOW_SIZE)
        if not block.whole:
            cut.append(n)
        for number in range(total):
            page = pdf_stream.Page(font)
            if number == 0:
                _draw(page, face, returned, RETURN_AT, returned_size)
                _draw(page, face, block.lines, ADDRESS_AT, block.size)
                if lines is None:  # too many to show beside the window
                    told = str(greet.mail.parcels_overflow(len(r.parcels), body_pages + 1))
                    lines = _fit_parcels([told.strip()])[:2]
                _draw(page, face, lines[0], PARCELS_AT, lines[1])
            if number >= body_pages:  # the overflow pages: the owner's parcels in full
                _overflow(page, face, overflow[number - body_pages])
            page.set_font(8)
            label = str(greet.mail.page_line(r.name, number + 1, total)).strip()
            page.draw(PAGE_W - 1 * INCH - stringWidth(label, face, 8), PAGE_LABEL_Y * INCH, label)
            finish(page, (body, number) if number < body_pages else None)
        if duplex and total % 2 == 1:  # each letter starts on a new sheet
            finish(pdf_stream.Page(font), None)
        if progress:
            progress(n + 1)
    font.write(writer, font_ref)
    refs = b" ".join(b"%d 0 R" % k for k in kids)
    writer.put(tree, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (refs, len(kids)))
    writer.put(catalog, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)
    writer.finish(catalog)
    return Letters(buffer.getvalue(), len(kids), len(pieces), tuple(starts), tuple(cut))


def _draw(
    page: pdf_stream.Page,
    face: str,
    lines: list[str],
    at: tuple[float, float, float, float],
    size: float,
) -> None:
    """Lines already fitted to the box `at` (inches), drawn from its top at `size`."""
    from reportlab.pdfbase.pdfmetrics import getDescent

    x, y, _, _ = at
    page.set_font(size)
    # The first line hangs from the top of the box: its em box (descent to ascent) starts there.
    baseline = PAGE_H - y * INCH - size - getDescent(face, size)
    for line in lines:
        page.draw(x * INCH, baseline, line)
        baseline -= size * 1.15


def _parcel_lines(r: Recipient, words: Any) -> tuple[list[str], float] | None:
    """The owner's parcels beside the window, as set there; None when they need a page of their own."""
    if not r.parcels:
        return [], 9.0
    fitted = _fit_parcels([str(words.parcels_beside(r.parcels)).strip()])
    return (fitted[0], fitted[1]) if fitted[2] else None


def _fit_parcels(lines: list[str]) -> tuple[list[str], float, bool]:
    """`lines` set beside the window, as large as fit up to 9 pt."""
    return mailroom.fit(lines, PARCELS_AT[2] * INCH, PARCELS_AT[3] * INCH, 9)


OVERFLOW_ROWS, OVERFLOW_COLUMNS, OVERFLOW_PITCH_IN = 60, 3, 2.2  # parcels on a page of their own


def _overflow_pages(r: Recipient, words: Any) -> list[tuple[list[str], float, list[str]]]:
    """The pages listing the owner's parcels in full: each page's heading, its size, its lines.

    A parcel id longer than its column is wrapped in it; a list longer than a page goes on.
    """
    from reportlab.pdfbase.pdfmetrics import stringWidth

    face = mailroom.font()
    heading = str(words.parcels_page(mailroom.addressee(r).name, len(r.parcels))).strip()
    head, size, _ = mailroom.fit([heading], PAGE_W - 2 * INCH, 2 * 11 * 1.15, 11)
    column = (OVERFLOW_PITCH_IN - 0.1) * INCH
    lines = [
        text
        for parcel in r.parcels
        for text, _ in mailroom.wrap(parcel, lambda s: stringWidth(s, face, 9) <= column) or []
    ]
    per_page = OVERFLOW_ROWS * OVERFLOW_COLUMNS
    return [(head, size, lines[k : k + per_page]) for k in range(0, len(lines), per_page)]


def _overflow(page: pdf_stream.Page, face: str, listed: tuple[list[str], float, list[str]]) -> None:
    head, size, lines = listed
    y = PAGE_H - 1 * INCH
    page.set_font(size)
    for k, line in enumerate(head):
        page.draw(1 * INCH, y - k * size * 1.15, line)
    y -= (len(head) - 1) * size * 1.15
    page.set_font(9)
    for k, line in enumerate(lines):
        column, row = divmod(k, OVERFLOW_ROWS)
        page.draw((1 + OVERFLOW_PITCH_IN * column) * INCH, y - 24 - row * 11, line)


# The Word letter is rendered once per greeting with these stand-ins, then copied per recipient.
TOKENS = {
    "name": "ZNTOKENNAME",
    "lines": "ZNTOKENLINES",
    "last_line": "ZNTOKENLAST",
    "parcels": "ZNTOKENPARCELS",
}


def _word_letter(prepared: Prepared, tpl: Templates, context: dict[str, Any]) -> bytes:
    """One Word letter with stand-ins for the recipient's part."""
    case, the_map = prepared.case, prepared.map
    return docx.render(
        tpl,
        tpl.find("letters.docx"),
        {**context, "r": dict(TOKENS)},
        full_text=case.amendment.full_text if case.amendment.print_full_text else None,
        map_image=the_map.word_image if the_map else None,
        title=f"Mailed notice — {case.case_number}",
    )


def combine_word(
    rendered: dict[tuple[str, ...], bytes], pieces: list[Recipient], greet: Greeter
) -> bytes:
    """Every recipient's Word letter, copied from the letter of their greeting, a section each.

    Every letter but the last ends with a copy of the document's section properties, so each
    starts on a new page with its page numbers restarting at 1. The letters are compressed into
    the file one at a time as they are made (their XML is ~16 kB each, 160 MB for 10,000), in
    the zip `docx.normalize` writes.
    """
    first = next(iter(rendered.values()))
    source = zipfile.ZipFile(io.BytesIO(first))
    head, _, tail = _split(source.read("word/document.xml").decode("utf-8"))
    section = "<w:sectPr" + tail[: tail.index("</w:sectPr>")] + "</w:sectPr>"
    bodies = {
        greeting: _split(zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode())[1]
        for greeting, data in rendered.items()
    }
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for item in source.infolist():
            if item.filename != "word/document.xml":
                target.writestr(docx.zip_entry(item.filename), source.read(item.filename))
                continue
            with target.open(docx.zip_entry(item.filename), "w") as document:
                document.write(f"{head}<w:body>".encode())
                for n, r in enumerate(pieces):
                    last = n == len(pieces) - 1
                    document.write(_word_part(bodies[greet(r)], r, n, greet, section, last))
                document.write(f"<w:sectPr{tail}".encode())
    return out.getvalue()


def _word_part(body: str, r: Recipient, n: int, greet: Greeter, section: str, last: bool) -> bytes:
    """Letter `n`'s part of document.xml: its greeting's body with `r`'s address and parcels."""
    breaks = '</w:t><w:br/><w:t xml:space="preserve">'
    if n:  # bookmarks once, in the first letter
        body = re.sub(r"<w:bookmark(Start|End)\b[^>]*/>", "", body)
    if not r.parcels:  # no parcel line at all for those who own none
        body = re.sub(
            r"<w:p>(?:(?!</w:p>).)*ZNTOKENPARCELS.*?</w:p>", "", body, count=1, flags=re.S
        )
    # The window shows what the PDF's does: the name as printed, the block at its size.
    block = mailroom.address(r, ADDRESS_AT[2] * INCH, ADDRESS_AT[3] * INCH, WINDOW_SIZE)
    name, lines, last_line = block.addressee.name, r.lines, mailroom.last_line(r)
    if not block.whole:
        name, lines, last_line = block.lines[0], block.lines[1:-1], block.lines[-1]
    if block.size < WINDOW_SIZE:
        body = _sized(body, block.size)
    values = {
        "ZNTOKENNAME": escape(name),
        "ZNTOKENLINES": breaks.join(escape(x) for x in lines),
        "ZNTOKENLAST": escape(last_line),
        "ZNTOKENPARCELS": escape(str(greet.mail.parcels_beside(r.parcels)).strip()),
    }
    for token, value in values.items():
        body = body.replace(token, value)
    # drawing ids must be unique in a document
    body = re.sub(r'(<wp:docPr id=")(\d+)', lambda m: f"{m[1]}{int(m[2]) + 1000 * n}", body)
    if not last:  # the letter's last paragraph closes its section
        cut = body.rindex("</w:pPr>")
        body = body[:cut] + section + body[cut:]
    return body.encode("utf-8")


def _sized(body: str, size: float) -> str:
    """The Word letter's address paragraphs set at `size` points, as the PDF's window sets them.

    The style's exact 11 pt lines hold only five in the window's row.
    """
    return re.sub(
        r'(<w:pStyle w:val="LetterAddress(?:Line)?"/>)(</w:pPr><w:r>)',
        rf'\1<w:spacing w:line="{round(size * 1.15 * 20)}" w:lineRule="exact"/>'
        rf'\2<w:rPr><w:sz w:val="{round(size * 2)}"/></w:rPr>',
        body,
    )


def _split(xml: str) -> tuple[str, str, str]:
    """A document.xml as (head, body, tail): what lies before, in, and after the letters."""
    head, rest = xml.split("<w:body>", 1)
    body, tail = rest.rsplit("<w:sectPr", 1)
    return head, body, tail
