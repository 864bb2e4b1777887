"""The groups the case and the pack name rather than the parcel layer selects by distance.

The applicant (from the case), the owner when the applicant is not the owner (the case's
`owners`, else the record's owners of the subject parcels other than the applicant), and the
groups of bodies — service agencies, state agencies, abutting municipalities — found by the
pack's `list`, the case's `names` and a GIS `layer`, all of them. A group the product cannot
fill (no applicant address, a layer the case does not map, no list that names anyone) is a
finding (RCPT008), never a silent omission.
"""

from __future__ import annotations

from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.recipient_rules import (
    BODY_GROUPS,
    GroupLayer,
    RecipientGroup,
    RecipientsParams,
)
from generator.recipients.listed import emails_of, entries, recipient
from generator.recipients.model import Recipient, RecipientList, text
from generator.recipients.owners import MARGIN_FT
from generator.rules.loader import Binding


def from_case(cf: CaseFile, b: Binding[RecipientsParams], result: RecipientList) -> list[Recipient]:
    """The recipients of a group the case and the pack name (none for the other groups)."""
    group = b.params.group
    if group == RecipientGroup.APPLICANT:
        return _applicant(cf, b, result)
    if group == RecipientGroup.OWNER_IF_NOT_APPLICANT:
        return owners_named(cf, b) or []
    if group in BODY_GROUPS:
        return _bodies(cf, b, result)
    return []


def owners_named(cf: CaseFile, b: Binding[RecipientsParams]) -> list[Recipient] | None:
    """The owners an `owner_if_not_applicant` group takes from the case; None: read the record.

    An applicant who owns the land is sent no owner's notice; owners the case lists with an
    address are the clerk's word; otherwise the record of the subject parcels is read.
    """
    case = cf.case
    if b.params.group != RecipientGroup.OWNER_IF_NOT_APPLICANT:
        return None
    if case.applicant.is_owner:
        return []
    listed = [o for o in case.owners if o.address]
    if not listed:
        return None
    return [recipient(o.name, o.address, "owner", b) for o in listed]


def _applicant(
    cf: CaseFile, b: Binding[RecipientsParams], result: RecipientList
) -> list[Recipient]:
    applicant = cf.case.applicant
    email = b.params.delivery == "email"
    if applicant.address is None and not (email and applicant.email):
        result.findings.append(
            unfilled(b, "the case gives no address for the applicant (`applicant.address`)")
        )
        return []
    r = recipient(applicant.name, applicant.address, b.params.kind, b)
    r.email = applicant.email or ""
    return [r]


def _bodies(cf: CaseFile, b: Binding[RecipientsParams], result: RecipientList) -> list[Recipient]:
    """The bodies of the pack's list, the case's names and the layer's features, all of them."""
    p = b.params
    out = []
    for body in p.listed:
        r = recipient(body.name, body.address, p.kind, b)
        r.email = body.email or ""
        out.append(r)
    for source in p.names:  # the first source that names anyone, as a named group reads them
        found = entries(cf.case, source)
        if found:
            emails = emails_of(cf.case, source)
            for name, address in found:
                r = recipient(source.pattern.replace("{name}", name), address, p.kind, b)
                r.email = emails.get(name, "")
                out.append(r)
            break
    else:
        if p.names and not (p.listed or p.layer):
            where = ", ".join(f"`{s.from_}`" for s in p.names)
            result.findings.append(unfilled(b, f"the case names no one under {where}"))
    if p.layer:
        out += _from_layer(cf, b, p.layer, result)
    return out


def check_email(
    b: Binding[RecipientsParams], people: list[Recipient], result: RecipientList
) -> None:
    """A group the law lets be e-mailed needs each recipient's e-mail address (RCPT008)."""
    if b.params.delivery != "email":
        return
    for r in people:
        if not r.email:
            r.flags.append("e-mail address needed")
            result.findings.append(
                unfilled(b, f"{r.name}: the notice goes by e-mail, and no address is given")
            )


def _from_layer(
    cf: CaseFile, b: Binding[RecipientsParams], layer: GroupLayer, result: RecipientList
) -> list[Recipient]:
    """The bodies whose features in the layer lie within `within_ft` of the subject land."""
    gis = cf.case.gis
    spec = getattr(gis, layer.name, None) if gis else None
    if spec is None:
        result.findings.append(unfilled(b, f"the case maps no `gis.{layer.name}` layer"))
        return []
    if result.subject is None:
        result.findings.append(
            unfilled(
                b,
                f"without `gis.parcels` and subject parcels the land cannot be measured against"
                f" `gis.{layer.name}`",
            )
        )
        return []
    import shapely

    from generator.gis.layers import LayerReader

    fields = layer.fields
    name_field = fields.name if fields else "name"
    address_field = fields.address if fields else None
    if name_field not in spec.fields or (address_field and address_field not in spec.fields):
        wanted = ", ".join(x for x in (name_field, address_field) if x)
        result.findings.append(
            unfilled(b, f"the case's `gis.{layer.name}` layer does not map {wanted}")
        )
        return []
    reader = LayerReader(cf, layer.name, spec, result.crs)
    x0, y0, x1, y1 = result.subject.bounds
    pad = layer.within_ft + MARGIN_FT
    frame = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
    result.note_layer(reader)
    if len(frame):
        # Touching counts as "in": a municipality whose line the land abuts lies at 0 ft.
        frame = frame[shapely.dwithin(frame.geometry.values, result.subject, layer.within_ft)]
    town = cf.case.municipality.upper()
    out: dict[str, Recipient] = {}
    for _, row in frame.iterrows():
        name = text(row.get(name_field))
        if not name or name in out:
            continue
        own = town in name.upper() or name.upper() in town
        if b.params.group == RecipientGroup.ABUTTING_MUNICIPALITIES and own:
            continue  # the case's own municipality gives the notice; it does not receive it
        address = text(row.get(address_field)) if address_field else ""
        out[name] = recipient(name, address or None, b.params.kind, b)
    return [out[name] for name in sorted(out)]


def unfilled(b: Binding[RecipientsParams], why: str) -> Finding:
    """RCPT008: a group the law requires that the product cannot fill, and why."""
    return Finding(
        "RCPT008",
        f"{b.rule.title}: {why}, so the {b.params.group.value.replace('_', ' ')} group the law"
        " requires cannot be listed in full — complete the case (or the layer), or list them by"
        " hand under `additional_recipients`",
        rule=b.rule.id,
        citation="; ".join(dict.fromkeys(b.citations)),
    )
