"""Nothing is written outside its folder or through a link (issue 14, item 3).

Every file of a packet and the error log go through `writer.write`, which refuses a name that
leaves its folder and never writes through a symbolic link (or a hard link) planted there.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from generator import packet_folder
from generator.cli import _run
from generator.errors import EXIT_INTERNAL, UserError
from generator.packet import build
from generator.writer import write

from .conftest import CASES


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """A file outside the folder written to, which must never change."""
    path = tmp_path / "elsewhere" / "precious.txt"
    path.parent.mkdir()
    path.write_text("precious")
    return path


@pytest.mark.parametrize("name", ["../escape.txt", "a/../../escape.txt", "/etc/escape.txt", ""])
def test_a_name_outside_the_folder_is_refused(tmp_path: Path, name: str) -> None:
    root = tmp_path / "packet"
    root.mkdir()
    with pytest.raises(UserError, match="outside its folder"):
        write(root, name, b"x")
    assert not (tmp_path / "escape.txt").exists() and list(root.iterdir()) == []


def test_a_link_in_the_folder_is_never_written_through(tmp_path: Path, target: Path) -> None:
    root = tmp_path / "packet"
    root.mkdir()
    (root / "manifest.json").symlink_to(target)
    with pytest.raises(UserError, match="symbolic link"):
        write(root, "manifest.json", b"{}")
    (root / "maps").symlink_to(target.parent, target_is_directory=True)
    with pytest.raises(UserError, match="outside its folder"):
        write(root, "maps/map.svg", b"<svg/>")
    (root / "inside").mkdir()
    (root / "figures").symlink_to(root / "inside", target_is_directory=True)
    with pytest.raises(UserError, match="symbolic link"):  # a link, even to a folder inside
        write(root, "figures/map.svg", b"<svg/>")
    os.link(target, root / "lint_report.json")  # a hard link: replaced, not written through
    write(root, "lint_report.json", b"{}")
    assert target.read_text() == "precious" and [p.name for p in target.parent.iterdir()] == [
        "precious.txt"
    ]
    assert (root / "lint_report.json").read_bytes() == b"{}"
    assert list((root / "inside").iterdir()) == []
    assert write(root, "sub/notes.txt", b"ok").read_bytes() == b"ok"


def test_a_link_planted_as_the_lock_is_refused(tmp_path: Path, target: Path) -> None:
    (tmp_path / ".case-x.lock").symlink_to(target)
    with pytest.raises(UserError, match="lock"), packet_folder.locked(tmp_path / "case-x"):
        pass
    assert target.read_text() == "precious"


@pytest.mark.slow
def test_links_planted_in_a_packet_folder_are_not_written_through(
    tmp_path: Path, target: Path
) -> None:
    folder = tmp_path / "out" / "ok-2027-text-01"
    folder.mkdir(parents=True)
    for name in ("manifest.json", "lint_report.json", "newspaper_notice.pdf", "error.log"):
        (folder / name).symlink_to(target)
    result = build(CASES / "ok-2027-text-01.yaml", tmp_path / "out")
    assert target.read_text() == "precious"
    assert result.kept == []  # a link is nobody's edited draft
    manifest = json.loads((folder / "manifest.json").read_text())
    for doc in manifest["documents"]:
        assert not (folder / doc["path"]).is_symlink(), doc["path"]
    assert (folder / "error.log").is_symlink()  # not ours: left as it was, never followed


def crash() -> int:
    raise RuntimeError("a bug")


def test_the_error_log_goes_beside_the_packet_never_through_a_link(
    tmp_path: Path, target: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    (out / "case-x").mkdir(parents=True)
    (out / "case-x" / "error.log").symlink_to(target)  # where the log used to go
    assert _run(False, out / "case-x", crash) == EXIT_INTERNAL
    assert "RuntimeError: a bug" in (out / "case-x.error.log").read_text()
    assert f"traceback in {out / 'case-x.error.log'}" in capsys.readouterr().err
    # A link where the log goes: refused, and the traceback printed instead.
    (out / "case-x.error.log").unlink()
    (out / "case-x.error.log").symlink_to(target)
    assert _run(False, out / "case-x", crash) == EXIT_INTERNAL
    assert "RuntimeError: a bug" in capsys.readouterr().err
    # A case file named `...yaml` (id `..`): the log stays in the output folder.
    assert _run(False, out / "..", crash) == EXIT_INTERNAL
    assert "RuntimeError" in (out / "error.log").read_text()
    assert target.read_text() == "precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["elsewhere", "out"]
