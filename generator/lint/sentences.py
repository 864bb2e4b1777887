"""A notice's sentences, as a reader divides it: offsets kept, abbreviations and OCR noise survived.

Real notices are scanned legal pages, agendas pasted from PDFs and signs, not clean prose. A full
stop ends a sentence only where a reader would end it: not after "Tues.", "Ave.", "No.", "G.S.",
"R.I.G.L.", "a.m." or an initial ("W. Washington St."), nor inside "§ 9-462.04" or "7:00". A
line break is not a sentence break (columns break sentences anywhere), but a blank line after a
finished sentence is, and a short line standing alone in capitals or title case ("NOTICE OF
PUBLIC HEARING", "City of Shelby") is a heading, which scopes what follows it. A short labelled
line ("Date: May 6, 2019", "Place: City Hall") stands alone as its own span.

`Span.text` is the text exactly as given between `start` and `end` (line breaks, hyphens and all);
`clean` gives the words as a reader reads them, to match against.

Deliberately our own rules rather than a library. On the 65 real notices of the corpus pysbd
0.3.4 took 61 ms a notice against 1.9 ms here, split "Tues., | Mar. 16" and cut a sentence at
every line end of a column ("con- | tacting"); spaCy's small English model costs 0.7 s to import
and 0.4 s to load, more than the whole single-file lint.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A sentence or a heading: `text` is the given text's `[start:end]`, untouched."""

    start: int
    end: int
    text: str
    heading: bool


def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Words written with a full stop that never ends a sentence on its own: titles, units, the
# abbreviated names of weekdays, months and laws. Lower case, without the stop.
_NEVER_ENDS = _wordset(
    """mr mrs ms messrs hon rev atty esq prof gov sen rep supt
    no nos nr sec secs ss art arts ch chap para pp pg vol ord res ref approx est dept div
    jan feb mar apr jun jul aug sep sept oct nov dec
    mon tue tues wed weds thu thur thurs fri sat sun
    stat gen rev civ proc admin reg regs cf vs viz al fig
    n s e w ne nw se sw mt hwy rte twp sect tel ph"""
)
# Words with a stop that end a sentence as often as not ("... at 100 Main St. The hearing"):
# they end one only before a word that usually begins one.
_MAY_END = _wordset(
    """st ave av rd dr blvd ln ct pl pkwy cir ter hts sq jr sr inc co corp ltd llc lp llp pc pa
    bros assn assoc dist etc ft sq est edt cst cdt mst mdt ext rm bldg fl dept div"""
)
# Words that begin sentences in notices; after an ambiguous stop, such a word begins a new one.
_STARTERS = _wordset(
    """a all an any anyone anybody applicant application at because before by citizens comments
    copies copy details documents during each every for further furthermore however if in
    individuals information interested it its members notice once other owners persons please
    property questions said since such that the the there these this those to under upon we
    when where whereas which who written you your"""
)
_NAMES_OF_DAYS = _wordset(
    """monday tuesday wednesday thursday friday saturday sunday january february march april may
    june july august september october november december"""
)
# Words that keep a line going: a line ending in one is not a heading or a finished thought.
_CONTINUES = _wordset(
    """a an and the of at in on to for by or with from as that which will shall be is are was
    were has have said per than nor"""
)

# A candidate end: one or more of . ? ! (a closing quote or bracket may follow), then space.
_END = re.compile(r"[.?!]+[\"'\u2019\u201d)\]]*(?=\s)")
# The word just before a full stop, with any dotted letters it is part of ("R.I.G.L", "p.m").
_LAST_WORD = re.compile(r"(?:[A-Za-z]\.\s?)*[A-Za-z&]+\Z")
_NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")
_FIRST_WORD = re.compile(r"\s*[\"'\u2018\u201c(\[]*([A-Za-z]+|\d+|\S)")
_LABEL = re.compile(r"^\s*[A-Z][A-Za-z/&'\u2019 ]{0,24}:\s*\S")
_LIST_NUMBER = re.compile(r"(?:\A|\n|:\s)[ \t]*\(?\d{1,3}\Z")
_BLANK = re.compile(r"\n[ \t\f\v\r]*\n")
_LETTER = re.compile(r"[^\W\d_]")
# Dotted meridiem just before the stop: "p.m." "P. M." "a.m"
_MERIDIEM = re.compile(r"(?:\b|\d)[apAP]\.\s?[mM]\Z")

HEADING_WORDS = 10
HEADING_CHARS = 70


def sentences(text: str) -> list[Span]:
    """The sentences of `text`, and its headings as spans of their own, in order."""
    spans: list[Span] = []
    for start, end in _paragraphs(text):
        spans += _paragraph_spans(text, start, end)
    return spans


def clean(text: str) -> str:
    """Text as a reader reads it.

    Ligatures and dashes plain, words broken over lines joined, stray marks dropped and every run
    of space one space.
    """
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(
        r"[\u2010-\u2015\u2212\u00ad]", lambda m: "" if m.group() == "\u00ad" else "-", text
    )
    text = re.sub(r"[\u2018\u2019\u201b\u2032`]", "'", text)
    text = re.sub(r"[\u201c\u201d\u201f\u2033]", '"', text)
    # "inspec-\ntion": a word hyphenated at a line's end, joined when the next line goes on in
    # lower case (a hyphen before a capital or a figure is the word's own: "R-\n4").
    text = re.sub(r"(?<=[a-z])-[ \t]*\r?\n[ \t]*(?=[a-z])", "", text)
    text = re.sub(r"(?<=\d)-[ \t]*\r?\n[ \t]*(?=\d)", "-", text)  # a phone number: "540-\n473"
    # Marks a scanner reads from specks and rules, standing apart from the words.
    # Each distinct character looked up once (a 10,000-letter file has millions, of ~100 kinds).
    marks = {c: " " for c in set(text) if unicodedata.category(c) in ("So", "Co", "Cn", "Cc")}
    text = text.translate(str.maketrans(marks)) if marks else text
    text = re.sub(r"(?<!\S)[|~^_\\]+(?!\S)", " ", text)
    return " ".join(text.split())


def _paragraphs(text: str) -> list[tuple[int, int]]:
    """Stretches of text between blank lines, as offsets."""
    out, at = [], 0
    for gap in _BLANK.finditer(text):
        out.append((at, gap.start()))
        at = gap.end()
    out.append((at, len(text)))
    return [(s, e) for s, e in out if text[s:e].strip()]


def _paragraph_spans(text: str, start: int, end: int) -> list[Span]:
    """A paragraph's headings and labelled lines, and the sentences of the rest."""
    lines = _lines(text, start, end)
    out: list[Span] = []
    run: list[tuple[int, int]] = []  # lines of running text not yet split

    def flush() -> None:
        if run:
            out.extend(_split(text, run[0][0], run[-1][1]))
            run.clear()

    for i, (s, e) in enumerate(lines):
        line = text[s:e]
        after_end = not run or _finished(text[run[-1][0] : run[-1][1]])
        nxt = text[lines[i + 1][0] : lines[i + 1][1]] if i + 1 < len(lines) else None
        if after_end and _is_heading(line, nxt):
            flush()
            out.append(Span(s, e, line, True))
        elif after_end and _LABEL.match(line) and _stands_alone(line, nxt):
            flush()
            out.extend(_split(text, s, e))
        else:
            run.append((s, e))
    flush()
    return out


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The non-blank lines of a stretch, stripped, as offsets."""
    out = []
    for m in re.finditer(r"[^\n]+", text[start:end]):
        s, e = start + m.start(), start + m.end()
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            out.append((s, e))
    return out


def _finished(run: str) -> bool:
    """Whether the running text so far ends a sentence (or a heading could begin here)."""
    tail = run.rstrip()
    return not tail or (tail[-1] in ".?!:;\"'\u201d)" and not tail.endswith(("-", ",")))


def _words(line: str) -> list[str]:
    return re.findall(r"[A-Za-z0-9][\w'&.\-/]*", line)


def _is_heading(line: str, nxt: str | None) -> bool:
    """A short line standing alone in capitals or title case, not the start of a sentence."""
    words = _words(line)
    stripped = line.strip()
    if not words or len(words) > HEADING_WORDS or len(stripped) > HEADING_CHARS:
        return False
    if stripped[-1] in ".,;-" and not stripped.endswith(("..", "NO.")):
        return False  # a sentence or a line cut mid-sentence
    if words[-1].lower().rstrip(".") in _CONTINUES:
        return False
    if nxt is not None and nxt.lstrip()[:1].islower():
        return False  # the sentence goes on below
    letters = _LETTER.findall(stripped)
    if len(letters) < 3:
        return False
    upper = sum(1 for c in letters if c.isupper())
    if upper >= 0.8 * len(letters):
        return True
    # Title case: every word of any length capitalized ("Notice of Public Hearing").
    long_words = [w for w in words if w[0].isalpha() and w.lower() not in _CONTINUES]
    return (
        bool(long_words) and all(w[0].isupper() for w in long_words) and not stripped.endswith(":")
    )


def _stands_alone(line: str, nxt: str | None) -> bool:
    """A labelled line ("Time: 7 p.m.") whose value ends on it."""
    stripped = line.strip()
    return len(stripped) <= HEADING_CHARS and (nxt is None or not nxt.lstrip()[:1].islower())


def _split(text: str, start: int, end: int) -> list[Span]:
    """Sentences of running text from `start` to `end`."""
    out: list[Span] = []
    at = start
    for m in _END.finditer(text, start, end):
        stop = m.end()
        if _is_boundary(text, at, m.start(), stop, end):
            out.append(_span(text, at, stop))
            at = stop
            while at < end and text[at].isspace():
                at += 1
    if at < end and text[at:end].strip():
        out.append(_span(text, at, end))
    return out


def _span(text: str, start: int, end: int) -> Span:
    while end > start and text[end - 1].isspace():
        end -= 1
    return Span(start, end, text[start:end], False)


def _is_boundary(text: str, start: int, mark: int, stop: int, end: int) -> bool:
    """Whether the punctuation at `mark` (running to `stop`) ends a sentence begun at `start`."""
    if text[mark] != ".":
        return True  # ? and ! always end one
    following = _FIRST_WORD.match(text, stop, end)
    if following is None:
        return True
    first = following.group(1)
    if first[0].islower() or first in ",;:":
        return False  # "approx. two acres", "No. 5, ..."
    before = text[max(start, mark - 40) : mark]
    if text[mark - 1 : mark + 1] == ".." or text[mark : mark + 2] == "..":
        return True  # an ellipsis or a doubled stop ends it
    if _LIST_NUMBER.search(text, start, mark):
        return False  # "1. A text amendment": the number of an item, which the item follows
    last = _LAST_WORD.search(before)
    if last is None:
        return True  # after a figure or a bracket: "§ 9-462.04." "(R-4)."
    word = last.group()
    bare = word.replace(" ", "").rstrip(".").lower()
    starts = first.lower() in _STARTERS or _opens_sentence(first, text, following.end(1), end)
    if _MERIDIEM.search(before):
        return starts  # "7:00 p.m. The ..." but "7:00 p.m. Monday", "7 P. M. Council Chambers"
    if "." in bare:  # "G.S", "R.I.G.L", "U.S", "A.R.S": a dotted abbreviation
        return starts and first.lower() not in ("of", "code")
    if len(bare) == 1:
        return False  # an initial: "W. Washington", "John Q. Public"
    if bare in _NEVER_ENDS:
        return False
    if bare in _MAY_END:
        return starts
    if first.isdigit():
        return not word[0].isupper() or len(bare) > 3  # "Lot 4. 12 acres" vs "Vol. 3"
    return True


def _opens_sentence(word: str, text: str, at: int, end: int) -> bool:
    """Whether `word` most likely opens a sentence: capitalized, and followed by a word in lower case.

    "Everyone who", "Copies of" open one; a name goes on in capitals ("St. Louis County",
    "p.m. Council Chambers").
    """
    if not word[:1].isupper() or word.lower() in _NAMES_OF_DAYS:
        return False
    nxt = _NEXT_WORD.match(text, at, end)
    return nxt is not None and nxt.group(1)[0].islower()
