"""Hearings set on a day the municipality's offices are closed.

The pack's calendar says which days offices close (the weekdays it names, the holidays of the
state's statute that close them). A hearing on such a day may be lawful (many bodies meet on a
Saturday or a holiday) but is often a slip, and the public may not reach the place or the
records: a warning. Where the law forbids it, a pack rule says so (`procedure`, topic
`no_hearing_on_closed_day`) and the hearing is an error naming that rule.
"""

from __future__ import annotations

from generator.findings import Finding, cited
from generator.legal_calendar import LegalCalendar
from generator.models.case import Case
from generator.models.pack import ProcedureParams
from generator.rules.loader import ResolvedPack, snapshot

FORBIDDING = "no_hearing_on_closed_day"


def findings(case: Case, pack: ResolvedPack) -> list[Finding]:
    """A finding for each hearing on a closed day: an error where a pack rule forbids it."""
    calendar = LegalCalendar(pack.calendar)
    out = []
    for hearing in case.hearings:
        day = calendar.day(hearing.date)
        if not day.office_closed:
            continue
        what = f"the hearing of the {hearing.body_name} is set on {day.describe()}"
        forbidding = [
            b
            for b in snapshot(pack, case, hearing.date).of(ProcedureParams)
            if b.params.topic == FORBIDDING and b.params.body in (None, hearing.body)
        ]
        if forbidding:
            out.append(
                Finding(
                    "SCHED003",
                    f"{what}: {forbidding[0].rule.title}; move the hearing to a day offices are"
                    " open",
                    **cited(forbidding[0]),
                )
            )
            continue
        out.append(
            Finding(
                "SCHED002",
                f"{what}. No rule of the pack forbids a hearing on such a day, and none is known"
                " to allow it: confirm the date is meant, that the body may meet then and that"
                " the public can reach the place and the records",
                citation=pack.calendar.citation if pack.calendar else None,
            )
        )
    return out
