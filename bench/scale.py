"""Out to a cluster: many cases built and many notices linted, on the local pool and on Dask.

Makes 100 synthetic cases from a sample case (new case numbers and file names, the same town's
GIS layers) and 2,000 notices (the East Providence notices of tests/lint/, copied under new
names) in a temporary folder, then times, as a user runs them:

- `notices build CASES...` and `notices lint NOTICES... --results FILE` on the local pool
  (both cores), and
- the same with `--cluster ADDRESS` on a `distributed.LocalCluster` of 1 and of 2 worker
  processes (one thread each; the cluster is started, and its workers import the product, before the clock starts).

Prints the cluster's speed-up from 1 to 2 workers (the issue's target: >= 1.7x on 2 cores), the
time (and CPU time, which a busy shared machine does not blur) per case (per notice) the
cluster adds over the local pool, the peak memory of the whole process tree (this process,
the command and its workers, the cluster's workers: summed RSS, sampled) and whether the cluster's manifests and lint lines are the local run's. `--tiny` (the
tests): 2 cases and 20 notices, where no target is judged.

Run: .venv/bin/python bench/scale.py [--tiny] [--cases 100] [--notices 2000]
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil
from distributed import Client, LocalCluster

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "cases" / "ep-2027-za-03.yaml"
NOTICES = sorted((ROOT / "tests" / "lint").glob("ep-*.txt"))
LINT = ["--jurisdiction", "us-ri-east-providence", "--kind", "newspaper_notice"]
TARGET = 1.7


def make_cases(folder: Path, n: int) -> list[Path]:
    """`n` copies of the sample case, each its own case number and file, the same GIS layers."""
    folder.mkdir()
    text = SAMPLE.read_text(encoding="utf-8").replace("../data/", f"{ROOT / 'data'}/")
    number = text.split("\ncase_number: ", 1)[1].split("\n", 1)[0]
    out = []
    for i in range(n):
        path = folder / f"{SAMPLE.stem}-s{i:04}.yaml"
        path.write_text(text.replace(f"case_number: {number}", f"case_number: {number}-S{i:04}"))
        out.append(path)
    return out


def make_notices(folder: Path, n: int) -> list[Path]:
    """`n` notices: the sample notices in turn, each under its own name."""
    folder.mkdir()
    out = []
    for i in range(n):
        source = NOTICES[i % len(NOTICES)]
        path = folder / f"{i:05}-{source.name}"
        shutil.copyfile(source, path)
        out.append(path)
    return out


def _cpu(p: psutil.Process) -> float:
    t = p.cpu_times()
    return t.user + t.system


class Tree:
    """This process and all its descendants while a command runs: peak summed RSS, CPU seconds.

    RSS is sampled every 0.1 s. CPU is exact: the command and every process it waited for
    (RUSAGE_CHILDREN), plus what this process and the standing cluster (its scheduler runs
    here, its workers are children) spent meanwhile.
    """

    def __init__(self) -> None:
        self.bytes = 0
        self.cpu = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._me = psutil.Process()

    def _sample(self) -> None:
        while not self._stop.is_set():
            total = 0
            for p in [self._me, *self._me.children(recursive=True)]:
                with contextlib.suppress(psutil.Error):  # it ended between listing and reading
                    total += p.memory_info().rss
            self.bytes = max(self.bytes, total)
            self._stop.wait(0.1)

    def _standing(self) -> dict[int, tuple[psutil.Process, float]]:
        out = {}
        for p in [self._me, *self._me.children(recursive=True)]:
            with contextlib.suppress(psutil.Error):
                out[p.pid] = (p, _cpu(p))
        return out

    def _waited(self) -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    def __enter__(self) -> Tree:
        self._before, self._waited_before = self._standing(), self._waited()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.cpu = self._waited() - self._waited_before
        for p, before in self._before.values():
            with contextlib.suppress(psutil.Error):
                self.cpu += _cpu(p) - before


def timed(args: list[str]) -> tuple[float, Tree, subprocess.CompletedProcess[str]]:
    """Run `notices ARGS...`: its wall time, its process tree's memory and CPU, the process."""
    with Tree() as tree:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "generator", *args],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        took = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(
            f"notices {' '.join(args[:2])}... exited {done.returncode}:\n{done.stderr}"
        )
    return took, tree, done


@contextmanager
def cluster(workers: int) -> Iterator[str]:
    """A LocalCluster of `workers` processes, one thread each, warm: its scheduler's address.

    A cluster stands between jobs: its workers have imported the product before the clock
    starts (the local pool's workers are forked by the command, and import as they go).
    """
    with LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        with Client(c.scheduler_address) as client:
            client.run(_warm)
        yield c.scheduler_address


def _warm() -> None:
    """On each worker: import what a build and a lint import."""
    for name in ("generator.packet", "generator.lint.corpus", "generator.commands.build"):
        importlib.import_module(name)


def _shown(run: tuple) -> str:
    """`12.3 s (20.1 s CPU, 700 MB)`: a run's wall time, CPU and peak memory."""
    return f"{run[0]:.1f} s ({run[1].cpu:.1f} s CPU, {run[1].bytes / 2**20:.0f} MB)"


def manifests(folder: Path) -> dict[str, bytes]:
    """Every packet's manifest under `folder`, by packet."""
    return {p.parent.name: p.read_bytes() for p in sorted(folder.glob("*/manifest.json"))}


def main(argv: list[str] | None = None) -> int:
    """Measure, print the figures and the bench rows; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help="2 cases, 20 notices (the tests)")
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--notices", type=int, default=2000)
    args = parser.parse_args(argv)
    n_cases, n_notices = (2, 20) if args.tiny else (args.cases, args.notices)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        root = Path(tmp)
        cases = [str(p) for p in make_cases(root / "cases", n_cases)]
        notices = [str(p) for p in make_notices(root / "notices", n_notices)]

        def build(where: str, *extra: str) -> tuple[float, Tree, dict[str, bytes]]:
            took, tree, _ = timed(["build", *cases, "--out", str(root / where), *extra])
            return took, tree, manifests(root / where)

        def lint(where: str, *extra: str) -> tuple[float, Tree, str]:
            results = root / f"{where}.jsonl"
            took, tree, _ = timed(["lint", *notices, *LINT, "--results", str(results), *extra])
            return took, tree, results.read_text(encoding="utf-8")

        local = {"build": build("local"), "lint": lint("local")}
        on: dict[int, dict[str, tuple]] = {}
        for workers in (1, 2):
            with cluster(workers) as address:
                on[workers] = {
                    "build": build(f"dask{workers}", "--cluster", address),
                    "lint": lint(f"dask{workers}", "--cluster", address),
                }
        load = os.getloadavg()[0]
        print(f"load average {load:.1f} on {os.cpu_count()} cores at the end (wall times share it)")
        for work, n, unit in (("build", n_cases, "case"), ("lint", n_notices, "notice")):
            here, one, two = local[work], on[1][work], on[2][work]
            same = here[2] == one[2] == two[2] and bool(here[2])
            speedup = one[0] / two[0]
            overhead = (two[0] - here[0]) / n
            cpu = (two[1].cpu - here[1].cpu) / n
            what = f"{n_cases} cases built" if work == "build" else f"{n_notices} notices linted"
            print(
                f"{what}: local pool {_shown(here)}; Dask 1 worker {_shown(one)}, 2 workers"
                f" {_shown(two)}: speed-up {speedup:.2f}x; the cluster adds"
                f" {overhead * 1000:+.0f} ms ({cpu * 1000:+.0f} ms CPU) a {unit} over the local"
                f" pool; same results as the local run: {'yes' if same else 'NO'}"
            )
            judge = None if args.tiny else speedup >= TARGET
            rows += [
                {
                    "work": f"{what} on Dask, 1 → 2 workers",
                    "figure": f"{one[0]:.1f} s → {two[0]:.1f} s: {speedup:.2f}x,"
                    f" peak {two[1].bytes / 2**20:.0f} MB (load average {load:.1f})",
                    "target": f">= {TARGET}x on 2 cores",
                    "met": judge,
                },
                {
                    "work": f"{what}: what the cluster adds over the local pool",
                    "figure": f"{overhead * 1000:+.0f} ms, {cpu * 1000:+.0f} ms CPU a {unit}"
                    f" ({here[0]:.1f} s → {two[0]:.1f} s)",
                    "target": "same results as the local run",
                    "met": same,
                },
            ]
    for row in rows:
        print("bench-row: " + json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
