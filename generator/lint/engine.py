"""Lint notice files or whole packets: find what each document is, then check it.

A document's kind comes from `--kind`, or from its name as the document registry declares the
packet's files (`newspaper_notice-council.edited-1.docx` is a newspaper notice of the council
hearing; `posting_notice-poster.pdf` is read as a sign). With a case (`--case`, or the case a
packet's manifest names) the plan of the prepared case says which clauses, formats and deadlines
bind each document, and the case's facts are checked too; with a jurisdiction alone, the clauses
the pack requires of that kind of document, merged with the local rules that supplement them
(`rules.loader.snapshot`, as for a case), under the law in force on the notice's own date: the
publication date it states, else the day before the hearing it states, else the first date it
writes with a year, else today (`--on` names another). A rule that applies only in some cases is
decided where the notice's words settle its condition (the pack's `text_facts`), else reported as
undecided (NL016), never silently dropped.
"""

from __future__ import annotations

import csv
import json
import os
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from generator import csvfile
from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.kinds import DocumentKind
from generator.lint import checks, language, limits, typeset
from generator.lint.checks import Expect
from generator.lint.extract import Extracted, check_format, extract, pdf_extracted, pdf_lines
from generator.models.conditions import decide, describe
from generator.models.languages import Language
from generator.models.pack import ClauseParams, ClauseTopic, FormatParams, NoticeParams, Rule
from generator.paths import ROOT
from generator.processes import NO_WORKERS, cpus, pool
from generator.render.languages import speech
from generator.rules.loader import Binding, ResolvedPack, Snapshot, resolve, snapshot

if TYPE_CHECKING:  # a notice linted without a case needs neither the documents nor prepare
    from generator.plan import DocumentPlan
    from generator.prepare import Prepared


# The documents a notice linter reads (as the registry declares them); the rest of a packet
# (lists, labels, proofs) it does not.
@cache
def notice_kinds() -> tuple[DocumentKind, ...]:
    """The kinds of document the linter reads, as the registry declares the packet's files."""
    from generator.documents.registry import DOCUMENTS

    return tuple(dict.fromkeys(f.lint for d in DOCUMENTS for f in d.files if f.lint))


def lint_kind(path: Path) -> DocumentKind | None:
    """The kind of document a packet file is read as, from its name (the registry's)."""
    from generator.documents.registry import lint_kind as by_name

    return by_name(path)


FORMATS = (".txt", ".html", ".pdf", ".docx")
_EDITED = re.compile(r"\.edited-\d+$")


@dataclass(frozen=True)
class Law:
    """What binds a document linted without a case: a pack, as in force on one day."""

    pack: ResolvedPack
    on: date | None  # `--on`; None: the day the notice itself states
    _eras: dict[date, Snapshot] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def _starts(self) -> list[date]:
        """The days on which some rule comes into force or leaves it: between two, one law."""
        days = {date.min}
        for r in self.pack.rules:
            days |= {r.effective.from_} if r.effective.from_ else set()
            days |= {r.effective.to + timedelta(days=1)} if r.effective.to else set()
        return sorted(days)

    def at(self, day: date) -> Snapshot:
        """The pack's rules in force on `day`, merged (the snapshot of the first day of its era)."""
        start = self._starts[bisect_right(self._starts, day) - 1]
        if start not in self._eras:
            self._eras[start] = snapshot(self.pack, None, start)
        return self._eras[start]

    def ready(self) -> None:
        """Merge the rules of every era now, so that a forked worker only reads and checks.

        The time the linter gives one document is then spent on that document.
        """
        for start in self._starts:
            self.at(start)


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
    law: Law | None = None  # without a case: the clauses are bound once the text is read


@dataclass(frozen=True)
class Judged:
    """How one document was judged: the day whose law applied and why, and its clause rules."""

    on: date | None
    why: str
    checked: int = 0  # clause rules checked
    failed: int = 0  # of those, the rules the document fails
    undecided: int = 0  # clause rules that may bind but could not be checked (NL016)

    def describe(self) -> str:
        """`law as of 2019-05-05, the day before the hearing the notice states (2019-05-06); ...`."""
        law = f"law as of {self.on.isoformat()}, {self.why}" if self.on else self.why
        return (
            f"{law}; clause rules: {self.checked} checked, {self.failed} failed,"
            f" {self.undecided} undecided"
        )


@dataclass
class LintResult:
    """The findings of one run, the documents it read, and how each was judged."""

    findings: list[Finding]
    documents: list[str]
    judged: dict[str, Judged] = field(default_factory=dict)  # by document path

    @classmethod
    def joined(cls, results: Iterable[LintResult]) -> LintResult:
        """The results of several runs as one, in their order."""
        every = list(results)
        return cls(
            [f for r in every for f in r.findings],
            [d for r in every for d in r.documents],
            {k: v for r in every for k, v in r.judged.items()},
        )

    @property
    def checked(self) -> int:
        """Clause rules checked, over every document."""
        return sum(j.checked for j in self.judged.values())

    @property
    def failed(self) -> int:
        """Clause rules failed, over every document."""
        return sum(j.failed for j in self.judged.values())

    @property
    def undecided(self) -> int:
        """Clause rules that could not be checked, over every document."""
        return sum(j.undecided for j in self.judged.values())

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
    packs: Path | None = None,
) -> LintResult:
    """Lint files and packet folders; raise `UserError` for a path or option that cannot be used.

    `prepared` is the case already prepared (as `notices build` has it), in place of `case_path`.
    Without a case, `jurisdiction` names the pack, looked for in `packs` (a folder of packs)
    before the project's; `on` is the day whose law applies (default: the notice's own date).
    """
    if prepared is None and case_path is None and not jurisdiction:
        groups = _by_own_case(paths)
        if len(groups) > 1:
            return LintResult.joined(lint(g, kind=kind, on=on, packs=packs) for g in groups)
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
        if case_path:
            from generator.prepare import prepare

            prepared = prepare(case_path)
        else:
            prepared = None
    if packs is not None and prepared is not None:
        raise UserError(
            "--packs is for --jurisdiction: a case's pack is looked for in jurisdictions/"
            " (or $NOTICES_JURISDICTIONS)"
        )
    # Resolved once, here: an unknown or broken pack is a usage error before any file is read,
    # and forked workers inherit the loaded pack.
    law = Law(resolve(jurisdiction, packs=packs), on) if jurisdiction and not prepared else None
    targets = [_target(f, prepared, law, kind) for f in files]
    read: dict[Path, Read] = {}
    judged: dict[str, Judged] = {}
    for target, done in zip(targets, _check_all(targets, prepared), strict=True):
        read[target.path] = done
        found += done.findings
        if done.judged is not None:
            judged[str(target.path)] = done.judged
    for folder in packets:
        mine = [t for t in targets if t.path.parent == folder]
        if not mine and _expects_notices(prepared):
            found.append(_nothing_to_lint(folder))
        found += _packet(folder, mine, read)
    return LintResult(found, [str(t.path) for t in targets], judged)


def _by_own_case(paths: list[Path]) -> list[list[Path]]:
    """Paths linted without a case, grouped by the case that judges them.

    Each packet folder by its own manifest's case; loose files with the first folder.
    """
    folders = [p for p in paths if p.is_dir()]
    if len(folders) < 2:
        return [paths]
    loose = [p for p in paths if not p.is_dir()]
    return [[folders[0], *loose], *([f] for f in folders[1:])]


def _packet_files(folder: Path) -> list[Path]:
    """The notice documents of a packet folder, edited drafts included."""
    out = []
    for path in sorted(folder.iterdir()):
        if path.suffix.lower() in FORMATS and lint_kind(path) in notice_kinds() and path.is_file():
            out.append(path)
    return out


def _expects_notices(prepared: Prepared | None) -> bool:
    """Whether a folder without notices is worth a word: not for a case that needs none."""
    return prepared is None or any(d.kind in notice_kinds() for d in prepared.plan.documents)


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


def _target(path: Path, prepared: Prepared | None, law: Law | None, kind: str | None) -> Target:
    """What binds the file: the case's plan of it, or the pack, bound once the file is read."""
    doc_kind = _parse_kind(kind, path) if kind else lint_kind(path)
    if doc_kind is None:
        raise UserError(
            Problem(
                str(path),
                None,
                None,
                "",
                "cannot tell what kind of notice this is from its name: give --kind (one of "
                + ", ".join(k.value for k in notice_kinds())
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
    if law is None:
        raise UserError(
            Problem(str(path), None, None, "", "give --case, or --jurisdiction with --kind")
        )
    return Target(path, doc_kind, name, law=law)


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


@dataclass
class Read:
    """What the packet checks need of a document once its own checks ran (not its text)."""

    findings: list[Finding]
    moment: tuple[date, Any] | None  # the first date followed by a time it states
    lines: set[str] | None = None  # a letters PDF: its lines (and pairs of lines), normalized
    judged: Judged | None = None  # None: not read (NL012, NL013)


_JOBS: tuple[list[Target], Prepared | None] | None = None  # what forked workers check, by index


def _check_all(targets: list[Target], prepared: Prepared | None) -> list[Read]:
    """Read and check every document, one per core at a time, the largest files first."""
    global _JOBS
    # Forked workers inherit the case and plan, which need not pickle. A worker reading a long
    # PDF starts its own workers.
    workers = pool(min(cpus(), len(targets)))
    if workers is None:
        return [_check(t, prepared) for t in targets]
    for law in {id(t.law): t.law for t in targets if t.law}.values():
        law.ready()
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
    lines = None
    with _reading():
        if target.kind in _LETTERS and target.path.suffix == ".pdf":
            pages = pdf_lines(target.path)
            lines = _addressed(target.path.parent, pages)
            ext = pdf_extracted(target.path, pages, once=True)
            del pages  # the letters' own lines and the body they share once are what is kept
        else:
            # A mail merge's text with each paragraph where it first appears, and nowhere again:
            # every letter repeats the same body under its own address, so the checks of what
            # the letters state read the body once (and every address, each its own paragraph),
            # and 10,000 letters cost what one letter and a list of addresses cost. A paragraph
            # that differs in one letter is kept, so a contradiction in any letter is still read.
            ext = extract(target.path, once=target.kind in _LETTERS)
    if ext.format == "pdf" and not ext.blocks:
        raise _UnreadableError("the PDF has no text to read (a scan?)")
    if target.law is not None:
        reading = checks.Reading.of(ext, _notice_year(ext.text))
        day, why = _law_date(reading, target.law.on)
        target, undecided = _bind(target, target.law.at(day), reading)
    else:
        reading = checks.Reading.of(ext, target.hearing.date.year if target.hearing else None)
        day = target.hearing.date if target.hearing else None
        why = "the case's hearing date" if target.hearing else "the case names no hearing for it"
        target, undecided = _split(target, with_case=True)
    found = undecided + _document(target, reading, prepared)
    return Read(found, _first_moment(reading), lines, _judged(target, found, day, why))


_LETTERS = (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL)


def _addressed(folder: Path, pages: list[list[str]]) -> set[str]:
    """The names of the packet's recipients a letters PDF has on its lines (for NL005).

    A name is on one line, or wrapped over two or three in a row; one too long for the envelope
    window is printed shortened, over up to three lines ending in `…`, and kept as `…` and its
    letters without spaces (the beginning of the name), to be matched by `_letters_for_everyone`.
    Only the names recipients.csv lists are kept, not the letters' 600,000 lines.
    """
    from generator.documents.mailroom import SHORTENED

    names = {checks.normalize(name) for name in _recipients(folder)}
    normal: dict[str, str] = {}  # the body's lines recur on every letter: normalized once
    found: set[str] = set()
    raw: list[str] = []  # the last three lines
    said: list[str] = []  # the same, normalized
    for text in (line for page in pages for line in page if line):
        plain = normal.get(text)
        if plain is None:
            plain = normal[text] = checks.normalize(text)
        raw = [*raw[-2:], text]
        said = [*said[-2:], plain]
        for n in (1, 2, 3):
            if len(said) >= n and (joined := " ".join(said[-n:])) in names:
                found.add(joined)
        if text.rstrip().endswith(SHORTENED):
            for first in range(len(raw)):
                start = "".join(checks.normalize(" ".join(raw[first:])).split())
                if len(start) >= SHORTENED_AT_LEAST:
                    found.add(SHORTENED + start)
    return found


def _recipients(folder: Path) -> Iterator[str]:
    """The names on the packet's recipients.csv (none without one)."""
    listing = folder / "recipients.csv"
    if not listing.is_file():
        return
    with listing.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            name = csvfile.value(row.get("recipient") or "").strip()
            if name:
                yield name


SHORTENED_AT_LEAST = 20  # letters of a shortened name enough to tell whose it is


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def expected(prepared: Prepared | None, target: Target) -> Expect | None:
    """What the case says `target` must state: its hearing's date, time and place, its facts."""
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
    expect = expected(prepared, target)
    ext = reading.ext
    spanish = speech(prepared.pack, prepared.case).spanish if prepared else {}
    out = _clause_findings(target, reading, name, expect, spanish)
    out += checks.weekday_findings(reading, name)
    out += checks.note_findings(ext, name)
    if prepared is not None and target.hearing is not None:
        from generator.schedule import hearing_label

        label = hearing_label(target.hearing)
        mine = [d for d in prepared.deadlines if d.hearing == label and d.rule in target.notice_ids]
        hearing_days = {h.date for h in prepared.case.hearings}
        out += checks.schedule_findings(reading, name, mine, hearing_days)
    out += map_findings(target, ext)
    with _reading():
        out += typeset.type_findings(target.path, ext, target.clauses, name)
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


def _clause_findings(
    target: Target,
    reading: checks.Reading,
    name: str,
    expect: Expect | None,
    spanish: dict[str, str],
) -> list[Finding]:
    """The required clauses, checked in each language the document is written in.

    A bilingual notice must state every clause in each of its languages: each part is checked
    on its own, the Spanish one with the clauses' Spanish recognisers (`language`).
    """
    parts = language.sections(reading.ext)
    if len(parts) == 1 and parts[0][0] == Language.EN:
        return checks.clause_findings(reading, name, target.clauses, expect)
    year = target.hearing.date.year if target.hearing else _notice_year(reading.ext.text)
    spanish_expect = _in_spanish(expect, spanish) if expect else None
    out: list[Finding] = []
    for lang, part in parts:
        read = checks.Reading.of(part, year) if len(parts) > 1 else reading
        clauses, unread = list(target.clauses), []
        if lang == Language.ES:
            clauses = []
            for b in target.clauses:
                es = language.spanish_checks(b.params.checks, b.params.topic)
                if es is None:
                    unread.append(b)
                else:
                    clauses.append(replace(b, params=b.params.model_copy(update={"checks": es})))
        said = " (in the English text)" if lang == Language.EN else " (in the Spanish text)"
        wanted = spanish_expect if lang == Language.ES else expect
        for f in checks.clause_findings(read, name, clauses, wanted):
            out.append(
                replace(f, message=f.message + said) if len(parts) > 1 or lang != Language.EN else f
            )
        out += [
            Finding(
                "NL020",
                f"{b.rule.title}: no Spanish recogniser for this clause (the pack gives no"
                f" `checks.es` and topic {b.params.topic.value!r} has no Spanish words), so the"
                " Spanish text was not checked for it",
                rule=b.rule.id,
                citation="; ".join(dict.fromkeys(b.citations)),
                document=name,
            )
            for b in unread
        ]
    return out


def _in_spanish(expect: Expect, spanish: dict[str, str]) -> Expect:
    """What a Spanish text must state: each value as given, or its Spanish as the case gives it."""
    values: dict[str, list[str | tuple[str, ...]]] = {}
    for fact, given in expect.values.items():
        values[fact] = []
        for v in given:
            es = spanish.get(" ".join(v.split())) if isinstance(v, str) else None
            # "la Sala del Concejo": the article the Spanish takes in a sentence is not the name
            bare = re.sub(r"^(?:la|el|los|las)\s+", "", es, flags=re.I) if es else None
            values[fact].append((v, es, bare) if es and bare else v)
    return replace(expect, values=values)


def map_findings(target: Target, ext: Extracted) -> list[Finding]:
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
    from generator.documents.mailroom import SHORTENED

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


# How a notice labels the day it ran: "Published: …", "Publish: April 20, 27, 2019", "Pub.
# 4/20/19", "Dates of publication: …", "Run dates: …". The date must follow the label closely,
# so "shall be published not less than 10 days before May 6" is not read as one.
_PUBLISHED = re.compile(
    r"\b(?:pub(?:lish(?:ed)?|lication)?|dates?\s+of\s+publication|run\s+dates?)(?![a-z])"
    r"(?:\s+dates?)?(?:\s+on)?"
    # "(Published in The Norman Transcript July 21, 2015, 1t)": the paper's name, capitalized.
    r"(?:\s+in\s+(?-i:(?:[A-Z][\w&'\u2019.-]*\s+){1,6}))?"
    r"\s*[.:\-\u2013\u2014]?",
    re.IGNORECASE,
)
_LABEL_TO_DATE = 12  # characters between a label and the date it gives
_YEAR = re.compile(r"\b(?:19[5-9]\d|20\d\d)\b")


def _notice_year(text: str) -> int | None:
    """The year a notice's dates without one belong to: its first date's with a year, or a year."""
    from generator.lint import when

    dated = next((d.day.year for d in when.find_dates(text) if d.year_written), None)
    if dated is not None:
        return dated
    year = _YEAR.search(text)  # "Publish: April 20, 27, 2019": the year stands alone
    return int(year.group()) if year else None


def _law_date(reading: checks.Reading, on: date | None) -> tuple[date, str]:
    """The day whose law judges a notice linted without a case, and why that day."""
    if on is not None:
        return on, "the date given with --on"
    text = reading.ext.text
    for label in _PUBLISHED.finditer(text):
        # The paper's capitalized name may run into the date's month: "… Transcript July 21".
        stated = [
            d for d in reading.dates if label.start() < d.start <= label.end() + _LABEL_TO_DATE
        ]
        if stated:
            return stated[0].day, "the publication date the notice states"
    heard = _hearing_day(reading)
    if heard is not None:
        # A notice is given before its hearing, under the law of that earlier day: an ordinance
        # adopted at the hearing itself (a new notice duty among its sections) did not bind it.
        return heard - timedelta(days=1), f"the day before the hearing the notice states ({heard})"
    # Any date the notice writes with its year places it in its era better than today does.
    written = next((d.day for d in reading.dates if d.year_written), None)
    if written is not None:
        return written, "the first date the notice states (no publication or hearing date read)"
    return date.today(), "today: the notice states no date"


def _hearing_day(reading: checks.Reading) -> date | None:
    """The hearing's date as the notice ties it to the hearing (`hearing.bind`)."""
    dates = reading.heard.dates
    return dates[0].day if dates else None


def _bind(target: Target, snap: Snapshot, reading: checks.Reading) -> tuple[Target, list[Finding]]:
    """The pack's clauses for the document's kind in force that day, merged; NL016 for the rest.

    A rule whose `when` the notice's own words settle (the pack's `text_facts`) binds or drops
    as they say; one only a case decides is reported once, with the undecided local rules that
    supplement it; so is a clause the pack recognises only by a case's facts.
    """
    unrequired = not _required_that_day(target.kind, snap)

    def binds(params: ClauseParams) -> bool:
        return target.kind in params.documents and (params.every_meeting_notice or not unrequired)

    mine = tuple(b for b in snap.of(ClauseParams) if binds(b.params))
    waiting = [r for r in snap.undecided if isinstance(r.params, ClauseParams) and binds(r.params)]
    known = _text_facts(snap.pack, reading)
    settled = {id(r): decide(r.when, known) for r in waiting}
    decided = tuple(
        Binding(r.model_copy(update={"title": f"{r.title} ({_shown(r.when, known)})"}), r.params)
        for r in waiting
        if settled[id(r)]
    )
    waiting = [r for r in waiting if settled[id(r)] is None]
    target, out = _split(replace(target, clauses=mine + decided), with_case=False)
    parent = {id(p.child): p.parent for p in snap.pack.pairs}
    kids: dict[int, list[Rule]] = {id(r): [] for r in waiting}
    for rule in waiting:
        above = parent.get(id(rule))
        if above is not None and id(above) in kids:
            kids[id(above)].append(rule)
    for rule in waiting:
        if id(rule) in parent and id(parent[id(rule)]) in kids:
            continue  # said with the rule it supplements
        cites = dict.fromkeys([rule.citation, *(k.citation for k in kids[id(rule)])])
        out.append(
            Finding(
                "NL016",
                f"{rule.title}: needs the case to decide: applies only when {describe(rule.when)}",
                rule=rule.id,
                citation="; ".join(cites),
                document=target.path.name,
            )
        )
    return target, out


def _shown(cond: dict[str, Any] | None, known: dict[str, Any]) -> str:
    """What the notice's words settled for a rule: `the notice shows: map change`."""

    def named(c: Any) -> set[str]:
        if isinstance(c, list):
            return set().union(*map(named, c)) if c else set()
        if not isinstance(c, dict):
            return set()
        return {k for k in c if k not in ("all", "any", "not")} | named(list(c.values()))

    used = [f for f in known if f in named(cond)]
    return "the notice shows: " + ", ".join(f.replace("_", " ") for f in used or known)


def _text_facts(pack: ResolvedPack, reading: checks.Reading) -> dict[str, Any]:
    """The facts of the case the notice's words settle, as the packs along the chain read them.

    With them, what the pack itself says of every case it serves: the municipality's kind.
    """
    known: dict[str, Any] = {}
    if pack.municipality is not None:
        known["municipality_kind"] = pack.municipality.kind.value
    return known | {
        tf.fact: tf.value
        for pf in pack.chain
        for tf in pf.pack.text_facts
        if checks.recognised(tf.checks, reading)
    }


def _required_that_day(kind: DocumentKind, snap: Snapshot) -> bool:
    """Whether the law of `snap` asks for a notice of this kind that day, or never speaks of one.

    A pack whose notice rules ask for a kind of document only from some date (a website notice
    since an amendment) does not bind a voluntary one published before with the clauses it
    later required of it; a pack that names no notice of that kind at all (a lint-only pack of
    clauses) binds every document its clauses list.
    """
    notices = [r for r in snap.pack.rules if isinstance(r.params, NoticeParams)]
    if not any(r.params.document == kind for r in notices):
        return True
    return any(r.params.document == kind and r.effective.covers(snap.on) for r in notices)


def _split(target: Target, *, with_case: bool) -> tuple[Target, list[Finding]]:
    """The clauses the linter can check, and NL016 for each it has no way to.

    A clause is recognised by its `checks`: a pattern, or (with a case) the case's facts. One
    with neither would pass any document, so it is said to be unchecked instead.
    """
    keep, out = [], []
    for b in target.clauses:
        checks = b.params.checks
        facts = checks.facts
        if checks.terms or checks.any_pattern or checks.all_patterns or (with_case and facts):
            keep.append(b)
            continue
        why = (
            "needs the case to decide: the pack recognises it only by the case's "
            + ", ".join(facts)
            if facts
            else "cannot be checked: the pack gives no way to recognise it (no `checks`)"
        )
        out.append(
            Finding(
                "NL016", f"{b.rule.title}: {why}", rule=b.rule.id,
                citation="; ".join(dict.fromkeys(b.citations)), document=target.path.name,
            )
        )  # fmt: skip
    return replace(target, clauses=tuple(keep)), out


def _judged(target: Target, found: list[Finding], day: date | None, why: str) -> Judged:
    """The document's law date and its clause rules checked, failed and undecided."""
    failing = {f.rule for f in found if f.severity == "error" and f.rule}
    failed = sum(1 for b in target.clauses if set(b.ids) & failing)
    undecided = sum(1 for f in found if f.code == "NL016")
    return Judged(day, why, len(target.clauses), failed, undecided)
