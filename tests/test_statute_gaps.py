"""The constructs the Texas, Georgia and Pennsylvania statutes needed (issue 18, part E).

A day named by another weekday, months in `at_least_after`, rule versions judged by the filing
date, a threshold's own vote ("a majority of all members"), and the case facts the Texas
§ 211.0061 and Georgia § 36-66-4(f) rules turn on. The pack scenarios (tests/packs/us-tx.yaml,
us-ga.yaml, us-pa.yaml) compute the dates; these check what a scenario cannot: which version's
citation binds, the votes, the findings and the load errors.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from generator.models.pack import ProtestParams, Vote
from generator.prepare import prepare
from generator.rules.loader import Binding, snapshot
from generator.votes import supermajority, votes_needed

from .conftest import CASES, ROOT, notices, write_case

TX = CASES / "tx-2027-map-01.yaml"
GA = CASES / "ga-2027-map-01.yaml"


def _case(tmp_path: Path, source: Path, amendment: dict[str, object], **top: object) -> Path:
    data = yaml.safe_load(source.read_text())
    data["amendment"].update(amendment)
    for key, value in top.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return write_case(tmp_path, yaml.safe_dump(data, sort_keys=False), source.name)


def _protest(path: Path) -> Binding[ProtestParams]:
    prepared = prepare(path)
    council = prepared.case.hearings[-1].date
    found = snapshot(prepared.pack, prepared.case, council).of(ProtestParams)
    assert len(found) == 1, [b.rule.id for b in found]
    return found[0]


@pytest.mark.parametrize(("full", "needed"), [(5, 3), (6, 4), (7, 4), (8, 5)])
def test_a_majority_of_all_members_is_more_than_half(full: int, needed: int) -> None:
    majority = Vote.model_validate(
        {"fraction": {"numerator": 1, "denominator": 2}, "rounding": "more_than"}
    )
    assert supermajority(majority, full, 0, 0)[0] == needed


def test_texas_60_percent_of_the_adjoining_area_forces_only_a_majority(tmp_path: Path) -> None:
    """§ 211.0061(b)(3), (d): a change allowing more dwellings and no commerce."""
    path = _case(
        tmp_path,
        TX,
        {
            "allows_more_residential_development": True,
            "allows_added_commercial_or_industrial_use": False,
        },
    )
    binding = _protest(path)
    assert binding.rule.id == "protest_more_residential"
    in_change, adjoining = binding.params.thresholds
    assert (in_change.share, adjoining.share) == (0.2, 0.6)
    assert votes_needed(binding, 7, met=[adjoining]).needed == 4  # a majority of 7
    assert votes_needed(binding, 7, met=[in_change]).needed == 6  # 3/4 × 7 = 5.25, up
    assert votes_needed(binding, 7, met=[in_change, adjoining]).needed == 6
    unweighed = votes_needed(binding, 7)
    assert unweighed.needed == 6 and "not weighed" in unweighed.derivation[0]


def test_the_sample_retail_rezoning_keeps_the_20_percent_protest(tmp_path: Path) -> None:
    binding = _protest(TX)
    assert binding.rule.id == "protest"
    assert [t.share for t in binding.params.thresholds] == [0.2, 0.2]
    assert votes_needed(binding, 7).needed == 6


@pytest.mark.parametrize(
    ("filed", "citation"),
    [("2025-08-31", "211.006(d)"), ("2025-09-01", "211.0061")],
)
def test_h_b_24_governs_a_proposal_by_the_day_it_was_filed(
    tmp_path: Path, filed: str, citation: str
) -> None:
    """Heard in November 2025 either way: the filing date picks the version."""
    data = yaml.safe_load(TX.read_text())
    data["hearings"][0]["date"] = "2025-10-13"
    data["hearings"][1]["date"] = "2025-11-03"
    data["as_of"] = "2025-09-02"
    data["petition_received"] = filed
    path = write_case(tmp_path, yaml.safe_dump(data, sort_keys=False), TX.name)
    binding = _protest(path)
    assert citation in binding.rule.citation
    assert "PLAN010" not in {f.code for f in prepare(path).findings}


def test_without_a_filing_date_the_hearing_decides_and_plan010_says_so(tmp_path: Path) -> None:
    path = _case(tmp_path, TX, {}, petition_received=None)
    prepared = prepare(path)
    said = [f for f in prepared.findings if f.code == "PLAN010"]
    assert said and said[0].rule == "protest" and "petition_received" in said[0].message
    assert "211.0061" in _protest(path).rule.citation


def test_an_unstated_treatment_facility_is_reported_as_assumed(tmp_path: Path) -> None:
    """§ 36-66-4(f): never a silent false; the plan names the fact the clerk must state."""
    data = yaml.safe_load(GA.read_text())
    del data["amendment"]["allows_drug_treatment_facility"]
    path = write_case(tmp_path, yaml.safe_dump(data, sort_keys=False), GA.name)
    assumed = [f.message for f in prepare(path).findings if f.code == "PLAN005"]
    assert assumed and "allows_drug_treatment_facility" in assumed[0]
    stated = [f.message for f in prepare(GA).findings if f.code == "PLAN005"]
    assert not any("allows_drug_treatment_facility" in m for m in stated)


@pytest.mark.slow
def test_a_treatment_facility_notice_prints_the_statement(tmp_path: Path) -> None:
    path = _case(tmp_path, GA, {"allows_drug_treatment_facility": True})
    result = notices("build", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode in (0, 1), result.stderr
    texts = [p.read_text() for p in (tmp_path / "out").rglob("*newspaper*.txt")]
    assert texts and all("halfway house, drug rehabilitation center, or other" in t for t in texts)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "{name: Flag Day, month: 6, day: 14,",
            "{name: Flag Day, month: 6, day: 14, offset_days: 1,",
            "offset_days counts from a weekday",
        ),
        (
            "offset_days: 1, citation",
            "offset_days: 9, citation",
            "offset_days",
        ),
    ],
)
def test_a_bad_holiday_shape_stops_with_exit_2_and_its_location(
    tmp_path: Path, old: str, new: str, message: str
) -> None:
    root = tmp_path / "jurisdictions"
    root.mkdir()
    text = (ROOT / "jurisdictions" / "us-pa.yaml").read_text()
    assert old in text
    (root / "us-pa.yaml").write_text(text.replace(old, new, 1))
    result = notices("explain", "us-pa", env={"NOTICES_JURISDICTIONS": str(root)})
    assert result.returncode == 2, result.stderr
    assert "us-pa.yaml:" in result.stderr and "calendar.additions" in result.stderr
    assert message in result.stderr


def test_a_bad_judged_by_stops_with_exit_2(tmp_path: Path) -> None:
    root = tmp_path / "jurisdictions"
    root.mkdir()
    text = (ROOT / "jurisdictions" / "us-tx.yaml").read_text()
    (root / "us-tx.yaml").write_text(
        text.replace("{to: 2025-08-31, judged_by: filing}", "{to: 2025-08-31, judged_by: decided}")
    )
    result = notices("explain", "us-tx", env={"NOTICES_JURISDICTIONS": str(root)})
    assert result.returncode == 2, result.stderr
    assert "effective.judged_by" in result.stderr and "'hearing' or 'filing'" in result.stderr


def test_explain_shows_the_new_constructs() -> None:
    pa = notices("explain", "us-pa").stdout
    assert "added: Election Day (1 day after the first Monday of November), offices closed" in pa
    tx = notices("explain", "us-tx").stdout
    assert "judged by the filing date" in tx
    assert "then a vote of 1/2 of all members, more than that fraction" in tx
    ga = notices("explain", "us-ga").stdout
    assert "no sooner than 6 months after the first hearing" in ga


def test_months_in_at_least_after_need_no_days() -> None:
    from generator.models.timing import Timing

    t = Timing.model_validate({"type": "at_least_after", "months": 6})
    assert t.months == 6 and t.days is None
    with pytest.raises(ValueError, match="needs days or months"):
        Timing.model_validate({"type": "at_least_after"})
