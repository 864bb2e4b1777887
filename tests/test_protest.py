"""Protest petitions (`generator/protest.py`, `notices protest`): areas, shares, thresholds, filing time.

The sample towns' real GeoPackages are used where their parcels make the case (a parcel split by
the 150-ft line); exact shares (20 % on the nose) need lots drawn for the purpose, written as a
real GeoPackage and read through the same layer reader.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
import yaml

from generator.inputs import load_case
from generator.protest import Signer, read_signers, weigh
from generator.rules.loader import resolve

from .conftest import CASES, notices, without_record, write_case

AZ = CASES / "az-2027-map-01.yaml"
AZ_SIGNERS = CASES / "az-2027-map-01.signers.csv"
OK_CITY = CASES / "ok-2027-map-01.yaml"
OK_SIGNERS = CASES / "ok-2027-map-01.signers.csv"


def _weigh(case: Path, signers: Path | list[Signer], filed: str | None = None):  # type: ignore[no-untyped-def]
    cf = load_case(case)
    rows = read_signers(signers) if isinstance(signers, Path) else signers
    return weigh(
        cf, resolve(cf.case.jurisdiction), rows, datetime.fromisoformat(filed) if filed else None
    )


def _signers(*ids: str) -> list[Signer]:
    return [
        Signer(i, datetime(2027, 4, 20).date(), "", n + 2, "signers.csv") for n, i in enumerate(ids)
    ]


# ------------------------------------------------------------------ the zoning area ----


def test_arizona_zoning_area_counts_the_part_of_a_split_parcel_within_150_ft() -> None:
    # 501-23-170A lies south of the change and is cut by the 150-ft line: only its part within counts.
    (test,) = _weigh(AZ, _signers("501-23-170A")).tests
    assert test.threshold.of == "zoning_area"
    whole, within = 385_264, test.area_signed
    assert 95_000 < within < 96_000 < whole
    assert any(s.startswith("501-23-170A: split by the area's line") for s in test.derivation)
    # Rights-of-way are in the area (A.R.S. § 9-462.04(K)) but no lot: in the area, not the count.
    assert test.area_total > sum([within]) and test.count_total == 23
    assert any("rights-of-way" in s for s in test.derivation)


def test_arizona_sample_petition_meets_both_tests_and_forces_the_supermajority() -> None:
    w = _weigh(AZ, AZ_SIGNERS, "2027-04-30 11:59")
    (test,) = w.tests
    assert test.count_signed == 5 and test.count_total == 23 and test.met
    assert w.on_time is True and w.valid


# ----------------------------------------------------------------------- filing time ----


@pytest.mark.parametrize(
    ("filed", "on_time"),
    [("2027-04-30 11:59", True), ("2027-04-30 12:00", True), ("2027-04-30 12:01", False)],
)
def test_saguaro_wells_noon_two_business_days_before_the_vote(filed: str, on_time: bool) -> None:
    # Vote Tue 2027-05-04; the town's code asks for noon two business days before: Fri 04-30.
    w = _weigh(AZ, AZ_SIGNERS, filed)
    assert w.deadline.latest.isoformat() == "2027-04-30T12:00:00-07:00"
    assert w.on_time is on_time
    assert w.valid is on_time


@pytest.mark.parametrize(
    ("filed", "on_time"), [("2027-05-03 11:59", True), ("2027-05-03 12:01", False)]
)
def test_state_law_noon_one_business_day_before_the_vote(
    tmp_path: Path, filed: str, on_time: bool
) -> None:
    text = AZ.read_text().replace("jurisdiction: us-az-saguaro-wells", "jurisdiction: us-az")
    case = write_case(tmp_path, text)
    w = _weigh(case, _signers("501-23-170A"), filed)
    assert w.deadline.latest.isoformat() == "2027-05-03T12:00:00-07:00"  # Monday before Tue's vote
    assert w.on_time is on_time


def test_filing_is_counted_from_the_recorded_vote(tmp_path: Path) -> None:
    # The council voted a week late (Tue 05-11): the deadline moves with the recorded vote.
    text = without_record(AZ.read_text()) + (
        "record:\n  hearings:\n    - hearing: council\n      held_on: 2027-05-11\n      closed: true\n"
        "      vote: {full_membership: 7, ayes: 5, nays: 2, voted_on: 2027-05-11}\n"
    )
    w = _weigh(write_case(tmp_path, text), _signers("501-23-170A"), "2027-05-06 09:00")
    assert w.deadline.latest.isoformat() == "2027-05-07T12:00:00-07:00"
    assert w.on_time is True


# ------------------------------------------------------------------ Oklahoma's two tests ----


def test_oklahoma_city_two_alternative_tests() -> None:
    w = _weigh(OK_CITY, OK_SIGNERS, "2027-05-06 16:30")
    kinds = [t.threshold.of for t in w.tests]
    assert kinds[0] == "lots_in_change" and "lots_within_radius" in kinds
    assert all(t.threshold.measure == "area" for t in w.tests)
    change, *radius = w.tests
    assert change.area_signed == 0 and not change.met
    assert all(not t.met for t in radius)
    assert w.deadline.latest.isoformat() == "2027-05-07"  # 3 days before Mon 05-10
    assert w.on_time is True and not w.valid


# --------------------------------------------------------- exact shares on drawn lots ----


def _drawn_case(
    tmp_path: Path, lots: list[tuple[str, tuple[float, float, float, float]]], subject: list[str]
) -> Path:
    """The Oklahoma sample case over a GeoPackage of square lots (EPSG:2267 feet) drawn for the test."""
    import geopandas as gpd
    from shapely.geometry import box

    gpkg = tmp_path / "lots.gpkg"
    frame = gpd.GeoDataFrame(
        {
            "PIN": [i for i, _ in lots],
            "OWNER1": [f"OWNER {i}" for i, _ in lots],
            "MAIL_ADDR1": [f"{1400 + 2 * k} W MAIN ST" for k in range(len(lots))],
            "MAIL_CITY": "SAMPLE CITY",
            "MAIL_STATE": "OK",
            "MAIL_ZIP": "74999",
        },
        geometry=[box(*b) for _, b in lots],
        crs="EPSG:2267",
    )
    frame.to_file(gpkg, layer="parcels", driver="GPKG")
    doc = yaml.safe_load(OK_CITY.read_text())
    first = doc["parcels"][0]
    doc["parcels"] = [{**first, "id": i} for i in subject]
    doc["gis"] = {
        "parcels": {
            "path": str(gpkg),
            "layer": "parcels",
            "fields": {
                "parcel_id": "PIN",
                "owner_name": "OWNER1",
                "mail_address1": "MAIL_ADDR1",
                "mail_city": "MAIL_CITY",
                "mail_state": "MAIL_STATE",
                "mail_zip": "MAIL_ZIP",
            },
        },
    }
    path = tmp_path / "case-x.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def _row(n: int) -> list[tuple[str, tuple[float, float, float, float]]]:
    """`n` lots of 100 × 100 ft side by side: L1, L2, ..."""
    return [(f"L{k + 1}", (k * 100.0, 0.0, (k + 1) * 100.0, 100.0)) for k in range(n)]


def test_exactly_twenty_percent_of_the_lots_in_the_change_meets_the_threshold(
    tmp_path: Path,
) -> None:
    case = _drawn_case(tmp_path, _row(5), [f"L{k}" for k in range(1, 6)])
    change = _weigh(case, _signers("L1")).tests[0]
    assert change.threshold.of == "lots_in_change"
    assert change.area_signed == 10_000 and change.area_total == 50_000
    assert change.met  # "twenty percent or more": 20 % exactly is enough


def test_just_under_twenty_percent_does_not(tmp_path: Path) -> None:
    lots = _row(5)
    lots[0] = ("L1", (0.0, 0.0, 100.0, 99.9))  # 9,990 of 49,990 sq ft: 19.98 %
    case = _drawn_case(tmp_path, lots, [f"L{k}" for k in range(1, 6)])
    change = _weigh(case, _signers("L1")).tests[0]
    assert change.area_share < 0.2 and not change.met


# --------------------------------------------------------------------------- bad input ----


def test_bad_signers_file_exits_2_with_file_line_and_field(tmp_path: Path) -> None:
    bad = tmp_path / "signers.csv"
    bad.write_text("parcel_id,signed_on\n501-23-170A,2027-04-22\n501-23-171,April 23\n")
    run = notices("protest", str(AZ), "--signers", str(bad), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert f"{bad}:3: signed_on: 'April 23' is not a date" in run.stderr


def test_a_signer_parcel_not_in_the_layer_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "signers.csv"
    bad.write_text("parcel_id,signed_on\n999-99-999,2027-04-22\n")
    run = notices("protest", str(AZ), "--signers", str(bad), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert f"{bad}:2: parcel_id: '999-99-999' is not a parcel" in run.stderr


def test_geojson_signers_are_read_with_the_feature_named(tmp_path: Path) -> None:
    path = tmp_path / "signers.geojson"
    features = [
        {
            "type": "Feature",
            "geometry": None,
            "properties": {"parcel_id": "501-23-171", "signed_on": "2027-04-23"},
        },
        {
            "type": "Feature",
            "geometry": None,
            "properties": {"parcel_id": "501-23-170A", "signed_on": "x"},
        },
    ]
    path.write_text(json.dumps({"type": "FeatureCollection", "features": features}))
    with pytest.raises(Exception, match=r"features\[1\]\.properties\.signed_on"):
        read_signers(path)


def test_protest_command_writes_the_report_with_the_map(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = notices(
        "protest",
        str(AZ),
        "--signers",
        str(AZ_SIGNERS),
        "--filed",
        "2027-04-30 11:59",
        "--out",
        str(out),
    )
    assert run.returncode == 0, run.stderr
    folder = out / "az-2027-map-01" / "protest"
    data = json.loads((folder / "protest.json").read_text())
    assert data["supermajority_required"] is True
    assert data["votes"]["votes_needed"] == 5
    assert (folder / "protest.pdf").read_bytes().startswith(b"%PDF")
    assert (folder / "protest_map.png").read_bytes().startswith(b"\x89PNG")


def test_condominium_units_on_one_footprint_share_its_area_and_count_one_each(
    tmp_path: Path,
) -> None:
    lots = [*_row(3), ("U1", (300.0, 0.0, 400.0, 100.0)), ("U2", (300.0, 0.0, 400.0, 100.0))]
    case = _drawn_case(tmp_path, lots, ["L1", "L2", "L3", "U1", "U2"])
    change = _weigh(case, _signers("U1")).tests[0]
    assert change.area_total == 40_000  # the footprint once, not twice
    assert change.area_signed == 5_000 and change.count_total == 5
    assert any(s.startswith("U1: one of 2 units on one footprint") for s in change.derivation)


def test_one_co_owner_signing_counts_the_parcel_as_the_pack_states() -> None:
    # 501-23-066 has two owners of record (REYNOLDS JOSHUA J, REYNOLDS DOROTHY W); one signs.
    (test,) = _weigh(AZ, _signers("501-23-066")).tests
    assert test.threshold.joint_owners == "one_signature_counts_parcel"
    assert test.count_signed == 1


def test_a_signature_dated_after_the_filing_is_not_counted() -> None:
    late = [Signer("501-23-171", datetime(2027, 5, 1).date(), "", 2, "signers.csv")]
    w = _weigh(AZ, [*_signers("501-23-170A"), *late], "2027-04-30 11:00")
    assert w.tests[0].count_signed == 1
    assert w.notes == ["501-23-171: signed 2027-05-01, after the petition was filed: not counted"]


def test_a_signer_outside_every_protest_area_is_named_and_not_counted() -> None:
    # 501-25-013 is read with the neighbourhood but lies 155.6 ft away, beyond the zoning area.
    w = _weigh(AZ, _signers("501-23-170A", "501-25-013"))
    assert w.tests[0].count_signed == 1
    assert "501-25-013: in no protest area of the law: not counted" in w.notes


def test_the_filing_and_the_signers_may_come_from_the_record(tmp_path: Path) -> None:
    text = without_record(AZ.read_text()) + (
        f"record:\n  protests:\n    - filed_at: 2027-04-30T12:01:00\n      signers: {AZ_SIGNERS}\n"
    )
    case = write_case(tmp_path, text, "az-2027-map-01.yaml")
    run = notices("protest", str(case), "--out", str(tmp_path / "out"), "--format", "json")
    assert run.returncode == 0, run.stderr
    data = json.loads(run.stdout)
    assert data["on_time"] is False and data["threshold_met"] is True
    assert data["supermajority_required"] is False  # one minute late: the protest fails


def test_a_recorded_signers_file_that_is_missing_is_named_with_its_line(tmp_path: Path) -> None:
    text = without_record(AZ.read_text()) + (
        "record:\n  protests:\n    - filed_at: 2027-04-30T11:00:00\n      signers: nowhere.csv\n"
    )
    case = write_case(tmp_path, text)
    run = notices("protest", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 2
    assert "record.protests[0].signers: no such file" in run.stderr
