"""Who must be notified: owners from the parcel layer and the other recipients the pack names.

Each rule of kind `recipients` selects a group — owners of the subject parcels, owners of land
within R feet of the perimeter of the subject area, abutting owners (across a street or
railroad where the law says so), owners whose lots a text change makes nonconforming, councils
and agencies found in other layers, and persons the case lists. Distances are measured from
the union of the subject parcels in the measuring CRS; a parcel any part of which lies within
R feet (at exactly R feet too) is selected. Letters go to owners, not parcels: one recipient
per normalized owner name and mailing address, listing all of that owner's parcels.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from generator.errors import UserError
from generator.findings import Finding
from generator.hashing import sha256_file
from generator.inputs import CaseFile
from generator.models.facts import Holder
from generator.models.pack import RecipientGroup, RecipientsParams
from generator.rules.loader import Binding, ResolvedPack, snapshot

# A margin around the largest distance when reading the bounding box (feet).
MARGIN_FT = 50.0
# How far across a street or railroad an "abutting" parcel may lie when the pack sets no width.
DEFAULT_CORRIDOR_FT = 150.0
# A parcel is not "across" a street from the subject when other lots cover this share of the gap.
BLOCKED_SHARE = 0.25
_SUFFIXES = {
    "STREET": "ST", "AVENUE": "AVE", "ROAD": "RD", "DRIVE": "DR", "LANE": "LN", "BOULEVARD": "BLVD",
    "COURT": "CT", "PLACE": "PL", "TERRACE": "TER", "CIRCLE": "CIR", "HIGHWAY": "HWY", "PARKWAY": "PKWY",
    "NORTH": "N", "SOUTH": "S", "EAST": "E", "WEST": "W", "SUITE": "STE", "APARTMENT": "APT",
    "POST OFFICE BOX": "PO BOX", "P O BOX": "PO BOX",
}  # fmt: skip


def normalize_name(name: str) -> str:
    """Owner names compare without case, punctuation or spacing differences."""
    return " ".join(re.sub(r"[^\w&' ]", " ", name.upper()).split())


def normalize_address(address: str) -> str:
    """Street lines compare with USPS abbreviations, without punctuation."""
    words = " ".join(re.sub(r"[.,#]", " ", address.upper()).split())
    for long, short in _SUFFIXES.items():
        words = re.sub(rf"\b{long}\b", short, words)
    return words


@dataclass
class Recipient:
    """One letter: a name, a mailing address, the parcels it concerns, and why it is sent."""

    name: str
    lines: list[str]
    city: str
    state: str
    zip5: str
    zip4: str = ""
    kind: str = "owner"  # owner | occupant | council | agency | airport | holder | registered
    parcels: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)
    distance_ft: float | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def key(self) -> tuple[str, str, str]:
        """One recipient per normalized name and mailing address."""
        return normalize_name(self.name), normalize_address(" ".join(self.lines)), self.zip5

    def merge(self, other: Recipient) -> None:
        """Fold another selection of the same owner into this one."""
        self.parcels += [p for p in other.parcels if p not in self.parcels]
        self.rules += [r for r in other.rules if r not in self.rules]
        self.citations += [c for c in other.citations if c not in self.citations]
        self.flags += [f for f in other.flags if f not in self.flags]
        if other.distance_ft is not None:
            self.distance_ft = (
                other.distance_ft
                if self.distance_ft is None
                else min(self.distance_ft, other.distance_ft)
            )

    def row(self) -> dict[str, str]:
        """The recipients.csv row."""
        return {
            "recipient": self.name,
            "kind": self.kind,
            "address_1": self.lines[0] if self.lines else "",
            "address_2": " / ".join(self.lines[1:]),
            "city": self.city,
            "state": self.state,
            "zip": self.zip5,
            "zip4": self.zip4,
            "parcels": "; ".join(self.parcels),
            "rule": "; ".join(self.rules),
            "citation": "; ".join(self.citations),
            "distance_ft": "" if self.distance_ft is None else f"{self.distance_ft:.1f}",
            "flags": "; ".join(self.flags),
        }


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
    addresses: dict[str, str] = field(default_factory=dict)  # councils' addresses from the layers


def _split_zip(raw: Any) -> tuple[str, str]:
    digits = str(raw or "").strip()
    match = re.match(r"^(\d{5})(?:-?(\d{4}))?$", digits)
    return (match.group(1), match.group(2) or "") if match else (digits, "")


def _parse_address(text: str) -> tuple[list[str], str, str, str]:
    """`145 Taunton Avenue, East Providence, RI 02914` → lines, city, state, ZIP."""
    match = re.match(
        r"^(?P<lines>.+),\s*(?P<city>[^,]+),\s*(?P<state>[A-Z]{2})\s+(?P<zip>\d{5}(?:-\d{4})?)$",
        text,
    )
    if not match:
        return ([text] if text else []), "", "", ""
    lines = [part.strip() for part in match["lines"].split(",")]
    return lines, match["city"].strip(), match["state"], match["zip"]


def _feet(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if number != number else round(number, 2)  # NaN is no distance


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and value != value):  # NaN
        return ""
    return str(value).strip()


def bindings(cf: CaseFile, pack: ResolvedPack) -> list[Binding]:
    """The recipients rules in force for any hearing of the case, once each."""
    seen: dict[str, Binding] = {}
    for hearing in cf.case.hearings:
        for b in snapshot(pack, cf.case, hearing.date).of(RecipientsParams):
            seen.setdefault(b.rule.id, b)
    return list(seen.values())


def collect(cf: CaseFile, pack: ResolvedPack) -> RecipientList:
    """Every recipient the pack's rules require for this case, with provenance.

    Facts the layers answer (another municipality within 200 ft, a water source within 2,000 ft,
    airport zones) are computed first; `result.case` carries them into the plan.
    """
    findings: list[Finding] = []
    provenance: dict[str, Any] = {"method": None, "layers": [], "rules": []}
    result = RecipientList([], provenance, findings, case=cf.case)
    gis = cf.case.gis
    reader = None
    if gis and gis.parcels:
        reader = _open_parcels(cf, pack, result)
        _facts_from_layers(cf, result)
        cf = replace(cf, case=result.case)
    rules = bindings(cf, pack)
    parcel_rules = [b for b in rules if b.params.group in _PARCEL_GROUPS]  # type: ignore[attr-defined]
    if reader is not None:
        _from_layers(cf, reader, parcel_rules, result)
    elif gis and gis.radius_list and parcel_rules:
        _from_radius_list(cf, parcel_rules, result)
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
        people += _listed(cf, b, result)
    for added in cf.case.additional_recipients:
        zip5, zip4 = _split_zip(added.address.zip)
        a = added.address
        people.append(Recipient(added.name, list(a.lines), a.city, a.state, zip5, zip4, "added", list(added.parcels),
                                flags=[f"added by hand: {added.reason}"]))  # fmt: skip
    result.recipients = _dedupe(people, cf.case.options.recipient_order)
    _flag(cf, result)
    provenance["counts"] = {
        "recipients": len(result.recipients),
        "parcels": len({p for r in result.recipients for p in r.parcels}),
    }
    return result


_PARCEL_GROUPS = {
    RecipientGroup.OWNERS_OUTSIDE_CIRCULATION,
    RecipientGroup.SUBJECT_OWNERS,
    RecipientGroup.SUBJECT_OWNER_ACTUAL_NOTICE,
    RecipientGroup.OWNERS_WITHIN,
    RecipientGroup.ABUTTING_OWNERS,
    RecipientGroup.OWNERS_MADE_NONCONFORMING,
}


def _from_radius_list(cf: CaseFile, rules: list[Binding], result: RecipientList) -> None:
    """An assessor's certified list (CSV or XLSX) stands in for the parcel layer."""
    import csv

    from generator.schedule import judged_on

    spec = cf.case.gis.radius_list  # type: ignore[union-attr]
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
    missing = [k for k, column in spec.fields.items() if column not in header]
    if missing:
        raise UserError(
            [
                cf.problem(
                    ("gis", "radius_list", "fields", k),
                    f"no column {spec.fields[k]!r} in {path.name}",
                )
                for k in missing
            ]
        )
    for raw in rows:
        row = {ours: raw.get(column) for ours, column in spec.fields.items()}
        for b in rules:
            result.recipients.extend(_owners(row, b))
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
         "rules": [{"rule": b.rule.id, "citation": "; ".join(dict.fromkeys(b.citations)), "group": b.params.group.value,  # type: ignore[attr-defined]
                    "distance_ft": b.params.distance_ft, "parcels": len(rows)} for b in rules]}  # type: ignore[attr-defined]
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


def _open_parcels(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> Any:
    """Open the parcel layer and find the subject area (the union of the subject parcels)."""
    import shapely  # heavy: imported only for GIS work

    from generator.gis.layers import LayerReader, measuring_crs

    gis = cf.case.gis
    assert gis and gis.parcels
    crs_name = gis.measure_crs or pack.measure_crs
    if not crs_name:
        raise UserError(
            cf.problem(
                ("gis", "measure_crs"),
                "give the projected CRS in feet to measure in, such as EPSG:3438",
            )
        )
    crs = measuring_crs(crs_name, "gis.measure_crs")
    reader = LayerReader(cf, "parcels", gis.parcels, crs)
    result.crs = crs
    result.provenance.update(
        {"method": "GIS parcel layer: bounding-box read through its index, then distance from the union"
                   " of the subject parcels (dwithin: a parcel at exactly the distance is within it)",
         "crs": crs.to_string()}
    )  # fmt: skip
    result.provenance["layers"].append(reader.source.as_json())
    ids = [p.id for p in cf.case.parcels]
    if ids:
        subjects = reader.read(where={"parcel_id": ids})
        found = set(subjects["parcel_id"].astype(str))
        missing = [i for i in ids if i not in found]
        if missing:
            field_name = gis.parcels.fields["parcel_id"]
            raise UserError(
                cf.problem(
                    ("parcels",),
                    f"parcel(s) {', '.join(missing)} not found in {reader.path.name} (field {field_name})",
                )
            )
        result.subject = shapely.union_all(subjects.geometry.values)
    return reader


def _from_layers(cf: CaseFile, reader: Any, rules: list[Binding], result: RecipientList) -> None:
    """Select parcels by the parcel rules and turn their owners into recipients."""
    import shapely

    ids = [p.id for p in cf.case.parcels]
    reach = max([b.params.distance_ft or 0 for b in rules] + [DEFAULT_CORRIDOR_FT])  # type: ignore[attr-defined]
    near = None
    if result.subject is not None:
        x0, y0, x1, y1 = result.subject.bounds
        pad = reach + MARGIN_FT
        near = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
        near["distance_ft"] = shapely.distance(near.geometry.values, result.subject)
    selected: dict[str, Any] = {}
    for b in rules:
        p: RecipientsParams = b.params  # type: ignore[assignment]
        rows = _select(cf, reader, p, near, ids, result.subject)
        count = 0 if rows is None else len(rows)
        for _, row in [] if rows is None else rows.iterrows():
            result.recipients.extend(_owners(row, b))
            selected[str(row["parcel_id"])] = row
        if p.distance_ft and result.subject is not None:
            result.buffers[p.distance_ft] = result.subject.buffer(p.distance_ft, quad_segs=32)
        result.provenance["rules"].append(
            {"rule": b.rule.id, "citation": "; ".join(dict.fromkeys(b.citations)), "group": p.group.value,
             "distance_ft": p.distance_ft, "parcels": count}
        )  # fmt: skip
    if selected:
        import geopandas as gpd

        result.selected = gpd.GeoDataFrame(
            list(selected.values()), geometry="geometry", crs=result.crs
        )


def _select(
    cf: CaseFile, reader: Any, p: RecipientsParams, near: Any, ids: list[str], subject: Any
) -> Any:
    """The parcels one rule selects."""
    import shapely

    group = p.group
    if group == RecipientGroup.OWNERS_MADE_NONCONFORMING:
        return _nonconforming(cf, reader)
    if near is None:
        return near
    if group in (RecipientGroup.SUBJECT_OWNERS, RecipientGroup.SUBJECT_OWNER_ACTUAL_NOTICE):
        return near[near["parcel_id"].astype(str).isin(ids)]
    if group == RecipientGroup.OWNERS_OUTSIDE_CIRCULATION:
        # G.S. 160D-602(b): with half-page ads instead of letters, owners of the affected land
        # whose tax-listing address lies outside the paper's circulation area are still mailed.
        zips = set(cf.newspaper_profile.circulation_zips) if cf.newspaper_profile else set()
        subject_rows = near[near["parcel_id"].astype(str).isin(ids)]
        town = cf.case.municipality.upper()
        outside = [
            (zips and _split_zip(z)[0] not in zips) or _text(c).upper() not in town
            for z, c in zip(subject_rows["mail_zip"], subject_rows["mail_city"], strict=True)
        ]
        return subject_rows[outside]
    if group == RecipientGroup.OWNERS_WITHIN:
        # dwithin, not buffer + intersects: a buffer's arcs are chords and miss parcels at exactly R.
        mask = shapely.dwithin(near.geometry.values, subject, p.distance_ft or 0)
        return near[mask]
    touching = shapely.dwithin(near.geometry.values, subject, 1.0)
    if not p.includes_across:
        return near[touching]
    width = p.across_streets_narrower_than_ft or DEFAULT_CORRIDOR_FT
    others = near.geometry.values
    tree = shapely.STRtree(others)
    keep = list(touching)
    for i, geom in enumerate(others):
        if keep[i] or near["distance_ft"].iloc[i] > width:
            continue
        # Across only a right-of-way: the gap where the two parcels face each other (the lens
        # where their half-distance buffers meet) is (nearly) no one's lot.
        reach = near["distance_ft"].iloc[i] / 2 + 1.0
        both = shapely.union(subject, geom)
        between = shapely.intersection(subject.buffer(reach), geom.buffer(reach)).difference(both)
        blockers = [j for j in tree.query(between, predicate="intersects") if j != i]
        covered = sum(shapely.intersection(others[j], between).area for j in blockers)
        keep[i] = between.area == 0 or covered / between.area < BLOCKED_SHARE
    return near[keep]


def _nonconforming(cf: CaseFile, reader: Any) -> Any:
    """Lots conforming before a text change and nonconforming after it (area or frontage)."""
    import pandas as pd

    amendment = cf.case.amendment
    frames = []
    if amendment.nonconforming_parcels:
        frames.append(reader.read(where={"parcel_id": amendment.nonconforming_parcels}))
    for standard in amendment.lot_standards:
        if "zoning" not in reader.fields:
            raise UserError(
                cf.problem(
                    ("gis", "parcels", "fields"),
                    "map `zoning` to find the lots a text change makes nonconforming",
                )
            )
        lots = reader.read(where={"zoning": [standard.district]})
        hit = pd.Series(False, index=lots.index)
        for attr, limits in (
            ("lot_area_sqft", standard.lot_area_sqft),
            ("frontage_ft", standard.frontage_ft),
        ):
            if limits is None:
                continue
            if attr not in reader.fields:
                raise UserError(
                    cf.problem(
                        ("gis", "parcels", "fields"),
                        f"map `{attr}` to compare lots with the new minimum",
                    )
                )
            before, after = limits
            value = pd.to_numeric(lots[attr], errors="coerce")
            hit |= (value >= before) & (value < after)
        frames.append(lots[hit])
    if not frames:
        return None
    out = pd.concat(frames)
    return out[~out["parcel_id"].duplicated()]


def _owners(row: Any, b: Binding) -> list[Recipient]:
    """The owner of a selected parcel (and an occupant letter where the pack asks for one)."""
    p: RecipientsParams = b.params  # type: ignore[assignment]
    name = _text(row.get("owner_name"))
    second = _text(row.get("owner_name2"))
    zip5, zip4 = _split_zip(row.get("mail_zip"))
    lines = [x for x in (_text(row.get("mail_address1")), _text(row.get("mail_address2"))) if x]
    distance = row.get("distance_ft")
    owner = Recipient(
        f"{name} & {second}" if second else name,
        lines,
        _text(row.get("mail_city")),
        _text(row.get("mail_state")).upper(),
        zip5,
        zip4,
        "owner",
        [str(row["parcel_id"])],
        [b.rule.id],
        list(dict.fromkeys(b.citations)),
        _feet(distance),
    )
    out = [owner]
    site = _text(row.get("site_address"))
    if p.occupants and site and normalize_address(site) != normalize_address(" ".join(lines)):
        out.append(Recipient("Occupant", [site], _text(row.get("municipality")), owner.state, "", kind="occupant",
                             parcels=[str(row["parcel_id"])], rules=[b.rule.id], citations=owner.citations))  # fmt: skip
    return out


def _listed(cf: CaseFile, b: Binding, result: RecipientList) -> list[Recipient]:
    """Recipients the case lists by name: holders, registered persons, agencies."""
    case = cf.case
    p: RecipientsParams = b.params  # type: ignore[assignment]
    cites = list(dict.fromkeys(b.citations))

    def make(name: str, address: Any, kind: str) -> Recipient:
        if hasattr(address, "lines"):
            zip5, zip4 = _split_zip(address.zip)
            return Recipient(
                name,
                list(address.lines),
                address.city,
                address.state,
                zip5,
                zip4,
                kind,
                [],
                [b.rule.id],
                cites,
            )
        address = address or result.addresses.get(name)
        lines, city, state, zip_code = _parse_address(_text(address))
        zip5, zip4 = _split_zip(zip_code)
        r = Recipient(name, lines, city, state, zip5, zip4, kind, [], [b.rule.id], cites)
        if not (lines and city):
            r.flags.append("address needed")
        return r

    group = p.group
    if group == RecipientGroup.REGISTERED_PERSONS:
        return [make(x.name, x.address, "registered") for x in case.registered_persons]
    if group == RecipientGroup.CONSERVATION_RESTRICTION_HOLDERS:
        return [
            make(h.name, h.address, "holder") for h in case.facts.conservation_restriction_holders
        ]
    if group == RecipientGroup.WATER_AGENCIES:
        return [make(h.name, h.address, "agency") for h in case.facts.water_agencies_with_survey]
    if group == RecipientGroup.COUNCILS_WITHIN:
        return [
            make(f"Council of {town}", None, "council")
            for town in case.facts.municipalities_within_200_ft
        ]
    if group == RecipientGroup.WATER_SOURCE_COUNCILS:
        return [
            make(f"Council of {town}", None, "council") for town in case.facts.water_source_towns
        ]
    if group == RecipientGroup.ABUTTING_PLANNING_AGENCIES:
        if case.facts.abutting_planning_agencies:
            return [
                make(h.name, h.address, "agency") for h in case.facts.abutting_planning_agencies
            ]
        return [
            make(f"Planning agency of {j}", None, "agency")
            for j in case.facts.abutting_jurisdictions
        ]
    if group == RecipientGroup.MILITARY_AIRPORT and case.facts.military_airport:
        return [make(case.facts.military_airport, case.facts.military_airport_address, "airport")]
    if group == RecipientGroup.OWNERS_DIRECTLY_GOVERNED:
        result.findings.append(
            Finding(
                "RCPT002",
                f"{b.rule.title}: list these recipients by hand",
                rule=b.rule.id,
                citation="; ".join(cites),
            )
        )
    return []


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


def _flag(cf: CaseFile, result: RecipientList) -> None:
    """Owners who mail outside the jurisdiction, or outside the newspaper's circulation."""
    case = cf.case
    zips = set(cf.newspaper_profile.circulation_zips) if cf.newspaper_profile else set()
    town = case.municipality.upper().removeprefix("CITY OF ").removeprefix("TOWN OF ").strip()
    home = case.jurisdiction.split("-")[1].upper()
    for r in result.recipients:
        if r.kind != "owner":
            continue
        if r.state and r.state != home:
            r.flags.append("mails out of state")
        elif r.city and r.city.upper() != town:
            r.flags.append("mails outside the municipality")
        if zips and r.zip5 and r.zip5 not in zips:
            r.flags.append("outside the newspaper's circulation area")


def _facts_from_layers(cf: CaseFile, result: RecipientList) -> None:
    """Facts the layers answer; where the case states them too and they differ, say so and keep the duty."""
    import shapely

    from generator.gis.layers import LayerReader

    gis = cf.case.gis
    subject = result.subject
    if gis is None or subject is None:
        return
    x0, y0, x1, y1 = subject.bounds
    town = cf.case.municipality.upper()
    facts = cf.case.facts
    updates: dict[str, Any] = {}
    for layer, fact, distance in _FACT_LAYERS:
        spec = getattr(gis, layer)
        if spec is None:
            continue
        reader = LayerReader(cf, layer, spec, result.crs)
        pad = max(distance, 2000.0 if layer == "municipal_boundaries" else 0.0) + MARGIN_FT
        frame = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
        if layer == "municipal_boundaries" and "council_address" in frame.columns:
            for name, address in zip(frame["name"], frame["council_address"], strict=True):
                if _text(address):  # for the councils of towns near the land or its water sources
                    result.addresses[f"Council of {name}"] = _text(address)
        if len(frame):
            frame = frame[shapely.dwithin(frame.geometry.values, subject, distance)]
        result.provenance["layers"].append(reader.source.as_json())
        if layer == "municipal_boundaries":
            names = sorted(
                {
                    str(n)
                    for n in frame["name"]
                    if town not in str(n).upper() and str(n).upper() not in town
                }
            )
            result.computed_facts[fact] = names
            stated = list(facts.municipalities_within_200_ft)
            if stated and set(stated) != set(names):
                _disagree(result, fact, stated, names)
            updates["municipalities_within_200_ft"] = sorted(set(stated) | set(names))
            continue
        computed = bool(len(frame))
        result.computed_facts[fact] = computed
        stated = getattr(facts, fact)
        if stated is not None and stated != computed:
            _disagree(result, fact, stated, computed)
        updates[fact] = bool(stated) or computed
        if fact == "water_source_within_2000_ft" and computed and "survey_filed" in frame.columns:
            filed = frame[
                [str(v).strip().lower() in ("1", "true", "yes") for v in frame["survey_filed"]]
            ]
            known = {h.name for h in facts.water_agencies_with_survey}
            found = [
                Holder(name=_text(row["agency"]), address=_text(row.get("agency_address")) or None)
                for _, row in filed.iterrows()
                if _text(row.get("agency")) and _text(row["agency"]) not in known
            ]
            updates["water_agencies_with_survey"] = [*facts.water_agencies_with_survey, *found]
        if fact == "water_source_within_2000_ft" and computed and "town" in frame.columns:
            updates["water_source_towns"] = sorted(
                set(facts.water_source_towns) | {str(t) for t in frame["town"] if _text(t)}
            )
    result.case = cf.case.model_copy(update={"facts": facts.model_copy(update=updates)})


_FACT_LAYERS = (
    ("municipal_boundaries", "municipality_within_200_ft", 200.0),
    ("water_sources", "water_source_within_2000_ft", 2000.0),
    ("military_airport_vicinity", "near_military_airport", 0.0),
    ("noise_zones", "in_high_noise_or_accident_zone", 0.0),
)


def _disagree(result: RecipientList, fact: str, stated: Any, computed: Any) -> None:
    result.findings.append(
        Finding(
            "GIS001",
            f"the case states {fact} = {stated}, but the GIS layers show {computed}; the notices"
            " either value requires are given — correct the case or the layer",
        )
    )


CSV_FIELDS = [
    "recipient",
    "kind",
    "address_1",
    "address_2",
    "city",
    "state",
    "zip",
    "zip4",
    "parcels",
    "rule",
    "citation",
    "distance_ft",
    "flags",
]


def to_csv(result: RecipientList) -> bytes:
    """recipients.csv: one row a recipient, in the list's order."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_FIELDS, lineterminator="\n")
    writer.writeheader()
    for r in result.recipients:
        writer.writerow(r.row())
    return out.getvalue().encode("utf-8")


def to_geojson(result: RecipientList) -> bytes:
    """recipients.geojson (RFC 7946, longitude/latitude): subject area, distance lines, notified parcels."""
    import json

    import geopandas as gpd
    import shapely

    rows: list[dict[str, Any]] = []
    if result.subject is not None:
        rows.append({"role": "subject", "geometry": result.subject})
    for distance, geom in sorted(result.buffers.items()):
        rows.append({"role": "distance", "distance_ft": distance, "geometry": geom})
    owners = {p: r for r in result.recipients for p in r.parcels}
    if result.selected is not None:
        for _, row in result.selected.sort_values("parcel_id").iterrows():
            pid = str(row["parcel_id"])
            r = owners.get(pid)
            rows.append(
                {
                    "role": "notified",
                    "parcel_id": pid,
                    "owner": r.name if r else _text(row.get("owner_name")),
                    "rule": "; ".join(r.rules) if r else "",
                    "distance_ft": round(float(row["distance_ft"]), 2)
                    if "distance_ft" in row and row["distance_ft"] == row["distance_ft"]
                    else None,
                    "geometry": row.geometry,
                }
            )
    frame = gpd.GeoDataFrame(rows, geometry="geometry", crs=result.crs).to_crs("EPSG:4326")
    frame["geometry"] = shapely.set_precision(frame.geometry.values, 1e-7)
    data = json.loads(frame.to_json(drop_id=True))
    return (json.dumps(data, indent=1, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8")
