"""The stricter binds: merging a local rule's params with the state rule it supplements.

Each parameter says how it merges (`stricter=` in `generator.models.pack`): a larger day count
or distance binds, a window is the intersection of both windows, lists are united, a duty
either law imposes binds, and where the broader law is `silent` (a `stated` parameter) the
narrower law's value binds: a city may say what its state leaves unsaid. Every difference is
reported, so `explain` and the plan can show the conflict between state and local law.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from generator.models.base import Model


@dataclass(frozen=True)
class Difference:
    """One parameter on which local and state law differ."""

    field: str
    parent: Any
    child: Any
    binding: Any

    def describe(self) -> str:
        """A sentence for explain and the plan."""
        what = _FIELD_WORDS.get(self.field, self.field.replace("_", " ").replace(".", " "))
        return (
            f"{what}: state law {_show(self.parent)}, local law {_show(self.child)};"
            f" {_show(self.binding)} binds"
        )


# How a schedule or a finding names the fields state and local law most often set differently.
_FIELD_WORDS = {
    "timing.days": "days of notice",
    "timing.min_days": "fewest days of notice",
    "timing.max_days": "most days of notice",
    "timing.business_days": "business days of notice",
    "timing.insertions": "insertions",
    "timing.weeks": "weeks of publication",
    "distance_ft": "feet from the property",
}


def _show(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if isinstance(value, BaseModel) and hasattr(value, "numerator"):
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, BaseModel):
        fields = value.model_dump(exclude_defaults=True, mode="json")
        return "(" + ", ".join(f"{k} {v}" for k, v in fields.items()) + ")"
    if hasattr(value, "value") and not isinstance(value, (int, float)):
        return str(value.value)
    return str(value)


# The value by which a `stated` parameter says that its law says nothing.
SILENT = "silent"


class EmptyWindowError(ValueError):
    """Local and state windows do not overlap: no date satisfies both laws."""


def bind(parent: Model, child: Model, prefix: str = "") -> tuple[Model, list[Difference]]:
    """Merge two params models of the same kind; return the binding params and the differences."""
    if type(parent) is not type(child):
        return parent, [Difference(prefix or "params", parent, child, parent)]
    merged: dict[str, Any] = {}
    diffs: list[Difference] = []
    for name, info in type(parent).model_fields.items():
        a, b = getattr(parent, name), getattr(child, name)
        path = f"{prefix}.{name}" if prefix else name
        how = (
            (info.json_schema_extra or {}).get("stricter")
            if isinstance(info.json_schema_extra, dict)
            else None
        )
        if a is None:
            merged[name] = b  # only the local rule says it
            continue
        if how == "stated" and a == SILENT and b is not None:
            merged[name] = b  # the broader law says nothing: the narrower law's word binds
            continue
        silent = (
            b is None
            or b == info.get_default(call_default_factory=True)
            or (how == "stated" and b == SILENT)
        )
        if a == b or silent or how == "prose":
            merged[name] = a  # the local rule is silent (or only words it differently)
            continue
        if isinstance(a, Model) and how is None:
            merged[name], sub = bind(a, b, path)
            diffs.extend(sub)
            continue
        value = _stricter(how, a, b)
        merged[name] = value
        if how == "adds":
            continue  # what else the same document covers: no difference between the laws
        if value != a:
            diffs.append(Difference(path, a, b, value))  # the local rule is stricter
        elif how not in ("union", "or"):
            diffs.append(Difference(path, a, b, value))  # the local rule is weaker
    result = type(parent).model_validate(merged) if not _is_window_empty(merged) else None
    if result is None:
        raise EmptyWindowError(
            f"{prefix or 'timing'}: the windows do not overlap (not less than {merged['min_days']}"
            f" nor more than {merged['max_days']} days)"
        )
    return result, diffs


def _stricter(how: str | None, a: Any, b: Any) -> Any:
    if how == "max":
        return max(a, b, key=_magnitude)
    if how == "min":
        return min(a, b, key=_magnitude)
    if how == "or":
        return bool(a or b)
    if how in ("union", "adds"):
        return [*a, *(x for x in b if x not in a)]
    return a  # unmarked: the parent (state) law's value binds


def _magnitude(value: Any) -> Any:
    return value.value if isinstance(value, BaseModel) else value  # a vote Fraction


def _is_window_empty(values: dict[str, Any]) -> bool:
    low, high = values.get("min_days"), values.get("max_days")
    return low is not None and high is not None and low > high
