"""Fuzzing `notices build`: mutated sample cases, the real build, and what must hold after it.

A mutant is a sample case (`cases/<sample>.yaml`) and a few edits that replay exactly, so a
failure found by Hypothesis is its own reproducer (`Mutant(...)` in the report, pasted into
tests/test_fuzz.py as a regression test):

- ("set", path, value): a field of the parsed case replaced (or added) — a hostile string, a value
  of another type, a huge or negative number, an odd date;
- ("drop", path): a field or list item removed;
- ("bytes", offset, length, insert): `length` bytes of the YAML text at `offset` replaced by
  `insert` (applied to the sample's own text, comments and all, when there is no tree edit);
- ("name", file name): the case file written under another name (its name is the case id).

`check()` builds the mutant in-process (click's CliRunner; the build is slow, the interpreter's
start-up is not worth paying per example) with a working directory and a parent folder it must
not touch, and asserts: exit 0, 1 or 2 only; after 2 nothing in --out; after 0 or 1 one packet
folder whose manifest lists exactly the files on disk (no `.edited-*` in a fresh folder, no
staging left beside it); nothing written outside --out; hostile strings stay literal (a template
expression is never evaluated, HTML carries no live script, no CSV cell a spreadsheet would run).
Each kind of failure raises its own exception type, so Hypothesis reports distinct bugs apart.
"""

from __future__ import annotations

import contextlib
import copy
import csv
import io
import json
import os
import re
import signal
import tempfile
import time
import traceback
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from .conftest import CASES, ROOT

SAMPLES = [p.stem for p in sorted(CASES.glob("*.yaml"))]
GIS = f"{ROOT / 'data' / 'gis'}/"
# A build that takes longer than this is a hang (issue 14 item 7: a long field took 120 s).
TIMEOUT_S = 300

# `zz…zz` brackets a template expression: if any engine evaluates it, `zz49zz` appears.
EVALUATED = "zz49zz"
HOSTILE = (
    # First, as Hypothesis tries it first: every kind of live text at once.
    "zz{{ 7*7 }}zz <script>alert(1)</script> [x](javascript:alert(1)) =cmd|' /C calc'!A0",
    "../../../../../../etc/passwd",
    "..",
    "../",
    "=cmd|' /C calc'!A0",
    "+1+cmd|' /C calc'!A0",
    "-2+3+cmd|' /C calc'!A0",
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "\t=1+1",
    "\r=1+1",
    "zz{{ 7*7 }}zz",
    "zz{{7*7}}zz",
    "zz{% raw %}zz",
    "zz{% endraw %}{{ 7*7 }}zz",
    "zz${7*7}zz",
    "zz#{7*7}zz",
    "{{ self.__init__.__globals__ }}",
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)>",
    "[the code](javascript:alert(document.cookie))",
    "<javascript:alert(1)>",
    "![map](file:///etc/passwd)",
    "&nbsp;&lt;&#0;&#x110000;",
    "]]><![CDATA[",
    "</w:t></w:r><w:r><w:t>",
    "a\x00b",
    "\x00",
    "\u202egnp.exe",
    "\u200b\u200d\ufeff",
    "\x1b[31m\x07",
    "%s%n%x%(x)s{0}",
    "\\\\server\\share",
    "'\"`",
    "",
    " ",
    "\n\n\n",
    "W" * 10_000,
    "word " * 2_000,
    "🏠" * 2_000,
)
# Markdown (a text amendment's `full_text`) that must not become a live link, an image or HTML.
MARKDOWN = (
    "[the code](javascript:alert(document.cookie))",
    "[x](JaVaScRiPt:alert(1)) [y](vbscript:x) [z](data:text/html,<script>alert(1)</script>)",
    "[x][ref]\n\n[ref]: javascript:alert(1)",
    '<a href="javascript:alert(1)">x</a>',
    "<javascript:alert(1)> <https://example.com>",
    "![map](file:///etc/passwd) ![x](http://example.com/x.png)",
    "&nbsp;&bogus;&#0;&#x110000;",
    "<script>alert(1)</script><!-- x --><div onclick=alert(1)>",
    "| a | b |\n|---|---|\n| 1 | 2 |",
    "```\n{{ 7*7 }}\n```",
    "> " * 200 + "deep",
    "".join("  " * i + "- x\n" for i in range(100)),
    "*" * 5_000,
    "[" * 5_000,
)
NUMBERS = (0, -1, 1, -(10**30), 10**30, 2**63, -(2**63), 1e308, -1e308, 0.5, -0.0, 1e-300)
DATES = (
    "9999-12-31",
    "0001-01-01",
    "1969-12-31",
    "2027-02-29",
    "2027-02-30",
    "2027-13-01",
    "2027-12-25",  # Christmas
    "2027-05-31",  # Memorial Day
    "2027-03-14",  # a Sunday
    "2027-3-7",
    "16/03/2027",
    "2027-03-16T19:00:00-05:00",
    "10000-01-01",
    "-2027-03-16",
    "20270316",
    "tomorrow",
)
TIMES = ("25:00", "7:00 p.m. p.m.", "00:00", "12:00 midnight", "noon", "-1:00")
FILE_NAMES = (
    "...yaml",  # id ".."
    "..yaml",  # id "."
    ".yaml",  # id ""
    "-rf.yaml",
    "a b.yaml",
    "\u202elmth.yaml",
    "CON.yaml",
    "zz{{ 7*7 }}zz.yaml",
    "x" * 250 + ".yaml",
)
BYTE_INSERTS = (
    b"\x00",
    b"\xff\xfe",
    b"\xc3(",
    b"&a ",
    b"*a",
    b"<<: {}\n",
    b"!!python/object/apply:os.system ['true']\n",
    b"? ",
    b"- ",
    b"{",
    b"[",
    b"\t",
    b"\r",
    b"\n  ",
    b": ",
    b"'",
    b'"',
    b"#",
    b"%YAML 1.1\n---\n",
    b"--- |\n",
    b"...\n",
    b"zz{{ 7*7 }}zz",
    b"<script>alert(1)</script>",
    "\u202e".encode(),
    b"9999-12-31",
    b"=cmd|' /C calc'!A0",
)


def budget() -> settings:
    """The fuzz budget: a few fixed examples per sample in CI, `$NOTICES_FUZZ_EXAMPLES` for `make fuzz`.

    The CI budget is derandomised (the same examples every run, so CI is not red by luck); the
    large one explores afresh and keeps what failed in .hypothesis/ to try first next time.
    """
    large = os.environ.get("NOTICES_FUZZ_EXAMPLES")
    common = {
        "deadline": None,
        "suppress_health_check": list(HealthCheck),
        "print_blob": True,
    }
    if large:
        return settings(max_examples=int(large), **common)
    return settings(max_examples=2, derandomize=True, database=None, **common)


# ------------------------------------------------------------------------------ mutants ----


@dataclass(frozen=True)
class Mutant:
    """A sample case and the edits that make it hostile; `repr` is a reproducer."""

    sample: str
    edits: tuple[tuple[Any, ...], ...] = ()

    def __repr__(self) -> str:
        return f"Mutant({self.sample!r}, ({''.join(_show(e) + ', ' for e in self.edits)}))"

    @property
    def file_name(self) -> str:
        """The case file's name (the case id is its stem)."""
        names = [e[1] for e in self.edits if e[0] == "name"]
        return names[-1] if names else f"{self.sample}.yaml"

    def text(self) -> bytes:
        """The mutated case file."""
        tree_edits = [e for e in self.edits if e[0] in ("set", "drop")]
        if tree_edits:
            tree = sample_tree(self.sample)
            for edit in tree_edits:
                apply(tree, edit)
            data = dump(tree)
        else:
            data = sample_text(self.sample)
        for edit in self.edits:
            if edit[0] == "bytes":
                _, at, length, insert = edit
                data = data[:at] + insert + data[at + length :]
        return data


def _show(edit: tuple[Any, ...]) -> str:
    """An edit as Python, long repeated strings as `'W' * 10000`."""
    parts = []
    for part in edit:
        unit = _unit(part) if isinstance(part, str) and len(part) > 80 else None
        parts.append(f"{unit!r} * {len(part) // len(unit)}" if unit else repr(part))
    return f"({', '.join(parts)}{',' if len(parts) == 1 else ''})"


def _unit(text: str) -> str | None:
    """The shortest piece `text` repeats, if it is a repetition of up to 80 characters."""
    return next((text[:n] for n in range(1, 81) if text[:n] * (len(text) // n) == text), None)


@cache
def sample_text(sample: str) -> bytes:
    """The sample's own YAML text, its GIS paths made absolute."""
    text = (CASES / f"{sample}.yaml").read_text(encoding="utf-8")
    # The mutant lives in a temporary folder; its GIS layers stay the project's.
    return text.replace("../data/gis/", GIS).encode()


@cache
def _sample_tree(sample: str) -> Any:
    from generator.yamlio import loads

    return loads(sample_text(sample).decode(), f"{sample}.yaml").data


def sample_tree(sample: str) -> Any:
    """The sample as the product parses it (YAML 1.2: dates and times stay text); a fresh copy."""
    return copy.deepcopy(_sample_tree(sample))


class _Dumper(yaml.SafeDumper):
    """Every string double-quoted: text under YAML 1.1 and 1.2 alike (`02914`, `7:00`, `null`)."""


_Dumper.add_representer(
    str, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
)


def dump(tree: Any) -> bytes:
    """YAML the product reads back as `tree`."""
    return yaml.dump(tree, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=100).encode()


def paths(tree: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every field and list item of `tree`, as paths of keys and indexes."""
    items = (
        tree.items()
        if isinstance(tree, dict)
        else enumerate(tree)
        if isinstance(tree, list)
        else ()
    )
    out = []
    for key, value in items:
        out.append((*at, key))
        out.extend(paths(value, (*at, key)))
    return out


def get(tree: Any, path: tuple[Any, ...]) -> Any:
    """The value at `path`."""
    for key in path:
        tree = tree[key]
    return tree


def apply(tree: Any, edit: tuple[Any, ...]) -> None:
    """Apply a `set` or `drop` edit to `tree` in place."""
    op, path = edit[0], edit[1]
    parent = get(tree, path[:-1])
    if op == "drop":
        del parent[path[-1]]
    else:
        parent[path[-1]] = copy.deepcopy(edit[2])


def hostile_strings() -> st.SearchStrategy[str]:
    """Hostile text: the list above, or any text."""
    return st.one_of(st.sampled_from(HOSTILE), st.text(max_size=40))


# Kinds of field edit, the likeliest first (Hypothesis shrinks towards the first): hostile text
# added to a text field keeps most cases valid, so the build runs and its output is checked.
FIELD_EDITS = (
    *["hostile"] * 4,
    "markdown",
    "drop",
    "drop",
    "date",
    "time",
    "number",
    "type",
    "many",
    "extra",
)
# Which fields an edit aims at (any field when the case has none of them).
AIMS = {
    "hostile": lambda p, v: isinstance(v, str),
    "markdown": lambda p, v: p[-1] == "full_text",
    "date": lambda p, v: isinstance(v, str) and re.fullmatch(r"\d{4}-\d\d-\d\d", v),
    "time": lambda p, v: isinstance(v, str) and re.search(r"\d:\d\d", v),
    "number": lambda p, v: isinstance(v, int | float) and not isinstance(v, bool),
}


@st.composite
def tree_edit(draw: st.DrawFn, tree: Any) -> tuple[Any, ...]:
    """One edit of the parsed case."""
    kind = draw(st.sampled_from(FIELD_EDITS))
    every = paths(tree)
    aim = AIMS.get(kind)
    aimed = [p for p in every if aim(p, get(tree, p))] if aim else []
    if aimed:
        path = draw(st.sampled_from(aimed))
    else:  # a depth first, so that a whole section is as likely to go as one leaf
        depth = draw(st.sampled_from(sorted({len(p) for p in every})))
        path = draw(st.sampled_from([p for p in every if len(p) == depth]))
    node = get(tree, path)
    if kind == "hostile":
        bad = draw(hostile_strings())
        how = draw(st.sampled_from(["append", "replace", "prepend"]))
        if isinstance(node, str) and how != "replace":
            bad = f"{node} {bad}" if how == "append" else f"{bad} {node}"
        return ("set", path, bad)
    if kind == "markdown":
        bad = draw(st.sampled_from(MARKDOWN))
        return ("set", path, f"{node}\n\n{bad}\n" if isinstance(node, str) else bad)
    if kind == "drop":
        return ("drop", path)
    if kind == "type":
        others = [None, True, 0, 1.5, "text", [], {}, [node], {"x": node}]
        return ("set", path, draw(st.sampled_from(others)))
    if kind == "number":
        return ("set", path, draw(st.sampled_from(NUMBERS)))
    if kind == "date":
        return ("set", path, draw(st.sampled_from(DATES)))
    if kind == "time":
        return ("set", path, draw(st.sampled_from(TIMES)))
    if kind == "many":  # a list made long, or a value made a list
        items = node if isinstance(node, list) else [node]
        return ("set", path, items * draw(st.integers(2, 6)))
    # extra: a key nobody declared, in the nearest mapping
    where = path if isinstance(node, dict) else path[:-1]
    if not isinstance(get(tree, where), dict):
        where = ()
    key = draw(st.sampled_from(["x", "id", "__class__", "../x", "zz{{ 7*7 }}zz", "<script>"]))
    return ("set", (*where, key), draw(hostile_strings()))


@st.composite
def byte_edit(draw: st.DrawFn, text: bytes) -> tuple[Any, ...]:
    """One edit of the YAML text: a byte changed, bytes inserted or deleted, a line repeated, a cut."""
    at = draw(st.integers(0, len(text)))
    kind = draw(st.sampled_from(["insert", "flip", "delete", "line", "cut"]))
    if kind == "insert":
        return ("bytes", at, 0, draw(st.sampled_from(BYTE_INSERTS)))
    if kind == "flip":
        return ("bytes", at, 1, bytes([draw(st.integers(0, 255))]))
    if kind == "delete":
        return ("bytes", at, draw(st.integers(1, 200)), b"")
    if kind == "line":
        lines = text.splitlines(keepends=True) or [b""]
        return ("bytes", at, 0, draw(st.sampled_from(lines)))
    return ("bytes", at, len(text), b"")


@st.composite
def mutants(draw: st.DrawFn, sample: str) -> Mutant:
    """A mutant of `sample`: 1–3 edits of its fields, or 1–3 of its bytes; rarely another name."""
    edits: list[tuple[Any, ...]] = []
    if draw(st.sampled_from(["fields", "fields", "fields", "bytes"])) == "fields":
        tree = sample_tree(sample)
        for _ in range(draw(st.integers(1, 3))):
            if not paths(tree):
                break
            edit = draw(tree_edit(tree))
            apply(tree, edit)
            edits.append(edit)
    else:
        text = sample_text(sample)
        for _ in range(draw(st.integers(1, 3))):
            edit = draw(byte_edit(text))
            edits.append(edit)
            text = Mutant(sample, tuple(edits)).text()
    if draw(st.integers(0, 9)) == 9:
        edits.append(("name", draw(st.sampled_from(FILE_NAMES))))
    return Mutant(sample, tuple(edits))


# ------------------------------------------------------------------------------- checks ----


class Hang(BaseException):
    """Raised by the watchdog; a BaseException, so no `except Exception` in the product eats it."""


_KINDS: dict[tuple[str, str], type[AssertionError]] = {}


def failure(kind: str, key: str, message: str) -> AssertionError:
    """An AssertionError of a type of its own per (kind, key), so Hypothesis keeps bugs apart."""
    cls = _KINDS.setdefault((kind, key), type(kind, (AssertionError,), {"key": key}))
    return cls(f"{kind} [{key}]: {message}")


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """Raise `Hang` in this thread after `seconds`, and again while it runs on.

    Python drops an exception raised inside a finalizer, so one ring is not enough.
    """

    def ring(signum: int, frame: Any) -> None:
        raise Hang(f"the build took more than {seconds:g} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds, 0.05)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def snapshot(root: Path, skip: Path | None = None) -> dict[str, tuple[int, int, int]]:
    """Every entry under `root` (but `skip`) with its size, mtime and mode."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        here = Path(dirpath)
        if skip is not None:
            dirnames[:] = [d for d in dirnames if here / d != skip]
        for name in [*dirnames, *filenames]:
            info = (here / name).lstat()
            # A folder's own mtime changes when --out is made inside it: only files count.
            is_file = name in filenames
            out[str((here / name).relative_to(root))] = (
                info.st_size if is_file else 0,
                info.st_mtime_ns if is_file else 0,
                info.st_mode,
            )
    return out


@dataclass
class Run:
    """What one build did."""

    status: int
    stdout: str
    stderr: str
    out: Path
    seconds: float
    exception: BaseException | None


def build(case: Path, out: Path, cwd: Path) -> Run:
    """`notices build CASE --out OUT`, in this process, from `cwd`."""
    from click.testing import CliRunner

    from generator.cli import app

    start = time.monotonic()
    try:
        with contextlib.chdir(cwd), watchdog(TIMEOUT_S):
            result = CliRunner().invoke(app, ["build", str(case), "--out", str(out)])
    except Hang as exc:
        raise failure("Hang", "timeout", f"{exc}") from None
    seconds = time.monotonic() - start
    escaped = result.exception if not isinstance(result.exception, SystemExit) else None
    if escaped is not None and result.exc_info:
        escaped.__traceback__ = result.exc_info[2]
    return Run(result.exit_code, result.stdout, result.stderr, out, seconds, escaped)


def check(mutant: Mutant) -> Run:
    """Build `mutant` and assert what must hold of any input; return the run."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        root = Path(tmp)
        for d in ("cases", "cwd", "beside", "out-parent"):
            (root / d).mkdir()
        (root / "beside" / "keep.txt").write_text("not to be touched\n")
        case = root / "cases" / mutant.file_name
        case.write_bytes(mutant.text())
        out = root / "out-parent" / "out"
        before = snapshot(root)
        project = _listing(ROOT / "output")
        run = build(case, out, root / "cwd")
        if log := os.environ.get("NOTICES_FUZZ_LOG"):  # what a long run tried, for its report
            with Path(log).open("a", encoding="utf-8") as f:
                f.write(f"{run.status}\t{run.seconds:.1f}\t{mutant!r:.400}\n")
        check_run(run, mutant)
        after = snapshot(root, skip=out)
        changed = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
        if changed or _listing(ROOT / "output") != project:
            raise failure("WroteOutside", "outside", f"{sorted(changed)[:10]} (exit {run.status})")
        check_packet(run)
        return run


def _listing(folder: Path) -> list[str]:
    """The names in `folder` (the project's default --out, which a fresh clone lacks)."""
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def check_run(run: Run, mutant: Mutant) -> None:
    """Exit 0, 1 or 2, and no traceback."""
    said = f"exit {run.status}\nstdout: {run.stdout[-2000:]}\nstderr: {run.stderr[-3000:]}"
    if run.exception is not None:
        tb = "".join(traceback.format_exception(run.exception))
        raise failure("Escaped", _origin(tb), tb[-3000:])
    if run.status == 70:
        log = next(iter([*run.out.glob("*error.log"), *run.out.glob("*/error.log")]), None)
        tb = log.read_text() if log else run.stderr
        raise failure("Internal", _origin(tb), f"{said}\nerror.log: {tb[-3000:]}")
    if run.status not in (0, 1, 2):
        raise failure("BadExit", str(run.status), said)
    if "Traceback (most recent call last)" in run.stdout + run.stderr:
        raise failure("Traceback", "printed", said)
    if run.status == 2 and "error" not in run.stderr:
        raise failure("Silent", "exit 2", said)


def _origin(tb: str) -> str:
    """`ExcType at file:line` of a traceback's innermost frame, to tell bugs apart."""
    frames = list(re.finditer(r'^\s*File "([^"]+)", line (\d+)', tb, re.MULTILINE))
    if not frames:
        return tb.strip().splitlines()[-1][:80] if tb.strip() else "?"
    # The exception's line: the first line after the innermost frame not indented.
    rest = tb[frames[-1].end() :].splitlines()[1:]
    exc = next((line.split(":", 1)[0] for line in rest if line[:1].strip()), "?")
    return f"{exc} at {Path(frames[-1][1]).name}:{frames[-1][2]}"


def check_packet(run: Run) -> None:
    """After exit 2 nothing in --out; after 0 or 1 exactly one whole packet, hostile text inert."""
    entries = sorted(run.out.iterdir()) if run.out.exists() else []
    if run.status == 2:
        if entries:
            raise failure("Partial", "exit 2", f"left {[p.name for p in entries]}")
        return
    if len(entries) != 1 or not entries[0].is_dir():
        raise failure("Partial", "out root", f"--out holds {[p.name for p in entries]}")
    folder = entries[0]
    manifest_path = folder / "manifest.json"
    if not manifest_path.is_file():
        raise failure("Partial", "no manifest", f"{sorted(p.name for p in folder.iterdir())}")
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    listed = {d["path"] for d in manifest["documents"]} | {"manifest.json"}
    listed |= {e["path"] for e in manifest.get("edited", [])}
    on_disk = {str(p.relative_to(folder)) for p in folder.rglob("*") if not p.is_dir()}
    if listed != on_disk:
        raise failure(
            "Partial",
            "manifest",
            f"not listed: {sorted(on_disk - listed)}; missing: {sorted(listed - on_disk)}",
        )
    if edited := [p for p in on_disk if ".edited-" in p]:
        raise failure("Partial", "edited", f"a fresh build kept {edited}")
    if manifest["ready"] != (run.status == 0):
        raise failure("Ready", "exit", f"ready {manifest['ready']}, exit {run.status}")
    for path in sorted(folder.rglob("*")):
        if path.is_symlink():
            raise failure("Partial", "symlink", path.name)
        check_inert(path)


TEXT = {".txt", ".html", ".json", ".csv", ".ics", ".svg", ".geojson", ".xml"}
LIVE_HTML = re.compile(
    r"<\s*(script|iframe|object|embed)\b"
    r"|<[^>]*\son[a-z]+\s*="
    r"|(href|src|action|formaction)\s*=\s*[\"']?\s*(javascript:|vbscript:|data:text/html)",
    re.IGNORECASE,
)
FORMULA = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"[-+]?\d+(\.\d+)?([eE][-+]?\d+)?")


def check_inert(path: Path) -> None:
    """A file of the packet holds hostile text as text."""
    if path.suffix == ".docx":
        with zipfile.ZipFile(path) as z:
            texts = [
                z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".xml")
            ]
    elif path.suffix in TEXT:
        texts = [path.read_text(encoding="utf-8", errors="replace")]
    else:
        return
    for text in texts:
        if EVALUATED in text:
            raise failure("Evaluated", path.suffix, f"{path.name}: a template expression ran")
    if path.suffix in (".html", ".svg") and (live := LIVE_HTML.search(texts[0])):
        raise failure(
            "LiveHtml",
            path.suffix,
            f"{path.name}: {texts[0][live.start() - 40 : live.end() + 60]!r}",
        )
    if path.suffix == ".csv":
        for row in csv.reader(io.StringIO(texts[0])):
            for cell in row:
                if cell.startswith(FORMULA) and not NUMBER.fullmatch(cell):
                    raise failure("Formula", path.name, f"a cell {cell[:60]!r}")
