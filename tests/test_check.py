"""`notices check`: the record judged against the plan and the law (issue 17, items 1 and 7).

Real sample cases, real packs, the real schedule engine: a day-late insertion is missed with
its rule and citation, an act not yet due is said to be so, the Newport decision deadline runs
from the hearing's recorded close.
"""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.check import check
from generator.cli import app
from generator.prepare import prepare
from generator.schedule import Deadline

from .conftest import CASES
from .test_findings import variant

AZ = CASES / "az-2027-map-01.yaml"
OK = CASES / "ok-2027-map-01.yaml"


def _check(case: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["check", str(case), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.output)


def test_a_day_late_insertion_is_missed_with_its_rule_and_citation() -> None:
    status, out = _check(AZ, "--as-of", "2027-04-10")
    assert status == 1
    (paper,) = [
        r
        for r in out["requirements"]
        if r["channel"] == "newspaper" and r["hearing"] == "planning 2027-04-08"
    ]
    assert paper["status"] == "missed"
    assert paper["rule"] == "newspaper_notice"
    assert paper["citation"] == "A.R.S. § 9-462.04(A)(1)"
    assert paper["deadline"] == "by Wed 2027-03-24"
    assert "ran Thu 2027-03-25" in paper["recorded"]
    assert "last day for it was Wed 2027-03-24" in paper["note"]
    assert paper["evidence"] == [
        {"path": "evidence/az-2027-map-01/affidavit-of-publication-2027-03-25.txt", "on_file": True}
    ]
    mailed = next(r for r in out["requirements"] if r["channel"] == "mail")
    assert mailed["status"] == "met"
    assert mailed["recorded"] == "mailed Mon 2027-03-22, 41 pieces"


def test_acts_of_a_later_hearing_are_not_yet_due() -> None:
    _, out = _check(AZ, "--as-of", "2027-04-10")
    council = [r for r in out["requirements"] if r["hearing"] == "council 2027-05-04"]
    assert council and {r["status"] for r in council} == {"not yet due"}


def test_a_due_act_with_no_record_fails_the_check() -> None:
    _, out = _check(AZ, "--as-of", "2027-04-10")
    unrecorded = [r for r in out["requirements"] if r["status"] == "no record"]
    assert {r["rule"] for r in unrecorded} == {
        "abutting_planning_transmittal",
        "military_airport_notice",
    }


def test_a_record_is_judged_no_earlier_than_its_last_event() -> None:
    """The sample case is judged as of 2026-11-29; its record ends with the hearing of 2027-04-08.

    Judged on the case's day, the certificate would be dated months before the acts it certifies
    and call the transmittals, due 2027-03-24, "not yet due".
    """
    status, out = _check(AZ)
    assert out["judged_on"] == "2027-04-08"
    assert status == 1
    assert {r["rule"] for r in out["requirements"] if r["status"] == "no record"} == {
        "abutting_planning_transmittal",
        "military_airport_notice",
    }


def test_every_recorded_act_in_time_passes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    status, out = _check(OK, "--as-of", "2027-04-21")
    assert status == 0
    assert {r["status"] for r in out["requirements"]} == {"met", "not yet due"}


def test_build_reports_the_same_result() -> None:
    prepared = prepare(AZ, as_of=date(2027, 4, 10))
    missed = [f for f in prepared.findings if f.code == "REC001"]
    assert [(f.rule, f.citation) for f in missed] == [
        ("newspaper_notice", "A.R.S. § 9-462.04(A)(1)")
    ]
    assert check(prepared).failing == [
        r for r in check(prepared).requirements if r.status in ("missed", "no record")
    ]


def test_a_record_of_a_hearing_the_case_lacks_is_bad_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = variant(
        {
            "case": "ok-2027-map-01",
            "set": {
                "record": {
                    "hearings": [
                        {"hearing": "hearing_officer", "held_on": "2027-04-20", "closed": True}
                    ]
                }
            },
        },
        tmp_path,
        monkeypatch,
    )
    result = CliRunner().invoke(app, ["check", str(case)])
    assert result.exit_code == 2
    assert f"{case}:" in result.output
    assert ".yaml:" in result.output
    assert "record.hearings[0].hearing:" in result.output
    assert "no hearing_officer hearing" in result.output


def _newport(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, record: dict | None) -> Path:
    hearing = {
        "body": "council",
        "body_name": "Newport City Council",
        "date": "2027-04-28",
        "vote_date": "2027-05-26",
        "start_time": "6:30 p.m.",
        "place": "City Council Chambers, Newport City Hall",
        "address": {"lines": ["43 Broadway"], "city": "Newport", "state": "RI", "zip": "02840"},
    }
    sets: dict = {"hearings": [hearing]}
    if record is not None:
        sets["record"] = record
    return variant({"case": "newport-2027-map-01", "set": sets}, tmp_path, monkeypatch)


def _decision(path: Path) -> Deadline:
    (d,) = [d for d in prepare(path).deadlines if d.action == "council decides"]
    return d


def test_newport_decision_runs_from_the_hearings_recorded_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Continued from April 28 and closed May 12; the vote on May 26 does not start the 45 days."""
    path = _newport(
        tmp_path,
        monkeypatch,
        {
            "hearings": [
                {
                    "hearing": "council",
                    "held_on": "2027-04-28",
                    "closed": False,
                    "continued_to": "2027-05-12",
                    "continuance_announced": True,
                },
                {"hearing": "council", "held_on": "2027-05-12", "closed": True},
            ]
        },
    )
    d = _decision(path)
    assert d.rule == "decision_within_45_days"
    assert d.latest == date(2027, 6, 26)  # May 12 + 45 (the RI pack rolls no period forward)
    assert "the close recorded on Wed 2027-05-12" in d.derivation


def test_newport_decision_without_a_recorded_close_runs_from_the_planned_hearing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    d = _decision(_newport(tmp_path, monkeypatch, None))
    assert d.latest == date(2027, 6, 12)  # April 28 + 45; from the vote it would be July 10
    assert "not recorded: taken from the plan as Wed 2027-04-28" in d.derivation
