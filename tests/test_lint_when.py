"""The linter's reading of dates and times: every common way of writing them, and nothing else.

The property tests format dates and times here, independently of the module, in each supported
style, and check that reading them back gives the same day or time at the same offsets.
"""

from __future__ import annotations

from datetime import date, time

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.lint.when import (
    DateMention,
    TimeMention,
    describe,
    find_dates,
    find_times,
    same_time,
)
from generator.render.filters import clock, long_date, when

MARCH_16 = date(2027, 3, 16)  # a Tuesday
EP_PARAGRAPH = (
    "The hearing will be held by the East Providence City Council on Tuesday, March 16, 2027, "
    "at 7:00 p.m., in City Council Chambers, East Providence City Hall, 145 Taunton Avenue, "
    "East Providence, RI 02914."
)

MONTHS = [
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
]
MONTHS_DOTTED = [
    "Jan.",
    "Feb.",
    "Mar.",
    "Apr.",
    "May",
    "June",
    "July",
    "Aug.",
    "Sept.",
    "Oct.",
    "Nov.",
    "Dec.",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
WEEKDAYS_DOTTED = ["Mon.", "Tues.", "Wed.", "Thurs.", "Fri.", "Sat.", "Sun."]
WEEKDAYS_SHORT = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
UNITS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
TEENS = [
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
]
TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
ORDINALS = [
    "",
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
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
    "twentieth",
]


def suffix(n: int) -> str:
    if n in (11, 12, 13):
        return "th"
    return {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")


def ordinal_word(n: int) -> str:
    if n <= 20:
        return ORDINALS[n]
    tens, units = divmod(n, 10)
    return f"{TENS[tens]}-{ORDINALS[units]}" if units else TENS[tens][:-1] + "ieth"


def cardinal_word(n: int) -> str:
    if n < 10:
        return UNITS[n]
    if n < 20:
        return TEENS[n - 10]
    tens, units = divmod(n, 10)
    return f"{TENS[tens]}-{UNITS[units]}" if units else TENS[tens]


def year_words(year: int) -> str:
    if year >= 2000:
        return f"two thousand {cardinal_word(year - 2000)}"
    return f"nineteen {cardinal_word(year - 1900)}"


# Each style of writing a date, as a clerk or lawyer would, with the years it can express.
DATE_STYLES = {
    "long": lambda d: f"{WEEKDAYS[d.weekday()]}, {MONTHS[d.month - 1]} {d.day}, {d.year}",
    "dotted": lambda d: (
        f"{WEEKDAYS_DOTTED[d.weekday()]}, {MONTHS_DOTTED[d.month - 1]} {d.day}, {d.year}"
    ),
    "short": lambda d: f"{WEEKDAYS_SHORT[d.weekday()]}, {MONTHS[d.month - 1][:3]} {d.day} {d.year}",
    "upper": lambda d: f"{MONTHS[d.month - 1].upper()} {d.day}, {d.year}",
    "suffixed": lambda d: f"{MONTHS[d.month - 1]} {d.day}{suffix(d.day)}, {d.year}",
    "day first": lambda d: f"{d.day} {MONTHS[d.month - 1]} {d.year}",
    "day of": lambda d: f"the {d.day}{suffix(d.day)} day of {MONTHS[d.month - 1]}, {d.year}",
    "words": lambda d: f"{ordinal_word(d.day)} day of {MONTHS[d.month - 1]}, {d.year}",
    "all words": lambda d: (
        f"{WEEKDAYS[d.weekday()]} the {ordinal_word(d.day)} of {MONTHS[d.month - 1]}, "
        f"{year_words(d.year)}"
    ),
    "weekday after": lambda d: f"{MONTHS[d.month - 1]} {d.day}, {d.year} ({WEEKDAYS[d.weekday()]})",
    "slashed": lambda d: f"{d.month}/{d.day}/{d.year}",
    "slashed short": lambda d: f"{d.month:02d}/{d.day:02d}/{d.year % 100:02d}",
    "hyphenated": lambda d: f"{d.month}-{d.day}-{d.year}",
    "iso": lambda d: d.isoformat(),
    "describe": describe,
    "long_date": long_date,
}
# Two-digit years mean 1970-2069 (no default year); "two thousand" alone and 2100 in words are
# not read (see the known gaps in the module).
STYLE_YEARS = {"slashed short": (1970, 2069), "all words": (1990, 2099)}


# --- dates ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "day", "written"),
    [
        ("Tuesday, March 16, 2027", MARCH_16, "Tuesday, March 16, 2027"),
        ("Tues., Mar. 16, 2027", MARCH_16, "Tues., Mar. 16, 2027"),
        ("Tue Mar 16 2027", MARCH_16, "Tue Mar 16 2027"),
        ("March 16th, 2027", MARCH_16, "March 16th, 2027"),
        ("MARCH 16, 2027", MARCH_16, "MARCH 16, 2027"),
        ("march 16 2027", MARCH_16, "march 16 2027"),
        ("16 March 2027", MARCH_16, "16 March 2027"),
        ("the 16th day of March, 2027", MARCH_16, "the 16th day of March, 2027"),
        ("this 16th day of March, A.D. 2027", MARCH_16, "16th day of March, A.D. 2027"),
        ("sixteenth day of March, 2027", MARCH_16, "sixteenth day of March, 2027"),
        ("March sixteenth, 2027", MARCH_16, "March sixteenth, 2027"),
        ("March the 16th, 2027", MARCH_16, "March the 16th, 2027"),
        (
            "Tuesday the sixteenth of March, two thousand twenty-seven",
            MARCH_16,
            "Tuesday the sixteenth of March, two thousand twenty-seven",
        ),
        (
            "the sixteenth day of March in the year two thousand and twenty-seven",
            MARCH_16,
            "the sixteenth day of March in the year two thousand and twenty-seven",
        ),
        (
            "the thirty-first day of May, 2027",
            date(2027, 5, 31),
            "the thirty-first day of May, 2027",
        ),
        ("the 2d day of May, 2027", date(2027, 5, 2), "the 2d day of May, 2027"),
        ("March 16, 2027 (Tuesday)", MARCH_16, "March 16, 2027 (Tuesday)"),
        ("Sept. 7, 2027", date(2027, 9, 7), "Sept. 7, 2027"),
        ("Sep 7, 2027", date(2027, 9, 7), "Sep 7, 2027"),
        ("3/16/2027", MARCH_16, "3/16/2027"),
        ("03/16/27", MARCH_16, "03/16/27"),
        ("3-16-2027", MARCH_16, "3-16-2027"),
        ("2027-03-16", MARCH_16, "2027-03-16"),
        ("January 1, 1999", date(1999, 1, 1), "January 1, 1999"),
        ("February 29, 2028", date(2028, 2, 29), "February 29, 2028"),
    ],
)
def test_each_format(text: str, day: date, written: str) -> None:
    sentence = f"Notice is given that on {text}, the Council meets."
    [mention] = find_dates(sentence)
    assert mention.day == day
    assert mention.text == written
    assert sentence[mention.start : mention.end] == written
    assert mention.year_written
    assert mention.weekday_ok


@pytest.mark.parametrize(
    ("text", "weekday", "weekday_text", "ok"),
    [
        ("Tuesday, March 16, 2027", 1, "Tuesday", True),
        ("Monday, March 16, 2027", 0, "Monday", False),
        ("Tues., Mar. 16, 2027", 1, "Tues", True),
        ("Wed., March 16, 2027", 2, "Wed", False),
        ("Sat, March 20, 2027", 5, "Sat", True),
        ("THURSDAY, MARCH 16, 2027", 3, "THURSDAY", False),
        ("Tuesday, 16 March 2027", 1, "Tuesday", True),
        ("Tuesday, 3/16/2027", 1, "Tuesday", True),
        ("Tuesday the 16th day of March, 2027", 1, "Tuesday", True),
        ("March 16, 2027 (Wednesday)", 2, "Wednesday", False),
        ("March 16, 2027", None, None, True),
    ],
)
def test_weekday_as_written(text: str, weekday: int | None, weekday_text: str, ok: bool) -> None:
    [mention] = find_dates(f"({text})" if weekday is None else text)
    assert mention.day.month in (3,)
    assert mention.weekday == weekday
    assert mention.weekday_text == weekday_text
    assert mention.weekday_ok is ok


def test_the_wrong_weekday_of_a_right_date_is_caught() -> None:
    [wrong] = find_dates("The hearing is Monday, March 16, 2027, at 7:00 p.m.")
    assert wrong.day == MARCH_16
    assert wrong.text == "Monday, March 16, 2027"
    assert not wrong.weekday_ok


@pytest.mark.parametrize(
    "text",
    [
        "the sun, March 16, 2027",  # "sun" is not Sunday
        "they sat March 16, 2027",
        "at the meeting of March 16, 2027",
    ],
)
def test_words_that_look_like_weekdays_are_not_weekdays(text: str) -> None:
    [mention] = find_dates(text)
    assert mention.weekday is None
    assert mention.text == "March 16, 2027"


@pytest.mark.parametrize(
    ("text", "default_year", "day", "year_written"),
    [
        ("on March 16 at 7 p.m.", 2027, MARCH_16, False),
        ("Tuesday, March 16", 2027, MARCH_16, False),
        ("the 16th day of March", 2027, MARCH_16, False),
        ("the sixteenth of March", 2027, MARCH_16, False),
        ("February 29", 2028, date(2028, 2, 29), False),
        ("03/16/27", 2027, MARCH_16, True),
        ("03/16/97", 2027, date(1997, 3, 16), True),
        ("03/16/77", 2027, date(2077, 3, 16), True),
        ("03/16/78", 2027, date(1978, 3, 16), True),
        ("03/16/27", 2080, date(2127, 3, 16), True),
        ("03/16/69", None, date(2069, 3, 16), True),
        ("03/16/70", None, date(1970, 3, 16), True),
    ],
)
def test_default_year(text: str, default_year: int | None, day: date, year_written: bool) -> None:
    [mention] = find_dates(text, default_year=default_year)
    assert mention.day == day
    assert mention.year_written is year_written


def test_february_29_without_a_year_is_read_only_in_a_leap_year() -> None:
    assert find_dates("February 29", default_year=2027) == []


def test_without_a_default_year_a_yearless_date_is_not_read() -> None:
    assert find_dates("on March 16 at 7 p.m.") == []


def test_a_written_year_beats_the_default() -> None:
    [mention] = find_dates("March 16, 2028", default_year=2027)
    assert mention.day == date(2028, 3, 16)
    assert mention.year_written


@pytest.mark.parametrize(
    "text",
    [
        "February 30, 2027",
        "February 29, 2027",  # not a leap year
        "June 31, 2027",
        "the 32nd day of March, 2027",
        "13/16/2027",
        "2/30/2027",
        "2027-13-01",
        "2027-02-30",
    ],
)
def test_impossible_dates_are_not_mentions(text: str) -> None:
    assert find_dates(text, default_year=2027) == []


@pytest.mark.parametrize(
    "text",
    [
        "Plat 107-4-12",
        "Map 107, Block 4, Parcel 12",
        "Map 107, Block 4, Lot 12",
        "R.I. Gen. Laws § 45-24-53",
        "§ 45-24-53.1 and § 45-23-2",
        "East Providence, RI 02914-1234",
        "RI 02914",
        "(401) 555-0147",
        "401-555-0147",
        "1-401-555-0147",
        "zone R1-6 to C-2",
        "Ord. 990 § 1, 2003",
        "Ord. No. 2003-12",
        "Section 7.00",
        "at 7:00",
        "a 3:1 slope",
        "scale 1:200",
        "1/2 acre",
        "the applicant may 16 times",  # lowercase "may" with no year
        "16 March",  # a count and a month, no year
        "the first May meeting",
        "the March second reading",
        "March 2027",  # a month, not a day
        "$1,500.00",
        "12.5.2027",
    ],
)
def test_numbers_that_are_not_dates(text: str) -> None:
    assert find_dates(text, default_year=2027) == []


def test_ordinance_citation_does_not_yield_a_date_of_2003() -> None:
    text = "as amended by Ord. 990 § 1, 2003, and Ord. 1021 § 4, 2011, on March 16, 2027"
    assert [m.day for m in find_dates(text, default_year=2027)] == [MARCH_16]


def test_several_dates_in_order() -> None:
    text = (
        "Published in The Providence Journal on Tuesday, February 23, 2027 and Tuesday, "
        "March 2, 2027; mailed 02/24/2027; posted the 1st day of March, 2027; hearing on "
        "2027-03-16."
    )
    mentions = find_dates(text)
    assert [m.day for m in mentions] == [
        date(2027, 2, 23),
        date(2027, 3, 2),
        date(2027, 2, 24),
        date(2027, 3, 1),
        MARCH_16,
    ]
    assert all(text[m.start : m.end] == m.text for m in mentions)
    assert [m.weekday_text for m in mentions] == ["Tuesday", "Tuesday", None, None, None]


def test_a_paragraph_of_a_real_notice() -> None:
    [day] = find_dates(EP_PARAGRAPH)
    [moment] = find_times(EP_PARAGRAPH)
    assert day == DateMention(
        MARCH_16,
        1,
        "Tuesday",
        EP_PARAGRAPH.index("Tuesday"),
        EP_PARAGRAPH.index(", at"),
        "Tuesday, March 16, 2027",
        True,
    )
    assert moment == TimeMention(
        time(19), EP_PARAGRAPH.index("7:00"), EP_PARAGRAPH.index(", in City"), "7:00 p.m."
    )


@given(
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31)),
    style=st.sampled_from(sorted(DATE_STYLES)),
    before=st.sampled_from(["", "on ", "Hearing: ", "(", "held "]),
    after=st.sampled_from(["", ".", ", at 7:00 p.m.", ") ", "; and"]),
)
def test_any_date_in_any_style_reads_back(day: date, style: str, before: str, after: str) -> None:
    low, high = STYLE_YEARS.get(style, (1990, 2100))
    if not low <= day.year <= high or (style == "all words" and day.year == 2000):
        return
    written = DATE_STYLES[style](day)
    text = before + written + after
    [mention] = find_dates(text)
    assert mention.day == day
    assert mention.text == written
    assert (mention.start, mention.end) == (len(before), len(before) + len(written))
    assert mention.weekday_ok
    assert mention.year_written


@given(
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31)),
    style=st.sampled_from(["long", "dotted", "day of", "words"]),
)
def test_any_date_without_its_year_takes_the_default(day: date, style: str) -> None:
    written = DATE_STYLES[style](day).rsplit(",", 1)[0]  # "Tuesday, March 16"
    [mention] = find_dates(f"on {written} at noon", default_year=day.year)
    assert mention.day == day
    assert mention.text == written
    assert not mention.year_written


@given(
    day=st.dates(min_value=date(1990, 1, 1), max_value=date(2100, 12, 31)),
    shift=st.integers(min_value=1, max_value=6),
)
def test_any_wrong_weekday_is_caught(day: date, shift: int) -> None:
    wrong = WEEKDAYS[(day.weekday() + shift) % 7]
    [mention] = find_dates(f"{wrong}, {MONTHS[day.month - 1]} {day.day}, {day.year}")
    assert mention.day == day
    assert not mention.weekday_ok


def test_describe() -> None:
    assert describe(MARCH_16) == "Tuesday, March 16, 2027"
    assert describe(date(2000, 1, 1)) == "Saturday, January 1, 2000"


def test_a_megabyte_of_notices_reads_every_date_once() -> None:
    # How fast is bench/lint.py's business (it reads a 20,000-page packet); here, what is found.
    text = (EP_PARAGRAPH + " Parcel 107-4-12, § 45-24-53, (401) 555-0147, mailed 02/24/2027.\n") * (
        1_000_000 // (len(EP_PARAGRAPH) + 66)
    )
    dates = find_dates(text)
    assert len(dates) == 2 * text.count("Tuesday")


# --- times ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "at", "written"),
    [
        ("7:00 p.m.", time(19), "7:00 p.m."),
        ("7 p.m.", time(19), "7 p.m."),
        ("7:00 PM", time(19), "7:00 PM"),
        ("7pm", time(19), "7pm"),
        ("7:00 P.M.", time(19), "7:00 P.M."),
        ("7:00 p. m.", time(19), "7:00 p. m."),
        ("7.00 pm", time(19), "7.00 pm"),
        ("7:30 a.m.", time(7, 30), "7:30 a.m."),
        ("12:30 a.m.", time(0, 30), "12:30 a.m."),
        ("12:30 p.m.", time(12, 30), "12:30 p.m."),
        ("19:00", time(19), "19:00"),
        ("07:30", time(7, 30), "07:30"),
        ("00:00", time(0), "00:00"),
        ("7:00 o'clock p.m.", time(19), "7:00 o'clock p.m."),
        ("7 o\u2019clock P.M.", time(19), "7 o\u2019clock P.M."),
        ("seven o'clock in the evening", time(19), "seven o'clock in the evening"),
        ("Seven P.M.", time(19), "Seven P.M."),
        ("ten o'clock in the forenoon", time(10), "ten o'clock in the forenoon"),
        ("12:00 noon", time(12), "12:00 noon"),
        ("12 noon", time(12), "12 noon"),
        ("noon", time(12), "noon"),
        ("Noon", time(12), "Noon"),
        ("midnight", time(0), "midnight"),
        ("12:00 midnight", time(0), "12:00 midnight"),
        ("6:30 in the evening", time(18, 30), "6:30 in the evening"),
        ("6:30 in the morning", time(6, 30), "6:30 in the morning"),
        ("2 in the afternoon", time(14), "2 in the afternoon"),
        ("9 at night", time(21), "9 at night"),
        ("12 at night", time(0), "12 at night"),
    ],
)
def test_each_time_format(text: str, at: time, written: str) -> None:
    sentence = f"The meeting starts at {text}, in Council Chambers."
    [mention] = find_times(sentence)
    assert mention.at == at
    assert mention.text == written
    assert sentence[mention.start : mention.end] == written


def test_a_sentence_ends_after_an_undotted_meridiem() -> None:
    [mention] = find_times("The meeting starts at 7pm. Bring a copy.")
    assert mention.text == "7pm"
    assert mention.at == time(19)


def test_several_times_in_order() -> None:
    text = "Open 8:30 a.m. to 4:30 p.m.; the hearing is at 7:00 p.m.–9:00 p.m. or until noon."
    mentions = find_times(text)
    assert [m.at for m in mentions] == [time(8, 30), time(16, 30), time(19), time(21), time(12)]
    assert all(text[m.start : m.end] == m.text for m in mentions)


@pytest.mark.parametrize(
    "text",
    [
        "RI 02914",
        "RI 02914-1234",
        "Section 7.00",
        "§ 7.00 of the ordinance",
        "$7.00",
        "a 3:1 slope",
        "a 2:1 ratio",
        "scale 1:200",
        "at 7:00",  # no meridiem, and not a 24-hour clock: ambiguous
        "3:15",
        "(401) 555-0147",
        "Map 107, Block 4, Parcel 12",
        "3/16/2027",
        "7 amendments",
        "one in the morning",  # too often not a time
        "in the afternoon",
        "19:00 p.m.",
        "25:00",
        "12.5.2027",
    ],
)
def test_numbers_that_are_not_times(text: str) -> None:
    assert find_times(text) == []


@given(moment=st.times().map(lambda t: t.replace(second=0, microsecond=0)))
def test_our_own_clock_reads_back(moment: time) -> None:
    written = clock(moment)
    [mention] = find_times(f"at {written}, in Chambers")
    assert mention.at == moment
    assert mention.text == written


@given(
    moment=st.times().map(lambda t: t.replace(second=0, microsecond=0)),
    style=st.sampled_from(["am/pm", "AM/PM", "24h", "o'clock", "words"]),
)
def test_any_time_in_any_style_reads_back(moment: time, style: str) -> None:
    hour12 = moment.hour % 12 or 12
    meridiem = "a.m." if moment.hour < 12 else "p.m."
    part = "in the morning" if moment.hour < 12 else "in the evening"
    written = {
        "am/pm": f"{hour12}:{moment.minute:02d} {meridiem}",
        "AM/PM": f"{hour12}:{moment.minute:02d}{meridiem.replace('.', '').upper()}",
        "24h": f"{moment:%H:%M}",
        "o'clock": f"{hour12}:{moment.minute:02d} o'clock {meridiem}",
        "words": f"{cardinal_word(hour12)} o'clock {part}",
    }[style]
    if style == "words" and (moment.minute or hour12 == 12):
        return  # "twelve o'clock in the evening" is not a way to say noon or midnight
    [mention] = find_times(f"at {written}. Then")
    assert mention.at == moment
    assert mention.text == written


def test_when_of_our_own_notices_reads_back() -> None:
    text = when(MARCH_16, time(19))
    assert [m.day for m in find_dates(text)] == [MARCH_16]
    assert [m.at for m in find_times(text)] == [time(19)]


def test_same_time() -> None:
    assert same_time(time(19), time(19, 0, 30))
    assert not same_time(time(19), time(7))
