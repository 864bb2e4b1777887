"""The choices the law leaves to a municipality, as a pack declares them for a case to elect."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from generator.models.base import Model

RULE_ID = r"^[a-z][a-z0-9_]{0,32}$"


class CaseOption(Model):
    """A choice the law leaves to the municipality, elected in the case under `options:`."""

    id: str = Field(pattern=RULE_ID, description="The key under the case's `options:`.")
    title: str = Field(min_length=1)
    type: Literal["yes_no", "choices", "text"] = Field(
        description="`yes_no`: true or false; `choices`: a list of some of `choices`; `text`:"
        " words the case states, for a pack-defined clause's `{option.<id>}` slot."
    )
    choices: list[str] = Field(default_factory=list)
    citation: str = Field(min_length=1)
    text: str = Field(min_length=1)

    @model_validator(mode="after")
    def _choices(self) -> CaseOption:
        if (self.type == "choices") != bool(self.choices):
            raise ValueError("a choices option lists its `choices`; a yes_no option has none")
        if len(set(self.choices)) != len(self.choices):
            raise ValueError("a choice is listed twice")
        return self
