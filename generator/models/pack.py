"""A rule pack: one jurisdiction's notice law, as data.

Every rule has the same envelope — `id`, `citation`, `text`, `effective`, `when`, `kind`,
`params` — and each kind validates its own `params`. A city pack `extends` its state pack; a
city rule that `supplements` a state rule is merged with it so that the stricter requirement
binds (see `generator.rules.merge`), and one that `replaces` it, citing the law that allows it,
removes it.
"""

from __future__ import annotations

import re
from datetime import date
from enum import StrEnum
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import Field, field_validator, model_validator

from generator.kinds import DocumentKind
from generator.models import conditions
from generator.models.base import ClockTime, IsoDate, Model
from generator.models.case import Body, Case, Hearing, Weekday
from generator.models.options import RULE_ID, CaseOption

PACK_ID = r"^[a-z]{2}(-[a-z0-9]+)+$"


def stricter(how: str) -> Any:
    """Mark how a parameter merges when a local rule supplements a state rule.

    `max`/`min`: the larger/smaller number binds; `or`: true if either says so; `union`: both
    lists; `prose`: wording, the parent's stands. A parameter without a mark must agree; if it
    does not, the parent's value binds and the difference is reported.
    """
    return {"stricter": how}


def prose(description: str | None = None) -> Any:
    """An optional free-text parameter: wording may differ between state and local law."""
    return Field(None, description=description, json_schema_extra=stricter("prose"))


class Channel(StrEnum):
    """A way of giving notice."""

    NEWSPAPER = "newspaper"
    MAIL = "mail"
    SIGN = "sign"
    POSTING = "posting"
    WEBSITE = "website"
    DISPLAY_AD = "display_ad"
    UTILITY_INSERT = "utility_insert"
    TRANSMITTAL = "transmittal"
    ACTUAL_NOTICE = "actual_notice"


class HearingRef(StrEnum):
    """Which hearing a rule serves."""

    COUNCIL = "council"
    PLANNING = "planning"
    FIRST = "first"
    EACH = "each"

    def serves(self, hearing: Hearing, case: Case) -> bool:
        """Whether a rule that serves this reference applies to `hearing` of `case`."""
        if self == HearingRef.EACH:
            return True
        if self == HearingRef.FIRST:
            return hearing is case.hearings[0]
        if self == HearingRef.COUNCIL:
            return hearing.body == Body.COUNCIL
        return hearing.body in (Body.PLANNING, Body.HEARING_OFFICER)


class Event(StrEnum):
    """The event a period is counted from or to."""

    HEARING = "hearing"
    VOTE = "vote"
    PETITION_RECEIVED = "petition_received"
    HEARING_COMPLETED = "hearing_completed"
    FINAL_APPROVAL = "final_approval"
    REJECTION = "rejection"
    DECISION = "decision"
    WITHDRAWAL = "withdrawal"
    FILING = "filing"


class TimingType(StrEnum):
    """The shapes of time rule the five seeds need."""

    AT_LEAST_BEFORE = "at_least_before"  # act >= N days before the event
    WINDOW_BEFORE = "window_before"  # not less than N nor more than M days before; with
    # `weeks`, the first of K weekly insertions falls in that window (G.S. 160D-601(a))
    WEEKLY_BEFORE = "weekly_before"  # once each week for K successive weeks before
    BUSINESS_DAYS_BEFORE = "business_days_before"  # N business days before, at a clock time
    WITHIN_AFTER = "within_after"  # no later than N days after the event
    AT_LEAST_AFTER = "at_least_after"  # no sooner than N days after the event
    BAR_AFTER = "bar_after"  # not again within N days/months after the event


class Timing(Model):
    """When an act must happen, relative to an event."""

    type: TimingType
    event: Event = Event.HEARING
    days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    min_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    max_days: int | None = Field(None, ge=0, json_schema_extra=stricter("min"))
    months: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    weeks: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    insertions: int | None = Field(None, ge=1, json_schema_extra=stricter("max"))
    week_model: Literal["calendar_sun_sat", "rolling_7"] | None = None
    may_include_event_week: bool | None = None
    event_day_insertion_counts: bool | None = None
    business_days: int | None = Field(None, ge=0, json_schema_extra=stricter("max"))
    clock_time: ClockTime | None = Field(None, json_schema_extra=stricter("min"))
    calendar_days: bool = True
    clear_days: bool = Field(False, json_schema_extra=stricter("or"))
    needs_open_office: bool = Field(False, json_schema_extra=stricter("or"))
    may_be_earlier_if_set_by_body: bool = False

    @model_validator(mode="after")
    def _shape(self) -> Timing:
        need = {
            TimingType.AT_LEAST_BEFORE: ("days",),
            TimingType.WINDOW_BEFORE: ("min_days", "max_days"),
            TimingType.WEEKLY_BEFORE: ("weeks",),
            TimingType.BUSINESS_DAYS_BEFORE: ("business_days",),
            TimingType.WITHIN_AFTER: (),
            TimingType.AT_LEAST_AFTER: ("days",),
            TimingType.BAR_AFTER: (),
        }[self.type]
        missing = [n for n in need if getattr(self, n) is None]
        if missing:
            raise ValueError(f"a {self.type.value} timing needs {', '.join(missing)}")
        if self.type in (TimingType.WITHIN_AFTER, TimingType.BAR_AFTER) and (
            self.days is None and self.months is None
        ):
            raise ValueError(f"a {self.type.value} timing needs days or months")
        if (
            self.min_days is not None
            and self.max_days is not None
            and self.min_days > self.max_days
        ):
            raise ValueError("min_days is greater than max_days")
        return self


class Places(Model):
    """Posting places a notice rule names."""

    count: int = Field(ge=1, json_schema_extra=stricter("max"))
    description: str = Field(json_schema_extra=stricter("prose"))


class NoticeParams(Model):
    """A notice that must (or may) be given through one channel."""

    channel: Channel
    document: DocumentKind
    hearing: HearingRef = HearingRef.EACH
    requirement: Literal["required", "optional", "alternative"] = "required"
    alternative_group: str | None = None
    elected_by: str | None = prose("The case option that elects this notice.")
    timing: Timing | None = None
    mail_class: Literal["first_class", "certified"] | None = None
    circulation: Literal["local", "general"] | None = None
    places: Places | None = None
    same_content_as: str | None = Field(
        None, description="A rule id of another notice.", json_schema_extra=stricter("prose")
    )
    sent_by: str | None = prose()
    cost_borne_by: Literal["applicant", "municipality"] | None = None

    @model_validator(mode="after")
    def _alternatives_grouped(self) -> NoticeParams:
        if self.requirement == "alternative" and not self.alternative_group:
            raise ValueError("an alternative notice needs alternative_group")
        return self


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


# The groups whose owners are selected from the parcel layer (or an assessor's radius list).
OWNER_GROUPS = frozenset(
    {
        RecipientGroup.SUBJECT_OWNERS,
        RecipientGroup.SUBJECT_OWNER_ACTUAL_NOTICE,
        RecipientGroup.OWNERS_WITHIN,
        RecipientGroup.ABUTTING_OWNERS,
        RecipientGroup.OWNERS_MADE_NONCONFORMING,
    }
)

RecipientKind = Literal["council", "agency", "airport", "holder", "registered"]


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


class RecipientsParams(Model):
    """Who must be sent a notice, and how they are found."""

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

    @model_validator(mode="after")
    def _group_params(self) -> RecipientsParams:
        named = self.group == RecipientGroup.NAMED
        if named and not (self.names and self.recipient_kind):
            raise ValueError("a named group needs `names` and `recipient_kind`")
        if not named and (self.names or self.recipient_kind):
            raise ValueError("`names` and `recipient_kind` belong to the named group")
        if self.mailing_address_outside and self.group not in OWNER_GROUPS:
            raise ValueError("mailing_address_outside filters an owner group")
        return self


class ClauseTopic(StrEnum):
    """What a required clause is about; templates render one block per topic."""

    HEARING_WHEN_WHERE = "hearing_when_where"
    HEARING_BODY = "hearing_body"
    RIGHT_TO_BE_HEARD = "right_to_be_heard"
    UNDER_CONSIDERATION = "under_consideration"
    PROPOSAL_STATEMENT = "proposal_statement"
    INTENT_AND_EFFECT = "intent_and_effect"
    NATURE_AND_EXTENT = "nature_and_extent"
    AREA_DESCRIPTION = "area_description"
    PROPERTY_IDENTIFICATION = "property_identification"
    DISTRICT_CHANGE = "district_change"
    PROPOSED_USE = "proposed_use"
    WHERE_TO_EXAMINE = "where_to_examine"
    FULL_TEXT_FROM_CLERK = "full_text_from_clerk"
    MAY_BE_AMENDED = "may_be_amended"
    MAP = "map"
    NOISE_ZONE_STATEMENT = "noise_zone_statement"
    MERGER_CLAUSE = "merger_clause"
    SPECIAL_USE_PERMIT_REVIEW = "special_use_permit_review"
    WORD_ZONING = "word_zoning"
    STANDARDS_CHANGES = "standards_changes"


class ClauseChecks(Model):
    """How a linter recognizes the clause in any wording (regular expressions, case-blind)."""

    any_pattern: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    all_patterns: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    facts: list[str] = Field(
        default_factory=list,
        description="Case values that must appear.",
        json_schema_extra=stricter("union"),
    )

    @field_validator("any_pattern", "all_patterns")
    @classmethod
    def _compiles(cls, patterns: list[str]) -> list[str]:
        for p in patterns:
            try:
                re.compile(p)
            except re.error as exc:
                raise ValueError(f"pattern {p!r} does not compile: {exc}") from None
        return patterns


class ClauseParams(Model):
    """A clause that a document must contain."""

    documents: list[DocumentKind] = Field(min_length=1, json_schema_extra=stricter("union"))
    topic: ClauseTopic
    wording: str | None = prose("The statement as the law words it.")
    must_show: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    checks: ClauseChecks = Field(default_factory=ClauseChecks)


class FormatParams(Model):
    """How a document must look: sign legibility, ad size, type size."""

    document: DocumentKind
    legible_from_ft: float | None = Field(None, gt=0, json_schema_extra=stricter("max"))
    legibility_index_ft_per_in: float | None = Field(None, gt=0, json_schema_extra=stricter("min"))
    legible_items: list[
        ClauseTopic | Literal["present_district", "proposed_district", "hearing_date_time"]
    ] = Field(default_factory=list, json_schema_extra=stricter("union"))
    legible_from: str | None = prose()
    min_page_fraction: float | None = Field(None, gt=0, le=1, json_schema_extra=stricter("max"))
    min_type: Literal["news_type"] | None = None
    size_in: tuple[float, float] | None = None
    high_contrast: bool = True


class ProofParams(Model):
    """A sworn or certified record that a notice was given."""

    document: DocumentKind
    proves: list[str] = Field(min_length=1, description="The ids of the notice rules it covers.")
    notarized: bool = Field(False, json_schema_extra=stricter("or"))
    signed_by: str | None = prose()
    certify_to: str | None = prose()
    conclusive_absent_fraud: bool = False
    attachments: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))


class DeadlineParams(Model):
    """A procedural deadline: hearing within N days, decision within N days, bars, effect."""

    action: Literal[
        "hold_hearing",
        "planning_report",
        "decision",
        "council_vote",
        "effective",
        "reapplication_bar",
        "rehearing_after",
        "refile_bar",
    ]
    hearing: HearingRef = HearingRef.COUNCIL
    timing: Timing
    extendable_by_applicant: bool = False
    condition_text: str | None = prose()


class Fraction(Model):
    """A vote fraction, e.g. 3/4 of all members."""

    numerator: int = Field(ge=1)
    denominator: int = Field(ge=1)

    @property
    def value(self) -> float:
        """The fraction as a number."""
        return self.numerator / self.denominator


class Threshold(Model):
    """A share of owners whose protest triggers the supermajority."""

    share: float = Field(gt=0, le=1)
    measure: Literal["area", "area_and_count"]
    of: Literal["lots_in_change", "lots_within_radius", "zoning_area"]
    radius_ft: float | None = None
    includes_rights_of_way: bool = False
    across_streets_narrower_than_ft: float | None = None


class SmallBody(Model):
    """A different fraction for small governing bodies."""

    max_members: int = Field(ge=1)
    fraction: Fraction = Field(json_schema_extra=stricter("max"))


class Vote(Model):
    """The supermajority a valid protest requires."""

    fraction: Fraction = Field(json_schema_extra=stricter("max"))
    of: Literal["all_members", "members_present"] = "all_members"
    small_body: SmallBody | None = None
    conflicts: Literal["remaining_members_min_majority_of_full"] | None = None
    rounding: Literal["nearest_half_up", "up"] = "up"


class ProtestParams(Model):
    """A protest petition that raises the vote needed to adopt."""

    thresholds: list[Threshold] = Field(min_length=1, json_schema_extra=stricter("union"))
    filing: Timing
    filed_with: str = Field(json_schema_extra=stricter("prose"))
    vote: Vote


class ProcedureParams(Model):
    """A procedural requirement stated in words: who pays, what is required before adoption."""

    topic: Literal[
        "hearing_required",
        "cost_borne_by_applicant",
        "no_emergency_measure",
        "notice_failure_not_invalidating",
        "adoption_without_second_hearing",
        "planning_review_required",
        "owner_consent_open_space",
        "majority_vote",
        "initiation",
        "petition_contents",
        "registration_fee",
        "planning_findings",
    ]
    body: Body | None = None
    amount: float | None = None


class Effective(Model):
    """The dates between which a rule is law (judged by the date of the hearing noticed)."""

    from_: IsoDate | None = Field(None, alias="from")
    to: IsoDate | None = None

    def covers(self, day: date) -> bool:
        """Whether the rule is in force on `day`."""
        return (self.from_ is None or self.from_ <= day) and (self.to is None or day <= self.to)


class Rule(Model):
    """One rule: the envelope every kind shares. Each kind below types its `params`."""

    id: str = Field(pattern=RULE_ID)
    title: str = Field(min_length=1, description="A short name for checklists.")
    citation: str = Field(min_length=1)
    text: str = Field(min_length=1, description="The source, quoted or paraphrased.")
    effective: Effective = Field(default_factory=Effective)
    when: dict[str, Any] | None = None
    kind: str
    params: Model
    supplements: str | None = Field(None, pattern=RULE_ID)
    replaces: str | None = Field(None, pattern=RULE_ID)
    conflict: str | None = Field(None, description="How this rule departs from its parent rule.")

    @field_validator("when")
    @classmethod
    def _when(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            conditions.check(value)
        return value

    @model_validator(mode="after")
    def _one_link(self) -> Rule:
        if self.supplements and self.replaces:
            raise ValueError("a rule either supplements or replaces its parent rule, not both")
        return self


class NoticeRule(Rule):
    """A notice channel requirement."""

    kind: Literal["notice"]
    params: NoticeParams


class RecipientsRule(Rule):
    """Who receives a mailed notice or transmittal."""

    kind: Literal["recipients"]
    params: RecipientsParams


class ClauseRule(Rule):
    """A clause a document must contain."""

    kind: Literal["clause"]
    params: ClauseParams


class FormatRule(Rule):
    """How a document must look."""

    kind: Literal["format"]
    params: FormatParams


class ProofRule(Rule):
    """Proof that a notice was given."""

    kind: Literal["proof"]
    params: ProofParams


class DeadlineRule(Rule):
    """A procedural deadline."""

    kind: Literal["deadline"]
    params: DeadlineParams


class ProtestRule(Rule):
    """A protest petition and the supermajority it triggers."""

    kind: Literal["protest"]
    params: ProtestParams


class ProcedureRule(Rule):
    """A procedural requirement stated in words."""

    kind: Literal["procedure"]
    params: ProcedureParams


AnyRule = Annotated[
    NoticeRule
    | RecipientsRule
    | ClauseRule
    | FormatRule
    | ProofRule
    | DeadlineRule
    | ProtestRule
    | ProcedureRule,
    Field(discriminator="kind"),
]
KINDS = ("notice", "recipients", "clause", "format", "proof", "deadline", "protest", "procedure")


class Source(Model):
    """A law the pack encodes."""

    citation: str
    title: str
    href: str | None = None
    as_of: IsoDate | None = None


class TimeCounting(Model):
    """How a state counts days before and after an event."""

    count_act_day: bool = False
    count_event_day: bool = True
    forward_roll: bool = Field(
        False,
        description="A period counted forward whose last day is a holiday or closure day ends on"
        " the next open day (never applied to periods counted back from a hearing).",
    )
    citation: str
    text: str


class HolidayRule(Model):
    """A day added to or removed from the calendar of the `holidays` library."""

    name: str
    month: int = Field(ge=1, le=12)
    day: int | None = Field(None, ge=1, le=31)
    weekday: Weekday | None = None
    nth: int | None = Field(None, ge=-1, le=5, description="-1 is the last such weekday.")
    offices_open: bool = False
    citation: str

    @model_validator(mode="after")
    def _date_or_weekday(self) -> HolidayRule:
        if (self.day is None) == (self.weekday is None or self.nth is None):
            raise ValueError("give either day, or weekday with nth")
        return self


class Calendar(Model):
    """Legal holidays and office-closure days of a jurisdiction."""

    country: str = "US"
    subdiv: str | None = None
    closed_weekdays: list[Weekday] = Field(
        default_factory=lambda: [Weekday.SATURDAY, Weekday.SUNDAY]
    )
    legal_holiday_weekdays: list[Weekday] = Field(default_factory=list)
    additions: list[HolidayRule] = Field(default_factory=list)
    removals: list[HolidayRule] = Field(default_factory=list)
    citation: str


class Terms(Model):
    """How the jurisdiction names things in its notices; the narrowest pack that says wins."""

    ordinance: str | None = Field(
        None, description='"Zoning Ordinance", "Unified Development Ordinance".'
    )
    zoning_map: str | None = Field(None, description='"Official Zoning Map".')
    hearing: str | None = Field(None, description='"public hearing", "legislative hearing".')


class HolderFields(Model):
    """The layer fields a list of holders (a name and an address each) is read from."""

    name: str
    address: str | None = None


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


class Pack(Model):
    """A jurisdiction's rule pack as written in `jurisdictions/`."""

    schema_version: Literal[1] = 1
    id: str = Field(pattern=PACK_ID)
    name: str
    level: Literal["state", "county", "municipality"]
    extends: str | None = Field(None, pattern=PACK_ID)
    state: str | None = Field(
        None, pattern=r"^[A-Z]{2}$", description="State packs: the USPS code, e.g. RI."
    )
    version: str
    last_verified_on: IsoDate
    timezone: str | None = None
    measure_crs: str | None = Field(
        None, description='Projected CRS in feet for distances, e.g. "EPSG:3438".'
    )
    governing_body: str | None = None
    terms: Terms = Field(default_factory=Terms)
    sources: list[Source] = Field(min_length=1)
    time_counting: TimeCounting | None = None
    calendar: Calendar | None = None
    layer_facts: list[LayerFact] = Field(default_factory=list)
    options: list[CaseOption] = Field(default_factory=list)
    rules: list[AnyRule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _state_packs_are_complete(self) -> Pack:
        if self.level == "state" and not (
            self.state and self.timezone and self.time_counting and self.calendar
        ):
            raise ValueError(
                "a state pack needs `state`, `timezone`, `time_counting` and `calendar`"
            )
        return self

    @field_validator("layer_facts")
    @classmethod
    def _one_reading_a_fact(cls, facts: list[LayerFact]) -> list[LayerFact]:
        names = [f.fact for f in facts]
        for dup in sorted({n for n in names if names.count(n) > 1}):
            raise ValueError(f"the fact {dup!r} is read twice")
        return facts

    @field_validator("options")
    @classmethod
    def _unique_options(cls, options: list[CaseOption]) -> list[CaseOption]:
        ids = [o.id for o in options]
        for dup in sorted({i for i in ids if ids.count(i) > 1}):
            raise ValueError(f"option {dup!r} is declared twice")
        return options

    @field_validator("rules")
    @classmethod
    def _unique_ids(cls, rules: list[Rule]) -> list[Rule]:
        seen: set[str] = set()
        for rule in rules:
            if rule.id in seen:
                raise ValueError(f"rule id {rule.id!r} is used twice")
            seen.add(rule.id)
        return rules
