"""A packet is written whole or not at all (issue 14, items 1 and 6).

The new packet is staged beside the old one, linted and given its manifest there, and swapped in
only then; killed, interrupted or failing at any point, the folder holds the previous packet,
whole. A file is an edited draft only when it differs from what the last manifest recorded.
Concurrent builds of one packet take turns; worker processes die with the build.

The fast tests drive `packet_folder.update` with small files; the slow ones run real
`notices build` processes and kill them in the lint step.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from generator import packet_folder
from generator.errors import UserError
from generator.packet_folder import MANIFEST, update
from generator.processes import cpus

from .conftest import CASES, ROOT, write_case


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def manifest_for(files: dict[str, bytes]) -> Callable[[Path], None]:
    """A `finish` that writes a manifest of `files` into the staged packet, as a build does."""

    def finish(staging: Path) -> None:
        docs = [{"path": p, "sha256": sha(d)} for p, d in sorted(files.items())]
        (staging / MANIFEST).write_text(json.dumps({"documents": docs}))

    return finish


def put(folder: Path, files: dict[str, bytes]) -> list[str]:
    return update(
        folder, files, remove_stale=True, reserved=(MANIFEST,), finish=manifest_for(files)
    )


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_an_edited_draft_is_one_that_differs_from_the_last_manifest(tmp_path: Path) -> None:
    folder = tmp_path / "out" / "case-x"
    first = {"notice.pdf": b"v1", "letters.pdf": b"L1", "gone.txt": b"old"}
    assert put(folder, first) == []
    (folder / "notice.pdf").write_bytes(b"v1 with a lawyer's edits")
    (folder / "notes.txt").write_bytes(b"the clerk's own file")
    second = {"notice.pdf": b"v2", "letters.pdf": b"L2"}
    assert put(folder, second) == ["notice.edited-1.pdf"]
    on_disk = snapshot(folder)
    assert on_disk["notice.pdf"] == b"v2" and on_disk["letters.pdf"] == b"L2"
    assert on_disk["notice.edited-1.pdf"] == b"v1 with a lawyer's edits"
    assert on_disk["notes.txt"] == b"the clerk's own file"  # not ours: carried over
    assert "gone.txt" not in on_disk  # generated last time, unedited, no longer made
    # Rebuilt unchanged: no second copy, the first kept.
    assert put(folder, second) == []
    assert sorted(p.name for p in folder.glob("*.edited-*")) == ["notice.edited-1.pdf"]
    # Edited again: the next number, never overwriting the first.
    (folder / "notice.pdf").write_bytes(b"v2 edited")
    assert put(folder, second) == ["notice.edited-2.pdf"]
    assert (folder / "notice.edited-1.pdf").read_bytes() == b"v1 with a lawyer's edits"


def test_a_file_that_is_what_the_build_makes_now_is_not_an_edited_draft(tmp_path: Path) -> None:
    """A stale manifest beside files the build would write anyway (the issue's poisoned packet)."""
    folder = tmp_path / "case-x"
    put(folder, {"notice.pdf": b"v1"})
    (folder / "notice.pdf").write_bytes(b"v2")  # what a crashed build of old left
    assert put(folder, {"notice.pdf": b"v2"}) == []
    assert snapshot(folder).keys() == {"notice.pdf", MANIFEST}


def test_a_failure_before_the_swap_leaves_the_previous_packet_whole(tmp_path: Path) -> None:
    folder = tmp_path / "case-x"
    put(folder, {"notice.pdf": b"v1", "letters.pdf": b"L1"})
    before = snapshot(folder)
    inode = (folder / "notice.pdf").stat().st_ino

    def lint_crashes(staging: Path) -> None:
        assert sorted(p.name for p in staging.iterdir()) == ["letters.pdf", "notice.pdf"]
        raise ValueError("zip() argument 2 is longer than argument 1")

    with pytest.raises(ValueError, match="zip"):
        update(folder, {"notice.pdf": b"v2", "letters.pdf": b"L2"}, remove_stale=True,
               reserved=(MANIFEST,), finish=lint_crashes)  # fmt: skip
    assert snapshot(folder) == before and (folder / "notice.pdf").stat().st_ino == inode
    assert sorted(p.name for p in tmp_path.iterdir()) == ["case-x"]  # no staging, no lock
    assert put(folder, {"notice.pdf": b"v2", "letters.pdf": b"L2"}) == []
    assert not list(folder.glob("*.edited-*"))


def test_what_a_killed_build_left_is_removed_and_a_packet_moved_aside_comes_back(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "case-x"
    put(folder, {"notice.pdf": b"v1"})
    staged = tmp_path / ".case-x.staging-999999"
    staged.mkdir()
    (staged / MANIFEST).write_text("{}")
    (tmp_path / ".case-y.staging-999999").mkdir()  # another packet's: not ours to remove
    # Killed between moving the old packet aside and the new one in (no atomic exchange):
    folder.rename(tmp_path / ".case-x.old-999998")
    put(folder, {"notice.pdf": b"v1"})
    assert sorted(p.name for p in tmp_path.iterdir()) == [".case-y.staging-999999", "case-x"]
    assert not list(folder.glob("*.edited-*"))


def test_the_packet_lock_is_waited_for_then_refused_and_leaves_no_file(tmp_path: Path) -> None:
    folder = tmp_path / "case-x"
    with packet_folder.locked(folder):
        assert (tmp_path / ".case-x.lock").is_file()
        start = time.monotonic()
        refused = pytest.raises(UserError, match="another build of this packet is writing it")
        with refused, packet_folder.locked(folder, wait=0.5):
            pass
        assert time.monotonic() - start >= 0.5
    assert list(tmp_path.iterdir()) == []
    with packet_folder.locked(folder, wait=0):  # free again
        pass


def test_a_packet_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine")
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "case-x").symlink_to(elsewhere)
    with pytest.raises(UserError, match="symbolic link"):
        put(tmp_path / "out" / "case-x", {"notice.pdf": b"v1"})
    assert snapshot(elsewhere) == {"keep.txt": b"mine"}


# ------------------------------------------------------------------ real builds, killed


def case_copy(tmp_path: Path, number: str) -> Path:
    """The quick Oklahoma text case, as `ok-2027-text-01.yaml` in its own folder (same packet)."""
    text = (CASES / "ok-2027-text-01.yaml").read_text()
    folder = tmp_path / number
    folder.mkdir()
    return write_case(folder, text.replace("ZTA-2027-02", number), "ok-2027-text-01.yaml")


def start(case: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "build", str(case), "--out", str(out)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(c) for c in task.read_text().split()]
        except FileNotFoundError:  # the thread ended between the listing and the read
            continue
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its exit status is left


def in_lint(proc: subprocess.Popen[str], out: Path) -> list[int]:
    """Wait until the build is in its lint step (its staged documents written, its linter's
    workers all started) and hold it there: its workers are stopped (SIGSTOP), so on an idle
    machine the lint cannot finish before the test's signal lands. Return the workers' ids."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        workers = children(proc.pid)  # a one-case build starts processes only to lint
        if cpus() >= 2:
            started = len(workers) >= min(cpus(), 4)  # 4 notices to lint, one per core
        else:  # no workers: the staged notices are there
            started = bool(list(out.glob(".ok-2027-text-01.staging-*/newspaper_notice.txt")))
        if started:
            for worker in workers:
                os.kill(worker, signal.SIGSTOP)
            time.sleep(0.2)  # past the fork (a signal that lands inside it is lost)
            return workers
        time.sleep(0.01)
    raise AssertionError("the build never reached its lint step")


def whole(folder: Path) -> dict[str, str]:
    """Assert the manifest lists exactly the files on disk, with their hashes; return them."""
    manifest = json.loads((folder / MANIFEST).read_text())
    listed = {d["path"]: d["sha256"] for d in manifest["documents"]}
    listed |= {d["path"]: d["sha256"] for d in manifest["edited"]}
    on_disk = {p.name: sha(p.read_bytes()) for p in folder.iterdir() if p.name != MANIFEST}
    assert on_disk == listed
    return on_disk


def leftovers(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name != "ok-2027-text-01")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_a_build_killed_or_interrupted_in_its_lint_step_leaves_the_previous_packet_whole(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    folder = out / "ok-2027-text-01"
    first = start(case_copy(tmp_path, "ZTA-2027-02"), out)
    assert first.wait() == 0, first.communicate()
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    whole(folder)
    changed = case_copy(tmp_path, "ZTA-2027-99")

    # Ctrl-C in the lint step: the staging folder is removed on the way out.
    interrupted = start(changed, out)
    held = in_lint(interrupted, out)
    interrupted.send_signal(signal.SIGINT)
    time.sleep(0.5)
    for worker in held:  # let the workers end their document, as after a real Ctrl-C
        if alive(worker):
            os.kill(worker, signal.SIGCONT)
    assert interrupted.wait(60) != 0
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert leftovers(out) == []

    # kill -9 in the lint step: the staging folder stays behind, the linter's workers die.
    killed = start(changed, out)
    workers = in_lint(killed, out)
    killed.kill()
    killed.wait()
    for worker in workers:  # held before it armed its parent-death signal: it must see it alone
        if alive(worker):
            os.kill(worker, signal.SIGCONT)
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, workers)), [w for w in workers if alive(w)]
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before
    assert [n for n in leftovers(out) if ".staging-" in n], leftovers(out)

    # The next build cleans up what the killed one left and files nothing as an edited draft.
    again = start(changed, out)
    stdout, stderr = again.communicate(timeout=300)
    assert again.returncode == 0, stderr
    assert "edited" not in stdout
    assert not list(folder.glob("*.edited-*")) and leftovers(out) == []
    assert "ZTA-2027-99" in (folder / "newspaper_notice.txt").read_text()
    whole(folder)


@pytest.mark.slow
def test_two_concurrent_builds_of_one_packet_take_turns(tmp_path: Path) -> None:
    out = tmp_path / "out"
    folder = out / "ok-2027-text-01"
    case = case_copy(tmp_path, "ZTA-2027-02")
    first = start(case, out)
    assert first.wait() == 0, first.communicate()
    both = [start(case, out), start(case_copy(tmp_path, "ZTA-2027-99"), out)]
    done = [(p.wait(300), *p.communicate()) for p in both]
    assert [status for status, _, _ in done] == [0, 0], done
    assert not any("edited" in o for _, o, _ in done), done
    assert not list(folder.glob("*.edited-*")) and leftovers(out) == []
    whole(folder)


@pytest.mark.slow
def test_a_damaged_edited_draft_is_kept_and_reported_and_the_build_completes(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    folder = out / "ok-2027-text-01"
    case = case_copy(tmp_path, "ZTA-2027-02")
    assert start(case, out).wait() == 0
    cut = (folder / "newspaper_notice.pdf").read_bytes()[:3000]
    (folder / "newspaper_notice.pdf").write_bytes(cut)  # someone saved half a PDF
    for _ in range(2):  # and every later build too
        build = start(case, out)
        stdout, stderr = build.communicate(timeout=300)
        # Written whole, not ready: the clerk's draft must be repaired or removed before it goes out.
        assert build.returncode == 1, stderr
        assert "NL012" in stdout and "newspaper_notice.edited-1.pdf" in stdout
        assert (folder / "newspaper_notice.edited-1.pdf").read_bytes() == cut
        manifest = json.loads((folder / MANIFEST).read_text())
        assert [e["path"] for e in manifest["edited"]] == ["newspaper_notice.edited-1.pdf"]
        (nl012,) = [f for f in manifest["findings"] if f["code"] == "NL012"]
        assert nl012["document"] == "newspaper_notice.edited-1.pdf"
        whole(folder)
    assert sorted(p.name for p in folder.glob("*.edited-*")) == ["newspaper_notice.edited-1.pdf"]


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc")
def test_pool_workers_die_with_their_parent(tmp_path: Path) -> None:
    script = (
        "import os, sys, time\n"
        "from generator.processes import pool\n"
        "workers = pool(2)\n"
        "futures = [workers.submit(time.sleep, 60) for _ in range(2)]\n"
        "time.sleep(0.5)\n"
        "print(' '.join(str(p) for p in workers._processes), flush=True)\n"
        "time.sleep(60)\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True
    )
    assert parent.stdout is not None
    workers = [int(p) for p in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(map(alive, workers))
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while any(map(alive, workers)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(map(alive, workers))
