"""Every sample case builds into a ready packet whose notices carry every required clause.

The text, the PDF read back with pypdf and the DOCX read back with python-docx are all checked.

The clause checks of the packs (the patterns a linter uses) must recognize our own notices:
a pack whose patterns miss our wording, or a template that drops a clause, fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import docx
import pypdf
import pytest

from generator.lint.checks import clause_present
from generator.models.pack import Channel, NoticeParams
from generator.packet import build
from generator.prepare import prepare
from generator.render.filters import clock, long_date

from .conftest import sample_cases

READERS = {
    "txt": lambda path: path.read_text(),
    "pdf": lambda path: " ".join(page.extract_text() for page in pypdf.PdfReader(path).pages),
    "docx": lambda path: "\n".join(p.text for p in docx.Document(path).paragraphs),
}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("packets")
    return {path.stem: build(path, out).folder for path in sample_cases()}


def _facts(case, hearing) -> dict[str, list[str]]:
    parcels = case.parcels
    return {
        "hearing.date": [long_date(hearing.date)],
        "hearing.start_time": [clock(hearing.start_time)],
        "hearing.place": [hearing.place],
        "hearing.body": [hearing.body_name],
        "case_number": [case.case_number],
        "parcel.id": [p.id for p in parcels],
        "parcel.current_district": [p.current_district for p in parcels if p.current_district],
        "parcel.proposed_district": [p.proposed_district for p in parcels if p.proposed_district],
        "amendment.proposed_use": [case.amendment.proposed_use]
        if case.amendment.proposed_use
        else [],
    }


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_sample_case_builds_ready_with_every_clause_recognized(
    case_path: Path, built: dict[str, Path]
) -> None:
    folder = built[case_path.stem]
    manifest = json.loads((folder / "manifest.json").read_text())
    errors = [f for f in manifest["findings"] if f["severity"] == "error"]
    assert manifest["ready"], errors
    prepared = prepare(case_path)  # as the build prepared it
    cf, the_plan = prepared.case_file, prepared.plan
    newspaper_notices = the_plan.of(Channel.NEWSPAPER)
    if not newspaper_notices:  # e.g. no newspaper of general circulation: posting instead
        assert not any(
            b.params.channel == "newspaper"
            for s in the_plan.snapshots.values()
            for b in s.of(NoticeParams)
        )
    # Every notice the law requires is either in the packet or named for the clerk to give.
    made = {rule for d in manifest["documents"] for rule in d.get("rules", [])}
    by_hand = {f["rule"] for f in manifest["findings"] if f["code"] == "PLAN007"}
    for snap in the_plan.snapshots.values():
        for b in snap.of(NoticeParams):
            if b.params.channel in ("mail", "transmittal") and not made & set(b.ids):
                continue  # nobody to mail in this case (the recipients tests cover who)
            assert made & set(b.ids) or b.rule.id in by_hand, b.rule.id
    for doc in newspaper_notices:
        text = " ".join((folder / f"{doc.name}.txt").read_text().split())
        facts = _facts(cf.case, doc.hearing)
        for binding in doc.clauses:
            checks = binding.params.checks
            where = f"{doc.name}: {binding.rule.id} ({binding.rule.citation})"
            assert clause_present(checks, text), f"{where}: not recognized"
            for fact in checks.facts:
                assert fact in facts, f"{where}: unknown fact {fact!r} in checks"
                for value in facts[fact]:
                    assert " ".join(value.split()) in text, (
                        f"{where}: {fact} {value!r} not in the notice"
                    )


GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_notice_text_matches_the_committed_golden(
    case_path: Path, built: dict[str, Path], update_goldens: bool
) -> None:
    """Golden ad copy: a change in wording shows up as a reviewed diff (`make goldens`)."""
    folder = built[case_path.stem]
    for txt in sorted(folder.glob("newspaper_notice*.txt")):
        golden = GOLDEN / case_path.stem / txt.name
        if update_goldens:
            golden.parent.mkdir(parents=True, exist_ok=True)
            golden.write_text(txt.read_text())
        assert golden.is_file(), (
            f"no golden {golden.relative_to(GOLDEN.parent)}: run `make goldens` and review it"
        )
        assert txt.read_text() == golden.read_text(), f"{txt.name} differs from {golden}"


@pytest.mark.slow
def test_word_drafts_survive_an_editor_round_trip(built: dict[str, Path], tmp_path: Path) -> None:
    """LibreOffice opens and re-saves every DOCX (notices, letters, proofs); bookmarks and text survive."""
    import shutil
    import subprocess
    import zipfile

    soffice = shutil.which("soffice")
    assert soffice, "LibreOffice is needed: apt-get install libreoffice-writer-nogui (.ci/run does)"
    drafts = sorted(p for folder in built.values() for p in folder.glob("*.docx"))
    jobs = {}
    for draft in drafts:
        copy = tmp_path / "in" / f"{draft.parent.name}--{draft.name}"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(draft.read_bytes())
        jobs[copy.name] = draft
    subprocess.run(
        [
            soffice,
            "--headless",
            f"-env:UserInstallation=file://{tmp_path}/profile",
            "--convert-to",
            "docx:MS Word 2007 XML",
            "--outdir",
            str(tmp_path / "out"),
            *map(str, sorted((tmp_path / "in").iterdir())),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    for name, draft in jobs.items():
        resaved = tmp_path / "out" / name
        assert resaved.is_file(), f"LibreOffice could not open {draft}"

        def marks(path: Path) -> set[str]:
            xml = zipfile.ZipFile(path).read("word/document.xml").decode()
            return set(re.findall(r'w:name="(clause_[a-z0-9_]+)"', xml))

        assert marks(draft) <= marks(resaved), f"{draft}: bookmarks lost in a round trip"
        assert READERS["docx"](draft).split() == READERS["docx"](resaved).split()


@pytest.mark.parametrize("case_path", sample_cases(), ids=lambda p: p.stem)
def test_schedule_and_recipients_commands_agree_with_the_packet(
    case_path: Path, built: dict[str, Path], tmp_path: Path
) -> None:
    """One prepare: `notices schedule` and `notices recipients` print what `notices build` wrote."""
    from click.testing import CliRunner

    from generator.cli import app

    folder = built[case_path.stem]
    schedule = CliRunner().invoke(app, ["schedule", str(case_path), "--format", "json"])
    assert schedule.exit_code == 0, schedule.output
    assert schedule.output == (folder / "schedule.json").read_text()
    listed = CliRunner().invoke(app, ["recipients", str(case_path), "--out", str(tmp_path)])
    assert listed.exit_code == 0, listed.output
    for name in ("recipients.csv", "recipients.geojson", "map.svg", "map.png"):
        mine, packet = tmp_path / case_path.stem / name, folder / name
        assert mine.is_file() == packet.is_file(), name
        if packet.is_file():
            assert mine.read_bytes() == packet.read_bytes(), name
