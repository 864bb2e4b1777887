"""Recipient groups as data, and facts counted from the recipients and parcels (issue 18, items 2-3).

Worked on the sample towns' real GeoPackages (data/gis): a pack copied beside the test gains
rules of the new groups (the applicant, the owner when the applicant is not the owner, agencies
by list and by layer, abutting municipalities) and counts (`computed_facts`), and the case is
collected and built as the product does.
"""

from __future__ import annotations

import csv
import io
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.errors import UserError
from generator.inputs import load_case
from generator.models.conditions import evaluate
from generator.packet import build
from generator.prepare import prepare
from generator.recipients import collect, to_csv
from generator.rules.loader import resolve, snapshot

from .conftest import CASES, ROOT, notices, without_gis, write_case

APPLICANT = {
    "id": "test_applicant_mailed",
    "title": "The applicant is mailed the notice",
    "citation": "Test § 1",
    "text": "A test rule.",
    "kind": "recipients",
    "params": {
        "notice": "mailed_notice",
        "group": "applicant",
        "delivery": "certified",
        "content": "applicant_letter",
    },
}
OWNER = {
    "id": "test_owner_not_applicant",
    "title": "The owner, when the applicant is not the owner",
    "citation": "Test § 2",
    "text": "A test rule.",
    "kind": "recipients",
    "params": {"notice": "mailed_notice", "group": "owner_if_not_applicant"},
}
SCHOOLS = {
    "id": "test_school_district",
    "title": "The school district",
    "citation": "Test § 3",
    "text": "A test rule.",
    "kind": "recipients",
    "params": {
        "notice": "mailed_notice",
        "group": "agencies",
        "delivery": "first_class",
        "list": [
            {"name": "Cleveland County Schools", "address": "400 W Marion St, Shelby, NC 28150"}
        ],
    },
}


def packs_with(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pack_id: str, **extra: Any) -> Path:
    """A copy of the packs in which `pack_id` has the `extra` sections added (rules appended)."""
    folder = tmp_path / "jurisdictions"
    if not folder.exists():
        shutil.copytree(ROOT / "jurisdictions", folder)
    path = folder / f"{pack_id}.yaml"
    doc = yaml.safe_load(path.read_text())
    for key, value in extra.items():
        doc[key] = [*doc.get(key, []), *value]
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True))
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(folder))
    return folder


def shelby(tmp_path: Path, **changes: Any) -> Path:
    """The Shelby map sample (real nc-shelby.gpkg), with top-level fields changed."""
    data = yaml.safe_load((CASES / "shelby-2027-map-01.yaml").read_text())
    for dotted, value in changes.items():
        *parents, last = dotted.split(".")
        node = data
        for name in parents:
            node = node[name]
        if value is None:
            node.pop(last, None)
        else:
            node[last] = value
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    return write_case(tmp_path, text, "shelby-x.yaml")


def rows(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))


def test_the_applicant_the_owner_and_a_listed_agency_each_with_group_and_delivery(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[APPLICANT, OWNER, SCHOOLS])
    case = shelby(tmp_path, **{"applicant.is_owner": False, "applicant.name": "Eastside Builders"})
    prepared = prepare(case)
    people = {r.name: r for r in prepared.recipients.recipients}
    applicant = people["Eastside Builders"]
    assert (applicant.kind, applicant.groups, applicant.delivery) == (
        "applicant",
        ["applicant"],
        "certified",
    )
    assert applicant.content == "applicant_letter"
    schools = people["Cleveland County Schools"]
    assert (schools.kind, schools.groups, schools.delivery) == (
        "agency",
        ["agencies"],
        "first_class",
    )
    assert (schools.city, schools.zip5) == ("Shelby", "28150")
    # The owner of record of the two subject parcels, who is not the applicant: in the subject
    # owners' group and the new one, one letter.
    owners = [r for r in prepared.recipients.recipients if "owner_if_not_applicant" in r.groups]
    assert len(owners) == 1 and {"subject_owners", "owner_if_not_applicant"} <= set(
        owners[0].groups
    )
    assert set(owners[0].parcels) >= {p.id for p in prepared.case.parcels}
    assert not [f for f in prepared.findings if f.code == "RCPT008"]


def test_an_applicant_who_owns_the_land_is_not_sent_the_owners_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[OWNER])
    data = load_case(shelby(tmp_path, **{"applicant.is_owner": True}))
    found = collect(data, resolve("us-nc-shelby"))
    assert not [r for r in found.recipients if "owner_if_not_applicant" in r.groups]


def test_a_group_that_cannot_be_filled_is_a_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    layer_rule = {
        **SCHOOLS,
        "id": "test_water_agencies",
        "params": {
            "notice": "mailed_notice",
            "group": "agencies",
            "layer": "noise_zones",  # a layer the Shelby case does not map
        },
    }
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[APPLICANT, layer_rule])
    prepared = prepare(shelby(tmp_path, **{"applicant.address": None}))
    unfilled = {f.rule: f.message for f in prepared.findings if f.code == "RCPT008"}
    assert "applicant.address" in unfilled["test_applicant_mailed"]
    assert "gis.noise_zones" in unfilled["test_water_agencies"]
    assert prepared.findings and not [
        r for r in prepared.recipients.recipients if r.kind == "applicant"
    ]


def test_agencies_and_abutting_municipalities_from_the_layers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """East Providence (ri-east-providence.gpkg): its water source's agency within 2,000 ft, and
    Pawtucket, whose line lies 33 ft from the parcel, within 200 ft; the city itself is left out."""
    water = {
        **SCHOOLS,
        "id": "test_water_agencies",
        "params": {
            "notice": "mailed_notice_map_change",
            "group": "agencies",
            "layer": {
                "name": "water_sources",
                "fields": {"name": "agency", "address": "agency_address"},
                "within_ft": 2000,
            },
        },
    }
    towns = {
        **SCHOOLS,
        "id": "test_abutting_towns",
        "params": {
            "notice": "mailed_notice_map_change",
            "group": "abutting_municipalities",
            "delivery": "certified",
            "layer": {
                "name": "municipal_boundaries",
                "fields": {"name": "name", "address": "council_address"},
                "within_ft": 200,
            },
        },
    }
    packs_with(tmp_path, monkeypatch, "us-ri", rules=[water, towns])
    pack = resolve("us-ri-east-providence")

    def collected(parcel_id: str) -> dict[str, Any]:
        text = (
            (CASES / "ep-2027-za-03.yaml")
            .read_text()
            .replace("- id: 107-4-12", f"- id: {parcel_id}")
        )
        found = collect(load_case(write_case(tmp_path, text, f"ep-{parcel_id}.yaml")), pack)
        return {r.name: r for r in found.recipients if set(r.groups) - {"owners_within", "named"}}

    near_pawtucket = collected("102-1-2")  # 33 ft from the Pawtucket line
    town = near_pawtucket["City of Pawtucket"]
    assert (town.kind, town.groups, town.delivery) == (
        "council",
        ["abutting_municipalities"],
        "certified",
    )
    assert (town.lines, town.city, town.zip5) == (
        ["City Council", "Pawtucket City Hall", "137 Roosevelt Avenue"],
        "Pawtucket",
        "02860",
    )
    assert "City of East Providence" not in near_pawtucket  # the city does not notice itself
    near_reservoir = collected("124-3-2")  # 126 ft from Turner Reservoir
    agency = near_reservoir["City of East Providence Department of Public Works, Water Division"]
    assert "agencies" in agency.groups and agency.kind == "agency" and agency.mailable
    assert (agency.city, agency.zip5) == ("East Providence", "02914")
    assert "City of Pawtucket" not in near_reservoir


def test_recipients_and_mailing_lists_carry_group_and_delivery_and_the_proof_lists_each_group(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schools = {**SCHOOLS, "params": {**SCHOOLS["params"], "content": "agency_letter"}}
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[APPLICANT, schools])
    case = shelby(tmp_path, **{"applicant.is_owner": False, "applicant.name": "Eastside Builders"})
    out = tmp_path / "out"
    build(case, out)
    folder = out / case.stem
    listed = {r["recipient"]: r for r in rows((folder / "recipients.csv").read_bytes())}
    assert listed["Eastside Builders"]["group"] == "applicant"
    assert listed["Eastside Builders"]["delivery"] == "certified"
    assert listed["Cleveland County Schools"]["group"] == "agencies"
    mailed = {r["name"]: r for r in rows((folder / "mailing_list.csv").read_bytes())}
    assert mailed["Eastside Builders"]["delivery"] == "certified"
    proof = subprocess.run(
        ["pdftotext", "-layout", str(folder / "certificate_of_mailing.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    flat = " ".join(proof.split())
    assert "the applicant, sent by certified mail — Test § 1" in flat
    assert "the school district, sent by first-class mail — Test § 3" in flat
    letters = subprocess.run(
        ["pdftotext", str(folder / "letters.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(letters.split())
    assert "because you applied to the City of Shelby" in flat
    # Each letter cites the rule its recipient is notified under, not every rule the letter serves.
    assert "Test § 1 requires that you be notified" in flat
    assert "As Test § 3 requires, the City of Shelby transmits" in flat


def test_email_delivery_needs_the_law_that_allows_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    emailed = {**SCHOOLS, "params": {**SCHOOLS["params"], "delivery": "email"}}
    folder = packs_with(tmp_path, monkeypatch, "us-nc", rules=[emailed])
    with pytest.raises(UserError) as caught:
        resolve("us-nc", folder)
    message = str(caught.value)
    assert "us-nc.yaml" in message and "email_allowed" in message
    result = notices("explain", "us-nc", env={"NOTICES_JURISDICTIONS": str(folder)})
    assert result.returncode == 2, result.stdout + result.stderr


# ------------------------------------------------------------------ computed facts

MAILED_200 = {
    "id": "test_owners_within_200_ft",
    "title": "Owners within 200 ft",
    "citation": "Test § 4",
    "text": "A test rule.",
    "kind": "recipients",
    "when": {"map_change": True},
    "params": {"notice": "mailed_notice", "group": "owners_within", "distance_ft": 200},
}
MANY = {
    "id": "test_many_owners_procedure",
    "title": "A rule for more than 10 owners to be mailed",
    "citation": "Test § 5",
    "text": "A test rule.",
    "kind": "procedure",
    "when": {"computed.owners_to_mail": {"gt": 10}},
    "params": {"topic": "hearing_required"},
}
FEW = {**MANY, "id": "test_few_owners_procedure", "when": {"computed.owners_to_mail": {"gt": 1000}}}
COUNTS = [
    {"id": "owners_to_mail", "count": "owners", "of": "test_owners_within_200_ft"},
    {"id": "parcels_to_mail", "count": "parcels", "of": "test_owners_within_200_ft"},
    {"id": "subject_acres", "sum": "area_acres", "of": "subject"},
]


def test_counts_over_what_an_owner_rule_selects_decide_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The owners within 200 ft of the Shelby parcels in nc-shelby.gpkg, counted as the
    recipient list merges them, turn a rule on at more than 10 and leave one off at 1,000."""
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[MAILED_200, MANY, FEW], computed_facts=COUNTS)
    prepared = prepare(CASES / "shelby-2027-map-01.yaml")
    computed = prepared.case.facts.computed
    mailed = [r for r in prepared.recipients.recipients if "test_owners_within_200_ft" in r.rules]
    assert computed["owners_to_mail"] == len(mailed) > 10
    assert computed["parcels_to_mail"] == len({p for r in mailed for p in r.parcels})
    # The two subject parcels' mapped area, near the 0.41 + 0.37 acres the case states.
    assert 0.5 < computed["subject_acres"] < 1.2
    assert "test_many_owners_procedure" in prepared.rule_ids
    assert "test_few_owners_procedure" not in prepared.rule_ids
    said = [f.message for f in prepared.findings if f.code == "FACT001"]
    assert any(
        m.startswith(f"computed.owners_to_mail = {len(mailed)}") and "nc-shelby.gpkg" in m
        for m in said
    ), said
    explained = notices(
        "explain",
        "--case",
        str(CASES / "shelby-2027-map-01.yaml"),
        env={"NOTICES_JURISDICTIONS": str(tmp_path / "jurisdictions")},
    )
    assert f"computed.owners_to_mail = {len(mailed)}" in explained.stdout
    assert "(computed.owners_to_mail)" in explained.stdout


def test_an_unknown_count_is_never_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a parcel layer the owners cannot be counted: `not: {computed.x: {gt: 1000}}` is
    not taken as true, nor `computed.x > 1000` as false; the rule applies and FACT002 says so."""
    never = {
        **MANY,
        "id": "test_not_many",
        "when": {"not": {"computed.owners_to_mail": {"gt": 1000}}},
    }
    packs_with(
        tmp_path, monkeypatch, "us-nc", rules=[MAILED_200, FEW, never], computed_facts=COUNTS
    )
    text = without_gis((CASES / "shelby-2027-map-01.yaml").read_text())
    prepared = prepare(write_case(tmp_path, text, "shelby-nogis.yaml"))
    assert "owners_to_mail" not in prepared.case.facts.computed
    assert {"test_few_owners_procedure", "test_not_many"} <= prepared.rule_ids
    warned = {f.rule for f in prepared.findings if f.code == "FACT002"}
    assert {"test_few_owners_procedure", "test_not_many"} & warned
    # The area comes from the areas the case states when there is no layer.
    assert prepared.case.facts.computed["subject_acres"] == pytest.approx(0.78)
    outcome = evaluate({"computed.owners_to_mail": {"gt": 1000}}, prepared.case)
    assert outcome.value and outcome.unknown == {"computed.owners_to_mail"}


def test_the_clerk_may_state_a_count_and_the_plan_says_which_was_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = shelby(tmp_path, **{"facts.distinct_owners": 5})
    prepared = prepare(case)
    assert prepared.case.facts.computed["distinct_owners"] == 5
    differs = [f.message for f in prepared.findings if f.code == "FACT003"]
    assert differs and "states 5" in differs[0] and "gives 1" in differs[0]


def test_north_carolinas_large_scale_counts_are_computed_not_stated(tmp_path: Path) -> None:
    """G.S. 160D-602(b): the Shelby case no longer needs to state its counts; the pack counts
    the subject parcels and their owners in the parcel layer."""
    data = yaml.safe_load((CASES / "shelby-2027-map-01.yaml").read_text())
    del data["facts"]["properties_affected"], data["facts"]["distinct_owners"]
    case = write_case(tmp_path, yaml.safe_dump(data, sort_keys=False), "shelby-counted.yaml")
    prepared = prepare(case)
    assert prepared.case.facts.computed == {"properties_affected": 2, "distinct_owners": 1}
    assert "subject_owners" in prepared.rule_ids
    snap = snapshot(prepared.pack, prepared.case, prepared.case.hearings[0].date)
    assert not snap.unknown and "PLAN005" not in {f.code for f in prepared.findings}


@pytest.mark.parametrize(
    ("section", "entry", "message"),
    [
        (
            "computed_facts",
            {"id": "x", "count": "owners", "of": "no_such_rule"},
            "neither `subject`",
        ),
        (
            "computed_facts",
            {"id": "x", "count": "owners", "sum": "area_acres", "of": "subject"},
            "one of them",
        ),
        (
            "rules",
            {**MANY, "id": "test_undeclared", "when": {"computed.nobody": {"gt": 1}}},
            "computed.nobody, which is not declared under `computed_facts:`",
        ),
        (
            "rules",
            {**SCHOOLS, "params": {**SCHOOLS["params"], "content": "transmittal"}},
            "but its notice rule mailed_notice makes letters",
        ),
    ],
)
def test_bad_counts_and_contents_are_one_clear_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, section: str, entry: dict, message: str
) -> None:
    folder = packs_with(tmp_path, monkeypatch, "us-nc", **{section: [entry]})
    with pytest.raises(UserError) as caught:
        resolve("us-nc", folder)
    assert message in str(caught.value) and "us-nc.yaml" in str(caught.value)


def test_a_group_the_law_lets_be_emailed_takes_the_addresses_the_case_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Persons who asked for notice, e-mailed where the pack cites the law that allows it; one
    without an e-mail address is a finding, not a silent omission."""
    requesters = {
        **SCHOOLS,
        "id": "test_requesters_emailed",
        "params": {
            "notice": "mailed_notice",
            "group": "named",
            "recipient_kind": "registered",
            "names": [{"from": "registered_persons"}],
            "delivery": "email",
            "email_allowed": "Test § 6",
        },
    }
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[requesters])
    address = {"lines": ["9 Oak St"], "city": "Shelby", "state": "NC", "zip": "28150"}
    case = shelby(
        tmp_path,
        registered_persons=[
            {"name": "Ann Reader", "address": address, "email": "ann@example.org"},
            {"name": "Bo Reader", "address": address},
        ],
    )
    found = collect(load_case(case), resolve("us-nc-shelby"))
    people = {r.name: r for r in found.recipients}
    assert (people["Ann Reader"].delivery, people["Ann Reader"].email) == (
        "email",
        "ann@example.org",
    )
    assert "e-mail address needed" in people["Bo Reader"].flags
    assert [f for f in found.findings if f.code == "RCPT008" and "Bo Reader" in f.message]
    rows_ = {r["recipient"]: r for r in rows(to_csv(found))}
    assert rows_["Ann Reader"]["delivery"] == "email"


def test_an_emailed_recipient_gets_no_label_and_the_list_shows_the_e_mail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing is mailed to a recipient the law lets be e-mailed: no label, no firm-list line;
    the mailing list and the proof show the e-mail address instead of a piece number."""
    requesters = {
        **SCHOOLS,
        "id": "test_requesters_emailed",
        "params": {
            "notice": "mailed_notice",
            "group": "named",
            "recipient_kind": "registered",
            "names": [{"from": "registered_persons"}],
            "delivery": "email",
            "email_allowed": "Test § 6",
        },
    }
    packs_with(tmp_path, monkeypatch, "us-nc", rules=[requesters])
    address = {"lines": ["9 Oak St"], "city": "Shelby", "state": "NC", "zip": "28150"}
    case = shelby(
        tmp_path,
        registered_persons=[{"name": "Ann Reader", "address": address, "email": "ann@example.org"}],
    )
    out = tmp_path / "out"
    build(case, out)
    folder = out / case.stem

    def text(name: str) -> str:
        run = subprocess.run(
            ["pdftotext", str(folder / name), "-"], capture_output=True, text=True, check=True
        )
        return " ".join(run.stdout.split())

    assert "Ann Reader" not in text("labels.pdf")
    listed = {r["name"]: r for r in rows((folder / "mailing_list.csv").read_bytes())}
    ann = listed["Ann Reader"]
    assert (ann["seq"], ann["delivery"], ann["email"]) == ("", "email", "ann@example.org")
    assert all(r["seq"] for name, r in listed.items() if name != "Ann Reader")
    assert "Ann Reader e-mailed to ann@example.org" in text("certificate_of_mailing.pdf")
