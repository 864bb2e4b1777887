"""`make bench`: run every bench of bench/, one after another, and write their rows as one table.

Every bench script ends its output with one line per figure,

    bench-row: {"work": "...", "figure": "...", "target": "...", "met": true}

(`met` true or false, or null where the size run cannot judge). This runs each `bench/*.py`
(not itself, nor a `_helper.py`) at full size, or with `--tiny` as the tests do, never two at
once (the figures are wall times on a shared machine), shows each bench's output as it comes,
and writes the rows as a Markdown table, each bench's rows under the date, machine and load of
its own run: docs/bench.md by default at full size; with `--tiny`, only where `--out` says (tiny
figures judge nothing). The runs are kept beside the table as JSON (docs/bench.json), so
`--only NAME` re-measures those benches and keeps every other bench's rows with their own date.
A bench that fails, or prints no row, is a row of its own that says so, and the exit is 1.

Run: .venv/bin/python bench/table.py [--tiny] [--only NAME ...] [--out docs/bench.md]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = ROOT / "bench"
PREFIX = "bench-row: "
KEYS = ("work", "figure", "target", "met")


def benches() -> list[str]:
    """The bench scripts' names, in the order they run."""
    me = Path(__file__).stem
    return sorted(p.stem for p in BENCH.glob("*.py") if p.stem != me and not p.stem.startswith("_"))


def rows_of(output: str) -> list[dict]:
    """The well-formed `bench-row:` lines of a bench's output; ValueError on a malformed one."""
    rows = []
    for line in output.splitlines():
        if not line.startswith(PREFIX):
            continue
        row = json.loads(line[len(PREFIX) :])
        if not isinstance(row, dict) or tuple(row) != KEYS:
            raise ValueError(f"a bench row has the keys {', '.join(KEYS)}, in order: {line}")
        if not all(isinstance(row[k], str) and row[k] for k in KEYS[:3]):
            raise ValueError(f"work, figure and target are words: {line}")
        if row["met"] not in (True, False, None):
            raise ValueError(f"met is true, false or null: {line}")
        rows.append(row)
    return rows


def run(name: str, *, tiny: bool) -> tuple[list[dict], float]:
    """Run one bench, its output passed through; its rows (or one saying it failed), its time."""
    args = [sys.executable, str(BENCH / f"{name}.py"), *(["--tiny"] if tiny else [])]
    print(f"== bench/{name}.py{' --tiny' if tiny else ''}", flush=True)
    start = time.perf_counter()
    done = subprocess.run(args, cwd=ROOT, stdout=subprocess.PIPE, text=True, check=False)
    took = time.perf_counter() - start
    print(done.stdout, end="", flush=True)
    try:
        rows = rows_of(done.stdout)
    except ValueError as exc:
        rows, why = [], str(exc)
    else:
        why = "" if rows else "it printed no bench-row line"
    if done.returncode != 0:
        why = f"it exited {done.returncode}"
    if why:
        rows.append({"work": f"bench/{name}.py", "figure": f"FAILED: {why}", "target": "runs",
                     "met": False})  # fmt: skip
    return rows, took


def machine() -> str:
    """What the figures were measured on."""
    model = ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip() + ", "
                break
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count() or 1
    return (
        f"{model}{cores} cores, {platform.system()} {platform.release()},"
        f" Python {platform.python_version()}"
    )


def _now() -> str:
    """When a bench started, and how busy the machine was: its figures depend on both."""
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    if hasattr(os, "getloadavg"):
        when += f", load average {os.getloadavg()[0]:.1f} at the start"
    return when


def markdown(runs: dict[str, dict], *, where: str, tiny: bool) -> str:
    """The table: each bench's rows under the date of its own run, the machine above them all."""
    size = "at the tests' tiny size (`--tiny`): no target is judged" if tiny else "at full size"
    out = [
        "# Benchmarks",
        "",
        f"`make bench` (bench/table.py), {size}. Each bench is dated by its own run:",
        "`bench/table.py --only NAME` re-runs one bench and keeps the others' rows.",
        f"Machine: {where}. A shared machine: read the ratios more than the times.",
    ]
    mark = {True: "yes", False: "**no**", None: "—"}
    for name, got in runs.items():
        elsewhere = f", on {got['machine']}" if got.get("machine", where) != where else ""
        out += ["", f"### bench/{name}.py — {got['when']}{elsewhere}", ""]
        out += ["| work | figure | target | met |", "|---|---|---|---|"]
        for r in got["rows"]:
            cells = [str(r[k]).replace("|", "\\|") for k in KEYS[:3]] + [mark[r["met"]]]
            out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _kept(path: Path, names: list[str], tiny: bool) -> dict[str, dict]:
    """The earlier runs, of benches that still exist, measured at the same size."""
    if not path.is_file():
        return {}
    earlier = json.loads(path.read_text(encoding="utf-8"))
    return {n: r for n, r in earlier.items() if n in names and r.get("tiny", False) == tiny}


def main(argv: list[str] | None = None) -> int:
    """Run the benches, print the table, write it; exit 1 if a bench failed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help="each bench at its tiny size")
    parser.add_argument("--only", nargs="+", metavar="NAME", help="only these benches")
    parser.add_argument("--out", type=Path, help="the Markdown file (default: docs/bench.md)")
    args = parser.parse_args(argv)
    names = benches()
    unknown = sorted(set(args.only or []) - set(names))
    if unknown:
        parser.error(f"no bench {', '.join(unknown)}; there are {', '.join(names)}")
    out = args.out or (None if args.tiny else ROOT / "docs" / "bench.md")
    store = out.with_suffix(".json") if out is not None else None
    runs = _kept(store, names, args.tiny) if store is not None and args.only else {}
    where = machine()
    for name in args.only or names:
        when = _now()
        got, took = run(name, tiny=args.tiny)
        runs[name] = {"when": when, "machine": where, "tiny": args.tiny, "rows": got}
        print(f"== bench/{name}.py: {len(got)} rows in {took:.0f} s", flush=True)
    runs = {n: runs[n] for n in names if n in runs}
    table = markdown(runs, where=where, tiny=args.tiny)
    print(table, end="")
    if out is not None and store is not None:
        out.write_text(table, encoding="utf-8")
        store.write_text(json.dumps(runs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"wrote {out} and {store.name}")
    fresh = [r for n in args.only or names for r in runs[n]["rows"]]
    return 1 if any(r["figure"].startswith("FAILED") for r in fresh) else 0


if __name__ == "__main__":
    sys.exit(main())
