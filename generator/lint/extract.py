"""Turn a notice file (TXT, HTML, PDF, DOCX) into located text blocks the lint checks can read.

Every format becomes a list of `Block`s in reading order; `Extracted.text` joins them with
newlines and `Extracted.locate(offset)` maps a match in that text back to its block, so a finding
can say "paragraph 12" or "page 2, line 5" and quote the words around it.

Numbering (`Block.number`) counts what a reader sees, the same way in every format:

- TXT, HTML, DOCX: the Nth paragraph *with visible text*, 1-based, in reading order. Empty
  paragraphs (blank spacing paragraphs in Word, empty `<p>`) are not counted, so the same
  notice gets the same numbers in its .txt, .html and .docx forms. DOCX text is read as it
  would read with every tracked change accepted; paragraphs inside tables, content controls
  and text boxes are counted where they occur.
- PDF: the running number of the non-blank text line over the whole document;
  `Block.page` and `Block.line` (the line on that page) give "page 2, line 5".

Whitespace inside a block is collapsed to single spaces (non-breaking spaces included).
"""

from __future__ import annotations

import bisect
import io
import os
import posixpath
import re
import threading
import zipfile
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any, NoReturn

from generator.errors import Problem, UserError


@dataclass(frozen=True)
class Block:
    """One paragraph (PDF: one text line) of a document, with where it sits."""

    number: int
    text: str
    page: int | None = None
    kind: str = "paragraph"
    clauses: tuple[str, ...] = ()
    line: int | None = None  # PDF only: the line's number on its page


@dataclass(frozen=True)
class Note:
    """A pending tracked change or a comment in a DOCX, anchored to a paragraph number."""

    kind: str
    number: int
    text: str
    author: str | None = None


@dataclass
class Extracted:
    """The text of one document as blocks, plus its pending edits; treat it as read-only."""

    path: Path
    format: str
    blocks: list[Block]
    notes: list[Note] = field(default_factory=list)
    pages: int | None = None
    _index: tuple[int, int, str, list[int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def _built(self) -> tuple[str, list[int]]:
        # Rebuilt when the list is swapped or resized, so a stale cache cannot mislocate.
        key = (id(self.blocks), len(self.blocks))
        if self._index is None or self._index[:2] != key:
            starts, at = [], 0
            for block in self.blocks:
                starts.append(at)
                at += len(block.text) + 1
            self._index = (*key, "\n".join(b.text for b in self.blocks), starts)
        return self._index[2], self._index[3]

    @property
    def text(self) -> str:
        """All blocks joined by newlines: the text the checks search."""
        return self._built()[0]

    def locate(self, offset: int) -> Block:
        """The block holding character `offset` of `text` (a separator belongs to the block before it)."""
        text, starts = self._built()
        if not starts or offset < 0 or offset > len(text):
            raise IndexError(f"offset {offset} outside the text (length {len(text)})")
        return self.blocks[bisect.bisect_right(starts, offset) - 1]


def extract(path: Path) -> Extracted:
    """Read a notice file by its suffix; raise `UserError` if it is unsupported or unreadable."""
    path = Path(path)
    suffix = path.suffix.lower()
    reader = _READERS.get(suffix)
    if reader is None:
        hint = (
            " (open it in Word and save it as .docx)" if suffix in {".doc", ".rtf", ".odt"} else ""
        )
        _fail(
            path,
            f"cannot lint a '{suffix or path.name}' file: lint reads .txt, .html, .pdf and .docx{hint}",
        )
    return reader(path)


def extract_pdf_pages(path: Path) -> list[str]:
    """The text of each page of a PDF, lines separated by newlines."""
    return ["\n".join(line for line in page if line) for page in _pdf_lines(Path(path))]


def _fail(path: Path, message: str) -> NoReturn:
    raise UserError(Problem(str(path), None, None, "", message))


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except IsADirectoryError:
        return _fail(path, "is a directory, not a notice file")
    except OSError as exc:
        return _fail(path, f"cannot read the file: {exc.strerror or exc}")


def _squash(text: str) -> str:
    return " ".join(text.split())


# ---------------------------------------------------------------- TXT


def _decode(path: Path, data: bytes, what: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            return _fail(path, f"not a readable {what} file (broken UTF-16 text)")
    if b"\x00" in data:
        return _fail(path, f"not a {what} file (it holds binary data)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        # Notepad and older Word "plain text" saves use Windows-1252; its smart quotes and §
        # decode correctly, and the clauses the checks look for are plain letters and digits.
        try:
            return data.decode("cp1252")
        except UnicodeDecodeError:
            return _fail(path, f"not a {what} file in UTF-8 or Windows-1252 encoding")


_BULLET_LINE = re.compile(r"^[-*•–]\s")
_LIST_LINE = re.compile(r"^(?:[-*•–]\s|\(?\d{1,3}[.)]\s|\(?[a-z][.)]\s)")


def _extract_txt(path: Path) -> Extracted:
    text = _decode(path, _read(path), "text")
    blocks: list[Block] = []
    lines: list[str] = []

    def flush() -> None:
        if lines:
            joined = _squash(" ".join(lines))
            blocks.append(Block(len(blocks) + 1, joined, None, _txt_kind(lines)))
            lines.clear()

    for line in text.splitlines():
        if not line.strip():
            flush()
            continue
        if _BULLET_LINE.match(line.strip()):
            flush()  # a bulleted line starts its own item, as it does in the HTML and DOCX
        lines.append(line.strip())
    flush()
    return Extracted(path, "txt", blocks)


def _txt_kind(lines: list[str]) -> str:
    if _BULLET_LINE.match(lines[0]) or (len(lines) == 1 and _LIST_LINE.match(lines[0])):
        return "list-item"
    if len(lines) == 1 and lines[0].isupper() and len(lines[0].split()) <= 12:
        return "heading"
    return "paragraph"


# ---------------------------------------------------------------- HTML

_HTML_SKIP = frozenset({"head", "script", "style", "template", "noscript", "title", "svg", "math"})
_HTML_KINDS = {
    "p": "paragraph",
    "li": "list-item",
    "td": "table-cell",
    "th": "table-cell",
    "figcaption": "caption",
    "caption": "caption",
    "pre": "preformatted",
    **{f"h{n}": "heading" for n in range(1, 7)},
}
# Elements that start a new line in a browser but give their text no particular kind.
_HTML_GENERIC = frozenset(
    {
        *("address", "article", "aside", "blockquote", "body", "dd", "details", "dialog", "div"),
        *("dl", "dt", "fieldset", "figure", "footer", "form", "header", "hgroup", "hr", "html"),
        *("legend", "main", "nav", "ol", "section", "summary", "table", "tbody", "tfoot"),
        *("thead", "tr", "ul"),
    }
)
# Innermost wins among these; a <p> inside a <td> or <li> still reads as the cell or item.
_HTML_SPECIFIC = ("heading", "caption", "preformatted", "list-item", "table-cell")
_META_CHARSET = re.compile(
    rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.IGNORECASE
)


def _html_encoding(path: Path, data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return "utf-8"
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    if b"\x00" in data:
        return _fail(path, "not an HTML file (it holds binary data)")
    found = _META_CHARSET.search(data[:4096])
    declared = found.group(1).decode("ascii").lower() if found else "utf-8"
    for encoding in (declared, "utf-8", "cp1252"):
        try:
            data.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
        return encoding
    return _fail(path, "not an HTML file in a readable text encoding")


def _extract_html(path: Path) -> Extracted:
    from lxml import etree, html

    data = _read(path)
    encoding = _html_encoding(path, data)
    if not data.decode(encoding).strip():
        return Extracted(path, "html", [])
    parser = html.HTMLParser(encoding=encoding, remove_comments=True, remove_pis=True)
    try:
        root = html.document_fromstring(data, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        return _fail(path, f"not a readable HTML file ({exc})")

    blocks: list[Block] = []
    buf: list[str] = []
    touched: dict[str, None] = {}  # clause ids around the buffered text, in order
    kinds: list[str] = []
    clauses: list[list[str]] = []
    figures = 0

    def add(text: str | None) -> None:
        if text:
            buf.append(text)
            if not text.isspace():
                touched.update(dict.fromkeys(i for ids in clauses for i in ids))

    def flush(kind: str | None = None) -> None:
        text = _squash("".join(buf))
        if text:
            if kind is None:
                kind = next((k for k in reversed(kinds) if k in _HTML_SPECIFIC), "paragraph")
            blocks.append(Block(len(blocks) + 1, text, None, kind, tuple(touched)))
        buf.clear()
        touched.clear()

    walk = etree.iterwalk(root, events=("start", "end"))
    skipped: set[Any] = set()
    for event, el in walk:
        if not isinstance(el.tag, str):
            if event == "end":
                add(el.tail)
            continue
        tag = el.tag.rsplit("}", 1)[-1].lower()
        if event == "start":
            if tag in _HTML_SKIP or el.get("hidden") is not None:
                skipped.add(el)
                walk.skip_subtree()
                continue
            ids = (el.get("data-clause") or "").split()
            clauses.append(ids)
            if tag in _HTML_KINDS or tag in _HTML_GENERIC:
                flush()
                kinds.append(_HTML_KINDS.get(tag, ""))
            figures += tag == "figure"
            if tag == "br":
                add(" ")
            elif tag == "img" and figures and (el.get("alt") or "").strip():
                flush()
                add(el.get("alt"))
                flush("image")
            add(el.text)
            continue
        if el in skipped:
            skipped.discard(el)
        else:
            if tag in _HTML_KINDS or tag in _HTML_GENERIC:
                flush()
                kinds.pop()
            figures -= tag == "figure"
            clauses.pop()
        add(el.tail)
    flush()
    return Extracted(path, "html", blocks)


# ---------------------------------------------------------------- PDF

# Characters PDF producers use for a hyphen that exists only because the line broke there:
# soft hyphen, and the markers pdfium substitutes for a line-end hyphen it judges soft.
_SOFT_HYPHENS = ("\u00ad", "\x02", "\ufffe")
_HYPHEN = "\u2010"  # WeasyPrint draws every soft or automatic break as U+2010, never as "-"
_LINE_END_HYPHENS = frozenset((*_SOFT_HYPHENS, _HYPHEN))
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufeff]")
_PARALLEL_MIN_PAGES = 400  # below this, starting worker processes costs more than it saves

_worker_doc: Any = None
_worker_raw = False


def _pdf_open(path: Path) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        reason = str(exc)
        if "password" in reason.lower():
            return _fail(path, "the PDF is password-protected; save an unprotected copy to lint it")
        return _fail(path, f"not a readable PDF ({reason})")
    except OSError as exc:
        return _fail(path, f"cannot read the file: {exc.strerror or exc}")


def _page_lines(doc: Any, index: int) -> list[str]:
    return _dehyphenate(_page_raw(doc, index))


def _page_raw(doc: Any, index: int) -> list[str]:
    """The page's non-blank lines as pdfium reads them, whitespace squashed, not dehyphenated."""
    page = doc[index]
    try:
        textpage = page.get_textpage()
        try:
            raw = textpage.get_text_range()
        finally:
            textpage.close()
    finally:
        page.close()
    lines = []
    for line in raw.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = _squash(_CONTROL.sub(lambda m: m.group() if m.group() == "\x02" else " ", line))
        if line:
            lines.append(line)
    return lines


def _dehyphenate(lines: list[str]) -> list[str]:
    """Rejoin words split by a soft hyphen at a line end; real hyphens ("R1-6") stay put."""
    # The rest of the word moves up to the line where it starts, so the whole word can be
    # matched and each line keeps its number; a line left empty stays as "" (not dropped) so
    # later lines keep their numbers too.
    for i in range(len(lines)):
        while lines[i] and lines[i][-1] in _LINE_END_HYPHENS:
            nxt = _next_filled(lines, i)
            if nxt is None:
                break
            line, following = lines[i], lines[nxt]
            last = line[-1]
            soft = last in _SOFT_HYPHENS or (
                last == _HYPHEN and len(line) > 1 and line[-2].isalpha() and following[0].islower()
            )
            if not soft:
                break
            rest, _, remainder = following.partition(" ")
            lines[i] = line[:-1] + rest
            lines[nxt] = remainder
    joined = "".join(lines)
    if not any(c in joined for c in _SOFT_HYPHENS):
        return lines
    return [line.replace("\x02", "").replace("\ufffe", "").replace("\u00ad", "") for line in lines]


def _next_filled(lines: list[str], i: int) -> int | None:
    # Lines are never blank on arrival, so an empty one was emptied by a rejoined word.
    return next((j for j in range(i + 1, len(lines)) if lines[j]), None)


def _pdf_worker_init(source: str | bytes, raw: bool = False) -> None:
    global _worker_doc, _worker_raw  # one open document per worker process, opened once
    import pypdfium2 as pdfium

    _worker_doc = pdfium.PdfDocument(source)
    _worker_raw = raw


def _pdf_worker_chunk(span: tuple[int, int]) -> list[list[str]]:
    read = _page_raw if _worker_raw else _page_lines
    return [read(_worker_doc, i) for i in range(*span)]


def cpus() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def _pdf_lines(path: Path) -> list[list[str]]:
    doc = _pdf_open(path)
    try:
        count = len(doc)
    finally:
        doc.close()  # closed before any worker forks, so no child inherits it half-used
    if count >= _SHARED_MIN_PAGES:
        pages = _pdf_shared_lines(path, count)
        if pages is not None:
            return pages
    return _pdf_read(path, str(path), count, raw=False)


def _pdf_read(path: Path, source: str | bytes, count: int, *, raw: bool) -> list[list[str]]:
    """Every page's lines (`raw`: before dehyphenation), across the cores for a long document."""
    import pypdfium2 as pdfium

    workers = min(cpus(), count // (_PARALLEL_MIN_PAGES // 2))
    if count >= _PARALLEL_MIN_PAGES and workers >= 2:
        pages = _pdf_parallel(path, source, count, workers, raw)
        if pages is not None:
            return pages
    read = _page_raw if raw else _page_lines
    try:
        doc = pdfium.PdfDocument(source) if isinstance(source, bytes) else _pdf_open(path)
    except pdfium.PdfiumError as exc:
        return _fail(path, f"not a readable PDF ({exc})")
    try:
        return [read(doc, i) for i in range(count)]
    except pdfium.PdfiumError as exc:
        return _fail(path, f"not a readable PDF ({exc})")
    finally:
        doc.close()


def _pdf_parallel(
    path: Path, source: str | bytes, count: int, workers: int, raw: bool
) -> list[list[str]] | None:
    import pypdfium2 as pdfium

    # pdfium is not thread-safe and page loading is CPU-bound, so pages are read in worker
    # processes, each opening the file once. Fork is cheap and re-imports nothing, but is only
    # safe while this process runs a single thread; otherwise spawn.
    methods = get_all_start_methods()
    method = "fork" if "fork" in methods and threading.active_count() == 1 else "spawn"
    size = max(50, min(500, -(-count // (workers * 4))))
    spans = [(start, min(start + size, count)) for start in range(0, count, size)]
    try:
        with ProcessPoolExecutor(
            workers,
            mp_context=get_context(method),
            initializer=_pdf_worker_init,
            initargs=(source, raw),
        ) as pool:
            return [page for chunk in pool.map(_pdf_worker_chunk, spans) for page in chunk]
    except pdfium.PdfiumError as exc:
        return _fail(path, f"not a readable PDF ({exc})")
    except (BrokenProcessPool, OSError):
        return None  # no worker processes here (sandbox, no /dev/shm): read serially


# -- letters: one Form XObject shared by thousands of pages
#
# A mail-merged PDF (generator/letters.py) draws the same typeset body as one Form XObject
# under every page, and only a few address lines of its own. pdfium parses that form again on
# every page, so reading the body once and each page's own text from a copy in which the
# shared forms draw nothing is many times faster. The shortcut is taken only where it cannot
# change the result: every page that uses a shared form paints it first, by a content stream
# of its own (`q /Name Do Q`), names it once and nowhere else; no page inherits resources or
# reaches a shared form through another form; and on sample pages of each kind (first, last
# and spread between) the composed lines equal pdfium's reading of the whole page. Otherwise
# the document is read page by page as usual.

_SHARED_MIN_PAGES = 50  # a form under fewer pages than this is read with its pages
_SHARED_SAMPLES = 6  # pages of each kind checked against a full reading
_PAINT_FIRST = re.compile(rb"\s*q\s+/([^\s/\[\]()<>{}%]+)\s+Do\s+Q\s*")


def _pdf_shared_lines(path: Path, count: int) -> list[list[str]] | None:
    """Each page's lines, reading shared forms once; None where the shortcut does not apply."""
    try:
        import pikepdf
    except ImportError:
        return None
    try:
        with pikepdf.open(path) as pdf:
            if len(pdf.pages) != count:
                return None
            plan = _shared_plan(pdf, pikepdf)
            if plan is None:
                return None
            kinds, forms = plan
            for form in forms:
                form.write(b"")  # in this in-memory copy only: the form draws nothing
            buffer = io.BytesIO()
            pdf.save(buffer, object_stream_mode=pikepdf.ObjectStreamMode.preserve)
    except Exception:  # anything pikepdf cannot do: read the usual way
        return None
    stripped = buffer.getvalue()
    return _compose(path, stripped, kinds, count)


def _shared_plan(pdf: Any, pikepdf: Any) -> tuple[list[Any], list[Any]] | None:
    """Each page's kind (None, or the key of the shared form painted first) and the forms."""
    name_ = pikepdf.Name
    uses: dict[tuple[int, int], int] = {}
    found: dict[tuple[int, int], Any] = {}
    per_page: list[dict[str, tuple[int, int]]] = []
    for page in pdf.pages:
        obj = page.obj
        if name_.Resources not in obj:
            return None  # inherited resources: cannot tell what the page draws
        xobjects = obj.Resources.get(name_.XObject)
        named: dict[str, tuple[int, int]] = {}
        if xobjects is not None:
            for name, x in xobjects.items():
                if (
                    isinstance(x, pikepdf.Stream)
                    and x.objgen != (0, 0)
                    and x.get(name_.Subtype) == name_.Form
                ):
                    named[name] = x.objgen
                    found[x.objgen] = x
        for key in set(named.values()):
            uses[key] = uses.get(key, 0) + 1
        per_page.append(named)
    shared = {key for key, n in uses.items() if n >= _SHARED_MIN_PAGES}
    if not shared:
        return None
    for key, form in found.items():
        if key not in shared and _reaches(form, shared, name_, pikepdf, set()):
            return None  # a shared form drawn inside another form
        if (
            key in shared
            and name_.Resources in form
            and _reaches(form, shared, name_, pikepdf, set())
        ):
            return None  # a shared form inside itself or another shared form
    kinds: list[Any] = []
    for page, named in zip(pdf.pages, per_page, strict=True):
        mine = [name for name, key in named.items() if key in shared]
        if not mine:
            kinds.append(None)
            continue
        contents = page.obj.get(name_.Contents)
        if len(mine) != 1 or not isinstance(contents, pikepdf.Array) or len(contents) < 2:
            return None
        first = contents[0].read_bytes()
        match = _PAINT_FIRST.fullmatch(first)
        if match is None or "/" + match.group(1).decode("latin-1") != mine[0]:
            return None
        token = match.group(1)
        if any(token in stream.read_bytes() for stream in list(contents)[1:]):
            return None  # drawn again further on (or a name alike: not worth telling apart)
        box = tuple(
            tuple(float(v) for v in page.obj[b]) if b in page.obj else None
            for b in (name_.MediaBox, name_.CropBox)
        )
        kinds.append((named[mine[0]], first, box, int(page.obj.get(name_.Rotate, 0))))
    return kinds, [found[key] for key in shared]


def _reaches(form: Any, shared: set[tuple[int, int]], name_: Any, pikepdf: Any, seen: set) -> bool:
    resources = form.get(name_.Resources)
    xobjects = resources.get(name_.XObject) if resources is not None else None
    if xobjects is None:
        return False
    for x in xobjects.values():
        if not isinstance(x, pikepdf.Stream) or x.objgen in seen:
            continue
        if x.objgen in shared:
            return True
        seen.add(x.objgen)
        if x.get(name_.Subtype) == name_.Form and _reaches(x, shared, name_, pikepdf, seen):
            return True
    return False


def _compose(path: Path, stripped: bytes, kinds: list[Any], count: int) -> list[list[str]] | None:
    """Shared forms' lines (read once, from one page) before each page's own lines."""
    import pypdfium2 as pdfium

    own = _pdf_read(path, stripped, count, raw=True)
    groups: dict[Any, list[int]] = {}
    for index, kind in enumerate(kinds):
        if kind is not None:
            groups.setdefault(kind, []).append(index)
    doc = _pdf_open(path)
    try:
        prefix: dict[Any, list[str]] = {}
        for kind, pages in groups.items():
            whole = _page_raw(doc, pages[0])
            tail = own[pages[0]]
            if len(whole) < len(tail) or whole[len(whole) - len(tail) :] != tail:
                return None  # the form's text does not simply come first: read page by page
            prefix[kind] = whole[: len(whole) - len(tail)]
        out = [
            _dehyphenate(prefix.get(kind, []) + lines)
            for kind, lines in zip(kinds, own, strict=True)
        ]
        step = max(1, count // (_SHARED_SAMPLES * 4))
        checks = {0, count - 1, *range(0, count, step)}
        for pages in groups.values():
            spread = max(1, len(pages) // _SHARED_SAMPLES)
            checks.update([*pages[::spread][:_SHARED_SAMPLES], pages[-1]])
        for index in sorted(checks):
            if _page_lines(doc, index) != out[index]:
                return None
    except pdfium.PdfiumError:
        return None
    finally:
        doc.close()
    return out


def _extract_pdf(path: Path) -> Extracted:
    blocks: list[Block] = []
    pages = _pdf_lines(path)
    running = 0
    for page_no, lines in enumerate(pages, 1):
        for line_no, text in enumerate(lines, 1):
            running += 1
            if text:
                blocks.append(Block(running, text, page_no, "line", (), line_no))
    return Extracted(path, "pdf", blocks, [], len(pages))


# ---------------------------------------------------------------- DOCX

_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_MAX_PART = 512 * 1024 * 1024  # a larger document.xml is a zip bomb, not a notice
_HEADING_NAME = re.compile(r"heading|title", re.IGNORECASE)


@dataclass
class _Para:
    """A paragraph as read, before empty ones are dropped and deleted marks merge it on."""

    kind: str
    parts: list[str] = field(default_factory=list)
    clauses: dict[str, None] = field(default_factory=dict)
    notes: list[list[Any]] = field(default_factory=list)  # [kind, text, author]
    mark_deleted: bool = False
    alt: list[str] = field(default_factory=list)  # pictures' alternative text
    alt_clauses: dict[str, None] = field(default_factory=dict)
    after: list[_Para] = field(default_factory=list)  # text-box paragraphs anchored here


def _child(el: Any, tag: str) -> Any:
    """`el.find(tag)` for a plain tag, without the path machinery (it runs millions of times)."""
    return next(el.iterchildren(tag), None)


class _Tags(dict[str, str]):
    """Qualified tag names by local name, made on first use."""

    def __init__(self, ns: str) -> None:
        super().__init__()
        self.ns = ns

    def __missing__(self, local: str) -> str:
        self[local] = tag = self.ns + local
        return tag


class _DocxReader:
    """One pass over document.xml in body order, with the state that pass needs."""

    def __init__(
        self, ns: str, comments: dict[str, tuple[str, str | None]], styles: dict[str, str]
    ) -> None:
        self.w = ns
        # `q("p")` is the qualified tag; looked up, not concatenated, as it runs millions of times
        self.q: Callable[[str], str] = _Tags(ns).__getitem__
        self.comments = comments
        self.styles = styles
        self.paras: list[_Para] = []
        self.current: _Para | None = None
        self.bookmarks: dict[str, str] = {}  # w:id -> clause id, open ones only
        self.untouched: dict[str, _Para] = {}  # open bookmarks no text has fallen in yet
        self.seen_comments: set[str] = set()
        self.waiting_notes: list[list[Any]] = []  # anchored between paragraphs

    # -- block level

    def blocks(self, container: Any, kind: str | None, include: bool = True) -> None:
        for el in container:
            tag = el.tag
            if not isinstance(tag, str):
                continue
            if tag == self.q("p"):
                self.paragraph(el, kind, include)
            elif tag == self.q("tbl"):
                self.table(el, include)
            elif tag in (self.q("sdt"), self.q("customXml")):
                content = _child(el, self.q("sdtContent")) if tag == self.q("sdt") else el
                if content is not None:
                    self.blocks(content, kind, include)
            elif tag in (self.q("ins"), self.q("moveTo")):
                self.blocks(el, kind, include)
            elif tag in (self.q("del"), self.q("moveFrom")):
                self.blocks(el, kind, False)
            elif tag == _MC + "AlternateContent":
                self.blocks(self.choice(el), kind, include)
            else:
                self.marker(el)

    def table(self, container: Any, include: bool) -> None:
        for el in container:
            tag = el.tag
            if tag == self.q("tr"):
                # Accepting a deleted row removes it, whatever its runs are marked as.
                deleted = el.find(f"{self.q('trPr')}/{self.q('del')}") is not None
                self.table(el, include and not deleted)
            elif tag == self.q("tc"):
                self.blocks(el, "table-cell", include)
            elif tag == self.q("sdt"):
                content = _child(el, self.q("sdtContent"))
                if content is not None:
                    self.table(content, include)
            elif tag == self.q("customXml"):
                self.table(el, include)
            elif isinstance(tag, str):
                self.marker(el)

    def choice(self, alternate: Any) -> list[Any]:
        # Word writes the same content twice (modern and legacy); read one copy only.
        chosen = _child(alternate, _MC + "Choice")
        if chosen is None:
            chosen = _child(alternate, _MC + "Fallback")
        return list(chosen) if chosen is not None else []

    # -- paragraphs

    def paragraph(self, p: Any, kind: str | None, include: bool) -> None:
        ppr = _child(p, self.q("pPr"))
        para = _Para(kind or self.para_kind(ppr))
        para.notes.extend(self.waiting_notes)
        self.waiting_notes = []
        if ppr is not None:
            mark = _child(ppr, self.q("rPr"))
            if mark is not None:
                for change in mark:
                    if change.tag in (self.q("ins"), self.q("del")):
                        verb = "insertion" if change.tag == self.q("ins") else "deletion"
                        para.notes.append([f"tracked_{verb}", "¶", self.author(change)])
                        para.mark_deleted |= verb == "deletion"
            change = _child(ppr, self.q("pPrChange"))
            if change is not None:
                para.notes.append(["tracked_format", None, self.author(change)])
        outer = self.current
        self.current = para
        if outer is None:
            self.paras.append(para)
        else:
            outer.after.append(para)
        try:
            self.inline(p, include)
        finally:
            self.current = outer
        if outer is None and para.after:
            self.paras.extend(self.flatten(para.after))

    def flatten(self, paras: list[_Para]) -> Iterator[_Para]:
        for para in paras:
            yield para
            yield from self.flatten(para.after)

    def para_kind(self, ppr: Any) -> str:
        if ppr is None:
            return self.styles.get("", "paragraph")
        if _child(ppr, self.q("outlineLvl")) is not None:
            level = _child(ppr, self.q("outlineLvl")).get(self.q("val"), "9")
            if level.isdigit() and int(level) < 9:
                return "heading"
        style = _child(ppr, self.q("pStyle"))
        kind = self.styles.get(style.get(self.q("val"), "") if style is not None else "", "")
        if kind != "heading":
            for num_pr in ppr.iterchildren(self.q("numPr")):
                numbered = _child(num_pr, self.q("numId"))
                if numbered is not None:  # the first numPr/numId, as a path find gives it
                    if numbered.get(self.q("val")) != "0":
                        return "list-item"
                    break
        return kind or "paragraph"

    def inline(self, container: Any, include: bool) -> None:
        for el in container:
            tag = el.tag
            if not isinstance(tag, str) or tag == self.q("pPr"):
                continue
            if tag == self.q("r"):
                self.run(el, include)
            elif tag in (self.q("ins"), self.q("moveTo")):
                kind = "tracked_insertion" if tag == self.q("ins") else "tracked_move_to"
                self.note(kind, self.plain(el, "t"), self.author(el))
                self.inline(el, include)
            elif tag in (self.q("del"), self.q("moveFrom")):
                if tag == self.q("del"):
                    self.note("tracked_deletion", self.plain(el, "delText"), self.author(el))
                else:
                    self.note("tracked_move_from", self.plain(el, "t"), self.author(el))
                self.inline(el, False)
            elif tag == self.q("sdt"):
                content = _child(el, self.q("sdtContent"))
                if content is not None:
                    self.inline(content, include)
            elif tag == _MC + "AlternateContent":
                self.inline(self.choice(el), include)
            elif tag == _MATH + "oMath" or tag == _MATH + "oMathPara":
                if include:
                    self.text("".join(t.text or "" for t in el.iter(_MATH + "t")))
            elif self.marker(el):
                continue
            elif tag not in (self.q("sdtPr"), self.q("sdtEndPr"), self.q("rPr")):
                # hyperlink, smartTag, customXml, fldSimple, dir, bdo …: read what is inside
                self.inline(el, include)

    def run(self, r: Any, include: bool) -> None:
        rpr = _child(r, self.q("rPr"))
        if rpr is not None:
            if _child(rpr, self.q("vanish")) is not None and _child(rpr, self.q("vanish")).get(
                self.q("val"), "true"
            ) not in ("0", "false", "off"):
                include = False  # hidden text is neither shown nor printed
            change = _child(rpr, self.q("rPrChange"))
            if change is not None:
                self.note("tracked_format", self.plain(r, "t"), self.author(change))
        for el in r:
            tag = el.tag
            if not isinstance(tag, str):
                continue
            local = tag[len(self.w) :] if tag.startswith(self.w) else ""
            if local == "t":
                if include:
                    self.text(el.text or "")
            elif local in ("tab", "ptab", "br", "cr"):
                if include:
                    self.text(" ")
            elif local == "noBreakHyphen":
                if include:
                    self.text("-")
            elif local == "sym":
                if include:
                    self.text(self.symbol(el))
            elif local == "commentReference":
                self.comment(el.get(self.q("id")))
            elif local in ("drawing", "pict", "object") or tag == _MC + "AlternateContent":
                self.drawing(el, include)

    def drawing(self, el: Any, include: bool) -> None:
        for box in self.textboxes(el):
            self.blocks(box, "text-box", include)
        if include and self.current is not None:
            for doc_pr in el.iter(_WP + "docPr"):
                description = (doc_pr.get("descr") or "").strip()
                if description:
                    self.current.alt.append(description)
                    self.current.alt_clauses.update(dict.fromkeys(self.bookmarks.values()))

    def textboxes(self, el: Any) -> Iterator[Any]:
        if not isinstance(el.tag, str):
            return
        if el.tag == self.q("txbxContent"):
            yield el
        elif el.tag == _MC + "AlternateContent":
            for chosen in self.choice(el):
                yield from self.textboxes(chosen)
        else:
            for child in el:
                yield from self.textboxes(child)

    def symbol(self, sym: Any) -> str:
        code = sym.get(self.q("char"), "")
        try:
            value = int(code, 16)
        except ValueError:
            return ""
        # Symbol-font glyphs sit in the private-use range F000-F0FF; the low byte is the
        # character in that font, which for the common ones (§, ©, bullets) is close enough.
        if 0xF000 <= value <= 0xF0FF:
            value -= 0xF000
        return chr(value) if value >= 0x20 else ""

    # -- markers: bookmarks, comments

    def marker(self, el: Any) -> bool:
        tag = el.tag
        if tag == self.q("bookmarkStart"):
            name = el.get(self.q("name"), "")
            if name.startswith("clause_"):
                mark = el.get(self.q("id"), "")
                self.bookmarks[mark] = name[len("clause_") :]
                if self.current is not None:
                    self.untouched[mark] = self.current
            return True
        if tag == self.q("bookmarkEnd"):
            mark = el.get(self.q("id"), "")
            clause = self.bookmarks.pop(mark, None)
            start = self.untouched.pop(mark, None)
            if clause and start is not None and start is self.current:
                # A point bookmark (no text inside): it still marks the paragraph holding it.
                self.current.clauses[clause] = None
            return True
        if tag == self.q("commentRangeStart"):
            self.comment(el.get(self.q("id")))
            return True
        return tag in (self.q("commentRangeEnd"), self.q("proofErr"), self.q("permStart"))

    def comment(self, ident: str | None) -> None:
        if ident is None or ident in self.seen_comments:
            return
        self.seen_comments.add(ident)
        text, author = self.comments.get(ident, ("", None))
        self.note("comment", text, author)

    # -- output

    def text(self, text: str) -> None:
        if self.current is None or not text:
            return
        self.current.parts.append(text)
        if (self.bookmarks or self.untouched) and not text.isspace():
            self.untouched.clear()
            self.current.clauses.update(dict.fromkeys(self.bookmarks.values()))

    def note(self, kind: str, text: str | None, author: str | None) -> None:
        target = self.current.notes if self.current is not None else self.waiting_notes
        target.append([kind, text, author])

    def plain(self, el: Any, local: str) -> str:
        return "".join(t.text or "" for t in el.iter(self.q(local)))

    def author(self, el: Any) -> str | None:
        return el.get(self.q("author")) or None

    def result(self) -> tuple[list[Block], list[Note]]:
        """Merge paragraphs whose mark was deleted, drop empty ones, number the rest."""
        blocks: list[Block] = []
        notes: list[Note] = []
        parts: list[str] = []
        alt: list[str] = []
        clauses: dict[str, None] = {}
        alt_clauses: dict[str, None] = {}
        pending: list[list[Any]] = []
        kind = ""
        for para in self.paras:
            parts.extend(para.parts)
            alt.extend(para.alt)
            clauses.update(para.clauses)
            alt_clauses.update(para.alt_clauses)
            pending.extend(para.notes)
            kind = kind or para.kind
            if para.mark_deleted:
                continue  # accepted, the deletion joins this paragraph to the next one
            text = _squash("".join(parts))
            if not text and alt:
                # A paragraph holding only pictures reads as their alternative text.
                text, kind = _squash(" ".join(alt)), "image"
                clauses.update(alt_clauses)
            if text:
                blocks.append(Block(len(blocks) + 1, text, None, kind, tuple(clauses)))
                notes.extend(self.numbered(pending, len(blocks), text))
                pending = []
            parts, alt, clauses, alt_clauses, kind = [], [], {}, {}, ""
        pending.extend(self.waiting_notes)
        notes.extend(self.numbered(pending, len(blocks), ""))
        return blocks, notes

    @staticmethod
    def numbered(pending: list[list[Any]], number: int, text: str) -> list[Note]:
        return [
            Note(kind, number, text if said is None else _squash(said), author)
            for kind, said, author in pending
        ]


def _docx_styles(xml: bytes | None, ns: str) -> dict[str, str]:
    """Paragraph style id -> block kind, following each style's `basedOn` chain."""
    if xml is None:
        return {}
    root = _xml(xml)
    info: dict[str, tuple[str, str | None, bool, bool]] = {}
    default = ""
    for style in root.iter(ns + "style"):
        if style.get(ns + "type") != "paragraph":
            continue
        ident = style.get(ns + "styleId", "")
        name_el = style.find(ns + "name")
        name = name_el.get(ns + "val", "") if name_el is not None else ident
        based = style.find(ns + "basedOn")
        level = style.find(f"{ns}pPr/{ns}outlineLvl")
        outline = level is not None and level.get(ns + "val", "9") not in ("9",)
        numbered = style.find(f"{ns}pPr/{ns}numPr/{ns}numId")
        listed = numbered is not None and numbered.get(ns + "val") != "0"
        info[ident] = (
            name,
            based.get(ns + "val") if based is not None else None,
            outline,
            listed or "list" in name.lower(),
        )
        if style.get(ns + "default") in ("1", "true"):
            default = ident

    def kind_of(ident: str) -> str:
        seen = set()
        heading = listed = caption = False
        current: str | None = ident
        first = True
        while current in info and current not in seen:
            seen.add(current)
            name, based, outline, is_list = info[current]
            # Only the style's own name speaks for it; "Normal" under a heading means nothing.
            if first and (_HEADING_NAME.search(name) or _HEADING_NAME.search(current)):
                heading = True
            caption |= first and "caption" in name.lower()
            heading |= outline
            listed |= is_list
            first = False
            current = based
        if heading:
            return "heading"
        if listed:
            return "list-item"
        return "caption" if caption else "paragraph"

    kinds = {ident: kind_of(ident) for ident in info}
    kinds[""] = kinds.get(default, "paragraph")
    return kinds


def _xml(data: bytes) -> Any:
    from lxml import etree

    # No entity expansion and no network: a document is untrusted input.
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, huge_tree=True, remove_comments=True
    )
    return etree.fromstring(data, parser=parser)


def _docx_parts(path: Path, archive: zipfile.ZipFile) -> tuple[str, dict[str, str]]:
    """The main document part's name and its relationship targets by type suffix."""
    names = set(archive.namelist())
    main = "word/document.xml"
    if "_rels/.rels" in names:
        for rel in _xml(archive.read("_rels/.rels")).iter(_REL + "Relationship"):
            if rel.get("Type", "").endswith("/officeDocument"):
                main = rel.get("Target", main).lstrip("/")
    if main not in names:
        _fail(path, "not a Word document (no main document part in the .docx package)")
    base = posixpath.dirname(main)
    rels_name = posixpath.join(base, "_rels", posixpath.basename(main) + ".rels")
    targets: dict[str, str] = {}
    if rels_name in names:
        for rel in _xml(archive.read(rels_name)).iter(_REL + "Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target", "")
            full = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            targets[rel.get("Type", "").rsplit("/", 1)[-1]] = posixpath.normpath(full)
    return main, targets


def _docx_comments(xml: bytes | None, ns: str) -> dict[str, tuple[str, str | None]]:
    if xml is None:
        return {}
    comments = {}
    for comment in _xml(xml).iter(ns + "comment"):
        paragraphs = [
            "".join(t.text or "" for t in p.iter(ns + "t")) for p in comment.iter(ns + "p")
        ]
        text = _squash(" ".join(paragraphs))
        comments[comment.get(ns + "id", "")] = (text, comment.get(ns + "author") or None)
    return comments


def _extract_docx(path: Path) -> Extracted:
    from lxml import etree

    _read(path)  # the plain read error first, before zipfile's less helpful one
    try:
        with zipfile.ZipFile(path) as archive:
            main, targets = _docx_parts(path, archive)
            if archive.getinfo(main).file_size > _MAX_PART:
                _fail(path, "the document part is too large to be a notice")
            root = _xml(archive.read(main))

            def part(kind: str) -> bytes | None:
                name = targets.get(kind)
                return archive.read(name) if name and name in archive.namelist() else None

            ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
            styles = _docx_styles(part("styles"), ns)
            comments = _docx_comments(part("comments"), ns)
    except zipfile.BadZipFile:
        return _fail(path, "not a .docx file (not a zip package; is it a renamed .doc or PDF?)")
    except (etree.XMLSyntaxError, KeyError, ValueError, EOFError) as exc:
        return _fail(path, f"damaged .docx file ({exc})")
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        return _fail(path, f"cannot open the .docx package ({exc})")
    body = root.find(ns + "body")
    if root.tag != ns + "document" or body is None:
        return _fail(path, "not a Word document (its main part has no document body)")
    reader = _DocxReader(ns, comments, styles)
    reader.blocks(body, None)
    blocks, notes = reader.result()
    return Extracted(path, "docx", blocks, notes)


_READERS: dict[str, Callable[[Path], Extracted]] = {
    ".txt": _extract_txt,
    ".text": _extract_txt,
    ".htm": _extract_html,
    ".html": _extract_html,
    ".xhtml": _extract_html,
    ".pdf": _extract_pdf,
    ".docx": _extract_docx,
    ".docm": _extract_docx,
}
