"""A newspaper profile (`data/newspapers/<id>.yaml`): a paper's days, deadlines and page.

Cases name a profile instead of repeating what the paper's rate card says. What a case states
itself wins over its profile. The page geometry is what display-ad sizes are measured against.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from generator.models.base import Model
from generator.models.case import PublicationDeadline, Weekday


class Page(Model):
    """The paper's page, from its rate card, in inches."""

    format: Literal["broadsheet", "tabloid", "berliner"]
    trim_in: tuple[float, float] = Field(description="Width and height of the printed sheet.")
    type_area_in: tuple[float, float] = Field(description="Width and depth of the printable area.")
    columns: int = Field(ge=1)
    column_width_in: float = Field(gt=0)
    gutter_in: float = Field(ge=0)
    news_type_pt: float | None = Field(None, gt=0, description="Body type size of news articles.")

    @model_validator(mode="after")
    def _columns_fit(self) -> Page:
        width = self.columns * self.column_width_in + (self.columns - 1) * self.gutter_in
        if abs(width - self.type_area_in[0]) > 0.05:
            raise ValueError(
                f"{self.columns} columns of {self.column_width_in} in with {self.gutter_in} in gutters"
                f" make {width:.3f} in, not the type area's {self.type_area_in[0]} in"
            )
        return self


class NewspaperProfile(Model):
    """What a paper's legal desk and rate card say."""

    schema_version: Literal[1] = 1
    id: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    name: str
    publication_days: list[Weekday] = Field(min_length=1)
    copy_deadline: PublicationDeadline
    general_circulation: bool = True
    local_circulation: bool = True
    legal_email: str | None = None
    circulation_zips: list[str] = Field(default_factory=list)
    page: Page
    source: str = Field(description="Where the figures come from (rate card, date).")
