"""Dates, times and addresses written the way newspapers and clerks print them."""

from __future__ import annotations

from datetime import date, time


def long_date(day: date) -> str:
    """`Tuesday, March 16, 2027`."""
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def clock(moment: time) -> str:
    """`7:00 p.m.`, `9:30 a.m.`, `12:00 noon`, `12:00 midnight`."""
    if moment.hour == 12 and moment.minute == 0:
        return "12:00 noon"
    if moment.hour == 0 and moment.minute == 0:
        return "12:00 midnight"
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'a.m.' if moment.hour < 12 else 'p.m.'}"


def when(day: date, moment: time) -> str:
    """`Tuesday, March 16, 2027, at 7:00 p.m.`."""
    return f"{long_date(day)}, at {clock(moment)}"


FILTERS = {"long_date": long_date, "clock": clock, "when": when}
