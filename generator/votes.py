"""Votes needed to adopt an amendment: the fraction a protest forces, from the pack, with its derivation.

The pack's protest rule states the fraction, which members it is a fraction of, a different
fraction for a small body, what a conflict of interest does to the count, and how a fraction of a
member is rounded. Counting is exact (fractions, never floats), so 4.5 is 4.5.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction as Exact
from typing import Any

from generator.models.pack import ProtestParams, Threshold, Vote
from generator.rules.loader import Binding


@dataclass
class VotesNeeded:
    """The favorable votes an amendment needs, and how that number was reached."""

    needed: int | None  # None: the pack states no number (no protest, no ordinary vote rule)
    full_membership: int
    vacancies: int
    unable: int
    protest: bool
    derivation: list[str] = field(default_factory=list)
    rule: str | None = None
    citation: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The figures, the derivation and the rule, as `notices votes --format json` prints them."""
        return {
            "votes_needed": self.needed,
            "full_membership": self.full_membership,
            "vacancies": self.vacancies,
            "unable_to_vote": self.unable,
            "protest": self.protest,
            "rule": self.rule,
            "citation": self.citation,
            "derivation": self.derivation,
        }


def _round(value: Exact, how: str) -> tuple[int, str]:
    """`value` rounded as the pack says, and the words for it."""
    if how == "more_than":
        return math.floor(value) + 1, "more than that: the next whole member above it"
    if how == "nearest_half_up":
        return math.floor(value + Exact(1, 2)), "rounded to the nearest whole number, .5 up"
    return math.ceil(value), "rounded up to a whole member"


def _show(value: Exact) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def supermajority(vote: Vote, full: int, vacancies: int, unable: int) -> tuple[int, list[str]]:
    """Votes a valid protest requires of a body of `full` seats, `unable` members conflicted out."""
    steps = [f"full membership {full} seats ({vacancies} vacant, {unable} unable to vote)"]
    fraction = vote.fraction
    if vote.small_body and full <= vote.small_body.max_members:
        fraction = vote.small_body.fraction
        steps.append(
            f"a body of {vote.small_body.max_members} members or fewer: "
            f"{fraction.numerator}/{fraction.denominator}"
        )
    share = Exact(fraction.numerator, fraction.denominator)
    if vacancies:
        # "All members" are the seats of the body; a vacancy is still a seat, and counting it
        # asks for more votes, never fewer.
        steps.append(f"vacant seats are counted among all members ({vacancies})")
    base, base_name = full, "all members"
    if unable and vote.conflicts == "remaining_members_min_majority_of_full":
        base, base_name = full - unable, "the remaining members"
        steps.append(f"{full} − {unable} unable to vote = {base} remaining members")
    elif unable:
        steps.append(
            f"the pack gives no exception for members unable to vote: the fraction stays of all {full}"
        )
    raw = share * base
    needed, how = _round(raw, vote.rounding)
    steps.append(
        f"{fraction.numerator}/{fraction.denominator} of {base_name} ({base}) = {_show(raw)}, {how}: {needed}"
    )
    if vote.conflicts == "remaining_members_min_majority_of_full":
        floor = full // 2 + 1
        if floor > needed:
            steps.append(
                f"not less than a majority of the full membership ({full} // 2 + 1 = {floor}): {floor}"
            )
            needed = floor
        else:
            steps.append(f"at least a majority of the full membership ({floor}): {needed} stands")
    return needed, steps


def votes_needed(
    binding: Binding[ProtestParams] | None,
    full: int,
    vacancies: int = 0,
    unable: int = 0,
    *,
    protest: bool = True,
    met: Sequence[Threshold] | None = None,
) -> VotesNeeded:
    """The votes the amendment needs, with or without a valid protest, per the pack's rule.

    `met`: the thresholds the weighed protest met. A threshold may force its own vote; without
    the weighing, the largest vote any threshold forces is taken, and the derivation says so.
    """
    result = VotesNeeded(None, full, vacancies, unable, protest)
    if vacancies + unable >= full:
        result.derivation.append(
            f"{vacancies} vacant and {unable} unable of {full} seats: no member can vote"
        )
        return result
    if binding is None:
        result.derivation.append("the pack has no protest rule for this case: no supermajority")
        return result
    result.rule = binding.rule.id
    result.citation = "; ".join(dict.fromkeys(binding.citations))
    if not protest:
        result.derivation.append(
            "no valid protest: the supermajority of the protest rule does not apply; the pack"
            " states no number for an ordinary vote"
        )
        return result
    params = binding.params
    own = {id(t): t.vote or params.vote for t in params.thresholds}
    if len({v.model_dump_json() for v in own.values()}) == 1:
        result.needed, result.derivation = supermajority(params.vote, full, vacancies, unable)
        return result
    chosen = [t for t in params.thresholds if met is None or any(t is m for m in met)]
    why = (
        "the votes of the thresholds the protest met"
        if met is not None
        else "the protest not weighed: the largest vote any threshold forces"
    )
    best: tuple[int, list[str]] | None = None
    for t in chosen or params.thresholds:
        needed, steps = supermajority(own[id(t)], full, vacancies, unable)
        steps = [f"{t.share:.0%} of {t.of.replace('_', ' ')}: " + s for s in steps]
        if best is None or needed > best[0]:
            best = (needed, steps)
    assert best is not None  # a protest rule has at least one threshold
    result.needed, result.derivation = best[0], [f"{why}; the largest is taken", *best[1]]
    return result
