"""What a notice prints about asking for an accommodation: whom to ask, and by when."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from generator.models.case import Hearing
from generator.plan import Plan
from generator.render.filters import clock, long_date
from generator.schedule.accommodation import requests


def context(plan: Plan, hearing: Hearing) -> dict[str, Any]:
    """The `accommodation` of the template context: `contact`, `relay`, and `by` (None: no day)."""
    asked = requests(plan.case, plan.pack, hearing)
    latest = asked.due.latest if asked.due else None
    if isinstance(latest, datetime):
        by: str | None = f"{clock(latest.time())} on {long_date(latest.date())}"
    else:
        by = long_date(latest) if latest else None
    return {"contact": asked.contact, "relay": asked.relay, "by": by}
