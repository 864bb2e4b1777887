"""A sample town being laid out: its spec as plain data, and the records the layout fills in.

Streets, lots and owners are in local feet, kept to a millionth of a foot; the layout steps
fill in a `_Town` one after the other.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "data" / "sample_towns.yaml"
DEFAULT_OUT = ROOT / "data" / "gis"

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in local feet
_EPS = 1e-6
_OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def _r(value: float) -> float:
    """Local coordinates are kept to a millionth of a foot, so equal sums compare equal."""
    return round(value + 0.0, 6)


def _rect(values: Any) -> Rect:
    x0, y0, x1, y1 = (_r(float(v)) for v in values)
    return (x0, y0, x1, y1)


def _triple(values: Any) -> tuple[float, float, float]:
    a, b, c = (float(v) for v in values)
    return (a, b, c)


@dataclass
class _Street:
    name: str
    axis: str  # ew: runs east-west at y = at; ns: north-south at x = at
    at: float
    row: float
    lo: float
    hi: float
    kind: str
    name_neg: str | None
    numbers: tuple[float, float, float]
    owner: str | None

    @property
    def rect(self) -> Rect:
        h = self.row / 2
        if self.axis == "ew":
            return (self.lo, _r(self.at - h), self.hi, _r(self.at + h))
        return (_r(self.at - h), self.lo, _r(self.at + h), self.hi)

    def label(self, along: float) -> str:
        if self.name_neg and along < self.numbers[0]:
            return self.name_neg
        return self.name

    def number(self, along: float) -> float:
        at, value, per_100 = self.numbers
        if self.name_neg:
            return value + abs(along - at) * 100 / abs(per_100)
        return value + (along - at) * 100 / per_100


@dataclass
class _Lot:
    rect: Rect
    block: int
    front: _Street | None = None
    front_ft: float = 0.0
    kind: str = "lots"  # lots | single | grid | canal
    pin: str | None = None
    subject: dict[str, Any] | None = None
    owner_key: str | None = None
    municipality: str = ""
    neighbour: bool = False
    zoning: str = ""
    use: str = "residential"
    site: str = ""
    zip: str = ""
    owner: _Owner | None = None
    variant: tuple[bool, bool] = (False, False)  # name, mailing address written differently

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    @property
    def area(self) -> float:
        x0, y0, x1, y1 = self.rect
        return (x1 - x0) * (y1 - y0)


@dataclass
class _Owner:
    name1: str
    name2: str = ""
    mail1: str = ""
    mail2: str = ""
    city: str = ""
    state: str = ""
    zip: str = ""


@dataclass
class _Town:
    """One town being laid out: the spec, its streets and blocks, and the lots made so far."""

    town_id: str
    spec: dict[str, Any]
    common: dict[str, Any]
    rng: random.Random
    streets: list[_Street] = field(default_factory=list)
    by_name: dict[str, _Street] = field(default_factory=dict)
    blocks: list[Rect] = field(default_factory=list)
    lots: list[_Lot] = field(default_factory=list)
    alleys: list[tuple[float, float, float, float]] = field(default_factory=list)
    subject_rects: dict[str, Rect] = field(default_factory=dict)

    @property
    def extent(self) -> Rect:
        x0, y0, x1, y1 = self.spec["extent"]
        return (float(x0), float(y0), float(x1), float(y1))


def load_spec(path: Path = SPEC) -> dict[str, Any]:
    """The sample-town spec (`data/sample_towns.yaml`) as plain data."""
    return yaml.safe_load(path.read_text(encoding="utf-8"))
