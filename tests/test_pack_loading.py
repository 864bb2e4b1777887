"""Rule packs: validation with located errors, the extends chain, and state-versus-local merging."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.errors import UserError
from generator.models.base import validate
from generator.models.case import Case
from generator.rules.explain import checklist, conflicts
from generator.rules.loader import load_pack_file, resolve, snapshot
from generator.yamlio import load

from .conftest import CASES, ROOT, notices

STATE = """\
schema_version: 1
id: us-xx
name: State X
level: state
version: "1"
last_verified_on: 2026-11-01
timezone: America/New_York
time_counting: {citation: "X Stat. § 0", text: The day of the act is not counted; the last day is.}
calendar: {country: US, subdiv: RI, citation: "X Stat. § 00"}
sources: [{citation: "X Stat. § 1", title: Notice}]
rules:
  - id: newspaper
    title: Newspaper notice
    citation: X Stat. § 1(a)
    text: Publish at least 15 days before the hearing.
    kind: notice
    params:
      channel: newspaper
      document: newspaper_notice
      timing: {type: at_least_before, days: 15}
  - id: mail_window
    title: Mailed notice window
    citation: X Stat. § 1(b)
    text: Mail not less than 10 nor more than 25 days before.
    kind: notice
    params:
      channel: mail
      document: letters
      timing: {type: window_before, min_days: 10, max_days: 25}
  - id: owners
    title: Owners within 100 feet
    citation: X Stat. § 1(c)
    text: Owners within 100 feet.
    kind: recipients
    params: {notice: mail_window, group: owners_within, distance_ft: 100}
  - id: costs
    title: Applicant pays
    citation: X Stat. § 1(d)
    text: The applicant pays.
    kind: procedure
    params: {topic: cost_borne_by_applicant}
"""

CITY = """\
schema_version: 1
id: us-xx-town
name: Town of X
level: municipality
extends: us-xx
version: "1"
last_verified_on: 2026-11-01
sources: [{citation: "Town Code § 9", title: Notice}]
rules:
  - id: town_newspaper
    title: Newspaper notice, 10 days
    citation: Town Code § 9(a)
    text: Publish at least 10 days before.
    supplements: newspaper
    conflict: The town allows 10 days; the state requires 15.
    kind: notice
    params:
      channel: newspaper
      document: newspaper_notice
      timing: {type: at_least_before, days: 10}
  - id: town_owners
    title: Owners within 300 feet
    citation: Town Code § 9(b)
    text: Owners within 300 feet.
    supplements: owners
    kind: recipients
    params: {notice: mail_window, group: owners_within, distance_ft: 300}
  - id: town_mail
    title: Mail 5 to 20 days
    citation: Town Code § 9(c)
    text: Mail 5 to 20 days before.
    supplements: mail_window
    kind: notice
    params:
      channel: mail
      document: letters
      timing: {type: window_before, min_days: 5, max_days: 20}
  - id: town_costs
    title: The town pays
    citation: Town Code § 9(d), as allowed by X Stat. § 2
    text: The town bears the cost.
    replaces: costs
    kind: procedure
    params: {topic: cost_borne_by_applicant}
"""


def packs(tmp_path: Path, **files: str) -> Path:
    root = tmp_path / "jurisdictions"
    root.mkdir()
    for name, text in files.items():
        (root / f"{name.replace('_', '-')}.yaml").write_text(text)
    return root


def problems(exc: pytest.ExceptionInfo[UserError]) -> str:
    return "\n".join(str(p) for p in exc.value.problems)


def case_for(pack_id: str):
    doc = load(CASES / "ep-2027-za-03.yaml")
    doc.data["jurisdiction"] = pack_id
    return validate(Case, doc)


def test_a_local_rule_supplements_the_state_rule_and_the_stricter_binds(tmp_path: Path) -> None:
    root = packs(tmp_path, us_xx=STATE, us_xx_town=CITY)
    resolved = resolve("us-xx-town", root)
    snap = snapshot(resolved, case_for("us-xx-town"), case_for("us-xx-town").hearings[0].date)
    by_id = {b.rule.id: b for b in snap.bindings}
    assert by_id["newspaper"].params.timing.days == 15  # state 15 beats local 10
    assert by_id["newspaper"].ids == ["newspaper", "town_newspaper"]
    assert by_id["owners"].params.distance_ft == 300  # local 300 beats state 100
    window = by_id["mail_window"].params.timing
    assert (window.min_days, window.max_days) == (10, 20)  # windows intersect
    assert "costs" not in by_id and "town_costs" in by_id  # replaced
    messages = [c.message for c in conflicts(resolved)]
    assert "The town allows 10 days; the state requires 15." in messages
    assert "timing.days: state 15, local 10; 15 binds" in messages
    text = checklist(resolved)
    assert "X Stat. § 1(a); Town Code § 9(a)" in text and "CONFLICTS" in text


def test_an_empty_window_intersection_is_an_error(tmp_path: Path) -> None:
    city = CITY.replace("min_days: 5, max_days: 20", "min_days: 30, max_days: 40")
    root = packs(tmp_path, us_xx=STATE, us_xx_town=city)
    resolved = resolve("us-xx-town", root)
    with pytest.raises(UserError) as exc:
        snapshot(resolved, case_for("us-xx-town"), case_for("us-xx-town").hearings[0].date)
    assert "windows do not overlap" in problems(exc)


def test_missing_parent(tmp_path: Path) -> None:
    root = packs(tmp_path, us_xx_town=CITY)
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", root)
    assert "us-xx-town.yaml: extends: parent pack 'us-xx' does not exist" in problems(exc)


def test_extends_cycle(tmp_path: Path) -> None:
    root = packs(
        tmp_path,
        us_xx=STATE.replace("level: state\n", "level: state\nextends: us-xx-town\n"),
        us_xx_town=CITY,
    )
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", root)
    assert "extends cycle: us-xx-town -> us-xx -> us-xx-town" in problems(exc)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ("channel: newspaper\n", "channel: newspapr\n", "rules[0].params.channel: Input should be"),
        (
            "kind: procedure",
            "kind: procedur",
            "rules[3]: Input tag 'procedur' found using 'kind' does not match",
        ),
        (
            "    text: The applicant pays.\n",
            "    text: The applicant pays.\n    when: {applicant_is_rich: true}\n",
            "unknown fact 'applicant_is_rich'",
        ),
        (
            "{type: at_least_before, days: 15}",
            "{type: at_least_before}",
            "a at_least_before timing needs days",
        ),
        ("  - id: owners\n", "  - id: Owners\n", "rules[2].id: String should match pattern"),
        (
            "last_verified_on: 2026-11-01",
            "last_verified_on: 2026-11-31",
            "last_verified_on: 2026-11-31 is not a real calendar date",
        ),
        ("  - id: costs\n", "  - id: owners\n", "rule id 'owners' is used twice"),
        (
            "timezone: America/New_York\n",
            "",
            "a state pack needs `timezone`, `time_counting` and `calendar`",
        ),
    ],
)
def test_bad_pack_input_is_located(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in STATE
    root = packs(tmp_path, us_xx=STATE.replace(old, new, 1))
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    text = problems(exc)
    assert expected in text
    assert "us-xx.yaml:" in text


def test_a_located_error_carries_the_line(tmp_path: Path) -> None:
    root = packs(tmp_path, us_xx=STATE.replace("channel: newspaper\n", "channel: newspapr\n"))
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    line = next(i for i, s in enumerate(STATE.splitlines(), 1) if "channel: newspaper" in s)
    assert exc.value.problems[0].line == line


def test_supplementing_an_unknown_rule_or_reusing_a_parent_id(tmp_path: Path) -> None:
    city = CITY.replace("supplements: owners", "supplements: owner").replace(
        "  - id: town_costs", "  - id: costs"
    )
    root = packs(tmp_path, us_xx=STATE, us_xx_town=city)
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", root)
    text = problems(exc)
    assert "'owner' is not a rule of a parent pack" in text
    assert "rule id 'costs' is already used by pack 'us-xx'" in text


def test_effective_dates_pick_the_law_in_force_on_the_hearing_date() -> None:
    resolved = resolve("us-ri-east-providence")
    old = {
        b.rule.id
        for b in snapshot(
            resolved, case_for("us-ri-east-providence"), __import__("datetime").date(2023, 6, 1)
        ).bindings
    }
    new = {
        b.rule.id
        for b in snapshot(
            resolved, case_for("us-ri-east-providence"), __import__("datetime").date(2027, 3, 16)
        ).bindings
    }
    assert "newspaper_notice_2023" in old and "newspaper_notice" not in old
    assert "newspaper_notice" in new and "newspaper_notice_2023" not in new


def test_explain_prints_a_checklist_grouped_by_channel_with_citations() -> None:
    result = notices("explain", "us-ri-east-providence", "--on", "2027-03-16")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for heading in (
        "NEWSPAPER",
        "MAIL",
        "POSTING",
        "WEBSITE",
        "CONTENT OF NEWSPAPER NOTICE",
        "PROCEDURE",
        "CONFLICTS",
    ):
        assert f"\n{heading}" in out
    assert "R.I.G.L. § 45-24-53(a); East Providence Code § 19-74(1)" in out
    assert "once each week for 3 successive weeks before the council hearing" in out
    assert "East Providence Code § 19-74(1)(c) vs R.I.G.L. § 45-24-53(a)(3)" in out


def test_explain_unknown_pack_exits_2() -> None:
    result = notices("explain", "us-zz")
    assert result.returncode == 2
    assert "unknown jurisdiction 'us-zz'" in result.stderr


def test_a_bad_pack_stops_the_build_with_exit_2_and_its_location(tmp_path: Path) -> None:
    root = packs(
        tmp_path,
        us_ri=(ROOT / "jurisdictions" / "us-ri.yaml")
        .read_text()
        .replace("weeks: 3\n", "weeks: three\n", 1),
    )
    (root / "us-ri-east-providence.yaml").write_text(
        (ROOT / "jurisdictions" / "us-ri-east-providence.yaml").read_text()
    )
    result = notices(
        "build",
        str(CASES / "ep-2027-za-03.yaml"),
        "--out",
        str(tmp_path / "out"),
        env={"NOTICES_JURISDICTIONS": str(root)},
    )
    assert result.returncode == 2, result.stderr
    line = next(
        i
        for i, s in enumerate((root / "us-ri.yaml").read_text().splitlines(), 1)
        if "weeks: three" in s
    )
    assert (
        f"us-ri.yaml:{line}:16: rules[0].params.timing.weeks: Input should be a valid integer"
        in result.stderr
    )
    assert not (tmp_path / "out").exists()
