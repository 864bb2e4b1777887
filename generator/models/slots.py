"""The case values a pack-defined clause may print: its template's `{slots}`.

A clause of topic `custom` words its statement as a template, `{limitation_days}` or
`{municipality.body_name}`: a slot is a value the pack fixes (the rule's `slots:`), one of the
case values named here, or `option.<id>`, an option a pack declares that the case states. A slot
the case leaves empty is never printed as braces: the packet is not ready (PLAN001) and the
clause waits for it.
"""

from __future__ import annotations

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from generator.models.case import Body, Case, Hearing

OPTION = "option."  # `{option.<id>}`: what the case states for an option a pack declares


@dataclass(frozen=True)
class SlotSource:
    """What a slot is read from: the case, the hearing the notice gives, the pack's wording."""

    case: Case
    hearing: Hearing
    governing_body: str | None = None


def _body_name(s: SlotSource) -> str | None:
    council = [h.body_name for h in s.case.hearings if h.body == Body.COUNCIL]
    return s.governing_body or (council[0] if council else None)


@dataclass(frozen=True)
class Slot:
    """A case value a clause template may name."""

    name: str
    doc: str
    get: Callable[[SlotSource], Any]


SLOTS: dict[str, Slot] = {
    s.name: s
    for s in [
        Slot("case_number", "the municipality's case number", lambda s: s.case.case_number),
        Slot("municipality.name", 'as printed: "City of Newport"', lambda s: s.case.municipality),
        Slot(
            "municipality.kind",
            "city, town, village, borough, township or county",
            lambda s: s.case.municipality_kind and s.case.municipality_kind.value,
        ),
        Slot(
            "municipality.body_name",
            "the governing body: the pack's `governing_body`, else the council hearing's body",
            _body_name,
        ),
        Slot("hearing.body_name", "the body holding the hearing", lambda s: s.hearing.body_name),
        Slot("hearing.date", "the hearing's date", lambda s: s.hearing.date),
        Slot("hearing.time", "the hearing's start time", lambda s: s.hearing.start_time),
        Slot("hearing.place", "the room and building", lambda s: s.hearing.place),
        Slot("hearing.address", "the hearing's address", lambda s: s.hearing.address.one_line()),
        Slot("applicant.name", "the applicant", lambda s: s.case.applicant.name),
        Slot("amendment.title", "the amendment's title", lambda s: s.case.amendment.title),
        Slot(
            "examination.place",
            "where the proposal may be examined",
            lambda s: s.case.examination.place,
        ),
    ]
}


def template_slots(template: str) -> list[str]:
    """The slots a template names, in order; ValueError for braces that are not a plain slot."""
    names = []
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise ValueError(
            f"the template's braces do not pair up ({exc}); write {{{{ for a brace"
        ) from None
    for _text, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name or spec or conversion or "[" in name:
            raise ValueError(f"{{{name}}} is not a slot: write a name such as {{limitation_days}}")
        names.append(name)
    return names


def case_slot(name: str) -> bool:
    """Whether `name` is a slot the case fills (not one the pack fixes)."""
    return name in SLOTS or (name.startswith(OPTION) and len(name) > len(OPTION))


def value(name: str, source: SlotSource) -> Any:
    """The case's value for slot `name`; None when the case leaves it empty."""
    if name.startswith(OPTION):
        found = source.case.options.chosen(name.removeprefix(OPTION))
    else:
        found = SLOTS[name].get(source)
    return None if found in (None, "", []) else found


def missing(template: str, fixed: dict[str, Any], source: SlotSource) -> list[str]:
    """The slots of `template` neither the pack fixes nor the case fills."""
    named = dict.fromkeys(template_slots(template))
    return [n for n in named if n not in fixed and value(n, source) is None]
