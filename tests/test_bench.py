"""Every bench runs, at a tiny size, so that none of them rots (CI runs the slow tier).

The figures are the benches' business (`make bench` collects them into docs/bench.md); here
each must run to the end with `--tiny` and print its figures as well-formed `bench-row:` lines
(bench/table.py reads them; see its docstring).
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

# bench/table.py: the row format and the list of benches (bench/ is scripts, not a package).
_spec = importlib.util.spec_from_file_location("bench_table", ROOT / "bench" / "table.py")
assert _spec is not None and _spec.loader is not None
table = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(table)

# Every bench of bench/, by name. A new bench is listed here, which the first test enforces.
# recipients needs PostGIS (a throwaway cluster): it fails, never skips, without it.
BENCHES = (
    "addresses",
    "build",
    "lint",
    "lint_quality",
    "mailing",
    "recipients",
    "scale",
    "startup",
    "web",
)


def test_every_bench_is_listed() -> None:
    assert sorted(BENCHES) == table.benches()


@pytest.mark.slow
@pytest.mark.parametrize("name", BENCHES)
def test_bench_runs_at_a_tiny_size(name: str) -> None:
    run = subprocess.run(
        [sys.executable, f"bench/{name}.py", "--tiny"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert table.rows_of(run.stdout), run.stdout[-2000:]


def _table_of(bench: str, out: Path) -> str:
    """The table `bench/table.py --tiny --only BENCH --out OUT` writes."""
    run = subprocess.run(
        [sys.executable, "bench/table.py", "--tiny", "--only", bench, "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    return out.read_text(encoding="utf-8")


def test_the_table_collects_every_row_and_marks_a_failed_bench(tmp_path: Path) -> None:
    """bench/table.py on one real bench: its rows in the table, with the machine and the date."""
    out = tmp_path / "bench.md"
    text = _table_of("addresses", out)
    assert "| work | figure | target | met |" in text and "Machine: " in text
    assert "| 200 mailing addresses read and formatted |" in text
    # A second bench run alone keeps the first one's rows, under the first run's own date.
    earlier = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    earlier["addresses"]["when"] = "2001-01-01 00:00 UTC"
    out.with_suffix(".json").write_text(json.dumps(earlier), encoding="utf-8")
    text = _table_of("startup", out)
    assert "### bench/addresses.py — 2001-01-01 00:00 UTC" in text
    assert "| 200 mailing addresses read and formatted |" in text
    assert "### bench/startup.py — " in text and "notices --help" in text
    with pytest.raises(ValueError, match="met is true, false or null"):
        table.rows_of('bench-row: {"work": "w", "figure": "f", "target": "t", "met": "yes"}')
    with pytest.raises(ValueError, match="the keys"):
        table.rows_of('bench-row: {"work": "w", "figure": "f"}')


def test_recipients_bench_runs_in_the_default_tier() -> None:
    """The recipients bench at its tiny size on a GeoPackage, in every `make test`.

    The bench broke once (a duplicate `gis:` key in the case it writes) and nothing noticed:
    its only test ran in the slow tier and needs a PostgreSQL server, which `make test` does
    not start. This one needs neither, and checks the rows `make bench` collects.
    """
    run = subprocess.run(
        [sys.executable, "bench/recipients.py", "--tiny", "--stores", "gpkg", "--runs", "1"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [
        json.loads(line.removeprefix("bench-row: "))
        for line in run.stdout.splitlines()
        if line.startswith("bench-row: ")
    ]
    assert [r["work"] for r in rows] == [
        "recipients select, 3,600 parcels",
        "notices recipients, 3,600 parcels (whole command)",
    ], run.stdout
    assert all(r["met"] is None and r["target"] for r in rows), rows


def test_recipients_bench_case_is_the_sample_with_the_bench_layer(tmp_path: Path) -> None:
    """The case the bench writes loads, names the bench's parcels and only its parcel layer."""
    sys.path.insert(0, str(ROOT / "bench"))
    try:
        import recipients as bench
    finally:
        sys.path.remove(str(ROOT / "bench"))
    from generator.inputs import load_case

    layer = tmp_path / "county.gpkg"
    case = bench.case_file(tmp_path, "gpkg", str(layer), ["P7", "P8"])
    loaded = load_case(case).case
    assert [p.id for p in loaded.parcels] == ["P7", "P8"]
    assert loaded.gis is not None and loaded.gis.parcels is not None
    assert loaded.gis.parcels.path == str(layer) and loaded.gis.zoning is None


def test_lint_quality_counts_each_clause_against_the_corpus(tmp_path: Path) -> None:
    """The quality bench's arithmetic, on a corpus of our own notices with known answers.

    One notice lacks "may be amended" (a TP), one lacks the accommodation clause but its file
    does not list that topic as required (an NL001 for it is an FP), a topic left to the case
    that the linter cannot know of is a disagreement, the rest are TNs. A corpus pack that
    extends a pack of jurisdictions/ is found in the corpus's packs/ folder.
    """
    lint = ROOT / "tests" / "lint"
    (tmp_path / "packs").mkdir()
    pack = (ROOT / "jurisdictions" / "us-ri-east-providence.yaml").read_text(encoding="utf-8")
    (tmp_path / "packs" / "us-ri-ep-copy.yaml").write_text(
        pack.replace("id: us-ri-east-providence", "id: us-ri-ep-copy"), encoding="utf-8"
    )
    every = ["hearing_when_where", "may_be_amended", "accommodation"]

    def notice(name: str, source: str, pack: str, expect: dict[str, object]) -> None:
        data = {
            "source": f"tests/lint/{source} (our own wording, not a published notice)",
            "published": "2027-02-25", "state": "RI", "place": "City of East Providence",
            "kind": "newspaper_notice", "pack": pack, "on": "2027-02-25",
            "text": (lint / source).read_text(encoding="utf-8"),
            "expect": {t: {"present": p, "why": f"{t} test"} for t, p in expect.items()},
            "notes": f"{name} note",
        }  # fmt: skip
        (tmp_path / f"ri-ep-2027-{name}.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")

    notice("reworded", "ep-reworded.txt", "us-ri-east-providence", dict.fromkeys(every, True))
    notice("amend", "ep-missing-clause.txt", "us-ri-ep-copy",
           {**dict.fromkeys(every, True), "may_be_amended": False})  # fmt: skip
    notice("accommodation", "ep-no-accommodation.txt", "us-ri-east-providence",
           {"hearing_when_where": True, "noise_zone_statement": "undecided"})  # fmt: skip
    (tmp_path / "broken.yaml").write_text("state: RI\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "bench/lint_quality.py", "--corpus", str(tmp_path), "--format", "json",
         "--cli-sample", "1"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    got = json.loads(run.stdout)
    summary = got["summary"]
    assert (summary["notices"], summary["linted"], summary["states"]) == (3, 3, 1)
    assert (summary["TP"], summary["FP"], summary["FN"], summary["TN"]) == (1, 1, 0, 6)
    assert (summary["precision"], summary["recall"]) == (0.5, 1.0)
    assert (summary["undecided_agree"], summary["undecided_disagree"]) == (0, 1)
    assert summary["cli_timed"] == 1 and summary["cli_median_s"] > 0
    assert got["by_topic"]["may_be_amended"]["TP"] == 1
    # Left out: "needs the case" (NL016) of the pack's conditional rules this corpus omits.
    wrong = {
        (d["file"], d["topic"], d["expected"], d["got"])
        for d in got["disagreements"]
        if d["outcome"] != "needless"
    }
    assert wrong == {
        ("ri-ep-2027-accommodation.yaml", "accommodation", "not required", "missing"),
        ("ri-ep-2027-accommodation.yaml", "noise_zone_statement", "undecided", "present"),
    }
    assert [u["file"] for u in got["unreadable"]] == ["broken.yaml"]
    text = subprocess.run(
        [sys.executable, "bench/lint_quality.py", "--corpus", str(tmp_path), "--cli-sample", "0"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    for line in ("precision 0.50", "recall 1.00", "By state", "By clause topic",
                 "why: noise_zone_statement test", "notes: accommodation note"):  # fmt: skip
        assert line in text, text
