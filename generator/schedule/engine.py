"""Every deadline of a case: notices, procedural deadlines and protests, hearing by hearing."""

from __future__ import annotations

from datetime import date
from typing import Any

from generator.legal_calendar import LegalCalendar, short
from generator.models.case import Body, Case, Hearing
from generator.models.pack import (
    Channel,
    DeadlineParams,
    NoticeParams,
    NthHearing,
    ProtestParams,
)
from generator.models.timing import Event, Timing
from generator.rules.loader import Binding, ResolvedPack, Snapshot, snapshot
from generator.schedule import recorded
from generator.schedule.counting import time_act
from generator.schedule.deadline import Context, Deadline, day_of, hearing_label, zone_of

_ACTIONS = {
    Channel.NEWSPAPER: "publish the notice",
    Channel.MAIL: "mail the notice",
    Channel.SIGN: "post the sign on the property",
    Channel.POSTING: "post the notice",
    Channel.WEBSITE: "post the notice on the website",
    Channel.DISPLAY_AD: "publish the display ad",
    Channel.UTILITY_INSERT: "send the notice with utility bills",
    Channel.TRANSMITTAL: "send copies of the notice",
    Channel.ACTUAL_NOTICE: "give the owner actual notice",
}
DEADLINE_ACTIONS = {
    "hold_hearing": "hold the hearing",
    "planning_report": "planning body reports to the council",
    "decision": "council decides",
    "council_vote": "council votes",
    "effective": "change takes effect",
    "reapplication_bar": "a rejected petition may be heard again",
    "rehearing_after": "a rehearing may be granted",
    "refile_bar": "the application may be filed again",
}
_EVENT_NAMES = {
    Event.PETITION_RECEIVED: "receipt of the petition",
    Event.FILING: "the filing",
    Event.HEARING_COMPLETED: "completion of the hearing",
    Event.FINAL_APPROVAL: "final approval",
    Event.REJECTION: "the rejection",
    Event.DECISION: "the decision",
    Event.WITHDRAWAL: "the withdrawal",
}
_PRINT_CHANNELS = (Channel.NEWSPAPER, Channel.DISPLAY_AD)


def compute(case: Case, pack: ResolvedPack) -> list[Deadline]:
    """Every deadline of the case, each hearing judged by the law in force on its date."""
    ctx = Context(case, LegalCalendar(pack.calendar), pack.time_counting, zone_of(case, pack))
    out: list[Deadline] = []
    for hearing in case.hearings:
        out += for_hearing(ctx, snapshot(pack, case, hearing.date), hearing)
    return _unique_ids(sorted(out, key=_order))


def _order(d: Deadline) -> tuple[Any, ...]:
    when = d.latest or d.earliest
    key = day_of(when) if when else None
    return (key is None, key or date.max, d.hearing or "", d.id)


def _unique_ids(deadlines: list[Deadline]) -> list[Deadline]:
    seen: dict[str, int] = {}
    for d in deadlines:
        if d.id in seen:
            seen[d.id] += 1
            d.id = f"{d.id}-{seen[d.id]}"
        else:
            seen[d.id] = 1
    return deadlines


def for_hearing(ctx: Context, snap: Snapshot, hearing: Hearing) -> list[Deadline]:
    """The deadlines of one hearing: its notices, and the procedural acts and protests it starts."""
    case = ctx.case
    out = []
    label = hearing_label(hearing)
    for b in snap.of(NoticeParams):
        if b.params.hearing.serves(hearing, case):
            d = _notice(ctx, b, hearing)
            d.id, d.hearing = f"{b.rule.id}.{hearing.body.value}", label
            out.append(d)
    for b in snap.of(DeadlineParams):
        p2 = b.params
        # A numbered hearing (`council#2`) is named on purpose; a role means the body's first.
        numbered = isinstance(p2.hearing, NthHearing)
        if p2.hearing.serves(hearing, case) and (numbered or _first_of_body(case, hearing)):
            action = DEADLINE_ACTIONS[p2.action]
            if p2.from_hearing is not None:
                d = _from_hearing(ctx, b, p2.from_hearing, hearing, action)
            else:
                d = _procedural(ctx, b, p2.timing, hearing, action, p2.extendable_by_applicant)
            d.id, d.hearing = f"{b.rule.id}.{hearing.body.value}", label
            out.append(d)
    for b in snap.of(ProtestParams):
        p3 = b.params
        if hearing.body == Body.COUNCIL and _first_of_body(case, hearing):
            d = _procedural(
                ctx, b, p3.filing, hearing, f"file a protest with {p3.filed_with}", False
            )
            d.id, d.hearing = f"{b.rule.id}.{hearing.body.value}", label
            out.append(d)
    return out


def _first_of_body(case: Case, hearing: Hearing) -> bool:
    """Procedural deadlines attach to the first hearing a body holds, not to a continuation."""
    return case.hearing(hearing.body) is hearing


def _base(b: Binding[Any], action: str, channel: str | None) -> Deadline:
    cites = "; ".join(dict.fromkeys(b.citations))
    return Deadline("", None, action, channel, None, None, b.rule.id, cites, "", rules=list(b.ids))


def _event(ctx: Context, event: Event, hearing: Hearing) -> tuple[date | None, str]:
    """The date an event falls on (None if it lies in the future and is not known), and its name.

    An event the record gives (the hearing's close, the vote, the decision) is counted from
    the recorded day; otherwise from the plan, and the name says so.
    """
    case = ctx.case
    if event == Event.HEARING:
        return hearing.date, f"{hearing.body_name} hearing {short(hearing.date)}"
    if event == Event.VOTE:
        voted = recorded.voted_on(case, hearing)
        if voted:
            return voted, f"the vote recorded on {short(voted)}"
        if hearing.vote_date:
            return hearing.vote_date, f"vote {short(hearing.vote_date)}"
        return (
            hearing.date,
            f"vote at the hearing of {short(hearing.date)} (no separate vote date given)",
        )
    if event in (Event.PETITION_RECEIVED, Event.FILING):
        if case.petition_received:
            return case.petition_received, f"{_EVENT_NAMES[event]} {short(case.petition_received)}"
        return None, f"{_EVENT_NAMES[event]} (no `petition_received` date in the case)"
    if event == Event.HEARING_COMPLETED:
        closed = recorded.closed_on(case, hearing)
        if closed:
            return closed, f"{_EVENT_NAMES[event]}, the close recorded on {short(closed)}"
        return (
            hearing.date,
            f"{_EVENT_NAMES[event]}, not recorded: taken from the plan as {short(hearing.date)}"
            f" (the day of the {hearing.body_name}'s hearing)",
        )
    if event in (Event.FINAL_APPROVAL, Event.DECISION):
        decided = recorded.decided_on(case, hearing)
        if decided:
            return decided, f"{_EVENT_NAMES[event]} recorded on {short(decided)}"
        if event == Event.FINAL_APPROVAL:
            day = hearing.vote_date or hearing.date
            return (
                day,
                f"{_EVENT_NAMES[event]}, not recorded: taken from the plan as {short(day)} (the"
                f" day of the {hearing.body_name}'s hearing or vote)",
            )
    return None, f"{_EVENT_NAMES[event]}, a date not yet known"


def _notice(ctx: Context, b: Binding[NoticeParams], hearing: Hearing) -> Deadline:
    p = b.params
    action = _ACTIONS[p.channel] + ("" if p.requirement == "required" else f" ({p.requirement})")
    d = _base(b, action, p.channel.value)
    d.required = p.requirement == "required"
    if not p.timing:
        d.derivation = "the law sets no time for this act"
        return d
    timing = p.timing
    event_day, event_name = _event(ctx, timing.event, hearing)
    if event_day is None:
        d.derivation = f"counted from {event_name}"
        return d
    time_act(ctx, d, timing, event_day, event_name, prints=p.channel in _PRINT_CHANNELS)
    _note_merge(d, b)
    return d


def _procedural(
    ctx: Context, b: Binding[Any], timing: Timing, hearing: Hearing, action: str, extendable: bool
) -> Deadline:
    d = _base(b, action, None)
    event_day, event_name = _event(ctx, timing.event, hearing)
    if event_day is None:
        span = f"{timing.months} months" if timing.months else f"{timing.days} days"
        d.derivation = f"{span} counted from {event_name}"
    else:
        time_act(ctx, d, timing, event_day, event_name, prints=False)
    if extendable:
        d.derivation += "; the applicant may consent to an extension"
    _note_merge(d, b)
    return d


def _from_hearing(
    ctx: Context, b: Binding[DeadlineParams], other: NthHearing, hearing: Hearing, action: str
) -> Deadline:
    """A hearing timed from another hearing of the case ("at least 10 days after the first")."""
    d = _base(b, action, None)
    before = other.pick(ctx.case)
    if before is None:
        d.derivation = (
            f"counted from hearing {other.value} (the {ordinal(other.nth)} hearing of the"
            f" {other.body.value}), which the case does not list"
        )
        d.problem = d.derivation
        return d
    name = f"the {before.body_name} hearing of {short(before.date)} ({other.value})"
    time_act(ctx, d, b.params.timing, before.date, name, prints=False)
    _note_merge(d, b)
    return d


def ordinal(n: int) -> str:
    """1 → first, 2 → second ... as statutes count hearings."""
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
    return words[n - 1] if 1 <= n <= len(words) else f"#{n}"


def _note_merge(d: Deadline, b: Binding[Any]) -> None:
    if b.supplemented_by:
        d.derivation += (
            f"; {' and '.join(dict.fromkeys(b.citations))} both apply, the stricter binds"
        )
    for diff in b.differences:
        if diff.field.startswith("timing"):
            d.derivation += f" ({diff.describe()})"
