"""The record of a case: what actually happened after the packet, each fact with its evidence.

The case plans the notice; the record says what was done: the day each insertion ran and the
paper's affidavit, the day letters were mailed and how many, the days a sign stood and where,
the hearing as held (closed, or continued to a date), the vote, protests filed, letters that
came back. Deadlines the law counts from an event are counted from the recorded event; where an
event is not yet recorded, from the plan, and the report says so.

A hearing is named by its body and, where the case has two hearings before one body, its
planned date (`hearing: council` or `hearing: {body: council, date: 2027-05-04}`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field, model_validator

from generator.models.base import CaseDate, CaseModel, Link


class HearingName(CaseModel):
    """Which planned hearing an entry is about: its body and, where needed, its planned date."""

    body: Literal["council", "planning", "hearing_officer"]
    date: CaseDate | None = None

    @model_validator(mode="before")
    @classmethod
    def _body_alone(cls, data: Any) -> Any:
        return {"body": data} if isinstance(data, str) else data


class Publication(CaseModel):
    """One insertion as it ran in the paper."""

    hearing: HearingName
    ran_on: CaseDate = Field(description="The issue the notice actually appeared in.")
    newspaper: str | None = None
    affidavit: Link | None = Field(None, description="The paper's affidavit of publication.")


class Mailing(CaseModel):
    """Letters as mailed: to owners, or copies of the notice sent to bodies and agencies."""

    hearing: HearingName
    kind: Literal["letters", "transmittal"] = Field(
        "letters",
        description="Letters to owners and others the mailed notice names, or the copies of the"
        " notice the law has sent to bodies and agencies (transmittals).",
    )
    mailed_on: CaseDate
    count: int = Field(ge=0, description="Pieces mailed, as the proof of mailing counts them.")
    evidence: Link | None = Field(
        None, description="Certificate of mailing, PS Form 3877, receipt."
    )


class Posting(CaseModel):
    """A sign or posted notice as it stood."""

    hearing: HearingName
    kind: Literal["sign", "posting", "website"]
    posted_on: CaseDate
    removed_on: CaseDate | None = None
    places: list[str] = Field(default_factory=list)
    photographs: list[Link] = Field(default_factory=list)


class Member(CaseModel):
    """A member of the body who could not vote, and why (a conflict of interest, absence)."""

    name: str = Field(min_length=1)
    reason: Literal["conflict", "absent", "vacancy"]


class VoteRecord(CaseModel):
    """The body's vote on the amendment."""

    full_membership: int = Field(ge=1, description="Seats on the body, vacant or not.")
    vacancies: int = Field(0, ge=0)
    unable_to_vote: list[Member] = Field(default_factory=list)
    ayes: int = Field(ge=0)
    nays: int = Field(ge=0)
    voted_on: CaseDate


class Held(CaseModel):
    """A hearing as held: closed, or continued (to a date announced at the hearing, or not)."""

    hearing: HearingName
    held_on: CaseDate
    closed: bool = Field(description="The hearing was closed (the record of testimony ended).")
    continued_to: CaseDate | None = None
    continuance_announced: bool = Field(
        False, description="The new date, time and place were announced at the hearing."
    )
    vote: VoteRecord | None = None
    decision_on: CaseDate | None = None


class Protest(CaseModel):
    """A protest petition as filed."""

    filed_at: datetime = Field(description="Date and time filed with the clerk.")
    signers: Link = Field(description="CSV or GeoJSON of the parcels whose owners signed.")


class Returned(CaseModel):
    """Letters that came back undeliverable."""

    received_on: CaseDate
    letters: Link = Field(description="CSV of the returned letters: parcel ids or addresses.")


class Record(CaseModel):
    """What happened after the packet, in the order a clerk records it."""

    publications: list[Publication] = Field(default_factory=list)
    mailings: list[Mailing] = Field(default_factory=list)
    postings: list[Posting] = Field(default_factory=list)
    hearings: list[Held] = Field(default_factory=list)
    protests: list[Protest] = Field(default_factory=list)
    returned_mail: list[Returned] = Field(default_factory=list)
