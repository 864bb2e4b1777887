"""Property tests of every time rule: the computed date complies, and the next day would not.

Each property is checked against the real calendars of the four seed states, for hearings
anywhere from 2024 to 2031, with counting rules re-stated here independently of the engine.
"""

from __future__ import annotations

from datetime import date, time, timedelta
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.inputs import load_case
from generator.legal_calendar import LegalCalendar
from generator.models.case import Weekday
from generator.models.timing import Timing
from generator.rules.loader import resolve
from generator.schedule import Context, Deadline, time_act, zone_of

from .conftest import CASES

STATES = {
    "us-ri": "ep-2027-za-03",
    "us-az": "az-2027-map-01",
    "us-nc": "shelby-2027-map-01",
    "us-ok": "ok-2027-map-01",
}
DAYS = st.dates(min_value=date(2024, 1, 1), max_value=date(2031, 12, 31))
WEEKDAYS = st.sets(st.integers(min_value=0, max_value=6), min_size=1)
NAMES = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _context(state: str) -> Context:
    case = load_case(CASES / f"{STATES[state]}.yaml").case
    pack = resolve(state)
    return Context(case, LegalCalendar(pack.calendar), pack.time_counting, zone_of(case, pack))


CONTEXTS = {state: _context(state) for state in STATES}


def context(state: str, publication_days: set[int]) -> Context:
    """The state's context with a newspaper publishing on `publication_days` (0 = Monday)."""
    base = CONTEXTS[state]
    days = [Weekday(NAMES[i]) for i in sorted(publication_days)]
    paper = base.case.newspaper.model_copy(update={"publication_days": days, "copy_deadline": None})
    case = base.case.model_copy(update={"newspaper": paper})
    return Context(case, base.calendar, base.counting, base.zone)


def timed(ctx: Context, timing: Timing, event: date, *, prints: bool = False) -> Deadline:
    d = Deadline("x", None, "act", None, None, None, "rule", "citation", "")
    time_act(ctx, d, timing, event, "the event", prints=prints)
    return d


@pytest.mark.parametrize("state", STATES)
@given(event=DAYS, n=st.integers(min_value=1, max_value=40), office=st.booleans())
@settings(max_examples=60, deadline=None)
def test_at_least_n_days_before(state: str, event: date, n: int, office: bool) -> None:
    ctx = CONTEXTS[state]
    d = timed(ctx, Timing(type="at_least_before", days=n, needs_open_office=office), event)
    latest = d.latest
    assert (event - latest).days >= n  # complies: the hearing is n or more days after the act
    if not office:
        assert (event - (latest + timedelta(days=1))).days < n  # the next day would not
    else:
        assert ctx.calendar.is_open(latest)
        between = [latest + timedelta(days=i) for i in range(1, (event - latest).days - n + 1)]
        assert all(
            not ctx.calendar.is_open(day) for day in between
        )  # moved earlier only past closures


@pytest.mark.parametrize("state", STATES)
@given(event=DAYS, n=st.integers(min_value=1, max_value=40))
@settings(max_examples=40, deadline=None)
def test_clear_days_exclude_both_ends(state: str, event: date, n: int) -> None:
    d = timed(CONTEXTS[state], Timing(type="at_least_before", days=n, clear_days=True), event)
    assert (event - d.latest).days - 1 == n  # n whole days lie between the act and the event


@pytest.mark.parametrize("state", STATES)
@given(
    event=DAYS,
    low=st.integers(min_value=1, max_value=20),
    span=st.integers(min_value=0, max_value=20),
)
@settings(max_examples=40, deadline=None)
def test_window_before(state: str, event: date, low: int, span: int) -> None:
    high = low + span
    d = timed(CONTEXTS[state], Timing(type="window_before", min_days=low, max_days=high), event)
    assert (event - d.latest).days == low and (event - d.earliest).days == high
    assert (event - (d.latest + timedelta(days=1))).days < low  # a day later is too late
    assert (event - (d.earliest - timedelta(days=1))).days > high  # a day earlier is too early


def _week(day: date) -> date:
    return day - timedelta(days=(day.weekday() + 1) % 7)


def _series_possible(first: date, weeks: int, days: set[int], last: date) -> bool:
    """Independent check: a publication day in each of `weeks` calendar weeks from `first`'s, by `last`."""
    for k in range(1, weeks):
        start = _week(first) + timedelta(days=7 * k)
        if not any(
            (start + timedelta(days=i)).weekday() in days and start + timedelta(days=i) <= last
            for i in range(7)
        ):
            return False
    return first <= last


@given(event=DAYS, weeks=st.integers(min_value=1, max_value=4), days=WEEKDAYS)
@settings(max_examples=80, deadline=None)
def test_once_a_week_for_successive_calendar_weeks(event: date, weeks: int, days: set[int]) -> None:
    ctx = context("us-ri", days)
    timing = Timing(
        type="weekly_before",
        weeks=weeks,
        week_model="calendar_sun_sat",
        may_include_event_week=True,
        event_day_insertion_counts=False,
    )
    d = timed(ctx, timing, event, prints=True)
    issues = d.issues
    assert len(issues) == weeks and issues == sorted(issues)
    assert all(i.weekday() in days for i in issues)
    assert issues[-1] < event  # an insertion on the hearing day does not count (Sutinen)
    starts = [_week(i) for i in issues]
    assert all((b - a).days == 7 for a, b in pairwise(starts))  # successive weeks
    last = event - timedelta(days=1)
    later = [issues[0] + timedelta(days=i) for i in range(1, (last - issues[0]).days + 1)]
    assert not any(
        f.weekday() in days and _series_possible(f, weeks, days, last) for f in later
    )  # latest


@given(event=DAYS, days=WEEKDAYS)
@settings(max_examples=60, deadline=None)
def test_first_of_two_weekly_insertions_within_a_window(event: date, days: set[int]) -> None:
    ctx = context("us-nc", days)
    timing = Timing(
        type="window_before",
        min_days=10,
        max_days=25,
        weeks=2,
        week_model="calendar_sun_sat",
        event_day_insertion_counts=False,
    )
    d = timed(ctx, timing, event, prints=True)
    if d.problem:  # no two weekly issues fit: then no publication day in the window starts a series
        window = [event - timedelta(days=k) for k in range(10, 26)]
        assert not any(
            f.weekday() in days and _series_possible(f, 2, days, event - timedelta(days=1))
            for f in window
        )
        return
    first, second = d.issues
    assert 10 <= (event - first).days <= 25  # publication day not counted, hearing day counted
    assert (_week(second) - _week(first)).days == 7 and second < event


@pytest.mark.parametrize("state", STATES)
@given(event=DAYS, n=st.integers(min_value=1, max_value=5))
@settings(max_examples=40, deadline=None)
def test_business_days_before_at_noon(state: str, event: date, n: int) -> None:
    ctx = CONTEXTS[state]
    d = timed(
        ctx, Timing(type="business_days_before", business_days=n, clock_time=time(12, 0)), event
    )
    day = d.latest.date()
    assert d.latest.time() == time(12, 0)
    assert ctx.calendar.is_open(day)
    between = [day + timedelta(days=i) for i in range(1, (event - day).days)]
    assert sum(ctx.calendar.is_open(x) for x in between) == n - 1  # exactly n business days back


@pytest.mark.parametrize("state", STATES)
@given(event=DAYS, n=st.integers(min_value=1, max_value=120))
@settings(max_examples=40, deadline=None)
def test_within_n_days_after(state: str, event: date, n: int) -> None:
    ctx = CONTEXTS[state]
    d = timed(ctx, Timing(type="within_after", event="petition_received", days=n), event)
    end = event + timedelta(days=n)
    cal = ctx.calendar
    if (
        ctx.counting and ctx.counting.forward_roll
    ):  # the period runs to the next open, non-holiday day
        assert d.latest >= end and cal.is_open(d.latest) and not cal.is_legal_holiday(d.latest)
        passed = [end + timedelta(days=i) for i in range((d.latest - end).days)]
        assert all(not cal.is_open(x) or cal.is_legal_holiday(x) for x in passed)
    else:
        assert d.latest == end


@given(
    event=DAYS,
    weeks=st.integers(min_value=1, max_value=4),
    first=st.integers(min_value=1, max_value=30),
    days=WEEKDAYS,
)
@settings(max_examples=80, deadline=None)
def test_weekly_with_the_first_not_less_than_n_days_before(
    event: date, weeks: int, first: int, days: set[int]
) -> None:
    ctx = context("us-nc", days)  # the day of publication not counted, the hearing day counted
    timing = Timing(type="weekly_before", weeks=weeks, first_min_days=first)
    d = timed(ctx, timing, event, prints=True)
    assert d.earliest is None  # the law gives no earliest date, so none is invented
    issues = d.issues
    assert len(issues) == weeks and all(i.weekday() in days for i in issues)
    assert (event - issues[0]).days >= first and issues[-1] < event
    assert all((_week(b) - _week(a)).days == 7 for a, b in pairwise(issues))
    by = event - timedelta(days=first)
    later = [issues[0] + timedelta(days=i) for i in range(1, (by - issues[0]).days + 1)]
    assert not any(
        f.weekday() in days and _series_possible(f, weeks, days, event - timedelta(days=1))
        for f in later
    )  # the latest first insertion that still leaves a series


@given(
    event=DAYS,
    weeks=st.integers(min_value=1, max_value=4),
    last=st.integers(min_value=1, max_value=14),
    days=WEEKDAYS,
)
@settings(max_examples=60, deadline=None)
def test_weekly_with_the_last_not_less_than_n_days_before(
    event: date, weeks: int, last: int, days: set[int]
) -> None:
    ctx = context("us-nc", days)
    d = timed(
        ctx, Timing(type="weekly_before", weeks=weeks, last_min_days=last), event, prints=True
    )
    assert len(d.issues) == weeks and (event - d.issues[-1]).days >= last
    assert d.earliest is None


@pytest.mark.parametrize("state", STATES)
@given(event=DAYS, n=st.integers(min_value=1, max_value=20))
@settings(max_examples=40, deadline=None)
def test_at_least_n_business_days_before(state: str, event: date, n: int) -> None:
    ctx = CONTEXTS[state]
    act, counted_event = ctx.counts(Timing(type="at_least_before", days=n))
    d = timed(ctx, Timing(type="at_least_before", days=n, calendar_days=False), event)

    def open_days(day: date) -> int:
        span = range(0 if act else 1, (event - day).days + (1 if counted_event else 0))
        return sum(ctx.calendar.is_open(day + timedelta(days=i)) for i in span)

    assert open_days(d.latest) >= n  # complies
    assert open_days(d.latest + timedelta(days=1)) < n  # the next day would not
