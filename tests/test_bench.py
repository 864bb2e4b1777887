"""Every bench runs, at a tiny size, so that none of them rots (CI runs the slow tier).

The figures are the benches' business (`make bench` prints them); here each must run to the
end and print its summary line.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from .conftest import ROOT

BENCHES = {
    "startup": (["bench/startup.py"], "notices --help: median"),
    "build": (["bench/build.py", "cases/ep-2027-za-03.yaml"], "1 cases:"),
    "mailing": (["bench/mailing.py", "--recipients", "30", "--sample", "3"], "pages/s"),
    "lint": (["bench/lint.py", "--recipients", "30", "--rebuild"], "findings: 0 (0 errors"),
    # Needs PostGIS (a throwaway cluster): fails, never skips, without it.
    "recipients": (
        ["bench/recipients.py", "--parcels", "2000"],
        "wall time (imports included), postgis",
    ),
    "lint_quality": (["bench/lint_quality.py", "--tiny"], "single-file lint wall time"),
    "addresses": (
        ["bench/addresses.py", "--addresses", "200", "--compare"],
        "addresses/s; peak RSS",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BENCHES))
def test_bench_runs_at_a_tiny_size(name: str) -> None:
    args, summary = BENCHES[name]
    run = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert summary in run.stdout, run.stdout[-2000:]


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
