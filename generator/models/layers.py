"""The GIS layers a case may name, the fields we read from each, and the parcel schema presets.

A county names its fields its own way; the case (`gis.<layer>.fields`) maps our names to the
layer's. Required fields must be mapped; the rest are read when mapped. A mailing address comes
in one of the shapes counties publish (`ADDRESS_SHAPES`); one complete shape must be mapped.
A preset (`gis.parcels.schema: <name>`, `data/parcel_schemas/<name>.yaml`) is the field map of
a schema many counties or an aggregator publish; the case's own `fields` override it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Literal

from generator.paths import parcel_schemas

_MAIL = (
    "owner_name2",
    "mail_careof",
    "mail_address1",
    "mail_address2",
    "mail_city",
    "mail_state",
    "mail_zip",
    "mail_city_state_zip",  # "CITY ST ZIP" in one field
    "mail_lines",  # a free-form block: a LIST of the layer's fields, in order
    "mail_country",
)

LAYERS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # layer: (required fields, optional fields)
    "parcels": (
        ("parcel_id", "owner_name"),
        (*_MAIL, "site_address", "municipality", "zoning", "lot_area_sqft", "frontage_ft", "units"),
    ),
    "zoning": (("district",), ("name",)),
    "streets": (("name",), ("kind",)),  # kind: street | railroad | highway
    "municipal_boundaries": (("name",), ("state", "council_address")),
    "water_sources": (("name",), ("town", "agency", "agency_address", "survey_filed")),
    "military_airport_vicinity": (("name",), ("kind",)),
    "noise_zones": (("name",), ("kind",)),  # kind: high_noise | accident_potential
    # Areas of the bodies an agencies group notifies (a pack's `layer:`), with their addresses.
    "school_districts": (("name",), ("address",)),
    "service_areas": (("name",), ("address", "kind")),
    # An assessor's certified radius list (CSV or XLSX) where the county has no GIS layer.
    "radius_list": (("parcel_id", "owner_name"), (*_MAIL, "site_address", "distance_ft")),
}

# Our fields that map to a list of the layer's fields rather than one.
LIST_FIELDS = ("mail_lines",)
# A free-form block is at least a street line and a last line, and no county prints more than six.
MAIL_LINES = (2, 6)

# The mailing-address shapes a field map may take, for the layers that carry owners.
ADDRESS_SHAPES: dict[str, tuple[str, ...]] = {
    "split fields": ("mail_address1", "mail_city", "mail_state", "mail_zip"),
    "a street line and a 'CITY ST ZIP' field": ("mail_address1", "mail_city_state_zip"),
    "a free-form block of lines": ("mail_lines",),
}
OWNER_LAYERS = ("parcels", "radius_list")

FieldMap = dict[str, str | list[str]]

# The feet a state-plane CRS may be in, as pyproj names its axis unit ("foot", "US survey foot").
MeasureUnit = Literal["foot", "us_survey_foot"]
UNIT_NAMES: dict[str, str] = {"foot": "foot", "us_survey_foot": "US survey foot"}


def field_map_problems(layer: str, fields: FieldMap) -> list[str]:
    """What is wrong with a layer's field map (our name -> the layer's field or fields)."""
    required, optional = LAYERS[layer]
    problems = []
    missing = [k for k in required if k not in fields]
    unknown = [k for k in fields if k not in (*required, *optional)]
    if missing:
        problems.append(f"map the required field(s) {', '.join(missing)}")
    if unknown:
        known = ", ".join((*required, *optional))
        problems.append(f"unknown field name(s) {', '.join(unknown)} (known: {known})")
    for ours, theirs in fields.items():
        if ours in LIST_FIELDS:
            low, high = MAIL_LINES
            if not isinstance(theirs, list) or not low <= len(theirs) <= high:
                problems.append(
                    f"{ours} is a list of {low} to {high} of the layer's fields, in order,"
                    f" such as [MAIL1, MAIL2, MAIL3] (got {theirs!r})"
                )
        elif isinstance(theirs, list):
            problems.append(f"{ours} names one field of the layer, not a list (got {theirs!r})")
    if layer in OWNER_LAYERS and not missing and address_shape(fields) is None:
        shapes = "; or ".join(
            f"{name} ({', '.join(need)})" for name, need in ADDRESS_SHAPES.items()
        )
        problems.append(f"map one complete mailing-address shape: {shapes}")
    return problems


def address_shape(fields: FieldMap | set[str]) -> str | None:
    """The first mailing-address shape the field map holds completely, or None."""
    return next(
        (name for name, need in ADDRESS_SHAPES.items() if all(k in fields for k in need)), None
    )


def columns_of(theirs: str | list[str]) -> list[str]:
    """The layer's field or fields one of our fields reads."""
    return list(theirs) if isinstance(theirs, list) else [theirs]


def lines_of(values: list[Any]) -> list[str]:
    """The non-empty, trimmed texts of a free-form block's fields, in order (null/NaN dropped)."""
    out = []
    for value in values:
        if value is None or type(value).__name__ in ("NAType", "NaTType"):
            continue  # pandas' missing values
        if isinstance(value, float) and math.isnan(value):
            continue
        if isinstance(value, float) and value.is_integer():
            # pandas reads an integer column with a null as floats; 85755.0 was the ZIP 85755
            value = int(value)
        text = str(value).strip()
        if text:
            out.append(text)
    return out


@dataclass(frozen=True)
class Publisher:
    """A county or aggregator that publishes a schema, with where its field list is documented."""

    name: str
    url: str


@dataclass(frozen=True)
class Preset:
    """A parcel schema preset: the field map of a schema, and who publishes it."""

    name: str
    description: str
    fields: FieldMap
    published_by: tuple[Publisher, ...]


def preset_names() -> list[str]:
    """The names of the presets in the presets folder (`paths.parcel_schemas()`)."""
    return sorted(p.stem for p in parcel_schemas().glob("*.yaml"))


def preset(name: str) -> Preset:
    """The preset `name`; KeyError if there is none."""
    if name not in preset_names():
        raise KeyError(name)
    return _read_preset(parcel_schemas() / f"{name}.yaml")


@cache
def _read_preset(path: Path) -> Preset:
    import yaml

    name = path.stem
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    publishers = tuple(Publisher(p["name"], p["url"]) for p in data["published_by"])
    return Preset(name, data["description"].strip(), dict(data["fields"]), publishers)
