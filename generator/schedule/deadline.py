"""A deadline: one act the law times, its lawful window, and how it was derived; and what counting needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

from generator.legal_calendar import LegalCalendar
from generator.models.case import Case, Hearing
from generator.models.timing import TimeCounting, Timing
from generator.rules.loader import ResolvedPack


@dataclass
class Deadline:
    """One act the law times, and the window in which it is lawful."""

    id: str
    hearing: str | None
    action: str
    channel: str | None
    earliest: date | datetime | None
    latest: date | datetime | None
    rule: str
    citation: str
    derivation: str
    rules: list[str] = field(default_factory=list)
    issues: list[date] = field(default_factory=list)
    copy_deadline: date | datetime | None = None
    required: bool = True
    problem: str | None = None  # why the act cannot be done in time, if it cannot
    # Closures the count took as closed that a yearly order decides (the calendar's `verify`).
    unsure: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The DESIGN.md §6 shape, plus the ids of every rule behind the deadline."""

        def iso(value: date | datetime | None) -> str | None:
            return value.isoformat() if value else None

        return {
            "id": self.id,
            "hearing": self.hearing,
            "action": self.action,
            "channel": self.channel,
            "earliest": iso(self.earliest),
            "latest": iso(self.latest),
            "issues": [d.isoformat() for d in self.issues],
            "copy_deadline": iso(self.copy_deadline),
            "rule": self.rule,
            "rules": self.rules,
            "citation": self.citation,
            "derivation": self.derivation,
            "required": self.required,
            "problem": self.problem,
        }


@dataclass
class Context:
    """What every computation needs: the case, the calendar, the counting rule, the zone."""

    case: Case
    calendar: LegalCalendar
    counting: TimeCounting | None
    zone: ZoneInfo

    def counts(self, timing: Timing) -> tuple[bool, bool]:
        """Whether the day of the act and the event day count: the timing's, else the pack's."""
        tc, own = self.counting, timing.counting
        act, event = (tc.count_act_day, tc.count_event_day) if tc else (False, True)
        if own and own.act_day:
            act = own.act_day == "included"
        if own and own.event_day:
            event = own.event_day == "included"
        return act, event

    def gap(self, days: int, timing: Timing) -> int:
        """The fewest days between act and event for the period to count `days` days."""
        if timing.clear_days:
            return days + 1
        act, event = self.counts(timing)
        return days + 1 - int(act) - int(event)

    def counting_note(self, timing: Timing) -> str:
        """How the days were counted, and on whose authority."""
        if timing.clear_days:
            return "clear days: neither the day of the act nor the event day counts"
        tc, own = self.counting, timing.counting
        act, event = self.counts(timing)
        said = (
            f"the day of the act {'counted' if act else 'not counted'},"
            f" the event day {'counted' if event else 'not counted'}"
        )
        if own and (own.act_day or own.event_day):
            return f"{said}: the rule's own counting"
        if not tc:
            return f"{said} (no counting rule in the pack)"
        return f"{said}: {tc.citation}"

    def week_model(self, timing: Timing) -> str:
        """What "successive weeks" means: the timing's, else the pack's, else calendar weeks."""
        pack = self.counting.week_model if self.counting else None
        return timing.week_model or pack or "calendar_sun_sat"


def day_of(moment: date | datetime) -> date:
    """The day of a deadline's moment (a date, or a clock time on a day)."""
    return moment.date() if isinstance(moment, datetime) else moment


def hearing_label(hearing: Hearing) -> str:
    """How a deadline names the hearing it serves: `council 2027-03-16`."""
    return f"{hearing.body.value} {hearing.date.isoformat()}"


def zone_of(case: Case, pack: ResolvedPack) -> ZoneInfo:
    """The time zone clock-time deadlines are in: the case's, else the pack's."""
    return ZoneInfo(case.timezone or pack.timezone or "UTC")  # state packs must name their zone
