"""Write the DOCX templates of the proofs of notice (templates/_base/<document>.docx).

Like build_docx_templates.py, whose styles and helpers it reuses: every paragraph has a named Word
style (no hard formatting) and the wording comes from proof_phrases.j2, shared with the HTML.
A proof is sworn (venue caption, oath, jurat) only when the pack wants it notarized; the lists
(persons mailed, insertions, places) are Word tables whose header row repeats on every page and
whose rows are never split. Run it after changing the layout: `make docx-templates`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docx import Document

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_docx_templates import BASE, add_style, block, paragraph, save, styled_document
from build_docx_templates import table as notice_table


def proof_document(title: str) -> Document:
    """The notice styles, plus the styles of a proof: body, caption, signature block, table, note."""
    doc = styled_document(title)

    add_style(doc, "Proof Body")  # left-aligned: a form's blanks keep their length
    add_style(doc, "Proof Caption", before=0, after=4)
    add_style(doc, "Proof Signature", before=0, after=0)
    add_style(doc, "Proof Jurat", before=0, after=0, indent=0.5)
    add_style(doc, "Proof List", "List Bullet", size=9, before=0, after=0)
    add_style(doc, "Proof Note", size=9, italic=True, before=10)
    doc.styles["Proof Signature"].paragraph_format.keep_with_next = True
    return doc


def caption(doc: Document) -> None:
    """The venue caption a sworn proof opens with."""
    with block(doc, "if proof.notarized"):
        paragraph(doc, "Proof Caption", "{{ ph.venue()|squash }}")
        paragraph(doc, "Proof Caption", "{{ ph.county()|squash }}    ss.")


def header(doc: Document) -> None:
    """The phrases import, the caption, the proof's title, its subject and the law it is made under."""
    paragraph(doc, "Notice Body", '{%p import "proof_phrases.j2" as ph with context %}')
    caption(doc)
    paragraph(doc, "Notice Title", "{{ proof.title|upper }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
    paragraph(doc, "Notice Caption", "{{ ph.authority()|squash }}")


def table(
    doc: Document, headings: list[str], loop: str, cells: list[str], widths: list[float]
) -> None:
    """A "Notice Table" of one row per item of `loop` (`r in proof.recipients`).

    The heading row repeats at the top of every page and no row breaks across pages; `widths`
    are the columns' widths in inches (the 6.5 in between the margins).
    """
    notice_table(doc, f"for {loop}", list(zip(headings, widths, cells, strict=True)))


def signature_lines(doc: Document, *lines: str) -> None:
    """The signature block: a line to sign on, then what identifies the signer."""
    paragraph(doc, "Notice Signature", lines[0])
    for line in lines[1:]:
        paragraph(doc, "Proof Signature", line)


def jurat(doc: Document, *, affiant: str = "", ours: bool = True) -> None:
    """The notary's part, printed only when the pack wants the proof sworn.

    `ours`: the case's notary takes the oath (the newspaper has its own).
    """
    with block(doc, "if proof.notarized"):
        paragraph(doc, "Notice Signature", f"{{{{ ph.jurat({affiant})|squash }}}}")
        paragraph(doc, "Notice Signature", "{{ proof.blank }}")
        paragraph(doc, "Proof Signature", "Notary Public")
        if ours:
            paragraph(doc, "Proof Signature", "Name of notary: {{ proof.notary.name }}")
            paragraph(doc, "Proof Signature", "My commission expires: {{ proof.notary.expires }}")
        else:
            paragraph(doc, "Proof Signature", "Name of notary: {{ proof.blank }}")
            paragraph(doc, "Proof Signature", "My commission expires: {{ proof.blank }}")
        paragraph(doc, "Proof Jurat", "[Notary seal]")


def recipient_list(doc: Document) -> None:
    """The table of the persons mailed, and the records they were taken from."""
    paragraph(doc, "Notice Heading", "{{ ph.exhibit_heading()|squash }}")
    paragraph(doc, "Proof Note", "{{ ph.source_intro()|squash }}")
    with block(doc, "for g in proof.source.groups"):
        paragraph(doc, "Proof List", "{{ ph.source_group(g)|squash }}")
    with block(doc, "if ph.source_by_hand()"):
        paragraph(doc, "Proof List", "{{ ph.source_by_hand()|squash }}")
    paragraph(doc, "Proof Note", "{{ ph.source_records()|squash }}")
    table(
        doc,
        ["No.", "Name", "Mailing address", "Parcel(s)"],
        "r in proof.recipients",
        ["{{ loop.index }}", "{{ r.name }}", "{{ r.address }}", "{{ r.parcels }}"],
        [0.45, 2.3, 2.65, 1.1],
    )
    with block(doc, "if proof.returned"):
        paragraph(doc, "Notice Heading", "Returned undeliverable")
        paragraph(doc, "Proof Body", "{{ ph.returned_intro()|squash }}")
        table(
            doc,
            ["Name", "Mailing address", "Parcel(s)", "Returned", "Mailed again to"],
            "r in proof.returned",
            [
                "{{ r.name }}",
                "{{ r.address }}",
                "{{ r.parcels }}",
                "{{ r.received_on }}",
                "{{ r.remailed_to or '—' }}",
            ],
            [1.4, 1.6, 0.9, 1.0, 1.6],
        )


def affidavit_of_mailing() -> Document:
    """The affidavit of mailing, with the persons mailed and the notice as exhibits."""
    doc = proof_document("Affidavit of mailing")
    header(doc)
    for clause in (
        "affidavit_oath",
        "affidavit_knowledge",
        "affidavit_notice",
        "affidavit_deposit",
        "affidavit_exhibits",
    ):
        paragraph(doc, "Proof Body", f"{{{{ ph.{clause}()|squash }}}}")
    signature_lines(
        doc,
        "{{ proof.blank }}",
        "{{ ph.affiant_line()|squash }}{% if proof.notarized %}, Affiant{% endif %}",
    )
    with block(doc, "if not proof.notarized"):
        paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    jurat(doc, affiant="proof.affiant.name")
    recipient_list(doc)
    paragraph(doc, "Notice Heading", "Exhibit B")
    paragraph(doc, "Proof Body", "{{ ph.exhibit_b()|squash }}")
    return doc


def certificate_of_mailing() -> Document:
    """The certificate of mailing, with the persons mailed."""
    doc = proof_document("Certificate of mailing")
    header(doc)
    paragraph(doc, "Proof Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.certificate_mailing()|squash }}")
    with block(doc, "if proof.conclusive"):
        paragraph(doc, "Proof Body", "{{ ph.conclusive()|squash }}")
    signature_lines(
        doc,
        "Signature: {{ proof.blank }}",
        "Name: {{ proof.sender.name }}",
        "Title: {{ proof.sender.title or proof.blank }}",
        "Date: {{ proof.blank }}",
    )
    jurat(doc, affiant="proof.sender.name")
    recipient_list(doc)
    return doc


def certificate_of_actual_notice() -> Document:
    """The applicant's certificate that the owners had actual notice of the hearing."""
    doc = proof_document("Certificate of actual notice")
    header(doc)
    paragraph(doc, "Proof Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.certificate_actual_notice()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.delivery()|squash }}")
    with block(doc, "if proof.conclusive"):
        paragraph(doc, "Proof Body", "{{ ph.conclusive()|squash }}")
    with block(doc, "if proof.attachments"):
        paragraph(doc, "Proof Body", "{{ ph.attachments()|squash }}")
    signature_lines(
        doc,
        "{{ proof.applicant }}",
        "By: {{ proof.blank }}",
        "Name and title of the person signing: {{ proof.blank }}",
        "Date: {{ proof.blank }}",
    )
    jurat(doc)
    return doc


def affidavit_of_publication() -> Document:
    """The newspaper's affidavit of the days the notice ran."""
    doc = proof_document("Affidavit of publication")
    header(doc)
    paragraph(doc, "Proof Body", "{{ ph.publication_oath()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.publication_statement()|squash }}")
    table(
        doc,
        ["Insertion", "Issue date", "Page"],
        "day in proof.insertions",
        ["{{ loop.index }}", "{{ day }}", "{{ proof.short_blank }}"],
        [1.0, 3.5, 2.0],
    )
    paragraph(doc, "Proof Note", "{{ ph.publication_dates_note()|squash }}")
    with block(doc, "if proof.attachments"):
        paragraph(doc, "Proof Body", "{{ ph.attachments()|squash }}")
    signature_lines(doc, "{{ proof.blank }}", "{{ ph.publication_signature()|squash }}")
    with block(doc, "if not proof.notarized"):
        paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    jurat(doc, ours=False)
    return doc


def certificate_of_posting() -> Document:
    """The certificate of the notices posted, sworn where the pack asks, with their photographs."""
    doc = proof_document("Certificate of posting")
    header(doc)
    paragraph(doc, "Proof Body", "{{ ph.posting_statement()|squash }}")
    table(
        doc,
        [
            "No.",
            '{{ "Website address" if proof.posted == "website_notice" else "Place" }}',
            "Date and time posted",
            "{% if proof.photos %}Photo{% endif %}",
        ],
        "place in proof.rows",
        [
            "{{ loop.index }}",
            "{{ place or proof.blank }}",
            "{{ proof.short_blank }}",
            "{% if proof.photos %}{{ loop.index }}{% endif %}",
        ],
        [0.45, 3.55, 1.8, 0.7],
    )
    with block(doc, "if proof.legibility"):
        paragraph(doc, "Proof Body", "{{ proof.legibility }}")
    with block(doc, "if proof.requirements"):
        paragraph(doc, "Proof Note", "{{ ph.posting_heading()|squash }}")
        with block(doc, "for line in proof.requirements"):
            paragraph(doc, "Proof List", "{{ line }}")
    signature_lines(
        doc,
        "{{ proof.blank }}",
        "Signature",
        "Name and title: {{ proof.blank }}",
        "Date: {{ proof.blank }}",
    )
    jurat(doc)
    with block(doc, "if proof.photos"):
        paragraph(doc, "Notice Heading", "Photographs of the posted notice")
        with block(doc, "for place in proof.rows"):
            paragraph(
                doc,
                "Proof Body",
                "Photo {{ loop.index }}{% if place %}: {{ place }}{% endif %}, taken on"
                ' {{ ph.blank("date") }} [paste the photograph here]',
            )
    return doc


def sufficiency_certificate() -> Document:
    """The certificate of sufficiency of one hearing's notice: each requirement judged, the clerk's signature.

    Its wording is in sufficiency_phrases.j2, shared with sufficiency_certificate.html.j2.
    """
    doc = proof_document("Certificate of sufficiency of notice")
    paragraph(doc, "Notice Body", '{%p import "sufficiency_phrases.j2" as ph with context %}')
    paragraph(doc, "Notice Title", "{{ ph.title()|upper }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")
    paragraph(doc, "Notice Caption", "{{ ph.hearing_line()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.statement()|squash }}")
    paragraph(doc, "Proof Body", "{{ ph.verdict()|squash }}")
    table(
        doc,
        ["No.", "Requirement and law", "Time allowed", "Record", "Evidence on file", "Result"],
        "r in cert.rows",
        [
            "{{ loop.index }}",
            "{{ r.what }}{% if r.citation %} — {{ r.citation }}{% endif %}",
            "{{ r.deadline or '' }}",
            "{{ r.recorded or 'nothing recorded' }}{% if r.note %} — {{ r.note }}{% endif %}",
            "{{ r.evidence|join('; ') or 'none' }}",
            "{{ ph.status(r) }}",
        ],
        [0.45, 1.6, 0.9, 1.5, 1.1, 0.95],
    )
    signature_lines(
        doc,
        "Signature: {{ cert.blank }}",
        "Name: {{ cert.signer.name }}",
        "Title: {{ cert.signer.title }}",
        "{{ municipality }}",
        "Date: {{ cert.blank }}",
    )
    return doc


def main() -> None:
    """Write the proof templates."""
    for name, make in (
        ("affidavit_of_mailing", affidavit_of_mailing),
        ("certificate_of_mailing", certificate_of_mailing),
        ("certificate_of_actual_notice", certificate_of_actual_notice),
        ("affidavit_of_publication", affidavit_of_publication),
        ("certificate_of_posting", certificate_of_posting),
        ("sufficiency_certificate", sufficiency_certificate),
    ):
        save(make(), BASE / f"{name}.docx")


if __name__ == "__main__":
    main()
