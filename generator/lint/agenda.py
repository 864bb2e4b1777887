"""Lint an agenda's combined notice: each case's law, checked in that case's part of the notice.

The notice is divided as a reader divides it: the heading (before the first section), each
case's section (from the line `Item N — Case No. X` to the next section), and the statements
every case shares (from the line `agenda.SHARED_HEADING` on). A case is read as its heading, its
section and the shared statements; its clause rules, facts and publication dates are checked
in that text exactly as in its own newspaper notice, and each finding names the case. A case
whose section cannot be found fails every clause its law requires.
"""

from __future__ import annotations

import json
import os
import re
from bisect import bisect_right
from dataclasses import replace
from pathlib import Path

from generator.agenda import SHARED_HEADING, Item, PreparedAgenda, named, prepare_agenda
from generator.errors import UserError
from generator.findings import Finding
from generator.kinds import DocumentKind
from generator.lint import checks, limits
from generator.lint.engine import (
    FORMATS,
    Judged,
    LintResult,
    Target,
    expected,
    lint_kind,
    map_findings,
)
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
        target = Target(
            path, DocumentKind.NEWSPAPER_NOTICE, name, item.doc.clauses, hearing=item.doc.hearing
        )
        # Whether the HTML or Word file holds a picture at all: not whose section it is in.
        found = map_findings(target, ext)
        found += checks.clause_findings(
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


def lint_agenda_paths(paths: list[Path], agenda_path: Path | None) -> LintResult | None:
    """`notices lint`: the combined notices among `paths`, checked against their agenda.

    The agenda is `agenda_path` (`--agenda`), else the one an agenda packet's manifest names;
    None when neither: the paths are linted as any notice is.
    """
    folders = [p for p in paths if p.is_dir()]
    if agenda_path is None:
        agenda_path = next(filter(None, (_manifest_agenda(f) for f in folders)), None)
        if agenda_path is None:
            return None
    agenda = prepare_agenda(agenda_path)
    files = [p for p in paths if p.is_file()]
    files += [
        p
        for folder in folders
        for p in sorted(folder.iterdir())
        if p.is_file()
        and p.suffix.lower() in FORMATS
        and lint_kind(p) == DocumentKind.AGENDA_NOTICE
    ]
    if not files:
        raise UserError("no agenda notice to lint: give agenda_notice.* files or their folder")
    found = lint_agenda(files, agenda)
    return LintResult(found, [str(p) for p in files], judged(files, agenda, found))


def judged(files: list[Path], agenda: PreparedAgenda, found: list[Finding]) -> dict[str, Judged]:
    """How each file was judged: every case's clause rules, under the law of the meeting's day."""
    rules = [b.rule.id for item in agenda.items for b in item.doc.clauses]
    out = {}
    for path in files:
        failed = {
            (f.message.split(":", 1)[0], f.rule)
            for f in found
            if f.document == path.name and f.code in ("NL001", "NL017")
        }
        out[str(path)] = Judged(
            agenda.hearing.date, "the day of the agenda's meeting", len(rules), len(failed)
        )
    return out


def _manifest_agenda(folder: Path) -> Path | None:
    """The agenda file an agenda packet was built from, as its manifest names it."""
    try:
        entry = json.loads((folder / "manifest.json").read_bytes()[: limits.TEXT_BYTES])
        written = Path(entry["inputs"]["agenda"]["path"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return Path(os.path.normpath(folder / written))
