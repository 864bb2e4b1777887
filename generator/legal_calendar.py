"""Legal holidays and office-closure days of a jurisdiction, each with the law behind it.

The `holidays` library gives each state's days; the pack adds the days it leaves out and
removes the ones the state does not keep, citing the law for each. A *legal holiday* and a day
the *office is closed* are different things: Arizona's September 17 and Rhode Island's May 4
are holidays on which offices stay open, and Oklahoma makes every Saturday a holiday.
"""

from __future__ import annotations

import calendar as stdcal
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cached_property

from generator.models.timing import Calendar, HolidayRule

_WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def short(day: date) -> str:
    """`Tue 2027-03-16`: how derivations name a day."""
    return f"{day:%a} {day.isoformat()}"


def rule_date(rule: HolidayRule, year: int) -> date:
    """The date a holiday rule names in `year`: a fixed day, the nth weekday (-1 = last) moved by its `offset_days`, or a day counted from Easter."""
    if rule.easter_offset is not None:
        from dateutil.easter import easter  # only packs with a movable feast need it

        return easter(year) + timedelta(days=rule.easter_offset)
    assert rule.month is not None  # HolidayRule validates: a month with a day or a weekday
    if rule.day is not None:
        return date(year, rule.month, rule.day)
    assert rule.weekday is not None  # HolidayRule validates: a day, or a weekday with nth
    weekday = _WEEKDAYS.index(rule.weekday.value)
    days = [
        d
        for d in stdcal.Calendar().itermonthdates(year, rule.month)
        if d.month == rule.month and d.weekday() == weekday
    ]
    day = days[rule.nth - 1] if rule.nth and rule.nth > 0 else days[-1]
    return day + timedelta(days=rule.offset_days or 0)


@dataclass(frozen=True)
class Day:
    """What the law says of one day."""

    date: date
    holidays: tuple[str, ...] = ()  # "Labor Day (legal holiday, R.I.G.L. § 25-1-1)"
    legal_holiday: bool = False
    office_closed: bool = False
    verify: tuple[str, ...] = ()  # why a closure is not certain (a yearly order picks it)

    def describe(self) -> str:
        """`Mon 2026-09-07, Labor Day (…), offices closed`."""
        text = short(self.date)
        if self.holidays:
            text += ", " + "; ".join(self.holidays)
        if self.office_closed:
            text += ", offices closed"
        elif self.legal_holiday:
            text += ", a legal holiday on which offices are open"
        return text


@dataclass
class LegalCalendar:
    """The days of one jurisdiction, built from its pack's calendar."""

    spec: Calendar | None
    _years: dict[int, dict[date, Day]] = field(default_factory=dict)
    # Uncertain closures (`verify`) a count has treated as closed since `relied` was last reset.
    relied: dict[date, str] = field(default_factory=dict)

    @cached_property
    def source(self) -> str:
        """How derivations name the library's calendar."""
        if not self.spec:
            return "no calendar in the pack"
        return self.spec.name()

    def day(self, d: date) -> Day:
        """What the law says of day `d`."""
        if d.year not in self._years:
            self._years[d.year] = self._build(d.year)
        return self._years[d.year].get(d) or self._weekday(d, ())

    def is_open(self, d: date) -> bool:
        """Whether public offices are open on `d` (an uncertain closure is noted in `relied`)."""
        day = self.day(d)
        if day.office_closed and day.verify:
            self.relied[d] = f"{day.describe()}: {'; '.join(day.verify)}"
        return not day.office_closed

    def is_legal_holiday(self, d: date) -> bool:
        """Whether `d` is a legal holiday (offices open or not)."""
        return self.day(d).legal_holiday

    def previous_open(self, d: date) -> tuple[date, list[Day]]:
        """The last open day on or before `d`, and the closed days passed over."""
        skipped = []
        while not self.is_open(d):
            skipped.append(self.day(d))
            d -= timedelta(days=1)
        return d, skipped

    def next_open(self, d: date) -> tuple[date, list[Day]]:
        """The first open day on or after `d`, and the closed days passed over."""
        skipped = []
        while not self.is_open(d):
            skipped.append(self.day(d))
            d += timedelta(days=1)
        return d, skipped

    def business_days_before(self, d: date, n: int) -> tuple[date, list[Day]]:
        """The nth open day before `d` (not counting `d`), and the closed days passed over."""
        skipped = []
        while n > 0:
            d -= timedelta(days=1)
            if self.is_open(d):
                n -= 1
            else:
                skipped.append(self.day(d))
        return d, skipped

    def _weekday(
        self,
        d: date,
        names: tuple[str, ...],
        *,
        holiday: bool = False,
        closed: bool = False,
        verify: tuple[str, ...] = (),
    ) -> Day:
        name = _WEEKDAYS[d.weekday()]
        spec = self.spec
        weekly_holiday = bool(spec and name in spec.legal_holiday_weekdays)
        weekly_closed = name in (spec.closed_weekdays if spec else ["saturday", "sunday"])
        # A weekday closure is certain: only the holiday's own closure can be in doubt.
        unsure = verify if closed and not weekly_closed else ()
        return Day(d, names, holiday or weekly_holiday, closed or weekly_closed, unsure)

    def _build(self, year: int) -> dict[date, Day]:
        if not self.spec:
            return {}
        import holidays  # imported only when a schedule is computed

        spec = self.spec
        # No categories means none: the library would fall back to `public` for an empty tuple.
        library = (
            holidays.country_holidays(
                spec.country,
                subdiv=spec.subdiv,
                years=year,
                categories=tuple(spec.categories),
                observed=spec.observed == "library",
            )
            if spec.categories
            else {}
        )
        left_out = {x.name for x in spec.library_exclusions}
        named: dict[date, list[tuple[str, bool]]] = {}
        own_move: dict[date, str] = {}  # a pack day's own weekend rule, where it has one
        unsure: dict[date, list[str]] = {}
        for d, names in sorted(library.items()):
            # One date may carry several names ("A; B"); each goes or stays on its own.
            for name in names.split("; "):
                if name.removesuffix(" (observed)") in left_out:
                    continue
                # The library lists the days the statute names; the derivation cites the law.
                named.setdefault(d, []).append((f"{name} (legal holiday, {spec.citation})", True))
        for rule in spec.removals:
            named.pop(rule_date(rule, year), None)
        added: dict[date, list[tuple[str, bool]]] = {}
        for rule in spec.additions:
            entry = (f"{rule.name} ({rule.citation})", not rule.offices_open)
            day = rule_date(rule, year)
            added.setdefault(day, []).append(entry)
            if rule.observed:
                own_move[day] = rule.observed
            if rule.verify:
                unsure.setdefault(day, []).append(rule.verify)
        named.update(added)  # a cited pack entry speaks for its day instead of the library's
        # Where the statute moves a weekend holiday itself (not the library's federal-style rule).
        moves = {"sunday_to_monday": {6: 1}, "weekend_to_monday": {5: 2, 6: 1}}
        for d, entries in list(named.items()):
            how = own_move.get(d, spec.observed or "")
            target = d + timedelta(days=moves.get(how, {}).get(d.weekday(), 0))
            if target != d and target not in named:
                named[target] = [
                    (f"{n.split(' (')[0]}, kept on the Monday after ({spec.citation})", c)
                    for n, c in entries
                ]
                if d in unsure:
                    unsure[target] = unsure[d]
        out = {}
        for d, entries in named.items():
            closes = any(closed for _, closed in entries)
            out[d] = self._weekday(
                d,
                tuple(n for n, _ in entries),
                holiday=True,
                closed=closes,
                verify=tuple(unsure.get(d, ())),
            )
        return out
