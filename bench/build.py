"""How long a clerk waits for `notices build` of one map case: warm (in-process) and cold.

Run: .venv/bin/python bench/build.py [--tiny] [--repeat N] [CASE ...]

Warm: the median of N builds in one process after a first build (imports, fonts, templates and
caches paid). Cold: the median of N fresh `notices build CASE` processes, imports included.
The target case is cases/tx-2027-map-01.yaml (two hearings, a map, signs, letters); more CASE
files print one warm line each. `--tiny` builds a small case once each way; its figures are
printed but not judged.
"""

from __future__ import annotations

import argparse
import compileall
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASE = ROOT / "cases" / "tx-2027-map-01.yaml"
TINY_CASE = ROOT / "cases" / "ep-2027-za-03.yaml"
WARM_TARGET, COLD_TARGET = 1.5, 3.0  # seconds


def _peak_mb() -> float:
    """Peak resident memory of this process or any child it waited for, in MB."""
    return (
        max(
            resource.getrusage(who).ru_maxrss
            for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        / 1024
    )


def cold(case: Path, out: Path, repeat: int) -> float:
    """Median seconds of a fresh `notices build CASE` process."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run = subprocess.run(
            [sys.executable, "-m", "generator", "build", str(case), "--out", str(out)],
            check=False,
            capture_output=True,
            cwd=ROOT,
        )
        times.append(time.perf_counter() - start)
        if run.returncode not in (0, 1):  # 1: built, with findings to act on
            sys.exit(f"notices build {case} failed:\n{run.stderr.decode()[-2000:]}")
    return statistics.median(times)


def warm(cases: list[Path], out: Path, repeat: int) -> dict[str, float]:
    """Median seconds of an in-process build of each case, after a first build of it."""
    from generator.packet import build

    times = {}
    for case in cases:
        build(case, out)  # imports, fonts, templates
        runs = []
        for _ in range(repeat):
            start = time.perf_counter()
            build(case, out)
            runs.append(time.perf_counter() - start)
        times[case.stem] = statistics.median(runs)
    return times


def main() -> None:
    """Print the figures and the bench rows."""
    parser = argparse.ArgumentParser()
    parser.add_argument("cases", nargs="*", type=Path, help="more cases to time warm")
    parser.add_argument("--tiny", action="store_true", help="a small case, built once each way")
    parser.add_argument("--repeat", type=int, default=None, help="builds per figure (3)")
    args = parser.parse_args()
    case = TINY_CASE if args.tiny else CASE
    repeat = args.repeat or (1 if args.tiny else 3)
    compileall.compile_dir(ROOT / "generator", quiet=1)  # as an installed package has it
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        cold_s = cold(case, out, repeat)  # first, so this process's imports do not warm it
        times = warm([case, *(c for c in args.cases if c.resolve() != case)], out, repeat)
    for name, seconds in times.items():
        print(f"{name:28s} {seconds * 1000:7.0f} ms warm")
    print(f"{case.stem}: {cold_s:.2f} s cold (a fresh `notices build`), median of {repeat}")
    peak = _peak_mb()
    judge = None if args.tiny else True
    rows = [
        (
            "one map case build, warm",
            f"{times[case.stem]:.2f} s ({case.stem}, in-process, median of {repeat})",
            f"<= {WARM_TARGET:g} s",
            judge and times[case.stem] <= WARM_TARGET,
        ),
        (
            "one map case build, cold",
            f"{cold_s:.2f} s ({case.stem}, fresh process, median of {repeat}); peak {peak:.0f} MB",
            f"<= {COLD_TARGET:g} s",
            judge and cold_s <= COLD_TARGET,
        ),
    ]
    for work, figure, target, met in rows:
        row = {"work": work, "figure": figure, "target": target, "met": met}
        print("bench-row: " + json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
