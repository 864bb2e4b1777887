"""The paper's proof (or tear sheet) compared with our copy: what the paper changed.

`notices lint PROOF.pdf --against output/CASE/` reads the proof as lint reads any notice, finds
the packet's newspaper notice it is a proof of (the ad copy, `newspaper_notice*.txt`, that it
matches best), and diffs the two word by word (difflib). Line breaks, hyphenation at line ends
(already rejoined by the PDF reader, see `extract.pdf_pages`), typographic quotes and dashes and
ligatures are normalized away first, so only words count. A changed date or time (PROOF001) and
a paragraph of our copy missing from the proof (PROOF002) are errors; other changed words are
warnings (PROOF003); a proof that matches word for word says so (PROOF004). The proof is then
linted as the packet's notice, with the case the packet was built from.
"""

from __future__ import annotations

import difflib
import re
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.kinds import DocumentKind
from generator.lint.extract import extract

if TYPE_CHECKING:
    from generator.lint.engine import LintResult

COPY_GLOB = f"{DocumentKind.NEWSPAPER_NOTICE.value}*.txt"
_QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-"})
_MONTHS = {
    "january", "february", "march", "april", "may", "june", "july", "august", "september",
    "october", "november", "december",
}  # fmt: skip
_WEEKDAYS = {"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
_MARKERS = {"-", "•", "*", "·", "▪"}
_HYPHENS = re.compile("[-\u2010\u2011\u00ad]")
_CLOCK = re.compile(r"^\d{1,2}:\d{2}")
_MERIDIEM = {"a.m.", "p.m.", "am", "pm", "noon", "midnight"}
_MISSING = 0.5  # a paragraph of which less than this share reaches the proof is missing
_CONTEXT = 6  # words of our copy shown before a change


@dataclass(frozen=True)
class Change:
    """One difference between our copy and the proof."""

    ours: str  # our words ("" where the proof added words)
    theirs: str  # the proof's words ("" where it dropped ours)
    before: str  # our words just before the change, to find it
    paragraph: int  # the paragraph of our copy (non-empty paragraphs, 1-based)
    temporal: bool  # a date or a time is changed


@dataclass(frozen=True)
class Comparison:
    """Our copy and the proof, compared."""

    copy: Path
    changes: tuple[Change, ...]
    missing: tuple[tuple[int, str], ...]  # paragraphs of our copy not in the proof

    @property
    def identical(self) -> bool:
        """Whether the proof has our words, in our order, and no others."""
        return not self.changes and not self.missing


def words(text: str) -> list[str]:
    """The words of a text, normalized: compatibility forms, straight quotes, plain dashes.

    A list marker ("-", a bullet) is layout, not a word: the TXT copy's "- " is the PDF's "•".
    """
    plain = unicodedata.normalize("NFKC", text).translate(_QUOTES).split()
    return [w for w in plain if w not in _MARKERS]


def key(word: str) -> str:
    """What two words must share to be the same word: letter case and hyphens are the setter's."""
    return _HYPHENS.sub("", word.lower())


def _rejoined(theirs: list[str], vocabulary: set[str]) -> list[str]:
    """The proof's words with a word broken at a line end ("Single-" "Family") made whole again.

    The PDF reader rejoins a soft hyphen before a lowercase letter; a break before a capital,
    or one a paper's setting system marks otherwise, is rejoined here when the whole word is
    one of our copy's and the first half is not.
    """
    out: list[str] = []
    i = 0
    while i < len(theirs):
        w = theirs[i]
        if (
            i + 1 < len(theirs)
            and len(w) > 1
            and _HYPHENS.fullmatch(w[-1])
            and key(w) not in vocabulary
            and key(w + theirs[i + 1]) in vocabulary
        ):
            out.append(w + theirs[i + 1])
            i += 2
            continue
        out.append(w)
        i += 1
    return out


def _temporal(seq: list[str]) -> set[int]:
    """The indexes of the words of `seq` that are part of a date or a time of day."""
    out = set()
    bare = [w.lower().strip(",.;:()") for w in seq]
    for i, w in enumerate(seq):
        low = w.lower().rstrip(",;")
        if bare[i] in _MONTHS or bare[i] in _WEEKDAYS or _CLOCK.match(w):
            out.add(i)
        elif low.rstrip(".") + "." in _MERIDIEM or low in _MERIDIEM:
            out.update({i, i - 1})
        elif bare[i].isdigit() and i and bare[i - 1] in _MONTHS:
            out.add(i)  # the day of "April 26"
        elif bare[i].isdigit() and len(bare[i]) == 4 and i > 1 and bare[i - 2] in _MONTHS:
            out.add(i)  # the year of "April 26, 2027"
    return out


def compare(ours: str, proof: str) -> tuple[list[Change], list[tuple[int, str]]]:
    """The changed words and the missing paragraphs of `proof` against our copy `ours`."""
    paragraphs = [p for p in ours.splitlines() if p.strip()]
    mine: list[str] = []
    where: list[int] = []
    for n, paragraph in enumerate(paragraphs, 1):
        got = words(paragraph)
        mine += got
        where += [n] * len(got)
    theirs = _rejoined(words(proof), {key(w) for w in mine})
    matcher = difflib.SequenceMatcher(
        None, [key(w) for w in mine], [key(w) for w in theirs], autojunk=False
    )
    matched = [0] * (len(paragraphs) + 1)
    for block in matcher.get_matching_blocks():
        for i in range(block.a, block.a + block.size):
            matched[where[i]] += 1
    sizes = [0] * (len(paragraphs) + 1)
    for n in where:
        sizes[n] += 1
    missing = [
        (n, paragraphs[n - 1])
        for n in range(1, len(paragraphs) + 1)
        if sizes[n] and matched[n] < _MISSING * sizes[n]
    ]
    gone = {n for n, _ in missing}
    ours_time, theirs_time = _temporal(mine), _temporal(theirs)
    changes = []
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            continue
        paragraph = where[min(a0, len(where) - 1)] if where else 0
        if a1 > a0 and all(where[i] in gone for i in range(a0, a1)) and b1 == b0:
            continue  # reported as a missing paragraph
        temporal = bool(ours_time & set(range(a0, a1)) or theirs_time & set(range(b0, b1)))
        changes.append(
            Change(
                " ".join(mine[a0:a1]),
                " ".join(theirs[b0:b1]),
                " ".join(mine[max(0, a0 - _CONTEXT) : a0]),
                paragraph,
                temporal,
            )
        )
    return changes, missing


def our_copy(packet: Path, proof_text: str) -> tuple[Path, str]:
    """The packet's ad copy the proof is a proof of: of its newspaper notices, the closest."""
    copies = sorted(p for p in packet.glob(COPY_GLOB) if ".edited-" not in p.name)
    if not copies:
        raise UserError(
            Problem(
                str(packet), None, None, "",
                f"no newspaper notice copy ({COPY_GLOB}) in the packet to compare the proof with",
            )
        )  # fmt: skip
    theirs = [key(w) for w in words(proof_text)]

    def likeness(path: Path) -> float:
        ours = [key(w) for w in words(path.read_text(encoding="utf-8"))]
        return difflib.SequenceMatcher(None, ours, theirs, autojunk=False).ratio()

    best = max(copies, key=likeness)
    return best, best.read_text(encoding="utf-8")


def comparison(proof: Path, packet: Path) -> Comparison:
    """The proof compared with the packet's copy of the notice."""
    proof_text = extract(proof).text
    copy, ours = our_copy(packet, proof_text)
    changes, missing = compare(ours, proof_text)
    return Comparison(copy, tuple(changes), tuple(missing))


def findings(compared: Comparison, proof: Path) -> list[Finding]:
    """What the clerk must see before approving the proof."""
    doc = str(proof)
    copy = compared.copy.name
    out = []
    for n, paragraph in compared.missing:
        short = paragraph if len(paragraph) <= 90 else paragraph[:87] + "..."
        out.append(
            Finding(
                "PROOF002",
                f"paragraph {n} of our copy ({copy}) is missing from the proof",
                document=doc,
                quote=short,
            )
        )
    for c in compared.changes:
        what = (
            f"{c.ours!r} became {c.theirs!r}"
            if c.ours and c.theirs
            else (f"{c.ours!r} was dropped" if c.ours else f"{c.theirs!r} was added")
        )
        where = f"(paragraph {c.paragraph} of {copy})"
        quote = f"...{c.before} [{c.ours} → {c.theirs}]" if c.before else None
        if c.temporal:
            out.append(
                Finding(
                    "PROOF001",
                    f"the proof changes a date or time: {what} {where}",
                    document=doc,
                    quote=quote,
                )
            )
        else:
            out.append(
                Finding(
                    "PROOF003",
                    f"the proof changes our words: {what} {where}",
                    document=doc,
                    quote=quote,
                )
            )
    if compared.identical:
        out.append(
            Finding("PROOF004", f"the proof has the words of {copy}, unchanged", document=doc)
        )
    return out


def check(proof: Path, packet: Path, case_path: Path | None = None) -> LintResult:
    """The comparison's findings and the usual lint of the proof as the packet's notice.

    The proof is linted under the name of
    that copy (a temporary `<copy>.edited-0<suffix>`), so that the plan of that notice (its
    hearing and clauses) is the one it is checked against.
    """
    from generator.lint.engine import LintResult, _manifest_case, lint

    compared = comparison(proof, packet)
    found = findings(compared, proof)
    changed: list[Finding] = []
    if case_path is None:
        case_path, changed = _manifest_case(packet)
    if case_path is None:
        raise UserError(
            Problem(str(packet), None, None, "", "no manifest names the packet's case: give --case")
        )
    with tempfile.TemporaryDirectory() as tmp:
        stand_in = Path(tmp) / f"{compared.copy.stem}.edited-0{proof.suffix.lower()}"
        shutil.copyfile(proof, stand_in)
        result = lint([stand_in], case_path=case_path)
    usual = [replace(f, document=str(proof)) for f in result.findings]
    judged = {str(proof): j for j in result.judged.values()}
    return LintResult(found + changed + usual, [str(proof)], judged)
