"""The schedule as a terminal table: one row a deadline, its derivation beneath."""

from __future__ import annotations

import textwrap
from datetime import date, datetime

from generator.legal_calendar import short
from generator.schedule import Deadline


def when(value: date | datetime | None) -> str:
    """A date or date-time as the table prints it."""
    if value is None:
        return "—"
    if isinstance(value, datetime):
        return f"{short(value.date())} {value:%H:%M}"
    return short(value)


def table(deadlines: list[Deadline], title: str) -> str:
    """The schedule as text: latest, earliest, action and hearing, then issues, law and derivation."""
    lines = [title, "", f"{'LATEST':20} {'EARLIEST':16} {'ACTION':48} HEARING"]
    for d in deadlines:
        lines.append(
            f"{when(d.latest):20} {when(d.earliest):16} {d.action[:48]:48} {d.hearing or '—'}"
        )
        if d.issues:
            copy = f"; copy due {when(d.copy_deadline)}" if d.copy_deadline else ""
            lines.append(f"    issues: {', '.join(short(i) for i in d.issues)}{copy}")
        lines.append(f"    {d.citation}  [{', '.join(d.rules)}]")
        for part in textwrap.wrap(d.derivation, 96):
            lines.append(f"      {part}")
        if d.problem:
            lines.append(f"    PROBLEM: {d.problem}")
    return "\n".join(lines) + "\n"
