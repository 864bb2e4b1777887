"""Issue 18: clauses a pack author invents, printed and linted with no template change.

The test pack `tests/clause_packs/us-ri-clauseville.yaml` extends East Providence with a
statute-of-limitations statement and an environmental-review statement, and states the
municipality's kind.
"""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import pytest
from pydantic import ValidationError

from generator.documents import registry
from generator.errors import UserError
from generator.kinds import DocumentKind
from generator.lint.engine import lint
from generator.models.pack import ClauseParams
from generator.prepare import Prepared, prepare
from generator.rules.explain import checklist
from generator.rules.loader import resolve
from tests.conftest import CASES, ROOT, write_case

PACK = Path(__file__).parent / "clause_packs" / "us-ri-clauseville.yaml"
LIMITATION = (
    "Any action challenging the decision of the City Council on this proposal must be filed"
    " within 30 days after the decision."
)
DETERMINATION = "a determination of non-significance was issued on January 8, 2027"
REVIEW = (
    f"Environmental review: {DETERMINATION}. The review may be examined at Office of the City"
    " Clerk, East Providence City Hall."
)


def _packs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(ROOT / "jurisdictions", packs)
    shutil.copy(PACK, packs)
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    return packs


def _case(
    tmp_path: Path, options: str = f"  environmental_determination: {DETERMINATION}\n"
) -> Path:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text = text.replace("jurisdiction: us-ri-east-providence", "jurisdiction: us-ri-clauseville")
    return write_case(tmp_path, text + (f"options:\n{options}" if options else ""))


def _made(prepared: Prepared) -> dict[str, bytes]:
    kinds = (
        DocumentKind.NEWSPAPER_NOTICE,
        DocumentKind.LETTERS,
        DocumentKind.POSTING_NOTICE,
        DocumentKind.WEBSITE_NOTICE,
    )
    return {o.path: o.data for o in registry.make(prepared, kinds).outputs}


def _docx_text(data: bytes) -> str:
    return zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()


@pytest.mark.slow
def test_a_pack_defined_clause_is_printed_where_the_pack_puts_it_and_linted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _packs(tmp_path, monkeypatch)
    prepared = prepare(_case(tmp_path))
    assert not [f for f in prepared.findings if f.code == "PLAN001"]
    made = _made(prepared)
    txt = made["newspaper_notice.txt"].decode().replace("\u00a0", " ")
    # after_hearing: right after the hearing's time and place; end: before whom to contact
    hearing_at = txt.index("The hearing will be held")
    assert hearing_at < txt.index(LIMITATION) < txt.index("All persons interested")
    assert txt.index("may be altered or amended") < txt.index(REVIEW) < txt.index("Questions")
    assert "{" not in txt
    html = made["newspaper_notice.html"].decode()
    assert 'data-clause="limitations_statement"' in html
    assert 'data-clause="environmental_review_statement"' in html
    word = _docx_text(made["newspaper_notice.docx"])
    assert 'w:name="clause_limitations_statement"' in word and "within 30 days" in word
    letters = _docx_text(made["letters.docx"])
    assert "clause_limitations_statement" in letters
    assert "clause_environmental_review_statement" not in letters  # not one of its documents
    for name in ("posting_notice.html", "website_notice.html"):
        page = made[name].decode()
        assert 'data-clause="environmental_review_statement"' in page
        assert "limitations_statement" not in page
    # The linter checks the packet's files like any clause ...
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    files = [tmp_path / n for n in made if n.endswith((".txt", ".pdf", ".docx", ".html"))]
    found = lint(files, prepared=prepared).findings
    assert not [f for f in found if f.code in ("NL001", "NL016")], found


def test_the_linter_finds_a_pack_defined_clause_missing_from_a_foreign_notice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = _packs(tmp_path, monkeypatch)
    notice = tmp_path / "notice.txt"
    notice.write_text(
        "NOTICE OF PUBLIC HEARING. The City Council of East Providence will hold a public hearing"
        " on Tuesday, March 16, 2027, at 7:00 p.m. in City Council Chambers, 145 Taunton Avenue,"
        " on a proposed amendment to the Zoning Ordinance. The hearing may be continued for up"
        " to 30 days.\n"
    )
    found = lint(
        [notice], jurisdiction="us-ri-clauseville", kind="newspaper_notice", packs=packs
    ).findings
    (missing,) = [f for f in found if f.rule == "limitations_statement"]
    assert missing.code == "NL001" and missing.citation == "Test Code § 1-1(a)"
    notice.write_text(notice.read_text() + LIMITATION + "\n")
    found = lint(
        [notice], jurisdiction="us-ri-clauseville", kind="newspaper_notice", packs=packs
    ).findings
    assert not [f for f in found if f.rule == "limitations_statement"]


def test_a_slot_the_case_leaves_empty_stops_the_packet_and_is_never_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _packs(tmp_path, monkeypatch)
    prepared = prepare(_case(tmp_path, options=""))
    problems = [f for f in prepared.findings if f.code == "PLAN001"]
    assert problems and all(f.rule == "environmental_review_statement" for f in problems)
    assert "{option.environmental_determination}" in problems[0].message
    assert "add `options.environmental_determination`" in problems[0].message
    assert problems[0].citation == "Test Code § 1-2"
    txt = _made(prepared)["newspaper_notice.txt"].decode()
    assert "Environmental review" not in txt and "{" not in txt
    assert LIMITATION in txt.replace("\u00a0", " ")  # the clause whose slots are filled stays


def test_the_municipality_kind_comes_from_the_pack_and_a_case_may_not_contradict_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _packs(tmp_path, monkeypatch)
    prepared = prepare(_case(tmp_path))
    assert prepared.case.municipality_kind == "city"
    # `when: {municipality_kind: [city, town]}` applies; `{municipality_kind: village}` does not
    assert "limitations_statement" in prepared.rule_ids
    assert "village_board_statement" not in prepared.rule_ids
    text = (
        _case(tmp_path)
        .read_text()
        .replace(
            "municipality: City of East Providence",
            "municipality: City of East Providence\nmunicipality_kind: town",
        )
    )
    with pytest.raises(UserError, match="municipality_kind: the pack serves Clauseville, a city"):
        prepare(write_case(tmp_path, text, "case-y.yaml"))


def test_explain_prints_the_municipality_and_each_custom_clause(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _packs(tmp_path, monkeypatch)
    text = checklist(resolve("us-ri-clauseville"))
    assert "Serves Clauseville, a city; governing body: City Council." in text
    assert "prints (after hearing): Any action challenging the decision of the" in text
    assert "slots: limitation_days = 30" in text
    assert "(options.environmental_determination: words)" in text


_CUSTOM = {"documents": ["newspaper_notice"], "topic": "custom", "placement": "end"}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({**_CUSTOM, "template": "Within {days} days."}, "neither a value of `slots`"),
        (
            {**_CUSTOM, "template": "Within 30 days.", "slots": {"days": 30}},
            "slot 'days' is not named in the template",
        ),
        (
            {**_CUSTOM, "template": "{hearing.date}", "slots": {"hearing.date": "x"}},
            "is a case value",
        ),
        ({**_CUSTOM, "template": "Within {days!r} days.", "slots": {"days": 3}}, "is not a slot"),
        ({**_CUSTOM, "template": "Within {days days."}, "do not pair up"),
        ({"documents": ["newspaper_notice"], "topic": "custom"}, "states its `template`"),
        (
            {"documents": ["newspaper_notice"], "topic": "map", "template": "x"},
            "belong to a clause of topic `custom`",
        ),
    ],
)
def test_a_custom_clause_s_shape_is_checked(params: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ClauseParams.model_validate(params)


def test_braces_written_twice_print_one_brace() -> None:
    from generator.render.context import clause_text

    params = ClauseParams.model_validate(
        {**_CUSTOM, "template": "Rule {{A}}: {n} days.", "slots": {"n": 30.0}}
    )
    assert clause_text(params, None) == "Rule {A}: 30 days."  # type: ignore[arg-type]


def test_an_option_slot_names_an_option_the_packs_declare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = _packs(tmp_path, monkeypatch)
    mine = packs / "us-ri-clauseville.yaml"
    mine.write_text(
        mine.read_text().replace("{option.environmental_determination}", "{option.nope}")
    )
    with pytest.raises(UserError, match="names option 'nope', which is not declared"):
        resolve("us-ri-clauseville")


def test_the_test_pack_s_examples_and_look_alikes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from generator.lint.checks import clause_present

    _packs(tmp_path, monkeypatch)
    pack = resolve("us-ri-clauseville")
    custom = [r for r in pack.chain[-1].pack.rules if isinstance(r.params, ClauseParams)]
    assert len(custom) == 3
    for rule in custom:
        checks = rule.params.checks
        assert all(clause_present(checks, s) for s in checks.examples), rule.id
        assert not any(clause_present(checks, s) for s in checks.not_examples), rule.id
    assert clause_present(pack.rule("limitations_statement").params.checks, LIMITATION)
    assert clause_present(pack.rule("environmental_review_statement").params.checks, REVIEW)
