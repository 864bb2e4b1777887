"""Who gets a letter: hand-built parcel layers with parcels at exactly R feet and just beyond it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

from generator.inputs import load_case
from generator.packet import build
from generator.recipients import collect, normalize_address, normalize_name, to_csv
from generator.rules.loader import resolve

from .conftest import CASES, notices, without_gis, write_case

X0, Y0 = 361_000.0, 262_000.0  # East Providence, in EPSG:3438 (RI state plane, US survey feet)
FIELDS = {
    "parcel_id": "PIN",
    "owner_name": "OWNER1",
    "owner_name2": "OWNER2",
    "mail_address1": "MAIL_ADDR1",
    "mail_city": "MAIL_CITY",
    "mail_state": "MAIL_STATE",
    "mail_zip": "MAIL_ZIP",
    "site_address": "SITE_ADDR",
    "municipality": "TOWN",
}


def lot(x0: float, y0: float, x1: float, y1: float) -> object:
    return box(X0 + x0, Y0 + y0, X0 + x1, Y0 + y1)


def parcel(
    pin: str,
    geom: object,
    owner: str,
    street: str,
    city: str,
    state: str = "RI",
    zip_code: str = "02914",
    town: str = "East Providence",
    owner2: str = "",
) -> dict:
    return {"PIN": pin, "OWNER1": owner, "OWNER2": owner2, "MAIL_ADDR1": street, "MAIL_CITY": city,
            "MAIL_STATE": state, "MAIL_ZIP": zip_code, "SITE_ADDR": street, "TOWN": town, "geometry": geom}  # fmt: skip


EP_PARCELS = [
    parcel(
        "107-4-12",
        lot(0, 0, 100, 100),
        "RIVERSIDE SQUARE HOLDINGS LLC",
        "25 WARREN AVE STE 3",
        "EAST PROVIDENCE",
    ),
    parcel(
        "A-200", lot(300, 0, 400, 100), "ALVES MARIA", "9 ELM ST", "EAST PROVIDENCE"
    ),  # exactly 200 ft
    parcel(
        "B-20001", lot(-400, 0, -200.01, 100), "BEYOND BOB", "1 FAR RD", "EAST PROVIDENCE"
    ),  # 200.01 ft
    parcel(
        "C-touch",
        lot(100, 0, 200, 100),
        "SMITH JOHN",
        "12 MAIN STREET",
        "EAST PROVIDENCE",
        owner2="SMITH MARY",
    ),
    parcel(
        "D-top",
        lot(0, 100, 100, 200),
        "Smith  John",
        "12 Main St.",
        "East Providence",
        owner2="Smith Mary",
    ),
    parcel(
        "E-pawtucket",
        lot(0, 250, 100, 350),
        "O'NEIL & SONS REALTY",
        "77 DEXTER ST",
        "PAWTUCKET",
        zip_code="02860",
        town="Pawtucket",
    ),
    parcel(
        "F-boston",
        lot(-150, 0, -50, 100),
        "BEACON TRUST",
        "1 BEACON ST",
        "BOSTON",
        state="MA",
        zip_code="02108",
    ),
    parcel("G-far", lot(1000, 1000, 1100, 1100), "FAR AWAY", "2 NOWHERE LN", "EAST PROVIDENCE"),
]


def layer(
    tmp_path: Path, rows: list[dict], crs: str = "EPSG:3438", name: str = "parcels.gpkg"
) -> Path:
    path = tmp_path / name
    frame = gpd.GeoDataFrame(rows, geometry="geometry", crs="EPSG:3438").to_crs(crs)
    frame.to_file(path, layer="parcels", driver="GPKG")
    return path


def ep_case(tmp_path: Path, path: Path, fields: dict[str, str] = FIELDS) -> Path:
    text = without_gis((CASES / "ep-2027-za-03.yaml").read_text())
    mapped = ", ".join(f"{k}: {v}" for k, v in fields.items())
    text += f"gis:\n  parcels: {{path: {path.name}, layer: parcels, as_of: 2027-01-05, fields: {{{mapped}}}}}\n"
    return write_case(tmp_path, text)


def owners(found) -> dict[str, list[str]]:
    return {r.name: r.parcels for r in found.recipients if r.kind == "owner"}


def test_owners_within_200_feet_of_the_perimeter_including_exactly_200(tmp_path: Path) -> None:
    cf = load_case(ep_case(tmp_path, layer(tmp_path, EP_PARCELS)))
    found = collect(cf, resolve(cf.case.jurisdiction))
    got = owners(found)
    assert "ALVES MARIA" in got  # at exactly 200.0 ft: within
    assert "BEYOND BOB" not in got  # at 200.01 ft: not within
    assert "FAR AWAY" not in got
    assert got["SMITH JOHN & SMITH MARY"] == ["C-touch", "D-top"]  # one letter, both parcels
    assert (
        "O'NEIL & SONS REALTY" in got
    )  # across the municipal boundary, still an owner within 200 ft
    assert got["RIVERSIDE SQUARE HOLDINGS LLC"] == ["107-4-12"]  # the subject's owner
    boston = next(r for r in found.recipients if r.name == "BEACON TRUST")
    assert "mails out of state" in boston.flags
    alves = next(r for r in found.recipients if r.name == "ALVES MARIA")
    assert alves.distance_ft == 200.0 and alves.rules == ["owners_within_200_ft"]
    assert [r.name for r in found.recipients] == sorted(
        (r.name for r in found.recipients), key=normalize_name
    )


def test_longitude_latitude_layers_are_reprojected_before_measuring(tmp_path: Path) -> None:
    rows = [
        p for p in EP_PARCELS if p["PIN"] not in ("A-200", "B-20001")
    ]  # no knife-edge parcels here
    feet, degrees = tmp_path / "ft", tmp_path / "ll"
    feet.mkdir()
    degrees.mkdir()
    cf_ft = load_case(ep_case(feet, layer(feet, rows)))
    cf_ll = load_case(ep_case(degrees, layer(degrees, rows, crs="EPSG:4326")))
    pack = resolve("us-ri-east-providence")
    assert owners(collect(cf_ft, pack)) == owners(collect(cf_ll, pack))


def test_an_empty_result_when_nothing_lies_near(tmp_path: Path) -> None:
    rows = [EP_PARCELS[0], EP_PARCELS[-1]]
    cf = load_case(ep_case(tmp_path, layer(tmp_path, rows)))
    found = collect(cf, resolve(cf.case.jurisdiction))
    assert list(owners(found)) == ["RIVERSIDE SQUARE HOLDINGS LLC"]


def test_normalization() -> None:
    assert normalize_name("Smith,  John") == normalize_name("SMITH JOHN")
    assert normalize_address("12 Main Street, Apartment 4") == "12 MAIN ST APT 4"


def test_packet_carries_recipients_csv_geojson_and_provenance(tmp_path: Path) -> None:
    case = ep_case(tmp_path, layer(tmp_path, EP_PARCELS))
    result = build(case, tmp_path / "out")
    rows = list(csv.DictReader(io.StringIO((result.folder / "recipients.csv").read_text())))
    smith = next(r for r in rows if r["recipient"] == "SMITH JOHN & SMITH MARY")
    assert (
        smith["parcels"] == "C-touch; D-top"
        and smith["zip"] == "02914"
        and smith["city"] == "EAST PROVIDENCE"
    )
    assert "R.I.G.L. § 45-24-53(b)" in smith["citation"]
    geo = json.loads((result.folder / "recipients.geojson").read_text())
    roles = {f["properties"]["role"] for f in geo["features"]}
    assert roles == {"subject", "distance", "notified"}
    x, y = geo["features"][0]["geometry"]["coordinates"][0][0]
    assert -72 < x < -71 and 41 < y < 42.1  # longitude/latitude, as GeoJSON requires
    prov = result.manifest["recipients"]
    assert prov["crs"] == "EPSG:3438" and prov["layers"][0]["as_of"] == "2027-01-05"
    assert len(prov["layers"][0]["sha256"]) == 64
    assert {r["rule"] for r in prov["rules"]} >= {"owners_within_200_ft", "subject_owners"}


def test_nc_abutting_owners_include_those_across_a_railroad_beyond_100_feet(tmp_path: Path) -> None:
    rows = [
        parcel(
            "S1", lot(0, 0, 100, 100), "SUBJECT OWNER", "1 A ST", "SHELBY", "NC", "28150", "Shelby"
        ),
        parcel(
            "ACROSS-ST",
            lot(160, 0, 260, 100),
            "ACROSS STREET",
            "2 B ST",
            "SHELBY",
            "NC",
            "28150",
            "Shelby",
        ),  # 60 ft
        parcel(
            "ACROSS-RR",
            lot(-210, 0, -110, 100),
            "ACROSS RAILROAD",
            "3 C ST",
            "SHELBY",
            "NC",
            "28150",
            "Shelby",
        ),  # 110 ft, nothing between
        parcel(
            "BLOCKER",
            lot(0, 130, 100, 200),
            "NEAR NEIGHBOR",
            "4 D ST",
            "SHELBY",
            "NC",
            "28150",
            "Shelby",
        ),  # 30 ft
        parcel(
            "BEHIND",
            lot(0, 220, 100, 320),
            "BEHIND BLOCKER",
            "5 E ST",
            "SHELBY",
            "NC",
            "28150",
            "Shelby",
        ),  # 120 ft, behind
    ]
    path = layer(tmp_path, rows)
    text = without_gis((CASES / "shelby-2027-map-01.yaml").read_text())
    text = text.replace("  - id: 2564-19-6840", "  - id: S1").split("  - id: 2564-19-7813")[0]
    text = text.replace("1015 and 1021", "1015")  # one subject parcel
    mapped = ", ".join(f"{k}: {v}" for k, v in FIELDS.items())
    rest = without_gis((CASES / "shelby-2027-map-01.yaml").read_text()).split(
        "area_description:", 1
    )[1]
    text += (
        "area_description:"
        + rest
        + f"gis:\n  parcels: {{path: {path.name}, layer: parcels, fields: {{{mapped}}}}}\n"
    )
    cf = load_case(write_case(tmp_path, text, "shelby-x.yaml"))
    got = owners(collect(cf, resolve("us-nc-shelby")))
    assert {"SUBJECT OWNER", "ACROSS STREET", "ACROSS RAILROAD", "NEAR NEIGHBOR"} <= set(got)
    assert "BEHIND BLOCKER" not in got  # 120 ft and not abutting: another parcel lies between


def test_a_missing_field_mapping_is_an_input_error(tmp_path: Path) -> None:
    fields = {k: v for k, v in FIELDS.items() if k != "owner_name"}
    case = ep_case(tmp_path, layer(tmp_path, EP_PARCELS), fields)
    result = notices("build", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    line = next(
        i
        for i, text in enumerate(case.read_text().splitlines(), 1)
        if text.startswith("  parcels:")
    )
    assert (
        f"case-x.yaml:{line}:12: gis.parcels: fields: map the required field(s) owner_name"
        in result.stderr
    )


def test_a_mapped_field_the_layer_lacks_is_an_input_error(tmp_path: Path) -> None:
    case = ep_case(tmp_path, layer(tmp_path, EP_PARCELS), {**FIELDS, "mail_zip": "ZIPCODE"})
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "gis.parcels.fields.mail_zip: no field 'ZIPCODE' in parcels.gpkg" in result.stderr


def test_an_unreadable_layer_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "parcels.gpkg"
    path.write_bytes(b"this is not a geopackage")
    case = ep_case(tmp_path, path)
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "gis.parcels.path: cannot read parcels.gpkg" in result.stderr


def test_the_recipients_command_writes_the_two_files(tmp_path: Path) -> None:
    case = ep_case(tmp_path, layer(tmp_path, EP_PARCELS))
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "case-x"
    assert sorted(p.name for p in folder.iterdir()) == [
        "map.png",
        "map.svg",
        "recipients.csv",
        "recipients.geojson",
    ]
    assert (
        "owners_within_200_ft (R.I.G.L. § 45-24-53(b); East Providence Code § 19-74(2)(a)): owners_within within 200 ft"
        in result.stdout
    )


@pytest.mark.parametrize("subject_missing", ["107-4-99"])
def test_a_subject_parcel_missing_from_the_layer_is_an_input_error(
    tmp_path: Path, subject_missing: str
) -> None:
    rows = [p for p in EP_PARCELS if p["PIN"] != "107-4-12"]
    case = ep_case(tmp_path, layer(tmp_path, rows))
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "parcels: parcel(s) 107-4-12 not found in parcels.gpkg (field PIN)" in result.stderr


def test_an_assessors_radius_list_stands_in_for_a_parcel_layer(tmp_path: Path) -> None:
    listing = tmp_path / "radius-list.csv"
    listing.write_text(
        "Map-Lot,Owner,Co-owner,Mailing Address,City,State,ZIP,Feet\n"
        "107-4-12,RIVERSIDE SQUARE HOLDINGS LLC,,25 WARREN AVE STE 3,EAST PROVIDENCE,RI,02914,0\n"
        "107-4-13,SMITH JOHN,SMITH MARY,12 MAIN STREET,EAST PROVIDENCE,RI,02914-1234,40\n"
        "107-4-14,Smith John,Smith Mary,12 Main St,East Providence,RI,02914-1234,95.5\n"
    )
    text = without_gis((CASES / "ep-2027-za-03.yaml").read_text())
    text += (
        "gis:\n  radius_list:\n    path: radius-list.csv\n    as_of: 2026-10-30\n"
        "    fields: {parcel_id: Map-Lot, owner_name: Owner, owner_name2: Co-owner, mail_address1: Mailing Address,"
        " mail_city: City, mail_state: State, mail_zip: ZIP, distance_ft: Feet}\n"
        "additional_recipients:\n  - name: Greenwood Avenue Neighborhood Association\n"
        "    address: {lines: [PO Box 4411], city: East Providence, state: RI, zip: '02914'}\n"
        "    reason: asked at the pre-application meeting to be notified\n"
    )
    cf = load_case(write_case(tmp_path, text))
    found = collect(cf, resolve(cf.case.jurisdiction))
    smith = next(r for r in found.recipients if r.name == "SMITH JOHN & SMITH MARY")
    assert smith.parcels == ["107-4-13", "107-4-14"] and smith.zip4 == "1234"
    added = next(r for r in found.recipients if r.kind == "added")
    assert added.flags == ["added by hand: asked at the pre-application meeting to be notified"]
    assert (
        found.provenance["method"] == "assessor's certified radius list"
        and found.provenance["age_days"] == 30
    )
    assert any(f.code == "RCPT003" and "30 days old" in f.message for f in found.findings)


def test_a_required_map_is_drawn_from_the_layers_when_the_case_has_no_image(tmp_path: Path) -> None:
    import re
    import zipfile

    path = layer(tmp_path, EP_PARCELS)
    case = ep_case(tmp_path, path)
    text = re.sub(r"\nmap:\n(  .*\n)+", "\n", case.read_text())
    # Only a parcel layer: the facts the water layer would answer are stated (else GIS002).
    text = text.replace("\nfacts:\n", "\nfacts:\n  water_agencies_with_survey: []\n", 1)
    case.write_text(text)
    result = build(case, tmp_path / "out")
    assert result.ready, result.manifest["findings"]
    names = {d["path"] for d in result.manifest["documents"] if d["kind"] == "map"}
    assert names == {"map.svg", "map.png"}
    assert '<img src="map.svg"' in (result.folder / "newspaper_notice.html").read_text()
    media = [
        n
        for n in zipfile.ZipFile(result.folder / "newspaper_notice.docx").namelist()
        if n.startswith("word/media/")
    ]
    assert media, "the Word draft embeds the PNG"
    missing = [f for f in result.manifest["findings"] if f["code"] == "PLAN004"]
    assert (
        missing and "zoning district boundaries" in missing[0]["message"]
    )  # no zoning layer given


def test_councils_and_water_agencies_come_from_the_layers_with_their_addresses(
    tmp_path: Path,
) -> None:
    path = layer(tmp_path, EP_PARCELS)
    towns = gpd.GeoDataFrame(
        [
            {
                "TOWN": "City of East Providence",
                "COUNCIL_ADDR": "145 Taunton Avenue, East Providence, RI 02914",
                "geometry": lot(-3000, -3000, 3000, 250),
            },
            {
                "TOWN": "Pawtucket",
                "COUNCIL_ADDR": "137 Roosevelt Avenue, Pawtucket, RI 02860",
                "geometry": lot(-3000, 250, 3000, 3000),
            },
        ],
        geometry="geometry",
        crs="EPSG:3438",
    )
    towns.to_file(path, layer="towns", driver="GPKG")
    water = gpd.GeoDataFrame(
        [{"NAME": "Pawtucket Reservoir", "TOWN": "Pawtucket", "AGENCY": "Pawtucket Water Supply Board",
          "AGENCY_ADDR": "85 Branch Street, Pawtucket, RI 02860", "SURVEY": 1, "geometry": lot(0, 1600, 400, 2000)}],
        geometry="geometry",
        crs="EPSG:3438",
    )  # fmt: skip
    water.to_file(path, layer="water", driver="GPKG")
    case = ep_case(tmp_path, path)
    case.write_text(
        case.read_text()
        + f"  municipal_boundaries: {{path: {path.name}, layer: towns, fields: {{name: TOWN, council_address: COUNCIL_ADDR}}}}\n"
        + f"  water_sources: {{path: {path.name}, layer: water, fields: {{name: NAME, town: TOWN, agency: AGENCY, agency_address: AGENCY_ADDR, survey_filed: SURVEY}}}}\n"
    )
    cf = load_case(case)
    found = collect(cf, resolve(cf.case.jurisdiction))
    assert found.case.facts.municipalities_within_200_ft == ["Pawtucket"]
    council = next(r for r in found.recipients if r.name == "Council of Pawtucket")
    assert (council.lines, council.city, council.zip5) == (
        ["137 Roosevelt Avenue"],
        "Pawtucket",
        "02860",
    )
    assert set(council.rules) >= {"councils_within_200_ft_who", "water_source_councils_who"}
    agency = next(r for r in found.recipients if r.kind == "agency")
    assert agency.name == "Pawtucket Water Supply Board" and agency.city == "Pawtucket"
    # the case says no water source lies within 2,000 ft; the layer shows one: both are named
    warning = next(f for f in found.findings if f.code == "GIS001")
    assert (
        "water_source_within_2000_ft = False" in warning.message and "show True" in warning.message
    )


@pytest.mark.parametrize(
    ("suffix", "driver"), [(".geojson", "GeoJSON"), (".shp", "ESRI Shapefile"), (".parquet", None)]
)
def test_geojson_shapefile_and_geoparquet_give_the_same_owners(
    tmp_path: Path, suffix: str, driver: str | None
) -> None:
    pack = resolve("us-ri-east-providence")
    base = tmp_path / "gpkg"
    base.mkdir()
    expected = owners(collect(load_case(ep_case(base, layer(base, EP_PARCELS))), pack))
    other = tmp_path / "other"
    other.mkdir()
    path = other / f"parcels{suffix}"
    frame = gpd.GeoDataFrame(EP_PARCELS, geometry="geometry", crs="EPSG:3438")
    if driver:
        frame.to_file(path, driver=driver)
    else:
        frame.to_parquet(path)
    text = ep_case(other, path).read_text().replace(", layer: parcels", "")
    case = other / "case-x.yaml"
    case.write_text(text)
    assert owners(collect(load_case(case), pack)) == expected


def test_one_owner_at_two_addresses_gets_two_letters_and_every_merge_says_why(
    tmp_path: Path,
) -> None:
    """Merged only when owner and the whole address match; a merge is listed, never silent."""
    rows = [
        *EP_PARCELS,
        # One owner, two street addresses in one ZIP code: two letters.
        parcel("H-1", lot(0, -100, 100, 0), "ALVES MARIA", "14 ELM ST", "EAST PROVIDENCE"),
        # The same street line and ZIP code in another city (a typo or a twin): two letters.
        parcel("H-2", lot(100, -100, 200, 0), "ALVES MARIA", "9 ELM ST", "RUMFORD"),
    ]
    cf = load_case(ep_case(tmp_path, layer(tmp_path, rows)))
    found = collect(cf, resolve(cf.case.jurisdiction))
    alves = sorted(
        (r.lines, r.city, r.parcels) for r in found.recipients if r.name == "ALVES MARIA"
    )
    assert alves == [
        (["14 ELM ST"], "EAST PROVIDENCE", ["H-1"]),
        (["9 ELM ST"], "EAST PROVIDENCE", ["A-200"]),
        (["9 ELM ST"], "RUMFORD", ["H-2"]),
    ]
    smith = next(r for r in found.recipients if r.name == "SMITH JOHN & SMITH MARY")
    assert smith.merged == ["parcel D-top: same owner name and mailing address"]
    row = next(
        r
        for r in csv.DictReader(io.StringIO(to_csv(found).decode()))
        if r["parcels"] == "C-touch; D-top"
    )
    assert row["merged"] == "parcel D-top: same owner name and mailing address"


def test_the_recipients_command_writes_what_the_registry_builds_of_its_kinds() -> None:
    """`write_recipients` names its two builders (the registry imports every kind): the same."""
    from generator.documents import registry
    from generator.kinds import DocumentKind
    from generator.packet import RECIPIENT_DOCUMENTS

    kinds = (DocumentKind.RECIPIENTS, DocumentKind.MAP)
    assert tuple(d for d in registry.DOCUMENTS if d.kind in kinds) == RECIPIENT_DOCUMENTS
