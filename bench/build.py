"""Time `notices build` for every sample case, in one process (imports paid once) and cold.

Run: .venv/bin/python bench/build.py [CASE ...]   (default: every case in cases/)
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("cases", nargs="*", type=Path)
    cases = parser.parse_args().cases or sorted((ROOT / "cases").glob("*.yaml"))
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "generator", "build", *map(str, cases), "--out", out],
            check=False,
            capture_output=True,
        )
        cold = time.perf_counter() - start
        from generator.packet import build

        build(cases[0], Path(out))  # warm the imports and font caches
        times = {}
        for case in cases:
            start = time.perf_counter()
            build(case, Path(out))
            times[case.stem] = time.perf_counter() - start
    for name, seconds in times.items():
        print(f"{name:28s} {seconds * 1000:7.0f} ms")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{len(cases)} cases: {sum(times.values()):.2f} s warm in one process, peak RSS {peak:.0f} MB; "
        f"{cold:.2f} s as one cold `notices build` command"
    )


if __name__ == "__main__":
    main()
