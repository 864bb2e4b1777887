"""How right the linter is on real published notices: precision, recall, and every disagreement.

For each notice of the corpus (`tests/corpus/*.yaml`, one real notice a file with its source,
the pack it is judged under and, per clause topic, whether the law's clause is present, missing
or undecidable without the case — written from the law before the linter ran), writes its text
to a .txt file, lints it with the real linter (`generator.lint.engine.lint`, as `notices lint
FILE --jurisdiction PACK --kind KIND [--on DATE]` does) and compares, topic by topic:

- an NL001 ("required clause not found") or NL017 (the hearing's place only a link) is a
  positive: TP when the clause is missing, FP when it is present or the law does not require it
  (a topic the corpus file does not list);
- a missing clause without either is an FN; a present one without either a TN;
- a topic the law leaves to the case (`present: undecided`) should be reported as such (NL016,
  "needs the case to decide"): counted apart, agree or disagree, outside precision and recall;
  an NL016 on a clause the law decides, or does not require, is counted as "NL016 wrong".

Prints precision and recall, the confusion tables per state and per clause topic, every
disagreement with the corpus file's reason, and the single-file lint wall time (median over the
corpus: `lint()` in this process, and `notices lint FILE` as a user runs it on a sample). It
measures; it always exits 0. The issue's target is precision and recall >= 0.95. The text
and Markdown outputs end with the `bench-row:` lines `make bench` collects (bench/table.py).

Run: .venv/bin/python bench/lint_quality.py [--tiny] [--corpus DIR ...] [--format text|markdown|json]
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT / "tests" / "corpus"
TINY = 3  # notices read by --tiny
CLI_SAMPLE = 5  # notices timed as `notices lint FILE` (each a new process, ~1 s)
MISSING, PRESENT, UNDECIDED, NOT_REQUIRED = "missing", "present", "undecided", "not required"
EXPECTED = {False: MISSING, True: PRESENT, "undecided": UNDECIDED}
# A clause not met: not found (NL001), or the hearing given only a link for its place (NL017).
CLAUSE_MISSING, NEEDS_CASE = ("NL001", "NL017"), "NL016"
WRONG_NL016 = "NL016 wrong"  # "needs the case" of a clause the law decides or does not require


@dataclass(frozen=True)
class Notice:
    """One corpus file: a real notice and what the law says of its clauses."""

    path: Path
    state: str
    kind: str
    pack: str
    on: date | None
    text: str
    expect: dict[str, tuple[str, str]]  # topic -> (missing | present | undecided, why)
    notes: str
    packs: Path  # where a pack not in jurisdictions/ lives: tests/corpus/packs/


@dataclass
class Row:
    """One clause topic of one notice: what the corpus expects and what the linter said."""

    file: str
    state: str
    topic: str
    expected: str
    got: str
    why: str = ""
    notes: str = ""

    @property
    def outcome(self) -> str:
        """TP, FP, FN or TN by whether an NL001 was right; agree or disagree on an undecided one.

        A clause the law decides that the linter calls undecided counts for precision and recall
        as not said missing (FN or TN) and is listed among the disagreements; one the law does
        not require that the linter calls undecided is "needless" (listed, outside the figures).
        """
        if self.expected == UNDECIDED:
            return "agree" if self.got == UNDECIDED else "disagree"
        said = self.got == MISSING
        if self.expected == NOT_REQUIRED:
            return "FP" if said else "needless"  # "needs the case" of a rule that does not apply
        if self.expected == MISSING:
            return "TP" if said else "FN"
        return "FP" if said else "TN"


@dataclass
class Tally:
    """Counts of outcomes, and the precision and recall they give."""

    notices: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def add(self, row: Row) -> None:
        """Count one row."""
        self.counts[row.outcome] = self.counts.get(row.outcome, 0) + 1
        if row.got == UNDECIDED and row.expected != UNDECIDED:
            self.counts[WRONG_NL016] = self.counts.get(WRONG_NL016, 0) + 1

    def __getitem__(self, outcome: str) -> int:
        return self.counts.get(outcome, 0)

    @property
    def precision(self) -> float | None:
        """Right NL001s over all NL001s (None when the linter said nothing was missing)."""
        said = self["TP"] + self["FP"]
        return self["TP"] / said if said else None

    @property
    def recall(self) -> float | None:
        """Missing clauses caught over all missing clauses (None when none was missing)."""
        missing = self["TP"] + self["FN"]
        return self["TP"] / missing if missing else None


def load_corpus(folders: list[Path]) -> tuple[list[Notice], list[tuple[str, str]]]:
    """Every notice of the corpus folders, and the files that could not be read, with why."""
    # The project's loader: YAML 1.1 (PyYAML's safe_load) reads the key `on:` as `True`.
    from generator.errors import UserError
    from generator.yamlio import load

    notices, broken = [], []
    for folder in folders:
        for path in sorted(folder.glob("*.yaml")):
            try:
                notices.append(_notice(path, load(path).data, folder / "packs"))
            except (OSError, UserError, KeyError, TypeError, ValueError) as exc:
                broken.append((path.name, f"{type(exc).__name__}: {exc}"))
    return notices, broken


def _notice(path: Path, data: dict[str, Any], packs: Path) -> Notice:
    on = data.get("on")
    expect = {}
    for topic, entry in (data.get("expect") or {}).items():
        present = entry["present"]
        if present not in EXPECTED:
            raise ValueError(f"expect.{topic}.present must be true, false or undecided")
        expect[str(topic)] = (EXPECTED[present], str(entry.get("why") or ""))
    return Notice(
        path=path,
        state=str(data["state"]).upper(),
        kind=str(data["kind"]),
        pack=str(data["pack"]),
        on=date.fromisoformat(on) if isinstance(on, str) else on,
        text=str(data["text"]),
        expect=expect,
        notes=" ".join(str(data.get("notes") or "").split()),
        packs=packs,
    )


def tiny_sample(notices: list[Notice], size: int = TINY) -> list[Notice]:
    """`size` notices, one from each state first, so a tiny run still spans states."""
    first: dict[str, Notice] = {}
    for n in notices:
        first.setdefault(n.state, n)
    chosen = list(first.values())[:size]
    chosen += [n for n in notices if n not in chosen][: size - len(chosen)]
    return sorted(chosen, key=lambda n: n.path.name)


class Packs:
    """Where the linter finds each pack: jurisdictions/, else the corpus's own `packs/` folders.

    `root` is a folder holding both (links to them), for the loader and `$NOTICES_JURISDICTIONS`,
    so that a corpus pack may extend a state pack of jurisdictions/.
    """

    def __init__(self, folders: list[Path], work: Path) -> None:
        from generator.paths import JURISDICTIONS

        self.root = work / "packs"
        self.root.mkdir()
        for folder in [JURISDICTIONS, *folders]:
            for entry in sorted(folder.iterdir()) if folder.is_dir() else []:
                link = self.root / entry.name
                is_pack = entry.suffix == ".yaml" or (entry / "pack.yaml").is_file()
                if is_pack and not link.exists():  # the project's own pack wins over a copy
                    link.symlink_to(entry.resolve())

    def topics(self, pack: str) -> dict[str, str]:
        """Clause topic of each rule id of `pack` and its parents."""
        from generator.models.pack import ClauseParams
        from generator.rules.loader import load_pack_file, resolve

        out: dict[str, str] = {}
        current: str | None = pack
        while current:  # every rule of the chain, a replaced or disabled one included
            file = load_pack_file(current, self.root)
            for rule in file.pack.rules:
                if isinstance(rule.params, ClauseParams):
                    out.setdefault(rule.id, str(rule.params.topic))
            current = file.pack.extends
        for rule in resolve(pack, self.root).rules:
            if isinstance(rule.params, ClauseParams):
                out[rule.id] = str(rule.params.topic)
        return out


def run_lint(path: Path, notice: Notice, packs: Packs) -> Any:
    """The real linter on one file, as `notices lint FILE --jurisdiction --kind [--on]` runs it.

    The one place that says how the linter finds a corpus-only pack: its own `packs=` option
    where it has one, else `$NOTICES_JURISDICTIONS` set to a folder holding every pack.
    """
    from generator.lint.engine import lint

    options: dict[str, Any] = {"jurisdiction": notice.pack, "kind": notice.kind, "on": notice.on}
    if "packs" in inspect.signature(lint).parameters:
        return lint([path], packs=notice.packs if notice.packs.is_dir() else None, **options)
    with _environ("NOTICES_JURISDICTIONS", str(packs.root)):
        return lint([path], **options)


@contextmanager
def _environ(name: str, value: str) -> Iterator[None]:
    before = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = before


def cli_command(path: Path, notice: Notice) -> list[str]:
    """`notices lint FILE …` as a user types it (the console script beside this Python)."""
    script = Path(sys.executable).with_name("notices")
    head = [str(script)] if script.is_file() else [sys.executable, "-m", "generator"]
    cmd = [*head, "lint", str(path), "--jurisdiction", notice.pack, "--kind", notice.kind]
    return cmd + (["--on", notice.on.isoformat()] if notice.on else [])


@dataclass
class Measured:
    """Everything one run found."""

    corpus: list[str]
    rows: list[Row]
    notices: list[Notice]
    failed: list[tuple[str, str]]  # notices the linter could not lint, and why
    broken: list[tuple[str, str]]  # corpus files that could not be read, and why
    seconds: list[float]  # lint() per notice, in this process
    cli_seconds: list[float]  # `notices lint FILE` per sampled notice

    def tally(self, key: Any = None) -> dict[str, Tally]:
        """Outcomes in all (key None) or grouped by `key(row)`."""
        out: dict[str, Tally] = {}
        for row in self.rows:
            out.setdefault(key(row) if key else "all", Tally()).add(row)
        seen: dict[str, set[str]] = {}
        for row in self.rows:
            seen.setdefault(key(row) if key else "all", set()).add(row.file)
        for name, files in seen.items():
            out[name].notices = len(files)
        return dict(sorted(out.items()))

    @property
    def disagreements(self) -> list[Row]:
        """Rows where the linter and the law differ."""
        return [r for r in self.rows if r.expected != r.got]


def measure(
    notices: list[Notice], broken: list[tuple[str, str]], folders: list[Path], cli_sample: int
) -> Measured:
    """Lint every notice and compare with its expectations."""
    from generator.errors import UserError

    rows: list[Row] = []
    failed: list[tuple[str, str]] = []
    seconds: list[float] = []
    cli: list[float] = []
    with tempfile.TemporaryDirectory(prefix="lint-quality-") as tmp:
        packs = Packs(sorted({n.packs for n in notices}), Path(tmp))
        for notice in notices:
            path = Path(tmp) / f"{notice.path.stem}.txt"
            path.write_text(notice.text, encoding="utf-8")
            try:
                topics = packs.topics(notice.pack)
                start = time.perf_counter()
                result = run_lint(path, notice, packs)
                seconds.append(time.perf_counter() - start)
            except UserError as exc:
                failed.append((notice.path.name, " ".join(str(exc).split())))
                continue
            rows += compare(notice, result.findings, topics)
        for notice in tiny_sample(notices, cli_sample):  # across states
            if notice.path.name in dict(failed):
                continue
            path = Path(tmp) / f"{notice.path.stem}.txt"
            env = {**os.environ, "NOTICES_JURISDICTIONS": str(packs.root)}
            start = time.perf_counter()
            subprocess.run(cli_command(path, notice), env=env, capture_output=True, check=False)
            cli.append(time.perf_counter() - start)
    return Measured([str(f) for f in folders], rows, notices, failed, broken, seconds, cli)


def compare(notice: Notice, findings: list[Any], topics: dict[str, str]) -> list[Row]:
    """One row per topic the corpus expects, and one per topic the linter flagged beyond them."""
    said: dict[str, str] = {}
    for f in findings:
        if f.code in (*CLAUSE_MISSING, NEEDS_CASE):
            topic = topics.get(f.rule or "", f"rule {f.rule or '?'}")
            verdict = MISSING if f.code in CLAUSE_MISSING else UNDECIDED
            if said.get(topic) != MISSING:  # a clause both missing and undecided is missing
                said[topic] = verdict
    rows = []
    for topic, (expected, why) in notice.expect.items():
        got = said.pop(topic, PRESENT)
        rows.append(Row(notice.path.name, notice.state, topic, expected, got, why, notice.notes))
    for topic, got in sorted(said.items()):
        # The corpus lists every clause the pack requires on that date: one it does not list is
        # not required of this notice, and an NL001 for it is wrong.
        rows.append(Row(notice.path.name, notice.state, topic, NOT_REQUIRED, got, "", notice.notes))
    return rows


# ---------------------------------------------------------------------------------- output


def _ratio(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


TABLE_HEAD = ["notices", "TP", "FP", "FN", "TN", "precision", "recall", "und. agree", "disagree",
              WRONG_NL016]  # fmt: skip


def _table_rows(tallies: dict[str, Tally]) -> list[list[str]]:
    return [
        [name, str(t.notices), *(str(t[k]) for k in ("TP", "FP", "FN", "TN")),
         _ratio(t.precision), _ratio(t.recall), str(t["agree"]), str(t["disagree"]),
         str(t[WRONG_NL016])]
        for name, t in tallies.items()
    ]  # fmt: skip


def _confusion(m: Measured) -> list[list[str]]:
    """Expected (rows) against what the linter said (columns)."""
    counts: dict[tuple[str, str], int] = {}
    for r in m.rows:
        counts[(r.expected, r.got)] = counts.get((r.expected, r.got), 0) + 1
    return [
        [f"expected {e}", *(str(counts.get((e, g), 0)) for g in (MISSING, PRESENT, UNDECIDED))]
        for e in (MISSING, PRESENT, UNDECIDED, NOT_REQUIRED)
    ]


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def summary(m: Measured) -> dict[str, Any]:
    """The headline figures."""
    total = m.tally()["all"] if m.rows else Tally()
    linted = len(m.seconds)  # one time a notice linted
    lint_ms = _median(m.seconds)
    cli_s = _median(m.cli_seconds)
    return {
        "notices": len(m.notices),
        "linted": linted,
        "states": len({n.state for n in m.notices}),
        "precision": total.precision,
        "recall": total.recall,
        "TP": total["TP"], "FP": total["FP"], "FN": total["FN"], "TN": total["TN"],
        "undecided_agree": total["agree"],
        "undecided_disagree": total["disagree"],
        "needless_undecided": total[WRONG_NL016],
        "lint_median_ms": None if lint_ms is None else round(lint_ms * 1000, 1),
        "cli_median_s": None if cli_s is None else round(cli_s, 3),
        "cli_timed": len(m.cli_seconds),
    }  # fmt: skip


def as_json(m: Measured) -> str:
    """Everything, for a program to read."""
    return json.dumps(
        {
            "corpus": m.corpus,
            "summary": summary(m),
            "by_state": {k: {**t.counts, "notices": t.notices, "precision": t.precision,
                             "recall": t.recall} for k, t in m.tally(lambda r: r.state).items()},
            "by_topic": {k: {**t.counts, "notices": t.notices, "precision": t.precision,
                             "recall": t.recall} for k, t in m.tally(lambda r: r.topic).items()},
            "disagreements": [{**asdict(r), "outcome": r.outcome} for r in m.disagreements],
            "could_not_lint": [{"file": f, "why": w} for f, w in m.failed],
            "unreadable": [{"file": f, "why": w} for f, w in m.broken],
            "lint_seconds": m.seconds,
            "cli_seconds": m.cli_seconds,
        },
        indent=2,
    )  # fmt: skip


def _text_table(head: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(head, *rows, strict=True)]
    line = [
        "  ".join(x.ljust(w) if i == 0 else x.rjust(w) for i, (x, w) in enumerate(zip(r, widths, strict=True)))
        for r in [head, *rows]
    ]  # fmt: skip
    return [line[0], "  ".join("-" * w for w in widths), *line[1:]]


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"


def _md_table(head: list[str], rows: list[list[str]]) -> list[str]:
    cells = [[x.replace("|", "\\|") for x in r] for r in [head, *rows]]
    out = ["| " + " | ".join(cells[0]) + " |", "|" + "|".join("---" for _ in head) + "|"]
    return out + ["| " + " | ".join(r) + " |" for r in cells[1:]]


def as_text(m: Measured, markdown: bool = False) -> str:
    """The figures, tables and disagreements, as plain text or Markdown."""
    table = _md_table if markdown else _text_table
    s = summary(m)
    title = "# " if markdown else ""
    sub = "## " if markdown else ""
    out = [
        f"{title}Lint quality on real notices: {_count(s['notices'], 'notice')} from"
        f" {_count(s['states'], 'state')} ({', '.join(m.corpus)})",
        "",
        f"precision {_ratio(s['precision'])} ({s['TP']} of {s['TP'] + s['FP']} NL001 right)"
        f"   recall {_ratio(s['recall'])} ({s['TP']} of {s['TP'] + s['FN']} missing clauses"
        f" caught)   target >= 0.95 each",
        f"undecided clauses (the case decides): {s['undecided_agree']} reported as such,"
        f" {s['undecided_disagree']} not; NL016 on a clause the law decides or does not"
        f" require: {s['needless_undecided']}",
        "",
        f"{sub}Expected against what the linter said (clauses)",
        "",
        *table(["", "linter: missing", "present", "undecided"], _confusion(m)),
        "",
        f"{sub}By state",
        "",
        *table(["state", *TABLE_HEAD], _table_rows(m.tally(lambda r: r.state))),
        "",
        f"{sub}By clause topic",
        "",
        *table(["topic", *TABLE_HEAD], _table_rows(m.tally(lambda r: r.topic))),
        "",
        f"{sub}Disagreements ({len(m.disagreements)})",
        "",
    ]
    by_file: dict[str, list[Row]] = {}
    for r in m.disagreements:
        by_file.setdefault(r.file, []).append(r)
    item, detail = ("- ", "  - ") if markdown else ("  ", "      ")
    for file, rows in by_file.items():
        out.append(f"{item}{file}")
        for r in rows:
            out.append(f"{detail}{r.topic}: expected {r.expected}, linter {r.got} [{r.outcome}]")
            if r.why:
                out.append(f"{detail}  why: {r.why}")
        if rows[0].notes:
            out.append(f"{detail}notes: {rows[0].notes}")
    if m.failed or m.broken:
        out += ["", f"{sub}Not measured ({len(m.failed) + len(m.broken)})", ""]
        out += [f"  {f}: corpus file unreadable: {w}" for f, w in m.broken]
        out += [f"  {f}: the linter refused it: {w}" for f, w in m.failed]
    lint_ms, cli_s = s["lint_median_ms"], s["cli_median_s"]
    out += [
        "",
        f"single-file lint wall time: lint() median {lint_ms if lint_ms is not None else 'n/a'} ms"
        f" over {len(m.seconds)} notices in one process; `notices lint FILE` median"
        f" {cli_s if cli_s is not None else 'n/a'} s over {s['cli_timed']} (start-up included;"
        f" load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)",
    ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Measure, print, exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help=f"{TINY} notices (the tests)")
    parser.add_argument(
        "--corpus", type=Path, action="append",
        help="a corpus folder (repeatable; default tests/corpus)",
    )  # fmt: skip
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument(
        "--cli-sample", type=int, default=CLI_SAMPLE,
        help="notices also timed as `notices lint FILE` (a process each)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    folders = [f.resolve() for f in (args.corpus or [CORPUS])]
    notices, broken = load_corpus(folders)
    if args.tiny:
        notices = tiny_sample(notices)
    sample = min(args.cli_sample, 1) if args.tiny else args.cli_sample
    measured = measure(notices, broken, folders, sample)
    if args.format == "json":
        print(as_json(measured))
    else:
        print(as_text(measured, markdown=args.format == "markdown"))
        for row in bench_rows(measured, tiny=args.tiny):
            print("bench-row: " + json.dumps(row, ensure_ascii=False))
    return 0


def bench_rows(m: Measured, *, tiny: bool) -> list[dict[str, Any]]:
    """Precision and recall as rows of `make bench`'s table (a tiny sample judges neither)."""
    s = summary(m)
    rows = []
    for what, value, hits, of in (
        ("precision", s["precision"], s["TP"], s["TP"] + s["FP"]),
        ("recall", s["recall"], s["TP"], s["TP"] + s["FN"]),
    ):
        rows.append(
            {
                "work": f"lint {what} on {_count(s['notices'], 'real notice')}",
                "figure": f"{_ratio(value)} ({hits} of {of})",
                "target": ">= 0.95",
                "met": None if tiny or value is None else value >= 0.95,
            }
        )
    return rows


if __name__ == "__main__":
    sys.exit(main())
