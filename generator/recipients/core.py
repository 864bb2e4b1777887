"""Collecting the recipient list: facts from layers, owners, named recipients, then one per owner."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.recipient_rules import OWNER_GROUPS, RecipientsParams
from generator.recipients.layer_facts import facts_from_layers
from generator.recipients.listed import from_radius_list, listed
from generator.recipients.model import (
    Recipient,
    RecipientList,
    normalize_address,
    normalize_name,
    split_zip,
)
from generator.recipients.owners import from_layers, open_parcels
from generator.rules.loader import Binding, ResolvedPack, snapshot


def bindings(cf: CaseFile, pack: ResolvedPack) -> list[Binding[RecipientsParams]]:
    """The recipients rules in force for any hearing of the case, once each."""
    seen: dict[str, Binding[RecipientsParams]] = {}
    for hearing in cf.case.hearings:
        for b in snapshot(pack, cf.case, hearing.date).of(RecipientsParams):
            seen.setdefault(b.rule.id, b)
    return list(seen.values())


def collect(cf: CaseFile, pack: ResolvedPack) -> RecipientList:
    """Every recipient the pack's rules require for this case, with provenance.

    The facts the pack has the layers answer (`layer_facts`) are computed first, since rules
    turn on them; `result.case` carries them into the plan.
    """
    findings: list[Finding] = []
    provenance: dict[str, Any] = {"method": None, "layers": [], "rules": []}
    result = RecipientList([], provenance, findings, case=cf.case)
    gis = cf.case.gis
    reader = None
    if gis and gis.parcels:
        reader = open_parcels(cf, pack, result)
        facts_from_layers(cf, pack, result)
        cf = replace(cf, case=result.case)
    rules = bindings(cf, pack)
    parcel_rules = [b for b in rules if b.params.group in OWNER_GROUPS]
    if reader is not None:
        from_layers(cf, reader, parcel_rules, result)
    elif gis and gis.radius_list and parcel_rules:
        from_radius_list(cf, parcel_rules, result)
    elif parcel_rules:
        findings.append(
            Finding(
                "RCPT001",
                "the pack requires owners' letters but the case names no parcel layer (`gis.parcels`):"
                " the owners cannot be listed",
                rule=parcel_rules[0].rule.id,
                citation="; ".join(parcel_rules[0].citations),
            )
        )
    people = list(result.recipients)
    for b in rules:
        people += listed(cf, b, result)
    for added in cf.case.additional_recipients:
        zip5, zip4 = split_zip(added.address.zip)
        a = added.address
        people.append(Recipient(added.name, list(a.lines), a.city, a.state, zip5, zip4, "added", list(added.parcels),
                                flags=[f"added by hand: {added.reason}"]))  # fmt: skip
    result.recipients = _dedupe(people, cf.case.options.recipient_order)
    _flag(cf, pack, result)
    provenance["counts"] = {
        "recipients": len(result.recipients),
        "parcels": len({p for r in result.recipients for p in r.parcels}),
    }
    return result


def _dedupe(people: list[Recipient], order: str) -> list[Recipient]:
    merged: dict[tuple[str, str, str], Recipient] = {}
    for person in people:
        if person.key in merged:
            merged[person.key].merge(person)
        else:
            merged[person.key] = person
    out = list(merged.values())
    if order == "street":
        return sorted(
            out, key=lambda r: (normalize_address(" ".join(r.lines)), normalize_name(r.name))
        )
    return sorted(out, key=lambda r: (normalize_name(r.name), r.key))


def _flag(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> None:
    """Owners who mail outside the state, the municipality, or the newspaper's circulation."""
    case = cf.case
    zips = set(cf.newspaper_profile.circulation_zips) if cf.newspaper_profile else set()
    town = case.municipality.upper().removeprefix("CITY OF ").removeprefix("TOWN OF ").strip()
    home = pack.state
    for r in result.recipients:
        if r.kind != "owner":
            continue
        if r.state and home and r.state != home:
            r.flags.append("mails out of state")
        elif r.city and r.city.upper() != town:
            r.flags.append("mails outside the municipality")
        if zips and r.zip5 and r.zip5 not in zips:
            r.flags.append("outside the newspaper's circulation area")
