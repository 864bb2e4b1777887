"""Owners from the parcel layer: the subject area, and the parcels each owner group selects.

Distances are measured from the union of the subject parcels in the measuring CRS; a parcel any
part of which lies within R feet (at exactly R feet too) is selected.
"""

from __future__ import annotations

import re
from typing import Any

from generator.errors import UserError
from generator.inputs import CaseFile
from generator.models.recipient_rules import RecipientGroup, RecipientsParams
from generator.recipients.address import MailingAddress, from_block, from_parts, normalize_line
from generator.recipients.model import Recipient, RecipientList, feet, normalize_name, text
from generator.rules.loader import Binding, ResolvedPack

# A margin around the largest distance when reading the bounding box (feet).
MARGIN_FT = 50.0
# How far across a street or railroad an "abutting" parcel may lie when the pack sets no width.
DEFAULT_CORRIDOR_FT = 150.0
# A parcel is not "across" a street from the subject when other lots cover this share of the gap.
BLOCKED_SHARE = 0.25
# The addressee of a letter to a parcel whose record names no owner, as the Postal Service and
# clerks address such mail; never an empty addressee. The clerk is told (RCPT006).
UNNAMED_OWNER = "Current Owner"
NO_NAME = "no owner name in the record"
NO_ADDRESS = "no complete mailing address in the record"


def open_parcels(cf: CaseFile, pack: ResolvedPack, result: RecipientList) -> Any:
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
    unit = gis.measure_unit if gis.measure_crs else pack.measure_unit
    crs = measuring_crs(crs_name, "gis.measure_crs", unit)
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


def from_layers(
    cf: CaseFile, reader: Any, rules: list[Binding[RecipientsParams]], result: RecipientList
) -> None:
    """Select parcels by the owner rules and turn their owners into recipients."""
    ids = [p.id for p in cf.case.parcels]
    near = near_subject(reader, result.subject, [b.params for b in rules])
    selected: dict[str, Any] = {}
    for b in rules:
        p = b.params
        rows = select(cf, reader, p, near, ids, result.subject)
        count = 0 if rows is None else len(rows)
        for _, row in [] if rows is None else rows.iterrows():
            result.recipients.extend(owners_of(row, b, _unknown_circulation(cf, p)))
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


def near_subject(reader: Any, subject: Any, params: list[RecipientsParams]) -> Any:
    """The parcels within reach of the subject area of any of `params`, with their distance."""
    import shapely

    if subject is None:
        return None
    reach = max([p.distance_ft or 0 for p in params] + [DEFAULT_CORRIDOR_FT])
    x0, y0, x1, y1 = subject.bounds
    pad = reach + MARGIN_FT
    near = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
    near["distance_ft"] = shapely.distance(near.geometry.values, subject)
    return near


_SUBJECT = (
    RecipientGroup.SUBJECT_OWNERS,
    RecipientGroup.SUBJECT_OWNER_ACTUAL_NOTICE,
    RecipientGroup.OWNER_IF_NOT_APPLICANT,
)


def select(
    cf: CaseFile, reader: Any, p: RecipientsParams, near: Any, ids: list[str], subject: Any
) -> Any:
    """The parcels one rule selects (None: no subject area to measure from)."""
    import shapely

    group = p.group
    if group == RecipientGroup.OWNERS_MADE_NONCONFORMING:
        return _nonconforming(cf, reader)
    if near is None:
        return near
    if group in _SUBJECT:
        rows = near[near["parcel_id"].astype(str).isin(ids)]
        if group == RecipientGroup.OWNER_IF_NOT_APPLICANT and len(rows):
            # The record's owners other than the applicant: an applicant who owns one of the
            # parcels is sent the applicant's notice, not the owner's.
            applicant = normalize_name(cf.case.applicant.name)
            rows = rows[[normalize_name(text(n)) != applicant for n in rows["owner_name"]]]
        return rows[mailed_outside(cf, rows, p.mailing_address_outside)] if len(rows) else rows
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


def mailed_outside(cf: CaseFile, rows: Any, areas: list[str]) -> list[bool]:
    """Which owners' mailing addresses lie outside one of `areas`; all of them if no area is named.

    Without the newspaper's circulation ZIP codes (its profile's `circulation_zips`) no owner
    can be shown to live inside the circulation area, so every owner counts as outside it; so
    does an owner abroad, or one whose address cannot be read: mailed rather than missed.
    """
    if not areas:
        return [True] * len(rows)
    zips = set(cf.newspaper_profile.circulation_zips) if cf.newspaper_profile else set()
    town = cf.case.municipality.upper()
    out = []
    for _, row in rows.iterrows():
        mail = mailing_address(row)
        outside = bool(mail.problem or mail.country)
        if "newspaper_circulation" in areas:
            outside = outside or not zips or mail.zip5 not in zips
        if "municipality" in areas:
            outside = outside or not mail.city or mail.city not in town
        out.append(outside)
    return out


def _unknown_circulation(cf: CaseFile, p: RecipientsParams) -> list[str]:
    """The flag owners get when they are mailed because the circulation area is unknown."""
    known = bool(cf.newspaper_profile and cf.newspaper_profile.circulation_zips)
    if "newspaper_circulation" in p.mailing_address_outside and not known:
        return ["newspaper's circulation area unknown: mailed"]
    return []


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


def mailing_address(row: Any) -> MailingAddress:
    """The owner's mailing address in a parcel row, in whichever shape the layer gives it.

    A free-form block (`mail_lines`) is read as one; split fields, with "CITY ST ZIP" in one
    field or not, are read part by part. A care-of field becomes the first line.
    """
    careof = text(row.get("mail_careof"))
    if careof and not re.match(r"(?i)(c/o|%|attn|care of)\b", careof):
        careof = f"C/O {careof}"
    block = row.get("mail_lines")
    if block is not None and not isinstance(block, str) and len(block):
        return from_block([careof, *(text(x) for x in block)])
    return from_parts(
        [careof, text(row.get("mail_address1")), text(row.get("mail_address2"))],
        city=text(row.get("mail_city")),
        state=text(row.get("mail_state")),
        zip_code=text(row.get("mail_zip")),
        country=text(row.get("mail_country")),
        city_state_zip=text(row.get("mail_city_state_zip")),
    )


def _street_given(row: Any) -> bool:
    """Whether the record gives an address line (a block, or a street or box line) to read."""
    block = row.get("mail_lines")
    if block is not None and not isinstance(block, str) and any(text(x) for x in block):
        return True
    return any(text(row.get(k)) for k in ("mail_address1", "mail_address2"))


def owners_of(
    row: Any, b: Binding[RecipientsParams], flags: list[str] | None = None
) -> list[Recipient]:
    """The owner of a selected parcel (and an occupant letter where the pack asks for one)."""
    p = b.params
    name = text(row.get("owner_name"))
    second = text(row.get("owner_name2"))
    mail = mailing_address(row)
    distance = row.get("distance_ft")
    named = f"{name} & {second}" if name and second else name or second
    owner = Recipient(
        named or UNNAMED_OWNER,
        list(mail.lines),
        mail.city,
        mail.state,
        mail.zip5,
        mail.zip4,
        "owner",
        [str(row["parcel_id"])],
        [b.rule.id],
        list(dict.fromkeys(b.citations)),
        feet(distance),
        list(flags or []),
        country=mail.country,
        unread=mail.problem if _street_given(row) else "",  # no street line at all: RCPT005
    )
    owner.flags += [NO_NAME] if not named else []
    owner.flags += [] if owner.mailable or owner.unread else [NO_ADDRESS]
    out = [owner]
    site = text(row.get("site_address"))
    if p.occupants and site and normalize_line(site) != normalize_line(" ".join(mail.lines)):
        out.append(Recipient("Occupant", [normalize_line(site)], text(row.get("municipality")), owner.state, "", kind="occupant",
                             parcels=[str(row["parcel_id"])], rules=[b.rule.id], citations=owner.citations))  # fmt: skip
    return out
