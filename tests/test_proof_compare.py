"""The paper's proof compared with our copy (`notices lint PROOF --against PACKET`, issue 19).

Proofs are printed here from the packet's own notice, as a paper sets it (a narrow column,
hyphenated, no page furniture), with one change each: the comparison must see through line
breaks and hyphenation and catch exactly that change.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from generator.cli import app
from generator.documents import registry
from generator.kinds import DocumentKind
from generator.lint import proof
from generator.prepare import prepare

from .conftest import CASES

CASE = CASES / "tx-2027-map-01.yaml"
EXAMPLES = yaml.safe_load(
    (Path(__file__).parent / "findings" / "proof_examples.yaml").read_text(encoding="utf-8")
)
# A legal column: 2.2 in wide, small type, words hyphenated at line ends; no page numbers.
COLUMN = (
    "body { max-width: 2.2in; font-size: 7pt; } p { hyphens: auto; }"
    " @page { size: 3in 11in; margin: 0.3in; @bottom-center { content: none; } }"
)


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The newspaper notices of the Texas sample, as its packet holds them."""
    folder = tmp_path_factory.mktemp("packet") / CASE.stem
    folder.mkdir()
    made = registry.make(prepare(CASE), (DocumentKind.NEWSPAPER_NOTICE,))
    for out in made.outputs:
        (folder / out.path).write_bytes(out.data)
    return folder


def print_proof(
    packet: Path,
    copy: str,
    out: Path,
    replace: tuple[str, str] | None = None,
    drop: str | None = None,
) -> Path:
    """A proof of `copy` as the paper would send it, with one change (or none)."""
    from weasyprint import HTML

    html = (packet / f"{copy}.html").read_text(encoding="utf-8")
    if replace:
        assert replace[0] in html
        html = html.replace(*replace)
    if drop:
        html, n = re.subn(rf"<p[^>]*>[^<]*{re.escape(drop)}.*?</p>", "", html, count=1)
        assert n == 1
    html = html.replace("</style>", COLUMN + "</style>", 1)
    HTML(string=html).write_pdf(out)
    return out


def _id(example: dict) -> str:
    return f"{example['code']}-{example['expect']}-{example['copy']}"


@pytest.mark.parametrize("example", EXAMPLES, ids=_id)
def test_proof_examples(example: dict, packet: Path, tmp_path: Path) -> None:
    change = tuple(example["replace"]) if example.get("replace") else None
    made = print_proof(packet, example["copy"], tmp_path / "PROOF.pdf", change, example.get("drop"))
    found = list(proof.findings(proof.comparison(made, packet), made))
    hits = [f for f in found if f.code == example["code"]]
    if example["expect"] == "pass":
        assert not hits, [f.message for f in hits]
    else:
        assert hits, [f.message for f in found]


def test_a_proof_with_the_hearing_at_7_not_6_is_caught(packet: Path, tmp_path: Path) -> None:
    made = print_proof(
        packet, "newspaper_notice-council", tmp_path / "PROOF.pdf", ("6:00 p.m.", "7:00 p.m.")
    )
    result = CliRunner().invoke(
        app, ["lint", str(made), "--against", str(packet), "--case", str(CASE)]
    )
    assert result.exit_code == 1, result.output
    changed = [line for line in result.output.splitlines() if " PROOF0" in line]
    # Exactly one change, the time, in the hearing's paragraph; the usual lint agrees.
    assert len(changed) == 1 and "PROOF001 [error]" in changed[0], result.output
    assert "'6:00' became '7:00'" in changed[0]
    assert "newspaper_notice-council.txt" in changed[0]
    assert "NL002" in result.output


def test_an_identical_proof_reports_no_change(packet: Path, tmp_path: Path) -> None:
    made = print_proof(packet, "newspaper_notice-council", tmp_path / "PROOF.pdf")
    result = proof.check(made, packet, CASE)
    assert [f.code for f in result.findings if f.code.startswith("PROOF")] == ["PROOF004"]
    assert result.errors == 0, [f.message for f in result.findings]
    assert proof.comparison(made, packet).copy.name == "newspaper_notice-council.txt"


def test_line_breaks_hyphens_case_and_bullets_are_not_changes() -> None:
    ours = "SUMMARY OF THE PROPOSAL\n\n- Lot 1, from SF-7 Single-Family Residential to “GR”.\n"
    theirs = 'Summary of the pro-\nposal • Lot 1, from SF-7 Single-\nFamily Resi-\ndential to "GR".'
    assert proof.compare(ours, theirs) == ([], [])


def test_a_changed_day_is_a_date_change_not_a_word_change() -> None:
    ours = "The hearing is on Monday, April 26, 2027, at 6:00 p.m. in Council Chambers.\n"
    changes, missing = proof.compare(ours, ours.replace("26,", "27,"))
    assert not missing
    assert [(c.ours, c.theirs, c.temporal) for c in changes] == [("26,", "27,", True)]
