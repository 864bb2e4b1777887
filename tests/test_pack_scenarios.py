"""Pack scenarios as data (tests/packs/<pack-id>.yaml), run against the real packs and cases.

Each scenario takes a sample case, optionally changes some of its fields, and states which
rules must apply, which must not, which values bind after merging state and local law, which
local rules are reported as conflicts, and which dates the schedule must compute
(`deadlines: {<rule id>.<hearing body>: {latest, earliest, issues, copy_deadline}}`).

Where a scenario speaks of what the GIS layers answer, the recipient list is collected as the
build does (the layers answer the pack's `layer_facts` first, and the rules see those facts):
`facts_found` (the case facts afterwards), `recipients` (each a name with the kind, city,
rules or flags it must have), `not_recipients` (names), `findings` (codes), and
`newspaper_zips` (the circulation ZIP codes a newspaper profile would list). `problems` are the
case's option problems (`options.<id>: ...`); a scenario without them must have none.
`schedule_findings` (codes, or `{code, rule, citation}` with a part of the citation) and
`no_schedule_findings` (codes) judge the case's hearings as the build does: procedural
deadlines, the spacing of hearings, their time of day and the numbered hearings the law names.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from generator.inputs import CaseFile, load_profile, option_problems, with_profile
from generator.models.base import validate
from generator.models.case import Case
from generator.models.newspaper import NewspaperProfile
from generator.recipients import collect
from generator.rules.explain import conflicts
from generator.rules.loader import resolve, snapshot
from generator.schedule import compute, hearing_time_findings
from generator.schedule import findings as schedule_findings
from generator.yamlio import Located, load

from .conftest import ROOT

SCENARIOS = sorted((ROOT / "tests" / "packs").glob("*.yaml"))
GIS_KEYS = (
    "facts_found",
    "recipients",
    "not_recipients",
    "findings",
    "schedule_findings",
    "no_schedule_findings",
)


def _cases() -> list[tuple[str, dict[str, Any], str]]:
    out = []
    for path in SCENARIOS:
        spec = load(path).data
        for scenario in spec["scenarios"]:
            out.append(pytest.param(spec["pack"], scenario, id=f"{path.stem}: {scenario['name']}"))
    return out


def _set(data: dict[str, Any], dotted: str, value: Any) -> None:
    parts = dotted.replace("]", "").replace("[", ".").split(".")
    node: Any = data
    for part in parts[:-1]:
        node = node[int(part)] if isinstance(node, list) else node.setdefault(part, {})
    last = parts[-1]
    if isinstance(node, list):
        node[int(last)] = value
    elif value is None:
        node.pop(last, None)
    else:
        node[last] = value


def _get(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        # A number picks a list's item: `thresholds.0.radius_ft`.
        obj = obj[int(part)] if part.isdigit() else getattr(obj, part)
    if hasattr(obj, "value") and not isinstance(obj, (int, float, str)):
        obj = obj.value
    return obj


@pytest.mark.parametrize(("pack_id", "scenario"), _cases())
def test_scenario(pack_id: str, scenario: dict[str, Any]) -> None:
    doc = load(ROOT / scenario["case"])
    for dotted, value in (scenario.get("changes") or {}).items():
        _set(doc.data, dotted, value)
    changed = Located(doc.data, doc.file, doc.values, doc.keys)
    case = validate(Case, changed)
    profile = None
    if case.newspaper and case.newspaper.profile:  # as load_case does
        profile = load_profile(case.newspaper.profile)
        case = case.model_copy(update={"newspaper": with_profile(case.newspaper, profile)})
    assert case.jurisdiction == pack_id
    resolved = resolve(pack_id)
    found = [str(p) for p in option_problems(changed, case, resolved.options)]
    for want in scenario.get("problems", []):
        assert any(want in f for f in found), f"no problem {want!r}; have {found}"
    assert found if scenario.get("problems") else not found, found
    if any(key in scenario for key in GIS_KEYS):
        case = _with_layers(scenario, case, profile, resolved)
    on = date.fromisoformat(scenario["on"]) if scenario.get("on") else case.hearings[0].date
    snap = snapshot(resolved, case, on)
    live = {rule_id: b for b in snap.bindings for rule_id in b.ids}
    for rule_id in scenario.get("applies", []):
        assert rule_id in live, f"{rule_id} should apply"
    for rule_id in scenario.get("not_applies", []):
        assert rule_id not in live, f"{rule_id} should not apply"
    for rule_id, values in (scenario.get("binding") or {}).items():
        for dotted, want in values.items():
            assert _get(live[rule_id].params, dotted) == want, f"{rule_id}.{dotted}"
    if "deadlines" in scenario:
        computed = {d.id: d.as_json() for d in compute(case, resolved)}
        for deadline_id, want in scenario["deadlines"].items():
            assert deadline_id in computed, f"no deadline {deadline_id}; have {sorted(computed)}"
            for key, value in want.items():
                got = computed[deadline_id][key]
                if isinstance(value, list):
                    value = [str(v) for v in value]
                assert got == (str(value) if isinstance(value, date) else value), (
                    f"{deadline_id}.{key}: {got} != {value}\n{computed[deadline_id]['derivation']}"
                )
    if "conflicts" in scenario:
        reported = {c.local.id for c in conflicts(resolved, on)}
        assert set(scenario["conflicts"]) <= reported
    if "schedule_findings" in scenario or "no_schedule_findings" in scenario:
        judged = schedule_findings(case, compute(case, resolved)) + hearing_time_findings(
            case, resolved
        )
        for want in scenario.get("schedule_findings") or []:
            want = want if isinstance(want, dict) else {"code": want}
            hits = [
                f
                for f in judged
                if f.code == want["code"]
                and want.get("rule", f.rule) == f.rule
                and want.get("citation", "") in (f.citation or "")
            ]
            assert hits, f"no finding {want}; have {[(f.code, f.rule, f.message) for f in judged]}"
        for code in scenario.get("no_schedule_findings") or []:
            assert code not in {f.code for f in judged}, [f.message for f in judged]


def _with_layers(
    scenario: dict[str, Any], case: Case, profile: NewspaperProfile | None, resolved: Any
) -> Case:
    """Collect the recipients as the build does; check them; the case with the layers' facts."""
    if "newspaper_zips" in scenario:
        stand_in = profile or NewspaperProfile.model_construct()
        profile = stand_in.model_copy(update={"circulation_zips": scenario["newspaper_zips"]})
    path = ROOT / scenario["case"]
    result = collect(CaseFile(case, path, path.stem, profile), resolved)
    for fact, want in (scenario.get("facts_found") or {}).items():
        have = getattr(result.case.facts, fact)
        if isinstance(want, list) and want and isinstance(want[0], dict):
            have = [h.model_dump(exclude_none=True) for h in have]
        assert have == want, f"facts.{fact}: {have} != {want}"
    people = {r.name: r for r in result.recipients}
    for want in scenario.get("recipients") or []:
        r = people.get(want["name"])
        assert r is not None, f"no recipient {want['name']!r}; have {sorted(people)}"
        for key, value in want.items():
            have = getattr(r, key)
            if isinstance(value, list):
                assert set(value) <= set(have), f"{r.name}.{key}: {have} lacks {value}"
            else:
                assert have == value, f"{r.name}.{key}: {have!r} != {value!r}"
    for name in scenario.get("not_recipients") or []:
        assert name not in people, f"{name} should not be a recipient"
    codes = {f.code for f in result.findings}
    for code in scenario.get("findings") or []:
        assert code in codes, f"no finding {code}; have {sorted(codes)}"
    return result.case


def test_every_pack_is_covered_by_scenarios() -> None:
    """Each pack has a scenario file, or is a parent of one that has."""
    from generator.rules.loader import available

    covered = {pf.pack.id for path in SCENARIOS for pf in resolve(Path(path).stem).chain}
    assert set(available()) <= covered, f"packs without scenarios: {set(available()) - covered}"
