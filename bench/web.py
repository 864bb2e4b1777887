"""How fast `notices serve` starts and how fast each page of a built packet answers.

A working folder is made in a temporary folder (the sample cases, some of them built), then
the real server (`python -m generator serve`) is started several times: the time from process
start to the first 200 of the cases list is the start time (target < 1 s). Then each page is
asked for N times over HTTP on loopback; the median is the page's figure (target < 200 ms).
A page whose route does not exist yet (another part of issue 20 adds it) is skipped, and said so.

Run: .venv/bin/python bench/web.py [--tiny]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TARGET = 1.0
PAGE_TARGET = 0.2
TINY_CASES = ("ep-2027-za-03",)
BUILT_CASES = ("ep-2027-za-03", "tx-2027-map-01", "ok-2027-map-01", "az-2027-text-01")
# (route name, path; {case} is the built case's id): the pages of a built packet.
PAGES = (
    ("cases", "/"),
    ("packet", "/cases/{case}"),
    ("schedule", "/cases/{case}/schedule"),
    ("recipients", "/cases/{case}/recipients"),
    ("pack", "/cases/{case}/pack"),
    ("map", "/cases/{case}/map"),
    ("build_status", "/cases/{case}/build"),
)


def row(work: str, figure: str, target: str, met: bool | None) -> str:
    """One line of issue 21's bench table."""
    data = {"work": work, "figure": figure, "target": target, "met": met}
    return "bench-row: " + json.dumps(data, ensure_ascii=False)


def bare_python() -> float:
    """Seconds a bare Python takes to start and stop: the floor of any start time."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - start


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> float:
    """Seconds until `url` answered 200 in full."""
    start = time.perf_counter()
    with urllib.request.urlopen(url, timeout=30) as response:  # noqa: S310 (our own http://127.0.0.1)
        response.read()
        if response.status != 200:
            raise RuntimeError(f"{url}: {response.status}")
    return time.perf_counter() - start


def serve(folder: Path, port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "serve", str(folder), "--port", str(port)],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) process `pid` has used so far (Linux; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float | None:
    """The largest resident size process `pid` has had, in MB (Linux; None elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")), None)
    return None if kb is None else int(kb) / 1024


def start_time(folder: Path) -> tuple[float, float | None]:
    """Seconds from the server's process start to its first 200 of the cases list (wall, CPU).

    The CPU time is the figure a shared, loaded machine does not blur.
    """
    port = free_port()
    start = time.perf_counter()
    server = serve(folder, port)
    try:
        while True:
            try:
                get(f"http://127.0.0.1:{port}/")
                return time.perf_counter() - start, cpu_seconds(server.pid)
            except (urllib.error.URLError, ConnectionError):
                if server.poll() is not None:
                    raise RuntimeError("the server stopped") from None
                time.sleep(0.005)
    finally:
        server.terminate()
        server.wait()


def workspace(folder: Path, cases: list[Path], built: list[Path]) -> None:
    """The working folder: `cases` copied, `built` built (in this process, before timing)."""
    from generator.packet import build

    (folder / "cases").mkdir()
    (folder / "data").symlink_to(ROOT / "data")
    for case in cases:
        shutil.copy(case, folder / "cases")
        for sidecar in case.parent.glob(f"{case.stem}.*.csv"):  # returned mail, signers
            shutil.copy(sidecar, folder / "cases")
    if (ROOT / "cases" / "evidence").is_dir():
        shutil.copytree(ROOT / "cases" / "evidence", folder / "cases" / "evidence")
    for case in built:
        build(folder / "cases" / case.name, folder / "output")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tiny", action="store_true", help="one built case, few requests")
    parser.add_argument("--runs", type=int, help="requests per page (default 30; tiny 5)")
    args = parser.parse_args()
    runs = args.runs or (5 if args.tiny else 30)
    starts_n = 3 if args.tiny else 7
    every = sorted((ROOT / "cases").glob("*.yaml"))
    names = TINY_CASES if args.tiny else BUILT_CASES
    built = [ROOT / "cases" / f"{n}.yaml" for n in names]
    cases = built if args.tiny else every
    from generator.web.app import create_app

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        workspace(folder, cases, built)
        routes = {getattr(r, "name", None) for r in create_app(folder).routes}
        measured = [start_time(folder) for _ in range(starts_n)]
        starts = [wall for wall, _ in measured]
        cpus = [cpu for _, cpu in measured if cpu is not None]
        bare = statistics.median(bare_python() for _ in range(starts_n))
        cpu = f"; CPU {statistics.median(cpus) * 1000:.0f} ms" if cpus else ""
        rows = [
            row(
                "notices serve: process start to the first 200 (cases list,"
                f" {len(cases)} cases, {len(built)} built)",
                f"{statistics.median(starts) * 1000:.0f} ms (median of {starts_n} starts;"
                f" min {min(starts) * 1000:.0f} ms{cpu}; bare Python {bare * 1000:.0f} ms;"
                f" load average {os.getloadavg()[0]:.1f})",
                "< 1 s",
                statistics.median(starts) < START_TARGET,
            )
        ]
        port = free_port()
        server = serve(folder, port)
        try:
            while True:
                try:
                    get(f"http://127.0.0.1:{port}/")
                    break
                except (urllib.error.URLError, ConnectionError):
                    time.sleep(0.01)
            case = built[0].stem
            for name, path in PAGES:
                if name not in routes:
                    print(f"skipped: route {name!r} ({path}) does not exist yet")
                    continue
                url = f"http://127.0.0.1:{port}{path.format(case=case)}"
                first = get(url)
                times = [get(url) for _ in range(runs)]
                median = statistics.median(times)
                print(
                    f"{name:14s} {path:34s} median {median * 1000:6.1f} ms, first {first * 1000:6.1f} ms"
                )
                rows.append(
                    row(
                        f"GET {path.format(case=case)} ({name})",
                        f"{median * 1000:.0f} ms (median of {runs}; first {first * 1000:.0f} ms)",
                        "< 200 ms",
                        None if args.tiny else median < PAGE_TARGET,
                    )
                )
            peak = peak_rss_mb(server.pid)
        finally:
            server.terminate()
            server.wait()
    print(f"web: {len(cases)} cases, {len(built)} built, {runs} requests per page")
    # The server has no children: its own peak is its process tree's.
    figure = "unknown (no /proc)" if peak is None else f"{peak:.0f} MB"
    print(
        row("notices serve: peak RSS of the server, after the pages above", figure, "(none)", None)
    )
    for line in rows:
        print(line)


if __name__ == "__main__":
    main()
