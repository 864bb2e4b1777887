"""`notices check`: the record judged against the plan and the law (issue 17, items 1 and 7).

Real sample cases, real packs, the real schedule engine: a day-late insertion is missed with
its rule and citation, an act not yet due is said to be so, the Newport decision deadline runs
from the hearing's recorded close.
"""

from __future__ import annotations

import json
import shutil
from datetime import date
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.check import check
from generator.cli import app
from generator.prepare import prepare
from generator.schedule import Deadline

from .conftest import CASES, ROOT
from .test_findings import variant

AZ = CASES / "az-2027-map-01.yaml"
OK = CASES / "ok-2027-map-01.yaml"


def until(case: Path, day: str, tmp_path: Path) -> Path:
    """The sample case as its record stood at the end of `day`: the later entries left out."""
    data = yaml.safe_load(case.read_text())

    def when(entry: dict) -> str:
        return str(
            next(
                entry[k]
                for k in ("ran_on", "mailed_on", "posted_on", "held_on", "filed_at", "received_on")
                if k in entry
            )
        )

    data["record"] = {
        key: [e for e in entries if when(e)[:10] <= day] for key, entries in data["record"].items()
    }
    folder = tmp_path / "case"
    folder.mkdir()
    shutil.copytree(CASES / "evidence", folder / "evidence")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
    path = folder / case.name
    path.write_text(text.replace("../data/gis/", f"{ROOT / 'data' / 'gis'}/"))
    return path


def _check(case: Path, *args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(app, ["check", str(case), "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.output)


def test_a_day_late_insertion_is_missed_with_its_rule_and_citation(tmp_path: Path) -> None:
    status, out = _check(until(AZ, "2027-04-10", tmp_path), "--as-of", "2027-04-10")
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
    assert mailed["recorded"] == "mailed Mon 2027-03-22, 45 pieces"


def test_acts_of_a_later_hearing_are_not_yet_due(tmp_path: Path) -> None:
    _, out = _check(until(AZ, "2027-04-10", tmp_path), "--as-of", "2027-04-10")
    council = [r for r in out["requirements"] if r["hearing"] == "council 2027-05-04"]
    assert council and {r["status"] for r in council} == {"not yet due"}


def test_a_due_act_with_no_record_fails_the_check(tmp_path: Path) -> None:
    case = until(AZ, "2027-04-10", tmp_path)
    data = yaml.safe_load(case.read_text())
    data["record"]["mailings"] = [m for m in data["record"]["mailings"] if "kind" not in m]
    case.write_text(yaml.safe_dump(data, sort_keys=False))  # the copies sent, not recorded
    _, out = _check(case, "--as-of", "2027-04-10")
    unrecorded = [r for r in out["requirements"] if r["status"] == "no record"]
    assert {r["rule"] for r in unrecorded} == {
        "abutting_planning_transmittal",
        "military_airport_notice",
    }


def test_a_record_is_judged_no_earlier_than_its_last_event() -> None:
    """The sample case is judged as of 2026-11-29; its record ends with the hearing of 2027-05-04.

    Judged on the case's day, the certificate would be dated months before the acts it certifies
    and call the transmittals, due 2027-03-24 and 2027-04-19, "not yet due".
    """
    status, out = _check(AZ)
    assert out["judged_on"] == "2027-05-04"
    assert status == 1  # the planning hearing's notice ran a day late
    copies = [r for r in out["requirements"] if r["channel"] == "transmittal"]
    assert len(copies) == 4 and {r["status"] for r in copies} == {"met"}


def test_a_mailing_short_of_the_list_is_missed(tmp_path: Path) -> None:
    """Letters to some of the owners the law names are not notice to the others."""
    case = until(AZ, "2027-04-10", tmp_path)
    case.write_text(case.read_text().replace("count: 45", "count: 41", 1))
    _, out = _check(case, "--as-of", "2027-04-10")
    mailed = next(r for r in out["requirements"] if r["channel"] == "mail")
    assert mailed["status"] == "missed"
    assert mailed["note"] == "41 pieces recorded of the 45 the list holds"


def test_an_insertion_off_the_papers_day_but_within_the_law_is_met(tmp_path: Path) -> None:
    """The council notice ran Thursday 2027-04-15, the day after the paper's planned Wednesday
    issue, and still more than 15 days before the hearing of 2027-05-04 (A.R.S. § 9-462.04(A)(1))."""
    _, out = _check(AZ)
    (paper,) = [
        r
        for r in out["requirements"]
        if r["channel"] == "newspaper" and r["hearing"] == "council 2027-05-04"
    ]
    assert paper["status"] == "met" and paper["recorded"] == "ran Thu 2027-04-15"


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


def test_insertions_not_in_successive_weeks_are_missed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R.I.G.L. § 45-24-53(a): once each week for three successive weeks (calendar weeks).

    Two insertions in the week of April 11 and none in the week of April 18 are not three
    successive weeks, though each ran before its planned issue.
    """
    runs = ["2027-04-13", "2027-04-15", "2027-04-27"]
    case = variant(
        {
            "case": "newport-2027-map-01",
            "set": {
                "record": {"publications": [{"hearing": "council", "ran_on": day} for day in runs]}
            },
        },
        tmp_path,
        monkeypatch,
    )
    _, out = _check(case, "--as-of", "2027-04-27")
    (paper,) = [r for r in out["requirements"] if r["channel"] == "newspaper"]
    assert paper["status"] == "missed"
    assert paper["note"] == (
        "insertion 2 ran Thu 2027-04-15, not in the week after insertion 1"
        " (Sun 2027-04-18 to Sat 2027-04-24)"
    )
    good = ["2027-04-17", "2027-04-20", "2027-04-27"]
    case.write_text(case.read_text().replace(runs[0], good[0]).replace(runs[1], good[1]))
    _, out = _check(case, "--as-of", "2027-04-27")
    (paper,) = [r for r in out["requirements"] if r["channel"] == "newspaper"]
    assert paper["status"] == "met", paper
