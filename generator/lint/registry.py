"""The lint rules, each declared once: a stable code, a severity, what it checks and why.

Like Ruff's and Vale's rules, a code never changes meaning; `notices lint --explain CODE` prints
the entry and `docs/lint-rules.md` is generated from this table. The law a finding applies comes
from the pack rule it checks (its id and citation travel with every finding), not from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LintRule:
    """One check the linter makes."""

    code: str
    name: str
    severity: str  # "error": the notice fails the law; "warning": a person must look
    summary: str
    explanation: str


RULES: dict[str, LintRule] = {
    r.code: r
    for r in (
        LintRule(
            "NL001",
            "clause-missing",
            "error",
            "A clause the law requires is not in the document.",
            "Each clause rule of the jurisdiction's pack names the documents that must carry it and"
            " how to recognize it in any wording (`checks.any_pattern`: one of several phrasings;"
            " `checks.all_patterns`: every one of them; `<date>` and `<time>` stand for a date or a"
            " time written in any common format). A document in which the clause cannot be found"
            " fails the rule's citation. Reword the notice to state the clause, or restore the"
            " paragraph a reviewer deleted.",
        ),
        LintRule(
            "NL002",
            "fact-missing",
            "error",
            "A fact of the case that a clause must state is not in the document, or is wrong.",
            "With `--case`, each clause's `checks.facts` (hearing date, time, place, body; parcel"
            " ids; present and proposed districts; the case number; the proposed use) must appear"
            " as the case states them. Dates and times are compared as dates and times, whatever"
            " their format; names and places ignoring case, spacing and punctuation.",
        ),
        LintRule(
            "NL003",
            "wrong-weekday",
            "error",
            "A date is written with a weekday it does not fall on.",
            '"Monday, March 16, 2027" names two days (March 16, 2027 is a Tuesday); courts have'
            " voided hearings noticed with the wrong day. Correct whichever part is wrong.",
        ),
        LintRule(
            "NL004",
            "date-outside-schedule",
            "error",
            "A publication, mailing or posting date written in the document misses the law's window.",
            "With `--case`, dates the document gives for its own publication, mailing or posting"
            ' ("Published: …", "mailed on …", "posted no later than …") are checked against'
            " the schedule the pack's timing rules compute: each insertion no later than the"
            " latest lawful issue, nothing before the window opens.",
        ),
        LintRule(
            "NL005",
            "recipient-without-letter",
            "error",
            "A person the law requires to be mailed has no letter in the packet.",
            "Every recipient in the packet's `recipients.csv` must be addressed by a letter in"
            " `letters*.pdf` (or `transmittal*.pdf`).",
        ),
        LintRule(
            "NL006",
            "sign-letters-too-small",
            "error",
            "A sign's required items are in letters shorter than the law's distance needs.",
            "The capital height of each legible item is measured in the PDF (the font size times"
            " the font's real capital height) and compared with the reading distance divided by"
            " the legibility index of the pack's format rule (100 ft at 25 ft per inch: 4 in).",
        ),
        LintRule(
            "NL007",
            "display-ad-too-small",
            "error",
            "A display ad's page is smaller than the fraction of the newspaper page the law names.",
            "The ad's page (the PDF media box) must reach the pack's `min_page_fraction` of the"
            " newspaper profile's type area, by area and by column-inches.",
        ),
        LintRule(
            "NL008",
            "map-missing",
            "error",
            "The law requires a map in this document and it has none.",
            "A clause rule of topic `map` binds the document, and no image is in it.",
        ),
        LintRule(
            "NL009",
            "inconsistent-hearing",
            "error",
            "Documents of one packet give different dates, times or places for the same hearing.",
            "Every notice of a hearing must state the same date, time and place; a packet whose"
            " sign says 6:00 p.m. and whose letters say 7:00 p.m. misleads someone.",
        ),
        LintRule(
            "NL010",
            "tracked-change-pending",
            "warning",
            "The Word document has tracked changes that are not yet accepted or rejected.",
            "The linter reads the text as it will read with every change accepted; accept or reject"
            " them before the notice goes to the newspaper.",
        ),
        LintRule(
            "NL011",
            "comment-pending",
            "warning",
            "The Word document has reviewers' comments.",
            "Comments are not printed, but one may say the notice is not final. Resolve and delete"
            " them before the notice goes out.",
        ),
    )
}


def explain(code: str) -> str:
    """The documentation of one rule, as `notices lint --explain` prints it."""
    r = RULES[code.upper()]
    return f"{r.code} {r.name} ({r.severity})\n\n{r.summary}\n\n{r.explanation}\n"


def reference() -> str:
    """The rules reference (docs/lint-rules.md), generated from the table above."""
    out = [
        "# Lint rules",
        "",
        "Generated from `generator/lint/registry.py` by `make docs`; do not edit by hand.",
        "Each finding also names the pack rule it applies and that rule's citation.",
        "",
        "| code | name | severity | checks |",
        "|---|---|---|---|",
    ]
    out += [f"| {r.code} | {r.name} | {r.severity} | {r.summary} |" for r in RULES.values()]
    for r in RULES.values():
        out += ["", f"## {r.code} {r.name}", "", r.explanation]
    return "\n".join(out) + "\n"
