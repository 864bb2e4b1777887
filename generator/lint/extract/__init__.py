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

The readers, one module a format: `txt`, `html`, `pdf` (with `pdf_pages`), `docx` (with
`docx_body`); `blocks` holds what they all produce.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from generator.lint.extract.blocks import Block, Extracted, Note, _fail
from generator.lint.extract.docx import _extract_docx
from generator.lint.extract.html import _extract_html
from generator.lint.extract.pdf import _extract_pdf, extract_pdf_pages, pdf_extracted, pdf_lines
from generator.lint.extract.txt import _extract_txt

__all__ = [
    "Block",
    "Extracted",
    "Note",
    "check_format",
    "extract",
    "extract_pdf_pages",
    "pdf_extracted",
    "pdf_lines",
]


def extract(path: Path, *, once: bool = False) -> Extracted:
    """Read a notice file by its suffix; raise `UserError` if it is unsupported or unreadable.

    `once`: each block's text only where it first appears, its number kept (a mail merge: every
    letter's own lines, and the body they share once). A file over one of the reading limits
    (`generator.lint.limits`) raises `LimitError`.
    """
    path = Path(path)
    check_format(path)
    suffix = path.suffix.lower()
    if suffix in _READ_ONCE:
        return _READERS[suffix](path, once=once)
    ext = _READERS[suffix](path)
    return _each_block_once(ext) if once else ext


def _each_block_once(ext: Extracted) -> Extracted:
    seen: set[str] = set()
    kept = [b for b in ext.blocks if not (b.text in seen or seen.add(b.text))]
    if len(kept) == len(ext.blocks):
        return ext
    return Extracted(ext.path, ext.format, kept, ext.notes, ext.pages, ext.has_image)


def check_format(path: Path) -> None:
    """Raise `UserError` unless lint reads files of this kind (by suffix)."""
    suffix = path.suffix.lower()
    if suffix not in _READERS:
        hint = (
            " (open it in Word and save it as .docx)" if suffix in {".doc", ".rtf", ".odt"} else ""
        )
        _fail(
            path,
            f"cannot lint a '{suffix or path.name}' file: lint reads .txt, .html, .pdf and .docx{hint}",
        )


_READERS: dict[str, Callable[..., Extracted]] = {
    ".txt": _extract_txt,
    ".text": _extract_txt,
    ".htm": _extract_html,
    ".html": _extract_html,
    ".xhtml": _extract_html,
    ".pdf": _extract_pdf,
    ".docx": _extract_docx,
    ".docm": _extract_docx,
}
# The readers that leave out repeated blocks as they read (`once=`), never holding them all.
_READ_ONCE = frozenset((".pdf", ".docx", ".docm"))
