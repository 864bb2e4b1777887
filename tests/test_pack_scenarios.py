"""Pack scenarios as data (tests/packs/<pack-id>.yaml), run against the real packs and cases.

Each scenario takes a sample case, optionally changes some of its fields, and states which
rules must apply, which must not, which values bind after merging state and local law, which
local rules are reported as conflicts, and which dates the schedule must compute
(`deadlines: {<rule id>.<hearing body>: {latest, earliest, issues, copy_deadline}}`).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import pytest

from generator.inputs import load_profile, with_profile
from generator.models.base import validate
from generator.models.case import Case
from generator.rules.explain import conflicts
from generator.rules.loader import resolve, snapshot
from generator.schedule import compute
from generator.yamlio import Located, load

from .conftest import ROOT

SCENARIOS = sorted((ROOT / "tests" / "packs").glob("*.yaml"))


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
        obj = getattr(obj, part)
    if hasattr(obj, "value") and not isinstance(obj, (int, float, str)):
        obj = obj.value
    return obj


@pytest.mark.parametrize(("pack_id", "scenario"), _cases())
def test_scenario(pack_id: str, scenario: dict[str, Any]) -> None:
    doc = load(ROOT / scenario["case"])
    for dotted, value in (scenario.get("changes") or {}).items():
        _set(doc.data, dotted, value)
    case = validate(Case, Located(doc.data, doc.file, doc.values, doc.keys))
    if case.newspaper and case.newspaper.profile:  # as load_case does
        paper = with_profile(case.newspaper, load_profile(case.newspaper.profile))
        case = case.model_copy(update={"newspaper": paper})
    assert case.jurisdiction == pack_id
    resolved = resolve(pack_id)
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


def test_every_pack_is_covered_by_scenarios() -> None:
    """Each pack has a scenario file, or is a parent of one that has."""
    from generator.rules.loader import available

    covered = {pf.pack.id for path in SCENARIOS for pf in resolve(Path(path).stem).chain}
    assert set(available()) <= covered, f"packs without scenarios: {set(available()) - covered}"
