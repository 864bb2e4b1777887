"""A packet is ready only when what the law requires can be done (issue 14, item 5).

Real builds of copies of the sample cases, with the real sample GeoPackages: a map case with no
parcel layer, a parcel layer whose owners lack a name or an address, a layer the law's facts
need, and hearings set on days the offices are closed. Each finding names the owner, the
parcel, the rule and its citation, and is shown by `notices build` and kept in the manifest.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pyogrio
import pypdf
import pytest
import yaml

from generator.findings import ready
from generator.prepare import prepare

from .conftest import CASES, ROOT, notices, without_gis, write_case


class _Quoted(yaml.SafeDumper):
    """Strings always quoted: the case loader reads YAML 1.2 (a bare 02914 would be a number)."""


_Quoted.add_representer(
    str, lambda dumper, s: dumper.represent_scalar("tag:yaml.org,2002:str", s, style='"')
)


def _dump(data: dict) -> str:
    return yaml.dump(data, Dumper=_Quoted, sort_keys=False, allow_unicode=True)


def _codes(prepared, code: str) -> list:
    return [f for f in prepared.findings if f.code == code]


def _variant(tmp_path: Path, case: str, **changes: object) -> Path:
    """A sample case with top-level or `facts`/`gis` entries changed (None removes one)."""
    data = yaml.safe_load((CASES / f"{case}.yaml").read_text())
    for key, value in changes.items():
        section, _, name = key.partition("__")
        target = data.setdefault(section, {}) if name else data
        name = name or section
        if value is None:
            target.pop(name, None)
        else:
            target[name] = value
    return write_case(tmp_path, _dump(data), f"{case}.yaml")


# ------------------------------------------------------------------ a required layer is missing


@pytest.mark.slow
def test_a_map_case_without_a_parcel_layer_is_not_ready(tmp_path: Path) -> None:
    """Shelby's law mails the owners of the subject, abutting and 100-ft parcels; no layer, no letters."""
    case = write_case(
        tmp_path, without_gis((CASES / "shelby-2027-map-01.yaml").read_text()), "shelby-x.yaml"
    )
    run = notices("build", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 1, run.stdout + run.stderr
    assert "NOT READY" in run.stdout
    manifest = json.loads((tmp_path / "out" / "shelby-x" / "manifest.json").read_text())
    assert manifest["ready"] is False
    found = {f["rule"]: f for f in manifest["findings"] if f["code"] == "RCPT001"}
    assert set(found) == {"subject_owners", "abutting_owners", "shelby_owners_within_100_ft"}
    assert all(f["severity"] == "error" for f in found.values())
    assert "G.S. 160D-602(a)" in found["abutting_owners"]["citation"]
    assert "Shelby UDO § 8-5(C)" in found["shelby_owners_within_100_ft"]["citation"]
    assert "within 100 feet" in found["shelby_owners_within_100_ft"]["message"]
    for rule in found:
        assert f"error RCPT001 {rule}:" in run.stdout


def test_an_arizona_map_case_without_a_parcel_layer_is_not_ready(tmp_path: Path) -> None:
    prepared = prepare(_variant(tmp_path, "az-2027-map-01", gis=None))
    found = {f.rule: f for f in _codes(prepared, "RCPT001")}
    assert "owners_within_300_ft" in found
    assert found["owners_within_300_ft"].citation == "A.R.S. § 9-462.04(A)(3)"
    assert not ready(prepared.findings)


@pytest.mark.parametrize(
    ("case", "layer", "fact", "rule", "citation"),
    [
        (
            "ep-2027-za-03",
            "municipal_boundaries",
            "municipalities_within_200_ft",
            "councils_within_200_ft",
            "R.I.G.L. § 45-24-53(c)",
        ),
        (
            "az-2027-map-01",
            "military_airport_vicinity",
            "near_military_airport",
            "military_airport_notice",
            "A.R.S. § 9-462.04(A)(2)",
        ),
    ],
)
def test_a_fact_the_law_reads_from_a_missing_layer_is_an_error(
    tmp_path: Path, case: str, layer: str, fact: str, rule: str, citation: str
) -> None:
    """Without the layer and without the fact stated, notices the law may require are unknown."""
    data = yaml.safe_load((CASES / f"{case}.yaml").read_text())
    gis = {k: v for k, v in data["gis"].items() if k != layer}
    facts = {k: v for k, v in data["facts"].items() if k != fact}
    prepared = prepare(_variant(tmp_path, case, gis=gis, facts=facts))
    (found,) = _codes(prepared, "GIS002")
    assert found.severity == "error" and not ready(prepared.findings)
    assert f"`gis.{layer}`" in found.message and f"`facts.{fact}`" in found.message
    assert rule in found.message and citation in (found.citation or "")
    stated = prepare(_variant(tmp_path, case, gis=gis, facts={**facts, fact: data["facts"][fact]}))
    assert not _codes(stated, "GIS002")  # stating the fact answers it


# ---------------------------------------------------- owners the parcel layer cannot letter

NAMELESS = "2557-01-7712"  # an abutting owner in Asheville: the record keeps its address
NO_ADDRESS = "2557-11-0474"  # CABANISS, within 100 ft: the record keeps the name only
BLANK = ("2557-01-6271", "2557-01-9271")  # neither name nor address, two different parcels


def _shelby_with_damaged_owners(tmp_path: Path) -> Path:
    """The Shelby map sample reading a copy of its GeoPackage with four owners damaged."""
    gpkg = tmp_path / "nc-shelby.gpkg"
    shutil.copy(ROOT / "data" / "gis" / "nc-shelby.gpkg", gpkg)
    parcels = pyogrio.read_dataframe(gpkg, layer="parcels")
    address = ["MAIL_ADDR1", "MAIL_ADDR2", "MAIL_CITY", "MAIL_STATE", "MAIL_ZIP"]
    parcels.loc[parcels.PIN == NAMELESS, ["OWNER1", "OWNER2"]] = None
    parcels.loc[parcels.PIN == NO_ADDRESS, ["MAIL_ADDR1", "MAIL_CITY"]] = ""
    parcels.loc[parcels.PIN.isin(BLANK), ["OWNER1", "OWNER2", *address]] = None
    pyogrio.write_dataframe(parcels, gpkg, layer="parcels")
    text = (CASES / "shelby-2027-map-01.yaml").read_text()
    text = text.replace("../data/gis/nc-shelby.gpkg, layer: parcels", f"{gpkg}, layer: parcels")
    return write_case(tmp_path, text, "shelby-owners.yaml")


@pytest.mark.slow
def test_owners_without_a_name_or_an_address_are_named_and_the_packet_is_not_ready(
    tmp_path: Path,
) -> None:
    case = _shelby_with_damaged_owners(tmp_path)
    run = notices("build", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 1, run.stdout + run.stderr
    folder = tmp_path / "out" / "shelby-owners"
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["ready"] is False
    findings = manifest["findings"]

    (unnamed,) = [f for f in findings if f["code"] == "RCPT006"]
    assert unnamed["severity"] == "error" and unnamed["rule"] == "abutting_owners"
    assert NAMELESS in unnamed["message"] and "8973 JEFFERSON ST" in unnamed["message"]
    assert "G.S. 160D-602(a)" in unnamed["citation"]
    unmailable = {p: f for f in findings if f["code"] == "RCPT005" for p in re.findall(r"\d{4}-\d\d-\d{4}", f["message"])}  # fmt: skip
    assert set(unmailable) == {NO_ADDRESS, *BLANK}
    assert "CABANISS" in unmailable[NO_ADDRESS]["message"]
    assert unmailable[NO_ADDRESS]["rule"] == "shelby_owners_within_100_ft"
    assert unmailable[BLANK[0]] is not unmailable[BLANK[1]]  # two owners, not merged into one
    assert all(f["severity"] == "error" and f["citation"] for f in unmailable.values())
    for code in ("RCPT005", "RCPT006"):
        assert f"error {code} " in run.stdout

    # No letter without an addressee: the footer of each letter names it.
    text = "\n".join(p.extract_text() for p in pypdf.PdfReader(folder / "letters.pdf").pages)
    addressees = re.findall(r"^(.*?)\s*— page 1 of \d+$", text, re.M)
    assert addressees and all(a.strip() for a in addressees), addressees
    assert "Current Owner" in addressees
    assert ",nan," not in (folder / "recipients.csv").read_text()  # a missing ZIP is no ZIP
    listed = (folder / "mailing_list.csv").read_text().splitlines()[1:]
    assert len(listed) == len(addressees) and all(row.split(",")[1] for row in listed)


def test_an_owner_listed_by_hand_stands_in_for_an_incomplete_record(tmp_path: Path) -> None:
    case = _shelby_with_damaged_owners(tmp_path)
    hand = [
        {"name": f"OWNER OF {pid}", "parcels": [pid], "reason": "from the deed records",
         "address": {"lines": [f"{n} MAIN ST"], "city": "SHELBY", "state": "NC", "zip": "28150"}}
        for n, pid in enumerate((NAMELESS, NO_ADDRESS, *BLANK), 1)
    ]  # fmt: skip
    data = yaml.safe_load(case.read_text())
    case.write_text(_dump({**data, "additional_recipients": hand}))
    prepared = prepare(case)
    assert not _codes(prepared, "RCPT005") and not _codes(prepared, "RCPT006")
    assert ready(prepared.findings)
    names = [r.name for r in prepared.recipients.recipients]
    assert "Current Owner" not in names and "OWNER OF 2557-01-7712" in names


# ------------------------------------------------------- hearings on days offices are closed


@pytest.mark.parametrize(
    ("case", "index", "day", "holiday", "citation"),
    [
        ("ep-2027-za-03", 0, "2027-03-14", "Sun 2027-03-14", "R.I.G.L. § 25-1-1"),
        ("ep-2027-za-03", 0, "2027-12-25", "Christmas Day", "R.I.G.L. § 25-1-1"),
        ("ok-2027-map-01", 1, "2027-05-31", "Memorial Day", "25 O.S. § 82.1"),
        ("shelby-2027-map-01", 0, "2028-12-25", "Christmas Day", "G.S. 103-5"),
        ("az-2027-map-01", 1, "2027-05-09", "Mothers' Day", "A.R.S. § 1-301"),
    ],
)
def test_a_hearing_on_a_closed_day_is_reported(
    tmp_path: Path, case: str, index: int, day: str, holiday: str, citation: str
) -> None:
    hearings = yaml.safe_load((CASES / f"{case}.yaml").read_text())["hearings"]
    hearings[index]["date"] = day
    prepared = prepare(_variant(tmp_path, case, hearings=hearings))
    (found,) = _codes(prepared, "SCHED002")
    assert found.severity == "warning"  # no law the packs encode forbids it
    assert holiday in found.message and "offices closed" in found.message
    assert hearings[index]["body_name"] in found.message
    assert citation in (found.citation or "")


def test_a_legal_holiday_on_which_offices_are_open_is_no_closed_day(tmp_path: Path) -> None:
    """Arizona's Constitution Commemoration Day (Sept 17) is a holiday; offices stay open."""
    hearings = yaml.safe_load((CASES / "az-2027-map-01.yaml").read_text())["hearings"]
    hearings[1]["date"] = "2027-09-17"
    assert not _codes(prepare(_variant(tmp_path, "az-2027-map-01", hearings=hearings)), "SCHED002")


def test_a_pack_that_forbids_a_hearing_on_a_closed_day_makes_it_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(ROOT / "jurisdictions", packs)
    pack = packs / "us-ok-sample-city.yaml"
    pack.write_text(
        pack.read_text()
        + "\n  - id: test_no_meeting_on_holidays\n    title: The council does not meet on a"
        " holiday (a test rule)\n    citation: Test rule, not law\n    text: No meeting on a"
        " day the city's offices are closed.\n    kind: procedure\n    params: {topic:"
        " no_hearing_on_closed_day, body: council}\n"
    )
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    hearings = yaml.safe_load((CASES / "ok-2027-map-01.yaml").read_text())["hearings"]
    hearings[1]["date"] = "2027-05-31"
    prepared = prepare(_variant(tmp_path, "ok-2027-map-01", hearings=hearings))
    (found,) = _codes(prepared, "SCHED003")
    assert found.rule == "test_no_meeting_on_holidays" and "Memorial Day" in found.message
    assert not _codes(prepared, "SCHED002") and not ready(prepared.findings)
    hearings[0]["date"] = "2027-04-18"  # a Sunday: the planning commission is not bound
    prepared = prepare(_variant(tmp_path, "ok-2027-map-01", hearings=hearings))
    assert [f.code for f in prepared.findings if f.code.startswith("SCHED00")] == [
        "SCHED002",
        "SCHED003",
    ]


@pytest.mark.slow
def test_a_hearing_on_christmas_is_shown_by_the_build_and_kept_in_the_manifest(
    tmp_path: Path,
) -> None:
    hearings = yaml.safe_load((CASES / "ep-2027-za-03.yaml").read_text())["hearings"]
    hearings[0]["date"] = "2027-12-25"
    case = _variant(tmp_path, "ep-2027-za-03", hearings=hearings)
    run = notices("build", "-v", str(case), "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stdout + run.stderr  # a warning: the packet stays ready
    assert "warning SCHED002" in run.stdout and "Christmas Day" in run.stdout
    manifest = json.loads((tmp_path / "out" / "ep-2027-za-03" / "manifest.json").read_text())
    (found,) = [f for f in manifest["findings"] if f["code"] == "SCHED002"]
    assert found["citation"] == "R.I.G.L. § 25-1-1" and manifest["ready"] is True
