"""Blocks cut into lots: one or two tiers facing their streets, around the cases' subjects.

The subjects and the edge-test lots are placed where the spec says, and checked to be there.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from tools.sample_town.streets import _street_at
from tools.sample_town.town import _EPS, Rect, _Lot, _r, _rect, _Street, _Town


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
