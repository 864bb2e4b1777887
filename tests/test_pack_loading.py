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
state: RI
version: "1"
last_verified_on: 2026-11-01
timezone: America/New_York
time_counting: {citation: "X Stat. § 0", text: The day of the act is not counted; the last day is.}
calendar: {country: US, subdiv: RI, categories: [public], observed: library, citation: "X Stat. § 00"}
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
    assert "days of notice: state law 15, local law 10; 15 binds" in messages
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
            "a state pack needs `state`, `timezone`, `time_counting` and `calendar`",
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


DECLARATIONS = """\
options:
  - id: post_sign
    title: Post a sign on the land
    type: yes_no
    citation: X Stat. § 2
    text: The town may also post a sign.
  - id: methods
    title: How owners are told
    type: choices
    choices: [mail, display_ad]
    citation: X Stat. § 3
    text: By one or more of mail and a display ad.
layer_facts:
  - fact: water_source_within_2000_ft
    title: A water source within 2,000 feet
    layer: water_sources
    within_ft: 2000
    citation: X Stat. § 4
    text: A public water source within 2,000 feet of the land.
"""
DECLARED = STATE.replace("rules:\n", DECLARATIONS + "rules:\n", 1)
SIGN_RULE = """\
  - id: town_sign
    title: A sign on the land
    citation: Town Code § 9(e)
    text: The town may post a sign.
    when: {option.post_sign: true}
    kind: notice
    params: {channel: sign, document: sign, requirement: optional, elected_by: option.post_sign}
"""


def test_options_and_layer_facts_are_declared_along_the_chain(tmp_path: Path) -> None:
    root = packs(tmp_path, us_xx=DECLARED, us_xx_town=CITY + SIGN_RULE)
    resolved = resolve("us-xx-town", root)
    assert list(resolved.options) == ["post_sign", "methods"] and resolved.state == "RI"
    assert [f.fact for f in resolved.layer_facts] == ["water_source_within_2000_ft"]
    case = case_for("us-xx-town")
    on = case.hearings[0].date
    assert "town_sign" not in {b.rule.id for b in snapshot(resolved, case, on).bindings}
    elected = case.model_copy(update={"options": case.options.electing("post_sign", True)})
    assert "town_sign" in {b.rule.id for b in snapshot(resolved, elected, on).bindings}
    text = checklist(resolved)
    assert "options.post_sign: true or false" in text
    assert "(facts.water_source_within_2000_ft)" in text


def test_an_unstated_choices_option_has_chosen_nothing(tmp_path: Path) -> None:
    rule = SIGN_RULE.replace("{option.post_sign: true}", "{option.methods: {eq: []}}")
    root = packs(tmp_path, us_xx=DECLARED, us_xx_town=CITY + rule)
    case = case_for("us-xx-town")
    snap = snapshot(resolve("us-xx-town", root), case, case.hearings[0].date)
    assert "town_sign" in {b.rule.id for b in snap.bindings} and not snap.assumed


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "when: {option.post_sign: true}",
            "when: {option.post_signs: true}",
            "rules[4].when: rule town_sign names option 'post_signs', which is not declared"
            " under `options:` of this pack or its parents (declared: methods, post_sign)",
        ),
        (
            "elected_by: option.post_sign}",
            "elected_by: option.posting}",
            "rules[4].params.elected_by: rule town_sign names option 'posting', which is not",
        ),
        (
            "when: {option.post_sign: true}",
            "when: {option.methods: {contains: fax}}",
            "rules[4].when: rule town_sign compares option 'methods' with 'fax', not one of its"
            " choices (mail, display_ad)",
        ),
    ],
)
def test_a_rule_may_test_only_an_option_the_chain_declares(
    tmp_path: Path, old: str, new: str, expected: str
) -> None:
    city = CITY + SIGN_RULE.replace(old, new)
    root = packs(tmp_path, us_xx=DECLARED, us_xx_town=city)
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", root)
    line = next(i for i, s in enumerate(city.splitlines(), 1) if "id: town_sign" in s)
    assert f"us-xx-town.yaml:{line}: {expected}" in problems(exc)


def test_a_city_may_restate_but_not_narrow_a_declaration(tmp_path: Path) -> None:
    city = CITY.replace(
        "rules:\n",
        "options:\n  - {id: post_sign, title: A sign, type: choices, choices: [big], citation: C § 1,"
        " text: A sign.}\nlayer_facts:\n  - {fact: water_source_within_2000_ft, title: Water,"
        " layer: water_sources, within_ft: 1000, citation: C § 2, text: Water within 1000 ft.}\n"
        "rules:\n",
        1,
    )
    root = packs(tmp_path, us_xx=DECLARED, us_xx_town=city)
    with pytest.raises(UserError) as exc:
        resolve("us-xx-town", root)
    text = problems(exc)
    assert "options[0].type: pack 'us-xx' declares option 'post_sign' as yes_no" in text
    assert (
        "layer_facts[0].within_ft: pack 'us-xx' reads water_source_within_2000_ft from"
        " water_sources within 2000 ft" in text
    )


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        (
            "fact: water_source_within_2000_ft",
            "fact: water_nearby",
            "layer_facts[0]: fact: 'water_nearby' is not a case fact",
        ),
        (
            "layer: water_sources",
            "layer: parcels",
            "layer_facts[0]: unknown layer 'parcels'",
        ),
        (
            "within_ft: 2000\n",
            "within_ft: 2000\n    names: town\n",
            "the case fact water_source_within_2000_ft takes neither `names` nor `holders`",
        ),
        (
            "within_ft: 2000\n",
            "within_ft: 2000\n    only_where: [surveyed]\n",
            "the water_sources layer has no field 'surveyed'",
        ),
        (
            "type: yes_no\n",
            "type: choices\n",
            "options[0]: a choices option lists its `choices`; a yes_no option has none",
        ),
        (
            "params: {notice: mail_window, group: owners_within, distance_ft: 100}",
            "params: {notice: mail_window, group: named, recipient_kind: council}",
            "a named group needs `names` and `recipient_kind`",
        ),
        (
            "params: {notice: mail_window, group: owners_within, distance_ft: 100}",
            "params: {notice: mail_window, group: named, recipient_kind: council,"
            " names: [{from: facts.councils}]}",
            "from: 'facts.councils' is not a case field that holds a name",
        ),
        (
            "params: {notice: mail_window, group: owners_within, distance_ft: 100}",
            "params: {notice: mail_window, group: owners_within, distance_ft: 100,"
            " mailing_address_outside: [municipality], names: [{from: registered_persons}]}",
            "`names` and `recipient_kind` belong to the named group",
        ),
    ],
)
def test_bad_declarations_are_located(tmp_path: Path, old: str, new: str, expected: str) -> None:
    assert old in DECLARED
    root = packs(tmp_path, us_xx=DECLARED.replace(old, new, 1))
    with pytest.raises(UserError) as exc:
        load_pack_file("us-xx", root)
    assert expected in problems(exc)
