"""Counting days: at least N days before, windows, weekly series, business days, periods after.

Periods counted back from a hearing never move later because of a weekend or holiday: an act
that needs an open office moves earlier. Newspaper issues and the copy deadline come from the
paper's publication days.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime, timedelta
from itertools import pairwise

from dateutil.relativedelta import relativedelta

from generator.legal_calendar import Day, short
from generator.models.case import Weekday
from generator.models.timing import Timing, TimingType
from generator.schedule.deadline import Context, Deadline

_WEEKDAYS = [w.value for w in Weekday]


def time_act(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """Fill in `d`'s window (and newspaper issues, if `prints`) for one timing rule."""
    ctx.calendar.relied = {}  # the uncertain closures this count treats as closed, and only it
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
    d.derivation += f"; calendar: {ctx.calendar.source}"
    d.unsure = [*d.unsure, *(v for v in ctx.calendar.relied.values() if v not in d.unsure)]


def _closing(ctx: Context, day: date, timing: Timing, *, earlier: bool) -> tuple[date, str]:
    """Move an act that needs an open office off a closure day: earlier for a latest date."""
    if not timing.needs_open_office:
        return day, ""
    return _off_closed(
        ctx, day, "previous_open" if earlier else "next_open", "the act needs an open office"
    )


def _last_day(ctx: Context, day: date, timing: Timing) -> tuple[date, str]:
    """The latest day for an act before the event, as the rule's counting treats a closed day."""
    own = timing.counting.last_day_closed if timing.counting else None
    if own is None:
        return _closing(ctx, day, timing, earlier=True)
    return _off_closed(ctx, day, own, "the rule's counting for a closed last day")


def _off_closed(ctx: Context, day: date, how: str, why: str) -> tuple[date, str]:
    """`day`, or the open day before (`previous_open`) or after (`next_open`) it; `counts` keeps it."""
    cal = ctx.calendar
    if cal.is_open(day):
        return day, f"; {short(day)} is not a closure day"
    if how == "counts":
        return day, f"; {cal.day(day).describe()}: the day still counts ({why})"
    moved, skipped = cal.previous_open(day) if how == "previous_open" else cal.next_open(day)
    closed = "; ".join(s.describe() for s in sorted(skipped, key=lambda s: s.date))
    direction = "earlier, never later" if how == "previous_open" else "later"
    return moved, f"; closed: {closed} — {why}, so it moves {direction}, to {short(moved)}"


def _before(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """At least N days (or N open days) before, or a window of N to M days before, an event."""
    low = timing.days if timing.type == TimingType.AT_LEAST_BEFORE else timing.min_days
    if timing.calendar_days:
        gap = ctx.gap(low or 0, timing)
        latest = event - timedelta(days=gap)
        text = f"{event_name} − {gap} days = {short(latest)} ({ctx.counting_note(timing)})"
    else:
        latest, passed = _open_days_before(ctx, timing, event, low or 0)
        text = (
            f"{event_name}, {low} days the offices are open before it = {short(latest)}"
            f" ({ctx.counting_note(timing)})"
        )
        if passed:
            text += "; not counted, offices closed: " + "; ".join(x.describe() for x in passed)
    latest, note = _last_day(ctx, latest, timing)
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


def _open_days_before(ctx: Context, timing: Timing, event: date, n: int) -> tuple[date, list[Day]]:
    """The latest day to act so that `n` open days count up to the event, and the closed days passed.

    The day of the act and the event day count as the rule's counting says, and only if open.
    """
    act_counts, event_counts = ctx.counts(timing)
    cal = ctx.calendar
    counted = int(event_counts and cal.is_open(event))
    passed: list[Day] = []
    day = event - timedelta(days=1)
    while counted + int(act_counts and cal.is_open(day)) < n:
        if cal.is_open(day):
            counted += 1
        else:
            passed.append(cal.day(day))
        day -= timedelta(days=1)
    return day, passed


def _weekly(
    ctx: Context, d: Deadline, timing: Timing, event: date, event_name: str, *, prints: bool
) -> None:
    """Once each week for K successive weeks before the event (with a window for the first)."""
    weeks = timing.weeks or 1
    model = ctx.week_model(timing)
    last = event if timing.event_day_insertion_counts else event - timedelta(days=1)
    text = f"{weeks} insertions in successive weeks before {event_name}"
    if model == "rolling_7":
        text += " (weeks of seven days from the first insertion)"
    else:
        text += " (calendar weeks, Sunday to Saturday)"
    if timing.may_include_event_week is False:
        last = min(last, _week_start(event) - timedelta(days=1))
        text += "; the week of the hearing does not count"
    elif timing.may_include_event_week:
        text += "; the week of the hearing may count"
    if timing.last_min_days is not None:
        by = event - timedelta(days=ctx.gap(timing.last_min_days, timing))
        if by < last:
            last = by
            text += (
                f"; the last insertion not less than {timing.last_min_days} days before"
                f" ({ctx.counting_note(timing)})"
            )
    text += f"; last insertion by {short(last)}"
    if not timing.event_day_insertion_counts:
        text += " (an insertion on the hearing day does not count)"
    first_low = first_high = None
    if timing.type == TimingType.WINDOW_BEFORE:
        first_high = event - timedelta(days=ctx.gap(timing.min_days or 0, timing))
        first_low = event - timedelta(days=ctx.gap(timing.max_days or 0, timing))
        text += f"; first insertion not before {short(first_low)} nor after {short(first_high)} ({ctx.counting_note(timing)})"
    else:
        if timing.first_min_days is not None:
            first_high = event - timedelta(days=ctx.gap(timing.first_min_days, timing))
            text += f"; first insertion not less than {timing.first_min_days} days before, by {short(first_high)}"
        if timing.first_max_days is not None:
            first_low = event - timedelta(days=ctx.gap(timing.first_max_days, timing))
            text += f"; first insertion not more than {timing.first_max_days} days before, from {short(first_low)}"
        elif timing.first_min_days is not None:
            text += ", no earliest date"
        if timing.first_min_days is not None or timing.first_max_days is not None:
            text += f" ({ctx.counting_note(timing)})"
    last_low = None
    if timing.last_max_days is not None:
        last_low = event - timedelta(days=ctx.gap(timing.last_max_days, timing))
        text += f"; the last insertion not more than {timing.last_max_days} days before, from {short(last_low)}"
    if timing.min_days_between:
        text += f"; at least {timing.min_days_between} days between insertions"

    def lawful(series: list[date]) -> bool:
        spaced = all((b - a).days >= (timing.min_days_between or 0) for a, b in pairwise(series))
        return spaced and (last_low is None or series[-1] >= last_low)

    days, paper = _publication_days(ctx, prints)
    series = _latest_series(days, weeks, last, model, first_low, first_high, lawful)
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
    words = (
        " + ".join(
            f"{n} {unit}" for n, unit in ((timing.months, "months"), (timing.days, "days")) if n
        )
        or "0 days"
    )
    day = event + span
    text = f"{event_name} + {words} = {short(day)}"
    if timing.months and day.day != event.day:
        # A month without the event's day: the period ends on that month's last day.
        text += f" (no day {event.day} in {day:%B}: its last day)"
    if timing.type == TimingType.WITHIN_AFTER:
        own = timing.counting.last_day_closed if timing.counting else None
        if own in ("previous_open", "counts"):
            day, note = _off_closed(ctx, day, own, "the rule's counting for a closed last day")
            text += note
        elif own == "next_open" or (ctx.counting and ctx.counting.forward_roll):
            cal = ctx.calendar
            passed = []
            while not cal.is_open(day) or cal.is_legal_holiday(day):
                passed.append(cal.day(day).describe())
                day += timedelta(days=1)
            if passed:
                why = (
                    "the rule's counting" if own else ctx.counting.citation if ctx.counting else ""
                )
                text += f"; {'; '.join(passed)}: the period ends on the next open day, {short(day)} ({why})"
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
    days: set[int],
    weeks: int,
    last: date,
    model: str,
    low: date | None,
    high: date | None,
    lawful: Callable[[list[date]], bool] = lambda _: True,
) -> list[date] | None:
    """The latest K weekly insertions on publication days ending by `last` (first in [low, high]).

    `lawful` is what else the law asks of the series (the last's earliest day, the spacing).
    """
    first = min(high, last) if high else last
    stop = first - timedelta(days=400)
    while first > stop and (low is None or first >= low):
        if first.weekday() in days:
            series = _series_from(first, days, weeks, last, model)
            if series and lawful(series):
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
