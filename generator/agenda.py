"""Prepare an agenda: the cases one body hears on one date, noticed in one legal notice.

Each case is prepared as `notices build` prepares it (its own pack chain, facts, schedule and
plan); the agenda then takes, of each, the newspaper notice of the agenda's hearing. The cases
must be one meeting: the same municipality, body, date, time and place, and one newspaper;
anything else is refused with the agenda file's line, never merged. The combined notice runs in
every issue any case's schedule chose, and its copy is due by the earliest of their deadlines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime
from pathlib import Path

from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.inputs import load_case
from generator.models.agenda import Agenda
from generator.models.base import validate
from generator.models.case import Hearing
from generator.models.pack import Channel
from generator.paths import SAFE_NAME_RULE, safe_name
from generator.plan import DocumentPlan
from generator.prepare import Prepared, prepare
from generator.schedule import Deadline, hearing_label
from generator.yamlio import Located, load

# The heading that opens the statements every case shares (where to examine the proposals,
# whom to ask, accommodation): printed in the notice and found by the linter in any format.
SHARED_HEADING = "For every matter above"
# What the packet folder of an agenda is called: `agenda-<id>`, beside the cases' own.
FOLDER_PREFIX = "agenda-"


@dataclass(frozen=True)
class Item:
    """One case on the agenda: the case prepared, and its newspaper notice of the meeting."""

    number: int  # 1-based, in agenda order
    prepared: Prepared
    doc: DocumentPlan

    @property
    def case_number(self) -> str:
        """The case's number, as each section's heading prints it."""
        return self.prepared.case.case_number

    @property
    def heading(self) -> str:
        """`Item 1 — Case No. CD-2027-01`: the line that opens the case's section."""
        return f"Item {self.number} — Case No. {self.case_number}"

    @property
    def deadlines(self) -> list[Deadline]:
        """The case's deadlines of its newspaper notice of the meeting."""
        label = hearing_label(self.doc.hearing)
        return [
            d
            for d in self.prepared.deadlines
            if d.hearing == label and d.rule in self.doc.notice_ids
        ]


@dataclass(frozen=True)
class Timed:
    """One case's deadline on the combined schedule, and whether it is the one that binds."""

    case_number: str
    deadline: Deadline
    strictest: bool


@dataclass(frozen=True)
class PreparedAgenda:
    """An agenda ready to be made into its notice: every case prepared, one schedule."""

    agenda: Agenda
    path: Path
    id: str
    items: tuple[Item, ...]
    issues: tuple[date, ...]  # the days the combined notice runs: every case's issues
    schedule: tuple[Timed, ...]  # every case's newspaper deadlines, the binding one marked
    findings: tuple[Finding, ...]

    @property
    def hearing(self) -> Hearing:
        """The meeting: the first case's hearing (every case's is the same, or it was refused)."""
        return self.items[0].doc.hearing

    @property
    def folder(self) -> str:
        """The packet folder's name: `agenda-<id>`."""
        return FOLDER_PREFIX + self.id

    @property
    def copy_deadline(self) -> date | datetime | None:
        """When the paper must have the copy: the earliest of the cases' copy deadlines."""
        days = [t.deadline.copy_deadline for t in self.schedule if t.deadline.copy_deadline]
        return min(days, key=_as_datetime) if days else None


def load_agenda(path: Path) -> tuple[Agenda, Located]:
    """Load and validate an agenda file; a bad shape is one problem per field, with its line."""
    doc = load(path)
    return validate(Agenda, doc), doc


def prepare_agenda(path: Path) -> PreparedAgenda:
    """Prepare every case of the agenda at `path`; refuse (exit 2) cases that are not one meeting."""
    agenda, doc = load_agenda(path)
    agenda_id = path.name.removesuffix(".yaml").removesuffix(".yml")
    problems: list[Problem] = []
    if not safe_name(agenda_id):
        problems.append(
            doc.problem((), f"the agenda id {agenda_id!r} (its file name) must be {SAFE_NAME_RULE}")
        )
    items: list[Item] = []
    where: dict[int, int] = {}  # item number → its index in the file's `cases`, to place problems
    seen: dict[Path, int] = {}
    for i, name in enumerate(agenda.cases):
        at = ("cases", i)
        case_path = (path.parent / name).resolve()
        if case_path in seen:
            problems.append(
                doc.problem(at, f"the case is listed twice (also as item {seen[case_path] + 1})")
            )
            continue
        seen[case_path] = i
        if not case_path.is_file():
            problems.append(doc.problem(at, f"no such case file: {case_path}"))
            continue
        prepared = prepare(load_case(case_path))
        hearing = next(
            (h for h in prepared.case.hearings if h.body == agenda.body and h.date == agenda.date),
            None,
        )
        if hearing is None:
            listed = "; ".join(
                f"{h.body.value} {h.date.isoformat()}" for h in prepared.case.hearings
            )
            problems.append(
                doc.problem(
                    at,
                    f"case {prepared.case.case_number} lists no {agenda.body.value} hearing on"
                    f" {agenda.date.isoformat()} (its hearings: {listed}): an agenda holds the"
                    " cases one body hears on one date",
                )
            )
            continue
        paper = next((d for d in prepared.plan.of(Channel.NEWSPAPER) if d.hearing is hearing), None)
        if paper is None:
            problems.append(
                doc.problem(
                    at,
                    f"the law requires no newspaper notice of case {prepared.case.case_number}'s"
                    f" {agenda.body.value} hearing: it has no place in a published agenda notice",
                )
            )
            continue
        if prepared.late:
            problems += [
                doc.problem(at, f"case {prepared.case.case_number}: {p.message}")
                for p in prepared.late
            ]
            continue
        items.append(Item(len(items) + 1, prepared, paper))
        where[len(items)] = i
    problems += _one_meeting(items, lambda item: doc.problem(("cases", where[item.number]), ""))
    if problems:
        raise UserError(problems)
    issues = common_issues([item.deadlines for item in items], [item.doc.out for item in items])
    return PreparedAgenda(
        agenda, path, agenda_id, tuple(items), issues, _schedule(items), _findings(items)
    )


def _one_meeting(items: list[Item], at: Callable[[Item], Problem]) -> list[Problem]:
    """The cases must be one meeting of one body of one municipality, advertised in one paper.

    `at` places a problem about an item where the agenda file lists it.
    """
    if not items:
        return []
    first = items[0]
    out = []
    for item in items[1:]:
        case, base = item.prepared.case, first.prepared.case
        h, h0 = item.doc.hearing, first.doc.hearing
        differs = [
            ("municipality", case.municipality, base.municipality),
            ("start time", h.start_time, h0.start_time),
            ("place", f"{h.place}, {h.address.one_line()}", f"{h0.place}, {h0.address.one_line()}"),
            ("body's name", h.body_name, h0.body_name),
            (
                "newspaper",
                case.newspaper.name if case.newspaper else None,
                base.newspaper.name if base.newspaper else None,
            ),
        ]
        for what, mine, theirs in differs:
            if mine != theirs:
                out.append(
                    replace(
                        at(item),
                        message=f"case {case.case_number} gives the {what} as {mine!s}, case"
                        f" {base.case_number} as {theirs!s}: one agenda notice is one meeting of"
                        " one body in one municipality, in one newspaper",
                    )
                )
    return out


def common_issues(
    deadlines: list[list[Deadline]], chosen: list[tuple[date, ...]]
) -> tuple[date, ...]:
    """The issues the combined notice runs in: one case's issues that every case's law accepts.

    Each case's own issues (`chosen`, in the order of `deadlines`) are tried, the case whose
    first issue comes first before the others; they serve when they are as many as each case
    needs and each falls in that case's window for it (as `lint.checks.schedule_findings` reads
    them). When no case's issues serve every case, the notice runs in all of them, and the
    linter names each case whose window one of them misses (NL004).
    """
    for issues in sorted(dict.fromkeys(chosen), key=lambda days: (days[:1], -len(days))):
        if all(_serves(issues, d) for mine in deadlines for d in mine):
            return issues
    return tuple(sorted({day for days in chosen for day in days}))


def _serves(issues: tuple[date, ...], deadline: Deadline) -> bool:
    """Whether a run in `issues` meets `deadline`: enough insertions, each in its window."""
    if len(issues) < len(deadline.issues):
        return False
    for i, day in enumerate(sorted(issues)):
        latest = deadline.issues[i] if i < len(deadline.issues) else deadline.latest
        earliest = deadline.earliest if i == 0 else None
        if latest is not None and day > _day(latest):
            return False
        if earliest is not None and day < _day(earliest):
            return False
    return True


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def _as_datetime(value: date | datetime) -> datetime:
    return value if isinstance(value, datetime) else datetime(value.year, value.month, value.day)


def _schedule(items: list[Item]) -> tuple[Timed, ...]:
    """Every case's newspaper deadlines; the strictest is the one whose last day comes first."""
    rows = [(item.case_number, d) for item in items for d in item.deadlines]
    latest = [d.latest for _, d in rows if d.latest is not None]
    first = min(latest, key=_as_datetime) if latest else None
    bound = next(
        (i for i, (_, d) in enumerate(rows) if first is not None and d.latest == first), None
    )
    return tuple(Timed(n, d, i == bound) for i, (n, d) in enumerate(rows))


# The findings of a case that concern its newspaper notice of the meeting: the plan's, the law's
# and the schedule's; its letters, signs and lists are its own packet's business.
_ABOUT_THE_NOTICE = ("PLAN", "LAW", "ACC", "SCHED")


def _findings(items: list[Item]) -> tuple[Finding, ...]:
    """Each case's findings about its notice of the meeting, its case named in the message."""
    out = []
    for item in items:
        doc = item.doc
        rules = {i for b in (*doc.notices, *doc.clauses) for i in b.ids}
        for f in item.prepared.findings:
            if f.document:
                mine = f.document.startswith(doc.name)
            else:
                mine = f.code.startswith(_ABOUT_THE_NOTICE) and (f.rule is None or f.rule in rules)
            if mine and f.code != "PLAN007":  # a notice by hand belongs to the case's own packet
                out.append(named(f, item.case_number))
    return tuple(out)


def named(finding: Finding, case_number: str) -> Finding:
    """`finding`, its message opened by the case it concerns."""
    return replace(finding, message=f"Case No. {case_number}: {finding.message}")
