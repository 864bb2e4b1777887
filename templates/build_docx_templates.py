"""Write the base DOCX templates (templates/_base/*.docx) with python-docx.

The .docx files are committed so that a lawyer or clerk can open and restyle them in Word;
this script is how they were made, and remakes them after a change: `make docx-templates`.
Every paragraph uses a named Word style (no hard formatting), so edits in Word stay clean.
Jinja tags follow docxtpl's rules: `{%p %}` alone in its paragraph, `{{r %}}` for bookmarks.
"""

from __future__ import annotations

import datetime as dt
import io
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches, Pt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.render.docx import normalize

BASE = Path(__file__).resolve().parent / "_base"
FIXED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
CENTER = WD_ALIGN_PARAGRAPH.CENTER


def styled_document(title: str) -> Document:
    """A document with the notice styles defined and fixed core properties."""
    doc = Document()
    section = doc.sections[0]
    section.page_width, section.page_height = Inches(8.5), Inches(11)
    for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
        setattr(section, side, Inches(1))
    normal = doc.styles["Normal"]
    normal.font.name = "Times New Roman"
    normal.font.size = Pt(11)
    normal.paragraph_format.space_after = Pt(6)

    # Headings carry outline levels (Word's navigation pane, PDF bookmarks) and stay with
    # what follows them, so none ends a page alone.
    add_style(doc, "Notice Title", size=15, bold=True, align=CENTER, outline=0, keep=True)
    add_style(doc, "Notice Subject", bold=True, align=CENTER, keep=True)
    add_style(doc, "Notice Body", align=WD_ALIGN_PARAGRAPH.JUSTIFY)
    add_style(doc, "Notice Lead-in", "Notice Body", keep=True)
    add_style(doc, "Notice Statement", "Notice Body", align=WD_ALIGN_PARAGRAPH.LEFT)
    doc.styles["Notice Statement"].paragraph_format.keep_together = True
    add_style(doc, "Notice Heading", size=11.5, bold=True, before=8, outline=1, keep=True)
    add_style(doc, "Notice Map", align=CENTER, keep=True)
    add_style(doc, "Notice Caption", size=9.5, italic=True, align=CENTER)
    add_style(doc, "Notice Signature", before=10)
    add_style(doc, "Notice Publication", size=9, italic=True, before=8, keep=True)
    add_style(doc, "Letter Address", indent=0.0)
    add_style(doc, "Letter Address Line", indent=0.0)
    add_style(doc, "Letter Parcels", size=8, italic=True, before=6)
    add_style(doc, "Letter Date", before=18)
    doc.styles["Letter Address"].paragraph_format.page_break_before = True
    for name in ("Letter Address", "Letter Address Line"):
        doc.styles[name].paragraph_format.space_after = Pt(0)
    add_style(doc, "Amendment Text", indent=0.3)
    add_style(doc, "Amendment Quote", italic=True, indent=0.6)
    heading = {"bold": True, "indent": 0.3, "keep": True}
    add_style(doc, "Amendment Heading 1", size=11.5, before=6, outline=2, **heading)
    add_style(doc, "Amendment Heading 2", before=6, outline=3, **heading)
    add_style(doc, "Amendment Heading 3", italic=True, before=4, outline=4, **heading)
    add_style(doc, "Notice Table Header", size=10, bold=True, before=2, after=2, keep=True)
    add_style(doc, "Notice Table Text", size=10, before=2, after=2)
    add_style(doc, "Notice Table End", size=6, after=0)
    add_style(doc, "Notice End", size=1, after=0)
    doc.styles["Notice End"].paragraph_format.line_spacing = Pt(1)
    doc.styles["Notice End"].font.hidden = True
    table_style(doc)
    add_style(doc, "Notice Footer", "Footer", size=9, align=CENTER)
    page_footer(doc.sections[0])
    props = doc.core_properties
    props.title, props.author, props.last_modified_by = title, "Zoning Notices", "Zoning Notices"
    props.created = props.modified = FIXED
    props.revision = 1
    return doc


def add_style(
    doc: Document,
    name: str,
    base: str = "Normal",
    *,
    size: float | None = None,
    bold: bool = False,
    italic: bool = False,
    align: WD_ALIGN_PARAGRAPH | None = None,
    indent: float | None = None,
    before: float | None = None,
    after: float | None = None,
    keep: bool = False,
    outline: int | None = None,
) -> None:
    """Define a paragraph style on `base`, shown in Word's style gallery.

    `keep` keeps the paragraph whole and on the page of the next one (headings, lead-ins);
    `outline` is its level in Word's navigation pane (0 for the title).
    """
    style = doc.styles.add_style(name, WD_STYLE_TYPE.PARAGRAPH)
    style.base_style = doc.styles[base]
    style.quick_style = True
    if size:
        style.font.size = Pt(size)
    style.font.bold = bold or None
    style.font.italic = italic or None
    fmt = style.paragraph_format
    if align is not None:
        fmt.alignment = align
    if indent is not None:
        fmt.left_indent = Inches(indent)
    if before is not None:
        fmt.space_before = Pt(before)
    if after is not None:
        fmt.space_after = Pt(after)
    if keep:
        fmt.keep_with_next = fmt.keep_together = True
    if outline is not None:
        level = OxmlElement("w:outlineLvl")
        level.set(qn("w:val"), str(outline))
        # schema order: outlineLvl comes after jc and before rPr
        style.element.get_or_add_pPr().insert_element_before(
            level, "w:divId", "w:cnfStyle", "w:rPr", "w:sectPr", "w:pPrChange"
        )


def table_style(doc: Document) -> None:
    """The "Notice Table" style: rules above, below and between rows, none between columns."""
    style = doc.styles.add_style("Notice Table", WD_STYLE_TYPE.TABLE)
    style.base_style = doc.styles["Normal Table"]
    style.quick_style = True
    tbl_pr = OxmlElement("w:tblPr")
    borders = OxmlElement("w:tblBorders")
    for side, size in (("top", 8), ("bottom", 8), ("insideH", 4)):
        rule = OxmlElement(f"w:{side}")
        for key, value in (("val", "single"), ("sz", str(size)), ("space", "0"), ("color", "auto")):
            rule.set(qn(f"w:{key}"), value)
        borders.append(rule)
    tbl_pr.append(borders)
    margins = OxmlElement("w:tblCellMar")
    for side, twips in (("left", 86), ("right", 86)):
        margin = OxmlElement(f"w:{side}")
        margin.set(qn("w:w"), str(twips))
        margin.set(qn("w:type"), "dxa")
        margins.append(margin)
    tbl_pr.append(margins)
    style.element.append(tbl_pr)


def page_footer(section: Any) -> None:
    """ "Page X of Y" centred in the footer, from Word's PAGE and NUMPAGES fields.

    Later sections inherit this footer unless they define their own.
    """
    p = section.footer.paragraphs[0]
    p.style = "Notice Footer"
    p.add_run("Page ")
    field(p, "PAGE")
    p.add_run(" of ")
    field(p, "NUMPAGES")


def field(p: Any, code: str) -> None:
    """A Word field in `p`, showing "1" until Word or LibreOffice lays out the pages."""

    def mark(kind: str) -> None:
        char = OxmlElement("w:fldChar")
        char.set(qn("w:fldCharType"), kind)
        p.add_run()._r.append(char)

    mark("begin")
    instruction = OxmlElement("w:instrText")
    instruction.set(qn("xml:space"), "preserve")
    instruction.text = f" {code} "
    p.add_run()._r.append(instruction)
    mark("separate")
    p.add_run("1")
    mark("end")


def save(doc: Document, path: Path) -> None:
    """Write `doc` with the package normalized, so a rebuild is byte-identical."""
    out = io.BytesIO()
    doc.save(out)
    path.write_bytes(normalize(out.getvalue()))
    print(f"wrote {path.relative_to(BASE.parent.parent)}")


def paragraph(doc: Document, style: str, *runs: str) -> None:
    """Add one paragraph of `style` with each piece of text in its own run."""
    p = doc.add_paragraph(style=style)
    for text in runs:
        p.add_run(text)


@contextmanager
def block(doc: Document, statement: str) -> Iterator[None]:
    """Put what is written inside between `{%p statement %}` and its `{%p end… %}`.

    docxtpl drops a `{%p %}` paragraph whole, so each tag needs a paragraph of its own.
    """
    paragraph(doc, "Notice Body", f"{{%p {statement} %}}")
    yield
    paragraph(doc, "Notice Body", f"{{%p end{statement.split()[0]} %}}")


def marked(doc: Document, style: str, topic: str, text: str) -> None:
    """A paragraph that is one whole clause, bookmarked `clause_<rule id>` for each rule."""
    paragraph(doc, style, f'{{{{r mark("{topic}") }}}}', text, f'{{{{r unmark("{topic}") }}}}')


def optional(doc: Document, topic: str, text: str) -> None:
    """A clause paragraph printed only when the pack requires the clause."""
    with block(doc, f'if "{topic}" in clauses'):
        marked(doc, "Notice Body", topic, text)


Column = tuple[str, float, str]


def table(doc: Document, statement: str, columns: list[Column], *, last: bool = False) -> None:
    """A "Notice Table" with one row for each turn of `{%tr statement %}`.

    `columns` are (heading, width in inches, the cell's text). The heading row repeats on every
    page the table runs onto, and no row splits across a page break. A table that may end the
    document is `last`: `closing_paragraph()` must follow it.
    A clause bookmark must not run into a table: LibreOffice splits it there.
    """
    grid = doc.add_table(rows=4, cols=len(columns))
    grid.style = doc.styles["Notice Table"]
    grid.autofit = False
    head, loop, item, loop_end = grid.rows
    for row, flag in ((head, "w:tblHeader"), (head, "w:cantSplit"), (item, "w:cantSplit")):
        row._tr.get_or_add_trPr().append(OxmlElement(flag))
    loop.cells[0].paragraphs[0].add_run(f"{{%tr {statement} %}}")
    loop_end.cells[0].paragraphs[0].add_run(f"{{%tr end{statement.split()[0]} %}}")
    for n, (title, width, text) in enumerate(columns):
        grid.columns[n].width = Inches(width)
        for row in grid.rows:
            row.cells[n].width = Inches(width)
            row.cells[n].paragraphs[0].style = "Notice Table Text"
        head.cells[n].paragraphs[0].style = "Notice Table Header"
        head.cells[n].paragraphs[0].add_run(title)
        item.cells[n].paragraphs[0].add_run(text)
    if not last:  # Word puts no space after a table; this empty paragraph is that space.
        paragraph(doc, "Notice Table End")


def closing_paragraph(doc: Document) -> None:
    """The paragraph Word and LibreOffice need after a table that ends a document.

    Hidden and 1 pt high: a table that fills the last page must not push it onto a blank one.
    """
    doc.add_paragraph(style="Notice End")


def newspaper_notice() -> Document:
    """The newspaper legal notice."""
    doc = styled_document("Notice of public hearing")
    paragraph(doc, "Notice Body", '{%p import "phrases.j2" as ph with context %}')
    paragraph(doc, "Notice Title", "{{ ph.title()|squash }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
    notice_body(doc)
    paragraph(doc, "Notice Signature", "{{ ph.signature()|squash }}")
    with block(doc, "if publication_dates"):
        paragraph(doc, "Notice Publication", "{{ ph.publication_dates_intro()|squash }}")
        table(
            doc,
            "for d in publication_dates",
            [
                ("Insertion", 0.9, "{{ loop.index }}"),
                ("Publication date", 2.6, "{{ d|long_date }}"),
            ],
            last=True,
        )
    closing_paragraph(doc)
    return doc


def letters() -> Document:
    """The mailed letter, laid out for a #10 double-window envelope; the mail merge copies it.

    A table of rows of exact height holds the return address and the recipient's where the
    envelope's windows show them (mail_merge's geometry), so no edit above can push the address
    out of its window. Each letter becomes a section of its own (mail_merge.combine_word), whose
    page numbers start again at 1; later pages keep a 1 in top margin through their header.
    """
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    from generator.documents.mail_merge import RETURN_AT

    doc = styled_document("Mailed notice")
    doc.styles["Normal"].font.size = Pt(10)  # as the PDF letter: as few sheets as it can take
    section = doc.sections[0]
    section.top_margin = Inches(RETURN_AT[1])
    section.header_distance = Inches(RETURN_AT[1] / 2)
    section.different_first_page_header_footer = True
    _letter_styles(doc)
    # The first page's header is empty and takes no room; later pages' pushes the text to 1 in.
    section.first_page_header.paragraphs[0].style = doc.styles["Letter Spacer"]
    section.header.paragraphs[0].paragraph_format.space_after = Pt(72 * (1 - RETURN_AT[1] / 2) - 14)
    for footer in (section.first_page_footer, section.footer):
        _page_number(footer)
    numbering = parse_xml(f'<w:pgNumType {nsdecls("w")} w:start="1"/>')
    section._sectPr.find(qn("w:cols")).addprevious(numbering)  # before cols: the schema's order

    paragraph(doc, "Notice Body", '{%p import "phrases.j2" as ph with context %}')
    _window_table(doc)
    paragraph(doc, "Letter Parcels", "{{ r.parcels }}")
    paragraph(doc, "Letter Date", "{{ letter.date }}")
    paragraph(doc, "Notice Body", "{{ letter.salutation }}")
    paragraph(doc, "Notice Body", "{{ letter.reason }}")
    paragraph(doc, "Notice Title", "{{ ph.title()|squash }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
    notice_body(doc)
    # The closing stays on the page of the last paragraph: a signature never stands alone.
    last = next(p for p in reversed(doc.paragraphs) if not p.text.startswith("{%p"))
    last.paragraph_format.keep_with_next = True
    paragraph(doc, "Notice Signature", "Sincerely,")
    doc.paragraphs[-1].paragraph_format.keep_with_next = True
    paragraph(
        doc,
        "Notice Body",
        "{{ signer.name }}{% if signer.title %}, {{ signer.title }}{% endif %}, {{ municipality }}",
    )
    return doc


def _letter_styles(doc: Document) -> None:
    """The letter's address styles: set in lines of exact height, the recipient's clear of the
    window's edges."""
    from docx.enum.text import WD_LINE_SPACING

    from generator.documents.mail_merge import ADDRESS_AT

    section = doc.sections[0]
    left, right = (
        section.left_margin.inches,
        section.page_width.inches - section.right_margin.inches,
    )
    add_style(doc, "Letter Return", "Normal")
    add_style(doc, "Letter Spacer", "Normal")
    exact = {
        "Letter Return": (8.5, 10, 0.0, 0.0),
        "Letter Spacer": (1, 1, 0.0, 0.0),
        "Letter Address": (10, 11, ADDRESS_AT[0] - left, right - ADDRESS_AT[0] - ADDRESS_AT[2]),
    }
    exact["Letter Address Line"] = exact["Letter Address"]
    for name, (size, line, indent, outdent) in exact.items():
        doc.styles[name].font.size = Pt(size)
        fmt = doc.styles[name].paragraph_format
        fmt.line_spacing_rule, fmt.line_spacing = WD_LINE_SPACING.EXACTLY, Pt(line)
        fmt.space_before = fmt.space_after = Pt(0)
        fmt.left_indent, fmt.right_indent = Inches(indent), Inches(outdent)
        fmt.page_break_before = False
    doc.styles["Letter Date"].paragraph_format.space_before = Pt(0)


def _window_table(doc: Document) -> None:
    """The return address and the recipient's, in rows of exact height from the top margin."""
    from itertools import pairwise

    from docx.enum.table import WD_ROW_HEIGHT_RULE
    from docx.oxml import parse_xml
    from docx.oxml.ns import nsdecls

    from generator.documents.mail_merge import ADDRESS_AT, BODY_TOP_IN, RETURN_AT

    section = doc.sections[0]
    # A layout table, not a list: its own style tells it from the notice's tables of rows.
    layout = doc.styles.add_style("Letter Window", WD_STYLE_TYPE.TABLE)
    layout.base_style = doc.styles["Normal Table"]
    table = doc.add_table(rows=4, cols=1)
    table.style = layout
    table.autofit = False  # a fixed layout: the column keeps its width
    no_margins = "".join(
        f'<w:{side} w:w="0" w:type="dxa"/>' for side in ("top", "left", "bottom", "right")
    )
    look = table._tbl.tblPr.find(qn("w:tblLook"))  # cell margins come before it (schema order)
    look.addprevious(parse_xml(f"<w:tblCellMar {nsdecls('w')}>{no_margins}</w:tblCellMar>"))
    return_end, address_end = RETURN_AT[1] + RETURN_AT[3], ADDRESS_AT[1] + ADDRESS_AT[3]
    tops = (RETURN_AT[1], return_end, ADDRESS_AT[1], address_end, BODY_TOP_IN)
    width = Inches(
        section.page_width.inches - section.left_margin.inches - section.right_margin.inches
    )
    for row, (top, bottom) in zip(table.rows, pairwise(tops), strict=True):
        row.height, row.height_rule = Inches(bottom - top), WD_ROW_HEIGHT_RULE.EXACTLY
        row.cells[0].width = width
        row.cells[0].paragraphs[0].style = doc.styles["Letter Spacer"]
    rows = {
        0: (("Letter Return", "{%p for line in letter.sender %}"), ("Letter Return", "{{ line }}"),
            ("Letter Return", "{%p endfor %}")),
        2: (("Letter Address", "{{ r.name }}"), ("Letter Address Line", "{{ r.lines }}"),
            ("Letter Address Line", "{{ r.last_line }}")),
    }  # fmt: skip
    for index, lines in rows.items():
        box = table.rows[index].cells[0]
        box.paragraphs[0]._p.getparent().remove(box.paragraphs[0]._p)
        for style, text in lines:
            box.add_paragraph(text, style=doc.styles[style])


def _page_number(footer: Any) -> None:
    """`Page N` in `footer`, N counted from each letter's first page.

    It replaces page_footer's "Page X of Y": the whole file's count means nothing to the owner
    of one letter, and LibreOffice cannot count a section's pages (SECTIONPAGES).
    """
    for extra in footer.paragraphs[1:]:
        extra._p.getparent().remove(extra._p)
    line = footer.paragraphs[0]
    for child in [c for c in line._p if c.tag != qn("w:pPr")]:
        line._p.remove(child)
    line.style = "Notice Footer"
    line.add_run("Page ")
    field(line, "PAGE")


def custom(doc: Document, placement: str) -> None:
    """The statements of the pack-defined clauses placed at `placement`, each bookmarked."""
    runs = ("{{r mark(c.key) }}", "{{r typed(c) }}", "{{r unmark(c.key) }}")
    # A statement in a type of its own (bold 14-point) reads ragged-right and whole, as
    # justified large type leaves rivers; its bold and size are the run's (typed).
    with block(doc, f"for c in custom_clauses.{placement}"), block(doc, "if c.type"):
        paragraph(doc, "Notice Statement", *runs)
        paragraph(doc, "Notice Body", "{%p else %}")
        paragraph(doc, "Notice Body", *runs)


def notice_body(doc: Document) -> None:
    """The content a notice and its mailed letters share, clause by clause."""
    marked(doc, "Notice Body", "under_consideration", "{{ ph.under_consideration()|squash }}")
    custom(doc, "before_hearing")
    paragraph(
        doc,
        "Notice Body",
        '{{r mark("hearing_body") }}',
        '{{r mark("hearing_when_where") }}',
        "{{ ph.hearing_when_where()|squash }}",
        '{{r unmark("hearing_when_where") }}',
        '{{r unmark("hearing_body") }}',
    )
    with block(doc, "if other_hearings"):
        paragraph(doc, "Notice Lead-in", "{{ ph.other_hearings_intro()|squash }}")
        table(
            doc,
            "for h in other_hearings",
            [
                ("Hearing before", 2.0, "{{ h.body_name }}"),
                ("Date and time", 1.9, "{{ h.when }}"),
                ("Place", 2.6, "{{ h.place }}, {{ h.address }}"),
            ],
        )
    custom(doc, "after_hearing")
    optional(doc, "right_to_be_heard", "{{ ph.right_to_be_heard()|squash }}")
    with block(doc, "if parcels"):
        # The bookmark holds the lead-in only: LibreOffice splits one that runs into a table.
        marked(doc, "Notice Lead-in", "property_identification", "{{ ph.property_intro()|squash }}")
        table(
            doc,
            "for p in parcels",
            [
                ("Parcel", 1.1, "{{ p.id }}"),
                ("Location", 2.0, "{{ ph.parcel_location(p)|squash }}"),
                ("Area", 0.9, "{{ p.area.text() if p.area else '' }}"),
                ("Present zoning", 1.25, "{{ p.current_district or '' }}"),
                ("Proposed zoning", 1.25, "{{ p.proposed_district or '' }}"),
            ],
        )
    optional(doc, "district_change", "{{ ph.district_change()|squash }}")
    with block(doc, "if area_description"):
        marked(doc, "Notice Body", "area_description", "{{ ph.area_sentence()|squash }}")
    marked(doc, "Notice Heading", "proposal_statement", "{{ ph.proposal_heading()|squash }}")
    with block(doc, "if ph.applicant_line()"):
        paragraph(doc, "Notice Body", "{{ ph.applicant_line()|squash }}")
    with block(doc, "if amendment.print_full_text"):
        paragraph(doc, "Amendment Text", "{{p full_text }}")
        paragraph(doc, "Notice Body", "{%p else %}")
        paragraph(doc, "Notice Body", "{{ amendment.summary|squash }}")
    with block(
        doc,
        'if "intent_and_effect" in clauses or (amendment.intent_and_effect and not amendment.print_full_text)',
    ):
        paragraph(
            doc,
            "Notice Body",
            '{{r unmark("proposal_statement") }}',
            '{{r mark("intent_and_effect") }}',
            "{{ ph.intent_and_effect()|squash }}",
            '{{r unmark("intent_and_effect") }}',
        )
    for topic in (
        "standards_changes",
        "nature_and_extent",
        "proposed_use",
        "noise_zone_statement",
        "special_use_permit_review",
    ):
        optional(doc, topic, f"{{{{ ph.{topic}()|squash }}}}")
    with block(doc, "if map"):
        paragraph(doc, "Notice Map", '{{r mark("map") }}', "{{ map_image }}")
        paragraph(doc, "Notice Caption", "{{ ph.map_caption()|squash }}", '{{r unmark("map") }}')
    paragraph(
        doc,
        "Notice Body",
        '{{r unmark("proposal_statement") }}',
        '{{r mark("where_to_examine") }}',
        "{{ ph.where_to_examine()|squash }}",
        '{{r unmark("where_to_examine") }}',
    )
    optional(doc, "full_text_from_clerk", "{{ ph.full_text_from_clerk()|squash }}")
    optional(doc, "merger_clause", "{{ ph.merger_clause()|squash }}")
    optional(doc, "may_be_amended", "{{ ph.may_be_amended()|squash }}")
    custom(doc, "end")
    paragraph(doc, "Notice Body", "{{ ph.contact_line()|squash }}")
    marked(doc, "Notice Body", "accommodation", "{{ ph.accommodation_line()|squash }}")


def main() -> None:
    """Write every base DOCX template."""
    for name, build in {"newspaper_notice.docx": newspaper_notice, "letters.docx": letters}.items():
        save(build(), BASE / name)


if __name__ == "__main__":
    main()
