"""PDF pages as pdfium reads them into lines, soft-hyphenated words rejoined, long files in parallel."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from generator.lint.extract.blocks import _fail, _squash
from generator.processes import NO_WORKERS, cpus, pool

# Characters PDF producers use for a hyphen that exists only because the line broke there:
# soft hyphen, and the markers pdfium substitutes for a line-end hyphen it judges soft.
_SOFT_HYPHENS = ("\u00ad", "\x02", "\ufffe")
_HYPHEN = "\u2010"  # WeasyPrint draws every soft or automatic break as U+2010, never as "-"
_LINE_END_HYPHENS = frozenset((*_SOFT_HYPHENS, _HYPHEN))
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufeff]")
_PARALLEL_MIN_PAGES = 400  # below this, starting worker processes costs more than it saves

LOCKED = "the PDF is password-protected; save an unprotected copy to lint it"

_worker_doc: Any = None
_worker_raw = False
_worker_source: str | bytes = b""
_worker_read = 0  # pages read since the worker's document was opened
_REOPEN_PAGES = 3000  # then opened again (~0.1 s), to let go of what pdfium keeps of them


def _pdf_open(path: Path) -> Any:
    import pypdfium2 as pdfium

    try:
        return pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        reason = str(exc)
        if "password" in reason.lower():
            return _fail(path, LOCKED)
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
    global _worker_doc, _worker_raw, _worker_source, _worker_read
    import pypdfium2 as pdfium

    _worker_doc = pdfium.PdfDocument(source)  # one open document per worker process
    _worker_raw, _worker_source, _worker_read = raw, source, 0


def _pdf_worker_chunk(span: tuple[int, int]) -> list[list[str]]:
    global _worker_doc, _worker_read
    import pypdfium2 as pdfium

    if _worker_read >= _REOPEN_PAGES:
        # pdfium keeps what it parsed of every page read (~5 MB a thousand letters) until the
        # document closes: opened afresh, a worker holds what one stretch of pages needs.
        _worker_doc.close()
        _worker_doc, _worker_read = pdfium.PdfDocument(_worker_source), 0
    _worker_read += span[1] - span[0]
    read = _page_raw if _worker_raw else _page_lines
    return [read(_worker_doc, i) for i in range(*span)]


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
    # processes, each opening the file once.
    size = max(50, min(500, -(-count // (workers * 4))))
    spans = [(start, min(start + size, count)) for start in range(0, count, size)]
    workers_pool = pool(workers, spawn=True, initializer=_pdf_worker_init, initargs=(source, raw))
    if workers_pool is None:
        return None
    try:
        return [page for chunk in workers_pool.map(_pdf_worker_chunk, spans) for page in chunk]
    except pdfium.PdfiumError as exc:
        return _fail(path, f"not a readable PDF ({exc})")
    except NO_WORKERS:
        return None  # no worker processes here: read serially
    finally:
        # After an error or the document's time limit, the chunks not yet begun are dropped.
        workers_pool.shutdown(wait=True, cancel_futures=True)
