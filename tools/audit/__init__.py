"""The packet audit: read every PDF of every packet back as printed, and say what is wrong.

`python -m tools.audit OUTPUT_DIR [--review DIR]` reads every page of every PDF the manifests
of OUTPUT_DIR's packets list (pdfplumber: text, and where each glyph sits), prints each finding
as `packet/file.pdf:page: check: what` and exits 1 if there is any. With `--review`, page 1 of
each document is rendered to PNG (pdftoppm, 50 dpi) beside an index.html that shows the
findings under each page. A problem repeated on many pages (a letter body every letter shares)
is printed once, on its first page, with the number of other pages.

The checks, and the rule each applies
-------------------------------------
placeholder
    Text a person would never send, in any text block read as sentences: template code
    (`{{`, `}}`, `{%`, `${`), a note left in (`TODO`, `FIXME`, `TBD`, `XXX`, `??`), a sample
    marker `(sample)`, a slot's own label `(the local government)`, the program's word
    `generated`, a square bracket, a slot name `<date>`, empty parentheses `()`, a value that is
    not there (`nan`, `NaN`, and `None` other than at the start of a sentence), and a labelled
    blank whose label has brackets inside it (`____ (the applicant (the Town…))`). The clerk's
    and the assessor's own words are theirs: a hit that, with up to 12 characters beside it on
    either side, is found in the case file's text or in recipients.csv/mailing_list.csv (a
    bracket in a legal description, an owner name) is not reported.
punctuation
    Doubled punctuation: `..` (not an ellipsis `...`), `. .` (not a spaced ellipsis), `,,`,
    `, ,`, `,.`, `;;`, `::` — `6:00 p.m..` is the usual one. The same exception for the case's
    own words.
dates
    Every hearing the document names is after the day it goes out. The hearings are those the
    plan names (`schedule.json`, each deadline's `hearing`: `"planning 2027-04-20"`); a date
    written in the document (see `dates.py` for the forms read) that is one of those days names
    that hearing. The day the document goes out is what it states, by kind: a letter's or a
    transmittal's date line (the first line on each letter's first page that is only a date,
    alone in its block); a newspaper notice's or display ad's `Publication date(s):` (every
    date of that sentence); the affidavit of publication's insertion dates (its one-line date
    cells); a sign's or posting notice's `Post(ed) no later than DATE`; the website notice's
    `Posted … on or before DATE`; a certificate of posting's `posted … no later than DATE`; an
    affidavit or certificate of mailing's `not later than DATE`. Of several, the latest counts:
    a notice published twice must not name, on its second date, a hearing already held. A
    hearing on that same day is reported too. A document of these kinds that states no such
    date is reported, and so is a letter, transmittal or proof of mailing dated on a Sunday
    (the Oklahoma council letters of issue 13 carried the case's as-of date, a Sunday). Other
    kinds (schedule, labels, lists, the certificate of actual notice) state no day of their own
    and are not checked.
window
    Letters and transmittals fit a #10 window envelope, folded in thirds. On page 1 of the file
    and each page whose footer says `page 1 of N`, the window is 0.9–5.3 in from the left and
    2.0–3.1 in from the top of the page. The recipient block is the first text block (top to
    bottom, then left to right) reaching into the window; its box (the glyphs' em boxes) must
    lie inside the window less 1/8 in on every side (1.025–5.175 in, 2.125–2.975 in). Any other
    text block or image reaching into the window shows through it and is reported.
sign-capitals
    On a sign (and a poster at sign size, `*-poster.pdf`), each item the law wants legible is
    somewhere in capitals at least distance ÷ legibility index tall: the word ZONING or
    REZONING; the present and the proposed districts of a map change (the case's district
    names, or their codes such as `R-1`); the hearing's date (month and day) and time; a phone
    number or web address. The distance is the one the pack's format rules for the sign (the
    manifest lists the rules each document gives effect to) name, the farthest if several;
    where none names one, 100 ft (or the case's `sign.legible_from_ft` if farther); the index
    is the pack's, else 25 ft per inch — 4 in for 100 ft. The height is measured in ink (see
    `signs.py`), with 1 % for antialiasing.
label
    On a sheet of Avery 5160 labels (3 × 10, 2.625 × 1 in, the first 0.1875 in from the left and
    0.5 in from the top, 2.75 in and 1 in apart), every glyph of a line lies on the label the
    line starts on, its body (75 % of the font size above the baseline to 20 % below) inside it:
    an address that runs past its label prints on the next one, or between them.
overlap
    No text printed over other text: two glyphs whose ink cores (the advance box inset by 15 %
    on each side, from 5 % to 65 % of the font size above the baseline) meet. Tight leading
    and touching boxes never make cores meet; neighbours in a line may (kerning tucks a period
    under a P), and the same glyph drawn twice in place is not an overlap.
outside-page
    No text off the page: a glyph whose advance box, or its body from 75 % of the font size
    above the baseline to 20 % below it, reaches more than 0.5 pt past an edge of the page.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from tools.audit import checks, packet, read
from tools.audit import review as review_pages
from tools.audit.checks import Hit, PageText

PAGES_PER_TASK = 12


@dataclass(frozen=True)
class Finding:
    """A problem in a document: where, which check, what."""

    file: str
    page: int
    check: str
    what: str

    def __str__(self) -> str:
        return f"{self.file}:{self.page}: {self.check}: {self.what}"


@dataclass
class Result:
    """What an audit found, and how much it read."""

    findings: list[Finding] = field(default_factory=list)
    packets: int = 0
    documents: int = 0
    pages: int = 0
    index: Path | None = None


@dataclass(frozen=True)
class _Task:
    path: Path
    kind: str
    numbers: tuple[int, ...]
    data: str
    sign: packet.SignNeed | None
    hearings: dict[date, str]
    districts: dict[str, list[list[str]]]


def _audit_pages(task: _Task) -> tuple[list[Hit], list[PageText]]:
    """Read some pages of a document and run the page checks on them."""
    from tools.audit import signs  # numpy and Pillow, only where a sign is measured

    hits: list[Hit] = []
    texts: list[PageText] = []
    for page in read.read(task.path, list(task.numbers)):
        hits += checks.text_hits(page, task.data)
        hits += checks.overlap_hits(page)
        hits += checks.outside_hits(page)
        if task.kind in ("letters", "transmittal") and checks.is_letter_start(page):
            hits += checks.window_hits(page)
        if task.kind == "labels":
            hits += checks.label_hits(page)
        if task.sign is not None and page.number == 1:
            hits += signs.sign_hits(task.path, page, task.sign, task.hearings, task.districts)
        texts.append(PageText.of(page))
    return hits, texts


def audit(output: Path, review: Path | None = None) -> Result:
    """Audit every packet under `output`; with `review`, also write the review folder there."""
    from generator.processes import cpus, pool

    result = Result()
    loaded = [packet.load(folder) for folder in packet.packets(output)]
    tasks: list[tuple[int, _Task]] = []
    renders: list[tuple[Path, Path, float, float]] = []
    for p in loaded:
        result.packets += 1
        for doc in p.documents:
            result.documents += 1
            count, width_in, height_in = read.outline(doc.path)
            result.pages += count
            if review is not None:
                renders.append(
                    (doc.path, review / p.name / f"{doc.path.stem}.png", width_in, height_in)
                )
            for start in range(1, count + 1, PAGES_PER_TASK):
                numbers = tuple(range(start, min(count, start + PAGES_PER_TASK - 1) + 1))
                task = _Task(
                    doc.path,
                    doc.kind,
                    numbers,
                    p.data,
                    p.signs.get(doc.path.name),
                    p.hearings,
                    p.districts,
                )
                tasks.append((count, task))
    # The longest documents first, so that the cores finish together.
    order = [t for _, t in sorted(tasks, key=lambda ct: -ct[0])]
    executor = pool(cpus())
    if executor is None:
        done = [_audit_pages(t) for t in order]
        for job in renders:
            review_pages.render_first_page(*job)
    else:
        with executor:
            pending = [executor.submit(_audit_pages, t) for t in order]
            drawn = [executor.submit(review_pages.render_first_page, *job) for job in renders]
            done = [f.result() for f in pending]
            for f in drawn:
                f.result()
    hits: dict[Path, list[Hit]] = defaultdict(list)
    texts: dict[Path, list[PageText]] = defaultdict(list)
    for task, (h, t) in zip(order, done, strict=True):
        hits[task.path] += h
        texts[task.path] += t
    by_doc: dict[Path, list[str]] = {}
    for p in loaded:
        for doc in p.documents:
            pages = sorted(texts[doc.path], key=lambda t: t.number)
            found = _once(
                f"{p.name}/{doc.path.name}",
                hits[doc.path] + checks.date_hits(doc.kind, pages, p.hearings),
            )
            by_doc[doc.path] = [f"p. {f.page}: {f.check}: {f.what}" for f in found]
            result.findings += found
    if review is not None:
        result.index = review_pages.index(
            review,
            [
                (
                    p.name,
                    [
                        (d.path, review / p.name / f"{d.path.stem}.png", by_doc[d.path])
                        for d in p.documents
                    ],
                )
                for p in loaded
            ],
        )
    return result


def _once(file: str, hits: list[Hit]) -> list[Finding]:
    """One finding per problem: on the first page it is on, with how many other pages."""
    pages: dict[tuple[str, str], list[Hit]] = defaultdict(list)
    for hit in sorted(hits, key=lambda h: h.page):
        pages[hit.check, hit.key].append(hit)
    out = []
    for same in pages.values():
        first = same[0]
        others = len({h.page for h in same}) - 1
        more = f" (and on {others} more page{'s' if others > 1 else ''})" if others else ""
        out.append(Finding(file, first.page, first.check, first.what + more))
    return sorted(out, key=lambda f: (f.page, f.check, f.what))
