"""The case file: one proposed zoning amendment and the facts its notices need.

A clerk writes `cases/<case-id>.yaml`; the file name is the case id. Fields that later
capabilities read (GIS layers, newspaper profiles, mail class, signer, notary, ...) are all
optional here, so a case written today stays valid as the product grows. Fields are added,
never renamed; `schema_version` says which shape a file was written for.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import ConfigDict, Field, ValidationInfo, field_validator, model_validator

from generator.models.base import (
    FULL_TEXT,
    CaseDate,
    CaseModel,
    ClockTime,
    Link,
    Paragraph,
    Title,
)
from generator.models.facts import Facts
from generator.models.languages import Languages
from generator.models.layers import LAYERS, MeasureUnit, field_map_problems, preset, preset_names
from generator.models.record import Record
from generator.safe_markdown import problem as markdown_problem

SCHEMA_VERSION = 1

# The most days ahead a case's lead time may reach (a copy deadline, a request for an
# interpreter): longer than any notice period, so larger is a typo, and the schedule counts
# such lead times back from the hearing a day at a time.
LEAD_DAYS = 90

CaseId = str


class MunicipalityKind(StrEnum):
    """What kind of municipality holds the hearing: its notices word its body by it."""

    CITY = "city"
    TOWN = "town"
    VILLAGE = "village"
    BOROUGH = "borough"
    TOWNSHIP = "township"
    COUNTY = "county"


class AmendmentKind(StrEnum):
    """What the amendment changes: the zoning map, the ordinance text, or both."""

    MAP = "map"
    TEXT = "text"
    BOTH = "both"


class Initiator(StrEnum):
    """Who initiated the amendment; some notice duties turn on it."""

    OWNER = "owner"
    COUNCIL = "council"
    PLANNING_BODY = "planning_body"
    OTHER = "other"


class Body(StrEnum):
    """The role of the body that holds a hearing; rules say which hearing they serve."""

    COUNCIL = "council"
    PLANNING = "planning"
    HEARING_OFFICER = "hearing_officer"


class Weekday(StrEnum):
    """A day of the week, as newspapers and calendars name it."""

    MONDAY = "monday"
    TUESDAY = "tuesday"
    WEDNESDAY = "wednesday"
    THURSDAY = "thursday"
    FRIDAY = "friday"
    SATURDAY = "saturday"
    SUNDAY = "sunday"


class Address(CaseModel):
    """A postal address."""

    lines: list[str] = Field(min_length=1, description="Street lines, first to last.")
    city: str
    state: str = Field(pattern=r"^[A-Z]{2}$")
    zip: str = Field(pattern=r"^\d{5}(-\d{4})?$")

    @field_validator("zip", mode="before")
    @classmethod
    def _zip_in_quotes(cls, value: Any) -> Any:
        # YAML reads an unquoted 02914 as a number: the leading zero is gone before we see it.
        whole = isinstance(value, float) and value.is_integer()
        if whole or (isinstance(value, int) and not isinstance(value, bool)):
            raise ValueError(
                f"written without quotes, the ZIP code is read as the number {int(value)} and"
                f' loses any leading zero: write it in quotes, e.g. zip: "{int(value):05d}"'
            )
        return value

    def one_line(self) -> str:
        """The address on one line, as a notice prints it."""
        return ", ".join([*self.lines, self.city, f"{self.state} {self.zip}"])


class Person(CaseModel):
    """Someone named in the packet: an applicant, a contact, a signer, an affiant."""

    name: str = Field(min_length=1)
    title: str | None = None
    organization: str | None = None
    address: Address | None = None
    phone: str | None = None
    email: str | None = None


class Accommodation(CaseModel):
    """Whom to ask for an interpreter or another accommodation at the hearing, and how far ahead.

    Every notice carries the line; what the case leaves out comes from `contact` and from the
    lead time the pack's accommodation clause names (a notice without a lead time asks for
    requests as early as possible).
    """

    contact: Person | None = Field(None, description="Whom to ask; default: the case's `contact`.")
    relay: str | None = Field(None, description='A TTY number or relay service: "711".')
    days_before: int | None = Field(
        None, ge=1, le=LEAD_DAYS, description="Requests by N days before."
    )
    business_days_before: int | None = Field(
        None, ge=1, le=LEAD_DAYS, description="Requests by N business days before."
    )
    hours_before: int | None = Field(
        None,
        ge=1,
        le=LEAD_DAYS * 24,
        description="Requests by N hours before (counted as whole days).",
    )

    @model_validator(mode="after")
    def _one_lead(self) -> Accommodation:
        given = [
            n for n in ("days_before", "business_days_before", "hours_before") if getattr(self, n)
        ]
        if len(given) > 1:
            raise ValueError(f"give one of {', '.join(given)}, not several")
        return self


class Applicant(Person):
    """The person or body that asks for the amendment."""

    is_owner: bool | None = Field(None, description="Whether the applicant owns the land.")


class Area(CaseModel):
    """The area of a parcel."""

    value: float = Field(gt=0)
    unit: Literal["acres", "sq_ft"]

    def text(self) -> str:
        """The area as a notice writes it."""
        unit = "acres" if self.unit == "acres" else "square feet"
        return f"{self.value:,g} {unit}"


class Parcel(CaseModel):
    """One subject parcel of a map amendment."""

    id: str = Field(min_length=1, description="Assessor's parcel id (plat/lot, APN, PIN).")
    address: str | None = None
    legal_description: Paragraph | None = None
    approximate_location: Paragraph | None = None
    area: Area | None = None
    current_district: str | None = None
    proposed_district: str | None = None
    owner: str | None = None


class StandardsChange(CaseModel):
    """How a text change alters development standards: units, height, stories, setbacks, uses."""

    units_or_floor_area_pct: float | None = Field(None, ge=0)
    height_pct: float | None = Field(None, ge=0)
    stories_changed: bool = False
    setback_or_open_space_pct: float | None = Field(None, ge=0)
    permitted_uses_changed: bool = False


class LotStandard(CaseModel):
    """A minimum lot area or frontage of one district, before and after the change."""

    district: str = Field(description="The district code as the parcel layer writes it.")
    lot_area_sqft: tuple[float, float] | None = Field(None, description="[before, after].")
    frontage_ft: tuple[float, float] | None = Field(None, description="[before, after].")


class Amendment(CaseModel):
    """What is proposed, in the words a notice will print."""

    kind: AmendmentKind
    title: Title = Field(min_length=1)
    affects_districts_generally: bool = False
    initiated_by: Initiator
    summary: Paragraph = Field(min_length=1)
    intent_and_effect: Paragraph | None = None
    full_text: str | None = Field(
        None, max_length=FULL_TEXT, description="Markdown text of a text amendment."
    )
    print_full_text: bool = Field(
        False, description="Print the full text in the newspaper notice instead of a summary."
    )
    sections_amended: list[str] = Field(default_factory=list)
    proposed_use: Paragraph | None = None
    conditional_district: bool = False
    standards_change: StandardsChange | None = None
    makes_lots_nonconforming: bool = False
    affects_residential_zoning: bool | None = Field(
        None,
        description="The change affects residential or multifamily zoning (the land is zoned, or"
        " would be zoned, for dwellings): the clerk says so; unstated, the plan reports it assumed.",
    )
    comprehensive_zoning_change: bool | None = Field(
        None,
        description="The change is a comprehensive zoning change as the state's law defines it"
        " (the pack's rule quotes the definition): the clerk says so; unstated, the plan reports"
        " it assumed false.",
    )
    allows_more_residential_development: bool | None = Field(
        None,
        description="The change allows more residential development than the present zoning"
        " (more dwellings, or dwellings where none were allowed): the clerk says so.",
    )
    allows_added_commercial_or_industrial_use: bool | None = Field(
        None,
        description="The change allows commercial or industrial uses the present zoning does"
        " not; the pack's rule says which uses do not count: the clerk says so.",
    )
    allows_drug_treatment_facility: bool | None = Field(
        None,
        description="The change relates to or would allow the location or relocation of a"
        " halfway house, drug rehabilitation center or other facility for the treatment of drug"
        " dependency: the clerk says so; unstated, the plan reports it assumed false.",
    )
    merger_clause: Paragraph | None = Field(
        None, description="The merger clause that nonconforming lots become subject to."
    )
    lot_standards: list[LotStandard] = Field(
        default_factory=list, description="Minimum lot area or frontage a text change raises."
    )
    nonconforming_parcels: list[str] = Field(
        default_factory=list,
        description="Parcels the change makes nonconforming, if listed by hand.",
    )

    @field_validator("full_text")
    @classmethod
    def _printable(cls, text: str | None) -> str | None:
        # Refused at load, with the field and line, rather than printed otherwise than written.
        if text is not None and (why := markdown_problem(text)):
            raise ValueError(why)
        return text

    @model_validator(mode="after")
    def _full_text_when_printed(self) -> Amendment:
        if self.print_full_text and not self.full_text:
            raise ValueError("print_full_text is true but full_text is missing")
        return self


class RemoteAttendance(CaseModel):
    """How to attend or speak remotely."""

    url: Link | None = None
    phone: str | None = None
    meeting_id: str | None = None
    instructions: Paragraph | None = None


class Hearing(CaseModel):
    """One public hearing on the amendment."""

    body: Body
    body_name: str = Field(min_length=1, description='As printed: "City Council".')
    date: CaseDate
    start_time: ClockTime
    place: str = Field(min_length=1, description='The room and building: "Council Chambers".')
    address: Address
    remote: RemoteAttendance | None = None
    vote_date: CaseDate | None = Field(None, description="When the body votes, if not that day.")


class Examination(CaseModel):
    """Where and when the proposal can be examined and copied."""

    place: str
    address: Address | None = None
    hours: Title
    url: Link | None = None


class PublicationDeadline(CaseModel):
    """How long before an issue the paper needs copy."""

    days_before: int = Field(ge=0, le=LEAD_DAYS)
    time: ClockTime | None = None
    business_days: bool = False


class Newspaper(CaseModel):
    """The newspaper that carries the legal notice; what it states wins over its profile."""

    name: str | None = None
    profile: str | None = Field(None, description="A profile id in data/newspapers/.")
    publication_days: list[Weekday] = Field(default_factory=list)
    copy_deadline: PublicationDeadline | None = None
    general_circulation: bool = True
    local_circulation: bool = True
    legal_email: str | None = None
    bill_to: Literal["applicant", "municipality"] | None = Field(
        None,
        description="Who pays the paper, where the pack's `publication_costs` does not say or"
        " the case agrees otherwise.",
    )

    @model_validator(mode="after")
    def _named(self) -> Newspaper:
        if not (self.name or self.profile):
            raise ValueError("give the newspaper's name, or a profile from data/newspapers/")
        return self


DATABASE_SCHEMES = ("postgresql://", "postgres://")


def is_database(path: str) -> bool:
    """Whether a layer's `path` names a PostgreSQL table rather than a file."""
    return path.lower().startswith(DATABASE_SCHEMES)


def database_url_problem(path: str) -> str | None:
    """What is wrong with a layer's `postgresql://` URL, or None.

    A password is refused when the case is read, so that it never reaches a manifest.
    """
    from urllib.parse import parse_qsl, urlsplit

    parts = urlsplit(path)
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    if parts.password is not None or "password" in query:
        return (
            "a password does not belong in the case: remove it from the URL and give it in"
            " PGPASSWORD, ~/.pgpass or a PostgreSQL service file"
        )
    if not query.get("table"):
        return "name the table: postgresql://host/db?table=schema.parcels"
    return None


class GisLayer(CaseModel):
    """A GIS layer the recipients and map capabilities read."""

    path: Link = Field(
        description="A file relative to the case, or a PostGIS table:"
        " postgresql://[user@]host[:port]/db?table=[schema.]name[&geometry=column]"
    )
    layer: str | None = None
    crs: str | None = Field(None, description='The layer\'s CRS, e.g. "EPSG:3438".')
    preset: str | None = Field(
        None,
        alias="schema",
        description="A parcel schema preset (<name>.yaml in data/parcel_schemas/ or"
        " $NOTICES_PARCEL_SCHEMAS) that `fields` extends.",
    )
    fields: dict[str, str | list[str]] = Field(
        default_factory=dict,
        description="Our name -> layer field (a list of fields for `mail_lines`).",
    )
    select: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Only features whose field (our name) has one of these values.",
    )
    as_of: CaseDate | None = None

    @model_validator(mode="before")
    @classmethod
    def _preset_under_fields(cls, data: Any) -> Any:
        # The case's own fields win over the preset's: a county renames one field, not all.
        if isinstance(data, dict) and isinstance(data.get("schema"), str):
            try:
                found = preset(data["schema"])
            except KeyError:
                return data  # `_known_preset` says so, at the `schema` line
            own = data.get("fields")
            return {**data, "fields": {**found.fields, **(own if isinstance(own, dict) else {})}}
        return data

    @field_validator("preset")
    @classmethod
    def _known_preset(cls, name: str | None) -> str | None:
        if name is not None and name not in preset_names():
            raise ValueError(
                f"no parcel schema preset {name!r}; the presets: {', '.join(preset_names())}"
            )
        return name

    @field_validator("path")
    @classmethod
    def _database_url(cls, value: str) -> str:
        problem = database_url_problem(value) if is_database(value) else None
        if problem:
            raise ValueError(problem)
        return value


class Gis(CaseModel):
    """Layers of the county or city GIS and the projected CRS to measure in (feet)."""

    measure_crs: str | None = None
    measure_unit: MeasureUnit | None = Field(
        None, description="The unit of `measure_crs`: foot (international) or us_survey_foot."
    )
    parcels: GisLayer | None = None
    zoning: GisLayer | None = None
    streets: GisLayer | None = None
    municipal_boundaries: GisLayer | None = None
    water_sources: GisLayer | None = None
    military_airport_vicinity: GisLayer | None = None
    noise_zones: GisLayer | None = None
    radius_list: GisLayer | None = Field(None, description="An assessor's certified list.")
    school_districts: GisLayer | None = Field(
        None, description="School district areas: an agencies group's `layer`."
    )
    service_areas: GisLayer | None = Field(
        None, description="Utility and other service areas: an agencies group's `layer`."
    )

    @field_validator(*LAYERS)
    @classmethod
    def _fields_mapped(cls, layer: GisLayer | None, info: ValidationInfo) -> GisLayer | None:
        if layer is None:
            return layer
        problems = []
        if found := field_map_problems(str(info.field_name), layer.fields):
            problems.append(f"fields: {'; '.join(found)}")
        problems += [
            f"select: {ours} is not one mapped field of the layer"
            for ours in layer.select
            if not isinstance(layer.fields.get(ours), str)
        ]
        if problems:
            raise ValueError("; ".join(problems))
        return layer

    @model_validator(mode="after")
    def _unit_with_crs(self) -> Gis:
        if self.measure_unit is not None and self.measure_crs is None:
            raise ValueError("`measure_unit` states the unit of `measure_crs`: give both")
        return self


class PostingPlace(CaseModel):
    """A place where the notice is posted."""

    name: str
    address: Address | None = None
    kind: Literal["clerk_office", "municipal_building", "public_place", "property", "website"]


# A sign is laid out at print size on one PDF page, and a PDF page is at most 200 in a side.
SignSide = Annotated[float, Field(ge=1, le=200)]


class SignSpec(CaseModel):
    """The posted sign, where the law leaves its size or reading distance to the municipality."""

    size_in: tuple[SignSide, SignSide] | None = Field(
        None, description="Width and height in inches, e.g. [96, 48] for a 4 by 8 ft panel."
    )
    legible_from_ft: float | None = Field(
        None,
        gt=0,
        le=1_000,  # wider than any street; the sign is laid out at this scale
        description="The reading distance, where the law names none (the street's width).",
    )


class Mail(CaseModel):
    """How mailed notice is sent."""

    mail_class: Literal["first_class", "certified"] = "first_class"
    sender: Person | None = None


class Notary(CaseModel):
    """The notary who takes an affiant's oath."""

    name: str | None = None
    county: str | None = None
    state: str | None = None
    commission_expires: CaseDate | None = None


class RegisteredPerson(CaseModel):
    """A person registered with the municipality to receive notice."""

    name: str
    address: Address
    email: str | None = Field(
        None,
        description="Where a notice the law lets be e-mailed goes (a group's `delivery: email`).",
    )


class AddedRecipient(CaseModel):
    """A recipient the clerk adds to the list by hand (an owner the list missed, a neighbour)."""

    name: str
    address: Address
    reason: Paragraph
    parcels: list[str] = Field(default_factory=list)


class MapImage(CaseModel):
    """A map of the change the clerk supplies until the GIS capability draws one."""

    image: Link = Field(description="Path to a PNG, JPEG or SVG, relative to the case file.")
    caption: Paragraph | None = None
    alt: Paragraph | None = None
    shows: list[str] = Field(default_factory=list)


class Options(CaseModel):
    """Choices for this case: the general ones below, and the options its packs declare.

    An option of the law (a sign the municipality may post, an alternative to letters) is
    declared by a pack with its citation; the case elects it here by its id, and loading the
    case refuses an option that no pack of its jurisdiction declares.
    """

    model_config = ConfigDict(**CaseModel.model_config | {"extra": "allow"})

    recipient_order: Literal["owner", "street"] = Field(
        "owner", description="Order of the mailing list."
    )
    duplex_letters: bool = Field(
        False, description="Start every letter on a new sheet (a blank page after odd letters)."
    )
    letter_files: bool = Field(False, description="Also write one PDF per letter, in a folder.")

    @property
    def elected(self) -> dict[str, Any]:
        """The options of the law the case states, by id."""
        return dict(self.model_extra or {})

    def chosen(self, option_id: str) -> Any:
        """What the case elects for a pack's option; None if it does not say."""
        return self.elected.get(option_id)

    def electing(self, option_id: str, value: Any) -> Options:
        """These options with `option_id` set to `value`."""
        return Options.model_validate({**self.model_dump(), option_id: value})


class Case(CaseModel):
    """One zoning-amendment case, as the clerk writes it."""

    schema_version: Literal[1] = SCHEMA_VERSION
    id: CaseId | None = Field(None, description="Must equal the file name, if given.")
    case_number: str = Field(min_length=1, description="The municipality's case number.")
    jurisdiction: str = Field(pattern=r"^[a-z]{2}(-[a-z0-9]+)+$")
    municipality: str = Field(min_length=1, description='As printed: "City of Newport".')
    municipality_kind: MunicipalityKind | None = Field(
        None,
        description="city, town, village, borough, township or county; unstated, the kind its"
        " pack states (`municipality.kind`). A case states it where its pack serves more than one.",
    )
    amendment: Amendment
    applicant: Applicant
    owners: list[Person] = Field(default_factory=list, description="Owners, if not the applicant.")
    parcels: list[Parcel] = Field(default_factory=list)
    area_description: Paragraph | None = Field(
        None, description="A general description of the area."
    )
    hearings: list[Hearing] = Field(min_length=1)
    examination: Examination
    contact: Person
    accommodation: Accommodation = Field(default_factory=Accommodation)
    newspaper: Newspaper | None = None
    petition_received: CaseDate | None = None
    as_of: CaseDate | None = Field(
        None,
        description="The day deadlines are judged from (default: today); acts due before it are late.",
    )
    facts: Facts = Field(default_factory=Facts)
    map: MapImage | None = None
    gis: Gis | None = None
    posting_places: list[PostingPlace] = Field(default_factory=list)
    sign: SignSpec | None = None
    mail: Mail = Field(default_factory=Mail)
    signer: Person | None = None
    affiant: Person | None = None
    notary: Notary | None = None
    council_size: int | None = Field(None, ge=1)
    record: Record | None = Field(
        None, description="What happened after the packet: publications, mailings, hearings..."
    )
    timezone: str | None = None
    registered_persons: list[RegisteredPerson] = Field(default_factory=list)
    additional_recipients: list[AddedRecipient] = Field(
        default_factory=list, description="Recipients added by hand, each with the reason."
    )
    options: Options = Field(default_factory=Options)
    languages: Languages = Field(
        default_factory=Languages,
        description="The notices' languages (`layout`) and the Spanish of the case's own words.",
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str | None) -> str | None:
        # Deadlines at a clock time are counted in this zone: an unknown one cannot be guessed.
        if value is None:
            return value
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(
                f"{value[:60]!r} is not a time zone of the IANA database, such as 'America/New_York'"
            ) from None
        return value

    @field_validator("hearings")
    @classmethod
    def _hearings_in_order(cls, hearings: list[Hearing]) -> list[Hearing]:
        days = [h.date for h in hearings]
        if days != sorted(days):
            raise ValueError("hearings must be listed in date order")
        return hearings

    @model_validator(mode="after")
    def _map_cases_have_parcels(self) -> Case:
        if self.amendment.kind != AmendmentKind.TEXT and not self.parcels:
            raise ValueError("a map amendment needs at least one parcel under `parcels`")
        if self.amendment.kind != AmendmentKind.MAP and not (
            self.amendment.full_text or self.amendment.summary
        ):
            raise ValueError("a text amendment needs `amendment.full_text` or a summary")
        return self

    def hearing(self, body: Body) -> Hearing | None:
        """The first hearing held by `body`, if any."""
        return next((h for h in self.hearings if h.body == body), None)

    @property
    def the_municipality(self) -> str:
        """The municipality as a sentence names it: "the City of Shelby", "Sample Township".

        A name in the style "<kind> of <name>" ("Township of Sample", "City and County of
        Denver") is a common noun and takes "the"; a proper name ("Sample Township", "Salt Lake
        City", "Newport") takes none.
        """
        return f"the {self.municipality}" if " of " in self.municipality else self.municipality


def field_type(path: str) -> Any:
    """The type of the case field at a dotted path (`facts.water_source_towns`); None if none."""
    model: Any = Case
    annotation: Any = None
    for part in path.split("."):
        info = getattr(model, "model_fields", {}).get(part)
        if info is None:
            return None
        annotation = info.annotation
        inner = [a for a in get_args(annotation) if a is not type(None)]
        optional = get_origin(annotation) in (UnionType, Union) and len(inner) == 1
        model = inner[0] if optional else annotation
    return annotation


def case_id_from_path(path: Path) -> str:
    """The case id is the file name without `.yaml`."""
    return path.name.removesuffix(".yaml").removesuffix(".yml")
