"""Lint findings as text (for a person), JSON (for a program) and SARIF (for code review tools).

Every format keeps the four parts of a finding: the code, its severity, its message and the
citation of the law applied, with the pack rule, the document and where in it; and for each
document, the day whose law judged it and why, and how many clause rules were checked, failed
and left undecided.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator import __version__
from generator.findings import FINDINGS
from generator.lint.engine import LintResult


def text(result: LintResult) -> str:
    """One line per finding, `file: where: CODE [severity] message (rule; citation)`, and a quote."""
    out = []
    for f in result.findings:
        where = f" {f.where}:" if f.where else ""
        law = "; ".join(x for x in (f.rule, f.citation) if x)
        out.append(
            f"{f.document}:{where} {f.code} [{f.severity}] {f.message}"
            + (f" ({law})" if law else "")
        )
        if f.quote:
            out.append(f"    > {f.quote}")
    for path, judged in result.judged.items():
        out.append(f"{Path(path).name}: {judged.describe()}")
    n = len(result.documents)
    out.append(
        f"{n} {'document' if n == 1 else 'documents'} checked: {result.errors} errors,"
        f" {result.warnings} warnings; clause rules: {result.checked} checked,"
        f" {result.failed} failed, {result.undecided} undecided"
    )
    return "\n".join(out) + "\n"


def _judged(result: LintResult, base: Path | None = None) -> list[dict[str, Any]]:
    """How each document was judged, as data."""
    return [
        {
            "document": str(Path(path).relative_to(base)) if base else path,
            "law_on": j.on.isoformat() if j.on else None,
            "law_why": j.why,
            "checked": j.checked,
            "failed": j.failed,
            "undecided": j.undecided,
        }
        for path, j in result.judged.items()
    ]


def _counts(result: LintResult) -> dict[str, int]:
    return {"checked": result.checked, "failed": result.failed, "undecided": result.undecided}


def as_json(result: LintResult, base: Path | None = None) -> str:
    """The findings and a summary, as JSON (document paths relative to `base`, if given)."""
    documents = [str(Path(d).relative_to(base)) if base else d for d in result.documents]
    data = {
        "documents": documents,
        "errors": result.errors,
        "warnings": result.warnings,
        "clause_rules": _counts(result),
        "judged": _judged(result, base),
        "findings": [f.as_dict() for f in result.findings],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def sarif(result: LintResult) -> str:
    """SARIF 2.1.0: the lint rules from the registry of findings, each finding a result with its location."""
    used = sorted(
        {f.code for f in result.findings} | {c for c, d in FINDINGS.items() if d.stage == "lint"}
    )
    rules = [
        {
            "id": code,
            "name": FINDINGS[code].name,
            "shortDescription": {"text": FINDINGS[code].summary},
            "fullDescription": {"text": FINDINGS[code].explanation},
            "defaultConfiguration": {"level": FINDINGS[code].severity},
        }
        for code in used
    ]
    results: list[dict[str, Any]] = []
    for f in result.findings:
        region: dict[str, Any] = {}
        if f.paragraph:
            region["startLine"] = f.paragraph
        elif f.page:
            region["startLine"] = f.line or 1
        if f.quote:
            region["snippet"] = {"text": f.quote}
        location: dict[str, Any] = {"artifactLocation": {"uri": f.document}}
        if region:
            location["region"] = region
        results.append(
            {
                "ruleId": f.code,
                "level": f.severity,
                "message": {"text": f.message + (f" ({f.citation})" if f.citation else "")},
                "locations": [{"physicalLocation": location}],
                "properties": {"packRule": f.rule, "citation": f.citation, "page": f.page},
            }
        )
    data = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "zoning-notices-lint",
                        "version": __version__,
                        "rules": rules,
                    }
                },
                "results": results,
                "properties": {"clauseRules": _counts(result), "judged": _judged(result)},
            }
        ],
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
