"""Write the DOCX templates of the proofs of notice (templates/_base/<document>.docx).

Like build_docx_templates.py, whose styles and helpers it reuses: every paragraph has a named Word
style (no hard formatting) and the wording comes from proof_phrases.j2, shared with the HTML.
Run it after changing the layout: `make docx-templates`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docx import Document

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_docx_templates import BASE, add_style, block, paragraph, save, styled_document


def proof_document(title: str) -> Document:
    """The notice styles, plus the styles of a proof: caption, signature block, list, note."""
    doc = styled_document(title)

    add_style(doc, "Proof Caption", before=0, after=0)
    add_style(doc, "Proof Signature", before=0, after=0)
    add_style(doc, "Proof Jurat", before=0, after=0, indent=0.5)
    add_style(doc, "Proof List", size=9, before=0, after=2, indent=0.25)
    add_style(doc, "Proof Note", size=9, italic=True, before=10)
    doc.styles["Proof Signature"].paragraph_format.keep_with_next = True
    return doc


def caption(doc: Document) -> None:
    """The venue caption a sworn proof opens with."""
    paragraph(doc, "Proof Caption", "STATE OF {{ proof.caption.state }}")
    paragraph(doc, "Proof Caption", "COUNTY OF {{ proof.caption.county }}    ss.")


def header(doc: Document) -> None:
    """The phrases import, the proof's title and the hearing it proves notice of."""
    paragraph(doc, "Notice Body", '{%p import "proof_phrases.j2" as ph with context %}')
    paragraph(doc, "Notice Title", "{{ proof.title|upper }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")


def recipient_list(doc: Document, heading: str) -> None:
    """The numbered list of the persons mailed, under `heading`."""
    paragraph(doc, "Notice Heading", heading + " ({{ proof.count }})")
    paragraph(doc, "Proof Note", "{{ ph.source()|squash }}")
    with block(doc, "for r in proof.recipients"):
        paragraph(
            doc,
            "Proof List",
            "{{ loop.index }}. {{ r.name }} — {{ r.address }}{% if r.parcels %} — parcel(s) {{ r.parcels }}{% endif %}",
        )


def affidavit_of_mailing() -> Document:
    """The sworn affidavit of mailing, with the persons mailed and the notice as exhibits."""
    doc = proof_document("Affidavit of mailing")
    caption(doc)
    header(doc)
    for clause in (
        "affidavit_oath",
        "affidavit_knowledge",
        "affidavit_notice",
        "affidavit_deposit",
        "affidavit_exhibits",
    ):
        paragraph(doc, "Notice Body", f"{{{{ ph.{clause}()|squash }}}}")
    paragraph(doc, "Notice Signature", "{{ proof.blank }}")
    paragraph(doc, "Proof Signature", "{{ ph.affiant_line()|squash }}, Affiant")
    jurat(doc, named=True, oath="{{ ph.jurat()|squash }}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    recipient_list(doc, "Exhibit A — Persons to whom the notice was mailed")
    paragraph(doc, "Notice Heading", "Exhibit B")
    paragraph(doc, "Notice Body", "A true copy of the notice (and map) as mailed is attached.")
    return doc


def certificate_of_mailing() -> Document:
    """The unsworn certificate of mailing, with the persons mailed."""
    doc = proof_document("Certificate of mailing")
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.certificate_mailing()|squash }}")
    with block(doc, "if proof.conclusive"):
        paragraph(doc, "Notice Body", "{{ ph.conclusive()|squash }}")
    paragraph(doc, "Notice Signature", "Signature: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Name: {{ proof.sender.name }}")
    paragraph(doc, "Proof Signature", "Title: {{ proof.sender.title or proof.blank }}")
    paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    recipient_list(doc, "Persons to whom the notice was mailed")
    return doc


def certificate_of_actual_notice() -> Document:
    """The applicant's certificate that the owners had actual notice of the hearing."""
    doc = proof_document("Certificate of actual notice")
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.certificate_actual_notice()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.delivery()|squash }}")
    with block(doc, "if proof.conclusive"):
        paragraph(doc, "Notice Body", "{{ ph.conclusive()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.attachments()|squash }}")
    paragraph(doc, "Notice Signature", "{{ proof.applicant }}")
    paragraph(doc, "Proof Signature", "By: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Name and title of the person signing: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    return doc


def jurat(
    doc: Document,
    *,
    named: bool,
    oath: str = "Subscribed and sworn to before me on {{ proof.blank }}.",
) -> None:
    """The notary's part, printed only when the pack wants the proof sworn."""
    with block(doc, "if proof.notarized"):
        paragraph(doc, "Notice Signature", oath)
        paragraph(doc, "Notice Signature", "{{ proof.blank }}")
        paragraph(doc, "Proof Signature", "Notary Public")
        if named:
            paragraph(doc, "Proof Signature", "Name of notary: {{ proof.notary.name }}")
            paragraph(doc, "Proof Signature", "My commission expires: {{ proof.notary.expires }}")
        else:
            paragraph(doc, "Proof Signature", "My commission expires: {{ proof.blank }}")
        paragraph(doc, "Proof Jurat", "[Notary seal]")


def affidavit_of_publication() -> Document:
    """The newspaper's sworn affidavit of the days the notice ran."""
    doc = proof_document("Affidavit of publication")
    caption(doc)
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.publication_oath()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.publication_statement()|squash }}")
    with block(doc, "for day in proof.insertions"):
        paragraph(doc, "Proof List", "{{ loop.index }}. {{ day }} — page {{ proof.short_blank }}")
    paragraph(doc, "Proof Note", "{{ ph.publication_dates_note()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.attachments()|squash }}")
    paragraph(doc, "Notice Signature", "{{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Signature, and title or position with {{ proof.newspaper }}")
    jurat(doc, named=False)
    paragraph(doc, "Proof Note", "{{ (ph.publication_affiant() or ph.required_by())|squash }}")
    return doc


def certificate_of_posting() -> Document:
    """The certificate of the signs posted, sworn where the pack asks, with their photographs."""
    doc = proof_document("Certificate of posting")
    with block(doc, "if proof.notarized"):
        caption(doc)
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.posting_statement()|squash }}")
    paragraph(doc, "Proof Note", "{{ ph.posting_requirement()|squash }}")
    with block(doc, "for place in proof.rows"):
        paragraph(
            doc,
            "Proof List",
            "{{ loop.index }}. {{ place or proof.blank }} — posted on {{ proof.short_blank }}"
            "{% if proof.photos %} — photo {{ loop.index }}{% endif %}",
        )
    paragraph(doc, "Notice Body", "{{ proof.legibility }}")
    paragraph(doc, "Notice Signature", "{{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Signature")
    paragraph(doc, "Proof Signature", "Name and title: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    jurat(doc, named=True)
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    with block(doc, "if proof.photos"):
        paragraph(doc, "Notice Heading", "Photographs of the posted notice")
        with block(doc, "for place in proof.rows"):
            paragraph(
                doc,
                "Proof List",
                "Photo {{ loop.index }}{% if place %}: {{ place }}{% endif %}, taken on {{ proof.short_blank }}"
                " [paste the photograph here]",
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
    ):
        save(make(), BASE / f"{name}.docx")


if __name__ == "__main__":
    main()
