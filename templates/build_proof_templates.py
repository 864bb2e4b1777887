"""Write the DOCX templates of the proofs of mailed notice (templates/_base/<document>.docx).

Like build_docx_templates.py, whose notice styles it reuses: every paragraph has a named Word
style (no hard formatting) and the wording comes from proof_phrases.j2, shared with the HTML.
Run it after changing the layout: `make docx-templates`.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docx import Document

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_docx_templates import BASE, add_style, paragraph, save, styled_document


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


def header(doc: Document) -> None:
    paragraph(doc, "Notice Body", '{%p import "proof_phrases.j2" as ph with context %}')
    paragraph(doc, "Notice Title", "{{ proof.title|upper }}")
    paragraph(doc, "Notice Subject", "{{ ph.subject()|squash }}")


def recipient_list(doc: Document, heading: str) -> None:
    paragraph(doc, "Notice Heading", heading + " ({{ proof.count }})")
    paragraph(doc, "Proof Note", "{{ ph.source()|squash }}")
    paragraph(doc, "Notice Body", "{%p for r in proof.recipients %}")
    paragraph(
        doc,
        "Proof List",
        "{{ loop.index }}. {{ r.name }} — {{ r.address }}{% if r.parcels %} — parcel(s) {{ r.parcels }}{% endif %}",
    )
    paragraph(doc, "Notice Body", "{%p endfor %}")


def affidavit_of_mailing() -> Document:
    doc = proof_document("Affidavit of mailing")
    paragraph(doc, "Proof Caption", "STATE OF {{ proof.caption.state }}")
    paragraph(doc, "Proof Caption", "COUNTY OF {{ proof.caption.county }}    ss.")
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
    paragraph(doc, "Notice Body", "{%p if proof.notarized %}")
    paragraph(doc, "Notice Signature", "{{ ph.jurat()|squash }}")
    paragraph(doc, "Notice Signature", "{{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Notary Public")
    paragraph(doc, "Proof Signature", "Name of notary: {{ proof.notary.name }}")
    paragraph(doc, "Proof Signature", "My commission expires: {{ proof.notary.expires }}")
    paragraph(doc, "Proof Jurat", "[Notary seal]")
    paragraph(doc, "Notice Body", "{%p endif %}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    recipient_list(doc, "Exhibit A — Persons to whom the notice was mailed")
    paragraph(doc, "Notice Heading", "Exhibit B")
    paragraph(doc, "Notice Body", "A true copy of the notice (and map) as mailed is attached.")
    return doc


def certificate_of_mailing() -> Document:
    doc = proof_document("Certificate of mailing")
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.certificate_mailing()|squash }}")
    paragraph(doc, "Notice Body", "{%p if proof.conclusive %}")
    paragraph(doc, "Notice Body", "{{ ph.conclusive()|squash }}")
    paragraph(doc, "Notice Body", "{%p endif %}")
    paragraph(doc, "Notice Signature", "Signature: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Name: {{ proof.sender.name }}")
    paragraph(doc, "Proof Signature", "Title: {{ proof.sender.title or proof.blank }}")
    paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    recipient_list(doc, "Persons to whom the notice was mailed")
    return doc


def certificate_of_actual_notice() -> Document:
    doc = proof_document("Certificate of actual notice")
    header(doc)
    paragraph(doc, "Notice Body", "{{ ph.certify_to()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.certificate_actual_notice()|squash }}")
    paragraph(doc, "Notice Body", "{{ ph.delivery()|squash }}")
    paragraph(doc, "Notice Body", "{%p if proof.conclusive %}")
    paragraph(doc, "Notice Body", "{{ ph.conclusive()|squash }}")
    paragraph(doc, "Notice Body", "{%p endif %}")
    paragraph(doc, "Notice Body", "{{ ph.attachments()|squash }}")
    paragraph(doc, "Notice Signature", "{{ proof.applicant }}")
    paragraph(doc, "Proof Signature", "By: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Name and title of the person signing: {{ proof.blank }}")
    paragraph(doc, "Proof Signature", "Date: {{ proof.blank }}")
    paragraph(doc, "Proof Note", "{{ ph.required_by()|squash }}")
    return doc


def main() -> None:
    """Write the three proof templates."""
    for name, make in (
        ("affidavit_of_mailing", affidavit_of_mailing),
        ("certificate_of_mailing", certificate_of_mailing),
        ("certificate_of_actual_notice", certificate_of_actual_notice),
    ):
        save(make(), BASE / f"{name}.docx")


if __name__ == "__main__":
    main()
