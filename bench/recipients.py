"""Selecting recipients from a county-sized parcel layer: 1,000,000 parcels, 1 and 50 subjects.

Builds a synthetic layer (a grid of 50 × 100 ft lots between 60 ft streets, in Rhode Island
state-plane feet) as a GeoPackage, as GeoParquet and as a PostGIS table (in a throwaway cluster,
tests/postgis.py: Debian's postgresql-15-postgis-3 must be installed), then prints for each:
the time to load the layer into the store and to build its spatial index (GeoPackage: the
R-tree, the difference between writing with and without it; GeoParquet: the Hilbert sort that
makes its row groups' boxes small; PostGIS: COPY, then CREATE INDEX USING GIST, ANALYZE and the primary key on the parcel id),
the time to select the recipients inside the process (read + query, after imports) and the peak
memory of that process, beside the time to read the whole layer, and the wall time of
`notices recipients`.

Run: .venv/bin/python bench/recipients.py [--parcels 1000000]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/postgis.py: the throwaway cluster the tests use too
X0, Y0 = 300_000.0, 200_000.0
LOT_W, LOT_D, STREET = 50.0, 100.0, 60.0
PER_BLOCK_X, PER_BLOCK_Y = 10, 2
FIELDS = (
    "{parcel_id: PIN, owner_name: OWNER1, mail_address1: MAIL_ADDR1, mail_city: MAIL_CITY,"
    " mail_state: MAIL_STATE, mail_zip: MAIL_ZIP, site_address: SITE_ADDR}"
)


def make_layer(n: int, folder: Path, url: str | None) -> dict[str, float]:
    """Write the layer to each store; return the seconds each load and index took."""
    import geopandas as gpd
    import numpy as np
    import shapely

    side = int(n**0.5)
    i, j = np.meshgrid(np.arange(side), np.arange(side), indexing="ij")
    i, j = i.ravel(), j.ravel()
    x = X0 + i * LOT_W + (i // PER_BLOCK_X) * STREET
    y = Y0 + j * LOT_D + (j // PER_BLOCK_Y) * STREET
    geoms = shapely.box(x, y, x + LOT_W, y + LOT_D)
    owners = np.char.add(
        "OWNER ", (np.arange(len(geoms)) // 3).astype(str)
    )  # some own several lots
    frame = gpd.GeoDataFrame(
        {
            "PIN": np.char.add("P", np.arange(len(geoms)).astype(str)),
            "OWNER1": owners,
            "MAIL_ADDR1": np.char.add(np.arange(len(geoms)).astype(str), " MAIN ST"),
            "MAIL_CITY": "EAST PROVIDENCE",
            "MAIL_STATE": "RI",
            "MAIL_ZIP": "02914",
            "SITE_ADDR": np.char.add(np.arange(len(geoms)).astype(str), " ELM ST"),
        },
        geometry=geoms,
        crs="EPSG:3438",
    )
    took: dict[str, float] = {}
    gpkg, parquet = folder / "county.gpkg", folder / "county.parquet"
    start = time.perf_counter()
    frame.to_file(folder / "bare.gpkg", layer="parcels", driver="GPKG", engine="pyogrio",
                  layer_options={"SPATIAL_INDEX": "NO"})  # fmt: skip
    took["gpkg_load"] = time.perf_counter() - start
    (folder / "bare.gpkg").unlink()
    start = time.perf_counter()
    frame.to_file(gpkg, layer="parcels", driver="GPKG", engine="pyogrio")
    took["gpkg_index"] = max(time.perf_counter() - start - took["gpkg_load"], 0.0)
    start = time.perf_counter()
    ordered = frame.iloc[frame.hilbert_distance().argsort()]
    took["parquet_index"] = time.perf_counter() - start
    start = time.perf_counter()
    ordered.to_parquet(parquet, row_group_size=10_000, write_covering_bbox=True)
    took["parquet_load"] = time.perf_counter() - start
    if url:
        from tests.postgis import create_index, load, socket_cluster

        db = socket_cluster(url)
        start = time.perf_counter()
        load(db, frame, "public.parcels", index=False)
        took["postgis_load"] = time.perf_counter() - start
        start = time.perf_counter()
        create_index(db, "public.parcels")
        with db.connect() as conn:  # a county's table is keyed on the parcel id
            conn.execute('ALTER TABLE public.parcels ADD PRIMARY KEY ("PIN")')
        took["postgis_index"] = time.perf_counter() - start
    return took


def case_file(folder: Path, store: str, path: str, subjects: list[str]) -> Path:
    text = (ROOT / "cases" / "ep-2027-za-03.yaml").read_text()
    head, rest = text.split("parcels:\n", 1)
    rest = rest.split("area_description:", 1)[1]
    listing = "".join(
        f"  - {{id: {pid}, current_district: R-4, proposed_district: C-2}}\n" for pid in subjects
    )
    name = f"bench-{store}-{len(subjects)}.yaml"
    text = head + "parcels:\n" + listing + "area_description:" + rest
    # The sample's own GIS section (and the comment above it) gives way to the county layer.
    lines = text.split("\ngis:\n", 1)[0].rstrip("\n").split("\n")
    while lines and lines[-1].startswith("#"):
        lines.pop()
    text = "\n".join(lines) + "\n"
    layer = "" if store == "postgis" else " layer: parcels,"
    text += f"gis:\n  parcels: {{path: '{path}',{layer} fields: {FIELDS}}}\n"
    (folder / "maps").mkdir(exist_ok=True)
    path_out = folder / name
    path_out.write_text(text)
    return path_out


SELECT = """
import resource, sys, time
from pathlib import Path
from generator.inputs import load_case
from generator.recipients import collect
from generator.rules.loader import resolve
import geopandas, shapely, pyproj, psycopg  # imports paid before the clock starts
cf = load_case(Path(sys.argv[1])); pack = resolve(cf.case.jurisdiction)
start = time.perf_counter()
found = collect(cf, pack)
took = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{took:.3f} {peak:.0f} {len(found.recipients)}")
"""

LOAD = """
import resource, sys, time
import geopandas
start = time.perf_counter()
arg = sys.argv[1]
if arg.startswith("postgresql://"):
    import psycopg, shapely
    from urllib.parse import parse_qsl, urlsplit
    q = dict(parse_qsl(urlsplit(arg).query))
    cols = ["PIN", "OWNER1", "MAIL_ADDR1", "MAIL_CITY", "MAIL_STATE", "MAIL_ZIP", "SITE_ADDR"]
    listed = ", ".join(f'"{c}"' for c in cols)
    with psycopg.connect(host=q["host"], port=q["port"], dbname="county", user="postgres") as conn:
        rows = conn.execute(f"SELECT {listed}, ST_AsBinary(geom) FROM parcels").fetchall()
    data = {c: [r[i] for r in rows] for i, c in enumerate(cols)}
    frame = geopandas.GeoDataFrame(data, geometry=shapely.from_wkb([r[-1] for r in rows]), crs="EPSG:3438")
elif arg.endswith("parquet"):
    frame = geopandas.read_parquet(arg)
else:
    frame = geopandas.read_file(arg, engine="pyogrio", use_arrow=True)
took = time.perf_counter() - start
print(f"{took:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} {len(frame)}")
"""


def run(code: str, *args: str) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", code, *args], check=True, capture_output=True, text=True, cwd=ROOT
    )
    return out.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--parcels", type=int, default=1_000_000)
    parser.add_argument("--make", type=Path, help=argparse.SUPPRESS)  # internal: build in a child
    parser.add_argument("--url", help=argparse.SUPPRESS)  # internal: the cluster to load
    args = parser.parse_args()
    n = args.parcels
    if args.make:
        print(json.dumps(make_layer(n, args.make, args.url)))
        return
    from tests.postgis import cluster

    with tempfile.TemporaryDirectory() as tmp, cluster() as db:
        folder = Path(tmp)
        url = db.url("public.parcels")
        start = time.perf_counter()
        # Built in a child process: peak memory (ru_maxrss) is inherited across fork and exec,
        # so this process stays small and the measuring children start clean.
        made = subprocess.run(
            [sys.executable, __file__, "--parcels", str(n), "--make", str(folder), "--url", url],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        took = json.loads(made.stdout.splitlines()[-1])
        gpkg, parquet, side = folder / "county.gpkg", folder / "county.parquet", int(n**0.5)
        print(f"built {side * side:,} parcels as GeoPackage ({gpkg.stat().st_size / 1e6:.0f} MB), GeoParquet "
              f"({parquet.stat().st_size / 1e6:.0f} MB) and a PostGIS table in {time.perf_counter() - start:.1f} s")  # fmt: skip
        centre = (side // 2) * side + side // 2
        subjects = {
            1: [f"P{centre}"],
            50: [f"P{centre + k * side + m}" for k in range(5) for m in range(10)],
        }
        stores = {"gpkg": str(gpkg), "parquet": str(parquet), "postgis": url}
        for store, path in stores.items():
            print(
                f"{store:8} load {took[store + '_load']:.2f} s, spatial index {took[store + '_index']:.2f} s"
            )
            load_s, load_mb, count = run(LOAD, path)
            print(
                f"{store:8} read the whole layer ({count} parcels): {load_s} s, peak {load_mb} MB"
            )
            for k, ids in subjects.items():
                case = case_file(folder, store, path, ids)
                took_s, peak, found = run(SELECT, str(case))
                print(f"{store:8} select for {k:2} subject parcel(s): {float(took_s) * 1000:.0f} ms, "
                      f"peak {peak} MB, {found} recipients (target: < 1 s, < 500 MB)")  # fmt: skip
        for store in ("gpkg", "postgis"):
            case = case_file(folder, store, stores[store], subjects[1])
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "generator", "recipients", str(case), "--out", str(folder / "out")],
                check=True, capture_output=True, cwd=ROOT,
            )  # fmt: skip
            print(f"`notices recipients` wall time (imports included), {store}: "
                  f"{time.perf_counter() - start:.2f} s")  # fmt: skip


if __name__ == "__main__":
    main()
