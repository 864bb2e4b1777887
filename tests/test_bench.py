"""Every bench runs, at a tiny size, so that none of them rots (CI runs the slow tier).

The figures are the benches' business (`make bench` prints them); here each must run to the
end and print its summary line.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import ROOT

BENCHES = {
    "startup": (["bench/startup.py"], "notices --help: median"),
    "build": (["bench/build.py", "cases/ep-2027-za-03.yaml"], "1 cases:"),
    "mailing": (["bench/mailing.py", "--recipients", "30", "--sample", "3"], "pages/s"),
    "lint": (["bench/lint.py", "--recipients", "30", "--rebuild"], "findings: 0 (0 errors"),
    "recipients": (["bench/recipients.py", "--parcels", "2000"], "`notices recipients` wall time"),
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
