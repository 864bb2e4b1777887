"""The recipient list: one letter per owner and mailing address, and how names and addresses compare."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from generator.findings import Finding
from generator.models.recipient_rules import DELIVERY_RANK
from generator.recipients.address import normalize_line


def normalize_name(name: str) -> str:
    """Owner names compare without case, punctuation or spacing differences."""
    return " ".join(re.sub(r"[^\w&' ]", " ", name.upper()).split())


def normalize_address(address: str) -> str:
    """Address lines compare in their Publication 28 form: "12 Main Street." is "12 MAIN ST"."""
    return normalize_line(address)


@dataclass
class Recipient:
    """One letter: a name, a mailing address, the parcels it concerns, and why it is sent."""

    name: str
    lines: list[str]
    city: str
    state: str
    zip5: str
    zip4: str = ""
    kind: str = "owner"  # owner | occupant | added, or a named group's kind (council, agency...)
    parcels: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    distance_ft: float | None = None
    flags: list[str] = field(default_factory=list)
    merged: list[str] = field(default_factory=list)  # the records folded into this one, and why
    country: str = ""  # "" for the United States (and APO/FPO/DPO); else the last line
    unread: str = ""  # why the record's address could not be read; its lines are then as read
    groups: list[str] = field(
        default_factory=list
    )  # the rules' groups (owners_within, agencies...)
    delivery: str = ""  # first_class | certified | email: the strictest of its groups'
    content: str = ""  # the letter its group receives (owner_letter...), "" for its kind's
    email: str = ""  # where an e-mailed notice goes

    @property
    def key(self) -> tuple[str, ...]:
        """One recipient per owner and whole mailing address: name, lines, city, state, ZIP.

        The whole address, not a part of it: one owner at two street addresses in one ZIP code
        gets two letters.
        """
        return (
            normalize_name(self.name),
            normalize_address(" ".join(self.lines)),
            normalize_address(self.city),
            self.state.upper(),
            self.zip5,
            self.country,
        )

    @property
    def mailable(self) -> bool:
        """Whether a letter can be addressed: a delivery line and a certain last line."""
        if self.unread or not self.lines:
            return False
        return bool(self.country or (self.city and self.state and self.zip5))

    @property
    def last_line(self) -> str:
        """`EAST PROVIDENCE RI 02914-1234`, or abroad the country: an address block's last line."""
        if self.country:
            return self.country
        zip_code = f"{self.zip5}-{self.zip4}" if self.zip4 else self.zip5
        return f"{self.city} {self.state} {zip_code}"

    def merge(self, other: Recipient) -> None:
        """Fold another selection of the same owner and address into this one, noting why."""
        new = [p for p in other.parcels if p not in self.parcels]
        if new or other.kind != self.kind:
            what = f"parcel {', '.join(new)}" if new else f"the {other.kind} entry"
            self.merged.append(f"{what}: same owner name and mailing address")
        self.merged += [m for m in other.merged if m not in self.merged]
        self.parcels += new
        self.rules += [r for r in other.rules if r not in self.rules]
        self.citations += [c for c in other.citations if c not in self.citations]
        self.flags += [f for f in other.flags if f not in self.flags]
        self.groups += [g for g in other.groups if g not in self.groups]
        if DELIVERY_RANK.get(other.delivery, -1) > DELIVERY_RANK.get(self.delivery, -1):
            self.delivery = other.delivery  # one person in two groups: the strictest method
        self.content = self.content or other.content
        self.email = self.email or other.email
        if other.distance_ft is not None:
            self.distance_ft = (
                other.distance_ft
                if self.distance_ft is None
                else min(self.distance_ft, other.distance_ft)
            )

    def row(self) -> dict[str, str]:
        """The recipients.csv row (its columns: `writers.CSV_FIELDS`)."""
        return {
            "recipient": self.name,
            "kind": self.kind,
            "group": "; ".join(self.groups),
            "delivery": self.delivery,
            "email": self.email,
            **self.address_row(),
            "parcels": "; ".join(self.parcels),
            "rule": "; ".join(self.rules),
            "citation": "; ".join(self.citations),
            "distance_ft": "" if self.distance_ft is None else f"{self.distance_ft:.1f}",
            "flags": "; ".join(self.flags),
            "merged": "; ".join(self.merged),
        }

    def address_row(self) -> dict[str, str]:
        """The address columns every list of recipients shares (`ADDRESS_COLUMNS`)."""
        return {
            "address_1": self.lines[0] if self.lines else "",
            "address_2": " / ".join(self.lines[1:]),
            "city": self.city,
            "state": self.state,
            "zip": self.zip5,
            "zip4": self.zip4,
            "country": self.country,
        }


ADDRESS_COLUMNS = ["address_1", "address_2", "city", "state", "zip", "zip4", "country"]


@dataclass
class RecipientList:
    """The recipients, the geometry behind them, and how they were found."""

    recipients: list[Recipient]
    provenance: dict[str, Any]
    findings: list[Finding]
    subject: Any = None  # shapely geometry in the measuring CRS
    selected: Any = None  # GeoDataFrame of selected parcels (measuring CRS)
    buffers: dict[float, Any] = field(default_factory=dict)
    crs: Any = None
    case: Any = None  # the case, with the facts the layers answered
    computed_facts: dict[str, Any] = field(default_factory=dict)

    def note_layer(self, reader: Any) -> None:
        """Record a layer read (a `LayerReader`), once however often it is read."""
        layers = self.provenance["layers"]
        if not any(x["layer"] == reader.name for x in layers):
            layers.append(reader.source.as_json())  # hashes the file: only once


def split_zip(raw: Any) -> tuple[str, str]:
    """`02914-1234` → (`02914`, `1234`); anything else is kept whole as the ZIP."""
    digits = text(raw)  # a missing ZIP (None, or NaN from a layer) is no ZIP, not "nan"
    match = re.match(r"^(\d{5})(?:-?(\d{4}))?$", digits)
    return (match.group(1), match.group(2) or "") if match else (digits, "")


def parse_address(text: str) -> tuple[list[str], str, str, str]:
    """`145 Taunton Avenue, East Providence, RI 02914` → lines, city, state, ZIP."""
    match = re.match(
        r"^(?P<lines>.+),\s*(?P<city>[^,]+),\s*(?P<state>[A-Z]{2})\s+(?P<zip>\d{5}(?:-\d{4})?)$",
        text,
    )
    if not match:
        return ([text] if text else []), "", "", ""
    lines = [part.strip() for part in match["lines"].split(",")]
    return lines, match["city"].strip(), match["state"], match["zip"]


def feet(value: Any) -> float | None:
    """A distance read from a layer or list, rounded to hundredths; None if there is none."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else round(number, 2)  # NaN is no distance


def text(value: Any) -> str:
    """A layer value as text: empty for missing values (None, NaN)."""
    if value is None or (isinstance(value, float) and value != value):  # NaN
        return ""
    return str(value).strip()
