"""One registry of findings: every code is declared once, explained, documented and exemplified.

Each code any output can contain — `notices build`, `recipients` or `lint` — is declared in
generator/findings.py with a passing and a failing example; the examples of the planning, law,
recipient, GIS, schedule, mail, sign and display-ad findings are data (tests/findings/), run
here on variants of the sample cases; the lint rules' are in tests/lint/.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import app
from generator.documents import registry
from generator.findings import FINDINGS, reference
from generator.kinds import DocumentKind
from generator.prepare import prepare

from .conftest import CASES, ROOT

EXAMPLES = yaml.safe_load((Path(__file__).parent / "findings" / "examples.yaml").read_text())
LINT = Path(__file__).parent / "lint"


class _Quoted(yaml.SafeDumper):
    """Strings always quoted: the case loader reads YAML 1.2 (a bare 02914 would be a number)."""


_Quoted.add_representer(
    str, lambda dumper, s: dumper.represent_scalar("tag:yaml.org,2002:str", s, style='"')
)


def _value(value: object) -> object:
    if isinstance(value, dict) and set(value) == {"repeat"}:
        text, times = value["repeat"]
        return text * times
    return value


def variant(example: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example's case file: a sample case with its edits, files, templates and packs."""
    data = yaml.safe_load((CASES / f"{example['case']}.yaml").read_text())
    for key, value in (example.get("set") or {}).items():
        *parents, last = key.split(".")
        target = data
        for name in parents:
            target = target.setdefault(name, {})
        if value is None:
            target.pop(last, None)
        else:
            target[last] = _value(value)
    folder = tmp_path / "case"
    folder.mkdir()
    text = yaml.dump(data, Dumper=_Quoted, sort_keys=False, allow_unicode=True)
    path = folder / f"{example['case']}.yaml"
    path.write_text(text.replace("../data/gis/", f"{ROOT / 'data' / 'gis'}/"))
    # The files the sample's record names (signers, returned letters, evidence) go with it.
    for extra in CASES.glob(f"{example['case']}.*.csv"):
        shutil.copy(extra, folder / extra.name)
    if "record" in data:
        shutil.copytree(CASES / "evidence", folder / "evidence")
    for name, content in (example.get("files") or {}).items():
        (folder / name).write_text(content)
    if example.get("templates"):
        base = tmp_path / "templates" / "_base"
        base.mkdir(parents=True)
        for name, (old, new) in example["templates"].items():
            original = (ROOT / "templates" / "_base" / name).read_text()
            assert old in original, f"{name}: the example's text is not in the template"
            (base / name).write_text(original.replace(old, new))
        monkeypatch.setenv("NOTICES_TEMPLATES", str(tmp_path / "templates"))
    if example.get("pack_rules") or example.get("pack_fields"):
        packs = tmp_path / "jurisdictions"
        shutil.copytree(ROOT / "jurisdictions", packs)
        for pack_id, rules in (example.get("pack_rules") or {}).items():
            pack = packs / f"{pack_id}.yaml"
            doc = yaml.safe_load(pack.read_text())
            doc["rules"] = [*doc.get("rules", []), *rules]
            pack.write_text(yaml.dump(doc, Dumper=_Quoted, sort_keys=False, allow_unicode=True))
        for pack_id, fields in (example.get("pack_fields") or {}).items():
            pack = packs / f"{pack_id}.yaml"
            doc = yaml.safe_load(pack.read_text()) | fields
            pack.write_text(yaml.dump(doc, Dumper=_Quoted, sort_keys=False, allow_unicode=True))
        monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    return path


def _id(example: dict) -> str:
    return f"{example['code']}-{example['expect']}-{example['case']}"


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_finding_examples(example: dict, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    prepared = prepare(variant(example, tmp_path, monkeypatch))
    found = list(prepared.findings)
    build = example.get("build")
    if build:
        kinds = None if build == "all" else tuple(DocumentKind(k) for k in build)
        found += registry.make(prepared, kinds).findings
    hits = [f for f in found if f.code == example["code"]]
    if example["expect"] == "pass":
        assert not hits, [f.message for f in hits]
        return
    assert hits, f"{example['code']} not reported; found {sorted({f.code for f in found})}"
    if example.get("rule"):
        assert any(f.rule == example["rule"] for f in hits), [f.rule for f in hits]
    assert all(f.message and f.severity == FINDINGS[f.code].severity for f in hits)


def test_every_code_has_a_passing_and_a_failing_example() -> None:
    every = EXAMPLES + yaml.safe_load((LINT / "examples.yaml").read_text())
    every += yaml.safe_load((LINT / "packet_examples.yaml").read_text())
    every += yaml.safe_load(
        (Path(__file__).parent / "findings" / "proof_examples.yaml").read_text()
    )
    for code in FINDINGS:
        kinds = {e["expect"] for e in every if e["code"] == code}
        assert kinds == {"pass", "fail"}, f"{code}: examples {sorted(kinds)}"
    assert {e["code"] for e in every} <= set(FINDINGS)


def test_every_code_the_product_emits_is_declared_and_every_declared_code_is_emitted() -> None:
    """A finding code written in the product is in the registry, and the registry has no orphans."""
    source = "\n".join(p.read_text() for p in (ROOT / "generator").rglob("*.py"))
    emitted = set(re.findall(r'Finding\(\s*"([A-Z]+\d{3})"', source))
    assert emitted == set(FINDINGS), sorted(emitted ^ set(FINDINGS))


@pytest.mark.parametrize("code", sorted(FINDINGS))
def test_lint_explain_answers_for_every_code(code: str) -> None:
    result = CliRunner().invoke(app, ["lint", "--explain", code.lower()])
    assert result.exit_code == 0, result.output
    declared = FINDINGS[code]
    assert result.output.startswith(f"{code} {declared.name} ({declared.severity}")
    assert declared.explanation in result.output


def test_an_unknown_code_is_bad_input() -> None:
    result = CliRunner().invoke(app, ["lint", "--explain", "XX999"])
    assert result.exit_code == 2
    assert "no finding 'XX999'" in result.output


def test_the_generated_references_are_current() -> None:
    assert (ROOT / "docs" / "findings.md").read_text() == reference(), "run `make docs`"
    assert (ROOT / "docs" / "documents.md").read_text() == registry.reference(), "run `make docs`"


def test_a_code_declared_twice_stops_the_import() -> None:
    """A merge of two branches once declared SCHED004 twice, and the dict kept the later silently."""
    from generator import findings as declared

    one = declared.FINDINGS["SCHED004"]
    with pytest.raises(ValueError, match="declared twice: SCHED004"):
        declared._once((one, one))
