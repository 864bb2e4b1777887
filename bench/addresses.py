"""Reading and formatting owners' mailing addresses: 10,000 blocks of the real shapes.

Cycles through the real address shapes of tests/addresses/corpus.yaml (house numbers varied so
no two blocks are alike), reads each with `from_block` / `from_parts` and formats its label;
prints addresses/s and the peak memory of the process. `--compare` also runs usaddress and
usaddress-scourgify (when installed) on the same corpus, each address as one string, and prints
per shape how often each gets the state and ZIP right, refuses, or returns a wrong one.

Ends with the `bench-row:` line `make bench` collects (bench/table.py); `--tiny` (200 addresses,
with --compare) is what the tests run.

Run: .venv/bin/python bench/addresses.py [--addresses 10000] [--compare] [--tiny]
"""

from __future__ import annotations

import argparse
import json
import re
import resource
import sys
import time
import tracemalloc
from collections import Counter
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.recipients.address import from_block, from_parts  # noqa: E402

CORPUS = yaml.safe_load((ROOT / "tests/addresses/corpus.yaml").read_text(encoding="utf-8"))


def _vary(line: str, i: int) -> str:
    return re.sub(r"^\d+", lambda m: str(int(m[0]) + i % 97), line)


def run(n: int) -> None:
    cases = CORPUS["cases"]
    jobs = []
    for i in range(n):
        case = cases[i % len(cases)]
        if "block" in case:
            jobs.append(("block", [_vary(x, i) for x in case["block"]]))
        else:
            parts = dict(case["parts"])
            parts["lines"] = [_vary(x, i) for x in parts["lines"]]
            jobs.append(("parts", parts))
    from_block(["1 MAIN ST", "TUCSON AZ 85701"])  # load the tables and the tagger's model
    tracemalloc.start()
    kinds: Counter[str] = Counter()
    start = time.perf_counter()
    for how, job in jobs:
        address = from_block(job) if how == "block" else from_parts(**job)
        address.label()
        kinds[address.kind] += 1
    took = time.perf_counter() - start
    _, traced = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = max(resource.getrusage(who).ru_maxrss for who in _TREE) / 1024
    print("kinds: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print(
        f"{n} addresses parsed and formatted in {took:.2f} s: {n / took:,.0f} addresses/s; "
        f"peak RSS {rss:.0f} MB, peak traced {traced / 2**20:.1f} MB"
    )
    row = {
        "work": f"{n:,} mailing addresses read and formatted",
        "figure": f"{took:.2f} s, {n / took:,.0f}/s, peak {rss:.0f} MB",
        "target": "none set (measured)",
        "met": None,
    }
    print("bench-row: " + json.dumps(row, ensure_ascii=False))


# The whole process tree: this process and any it waited for.
_TREE = (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)


def compare() -> None:
    import usaddress

    try:
        from scourgify import normalize_address_record
    except ImportError:
        normalize_address_record = None
    rows = [c for c in CORPUS["cases"] if "block" in c]
    score: dict[str, Counter[str]] = {
        "ours": Counter(),
        "usaddress": Counter(),
        "scourgify": Counter(),
    }
    timing: Counter[str] = Counter()
    for case in rows:
        expect = case["expect"]
        want = (expect.get("state", ""), expect.get("zip5", ""))
        shape = expect["kind"]
        one = ", ".join(x for x in case["block"] if x)

        def judge(name: str, got: tuple[str, str] | None, want=want, shape=shape) -> None:
            if got is None:
                verdict = "refused"
            elif shape in ("unparsed", "foreign"):
                # Right only when no US state and ZIP are made up for it.
                verdict = "right" if got == ("", "") and shape == "foreign" else "WRONG"
                verdict = "refused" if got == ("", "") and shape == "unparsed" else verdict
            else:
                verdict = "right" if got == want else "WRONG"
            score[name][f"{shape}: {verdict}"] += 1

        start = time.perf_counter()
        ours = from_block(case["block"])
        timing["ours"] += time.perf_counter() - start
        judge("ours", None if ours.kind == "unparsed" else (ours.state, ours.zip5))
        start = time.perf_counter()
        try:
            tagged, _ = usaddress.tag(one)
            got = (str(tagged.get("StateName", "")).upper(), str(tagged.get("ZipCode", ""))[:5])
        except usaddress.RepeatedLabelError:
            got = None
        timing["usaddress"] += time.perf_counter() - start
        judge("usaddress", got)
        if normalize_address_record is not None:
            start = time.perf_counter()
            try:
                rec = normalize_address_record(one)
                got = (rec["state"] or "", (rec["postal_code"] or "")[:5])
            except Exception:  # any refusal counts as a refusal
                got = None
            timing["scourgify"] += time.perf_counter() - start
            judge("scourgify", got)
    for name, counts in score.items():
        if not counts:
            continue
        right = sum(v for k, v in counts.items() if k.endswith("right"))
        wrong = sum(v for k, v in counts.items() if k.endswith("WRONG"))
        print(f"{name}: {right} right, {wrong} wrong, {len(rows) - right - wrong} refused "
              f"of {len(rows)}; {len(rows) / timing[name]:,.0f} addresses/s")  # fmt: skip
        for key, value in sorted(counts.items()):
            print(f"    {key}: {value}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--addresses", type=int, default=10_000)
    parser.add_argument("--compare", action="store_true")
    parser.add_argument("--tiny", action="store_true", help="200 addresses, --compare (the tests)")
    args = parser.parse_args()
    if args.compare or args.tiny:
        compare()
    run(200 if args.tiny else args.addresses)


if __name__ == "__main__":
    main()
