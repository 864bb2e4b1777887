"""Streets and blocks: rights-of-way from the spec, and the rectangles of land between them."""

from __future__ import annotations

from typing import Any

from tools.sample_town.town import _EPS, Rect, _Lot, _r, _rect, _Street, _Town, _triple


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
