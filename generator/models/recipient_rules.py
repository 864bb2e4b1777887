"""Who must be sent a notice and where they are found, and the facts a GIS layer answers.

The owner groups are selected from the parcel layer by geometry; the `named` group takes the
persons a case path lists (a fact the clerk states, or one a layer answers as a pack's
`layer_facts` declare it).
"""

from __future__ import annotations

from enum import StrEnum
from types import UnionType
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import ConfigDict, Field, model_validator

from generator.models.base import Model, prose, stricter


class RecipientGroup(StrEnum):
    """Who receives a mailed notice or a transmittal.

    The owner groups are found in the parcel layer by geometry; `named` takes the persons a case
    path lists (a fact the clerk states or a GIS layer answers), as its rule's `names` say.
    """

    SUBJECT_OWNERS = "subject_owners"
    OWNERS_WITHIN = "owners_within"
    ABUTTING_OWNERS = "abutting_owners"
    OWNERS_MADE_NONCONFORMING = "owners_made_nonconforming"
    OWNERS_DIRECTLY_GOVERNED = "owners_directly_governed"
    SUBJECT_OWNER_ACTUAL_NOTICE = "subject_owner_actual_notice"
    NAMED = "named"
    # The case's applicant, and the owners of the subject land when the applicant is not one.
    APPLICANT = "applicant"
    OWNER_IF_NOT_APPLICANT = "owner_if_not_applicant"
    # Bodies found by a list (the pack's `list`, or the case's `names`) or by a GIS layer.
    AGENCIES = "agencies"
    STATE_AGENCIES = "state_agencies"
    ABUTTING_MUNICIPALITIES = "abutting_municipalities"


# The groups whose owners are selected from the parcel layer (or an assessor's radius list).
OWNER_GROUPS = frozenset(
    {
        RecipientGroup.SUBJECT_OWNERS,
        RecipientGroup.SUBJECT_OWNER_ACTUAL_NOTICE,
        RecipientGroup.OWNERS_WITHIN,
        RecipientGroup.ABUTTING_OWNERS,
        RecipientGroup.OWNERS_MADE_NONCONFORMING,
        RecipientGroup.OWNER_IF_NOT_APPLICANT,
    }
)
# The groups of bodies, found by a list or a layer.
BODY_GROUPS = frozenset(
    {
        RecipientGroup.AGENCIES,
        RecipientGroup.STATE_AGENCIES,
        RecipientGroup.ABUTTING_MUNICIPALITIES,
    }
)
# What a group's recipients are (the CSV's `kind`), when the rule does not say.
GROUP_KIND = {
    RecipientGroup.APPLICANT: "applicant",
    RecipientGroup.AGENCIES: "agency",
    RecipientGroup.STATE_AGENCIES: "agency",
    RecipientGroup.ABUTTING_MUNICIPALITIES: "council",
}

RecipientKind = Literal["council", "agency", "airport", "holder", "registered", "applicant"]
# How a group is sent its notice; e-mail only where the pack cites the law that allows it.
Delivery = Literal["first_class", "certified", "email"]
# The strictest delivery wins when one person is in two groups.
DELIVERY_RANK = {"email": 0, "first_class": 1, "certified": 2}
# The letters a group may receive (`templates/_base/letter_phrases.j2` words each), or the kind
# of document its notice rule makes.
Content = Literal["owner_letter", "applicant_letter", "agency_letter", "letters", "transmittal"]


def _optional(annotation: Any) -> Any:
    """`X | None` → `X`."""
    args = [a for a in get_args(annotation) if a is not type(None)]
    union = get_origin(annotation) in (UnionType, Union)
    return args[0] if union and len(args) == 1 else annotation


def _name_shape(annotation: Any) -> str | None:
    """Whether a case field holds one name, a list of names, or a list of named entries."""
    annotation = _optional(annotation)
    if annotation is str:
        return "name"
    if get_origin(annotation) is list:
        (item,) = get_args(annotation)
        if item is str:
            return "names"
        if isinstance(item, type) and issubclass(item, Model) and "name" in item.model_fields:
            return "entries"
    return None


def _check_layer_fields(layer: str, fields: list[str]) -> None:
    from generator.models.layers import LAYERS

    others = [k for k in LAYERS if k not in ("parcels", "radius_list")]
    if layer not in others:
        raise ValueError(f"unknown layer {layer!r}; one of {', '.join(others)}")
    required, optional = LAYERS[layer]
    for name in fields:
        if name not in (*required, *optional):
            known = ", ".join((*required, *optional))
            raise ValueError(f"the {layer} layer has no field {name!r}; its fields: {known}")


class AddressLookup(Model):
    """A GIS layer that gives a named recipient's address when the case gives none."""

    layer: str = Field(description="A layer under the case's `gis:`, matched by its `name` field.")
    field: str = Field(description="Our name of the layer field that holds the address.")

    @model_validator(mode="after")
    def _known(self) -> AddressLookup:
        _check_layer_fields(self.layer, [self.field])
        return self


class NameSource(Model):
    """Where a `named` group finds its recipients in the case, and how it names them."""

    from_: str = Field(
        alias="from",
        description="A case path to a name, a list of names, or a list of entries with `name`"
        " and `address`: `facts.water_source_towns`, `registered_persons`.",
    )
    pattern: str = Field(
        "{name}",
        description='The recipient\'s name; `{name}` is the name found: "Council of {name}".',
    )
    address: str | None = Field(
        None, description="A case path to the address, when `from` names a single recipient."
    )
    address_from_layer: AddressLookup | None = None

    @model_validator(mode="after")
    def _paths(self) -> NameSource:
        from generator.models.case import Address, field_type

        if "{name}" not in self.pattern or self.pattern.count("{") != 1:
            raise ValueError("pattern must contain {name} (and no other braces)")
        shape = _name_shape(field_type(self.from_))
        if shape is None:
            raise ValueError(
                f"from: {self.from_!r} is not a case field that holds a name, a list of names or"
                " a list of entries with a name"
            )
        if self.address is not None:
            if shape != "name":
                raise ValueError("address: only when `from` names a single recipient")
            held = field_type(self.address)
            if _name_shape(held) != "name" and _optional(held) is not Address:
                raise ValueError(f"address: {self.address!r} is not a case field with an address")
        return self


class HolderFields(Model):
    """The layer fields a list of holders (a name and an address each) is read from."""

    name: str
    address: str | None = None


class ListedBody(Model):
    """A body a pack lists by name: a school district, a utility, a state agency."""

    name: str = Field(min_length=1)
    address: str | None = Field(None, description='Where its notice goes: "street, city, ST ZIP".')
    email: str | None = Field(None, description="Where its notice is e-mailed, if the law allows.")


class GroupLayer(Model):
    """A GIS layer whose features near the land are the group's bodies (`layer:`).

    Written as the layer's name alone (`layer: water_sources`), its `name` field names each body;
    in full, `fields` says which layer fields give the name and the address, and `within_ft`
    how far from the land a feature may lie (0: the land lies in or touches it).
    """

    name: str = Field(description="A layer under the case's `gis:`.")
    fields: HolderFields | None = Field(
        None, description="The layer fields of the name and the address (default: `name`)."
    )
    within_ft: float = Field(0, ge=0, description="0: the land lies in or touches a feature.")

    @model_validator(mode="before")
    @classmethod
    def _short(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value

    @model_validator(mode="after")
    def _known(self) -> GroupLayer:
        f = self.fields
        _check_layer_fields(self.name, [f.name, *([f.address] if f.address else [])] if f else [])
        return self


class RecipientsParams(Model):
    """Who must be sent a notice, how they are found, how it is sent and what they receive."""

    # `list:` is the field `listed`; merging a local rule's params writes it by its name.
    model_config = ConfigDict(**Model.model_config | {"populate_by_name": True})

    notice: str = Field(description="The id of the notice rule these recipients receive.")
    group: RecipientGroup
    distance_ft: float | None = Field(None, gt=0, json_schema_extra=stricter("max"))
    measured_from: Literal["perimeter", "exterior_boundary", "property"] | None = None
    includes_across: list[Literal["street", "railroad", "transportation_corridor", "alley"]] = (
        Field(default_factory=list, json_schema_extra=stricter("union"))
    )
    across_streets_narrower_than_ft: float | None = None
    crosses_municipal_boundaries: bool = Field(False, json_schema_extra=stricter("or"))
    address_source: str | None = prose()
    requires_filing: str | None = prose()
    occupants: bool = Field(False, json_schema_extra=stricter("or"))
    mailing_address_outside: list[Literal["newspaper_circulation", "municipality"]] = Field(
        default_factory=list,
        description="Only the owners whose mailing address lies outside one of these areas.",
        json_schema_extra=stricter("union"),
    )
    names: list[NameSource] = Field(
        default_factory=list,
        description="For `named`: where the names come from; the first source that names anyone"
        " is used, the later ones are fallbacks.",
    )
    recipient_kind: RecipientKind | None = Field(
        None, description="For `named`: what the recipients are (the CSV's `kind`)."
    )
    delivery: Delivery | None = Field(
        None,
        description="How the group is sent its notice: first_class, certified, or email (only"
        " with `email_allowed`). Default: the notice rule's `mail_class`, else the case's"
        " `mail.mail_class`.",
    )
    email_allowed: str | None = Field(
        None,
        min_length=1,
        description="The citation of the law that lets this group be sent its notice by e-mail.",
    )
    content: Content | None = Field(
        None,
        description="Which letter the group receives (owner_letter, applicant_letter,"
        " agency_letter), or the kind of document its notice rule makes (letters,"
        " transmittal). Default: the letter of the recipients' kind.",
    )
    listed: list[ListedBody] = Field(
        default_factory=list,
        alias="list",
        description="For agencies, state_agencies, abutting_municipalities: the bodies the law"
        " or the pack names, with their addresses.",
    )
    layer: GroupLayer | None = Field(
        None,
        description="For agencies, state_agencies, abutting_municipalities: a GIS layer whose"
        " features in or near the land are the bodies (a name, or {name, fields, within_ft}).",
    )

    @model_validator(mode="after")
    def _group_params(self) -> RecipientsParams:
        named = self.group == RecipientGroup.NAMED
        bodies = self.group in BODY_GROUPS
        if named and not (self.names and self.recipient_kind):
            raise ValueError("a named group needs `names` and `recipient_kind`")
        if not (named or bodies) and (self.names or self.recipient_kind):
            raise ValueError(
                "`names` and `recipient_kind` belong to the named group and the groups of bodies"
            )
        if not bodies and (self.listed or self.layer):
            raise ValueError(
                "`list` and `layer` belong to the groups agencies, state_agencies and"
                " abutting_municipalities"
            )
        if bodies and not (self.listed or self.layer or self.names):
            raise ValueError(f"the {self.group.value} group needs `list`, `layer` or `names`")
        if self.mailing_address_outside and self.group not in OWNER_GROUPS:
            raise ValueError("mailing_address_outside filters an owner group")
        if self.delivery == "email" and not self.email_allowed:
            raise ValueError(
                "delivery: email needs `email_allowed:`, the citation of the law that allows it"
            )
        if self.email_allowed and self.delivery != "email":
            raise ValueError("`email_allowed` goes with delivery: email")
        return self

    @property
    def kind(self) -> str:
        """What the group's recipients are: the CSV's `kind`."""
        return self.recipient_kind or GROUP_KIND.get(self.group, "owner")


class ComputedFact(Model):
    """A fact counted or summed over the recipients or parcels of the case (`computed_facts:`).

    `of: subject` counts over the subject parcels; `of: <rule id>` over what that recipients
    rule selects (whether or not its own `when` holds: the law asks how many would be mailed).
    Conditions test it as `computed.<id>`; unknown (no parcel layer) is unknown, never false.
    """

    id: str = Field(pattern=r"^[a-z][a-z0-9_]{0,40}$")
    count: Literal["owners", "parcels", "units"] | None = Field(
        None,
        description="owners (distinct name and mailing address), parcels, or dwelling units"
        " (the parcel layer's `units` field).",
    )
    sum: Literal["area_acres", "units"] | None = Field(
        None, description="area_acres: the parcels' area; units: their dwelling units."
    )
    of: str = Field(
        description="`subject` (the case's parcels), or the id of a recipients rule of owners."
    )
    title: str | None = Field(None, description="A short name, for `explain` and the plan.")
    citation: str | None = Field(None, description="The law that counts it, if it says how.")

    @model_validator(mode="after")
    def _one_measure(self) -> ComputedFact:
        if (self.count is None) == (self.sum is None):
            raise ValueError("give `count:` or `sum:`, one of them")
        return self

    @property
    def measure(self) -> str:
        """Units / owners / parcels / area_acres."""
        return self.count or self.sum or ""


class LayerFact(Model):
    """A case fact that a GIS layer answers: the features that lie within a distance of the land.

    A yes/no fact is true when any feature lies within `within_ft`; a list fact collects the
    `names` (one layer field) or the `holders` (a name and an address) of those features. The
    law that sets the distance is cited as a rule's is.
    """

    fact: str = Field(description="A field under the case's `facts:`.")
    layer: str = Field(description="A layer under the case's `gis:`.")
    within_ft: float = Field(ge=0, description="0: the land lies in a feature.")
    measured_from: Literal["perimeter", "property"] | None = None
    names: str | None = Field(
        None, description="The layer field whose values a list of names holds."
    )
    holders: HolderFields | None = None
    only_where: list[str] = Field(
        default_factory=list,
        description="Layer fields that must be true (1, true, yes) for a feature to count.",
    )
    except_own_municipality: bool = Field(
        False, description="Leave out the names of the case's own municipality."
    )
    compare_with_case: bool = Field(
        True, description="Warn when the case states the fact and the layer shows otherwise."
    )
    title: str = Field(min_length=1)
    citation: str = Field(min_length=1)
    text: str = Field(
        min_length=1, description="The law that sets the distance, quoted or paraphrased."
    )

    @model_validator(mode="after")
    def _fits_the_fact(self) -> LayerFact:
        from generator.models.facts import Facts, Holder

        info = Facts.model_fields.get(self.fact)
        if info is None:
            raise ValueError(
                f"fact: {self.fact!r} is not a case fact; known: {', '.join(Facts.model_fields)}"
            )
        held = _optional(info.annotation)
        if held is bool:
            want = "yes_no"
        elif held == list[str]:
            want = "names"
        elif held == list[Holder]:
            want = "holders"
        else:
            raise ValueError(f"fact: {self.fact!r} is not a yes/no fact or a list a layer can fill")
        have = "names" if self.names else "holders" if self.holders else "yes_no"
        if self.names and self.holders:
            raise ValueError("give `names` or `holders`, not both")
        if have != want:
            need = {
                "yes_no": "neither `names` nor `holders`",
                "names": "`names`",
                "holders": "`holders`",
            }
            raise ValueError(f"the case fact {self.fact} takes {need[want]}")
        fields = [*self.only_where, *([self.names] if self.names else [])]
        if self.holders:
            fields += [self.holders.name, *([self.holders.address] if self.holders.address else [])]
        _check_layer_fields(self.layer, fields)
        return self
