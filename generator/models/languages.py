"""The languages a notice is written in, and the words the case or pack gives in Spanish.

Translation is by template only: our templates word every sentence in each language, and a
value the case or pack writes in its own words (a summary, a room, a district's name) is printed
in Spanish only where they give its Spanish text (`spanish`); otherwise it is printed as given,
and the build says which (LANG001). Nothing is machine-translated.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, field_validator

from generator.models.base import PARAGRAPH, Model


class Language(StrEnum):
    """A language our templates write notices in."""

    EN = "en"
    ES = "es"


class Layout(StrEnum):
    """Which languages a notice is written in, and how they share its pages."""

    ENGLISH = "english"  # the default: English only
    SPANISH_ONLY = "spanish_only"
    BILINGUAL_SEQUENTIAL = "bilingual_sequential"  # the English notice, then the Spanish one
    BILINGUAL_SIDE_BY_SIDE = "bilingual_side_by_side"  # two columns, English on the left

    @property
    def languages(self) -> tuple[Language, ...]:
        """The languages of the layout, in the order they are printed."""
        return {
            Layout.ENGLISH: (Language.EN,),
            Layout.SPANISH_ONLY: (Language.ES,),
        }.get(self, (Language.EN, Language.ES))


class Translation(Model):
    """One text the case or pack prints, as given in English, and its Spanish."""

    en: str = Field(min_length=1, max_length=PARAGRAPH, description="The text as given.")
    es: str = Field(min_length=1, max_length=PARAGRAPH, description="Its Spanish, word for word.")


class Languages(Model):
    """`languages:` of a case or pack: the notice's layout and the Spanish of their own words."""

    layout: Layout | None = Field(
        None,
        description="english, spanish_only, bilingual_sequential (English, then Spanish) or"
        " bilingual_side_by_side (two columns); a case's layout wins over its pack's.",
    )
    spanish: list[Translation] = Field(
        default_factory=list,
        description="Texts the case (or pack) prints, each as given in English (`en`) with its"
        " Spanish (`es`). A printed text with no entry is printed as given (finding LANG001);"
        " nothing is machine-translated.",
    )

    @field_validator("spanish")
    @classmethod
    def _once(cls, value: list[Translation]) -> list[Translation]:
        seen: set[str] = set()
        for t in value:
            if t.en in seen:
                raise ValueError(f"{t.en[:60]!r} is given twice")
            seen.add(t.en)
        return value

    def glossary(self) -> dict[str, str]:
        """English → Spanish, compared as printed: runs of spaces (a folded block) are one."""
        return {" ".join(t.en.split()): " ".join(t.es.split()) for t in self.spanish}
