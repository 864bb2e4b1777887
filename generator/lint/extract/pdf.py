"""PDF notices as numbered lines, page by page; a mail-merged PDF's shared body read once."""

from __future__ import annotations

import contextlib
import ctypes
import io
import re
import zlib
from pathlib import Path
from typing import Any

from generator.lint import limits
from generator.lint.extract.blocks import Block, Extracted, _fail, _head
from generator.lint.extract.pdf_pages import (
    LOCKED,
    _dehyphenate,
    _page_lines,
    _page_raw,
    _pdf_open,
    _pdf_read,
)


def extract_pdf_pages(path: Path) -> list[str]:
    """The text of each page of a PDF, lines separated by newlines."""
    return ["\n".join(line for line in page if line) for page in pdf_lines(Path(path))]


def _extract_pdf(path: Path, *, once: bool = False) -> Extracted:
    return pdf_extracted(path, pdf_lines(path), once=once)


def pdf_extracted(path: Path, pages: list[list[str]], *, once: bool = False) -> Extracted:
    """The PDF's lines (`pdf_lines`) as numbered blocks; `once`: each text where it first appears."""
    blocks: list[Block] = []
    said: set[str] = set()
    running = 0
    for page_no, lines in enumerate(pages, 1):
        for line_no, text in enumerate(lines, 1):
            running += 1
            if text and not (once and (text in said or said.add(text))):
                blocks.append(Block(running, text, page_no, "line", (), line_no))
    return Extracted(path, "pdf", blocks, [], len(pages))


def pdf_lines(path: Path) -> list[list[str]]:
    """Each page's lines, in order ("" for a line a rejoined word emptied); within the limits."""
    _head(path, 0)  # the plain read error first
    size = path.stat().st_size
    if size > limits.PDF_BYTES:
        limits.over(
            path,
            f"the PDF is {limits.size(size)}, over the {limits.size(limits.PDF_BYTES)} the"
            " linter reads",
        )
    _within_limits(path)
    _give_back()
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


# Filters whose output is no longer than their input, and the pictures' codecs: text is read
# without decoding a picture.
_NOT_EXPANDED = frozenset(
    (
        "/ASCIIHexDecode",
        "/ASCII85Decode",
        "/DCTDecode",
        "/JPXDecode",
        "/JBIG2Decode",
        "/CCITTFaxDecode",
    )
)


def _within_limits(path: Path) -> None:
    """`LimitError` if the PDF has more pages than the linter reads, or its streams expand to more.

    Counted before pdfium expands anything (a flate bomb): Flate streams are inflated a piece
    at a time and thrown away, others counted as stored; LZW and RunLength are expanded only
    when small. Pictures count too: a stream's /Subtype cannot be trusted to say how it is read.
    """
    import pikepdf

    left = limits.PDF_EXPANDED
    most = limits.size(limits.PDF_EXPANDED)
    try:
        with pikepdf.open(path) as pdf:
            count = len(pdf.pages)
            if not count:
                _fail(path, "the PDF has no pages")
            if count > limits.PDF_PAGES:
                limits.over(
                    path,
                    f"the PDF has {count:,} pages, over the {limits.PDF_PAGES:,} the linter reads",
                )
            for obj in pdf.objects:
                if not isinstance(obj, pikepdf.Stream):
                    continue
                chain = obj.get(pikepdf.Name.Filter)
                if chain is None:
                    chain = []
                filters = [
                    str(f) for f in (chain if isinstance(chain, (list, pikepdf.Array)) else [chain])
                ]
                raw = obj.read_raw_bytes()
                if set(filters) <= _NOT_EXPANDED:
                    left -= len(raw)
                elif filters == ["/FlateDecode"]:
                    left -= _inflated(raw, left + 1)
                elif len(raw) <= limits.PDF_OTHER_FILTER_BYTES:
                    left -= len(obj.read_bytes())
                else:
                    limits.over(
                        path,
                        f"a stream of {limits.size(len(raw))} is compressed by {' '.join(filters)},"
                        f" which the linter expands only up to {limits.size(limits.PDF_OTHER_FILTER_BYTES)}",
                    )
                if left < 0:
                    limits.over(
                        path,
                        f"the PDF's contents expand to more than {most}, the most the linter reads",
                    )
    except pikepdf.PasswordError:
        _fail(path, LOCKED)
    except pikepdf.PdfError as exc:
        _fail(path, f"not a readable PDF ({exc})")


def _inflated(data: bytes, most: int) -> int:
    """How many bytes `data` inflates to, counted up to `most` without holding them."""
    inflate, total = zlib.decompressobj(), 0
    try:
        while data and total < most:
            total += len(inflate.decompress(data, 1 << 20))
            data = inflate.unconsumed_tail
    except zlib.error:
        pass  # a damaged stream: pdfium reads what inflates, as counted
    return total


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
    stripped = _stripped(path, count)
    if stripped is None:
        return None
    _give_back()  # pikepdf's objects of every page are gone: pdfium reads next
    kinds, data = stripped
    return _compose(path, data, kinds, count)


def _give_back() -> None:
    """Return the memory freed so far to the system (glibc), so what pdfium takes next adds none.

    pikepdf holds every page's objects while it checks a long PDF; freed, glibc keeps them for
    itself, where pdfium's own allocator cannot reuse them.
    """
    with contextlib.suppress(OSError, AttributeError):  # not glibc: reused in time, or given back
        ctypes.CDLL(None).malloc_trim(0)


def _stripped(path: Path, count: int) -> tuple[list[Any], bytes] | None:
    """The PDF with its shared forms drawing nothing, and each page's kind (`_shared_plan`)."""
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
    return kinds, buffer.getvalue()


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
