"""Votes needed (`generator/votes.py`, `notices votes`): the fractions, rounding and floors of the packs."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest

from generator.inputs import load_case
from generator.models.pack import ProtestParams
from generator.protest import protest_binding
from generator.rules.loader import Binding, resolve, snapshot
from generator.votes import votes_needed

from .conftest import CASES, notices

AZ = (
    CASES / "az-2027-map-01.yaml"
)  # Saguaro Wells: A.R.S. § 9-462.04(H) merged with the town's code
OK_CITY = CASES / "ok-2027-map-01.yaml"


def _binding(case: Path) -> Binding[ProtestParams] | None:
    cf = load_case(case)
    return protest_binding(cf, resolve(cf.case.jurisdiction))


@pytest.mark.parametrize(
    ("full", "unable", "needed"),
    [
        (7, 0, 5),  # 3/4 × 7 = 5.25, to the nearest whole number: 5
        (6, 0, 5),  # 3/4 × 6 = 4.5 exactly: .5 rounds up
        (10, 0, 8),  # 7.5: up
        (9, 0, 7),  # 6.75: 7
        (7, 1, 5),  # 3/4 × 6 remaining = 4.5: 5
        (7, 2, 4),  # 3/4 × 5 = 3.75: 4, the majority of 7 exactly
        (7, 3, 4),  # 3/4 × 4 = 3: below the majority of the full membership (4): 4
        (7, 5, 4),  # 3/4 × 2 = 1.5 → 2: the floor is still 4
    ],
)
def test_arizona_three_fourths_of_remaining_rounded_never_below_majority(
    full: int, unable: int, needed: int
) -> None:
    result = votes_needed(_binding(AZ), full, 0, unable)
    assert result.needed == needed
    assert "A.R.S. § 9-462.04(H)" in (result.citation or "")


def test_the_majority_floor_is_said_in_the_derivation() -> None:
    result = votes_needed(_binding(AZ), 7, 0, 3)
    assert result.derivation[-1] == (
        "not less than a majority of the full membership (7 // 2 + 1 = 4): 4"
    )


def test_oklahoma_statute_three_fifths_for_a_small_body_three_fourths_above() -> None:
    pack = resolve("us-ok")
    (binding,) = snapshot(pack, None, date(2027, 5, 4)).of(ProtestParams)
    assert votes_needed(binding, 7).needed == 5  # 3/5 × 7 = 4.2, a fraction of a member: up
    assert votes_needed(binding, 5).needed == 3  # 3/5 × 5 = 3
    assert votes_needed(binding, 8).needed == 6  # more than seven: 3/4 × 8
    assert votes_needed(binding, 9).needed == 7  # 6.75 up
    # No conflict rule in the statute: a member unable to vote does not lower the number.
    assert votes_needed(binding, 9, 0, 2).needed == 7


def test_oklahoma_city_three_fourths_even_for_a_small_council() -> None:
    binding = _binding(OK_CITY)
    assert votes_needed(binding, 7).needed == 6  # the code's 3/4 beats the statute's 3/5
    assert votes_needed(binding, 5).needed == 4  # 3.75 up


def test_without_a_protest_no_supermajority_and_no_invented_number() -> None:
    result = votes_needed(_binding(AZ), 7, protest=False)
    assert result.needed is None
    assert "no valid protest" in result.derivation[0]


def test_votes_command_defaults_to_council_size_and_takes_recusals() -> None:
    run = notices("votes", str(AZ), "--unable", "3", "--protest", "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["votes_needed"] == 4
    assert data["full_membership"] == 7  # council_size of the sample
