"""The checks of one document's text: required clauses, the case's facts, weekdays, dates.

Clauses are recognized by meaning, as the pack declares them (`checks` of each clause rule): key
terms by the role they play, all named in one sentence of the notice (`generator.lint.sentences`
divides it as a reader does), look-alikes refused, and patterns as a last resort; `<date>` and
`<time>` stand for a date or a time in any common format. Every finding carries the lint code,
the pack rule it applies and that rule's citation, and where in the document it was found.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, time
from functools import cached_property
from typing import Any

from generator.findings import Finding
from generator.lint import hearing, when
from generator.lint.extract import Extracted
from generator.lint.sentences import clean, sentences
from generator.models.pack import DATE_TERM, TIME_TERM, ClauseChecks, role_pattern
from generator.render.filters import clock

DATE_TOKEN, TIME_TOKEN = DATE_TERM, TIME_TERM
# Words that say a date in the same paragraph is when the notice itself ran, went out or went up.
_CONTEXTS = {
    "publication": re.compile(r"\b(publish\w*|publication|insertions?|ran|run)\b", re.I),
    "mailing": re.compile(r"\b(mail\w*|deposit\w*)\b", re.I),
    "posting": re.compile(r"\b(post(ed|ing)?|displayed)\b", re.I),
}


@dataclass(frozen=True)
class Reading:
    """A document's text and the dates and times written in it, read once for every check."""

    ext: Extracted
    dates: list[Any]
    times: list[Any]

    @classmethod
    def of(cls, ext: Extracted, year: int | None) -> Reading:
        """Read `ext`'s dates (completing those without a year with `year`) and times."""
        return cls(ext, when.find_dates(ext.text, default_year=year), when.find_times(ext.text))

    @cached_property
    def units(self) -> Units:
        """The text's sentences and paragraphs, read once for every clause."""
        return Units.of(self.ext.text)

    @cached_property
    def heard(self) -> hearing.Hearing:
        """The dates, times and places the text ties to its hearing."""
        return hearing.bind(self.ext.text, self.dates, self.times)


@dataclass(frozen=True)
class Units:
    """A text as the recognisers read it: its sentences, its paragraphs and the whole, cleaned."""

    sentence: list[str]
    paragraph: list[str]
    document: list[str]

    @classmethod
    def of(cls, text: str) -> Units:
        """Divide `text`: a paragraph ends where a line ends with a sentence (or a heading)."""
        spans = sentences(text)
        paragraphs: list[list[str]] = []
        for i, span in enumerate(spans):
            if i == 0 or "\n" in text[spans[i - 1].end : span.start]:
                paragraphs.append([])
            paragraphs[-1].append(clean(span.text))
        said = [s for p in paragraphs for s in p]
        return cls(said, [" ".join(p) for p in paragraphs], [" ".join(said)])


@dataclass(frozen=True)
class Expect:
    """What the case says a document must state (None where linting text alone)."""

    hearing_date: date | None = None
    hearing_time: time | None = None
    values: dict[str, list[str]] = field(default_factory=dict)  # fact → accepted spellings


def normalize(text: str) -> str:
    """Text compared as a reader compares it: case, spacing, dashes and quotes ignored."""
    text = clean(text).casefold()
    text = re.sub(r"[\"'`]", "", text)
    return re.sub(r"[\s,;:.()]+", " ", text).strip()


def located(ext: Extracted, start: int, end: int) -> dict[str, Any]:
    """The block a span of `ext.text` falls in, and the words around it."""
    block = ext.locate(start)
    text = ext.text
    quote = " ".join(text[max(0, start - 40) : min(len(text), end + 40)].split())
    return {"paragraph": block.number if block.page is None else None, "page": block.page,
            "line": block.line, "quote": quote}  # fmt: skip


def clause_findings(
    reading: Reading, name: str, clauses: list[Any], expect: Expect | None
) -> list[Finding]:
    """NL001 for each required clause not recognized; NL002 for each fact it lacks."""
    ext, dates, times = reading.ext, reading.dates, reading.times
    text = " ".join(ext.text.split())
    out: list[Finding] = []
    seen: set[tuple[str, str]] = set()
    for b in clauses:
        checks = b.params.checks
        rule, citation = b.rule.id, "; ".join(dict.fromkeys(b.citations))
        title = b.rule.title
        plain, tokens = hearing.split(checks)  # the hearing's date, time, place: `hearing.gap`
        found = _present(plain, reading.units, bool(dates), bool(times))
        gap = hearing.gap(tokens, reading.heard, checks.remote_only)
        if not found or gap:
            law = {"rule": rule, "citation": citation, "document": name}
            if found and gap and gap.remote:
                out.append(Finding("NL017", f"{title}: {gap.message}", **law))
            else:
                why = f" ({gap.message})" if gap else ""
                out.append(Finding("NL001", f"required clause not found: {title}{why}", **law))
            continue
        if expect is None:
            continue
        for fact in checks.facts:
            if (fact, name) in seen:
                continue
            problem = _fact_problem(fact, expect, text, reading.heard)
            if problem:
                seen.add((fact, name))
                where = _where_said(ext, fact, reading.heard)
                out.append(
                    Finding(
                        "NL002",
                        f"{title}: {problem}",
                        rule=rule,
                        citation=citation,
                        document=name,
                        **where,
                    )
                )
    return out


def _where_said(ext: Extracted, fact: str, heard: hearing.Hearing) -> dict[str, Any]:
    """Where the document states the hearing's date, time or place (wrongly), to point there."""
    mentions = {"hearing.date": heard.dates, "hearing.start_time": heard.times,
                "hearing.place": heard.places or heard.remote}.get(fact) or []  # fmt: skip
    return located(ext, mentions[0].start, mentions[0].end) if mentions else {}


def recognised(checks: ClauseChecks, reading: Reading) -> bool:
    """Whether `checks` recognise their words in a document already read (no hearing tokens)."""
    return _present(checks, reading.units, bool(reading.dates), bool(reading.times))


def clause_present(checks: ClauseChecks, text: str) -> bool:
    """Whether a clause's `checks` recognize it in `text` (any wording the pack allows)."""
    joined = " ".join(text.split())  # as a reader's extract gives a paragraph: one line
    dates, times = when.find_dates(joined, default_year=2000), when.find_times(joined)
    plain, tokens = hearing.split(checks)
    heard = hearing.bind(joined, dates, times)
    return _present(plain, Units.of(text), bool(dates), bool(times)) and not hearing.gap(
        tokens, heard, checks.remote_only
    )


def recognised_spans(checks: ClauseChecks, text: str) -> list[tuple[int, int]]:
    """Where in `text` the clause's own words are.

    Each sentence its `terms` recognise, and the words an `any_pattern` matches (the hearing's
    date, time and place tokens aside).
    """
    plain, _tokens = hearing.split(checks)
    out: list[tuple[int, int]] = []
    for p in plain.any_pattern:
        if p not in (DATE_TOKEN, TIME_TOKEN):
            out += [m.span() for m in re.finditer(p, text, re.IGNORECASE)]
    if not plain.terms:
        return out
    unless = [re.compile(p, re.IGNORECASE) for p in plain.unless]
    recognisers = _recognisers(plain)
    for span in sentences(text):
        unit = clean(span.text)
        if any(u.search(unit) for u in unless):
            continue
        if any(all(_names(role, unit) for role in roles) for roles in recognisers):
            out.append((span.start, span.end))
    return out


def _present(checks: ClauseChecks, units: Units, dated: bool, timed: bool) -> bool:
    """Recognized by its terms in one unit or by a pattern anywhere, and by every `all_patterns`."""
    whole = units.document[0] if units.document else ""
    if not all(_matches(p, whole, dated, timed) for p in checks.all_patterns):
        return False
    if not checks.terms and not checks.any_pattern:
        return True
    if any(_matches(p, whole, dated, timed) for p in checks.any_pattern):
        return True
    unless = [re.compile(p, re.IGNORECASE) for p in checks.unless]
    for unit in getattr(units, checks.within):
        if any(u.search(unit) for u in unless):
            continue
        if any(all(_names(role, unit) for role in roles) for roles in _recognisers(checks)):
            return True
    return False


def _matches(pattern: str, text: str, dated: bool, timed: bool) -> bool:
    if pattern == DATE_TOKEN:
        return dated
    if pattern == TIME_TOKEN:
        return timed
    return re.search(pattern, text, re.IGNORECASE) is not None


@dataclass(frozen=True)
class _Role:
    """One role of a set of terms: its words as one expression, and whether a date or time fills it."""

    words: re.Pattern[str] | None
    date: bool
    time: bool


def _names(role: _Role, unit: str) -> bool:
    """Whether `unit` names the role."""
    if role.words is not None and role.words.search(unit):
        return True
    if role.date and when.find_dates(unit, default_year=2000):
        return True
    return role.time and bool(when.find_times(unit))


def _recognisers(checks: ClauseChecks) -> list[tuple[_Role, ...]]:
    return [
        tuple(
            _Role(role_pattern(tuple(terms)), DATE_TOKEN in terms, TIME_TOKEN in terms)
            for terms in roles.values()
        )
        for roles in checks.terms
    ]


def _fact_problem(fact: str, expect: Expect, text: str, heard: hearing.Hearing) -> str | None:
    """Why `fact` is not stated right, or None when it is.

    The hearing's date, time and place are those the text ties to the hearing (`hearing.bind`):
    the case's hearing time among the office hours does not pass for the hearing's.
    """
    dates, times = heard.dates, heard.times
    plain = normalize(" ".join(heard.place_texts()) if fact == "hearing.place" else text)
    if fact == "hearing.date" and expect.hearing_date:
        if any(d.day == expect.hearing_date for d in dates):
            return None
        said = "; ".join(dict.fromkeys(d.text for d in dates)) or "no date"
        return f"the hearing date {when.describe(expect.hearing_date)} is not stated (the document gives {said})"
    if fact == "hearing.start_time" and expect.hearing_time:
        if any(when.same_time(t.at, expect.hearing_time) for t in times):
            return None
        said = "; ".join(dict.fromkeys(t.text for t in times)) or "no time"
        return f"the hearing time {clock(expect.hearing_time)} is not stated (the document gives {said})"
    wanted = expect.values.get(fact)
    if not wanted:
        return None
    missing = [w for w in wanted if not _any_spelling(w, plain)]
    if missing:
        return f"{fact.replace('_', ' ')} {', '.join(repr(m) for m in missing)} is not stated"
    return None


def _any_spelling(value: str, plain: str) -> bool:
    """A value is stated if written in full, or by the code before its parenthesis: R-4 (Residential)."""
    options = {value, value.split(" (", 1)[0]}
    inside = re.search(r"\(([^)]+)\)", value)
    if inside:
        options.add(inside.group(1))  # Residential 4: "R-4" alone states it
    return any(normalize(o) and normalize(o) in plain for o in options)


def weekday_findings(reading: Reading, name: str) -> list[Finding]:
    """NL003 for every date written with a weekday it does not fall on."""
    ext = reading.ext
    out = []
    for d in reading.dates:
        if not d.weekday_ok:
            out.append(
                Finding(
                    "NL003",
                    f"{d.text!r}: {when.describe(d.day).split(',', 1)[1].strip()} is a"
                    f" {d.day:%A}, not a {calendar.day_name[d.weekday or 0]}",
                    document=name,
                    **located(ext, d.start, d.end),
                )
            )
    return out


def schedule_findings(
    reading: Reading,
    name: str,
    deadlines: list[Any],
    hearing_dates: set[date],
) -> list[Finding]:
    """NL004 for publication, mailing and posting dates the document gives outside the window."""
    out: list[Finding] = []
    by_context: dict[str, list[Any]] = {}
    for d in deadlines:
        channel = {"newspaper": "publication", "mail": "mailing", "display_ad": "publication"}.get(
            d.channel or "", "posting"
        )
        by_context.setdefault(channel, []).append(d)
    ext = reading.ext
    written: dict[str, list[Any]] = {}
    for mention in reading.dates:
        if mention.day in hearing_dates:
            continue
        block = ext.locate(mention.start)
        for context, pattern in _CONTEXTS.items():
            if pattern.search(block.text):
                written.setdefault(context, []).append(mention)
                break
    for context, mentions in written.items():
        for d in by_context.get(context, []):
            issues = list(d.issues or [])
            for i, m in enumerate(sorted(mentions, key=lambda m: m.day)):
                latest = issues[i] if i < len(issues) else _day(d.latest)
                earliest = _day(d.earliest) if i == 0 else None
                what = f"insertion {i + 1}" if issues else f"the {context}"
                if latest is not None and m.day > latest:
                    bound = f"after {when.describe(latest)}, the last day the law allows for {what}"
                elif earliest is not None and m.day < earliest:
                    bound = f"before {when.describe(earliest)}, the first day the law allows for it"
                else:
                    bound = None
                if bound:
                    out.append(
                        Finding(
                            "NL004",
                            f"{context} date {m.text!r} is {bound}",
                            rule=d.rule,
                            citation=d.citation,
                            document=name,
                            **located(ext, m.start, m.end),
                        )
                    )
    return out


def _day(value: Any) -> date | None:
    if value is None:
        return None
    return value.date() if hasattr(value, "date") and callable(value.date) else value


def note_findings(ext: Extracted, name: str) -> list[Finding]:
    """NL010 for pending tracked changes, NL011 for comments: one per paragraph, kind and author."""
    merged: dict[tuple[str, int, str | None], list[str]] = {}
    for note in ext.notes:
        merged.setdefault((note.kind, note.number, note.author), []).append(note.text)
    out = []
    for (note_kind, number, author), texts in merged.items():
        who = f" by {author}" if author else ""
        quote = " ".join(" ".join(texts).split())[:80]
        if note_kind == "comment":
            out.append(
                Finding("NL011", f"comment{who}: {quote!r}", document=name, paragraph=number)
            )
        else:
            kind = note_kind.removeprefix("tracked_").replace("_", " ")
            out.append(
                Finding(
                    "NL010",
                    f"tracked {kind}{who} not yet accepted or rejected: {quote!r}",
                    document=name,
                    paragraph=number,
                    quote=quote,
                )
            )
    return out
