"""How fast `notices --help` answers, beside bare Python (`python -c pass`) in the same run.

Run: .venv/bin/python bench/startup.py [--tiny]

The judged figure is CPU time (user + system of the child, median of the runs): on a shared
machine wall time mostly measures the neighbours. Wall medians are printed beside it. The
package's bytecode is compiled first, as an installed package's is (an editable checkout under
PYTHONDONTWRITEBYTECODE would otherwise recompile generator/entry.py on every run). In a
terminal narrower than 80 columns `--help` goes through click (generator/entry.py says why):
`python -X importtime -m generator build --help` shows what that path costs.
"""

from __future__ import annotations

import argparse
import compileall
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = 2.0  # times bare Python


def _run(args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True, cwd=ROOT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu


def measure(runs: int) -> dict[str, tuple[float, float]]:
    """Median (wall ms, CPU ms) of `notices --help`, bare Python and `build --help`, interleaved."""
    commands = {
        "help": [sys.executable, "-m", "generator", "--help"],
        "bare": [sys.executable, "-c", "pass"],
        # Beside the judged figure: what every other command line starts with (click, one module).
        "click": [sys.executable, "-m", "generator", "build", "--help"],
    }
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    for _ in range(runs):  # interleaved, so all see the same load
        for name, args in commands.items():
            got[name].append(_run(args))
    return {
        k: (
            statistics.median(w for w, _ in v) * 1000,
            statistics.median(c for _, c in v) * 1000,
        )
        for k, v in got.items()
    }


def main() -> None:
    """Print the figures and the bench row."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--tiny", action="store_true", help="3 runs instead of 21")
    parser.add_argument("--runs", type=int, default=None)
    args = parser.parse_args()
    runs = args.runs or (3 if args.tiny else 21)
    compileall.compile_dir(ROOT / "generator", quiet=1)
    got = measure(runs)
    (help_wall, help_cpu), (bare_wall, bare_cpu) = got["help"], got["bare"]
    click_cpu = got["click"][1]
    ratio = help_cpu / bare_cpu
    print(
        f"notices --help: median {help_cpu:.0f} ms CPU, {help_wall:.0f} ms wall over {runs} runs"
        f" (bare python {bare_cpu:.0f} ms CPU, {bare_wall:.0f} ms wall;"
        f" `notices build --help`, through click, {click_cpu:.0f} ms CPU)"
    )
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    row = {
        "work": "notices --help",
        "figure": f"{help_cpu:.0f} ms CPU (bare Python {bare_cpu:.0f} ms: {ratio:.1f}x);"
        f" wall {help_wall:.0f} ms (bare {bare_wall:.0f} ms); peak {peak:.0f} MB;"
        f" `build --help` through click {click_cpu:.0f} ms CPU",
        "target": f"<= {TARGET:g}x bare Python",
        "met": None if args.tiny else ratio <= TARGET,
    }
    print("bench-row: " + json.dumps(row, ensure_ascii=False))


if __name__ == "__main__":
    main()
