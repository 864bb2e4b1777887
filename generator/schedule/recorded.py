"""The recorded events of a hearing: the days the law counts from, once they have happened.

A period the law counts from an event (a decision within N days of the hearing's close, a
bar from the decision) runs from the day the record gives; only when the record is silent does
it run from the plan, and the derivation says so.
"""

from __future__ import annotations

from datetime import date

from generator.models.case import Case, Hearing
from generator.models.record import HearingName, Held


def names(entry: HearingName, hearing: Hearing) -> bool:
    """Whether a record entry's hearing name is `hearing` (its body, and its date if given)."""
    return entry.body == hearing.body.value and entry.date in (None, hearing.date)


def sessions(case: Case, hearing: Hearing) -> list[Held]:
    """The sessions of `hearing` as held, in the order held (a continued hearing has several)."""
    if case.record is None:
        return []
    return sorted(
        (h for h in case.record.hearings if names(h.hearing, hearing)), key=lambda h: h.held_on
    )


def closed_on(case: Case, hearing: Hearing) -> date | None:
    """The day the hearing closed (the record of testimony ended), if recorded."""
    return next((h.held_on for h in sessions(case, hearing) if h.closed), None)


def voted_on(case: Case, hearing: Hearing) -> date | None:
    """The day the body voted, if recorded."""
    return next((h.vote.voted_on for h in sessions(case, hearing) if h.vote), None)


def decided_on(case: Case, hearing: Hearing) -> date | None:
    """The day the body decided, if recorded (else the day of its recorded vote)."""
    found = next((h.decision_on for h in sessions(case, hearing) if h.decision_on), None)
    return found or voted_on(case, hearing)
