"""Collecting the recipient list: facts from layers, owners, named recipients, then one per owner."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.recipient_rules import OWNER_GROUPS, RecipientsParams
from generator.recipients.address import military
from generator.recipients.computed import count_facts, unknown_findings
from generator.recipients.groups import check_email, from_case, owners_named
from generator.recipients.layer_facts import facts_from_layers, unanswered_facts
from generator.recipients.listed import from_radius_list, listed
from generator.recipients.model import (
    Recipient,
    RecipientList,
    normalize_address,
    normalize_name,
    split_zip,
)
from generator.recipients.owners import NO_NAME, from_layers, open_parcels
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
    stated = cf.case  # the facts as the case states them, before the layers answer
    findings: list[Finding] = []
    provenance: dict[str, Any] = {"method": None, "layers": [], "rules": []}
    result = RecipientList([], provenance, findings, case=cf.case)
    gis = cf.case.gis
    reader = None
    if gis and gis.parcels:
        reader = open_parcels(cf, pack, result)
        facts_from_layers(cf, pack, result)
        cf = replace(cf, case=result.case)
    # Counted before the rules are judged: rules turn on them ("more than 1,000 owners").
    count_facts(cf, pack, reader, result)
    cf = replace(cf, case=result.case)
    rules = bindings(cf, pack)
    parcel_rules = [
        b for b in rules if b.params.group in OWNER_GROUPS and owners_named(cf, b) is None
    ]
    if reader is not None:
        from_layers(cf, reader, parcel_rules, result)
    elif gis and gis.radius_list and parcel_rules:
        from_radius_list(cf, parcel_rules, result)
    else:
        findings += [_no_owner_source(b) for b in parcel_rules]
    people = list(result.recipients)
    for b in rules:
        found = listed(cf, b, result) + from_case(cf, b, result)
        check_email(b, found, result)
        people += found
    _delivered(cf, pack, rules, people)
    mail_class = cf.case.mail.mail_class
    for added in cf.case.additional_recipients:
        zip5, zip4 = split_zip(added.address.zip)
        a = added.address
        people.append(Recipient(added.name, list(a.lines), a.city, a.state, zip5, zip4, "added", list(added.parcels),
                                flags=[f"added by hand: {added.reason}"], groups=["added"], delivery=mail_class))  # fmt: skip
    result.recipients = _dedupe(people, cf.case.options.recipient_order)
    _check_letters(cf, pack, result)
    unanswered_facts(stated, pack, result)
    unknown_findings(cf.case, pack, result)
    _flag(cf, pack, result)
    provenance["counts"] = {
        "recipients": len(result.recipients),
        "parcels": len({p for r in result.recipients for p in r.parcels}),
        "merged": sum(len(r.merged) for r in result.recipients),
    }
    return result


def _delivered(
    cf: CaseFile,
    pack: ResolvedPack,
    rules: list[Binding[RecipientsParams]],
    people: list[Recipient],
) -> None:
    """Each recipient's group, how it is sent its notice, and which letter it receives.

    The group's `delivery`, else the `mail_class` of the notice it receives, else the case's
    `mail.mail_class`.
    """
    by_id = {i: b for b in rules for i in b.ids}
    for r in people:
        b = next((by_id[i] for i in r.rules if i in by_id), None)
        if b is None:
            continue
        p = b.params
        notice = getattr(pack.rule(p.notice).params, "mail_class", None)
        r.groups = [p.group.value]
        r.delivery = p.delivery or notice or cf.case.mail.mail_class
        r.content = p.content or ""


def _no_owner_source(b: Binding[RecipientsParams]) -> Finding:
    """RCPT001: an owner rule in force, and no parcel layer or list to find its owners in."""
    return Finding(
        "RCPT001",
        f"{b.rule.title}: the law requires letters to these owners, but the case names no parcel"
        " layer (`gis.parcels`) or assessor's list (`gis.radius_list`) to find them in, so no"
        " owner can be listed or mailed",
        rule=b.rule.id,
        citation="; ".join(dict.fromkeys(b.citations)),
    )


def _dedupe(people: list[Recipient], order: str) -> list[Recipient]:
    merged: dict[tuple[str, ...], Recipient] = {}
    # By parcel, so that what is merged into what does not hang on the order a store reads rows in.
    for person in sorted(people, key=lambda p: p.parcels):
        # Owners without an address share no address: one per parcel, never merged into one.
        key = person.key if person.lines else (*person.key, *person.parcels)
        if key in merged:
            merged[key].merge(person)
        else:
            merged[key] = person
    out = list(merged.values())
    if order == "street":
        return sorted(
            out, key=lambda r: (normalize_address(" ".join(r.lines)), normalize_name(r.name))
        )
    return sorted(out, key=lambda r: (normalize_name(r.name), r.key))


def _check_letters(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> None:
    """Every recipient the law requires gets a letter with an addressee and an address, or an error.

    An owner whose record lacks a name or an address is left out when the clerk has listed the
    owner of each of its parcels by hand (`additional_recipients` with `parcels`): the hand-made
    entry stands in for the incomplete record.
    """
    by_hand = {p for added in cf.case.additional_recipients for p in added.parcels}
    kept = []
    for r in result.recipients:
        incomplete = not r.mailable or NO_NAME in r.flags
        if r.kind == "owner" and incomplete and r.parcels and set(r.parcels) <= by_hand:
            continue
        kept.append(r)
        if not r.rules or not incomplete:
            continue  # added by hand: the case gives a name and an address
        parcels = f"parcel {', '.join(r.parcels)}" if r.parcels else ""
        who = ", ".join(x for x in (parcels, "" if NO_NAME in r.flags else r.name) if x)
        law = "; ".join(f"{i} ({pack.rule(i).title})" for i in r.rules)
        cite = {"rule": r.rules[0], "citation": "; ".join(r.citations)}
        fix = (
            "correct the record (the parcel layer or the assessor's list), or list the owner of"
            f" record by hand under `additional_recipients` with `parcels: [{', '.join(r.parcels)}]`"
            if r.parcels
            else "give the address in the case"
        )
        if r.unread:
            result.findings.append(
                Finding(
                    "RCPT007",
                    f"{who}: the record's mailing address “{' / '.join(r.lines)}” cannot be"
                    f" read for certain: {r.unread}. No letter is addressed from a guess, so"
                    f" none is mailed as {law} requires: {fix}",
                    **cite,
                )
            )
        elif not r.mailable:
            source = "the record" if r.parcels else "the case"
            missing = "names no owner and gives" if NO_NAME in r.flags else "gives"
            result.findings.append(
                Finding(
                    "RCPT005",
                    f"{who}: {source} {missing} no complete mailing address (street, city,"
                    f" state, ZIP), so no letter can be mailed as {law} requires: {fix}",
                    **cite,
                )
            )
        else:
            result.findings.append(
                Finding(
                    "RCPT006",
                    f"{who}: the record names no owner, so the letter {law} requires is"
                    f" addressed to {r.name} at {', '.join(r.lines)}, {r.city} {r.state}"
                    f" {r.zip5}: find the owner of record and {fix[0].lower() + fix[1:]}",
                    **cite,
                )
            )
    result.recipients = kept


def _flag(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> None:
    """Owners who mail outside the state, the municipality, or the newspaper's circulation."""
    case = cf.case
    zips = set(cf.newspaper_profile.circulation_zips) if cf.newspaper_profile else set()
    town = case.municipality.upper().removeprefix("CITY OF ").removeprefix("TOWN OF ").strip()
    home = pack.state
    for r in result.recipients:
        if r.kind != "owner":
            continue
        if r.country:
            r.flags.append("mails outside the United States")
        elif military(r.state):
            r.flags.append("mails to a military post office (APO/FPO/DPO)")
        elif r.state and home and r.state != home:
            r.flags.append("mails out of state")
        elif r.city and r.city.upper() != town:
            r.flags.append("mails outside the municipality")
        if zips and r.zip5 and r.zip5 not in zips:
            r.flags.append("outside the newspaper's circulation area")
