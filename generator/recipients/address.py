"""Owners' mailing addresses as counties publish them, read and written the USPS Publication 28 way.

A county's parcel layer gives an owner's address either as split fields (lines, city, state,
ZIP), as "CITY ST ZIP" in one field, or as a free-form block of lines (Pima County's MAIL1..MAIL5:
"CITY ST" on one line and the ZIP+4 on the next, a care-of line, a PO box, a foreign address with
its country last). `from_block` and `from_parts` read all of these into one `MailingAddress`
whose `label()` is what goes under the addressee's name. What cannot be read with certainty is
kind "unparsed": its lines are kept as read and `problem` says why, so that the caller raises a
finding naming the parcel instead of printing a wrong label.

The last line (city, state, ZIP, country) is read here, by rule: its shapes are few and a wrong
state must never be guessed. The delivery line ("123 North Main Street Apt 4") is tagged by
usaddress (a conditional-random-field parser, datamade) and rewritten with the Pub 28 tables in
data/usps/ (Appendix C1 suffixes, C2 unit designators, directionals, state codes).

Parser chosen after a comparison on the 65 blocks of tests/addresses/corpus.yaml, each given
to the libraries as one string (`python bench/addresses.py --compare`; 2 shared cores, Dec 2026).
"Wrong" is a state or ZIP that a label would print and that is not the address's (most are
inputs that must be refused: a 4-digit ZIP, no ZIP, a Canadian or Australian address):

- usaddress 0.5.16 (Aug 2025; python-crfsuite + probableparsing, ~5 MB): 43 right, 17 wrong,
  5 refused; ~4,800 addresses/s. Tags street lines, PO boxes, routes and care-of lines well;
  raises on "PSC 802 BOX 74"; checks nothing (a 4-digit ZIP or "ONTARIO, AK" pass).
- usaddress-scourgify 0.7.1 (Aug 2026; usaddress + yaml-config): 31 right, 14 wrong,
  20 refused; ~3,500 addresses/s. Refuses every PO box, rural route, military and care-of
  block (it is built for situs addresses), and its unit table misspells HANGAR and UPPR.
- none (tables only): cannot tell "N SOUTH ST" or "PARK AVE" from "SOUTH PARK" without a model.
- this module (usaddress on the delivery line, the last line by rule): 48 right, 0 wrong,
  17 refused (the 17 that must be); ~1,500 addresses/s, 10,000 in ~6 s, 49 MB peak RSS.

So: usaddress on one delivery line at a time, everything else by rule.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import usaddress
import yaml

from generator.paths import ROOT

USPS = ROOT / "data" / "usps"

# A line longer than this is not an address line (Pub 28 212 asks for at most 64 characters; a
# county field is seldom over 60): it is kept as read, and never handed to the tagger.
_LONGEST_LINE = 100

_ZIP = re.compile(r"^(\d{5})(?:-?(\d{4}))?$")
_ZIP_SPACED = re.compile(r"^(\d{5}) (\d{4})$")
_CANADIAN_POSTCODE = re.compile(r"^[A-Z]\d[A-Z] ?\d[A-Z]\d$")
_CARE_OF = re.compile(
    r"^(?:%|(?:C/O|C O|IN CARE OF|CARE OF|ATTN|ATTENTION)(?=[ :]|$))[ :]*(?P<rest>.*)$"
)
_PO_BOX = re.compile(
    r"^(?:P ?O ?BOX|POST OFFICE BOX|P ?O ?BX|POB|BOX|P ?O ?DRAWER|DRAWER|CALLER|LOCKBOX|P ?O)"
    r" ?#? ?(?P<box>[A-Z]?\d[\dA-Z-]*)$"
)
# Pub 28 24 and 25: RR (also written RFD, RD, RURAL ROUTE) and HC (HCR, STAR ROUTE), route and
# box numbers without leading zeros. "ROUTE 9" alone is a highway, so ROUTE needs a box.
_RURAL = re.compile(
    r"^(?:(?P<kind>RR|R R|RURAL ROUTE|RFD|RD|HC|HCR|HIGHWAY CONTRACT|STAR ROUTE) ?0*(?P<route>\d+)"
    r"(?: ?(?:BOX|BX|#)? ?0*(?P<box>\d[\dA-Z-]*))?"
    r"|(?:RTE|ROUTE) ?0*(?P<rroute>\d+) ?(?:BOX|BX) ?0*(?P<rbox>\d[\dA-Z-]*))$"
)
_MILITARY_LINE = re.compile(r"^(?:PSC|UNIT|CMR) \d+(?: BOX \d+)?$")
_NUMBER_WORD = re.compile(r"^\d")
_ORDINAL_FLOOR = re.compile(r"^(\d+)(?:ST|ND|RD|TH) (?:FLOOR|FLR|FL)$")
_ORDINAL = re.compile(r"^(\d+)(?:ST|ND|RD|TH)$")


@dataclass(frozen=True)
class MailingAddress:
    """One owner's mailing address, USPS Publication 28 style, or why it could not be read."""

    lines: tuple[str, ...]  # above the last line: C/O or ATTN first, the delivery line last
    city: str  # "" for foreign
    state: str  # two-letter USPS code; AA/AE/AP for military; "" for foreign
    zip5: str
    zip4: str
    country: str  # "" for the US and its possessions, else as written, upper case
    kind: str  # street | po_box | rural_route | military | foreign | unparsed
    problem: str  # "" when parsed; else why not, in words a clerk understands
    verbatim: tuple[str, ...]  # the input lines as read

    def label(self) -> list[str]:
        """The lines under the addressee's name: delivery lines, then the last line or country."""
        if self.kind == "unparsed":
            return list(self.lines)
        if self.kind == "foreign":
            return [*self.lines, self.country]
        zip_code = f"{self.zip5}-{self.zip4}" if self.zip4 else self.zip5
        return [*self.lines, f"{self.city} {self.state} {zip_code}"]


@cache
def _tables() -> dict[str, Any]:
    """Pub 28 tables from data/usps/, as lookups from any written form to the standard one."""
    usps, suffixes, places = (
        _load(USPS / name)
        for name in ("units_directionals_states.yaml", "street_suffixes.yaml", "countries.yaml")
    )
    return {
        "suffix": {form: std for std, forms in suffixes["suffixes"].items() for form in forms},
        "unit": {name: std for std, u in usps["units"].items() for name in u["names"]},
        "direction": {form: std for std, forms in usps["directionals"].items() for form in forms},
        "states": set(usps["states"]),
        "state_names": {name: code for code, name in usps["states"].items()},
        "military_states": set(usps["military_states"]),
        "military_cities": set(usps["military_cities"]),
        "usa": set(places["united_states"]),
        "countries": set(places["countries"]),
        "provinces": set(places["canadian_provinces"]),
    }


def _load(path: Path) -> Any:
    """A table file as data, read by libyaml where PyYAML has it (~60 ms less for the three)."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(path.read_text(encoding="utf-8"), Loader=loader)  # noqa: S506 - a safe loader


def _clean(line: object) -> str:
    """One line as plain upper-case words: control characters and punctuation out, spaces single.

    Periods and apostrophes join ("P.O." → "PO", "O'NEIL" → "ONEIL"); other punctuation separates.
    Kept: "#" (unit), "/" (fractions, C/O), "-" (ZIP+4, hyphenated numbers), "&" and "%" (care-of).
    """
    text = "" if line is None else str(line)
    if not text.isascii():
        text = "".join(" " if unicodedata.category(c)[0] in "CZ" else c for c in text)
    text = _DOT_BEFORE_DIGIT.sub(" ", text.upper())  # "APT.608"
    text = _JOINING.sub("", text)
    text = _SEPARATING.sub(" ", text)
    text = _SLASH.sub("/", text)
    text = _NUMBER_DASH.sub("-", text)
    text = _LONE_DASH.sub(" ", text)  # a dash between words is a separator
    text = _HASH.sub("# ", text)  # Pub 28 213: "# 12"
    return " ".join(text.split())


_DOT_BEFORE_DIGIT = re.compile(r"(?<=[A-Z])\.(?=\d)")
_JOINING = re.compile(r"[.'’`]")
_SEPARATING = re.compile(r"[^\w #/&%-]|_")  # also the ASCII control characters
_SLASH = re.compile(r"\s*/\s*")
_NUMBER_DASH = re.compile(r"(?<=\d)\s*-\s*(?=\d)")
_LONE_DASH = re.compile(r"(?<![\w])-|-(?![\w])")
_HASH = re.compile(r"#\s*")


def _unparsed(verbatim: tuple[str, ...], problem: str) -> MailingAddress:
    kept = tuple(
        " ".join("".join(" " if unicodedata.category(c)[0] == "C" else c for c in v).split())
        for v in verbatim
    )
    return MailingAddress(
        lines=tuple(k for k in kept if k),
        city="", state="", zip5="", zip4="", country="",
        kind="unparsed", problem=problem, verbatim=verbatim,
    )  # fmt: skip


def _street_line(line: str) -> str | None:
    """A street delivery line in Pub 28 form, tagged by usaddress and abbreviated by the tables.

    None when the line does not begin with its house number ("1 1145 TAUNTON AVE", left of a
    spreadsheet formula's "+1+1145 TAUNTON AVE"): no line is rewritten into another address.
    Words in an order the tables do not rebuild ("# 403 RM 306") are kept as written.
    """
    t = _tables()
    parsed = usaddress.parse(line)
    labels = [label for _, label in parsed]
    if not labels or labels[0] not in ("AddressNumberPrefix", "AddressNumber"):
        return None
    numbers = [word for word, label in parsed if label == "AddressNumber"]
    if any(not re.fullmatch(r"\d+/\d+", n) for n in numbers[1:]):
        return None  # "1 12202 ROSE ST": two house numbers (a half, "12 1/2", is one)
    if set(labels) - _STREET_TAGS:
        return line  # a tag we do not rewrite (a recipient, a place): keep the words as they are
    # A unit's designator and number are one rank: "37TH FLOOR" is rebuilt as "FL 37".
    rank = [min(_STREET_ORDER.index(label), _UNIT_RANK) for label in labels]
    if rank != sorted(rank):
        return line  # rebuilding in Pub 28's order would move words: keep them as they are
    try:
        tagged, _ = usaddress.tag(line)
    except usaddress.RepeatedLabelError:
        return line  # "# 403 RM 306": two units, kept as written
    out: list[str] = []
    for tag in _STREET_ORDER:
        value = tagged.get(tag)
        if not value:
            continue
        if tag in ("StreetNamePreDirectional", "StreetNamePostDirectional"):
            value = t["direction"].get(value, value)
        elif tag == "StreetNamePostType":
            words = value.split()
            words[-1] = t["suffix"].get(words[-1], words[-1])
            value = " ".join(words)
        elif tag in ("OccupancyType", "SubaddressType"):
            value = t["unit"].get(value, value)
        elif tag == "OccupancyIdentifier":
            # "#12" and "# 12" after a designator are "APT 12"; alone, Pub 28 213 writes "# 12".
            number = value.lstrip("#").strip()
            if t["unit"].get(tagged.get("OccupancyType", "")) == "FL" and (
                m := _ORDINAL.match(number)
            ):
                number = m[1]  # "37TH FLOOR" is "FL 37"
            value = number if tagged.get("OccupancyType") else f"# {number}"
        out.append(value)
    return " ".join(out)


_STREET_ORDER = (
    "AddressNumberPrefix", "AddressNumber", "AddressNumberSuffix", "StreetNamePreModifier",
    "StreetNamePreDirectional", "StreetNamePreType", "StreetName", "StreetNamePostType",
    "StreetNamePostDirectional", "SubaddressType", "SubaddressIdentifier", "BuildingName",
    "OccupancyType", "OccupancyIdentifier",
)  # fmt: skip
_STREET_TAGS = set(_STREET_ORDER)
_UNIT_RANK = _STREET_ORDER.index("OccupancyType")


def _classify(line: str) -> tuple[str, str]:
    """(kind, Pub 28 form) of one cleaned line.

    Kinds: care_of, po_box, rural_route, military, street, unit (a lone secondary designator,
    which joins the delivery line above it) or other.
    """
    t = _tables()
    if m := _CARE_OF.match(line):
        rest = m["rest"]
        lead = "ATTN" if line.startswith("AT") else "C/O"
        return "care_of", f"{lead} {rest}".strip()
    if m := _PO_BOX.match(line):
        return "po_box", f"PO BOX {m['box']}"
    if m := _RURAL.match(line):
        route = "HC" if m["kind"] in ("HC", "HCR", "HIGHWAY CONTRACT", "STAR ROUTE") else "RR"
        number, box = m["route"] or m["rroute"], m["box"] or m["rbox"]
        return "rural_route", f"{route} {number}" + (f" BOX {box}" if box else "")
    if _MILITARY_LINE.match(line):
        return "military", line
    words = line.split()
    if m := _ORDINAL_FLOOR.match(line):
        return "unit", f"FL {m[1]}"
    if words[0] in t["unit"] or words[0] == "#":
        std = "#" if words[0] == "#" else t["unit"][words[0]]
        rest = " ".join(words[1:]).lstrip("#").strip()
        if len(words) <= 3 and (rest or std != "#"):
            return "unit", f"{std} {rest}".strip()
    if _NUMBER_WORD.match(line) or (len(words) > 1 and re.match(r"^[NSEW]\d", words[0])):
        street = _street_line(line)
        return ("street", street) if street is not None else ("other", line)
    return "other", line


def military(state: str) -> bool:
    """Whether `state` is an Armed Forces code (AA, AE, AP): mail through an APO, FPO or DPO."""
    return state in _tables()["military_states"]


def normalize_line(line: str) -> str:
    """Pub 28 form of one delivery line, for labels and for comparing two owners' addresses."""
    cleaned = _clean(line)
    if not cleaned or len(cleaned) > _LONGEST_LINE:
        return cleaned
    return _classify(cleaned)[1]


def _zip(text: str) -> tuple[str, str, str]:
    """(zip5, zip4, problem) of a ZIP field as counties write it; never pads a lost zero."""
    raw = "" if text is None else str(text).strip()
    if re.fullmatch(r"\d+\.0+", raw):  # a ZIP read as a number from a spreadsheet
        raw = raw.split(".")[0]
    text = _clean(raw)
    digits = text.replace("-", "").replace(" ", "")
    if m := _ZIP.match(text) or _ZIP_SPACED.match(text):
        return m[1], m[2] or "", ""
    if digits.isdigit() and len(digits) == 9:
        return digits[:5], digits[5:], ""
    if re.fullmatch(r"\d{4}(?:-?\d{4})?", text):
        return "", "", f"ZIP code '{text}' has a digit missing (a leading zero lost?)"
    if not text:
        return "", "", "no ZIP code"
    return "", "", f"ZIP code '{text}' is not a US ZIP code"


def _state(text: str) -> str | None:
    """The USPS code of a state written as a code or in full, or None."""
    t = _tables()
    if text in t["states"] or text in t["military_states"]:
        return text
    return t["state_names"].get(text)


def _split_city_state(text: str) -> tuple[str, str, str]:
    """(city, state, problem) of "CITY ST", "CITY, ST" or "CITY STATE NAME"."""
    words = text.split()
    if len(words) < 2 or _NUMBER_WORD.match(words[0]):
        return "", "", "city and state not found"
    for n in (3, 2, 1):  # "NEW YORK", "DISTRICT OF COLUMBIA": the longest state name first
        if len(words) > n and (code := _state(" ".join(words[-n:]))) is not None:
            city = " ".join(words[:-n])
            # A county export that wrote "CITY ST" twice on one line (issue 16: "ORO VALLEY AZ
            # ORO VALLEY AZ 85755"): one city, said twice; two different ones are no address.
            twice = city.split(f" {code} ")
            if len(twice) == 2:
                if twice[0] != twice[1]:
                    return "", "", f"two cities, '{twice[0]}' and '{twice[1]}'"
                city = twice[0]
            return city, code, ""
    last = words[-1]
    if len(last) == 2 and last.isalpha():
        return "", "", f"state '{last}' is not a USPS state code"
    return "", "", "city and state not found"


def _country(line: str) -> str | None:
    """The country a cleaned line names, "" for the United States, None when it names none."""
    t = _tables()
    if line in t["usa"]:
        return ""
    if line in t["countries"]:
        return line
    return None


def _assemble(
    delivery: list[str], city: str, state: str, zip5: str, zip4: str, verbatim: tuple[str, ...]
) -> MailingAddress:
    """The US address from its cleaned delivery lines and checked last line."""
    t = _tables()
    zip_code = f"{zip5}-{zip4}" if zip4 else zip5
    # A county's "CITY ST" line mapped into the address lines is not a delivery line (issue 16:
    # "ORO VALLEY AZ ORO VALLEY AZ 85755").
    last_line = {f"{city} {state}", f"{city} {state} {zip5}", f"{city} {state} {zip_code}"}
    delivery = [d for d in delivery if d not in last_line]
    kinds: list[tuple[str, str]] = []
    for line in delivery:
        if len(line) > _LONGEST_LINE:
            return _unparsed(verbatim, f"a line of {len(line)} characters is not an address line")
        kind, text = _classify(line)
        if kind == "unit" and kinds and kinds[-1][0] == "street":
            kinds[-1] = ("street", f"{kinds[-1][1]} {text}")  # Pub 28 213: unit on the same line
        else:
            kinds.append((kind, text))
    # Pub 28 215: with two delivery lines, the one just above the last line gets the mail.
    military = state in t["military_states"] or city in t["military_cities"]
    # A military delivery line may be a unit, a PSC or a ship's name (Pub 28 238).
    mail_kinds = ("street", "po_box", "rural_route", "military") + (("other",) if military else ())
    deliverable = [k for k, _ in kinds if k in mail_kinds]
    if military and not (state in t["military_states"] and city in t["military_cities"]):
        return _unparsed(verbatim, f"'{city} {state}' is not a military APO/FPO/DPO AA/AE/AP")
    if not city:
        return _unparsed(verbatim, "city and state not found")
    if not deliverable:
        return _unparsed(verbatim, "no street address, PO box or route")
    kind = "military" if military else deliverable[-1]
    # Care-of and attention lines first (Pub 28 214), the rest in the order read.
    ordered = [x for k, x in kinds if k == "care_of"] + [x for k, x in kinds if k != "care_of"]
    return MailingAddress(
        lines=tuple(dict.fromkeys(ordered)), city=city, state=state, zip5=zip5, zip4=zip4,
        country="", kind=kind, problem="", verbatim=verbatim,
    )  # fmt: skip


def _foreign(lines: list[str], country: str, verbatim: tuple[str, ...]) -> MailingAddress:
    if not lines:
        return _unparsed(verbatim, f"only the country '{country}', no address")
    return MailingAddress(
        lines=tuple(lines), city="", state="", zip5="", zip4="", country=country,
        kind="foreign", problem="", verbatim=verbatim,
    )  # fmt: skip


def _read_last_line(cleaned: list[str]) -> tuple[list[str], str, str, str, str, str]:
    """Split a block into (delivery lines, city, state, zip5, zip4, problem) from its end.

    Shapes: "CITY ST ZIP" / "CITY, ST ZIP-4" on one line; "CITY ST" then "ZIP" on the next. A
    city-state line repeated above ("ORO VALLEY AZ" / "ORO VALLEY AZ 85755") is left to
    `_assemble`, which drops it.
    """
    last = cleaned[-1]
    words = last.split()
    if _zip(last)[2] == "" or re.fullmatch(r"[\d -]{4,10}", last):
        zip5, zip4, zip_problem = _zip(last)
        rest = cleaned[:-1]
        if not rest:
            return [], "", "", "", "", "city and state not found"
        city_state = rest[-1]
        rest = rest[:-1]
    else:
        tail = words[-1]
        zip5, zip4, zip_problem = _zip(tail)
        if zip_problem == "" or any(c.isdigit() for c in tail):
            city_state = " ".join(words[:-1])
        elif len(words) >= 2 and _ZIP_SPACED.match(" ".join(words[-2:])):
            zip5, zip4, zip_problem = _zip(" ".join(words[-2:]))
            city_state = " ".join(words[:-2])
        else:
            city_state, zip_problem = last, "no ZIP code"
        rest = cleaned[:-1]
    if zip_problem:
        return rest, "", "", "", "", zip_problem
    city, state, problem = _split_city_state(city_state)
    if problem:
        return rest, "", "", "", "", problem
    return rest, city, state, zip5, zip4, ""


def from_block(lines: Sequence[str]) -> MailingAddress:
    """An address from a county's free-form block of 1-6 lines (MAIL1..MAIL5 and the like).

    The lines are the address only (the owner's name left out); blank and None lines are skipped.
    """
    verbatim = tuple("" if v is None else str(v) for v in lines)
    cleaned = [c for c in (_clean(v) for v in verbatim) if c]
    if not cleaned:
        return _unparsed(verbatim, "no address")
    if any(len(c) > _LONGEST_LINE for c in cleaned):
        longest = max(len(c) for c in cleaned)
        return _unparsed(verbatim, f"a line of {longest} characters is not an address line")
    country = _country(cleaned[-1])
    if country:
        return _foreign(cleaned[:-1], country, verbatim)
    if country == "":
        cleaned = cleaned[:-1]
        if not cleaned:
            return _unparsed(verbatim, "no address")
    last_words = cleaned[-1].split()
    if (
        len(last_words) >= 3
        and _CANADIAN_POSTCODE.match(" ".join(last_words[-2:]))
        and last_words[-3] in _tables()["provinces"]
    ):
        return _foreign(cleaned, "CANADA", verbatim)
    delivery, city, state, zip5, zip4, problem = _read_last_line(cleaned)
    if problem:
        return _unparsed(verbatim, problem)
    return _assemble(delivery, city, state, zip5, zip4, verbatim)


def from_parts(
    lines: Sequence[str],
    city: str = "",
    state: str = "",
    zip_code: str = "",
    country: str = "",
    city_state_zip: str = "",
) -> MailingAddress:
    """An address from split fields; `city_state_zip` for the one-field "CITY ST ZIP" shape.

    The ZIP may be "85755", "857551234", "85755-1234" or a number read from a spreadsheet
    ("85755.0"); one with a digit missing ("8575") is a problem, never padded.
    """
    fields = [*lines, city, state, zip_code, country, city_state_zip]
    verbatim = tuple("" if v is None else str(v) for v in fields if v not in (None, ""))
    delivery = [c for c in (_clean(v) for v in lines) if c]
    written_country = _clean(country)
    found = _country(written_country) if written_country else ""
    if written_country and found is None:
        found = written_country  # a country the county wrote that we do not list: as written
    if found:
        last = " ".join(x for x in (_clean(city), _clean(state), _clean(zip_code)) if x)
        return _foreign([*delivery, last] if last else delivery, found, verbatim)
    if _clean(city_state_zip):  # "CITY ST ZIP", or "CITY ST" beside a ZIP field
        return replace(from_block([*delivery, city_state_zip, zip_code]), verbatim=verbatim)
    zip5, zip4, problem = _zip(zip_code)
    if problem:
        return _unparsed(verbatim, problem)
    code = _state(_clean(state))
    if code is None:
        shown = _clean(state)
        return _unparsed(
            verbatim,
            f"state '{shown}' is not a USPS state code" if shown else "no state",
        )
    name = _clean(city)
    for tail in (zip_code and _clean(zip_code), code, _clean(state)):
        if tail and name.endswith(f" {tail}"):
            name = name[: -len(tail) - 1]  # the state or ZIP repeated in the city field
    if not name:
        return _unparsed(verbatim, "no city")
    if longest := max((len(c) for c in (*delivery, name) if len(c) > _LONGEST_LINE), default=0):
        return _unparsed(verbatim, f"a line of {longest} characters is not an address line")
    return _assemble(delivery, name, code, zip5, zip4, verbatim)
