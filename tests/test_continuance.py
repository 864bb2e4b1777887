"""A continued hearing: no re-notice where the law allows continuing by announcement to a date
certain, a full re-notice with new deadlines otherwise, the old documents kept in `history/`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator import continuance
from generator.cli import app
from generator.inputs import load_case
from generator.prepare import prepare
from generator.rules.loader import resolve

from .conftest import CASES, ROOT, without_record


def _continued(
    tmp_path: Path,
    case: str,
    *,
    announced: bool,
    held: str,
    to: str,
    body: str = "council",
    record: bool = True,
) -> Path:
    """A sample case whose record says its `body` hearing was continued from `held` to `to`."""
    text = without_record((CASES / f"{case}.yaml").read_text())
    text = text.replace("../data/gis/", f"{ROOT / 'data/gis'}/")
    text += (
        ""
        if not record
        else (
            "\nrecord:\n  hearings:\n"
            f"    - {{hearing: {body}, held_on: {held}, closed: false, continued_to: {to},"
            f" continuance_announced: {str(announced).lower()}}}\n"
        )
    )
    path = tmp_path / f"{case}.yaml"
    path.write_text(text)
    return path


def _decided(path: Path) -> list[continuance.Continued]:
    cf = load_case(path)
    return continuance.decide(cf, resolve(cf.case.jurisdiction))


def test_announced_to_a_date_certain_needs_no_renotice_where_the_pack_says_so(
    tmp_path: Path,
) -> None:
    path = _continued(
        tmp_path, "ok-2027-map-01", announced=True, held="2027-05-10", to="2027-06-14"
    )
    [c] = _decided(path)
    assert not c.renotice and c.why == "announced"
    assert c.rule is not None and c.rule.params.by_announcement == "no_renotice"
    assert c.finding().code == "CONT001"
    cf = load_case(path)
    assert continuance.continued_case(cf, [c]) is cf  # the notices given stand


def test_not_announced_is_noticed_again_with_deadlines_from_the_new_date(tmp_path: Path) -> None:
    path = _continued(
        tmp_path, "ok-2027-map-01", announced=False, held="2027-05-10", to="2027-06-14"
    )
    cf = load_case(path)
    [c] = continuance.decide(cf, resolve(cf.case.jurisdiction))
    assert c.renotice and c.finding().code == "CONT002"
    before = {d.rule: d for d in prepare(cf).deadlines}
    after = {d.rule: d for d in prepare(continuance.continued_case(cf, [c])).deadlines}
    # 11 O.S. § 43-104: published at least 15 days before the hearing, now the continued one.
    assert str(before["newspaper_notice"].latest) == "2027-04-25"
    assert str(after["newspaper_notice"].latest) == "2027-05-30"
    assert str(after["mailed_notice"].latest) == "2027-03-31"  # the planning hearing: unchanged


def test_announced_where_the_law_is_silent_is_noticed_again_and_says_why(tmp_path: Path) -> None:
    path = _continued(
        tmp_path, "az-2027-map-01", announced=True, held="2027-05-04", to="2027-06-01"
    )
    [c] = _decided(path)
    assert c.renotice and c.why == "law_silent"
    assert c.finding().code == "CONT003" and c.finding().severity == "warning"


def test_a_record_naming_no_hearing_of_the_case_is_bad_input(tmp_path: Path) -> None:
    path = _continued(
        tmp_path, "ok-2027-map-01", announced=True, held="2027-05-10", to="2027-06-14",
        body="hearing_officer",
    )  # fmt: skip
    result = CliRunner().invoke(app, ["continue", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    line = 1 + path.read_text().splitlines().index(
        "    - {hearing: hearing_officer, held_on: 2027-05-10, closed: false,"
        " continued_to: 2027-06-14, continuance_announced: true}"
    )
    assert f"ok-2027-map-01.yaml:{line}:17: record.hearings[0].hearing" in result.output
    assert "names no hearing of the case" in result.output


def _manifest(folder: Path) -> dict[str, str]:
    data = json.loads((folder / "manifest.json").read_text())
    return {d["path"]: d["sha256"] for d in data["documents"]}


@pytest.mark.slow
@pytest.mark.parametrize("announced", [True, False])
def test_continue_rebuilds_what_changes_and_keeps_the_old_in_history(
    tmp_path: Path, announced: bool
) -> None:
    when = {"announced": announced, "held": "2027-05-10", "to": "2027-06-14"}
    path = _continued(tmp_path, "ok-2027-map-01", **when, record=False)
    out = tmp_path / "out"
    runner = CliRunner()
    assert runner.invoke(app, ["build", str(path), "--out", str(out)]).exit_code == 0
    _continued(tmp_path, "ok-2027-map-01", **when)  # the clerk records the continuance
    folder = out / "ok-2027-map-01"
    before = _manifest(folder)
    edited = folder / "sign-planning.pdf"
    edited.write_bytes(edited.read_bytes() + b"%edited by the clerk\n")

    result = runner.invoke(app, ["continue", str(path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    after = _manifest(folder)
    history = folder / "history" / "2027-05-10-continued-to-2027-06-14"
    changed = {p for p in before if before[p] != after.get(p)} - {"lint_report.json"}
    kept = {p.name for p in history.iterdir()} - {"manifest.json", "lint_report.json"}
    assert kept == changed  # exactly what the rebuild replaced, as it was
    assert _manifest(history) == before  # the old manifest, with them
    assert "Continued hearings" in (folder / "schedule.html").read_text()
    if announced:
        # No re-notice: only the schedule, which marks the continuance, changes.
        assert changed == {"schedule.html", "schedule.pdf"}
        assert "no new notice" in result.output
    else:
        assert {"newspaper_notice.pdf", "letters-council.pdf", "schedule.json"} <= changed
        assert "June 14, 2027" in (folder / "newspaper_notice.txt").read_text()
        assert "May 10, 2027" in (history / "newspaper_notice.txt").read_text()
    # The clerk's edited sign is never overwritten: it is kept beside the new draft.
    assert (folder / "sign-planning.edited-1.pdf").read_bytes().endswith(b"%edited by the clerk\n")
