"""Recipients the case lists rather than the parcel layer: named groups, and a radius list.

A `named` group takes its names from a case path its rule gives (a fact the clerk states or a
layer answered, the registered persons), words each name by the rule's pattern ("Council of
{name}"), and takes the address from the case, or from a layer that holds it.
"""

from __future__ import annotations

from typing import Any

from generator.errors import UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.inputs import CaseFile
from generator.models.case import Case
from generator.models.layers import columns_of, lines_of
from generator.models.recipient_rules import (
    AddressLookup,
    NameSource,
    RecipientGroup,
    RecipientsParams,
)
from generator.recipients.model import Recipient, RecipientList, parse_address, split_zip, text
from generator.recipients.owners import owners_of
from generator.rules.loader import Binding


def listed(cf: CaseFile, b: Binding[RecipientsParams], result: RecipientList) -> list[Recipient]:
    """The recipients a rule names through the case: a named group, or those listed by hand."""
    p = b.params
    cites = list(dict.fromkeys(b.citations))
    if p.group == RecipientGroup.OWNERS_DIRECTLY_GOVERNED:
        result.findings.append(
            Finding(
                "RCPT002",
                f"{b.rule.title}: list these recipients by hand",
                rule=b.rule.id,
                citation="; ".join(cites),
            )
        )
        return []
    if p.group != RecipientGroup.NAMED:
        return []
    for source in p.names:  # the first source that names anyone; the rest are fallbacks
        named = entries(cf.case, source)
        if named:
            break
    else:
        return []
    if source.address_from_layer:
        missing = [name for name, address in named if not address]
        found = _addresses_from_layer(cf, result, source.address_from_layer, missing)
        named = [(name, address or found.get(name)) for name, address in named]
    kind = p.recipient_kind or "named"
    emails = emails_of(cf.case, source)
    out = []
    for name, address in named:
        r = recipient(source.pattern.replace("{name}", name), address, kind, b)
        r.email = emails.get(name, "")
        out.append(r)
    return out


def emails_of(case: Case, source: NameSource) -> dict[str, str]:
    """The e-mail addresses the case gives the entries a source names (registered persons)."""
    value = _value(case, source.from_)
    if not isinstance(value, list):
        return {}
    return {
        item.name: item.email
        for item in value
        if not isinstance(item, str) and getattr(item, "email", None)
    }


def _value(case: Case, path: str) -> Any:
    """The value at a dotted case path (`facts.water_source_towns`), None where a step is."""
    value: Any = case
    for part in path.split("."):
        value = getattr(value, part, None)
        if value is None:
            return None
    return value


def entries(case: Case, source: NameSource) -> list[tuple[str, Any]]:
    """The names a source finds in the case, each with its address if the case gives one."""
    value = _value(case, source.from_)
    if not value:
        return []
    if isinstance(value, str):
        return [(value, _value(case, source.address) if source.address else None)]
    return [
        (item, None) if isinstance(item, str) else (item.name, getattr(item, "address", None))
        for item in value
    ]


def _addresses_from_layer(
    cf: CaseFile, result: RecipientList, lookup: AddressLookup, names: list[str]
) -> dict[str, str]:
    """Addresses of named places, from the layer feature of each name, wherever it lies."""
    gis = cf.case.gis
    spec = getattr(gis, lookup.layer, None) if gis else None
    if not names or spec is None or result.crs is None or lookup.field not in spec.fields:
        return {}
    from generator.gis.layers import LayerReader

    reader = LayerReader(cf, lookup.layer, spec, result.crs)
    frame = reader.read(where={"name": names})
    result.note_layer(reader)
    return {
        text(name): text(address)
        for name, address in zip(frame["name"], frame[lookup.field], strict=True)
        if text(address)
    }


def recipient(name: str, address: Any, kind: str, b: Binding) -> Recipient:
    """A recipient the case or pack names; one whose address is unknown is flagged for the clerk."""
    cites = list(dict.fromkeys(b.citations))
    if hasattr(address, "lines"):
        zip5, zip4 = split_zip(address.zip)
        lines, city, state = list(address.lines), address.city, address.state
        return Recipient(name, lines, city, state, zip5, zip4, kind, [], [b.rule.id], cites)
    lines, city, state, zip_code = parse_address(text(address))
    zip5, zip4 = split_zip(zip_code)
    r = Recipient(name, lines, city, state, zip5, zip4, kind, [], [b.rule.id], cites)
    if not (lines and city):
        r.flags.append("address needed")
    return r


def from_radius_list(
    cf: CaseFile, rules: list[Binding[RecipientsParams]], result: RecipientList
) -> None:
    """An assessor's certified list (CSV or XLSX) stands in for the parcel layer."""
    import csv

    from generator.schedule import judged_on

    spec = cf.case.gis.radius_list if cf.case.gis else None
    assert spec
    path = cf.resolve(spec.path)
    where = ("gis", "radius_list", "path")
    if not path.is_file():
        raise UserError(cf.problem(where, f"no such file: {path}"))
    try:
        if path.suffix.lower() == ".xlsx":
            import openpyxl

            sheet = openpyxl.load_workbook(path, read_only=True, data_only=True).active
            values = list(sheet.iter_rows(values_only=True))
            header = [str(h or "").strip() for h in values[0]]
            rows = [dict(zip(header, row, strict=False)) for row in values[1:]]
        else:
            with path.open(encoding="utf-8-sig", newline="") as handle:
                rows = list(csv.DictReader(handle))
                header = list(rows[0]) if rows else []
    except Exception as exc:  # any reading failure means an unreadable list
        raise UserError(cf.problem(where, f"cannot read {path.name}: {exc}")) from None
    missing = [
        (k, column)
        for k, theirs in spec.fields.items()
        for column in columns_of(theirs)
        if column not in header
    ]
    if missing:
        raise UserError(
            [
                cf.problem(
                    ("gis", "radius_list", "fields", k), f"no column {column!r} in {path.name}"
                )
                for k, column in missing
            ]
        )
    for raw in rows:
        row = {
            ours: lines_of([raw.get(c) for c in theirs])
            if isinstance(theirs, list)
            else raw.get(theirs)
            for ours, theirs in spec.fields.items()
        }
        for b in rules:
            result.recipients.extend(owners_of(row, b))
    age = None
    if spec.as_of:
        age = (judged_on(cf.case) - spec.as_of).days
        result.findings.append(
            Finding(
                "RCPT003",
                f"the owners come from the assessor's radius list as of {spec.as_of.isoformat()}, {age} days old",
            )
        )
    else:
        result.findings.append(
            Finding(
                "RCPT004",
                "give the radius list's as-of date (`gis.radius_list.as_of`): the record must show how old it is",
            )
        )
    result.provenance.update(
        {"method": "assessor's certified radius list", "age_days": age,
         "rules": [{"rule": b.rule.id, "citation": "; ".join(dict.fromkeys(b.citations)), "group": b.params.group.value,
                    "distance_ft": b.params.distance_ft, "parcels": len(rows)} for b in rules]}
    )  # fmt: skip
    digest = sha256_file(path)
    as_of = spec.as_of.isoformat() if spec.as_of else None
    result.provenance["layers"].append(
        {
            "layer": "radius_list",
            "path": str(path),
            "layer_name": None,
            "crs": None,
            "sha256": digest,
            "as_of": as_of,
        }
    )
