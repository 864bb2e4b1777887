"""Each time form in the words statutes use, worked by hand on the real North Carolina calendar.

Every timing below is written in the pack syntax (jurisdictions/README.md, "Time rules") and
computed by the engine against the `us-nc` state pack's own calendar (G.S. 103-4: Christmas
Day closes offices, Christmas Eve and the day after Christmas are ordinary days) and counting
(G.S. 160D-601(a): the day of the act is not counted, the hearing day is). The paper is the
Shelby Star of the sample case, which prints on Wednesdays and Saturdays only. 2026-12: Thu 24,
Fri 25 (Christmas), Sat 26; 2027-01: Fri 1 (New Year's Day), Mon 4.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.errors import UserError
from generator.legal_calendar import LegalCalendar
from generator.models.base import validate
from generator.models.case import Case
from generator.models.timing import Timing
from generator.rules.explain import checklist, describe_timing
from generator.rules.loader import load_pack_file, resolve
from generator.schedule import Context, Deadline, time_act, zone_of
from generator.yamlio import load

from .conftest import CASES
from .test_pack_loading import STATE, packs, problems

HEARING = date(2027, 1, 4)  # a Monday


def _case(**newspaper: Any) -> Case:
    doc = load(CASES / "shelby-2027-map-01.yaml")
    doc.data["jurisdiction"] = "us-nc"
    doc.data["newspaper"].update(newspaper)
    return validate(Case, doc)


def _timing(text: str) -> Timing:
    return Timing.model_validate(yaml.safe_load(text))


def _run(text: str, *, prints: bool = False, hearing: date = HEARING, **ctx: Any) -> Deadline:
    pack = resolve("us-nc")
    case = _case(**ctx.pop("newspaper", {}))
    counting = pack.time_counting
    if "week_model" in ctx:
        counting = counting.model_copy(update={"week_model": ctx.pop("week_model")})
    context = Context(case, LegalCalendar(pack.calendar), counting, zone_of(case, pack))
    d = Deadline("t", None, "act", None, None, None, "r", "c", "")
    time_act(context, d, _timing(text), hearing, "hearing", prints=prints)
    return d


def test_weekly_first_not_less_than_14_days_has_a_latest_first_insertion_and_no_earliest() -> None:
    # First by Jan 4 − 14 = Mon Dec 21; the paper's last day before it is Sat Dec 19; the
    # second insertion is the latest in the next calendar week (Sun Dec 20 – Sat Dec 26): Sat 26.
    d = _run("{type: weekly_before, weeks: 2, first_min_days: 14}", prints=True)
    assert (d.earliest, d.latest) == (None, date(2026, 12, 19))
    assert d.issues == [date(2026, 12, 19), date(2026, 12, 26)]
    assert "no earliest date" in d.derivation
    assert d.derivation.endswith("; calendar: US-NC (public), G.S. 103-4; G.S. 103-5")


def test_weekly_successive_weeks_follow_the_packs_week_model() -> None:
    # Weeks of seven days from the first insertion (Sat Dec 19): the second week is Sat Dec 26 –
    # Fri Jan 1, whose last printing day is Wed Dec 30.
    d = _run(
        "{type: weekly_before, weeks: 2, first_min_days: 14}", prints=True, week_model="rolling_7"
    )
    assert d.issues == [date(2026, 12, 19), date(2026, 12, 30)]
    assert "weeks of seven days from the first insertion" in d.derivation


def test_weekly_last_not_less_than_5_days() -> None:
    # Last by Jan 4 − 5 = Wed Dec 30 (a Wednesday-only paper): the series Dec 23, Dec 30; a
    # first insertion on Dec 30 would need a second on Jan 6, after the hearing.
    d = _run(
        "{type: weekly_before, weeks: 2, last_min_days: 5}",
        prints=True,
        newspaper={"publication_days": ["wednesday"]},
    )
    assert d.issues == [date(2026, 12, 23), date(2026, 12, 30)]
    assert (d.earliest, d.latest) == (None, date(2026, 12, 23))


def test_weekly_six_days_between_insertions_and_the_last_5_to_21_days_before() -> None:
    """Va. Code § 15.2-2204(A): two successive weeks, the second 5 to 21 days before, six days
    apart. A Tuesday-and-Saturday paper: last by Wed Dec 30. Sat Dec 26 then Tue Dec 29 are
    successive calendar weeks but three days apart; Tue Dec 22 then Tue Dec 29 are seven."""
    paper = {"publication_days": ["tuesday", "saturday"]}
    close = _run("{type: weekly_before, weeks: 2, last_min_days: 5}", prints=True, newspaper=paper)
    assert close.issues == [date(2026, 12, 26), date(2026, 12, 29)]
    d = _run(
        "{type: weekly_before, weeks: 2, last_min_days: 5, last_max_days: 21, min_days_between: 6}",
        prints=True,
        newspaper=paper,
    )
    assert d.issues == [date(2026, 12, 22), date(2026, 12, 29)]
    assert "at least 6 days between insertions" in d.derivation
    assert "the last insertion not more than 21 days before, from Mon 2026-12-14" in d.derivation


def test_weekly_first_not_more_than_30_days() -> None:
    """53 P.S. § 10107: the first not more than 30 days, the second not less than 7 days before."""
    d = _run("{type: weekly_before, weeks: 2, first_max_days: 30, last_min_days: 7}", prints=True)
    assert d.earliest == date(2026, 12, 5)  # Jan 4 − 30
    assert d.issues and d.issues[0] >= d.earliest and d.issues[-1] <= date(2026, 12, 28)


def test_window_not_less_than_15_nor_more_than_30_days() -> None:
    # Jan 4 − 15 = Sun Dec 20, closed: back to Fri Dec 18; Jan 4 − 30 = Sat Dec 5: on to Mon Dec 7.
    d = _run("{type: window_before, min_days: 15, max_days: 30, needs_open_office: true}")
    assert (d.earliest, d.latest) == (date(2026, 12, 7), date(2026, 12, 18))


def test_at_least_10_business_days_counts_open_days_only() -> None:
    # Counted back from the hearing (counted, open): Jan 4; Dec 31, 30, 29, 28; Dec 24, 23, 22,
    # 21; Dec 18 is the tenth — so the act is due the day before it, Thu Dec 17 (the day of the
    # act is not counted). Not counted: the weekends, New Year's Day and Christmas; Christmas Eve
    # counts (main took it for a holiday and said Dec 16).
    d = _run("{type: at_least_before, days: 10, calendar_days: false}")
    assert d.latest == date(2026, 12, 17)
    assert "Fri 2026-12-25, Christmas Day" in d.derivation
    assert "Thu 2026-12-24" not in d.derivation.split("not counted, offices closed:")[1]


def test_business_days_counting_can_count_the_act_day_and_not_the_hearing() -> None:
    # The same ten open days, the act's day among them and the hearing's not: Dec 17 again.
    d = _run(
        "{type: at_least_before, days: 10, calendar_days: false,"
        " counting: {act_day: included, event_day: excluded}}"
    )
    assert d.latest == date(2026, 12, 17)
    assert "the rule's own counting" in d.derivation


def test_not_later_than_noon_2_business_days_before() -> None:
    # Hearing Mon Dec 28, 2026: one business day before is Thu Dec 24 (open under G.S. 103-4),
    # two is Wed Dec 23, by noon Eastern. Main closed Dec 24 and said Tue Dec 22.
    d = _run(
        '{type: business_days_before, business_days: 2, clock_time: "12:00 noon"}',
        hearing=date(2026, 12, 28),
    )
    assert d.latest == datetime.fromisoformat("2026-12-23T12:00:00-05:00")


@pytest.mark.parametrize(
    ("closed", "latest"),
    [
        ("previous_open", date(2026, 12, 18)),
        ("next_open", date(2026, 12, 21)),
        ("counts", date(2026, 12, 19)),
    ],
)
def test_a_rules_own_counting_overrides_the_packs(closed: str, latest: date) -> None:
    # Neither day counted: Jan 4 − 16 = Sat Dec 19, a closed day, treated as the rule says.
    d = _run(
        "{type: at_least_before, days: 15, counting: {act_day: excluded, event_day: excluded,"
        f" last_day_closed: {closed}}}}}"
    )
    assert d.latest == latest


@pytest.mark.parametrize(
    ("closed", "latest"),
    [
        ("previous_open", date(2026, 12, 24)),
        ("next_open", date(2026, 12, 28)),
        ("counts", date(2026, 12, 25)),
    ],
)
def test_a_period_after_the_event_ending_on_christmas(closed: str, latest: date) -> None:
    # Dec 15 + 10 = Fri Dec 25, Christmas: Thu Dec 24 is open; after it the weekend, to Mon Dec 28.
    d = _run(
        f"{{type: within_after, days: 10, counting: {{last_day_closed: {closed}}}}}",
        hearing=date(2026, 12, 15),
    )
    assert d.latest == latest


@pytest.mark.parametrize(
    ("timing", "message"),
    [
        (
            "{type: window_before, min_days: 10, max_days: 25, first_min_days: 14}",
            "first_min_days belongs to a weekly_before timing",
        ),
        (
            "{type: window_before, min_days: 10, max_days: 25, calendar_days: false}",
            "calendar_days: false belongs to an at_least_before timing",
        ),
        (
            "{type: at_least_before, days: 10, counting: {last_day_closed: later}}",
            "counting.last_day_closed",
        ),
    ],
)
def test_a_bad_time_form_is_located(tmp_path: Path, timing: str, message: str) -> None:
    old = "{type: at_least_before, days: 15}"
    root = packs(tmp_path, us_xx=STATE.replace(old, timing, 1))
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    assert message in problems(exc)
    assert "us-xx.yaml:" in problems(exc)


@pytest.mark.parametrize(
    ("calendar", "message"),
    [
        ("categories: [public], observed: library", None),
        ("categories: [pubic], observed: library", "categories pubic: the holidays library offers"),
        ("categories: [public]", "says which days are `observed`"),
        ("observed: library", "chooses the holidays library's `categories`"),
    ],
)
def test_a_state_calendar_chooses_its_categories_explicitly(
    tmp_path: Path, calendar: str, message: str | None
) -> None:
    old = "categories: [public], observed: library"
    root = packs(tmp_path, us_xx=STATE.replace(old, calendar, 1))
    if message is None:
        assert load_pack_file("us-xx", root).pack.calendar.categories == ["public"]
        return
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    assert message in problems(exc)
    assert "us-xx.yaml:" in problems(exc)


def test_north_carolina_keeps_the_legal_holidays_of_g_s_103_4_not_the_state_employees() -> None:
    cal = LegalCalendar(resolve("us-nc").calendar)
    for day in (date(2026, 12, 24), date(2025, 12, 26), date(2026, 11, 27), date(2026, 6, 19)):
        assert cal.is_open(day) and not cal.is_legal_holiday(day), day
    assert not cal.is_open(date(2026, 12, 25))
    # G.S. 103-4(b): a Sunday holiday is kept on the Monday; there is no Saturday rule.
    assert not cal.is_open(date(2027, 7, 5))
    assert cal.is_open(date(2026, 7, 3))
    # A G.S. 103-4 day on which offices stay open is still a legal holiday.
    assert cal.is_open(date(2027, 3, 25)) and cal.is_legal_holiday(date(2027, 3, 25))


@pytest.mark.parametrize(
    ("timing", "words"),
    [
        (
            "{type: weekly_before, weeks: 2, first_min_days: 14}",
            "once each week for 2 successive weeks before each hearing, the first not less than 14"
            " days before",
        ),
        (
            "{type: weekly_before, weeks: 2, last_min_days: 5}",
            "once each week for 2 successive weeks before each hearing, the last not less than 5"
            " days before",
        ),
        (
            "{type: at_least_before, days: 10, calendar_days: false}",
            "at least 10 business (offices open) days before each hearing",
        ),
        (
            "{type: at_least_before, days: 15, counting: {act_day: excluded, event_day: excluded,"
            " last_day_closed: previous_open}}",
            "at least 15 days before each hearing (the day of the act not counted; the event day"
            " not counted; a closed last day moves to the open day before)",
        ),
    ],
)
def test_explain_says_each_time_form_in_words(timing: str, words: str) -> None:
    assert describe_timing(_timing(timing)) == words


def test_explain_prints_the_counting_and_the_calendar_with_its_exclusions() -> None:
    text = checklist(resolve("us-nc"))
    assert (
        "Calendar: holidays library US-NC (public; a Sunday holiday kept on the Monday after)"
        in text
    )
    assert "  not a holiday: Christmas Eve — G.S. 103-4" in text
    assert "Counting: the day of the act not counted, the event day counted" in text


def test_a_city_closes_on_good_friday_where_the_state_keeps_offices_open() -> None:
    """Tex. Gov't Code § 662.003(c): Good Friday is an optional holiday, not a legal one; the
    sample city's code closes City Hall on it (a day counted from Easter, March 26, 2027)."""
    state, city = (LegalCalendar(resolve(p).calendar) for p in ("us-tx", "us-tx-pecan-grove"))
    good_friday = date(2027, 3, 26)
    assert state.is_open(good_friday)
    assert not city.is_open(good_friday)
    assert "Good Friday (City Hall closed)" in city.day(good_friday).describe()
    assert not city.is_open(date(2028, 4, 14)) and city.is_open(date(2028, 3, 31))  # Easter: Apr 16


def test_rhode_island_keeps_may_4_on_the_monday_only_after_a_sunday() -> None:
    """R.I.G.L. § 25-1-1 keeps New Year's Day, Juneteenth, July 4, November 11 and Christmas on
    "the following Monday" after a Saturday or Sunday, but any other day only after a Sunday
    ("the day following it"): a Saturday May 4 stays on the Saturday."""
    cal = LegalCalendar(resolve("us-ri").calendar)
    assert not cal.is_legal_holiday(date(2030, 5, 6))  # May 4, 2030 is a Saturday
    assert cal.is_legal_holiday(date(2036, 5, 5)) and cal.is_open(date(2036, 5, 5))  # a Sunday
    assert not cal.is_open(date(2027, 6, 21))  # Juneteenth on Saturday June 19, 2027
    text = checklist(resolve("us-ri"))
    assert (
        "  added: Rhode Island Independence Day (May 4), offices open, kept on the Monday after a Sunday"
        in text
    )


def test_oklahoma_names_the_christmas_closures_a_yearly_order_picks() -> None:
    """25 O.S. § 82.1(B): the Governor's order picks December 24 or 26; a count that takes
    either as closed says so (SCHED009), and explain shows the doubt."""
    cal = LegalCalendar(resolve("us-ok").calendar)
    assert not cal.is_open(date(2029, 12, 24)) and cal.day(date(2029, 12, 24)).verify
    assert not cal.day(date(2029, 12, 25)).verify
    assert "Governor's executive order" in checklist(resolve("us-ok"))


def test_explain_shows_what_a_continuance_binds_when_the_city_fills_the_states_silence() -> None:
    """Fla. Stat. § 166.041 says nothing of a continued hearing; the sample city's code lets an
    announced continuance stand without new notice, and that binds."""
    text = checklist(resolve("us-fl-sabal-springs"))
    line = text.index("(continuance, ss_continuance)")
    assert (
        "binds: a hearing continued to a date, time and place announced at it needs no new"
        in (text[line : line + 300])
    )
