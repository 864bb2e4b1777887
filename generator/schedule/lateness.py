"""Judging a schedule: what is late on a day, the earliest lawful hearing, and windows of notices."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from generator.errors import Problem
from generator.findings import Finding
from generator.inputs import CaseFile
from generator.legal_calendar import LegalCalendar, short
from generator.models.case import Body, Case, Hearing
from generator.rules.loader import ResolvedPack, snapshot
from generator.schedule.deadline import Context, Deadline, day_of, hearing_label, zone_of
from generator.schedule.engine import DEADLINE_ACTIONS, for_hearing


def due(d: Deadline) -> date | None:
    """The last day on which the act (or its copy) is still in time."""
    values = [v for v in (d.copy_deadline, d.latest) if v is not None]
    days = [day_of(v) for v in values]
    return min(days) if days else None


def late(deadlines: list[Deadline], as_of: date) -> list[Deadline]:
    """Required notice deadlines that can no longer be met on `as_of`."""
    out = []
    for d in deadlines:
        if not d.required or d.channel is None:
            continue
        last = due(d)
        if d.problem or (last is not None and last < as_of):
            out.append(d)
    return out


def earliest_lawful_hearing(case: Case, pack: ResolvedPack, index: int, as_of: date) -> date | None:
    """The first date from `as_of` on which hearing `index` could lawfully be held."""
    day = as_of + timedelta(days=1)
    for _ in range(800):
        hearings = list(case.hearings)
        hearings[index] = hearings[index].model_copy(update={"date": day, "vote_date": None})
        moved = case.model_copy(update={"hearings": hearings})
        ctx = Context(moved, LegalCalendar(pack.calendar), pack.time_counting, zone_of(case, pack))
        deadlines = for_hearing(ctx, snapshot(pack, moved, day), hearings[index])
        if not late(deadlines, as_of):
            return day
        day += timedelta(days=1)
    return None


def check_in_time(
    cf: CaseFile, pack: ResolvedPack, deadlines: list[Deadline], as_of: date
) -> list[Problem]:
    """A hearing whose required notices can no longer be given in time, with the earliest lawful date."""
    problems = []
    for index, hearing in enumerate(cf.case.hearings):
        missed = [d for d in late(deadlines, as_of) if d.hearing == hearing_label(hearing)]
        if not missed:
            continue
        reasons = "; ".join(f"{d.rule} ({d.citation}): {_why_late(d)}" for d in missed)
        earliest = earliest_lawful_hearing(cf.case, pack, index, as_of)
        when = (
            f"the earliest lawful date is {short(earliest)}"
            if earliest
            else "no lawful date was found within two years"
        )
        problems.append(
            cf.problem(
                ("hearings", index, "date"),
                f"the {hearing.body_name} hearing on {short(hearing.date)} cannot be noticed in time"
                f" (judged as of {as_of.isoformat()}): {reasons}; {when}",
            )
        )
    return problems


def _why_late(d: Deadline) -> str:
    if d.problem:
        return d.problem
    if d.copy_deadline and d.issues:
        copy = d.copy_deadline
        at = f" {copy:%H:%M}" if isinstance(copy, datetime) else ""
        return (
            f"copy for the first insertion ({short(d.issues[0])}) was due {short(day_of(copy))}{at}"
        )
    last = due(d)
    return f"{d.action} by {short(last)}" if last else d.action


def judged_on(case: Case) -> date:
    """The day lateness is judged from: the case's `as_of`, else today."""
    return case.as_of or date.today()


def window_of(
    deadlines: list[Deadline], rules: tuple[str, ...] | set[str], hearing: Hearing
) -> tuple[date | None, date | None]:
    """The days on which every notice rule of `rules` for `hearing` is met: (earliest, latest)."""
    label = hearing_label(hearing)
    mine = [d for d in deadlines if d.hearing == label and d.rule in rules]
    latest = min((day_of(d.latest) for d in mine if d.latest), default=None)
    earliest = max((day_of(d.earliest) for d in mine if d.earliest), default=None)
    return earliest, latest


def issues_of(deadlines: list[Deadline], rules: tuple[str, ...], hearing: Hearing) -> list[date]:
    """The newspaper issues computed for the notice rules `rules` of `hearing`."""
    label = hearing_label(hearing)
    found = {i for d in deadlines if d.hearing == label and d.rule in rules for i in d.issues}
    return sorted(found)


def findings(case: Case, deadlines: list[Deadline]) -> list[Finding]:
    """Deadlines the case's own dates miss, and issues chosen without the paper's days.

    Warnings both: an applicant may consent to a late hearing, and a clerk may know the days.
    """
    out = []
    for hearing in case.hearings:
        label = hearing_label(hearing)
        for d in deadlines:
            if d.hearing != label or d.action != DEADLINE_ACTIONS["hold_hearing"]:
                continue
            if d.earliest and hearing.date < day_of(d.earliest):
                out.append(
                    Finding(
                        "SCHED004",
                        f"the {hearing.body_name} hearing on {short(hearing.date)} is before the"
                        f" first lawful day {short(day_of(d.earliest))} ({d.derivation})",
                        rule=d.rule,
                        citation=d.citation,
                    )
                )
            if not d.latest:
                continue
            latest = day_of(d.latest)
            if hearing.date > latest:
                out.append(
                    Finding(
                        "SCHED001",
                        f"the {hearing.body_name} hearing on {short(hearing.date)} is after the last"
                        f" lawful day {short(latest)} ({d.derivation})",
                        rule=d.rule,
                        citation=d.citation,
                    )
                )
    for d in deadlines:
        if d.unsure:
            out.append(
                Finding(
                    "SCHED009",
                    f"{d.id}: the latest day {short(day_of(d.latest)) if d.latest else '(none)'}"
                    f" is counted with {'; '.join(d.unsure)} — check that year's order; if offices"
                    " are open that day, the date changes",
                    rule=d.rule,
                    citation=d.citation,
                )
            )
    paper = case.newspaper
    timed = [d for d in deadlines if d.issues]
    if timed and not (paper and paper.publication_days):
        # Issues were chosen from every day of the week: the clerk must know they are a guess.
        out.append(
            Finding(
                "SCHED008",
                f"{paper.name if paper and paper.name else 'the newspaper'}: no publication days"
                " given (`newspaper.publication_days` or a profile); the schedule took the paper"
                f" to print every day, e.g. issue {short(timed[0].issues[-1])} for"
                f" {timed[0].id} — give its days and build again",
                rule=timed[0].rule,
                citation=timed[0].citation,
            )
        )
    return out + _votes_outside(case, deadlines)


def _votes_outside(case: Case, deadlines: list[Deadline]) -> list[Finding]:
    """SCHED010: the council's planned vote before the earliest or after the latest lawful day."""
    council = case.hearing(Body.COUNCIL)
    if council is None:
        return []
    vote = council.vote_date or council.date
    out = []
    for d in deadlines:
        if d.action != DEADLINE_ACTIONS["council_vote"]:
            continue
        bounds = [
            ("before the first", day_of(d.earliest)) if d.earliest else None,
            ("after the last", day_of(d.latest)) if d.latest else None,
        ]
        for side, bound in filter(None, bounds):
            if (vote < bound) if side.startswith("before") else (vote > bound):
                out.append(
                    Finding(
                        "SCHED010",
                        f"the vote of the {council.body_name} on {short(vote)} is {side} lawful"
                        f" day {short(bound)} ({d.derivation})",
                        rule=d.rule,
                        citation=d.citation,
                    )
                )
    return out
