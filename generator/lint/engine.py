"""Lint notice files or whole packets: find what each document is, then check it.

A document's kind comes from `--kind`, or from its name as the document registry declares the
packet's files (`newspaper_notice-council.edited-1.docx` is a newspaper notice of the council
hearing; `posting_notice-poster.pdf` is read as a sign). With a case (`--case`, or the case a
packet's manifest names) the plan of the prepared case says which clauses, formats and deadlines
bind each document, and the case's facts are checked too; with a jurisdiction alone, the clauses
the pack requires of that kind of document in every case.
"""

from __future__ import annotations

import csv
import json
import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from generator import csvfile
from generator.documents.mailroom import SHORTENED
from generator.documents.registry import DOCUMENTS, lint_kind
from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.kinds import DocumentKind
from generator.lint import checks, limits
from generator.lint.checks import Expect
from generator.lint.extract import Extracted, check_format, extract
from generator.models.pack import ClauseParams, ClauseTopic, FormatParams
from generator.paths import ROOT
from generator.plan import DocumentPlan
from generator.prepare import Prepared, prepare
from generator.processes import NO_WORKERS, cpus, pool
from generator.rules.loader import Binding

# The documents a notice linter reads (as the registry declares them); the rest of a packet
# (lists, labels, proofs) it does not.
NOTICE_KINDS = tuple(dict.fromkeys(f.lint for d in DOCUMENTS for f in d.files if f.lint))
FORMATS = (".txt", ".html", ".pdf", ".docx")
_EDITED = re.compile(r"\.edited-\d+$")


@dataclass(frozen=True)
class Target:
    """One file to lint and what binds it."""

    path: Path
    kind: DocumentKind  # as the linter reads it (a poster is read as a sign)
    name: str  # the packet's document name: newspaper_notice-council
    clauses: tuple[Binding[ClauseParams], ...] = ()
    formats: tuple[Binding[FormatParams], ...] = ()
    hearing: Any = None
    notice_ids: tuple[str, ...] = ()


@dataclass
class LintResult:
    """The findings of one run, and the documents it read."""

    findings: list[Finding]
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
    prepared: Prepared | None = None,
) -> LintResult:
    """Lint files and packet folders; raise `UserError` for a path or option that cannot be used.

    `prepared` is the case already prepared (as `notices build` has it), in place of `case_path`.
    """
    files: list[Path] = []
    packets: list[Path] = []
    for path in paths:
        if path.is_dir():
            packets.append(path)
            files += _packet_files(path)
        elif path.is_file():
            files.append(path)
        elif path.exists():
            raise UserError(Problem(str(path), None, None, "", "not a file or a folder to lint"))
        else:
            raise UserError(Problem(str(path), None, None, "", "no such file or folder"))
    found: list[Finding] = []
    if prepared is None:
        if case_path is None and not jurisdiction:
            for folder in packets:
                case_path, found = _manifest_case(folder)
                if case_path:
                    break
        prepared = prepare(case_path) if case_path else None
    targets = [_target(f, prepared, jurisdiction, kind, on) for f in files]
    read: dict[Path, Read] = {}
    for target, done in zip(targets, _check_all(targets, prepared), strict=True):
        read[target.path] = done
        found += done.findings
    for folder in packets:
        mine = [t for t in targets if t.path.parent == folder]
        if not mine and _expects_notices(prepared):
            found.append(_nothing_to_lint(folder))
        found += _packet(folder, mine, read)
    return LintResult(found, [str(t.path) for t in targets])


def _packet_files(folder: Path) -> list[Path]:
    """The notice documents of a packet folder, edited drafts included."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in FORMATS and lint_kind(path) in NOTICE_KINDS and path.is_file():
            out.append(path)
    return out


def _expects_notices(prepared: Prepared | None) -> bool:
    """Whether a folder without notices is worth a word: not for a case that needs none."""
    return prepared is None or any(d.kind in NOTICE_KINDS for d in prepared.plan.documents)


def _nothing_to_lint(folder: Path) -> Finding:
    """NL014: what a folder holds that the linter did not read, named, so a wrong folder shows."""
    others = [p.name + ("/" if p.is_dir() else "") for p in sorted(folder.iterdir())]
    shown = ", ".join(others[:5]) + (", …" if len(others) > 5 else "")
    held = f"{len(others)} skipped ({shown})" if others else "it is empty"
    return Finding(
        "NL014",
        f"no notice to lint in this folder: {held}. The linter reads a packet's notices by the"
        " names `notices build` gives them (newspaper_notice.pdf, letters-council.docx, …);"
        " give another file with --kind",
        document=folder.resolve().name or str(folder),
    )


def _manifest_case(folder: Path) -> tuple[Path | None, list[Finding]]:
    """The case file a packet was built from, as its manifest names it, and NL015 if it changed.

    The manifest names the case relative to the packet folder (packet.py `_inputs`), so it is
    found from any working directory and wherever the packet and its case move together. A
    manifest written before that named it relative to the project: that file is taken only if
    it is byte for byte the case of the build.
    """
    manifest = folder / "manifest.json"
    try:
        entry = json.loads(manifest.read_bytes()[: limits.TEXT_BYTES])["inputs"]["case"]
        written = Path(entry["path"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, []
    # `/` keeps an absolute path as it is; normpath only shortens the path a message shows.
    near, older = Path(os.path.normpath(folder / written)), ROOT / written
    same = {p: p.is_file() and sha256_file(p) == entry.get("sha256") for p in (near, older)}
    if same[near] or same[older]:
        return (near if same[near] else older), []
    if not near.is_file():
        raise UserError(
            Problem(
                str(manifest), None, None, "inputs.case.path",
                f"the case this packet was built from is not at {near}: give --case",
            )
        )  # fmt: skip
    changed = Finding(
        "NL015",
        f"the case file {near} has changed since this packet was built: its documents are"
        " checked against the case as it is now; build the packet again to bring them up to date",
        document=manifest.name,
    )
    return near, [changed]


def _name(path: Path) -> str:
    """The document's name in its packet: `letters-council` of `letters-council.edited-2.pdf`."""
    return _EDITED.sub("", path.name[: -len(path.suffix)])


def _target(
    path: Path,
    prepared: Prepared | None,
    jurisdiction: str | None,
    kind: str | None,
    on: date | None,
) -> Target:
    """What binds the file: the case's plan of it, or the pack's clauses for its kind."""
    doc_kind = _parse_kind(kind, path) if kind else lint_kind(path)
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
    check_format(path)  # a file lint cannot read at all is a usage error, not a finding
    name = _name(path)
    if prepared is not None:
        doc = _planned(prepared.plan.documents, name, doc_kind)
        if doc is None:
            return Target(path, doc_kind, name)
        return Target(path, doc_kind, name, doc.clauses, doc.formats, doc.hearing, doc.notice_ids)
    if not jurisdiction:
        raise UserError(
            Problem(str(path), None, None, "", "give --case, or --jurisdiction with --kind")
        )
    return Target(path, doc_kind, name, tuple(_pack_clauses(jurisdiction, doc_kind, on)))


def _planned(
    documents: tuple[DocumentPlan, ...], name: str, kind: DocumentKind
) -> DocumentPlan | None:
    """The planned document a file is a format of: by its name, else the first of its kind."""
    named = [d for d in documents if name == d.name or name.startswith(f"{d.name}-")]
    if named:
        return max(named, key=lambda d: len(d.name))
    return next((d for d in documents if d.kind == kind), None)


def _parse_kind(kind: str, path: Path) -> DocumentKind:
    try:
        return DocumentKind(kind)
    except ValueError:
        raise UserError(
            Problem(str(path), None, None, "--kind", f"unknown document kind {kind!r}")
        ) from None


def _pack_clauses(
    jurisdiction: str, kind: DocumentKind, on: date | None
) -> list[Binding[ClauseParams]]:
    """Clause rules the pack applies to every `kind` document, whatever the case."""
    from generator.rules.loader import resolve

    pack = resolve(jurisdiction)
    day = on or date.today()
    return [
        Binding(r, r.params)
        for r in pack.rules
        if isinstance(r.params, ClauseParams)
        and kind in r.params.documents
        and not r.when
        and r.effective.covers(day)
    ]


@dataclass
class Read:
    """What the packet checks need of a document once its own checks ran (not its text)."""

    findings: list[Finding]
    moment: tuple[date, Any] | None  # the first date followed by a time it states
    lines: set[str] | None = None  # a letters PDF: its lines (and pairs of lines), normalized


_JOBS: tuple[list[Target], Prepared | None] | None = None  # what forked workers check, by index


def _check_all(targets: list[Target], prepared: Prepared | None) -> list[Read]:
    """Read and check every document, one per core at a time, the largest files first."""
    global _JOBS
    # Forked workers inherit the case and plan, which need not pickle. A worker reading a long
    # PDF starts its own workers.
    workers = pool(min(cpus(), len(targets)))
    if workers is None:
        return [_check(t, prepared) for t in targets]
    order = sorted(range(len(targets)), key=lambda i: -_size(targets[i].path))
    _JOBS = (targets, prepared)
    try:
        with workers:
            done = dict(zip(order, workers.map(_check_index, order), strict=True))
    except NO_WORKERS:
        return [_check(t, prepared) for t in targets]  # no worker processes here: one by one
    finally:
        _JOBS = None
    return [done[i] for i in range(len(targets))]


def _check_index(index: int) -> Read:
    assert _JOBS is not None
    targets, prepared = _JOBS
    return _check(targets[index], prepared)


def _check(target: Target, prepared: Prepared | None) -> Read:
    """One document's own checks, and what the packet checks will ask of it.

    A document the linter cannot read, or will not read whole, is a finding about that file
    (NL012, NL013), never an error that stops the run: the other documents are still checked.
    """
    name, spent = target.path.name, limits.SECONDS
    try:
        with limits.deadline(spent):
            return _read_and_check(target, prepared)
    except limits.TimeUp:
        late = f"reading it took over {spent} s, the most the linter spends on a document"
        return Read([Finding("NL013", late, document=name)], None)
    except limits.LimitError as exc:
        return Read([Finding("NL013", exc.reason, document=name)], None)
    except _UnreadableError as exc:
        return Read([Finding("NL012", str(exc), document=name)], None)


class _UnreadableError(Exception):
    """The document cannot be read, and why (NL012)."""


@contextmanager
def _reading() -> Iterator[None]:
    """A reader's `UserError` is about the document it reads: `_UnreadableError` (a limit stays one)."""
    try:
        yield
    except limits.LimitError:
        raise
    except UserError as exc:
        raise _UnreadableError("; ".join(p.message for p in exc.problems)) from None


def _read_and_check(target: Target, prepared: Prepared | None) -> Read:
    with _reading():
        ext = extract(target.path)
    if ext.format == "pdf" and not ext.blocks:
        raise _UnreadableError("the PDF has no text to read (a scan?)")
    lines = None
    if target.kind in _LETTERS and target.path.suffix == ".pdf":
        # An address block may wrap a long name over three lines: look for it on one to three.
        blocks = [checks.normalize(b.text) for b in ext.blocks]
        lines = set(blocks)
        lines.update(" ".join(blocks[k : k + n]) for n in (2, 3) for k in range(len(blocks)))
        # A name too long for the window is printed shortened, over up to three lines ending
        # in `…`: kept as `…` and its letters without spaces, the beginning of the name.
        raw = [b.text for b in ext.blocks]
        for k, text in enumerate(raw):
            if text.rstrip().endswith(SHORTENED):
                for first in range(max(0, k - 2), k + 1):
                    start = "".join(checks.normalize(" ".join(raw[first : k + 1])).split())
                    if len(start) >= SHORTENED_AT_LEAST:
                        lines.add(SHORTENED + start)
    reading = checks.Reading.of(ext, target.hearing.date.year if target.hearing else None)
    return Read(_document(target, reading, prepared), _first_moment(reading), lines)


_LETTERS = (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL)
SHORTENED_AT_LEAST = 20  # letters of a shortened name enough to tell whose it is


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _expect(prepared: Prepared | None, target: Target) -> Expect | None:
    if prepared is None:
        return None
    case, hearing = prepared.case, target.hearing
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


def _document(target: Target, reading: checks.Reading, prepared: Prepared | None) -> list[Finding]:
    """Every check of one document."""
    name = target.path.name
    expect = _expect(prepared, target)
    ext = reading.ext
    out = checks.clause_findings(reading, name, target.clauses, expect)
    out += checks.weekday_findings(reading, name)
    out += checks.note_findings(ext, name)
    if prepared is not None and target.hearing is not None:
        from generator.schedule import hearing_label

        label = hearing_label(target.hearing)
        mine = [d for d in prepared.deadlines if d.hearing == label and d.rule in target.notice_ids]
        hearing_days = {h.date for h in prepared.case.hearings}
        out += checks.schedule_findings(reading, name, mine, hearing_days)
    out += _map_findings(target, ext)
    if target.path.suffix.lower() == ".pdf":
        from generator.lint import measure

        if target.kind == DocumentKind.SIGN:
            first = sum(len(b.text) for b in ext.blocks if b.page == 1)
            if first > limits.MEASURED_CHARS:
                limits.over(
                    target.path,
                    f"its first page has {first:,} characters; the linter measures the letters"
                    f" of a sign of up to {limits.MEASURED_CHARS:,}",
                )
            with _reading():
                out += measure.sign_findings(target, prepared)
        if target.kind == DocumentKind.DISPLAY_AD:
            out += measure.display_ad_findings(target, prepared)
    return out


def _map_findings(target: Target, ext: Extracted) -> list[Finding]:
    """NL008 where a map clause binds and an HTML or Word document has no image."""
    need = [b for b in target.clauses if b.params.topic == ClauseTopic.MAP]
    if not need or ext.has_image is not False:
        return []  # a PDF draws a vector map as paths, which no reader can tell from a border
    b = need[0]
    return [
        Finding(
            "NL008", f"{b.rule.title}: the document has no map", rule=b.rule.id,
            citation="; ".join(b.citations), document=target.path.name,
        )
    ]  # fmt: skip


def _packet(folder: Path, targets: list[Target], read: dict[Path, Read]) -> list[Finding]:
    """Checks across a packet: a letter for every recipient, one hearing in every document."""
    return _letters_for_everyone(folder, targets, read) + _consistent(targets, read)


def _letters_for_everyone(
    folder: Path, targets: list[Target], read: dict[Path, Read]
) -> list[Finding]:
    """NL005: each name in recipients.csv is on an address line of some letter PDF."""
    listing = folder / "recipients.csv"
    letters = [
        t for t in targets
        if t.kind in (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL) and t.path.suffix == ".pdf"
    ]  # fmt: skip
    if not listing.is_file() or not letters or any(read[t.path].lines is None for t in letters):
        return []  # a letters PDF not read (NL012, NL013) cannot tell who has a letter
    lines = {line for t in letters for line in read[t.path].lines or ()}
    with listing.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = []
    shortened = [line[1:] for line in lines if line.startswith(SHORTENED)]
    for row in rows:
        name = csvfile.value(row.get("recipient") or "").strip()
        letters = "".join(checks.normalize(name).split())
        if (
            name
            and checks.normalize(name) not in lines
            and not any(letters.startswith(start) for start in shortened)
        ):
            out.append(
                Finding(
                    "NL005",
                    f"{name} ({csvfile.value(row.get('address_1') or '') or 'no address'}) is on the recipients list"
                    " but no letter is addressed to them",
                    rule=row.get("rule") or None,
                    citation=row.get("citation") or None,
                    document=listing.name,
                )
            )
    return out


def _consistent(targets: list[Target], read: dict[Path, Read]) -> list[Finding]:
    """NL009: documents of the same hearing that state different moments for it."""
    from generator.lint import when
    from generator.render.filters import clock

    groups: dict[str, list[tuple[Target, tuple[date, Any] | None]]] = {}
    for t in targets:
        key = t.hearing.date.isoformat() if t.hearing is not None else _hearing_suffix(t.name)
        groups.setdefault(key, []).append((t, read[t.path].moment))
    out = []
    for members in groups.values():
        moments: dict[tuple[date, Any], list[str]] = {}
        for t, m in members:
            if m:
                moments.setdefault(m, []).append(t.path.name)
        if len(moments) < 2:
            continue
        ranked = sorted(moments.items(), key=lambda kv: -len(kv[1]))
        (usual, _), others = ranked[0], ranked[1:]
        for moment, names in others:
            for name in names:
                out.append(
                    Finding(
                        "NL009",
                        f"states the hearing as {when.describe(moment[0])} at {clock(moment[1])};"
                        f" {', '.join(moments[usual][:3])} state {when.describe(usual[0])} at"
                        f" {clock(usual[1])}",
                        document=name,
                    )
                )
    return out


def _hearing_suffix(name: str) -> str:
    return name.rsplit("-", 1)[-1] if "-" in name else ""


def _first_moment(reading: checks.Reading) -> tuple[date, Any] | None:
    """The first date the text gives its hearing, with its time (`hearing.bind`).

    Not a deadline's, the office's hours or the day the notice ran.
    """
    return reading.heard.moment()
