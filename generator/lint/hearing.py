"""The hearing's own date, time and place: the facts a notice ties to its hearing.

A notice gives many dates, times and places: the hearing's, but also the clerk's office hours,
the days it ran in the paper, a deadline for written comments, the office where the file may be
examined and the property's address. The law asks for the hearing's ("the date, time and place
of the hearing"), so a fact counts here only where the text ties it to the hearing:

* in the same sentence as a word for the hearing ("public hearing", "meeting", "will be heard",
  "will consider", "P&Z", ...), nearer to it than to a word for something else (examined,
  published, comments; for a place also the property, the application), and neither the end of
  a deadline ("by May 1") nor office hours ("8:00 a.m. to 4:00 p.m., Monday through Friday");
  a place also needs a word that puts the hearing there ("at", "in"), unless it follows the
  hearing's date or time ("May 6, 2019 at 7:00 P.M. in the Council Chambers");
* after a label that scopes it ("DATE: …", "TIME: …", "PLACE: …", "LOCATION: …"), when the
  labels are the hearing's: one that names it ("Hearing date:") or two kinds together;
* on a line of facts alone under a heading that names the hearing (an agenda's "CITY COUNCIL
  MEETING / July 7, 1998 - 7:00 p.m. / Civic Center", a sign's "ZONING PUBLIC HEARING / ... /
  JULY 6, 2027, 6:00 P.M."), past a list of the members between ("Vern Crow, Chairperson
  (Cactus District) ..."), and on a span's first lines before the running text;
* in a span that opens with facts and carries on a statement the last one left open: a PDF's
  line break after "6:15 p.m." or OCR's "on the ??" is no sentence's end for them.

A time needs a.m. or p.m. (`when`), except an hour "at" the hearing's date: "at 7:00 on January
7, 2025" states the hour, read as written.

A place is a physical one: a building, hall, chamber or room, or a street address. A link to a
video conference, a number to dial in or "via Zoom" is kept apart (`Hearing.remote`): a notice
whose hearing has only such a place gives no place to go to (see `gap`).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, time
from itertools import accumulate, pairwise
from typing import Any

from generator.lint import when
from generator.lint.sentences import Span, sentences

# The tokens a clause's `checks` patterns use for the facts bound to the hearing.
DATE_TOKEN, TIME_TOKEN, PLACE_TOKEN = "<hearing.date>", "<hearing.time>", "<hearing.place>"
TOKENS = (DATE_TOKEN, TIME_TOKEN, PLACE_TOKEN)

_X = re.IGNORECASE | re.VERBOSE

# Words for the hearing itself. "Hearing impaired" and "hearing aids" are not a hearing.
_HEARING = re.compile(
    r"""\b(?:
        hearings?(?![\s-]*(?:impair\w*|aids?\b|loops?\b|devices?\b|assist\w*|disab\w*))
      | meetings? | sessions? | agenda
      | convene[sd]? | appear(?:ance|ing|s)? | attend(?:ance|ing|s)?
      | meets(?=\s+(?:in|at|on|every|each|regularly|the\s+(?:first|second|third|fourth|last)))
      | will\s+(?:be\s+)?(?:heard|hear|consider(?:ed)?|review(?:ed)?|conduct|hold|meet|take\s+up)
      | (?:to|shall|will|is|are)\s+be\s+(?:held|heard|considered|conducted)
      | held
      | P\s?&\s?Z
      # Spanish: "la audiencia se celebrará", "sesión", "reunión".
      | audiencias? | sesi[oó]n(?:es)? | reuni[oó]n(?:es)? | se\s+celebrar[áa] | celebrar[áa]
      | se\s+llevar[áa]\s+a\s+cabo | considerar[áa]
    )\b""",
    _X,
)
# "Prior to the meeting", "in advance of the hearing date": the hearing named as a point in
# time for something else (a deadline, the file's hours), not stated.
_BY_THE_HEARING = re.compile(
    r"""\b(?:(?:prior\s+to|before|in\s+advance\s+of|ahead\s+of)\s+(?:the\s+)?
          | (?:after|until|following)\s+the\s+)(?:[\w'’-]+\s+){0,2}\Z""",
    _X,
)
# Words for other things a notice dates, times or places: where the file may be examined, when
# the notice ran, deadlines for comments and requests, how to reach the clerk.
_ELSEWHERE = re.compile(
    r"""\b(?:
        examin\w* | inspect\w* | on\s+file | cop(?:y|ies) | available | obtain\w* | viewed
      | (?:office|business|regular|normal|working)\s+hours | hours
      | publish\w* | publication | insertions? | dated | posted | mailed | printed
      | comments? | submit\w* | received | deadline | protests? | filed | objections? | written
      | contact\w* | phone | telephone | e-?mail\w* | fax | TTY | TDD
      | copia\w* | disponible\w* | obten\w* | horario | publica\w* | fijad\w* | enviad\w*
      | comentarios? | solicitud\w* | solicitar\w* | tel[eé]fono | correo | plazo | adaptaci[oó]n\w*
    )\b""",
    _X,
)
# Of those, the words for when and where the notice itself ran or went up: access to a hearing
# "posted on the County website" is still the hearing's.
_PUBLISHED = re.compile(r"publish\w*|publication|insertions?|dated|posted|mailed|printed", re.I)
# Words for the matter heard, whose place is the property's, not the hearing's.
_SUBJECT = re.compile(
    r"""\b(?:
        propert(?:y|ies) | parcels? | lots? | tracts? | acres? | sites? | premises | land
      | subdivision | plat | rezon\w* | re-zon\w* | zoned | variances? | permits? | annex\w*
      | amend\w* | applica\w* | petition\w* | requests? | proposals? | proposed | projects?
      | development | owner\w* | address(?:ed)?
    )\b""",
    _X,
)
# The end of a deadline just before a date or time: "by 5:00 p.m.", "no later than May 1".
_DEADLINE = re.compile(
    r"""\b(?:by|until|till|before|prior\s+to|no\s+later\s+than|not\s+later\s+than|on\s+or\s+before
        |through|thru|ending|deadline(?:\s+(?:is|of))?|due
        |a\s+m[áa]s\s+tardar(?:\s+el)?|antes\s+del?|hasta\s+el|no\s+antes\s+del?)\s*[:,]?\s*(?:the\s+)?\Z""",
    _X,
)
# What says a range of times is an office's hours, not a hearing's.
_OFFICE_DAYS = re.compile(
    r"""\b(?:mon|tue|tues|wed|thu|thur|thurs|fri)(?:\.|[a-z]*day)?\s*(?:-|–|—|through|thru|to)\s*
          (?:thu|thur|thurs|fri|sat)(?:\.|[a-z]*day)?
      | \bweekdays\b | \bdaily\b | \bbusiness\s+days\b | \bholidays\b | \bhours\b
      | \blunes\s+a\s+viernes\b | \bferiados\b | \bhorario\b""",
    _X,
)
_RANGE = re.compile(r"\s*(?:-|–|—|to|until|till|through|thru|and)\s*\Z", re.I)
# Words that put a place: "at", "in"; for a link or a line also "via", "on", "by", "using". A
# couple of words may come between ("at the Smith eld Town Hall", as OCR reads "Smithfield"),
# and a heading may name the place right after the hearing ("SPECIAL MEETING Council Chambers").
_AT = re.compile(
    r"""(?:\b(?:at|in|inside|within|located\s+(?:at|on|in)|en)\s*:?\s*(?:the\s+|la\s+|el\s+)?(?:[\w'’-]+\s+){0,2}
      | \b(?:hearings?|meetings?|sessions?)\s*[-–—:,]?\s*)\Z""",
    _X,
)
_VIA = re.compile(
    r"\b(?:at|in|via|on|by|using|through|join|online\s+at|attend)\s*:?\s*(?:the\s+)?\Z", re.I
)
# What a place put "at" or "in" belongs to, in the words just before: the property ("located
# in", "situated at") or the hearing ("held at", "may do so in", "will meet in").
_PROPERTY_HEAD = re.compile(
    r"\b(?:located|situated|lying|known|addressed|propert(?:y|ies)|parcels?|lots?|land|sites?)\W*\Z",
    re.I,
)
_HEARING_HEAD = re.compile(
    r"\b(?:held|heard|conducted|do\s+so|appear|attend|meets?|convene|place|hearing|meeting"
    r"|celebrar[áa]|audiencia|lugar)\W*\Z",
    re.I,
)

# --- places ------------------------------------------------------------------------------------

_VENUE_NOUNS = r"""
    chambers? | hall | room | rm\. | auditorium | library | court\s*house | courtroom | annex
  | suite | building | bldg\. | cent(?:er|re) | complex | gymnasium | gym | cafeteria | theat(?:er|re)
  | pavilion | plaza | station | school | church | lodge | clubhouse | boardroom | commons
  | offices? | headquarters | facility | arena | fairgrounds | campus | lobby | atrium | rotunda
  | grange | firehouse | museum | (?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|ground
  | main|upper|lower)\s+floor
  | sala | sal[oó]n | ayuntamiento | edificio | biblioteca | auditorio | oficinas? | c[aá]mara
"""
_VENUE = re.compile(rf"\b(?:{_VENUE_NOUNS})\b", _X)
_SPANISH_VENUE = re.compile(
    r"sala|sal[oó]n|ayuntamiento|edificio|biblioteca|auditorio|oficinas?|c[aá]mara", re.I
)
_NAMED_AFTER = re.compile(
    r"(?:[ \t]+(?:de|del|de[ \t]+la|de[ \t]+los|de[ \t]+las)[ \t]+[A-ZÁÉÍÓÚÑ][\w'’.-]*"
    r"(?:[ \t]+[A-ZÁÉÍÓÚÑ][\w'’.-]*)*)+"
)
# The number or letter of a room: "Room 101", "Conference Room B", "Fire Station No. 2".
_ROOM_ID = re.compile(
    r"(?:(?<=room)|(?<=suite)|(?<=tion)|(?<=rm\.))[ \t]+(?:No\.?[ \t]*)?(?:\d+[A-Z]?\b|[A-Z]\b(?![.&’']))",
    re.I,
)
# Words that name a venue before its noun: "City Council Chambers", "the council chambers".
_VENUE_WORD = re.compile(
    r"""(?:[A-Z][\w'’&.-]*|\d+(?:st|nd|rd|th)?|council|city|town|village|county|municipal
      |commission(?:ers)?['’]?s?|meeting|conference|hearing|board|community|public|administration
      |administrative|government|civic|senior|fire|police|high|middle|elementary|multi-?purpose
      |training|assembly|court|general|memorial|recreation|activity|event|banquet|school)\Z""",
    re.VERBOSE,
)
_NOT_NAMES = frozenset(("the", "at", "in", "on", "of", "and", "a", "an", "its", "their"))
_STREET_TYPES = r"""(?i:street|st|avenue|ave|av|road|rd|boulevard|blvd|drive|dr|lane|ln|way|parkway
    |pkwy|highway|hwy|place|pl|court|ct|circle|cir|square|sq|pike|turnpike|tpke|trail|trl|terrace
    |ter|plaza|row|alley|expressway|loop|crossing|path)"""
_ADDRESS = re.compile(
    rf"""\b\d{{1,6}}[A-Z]?(?:-\d+)?\s+
        (?:(?:[NSEW]\.?|[NS][EW]\.?|North|South|East|West|NORTH|SOUTH|EAST|WEST)\s+)?
        (?:["“]?[A-Z0-9][\w'’.&-]*["”]?\s+){{0,4}}?{_STREET_TYPES}\b\.?
      | \b\d{{1,6}}\s+(?i:broadway)\b""",
    re.VERBOSE,
)
# A way to attend from elsewhere that a notice names: a link, a conference service, a number or
# an id to dial, the page where access is posted. "Remotely" or "by electronic means" alone says
# how the hearing is held, not where to attend it, and is not a place (`_REMOTE_MANNER`).
_REMOTE = re.compile(
    r"""https?://[^\s<>"')\]]+ | \bwww\.[^\s<>"')\]]+
      | \b(?:zoom|webex|microsoft\s+teams|google\s+meet|goto\s*meeting|goto\s*webinar|ringcentral
          |facebook|youtube|vimeo|granicus|cable\s+access|(?:web\s*site|web\s*page|webpage)
          |dial[-\s]?in|call[-\s]?in|(?:meeting|webinar|conference)\s+id|passcode
          |live[-\s]?stream\w*)\b""",
    _X,
)
_REMOTE_MANNER = re.compile(
    r"""\b(?:virtual(?:ly)?|remote(?:ly)?|online|electronic|video[-\s]?conferenc\w*
          |teleconferenc\w*|tele-conferenc\w*|web\s*conferenc\w*|webinar|zoom)\b""",
    _X,
)

# --- labels and headings -------------------------------------------------------------------

_LABEL = re.compile(
    r"""(?:^|(?<=\n)|(?<=\s\s)|(?<=[.;]\s))[ \t]*
        (?P<label>(?:(?:public\s+)?(?:hearing|meeting)\s+)?
          (?P<kind>date(?:\s*(?:and|&|/)\s*time)?|time|place|location|where|when|venue)
          (?:\s+of\s+(?:the\s+)?(?:public\s+)?(?:hearing|meeting))?)\s*:""",
    _X | re.MULTILINE,
)
# Labels in capitals within a line, as OCR runs them together: "DATE: May 6 TIME: 7 PM".
_CAPITAL_LABEL = re.compile(
    r"(?<=\s)(?P<label>(?P<kind>DATE|TIME|PLACE|LOCATION|WHERE|WHEN|VENUE))\s*:"
)
_LABEL_REACH = 400  # labels this near one another are one block of the hearing's facts
_BARE_WORDS = 3  # words besides its facts a line of facts alone may have ("East Providence, RI")
_FILLER = re.compile(
    r"""\b(?:at|in|on|the|of|and|or|from|to|beginning|commencing|starting|local|time|o'clock
      |monday|tuesday|wednesday|thursday|friday|saturday|sunday|[a-z]{2})\b""",
    _X,
)
_ADDRESS_REACH = 120  # the longest street address read: "17580 W. Northern Avenue", and more
_GROUP_REACH = 60
_OPENING_REACH = 25  # most characters before the first fact of a span carrying on the last
_AFTER_REACH = 40  # a word for the hearing this near after facts opening a sentence is theirs  # most characters between two facts of one statement ("…, at 7:00 p.m., in …")


@dataclass(frozen=True)
class Place:
    """A place written in a text: a physical one, or a way to attend from elsewhere."""

    start: int
    end: int
    text: str
    remote: bool


@dataclass(frozen=True)
class _Fact:
    start: int
    end: int
    kind: str  # date | time | place | remote
    value: Any


@dataclass
class Hearing:
    """What a text states of its hearing: the dates, times and places it ties to the hearing."""

    text: str = ""  # the text read
    dates: list[when.DateMention] = field(default_factory=list)
    times: list[when.TimeMention] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)  # physical places
    remote: list[Place] = field(default_factory=list)  # links, lines to dial, "via Zoom"
    # The sentence, label block or heading block each bound fact was read in, by its start.
    statement: dict[int, tuple[int, int]] = field(default_factory=dict)

    def states(self, token: str, *, remote_only: bool = False) -> bool:
        """Whether the hearing's date, time or place (a `TOKENS` entry) is stated.

        A place is stated by a physical place, or by a way to attend remotely only where the
        pack allows a remote-only hearing (`remote_only`).
        """
        if token == DATE_TOKEN:
            return bool(self.dates)
        if token == TIME_TOKEN:
            return bool(self.times)
        return bool(self.places) or (remote_only and bool(self.remote))

    def place_texts(self) -> list[str]:
        """The statements that give the hearing's place, as written (for comparing a case's)."""
        spans = dict.fromkeys(self.statement[p.start] for p in self.places)
        return [self.text[s:e] for s, e in spans]

    def moment(self) -> tuple[date, time] | None:
        """The first date stated with a time: when the text says the hearing is."""
        for d in self.dates:
            same = [t for t in self.times if self.statement[t.start] == self.statement[d.start]]
            if same:
                return d.day, min(same, key=lambda t: abs(t.start - d.start)).at
        later = [t for t in self.times if self.dates and t.start > self.dates[0].start]
        if self.dates and later:
            return self.dates[0].day, later[0].at
        return None


def read(text: str, default_year: int | None = None) -> Hearing:
    """The facts `text` ties to its hearing, reading its dates and times first."""
    return bind(text, when.find_dates(text, default_year=default_year), when.find_times(text))


def bind(
    text: str, dates: Sequence[when.DateMention], times: Sequence[when.TimeMention]
) -> Hearing:
    """The dates, times and places of `text` that it ties to the hearing.

    `dates` and `times` are those `when` finds in `text` (offsets into it).
    """
    times = sorted([*times, *_bare_clock_times(text, dates, times)], key=lambda t: t.start)
    places = find_places(text)
    links = [p for p in places if p.remote and "://" in p.text]
    inside = _Reach([(p.start, p.end) for p in links])
    facts = sorted(
        [_Fact(d.start, d.end, "date", d) for d in dates if not inside.covers(d.start)]
        + [_Fact(t.start, t.end, "time", t) for t in times if not inside.covers(t.start)]
        + [_Fact(p.start, p.end, "remote" if p.remote else "place", p) for p in places],
        key=lambda f: (f.start, -f.end),
    )
    facts = _no_overlaps(facts)
    facts = _without_office_hours(text, facts)
    spans = sentences(text)
    bound: dict[int, tuple[_Fact, tuple[int, int]]] = {}
    for f, where in _by_labels(text, facts):
        bound.setdefault(f.start, (f, where))
    for f, where in _by_heading(text, spans, facts):
        bound.setdefault(f.start, (f, where))
    for span in spans:
        for f in _by_sentence(text, span, _among(facts, span.start, span.end)):
            bound.setdefault(f.start, (f, (span.start, span.end)))
    for prev, span in pairwise(spans):
        if _carried_on(text, prev, span, facts):
            joined = Span(prev.start, span.end, text[prev.start : span.end], False)
            for f in _by_sentence(text, joined, _among(facts, prev.start, span.end)):
                if f.start >= span.start:
                    bound.setdefault(f.start, (f, (prev.start, span.end)))
    out = Hearing(text)
    for start in sorted(bound):
        f, where = bound[start]
        out.statement[start] = where
        if f.kind == "date":
            out.dates.append(f.value)
        elif f.kind == "time":
            out.times.append(f.value)
        elif f.kind == "place":
            out.places.append(f.value)
        else:
            out.remote.append(f.value)
    return out


# A time written without a.m. or p.m. right beside the hearing's date: "at 7:00 on January 7,
# 2025", "January 7, 2025 at 7:00". `when` reads no "7:00" alone as a time ("Chapter 7:00",
# "3:15" may be anything); put "at" a date, it states the hour, ambiguous only as to morning or
# evening. It is read as written (7:00), the morning's hour.
_BARE_CLOCK = re.compile(
    r"\bat\s+(?P<hour>1[0-2]|0?[1-9]):(?P<minute>[0-5]\d)(?![\d:]|\.\d|\s*(?:%|per\b|percent))",
    re.I,
)
_CLOCK_THEN_DATE = re.compile(
    r"\s*,?\s*(?:on\s+)?(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day,?\s+)?(?:the\s+)?\Z", re.I
)
_DATE_THEN_CLOCK = re.compile(r"\A\s*,?\s*\Z")
_BARE_CLOCK_REACH = 40


def _bare_clock_times(
    text: str, dates: Sequence[when.DateMention], times: Sequence[when.TimeMention]
) -> list[when.TimeMention]:
    """Times of `_BARE_CLOCK` that `when` left out, beside a date (before or after it)."""
    out = []
    told = _Reach([(t.start, t.end) for t in times])
    for m in _BARE_CLOCK.finditer(text):
        start = m.start("hour")
        if told.overlaps(start, m.end()):
            continue
        near = _among(dates, m.start() - _BARE_CLOCK_REACH, m.end() + _BARE_CLOCK_REACH)
        after = any(
            d.start >= m.end() and _CLOCK_THEN_DATE.search(text[m.end() : d.start]) for d in near
        )
        before = any(
            d.end <= m.start() and _DATE_THEN_CLOCK.match(text[d.end : m.start()]) for d in near
        )
        if after or before:
            at = time(int(m.group("hour")), int(m.group("minute")))
            out.append(when.TimeMention(at, start, m.end(), text[start : m.end()]))
    return out


@dataclass(frozen=True)
class Gap:
    """What of the hearing's date, time and place a clause asks for and the text does not give."""

    message: str
    remote: bool  # the place is only a way to attend remotely, where the law asks for a place


def split(checks: Any) -> tuple[Any, list[str]]:
    """A clause's `checks` without the hearing's tokens, and those tokens (read by `gap`)."""
    patterns = [*checks.all_patterns, *checks.any_pattern]
    tokens = [t for t in TOKENS if t in patterns]
    if not tokens:
        return checks, []
    plain = checks.model_copy(
        update={
            "all_patterns": [p for p in checks.all_patterns if p not in TOKENS],
            "any_pattern": [p for p in checks.any_pattern if p not in TOKENS],
        }
    )
    return plain, tokens


def gap(tokens: Sequence[str], heard: Hearing, windows: Sequence[Any] = ()) -> Gap | None:
    """What of `tokens` the text does not tie to its hearing, or None.

    `windows` are the times the law allowed a hearing held only remotely (`RemoteOnly` of the
    pack), judged by the date of the hearing the text gives: a hearing on such a day may have a
    link for its place.
    """
    remote_only = any(w.covers(d.day) for w in windows for d in heard.dates)
    missing = [t for t in tokens if not heard.states(t, remote_only=remote_only)]
    if not missing:
        return None
    if missing == [PLACE_TOKEN] and heard.remote:
        links = [p.text for p in heard.remote if "://" in p.text] or [p.text for p in heard.remote]
        ways = "; ".join(dict.fromkeys(" ".join(w.split()) for w in links))
        return Gap(
            f"the hearing's place is only a link or a way to call in ({ways}): the law asks for"
            " the place of the hearing, a place people can go to, and the pack allows no hearing"
            " held only remotely on its date",
            remote=True,
        )
    names = {DATE_TOKEN: "date", TIME_TOKEN: "time", PLACE_TOKEN: "place"}
    what = [names[t] for t in missing]
    said = " or ".join(what) if len(what) < 3 else "date, time or place"
    return Gap(f"the text ties no {said} to the hearing", remote=False)


def find_places(text: str) -> list[Place]:
    """Every place written in `text`: venues, street addresses and ways to attend remotely."""
    found: list[Place] = []
    for m in _REMOTE.finditer(text):
        end = m.start() + len(m.group().rstrip(".,;:")) if "/" in m.group() else m.end()
        found.append(Place(m.start(), end, text[m.start() : end], True))
    addresses = [Place(m.start(), m.end(), m.group(), False) for m in _ADDRESS.finditer(text)]
    found += addresses
    for m in _VENUE.finditer(text):
        start = _venue_start(text, m.start())
        if _among(addresses, m.start() - _ADDRESS_REACH, m.start() + 1, ending_after=m.start()):
            continue  # "Town Center" of "200 N. Town Center Drive"
        if _REMOTE_MANNER.search(text, max(0, start - 20), m.end()):
            continue  # "virtual meeting room", "Zoom Meeting Room"
        end = m.end()
        named = _NAMED_AFTER.match(text, end) if _SPANISH_VENUE.fullmatch(m.group()) else None
        if named:
            end = named.end()  # "Sala del Concejo": a Spanish venue is named after its noun
        room = _ROOM_ID.match(text, end)
        if room and not _among(addresses, room.start(), room.end()):
            end = room.end()  # not the "80" of "Town Hall Annex 80 Doyle Road"
        found.append(Place(start, end, text[start:end], False))
    return _no_overlaps(sorted(found, key=lambda p: (p.start, -p.end)))


def _venue_start(text: str, at: int) -> int:
    """Where a venue's name begins: up to five naming words before its noun."""
    start = at
    for n in range(5):
        m = re.search(r"(\S+)[ \t]+\Z", text[max(0, start - 40) : start])
        if m is None:
            break
        word = m.group(1)
        if word.endswith(",") or not _VENUE_WORD.match(word) or word.lower() in _NOT_NAMES:
            break
        if re.fullmatch(r"[AP]\.?M\.?", word, re.I):
            break  # "7:00 PM ASSEMBLY ROOM": the time's, not the room's name
        if n and (_HEARING.fullmatch(word) or _ELSEWHERE.fullmatch(word)):
            break  # "SPECIAL MEETING Council Chambers" (but "Community Meeting Room")
        start -= len(m.group(0))
    return start


# --- binding -----------------------------------------------------------------------------


def _by_sentence(text: str, span: Span, facts: list[_Fact]) -> Iterable[_Fact]:
    """The facts of one sentence that it ties to the hearing."""
    if not facts or not _HEARING.search(text, span.start, span.end):
        return
    hearing = [
        (m.start(), m.end())
        for m in _HEARING.finditer(text, span.start, span.end)
        if not _BY_THE_HEARING.search(text[max(span.start, m.start() - 40) : m.start()])
    ]
    elsewhere = [(m.start(), m.end()) for m in _ELSEWHERE.finditer(text, span.start, span.end)]
    subject = [(m.start(), m.end()) for m in _SUBJECT.finditer(text, span.start, span.end)]
    for group in _groups(text, facts, hearing + elsewhere + subject):
        timed = [f for f in group if f.kind in ("date", "time")]
        if _DEADLINE.search(text[max(span.start, group[0].start - 40) : group[0].start]):
            continue  # "by 5:00 p.m. on May 1": the end of a deadline
        first_timed = timed[0].start if timed else None
        if timed and _nearest(group[0], hearing, elsewhere, group[-1].end) == "hearing":
            yield from timed
        else:
            first_timed = None
        for run in _place_runs(group):
            follows = first_timed is not None and run[0].start > first_timed
            if follows or _placed(text, span, run, hearing, elsewhere + subject):
                yield from run


def _carried_on(text: str, prev: Span, span: Span, facts: list[_Fact]) -> bool:
    """Whether `span` opens with facts that carry on the statement `prev` left open.

    A PDF breaks its lines where the page does, and a break after "6:15 p.m." or OCR's "on the
    ??" reads as a sentence's end: "…Committee Meeting: September 10, 2018 at 6:15 p.m." /
    "Phoenix College, Willo Room 3310 N. 10th Avenue". The facts that open the next span are
    read as if it went on: `prev` ends in a fact or without a full stop, and no more than a few
    words, none for the hearing or anything else, come before the next span's first fact.
    """
    mine = _among(facts, span.start, span.end)
    if not mine or mine[0].start - span.start > _OPENING_REACH:
        return False
    lead = text[span.start : mine[0].start]
    if any(p.search(lead) for p in (_HEARING, _ELSEWHERE, _SUBJECT, _DEADLINE)):
        return False
    tail = prev.text.rstrip()
    theirs = _among(facts, prev.start, prev.end)
    ends_in_fact = bool(theirs) and theirs[-1].end >= prev.start + len(tail) - 1
    return ends_in_fact or not re.search(r"[.!:;]\W*\Z", tail)


def _groups(text: str, facts: list[_Fact], markers: list[tuple[int, int]]) -> list[list[_Fact]]:
    """Facts written together: "Monday, May 6, 2019 at 7:00 P.M. in the Council Chambers".

    No more than a few words, and no word for anything else, come between one and the next.
    """
    groups: list[list[_Fact]] = []
    for f in facts:
        if groups:
            last = groups[-1][-1]
            between = text[last.end : f.start]
            apart = any(last.end <= s and e <= f.start for s, e in markers)
            if len(between) <= _GROUP_REACH and ";" not in between and not apart:
                groups[-1].append(f)
                continue
        groups.append([f])
    return groups


def _place_runs(group: list[_Fact]) -> list[list[_Fact]]:
    """The places of a group, in runs not broken by a date or time.

    "Council Chambers of City Hall, 300 Main Street" is one run.
    """
    runs: list[list[_Fact]] = []
    fresh = True
    for f in group:
        if f.kind in ("place", "remote"):
            if fresh:
                runs.append([])
            runs[-1].append(f)
            fresh = False
        else:
            fresh = True
    return runs


def _nearest(
    f: _Fact,
    hearing: list[tuple[int, int]],
    other: list[tuple[int, int]],
    end: int | None = None,
) -> str | None:
    """Which kind of word, the hearing's or another's, is nearest before `f` in its sentence.

    If none is, the word just after the facts `f` opens (which end at `end`).
    """
    end = f.end if end is None else end
    before = [(e, "hearing") for s, e in hearing if e <= f.start] + [
        (e, "other") for s, e in other if e <= f.start
    ]
    if before:
        return max(before)[1]
    # A fact before any word of its sentence belongs to the one just after it ("On May 6, 2019
    # at 7:00 P.M. the Council will hold a public hearing"), not to one a line further on.
    after = [(s, "hearing") for s, e in hearing if s >= end] + [
        (s, "other") for s, e in other if s >= end
    ]
    nearest = min(after) if after else None
    return nearest[1] if nearest and nearest[0] - end <= _AFTER_REACH else None


def _placed(
    text: str,
    span: Span,
    run: list[_Fact],
    hearing: list[tuple[int, int]],
    other: list[tuple[int, int]],
) -> bool:
    """A run of places put at the hearing: "(hearing …) at|in the <place>".

    Any place of the run may be the one put there: "…, Hillsborough Commons Shopping Center,
    located at 113 Mayo Street".
    """
    for f in run:
        apart = other
        if f.kind == "remote":
            apart = [(s, e) for s, e in other if not _PUBLISHED.fullmatch(text[s:e])]
        lead = text[max(span.start, f.start - 60) : f.start]
        put = (_VIA if f.kind == "remote" else _AT).search(lead)
        if put is None:
            # "The meeting will be conducted remotely as a Zoom Online Webinar": a way to attend
            # remotely names itself; it needs no "at".
            if f.kind == "remote" and _nearest(f, hearing, apart, run[-1].end) == "hearing":
                return True
            continue
        head = lead[: put.start()]
        if _PROPERTY_HEAD.search(head):
            continue
        named = _HEARING_HEAD.search(head)
        if named and _BY_THE_HEARING.search(head[: named.start()]):
            named = None  # "prior to the Commission meeting in the Town Clerk's Office"
        if named or _nearest(f, hearing, apart, run[-1].end) == "hearing":
            return True
    return False


def _by_labels(text: str, facts: list[_Fact]) -> Iterable[tuple[_Fact, tuple[int, int]]]:
    """Facts after the hearing's labels: "DATE: …", "TIME: …", "PLACE: …"."""
    labels = sorted(
        {
            m.start("label"): m for m in [*_LABEL.finditer(text), *_CAPITAL_LABEL.finditer(text)]
        }.values(),
        key=lambda m: m.start("label"),
    )
    if not labels:
        return
    scopes = []
    for i, m in enumerate(labels):
        stop = labels[i + 1].start("label") if i + 1 < len(labels) else len(text)
        scopes.append((m, m.end(), _scope_end(text, facts, m.end(), stop)))
    for m, start, end in scopes:
        kinds = {
            _kind(n.group("kind"))
            for n, s, _ in scopes
            if abs(s - start) <= _LABEL_REACH and not _blank_between(text, s, start)
        }
        named = re.search(r"hearing|meeting", m.group("label"), re.I)
        if not named and len(kinds) < 2:
            continue  # "Location: 1440 Earl Road" of an agenda item is the property's
        block = [(s, e) for n, s, e in scopes if abs(s - start) <= _LABEL_REACH]
        where = (min(s for s, _ in block), max(e for _, e in block))
        for f in _among(facts, start, end):
            yield f, where


def _kind(label: str) -> str:
    label = label.lower()
    if label.startswith("date"):
        return "date"
    if label in ("time", "when"):
        return label
    return "place"


def _blank_between(text: str, a: int, b: int) -> bool:
    lo, hi = sorted((a, b))
    return re.search(r"\n[ \t]*\n", text[lo:hi]) is not None


def _scope_end(text: str, facts: list[_Fact], start: int, stop: int) -> int:
    """A label's value: the rest of its line, and the lines of facts alone that follow it."""
    eol = text.find("\n", start)
    end = min(stop, len(text) if eol < 0 else eol)
    while end < stop:
        nxt = text.find("\n", end + 1)
        line_end = min(stop, len(text) if nxt < 0 else nxt)
        line = (end + 1, line_end)
        if not text[line[0] : line[1]].strip() or not _bare(text, line, facts):
            break
        end = line_end
    return end


def _bare(text: str, span: tuple[int, int], facts: list[_Fact]) -> bool:
    """A line of facts alone: a date, a time or a place, and at most a few other words."""
    start, end = span
    mine = _among(facts, start, end)
    if not mine or _ELSEWHERE.search(text, start, end):
        return False
    rest, at = [], start
    for f in mine:
        rest.append(text[at : f.start])
        at = max(at, f.end)
    rest.append(text[at:end])
    words = re.findall(r"[A-Za-z][A-Za-z'’]+", _FILLER.sub(" ", " ".join(rest)))
    return len(words) <= _BARE_WORDS


def _by_heading(
    text: str, spans: list[Span], facts: list[_Fact]
) -> Iterable[tuple[_Fact, tuple[int, int]]]:
    """Lines of facts alone under a heading that names the hearing, up to the running text."""
    opened: int | None = None
    for span in spans:
        names = _HEARING.search(text, span.start, span.end) is not None
        short = len(span.text.split()) <= 12
        if names and (span.heading or short or span.text.rstrip().endswith(":")):
            opened = span.start
            continue
        if opened is None:
            continue
        if _bare(text, (span.start, span.end), facts):
            for f in _among(facts, span.start, span.end):
                yield f, (opened, span.end)
            continue
        if _roster(text, span, facts):
            continue  # the members' names between an agenda's heading and its facts
        # The facts may stand on the span's first lines, the running text after them ("September
        # 2, 2021 6:00 PM City Hall, Council Chambers" / "1. CALL TO ORDER" / ...).
        at = span.start
        while at < span.end:
            eol = text.find("\n", at, span.end)
            line = (at, span.end if eol < 0 else eol)
            if eol < 0 or not _bare(text, line, facts):
                break
            for f in _among(facts, *line):
                yield f, (opened, line[1])
            at = eol + 1
        if not span.heading or _ELSEWHERE.search(text, span.start, span.end):
            opened = None


# The members named under an agenda's heading: "Vern Crow, Chairperson (Cactus District) ...".
_MEMBER = re.compile(
    r"""\b(?:(?:vice[\s-]+)?chair(?:man|woman|person)?|commissioners?|council\s*(?:member|man
      |woman|or)s?|(?:vice[\s-]+)?mayor|alder(?:man|woman|person)|trustees?|supervisors?
      |selectm[ae]n|members?|secretary|vice[\s-]+president|president)\b""",
    _X,
)


def _roster(text: str, span: Span, facts: list[_Fact]) -> bool:
    """A list of names with their offices alone: no facts, no sentence, no other business."""
    words = len(span.text.split())
    members = len(_MEMBER.findall(span.text))
    return (
        members >= 2
        and words <= 8 * members
        and not span.text.rstrip().endswith((".", "?", "!", ":"))
        and not _among(facts, span.start, span.end)
        and not _ELSEWHERE.search(text, span.start, span.end)
    )


# --- small helpers ---------------------------------------------------------------------------


def _among(items: Sequence[Any], start: int, end: int, ending_after: int = -1) -> list[Any]:
    """The items (in text order) beginning from `start` up to `end` and ending after `ending_after`.

    Found by bisection: a long letters PDF has thousands of them.
    """
    lo = bisect_left(items, start, key=lambda i: i.start)
    hi = bisect_left(items, end, key=lambda i: i.start)
    return [i for i in items[lo:hi] if i.end > ending_after]


class _Reach:
    """Spans of text, asked whether any covers an offset or overlaps a stretch, by bisection.

    A letters file of 10,000 letters has tens of thousands of each: asking every span for
    every date and time took minutes.
    """

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        spans = sorted(spans)
        self.starts = [s for s, _ in spans]
        self.reach = list(accumulate((e for _, e in spans), max))  # the furthest end so far

    def overlaps(self, start: int, end: int) -> bool:
        """Whether a span begins before `end` and ends after `start`."""
        k = bisect_left(self.starts, end)
        return k > 0 and self.reach[k - 1] > start

    def covers(self, at: int) -> bool:
        """Whether a span begins at or before `at` and ends after it."""
        k = bisect_right(self.starts, at)
        return k > 0 and self.reach[k - 1] > at


def _no_overlaps(items: list[Any]) -> list[Any]:
    kept: list[Any] = []
    for item in items:
        if not kept or item.start >= kept[-1].end:
            kept.append(item)
    return kept


def _without_office_hours(text: str, facts: list[_Fact]) -> list[_Fact]:
    """Facts less office hours, and less the end of any other range of times.

    "8:00 a.m. to 4:00 p.m., Monday through Friday" is an office's hours; a hearing "from 6:00
    p.m. to 8:00 p.m." begins at 6:00 p.m.
    """
    drop: set[int] = set()
    times = [f for f in facts if f.kind == "time"]
    for a, b in pairwise(times):
        if not _RANGE.match(text[a.end : b.start]) or b.start - a.end > 12:
            continue
        context = text[max(0, a.start - 80) : b.end + 80]
        if _OFFICE_DAYS.search(context) or re.search(
            r"\bbetween\s*\Z", text[: a.start][-20:], re.I
        ):
            drop.update((a.start, b.start))
        else:
            drop.add(b.start)
    return [f for f in facts if f.start not in drop]
