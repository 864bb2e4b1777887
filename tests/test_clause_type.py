"""Issue 18: a pack-defined clause's type ("in bold 14-point type or larger"), printed and linted.

Texas § 211.006(a-1)(3) asks its statement in bold 14-point type or larger; the Pecan Grove case
of tests/lint/tx-nonconforming.yaml makes a conforming use nonconforming, so its letters carry it.
The East Providence test pack (tests/clause_packs/us-ri-clauseville.yaml) gives a newspaper
notice a typed clause, for the plain-text copy.
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
from generator.prepare import prepare
from generator.rules.explain import checklist
from generator.rules.loader import resolve
from tests.conftest import CASES, ROOT, notices, write_case

TX_CASE = ROOT / "tests" / "lint" / "tx-nonconforming.yaml"
STATEMENT = "IS HOLDING A HEARING THAT WILL DETERMINE WHETHER YOU MAY LOSE THE"
PACK = ROOT / "tests" / "clause_packs" / "us-ri-clauseville.yaml"
_CUSTOM = {
    "documents": ["letters"],
    "topic": "custom",
    "placement": "end",
    "template": "Read this notice.",
}


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({**_CUSTOM, "type": {}}, "asks `bold: true`, a `min_points`, or both"),
        ({**_CUSTOM, "type": {"bold": True, "min_points": 0}}, "greater than 0"),
        ({**_CUSTOM, "type": {"bold": True, "size": 14}}, "size"),
        (
            {"documents": ["letters"], "topic": "map", "type": {"bold": True}},
            "`type` belong to a clause of topic `custom`",
        ),
        # Accepted before, and printed nowhere: neither a sign nor a transmittal prints it.
        ({**_CUSTOM, "documents": ["letters", "sign"]}, "not in sign"),
        ({**_CUSTOM, "documents": ["transmittal"]}, "not in transmittal"),
    ],
)
def test_a_clause_s_type_and_documents_are_checked(params: dict[str, object], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        ClauseParams.model_validate(params)


def test_a_custom_clause_for_a_sign_is_a_pack_error_with_its_file_and_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(ROOT / "jurisdictions", packs)
    texas = packs / "us-tx.yaml"
    text = texas.read_text()
    assert "      documents: [letters]\n      template: >-\n        THE {" in text
    texas.write_text(
        text.replace(
            "documents: [letters]\n      template", "documents: [letters, sign]\n      template"
        )
    )
    with pytest.raises(UserError) as caught:
        resolve("us-tx-pecan-grove", packs=packs)
    (problem,) = caught.value.problems
    assert problem.file.endswith("us-tx.yaml") and problem.line
    assert "documents:" in problem.message and "not in sign" in problem.message
    done = notices("explain", "us-tx-pecan-grove", env={"NOTICES_JURISDICTIONS": str(packs)})
    assert done.returncode == 2 and "us-tx.yaml:" in done.stderr and "not in sign" in done.stderr


def test_explain_says_the_statement_s_type() -> None:
    text = checklist(resolve("us-tx-pecan-grove"))
    assert "set in: bold 14-point type or larger (checked in PDF and Word files)" in text


def _docx(data: bytes) -> str:
    return zipfile.ZipFile(io.BytesIO(data)).read("word/document.xml").decode()


def _unbold(data: bytes) -> bytes:
    """The Word file with the statement's first run made regular (as a clerk might in Word)."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            part = src.read(item)
            if item.filename == "word/document.xml":
                part = part.decode().replace("<w:b/><w:bCs/>", "", 1).encode()
            dst.writestr(item, part)
    return out.getvalue()


@pytest.mark.slow
def test_the_texas_statement_is_printed_bold_14_point_and_the_linter_checks_it(
    tmp_path: Path,
) -> None:
    prepared = prepare(TX_CASE)
    assert "nonconforming_statement" in prepared.rule_ids
    made = {o.path: o.data for o in registry.make(prepared, (DocumentKind.LETTERS,)).outputs}
    pdf_name = next(n for n in made if n.startswith("letters") and n.endswith(".pdf"))
    docx_name = pdf_name.removesuffix(".pdf") + ".docx"
    word = _docx(made[docx_name])
    at = word.index(STATEMENT)
    run = word[word.rindex("<w:r>", 0, at) : at]
    assert '<w:b/><w:bCs/><w:sz w:val="28"/>' in run  # bold, 14 points in half points
    for name in (pdf_name, docx_name):
        (tmp_path / name).write_bytes(made[name])
    found = lint([tmp_path / pdf_name, tmp_path / docx_name], prepared=prepared).findings
    assert not [f for f in found if f.code in ("NL001", "NL018", "NL019")], found
    # The same letters with the statement made regular in Word: caught, with the statute.
    edited = tmp_path / "edited" / docx_name
    edited.parent.mkdir()
    edited.write_bytes(_unbold(made[docx_name]))
    (wrong,) = [f for f in lint([edited], prepared=prepared).findings if f.code == "NL018"]
    assert wrong.rule == "nonconforming_statement"
    assert wrong.citation == "Tex. Loc. Gov't Code § 211.006(a-1)(3)"
    assert "14-point regular type" in wrong.message and wrong.paragraph


@pytest.mark.slow
def test_a_newspaper_s_plain_text_copy_tells_the_typesetter_and_is_not_passed_unchecked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    packs = tmp_path / "jurisdictions"
    shutil.copytree(ROOT / "jurisdictions", packs)
    text = PACK.read_text().replace(
        "      placement: after_hearing\n",
        "      placement: after_hearing\n      type: {bold: true, min_points: 12}\n",
    )
    (packs / PACK.name).write_text(text)
    monkeypatch.setenv("NOTICES_JURISDICTIONS", str(packs))
    case = (CASES / "ep-2027-za-03.yaml").read_text()
    case = case.replace("jurisdiction: us-ri-east-providence", "jurisdiction: us-ri-clauseville")
    case += "options:\n  environmental_determination: no significant impact was found\n"
    prepared = prepare(write_case(tmp_path, case))
    made = {
        o.path: o.data for o in registry.make(prepared, (DocumentKind.NEWSPAPER_NOTICE,)).outputs
    }
    txt = made["newspaper_notice.txt"].decode().replace("\u00a0", " ")
    line = (
        "[TYPESETTER: set the next paragraph in bold 12-point type or larger (Test Code § 1-1(a))]"
    )
    assert f"\n{line}\nAny action challenging" in txt
    html = made["newspaper_notice.html"].decode()
    assert (
        'class="custom-clause typed" style="font-size: 12pt; font-weight: bold">Any action' in html
    )
    for name, data in made.items():
        (tmp_path / name).write_bytes(data)
    files = [
        tmp_path / n
        for n in ("newspaper_notice.txt", "newspaper_notice.pdf", "newspaper_notice.docx")
    ]
    found = lint(files, prepared=prepared).findings
    assert not [f for f in found if f.code in ("NL001", "NL018")], found
    unchecked = [f for f in found if f.code == "NL019"]
    assert [f.document for f in unchecked] == ["newspaper_notice.txt"]
    assert unchecked[0].rule == "limitations_statement" and unchecked[0].severity == "info"
