"""Lint notice files or whole packets: find what each document is, then check it.

A document's kind comes from `--kind`, or from its name as a packet names it
(`newspaper_notice-council.edited-1.docx` is a newspaper notice of the council hearing). With a
case (`--case`, or the case a packet's manifest names) the plan of that case says which clauses,
formats and deadlines bind each document, and the case's facts are checked too; with a
jurisdiction alone, the clauses the pack requires of that kind of document in every case.
"""

from __future__ import annotations

import csv
import itertools
import json
import re
import threading
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import date
from multiprocessing import get_all_start_methods, get_context
from pathlib import Path
from typing import Any

from generator.documents import DocumentKind
from generator.errors import Problem, UserError
from generator.lint import checks
from generator.lint.checks import Expect, LintFinding
from generator.lint.extract import Extracted, cpus, extract

# The documents a notice linter reads; the rest of a packet (lists, labels, proofs) it does not.
NOTICE_KINDS = (
    DocumentKind.NEWSPAPER_NOTICE,
    DocumentKind.LETTERS,
    DocumentKind.TRANSMITTAL,
    DocumentKind.SIGN,
    DocumentKind.POSTING_NOTICE,
    DocumentKind.WEBSITE_NOTICE,
    DocumentKind.DISPLAY_AD,
)
FORMATS = (".txt", ".html", ".pdf", ".docx")
_EDITED = re.compile(r"\.edited-\d+$")


@dataclass
class Target:
    """One file to lint and what binds it."""

    path: Path
    kind: DocumentKind
    name: str  # the packet's document name: newspaper_notice-council
    clauses: list[Any] = field(default_factory=list)
    formats: list[Any] = field(default_factory=list)
    hearing: Any = None
    notice_ids: tuple[str, ...] = ()


@dataclass
class Context:
    """What the case (if any) contributes to the checks."""

    case: Any = None
    cf: Any = None
    plan: Any = None
    deadlines: list[Any] = field(default_factory=list)


@dataclass
class LintResult:
    """The findings of one run, and the documents it read."""

    findings: list[LintFinding]
    documents: list[str]

    @property
    def errors(self) -> int:
        """How many findings are errors."""
        return sum(1 for f in self.findings if f.severity == "error")

    @property
    def warnings(self) -> int:
        """How many findings are warnings."""
        return sum(1 for f in self.findings if f.severity == "warning")


def lint(
    paths: list[Path],
    *,
    case_path: Path | None = None,
    jurisdiction: str | None = None,
    kind: str | None = None,
    on: date | None = None,
    context: Context | None = None,
) -> LintResult:
    """Lint files and packet folders; raise `UserError` for a path or option that cannot be used.

    `context` is a case already planned (as `notices build` has it), in place of `case_path`.
    """
    files: list[Path] = []
    packets: list[Path] = []
    for path in paths:
        if path.is_dir():
            packets.append(path)
            files += _packet_files(path)
        elif path.is_file():
            files.append(path)
        else:
            raise UserError(Problem(str(path), None, None, "", "no such file or folder"))
    if context is None:
        if case_path is None and not jurisdiction:
            case_path = next((c for c in map(_manifest_case, packets) if c), None)
        context = _context(case_path) if case_path else Context()
    targets = [_target(f, context, jurisdiction, kind, on) for f in files]
    findings: list[LintFinding] = []
    read: dict[Path, Read] = {}
    for target, done in zip(targets, _check_all(targets, context), strict=True):
        read[target.path] = done
        findings += done.findings
    for folder in packets:
        findings += _packet(folder, [t for t in targets if t.path.parent == folder], read, context)
    return LintResult(findings, [str(t.path) for t in targets])


def _packet_files(folder: Path) -> list[Path]:
    """The notice documents of a packet folder, edited drafts included."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in FORMATS and _kind_of(path) in NOTICE_KINDS:
            out.append(path)
    return out


def _manifest_case(folder: Path) -> Path | None:
    """The case file a packet was built from, if the manifest names one that still exists."""
    from generator.rules.loader import ROOT

    try:
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        path = Path(manifest["inputs"]["case"]["path"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    path = path if path.is_absolute() else ROOT / path
    return path if path.is_file() else None


def _name(path: Path) -> str:
    """The document's name in its packet: `letters-council` of `letters-council.edited-2.pdf`."""
    return _EDITED.sub("", path.name[: -len(path.suffix)])


def _kind_of(path: Path) -> DocumentKind | None:
    stem = _name(path)
    for kind in sorted(DocumentKind, key=lambda k: -len(k.value)):
        if stem == kind.value or stem.startswith(kind.value + "-"):
            return kind
    return None


def _context(case_path: Path) -> Context:
    """Load, plan and schedule the case, as `notices build` does."""
    from generator.packet import prepare
    from generator.plan import plan

    cf, pack, _found, deadlines = prepare(case_path)
    return Context(cf.case, cf, plan(cf.case, pack), deadlines)


def _target(
    path: Path, context: Context, jurisdiction: str | None, kind: str | None, on: date | None
) -> Target:
    """What binds the file: the case's plan of it, or the pack's clauses for its kind."""
    doc_kind = _parse_kind(kind, path) if kind else _kind_of(path)
    if doc_kind is None:
        raise UserError(
            Problem(
                str(path),
                None,
                None,
                "",
                "cannot tell what kind of notice this is from its name: give --kind (one of "
                + ", ".join(k.value for k in NOTICE_KINDS)
                + ")",
            )
        )
    name = _name(path)
    if context.plan is not None:
        every = context.plan.every_document
        doc = next((d for d in every if d.name == name.removesuffix("-poster")), None)
        doc = doc or next((d for d in every if d.kind == doc_kind), None)
        if doc is None:
            return Target(path, doc_kind, name)
        ids = tuple(i for b in doc.notices for i in b.ids)
        return Target(path, doc.kind, name, doc.clauses, doc.formats, doc.hearing, ids)
    if not jurisdiction:
        raise UserError(
            Problem(str(path), None, None, "", "give --case, or --jurisdiction with --kind")
        )
    return Target(path, doc_kind, name, _pack_clauses(jurisdiction, doc_kind, on))


def _parse_kind(kind: str, path: Path) -> DocumentKind:
    try:
        return DocumentKind(kind)
    except ValueError:
        raise UserError(
            Problem(str(path), None, None, "--kind", f"unknown document kind {kind!r}")
        ) from None


def _pack_clauses(jurisdiction: str, kind: DocumentKind, on: date | None) -> list[Any]:
    """Clause rules the pack applies to every `kind` document, whatever the case."""
    from generator.rules.loader import Binding, resolve

    pack = resolve(jurisdiction)
    day = on or date.today()
    return [
        Binding(r, r.params)
        for r in pack.rules
        if r.kind == "clause"
        and kind in r.params.documents  # type: ignore[attr-defined]
        and not r.when
        and r.effective.covers(day)
    ]


@dataclass
class Read:
    """What the packet checks need of a document once its own checks ran (not its text)."""

    findings: list[LintFinding]
    moment: tuple[date, Any] | None  # the first date followed by a time it states
    lines: set[str] | None = None  # a letters PDF: its lines (and pairs of lines), normalized


_JOBS: tuple[list[Target], Context] | None = None  # what forked workers check, by index


def _check_all(targets: list[Target], context: Context) -> list[Read]:
    """Read and check every document, one per core at a time, the largest files first."""
    global _JOBS
    workers = min(cpus(), len(targets))
    # Forked workers inherit the case and plan, which need not pickle; fork is only safe while
    # this process runs a single thread. A worker reading a long PDF starts its own workers.
    if workers < 2 or "fork" not in get_all_start_methods() or threading.active_count() > 1:
        return [_check(t, context) for t in targets]
    order = sorted(range(len(targets)), key=lambda i: -_size(targets[i].path))
    _JOBS = (targets, context)
    try:
        with ProcessPoolExecutor(workers, mp_context=get_context("fork")) as pool:
            done = dict(zip(order, pool.map(_check_index, order), strict=True))
    except (BrokenProcessPool, OSError):
        return [_check(t, context) for t in targets]  # no worker processes here: one by one
    finally:
        _JOBS = None
    return [done[i] for i in range(len(targets))]


def _check_index(index: int) -> Read:
    assert _JOBS is not None
    targets, context = _JOBS
    return _check(targets[index], context)


def _check(target: Target, context: Context) -> Read:
    """One document's own checks, and what the packet checks will ask of it."""
    ext = extract(target.path)
    lines = None
    if target.kind in _LETTERS and target.path.suffix == ".pdf":
        # An address block may wrap a long name over two lines: look for it on one line or two.
        blocks = [checks.normalize(b.text) for b in ext.blocks]
        lines = set(blocks)
        lines.update(f"{a} {b}" for a, b in itertools.pairwise(blocks))
    reading = checks.Reading.of(ext, target.hearing.date.year if target.hearing else None)
    return Read(_document(target, reading, context), _first_moment(reading), lines)


_LETTERS = (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _expect(context: Context, target: Target) -> Expect | None:
    case, hearing = context.case, target.hearing
    if case is None:
        return None
    values = {
        "hearing.place": [hearing.place] if hearing else [],
        "hearing.body": [hearing.body_name] if hearing else [],
        "case_number": [case.case_number],
        "parcel.id": [p.id for p in case.parcels],
        "parcel.current_district": [p.current_district for p in case.parcels if p.current_district],
        "parcel.proposed_district": [p.proposed_district for p in case.parcels if p.proposed_district],
        "amendment.proposed_use": [case.amendment.proposed_use] if case.amendment.proposed_use else [],
    }  # fmt: skip
    return Expect(
        hearing.date if hearing else None, hearing.start_time if hearing else None, values
    )


def _document(target: Target, reading: checks.Reading, context: Context) -> list[LintFinding]:
    """Every check of one document."""
    name = target.path.name
    expect = _expect(context, target)
    ext = reading.ext
    out = checks.clause_findings(reading, name, target.clauses, expect)
    out += checks.weekday_findings(reading, name)
    out += checks.note_findings(ext, name)
    if context.case is not None and target.hearing is not None:
        from generator.schedule import hearing_label

        label = hearing_label(target.hearing)
        mine = [d for d in context.deadlines if d.hearing == label and d.rule in target.notice_ids]
        hearing_days = {h.date for h in context.case.hearings}
        out += checks.schedule_findings(reading, name, mine, hearing_days)
    out += _map_findings(target, ext)
    if target.path.suffix.lower() == ".pdf":
        from generator.lint import measure

        if target.kind == DocumentKind.SIGN or target.name.endswith("-poster"):
            out += measure.sign_findings(target, context)
        if target.kind == DocumentKind.DISPLAY_AD:
            out += measure.display_ad_findings(target, context)
    return out


def _map_findings(target: Target, ext: Extracted) -> list[LintFinding]:
    """NL008 where a map clause binds and an HTML or Word document has no image."""
    need = [b for b in target.clauses if getattr(b.params, "topic", None) == "map"]
    suffix = target.path.suffix.lower()
    if not need or suffix not in (".html", ".docx"):
        return []  # a PDF draws a vector map as paths, which no reader can tell from a border
    data = target.path.read_bytes()
    if suffix == ".html":
        has = re.search(rb"<img\b", data, re.I) is not None
    else:
        import zipfile

        body = zipfile.ZipFile(target.path).read("word/document.xml")
        has = b"<w:drawing" in body or b"<w:pict" in body
    if has:
        return []
    b = need[0]
    return [
        LintFinding(
            "NL008", f"{b.rule.title}: the document has no map", target.path.name, b.rule.id,
            "; ".join(b.citations),
        )
    ]  # fmt: skip


def _packet(
    folder: Path, targets: list[Target], read: dict[Path, Read], context: Context
) -> list[LintFinding]:
    """Checks across a packet: a letter for every recipient, one hearing in every document."""
    out = _letters_for_everyone(folder, targets, read)
    out += _consistent(targets, read, context)
    return out


def _letters_for_everyone(
    folder: Path, targets: list[Target], read: dict[Path, Read]
) -> list[LintFinding]:
    """NL005: each name in recipients.csv is on an address line of some letter PDF."""
    listing = folder / "recipients.csv"
    letters = [
        t for t in targets
        if t.kind in (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL) and t.path.suffix == ".pdf"
    ]  # fmt: skip
    if not listing.is_file() or not letters:
        return []
    lines = {line for t in letters for line in read[t.path].lines or ()}
    with listing.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = []
    for row in rows:
        name = (row.get("recipient") or "").strip()
        if name and checks.normalize(name) not in lines:
            out.append(
                LintFinding(
                    "NL005",
                    f"{name} ({row.get('address_1') or 'no address'}) is on the recipients list"
                    " but no letter is addressed to them",
                    listing.name,
                    row.get("rule") or None,
                    row.get("citation") or None,
                )
            )
    return out


def _consistent(
    targets: list[Target], read: dict[Path, Read], context: Context
) -> list[LintFinding]:
    """NL009: documents of the same hearing that state different moments for it."""
    from generator.lint import when
    from generator.render.filters import clock

    groups: dict[str, list[tuple[Target, tuple[date, Any] | None]]] = {}
    for t in targets:
        key = t.hearing.date.isoformat() if t.hearing is not None else _hearing_suffix(t.name)
        groups.setdefault(key, []).append((t, read[t.path].moment))
    out = []
    for members in groups.values():
        stated = [(t, m) for t, m in members if m]
        if not stated:
            continue
        moments: dict[tuple[date, Any], list[str]] = {}
        for t, m in stated:
            moments.setdefault(m, []).append(t.path.name)  # type: ignore[arg-type]
        if len(moments) < 2:
            continue
        ranked = sorted(moments.items(), key=lambda kv: -len(kv[1]))
        (usual, _), others = ranked[0], ranked[1:]
        for moment, names in others:
            for name in names:
                out.append(
                    LintFinding(
                        "NL009",
                        f"states the hearing as {when.describe(moment[0])} at {clock(moment[1])};"
                        f" {', '.join(moments[usual][:3])} state {when.describe(usual[0])} at"
                        f" {clock(usual[1])}",
                        name,
                    )
                )
    return out


def _hearing_suffix(name: str) -> str:
    return name.rsplit("-", 1)[-1] if "-" in name else ""


def _first_moment(reading: checks.Reading) -> tuple[date, Any] | None:
    """The first date followed within a sentence by a time: how a notice states its hearing."""
    for d in reading.dates:
        after = [t for t in reading.times if 0 <= t.start - d.end <= 40]
        if after:
            return (d.day, after[0].at)
    return None
