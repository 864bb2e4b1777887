"""The sample towns: layers, fields and CRS; the cases' subject parcels; owners; determinism."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

gpd = pytest.importorskip("geopandas")
import pandas as pd  # noqa: E402 - after the skip: GIS extras may be missing
import pyogrio  # noqa: E402
import shapely  # noqa: E402

from tools.sample_town import LAYER_FIELDS, generate, load_spec, main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SPEC = load_spec()
CASES = [
    "ep-2027-za-03",
    "newport-2027-map-01",
    "newport-2027-text-01",
    "ok-2027-map-01",
    "az-2027-map-01",
    "az-2027-posting-01",
    "shelby-2027-map-01",
    "shelby-2027-cd-01",
    "tx-2027-map-01",
    "ga-2027-map-01",
    "fl-2027-map-01",
    "fl-2027-map-02",
    "va-2027-map-01",
    "pa-2027-map-01",
]
# town: (CRS the layers are written in, CRS to measure in)
CRS = {
    "ri-east-providence": ("EPSG:3438", "EPSG:3438"),
    "ri-newport": ("EPSG:3438", "EPSG:3438"),
    "ok-sample-city": ("EPSG:2267", "EPSG:2267"),
    "az-saguaro-wells": ("EPSG:4326", "EPSG:2223"),
    "nc-shelby": ("EPSG:2264", "EPSG:2264"),
    "tx-pecan-grove": ("EPSG:2276", "EPSG:2276"),
    "ga-oconee-bluff": ("EPSG:2240", "EPSG:2240"),
    "fl-sabal-springs": ("EPSG:2236", "EPSG:2236"),
    "va-sample-city": ("EPSG:2284", "EPSG:2284"),
    "pa-sample-township": ("EPSG:2272", "EPSG:2272"),
}
TOWN_OF = {t["jurisdiction"]: town for town, t in SPEC["towns"].items()}
SQFT_PER = {"acres": 43560.0, "sq_ft": 1.0}


@pytest.fixture(scope="module")
def towns(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return generate(tmp_path_factory.mktemp("towns"))


def layer(towns: dict[str, Path], town: str, name: str, *, measure: bool = True):
    frame = gpd.read_file(towns[town], layer=name)
    return frame.to_crs(CRS[town][1]) if measure else frame


def case(name: str) -> dict:
    return yaml.safe_load((ROOT / "cases" / f"{name}.yaml").read_text(encoding="utf-8"))


def subject(towns: dict[str, Path], town: str, *pins: str):
    parcels = layer(towns, town, "parcels")
    return shapely.union_all(parcels[parcels["PIN"].isin(pins)].geometry.values)


def norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w&' ]", " ", text.upper()).split())


def test_every_town_has_its_layers_fields_and_crs(towns: dict[str, Path]) -> None:
    assert sorted(towns) == sorted(CRS)
    for town, path in towns.items():
        assert path.name == f"{town}.gpkg"
        found = dict(pyogrio.list_layers(path))
        expected = [n for n in LAYER_FIELDS if n != "airport_zones" or town == "az-saguaro-wells"]
        assert sorted(found) == sorted(expected), town
        for name in expected:
            info = pyogrio.read_info(path, layer=name)
            assert list(info["fields"]) == list(LAYER_FIELDS[name]), (town, name)
            assert gpd.read_file(path, layer=name, rows=1).crs == CRS[town][0], (town, name)
            assert found[name] == ("LineString" if name == "streets" else "Polygon"), (town, name)
            assert info["features"] > 0, (town, name)
        assert 1500 <= pyogrio.read_info(path, layer="parcels")["features"] <= 5000


def test_longitude_latitude_town_lies_west_of_luke_afb(towns: dict[str, Path]) -> None:
    x0, y0, x1, y1 = layer(towns, "az-saguaro-wells", "parcels", measure=False).total_bounds
    assert -112.48 < x0 < x1 < -112.40 and 33.52 < y0 < y1 < 33.58  # Luke AFB: -112.38, 33.54


def test_subject_parcels_of_every_case_exist_once_with_the_case_district_and_area(
    towns: dict[str, Path],
) -> None:
    checked = 0
    for name in CASES:
        data = case(name)
        town = TOWN_OF[data["jurisdiction"]]
        assert name in SPEC["towns"][town]["cases"]
        parcels = layer(towns, town, "parcels")
        for p in data.get("parcels", []):
            rows = parcels[parcels["PIN"] == p["id"]]
            assert len(rows) == 1, (name, p["id"])
            row = rows.iloc[0]
            assert row["ZONING"] == p["current_district"], (name, p["id"])
            assert row["TOWN"] == data["municipality"]
            want = p["area"]["value"] * SQFT_PER[p["area"]["unit"]]
            assert abs(row.geometry.area - want) / want < 0.01, (name, p["id"], row.geometry.area)
            assert abs(row["LOT_SQFT"] - row.geometry.area) < 1.0
            if p.get("address"):
                number = p["address"].split()[0]
                assert row["SITE_ADDR"].startswith(number + " "), (name, row["SITE_ADDR"])
            checked += 1
    assert checked == 22


def test_geometries_are_valid_and_parcels_do_not_overlap(towns: dict[str, Path]) -> None:
    for town in towns:
        for name in pyogrio.list_layers(towns[town])[:, 0]:
            frame = layer(towns, town, name, measure=False)
            assert frame.geometry.is_valid.all() and not frame.geometry.is_empty.any(), (town, name)
        parcels = layer(towns, town, "parcels")
        assert parcels["PIN"].is_unique, town
        geoms = parcels.geometry.values
        tree = shapely.STRtree(geoms)
        left, right = tree.query(geoms, predicate="intersects")
        pairs = left < right
        overlap = shapely.area(shapely.intersection(geoms[left[pairs]], geoms[right[pairs]]))
        assert (overlap < 0.01).all(), town


def test_zoning_covers_the_town_and_agrees_with_the_parcels(towns: dict[str, Path]) -> None:
    for town, spec in SPEC["towns"].items():
        zoning = layer(towns, town, "zoning")
        names = {d["name"]: code for code, d in spec["zoning"]["districts"].items()}
        assert set(zip(zoning["DISTRICT"], zoning["NAME"], strict=True)) <= {
            (code, name) for name, code in names.items()
        }
        bounds = layer(towns, town, "municipal_boundaries")
        home = bounds[bounds["TOWN"] == spec["municipality"]].geometry.iloc[0]
        covered = shapely.union_all(zoning.geometry.values)
        assert home.difference(covered).area < 1.0 and covered.difference(home).area < 1.0
        parcels = layer(towns, town, "parcels")
        own = parcels[parcels["TOWN"] == spec["municipality"]]
        assert set(own["ZONING"]) <= set(names), town
        for district, lots in own.groupby("ZONING"):
            area = shapely.union_all(zoning[zoning["NAME"] == district].geometry.values)
            inside = shapely.area(shapely.intersection(lots.geometry.values, area))
            assert (inside >= 0.99 * shapely.area(lots.geometry.values)).all(), (town, district)


def test_a_parcel_across_the_municipal_boundary_lies_within_200_ft(
    towns: dict[str, Path],
) -> None:
    for town, spec in SPEC["towns"].items():
        parcels = layer(towns, town, "parcels")
        neighbour = spec["neighbour"]["municipality"]
        assert set(parcels["TOWN"]) == {spec["municipality"], neighbour}
        own = parcels[parcels["TOWN"] == spec["municipality"]].geometry.values
        other = parcels[parcels["TOWN"] == neighbour].geometry.values
        hits = shapely.STRtree(other).query(own, predicate="dwithin", distance=200.0)
        assert hits.size, town
        bounds = layer(towns, town, "municipal_boundaries")
        assert list(bounds["TOWN"]) == [spec["municipality"], neighbour]
        assert all(bounds["COUNCIL_ADDR"].str.len() > 20)


def test_the_ri_cases_have_no_municipality_within_200_ft_nor_water_within_2000_ft(
    towns: dict[str, Path],
) -> None:
    for town, pins in (("ri-east-providence", ["107-4-12"]), ("ri-newport", ["11-190", "11-191"])):
        area = subject(towns, town, *pins)
        bounds = layer(towns, town, "municipal_boundaries")
        others = bounds[bounds["TOWN"] != SPEC["towns"][town]["municipality"]]
        assert (others.distance(area) > 200).all(), town
        water = layer(towns, town, "water_sources")
        reservoirs = water[water["KIND"] == "reservoir"]
        assert len(reservoirs) and (reservoirs.distance(area) > 2000).all(), town
        home = bounds[bounds["TOWN"] == SPEC["towns"][town]["municipality"]].geometry.iloc[0]
        assert reservoirs.within(home).all() and (reservoirs["SURVEY_FILED"] == 1).all()


def test_parcels_at_exactly_200_and_200_01_ft_from_the_east_providence_subject(
    towns: dict[str, Path],
) -> None:
    parcels = layer(towns, "ri-east-providence", "parcels").set_index("PIN")
    area = parcels.geometry["107-4-12"]
    for e in SPEC["towns"]["ri-east-providence"]["edge_tests"]:
        geom = parcels.geometry[e["pin"]]
        assert abs(area.distance(geom) - e["distance"]) < 1e-6
    at_200 = parcels.geometry["107-4-15"]
    assert area.distance(at_200) == 200.0 and shapely.dwithin(area, at_200, 200.0)
    beyond = parcels.geometry["107-4-16"]
    assert area.distance(beyond) > 200.0 and not shapely.dwithin(area, beyond, 200.0)


def test_saguaro_wells_airport_zones_cover_the_rezoning_but_not_the_shopping_center(
    towns: dict[str, Path],
) -> None:
    zones = layer(towns, "az-saguaro-wells", "airport_zones")
    assert set(zones["KIND"]) == {"vicinity", "high_noise", "accident_potential"}
    assert set(zones["AIRPORT"]) == {"Luke Air Force Base"}
    rezoning = subject(towns, "az-saguaro-wells", "501-23-014", "501-23-015A", "501-23-016")
    shopping = subject(towns, "az-saguaro-wells", "501-31-007B")
    for kind in ("vicinity", "high_noise"):
        geom = zones[zones["KIND"] == kind].geometry.iloc[0]
        assert geom.covers(rezoning) and not geom.intersects(shopping), kind
    assert not zones.intersects(shopping).any()
    bounds = layer(towns, "az-saguaro-wells", "municipal_boundaries").set_index("TOWN")
    county = bounds.geometry["unincorporated Maricopa County"]
    assert county.distance(rezoning) == pytest.approx(0, abs=1e-3)  # abuts the county
    assert county.distance(shopping) > 300
    parcels = layer(towns, "az-saguaro-wells", "parcels")
    commercial = parcels[parcels["ZONING"].str.match(r"C-[23] ")]
    vicinity = zones[zones["KIND"] == "vicinity"].geometry.iloc[0]
    assert len(commercial) and not commercial.intersects(vicinity).any()  # ZTA-2027-02's premise


def test_shelby_parcels_abut_across_a_street_and_a_railroad_beyond_100_ft(
    towns: dict[str, Path],
) -> None:
    parcels = layer(towns, "nc-shelby", "parcels")
    streets = layer(towns, "nc-shelby", "streets")
    for pins, kind in (
        (["2564-19-6840", "2564-19-7813"], "railroad"),
        (["2553-86-1294"], "street"),
    ):
        area = subject(towns, "nc-shelby", *pins)
        lines = streets[streets["KIND"] == kind].geometry.values
        found = []
        for pin, geom in zip(parcels["PIN"], parcels.geometry.values, strict=True):
            d = area.distance(geom)
            if 100 < d <= 120:
                a, b = shapely.ops.nearest_points(area, geom)
                if shapely.intersects(shapely.LineString([a, b]), lines).any():
                    found.append(pin)
        assert found, kind


def test_owners_several_parcels_spellings_and_names(towns: dict[str, Path]) -> None:
    for town in towns:
        parcels = layer(towns, town, "parcels", measure=False)
        key = parcels["OWNER1"].map(norm) + "|" + parcels["MAIL_ADDR1"].map(norm)
        counts = key.value_counts()
        assert 0.07 <= (counts > 1).mean() <= 0.14, town
        spellings = parcels.groupby(key)["OWNER1"].nunique()
        assert (spellings > 1).sum() >= 10, town  # "SMITH JOHN" and "Smith  John"
        names = parcels["OWNER1"]
        assert names.str.contains("&").any() and names.str.contains("'").any(), town
        assert (~names.map(str.isascii)).any(), town
        assert (parcels["OWNER2"] == "").mean() > 0.6 and (parcels["OWNER2"] != "").any()
        assert (parcels["MAIL_ADDR2"] == "").mean() > 0.8 and (parcels["MAIL_ADDR2"] != "").any()


def test_mailing_addresses_out_of_state_and_absentee(towns: dict[str, Path]) -> None:
    for town, spec in SPEC["towns"].items():
        parcels = layer(towns, town, "parcels", measure=False)
        assert parcels["MAIL_ZIP"].str.fullmatch(r"\d{5}(-\d{4})?").all(), town
        assert parcels["MAIL_ZIP"].str.contains("-").any()
        out = (parcels["MAIL_STATE"] != spec["state"]).mean()
        assert 0.05 <= out <= 0.12, (town, out)
        absentee = (parcels["MAIL_ADDR1"].map(norm) != parcels["SITE_ADDR"].map(norm)).mean()
        assert 0.18 <= absentee <= 0.35, (town, absentee)
        assert (parcels["FRONT_FT"] >= 0).all() and (parcels["LOT_SQFT"] > 0).all()


def test_two_runs_give_identical_layers(towns: dict[str, Path], tmp_path: Path) -> None:
    again = generate(tmp_path)
    for town, path in towns.items():
        for name in pyogrio.list_layers(path)[:, 0]:
            a, b = (gpd.read_file(p, layer=name) for p in (path, again[town]))
            pd.testing.assert_frame_equal(a.drop(columns="geometry"), b.drop(columns="geometry"))
            assert a.geometry.geom_equals_exact(b.geometry, tolerance=0).all(), (town, name)


def test_command_line_prints_one_line_a_town(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(CRS)
    assert all(re.search(r"\.gpkg: parcels \d+, zoning \d+, .* \(\d+\.\d s\)$", x) for x in lines)
