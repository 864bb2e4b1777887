"""The recipient list as files: recipients.csv and recipients.geojson."""

from __future__ import annotations

from typing import Any

from generator import csvfile
from generator.recipients.model import ADDRESS_COLUMNS, RecipientList, text

CSV_FIELDS = [
    "recipient",
    "kind",
    "group",
    "delivery",
    "email",
    *ADDRESS_COLUMNS,
    "parcels",
    "rule",
    "citation",
    "distance_ft",
    "flags",
    "merged",
]


def to_csv(result: RecipientList) -> bytes:
    """recipients.csv: one row a recipient, in the list's order."""
    rows = (r.row() for r in result.recipients)
    return csvfile.write(CSV_FIELDS, ([row[k] for k in CSV_FIELDS] for row in rows))


def to_geojson(result: RecipientList) -> bytes:
    """recipients.geojson (RFC 7946, longitude/latitude): subject area, distance lines, notified parcels."""
    import json

    import geopandas as gpd
    import shapely

    rows: list[dict[str, Any]] = []
    if result.subject is not None:
        rows.append({"role": "subject", "geometry": result.subject})
    for distance, geom in sorted(result.buffers.items()):
        rows.append({"role": "distance", "distance_ft": distance, "geometry": geom})
    owners = {p: r for r in result.recipients for p in r.parcels}
    if result.selected is not None:
        for _, row in result.selected.sort_values("parcel_id").iterrows():
            pid = str(row["parcel_id"])
            r = owners.get(pid)
            rows.append(
                {
                    "role": "notified",
                    "parcel_id": pid,
                    "owner": r.name if r else text(row.get("owner_name")),
                    "rule": "; ".join(r.rules) if r else "",
                    "distance_ft": round(float(row["distance_ft"]), 2)
                    if "distance_ft" in row and row["distance_ft"] == row["distance_ft"]
                    else None,
                    "geometry": row.geometry,
                }
            )
    frame = gpd.GeoDataFrame(rows, geometry="geometry", crs=result.crs).to_crs("EPSG:4326")
    frame["geometry"] = shapely.set_precision(frame.geometry.values, 1e-7)
    data = json.loads(frame.to_json(drop_id=True))
    return (json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
