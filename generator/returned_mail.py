"""Letters returned undeliverable: what the law requires next, the re-mailing, the proof's list.

The record lists the returned letters (`record.returned_mail[].letters`: a CSV with a
`parcel_id` or an `address` column, the street line the letter went to). Each row is matched to
the letter mailed; the pack's `returned_mail` rule says what follows: nothing (a person's
failure to receive notice does not invalidate the action), a re-mailing to another address the
tax record holds, or nothing the law says (a finding). Another address is the parcel's site
address; the tax record gives it without city or ZIP Code, so those are the ones the
neighbouring owners on the same street are mailed at, and the finding says so.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.pack import ReturnedMailParams
from generator.prepare import Prepared
from generator.recipients import Recipient
from generator.recipients.address import normalize_line
from generator.rules.loader import Binding, snapshot

# How far around a parcel the owners mailed on its street are looked for (a ZIP Code is far larger).
NEIGHBOURS_FT = 2000.0
_HOUSE_NUMBER = re.compile(r"^\d+[A-Z]?(-\d+)?\s+")


@dataclass(frozen=True)
class Piece:
    """One returned letter: as mailed, what the law makes of it, and where it can go next."""

    mailed: Recipient
    received_on: date
    where: str  # file:line of the row that lists it
    rule: Binding[ReturnedMailParams] | None
    remail: Recipient | None
    zip_from: str | None  # the parcels whose owners' ZIP Code the re-mailing borrows

    @property
    def next(self) -> str:
        """What follows: `nothing`, `remail` or `silent` (no rule counts as silent)."""
        return self.rule.params.next if self.rule else "silent"

    def finding(self) -> Finding:
        """What the law makes of this returned letter."""
        who = f"{self.mailed.name} ({', '.join(self.mailed.parcels) or 'no parcel'})"
        rule_id = self.rule.rule.id if self.rule else None
        citation = "; ".join(dict.fromkeys(self.rule.citations)) if self.rule else None
        if self.next == "nothing":
            again = (
                f" a re-mailing to {self._to()} is written" if self.remail else " no other address"
            )
            return Finding(
                "RET001",
                f"The letter to {who} came back ({self.where}): the law requires nothing more;"
                f"{again}{self._borrowed()}.",
                rule_id,
                citation,
            )
        if self.remail is None:
            return Finding(
                "RET003",
                f"The letter to {who} came back ({self.where}); the tax record holds no other"
                " address to send it to.",
                rule_id,
                citation,
            )
        if self.next == "remail":
            return Finding(
                "RET004",
                f"The letter to {who} came back ({self.where}): the law has it mailed again to"
                f" another address of record; the re-mailing to {self._to()} is written"
                f"{self._borrowed()}.",
                rule_id,
                citation,
            )
        return Finding(
            "RET002",
            f"The letter to {who} came back ({self.where}); the law says nothing of what follows:"
            f" a re-mailing to {self._to()}, the site address in the tax record, is written"
            f"{self._borrowed()}.",
            rule_id,
            citation,
        )

    def _to(self) -> str:
        r = self.remail
        return ", ".join([*r.lines, r.city, r.state, r.zip5]) if r else ""

    def _borrowed(self) -> str:
        if not self.zip_from:
            return ""
        return (
            f" (city and ZIP Code as the owners of {self.zip_from} on the same street are mailed:"
            " confirm them)"
        )


def returned(prepared: Prepared) -> list[Piece]:
    """Every returned letter the record lists, matched to the letter mailed (bad rows: exit 2)."""
    cf = prepared.case_file
    record = prepared.case.record
    if record is None or not record.returned_mail:
        return []
    mailed = prepared.recipients.recipients
    rows: list[tuple[Recipient, date, str]] = []
    problems: list[Problem] = []
    for i, entry in enumerate(record.returned_mail):
        path = cf.resolve(entry.letters)
        if not path.is_file():
            problems.append(cf.problem(("record", "returned_mail", i, "letters"), "no such file"))
            continue
        reader = csv.DictReader(io.StringIO(path.read_text(encoding="utf-8-sig")))
        fields = {f.strip().lower(): f for f in reader.fieldnames or []}
        if not {"parcel_id", "address"} & set(fields):
            problems.append(
                Problem(str(path), 1, None, "", "needs a `parcel_id` or an `address` column")
            )
            continue
        for row in reader:
            line = reader.line_num
            found = _match(mailed, row, fields)
            if isinstance(found, str):
                problems.append(Problem(str(path), line, None, found, _NO_MATCH[found]))
            else:
                rows.append((found, entry.received_on, f"{path.name}:{line}"))
    if problems:
        raise UserError(problems)
    others = _other_addresses(cf, prepared, [r for r, _, _ in rows])
    out = []
    for r, received_on, where in rows:
        remail, zip_from = others.get(id(r), (None, None))
        out.append(Piece(r, received_on, where, _rule(prepared, r), remail, zip_from))
    return out


_NO_MATCH = {
    "parcel_id": "no letter was mailed to the owner of this parcel",
    "address": "no letter was mailed to this address",
}


def _match(mailed: list[Recipient], row: dict[str, Any], fields: dict[str, str]) -> Recipient | str:
    """The letter a row names (by parcel id, else by the street line it went to); else the field."""
    parcel = (row.get(fields.get("parcel_id", ""), "") or "").strip()
    if parcel:
        hits = [r for r in mailed if r.kind == "owner" and parcel in r.parcels]
        return hits[0] if hits else "parcel_id"
    address = normalize_line((row.get(fields.get("address", ""), "") or "").strip())
    hits = [r for r in mailed if address and normalize_line(" ".join(r.lines)) == address]
    return hits[0] if hits else "address"


def _rule(prepared: Prepared, r: Recipient) -> Binding[ReturnedMailParams] | None:
    """The returned-mail rule for the letter's hearing; a rule that says something wins."""
    found: list[Binding[ReturnedMailParams]] = []
    for doc in prepared.plan.documents:
        if r in prepared.recipients_of(doc):
            found += snapshot(prepared.pack, prepared.case, doc.hearing.date).of(ReturnedMailParams)
    found.sort(key=lambda b: b.params.next == "silent")
    return found[0] if found else None


def _other_addresses(
    cf: CaseFile, prepared: Prepared, returned: list[Recipient]
) -> dict[int, tuple[Recipient | None, str | None]]:
    """For each returned owner letter, the parcel's site address, where it is another address."""
    gis = cf.case.gis
    ids = sorted({p for r in returned for p in r.parcels})
    if not ids or gis is None or gis.parcels is None:
        return {}
    from generator.gis.layers import LayerReader, measuring_crs  # GIS only when needed

    pack = prepared.pack
    crs_name = gis.measure_crs or pack.measure_crs
    if not crs_name:
        return {}
    unit = gis.measure_unit if gis.measure_crs else pack.measure_unit
    reader = LayerReader(cf, "parcels", gis.parcels, measuring_crs(crs_name, "", unit))
    parcels = reader.read(where={"parcel_id": ids})
    out: dict[int, tuple[Recipient | None, str | None]] = {}
    for r in returned:
        rows = parcels[parcels["parcel_id"].astype(str).isin(r.parcels)]
        if rows.empty or "site_address" not in rows:
            continue
        site = normalize_line(str(rows.iloc[0]["site_address"] or ""))
        if not site or site == normalize_line(" ".join(r.lines)):
            continue  # the letter went to the site address: the record has no other
        near = reader.read(bbox=tuple(rows.iloc[0].geometry.buffer(NEIGHBOURS_FT).bounds))
        street = _HOUSE_NUMBER.sub("", site)
        same = [
            n
            for _, n in near.iterrows()
            if _HOUSE_NUMBER.sub("", normalize_line(str(n.get("mail_address1") or ""))) == street
            and str(n.get("mail_zip") or "")[:5].isdigit()
        ]
        if not same:
            continue
        (city, state, zip5), _ = Counter(
            (str(n["mail_city"]), str(n["mail_state"]), str(n["mail_zip"])[:5]) for n in same
        ).most_common(1)[0]
        lenders = sorted(
            str(n["parcel_id"])
            for n in same
            if (str(n["mail_city"]), str(n["mail_state"]), str(n["mail_zip"])[:5])
            == (city, state, zip5)
        )
        remail = replace(r, lines=[site], city=city, state=state, zip5=zip5, zip4="", country="")
        out[id(r)] = (remail, ", ".join(lenders[:3]))
    return out
