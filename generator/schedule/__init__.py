"""The deadline engine: every date the law sets, computed from the hearings, and explained.

Each deadline says the window in which an act is lawful (earliest and latest), the newspaper
issues that comply, the day copy must reach the paper, the rule and citation behind it, and a
derivation a lawyer can check by hand.
"""

from generator.schedule.counting import time_act
from generator.schedule.deadline import Context, Deadline, hearing_label, zone_of
from generator.schedule.engine import compute
from generator.schedule.hearing_days import findings as closed_day_findings
from generator.schedule.hearing_times import findings as hearing_time_findings
from generator.schedule.lateness import (
    check_in_time,
    earliest_lawful_hearing,
    findings,
    issues_of,
    judged_on,
    late,
    window_of,
)

__all__ = [
    "Context",
    "Deadline",
    "check_in_time",
    "closed_day_findings",
    "compute",
    "earliest_lawful_hearing",
    "findings",
    "hearing_label",
    "hearing_time_findings",
    "issues_of",
    "judged_on",
    "late",
    "time_act",
    "window_of",
    "zone_of",
]
