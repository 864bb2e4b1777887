"""PostGIS as a parcel store (issue 16, item 5): a real throwaway cluster, the sample towns loaded.

The same case read from the GeoPackage and from PostGIS gives the same recipients, and the
parcels it selects are those PostGIS's own ST_DWithin finds. Bad URLs, missing tables and
columns, a server that is down and injection attempts end in one clear message (exit 2).
The cluster tests are slow (`--slow`); without PostGIS installed they fail, never skip.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from generator.inputs import load_case

from .conftest import CASES, ROOT, notices, write_case
from .postgis import Cluster, cluster, load

# Two sample map cases: East Providence (parcels in RI state-plane feet, as measured) and
# Saguaro Wells (parcels in longitude/latitude, measured in AZ state-plane feet).
TOWNS = {"ep-2027-za-03": "ri-east-providence", "az-2027-map-01": "az-saguaro-wells"}
TABLES = {"ep-2027-za-03": "public.ri_parcels", "az-2027-map-01": "county.az_parcels"}


def on_table(case: str, url: str, tmp_path: Path, name: str | None = None) -> Path:
    """The sample case with its parcel layer read from `url` instead of its GeoPackage."""
    text = (CASES / f"{case}.yaml").read_text()
    old = f"path: ../data/gis/{TOWNS[case]}.gpkg, layer: parcels,"
    assert old in text
    return write_case(tmp_path, text.replace(old, f"path: '{url}',"), name or f"{case}.yaml")


@pytest.fixture(scope="module")
def db() -> Iterator[Cluster]:
    import geopandas as gpd

    with cluster() as found:
        with found.connect() as conn:
            conn.execute("CREATE SCHEMA county")
        for case, table in TABLES.items():
            gpkg = ROOT / "data" / "gis" / f"{TOWNS[case]}.gpkg"
            frame = gpd.read_file(gpkg, layer="parcels", fid_as_index=True)
            load(found, frame, table, key="fid")
        yield found


def collected(path: Path) -> object:
    from generator.recipients import collect
    from generator.rules.loader import resolve

    cf = load_case(path)
    return collect(cf, resolve(cf.case.jurisdiction))


def letters(result: object) -> list[dict[str, object]]:
    """Every field of every letter; the parcels of one owner in id order (a GeoPackage gives
    the rows of a box in its R-tree's order, PostGIS in its primary key's)."""
    found = [dataclasses.asdict(r) for r in result.recipients]  # type: ignore[attr-defined]
    for r in found:
        r["parcels"] = sorted(r["parcels"])
    return sorted(found, key=lambda r: (r["name"], r["lines"], r["parcels"]))


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(TOWNS))
def test_postgis_gives_the_recipients_the_geopackage_and_st_dwithin_give(
    db: Cluster, case: str, tmp_path: Path
) -> None:
    from_file = collected(CASES / f"{case}.yaml")
    from_db = collected(on_table(case, db.url(TABLES[case]), tmp_path))
    assert letters(from_db) == letters(from_file)
    assert len(from_db.recipients) > 5  # type: ignore[attr-defined]

    # Independently of our selection: PostGIS's ST_DWithin in the measuring CRS, from the
    # union of the subject parcels, at the largest distance a rule of the case measures.
    rules = from_db.provenance["rules"]  # type: ignore[attr-defined]
    reach = max(r["distance_ft"] or 0 for r in rules)
    srid = int(from_db.crs.to_epsg())  # type: ignore[attr-defined]
    subjects = [p.id for p in load_case(CASES / f"{case}.yaml").case.parcels]
    with db.connect() as conn:
        found = {
            row[0]
            for row in conn.execute(
                f'SELECT p."PIN" FROM {TABLES[case]} p,'  # noqa: S608 - our own table names
                " (SELECT ST_Union(ST_Transform(geom, %(srid)s)) AS g FROM "
                f'{TABLES[case]} WHERE "PIN" = ANY(%(ids)s)) s'
                " WHERE ST_DWithin(ST_Transform(p.geom, %(srid)s), s.g, %(reach)s)",
                {"srid": srid, "ids": subjects, "reach": reach},
            )
        }
    selected = set(from_db.selected["parcel_id"].astype(str))  # type: ignore[attr-defined]
    assert selected == found
    assert reach > 0 and len(found) > len(subjects)


@pytest.mark.slow
def test_the_record_names_the_table_its_rows_and_change_marker_not_a_password(
    db: Cluster, tmp_path: Path
) -> None:
    case = on_table("ep-2027-za-03", db.url(TABLES["ep-2027-za-03"]), tmp_path)
    run = notices("recipients", str(case), "--out", str(tmp_path / "out"), "--format", "json")
    assert run.returncode in (0, 1), run.stderr
    layer = json.loads(run.stdout)["recipients"]["layers"][0]
    with db.connect() as conn:
        rows = conn.execute(f"SELECT count(*) FROM {TABLES['ep-2027-za-03']}").fetchone()[0]  # noqa: S608
    assert layer["table"] == "public.ri_parcels" and layer["rows"] == rows
    assert layer["crs"] == "EPSG:3438" and layer["path"] == "postgresql://postgres@/county"
    assert re.fullmatch(r"\d+-\d+-\d+-\d+", layer["change_marker"])
    text = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert f"table public.ri_parcels, {rows:,} rows, change marker" in text.stdout, text.stderr


@pytest.mark.slow
def test_an_injection_in_a_parcel_id_or_the_table_name_is_only_data(
    db: Cluster, tmp_path: Path
) -> None:
    hostile = "x' OR '1'='1"
    case = on_table("ep-2027-za-03", db.url(TABLES["ep-2027-za-03"]), tmp_path)
    case.write_text(case.read_text().replace("  - id: 107-4-12\n", f'  - id: "{hostile}"\n'))
    run = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 2, run.stderr
    assert f"{hostile} not found" in run.stderr and "Traceback" not in run.stderr

    for table in ("public.ri_parcels; DROP TABLE public.ri_parcels", 'ri_parcels" CASCADE; --'):
        bad = on_table("ep-2027-za-03", db.url(table.replace(" ", "%20")), tmp_path, "bad.yaml")
        run = notices("recipients", str(bad), "--out", str(tmp_path / "out"))
        assert run.returncode == 2, run.stderr
        assert "gis.parcels.path" in run.stderr and "no table" in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
    with db.connect() as conn:
        assert conn.execute("SELECT count(*) FROM public.ri_parcels").fetchone()[0] > 0


@pytest.mark.slow
def test_a_missing_table_column_geometry_or_server_is_one_clear_message(
    db: Cluster, tmp_path: Path
) -> None:
    with db.connect() as conn:
        conn.execute('CREATE TABLE IF NOT EXISTS public.no_geometry ("PIN" text)')
    urls = {
        db.url("public.nowhere"): "no table 'public.nowhere'",
        db.url("public.no_geometry"): "geometry columns: none",
        db.url(TABLES["ep-2027-za-03"], geometry="shape"): "no geometry column 'shape'",
        db.url(TABLES["ep-2027-za-03"]).replace(
            str(db.socket_dir), "/nonexistent"
        ): "cannot connect",
    }
    for url, message in urls.items():
        case = on_table("ep-2027-za-03", url, tmp_path)
        run = notices("recipients", str(case), "--out", str(tmp_path / "out"))
        assert run.returncode == 2, (url, run.stderr)
        assert "gis.parcels.path" in run.stderr and message in run.stderr, run.stderr
        assert "Traceback" not in run.stderr
    case = on_table("ep-2027-za-03", db.url(TABLES["ep-2027-za-03"]), tmp_path)
    case.write_text(case.read_text().replace("owner_name: OWNER1,", "owner_name: OWNER_X,"))
    run = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 2 and "no field 'OWNER_X'" in run.stderr, run.stderr
    assert "gis.parcels.fields.owner_name" in run.stderr


@pytest.mark.slow
def test_a_table_without_spatial_index_is_read_right_with_a_warning(
    db: Cluster, tmp_path: Path
) -> None:
    with db.connect() as conn:
        conn.execute(
            "CREATE TABLE IF NOT EXISTS public.unindexed AS SELECT * FROM public.ri_parcels"
        )
        conn.execute(
            "ALTER TABLE public.unindexed ADD COLUMN IF NOT EXISTS other geometry(Point, 3438)"
        )
    from_file = collected(CASES / "ep-2027-za-03.yaml")
    # Two geometry columns: which one is read is said in the URL.
    run = notices("recipients", str(on_table("ep-2027-za-03", db.url("public.unindexed"), tmp_path)), "--out", str(tmp_path / "o"))  # fmt: skip
    assert run.returncode == 2 and "&geometry=NAME" in run.stderr, run.stderr
    case = on_table("ep-2027-za-03", db.url("public.unindexed", geometry="geom"), tmp_path)
    run = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode in (0, 1), run.stderr
    assert "has no spatial index on 'geom'" in run.stderr
    assert letters(collected(case)) == letters(from_file)


def test_a_password_in_the_url_is_refused_and_not_echoed(tmp_path: Path) -> None:
    """Fast: the case is refused when read, before any connection is tried."""
    for url, message in {
        "postgresql://clerk:s3cret-pw@gis.example.org/county?table=parcels": "a password does not belong in the case",
        "postgresql://clerk@gis.example.org/county?table=parcels&password=s3cret-pw": "PGPASSWORD",
        "postgresql://clerk@gis.example.org/county": "name the table",
    }.items():  # fmt: skip
        case = on_table("ep-2027-za-03", url, tmp_path)
        run = notices(
            "recipients", str(case), "--out", str(tmp_path / "out"), env={"PGCONNECT_TIMEOUT": "1"}
        )
        assert run.returncode == 2, run.stderr
        assert message in run.stderr and "gis.parcels.path" in run.stderr, run.stderr
        assert "s3cret-pw" not in run.stderr + run.stdout
        assert re.search(r"ep-2027-za-03\.yaml:\d+", run.stderr), run.stderr
