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

from docx import Document
from docx.enum.style import WD_STYLE_TYPE
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Inches, Pt

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from generator.render.docx import normalize

BASE = Path(__file__).resolve().parent / "_base"
FIXED = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)


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

    add_style(doc, "Notice Title", "Normal", size=15, bold=True, align=WD_ALIGN_PARAGRAPH.CENTER)
    add_style(doc, "Notice Subject", "Normal", bold=True, align=WD_ALIGN_PARAGRAPH.CENTER)
    add_style(doc, "Notice Body", "Normal", align=WD_ALIGN_PARAGRAPH.JUSTIFY)
    add_style(doc, "Notice Heading", "Normal", size=11.5, bold=True, before=8)
    add_style(doc, "Notice Parcel", "List Bullet")
    add_style(doc, "Notice Map", "Normal", align=WD_ALIGN_PARAGRAPH.CENTER)
    add_style(
        doc, "Notice Caption", "Normal", size=9.5, italic=True, align=WD_ALIGN_PARAGRAPH.CENTER
    )
    add_style(doc, "Notice Signature", "Normal", before=10)
    add_style(doc, "Notice Publication", "Normal", size=9, italic=True, before=8)
    add_style(doc, "Letter Address", "Normal", indent=0.0)
    add_style(doc, "Letter Address Line", "Normal", indent=0.0)
    add_style(doc, "Letter Parcels", "Normal", size=8, italic=True, before=6)
    add_style(doc, "Letter Date", "Normal", before=18)
    doc.styles["Letter Address"].paragraph_format.page_break_before = True
    for name in ("Letter Address", "Letter Address Line"):
        doc.styles[name].paragraph_format.space_after = Pt(0)
    add_style(doc, "Amendment Text", "Normal", indent=0.3)
    add_style(doc, "Amendment Quote", "Normal", italic=True, indent=0.6)
    add_style(doc, "Amendment Heading 1", "Normal", size=11.5, bold=True, indent=0.3, before=6)
    add_style(doc, "Amendment Heading 2", "Normal", bold=True, indent=0.3, before=6)
    add_style(doc, "Amendment Heading 3", "Normal", bold=True, italic=True, indent=0.3, before=4)
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
) -> None:
    """Define a paragraph style on `base`, shown in Word's style gallery."""
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


def newspaper_notice() -> Document:
    """The newspaper legal notice."""
    doc = styled_document("Notice of public hearing")
    paragraph(doc, "Notice Body", '{%p import "phrases.j2" as ph with context %}')
    paragraph(doc, "Notice Title", "{{ ph.title()|squash }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
    notice_body(doc)
    paragraph(doc, "Notice Signature", "{{ ph.signature()|squash }}")
    with block(doc, "if publication_dates"):
        paragraph(doc, "Notice Publication", "{{ ph.publication_dates_line()|squash }}")
    return doc


def letters() -> Document:
    """Every mailed letter of a hearing in one document, each starting on a new page."""
    doc = styled_document("Mailed notice")
    paragraph(doc, "Notice Body", '{%p import "phrases.j2" as ph with context %}')
    with block(doc, "for r in recipients"):
        paragraph(doc, "Letter Address", "{{ r.name }}")
        with block(doc, "for line in r.lines"):
            paragraph(doc, "Letter Address Line", "{{ line }}")
        paragraph(doc, "Letter Address Line", "{{ r.last_line }}")
        with block(doc, "if r.parcels"):
            paragraph(doc, "Letter Parcels", "{{ r.parcels }}")
        paragraph(doc, "Letter Date", "{{ letter.date }}")
        paragraph(doc, "Notice Body", "{{ letter.salutation }}")
        paragraph(doc, "Notice Body", "{{ letter.reason }}")
        paragraph(doc, "Notice Title", "{{ ph.title()|squash }}")
        paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
        notice_body(doc)
        paragraph(doc, "Notice Signature", "Sincerely,")
        paragraph(
            doc,
            "Notice Body",
            "{{ signer.name }}{% if signer.title %}, {{ signer.title }}{% endif %}, {{ municipality }}",
        )
    return doc


def notice_body(doc: Document) -> None:
    """The content a notice and its mailed letters share, clause by clause."""
    marked(doc, "Notice Body", "under_consideration", "{{ ph.under_consideration()|squash }}")
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
        paragraph(doc, "Notice Body", "{{ ph.other_hearings_sentence()|squash }}")
    optional(doc, "right_to_be_heard", "{{ ph.right_to_be_heard()|squash }}")
    with block(doc, "if parcels"):
        paragraph(
            doc,
            "Notice Body",
            '{{r mark("property_identification") }}',
            "{{ ph.property_intro()|squash }}",
        )
        with block(doc, "for p in parcels"):
            paragraph(
                doc,
                "Notice Parcel",
                "{{ ph.parcel(p)|squash }}",
                "{% if loop.last %}",
                '{{r unmark("property_identification") }}',
                "{% endif %}",
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
    paragraph(doc, "Notice Body", "{{ ph.contact_line()|squash }}")
    marked(doc, "Notice Body", "accommodation", "{{ ph.accommodation_line()|squash }}")


def main() -> None:
    """Write every base DOCX template."""
    for name, build in {"newspaper_notice.docx": newspaper_notice, "letters.docx": letters}.items():
        save(build(), BASE / name)


if __name__ == "__main__":
    main()
