"""How fast `notices --help` answers, and which heavy modules it imports (should be none).

Run: .venv/bin/python bench/startup.py
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

RUNS = 7


def main() -> None:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "generator", "--help"], check=True, capture_output=True
        )
        times.append(time.perf_counter() - start)
    bare = []
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare.append(time.perf_counter() - start)
    print(
        f"notices --help: median {statistics.median(times) * 1000:.0f} ms over {RUNS} runs "
        f"(bare python {statistics.median(bare) * 1000:.0f} ms); budget 300 ms"
    )


if __name__ == "__main__":
    main()
