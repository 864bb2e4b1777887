"""Selecting recipients from a county-sized parcel layer: 1,000,000 parcels, 1 and 50 subjects.

Builds a synthetic layer (a grid of 50 × 100 ft lots between 60 ft streets, in Rhode Island
state-plane feet) as a GeoPackage and as GeoParquet, then prints for each: the time to select
the recipients inside the process (read + query, after imports) and the peak memory of that
process, beside the time to load the whole layer, and the wall time of `notices recipients`.

Run: .venv/bin/python bench/recipients.py [--parcels 1000000]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
X0, Y0 = 300_000.0, 200_000.0
LOT_W, LOT_D, STREET = 50.0, 100.0, 60.0
PER_BLOCK_X, PER_BLOCK_Y = 10, 2
FIELDS = (
    "{parcel_id: PIN, owner_name: OWNER1, mail_address1: MAIL_ADDR1, mail_city: MAIL_CITY,"
    " mail_state: MAIL_STATE, mail_zip: MAIL_ZIP, site_address: SITE_ADDR}"
)


def make_layer(n: int, folder: Path) -> tuple[Path, Path, int]:
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
    gpkg, parquet = folder / "county.gpkg", folder / "county.parquet"
    frame.to_file(gpkg, layer="parcels", driver="GPKG", engine="pyogrio")
    frame.iloc[frame.hilbert_distance().argsort()].to_parquet(
        parquet, row_group_size=10_000, write_covering_bbox=True
    )
    return gpkg, parquet, side


def case_file(folder: Path, layer: Path, subjects: list[str]) -> Path:
    text = (ROOT / "cases" / "ep-2027-za-03.yaml").read_text()
    head, rest = text.split("parcels:\n", 1)
    rest = rest.split("area_description:", 1)[1]
    listing = "".join(
        f"  - {{id: {pid}, current_district: R-4, proposed_district: C-2}}\n" for pid in subjects
    )
    name = f"bench-{layer.suffix[1:]}-{len(subjects)}.yaml"
    text = head + "parcels:\n" + listing + "area_description:" + rest
    # The sample's own GIS section (and the comment above it) gives way to the county layer.
    lines = text.split("\ngis:\n", 1)[0].rstrip("\n").split("\n")
    while lines and lines[-1].startswith("#"):
        lines.pop()
    text = "\n".join(lines) + "\n"
    text += f"gis:\n  parcels: {{path: {layer}, layer: parcels, fields: {FIELDS}}}\n"
    (folder / "maps").mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


SELECT = """
import resource, sys, time
from pathlib import Path
from generator.inputs import load_case
from generator.recipients import collect
from generator.rules.loader import resolve
import geopandas, shapely, pyproj  # imports paid before the clock starts
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
frame = geopandas.read_parquet(sys.argv[1]) if sys.argv[1].endswith("parquet") else geopandas.read_file(sys.argv[1], engine="pyogrio", use_arrow=True)
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
    args = parser.parse_args()
    n = args.parcels
    if args.make:
        make_layer(n, args.make)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        start = time.perf_counter()
        # Built in a child process: peak memory (ru_maxrss) is inherited across fork and exec,
        # so this process stays small and the measuring children start clean.
        subprocess.run(
            [sys.executable, __file__, "--parcels", str(n), "--make", str(folder)], check=True
        )
        gpkg, parquet, side = folder / "county.gpkg", folder / "county.parquet", int(n**0.5)
        print(f"built {side * side:,} parcels as GeoPackage ({gpkg.stat().st_size / 1e6:.0f} MB) and GeoParquet "
              f"({parquet.stat().st_size / 1e6:.0f} MB) in {time.perf_counter() - start:.1f} s")  # fmt: skip
        centre = (side // 2) * side + side // 2
        subjects = {
            1: [f"P{centre}"],
            50: [f"P{centre + k * side + m}" for k in range(5) for m in range(10)],
        }
        for layer in (gpkg, parquet):
            load_s, load_mb, count = run(LOAD, str(layer))
            print(
                f"{layer.suffix[1:]:8} load the whole layer ({count} parcels): {load_s} s, peak {load_mb} MB"
            )
            for k, ids in subjects.items():
                case = case_file(folder, layer, ids)
                took, peak, found = run(SELECT, str(case))
                print(f"{layer.suffix[1:]:8} select for {k:2} subject parcel(s): {float(took) * 1000:.0f} ms, "
                      f"peak {peak} MB, {found} recipients (target: < 1 s, < 500 MB)")  # fmt: skip
        case = case_file(folder, gpkg, subjects[1])
        start = time.perf_counter()
        subprocess.run(
            [
                sys.executable,
                "-m",
                "generator",
                "recipients",
                str(case),
                "--out",
                str(folder / "out"),
            ],
            check=True,
            capture_output=True,
            cwd=ROOT,
        )
        print(
            f"`notices recipients` wall time (imports included): {time.perf_counter() - start:.2f} s"
        )


if __name__ == "__main__":
    main()
