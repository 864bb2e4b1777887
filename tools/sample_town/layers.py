"""One sample town laid out, step by step, and turned into its GIS layers (GeoDataFrames)."""

from __future__ import annotations

import random
from typing import Any

from tools.sample_town.assessor import _addresses, _classify, _pins
from tools.sample_town.lots import _check_subjects, _lay_out_block, _subject_rects
from tools.sample_town.owners import _owners, _variant
from tools.sample_town.streets import _blocks, _streets
from tools.sample_town.town import _Town, load_spec

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
