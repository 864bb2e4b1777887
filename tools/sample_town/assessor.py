"""What the assessor records of a lot: municipality, district and use, site address, parcel number."""

from __future__ import annotations

import math
import re
from typing import Any

from tools.sample_town.town import Rect, _Lot, _Town


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
