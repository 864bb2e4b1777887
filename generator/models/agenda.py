"""An agenda file: the cases one body hears on one date, published as one legal notice."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from generator.models.base import SHORT, CaseDate, Model, Title
from generator.models.case import Body


class Agenda(Model):
    """The cases heard before one body at one meeting, in the order the agenda takes them.

    ```yaml
    schema_version: 1
    body: council
    date: 2027-06-07
    title: Public hearings of the Shelby City Council
    cases:
      - ../cases/shelby-2027-cd-01.yaml
      - ../cases/shelby-2027-text-01.yaml
    ```
    """

    schema_version: Literal[1] = Field(1, description="The shape the file was written for.")
    body: Body = Field(
        description="The body that hears every case (`council`, `planning`, `hearing_officer`);"
        " each case must list a hearing before it on `date`."
    )
    date: CaseDate = Field(description="The day of the meeting, YYYY-MM-DD.")
    title: Title | None = Field(
        None,
        description="A heading printed under the notice's title; default: the body's hearings"
        " on the date.",
    )
    cases: list[Annotated[str, Field(min_length=1, max_length=SHORT)]] = Field(
        min_length=1,
        max_length=100,
        description="The case files heard, relative to the agenda file, in agenda order.",
    )
