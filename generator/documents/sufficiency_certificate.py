"""The sufficiency certificate: for each hearing, every notice the law required and whether it met the law.

Made when the case has a record. Each requirement comes from `generator.check` (the one place
that judges the record), with the evidence on file; a missed one is stated plainly. The clerk
signs it (the case's `signer`; else lines for name and title): PDF (HTML through WeasyPrint)
and DOCX (docxtpl) like the proofs.
"""

from __future__ import annotations

from typing import Any

from generator.check import Requirement, check
from generator.documents import proof
from generator.documents.base import Built, DocumentType, File, Output
from generator.kinds import DocumentKind, Format
from generator.models.case import Hearing
from generator.prepare import Prepared
from generator.render import docx, pdf
from generator.render.filters import long_date
from generator.render.templates import Templates

KIND = DocumentKind.SUFFICIENCY_CERTIFICATE
FILES = (File("{name}.pdf", Format.PDF), File("{name}.docx", Format.DOCX))


def build(prepared: Prepared, tpl: Templates) -> Built:
    """One certificate per hearing of the case."""
    result = check(prepared)
    made = Built()
    case = prepared.case
    for hearing in case.hearings:
        rows = result.of(hearing)
        context = _context(prepared, tpl, hearing, rows, long_date(result.judged_on))
        name = _name(hearing, case.hearings)
        title = str(tpl.phrases("sufficiency_phrases.j2", **context).title()).strip()
        html = tpl.render(f"{KIND.value}.html.j2", context)
        word = docx.render(
            tpl, tpl.find(f"{KIND.value}.docx"), context, title=f"{title} — {case.case_number}"
        )
        rules = tuple(dict.fromkeys(r.rule for r in rows if r.rule))
        made += Built(
            (
                Output(KIND, Format.PDF, f"{name}.pdf", pdf.write_pdf(html, {}, tpl.path), rules),
                Output(KIND, Format.DOCX, f"{name}.docx", word, rules),
            )
        )
    return made


def _name(hearing: Hearing, hearings: list[Hearing]) -> str:
    same = [h for h in hearings if h.body == hearing.body]
    name = f"{KIND.value}-{hearing.body.value}"
    return name if len(same) == 1 else f"{name}-{hearing.date.isoformat()}"


def _row(r: Requirement) -> dict[str, Any]:
    return {
        "what": r.what[0].upper() + r.what[1:],
        "rule": r.rule,
        "citation": r.citation,
        "deadline": r.deadline,
        "recorded": r.recorded,
        "note": r.note,
        "status": r.status,
        "evidence": [e.path + ("" if e.on_file else " (named, not on file)") for e in r.evidence],
    }


def _numbered(rows: list[Requirement], status: str) -> list[tuple[int, Requirement]]:
    """The rows of `status`, with their numbers in the certificate's table."""
    return [(i, r) for i, r in enumerate(rows, 1) if r.status == status]


def _context(
    prepared: Prepared, tpl: Templates, hearing: Hearing, rows: list[Requirement], judged: str
) -> dict[str, Any]:
    case = prepared.case
    signer = case.signer
    cert = {
        "rows": [_row(r) for r in rows],
        "missed": [f"{r.what} (row {i}: {r.note})" for i, r in _numbered(rows, "missed")],
        "unrecorded": [f"{r.what} (row {i})" for i, r in _numbered(rows, "no record")],
        "pending": [f"{r.what} (row {i})" for i, r in _numbered(rows, "not yet due")],
        "judged_on": judged,
        "blank": proof.BLANK,
        "signer": {
            "name": signer.name if signer else proof.BLANK,
            "title": (signer.title if signer else None) or proof.BLANK,
        },
    }
    return {
        "cert": cert,
        **proof.hearing_context(case, hearing, tpl),
    }


DOCUMENT = DocumentType(
    KIND,
    "For each hearing, every notice the law required, the evidence on file and whether it met"
    " the law (from the case's record), for the clerk to sign.",
    FILES,
    ("case", "plan", "schedule"),
    lambda p: p.case.record is not None,
    build,
)
