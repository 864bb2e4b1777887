"""Notices in Spanish, or in English and Spanish, from the same context and the same law.

Our templates word every sentence in each language (`templates/_base/es/` holds the Spanish
ones); dates and times are written the Spanish way by Babel (`es_US`). What the case or pack
writes in its own words is printed in Spanish only where `languages.spanish` gives its Spanish
text: `localize` swaps such values in the context, and `left_in_english` names the case's fields
it printed as given (LANG001). Nothing is machine-translated at build time.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass, field
from datetime import date, time
from typing import Any

from babel.dates import format_date, format_time
from markupsafe import Markup
from pydantic import BaseModel

from generator.findings import Finding
from generator.models.case import Case
from generator.models.languages import Language, Layout
from generator.rules.loader import ResolvedPack

LOCALE = "es_US"

# Our own default names of things (ResolvedPack.terms) in Spanish as US municipalities print
# them; a pack that names them otherwise gives its Spanish in `languages.spanish`.
SPANISH_TERMS = {
    "public hearing": "audiencia pública",
    "Zoning Ordinance": "Ordenanza de Zonificación",
    "Official Zoning Map": "Mapa Oficial de Zonificación",
}

# The case's own words a Spanish notice prints: each is printed in Spanish where the case (or
# pack) gives its Spanish, else as given and named by LANG001. `[]` stands for every item.
CASE_TEXTS = (
    "municipality",
    "amendment.title",
    "amendment.summary",
    "amendment.intent_and_effect",
    "amendment.proposed_use",
    "amendment.full_text",
    "area_description",
    "parcels[].approximate_location",
    "parcels[].current_district",
    "parcels[].proposed_district",
    "hearings[].body_name",
    "hearings[].place",
    "hearings[].remote.instructions",
    "examination.place",
    "examination.hours",
    "contact.title",
    "signer.title",
)


def long_date(day: date) -> str:
    """`jueves, 18 de marzo de 2027`."""
    return format_date(day, "full", locale=LOCALE)


def clock(moment: time) -> str:
    """`6:00 p. m.`, `9:30 a. m.`, `12:00 del mediodía` (the RAE's spaced abbreviation)."""
    if moment.hour == 12 and moment.minute == 0:
        return "12:00 del mediodía"
    if moment.hour == 0 and moment.minute == 0:
        return "12:00 de la medianoche"
    said = " ".join(format_time(moment, "h:mm a", locale=LOCALE).split())
    return said.replace("a.m.", "a. m.").replace("p.m.", "p. m.")


def when(day: date, moment: time) -> str:
    """`jueves, 18 de marzo de 2027, a las 6:00 p. m.` (`a la 1:00`: one o'clock is singular)."""
    article = "a la" if moment.hour % 12 == 1 else "a las"
    return f"{long_date(day)}, {article} {clock(moment)}"


FILTERS = {"long_date": long_date, "clock": clock, "when": when}

_EN_MONTHS = list(calendar.month_name)[1:]  # English, as filters.long_date writes them
_EN_DATE = re.compile(
    r"(?:(?P<weekday>Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), )?"
    rf"(?P<month>{'|'.join(_EN_MONTHS)}) (?P<day>\d{{1,2}}), (?P<year>\d{{4}})"
)
_EN_CLOCK = re.compile(r"(?P<h>\d{1,2}):(?P<m>\d\d) (?:(?P<ap>[ap])\.m\.|(?P<word>noon|midnight))")


def spanish_dates(text: str) -> str:
    """Our own English dates and times (`filters.long_date`, `filters.when`) written in Spanish.

    For the values the builders format before rendering (a posting deadline, the day a request
    for an accommodation is due): never applied to the case's own words.
    """

    def day(m: re.Match[str]) -> str:
        month = _EN_MONTHS.index(m.group("month")) + 1
        d = date(int(m.group("year")), month, int(m.group("day")))
        # With its weekday as the English gave it; without, as a sign's short line does.
        return long_date(d) if m.group("weekday") else format_date(d, "long", locale=LOCALE)

    def moment(m: re.Match[str]) -> str:
        hour, minute = int(m.group("h")), int(m.group("m"))
        if m.group("word"):
            return clock(time(12 if m.group("word") == "noon" else 0, 0))
        hour = hour % 12 + (12 if m.group("ap") == "p" else 0)
        return clock(time(hour, minute))

    out = _EN_CLOCK.sub(moment, _EN_DATE.sub(day, text))
    return re.sub(r"(\d{4}), at ", r"\1, a las ", out).replace(" m. on ", " m. del ")


@dataclass(frozen=True)
class Speech:
    """The languages of a case's notices, and the Spanish of the words the case and pack give."""

    layout: Layout = Layout.ENGLISH
    spanish: dict[str, str] = field(default_factory=dict)

    @property
    def languages(self) -> tuple[Language, ...]:
        """The languages printed, in order."""
        return self.layout.languages


def speech(pack: ResolvedPack, case: Case | None) -> Speech:
    """The case's layout (else the narrowest pack's), and every Spanish text, the case's winning."""
    stated = [pf.pack.languages for pf in pack.chain] + ([case.languages] if case else [])
    layout = next((s.layout for s in reversed(stated) if s.layout), Layout.ENGLISH)
    spanish = dict(SPANISH_TERMS)
    for s in stated:
        spanish.update(s.glossary())
    return Speech(layout, spanish)


def localize(value: Any, spanish: dict[str, str]) -> Any:
    """`value` with every text that has a Spanish entry swapped for it (models, lists, dicts)."""
    if isinstance(value, Markup):
        return value  # our stylesheet and rendered Markdown: never a case's plain text
    if isinstance(value, str):
        return spanish.get(" ".join(value.split()), value)
    if isinstance(value, BaseModel):
        update = {
            name: localize(getattr(value, name), spanish)
            for name in type(value).model_fields
            if isinstance(getattr(value, name), (str, BaseModel, list, dict))
        }
        return value.model_copy(update=update)
    if isinstance(value, list):
        return [localize(v, spanish) for v in value]
    if isinstance(value, tuple):
        return tuple(localize(v, spanish) for v in value)
    if isinstance(value, dict):
        return {k: localize(v, spanish) for k, v in value.items()}
    return value


# The context values the builders format in English before rendering: dates said again in Spanish.
_FORMATTED = ("hearing_when", "hearing_date", "hearing_time")
_FORMATTED_IN = {
    "accommodation": ("by",),
    "posting": ("latest", "hearing_date"),
    "sign": ("post_by", "post_from", "remove_after"),
    "letter": ("date",),
}


def spanish_context(context: dict[str, Any], spanish: dict[str, str]) -> dict[str, Any]:
    """The template context of the Spanish version: the case's words swapped, our dates redone."""
    out = {
        k: v if callable(v) or k in ("stylesheet", "terms") else localize(v, spanish)
        for k, v in context.items()
    }
    out["terms"] = {k: spanish.get(v, v) for k, v in context.get("terms", {}).items()}
    for key in _FORMATTED:
        if isinstance(out.get(key), str):
            out[key] = spanish_dates(out[key])
    for key, names in _FORMATTED_IN.items():
        part = out.get(key)
        if isinstance(part, dict):
            out[key] = part | {n: spanish_dates(part[n]) for n in names if part.get(n)}
    if isinstance(out.get("sign"), dict) and out["sign"].get("lines"):
        out["sign"] = out["sign"] | {
            "lines": [line | {"text": spanish_dates(line["text"])} for line in out["sign"]["lines"]]
        }
    out["other_hearings"] = [
        h | {"when": spanish_dates(h["when"])} for h in out.get("other_hearings", [])
    ]
    if isinstance(out.get("letter"), dict) and out["letter"].get("spanish"):
        out["letter"] = out["letter"] | out["letter"]["spanish"]
    # A clause the pack words itself is printed in the pack's Spanish, where it gives one.
    out["clauses"] = {
        k: c | {"wording": spanish.get(c["wording"], c["wording"]) if c.get("wording") else None}
        for k, c in context.get("clauses", {}).items()
    }
    out["custom_clauses"] = context.get("custom_clauses", {})

    def wording(topic: str, default: str) -> str:
        return (out["clauses"].get(topic) or {}).get("wording") or default

    out["wording"] = wording
    out["lang"] = Language.ES.value
    return out


def left_in_english(case: Case, wordings: list[tuple[str, str]], said: Speech) -> list[Finding]:
    """LANG001: the case's words and the pack's clause `wordings` a Spanish notice prints in English.

    `wordings` are (rule id, wording) of the clauses the plan prints; "" for a clause the pack
    words with a template, which is printed as the pack gives it.
    """
    if Language.ES not in said.languages:
        return []
    missing = [
        path
        for path, text in _case_texts(case)
        if text and " ".join(text.split()) not in said.spanish
    ]
    worded = [r for r, text in wordings if not text or " ".join(text.split()) not in said.spanish]
    out = []
    if missing:
        out.append(
            Finding(
                "LANG001",
                "the Spanish notices print these of the case's words as given, in English (give"
                f" their Spanish in `languages.spanish`): {', '.join(dict.fromkeys(missing))}",
            )
        )
    if worded:
        out.append(
            Finding(
                "LANG001",
                "the Spanish notices print these rules' own wording as the pack gives it, in"
                f" English (the pack's `languages.spanish` gives none): {', '.join(dict.fromkeys(worded))}",
            )
        )
    return out


def _case_texts(case: Case) -> list[tuple[str, str | None]]:
    """Each of `CASE_TEXTS` with its value in the case, items of lists numbered."""
    out: list[tuple[str, str | None]] = []
    for path in CASE_TEXTS:
        values: list[tuple[str, Any]] = [("", case)]
        for part in path.split("."):
            many = part.endswith("[]")
            name = part.removesuffix("[]")
            step: list[tuple[str, Any]] = []
            for where, v in values:
                got = getattr(v, name, None) if v is not None else None
                here = f"{where}.{name}" if where else name
                if many:
                    step += [(f"{here}[{i}]", item) for i, item in enumerate(got or [])]
                else:
                    step.append((here, got))
            values = step
        out += [(where, v) for where, v in values if isinstance(v, str)]
    return out


_IDS = re.compile(r'\b(id|aria-labelledby|aria-describedby)="(?P<at>)([^"]+)"')
_BODY = re.compile(r"<body[^>]*>(?P<body>.*)</body>", re.S)


def combine(pages: list[tuple[Language, str]], layout: Layout) -> str:
    """One HTML document of the versions of a page: one after the other, or side by side.

    The first version's head (title, stylesheet, page size) serves the whole; each version's
    body is kept whole in an element that says its language, so a reader (and the linter)
    knows which is which.
    """
    if len(pages) == 1:
        return pages[0][1]
    first = pages[0][1]
    bodies = []
    for i, (lang, html) in enumerate(pages):
        m = _BODY.search(html)
        body = m.group("body") if m else html
        if i:  # an element's id is unique in a document: the later versions' get the language
            suffix = f"-{lang.value}"
            body = _IDS.sub(lambda r, s=suffix: f'{r.group(1)}="{r.group(3)}{s}"', body)
        bodies.append((lang, body))
    if layout == Layout.BILINGUAL_SIDE_BY_SIDE:
        # A table's row breaks across pages with both columns: a flex box does not, in print.
        cells = "".join(
            f'<td class="language" lang="{lang.value}">{body}</td>' for lang, body in bodies
        )
        joined = f'<table class="bilingual side-by-side"><tr>{cells}</tr></table>'
    else:
        joined = "".join(
            f'<div class="language{" next-language" if i else ""}" lang="{lang.value}">{body}</div>'
            for i, (lang, body) in enumerate(bodies)
        )
    style = (
        "<style>table.bilingual{width:100%;border-collapse:collapse;table-layout:fixed}"
        "table.bilingual td{vertical-align:top;width:50%;padding:0 0.12in}"
        "table.bilingual td+td{border-left:0.5pt solid #000}"
        ".next-language{break-before:page}</style>"
    )
    m = _BODY.search(first)
    if not m:
        return first + joined
    return first[: m.start("body")] + style + joined + first[m.end("body") :]


def combine_text(pages: list[tuple[Language, str]]) -> str:
    """Plain-text versions one after the other (a newspaper sets its columns itself)."""
    return "\n\n* * *\n\n".join(text.strip("\n") for _, text in pages) + "\n"
