"""The deadline engine: every date the law sets, computed from the hearings, and explained.

Each deadline says the window in which an act is lawful (earliest and latest), the newspaper
issues that comply, the day copy must reach the paper, the rule and citation behind it, and a
derivation a lawyer can check by hand. Periods counted back from a hearing never move later
because of a weekend or holiday: an act that needs an open office moves earlier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta

from generator.errors import Problem
from generator.inputs import CaseFile
from generator.legal_calendar import LegalCalendar, short
from generator.models.case import Body, Case, Hearing, Weekday
from generator.models.pack import (
    Channel,
    DeadlineParams,
    Event,
    NoticeParams,
    ProtestParams,
    TimeCounting,
    Timing,
    TimingType,
)
from generator.plan import Finding, serves
from generator.rules.loader import Binding, ResolvedPack, Snapshot, snapshot

_WEEKDAYS = [w.value for w in Weekday]
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
_DEADLINE_ACTIONS = {
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


@dataclass
class Deadline:
    """One act the law times, and the window in which it is lawful."""

    id: str
    hearing: str | None
    action: str
    channel: str | None
    earliest: date | datetime | None
    latest: date | datetime | None
    rule: str
    citation: str
    derivation: str
    rules: list[str] = field(default_factory=list)
    issues: list[date] = field(default_factory=list)
    copy_deadline: date | datetime | None = None
    required: bool = True
    problem: str | None = None  # why the act cannot be done in time, if it cannot

    def as_json(self) -> dict[str, Any]:
        """The DESIGN.md §6 shape, plus the ids of every rule behind the deadline."""

        def iso(value: date | datetime | None) -> str | None:
            return value.isoformat() if value else None

        return {
            "id": self.id,
            "hearing": self.hearing,
            "action": self.action,
            "channel": self.channel,
            "earliest": iso(self.earliest),
            "latest": iso(self.latest),
            "issues": [d.isoformat() for d in self.issues],
            "copy_deadline": iso(self.copy_deadline),
            "rule": self.rule,
            "rules": self.rules,
            "citation": self.citation,
            "derivation": self.derivation,
            "required": self.required,
            "problem": self.problem,
        }


@dataclass
class Context:
    """What every computation needs: the case, the calendar, the counting rule, the zone."""

    case: Case
    calendar: LegalCalendar
    counting: TimeCounting | None
    zone: ZoneInfo

    def gap(self, days: int, timing: Timing) -> int:
        """The fewest days between act and event for the period to count `days` days."""
        if timing.clear_days:
            return days + 1
        tc = self.counting
        act, event = (tc.count_act_day, tc.count_event_day) if tc else (False, True)
        return days + 1 - int(act) - int(event)

    def counting_note(self, timing: Timing) -> str:
        """How the days were counted, and on whose authority."""
        if timing.clear_days:
            return "clear days: neither the day of the act nor the event day counts"
        tc = self.counting
        if not tc:
            return "the day of the act not counted, the event day counted (no counting rule in the pack)"
        act = "counted" if tc.count_act_day else "not counted"
        event = "counted" if tc.count_event_day else "not counted"
        return f"the day of the act {act}, the event day {event}: {tc.citation}"


def compute(case: Case, pack: ResolvedPack) -> list[Deadline]:
    """Every deadline of the case, each hearing judged by the law in force on its date."""
    ctx = Context(case, LegalCalendar(pack.calendar), pack.time_counting, _zone(case, pack))
    out: list[Deadline] = []
    for hearing in case.hearings:
        out += _for_hearing(ctx, snapshot(pack, case, hearing.date), hearing)
    return _unique_ids(sorted(out, key=_order))


def hearing_label(hearing: Hearing) -> str:
    """How a deadline names the hearing it serves: `council 2027-03-16`."""
    return f"{hearing.body.value} {hearing.date.isoformat()}"


def _zone(case: Case, pack: ResolvedPack) -> ZoneInfo:
    return ZoneInfo(case.timezone or pack.timezone or "UTC")  # state packs must name their zone


def _order(d: Deadline) -> tuple[Any, ...]:
    when = d.latest or d.earliest
    key = when.date() if isinstance(when, datetime) else when
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


def _for_hearing(ctx: Context, snap: Snapshot, hearing: Hearing) -> list[Deadline]:
    case = ctx.case
    out = []
    label = hearing_label(hearing)
    for b in snap.of_kind("notice"):
        p: NoticeParams = b.params  # type: ignore[assignment]
        if serves(p.hearing, hearing, case):
            d = _notice(ctx, b, p, hearing)
            d.id, d.hearing = f"{b.rule.id}.{hearing.body.value}", label
            out.append(d)
    for b in snap.of_kind("deadline"):
        p2: DeadlineParams = b.params  # type: ignore[assignment]
        if serves(p2.hearing, hearing, case) and _first_of_body(case, hearing):
            d = _procedural(
                ctx, b, p2.timing, hearing, _DEADLINE_ACTIONS[p2.action], p2.extendable_by_applicant
            )
            d.id, d.hearing = f"{b.rule.id}.{hearing.body.value}", label
            out.append(d)
    for b in snap.of_kind("protest"):
        p3: ProtestParams = b.params  # type: ignore[assignment]
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


def _base(b: Binding, action: str, channel: str | None) -> Deadline:
    cites = "; ".join(dict.fromkeys(b.citations))
    return Deadline("", None, action, channel, None, None, b.rule.id, cites, "", rules=list(b.ids))


def _event(ctx: Context, event: Event, hearing: Hearing) -> tuple[date | None, str]:
    """The date an event falls on (None if it lies in the future and is not known), and its name."""
    case = ctx.case
    if event == Event.HEARING:
        return hearing.date, f"{hearing.body_name} hearing {short(hearing.date)}"
    if event == Event.VOTE:
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
    if event in (Event.HEARING_COMPLETED, Event.FINAL_APPROVAL):
        day = hearing.vote_date or hearing.date
        return (
            day,
            f"{_EVENT_NAMES[event]}, taken as {short(day)} (the day of the {hearing.body_name}'s hearing or vote)",
        )
    return None, f"{_EVENT_NAMES[event]}, a date not yet known"


def _notice(ctx: Context, b: Binding, p: NoticeParams, hearing: Hearing) -> Deadline:
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


def time_act(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """Fill in `d`'s window (and newspaper issues, if `prints`) for one timing rule."""
    if timing.type == TimingType.WEEKLY_BEFORE or (
        timing.type == TimingType.WINDOW_BEFORE and timing.weeks
    ):
        _weekly(ctx, d, timing, event, event_name, prints=prints)
    elif timing.type in (TimingType.AT_LEAST_BEFORE, TimingType.WINDOW_BEFORE):
        _before(ctx, d, timing, event, event_name, prints=prints)
    elif timing.type == TimingType.BUSINESS_DAYS_BEFORE:
        _business(ctx, d, timing, event, event_name)
    else:
        _after(ctx, d, timing, event, event_name)


def _procedural(
    ctx: Context, b: Binding, timing: Timing, hearing: Hearing, action: str, extendable: bool
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


def _note_merge(d: Deadline, b: Binding) -> None:
    if b.supplemented_by:
        d.derivation += (
            f"; {' and '.join(dict.fromkeys(b.citations))} both apply, the stricter binds"
        )
    for diff in b.differences:
        if diff.field.startswith("timing"):
            d.derivation += f" ({diff.describe()})"


def _closing(ctx: Context, day: date, timing: Timing, *, earlier: bool) -> tuple[date, str]:
    """Move an act that needs an open office off a closure day: earlier for a latest date."""
    if not timing.needs_open_office:
        return day, ""
    cal = ctx.calendar
    if cal.is_open(day):
        return day, f"; {short(day)} is not a closure day"
    moved, skipped = cal.previous_open(day) if earlier else cal.next_open(day)
    closed = "; ".join(s.describe() for s in sorted(skipped, key=lambda s: s.date))
    direction = "earlier, never later" if earlier else "later"
    return (
        moved,
        f"; closed: {closed} — the act needs an open office, so it moves {direction}, to {short(moved)}",
    )


def _before(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """At least N days before, or a window of N to M days before, an event."""
    low = timing.days if timing.type == TimingType.AT_LEAST_BEFORE else timing.min_days
    gap = ctx.gap(low or 0, timing)
    latest = event - timedelta(days=gap)
    text = f"{event_name} − {gap} days = {short(latest)} ({ctx.counting_note(timing)})"
    latest, note = _closing(ctx, latest, timing, earlier=True)
    text += note
    earliest = None
    if timing.type == TimingType.WINDOW_BEFORE and timing.max_days is not None:
        far = ctx.gap(timing.max_days, timing)
        earliest = event - timedelta(days=far)
        text += f"; not before {event_name} − {far} days = {short(earliest)}"
        earliest, note = _closing(ctx, earliest, timing, earlier=False)
        text += note
    d.earliest, d.latest, d.derivation = earliest, latest, text
    if prints:
        _issues_by(ctx, d, earliest, latest, timing.insertions or 1)
    if earliest and earliest > latest:
        d.problem = f"no day between {short(earliest)} and {short(latest)} is open"


def _weekly(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """Once each week for K successive weeks before the event (with a window for the first)."""
    weeks = timing.weeks or 1
    last = event if timing.event_day_insertion_counts else event - timedelta(days=1)
    text = f"{weeks} insertions in successive weeks before {event_name}"
    if timing.week_model == "rolling_7":
        text += " (weeks of seven days from the first insertion)"
    else:
        text += " (calendar weeks, Sunday to Saturday)"
    if timing.may_include_event_week is False:
        last = min(last, _week_start(event) - timedelta(days=1))
        text += "; the week of the hearing does not count"
    elif timing.may_include_event_week:
        text += "; the week of the hearing may count"
    text += f"; last insertion by {short(last)}"
    if not timing.event_day_insertion_counts:
        text += " (an insertion on the hearing day does not count)"
    first_low = first_high = None
    if timing.type == TimingType.WINDOW_BEFORE:
        first_high = event - timedelta(days=ctx.gap(timing.min_days or 0, timing))
        first_low = event - timedelta(days=ctx.gap(timing.max_days or 0, timing))
        text += f"; first insertion not before {short(first_low)} nor after {short(first_high)} ({ctx.counting_note(timing)})"
    days, paper = _publication_days(ctx, prints)
    series = _latest_series(
        days, weeks, last, timing.week_model or "calendar_sun_sat", first_low, first_high
    )
    if series is None:
        d.problem = f"no {weeks} successive weekly issues of {paper} fit before {short(last)}"
        d.derivation = text + f"; {paper}: none fit"
        d.latest, d.earliest = first_high or last, first_low
        return
    d.issues = series if prints else []
    d.latest, d.earliest = series[0], first_low
    text += f"; {paper}: latest complying issues {', '.join(short(i) for i in series)}"
    d.derivation = text
    if prints:
        _copy(ctx, d)


def _business(ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str) -> None:
    """N business days before an event, by a clock time."""
    n = timing.business_days or 0
    day, skipped = ctx.calendar.business_days_before(event, n)
    text = f"{event_name}, {n} business day(s) before = {short(day)}"
    if skipped:
        text += "; not business days: " + "; ".join(s.describe() for s in reversed(skipped))
    if timing.clock_time:
        d.latest = datetime.combine(day, timing.clock_time, ctx.zone)
        text += f", by {timing.clock_time.strftime('%H:%M')}"
    else:
        d.latest = day
    if timing.may_be_earlier_if_set_by_body:
        text += "; the governing body may set an earlier time"
    d.derivation = text


def _after(ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str) -> None:
    """Within N days after, no sooner than N days after, or not again within a period after."""
    span = relativedelta(months=timing.months or 0, days=timing.days or 0)
    words = f"{timing.months} months" if timing.months else f"{timing.days} days"
    day = event + span
    text = f"{event_name} + {words} = {short(day)}"
    if timing.type == TimingType.WITHIN_AFTER:
        cal = ctx.calendar
        if ctx.counting and ctx.counting.forward_roll:
            passed = []
            while not cal.is_open(day) or cal.is_legal_holiday(day):
                passed.append(cal.day(day).describe())
                day += timedelta(days=1)
            if passed:
                text += f"; {'; '.join(passed)}: the period ends on the next open day, {short(day)} ({ctx.counting.citation})"
        d.latest = day
    else:
        d.earliest = day
    d.derivation = text


def _week_start(day: date) -> date:
    """The Sunday that begins `day`'s calendar week."""
    return day - timedelta(days=(day.weekday() + 1) % 7)


def _publication_days(ctx: Context, prints: bool) -> tuple[set[int], str]:
    paper = ctx.case.newspaper
    if prints and paper and paper.publication_days:
        names = ", ".join(w.value for w in paper.publication_days)
        return {
            _WEEKDAYS.index(w.value) for w in paper.publication_days
        }, f"{paper.name or 'the newspaper'} publishes {names}"
    return set(range(7)), "any day (no publication days given)"


def _latest_series(
    days: set[int], weeks: int, last: date, model: str, low: date | None, high: date | None
) -> list[date] | None:
    """The latest K weekly insertions on publication days ending by `last` (first in [low, high])."""
    first = high or last
    stop = first - timedelta(days=400)
    while first > stop and (low is None or first >= low):
        if first.weekday() in days:
            series = _series_from(first, days, weeks, last, model)
            if series:
                return series
        first -= timedelta(days=1)
    return None


def _series_from(
    first: date, days: set[int], weeks: int, last: date, model: str
) -> list[date] | None:
    """Insertions in each of `weeks` successive weeks starting with `first`, latest in each week."""
    series = [first]
    week_start = _week_start(first) if model == "calendar_sun_sat" else first
    for k in range(1, weeks):
        start = week_start + timedelta(days=7 * k)
        candidates = [start + timedelta(days=i) for i in range(7)]
        options = [c for c in candidates if c.weekday() in days and c <= last and c > series[-1]]
        if not options:
            return None
        series.append(max(options))
    return series


def _issues_by(ctx: Context, d: Deadline, earliest: date | None, latest: date, count: int) -> None:
    """The latest issues on or before `latest` (and not before `earliest`)."""
    days, paper = _publication_days(ctx, True)
    found: list[date] = []
    day = latest
    while (
        len(found) < count
        and day > latest - timedelta(days=400)
        and (earliest is None or day >= earliest)
    ):
        if day.weekday() in days:
            found.append(day)
        day -= timedelta(days=1)
    if len(found) < count:
        d.problem = f"no issue of {paper} falls in the window"
        d.derivation += f"; {paper}: no issue in the window"
        return
    d.issues = sorted(found)
    d.derivation += f"; {paper}: latest complying issue(s) {', '.join(short(i) for i in d.issues)}"
    _copy(ctx, d)


def _copy(ctx: Context, d: Deadline) -> None:
    """The day (and time) copy must reach the paper for the first issue."""
    paper = ctx.case.newspaper
    if not (paper and paper.copy_deadline and d.issues):
        return
    cd = paper.copy_deadline
    first = d.issues[0]
    if cd.business_days:
        day, _ = ctx.calendar.business_days_before(first, cd.days_before)
        how = f"{cd.days_before} business days"
    else:
        day = first - timedelta(days=cd.days_before)
        how = f"{cd.days_before} days"
    d.copy_deadline = datetime.combine(day, cd.time, ctx.zone) if cd.time else day
    at = f" {cd.time.strftime('%H:%M')}" if cd.time else ""
    d.derivation += f"; copy due {how} before the first issue: {short(day)}{at}"


def due(d: Deadline) -> date | None:
    """The last day on which the act (or its copy) is still in time."""
    values = [v for v in (d.copy_deadline, d.latest) if v is not None]
    days = [v.date() if isinstance(v, datetime) else v for v in values]
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
        ctx = Context(moved, LegalCalendar(pack.calendar), pack.time_counting, _zone(case, pack))
        deadlines = _for_hearing(ctx, snapshot(pack, moved, day), hearings[index])
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
        day = copy.date() if isinstance(copy, datetime) else copy
        return f"copy for the first insertion ({short(d.issues[0])}) was due {short(day)}{at}"
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

    def day(x: date | datetime) -> date:
        return x.date() if isinstance(x, datetime) else x

    latest = min((day(d.latest) for d in mine if d.latest), default=None)
    earliest = max((day(d.earliest) for d in mine if d.earliest), default=None)
    return earliest, latest


def issues_of(deadlines: list[Deadline], rules: tuple[str, ...], hearing: Hearing) -> list[date]:
    """The newspaper issues computed for the notice rules `rules` of `hearing`."""
    label = hearing_label(hearing)
    found = {i for d in deadlines if d.hearing == label and d.rule in rules for i in d.issues}
    return sorted(found)


def findings(case: Case, deadlines: list[Deadline]) -> list[Finding]:
    """Procedural deadlines the case's own dates already miss (warnings: an applicant may consent)."""
    out = []
    for hearing in case.hearings:
        label = hearing_label(hearing)
        for d in deadlines:
            if d.hearing != label or d.action != _DEADLINE_ACTIONS["hold_hearing"] or not d.latest:
                continue
            latest = d.latest.date() if isinstance(d.latest, datetime) else d.latest
            if hearing.date > latest:
                out.append(
                    Finding(
                        "warning",
                        "SCHED001",
                        f"the {hearing.body_name} hearing on {short(hearing.date)} is after the last"
                        f" lawful day {short(latest)} ({d.derivation})",
                        d.rule,
                        d.citation,
                    )
                )
    return out
