"""Hostile or broken case files: refused with exit 2, one located message each, in bounded time
and memory, nothing written (issue 14, item 7).

Each test runs the real `notices build` in a subprocess under a memory cap and a deadline, and
measures the peak memory of that process alone (`os.wait4`).
"""

from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from .conftest import CASES, ROOT, write_case

EP = (CASES / "ep-2027-za-03.yaml").read_text()
NEWPORT_TEXT = (CASES / "newport-2027-text-01.yaml").read_text()
CAP = 2 * 2**30  # address space: the alias bomb took 4-5 GB before the fix


@dataclass
class Run:
    code: int
    err: str
    peak_mb: float
    seconds: float


def notices_capped(tmp_path: Path, *args: str, timeout: float = 60) -> Run:
    """Run `notices`, killed after `timeout` s or past `CAP` bytes; its own peak memory."""
    out, err = tmp_path / "stdout", tmp_path / "stderr"

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))

    start = time.monotonic()
    with out.open("w") as stdout, err.open("w") as stderr:
        proc = subprocess.Popen(
            [sys.executable, "-m", "generator", *args],
            cwd=ROOT,
            stdout=stdout,
            stderr=stderr,
            stdin=subprocess.DEVNULL,
            preexec_fn=cap,
        )
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    return Run(proc.returncode, err.read_text(), usage.ru_maxrss / 1024, time.monotonic() - start)


def refused(tmp_path: Path, *cases: Path, timeout: float = 60) -> str:
    """Build `cases`; assert exit 2, no traceback, nothing in --out, low memory; the messages."""
    out = tmp_path / "out"
    run = notices_capped(tmp_path, "build", *map(str, cases), "--out", str(out), timeout=timeout)
    assert run.code == 2, f"exit {run.code} after {run.seconds:.0f} s:\n{run.err[-2000:]}"
    assert "Traceback" not in run.err and "internal error" not in run.err
    assert not out.exists(), "nothing may be written for bad input"
    assert run.peak_mb < 1000, f"peak memory {run.peak_mb:.0f} MB"
    return run.err


def one_error(err: str, name: str) -> str:
    """The one `error:` line about file `name`."""
    lines = [line for line in err.splitlines() if line.startswith("error:") and name in line]
    assert len(lines) == 1, err
    return lines[0]


def billion_laughs(levels: int = 9, width: int = 10) -> str:
    """The classic alias bomb: `width ** levels` values from a few hundred bytes."""
    rows = ["a: &a [" + ",".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        prev, name = chr(ord("a") + i - 1), chr(ord("a") + i)
        rows.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * width) + "]")
    return "\n".join(rows) + "\n"


def test_an_alias_bomb_is_refused_at_once_in_little_memory(tmp_path: Path) -> None:
    bomb = billion_laughs()
    assert len(bomb.encode()) < 500
    loop = "a: &a [1, *a]\n"
    many = "a: &a x\nb: [" + ", ".join(["*a"] * 101) + "]\n"
    cases = [
        write_case(tmp_path, text, name)
        for text, name in [(bomb, "bomb.yaml"), (loop, "loop.yaml"), (many, "aliases.yaml")]
    ]
    err = refused(tmp_path, *cases)
    line = one_error(err, "bomb.yaml")
    assert re.search(
        r"bomb\.yaml:\d+:\d+: [a-z\[\]0-9]+: aliases repeat more than 10,000 values", line
    )
    assert "loop.yaml:1:4: a[1]: an alias names a value that contains it" in one_error(
        err, "loop.yaml"
    )
    assert "aliases.yaml:2:405: more than 100 aliases" in one_error(err, "aliases.yaml")


def test_a_few_aliases_still_work() -> None:
    from generator.yamlio import loads

    doc = loads("hall: &hall {city: Newport}\nhearing: {address: *hall}\n", "x.yaml")
    assert doc.data["hearing"]["address"] == {"city": "Newport"}


def test_deep_nesting_is_refused_without_recursion_error(tmp_path: Path) -> None:
    lists = write_case(tmp_path, "[" * 10_000 + "]" * 10_000 + "\n", "lists.yaml")
    maps = write_case(tmp_path, "a: {" * 10_000 + "}" * 10_000 + "\n", "maps.yaml")
    err = refused(tmp_path, lists, maps)
    assert "lists.yaml:1:51: nested more than 50 levels deep" in one_error(err, "lists.yaml")
    assert "maps.yaml:1:197: nested more than 50 levels deep" in one_error(err, "maps.yaml")


def test_what_is_not_a_file_or_too_large_is_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)  # opening it to read would wait for a writer for ever
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")  # reading it would never end
    huge = tmp_path / "huge.yaml"
    huge.write_text(EP + "#" * 1_000_000 + "\n")
    err = refused(tmp_path, fifo, zero, huge, timeout=30)
    assert "fifo.yaml: is a pipe (FIFO), not a file" in one_error(err, "fifo.yaml")
    assert "zero.yaml: is a device, not a file" in one_error(err, "zero.yaml")
    assert "huge.yaml: is larger than 1 MB, the most a case or rule pack may be" in one_error(
        err, "huge.yaml"
    )


DAYS = {
    "hearing-9999": ("date: 2027-03-16", "date: 9999-03-16", "hearings[0].date: 9999-03-16"),
    "hearing-year-1": ("date: 2027-03-16", "date: 0001-03-16", "hearings[0].date: 0001-03-16"),
    "as-of-9999": ("as_of: 2026-11-29", "as_of: 9999-12-31", "as_of: 9999-12-31"),
    "petition-9999": (
        "petition_received: 2027-01-20",
        "petition_received: 9999-12-31",
        "petition_received: 9999-12-31",
    ),
    "layer-year-1": ("as_of: 2026-11-02", "as_of: 0001-01-01", "gis.parcels.as_of: 0001-01-01"),
}


def test_days_out_of_range_name_the_field(tmp_path: Path) -> None:
    cases, lines = [], {}
    for name, (old, new, _) in DAYS.items():
        assert old in EP
        text = EP.replace(old, new, 1)
        lines[name] = next(i for i, row in enumerate(text.splitlines(), 1) if new in row)
        cases.append(write_case(tmp_path, text, f"{name}.yaml"))
    err = refused(tmp_path, *cases)
    for name, (_, _, field) in DAYS.items():
        line = one_error(err, f"{name}.yaml")
        assert f"{name}.yaml:{lines[name]}:" in line
        assert f"{field} is out of range: a case's days lie in 2000-2099" in line, line


def test_schedule_as_of_out_of_range_is_refused(tmp_path: Path) -> None:
    run = notices_capped(
        tmp_path, "schedule", str(CASES / "ep-2027-za-03.yaml"), "--as-of", "9999-12-31"
    )
    assert run.code == 2 and "Traceback" not in run.err
    assert "--as-of" in run.err and "2000-2099" in run.err


LONG = "word " * 40_000  # 200,000 characters
FIELDS = {
    "title": (EP, "  title: Zoning map amendment", f"  title: {LONG}#", "amendment.title", "1,000"),
    "applicant": (EP, "  name: Riverside Square", f"  name: {LONG}#", "applicant.name", "300"),
    "place": (EP, "    place: City Council", f"    place: {LONG}#", "hearings[0].place", "300"),
    "owner": (EP, "    owner: Riverside", f"    owner: {LONG}#", "parcels[0].owner", "300"),
    "full-text": (
        NEWPORT_TEXT,
        "  full_text: |\n",
        f"  full_text: |\n    {LONG}\n",
        "amendment.full_text",
        "120,000",
    ),
}


def test_a_200000_character_field_is_refused_quickly(tmp_path: Path) -> None:
    cases = []
    for name, (base, old, new, _, _) in FIELDS.items():
        assert old in base
        cases.append(write_case(tmp_path, base.replace(old, new, 1), f"{name}.yaml"))
    err = refused(tmp_path, *cases, timeout=60)
    for name, (_, _, _, field, limit) in FIELDS.items():
        line = one_error(err, f"{name}.yaml")
        assert re.search(
            rf"{re.escape(field)}: is [0-9,]+ characters long; at most {limit} fit", line
        )


HOSTILE = {
    # escapes put into a value what the file itself may not hold
    "nul-escape": ("municipality: City of East Providence", 'municipality: "City\\0"', "U+0000"),
    "surrogate": ("municipality: City of East Providence", 'municipality: "\\ud800"', "U+D800"),
    "c1-control": ("municipality: City of East Providence", 'municipality: "\\x9b2J"', "U+009B"),
    "raw-nul": ("municipality: City of East Providence", "municipality: City\0", "U+0000"),
    "huge-int": ("council_size: 5", "council_size: " + "9" * 5000, "number too long"),
    "long-key": ("council_size: 5", "? " + "k" * 300 + "\n: 5", "no field has so long a name"),
    "list-at-top": ("schema_version: 1", "- schema_version: 1", "valid dictionary"),
}


def test_hostile_values_are_refused_with_their_place(tmp_path: Path) -> None:
    cases = []
    for name, (old, new, _) in HOSTILE.items():
        assert old in EP, name
        text = EP.replace(old, new, 1)
        if name == "list-at-top":
            text = "- " + EP.replace("\n", "\n  ")
        cases.append(write_case(tmp_path, text, f"{name}.yaml"))
    err = refused(tmp_path, *cases)
    for name, (_, _, message) in HOSTILE.items():
        lines = [line for line in err.splitlines() if f"{name}.yaml" in line]
        assert lines and any(message in line for line in lines), (name, err)
        assert all(re.search(rf"{name}\.yaml(:\d+)+: ", line) for line in lines), lines


@pytest.mark.parametrize(
    "raw",
    [
        b"\xef\xbb\xbf" + EP.encode(),  # a byte-order mark, as Windows Notepad writes
        EP.replace("\n", "\r\n").encode(),  # CRLF line ends
        EP.replace("\n", "\r").encode(),  # old Mac line ends
    ],
    ids=["bom", "crlf", "cr"],
)
def test_a_bom_or_other_line_ends_read_as_the_same_case(tmp_path: Path, raw: bytes) -> None:
    from generator.yamlio import load

    (tmp_path / "a.yaml").write_bytes(raw)
    (tmp_path / "b.yaml").write_text(EP)
    a, b = load(tmp_path / "a.yaml"), load(tmp_path / "b.yaml")
    assert a.data == b.data and a.values == b.values


OK_MAP = (CASES / "ok-2027-map-01.yaml").read_text()
BIG = "10000000000000000000000000"
NUMBERS = {
    # each overflowed the schedule's date arithmetic (exit 70) or hung laying out the sign
    "lead-hours": (EP, "hours_before: 72", f"hours_before: {BIG}", "accommodation.hours_before"),
    "lead-business-days": (
        OK_MAP,
        "business_days_before: 2",
        f"business_days_before: {BIG}",
        "accommodation.business_days_before",
    ),
    "copy-deadline": (
        EP,
        "days_before: 5,",
        f"days_before: {BIG},",
        "newspaper.copy_deadline.days_before",
    ),
    "sign-size": (OK_MAP, "size_in: [96, 96]", "size_in: [1e300, 96]", "sign.size_in[0]"),
    "sign-distance": (
        OK_MAP,
        "size_in: [96, 96]",
        "legible_from_ft: 1e300",
        "sign.legible_from_ft",
    ),
    "infinity": (OK_MAP, "size_in: [96, 96]", "size_in: [1e999, 96]", "sign.size_in[0]"),
}


def test_numbers_beyond_any_real_case_are_refused(tmp_path: Path) -> None:
    cases = []
    for name, (base, old, new, _) in NUMBERS.items():
        assert old in base, name
        cases.append(write_case(tmp_path, base.replace(old, new, 1), f"{name}.yaml"))
    err = refused(tmp_path, *cases)
    for name, (_, _, _, field) in NUMBERS.items():
        assert f" {field}: " in one_error(err, f"{name}.yaml"), name
