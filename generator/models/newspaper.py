"""A newspaper profile (`data/newspapers/<id>.yaml`): a paper's days, deadlines and page.

Cases name a profile instead of repeating what the paper's rate card says. What a case states
itself wins over its profile. The page geometry is what display-ad sizes are measured against.
"""

from __future__ import annotations

from decimal import Decimal
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


class LegalType(Model):
    """How the paper sets legal notices: the type that decides their lines and column inches."""

    points: float = Field(gt=0, description="Type size of the legal column, in points.")
    leading: float = Field(gt=0, description="Baseline to baseline, in points (7 on 8: 8).")
    column_width_in: float = Field(gt=0, description="Width of the legal column, in inches.")
    chars_per_line: int | None = Field(
        None,
        ge=10,
        description="Characters a line of the legal column holds, from the rate card; unstated,"
        " estimated from the column width at half an em a character.",
    )

    @model_validator(mode="after")
    def _leading_not_tighter(self) -> LegalType:
        if self.leading < self.points:
            raise ValueError(f"leading {self.leading:g} pt is less than the type's {self.points:g}")
        return self

    @property
    def line_chars(self) -> int:
        """Characters per line: the rate card's, else the column width over half an em."""
        if self.chars_per_line:
            return self.chars_per_line
        return int(self.column_width_in * 72 / (self.points / 2))


class RateCard(Model):
    """What the paper charges for a legal notice, from its rate card."""

    sample: bool = Field(
        description="True: sample figures, not the paper's; printed on every order as such."
    )
    classification: str = Field("Legal Notices", description="The section the notice runs in.")
    per: Literal["line", "column_inch"] = Field(
        description="The unit billed: a line of the legal column, or a column inch of it."
    )
    first_insertion: Decimal = Field(gt=0, description="Dollars per unit, first insertion.")
    later_insertion: Decimal = Field(gt=0, description="Dollars per unit, each later insertion.")
    affidavit_fee: Decimal = Field(Decimal(0), ge=0, description="Dollars for the affidavit.")
    minimum_charge: Decimal = Field(
        Decimal(0), ge=0, description="Least charge for one insertion, in dollars."
    )


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
    legal_type: LegalType | None = Field(
        None, description="How the legal column is set: sizes the notice for the insertion order."
    )
    rate_card: RateCard | None = Field(
        None, description="Legal-notice rates: the insertion order's cost estimate."
    )
    source: str = Field(description="Where the figures come from (rate card, date).")
