"""One pipeline: every command starts from the same prepared case, so they agree.

The border-parcel variant of the East Providence sample (tests/cases/ep-border-2027.yaml) lies
33 ft from the Pawtucket line: the boundary layer adds the transmittal to that city's council,
its deadline and its letter; `notices schedule`, `notices recipients` and `notices build` must
all see it. (Every sample case is compared the same way in tests/test_packets.py.)
"""

from __future__ import annotations

import csv
import io
import json
import re
import tokenize
from pathlib import Path

import pypdf
import pytest
from click.testing import CliRunner

from generator.cli import app
from generator.packet import build

from .conftest import CASES, ROOT, write_case

BORDER = Path(__file__).parent / "cases" / "ep-border-2027.yaml"


@pytest.fixture(scope="module")
def border(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(BORDER, tmp_path_factory.mktemp("border")).folder


def test_schedule_command_and_build_agree_on_the_transmittal_deadline(border: Path) -> None:
    result = CliRunner().invoke(app, ["schedule", str(BORDER), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert result.output == (border / "schedule.json").read_text()
    deadlines = json.loads(result.output)
    sent = [d for d in deadlines if d["channel"] == "transmittal"]
    assert sent, "the transmittal to the Pawtucket council has a deadline"
    assert all(d["latest"] for d in sent)


def test_recipients_command_and_build_agree(border: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["recipients", str(BORDER), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    listed = (tmp_path / "ep-border-2027" / "recipients.csv").read_text()
    assert listed == (border / "recipients.csv").read_text()
    rows = list(csv.DictReader(listed.splitlines()))
    councils = [r for r in rows if r["kind"] == "council"]
    assert [r["city"] for r in councils] == ["Pawtucket"]


def test_the_council_is_sent_the_notice_and_greeted_by_name(border: Path) -> None:
    manifest = json.loads((border / "manifest.json").read_text())
    assert manifest["ready"], [f for f in manifest["findings"] if f["severity"] == "error"]
    text = " ".join(p.extract_text() for p in pypdf.PdfReader(border / "transmittal.pdf").pages)
    assert re.search(r"To the Council of [^:]*Pawtucket:", text)
    assert "Dear Property Owner" not in text and "Sir or Madam" not in text
    owners = pypdf.PdfReader(border / "letters.pdf").pages[0].extract_text()
    assert "Dear Property Owner:" in owners


def test_a_person_added_by_hand_gets_a_letter_a_label_a_line_and_a_place_in_the_proof(
    tmp_path: Path,
) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    text += (
        "additional_recipients:\n"
        "  - name: Marguerite D'Angelo\n"
        '    address: {lines: [88 Juniper Hill Road], city: Barrington, state: RI, zip: "02806"}\n'
        "    reason: asked at the counter to be told of the hearing\n"
    )
    folder = build(write_case(tmp_path, text, "ep-2027-za-03.yaml"), tmp_path / "out").folder
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["ready"], [f for f in manifest["findings"] if f["severity"] == "error"]
    assert not [f for f in manifest["findings"] if f["code"] == "NL005"]
    letters = " ".join(p.extract_text() for p in pypdf.PdfReader(folder / "letters.pdf").pages)
    assert "Dear Marguerite D'Angelo:" in letters
    assert "MARGUERITE" not in letters.upper().replace("MARGUERITE D'ANGELO", "")
    assert "Marguerite D'Angelo" in (folder / "mailing_list.csv").read_text()
    labels = pypdf.PdfReader(folder / "labels.pdf").pages
    assert any("Marguerite D'Angelo" in page.extract_text() for page in labels)
    proof = " ".join(
        p.extract_text() for p in pypdf.PdfReader(folder / "affidavit_of_mailing.pdf").pages
    )
    assert "Marguerite D'Angelo" in proof
    listed = sum(1 for _ in csv.DictReader((folder / "mailing_list.csv").open()))
    assert f"{listed} envelopes" in " ".join(proof.split())


def stage_calls(source: str) -> list[tuple[int, str]]:
    """(line, name) of every call of `collect`, `compute` or `plan` in the code.

    Read token by token, so a docstring or comment that names a stage (`collect()` runs the
    rest) is not a call; a definition (`def plan(`) is not one either.
    """
    tokens = [
        t
        for t in tokenize.generate_tokens(io.StringIO(source).readline)
        if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE)
    ]
    found = []
    for before, name, after in zip([None, *tokens], tokens, tokens[1:], strict=False):
        if (
            name.type == tokenize.NAME
            and name.string in ("collect", "compute", "plan")
            and after.string == "("
            and not (before and before.string == "def")
        ):
            found.append((name.start[0], name.line.strip()))
    return found


def test_the_stage_call_check_sees_calls_not_words() -> None:
    source = (
        '"""`collect()` runs the rest; see plan(...)."""\n'
        "# schedule.compute(case) in a comment\n"
        "def plan(case):\n"
        "    found = recipients.collect(cf, pack)\n"
        '    words = "plan(" + str(compute (case))\n'
    )
    assert [line for line, _ in stage_calls(source)] == [4, 5]


def test_only_prepare_assembles_the_stages() -> None:
    """Recipients, schedule and plan are computed in generator/prepare.py and nowhere else."""
    for path in sorted((ROOT / "generator").rglob("*.py")):
        if path.name == "prepare.py":
            continue
        calls = stage_calls(path.read_text())
        assert not calls, [f"{path.relative_to(ROOT)}:{n}: {line}" for n, line in calls]
