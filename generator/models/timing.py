"""How the law times notice: periods before and after events, how days are counted, holidays.

Timing rules are part of notice rules and procedural deadlines; a state pack says how its days
are counted (`time_counting`) and which days are legal holidays or closure days (`calendar`).
"""

from __future__ import annotations

import calendar
from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from generator.models.base import ClockTime, Model, stricter
from generator.models.case import Weekday


class Event(StrEnum):
    """The event a period is counted from or to."""

    HEARING = "hearing"
    VOTE = "vote"
    PETITION_RECEIVED = "petition_received"
    HEARING_COMPLETED = "hearing_completed"
    FINAL_APPROVAL = "final_approval"
    REJECTION = "rejection"
    DECISION = "decision"
    WITHDRAWAL = "withdrawal"
    FILING = "filing"


class TimingType(StrEnum):
    """The shapes of time rule the five seeds need."""

    AT_LEAST_BEFORE = "at_least_before"  # act >= N days (or N open days) before the event
    WINDOW_BEFORE = "window_before"  # not less than N nor more than M days before; with
    # `weeks`, the first of K weekly insertions falls in that window (G.S. 160D-601(a))
    WEEKLY_BEFORE = "weekly_before"  # once each week for K successive weeks before; with
    # `first_min_days` / `last_min_days`, the first / last insertion at least D days before
    BUSINESS_DAYS_BEFORE = "business_days_before"  # N business days before, at a clock time
    WITHIN_AFTER = "within_after"  # no later than N days after the event
    AT_LEAST_AFTER = "at_least_after"  # no sooner than N days (or months) after the event
    BAR_AFTER = "bar_after"  # not again within N days/months after the event


class Counting(Model):
    """How one timing counts its days, where its statute says so apart from the pack's rule."""

    act_day: Literal["included", "excluded"] | None = Field(
        None, description="Whether the day of the act counts (else the pack's `time_counting`)."
    )
    event_day: Literal["included", "excluded"] | None = Field(
        None, description="Whether the day of the event counts (else the pack's `time_counting`)."
    )
    last_day_closed: Literal["previous_open", "next_open", "counts"] | None = Field(
        None,
        description="When the day the period ends on (the latest day for an act before the"
        " event, the last day of a period after it) is a closure day: `previous_open` moves it"
        ' to the open day before, `next_open` to the open day after ("unless a holiday, then'
        ' the next day"), `counts` keeps it. Unset: an act before the event that needs an'
        " open office moves earlier; a period after the event follows `forward_roll`.",
    )


class Timing(Model):
    """When an act must happen, relative to an event."""

    type: TimingType
    event: Event = Event.HEARING
    days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    min_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    max_days: int | None = Field(None, ge=0, json_schema_extra=stricter("min"))
    months: int | None = Field(
        None,
        ge=0,
        description="within_after, at_least_after, bar_after: calendar months (with `days`, added"
        " after the months). The same day of the month; where that month is shorter, its last"
        " day (August 31 + 6 months = February 28 or 29).",
        json_schema_extra=stricter("max"),
    )
    weeks: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    first_min_days: int | None = Field(
        None,
        ge=0,
        description="weekly_before: the first insertion not less than this many days before the"
        " event (no earliest date unless the law gives one).",
        json_schema_extra=stricter("max"),
    )
    last_min_days: int | None = Field(
        None,
        ge=0,
        description="weekly_before: the last insertion not less than this many days before the"
        " event.",
        json_schema_extra=stricter("max"),
    )
    first_max_days: int | None = Field(
        None,
        ge=0,
        description="weekly_before: the first insertion not more than this many days before the"
        ' event ("the first publication shall not be more than 30 days").',
        json_schema_extra=stricter("min"),
    )
    last_max_days: int | None = Field(
        None,
        ge=0,
        description="weekly_before: the last insertion not more than this many days before the"
        ' event ("the second not less than five days nor more than 21 days before").',
        json_schema_extra=stricter("min"),
    )
    min_days_between: int | None = Field(
        None,
        ge=1,
        description="weekly_before: at least this many days between one insertion and the next"
        ' ("not less than six days elapsing between the first and second publication").',
        json_schema_extra=stricter("max"),
    )
    insertions: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    week_model: Literal["calendar_sun_sat", "rolling_7"] | None = None
    may_include_event_week: bool | None = None
    event_day_insertion_counts: bool | None = None
    business_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    clock_time: ClockTime | None = Field(None, json_schema_extra=stricter("min"))
    calendar_days: bool = Field(
        True,
        description="at_least_before: false counts `days` in days the calendar's offices are"
        ' open ("business days"), true in calendar days.',
    )
    counting: Counting | None = Field(
        None, description="This timing's own counting, over the pack's `time_counting`."
    )
    clear_days: bool = Field(False, json_schema_extra=stricter("or"))
    needs_open_office: bool = Field(False, json_schema_extra=stricter("or"))
    may_be_earlier_if_set_by_body: bool = False

    @model_validator(mode="after")
    def _shape(self) -> Timing:
        need = {
            TimingType.AT_LEAST_BEFORE: ("days",),
            TimingType.WINDOW_BEFORE: ("min_days", "max_days"),
            TimingType.WEEKLY_BEFORE: ("weeks",),
            TimingType.BUSINESS_DAYS_BEFORE: ("business_days",),
            TimingType.WITHIN_AFTER: (),
            TimingType.AT_LEAST_AFTER: (),
            TimingType.BAR_AFTER: (),
        }[self.type]
        missing = [n for n in need if getattr(self, n) is None]
        if missing:
            raise ValueError(f"a {self.type.value} timing needs {', '.join(missing)}")
        after = (TimingType.WITHIN_AFTER, TimingType.BAR_AFTER, TimingType.AT_LEAST_AFTER)
        if self.type in after and (self.days is None and self.months is None):
            raise ValueError(f"a {self.type.value} timing needs days or months")
        weekly_only = (
            "first_min_days",
            "last_min_days",
            "first_max_days",
            "last_max_days",
            "min_days_between",
        )
        stray = [n for n in weekly_only if getattr(self, n) is not None]
        if stray and self.type != TimingType.WEEKLY_BEFORE:
            raise ValueError(f"{', '.join(stray)} belongs to a weekly_before timing")
        if not self.calendar_days and self.type != TimingType.AT_LEAST_BEFORE:
            raise ValueError("calendar_days: false belongs to an at_least_before timing")
        if (
            self.min_days is not None
            and self.max_days is not None
            and self.min_days > self.max_days
        ):
            raise ValueError("min_days is greater than max_days")
        return self


class TimeCounting(Model):
    """How a state counts days before and after an event."""

    count_act_day: bool = False
    count_event_day: bool = True
    forward_roll: bool = Field(
        False,
        description="A period counted forward whose last day is a holiday or closure day ends on"
        " the next open day (never applied to periods counted back from a hearing).",
    )
    week_model: Literal["calendar_sun_sat", "rolling_7"] | None = Field(
        None,
        description='What "successive weeks" means for the pack\'s weekly rules that do not say:'
        " calendar weeks Sunday to Saturday, or weeks of seven days from the first insertion.",
    )
    citation: str
    text: str


class HolidayRule(Model):
    """A day added to or removed from the calendar of the `holidays` library."""

    name: str
    month: int | None = Field(None, ge=1, le=12)
    day: int | None = Field(None, ge=1, le=31)
    weekday: Weekday | None = None
    nth: int | None = Field(None, ge=-1, le=5, description="-1 is the last such weekday.")
    offset_days: int | None = Field(
        None,
        ge=-6,
        le=6,
        description="With month, weekday and nth: the day this many days from that weekday, for"
        ' a day the law names by another ("the Tuesday next after the first Monday in November"'
        " is the first Monday + 1; the Friday after the fourth Thursday is the fourth Thursday"
        " + 1). It may fall in the next month.",
    )
    easter_offset: int | None = Field(
        None,
        ge=-100,
        le=100,
        description="A day counted from Western Easter Sunday: -2 is Good Friday, -47 Shrove"
        " Tuesday.",
    )
    offices_open: bool = False
    observed: Literal["sunday_to_monday", "weekend_to_monday", "none"] | None = Field(
        None,
        description="Where this day is kept when it falls on a weekend, where the statute says"
        " otherwise for it than the calendar's `observed` (a day kept on the Monday only after"
        " a Sunday, in a state that moves its other fixed holidays off a Saturday too).",
    )
    verify: str | None = Field(
        None,
        description="Why the day is not certain (a yearly order picks it): a deadline counted"
        " with it closed is reported (SCHED009), so the clerk checks that year's order.",
    )
    citation: str

    def when(self) -> str:
        """How `notices explain` names the day: "May 4", "1 day after the first Monday of November"."""

        def days(n: int, anchor: str) -> str:
            side = "after" if n > 0 else "before"
            return f"{abs(n)} day{'s' if abs(n) > 1 else ''} {side} {anchor}"

        if self.easter_offset is not None:
            return days(self.easter_offset, "Easter") if self.easter_offset else "Easter"
        month = calendar.month_name[self.month or 1]
        if self.day is not None:
            return f"{month} {self.day}"
        assert self.weekday is not None  # validated: a day, a weekday with nth, or Easter
        nth = {-1: "last", 1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}[
            self.nth or 1
        ]
        text = f"the {nth} {self.weekday.value.capitalize()} of {month}"
        return days(self.offset_days, text) if self.offset_days else text

    @model_validator(mode="after")
    def _date_or_weekday(self) -> HolidayRule:
        shapes = [
            self.month is not None and self.day is not None,
            self.month is not None and self.weekday is not None and self.nth is not None,
            self.easter_offset is not None and self.month is None,
        ]
        if shapes.count(True) != 1 or (self.day is not None and self.weekday is not None):
            raise ValueError("give month with day, month with weekday and nth, or easter_offset")
        if self.offset_days is not None and self.nth is None:
            raise ValueError("offset_days counts from a weekday: give month, weekday and nth")
        return self


class LibraryExclusion(Model):
    """A day the `holidays` library lists under the chosen categories that the statute does not."""

    name: str = Field(
        description='The library\'s name for the day (its "(observed)" days go with it).'
    )
    citation: str = Field(description="The law that leaves the day out.")
    reason: str | None = Field(None, description="Why, in a few words.")


class Calendar(Model):
    """Legal holidays and office-closure days of a jurisdiction."""

    country: str = "US"
    subdiv: str | None = None
    categories: list[str] | None = Field(
        None,
        description="The `holidays` library's categories the statute's days are taken from"
        " (`public`, `government`, `optional`, `half_day`, `unofficial`, ... as the library"
        " offers them for the country), chosen explicitly; [] takes none and the pack lists"
        " every day under `additions`. A state pack must say; a city's calendar only adds to it.",
    )
    observed: Literal["library", "sunday_to_monday", "weekend_to_monday", "none"] | None = Field(
        None,
        description="Where a weekend holiday is kept: the library's observed days (`library`:"
        " Saturday to Friday, Sunday to Monday for the US), only a Sunday holiday on the Monday"
        " after (`sunday_to_monday`), a Saturday or Sunday holiday on the Monday"
        " after (`weekend_to_monday`), or nowhere (`none`).",
    )
    closed_weekdays: list[Weekday] = Field(
        default_factory=lambda: [Weekday.SATURDAY, Weekday.SUNDAY]
    )
    legal_holiday_weekdays: list[Weekday] = Field(default_factory=list)
    library_exclusions: list[LibraryExclusion] = Field(
        default_factory=list,
        description="Days of the chosen categories the statute does not make holidays.",
    )
    additions: list[HolidayRule] = Field(default_factory=list)
    removals: list[HolidayRule] = Field(default_factory=list)
    citation: str = Field(description="The law that makes these days holidays or closes offices.")

    def name(self) -> str:
        """How a deadline's derivation names this calendar, briefly."""
        region = f"{self.country}-{self.subdiv}" if self.subdiv else self.country
        return (
            f"{region} ({', '.join(self.categories or []) or 'no library days'}), {self.citation}"
        )

    def describe(self) -> str:
        """How `notices explain` names this calendar, with what the pack changed."""
        region = f"{self.country}-{self.subdiv}" if self.subdiv else self.country
        cats = ", ".join(self.categories or []) or "no categories"
        observed = {
            "library": "the library's observed days",
            "sunday_to_monday": "a Sunday holiday kept on the Monday after",
            "weekend_to_monday": "a weekend holiday kept on the Monday after",
            "none": "no observed days",
        }[self.observed or "none"]
        extra = ""
        if self.library_exclusions:
            extra += f", less {', '.join(x.name for x in self.library_exclusions)}"
        if self.additions or self.removals:
            extra += f", with the pack's {len(self.additions)} additions and {len(self.removals)} removals"
        return f"holidays library {region} ({cats}; {observed}){extra}; {self.citation}"

    @model_validator(mode="after")
    def _known_categories(self) -> Calendar:
        import holidays  # the library's own list, so a new category needs no change here

        try:
            offered = holidays.country_holidays(
                self.country, subdiv=self.subdiv
            ).supported_categories
        except NotImplementedError as exc:
            raise ValueError(f"the holidays library: {exc}") from None
        unknown = [c for c in self.categories or [] if c not in offered]
        if unknown:
            raise ValueError(
                f"categories {', '.join(unknown)}: the holidays library offers"
                f" {', '.join(sorted(offered))} for {self.country}"
                + (f"-{self.subdiv}" if self.subdiv else "")
            )
        return self
