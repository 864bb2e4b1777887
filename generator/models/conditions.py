"""`when`: the small declarative condition language of rule packs.

A condition is a mapping from a fact name to what it must be, combined with `all`, `any` and
`not`. Never code: packs are data that clerks and lawyers edit.

    when: {specific_map_change: true}
    when: {any: [{standards.height_pct: {gte: 10}}, {standards.stories_changed: true}]}
    when: {initiated_by: [council, planning_body, other]}

A fact the case does not state counts as false, and the plan says which facts it assumed;
`all` and `any` stop at the first part that decides, so only facts that mattered are named.

`option.<id>` tests an option a pack declares (under `options:`, with its citation); the id is
checked against the declarations when the pack is resolved.

`computed.<id>` tests a count or sum a pack declares under `computed_facts:` (owners to be
mailed, properties affected), counted from the recipients and parcels before the rules are
judged. One that cannot be counted (no parcel layer) and that the case does not state is
unknown, never false: a condition it leaves undecided applies its rule, as giving a notice that
was not required harms no one, and the plan names the fact (`Evaluation.unknown`).

    when: {computed.owners_to_mail: {gt: 1000}}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from generator.models.case import AmendmentKind, Case
from generator.models.options import CaseOption

_OPS = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "gte": lambda a, b: a is not None and a >= b,
    "gt": lambda a, b: a is not None and a > b,
    "lte": lambda a, b: a is not None and a <= b,
    "lt": lambda a, b: a is not None and a < b,
    "in": lambda a, b: a in b,
    "contains": lambda a, b: b in (a or ()),
}


@dataclass(frozen=True)
class Fact:
    """A named fact about a case that conditions may test."""

    name: str
    type: type
    doc: str
    get: Callable[[Case], Any]


def _changes_classification(case: Case) -> bool:
    return any(
        p.proposed_district and p.proposed_district != p.current_district for p in case.parcels
    )


def _std(attr: str) -> Callable[[Case], Any]:
    def get(case: Case) -> Any:
        change = case.amendment.standards_change
        return getattr(change, attr) if change else None

    return get


_MAP = (AmendmentKind.MAP, AmendmentKind.BOTH)
_TEXT = (AmendmentKind.TEXT, AmendmentKind.BOTH)

OPTION = "option."  # `option.<id>`: an option a pack declares, as the case elects it
COMPUTED = "computed."  # `computed.<id>`: a count a pack declares, as counted (or stated)


class _FactTable(dict[str, Fact]):
    """The facts by name; `option.<id>` and `computed.<id>` are made on demand (packs declare them)."""

    def __missing__(self, key: str) -> Fact:
        if key.startswith(COMPUTED):
            fact_id = key.removeprefix(COMPUTED)
            return Fact(
                key,
                float,
                "a count or sum the pack declares under `computed_facts`",
                lambda c: _computed(c, fact_id),
            )
        if not key.startswith(OPTION):
            raise KeyError(key)
        option_id = key.removeprefix(OPTION)
        return Fact(
            key,
            object,
            "an option the case may elect under `options`",
            lambda c: c.options.chosen(option_id),
        )


def _computed(case: Case, fact_id: str) -> Any:
    """A computed fact's value: as counted (or stated) with the recipients, else as stated.

    Before the recipients are collected (a pack scenario), the count the case states under
    `facts.<id>` (`properties_affected`) stands; None: unknown.
    """
    if fact_id in case.facts.computed:
        return case.facts.computed[fact_id]
    stated = getattr(case.facts, fact_id, None) if fact_id in case.facts.model_fields_set else None
    return stated if isinstance(stated, int | float) and not isinstance(stated, bool) else None


FACTS: dict[str, Fact] = _FactTable(
    (f.name, f)
    for f in [
        Fact("amendment_kind", str, "map, text or both", lambda c: c.amendment.kind.value),
        Fact(
            "municipality_kind",
            str,
            "city, town, village, borough, township or county (the case's, else its pack's)",
            lambda c: c.municipality_kind.value if c.municipality_kind else None,
        ),
        Fact("map_change", bool, "the zoning map changes", lambda c: c.amendment.kind in _MAP),
        Fact(
            "text_change", bool, "the ordinance text changes", lambda c: c.amendment.kind in _TEXT
        ),
        Fact(
            "affects_districts_generally",
            bool,
            "the change affects districts generally",
            lambda c: c.amendment.affects_districts_generally,
        ),
        Fact(
            "specific_map_change",
            bool,
            "a specific map change that does not affect districts generally",
            lambda c: c.amendment.kind in _MAP and not c.amendment.affects_districts_generally,
        ),
        Fact(
            "prints_full_text",
            bool,
            "the notice prints the amendment in full rather than a summary",
            lambda c: c.amendment.print_full_text,
        ),
        Fact(
            "changes_classification",
            bool,
            "some parcel's zoning classification changes",
            _changes_classification,
        ),
        Fact(
            "initiated_by",
            str,
            "owner, council, planning_body or other",
            lambda c: c.amendment.initiated_by.value,
        ),
        Fact(
            "applicant_is_owner",
            bool,
            "the applicant owns the land",
            lambda c: c.applicant.is_owner,
        ),
        Fact(
            "affects_residential_zoning",
            bool,
            "the change affects residential or multifamily zoning",
            lambda c: c.amendment.affects_residential_zoning,
        ),
        Fact(
            "comprehensive_zoning_change",
            bool,
            "a comprehensive zoning change as the state's law defines it",
            lambda c: c.amendment.comprehensive_zoning_change,
        ),
        Fact(
            "allows_more_residential_development",
            bool,
            "the change allows more residential development than the present zoning",
            lambda c: c.amendment.allows_more_residential_development,
        ),
        Fact(
            "allows_added_commercial_or_industrial_use",
            bool,
            "the change allows commercial or industrial uses the present zoning does not",
            lambda c: c.amendment.allows_added_commercial_or_industrial_use,
        ),
        Fact(
            "allows_drug_treatment_facility",
            bool,
            "the change relates to or would allow a halfway house, drug rehabilitation center"
            " or other facility for the treatment of drug dependency",
            lambda c: c.amendment.allows_drug_treatment_facility,
        ),
        Fact(
            "makes_lots_nonconforming",
            bool,
            "a text change makes conforming lots nonconforming by area or frontage",
            lambda c: c.amendment.makes_lots_nonconforming,
        ),
        Fact(
            "merger_clause_applies",
            bool,
            "the lots would be subject to a merger clause",
            lambda c: bool(c.amendment.merger_clause),
        ),
        Fact(
            "conditional_district",
            bool,
            "a conditional (use) district rezoning",
            lambda c: c.amendment.conditional_district,
        ),
        Fact(
            "standards.units_or_floor_area_pct",
            float,
            "% change in units or floor area",
            _std("units_or_floor_area_pct"),
        ),
        Fact(
            "standards.height_pct", float, "% change in allowed building height", _std("height_pct")
        ),
        Fact(
            "standards.stories_changed",
            bool,
            "the allowed number of stories changes",
            _std("stories_changed"),
        ),
        Fact(
            "standards.setback_or_open_space_pct",
            float,
            "% change in setbacks or open space",
            _std("setback_or_open_space_pct"),
        ),
        Fact(
            "standards.permitted_uses_changed",
            bool,
            "permitted uses increase or decrease",
            _std("permitted_uses_changed"),
        ),
        Fact(
            "in_high_noise_or_accident_zone",
            bool,
            "the land lies in a high-noise or accident-potential zone",
            lambda c: c.facts.in_high_noise_or_accident_zone,
        ),
        Fact(
            "near_military_airport",
            bool,
            "the land lies in the vicinity of a military airport",
            lambda c: c.facts.near_military_airport,
        ),
        Fact(
            "abuts_other_jurisdiction",
            bool,
            "the land abuts another municipality or unincorporated county",
            lambda c: bool(c.facts.abutting_jurisdictions),
        ),
        Fact(
            "municipality_within_200_ft",
            bool,
            "another municipality lies in or within 200 ft of the area",
            lambda c: bool(c.facts.municipalities_within_200_ft),
        ),
        Fact(
            "water_source_within_2000_ft",
            bool,
            "a public water source lies within 2,000 ft",
            lambda c: c.facts.water_source_within_2000_ft,
        ),
        Fact(
            "water_agency_filed_survey",
            bool,
            "a water agency filed a map survey covering the land",
            lambda c: bool(c.facts.water_agencies_with_survey),
        ),
        Fact(
            "conservation_restriction",
            bool,
            "a recorded conservation or preservation restriction burdens the land",
            lambda c: bool(c.facts.conservation_restriction_holders),
        ),
        Fact(
            "registered_persons",
            bool,
            "persons registered to receive notice",
            lambda c: bool(c.registered_persons),
        ),
        Fact(
            "newspaper_of_general_circulation",
            bool,
            "a newspaper of general circulation serves the municipality",
            lambda c: bool(c.newspaper and c.newspaper.general_circulation),
        ),
        Fact(
            "properties_affected",
            int,
            "number of properties the change affects",
            lambda c: c.facts.properties_affected,
        ),
        Fact(
            "distinct_owners",
            int,
            "number of distinct owners of those properties",
            lambda c: c.facts.distinct_owners,
        ),
        Fact(
            "land_owned_by_municipality",
            bool,
            "the municipality owns the land",
            lambda c: c.facts.land_owned_by_municipality,
        ),
        Fact(
            "filed_by_owners_of_half_the_land",
            bool,
            "owners of 50 % or more of the land presented the amendment",
            lambda c: c.facts.filed_by_owners_of_half_the_land,
        ),
        Fact("council_size", int, "members of the governing body", lambda c: c.council_size),
    ]
)
_OPTION_ID = re.compile(r"[a-z][a-z0-9_]{0,32}\Z")
_COMPUTED_ID = re.compile(r"[a-z][a-z0-9_]{0,40}\Z")


def check(cond: Any, where: str = "when") -> None:
    """Raise `ValueError` naming the first malformed part of a condition."""
    if not isinstance(cond, dict) or not cond:
        raise ValueError(f"{where}: a condition is a non-empty mapping of facts")
    for key, value in cond.items():
        if key in ("all", "any"):
            if not isinstance(value, list) or not value:
                raise ValueError(f"{where}.{key}: must be a non-empty list of conditions")
            for i, sub in enumerate(value):
                check(sub, f"{where}.{key}[{i}]")
        elif key == "not":
            check(value, f"{where}.not")
        elif key.startswith(OPTION) and not _OPTION_ID.match(key.removeprefix(OPTION)):
            raise ValueError(f"{where}: {key!r} is not an option id (option.<id>)")
        elif key.startswith(COMPUTED) and not _COMPUTED_ID.match(key.removeprefix(COMPUTED)):
            raise ValueError(f"{where}: {key!r} is not a computed fact id (computed.<id>)")
        elif not key.startswith((OPTION, COMPUTED)) and key not in FACTS:
            raise ValueError(
                f"{where}: unknown fact {key!r}; known facts: {', '.join(sorted(FACTS))}"
            )
        elif isinstance(value, dict):
            for op in value:
                if op not in _OPS:
                    raise ValueError(
                        f"{where}.{key}: unknown operator {op!r}; use {', '.join(_OPS)}"
                    )


@dataclass
class Evaluation:
    """The outcome of a condition, the facts it had to assume false, and the unknown counts.

    `unknown`: the computed facts (`computed.<id>`) that could not be counted and left the
    condition undecided; the rule then applies (`value` is True).
    """

    value: bool
    assumed: set[str]
    unknown: set[str] = field(default_factory=set)


def evaluate(
    cond: dict[str, Any] | None, case: Case, options: Mapping[str, CaseOption] | None = None
) -> Evaluation:
    """Evaluate a condition against a case; `None` (no condition) is always true.

    `options` are the options the packs declare: a choices option the case leaves unstated
    has chosen nothing (an empty list), a yes/no option is not stated (assumed false). A
    computed fact that is unknown is neither true nor false: a condition it leaves undecided
    applies its rule, and the fact is named in `unknown`.
    """
    assumed: set[str] = set()
    unknown: set[str] = set()
    value = True if cond is None else _eval(cond, case, assumed, unknown, options or {})
    if value is None:
        return Evaluation(True, assumed, unknown)
    return Evaluation(value, assumed, set())


def _eval(
    cond: dict[str, Any],
    case: Case,
    assumed: set[str],
    unknown: set[str],
    options: Mapping[str, CaseOption],
) -> bool | None:
    """True, False, or None where an unknown computed fact leaves it undecided (as `decide`)."""
    results: list[bool | None] = []
    for key, want in cond.items():  # the keys of one mapping must all hold
        if key in ("all", "any"):
            ok = _kleene(want, key == "all", lambda c: _eval(c, case, assumed, unknown, options))
        elif key == "not":
            inner = _eval(want, case, assumed, unknown, options)
            ok = None if inner is None else not inner
        else:
            have = FACTS[key].get(case)
            declared = options.get(key.removeprefix(OPTION)) if key.startswith(OPTION) else None
            if have is None and declared is not None and declared.type == "choices":
                have = []
            if have is None and key.startswith(COMPUTED):
                unknown.add(key)
                ok = None
            else:
                if have is None:
                    assumed.add(key)
                ok = _holds(have, want)
        if ok is False:
            return False
        results.append(ok)
    return None if None in results else True


def _kleene(
    parts: list[Any], conjunction: bool, judge: Callable[[Any], bool | None]
) -> bool | None:
    """`all` / `any` of three-valued parts: the first part that decides wins, else unknown.

    It stops at that part, so that only the facts that mattered are named.
    """
    decisive = not conjunction
    undecided = False
    for part in parts:
        ok = judge(part)
        if ok is decisive:
            return decisive
        undecided = undecided or ok is None
    return None if undecided else not decisive


def decide(cond: dict[str, Any] | None, known: Mapping[str, Any]) -> bool | None:
    """A condition judged on the facts `known` alone: True, False, or None when they do not settle it.

    What the linter reads in a notice without its case (`text_facts` of the packs): a fact it
    did not read is unknown, never false, so a rule is dropped only when the known facts rule
    it out.
    """
    if cond is None:
        return True
    results = []
    for key, want in cond.items():
        if key in ("all", "any"):
            parts = [decide(c, known) for c in want]
            if key == "all":
                result = False if False in parts else (None if None in parts else True)
            else:
                result = True if True in parts else (None if None in parts else False)
        elif key == "not":
            inner = decide(want, known)
            result = None if inner is None else not inner
        elif key not in known:
            result = None
        else:
            result = _holds(known[key], want)
        results.append(result)
    return False if False in results else (None if None in results else True)


def _holds(have: Any, want: Any) -> bool:
    """Whether a fact's value is what a condition wants of it."""
    if isinstance(want, dict):
        return all(_OPS[op](have, arg) for op, arg in want.items())
    if isinstance(want, list):
        return have in want
    if isinstance(want, bool):
        return (have or False) == want
    return have == want


def facts_in(cond: dict[str, Any] | None) -> list[str]:
    """Every fact name a condition tests, in order."""
    found: list[str] = []
    for key, want in (cond or {}).items():
        if key in ("all", "any"):
            for sub in want:
                found += facts_in(sub)
        elif key == "not":
            found += facts_in(want)
        else:
            found.append(key)
    return found


def options_in(cond: dict[str, Any] | None) -> list[tuple[str, Any]]:
    """The options a condition tests, each with what it wants: `[("post_sign", True)]`."""
    found: list[tuple[str, Any]] = []
    for key, want in (cond or {}).items():
        if key in ("all", "any"):
            for sub in want:
                found += options_in(sub)
        elif key == "not":
            found += options_in(want)
        elif key.startswith(OPTION):
            found.append((key.removeprefix(OPTION), want))
    return found


def describe(cond: dict[str, Any] | None) -> str:
    """Write a condition as a short readable phrase for `explain`."""
    if cond is None:
        return "always"
    parts = []
    for key, want in cond.items():
        if key in ("all", "any"):
            joiner = " and " if key == "all" else " or "
            parts.append("(" + joiner.join(describe(c) for c in want) + ")")
        elif key == "not":
            inner = describe(want)
            parts.append(f"not ({inner})" if len(want) > 1 else f"not {inner}")
        elif want is True:
            parts.append(key)
        elif want is False:
            parts.append(f"not {key}")
        elif isinstance(want, list):
            parts.append(f"{key} in {', '.join(map(str, want))}")
        elif isinstance(want, dict):
            parts.append(" and ".join(f"{key} {op} {arg}" for op, arg in want.items()))
        else:
            parts.append(f"{key} = {want}")
    return " and ".join(parts)
