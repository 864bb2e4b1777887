"""Owners from a county's parcel layer as counties publish it: the letters can be mailed.

Issue 16's "done when": a case pointing at a layer with MAIL1–MAIL5 blocks gets correct labels
and letters. The layer is the county-style fixture (tests/county_fixture.py: Pima County's
free-form block and Regrid's split fields for the same owners, real address shapes).
"""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest
import yaml

from generator.inputs import load_case
from generator.packet import build
from generator.recipients import Recipient, collect
from generator.rules.loader import resolve

from .conftest import CASES
from .county_fixture import CountyFixture, write_county_fixture

PRESETS = {"parcels_mail": "pima-az", "parcels_split": "regrid"}


@pytest.fixture
def county(tmp_path: Path) -> CountyFixture:
    return write_county_fixture(tmp_path / "county.gpkg")


def county_case(tmp_path: Path, fixture: CountyFixture, layer: str) -> Path:
    """The Arizona map sample, its subject the fixture's middle lot, owners from `layer`."""
    case = yaml.safe_load((CASES / "az-2027-map-01.yaml").read_text())
    case["parcels"] = [{**case["parcels"][0], "id": fixture.subject}]
    case["gis"] = {
        "measure_crs": fixture.crs,
        "measure_unit": "foot",
        "parcels": {"path": fixture.path.name, "layer": layer, "schema": PRESETS[layer]},
    }
    path = tmp_path / f"{layer}.yaml"
    path.write_text(yaml.safe_dump(case, sort_keys=False, allow_unicode=True))
    return path


def owners(tmp_path: Path, fixture: CountyFixture, layer: str) -> list[Recipient]:
    cf = load_case(county_case(tmp_path, fixture, layer))
    return [r for r in collect(cf, resolve(cf.case.jurisdiction)).recipients if r.kind == "owner"]


def addressed(text: str, block: list[str]) -> bool:
    """Whether `block` is printed line under line (the window's lines share theirs with the
    parcel box to their right, so a line may go on after the address)."""
    lines = text.splitlines()
    return any(
        all(lines[i + k].startswith(want) for k, want in enumerate(block))
        for i in range(len(lines) - len(block) + 1)
    )


def label(r: Recipient) -> list[str]:
    return [r.name, *r.lines, r.last_line]


def test_a_free_form_block_and_split_fields_give_the_same_letters(
    tmp_path: Path, county: CountyFixture
) -> None:
    block = owners(tmp_path, county, "parcels_mail")
    split = owners(tmp_path, county, "parcels_split")

    def key(r: Recipient) -> tuple:
        # An address that cannot be read is kept as the record writes it: lines or fields. A
        # foreign one from split fields is put together in the US order (city, region, code).
        where = sorted(" ".join(r.lines).split()) if r.country else r.lines
        return r.name, r.parcels, r.unread or (where, r.last_line), r.flags

    assert [key(r) for r in block] == [key(r) for r in split]
    by_name = {r.name: r for r in block}
    # Pub 28 labels from each shape counties write.
    assert label(by_name["PEMBERLY FAMILY TRUST"]) == [
        "PEMBERLY FAMILY TRUST", "C/O FIRST DESERT FIDUCIARY CO", "PO BOX 3456",
        "TUCSON AZ 85722-3456",
    ]  # fmt: skip
    assert label(by_name["THISTLEWOOD OSWIN & MARGO"])[-1] == "ORO VALLEY AZ 85755"
    assert label(by_name["BEAUCHEMIN LUC & ELODIE"])[-2:] == ["MONTREAL QC H3A 3S7", "CANADA"]
    assert label(by_name["LINDQVIST PO2 MAREN"])[1:] == ["PSC 473 BOX 12", "FPO AP 96349"]
    assert label(by_name["MOTT  SYBIL"])[1:] == ["3300 N CAMPBELL AVE", "TUCSON AZ 85719"]
    # In state, out of state, abroad and overseas military, from the parsed state and country.
    assert "mails out of state" in by_name["HALVORSEN INGRID"].flags
    assert "mails outside the United States" in by_name["BEAUCHEMIN LUC & ELODIE"].flags
    assert "mails to a military post office (APO/FPO/DPO)" in by_name["LINDQVIST PO2 MAREN"].flags
    assert all("mails out of state" not in r.flags for r in block if r.state == "AZ")
    # One owner at two addresses: two letters. Two owners at one address: two letters.
    desert = [r for r in block if r.name == "DESERT BLOOM HOLDINGS LLC"]
    assert sorted(r.parcels[0] for r in desert) == sorted(
        o.parcel for o in county.by_shape("same owner, two addresses")
    )
    assert [len(r.parcels) for r in desert] == [1, 1]
    assert {"STRAND ROBERTA", "ESPARZA MATEO"} <= set(by_name)
    # A ZIP code that lost its leading zero is never printed: the record cannot be read.
    (boston,) = [r for r in block if r.name == "CABOT-LOWELL PRISCILLA"]
    assert not boston.mailable and "'2108' has a digit missing" in boston.unread


@pytest.mark.slow
def test_a_case_on_a_mail_block_layer_builds_letters_with_its_labels(
    tmp_path: Path, county: CountyFixture
) -> None:
    """The built packet: letters addressed as Pub 28 says; an unreadable record holds it back."""
    result = build(load_case(county_case(tmp_path, county, "parcels_mail")), tmp_path / "out")
    with pdfplumber.open(next(result.folder.glob("letters*.pdf"))) as pdf:
        text = "\n".join(page.extract_text() or "" for page in pdf.pages)
    assert addressed(text, ["PEMBERLY FAMILY TRUST", "C/O FIRST DESERT FIDUCIARY CO",
                            "PO BOX 3456", "TUCSON AZ 85722-3456"])  # fmt: skip
    assert addressed(text, ["1500 RUE UNIVERSITY APT 1201", "MONTREAL QC H3A 3S7", "CANADA"])
    assert "ORO VALLEY AZ ORO VALLEY" not in text
    unread = {
        f["message"].split(",")[0] for f in result.manifest["findings"] if f["code"] == "RCPT007"
    }
    assert unread == {
        f"parcel {o.parcel}"
        for shape in ("block stops after the street", "zip lost its leading zero")
        for o in county.by_shape(shape)
    }
    assert not result.ready
