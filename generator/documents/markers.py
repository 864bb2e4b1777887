"""Every clause the law requires is marked in the HTML and the Word file of its document.

The templates mark each clause (`data-clause="<rule id>"` in HTML, a bookmark `clause_<rule id>`
in Word), so a template that drops a clause is caught before the notice reaches the paper.
"""

from __future__ import annotations

import io
import re
import zipfile

from generator.documents.base import Output
from generator.findings import Finding
from generator.kinds import Format
from generator.plan import DocumentPlan

_DATA_CLAUSE = re.compile(r'data-clause="([a-z][a-z0-9_]*)"')
_BOOKMARK = re.compile(rb'w:name="clause_([a-z][a-z0-9_]*)"')


def unmarked(doc: DocumentPlan, outputs: tuple[Output, ...]) -> list[Finding]:
    """PLAN006 for each required clause missing from `doc`'s HTML or DOCX file."""
    marks: dict[str, set[str]] = {}
    for out in outputs:
        if out.path == f"{doc.name}.html":
            marks["html"] = set(_DATA_CLAUSE.findall(out.data.decode()))
        elif out.path == f"{doc.name}.docx" and out.format == Format.DOCX:
            body = zipfile.ZipFile(io.BytesIO(out.data)).read("word/document.xml")
            marks["docx"] = {m.decode() for m in _BOOKMARK.findall(body)}
    # Each rule behind a clause (a state rule and the local rules that supplement it) is marked.
    rules = {
        r.id: (r, b.params.topic.value) for b in doc.clauses for r in (b.rule, *b.supplemented_by)
    }
    findings = []
    for fmt, found in marks.items():
        for rule_id in sorted(set(rules) - found):
            rule, topic = rules[rule_id]
            findings.append(
                Finding(
                    "PLAN006",
                    f"required clause {rule.title!r} ({topic}) is missing from the {fmt}",
                    rule=rule_id,
                    citation=rule.citation,
                    document=f"{doc.name}.{fmt}",
                )
            )
    return findings
