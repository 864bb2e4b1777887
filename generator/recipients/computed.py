"""Facts counted over the recipients and parcels, as the packs declare them (`computed_facts:`).

Counted before the rules are judged, since rules turn on them ("more than 1,000 owners would be
mailed"): `of: subject` counts the case's subject parcels, `of: <rule id>` what that owner rule
selects in the parcel layer, whether or not its own `when` holds. A value the clerk states
(`facts.computed.<id>`, or the case's `facts.<id>` for the older stated counts) is used instead
of the count, and the plan says which was used; one neither counted nor stated is unknown.
"""

from __future__ import annotations

from typing import Any

from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.case import Case
from generator.models.conditions import COMPUTED
from generator.models.facts import Facts
from generator.models.recipient_rules import ComputedFact, RecipientsParams
from generator.recipients.model import RecipientList, normalize_address, normalize_name, text
from generator.recipients.owners import mailing_address, near_subject, select
from generator.rules.loader import ResolvedPack, snapshot

SQFT_PER_ACRE = 43_560.0


def count_facts(cf: CaseFile, pack: ResolvedPack, reader: Any, result: RecipientList) -> None:
    """Count the pack's computed facts; `result.case` carries the values the rules will test."""
    declared = pack.computed_facts
    if not declared:
        return
    case = result.case or cf.case
    facts = case.facts
    values = dict(facts.computed)
    report = []
    for fact in declared:
        counted, how = _count(cf, pack, reader, result, fact)
        stated, where = _stated(facts, fact.id)
        if stated is not None:
            value, source = stated, f"stated in the case ({where}), used instead of the count"
            if counted == stated:
                source += f", which agrees ({how})"
            if counted is not None and counted != stated:
                result.findings.append(
                    Finding(
                        "FACT003",
                        f"computed.{fact.id}: the case states {stated:g} ({where}), and {how}"
                        f" gives {counted:g}; the stated value is used — correct the case or"
                        " remove it to use the count",
                        citation=fact.citation,
                    )
                )
        elif counted is not None:
            value, source = counted, how
        else:
            value, source = None, f"unknown: {how}"
        if value is not None:
            values[fact.id] = value
        report.append({"id": fact.id, "value": value, "source": source, "counted": counted})
        result.findings.append(
            Finding(
                "FACT001",
                f"computed.{fact.id}"
                + (f" = {value:g}" if value is not None else " is unknown")
                + f" ({fact.title or _measure(fact)}): {source}",
                citation=fact.citation,
            )
        )
    result.provenance["computed_facts"] = report
    result.case = case.model_copy(update={"facts": facts.model_copy(update={"computed": values})})


def _measure(fact: ComputedFact) -> str:
    what = {"owners": "owners", "parcels": "parcels", "units": "dwelling units"}
    if fact.count:
        thing = what[fact.count]
        return f"the number of {thing} of {fact.of}"
    return f"the {'area in acres' if fact.sum == 'area_acres' else 'dwelling units'} of {fact.of}"


def _stated(facts: Facts, fact_id: str) -> tuple[float | None, str]:
    """The value the clerk states for a computed fact, and where."""
    if fact_id in facts.computed:
        return facts.computed[fact_id], f"facts.computed.{fact_id}"
    if fact_id in Facts.model_fields and fact_id in facts.model_fields_set:
        value = getattr(facts, fact_id)
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value), f"facts.{fact_id}"
    return None, ""


def _count(
    cf: CaseFile, pack: ResolvedPack, reader: Any, result: RecipientList, fact: ComputedFact
) -> tuple[float | None, str]:
    """The count or sum, and how it was made (or why it could not be)."""
    case = cf.case
    ids = [p.id for p in case.parcels]
    if fact.of == "subject":
        if not ids:
            return None, "the case names no subject parcels"
        if fact.measure == "parcels":
            return float(len(ids)), f"the {len(ids)} subject parcels the case lists"
        if reader is None or result.subject is None:
            return _from_case(case, fact)
        rows = reader.read(where={"parcel_id": ids})
        return _over(rows, fact, f"the subject parcels in {reader.path.name}")
    rule = pack.rule(fact.of)
    params = rule.params
    assert isinstance(params, RecipientsParams)  # checked when the pack is resolved
    if reader is None or result.subject is None:
        return None, f"no parcel layer (`gis.parcels`) to select {fact.of}'s owners from"
    near = near_subject(reader, result.subject, [params])
    rows = select(cf, reader, params, near, ids, result.subject)
    if rows is None:
        return None, f"{fact.of} selects no parcels to count"
    return _over(rows, fact, f"the parcels {fact.of} ({rule.title}) selects in {reader.path.name}")


def _over(rows: Any, fact: ComputedFact, what: str) -> tuple[float | None, str]:
    """Count or sum over parcel rows read from the layer."""
    measure = fact.measure
    if measure == "parcels":
        n = len(set(rows["parcel_id"].astype(str)))
        return float(n), f"{n} parcels: {what}"
    if measure == "owners":
        keys = {_owner_key(row) for _, row in rows.iterrows()}
        return float(len(keys)), (
            f"{len(keys)} distinct owners (name and mailing address) of {_parcels(len(rows))}: {what}"
        )
    if measure == "area_acres":
        acres = round(float(rows.geometry.area.sum()) / SQFT_PER_ACRE, 2)
        return acres, f"{acres:g} acres, the mapped area of {_parcels(len(rows))}: {what}"
    if "units" not in rows.columns:
        return None, f"the parcel layer maps no `units` field to count the dwelling units of {what}"
    units = [text(u) for u in rows["units"]]
    if any(not u for u in units):
        return None, f"some parcels have no `units` value: {what}"
    total = sum(float(u) for u in units)
    return total, f"{total:g} dwelling units on {len(rows)} parcels: {what}"


def _owner_key(row: Any) -> tuple[str, ...]:
    """One owner per name and mailing address, as the recipient list merges them."""
    mail = mailing_address(row)
    names = [text(row.get("owner_name")), text(row.get("owner_name2"))]
    return (
        normalize_name(" & ".join(n for n in names if n)),
        normalize_address(" ".join(mail.lines)),
        mail.zip5,
    )


def _from_case(case: Case, fact: ComputedFact) -> tuple[float | None, str]:
    """Owners or area of the subject parcels as the case states them, where it states them all."""
    parcels = case.parcels
    if fact.measure == "owners":
        if all(p.owner for p in parcels):
            n = len({normalize_name(p.owner or "") for p in parcels})
            return float(n), f"{n} distinct owners the case names for its {len(parcels)} parcels"
        return None, "no parcel layer, and the case does not name the owner of every parcel"
    if fact.measure == "area_acres":
        if all(p.area for p in parcels):
            acres = sum(
                p.area.value if p.area.unit == "acres" else p.area.value / SQFT_PER_ACRE
                for p in parcels
                if p.area
            )
            return round(acres, 2), f"the areas the case states for its {len(parcels)} parcels"
        return None, "no parcel layer, and the case does not state the area of every parcel"
    return None, "no parcel layer (`gis.parcels`) to count the dwelling units in"


def unknown_findings(case: Case, pack: ResolvedPack, result: RecipientList) -> None:
    """FACT002 for each computed fact that is unknown and left a rule's `when` undecided."""
    if not pack.computed_facts:
        return
    seen: dict[str, list[str]] = {}
    for hearing in case.hearings:
        for fact, rule_id in snapshot(pack, case, hearing.date).unknown:
            seen.setdefault(fact, [])
            if rule_id not in seen[fact]:
                seen[fact].append(rule_id)
    how = {x["id"]: x["source"] for x in result.provenance.get("computed_facts", [])}
    for fact, rule_ids in seen.items():
        fact_id = fact.removeprefix(COMPUTED)
        rules = "; ".join(f"{i} ({pack.rule(i).title})" for i in rule_ids)
        result.findings.append(
            Finding(
                "FACT002",
                f"{fact} is {how.get(fact_id, 'unknown')}, so whether {rules} applies cannot be"
                " decided; it is applied, as the law may require it — map the parcel layer or"
                f" state the value under `facts.computed.{fact_id}`",
                rule=rule_ids[0],
                citation=pack.rule(rule_ids[0]).citation,
            )
        )


def _parcels(n: int) -> str:
    """`1 parcel`, `3 parcels`."""
    return f"{n} parcel{'' if n == 1 else 's'}"
