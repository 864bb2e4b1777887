"""What `notices build` (and so `make demo`) prints: one line per packet — ready or not, its
findings counted by severity — with the errors under it; every finding only with -v."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import CASES, notices, write_case


def heads(findings: list[dict]) -> list[str]:
    """How each finding's line begins: `  error PLAN001 intent_and_effect:`."""
    return [
        f"  {f['severity']} {f['code']}" + (f" {f['rule']}:" if f["rule"] else "") for f in findings
    ]


def begin(lines: list[str], findings: list[dict]) -> bool:
    return len(lines) == len(findings) and all(
        line.startswith(head) for line, head in zip(lines, heads(findings), strict=True)
    )


def counted(manifest: dict) -> str:
    severities = [f["severity"] for f in manifest["findings"]]

    def n(severity: str, word: str) -> str:
        k = severities.count(severity)
        return f"{k} {word}{'' if k == 1 else 's'}"

    return f"{n('error', 'error')}, {n('warning', 'warning')}, {n('info', 'note')}"


@pytest.mark.slow
def test_a_build_prints_a_line_per_packet_and_the_errors(tmp_path: Path) -> None:
    text = (CASES / "ep-2027-za-03.yaml").read_text()
    no_intent = re.sub(r"  intent_and_effect: >-\n(    .*\n)+", "", text)
    assert no_intent != text
    broken = write_case(tmp_path, no_intent, "ep-not-ready.yaml")
    out = tmp_path / "out"
    run = notices("build", str(CASES / "ok-2027-text-01.yaml"), str(broken), "--out", str(out))
    assert run.returncode == 1, run.stdout + run.stderr
    ready = json.loads((out / "ok-2027-text-01" / "manifest.json").read_text())
    not_ready = json.loads((out / "ep-not-ready" / "manifest.json").read_text())
    assert ready["ready"] and ready["findings"], "a sample with warnings and notes"
    errors = [f for f in not_ready["findings"] if f["severity"] == "error"]
    assert errors and len(errors) < len(not_ready["findings"])
    lines = run.stdout.splitlines()
    files = len(ready["documents"])
    assert lines[0] == f"{out}/ok-2027-text-01: ready — {files} files, {counted(ready)}"
    assert lines[1] == (
        f"{out}/ep-not-ready: NOT READY — {len(not_ready['documents'])} files, {counted(not_ready)}"
    )
    # The errors, whatever the clerk asked for; the warnings and notes are in the manifest.
    assert begin(lines[2:-1], errors), lines
    assert "intent_and_effect" in lines[2]
    assert lines[-1].startswith("Warnings and notes: `notices build -v` prints them")


def test_verbose_prints_every_finding(tmp_path: Path) -> None:
    out = tmp_path / "out"
    run = notices("build", "-v", str(CASES / "ok-2027-text-01.yaml"), "--out", str(out))
    assert run.returncode == 0, run.stderr
    manifest = json.loads((out / "ok-2027-text-01" / "manifest.json").read_text())
    lines = run.stdout.splitlines()
    files = len(manifest["documents"])
    assert lines[0] == f"{out}/ok-2027-text-01: ready — {files} files, {counted(manifest)}"
    assert begin(lines[1:], manifest["findings"]), lines
