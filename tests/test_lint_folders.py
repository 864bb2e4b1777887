"""The linter on folders (issue 14, item 8): what it skips, and which case a packet is linted by.

A folder with nothing the linter reads says so, naming what it skipped, and fails `--strict`.
A packet's manifest names its case relative to the packet folder, so `notices lint PACKET`
lints against the case the packet was built from, whatever the working directory; a packet
moved without its case asks for `--case` instead of linting against another file.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import app
from tests.conftest import CASES, ROOT

CASE = "ok-2027-text-01"
ELSEWHERE = Path(tempfile.gettempdir())  # neither the project nor the clerk's folder


def notices_in(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real `notices` command run from `cwd` (the project installed in the environment)."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_folder_of_other_files_says_what_it_skipped_and_fails_under_strict(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "downloads"
    folder.mkdir()
    for n in range(500):
        (folder / f"scan-{n:03d}.bin").write_bytes(b"\x00")
    (folder / "older").mkdir()
    plain = CliRunner().invoke(app, ["lint", str(folder)])
    assert plain.exit_code == 0, plain.output  # a warning: see NL014 for why not an error
    assert "NL014 [warning] no notice to lint in this folder: 501 skipped" in plain.output
    assert "(older/, scan-000.bin, scan-001.bin, scan-002.bin, scan-003.bin, …)" in plain.output
    strict = notices_in(tmp_path, "lint", "downloads", "--strict", "--format", "json")
    assert strict.returncode == 1, strict.stderr
    (finding,) = json.loads(strict.stdout)["findings"]
    assert finding["code"] == "NL014" and finding["document"] == "downloads"


def test_an_empty_folder_is_named_empty(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["lint", str(tmp_path), "--strict"])
    assert result.exit_code == 1 and "it is empty" in result.output


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A clerk's own folder: a case of theirs named like our sample, built from that folder.

    Their hearings start at 6:30 p.m.; the sample of the same name in the project says 6:00,
    so a packet linted against the wrong file reports the time as wrong (NL002).
    """
    work = tmp_path_factory.mktemp("clerk") / "zoning"
    (work / "cases").mkdir(parents=True)
    text = (CASES / f"{CASE}.yaml").read_text(encoding="utf-8")
    assert text.count("start_time: 6:00 p.m.") == 2
    (work / "cases" / f"{CASE}.yaml").write_text(text.replace("6:00 p.m.", "6:30 p.m."))
    done = notices_in(work, "build", f"cases/{CASE}.yaml", "--out", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    return work


def lint_json(cwd: Path, *args: str) -> tuple[int, list[dict], str]:
    done = notices_in(cwd, "lint", *args, "--format", "json")
    assert "Traceback" not in done.stderr, done.stderr
    found = json.loads(done.stdout)["findings"] if done.stdout else []
    return done.returncode, found, done.stderr


def test_the_manifest_names_the_case_relative_to_the_packet(work: Path) -> None:
    manifest = json.loads((work / "out" / CASE / "manifest.json").read_text())
    assert manifest["inputs"]["case"]["path"] == f"../../cases/{CASE}.yaml"


def test_a_packet_is_linted_against_its_own_case_from_any_directory(work: Path) -> None:
    """Run from /tmp, `cases/ok-2027-text-01.yaml` was the project's sample, not the clerk's."""
    for cwd, packet in (
        (ELSEWHERE, str(work / "out" / CASE)),
        (work.parent, f"zoning/out/{CASE}"),
        (ROOT, str(work / "out" / CASE)),
    ):
        status, found, err = lint_json(cwd, packet)
        assert (status, found) == (0, []), (cwd, err, found)


def test_a_packet_moved_with_its_case_still_finds_it(work: Path, tmp_path: Path) -> None:
    moved = tmp_path / "archive" / "2027" / "zoning"
    shutil.copytree(work, moved)
    status, found, err = lint_json(ELSEWHERE, str(moved / "out" / CASE))
    assert (status, found) == (0, []), err


def test_a_packet_copied_without_its_case_asks_for_it(work: Path, tmp_path: Path) -> None:
    alone = tmp_path / "mail" / "for-the-lawyer" / CASE
    shutil.copytree(work / "out" / CASE, alone)
    status, found, err = lint_json(ELSEWHERE, str(alone))
    assert status == 2
    assert f"the case this packet was built from is not at {alone.parents[1]}/cases/" in err
    assert "give --case" in err and "manifest.json" in err
    case = str(work / "cases" / f"{CASE}.yaml")
    status, found, err = lint_json(ELSEWHERE, str(alone), "--case", case)
    assert (status, found) == (0, []), err


def test_a_case_edited_since_the_build_is_said(work: Path, tmp_path: Path) -> None:
    copy = tmp_path / "zoning"
    shutil.copytree(work, copy)
    case = copy / "cases" / f"{CASE}.yaml"
    case.write_text(case.read_text() + "# the clerk's note\n")
    status, found, _err = lint_json(ELSEWHERE, str(copy / "out" / CASE))
    assert status == 0 and [f["code"] for f in found] == ["NL015"]
    assert f"the case file {case} has changed since this packet was built" in found[0]["message"]
    status, _found, _err = lint_json(ELSEWHERE, str(copy / "out" / CASE), "--strict")
    assert status == 1
