"""Field maps for the parcel schemas counties publish: address shapes, presets, `--inspect`.

Issue 16, items 1, 4 and 8: a county layer whose mailing address is a free-form block
(MAIL1..MAIL5), a "CITY ST ZIP" field, or split fields is mapped as it is; presets name the
field maps of real schemas (Pima County, Regrid, NC OneMap, Florida statewide); `notices
recipients --inspect` shows a layer's fields and the preset that fits. The layer is the
county-style fixture (tests/county_fixture.py), built in tmp_path.
"""

from __future__ import annotations

import json
from pathlib import Path

import geopandas as gpd
import pytest
from shapely.geometry import box

from generator.errors import UserError
from generator.gis.inspect import inspect_layer, paste_block, shown
from generator.gis.layers import LayerReader
from generator.inputs import load_case
from generator.models.layers import (
    LAYERS,
    field_map_problems,
    lines_of,
    preset,
    preset_names,
)
from generator.recipients import collect
from generator.rules.loader import resolve

from .conftest import CASES, notices, without_gis, write_case
from .county_fixture import CountyFixture, write_county_fixture


@pytest.fixture
def county(tmp_path: Path) -> CountyFixture:
    return write_county_fixture(tmp_path / "county.gpkg")


def az_case(tmp_path: Path, parcels: str, name: str = "case-x.yaml") -> Path:
    """The Arizona sample case with `gis:` pointing at the fixture: `parcels` is its YAML body."""
    text = without_gis((CASES / "az-2027-map-01.yaml").read_text())
    text += f"gis:\n  measure_crs: EPSG:2223\n  measure_unit: foot\n  parcels:\n{parcels}"
    return write_case(tmp_path, text, name)


def read_all(tmp_path: Path, case: Path) -> gpd.GeoDataFrame:
    cf = load_case(case)
    assert cf.case.gis and cf.case.gis.parcels
    reader = LayerReader(cf, "parcels", cf.case.gis.parcels, "EPSG:2223")
    return reader.read(bbox=(990_000.0, 515_000.0, 996_000.0, 520_000.0))


def line_of(path: Path, start: str) -> int:
    return next(i for i, t in enumerate(path.read_text().splitlines(), 1) if t.startswith(start))


# --- item 1: the field map accepts the shapes counties publish --------------------------------


def test_a_free_form_block_is_read_as_one_column_of_its_lines(
    tmp_path: Path, county: CountyFixture
) -> None:
    case = az_case(
        tmp_path,
        "    path: county.gpkg\n    layer: parcels_mail\n"
        "    fields: {parcel_id: PARCEL, owner_name: MAIL1, mail_lines: [MAIL2, MAIL3, MAIL4, MAIL5]}\n",
    )
    frame = read_all(tmp_path, case).set_index("parcel_id")
    assert len(frame) == 42
    for owner in county.owners:
        want = [line.strip() for line in owner.block if line and line.strip()]
        assert frame.loc[owner.parcel, "mail_lines"] == want, owner.shape
    careof = county.by_shape("care-of")[0]
    assert frame.loc[careof.parcel, "mail_lines"] == [
        "C/O FIRST DESERT FIDUCIARY CO", "PO BOX 3456", "TUCSON AZ", "85722-3456"
    ]  # fmt: skip
    messy = county.by_shape("stray whitespace and case")[0]
    assert frame.loc[messy.parcel, "mail_lines"] == ["3300 n  Campbell ave", "tucson az", "85719"]
    assert frame.loc[county.by_shape("no mailing address")[0].parcel, "mail_lines"] == []
    repeated = county.by_shape("city repeated")[0]
    assert frame.loc[repeated.parcel, "mail_lines"][1] == "ORO VALLEY AZ ORO VALLEY AZ 85755"


def test_a_street_line_and_a_city_state_zip_field_is_a_complete_shape(tmp_path: Path) -> None:
    path = tmp_path / "csz.gpkg"
    gpd.GeoDataFrame(
        [{"APN": "1", "OWNER": "A", "ADDR": "PO BOX 68", "CSZ": "CATALINA AZ 85738"}],
        geometry=[box(993_000, 517_600, 993_100, 517_700)],
        crs="EPSG:2223",
    ).to_file(path, layer="parcels", driver="GPKG")
    case = az_case(
        tmp_path,
        "    path: csz.gpkg\n    fields: {parcel_id: APN, owner_name: OWNER, mail_address1: ADDR,"
        " mail_city_state_zip: CSZ}\n",
    )
    frame = read_all(tmp_path, case)
    assert list(frame["mail_city_state_zip"]) == ["CATALINA AZ 85738"]


def test_a_field_map_without_a_complete_address_shape_names_the_shapes(tmp_path: Path) -> None:
    write_county_fixture(tmp_path / "county.gpkg")
    case = az_case(
        tmp_path,
        "    path: county.gpkg\n    layer: parcels_split\n"
        "    fields: {parcel_id: parcelnumb, owner_name: owner, mail_address1: mailadd, mail_city: mail_city}\n",
    )
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stderr
    line = line_of(case, "  parcels:")  # the problem is at the first line of its value
    assert (
        f"case-x.yaml:{line + 1}:5: gis.parcels: fields: map one complete mailing-address shape:"
        in result.stderr
    )
    for need in ("(mail_address1, mail_city, mail_state, mail_zip)",
                 "(mail_address1, mail_city_state_zip)", "(mail_lines)"):  # fmt: skip
        assert need in result.stderr


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"mail_lines": "MAIL2"}, "mail_lines is a list of 2 to 6 of the layer's fields"),
        ({"mail_lines": ["MAIL2"]}, "mail_lines is a list of 2 to 6 of the layer's fields"),
        ({"mail_lines": ["M1", "M2", "M3", "M4", "M5", "M6", "M7"]}, "a list of 2 to 6"),
        (
            {"owner_name": ["MAIL1", "MAIL2"], "mail_lines": ["A", "B"]},
            "owner_name names one field",
        ),
    ],
)
def test_a_list_maps_only_the_free_form_block(fields: dict, message: str) -> None:
    base = {"parcel_id": "PARCEL", "owner_name": "MAIL1"}
    assert any(message in p for p in field_map_problems("parcels", {**base, **fields}))


def test_a_missing_field_of_a_block_is_named_with_its_place(
    tmp_path: Path, county: CountyFixture
) -> None:
    case = az_case(
        tmp_path,
        "    path: county.gpkg\n    layer: parcels_mail\n"
        "    fields: {parcel_id: PARCEL, owner_name: MAIL1, mail_lines: [MAIL2, MAIL3, MAIL6]}\n",
    )
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    assert "gis.parcels.fields.mail_lines: no field 'MAIL6' in county.gpkg" in result.stderr


def test_lines_drop_nulls_and_keep_numbers_as_written() -> None:
    assert lines_of([" 45 BEACON ST ", None, float("nan"), "", "BOSTON MA", 2108.0, 85755]) == [
        "45 BEACON ST", "BOSTON MA", "2108", "85755"
    ]  # fmt: skip


def test_an_assessors_list_with_a_free_form_block_is_read_by_its_columns(tmp_path: Path) -> None:
    listing = tmp_path / "radius-list.csv"
    listing.write_text(
        "PARCEL,MAIL1,MAIL2,MAIL3,MAIL4\n"
        "501-23-014,SONORAN VISTA LLC,C/O DESERT FIDUCIARY,PO BOX 3456,TUCSON AZ 85722-3456\n"
    )
    text = without_gis((CASES / "az-2027-map-01.yaml").read_text())
    radius = (
        "gis:\n  radius_list:\n    path: radius-list.csv\n    as_of: 2026-10-30\n"
        "    fields: {parcel_id: PARCEL, owner_name: MAIL1, mail_lines: [MAIL2, MAIL3, %s]}\n"
    )
    bad = load_case(write_case(tmp_path, text + radius % "MAIL5", "bad.yaml"))
    with pytest.raises(UserError, match=r"gis.radius_list.fields.mail_lines: no column 'MAIL5'"):
        collect(bad, resolve(bad.case.jurisdiction))
    good = load_case(write_case(tmp_path, text + radius % "MAIL4", "good.yaml"))
    found = collect(good, resolve(good.case.jurisdiction))
    assert "SONORAN VISTA LLC" in {r.name for r in found.recipients}


# --- item 4: presets ---------------------------------------------------------------------------


def test_the_presets_are_complete_field_maps_of_real_schemas_with_their_sources() -> None:
    assert {"pima-az", "regrid", "nc-onemap", "fl-statewide"} <= set(preset_names())
    for name in preset_names():
        p = preset(name)
        assert field_map_problems("parcels", p.fields) == [], name
        assert p.description and p.published_by, name
        assert all(pub.url.startswith("https://") for pub in p.published_by), name
        assert set(p.fields) <= set(LAYERS["parcels"][0] + LAYERS["parcels"][1])


def test_a_preset_selected_by_name_reads_the_layer(tmp_path: Path, county: CountyFixture) -> None:
    mail = read_all(
        tmp_path,
        az_case(
            tmp_path,
            "    path: county.gpkg\n    layer: parcels_mail\n    schema: pima-az\n",
            "a.yaml",
        ),
    )
    split = read_all(tmp_path, az_case(tmp_path, "    path: county.gpkg\n    layer: parcels_split\n    schema: regrid\n", "b.yaml"))  # fmt: skip
    apo = county.by_shape("apo")[0]
    assert mail.set_index("parcel_id").loc[apo.parcel, "mail_lines"] == ["UNIT 2050 BOX 4190", "APO AP 96278-2050"]  # fmt: skip
    row = split.set_index("parcel_id").loc[county.by_shape("foreign canada")[0].parcel]
    assert (row["mail_city"], row["mail_state"], row["mail_zip"], row["mail_country"]) == (
        "MONTREAL", "QC", "H3A 3S7", "CANADA"
    )  # fmt: skip
    assert set(mail["owner_name"]) == set(split["owner_name"])


def test_the_cases_own_fields_override_and_extend_the_preset(tmp_path: Path) -> None:
    write_county_fixture(tmp_path / "county.gpkg")
    cf = load_case(
        az_case(
            tmp_path,
            "    path: county.gpkg\n    layer: parcels_split\n    schema: regrid\n"
            "    fields: {site_address: careof, mail_zip: mail_zip}\n",
        )
    )
    assert cf.case.gis and cf.case.gis.parcels
    fields = cf.case.gis.parcels.fields
    assert fields["site_address"] == "careof"  # the case's own mapping wins
    assert fields["mail_state"] == "mail_state2" and fields["parcel_id"] == "parcelnumb"
    assert cf.case.gis.parcels.preset == "regrid"


def test_an_unknown_preset_is_an_input_error_listing_the_presets(tmp_path: Path) -> None:
    case = az_case(tmp_path, "    path: county.gpkg\n    schema: pima-county\n")
    result = notices("recipients", str(case), "--out", str(tmp_path / "out"))
    assert result.returncode == 2
    line = line_of(case, "    schema:")
    assert (
        f"case-x.yaml:{line}:13: gis.parcels.schema: no parcel schema preset 'pima-county';"
        f" the presets: {', '.join(preset_names())}" in result.stderr
    )


# --- item 4: notices recipients --inspect ------------------------------------------------------


def test_inspect_finds_the_preset_of_each_layer_and_its_block_pastes_into_a_case(
    tmp_path: Path, county: CountyFixture
) -> None:
    for layer, want in (("parcels_mail", "pima-az"), ("parcels_split", "regrid")):
        ins = inspect_layer(county.path, layer)
        assert ins.best and ins.best.preset == want
        block = paste_block(ins)
        assert block and f"schema: {want}" in block and f"layer: {layer}" in block
        body = block.split("  parcels:\n", 1)[1].replace("YYYY-MM-DD", "2026-11-02")
        frame = read_all(tmp_path, az_case(tmp_path, body, f"{layer}.yaml"))
        assert len(frame) == 42
    fields = {f.name: f for f in inspect_layer(county.path, "parcels_mail").fields}
    assert fields["MAIL5"].non_empty == 3 and fields["MAIL1"].non_empty == 42
    assert len(fields["MAIL2"].samples) == 3 and all(
        s.startswith('"') for s in fields["MAIL2"].samples
    )


def test_inspect_spells_out_the_map_when_the_layer_changes_the_case_of_names(
    tmp_path: Path,
) -> None:
    path = tmp_path / "upper.gpkg"
    gpd.GeoDataFrame(
        [{"PARNO": "1", "OWNNAME": "A", "MAILADD": "PO BOX 1", "MCITY": "SHELBY", "MSTATE": "NC", "MZIP": 28150}],
        geometry=[box(0, 0, 10, 10)],
        crs="EPSG:2264",
    ).to_file(path, layer="parcels", driver="GPKG")  # fmt: skip
    ins = inspect_layer(path)
    assert ins.best and ins.best.preset == "nc-onemap"
    assert ins.best.missing_optional == ("siteadd",)
    block = paste_block(ins) or ""
    assert "schema:" not in block and "      mail_zip: MZIP" in block
    assert {f.name: f.type for f in ins.fields}["MZIP"] == "integer"


def test_inspect_says_which_fields_are_missing_when_no_preset_fits(tmp_path: Path) -> None:
    path = tmp_path / "odd.gpkg"
    gpd.GeoDataFrame(
        [{"PIN": "1", "OWNER1": "A\tB\x1b[31m", "MAIL_ADDR1": "x" * 60}],
        geometry=[box(0, 0, 10, 10)],
        crs="EPSG:3438",
    ).to_file(path, layer="parcels", driver="GPKG")
    result = notices("recipients", "--inspect", str(path))
    assert result.returncode == 0, result.stderr
    assert "No preset fits" in result.stdout
    assert "  pima-az: lacks PARCEL, MAIL1, MAIL2, MAIL3, MAIL4, MAIL5" in result.stdout
    assert '"A\\tB\\x1b[31m"' in result.stdout and "\x1b" not in result.stdout
    assert '"' + "x" * 40 + '"…' in result.stdout
    data = json.loads(notices("recipients", "--inspect", str(path), "--format", "json").stdout)
    assert data["best"] is None and data["paste"] is None


def test_inspect_of_an_unreadable_file_or_a_missing_layer_exits_2(
    tmp_path: Path, county: CountyFixture
) -> None:
    junk = tmp_path / "junk.gpkg"
    junk.write_bytes(b"not a geopackage")
    result = notices("recipients", "--inspect", str(junk))
    assert result.returncode == 2 and "junk.gpkg: cannot read it as a GIS layer" in result.stderr
    result = notices("recipients", "--inspect", str(county.path), "--layer", "parcel")
    assert result.returncode == 2
    assert (
        "no layer 'parcel' (layers: parcels_mail, parcels_split, parcels_zip_number)"
        in result.stderr
    )
    result = notices("recipients", "--inspect", str(tmp_path / "none.gpkg"))
    assert result.returncode == 2 and "none.gpkg: no such file" in result.stderr


def test_shown_values_are_escaped_and_cut() -> None:
    assert shown("ORO VALLEY\r\n") == '"ORO VALLEY\\r\\n"'
    assert shown("A\u00a0B\u200bC") == '"A\\xa0B\\u200bC"'
    assert shown('say "hi"') == '"say \\"hi\\""'
    assert shown("VILLASEÑOR") == '"VILLASEÑOR"'
    assert shown("y" * 50, limit=10) == '"' + "y" * 10 + '"…'


# --- item 8: the fixture -----------------------------------------------------------------------


def test_the_fixture_is_deterministic_and_covers_the_shapes(tmp_path: Path) -> None:
    a = write_county_fixture(tmp_path / "a.gpkg")
    b = write_county_fixture(tmp_path / "b.gpkg")
    assert a.owners == b.owners
    shapes = {o.shape for o in a.owners}
    for shape in ("care-of", "zip+4 on its own line", "zip lost its leading zero", "po box",
                  "rural route", "apo", "fpo", "dpo", "foreign canada", "foreign mexico",
                  "foreign uk", "city repeated", "same owner, two addresses",
                  "two owners, one address", "no mailing address"):  # fmt: skip
        assert shape in shapes
    frame = gpd.read_file(a.path, layer=a.number_zip_layer)
    boston = a.by_shape("zip lost its leading zero")[0].parcel
    assert frame.set_index("parcelnumb").loc[boston, "mail_zip"] == 2108
    assert frame.crs.to_epsg() == 2223


def test_select_names_one_mapped_field(tmp_path: Path) -> None:
    case = az_case(
        tmp_path,
        "    path: county.gpkg\n    schema: pima-az\n    select: {mail_lines: [PO BOX 68]}\n",
    )
    with pytest.raises(UserError, match="select: mail_lines is not one mapped field of the layer"):
        load_case(case)
