"""What a Word draft gives its reader, read back from the file: page numbers, headings, tables.

Shared by the rendering tests and the LibreOffice round trip, so both ask the same questions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docx
from docx.oxml.ns import qn

HEADING = re.compile(r"Title|Heading")


def footers(path: Path) -> list[str]:
    """Each section's footer as it reads, fields shown by their code: "Page {PAGE} of {NUMPAGES}".

    A section without a footer of its own shows the one before it, as Word does.
    """
    out: list[str] = []
    for section in docx.Document(path).sections:
        if section.footer.is_linked_to_previous:
            out.append(out[-1] if out else "")
            continue
        parts: list[str] = []
        result = False  # between a field's "separate" and "end": the last computed value
        for el in section.footer._element.iter(qn("w:t"), qn("w:instrText"), qn("w:fldChar")):
            if el.tag == qn("w:fldChar"):
                result = el.get(qn("w:fldCharType")) == "separate"
            elif el.tag == qn("w:instrText"):
                parts.append(
                    "{" + (el.text or "").split()[0] + "}" if (el.text or "").strip() else ""
                )
            elif not result:
                parts.append(el.text or "")
        out.append("".join(parts))
    return out


def _chain(style: Any) -> list[Any]:
    chain = []
    while style is not None:
        chain.append(style)
        style = style.base_style
    return chain


def outline_level(style: Any) -> int | None:
    """The outline level a paragraph style gives (0 = top), following its base styles."""
    for s in _chain(style):
        level = s.element.find(f"{qn('w:pPr')}/{qn('w:outlineLvl')}")
        if level is not None:
            return int(level.get(qn("w:val")))
    return None


def keeps_with_next(style: Any) -> bool:
    """Whether a paragraph style keeps its paragraph on the page of the next one."""
    for s in _chain(style):
        if s.paragraph_format.keep_with_next is not None:
            return bool(s.paragraph_format.keep_with_next)
    return False


def headings(path: Path) -> list[tuple[str, str, int | None, bool]]:
    """Every paragraph in a Title or Heading style: (text, style, outline level, keep with next)."""
    document = docx.Document(path)
    return [
        (p.text, p.style.name, outline_level(p.style), keeps_with_next(p.style))
        for p in document.paragraphs
        if HEADING.search(p.style.name)
    ]


@dataclass(frozen=True)
class Table:
    """A Word table as a reader meets it."""

    style: str | None
    header: list[str]
    rows: list[list[str]]
    header_repeats: bool
    rows_split: bool  # may a row break across pages?


def tables(path: Path) -> list[Table]:
    """The tables of the body, in order."""
    out = []
    for table in docx.Document(path).tables:
        trs = table._tbl.findall(qn("w:tr"))

        def flag(tr: Any, name: str) -> bool:
            el = tr.find(f"{qn('w:trPr')}/{qn(name)}")
            return el is not None and el.get(qn("w:val"), "true") not in ("0", "false")

        cells = [[c.text for c in row.cells] for row in table.rows]
        out.append(
            Table(
                style=table.style.name if table.style is not None else None,
                header=cells[0],
                rows=cells[1:],
                header_repeats=flag(trs[0], "w:tblHeader"),
                rows_split=not all(flag(tr, "w:cantSplit") for tr in trs),
            )
        )
    return out


def table_with(path: Path, first_heading: str) -> Table:
    """The one table whose heading row starts with `first_heading`."""
    (found,) = [t for t in tables(path) if t.header and t.header[0] == first_heading]
    return found


def libreoffice(files: list[Path], to: str, out: Path, profile: Path) -> None:
    """Open `files` in LibreOffice and save them `to` a format ("pdf", "docx:MS Word 2007 XML")."""
    import shutil
    import subprocess

    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice is needed: apt-get install libreoffice-writer-nogui (.ci/run does)"
    subprocess.run(
        [soffice, "--headless", f"-env:UserInstallation=file://{profile}", "--convert-to", to,
         "--outdir", str(out), *map(str, files)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip


def outline(pdf: Path) -> list[str]:
    """The top-level bookmarks of a PDF (from the outline levels of the Word headings)."""
    import pypdf

    return [item.title for item in pypdf.PdfReader(pdf).outline if not isinstance(item, list)]
