"""The schedule as an iCalendar file: one event per deadline, the citation in its description."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from generator.schedule import Deadline


def ics(deadlines: list[Deadline], *, uid_prefix: str, title: str, stamp: datetime) -> bytes:
    """An RFC 5545 calendar; `stamp` comes from the inputs so the same case gives the same file."""
    from icalendar import Calendar, Event  # imported only when writing one

    cal = Calendar()
    cal.add("prodid", "-//Zoning Notices//zoning-notices//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", title)
    for d in deadlines:
        entries = []
        if d.latest:
            entries.append(("", f"Last day to {d.action}", d.latest))
        elif d.earliest:
            entries.append(("", f"First day: {d.action}", d.earliest))
        if d.copy_deadline:
            entries.append((".copy", f"Copy due at the newspaper — {d.action}", d.copy_deadline))
        for suffix, summary, when in entries:
            event = Event()
            event.add("uid", f"{uid_prefix}.{d.id}{suffix}@zoning-notices")
            event.add("dtstamp", stamp)
            if isinstance(when, datetime):
                event.add("dtstart", when)
                event.add("dtend", when + timedelta(minutes=30))
            else:
                event.add("dtstart", when)
                event.add("dtend", when + timedelta(days=1))
            hearing = f" ({d.hearing} hearing)" if d.hearing else ""
            event.add("summary", f"{summary}{hearing}")
            issues = f"\nIssues: {', '.join(i.isoformat() for i in d.issues)}" if d.issues else ""
            event.add("description", f"{d.citation} [{d.rule}]\n{d.derivation}{issues}")
            event.add("categories", [d.channel or "procedure"])
            cal.add_component(event)
    cal.add_missing_timezones()  # VTIMEZONE for every TZID used, so calendars import it right
    return cal.to_ical()


def stamp_for(first_hearing: date, as_of: date | None) -> datetime:
    """A DTSTAMP derived from the inputs (never the clock)."""
    from datetime import UTC

    return datetime.combine(as_of or first_hearing, datetime.min.time(), UTC)
