"""No pack says a statute's time rule with a workaround (issue 18, "Why").

"Once in each of two successive weeks, the first at least 14 days before" used to be written
with an invented maximum-days bound, which made up an earliest date the law never set. Now a
weekly rule says `first_min_days` / `last_min_days`, and a bound stands only where the rule's
own text states it: G.S. 160D-601(a)'s "not less than 10 days nor more than 25 days" is the
law's window, not a workaround.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
import yaml
from pydantic import BaseModel

from generator.models.pack import NoticeRule, Rule
from generator.models.timing import Timing, TimingType
from generator.rules.loader import available, load_pack_file

from .conftest import ROOT

# How statutes state an upper bound: "nor more than 25 days", "not earlier than", "within".
_SAYS_A_MAXIMUM = re.compile(
    r"\b(?:more than|earlier than|sooner than|within|at most|maximum|no longer than)\b", re.I
)


def timings(value: object) -> Iterator[Timing]:
    """Every timing anywhere in a rule's params."""
    if isinstance(value, Timing):
        yield value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from timings(getattr(value, name))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from timings(item)


def workarounds(rule: Rule) -> list[str]:
    """What in a rule's timings is a workaround rather than the law's words."""
    found = []
    for t in timings(rule.params):
        if t.type == TimingType.WEEKLY_BEFORE and (
            t.min_days is not None or t.max_days is not None
        ):
            found.append(
                f"{rule.id}: a weekly rule with min_days/max_days (say first_min_days or"
                " last_min_days; a window only with type window_before and the law's own bound)"
            )
        if t.max_days is not None and not _SAYS_A_MAXIMUM.search(rule.text):
            found.append(
                f"{rule.id}: max_days {t.max_days} but the rule's text states no maximum"
                " (an invented earliest date)"
            )
    return found


@pytest.mark.parametrize("pack_id", available(ROOT / "jurisdictions"))
def test_no_pack_invents_a_bound(pack_id: str) -> None:
    pack = load_pack_file(pack_id, ROOT / "jurisdictions").pack
    found = [w for rule in pack.rules for w in workarounds(rule)]
    assert not found, "\n".join(found)


def _rule(text: str, timing: str) -> Rule:
    return NoticeRule.model_validate(
        {
            "id": "paper",
            "title": "Published notice",
            "citation": "X Stat. § 1",
            "text": text,
            "kind": "notice",
            "params": {
                "channel": "newspaper",
                "document": "newspaper_notice",
                "timing": yaml.safe_load(timing),
            },
        },
    )


def test_the_scan_finds_the_workaround_and_keeps_the_laws_own_window() -> None:
    weeks = "Publish once in each of two successive weeks, the first at least 14 days before."
    invented = _rule(weeks, "{type: window_before, weeks: 2, min_days: 14, max_days: 20}")
    assert workarounds(invented) == [
        "paper: max_days 20 but the rule's text states no maximum (an invented earliest date)"
    ]
    assert not workarounds(_rule(weeks, "{type: weekly_before, weeks: 2, first_min_days: 14}"))
    nc = _rule(
        "Published once a week for two successive calendar weeks, the first not less than 10"
        " days nor more than 25 days before the date of the hearing.",
        "{type: window_before, min_days: 10, max_days: 25, weeks: 2}",
    )
    assert not workarounds(nc)
