"""Shared model config, strict scalar types, and pydantic errors turned into located problems."""

from __future__ import annotations

import re
from datetime import date, time
from typing import Annotated, Any, TypeVar

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from generator.errors import Problem, UserError, shown
from generator.yamlio import Located

M = TypeVar("M", bound=BaseModel)


class Model(BaseModel):
    """Base of every input model: unknown fields are errors, values are immutable and finite."""

    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        coerce_numbers_to_str=True,
        str_strip_whitespace=True,
        allow_inf_nan=False,
    )


# How many characters a case's text may have. The notices print each field, often in every
# letter; past these bounds a field was pasted by mistake, and no notice could hold it (a
# 200,000-character title took minutes to lay out, WeasyPrint's line breaking being quadratic in
# the length of a paragraph). A name, an address line or a place is one line of a letter.
SHORT = 300
# A title is a sentence; a link or a file path is as long as a browser or the disk allows.
TITLE = 1_000
LINK = 4_096
# A paragraph of a notice: a summary, a metes-and-bounds legal description.
PARAGRAPH = 20_000
# The full text of an amendment, printed in the notices: some 50 pages. A longer amendment is
# noticed by its summary, with the full text at the place of examination.
FULL_TEXT = 120_000

Title = Annotated[str, Field(max_length=TITLE)]
Link = Annotated[str, Field(max_length=LINK)]
Paragraph = Annotated[str, Field(max_length=PARAGRAPH)]


class CaseModel(Model):
    """Base of the parts of a case: every text is at most `SHORT` unless its type says more."""

    model_config = ConfigDict(**Model.model_config | {"str_max_length": SHORT})


def _iso_date(value: Any) -> date:
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
        raise ValueError(
            f"must be a date written YYYY-MM-DD, such as 2027-03-16 (got {shown(value)})"
        )
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value} is not a real calendar date") from None


_TIME = re.compile(
    r"(?P<h>\d{1,2})(?::(?P<m>\d{2}))?\s*(?P<ap>a\.?\s?m\.?|p\.?\s?m\.?)?\Z", re.IGNORECASE
)


def _clock_time(value: Any) -> time:
    """Accept `19:00`, `07:30`, `7:00 p.m.`, `7 PM`, `noon`; refuse `7:00` as ambiguous."""
    if isinstance(value, time):
        return value
    text = str(value).strip()
    if text.lower() in ("noon", "12 noon", "12:00 noon"):
        return time(12, 0)
    match = _TIME.match(text)
    if not match:
        raise ValueError(f"must be a clock time such as 19:00 or 7:00 p.m. (got {shown(text)})")
    hour, minute = int(match["h"]), int(match["m"] or 0)
    meridiem = (match["ap"] or "").lower().replace(".", "").replace(" ", "")
    if minute > 59:
        raise ValueError(f"{text!r} has no such minute")
    if meridiem:
        if not 1 <= hour <= 12:
            raise ValueError(f"{text!r}: with a.m./p.m. the hour runs from 1 to 12")
        hour = hour % 12 + (12 if meridiem == "pm" else 0)
    elif 1 <= hour <= 12 and not match["h"].startswith("0"):
        raise ValueError(
            f"{text!r} is ambiguous: write {hour}:{minute:02d} a.m. or {hour}:{minute:02d} p.m."
            f" (or a 24-hour time such as {hour + 12 if hour < 12 else hour}:{minute:02d})"
        )
    elif hour > 23:
        raise ValueError(f"{text!r} has no such hour")
    return time(hour, minute)


# A case's days (hearings, votes, the petition, the as-of day, a layer's date) are days under
# today's law: the packs encode law verified in the 2020s and pick rules by the hearing's date,
# and the schedule counts months either side. 2000-2099 holds any real case with decades to
# spare; a year outside it is a typo (year 9999 overflows the schedule's arithmetic, year 1 its
# look-back), and a hearing before 2000 would be judged by law that was not yet in force.
CASE_YEARS = (2000, 2099)


def case_day(value: date) -> date:
    """`value`, if it lies in CASE_YEARS; else ValueError saying so."""
    first, last = CASE_YEARS
    if not first <= value.year <= last:
        raise ValueError(
            f"{value.isoformat()} is out of range: a case's days lie in {first}-{last}"
        )
    return value


IsoDate = Annotated[date, BeforeValidator(_iso_date)]
CaseDate = Annotated[date, BeforeValidator(_iso_date), AfterValidator(case_day)]
ClockTime = Annotated[time, BeforeValidator(_clock_time)]


def _message(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind == "missing":
        return "required field is missing"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "string_too_long":
        return (
            f"is {len(error['input']):,} characters long; at most"
            f" {error['ctx']['max_length']:,} fit here"
        )
    msg = str(error["msg"])
    return msg.removeprefix("Value error, ")


def validate(model: type[M], doc: Located, context: dict[str, Any] | None = None) -> M:
    """Validate `doc.data` as `model`; raise `UserError` listing every problem with its place."""
    try:
        return model.model_validate(doc.data, context=context)
    except ValidationError as exc:
        problems = [located_problem(doc, err) for err in exc.errors()]
    raise UserError(_dedupe(problems))


def located_problem(doc: Located, error: dict[str, Any]) -> Problem:
    """Turn one pydantic error into a problem at its line and column."""
    loc = _data_loc(doc, tuple(error["loc"]))
    return doc.problem(loc, _message(error), at_key=error["type"] == "extra_forbidden")


def _data_loc(doc: Located, loc: tuple[Any, ...]) -> tuple[Any, ...]:
    out: list[Any] = []
    node: Any = doc.data
    for i, part in enumerate(loc):
        if isinstance(node, (dict, list)) and _has(node, part):
            out.append(part)
            node = node[part]
        elif i == len(loc) - 1:
            out.append(part)  # a missing or unknown key: keep it for the message
        # anything else is a pydantic-internal label (a union member or tag): skip it
    return tuple(out)


def _has(node: dict[str, Any] | list[Any], part: Any) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(part, int) and 0 <= part < len(node)


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen: set[Problem] = set()
    return [p for p in problems if not (p in seen or seen.add(p))]


def stricter(how: str) -> Any:
    """Mark how a parameter merges when a local rule supplements a state rule.

    `max`/`min`: the larger/smaller number binds; `or`: true if either says so; `union`: both
    lists; `adds`: both lists, and no difference is reported (what else one document covers);
    `prose`: wording, the parent's stands; `stated`: the value `silent` means that law
    says nothing, so the narrower law's stated value fills the broader law's silence (two stated
    values that differ are reported, and the parent's binds). A parameter without a mark must
    agree; if it does not, the parent's value binds and the difference is reported.
    """
    return {"stricter": how}


def prose(description: str | None = None) -> Any:
    """An optional free-text parameter: wording may differ between state and local law."""
    return Field(None, description=description, json_schema_extra=stricter("prose"))
