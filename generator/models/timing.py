"""How the law times notice: periods before and after events, how days are counted, holidays.

Timing rules are part of notice rules and procedural deadlines; a state pack says how its days
are counted (`time_counting`) and which days are legal holidays or closure days (`calendar`).
"""

from __future__ import annotations

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

    AT_LEAST_BEFORE = "at_least_before"  # act >= N days before the event
    WINDOW_BEFORE = "window_before"  # not less than N nor more than M days before; with
    # `weeks`, the first of K weekly insertions falls in that window (G.S. 160D-601(a))
    WEEKLY_BEFORE = "weekly_before"  # once each week for K successive weeks before
    BUSINESS_DAYS_BEFORE = "business_days_before"  # N business days before, at a clock time
    WITHIN_AFTER = "within_after"  # no later than N days after the event
    AT_LEAST_AFTER = "at_least_after"  # no sooner than N days after the event
    BAR_AFTER = "bar_after"  # not again within N days/months after the event


class Timing(Model):
    """When an act must happen, relative to an event."""

    type: TimingType
    event: Event = Event.HEARING
    days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    min_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    max_days: int | None = Field(None, ge=0, json_schema_extra=stricter("min"))
    months: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    weeks: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    insertions: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    week_model: Literal["calendar_sun_sat", "rolling_7"] | None = None
    may_include_event_week: bool | None = None
    event_day_insertion_counts: bool | None = None
    business_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    clock_time: ClockTime | None = Field(None, json_schema_extra=stricter("min"))
    calendar_days: bool = True
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
            TimingType.AT_LEAST_AFTER: ("days",),
            TimingType.BAR_AFTER: (),
        }[self.type]
        missing = [n for n in need if getattr(self, n) is None]
        if missing:
            raise ValueError(f"a {self.type.value} timing needs {', '.join(missing)}")
        if self.type in (TimingType.WITHIN_AFTER, TimingType.BAR_AFTER) and (
            self.days is None and self.months is None
        ):
            raise ValueError(f"a {self.type.value} timing needs days or months")
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
    citation: str
    text: str


class HolidayRule(Model):
    """A day added to or removed from the calendar of the `holidays` library."""

    name: str
    month: int = Field(ge=1, le=12)
    day: int | None = Field(None, ge=1, le=31)
    weekday: Weekday | None = None
    nth: int | None = Field(None, ge=-1, le=5, description="-1 is the last such weekday.")
    offices_open: bool = False
    citation: str

    @model_validator(mode="after")
    def _date_or_weekday(self) -> HolidayRule:
        if (self.day is None) == (self.weekday is None or self.nth is None):
            raise ValueError("give either day, or weekday with nth")
        return self


class Calendar(Model):
    """Legal holidays and office-closure days of a jurisdiction."""

    country: str = "US"
    subdiv: str | None = None
    closed_weekdays: list[Weekday] = Field(
        default_factory=lambda: [Weekday.SATURDAY, Weekday.SUNDAY]
    )
    legal_holiday_weekdays: list[Weekday] = Field(default_factory=list)
    additions: list[HolidayRule] = Field(default_factory=list)
    removals: list[HolidayRule] = Field(default_factory=list)
    citation: str
