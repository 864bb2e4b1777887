"""Dates and times as a notice writes them: found, parsed, and placed in the text.

A linter must read any notice, ours or one a lawyer wrote, so this recognizes the common ways
of writing a day ("Tuesday, March 16, 2027", "Tues., Mar. 16, 2027", "the 16th day of March,
2027", "sixteenth day of March, two thousand twenty-seven", "3/16/2027", "03/16/27",
"2027-03-16") and a time of day ("7:00 p.m.", "7pm", "19:00", "seven o'clock in the evening",
"12:00 noon", "1900 hours"), and what a scanner makes of them ("7 :00 p. m.", "MAY3, 2022").
Each mention keeps its offsets and the weekday *as written*, so a notice whose
date is right but whose weekday is wrong is caught (`DateMention.weekday_ok`).

Conventions:

* An impossible date (February 30, June 31, February 29 of a common year) is not a mention:
  `DateMention.day` is a real `date`, so there is nothing to report it as.
* A date written without a year ("March 16") takes `default_year`; without one it is skipped.
* A two-digit year ("03/16/27") is put in the century that brings it nearest `default_year`;
  without one, 00-69 are 2000-2069 and 70-99 are 1970-1999.
* Slashed numbers are read month first (US usage): "3/4/2027" is March 4.
* Numbers that merely look like dates are left alone: parcel ids ("107-4-12"), statute sections
  ("§ 45-24-53"), ZIP+4 codes, phone numbers, ratios ("1:200"), "Section 7.00". So a time needs
  a meridiem, "o'clock", or a two-digit 24-hour clock ("19:00"); a bare "7:00" is not read.

Not read (known gaps): the second day of a range ("March 16 and 17, 2027" gives March 16 of
`default_year` only), day-first figures ("16/03/2027"), the year 2000 or 2100 in words, "March
16, '27", the shared meridiem of a time range ("6:00 to 8:00 p.m." gives 8:00 p.m. only),
"seven-thirty", "half past seven", and seconds ("19:00:00"). A four-digit number after a day
is taken for its year ("March 16, 2000 Main Street").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import date, time
from itertools import takewhile
from typing import Protocol, TypeVar

_MONTH_NAMES = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_WEEKDAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")

_MONTHS: dict[str, int] = {name.lower(): n for n, name in enumerate(_MONTH_NAMES, start=1)} | {
    "jan": 1,
    "feb": 2,
    "mar": 3,
    "apr": 4,
    "jun": 6,
    "jul": 7,
    "aug": 8,
    "sep": 9,
    "sept": 9,
    "oct": 10,
    "nov": 11,
    "dec": 12,
}
_WEEKDAYS: dict[str, int] = {name.lower(): n for n, name in enumerate(_WEEKDAY_NAMES)} | {
    "mon": 0,
    "tue": 1,
    "tues": 1,
    "wed": 2,
    "weds": 2,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "fri": 4,
    "sat": 5,
    "sun": 6,
}
# Spanish, as a Spanish notice writes a day: "jueves, 18 de marzo de 2027" (accents optional,
# as a scanner or a keyboard may drop them).
_SPANISH_MONTHS: dict[str, int] = {
    m: n
    for n, m in enumerate(
        [
            "enero",
            "febrero",
            "marzo",
            "abril",
            "mayo",
            "junio",
            "julio",
            "agosto",
            "septiembre",
            "octubre",
            "noviembre",
            "diciembre",
        ],
        start=1,
    )
} | {"setiembre": 9}
_WEEKDAYS |= {
    "lunes": 0,
    "martes": 1,
    "miércoles": 2,
    "miercoles": 2,
    "jueves": 3,
    "viernes": 4,
    "sábado": 5,
    "sabado": 5,
    "domingo": 6,
}
# "the sun", "they sat", "wed": these abbreviations are English words, so they count as a
# weekday only when a dot marks them ("Sat. March 20"), or a comma follows one capitalized
# ("Sat, March 20"; not "the sun, March 3").
_WORDLIKE_WEEKDAYS = ("mon", "wed", "sat", "sun")
# Lowercase "may 16" / "mar 16" is far likelier a verb and a count than a date, unless a year
# follows ("may 16, 2027").
_WORDLIKE_MONTHS = ("may", "mar")

_UNITS = ("one", "two", "three", "four", "five", "six", "seven", "eight", "nine")
_TEENS = (
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
)
_TENS = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
_UNIT_ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
)
_TEEN_ORDINALS = (
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
)
_CARDINALS: dict[str, int] = (
    {w: n for n, w in enumerate(_UNITS, start=1)}
    | {w: n for n, w in enumerate(_TEENS, start=10)}
    | {w: 10 * n for n, w in enumerate(_TENS, start=2)}
)
_ORDINALS: dict[str, int] = (
    {w: n for n, w in enumerate(_UNIT_ORDINALS, start=1)}
    | {w: n for n, w in enumerate(_TEEN_ORDINALS, start=10)}
    | {"twentieth": 20, "thirtieth": 30}
)


def _alternation(words: Iterable[str]) -> str:
    """Longest first, so "September" wins over "Sep" and "Tuesday" over "Tue"."""
    return "|".join(re.escape(w) for w in sorted(set(words), key=len, reverse=True))


def _starts_with(*words: Iterable[str]) -> str:
    """A lookahead for the first letters of `words`.

    Put first in a pattern, it lets the regex engine skip to the letters a match can begin
    with instead of trying the whole pattern at every position: it halves the time of a scan.
    """
    initials = sorted({w[0].lower() for group in words for w in group})
    return "(?=[" + "".join(re.escape(c) for c in initials) + "])"


_DIGIT_FIRST = r"(?=\d)"  # the same for patterns that begin with a figure

# Word numbers may be written "twenty-seven", "twenty seven" or with a typographic hyphen.
_JOIN = r"[\s\-\u2010\u2011]?"
_TENS_WORD = _alternation(_TENS)
_CARDINAL_WORDS = (
    rf"(?:(?:{_TENS_WORD})(?:{_JOIN}(?:{_alternation(_UNITS)}))?"
    rf"|{_alternation(_TEENS)}|{_alternation(_UNITS)})(?!\w)"
)
_ORDINAL_WORDS = (
    rf"(?:(?:twenty|thirty){_JOIN}(?:{_alternation(_UNIT_ORDINALS)})"
    rf"|{_alternation(['twentieth', 'thirtieth', *_TEEN_ORDINALS, *_UNIT_ORDINALS])})(?!\w)"
)

_MONTH = rf"(?P<month>{_alternation(_MONTHS)})\.?(?!\w)"
_WEEKDAY_WORD = (
    rf"(?:{_alternation(w for w in _WEEKDAYS if w not in _WORDLIKE_WEEKDAYS)}"
    rf"|(?:{_alternation(_WORDLIKE_WEEKDAYS)})(?=\.)"
    rf"|(?-i:{_alternation(w.capitalize() for w in _WORDLIKE_WEEKDAYS)}"
    rf"|{_alternation(w.upper() for w in _WORDLIKE_WEEKDAYS)})(?=,))"
)
# "16", "16th", "16 th" (a scanner's space), "2d" (the old legal style), or "sixteenth".
_DAY = rf"(?P<day>\d{{1,2}}(?:[ ]?(?:st|nd|rd|th)|d)?(?!\w)|{_ORDINAL_WORDS})"
_YEAR_DIGITS = r"(?:19|20|21)\d\d(?!\d)"
_YEAR_WORDS = (
    rf"two\s+thousand\s+(?:and\s+)?{_CARDINAL_WORDS}"
    rf"|nineteen\s+(?:hundred\s+(?:and\s+)?)?{_CARDINAL_WORDS}"
)
_YEAR = (
    r"(?:,\s*|\s+)(?:(?:in\s+)?the\s+year\s+(?:of\s+(?:our\s+lord\s+)?)?|a\.\s?d\.\s*)?"
    rf"(?P<year>{_YEAR_DIGITS}|{_YEAR_WORDS})"
)
_FLAGS = re.IGNORECASE | re.VERBOSE

# "March 16, 2027", "Mar. 16th 2027", "March the 16th", "March sixteenth, 2027".
_MONTH_FIRST = re.compile(
    rf"{_starts_with(_MONTHS)} (?<!\w) {_MONTH} \s+ (?:the\s+)? {_DAY} (?:{_YEAR})?", _FLAGS
)
# "MAY3, 2022": a scanner's lost space between month and day; taken only with a year after it.
_GLUED = re.compile(
    rf"{_starts_with(_MONTHS)} (?<!\w) (?P<month>{_alternation(_MONTHS)}) (?=\d)"
    rf" (?P<day>\d{{1,2}}(?:st|nd|rd|th)?) (?!\d) {_YEAR}",
    _FLAGS,
)
# "16 March 2027", "the 16th day of March, 2027", "sixteenth of March", "the 2d day of May".
_DAY_FIRST = re.compile(
    rf"{_starts_with(['the', *'0123456789'], _ORDINALS, _TENS)}"
    rf" (?<![\w.:/\-]) (?:(?P<the>the)\s+)? {_DAY} (?P<of>\s+day\s+of|\s+of)? \s+ {_MONTH} (?:{_YEAR})?",
    _FLAGS,
)
# "18 de marzo de 2027", "1.º de abril del 2027", "18 de marzo": the Spanish order, day first.
_SPANISH = re.compile(
    rf"{_DIGIT_FIRST} (?<![\w.:/\-]) (?P<day>\d{{1,2}})(?:\.?º|\.?°|ro)? \s+ de \s+"
    rf" (?P<month>{_alternation(_SPANISH_MONTHS)}) (?!\w)"
    rf" (?:\s+ (?:de|del) \s+ (?P<year>{_YEAR_DIGITS}))?",
    _FLAGS,
)
# Numeric dates must not sit inside a longer run of numbers (parcel ids, statutes, phones).
_NUMERIC_BEFORE = _DIGIT_FIRST + r"(?<![\w/.\-])"
_NUMERIC_AFTER = r"(?![\w/\-]|[.:]\d)"
# "3/16/2027", "03/16/27": US order, month first.
_SLASHED = re.compile(
    rf"{_NUMERIC_BEFORE} (?P<month>\d{{1,2}}) / (?P<day>\d{{1,2}}) / (?P<year>\d{{4}}|\d\d) {_NUMERIC_AFTER}",
    _FLAGS,
)
# "3-16-2027": only with a four-digit year, since "107-4-12" and "45-24-53" are not dates.
_HYPHENATED = re.compile(
    rf"{_NUMERIC_BEFORE} (?P<month>\d{{1,2}}) - (?P<day>\d{{1,2}}) - (?P<year>{_YEAR_DIGITS}) {_NUMERIC_AFTER}",
    _FLAGS,
)
# "2027-03-16" (ISO 8601), strictly two-digit month and day.
_ISO = re.compile(
    rf"{_NUMERIC_BEFORE} (?P<year>{_YEAR_DIGITS}) - (?P<month>\d\d) - (?P<day>\d\d) {_NUMERIC_AFTER}",
    _FLAGS,
)
# A weekday just before a date: "Tuesday, ", "Tues., ", "Tuesday the ". Searched backwards from
# the date's start, so `\Z` is that start.
_WEEKDAY_BEFORE = re.compile(
    rf"(?<!\w) (?P<weekday>{_WEEKDAY_WORD}) (?:\.,?\s*|,\s*|\s+) (?:the\s+)? \Z", _FLAGS
)
_WEEKDAY_BEFORE_REACH = 24  # "Wednesday., the " is 16 letters; whitespace may pad it
# A weekday in parentheses just after: "March 16, 2027 (Tuesday)".
_WEEKDAY_AFTER = re.compile(rf"\s* \( \s* (?P<weekday>{_WEEKDAY_WORD}) \.? \s* \)", _FLAGS)

# "p.m.", "P.M", "pm", "p. m.", "noon", "in the evening", "at night". A dot after an undotted
# "pm" ends the sentence, so it is not part of the time.
_MERIDIEM = r"""(?P<meridiem>
      [ap]\.\s?m(?:\.|(?!\w))
    | [ap]m(?!\w)
    | noon(?!\w) | midnight(?!\w)
    | in\s+the\s+(?:morning|forenoon|afternoon|evening)(?!\w)
    | de\s+la\s+(?:mañana|manana|tarde|noche)(?!\w) | del\s+mediod[ií]a(?!\w)
    | at\s+night(?!\w)
)"""
_OCLOCK = r"(?P<oclock>\s*o['\u2019]?\s?clock(?!\w))"
# Not after a word, colon, dot, slash, hyphen or dollar sign: "Section 7.00", "$7.00", "1:200".
_TIME_BEFORE = _DIGIT_FIRST + r"(?<![\w:./\-$])"
# "7:00 p.m.", "19:00", "7.00 pm", "7:00 o'clock p.m.", "12:00 noon".
_CLOCK = re.compile(
    rf"{_TIME_BEFORE} (?P<hour>\d{{1,2}}) (?P<sep>[:.]|\s?:\s?) (?P<minute>[0-5]\d) (?![\d:]|\.\d)"
    rf" {_OCLOCK}? (?:\s*{_MERIDIEM})?",
    _FLAGS,
)
# "7 p.m.", "7pm", "7 o'clock", "12 noon", "6 in the evening".
_HOUR = re.compile(
    rf"{_TIME_BEFORE} (?P<hour>\d{{1,2}}) (?!\d) {_OCLOCK}? (?:\s*{_MERIDIEM})?", _FLAGS
)
# "seven o'clock in the evening", "seven p.m.".
_HOUR_WORDS = (*_UNITS, "ten", "eleven", "twelve")
_HOUR_WORD = re.compile(
    rf"{_starts_with(_HOUR_WORDS)} (?<!\w) (?P<hour>{_alternation(_HOUR_WORDS)}) (?!\w)"
    rf" {_OCLOCK}? (?:\s*{_MERIDIEM})?",
    _FLAGS,
)
# "1900 hours", "0730 hrs": the military clock.
_HOURS = re.compile(
    rf"{_TIME_BEFORE} (?P<hour>[01]\d|2[0-3]) (?P<minute>[0-5]\d) \s* (?P<hours>hours|hrs\.?) (?!\w)",
    _FLAGS,
)
_NOON_OR_MIDNIGHT = re.compile(
    rf"{_starts_with(['noon', 'midnight'])} (?<![\w\-]) (?P<meridiem>noon|midnight) (?!\w)", _FLAGS
)

# How each meridiem moves the hour written, keyed by its letters without dots or spaces.
_MERIDIEM_KINDS = {
    "am": "am",
    "pm": "pm",
    "inthemorning": "am",
    "intheforenoon": "am",
    "intheafternoon": "pm",
    "intheevening": "pm",
    "atnight": "night",
    "noon": "noon",
    "midnight": "midnight",
    # Spanish: "10:00 de la mañana", "6:00 de la tarde", "12:00 del mediodía".
    "delamañana": "am",
    "delamanana": "am",
    "delatarde": "pm",
    "delanoche": "night",
    "delmediodía": "noon",
    "delmediodia": "noon",
}


@dataclass(frozen=True)
class DateMention:
    """A date written in a text, with the weekday written beside it, if any."""

    day: date
    weekday: int | None  # 0 = Monday, as written, whether or not it is right
    weekday_text: str | None
    start: int
    end: int
    text: str
    year_written: bool

    @property
    def weekday_ok(self) -> bool:
        """No weekday written, or the one written is the date's."""
        return self.weekday is None or self.weekday == self.day.weekday()


@dataclass(frozen=True)
class TimeMention:
    """A time of day written in a text."""

    at: time
    start: int
    end: int
    text: str


class _Spanned(Protocol):
    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


def find_dates(text: str, *, default_year: int | None = None) -> list[DateMention]:
    """Every date written in `text`, in order; `default_year` completes dates without a year."""
    found: list[DateMention] = []
    for pattern, read in _DATE_FORMS:
        for match in pattern.finditer(text):
            parts = read(match, default_year)
            if parts is not None:
                found.append(_mention(text, match, *parts))
    return _leftmost_longest(found)


def find_times(text: str) -> list[TimeMention]:
    """Every time of day written in `text`, in order."""
    found: list[TimeMention] = []
    for pattern in (_CLOCK, _HOURS, _HOUR, _HOUR_WORD, _NOON_OR_MIDNIGHT):
        for match in pattern.finditer(text):
            at = _read_time(match)
            if at is not None:
                found.append(TimeMention(at, match.start(), match.end(), match.group()))
    return _leftmost_longest(found)


def same_time(a: time, b: time) -> bool:
    """The same time of day to the minute, as notices state it (seconds and zones ignored)."""
    return (a.hour, a.minute) == (b.hour, b.minute)


def describe(d: date) -> str:
    """`Tuesday, March 16, 2027`, for messages (locale-independent)."""
    return f"{_WEEKDAY_NAMES[d.weekday()]}, {_MONTH_NAMES[d.month - 1]} {d.day}, {d.year}"


# --- dates -------------------------------------------------------------------------------

# What a date form reads from its match: the day, and whether the year was written.
_Read = tuple[date, bool]


def _read_month_first(match: re.Match[str], default_year: int | None) -> _Read | None:
    """`March 16, 2027`, `Mar. 16th`, `March sixteenth, 2027`."""
    if match.group("year") is None:
        if match.group("month") in _WORDLIKE_MONTHS:
            return None  # lowercase "may 16": a verb and a count
        if match.group("day")[0].isalpha():
            return None  # "the March second reading": a month and an ordinal word need a year
    return _read_worded(match, default_year)


def _read_day_first(match: re.Match[str], default_year: int | None) -> _Read | None:
    """`16 March 2027`, `the 16th day of March, 2027`, `sixteenth of March`."""
    if match.group("year") is None and match.group("of") is None:
        return None  # "16 March", "the first May meeting": a count or lot number as often
    return _read_worded(match, default_year)


def _read_worded(match: re.Match[str], default_year: int | None) -> _Read | None:
    """A date with its month in letters."""
    year_text = match.group("year")
    year = _year_number(year_text) if year_text else default_year
    month = _MONTHS[match.group("month").lower()]
    return _checked(year, month, _day_number(match.group("day")), year_written=bool(year_text))


def _read_spanish(match: re.Match[str], default_year: int | None) -> _Read | None:
    """`18 de marzo de 2027`, `18 de marzo` (of `default_year`)."""
    year_text = match.group("year")
    year = int(year_text) if year_text else default_year
    month = _SPANISH_MONTHS[match.group("month").lower()]
    return _checked(year, month, int(match.group("day")), year_written=bool(year_text))


def _read_numeric(match: re.Match[str], default_year: int | None) -> _Read | None:
    """A date written all in figures."""
    year_text = match.group("year")
    year = int(year_text)
    if len(year_text) == 2:
        year = _century(year, default_year)
    return _checked(year, int(match.group("month")), int(match.group("day")), year_written=True)


def _century(two_digits: int, default_year: int | None) -> int:
    """The year ending in `two_digits` nearest `default_year` (or in 1970-2069)."""
    pivot = default_year if default_year is not None else 2019
    year = pivot - pivot % 100 + two_digits
    if year > pivot + 50:
        year -= 100
    elif year <= pivot - 50:
        year += 100
    return year


def _checked(year: int | None, month: int, day: int, *, year_written: bool) -> _Read | None:
    """The date, unless it does not exist (or has no year to be in)."""
    if year is None:
        return None
    try:
        return date(year, month, day), year_written
    except ValueError:  # February 30, month 13: not a date, so not a mention
        return None


def _day_number(text: str) -> int:
    """16 from "16", "16th", "2d" or "sixteenth"."""
    if text[0].isdigit():
        return int("".join(takewhile(str.isdigit, text)))
    words = _words(text)
    if len(words) == 2:  # "twenty-first"
        return _CARDINALS[words[0]] + _ORDINALS[words[1]]
    return _ORDINALS[words[0]]


def _year_number(text: str) -> int:
    """2027 from "2027", "two thousand twenty-seven" or "nineteen ninety-nine"."""
    if text.isdigit():
        return int(text)
    words = [w for w in _words(text) if w not in ("and", "hundred")]
    base = 2000 if words[:2] == ["two", "thousand"] else 1900
    return base + _number_words(words[2:] if base == 2000 else words[1:])


def _number_words(words: list[str]) -> int:
    """27 from ["twenty", "seven"]."""
    return sum(_CARDINALS[w] for w in words)


def _words(text: str) -> list[str]:
    """Lowercase words, hyphens of any kind read as spaces."""
    return text.lower().replace("-", " ").replace("\u2010", " ").replace("\u2011", " ").split()


def _mention(text: str, match: re.Match[str], day: date, year_written: bool) -> DateMention:
    """The mention, widened to a weekday written just before it or in parentheses after."""
    start, end = match.span()
    weekday_text: str | None = None
    before = _WEEKDAY_BEFORE.search(text, max(0, start - _WEEKDAY_BEFORE_REACH), start)
    if before is not None:
        start, weekday_text = before.start(), before.group("weekday")
    else:
        after = _WEEKDAY_AFTER.match(text, end)
        if after is not None:
            end, weekday_text = after.end(), after.group("weekday")
    weekday = _WEEKDAYS[weekday_text.lower()] if weekday_text else None
    return DateMention(day, weekday, weekday_text, start, end, text[start:end], year_written)


_DATE_FORMS: tuple[
    tuple[re.Pattern[str], Callable[[re.Match[str], int | None], _Read | None]], ...
] = (
    (_MONTH_FIRST, _read_month_first),
    (_GLUED, _read_worded),
    (_DAY_FIRST, _read_day_first),
    (_SPANISH, _read_spanish),
    (_SLASHED, _read_numeric),
    (_HYPHENATED, _read_numeric),
    (_ISO, _read_numeric),
)


# --- times -------------------------------------------------------------------------------


def _read_time(match: re.Match[str]) -> time | None:
    """The time a match states, or None if it is only a number (or an impossible time)."""
    groups = match.groupdict()
    meridiem = groups.get("meridiem")
    letters = "".join(meridiem.lower().replace(".", "").split()) if meridiem else None
    kind = _MERIDIEM_KINDS[letters] if letters else None
    if "hour" not in groups:  # "noon" or "midnight" alone
        return time(12) if kind == "noon" else time(0)
    if groups.get("hours"):  # "1900 hours"
        return time(int(groups["hour"]), int(groups["minute"]))
    hour_text = groups["hour"]
    hour = int(hour_text) if hour_text.isdigit() else _CARDINALS[hour_text.lower()]
    minute = int(groups.get("minute") or 0)
    oclock = groups.get("oclock") is not None
    if kind is None:
        # Without a meridiem only "19:00" (a 24-hour clock) or "7 o'clock" state a time;
        # "7:00", "3:15" and "Section 7.00" may be anything.
        twenty_four = groups.get("sep") == ":" and len(hour_text) == 2  # "7 :00" needs p.m.
        return time(hour, minute) if (twenty_four or oclock) and hour <= 23 else None
    if hour_text.isalpha() and not oclock and letters not in ("am", "pm"):
        return None  # "one in the morning" is too often not a time
    if not 1 <= hour <= 12:
        return None  # "19:00 p.m.", "0 a.m."
    if kind == "noon" or kind == "midnight":
        if hour != 12:
            return None  # "7 noon"
        return time(12 if kind == "noon" else 0, minute)
    if kind == "am":
        return time(hour % 12, minute)
    if kind == "night" and hour == 12:
        return time(0, minute)
    return time(hour % 12 + 12, minute)


# --- both --------------------------------------------------------------------------------


_M = TypeVar("_M", bound=_Spanned)


def _leftmost_longest(found: list[_M]) -> list[_M]:
    """Mentions that do not overlap: the earliest wins, and the longest of those starting there."""
    kept: list[_M] = []
    for mention in sorted(found, key=lambda m: (m.start, -m.end)):
        if not kept or mention.start >= kept[-1].end:
            kept.append(mention)
    return kept
