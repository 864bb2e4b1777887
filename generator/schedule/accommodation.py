"""Requests for an accommodation at a hearing: whom to ask, and the day they are due.

Every notice says how to ask for an interpreter, an accessible format or another
accommodation: under Title II of the ADA a public entity furnishes auxiliary aids where
necessary, giving primary consideration to the requests of individuals with disabilities
(28 C.F.R. § 35.160(b)), and makes sure people can learn where accessible services are
(§ 35.163(a)). The lead time is the law's where
the pack's accommodation clause names one (`request_lead`), else the case's
(`accommodation.days_before`, `business_days_before` or `hours_before`); the day it falls on is
counted by the schedule engine, as every other deadline is.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil

from generator.findings import Finding, cited
from generator.legal_calendar import LegalCalendar, short
from generator.models.case import Accommodation, Case, Hearing, Person
from generator.models.pack import ClauseParams, ClauseTopic
from generator.models.timing import Timing, TimingType
from generator.rules.loader import Binding, ResolvedPack, snapshot
from generator.schedule.counting import time_act
from generator.schedule.deadline import Context, Deadline, day_of, hearing_label, zone_of


@dataclass(frozen=True)
class Requests:
    """Whom to ask for an accommodation at one hearing, and by when (None: as early as possible)."""

    contact: Person
    relay: str | None
    due: Deadline | None


def requests(case: Case, pack: ResolvedPack, hearing: Hearing) -> Requests:
    """Whom the notices of `hearing` send requests to, and the day the requests are due."""
    wanted = case.accommodation
    law = _law(case, pack, hearing)
    due = None
    if law is not None and law.params.request_lead is not None:
        due = _due(case, pack, hearing, law.params.request_lead, law)
    elif (timing := case_lead(wanted)) is not None:
        due = _due(case, pack, hearing, timing, None)
    return Requests(wanted.contact or case.contact, wanted.relay, due)


def case_lead(wanted: Accommodation) -> Timing | None:
    """The case's lead time as a period counted back from the hearing.

    A request must reach an open office, so a day that falls on a closure moves earlier. Hours
    are counted as whole clear days: 48 hours before a Tuesday evening hearing is Sunday evening,
    and the last whole day before it on which the office is open is Friday.
    """
    if wanted.business_days_before:
        return Timing(
            type=TimingType.BUSINESS_DAYS_BEFORE, business_days=wanted.business_days_before
        )
    if wanted.days_before:
        return Timing(
            type=TimingType.AT_LEAST_BEFORE, days=wanted.days_before, needs_open_office=True
        )
    if wanted.hours_before:
        return Timing(
            type=TimingType.AT_LEAST_BEFORE,
            days=ceil(wanted.hours_before / 24),
            clear_days=True,
            needs_open_office=True,
        )
    return None


def findings(case: Case, pack: ResolvedPack, deadlines: list[Deadline]) -> list[Finding]:
    """What stands in the way of the accommodation line.

    ACC001: nobody can be reached for requests; ACC002: the case's lead time is not the law's;
    ACC003: a newspaper insertion comes out after requests are due.
    """
    out: list[Finding] = []
    contact = case.accommodation.contact or case.contact
    if not (contact.phone or contact.email):
        field = "accommodation.contact" if case.accommodation.contact else "contact"
        out.append(
            Finding(
                "ACC001",
                f"the accommodation line names {contact.name} but no telephone or email to ask"
                f" by: add `{field}.phone` or `{field}.email`",
            )
        )
    mine = case_lead(case.accommodation)
    seen: set[str] = set()
    for hearing in case.hearings:
        law = _law(case, pack, hearing)
        if mine is None or law is None or law.params.request_lead is None:
            continue
        theirs = _due(case, pack, hearing, law.params.request_lead, law)
        ours = _due(case, pack, hearing, mine, None)
        if ours.latest != theirs.latest and law.rule.id not in seen:
            seen.add(law.rule.id)
            out.append(
                Finding(
                    "ACC002",
                    f"the case has requests for an accommodation due {_day(ours)}, but"
                    f" {law.rule.title[0].lower() + law.rule.title[1:]} sets {_day(theirs)}"
                    f" for the {hearing.body_name} hearing; the notices state the law's day",
                    **cited(law),
                )
            )
    for hearing in case.hearings:
        due = requests(case, pack, hearing).due
        day = day_of(due.latest) if due and due.latest else None
        if day is None:
            continue
        for d in deadlines:
            late = [i for i in d.issues if i > day] if d.hearing == hearing_label(hearing) else []
            if late:
                out.append(
                    Finding(
                        "ACC003",
                        f"the {d.channel} insertion of {short(late[0])} comes out after requests"
                        f" for an accommodation at the {hearing.body_name} hearing are due"
                        f" ({short(day)}): its readers cannot ask in time",
                        rule=d.rule,
                        citation=d.citation,
                    )
                )
    return out


def _law(case: Case, pack: ResolvedPack, hearing: Hearing) -> Binding[ClauseParams] | None:
    """The accommodation clause in force for `hearing`, the one naming a lead time first."""
    clauses = [
        b
        for b in snapshot(pack, case, hearing.date).of(ClauseParams)
        if b.params.topic == ClauseTopic.ACCOMMODATION
    ]
    return next((b for b in clauses if b.params.request_lead), clauses[0] if clauses else None)


def _due(
    case: Case,
    pack: ResolvedPack,
    hearing: Hearing,
    timing: Timing,
    law: Binding[ClauseParams] | None,
) -> Deadline:
    """The day requests are due, counted as the schedule counts every period before a hearing."""
    ctx = Context(case, LegalCalendar(pack.calendar), pack.time_counting, zone_of(case, pack))
    d = Deadline(
        f"accommodation.{hearing.body.value}",
        hearing_label(hearing),
        "requests for an accommodation due",
        None,
        None,
        None,
        law.rule.id if law else "",
        "; ".join(dict.fromkeys(law.citations)) if law else "",
        "",
        rules=list(law.ids) if law else [],
    )
    event = f"{hearing.body_name} hearing {short(hearing.date)}"
    time_act(ctx, d, timing, hearing.date, event, prints=False)
    return d


def _day(d: Deadline) -> str:
    return short(day_of(d.latest)) if d.latest else "no day"
