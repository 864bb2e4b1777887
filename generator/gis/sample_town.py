"""Sample towns: realistic, deterministic GIS layers for the sample cases, one GeoPackage a town.

The sample cases name their subject parcels by id; the recipients and map capabilities need the
land around them. This module lays out one small town per jurisdiction from
`data/sample_towns.yaml` and writes `data/gis/<town-id>.gpkg` with the layers `parcels`,
`zoning`, `streets`, `municipal_boundaries`, `water_sources` and, for Saguaro Wells,
`airport_zones`:

- `ri-east-providence` (EPSG:3438): Rumford, around Pawtucket Avenue and Greenwood Avenue, with
  the Pawtucket line along Armistice Boulevard and Turner Reservoir more than 2,000 ft from the
  subject; two lots begin exactly 200.0 ft and 200.01 ft from the subject (edge tests).
- `ri-newport` (EPSG:3438): One Mile Corner, Broadway and Bliss Road, the LB district south of
  Bliss Road, wide R-20 lots to the south, Middletown beyond Eustis Avenue, Easton Pond.
- `ok-sample-city` (EPSG:2267): platted 50-ft lots with alleys (Block 12, Westside Addition),
  the BNSF railroad, the Town of Prairie View across Rockwell Avenue.
- `az-saguaro-wells` (written in EPSG:4326; measure in EPSG:2223): west of Luke AFB, farms east
  of the Beardsley Canal (a canal parcel), subdivisions and the town center to the west,
  unincorporated Maricopa County south of the town limits, and Luke AFB's vicinity, high noise
  and accident potential zones.
- `nc-shelby` (EPSG:2264): East Marion Street backing onto a 110-ft railroad corridor, East
  Dixon Boulevard, Earl Road with a 104-ft right-of-way, the Town of Patterson Springs south.

Blocks lie between street rights-of-way (gaps with no parcel) and are cut into one or two tiers
of lots; the subjects are placed where the cases say, with the cases' ids, districts, areas and
owners. Owners and mailing addresses come from a random generator seeded with the town id, so
every run gives the same features and attributes: about a tenth of owners own several parcels
(their names and addresses sometimes written with other spacing or case), about a quarter of
parcels mail elsewhere than the site, and about one in twelve out of state.

Run `python -m generator.gis.sample_town [OUT_DIR]` (default `data/gis`).
"""

from __future__ import annotations

import itertools
import math
import os
import random
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "data" / "sample_towns.yaml"
DEFAULT_OUT = ROOT / "data" / "gis"

LAYER_FIELDS: dict[str, tuple[str, ...]] = {
    "parcels": (
        "PIN", "OWNER1", "OWNER2", "MAIL_ADDR1", "MAIL_ADDR2", "MAIL_CITY", "MAIL_STATE",
        "MAIL_ZIP", "SITE_ADDR", "TOWN", "ZONING", "LOT_SQFT", "FRONT_FT",
    ),
    "zoning": ("DISTRICT", "NAME"),
    "streets": ("ST_NAME", "KIND"),
    "municipal_boundaries": ("TOWN", "STATE", "COUNCIL_ADDR"),
    "water_sources": ("NAME", "KIND", "TOWN", "AGENCY", "AGENCY_ADDR", "SURVEY_FILED"),
    "airport_zones": ("NAME", "KIND", "AIRPORT"),
}  # fmt: skip
"""The layers of a town's GeoPackage and their fields, in order (airport_zones: Saguaro Wells)."""

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


# ---------------------------------------------------------------------------------------------
# Streets and blocks


def _streets(town: _Town) -> None:
    spec = town.spec
    x0, y0, x1, y1 = town.extent
    numbering = spec["numbering"]
    entries = list(spec["streets"])
    for row in spec.get("local_streets", []):
        at, k = float(row["first"]), 0
        step = float(row["every"])
        while (step > 0 and at <= row["last"] + _EPS) or (step < 0 and at >= row["last"] - _EPS):
            entries.append(
                {
                    "name": row["names"][k],
                    "axis": row["axis"],
                    "at": at,
                    "row": row["row"],
                    "lo": row.get("lo"),
                    "hi": row.get("hi"),
                }
            )
            at, k = _r(at + step), k + 1
    for e in entries:
        lo_default, hi_default = (x0, x1) if e["axis"] == "ew" else (y0, y1)
        lo = float(e["lo"]) if e.get("lo") is not None else lo_default
        hi = float(e["hi"]) if e.get("hi") is not None else hi_default
        street = _Street(
            name=e["name"],
            axis=e["axis"],
            at=float(e["at"]),
            row=float(e["row"]),
            lo=max(lo, lo_default),
            hi=min(hi, hi_default),
            kind=e.get("kind", "street"),
            name_neg=e.get("name_neg"),
            numbers=_triple(e.get("numbers", numbering[e["axis"]])),
            owner=e.get("owner"),
        )
        town.streets.append(street)
        town.by_name.setdefault(street.name, street)
        if street.name_neg:
            town.by_name.setdefault(street.name_neg, street)


def _street_at(town: _Town, x: float, y: float) -> _Street | None:
    """The street (not a canal) whose right-of-way holds the point."""
    for s in town.streets:
        if s.kind == "canal":
            continue
        a, b, c, d = s.rect
        if a < x < c and b < y < d:
            return s
    return None


def _split_by_boundary(town: _Town, geoms: list[Any]) -> list[Rect]:
    """Rectangles of the pieces, cut along the municipal line; anything else is a spec error."""
    from shapely.geometry import box

    n = town.spec["neighbour"]
    x0, y0, x1, y1 = town.extent
    at = float(n["at"])
    halves = [box(x0, y0, x1, at), box(x0, at, x1, y1)]
    if n["side"] in ("E", "W"):
        halves = [box(x0, y0, at, y1), box(at, y0, x1, y1)]
    out: list[Rect] = []
    for geom in geoms:
        for half in halves:
            piece = geom.intersection(half)
            for part in getattr(piece, "geoms", [piece]):
                if part.is_empty or part.area < 1.0 or part.geom_type != "Polygon":
                    continue
                bx = _rect(part.bounds)
                if abs((bx[2] - bx[0]) * (bx[3] - bx[1]) - part.area) > 0.01:
                    raise ValueError(
                        f"{town.town_id}: a block is not a rectangle near {part.representative_point().wkt}: "
                        "end streets at the centerline of another street"
                    )
                out.append(bx)
    return out


def _blocks(town: _Town) -> None:
    import shapely
    from shapely.geometry import box

    ways = shapely.union_all([box(*s.rect) for s in town.streets])
    free = box(*town.extent).difference(ways)
    rects = _split_by_boundary(town, list(getattr(free, "geoms", [free])))
    town.blocks = sorted(rects, key=lambda r: (-r[3], r[0]))
    for s in town.streets:  # canal right-of-way: parcels of its owner
        if s.kind != "canal":
            continue
        others = shapely.union_all([box(*o.rect) for o in town.streets if o is not s])
        rest = box(*s.rect).difference(others)
        for r in sorted(
            _split_by_boundary(town, list(getattr(rest, "geoms", [rest]))),
            key=lambda r: (-r[3], r[0]),
        ):
            town.lots.append(_Lot(r, -1, kind="canal", owner_key=s.owner))


# ---------------------------------------------------------------------------------------------
# Lots


def _rule(town: _Town, block: Rect) -> dict[str, Any]:
    rule = dict(town.spec.get("lots", {}))
    cx, cy = (block[0] + block[2]) / 2, (block[1] + block[3]) / 2
    for over in town.spec.get("blocks", []):
        bx0, by0, bx1, by1 = over["box"]
        if bx0 <= cx <= bx1 and by0 <= cy <= by1:
            rule.update({k: v for k, v in over.items() if k != "box"})
    return rule


def _subject_rects(town: _Town) -> None:
    for s in town.spec.get("subjects", []):
        if "behind" in s:
            continue
        st, cr = town.by_name[s["street"]], town.by_name[s["cross"]]
        off, f, d, corner = float(s["offset"]), float(s["frontage"]), float(s["depth"]), s["corner"]
        if st.axis == cr.axis:
            raise ValueError(f"{s['pin']}: {s['street']} and {s['cross']} do not cross")
        # v: across the street (depth); u: along it (frontage)
        pos_v = ("N" in corner) if st.axis == "ew" else ("E" in corner)
        pos_u = ("E" in corner) if st.axis == "ew" else ("N" in corner)
        if pos_v:
            v0 = st.at + st.row / 2
            v1 = v0 + d
        else:
            v1 = st.at - st.row / 2
            v0 = v1 - d
        if pos_u:
            u0 = cr.at + cr.row / 2 + off
            u1 = u0 + f
        else:
            u1 = cr.at - cr.row / 2 - off
            u0 = u1 - f
        rect = (u0, v0, u1, v1) if st.axis == "ew" else (v0, u0, v1, u1)
        town.subject_rects[s["pin"]] = _rect(rect)


def _inside(inner: Rect, outer: Rect) -> bool:
    return (
        inner[0] >= outer[0] - _EPS
        and inner[1] >= outer[1] - _EPS
        and inner[2] <= outer[2] + _EPS
        and inner[3] <= outer[3] + _EPS
    )


def _fill(a: float, b: float, rule: dict[str, Any], rng: random.Random) -> list[float]:
    """Cut points that divide [a, b] into lots of about the rule's frontage."""
    lo, hi = (float(v) for v in rule.get("frontage", (50, 80)))
    length = b - a
    n = max(1, round(length / ((lo + hi) / 2)))
    while n > 1 and length / n < lo * 0.75:
        n -= 1
    weights = [1.0] * n if lo == hi else [rng.uniform(0.75, 1.25) for _ in range(n)]
    total, acc, cuts = sum(weights), 0.0, []
    for w in weights[:-1]:
        acc += length * w / total
        c = round((a + acc) * 2) / 2
        if c - a < 5 or b - c < 5 or (cuts and c - cuts[-1] < 5):
            continue
        cuts.append(c)
    combine = float(rule.get("combine", 0))
    if combine:
        cuts = [c for c in cuts if rng.random() >= combine]
    return cuts


class _Frame:
    """A block seen as u (along the fronting streets) and v (across them)."""

    def __init__(self, block: Rect, orient: str) -> None:
        self.orient = orient
        x0, y0, x1, y1 = block
        self.u0, self.u1, self.v0, self.v1 = (
            (x0, x1, y0, y1) if orient == "ew" else (y0, y1, x0, x1)
        )

    def xy(self, u: float, v: float) -> tuple[float, float]:
        return (u, v) if self.orient == "ew" else (v, u)

    def rect(self, u0: float, u1: float, v0: float, v1: float) -> Rect:
        return (u0, v0, u1, v1) if self.orient == "ew" else (v0, u0, v1, u1)

    def uv(self, rect: Rect) -> Rect:
        x0, y0, x1, y1 = rect
        return (x0, x1, y0, y1) if self.orient == "ew" else (y0, y1, x0, x1)

    def side(self, compass: str) -> str:
        return "near" if compass == ("S" if self.orient == "ew" else "W") else "far"


def _side_streets(town: _Town, block: Rect) -> dict[str, _Street | None]:
    x0, y0, x1, y1 = block
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return {
        "S": _street_at(town, mx, y0 - 1),
        "N": _street_at(town, mx, y1 + 1),
        "W": _street_at(town, x0 - 1, my),
        "E": _street_at(town, x1 + 1, my),
    }


def _lay_out_block(town: _Town, bi: int, block: Rect) -> None:
    rule = _rule(town, block)
    kind = rule.get("kind", "lots")
    x0, y0, x1, y1 = block
    sides = _side_streets(town, block)
    if kind == "single":
        lengths = {"S": x1 - x0, "N": x1 - x0, "W": y1 - y0, "E": y1 - y0}
        best = max((c for c in "SWNE" if sides[c]), key=lambda c: lengths[c], default=None)
        front = sides[best] if best else None
        town.lots.append(
            _Lot(
                block, bi, front, lengths[best] if best else 0.0, "single", owner_key=rule["owner"]
            )
        )
        return
    if kind == "grid":
        cw, ch = (float(v) for v in rule["cell"])
        nx, ny = max(1, round((x1 - x0) / cw)), max(1, round((y1 - y0) / ch))
        xs = [x0, *(round((x0 + i * (x1 - x0) / nx) * 2) / 2 for i in range(1, nx)), x1]
        ys = [y0, *(round((y0 + j * (y1 - y0) / ny) * 2) / 2 for j in range(1, ny)), y1]
        for j in reversed(range(ny)):
            for i in range(nx):
                cell = (xs[i], ys[j], xs[i + 1], ys[j + 1])
                touching = {"S": j == 0, "N": j == ny - 1, "W": i == 0, "E": i == nx - 1}
                side = next((c for c in "SNWE" if touching[c] and sides[c]), None)
                lot = _Lot(cell, bi, kind="grid")
                if side:
                    lot.front = _street_at(town, *_probe(cell, side))
                    lot.front_ft = (cell[2] - cell[0]) if side in "SN" else (cell[3] - cell[1])
                town.lots.append(lot)
        return
    _lay_out_tiers(town, bi, block, rule, sides)


def _probe(rect: Rect, side: str) -> tuple[float, float]:
    x0, y0, x1, y1 = rect
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    return {"S": (mx, y0 - 1), "N": (mx, y1 + 1), "W": (x0 - 1, my), "E": (x1 + 1, my)}[side]


def _lay_out_tiers(
    town: _Town, bi: int, block: Rect, rule: dict[str, Any], sides: dict[str, _Street | None]
) -> None:
    subjects = [
        (s, town.subject_rects[s["pin"]])
        for s in town.spec.get("subjects", [])
        if s["pin"] in town.subject_rects and _inside(town.subject_rects[s["pin"]], block)
    ]
    orient = rule.get("orient")
    for s, _ in subjects:
        axis = town.by_name[s["street"]].axis
        if orient and orient != axis:
            raise ValueError(f"{s['pin']}: faces {s['street']}, but its block is laid out {orient}")
        orient = axis
    if orient is None:
        orient = "ew" if (block[2] - block[0]) >= (block[3] - block[1]) else "ns"
    fr = _Frame(block, orient)
    near_c, far_c = ("S", "N") if orient == "ew" else ("W", "E")
    near_st, far_st = sides[near_c], sides[far_c]
    depth = fr.v1 - fr.v0
    tiers_n = rule.get("tiers")
    if tiers_n is None:
        tiers_n = 2 if depth >= float(rule.get("min_two_tier", 180)) and near_st and far_st else 1
    subj_uv = [(s, fr.uv(r)) for s, r in subjects]
    tiers: list[tuple[float, float, str]] = []
    if tiers_n == 1:
        if rule.get("front"):
            front = fr.side(rule["front"])
        elif near_st and far_st:
            front = "near" if near_st.row <= far_st.row else "far"
        else:
            front = "far" if far_st and not near_st else "near"
        tiers.append((fr.v0, fr.v1, front))
    else:
        alley = float(rule.get("alley", 0))
        near_depths = {_r(v1 - v0) for _, (_, _, v0, v1) in subj_uv if abs(v0 - fr.v0) < _EPS}
        if len(near_depths) > 1:
            raise ValueError(f"{town.town_id}: subjects of one tier differ in depth")
        dn = near_depths.pop() if near_depths else _r(rule.get("depth", (depth - alley) / 2))
        tiers.append((fr.v0, _r(fr.v0 + dn), "near"))
        tiers.append((_r(fr.v0 + dn + alley), fr.v1, "far"))
        if alley:
            v = _r(fr.v0 + dn + alley / 2)
            town.alleys.append((*fr.xy(fr.u0, v), *fr.xy(fr.u1, v)))
    for tv0, tv1, side in tiers:
        _lay_out_tier(town, bi, fr, rule, (tv0, tv1, side), subj_uv)


def _lay_out_tier(
    town: _Town,
    bi: int,
    fr: _Frame,
    rule: dict[str, Any],
    tier: tuple[float, float, str],
    subj_uv: list[tuple[dict[str, Any], Rect]],
) -> None:
    tv0, tv1, side = tier
    probe_v = fr.v0 - 1 if side == "near" else fr.v1 + 1
    street = _street_at(town, *fr.xy((fr.u0 + fr.u1) / 2, probe_v))
    fixed = []
    for s, (su0, su1, sv0, sv1) in subj_uv:
        if sv0 >= tv0 - _EPS and sv1 <= tv1 + _EPS:
            touches = (
                abs((sv0 if side == "near" else sv1) - (tv0 if side == "near" else tv1)) < _EPS
            )
            if not touches:
                raise ValueError(f"{s['pin']}: does not face its street")
            fixed.append((su0, su1, sv0, sv1, s))
        elif not (sv1 <= tv0 + _EPS or sv0 >= tv1 - _EPS):
            raise ValueError(f"{s['pin']}: straddles two tiers of its block")
    fixed.sort(key=lambda f: f[0])
    cuts: dict[float, tuple[str, str]] = {}  # u → (pin, "begin" | "end")
    for e in town.spec.get("edge_tests", []):
        cut, point = _edge_cut(town, e)
        pu, _, pv, _ = fr.uv((*point, *point))
        if not (fr.u0 < pu < fr.u1 and tv0 < pv < tv1):
            continue
        if (e["side"] in "NS") != (fr.orient == "ns"):
            raise ValueError(f"{e['pin']}: an edge test must run along its tier")
        cuts[cut] = (e["pin"], "begin" if e["side"] in "NE" else "end")
    pieces: list[tuple[float, float, dict[str, Any] | None]] = []
    cursor = fr.u0
    for su0, su1, _, _, s in fixed:
        if su0 - cursor > 0.01:
            pieces.append((cursor, su0, None))
        pieces.append((su0, su1, s))
        cursor = su1
    if fr.u1 - cursor > 0.01:
        pieces.append((cursor, fr.u1, None))
    for a, b, s in pieces:
        if s is not None:
            su0, su1, sv0, sv1 = next(f[:4] for f in fixed if f[4] is s)
            lot = _Lot(fr.rect(su0, su1, sv0, sv1), bi, street, su1 - su0 if street else 0.0)
            lot.subject, lot.pin = s, s["pin"]
            town.lots.append(lot)
            if sv1 - sv0 < tv1 - tv0 - _EPS:  # the rest of the depth, behind the subject
                rv0, rv1 = (sv1, tv1) if side == "near" else (tv0, sv0)
                rest = _Lot(fr.rect(su0, su1, rv0, rv1), bi)
                behind = next(
                    (t for t in town.spec["subjects"] if t.get("behind") == s["pin"]), None
                )
                if behind:
                    rest.subject, rest.pin = behind, behind["pin"]
                town.lots.append(rest)
            continue
        inner = sorted(c for c in cuts if a + _EPS < c < b - _EPS)
        bounds = [a, *inner, b]
        for p, q in itertools.pairwise(bounds):
            stops = [p, *_fill(p, q, rule, town.rng), q]
            for c, d in itertools.pairwise(stops):
                lot = _Lot(fr.rect(c, d, tv0, tv1), bi, street, (d - c) if street else 0.0)
                for at, (pin, end) in cuts.items():
                    if at == (c if end == "begin" else d):
                        lot.pin = pin
                if street is None:  # a corner lot may face the side street
                    ends = []
                    if abs(c - fr.u0) < _EPS:
                        ends.append("W" if fr.orient == "ew" else "S")
                    if abs(d - fr.u1) < _EPS:
                        ends.append("E" if fr.orient == "ew" else "N")
                    for compass in ends:
                        found = _street_at(town, *_probe(lot.rect, compass))
                        if found:
                            lot.front, lot.front_ft = found, tv1 - tv0
                            break
                town.lots.append(lot)


def _edge_cut(town: _Town, e: dict[str, Any]) -> tuple[float, tuple[float, float]]:
    """Where an edge-test lot begins (along its tier) and a point just inside it."""
    x0, y0, x1, y1 = town.subject_rects[e["subject"]]
    d, t, side = float(e["distance"]), float(e["through"]), e["side"]
    if side == "N":
        return _r(y1 + d), (t, _r(y1 + d) + 0.25)
    if side == "S":
        return _r(y0 - d), (t, _r(y0 - d) - 0.25)
    if side == "E":
        return _r(x1 + d), (_r(x1 + d) + 0.25, t)
    return _r(x0 - d), (_r(x0 - d) - 0.25, t)


# ---------------------------------------------------------------------------------------------
# Zoning, addresses, parcel numbers


def _district_at(town: _Town, x: float, y: float) -> str:
    zoning = town.spec["zoning"]
    for area in reversed(zoning.get("areas", [])):
        bx0, by0, bx1, by1 = area["box"]
        if bx0 <= x <= bx1 and by0 <= y <= by1:
            return area["district"]
    return zoning["default"]


def _is_neighbour(town: _Town, x: float, y: float) -> bool:
    n = town.spec["neighbour"]
    at = float(n["at"])
    return {"N": y > at, "S": y < at, "E": x > at, "W": x < at}[n["side"]]


def _classify(town: _Town) -> None:
    spec = town.spec
    districts = spec["zoning"]["districts"]
    south = spec.get("postal_south")
    for lot in town.lots:
        x, y = lot.center
        if _is_neighbour(town, x, y):
            n = spec["neighbour"]
            lot.neighbour, lot.municipality = True, n["municipality"]
            lot.zoning, lot.zip = n["zoning"], n["postal"]["zip"]
            lot.use = "agricultural" if lot.kind == "grid" else "residential"
        else:
            code = _district_at(town, x, y)
            lot.municipality, lot.zoning = spec["municipality"], districts[code]["name"]
            lot.use = districts[code]["use"]
            if lot.kind == "grid" and lot.use == "residential":
                lot.use = "agricultural"
            lot.zip = spec["postal"]["zip"]
            if south and y < float(south["below"]):
                lot.zip = south["zip"]
        if lot.kind in ("single", "canal"):
            lot.use = "public"
        if lot.subject is not None and lot.zoning != lot.subject["district"]:
            raise ValueError(
                f"{lot.pin}: the zoning areas put it in {lot.zoning!r}, the case says {lot.subject['district']!r}"
            )


def _addresses(town: _Town) -> None:
    even_side = town.spec["even_side"]
    used: set[tuple[str, int]] = set()
    for s in town.spec.get("subjects", []):
        m = re.match(r"(\d+) (.+)", s.get("address") or "")
        if m:
            used.add((m.group(2), int(m.group(1))))
    for lot in town.lots:
        if lot.subject is not None:
            lot.site = lot.subject.get("address") or ""
            continue
        st = lot.front
        if st is None:
            continue
        cx, cy = lot.center
        along, side = (cx, "N" if cy > st.at else "S") if st.axis == "ew" else (cy, "E" if cx > st.at else "W")  # fmt: skip
        label = st.label(along)
        n = max(1, int(st.number(along)))
        even = side == even_side[st.axis]
        if (n % 2 == 0) != even:
            n += 1
        while (label, n) in used:
            n += 2
        used.add((label, n))
        lot.site = f"{n} {label}"


def _center(rect: Rect) -> tuple[float, float]:
    return ((rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2)


def _sheet(town: _Town, point: tuple[float, float], size: float) -> tuple[int, int]:
    """Row and column of the assessor's map sheet holding a point, from the extent's top left."""
    x0, _, _, y1 = town.extent
    return (math.floor((y1 - point[1]) / size), math.floor((point[0] - x0) / size))


def _numbers(count: int, taken: set[int], start: int = 1) -> list[int]:
    """`count` numbers from `start` upward, skipping those taken."""
    out, n = [], start
    while len(out) < count:
        if n not in taken:
            out.append(n)
        n += 1
    return out


def _number_sheets(
    sheets: list[tuple[int, int]], forced: dict[tuple[int, int], int], first: int
) -> dict[tuple[int, int], int]:
    """Sheet numbers in reading order from `first`, keeping the subjects' sheets' numbers."""
    rest = sorted(s for s in set(sheets) if s not in forced)
    return {
        **forced,
        **dict(zip(rest, _numbers(len(rest), set(forced.values()), first), strict=True)),
    }


def _order(lot: _Lot) -> tuple[float, float]:
    cx, cy = lot.center
    return (-round(cy, 3), round(cx, 3))


def _block_order(lot: _Lot) -> tuple[float, ...]:
    return (lot.block if lot.block >= 0 else 10**6, *_order(lot))


def _pins(town: _Town, lots: list[_Lot], spec: dict[str, Any], origin: tuple[int, int]) -> None:
    """Number the lots that have no id yet, in the assessor's style, around the subjects' ids."""
    forced = [lot for lot in lots if lot.pin]
    free = [lot for lot in lots if not lot.pin]
    style = spec["style"]
    if style == "map-block-lot":
        _pins_map_block_lot(town, lots, forced, free, spec)
    elif style in ("plat-lot", "book-map-parcel"):
        _pins_by_sheet(town, lots, forced, free, spec)
    elif style == "account":
        taken = {lot.pin for lot in forced}
        n, step, width = int(spec["start"]), int(spec["step"]), int(spec["digits"])
        for lot in sorted(free, key=_block_order):
            while (pin := f"{spec['prefix']}{n:0{width}d}") in taken:
                n += step
            lot.pin, n = pin, n + step
    elif style == "nc-pin":
        taken = {lot.pin for lot in forced}
        for lot in sorted(free, key=_order):
            x, y = (int(c + o) for c, o in zip(lot.center, origin, strict=True))
            while True:  # the 100,000s to the 10s digits of x and y, interleaved
                digits = "".join(
                    a + b for a, b in zip(f"{x:07d}"[1:6], f"{y:07d}"[1:6], strict=True)
                )
                pin = f"{digits[:4]}-{digits[4:6]}-{digits[6:]}"
                if pin not in taken:
                    break
                x += 10
            taken.add(pin)
            lot.pin = pin
    else:
        raise ValueError(f"{town.town_id}: unknown parcel-number style {style!r}")


def _pins_map_block_lot(
    town: _Town, lots: list[_Lot], forced: list[_Lot], free: list[_Lot], spec: dict[str, Any]
) -> None:
    """Map-Block-Lot (East Providence): maps are sheets, blocks are blocks."""
    size = float(spec["sheet"])
    parsed = {lot.pin: tuple(int(p) for p in str(lot.pin).split("-")) for lot in forced}
    forced_maps = {_sheet(town, _center(town.blocks[lot.block]), size): parsed[lot.pin][0] for lot in forced}  # fmt: skip
    maps = _number_sheets(
        [_sheet(town, _center(town.blocks[lot.block]), size) for lot in lots],
        forced_maps,
        int(spec["first"]),
    )
    blocks = {lot.block: parsed[lot.pin][:2] for lot in forced}
    by_map: dict[int, list[int]] = {}
    for bi in sorted({lot.block for lot in lots} - set(blocks)):
        by_map.setdefault(maps[_sheet(town, _center(town.blocks[bi]), size)], []).append(bi)
    for m, bis in by_map.items():
        taken = {b for (mm, b) in blocks.values() if mm == m}
        for bi, n in zip(bis, _numbers(len(bis), taken), strict=True):
            blocks[bi] = (m, n)
    for bi in sorted({lot.block for lot in free}):
        m, b = blocks[bi]
        taken = {p[2] for p in parsed.values() if p[:2] == (m, b)}
        members = sorted((lot for lot in free if lot.block == bi), key=_order)
        for lot, n in zip(members, _numbers(len(members), taken), strict=True):
            lot.pin = f"{m}-{b}-{n}"


def _pins_by_sheet(
    town: _Town, lots: list[_Lot], forced: list[_Lot], free: list[_Lot], spec: dict[str, Any]
) -> None:
    """Plat-Lot (Newport, 11-190) or Book-Map-Parcel (Maricopa County, 501-23-015A)."""
    size, plat_lot = float(spec["sheet"]), spec["style"] == "plat-lot"
    forced_maps: dict[tuple[int, int], int] = {}
    taken: dict[int, set[int]] = {}
    for lot in forced:
        parts = str(lot.pin).split("-")
        sheet, number = (parts[0], parts[1]) if plat_lot else (parts[1], parts[2])
        forced_maps[_sheet(town, lot.center, size)] = int(sheet)
        taken.setdefault(int(sheet), set()).add(int(re.sub(r"\D", "", number)))
    maps = _number_sheets(
        [_sheet(town, lot.center, size) for lot in lots], forced_maps, int(spec["first"])
    )
    groups: dict[int, list[_Lot]] = {}
    for lot in free:
        groups.setdefault(maps[_sheet(town, lot.center, size)], []).append(lot)
    for m, members in sorted(groups.items()):
        members.sort(key=_block_order)
        for lot, n in zip(members, _numbers(len(members), taken.get(m, set())), strict=True):
            if plat_lot:
                lot.pin = f"{m}-{n}"
            else:
                suffix = "A" if town.rng.random() < float(spec.get("suffix_share", 0)) else ""
                lot.pin = f"{spec['book']}-{m:02d}-{n:03d}{suffix}"


# ---------------------------------------------------------------------------------------------
# Owners


def _pick(rng: random.Random, shares: dict[str, float]) -> str:
    x, acc = rng.random() * sum(shares.values()), 0.0
    for key, share in shares.items():
        acc += share
        if x < acc:
            return key
    return next(reversed(shares))


def _norm(name: str) -> str:
    return " ".join(re.sub(r"[^\w&' ]", " ", name.upper()).split())


class _People:
    """Owner names and mailing addresses for one town, never the same name twice."""

    def __init__(self, town: _Town) -> None:
        self.town, self.rng = town, town.rng
        names = town.common["names"]
        self.surnames = [*names["surnames"], *town.spec.get("surnames", [])]
        self.male, self.female = names["given_male"], names["given_female"]
        self.words, self.kinds = names["company_words"], names["company_kinds"]
        self.used: set[str] = set()
        self.streets = sorted({s.name for s in town.streets if s.kind != "canal"} | {s.name_neg for s in town.streets if s.name_neg})  # fmt: skip
        self.streets = [s for s in self.streets if "RAIL" not in s]

    def _first(self, female: bool | None = None) -> str:
        if female is None:
            female = self.rng.random() < 0.5
        return self.rng.choice(self.female if female else self.male)

    def _mi(self) -> str:
        return f" {self.rng.choice('ABCDEFGHJKLMNPRSTW')}" if self.rng.random() < 0.4 else ""

    def _candidate(self, kind: str) -> tuple[str, str]:
        r, last = self.rng, self.rng.choice(self.surnames)
        if kind == "person":
            return f"{last} {self._first()}{self._mi()}", ""
        if kind == "couple":
            return f"{last} {self._first(False)}{self._mi()} & {self._first(True)}{self._mi()}", ""
        if kind == "couple_two_lines":
            return (
                f"{last} {self._first(False)}{self._mi()}",
                f"{last} {self._first(True)}{self._mi()}",
            )
        if kind == "joint":
            return f"{last} {self._first()}", f"{r.choice(self.surnames)} {self._first()}"
        if kind == "llc":
            form = r.random()
            if form < 0.45:
                return f"{r.choice(self.words)} {r.choice(self.kinds)} LLC", ""
            if form < 0.75:
                return f"{last} {r.choice(self.kinds)} LLC", ""
            if form < 0.9:
                return f"{last} & {r.choice(self.surnames)} LLC", ""
            return f"{r.randint(10, 2999)} {r.choice(self.streets)} LLC", ""
        if kind == "inc":
            return f"{r.choice(self.words)} {r.choice(self.kinds)} INC", ""
        if kind == "trust":
            first = self._first()
            trust = r.choice(
                [
                    f"{last} FAMILY TRUST",
                    f"{last} {first}{self._mi()} REVOCABLE TRUST",
                    f"{last} {first} LIVING TRUST",
                ]
            )
            return trust, (f"{last} {first} TRUSTEE" if r.random() < 0.5 else "")
        if kind == "estate":
            return f"{last} {self._first()}{self._mi()} EST", ""
        if kind == "farm":
            return r.choice([f"{last} FAMILY FARMS LLC", f"{last} FARMS INC", f"{last} RANCH LLC", f"{last} LAND & CATTLE CO"]), ""  # fmt: skip
        raise ValueError(f"unknown owner kind {kind!r}")

    def name(self, kind: str) -> tuple[str, str]:
        for _ in range(100):
            name1, name2 = self._candidate(kind)
            if _norm(name1) not in self.used:
                self.used.add(_norm(name1))
                return name1, name2
        raise ValueError("ran out of owner names")

    def _zip(self, zip5: str) -> str:
        share = float(self.town.common["owners"]["zip4_share"])
        return f"{zip5}-{self.rng.randint(1, 9999):04d}" if self.rng.random() < share else zip5

    def mail(self, where: str, lot: _Lot, kind: str) -> tuple[str, str, str, str, str]:
        """Mailing address lines, city, state and ZIP for an owner who mails `where`."""
        r, spec = self.rng, self.town.spec
        names = self.town.common["names"]
        state = spec["state"]
        postal = spec["neighbour"]["postal"] if lot.neighbour else spec["postal"]
        if where == "occupant" and lot.site:
            return lot.site, "", postal["city"], state, self._zip(lot.zip)
        if where in ("occupant", "town"):
            line = f"PO BOX {r.randint(1, 4999)}" if r.random() < 0.2 else f"{r.randint(2, 2999)} {r.choice(self.streets)}"  # fmt: skip
            city, zip5 = postal["city"], postal["zip"]
        elif where == "state":
            city, zip5 = r.choice(spec["in_state"])
            line = f"{r.randint(2, 9999)} {r.choice(names['mail_streets'])}"
        else:
            city, state, zip5 = r.choice([c for c in names["out_of_state"] if c[1] != state])
            line = f"{r.randint(2, 9999)} {r.choice(names['mail_streets'])}"
        line2 = ""
        if not line.startswith("PO BOX"):
            if kind in ("llc", "inc", "trust") and r.random() < 0.12:
                line, line2 = f"C/O {self._first()} {r.choice(self.surnames)}", line
            elif r.random() < 0.1:
                line2 = r.choice(names["units"])
        return line, line2, city, state, self._zip(zip5)


def _variant(text: str, rng: random.Random) -> str:
    """The same name or address written another way: other case, or doubled spaces."""
    if rng.random() < 0.5:
        return text.title()
    words = text.split(" ")
    if len(words) < 2:
        return text.lower().title()
    i = rng.randrange(1, len(words))
    return " ".join(words[:i]) + "  " + " ".join(words[i:])


def _owners(town: _Town) -> None:
    rng, spec, mix = town.rng, town.spec, town.common["owners"]
    people = _People(town)
    institutions = spec.get("institutions", {})
    inst_owners: dict[str, _Owner] = {}
    for key, inst in institutions.items():
        people.used.add(_norm(inst["name"]))
        lines = [*inst["mail"], ""]
        inst_owners[key] = _Owner(inst["name"], "", lines[0], lines[1], inst["city"], inst.get("state", spec["state"]), inst["zip"])  # fmt: skip
    for lot in town.lots:
        if lot.subject is not None:
            o = lot.subject["owner"]
            lines = [*o["mail"], ""]
            lot.owner = _Owner(o["name"], o.get("name2", ""), lines[0], lines[1], o["city"], o["state"], o["zip"])  # fmt: skip
            people.used.add(_norm(o["name"]))
        elif lot.owner_key:
            lot.owner = inst_owners[lot.owner_key]
    open_lots = [lot for lot in town.lots if lot.owner is None]
    for scatter in spec.get("scatter", []):
        box_ = scatter.get("near")
        pool = [
            lot
            for lot in open_lots
            if lot.owner is None
            and lot.kind == "lots"
            and (
                box_ is None
                or (box_[0] <= lot.center[0] <= box_[2] and box_[1] <= lot.center[1] <= box_[3])
            )
        ]
        for lot in rng.sample(pool, min(int(scatter["lots"]), len(pool))):
            lot.owner = inst_owners[scatter["owner"]]
    free = [lot for lot in open_lots if lot.owner is None]
    counts = list(mix["parcels_per_multi_owner"])
    share = float(mix["multi_owner_share"])
    mean_k = sum(counts) / len(counts)
    n_multi = round(share * len(free) / (1 - share + share * mean_k))
    index = {id(lot): i for i, lot in enumerate(free)}
    taken = [False] * len(free)
    for _ in range(n_multi):
        k = rng.choice(counts)
        kind = _pick(rng, mix["kinds"]["multi"])
        name1, name2 = people.name(kind)
        chosen: list[_Lot] = []
        while len(chosen) < k:
            if chosen and rng.random() < 0.5:
                i = index[id(chosen[-1])] + 1
                while i < len(free) and taken[i]:
                    i += 1
                if i >= len(free):
                    continue
            else:
                i = rng.randrange(len(free))
                if taken[i]:
                    continue
            taken[i] = True
            chosen.append(free[i])
        where = _pick(rng, mix["mail"]["multi"])
        mail = people.mail(where, chosen[0], kind)
        owner = _Owner(name1, name2, *mail)
        vary = rng.random() < float(mix["variant_share"])
        for j, lot in enumerate(chosen):
            lot.owner = owner
            if vary and j > 0 and rng.random() < 0.6:
                lot.variant = (True, rng.random() < 0.5)
    for i, lot in enumerate(free):
        if taken[i]:
            continue
        kind = _pick(rng, mix["kinds"][lot.use])
        name1, name2 = people.name(kind)
        where = _pick(rng, mix["mail"][lot.use])
        lot.owner = _Owner(name1, name2, *people.mail(where, lot, kind))


# ---------------------------------------------------------------------------------------------
# Layers


def _ellipse(cx: float, cy: float, rx: float, ry: float) -> Any:
    from shapely import affinity
    from shapely.geometry import Point

    return affinity.scale(Point(cx, cy).buffer(1.0, quad_segs=16), rx, ry)


def build_town(town_id: str, spec: dict[str, Any] | None = None) -> dict[str, Any]:
    """Lay out one sample town: layer name → GeoDataFrame, in the town's output CRS."""
    import geopandas as gpd
    import shapely
    from pyproj import Transformer
    from shapely.geometry import LineString, Polygon, box

    spec = spec or load_spec()
    t = spec["towns"][town_id]
    town = _Town(town_id, t, spec, random.Random(f"sample-town:{town_id}"))  # noqa: S311 - sample data, not secrets
    lon, lat = t["origin"]
    ox, oy = Transformer.from_crs("EPSG:4326", t["measure_crs"], always_xy=True).transform(lon, lat)
    origin = (round(ox), round(oy))
    _streets(town)
    _blocks(town)
    _subject_rects(town)
    for bi, block in enumerate(town.blocks):
        _lay_out_block(town, bi, block)
    _check_subjects(town)
    _classify(town)
    _addresses(town)
    own = [lot for lot in town.lots if not lot.neighbour]
    other = [lot for lot in town.lots if lot.neighbour]
    npin = t["neighbour"].get("pin")
    if npin:
        _pins(town, own, t["pin"], origin)
        _pins(town, other, npin, origin)
    else:
        _pins(town, town.lots, t["pin"], origin)
    pins = [lot.pin for lot in town.lots]
    if len(set(pins)) != len(pins):
        raise ValueError(f"{town_id}: parcel numbers repeat")
    _owners(town)

    def shift(geoms: list[Any]) -> list[Any]:
        return list(shapely.transform(geoms, lambda c: c + origin))

    crs = t["measure_crs"]
    frames: dict[str, Any] = {}
    rows = []
    for lot in town.lots:
        o = lot.owner
        assert o is not None
        name1, mail1 = o.name1, o.mail1
        if lot.variant[0]:
            name1 = _variant(name1, town.rng)
        if lot.variant[1]:
            mail1 = _variant(mail1, town.rng)
        rows.append(
            {
                "PIN": lot.pin,
                "OWNER1": name1,
                "OWNER2": o.name2,
                "MAIL_ADDR1": mail1,
                "MAIL_ADDR2": o.mail2,
                "MAIL_CITY": o.city,
                "MAIL_STATE": o.state,
                "MAIL_ZIP": o.zip,
                "SITE_ADDR": lot.site,
                "TOWN": lot.municipality,
                "ZONING": lot.zoning,
                "LOT_SQFT": round(lot.area, 1),
                "FRONT_FT": round(lot.front_ft, 2),
            }
        )
    frames["parcels"] = gpd.GeoDataFrame(
        rows, geometry=shift([box(*lot.rect) for lot in town.lots]), crs=crs
    )
    x0, y0, x1, y1 = town.extent
    n = t["neighbour"]
    at = float(n["at"])
    halves = {
        "N": (box(x0, y0, x1, at), box(x0, at, x1, y1)),
        "S": (box(x0, at, x1, y1), box(x0, y0, x1, at)),
        "E": (box(x0, y0, at, y1), box(at, y0, x1, y1)),
        "W": (box(at, y0, x1, y1), box(x0, y0, at, y1)),
    }[n["side"]]
    home, away = halves
    frames["municipal_boundaries"] = gpd.GeoDataFrame(
        [
            {"TOWN": t["municipality"], "STATE": t["state"], "COUNCIL_ADDR": t["council_address"]},
            {"TOWN": n["municipality"], "STATE": n["state"], "COUNCIL_ADDR": n["council_address"]},
        ],
        geometry=shift([home, away]),
        crs=crs,
    )
    zoning = t["zoning"]
    remaining = home
    regions: dict[str, list[Any]] = {}
    for area in reversed(zoning.get("areas", [])):
        piece = remaining.intersection(box(*area["box"]))
        remaining = remaining.difference(box(*area["box"]))
        regions.setdefault(area["district"], []).append(piece)
    regions.setdefault(zoning["default"], []).append(remaining)
    zrows, zgeoms = [], []
    for code, info in zoning["districts"].items():
        merged = shapely.union_all(regions.get(code, []))
        for part in getattr(merged, "geoms", [merged]):
            if part.geom_type == "Polygon" and part.area > 1.0:
                zrows.append({"DISTRICT": code, "NAME": info["name"]})
                zgeoms.append(shapely.normalize(part))
    frames["zoning"] = gpd.GeoDataFrame(zrows, geometry=shift(zgeoms), crs=crs)
    srows, sgeoms = [], []
    for s in town.streets:
        if s.kind == "canal":
            continue
        parts = [(s.lo, s.hi)]
        if s.name_neg and s.lo < s.numbers[0] < s.hi:
            parts = [(s.lo, s.numbers[0]), (s.numbers[0], s.hi)]
        for a, b in parts:
            coords = [(a, s.at), (b, s.at)] if s.axis == "ew" else [(s.at, a), (s.at, b)]
            srows.append({"ST_NAME": s.label((a + b) / 2), "KIND": s.kind})
            sgeoms.append(LineString(coords))
    for ax, ay, bx, by in town.alleys:
        srows.append({"ST_NAME": "ALLEY", "KIND": "street"})
        sgeoms.append(LineString([(ax, ay), (bx, by)]))
    frames["streets"] = gpd.GeoDataFrame(srows, geometry=shift(sgeoms), crs=crs)
    wrows, wgeoms = [], []
    for w in t.get("water_sources", []):
        wrows.append(
            {
                "NAME": w["name"],
                "KIND": w["kind"],
                "TOWN": t["municipality"],
                "AGENCY": w["agency"],
                "AGENCY_ADDR": w["agency_address"],
                "SURVEY_FILED": int(w["survey_filed"]),
            }
        )
        wgeoms.append(_ellipse(*(float(v) for v in w["ellipse"])))
    frames["water_sources"] = gpd.GeoDataFrame(wrows, geometry=shift(wgeoms), crs=crs)
    if t.get("airport_zones"):
        frames["airport_zones"] = gpd.GeoDataFrame(
            [
                {"NAME": a["name"], "KIND": a["kind"], "AIRPORT": a["airport"]}
                for a in t["airport_zones"]
            ],
            geometry=shift([Polygon(a["polygon"]) for a in t["airport_zones"]]),
            crs=crs,
        )
    out: dict[str, Any] = {}
    for name in LAYER_FIELDS:
        if name in frames:
            frame = frames[name][[*LAYER_FIELDS[name], "geometry"]]
            out[name] = frame.to_crs(t["crs"]) if t["crs"] != crs else frame
    return out


def _check_subjects(town: _Town) -> None:
    """Every subject and edge-test lot was placed, and the edge tests lie at their distances."""
    placed = {lot.pin: lot for lot in town.lots if lot.pin}
    for s in town.spec.get("subjects", []):
        if s["pin"] not in placed:
            raise ValueError(
                f"{town.town_id}: subject {s['pin']} was not placed (not inside one block?)"
            )
    from shapely.geometry import box

    for e in town.spec.get("edge_tests", []):
        if e["pin"] not in placed:
            raise ValueError(f"{town.town_id}: edge-test lot {e['pin']} was not placed")
        subject = placed[e["subject"]]
        got = box(*subject.rect).distance(box(*placed[e["pin"]].rect))
        if abs(got - float(e["distance"])) > 1e-6:
            raise ValueError(f"{e['pin']}: lies {got} ft from {e['subject']}, not {e['distance']}")


def write_town(layers: dict[str, Any], path: Path) -> None:
    """Write a town's layers to one GeoPackage, replacing the file at once (readers never see half)."""
    partial = path.with_name(f".{path.stem}.{os.getpid()}.gpkg")
    partial.unlink(missing_ok=True)
    for name, frame in layers.items():
        frame.to_file(partial, layer=name, driver="GPKG", engine="pyogrio")
    partial.replace(path)


def generate(out_dir: Path, *, echo: Callable[[str], None] | None = None) -> dict[str, Path]:
    """Write every sample town to `out_dir` as `<town-id>.gpkg`; return town id → path."""
    spec = load_spec()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths: dict[str, Path] = {}
    for town_id in spec["towns"]:
        start = time.perf_counter()
        layers = build_town(town_id, spec)
        path = out_dir / f"{town_id}.gpkg"
        write_town(layers, path)
        paths[town_id] = path
        if echo:
            counts = ", ".join(f"{name} {len(frame)}" for name, frame in layers.items())
            echo(f"{path}: {counts} ({time.perf_counter() - start:.1f} s)")
    return paths


def main(argv: list[str] | None = None) -> int:
    """Command line: `python -m generator.gis.sample_town [OUT_DIR]`."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) > 1 or (args and args[0].startswith("-")):
        print("usage: python -m generator.gis.sample_town [OUT_DIR]", file=sys.stderr)
        return 2
    generate(Path(args[0]) if args else DEFAULT_OUT, echo=print)
    return 0


if __name__ == "__main__":
    sys.exit(main())
