"""Lint an agenda's combined notice: each case's law, checked in that case's part of the notice.

The notice is divided as a reader divides it: the heading (before the first section), each
case's section (from the line `Item N — Case No. X` to the next section), and the statements
every case shares (from the line `agenda.SHARED_HEADING` on). A case is read as its heading, its
section and the shared statements; its clause rules, facts and publication dates are checked
in that text exactly as in its own newspaper notice, and each finding names the case. A case
whose section cannot be found fails every clause its law requires.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import replace
from pathlib import Path

from generator.agenda import SHARED_HEADING, Item, PreparedAgenda, named
from generator.errors import UserError
from generator.findings import Finding
from generator.kinds import DocumentKind
from generator.lint import checks
from generator.lint.engine import Target, expected
from generator.lint.extract import Extracted, extract


def lint_agenda(paths: list[Path], agenda: PreparedAgenda) -> list[Finding]:
    """Every check of each case inside each file of the combined notice."""
    out: list[Finding] = []
    for path in paths:
        try:
            ext = extract(path)
        except UserError as exc:
            out.append(
                Finding("NL012", "; ".join(p.message for p in exc.problems), document=path.name)
            )
            continue
        out += _file(path, ext, agenda)
    return out


def _file(path: Path, ext: Extracted, agenda: PreparedAgenda) -> list[Finding]:
    name = path.name
    year = agenda.hearing.date.year
    out = checks.weekday_findings(checks.Reading.of(ext, year), name)
    parts = divide(ext, agenda.items)
    hearing_days = {h.date for item in agenda.items for h in item.prepared.case.hearings}
    for item in agenda.items:
        blocks = parts.get(item.number)
        if blocks is None:
            missing = (
                f"its section (a line {item.heading!r}) is not in the notice, so no clause of"
                " its law is: required clause not found"
            )
            out += [
                named(
                    Finding(
                        "NL001", f"{missing}: {b.rule.title}", rule=b.rule.id,
                        citation="; ".join(dict.fromkeys(b.citations)), document=name,
                    ),
                    item.case_number,
                )
                for b in item.doc.clauses
            ]  # fmt: skip
            continue
        reading = checks.Reading.of(replace(ext, blocks=blocks), year)
        target = Target(path, DocumentKind.NEWSPAPER_NOTICE, name, hearing=item.doc.hearing)
        found = checks.clause_findings(
            reading, name, list(item.doc.clauses), expected(item.prepared, target)
        )
        found += checks.schedule_findings(reading, name, item.deadlines, hearing_days)
        out += [named(f, item.case_number) for f in found]
    return out


def divide(ext: Extracted, items: tuple[Item, ...]) -> dict[int, list]:
    """Each case's text (by item number) as blocks: the heading, its section, the shared part.

    A case missing from the text is missing from the answer.
    """
    text = ext.text
    starts, at = [], 0
    for block in ext.blocks:
        starts.append(at)
        at += len(block.text) + 1

    def block_at(offset: int) -> int:
        return bisect_right(starts, offset) - 1

    opening: dict[int, int] = {}
    for item in items:
        number = r"\s*".join(map(re.escape, item.case_number.split()))
        found = re.search(rf"\bcase\s+no\.?\s*{number}(?![\w-])", text, re.IGNORECASE)
        if found:
            opening[item.number] = block_at(found.start())
    words = r"\s+".join(map(re.escape, SHARED_HEADING.split()))
    last = max(opening.values(), default=0)
    shared = next(
        (
            block_at(m.start())
            for m in re.finditer(words, text, re.IGNORECASE)
            if block_at(m.start()) > last
        ),
        len(ext.blocks),
    )
    if not opening:
        return {}
    head = ext.blocks[: min(opening.values())]
    tail = ext.blocks[shared:]
    order = sorted(opening.items(), key=lambda kv: kv[1])
    out = {}
    for k, (number, first) in enumerate(order):
        end = order[k + 1][1] if k + 1 < len(order) else shared
        out[number] = head + ext.blocks[first:end] + tail
    return out
