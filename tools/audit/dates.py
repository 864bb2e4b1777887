"""Dates written in a document's text, in the forms notices use.

`Tuesday, April 20, 2027`, `April 20, 2027`, `APRIL 20, 2027`, `Apr. 20, 2027`, `20 April 2027`,
`2027-04-20`, `Tue 2027-04-20`, `4/20/2027`; a date without its year only with its weekday
(`Tuesday, April 20`), the year then being the one, near the known years, whose calendar puts
that day on that weekday. Month names must be capitalized (`May` the month, not `may` the verb).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from babel.dates import get_month_names

_MONTHS = {
    name: number
    for number, names in enumerate(
        (
            ("January", "Jan"),
            ("February", "Feb"),
            ("March", "Mar"),
            ("April", "Apr"),
            ("May",),
            ("June", "Jun"),
            ("July", "Jul"),
            ("August", "Aug"),
            ("September", "Sept", "Sep"),
            ("October", "Oct"),
            ("November", "Nov"),
            ("December", "Dec"),
        ),
        start=1,
    )
    for name in names
}
_WEEKDAYS = {
    name: number
    for number, names in enumerate(
        (
            ("Monday", "Mon"),
            ("Tuesday", "Tues", "Tue"),
            ("Wednesday", "Wed"),
            ("Thursday", "Thurs", "Thur", "Thu"),
            ("Friday", "Fri"),
            ("Saturday", "Sat"),
            ("Sunday", "Sun"),
        )
    )
    for name in names
}


def _alternatives(names: dict[str, int]) -> str:
    # Title case or capitals, the longest first so that "Sept" is not read as "Sep" + "t".
    forms = sorted({f for n in names for f in (n, n.upper())}, key=len, reverse=True)
    return "|".join(forms)


_MONTH = rf"(?P<month>{_alternatives(_MONTHS)})\.?"
_WEEKDAY = rf"(?:(?P<weekday>{_alternatives(_WEEKDAYS)})\.?,?\s+)"
_PATTERNS = (
    re.compile(
        rf"\b{_WEEKDAY}?{_MONTH}\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(?P<year>\d{{4}})\b)?"
    ),
    re.compile(rf"\b{_WEEKDAY}?(?P<day>\d{{1,2}})\s+{_MONTH},?\s+(?P<year>\d{{4}})\b"),
    re.compile(rf"\b{_WEEKDAY}?(?P<year>\d{{4}})-(?P<mon>\d{{2}})-(?P<day>\d{{2}})\b"),
    re.compile(rf"\b{_WEEKDAY}?(?P<mon>\d{{1,2}})/(?P<day>\d{{1,2}})/(?P<year>\d{{4}})\b"),
)


# A Spanish notice's dates: "martes, 6 de abril de 2027", "6 DE ABRIL DE 2027" (a sign).
_ES_MONTHS = {m.lower(): n for n, m in get_month_names("wide", locale="es").items()}
_ES = re.compile(
    r"(?:\b(?:lunes|martes|miércoles|jueves|viernes|sábado|domingo),?\s+)?"
    rf"\b(?P<day>\d{{1,2}})\s+de\s+(?P<esmonth>{'|'.join(_ES_MONTHS)})\b(?:\s+de\s+(?P<year>\d{{4}})\b)?",
    re.IGNORECASE,
)
_PATTERNS = (*_PATTERNS, _ES)


@dataclass(frozen=True)
class Mention:
    """A date written in a text, and where."""

    day: date
    start: int
    end: int


def find(text: str, years: tuple[int, ...] = ()) -> list[Mention]:
    """Every date written in `text`, in order; `years` resolve a weekday-and-month-day date."""
    found: dict[int, Mention] = {}
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(s <= m.start() < e.end for s, e in found.items()):
                continue
            day = _day(m, years)
            if day is not None:
                found[m.start()] = Mention(day, m.start(), m.end())
    return [found[k] for k in sorted(found)]


def _day(m: re.Match[str], years: tuple[int, ...]) -> date | None:
    groups = m.groupdict()
    if groups.get("esmonth"):
        month = _ES_MONTHS[groups["esmonth"].lower()]
    else:
        month = _MONTHS[groups["month"].title()] if groups.get("month") else int(groups["mon"])
    weekday = _WEEKDAYS[groups["weekday"].title()] if groups.get("weekday") else None
    day = int(groups["day"])
    if groups.get("year"):
        candidates = [int(groups["year"])]
    elif weekday is not None:
        candidates = sorted({y + d for y in years for d in (-1, 0, 1)})
    else:
        return None  # "May 4" alone could be any year
    for year in candidates:
        try:
            d = date(year, month, day)
        except ValueError:
            continue
        if weekday is None or d.weekday() == weekday:
            return d
    return None


def long_date(d: date) -> str:
    """`Tuesday, April 20, 2027`."""
    return f"{d:%A}, {d:%B} {d.day}, {d.year}"


_MONTH_DAY = re.compile(rf"\b{_MONTH}\s+(?P<day>\d{{1,2}})\b")


def month_days(text: str) -> list[tuple[int, int, int, int]]:
    """Every `Month D` in `text`, year or not, as (month, day, start, end).

    On a sign, `APRIL 20` is the hearing whatever line the year went to.
    """
    english = [
        (_MONTHS[m.group("month").title()], int(m.group("day")), m.start(), m.end())
        for m in _MONTH_DAY.finditer(text)
    ]
    spanish = [
        (_ES_MONTHS[m.group("esmonth").lower()], int(m.group("day")), m.start(), m.end())
        for m in _ES.finditer(text)
    ]
    return sorted(english + spanish, key=lambda x: x[2])
