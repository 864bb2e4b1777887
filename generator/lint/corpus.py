"""A corpus lint: many notices or packet folders, each linted on its own, results as JSON Lines.

A state agency or a press association checks every notice published in a year; a county
re-checks a whole docket. Each path given is one unit of work (a task on a cluster): a file,
judged by the pack or case named on the command line, or a packet folder, judged by that
option or else by the case its own manifest names. Every document read becomes one JSON line;
findings about a folder as a whole (not about one of its files) make a line of the folder.
The lines stream out in the order the paths were given, and a table sums them up.
"""

from __future__ import annotations

import contextlib
import io
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from generator.errors import UserError
from generator.findings import FINDINGS
from generator.lint.engine import lint


def lint_one(
    path: Path,
    *,
    case_path: Path | None = None,
    jurisdiction: str | None = None,
    kind: str | None = None,
    on: date | None = None,
    packs: Path | None = None,
    capture: bool = False,
) -> list[dict[str, Any]]:
    """The JSON lines of one unit: a line per document of `path`; a `problem` line if unusable.

    A path that cannot be linted (no such file, a kind the name does not tell) is a line with
    its problem, not an error that stops the corpus: the other units are still linted.
    `capture` is the batch runner's (generator/batch.py); nothing here prints.
    """
    del capture
    # Inside a task nothing may reach the worker's own terminal.
    with contextlib.redirect_stdout(io.StringIO()):
        try:
            result = lint(
                [path],
                case_path=case_path,
                jurisdiction=jurisdiction,
                kind=kind,
                on=on,
                packs=packs,
            )
        except UserError as exc:
            return [{"path": str(path), "problem": "; ".join(p.message for p in exc.problems)}]
    by_name = {Path(d).name: d for d in result.documents}
    lines: dict[str, dict[str, Any]] = {}
    for doc in result.documents:
        j = result.judged.get(doc)
        lines[doc] = {
            "path": doc,
            "law_on": j.on.isoformat() if j and j.on else None,
            "law_why": j.why if j else None,
            "clause_rules": {
                "checked": j.checked if j else 0,
                "failed": j.failed if j else 0,
                "undecided": j.undecided if j else 0,
            },
            "findings": [],
        }
    for f in result.findings:
        doc = by_name.get(f.document, str(path))
        lines.setdefault(doc, {"path": doc, "findings": []})["findings"].append(f.as_dict())
    for line in lines.values():
        severity = Counter(f["severity"] for f in line["findings"])
        line["errors"], line["warnings"] = severity["error"], severity["warning"]
    return list(lines.values())


@dataclass
class Summary:
    """What a corpus lint found, summed line by line as the lines stream past."""

    documents: int = 0
    with_errors: int = 0
    with_warnings: int = 0
    problems: list[str] = field(default_factory=list)
    findings: Counter[str] = field(default_factory=Counter)  # by code
    files: Counter[str] = field(default_factory=Counter)  # documents with the code, by code

    def add(self, line: dict[str, Any]) -> None:
        """Count one JSON line."""
        if "problem" in line:
            self.problems.append(f"{line['path']}: {line['problem']}")
            return
        self.documents += "law_why" in line  # a folder's own line is not a document
        self.with_errors += line["errors"] > 0
        self.with_warnings += line["warnings"] > 0
        codes = [f["code"] for f in line["findings"]]
        self.findings.update(codes)
        self.files.update(set(codes))

    def table(self) -> str:
        """The summary as a terminal table: totals, then each finding code by how often."""
        out = [
            f"{self.documents} {'document' if self.documents == 1 else 'documents'} linted:"
            f" {self.with_errors} with errors,"
            f" {self.with_warnings} with warnings; {len(self.problems)} paths not linted",
        ]
        out += [f"  not linted: {p}" for p in self.problems]
        if self.findings:
            out.append("")
            out.append(f"{'code':8} {'severity':8} {'findings':>8} {'documents':>9}  summary")
            for code, n in sorted(self.findings.items(), key=lambda kv: (-kv[1], kv[0])):
                d = FINDINGS[code]
                out.append(f"{code:8} {d.severity:8} {n:>8} {self.files[code]:>9}  {d.summary}")
        return "\n".join(out) + "\n"


def stream(units: Iterable[list[dict[str, Any]]], summary: Summary) -> Iterator[dict[str, Any]]:
    """Every line of every unit, in order, counted into `summary` on the way."""
    for lines in units:
        for line in lines:
            summary.add(line)
            yield line
