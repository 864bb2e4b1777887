"""Facts about the land that decide which notices the law requires.

The GIS capability computes several of these from layers; a case may state them. Where both
exist and disagree, the plan warns and names both values.
"""

from __future__ import annotations

from pydantic import Field

from generator.models.base import CaseModel


class Holder(CaseModel):
    """A holder of a recorded conservation or preservation restriction, or an agency."""

    name: str
    address: str | None = None


class Facts(CaseModel):
    """Stated facts that triggers read. `None` means "not stated"."""

    in_high_noise_or_accident_zone: bool | None = None
    near_military_airport: bool | None = None
    military_airport: str | None = None
    military_airport_address: str | None = Field(
        None, description='Where its notice goes: "street, city, ST ZIP".'
    )
    abutting_planning_agencies: list[Holder] = Field(
        default_factory=list,
        description="The planning agencies of abutting jurisdictions, with addresses.",
    )
    abutting_jurisdictions: list[str] = Field(
        default_factory=list, description="Other municipalities or counties the land abuts."
    )
    municipalities_within_200_ft: list[str] = Field(default_factory=list)
    water_source_within_2000_ft: bool | None = None
    water_source_towns: list[str] = Field(default_factory=list)
    water_agencies_with_survey: list[Holder] = Field(default_factory=list)
    conservation_restriction_holders: list[Holder] = Field(default_factory=list)
    properties_affected: int | None = Field(
        None,
        ge=0,
        description="Stated by the clerk: used for a pack's computed fact of this id instead of"
        " the count (and for packs that test the stated fact).",
    )
    distinct_owners: int | None = Field(
        None,
        ge=0,
        description="Stated by the clerk: used for a pack's computed fact of this id instead of"
        " the count.",
    )
    service_agencies: list[Holder] = Field(
        default_factory=list,
        description="Service agencies (utilities, school districts) the clerk names, with"
        " addresses: an `agencies` group's `names: [{from: facts.service_agencies}]`.",
    )
    state_agencies: list[Holder] = Field(
        default_factory=list, description="State agencies the clerk names, with addresses."
    )
    computed: dict[str, float] = Field(
        default_factory=dict,
        description="Values of the pack's `computed_facts` the clerk states (`owners_to_mail:"
        " 1200`): used instead of counting, and the plan says so.",
    )
    land_owned_by_municipality: bool | None = None
    filed_by_owners_of_half_the_land: bool | None = None
