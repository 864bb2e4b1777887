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
from decimal import Decimal
from enum import StrEnum
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from generator.kinds import DocumentKind
from generator.models import conditions
from generator.models.base import ClockTime, IsoDate, Model, prose, stricter
from generator.models.case import Body, Case, Hearing, MunicipalityKind
from generator.models.languages import Languages
from generator.models.layers import MeasureUnit
from generator.models.options import RULE_ID, CaseOption
from generator.models.recipient_rules import ComputedFact, LayerFact, RecipientsParams
from generator.models.slots import case_slot, template_slots
from generator.models.timing import Calendar, Event, TimeCounting, Timing, TimingType

PACK_ID = r"^[a-z]{2}(-[a-z0-9]+)+$"


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


class NthHearing(Model):
    """One hearing of a body counted in date order: `council#2` is the council's second hearing.

    Written `council#2` or `{body: council, nth: 2}`. A statute that times one hearing from
    another ("the second hearing at least 10 days after the first") names them so.
    """

    body: Body = Field(description="The body whose hearings are counted.")
    nth: int = Field(ge=1, le=9, description="Which of its hearings, in date order (1 = first).")

    @model_validator(mode="before")
    @classmethod
    def _written(cls, value: Any) -> Any:
        if isinstance(value, str):
            body, sep, nth = value.partition("#")
            if not sep or not nth.isdigit():
                raise ValueError(
                    f"a hearing is council, planning, first, each, or a body's nth hearing"
                    f" written like council#2 (got {value[:40]!r})"
                )
            return {"body": body, "nth": int(nth)}
        return value

    @property
    def value(self) -> str:
        """The selector as written: `council#2`."""
        return f"{self.body.value}#{self.nth}"

    def pick(self, case: Case) -> Hearing | None:
        """The hearing this names in `case`, if the case lists that many hearings of the body."""
        held = [h for h in case.hearings if h.body == self.body]
        return held[self.nth - 1] if len(held) >= self.nth else None

    def serves(self, hearing: Hearing, case: Case) -> bool:
        """Whether `hearing` is the one this names."""
        return self.pick(case) is hearing


def _selector(value: Any) -> Any:
    """`council` is a role, `council#2` a numbered hearing: one message for anything else."""
    if not isinstance(value, str):
        return value
    if value in HearingRef._value2member_map_:
        return HearingRef(value)
    if "#" in value:
        return NthHearing.model_validate(value)
    raise ValueError(
        f"a hearing is council, planning, first, each, or a body's nth hearing written like"
        f" council#2 (got {value[:40]!r})"
    )


# A rule's `hearing`: a role (`council`, `planning`, `first`, `each`) or one numbered hearing.
HearingSelector = Annotated[HearingRef | NthHearing, BeforeValidator(_selector)]


class Places(Model):
    """Posting places a notice rule names."""

    count: int = Field(ge=1, json_schema_extra=stricter("max"))
    description: str = Field(json_schema_extra=stricter("prose"))


class NoticeParams(Model):
    """A notice that must (or may) be given through one channel."""

    channel: Channel
    document: DocumentKind
    hearing: HearingSelector = Field(
        HearingRef.EACH,
        description="The hearing the notice is for: council, planning, first, each, or a body's"
        " nth hearing (`council#2`).",
    )
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
    ACCOMMODATION = "accommodation"
    # A clause the pack words itself (`template`): no template of ours knows it by name.
    CUSTOM = "custom"


# The documents whose templates print a pack-defined clause (the notice's shared body): a custom
# clause naming any other document would be accepted and never printed, so it is refused.
PRINTS_CUSTOM = (
    DocumentKind.NEWSPAPER_NOTICE,
    DocumentKind.DISPLAY_AD,
    DocumentKind.LETTERS,
    DocumentKind.POSTING_NOTICE,
    DocumentKind.WEBSITE_NOTICE,
)


class ClauseType(Model):
    """The type a statute asks a clause to be set in ("in bold 14-point type or larger").

    Printed so in HTML, PDF and Word; a plain-text copy carries a line to the typesetter. The
    linter checks it in a PDF and a Word file, and says so where the format cannot show type.
    """

    bold: bool = Field(
        False,
        description="The clause is set in bold (boldface) type.",
        json_schema_extra=stricter("or"),
    )
    min_points: float | None = Field(
        None,
        gt=0,
        le=72,
        description='The smallest type size the law allows, in points (14 for "14-point type'
        ' or larger"); the clause is printed at this size.',
        json_schema_extra=stricter("max"),
    )

    @model_validator(mode="after")
    def _says_something(self) -> ClauseType:
        if not self.bold and self.min_points is None:
            raise ValueError("a clause's `type` asks `bold: true`, a `min_points`, or both")
        return self

    def describe(self) -> str:
        """The type in words: "bold 14-point type or larger"."""
        size = f"{self.min_points:g}-point " if self.min_points is not None else ""
        larger = " or larger" if self.min_points is not None else ""
        return f"{'bold ' if self.bold else ''}{size}type{larger}"


class Placement(StrEnum):
    """Where in a notice a pack-defined clause is printed."""

    BEFORE_HEARING = "before_hearing"  # before the sentence giving the hearing's time and place
    AFTER_HEARING = "after_hearing"  # right after it (and the list of later hearings)
    END = "end"  # after the notice's content, before whom to contact


# A recogniser's term: a word or a short regular expression, matched case-blind as a whole word;
# a `*` after a letter stands for any ending ("examin*": examine, examined, examination).
_WILDCARD = re.compile(r"(?<=[A-Za-z])\*")
DATE_TERM, TIME_TERM = "<date>", "<time>"


class RemoteOnly(Model):
    """A time the law let a hearing be held only remotely: a link may then be its place.

    Between `from` and `to`, judged by the date of the hearing the notice gives.
    """

    citation: str = Field(min_length=1)
    text: str | None = prose("What the law says, in its words or closely paraphrased.")
    from_: IsoDate | None = Field(None, alias="from")
    to: IsoDate | None = None

    def covers(self, day: date) -> bool:
        """Whether a hearing on `day` may be held only remotely."""
        return (self.from_ is None or self.from_ <= day) and (self.to is None or day <= self.to)


def term_pattern(term: str) -> str:
    """The regular expression a recogniser's term stands for (whole words, `*` any ending)."""
    body = _WILDCARD.sub(r"\\w*", term)
    head = r"\b" if re.match(r"[\w(\[]", term) else ""
    tail = r"\b" if re.search(r"[\w)\]?*]$", term) else ""
    return f"{head}(?:{body}){tail}"


@lru_cache(maxsize=1024)
def role_pattern(terms: tuple[str, ...]) -> re.Pattern[str] | None:
    """One expression for a role's terms (None if only `<date>`/`<time>` fill it).

    Compiled when the pack is loaded, so the workers that check documents inherit it.
    """
    words = [term_pattern(t) for t in terms if t not in (DATE_TERM, TIME_TERM)]
    return re.compile("|".join(words), re.IGNORECASE) if words else None


def _compiles(patterns: list[str], what: str) -> None:
    for p in patterns:
        try:
            re.compile(p, re.IGNORECASE)  # as the linter uses it: compiled once, cached by `re`
        except re.error as exc:
            raise ValueError(f"{what} {p!r} does not compile: {exc}") from None


class ClauseChecks(Model):
    """How a linter recognizes the clause in any wording, and the sentences that prove it does.

    A clause is recognized when one sentence (or paragraph, `within`) names every role of one of
    its `terms` sets and no `unless` pattern, or when one `any_pattern` matches; and then only if
    every `all_patterns` matches too. `examples` are real sentences it must recognize,
    `not_examples` look-alikes it must not: the tests run them for every pack.
    """

    terms: list[dict[str, list[str]]] = Field(
        default_factory=list,
        description="Sets of key terms by the role they play; every role of one set must be"
        " named in one sentence (or `within`). `<date>`, `<time>` stand for any date or time.",
        json_schema_extra=stricter("union"),
    )
    within: Literal["sentence", "paragraph", "document"] = "sentence"
    unless: list[str] = Field(
        default_factory=list,
        description="A sentence matching one of these does not count for `terms`.",
        json_schema_extra=stricter("union"),
    )
    any_pattern: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    all_patterns: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    facts: list[str] = Field(
        default_factory=list,
        description="Case values that must appear.",
        json_schema_extra=stricter("union"),
    )
    examples: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    not_examples: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    remote_only: list[RemoteOnly] = Field(
        default_factory=list,
        description="When the law allowed a hearing held only remotely, with its citation: for"
        " a hearing on a date one of them covers, a link or a line to call states"
        " `<hearing.place>`. Otherwise a notice whose hearing has only such a place is NL017.",
        json_schema_extra=stricter("union"),
    )
    es: ClauseChecks | None = Field(
        None,
        description="The clause recognised in Spanish text: terms, patterns and examples in"
        " Spanish (the hearing tokens, `facts` and `remote_only` are this recogniser's). Unstated,"
        " the linter's Spanish words for the clause's topic (generator/lint/spanish.yaml).",
    )

    @field_validator("terms", mode="before")
    @classmethod
    def _one_or_more_sets(cls, value: Any) -> Any:
        return [value] if isinstance(value, dict) else value

    @field_validator("terms")
    @classmethod
    def _terms_compile(cls, sets: list[dict[str, list[str]]]) -> list[dict[str, list[str]]]:
        for roles in sets:
            if not roles:
                raise ValueError("a set of terms names at least one role")
            for role, terms in roles.items():
                if not terms:
                    raise ValueError(f"role {role!r} has no terms")
                try:
                    role_pattern(tuple(terms))
                except re.error:
                    _compiles([term_pattern(t) for t in terms], f"a term of {role!r}")
        return sets

    @field_validator("any_pattern", "all_patterns", "unless")
    @classmethod
    def _patterns_compile(cls, patterns: list[str]) -> list[str]:
        _compiles(patterns, "pattern")
        return patterns


_LEADS = (TimingType.AT_LEAST_BEFORE, TimingType.BUSINESS_DAYS_BEFORE)


class ClauseParams(Model):
    """A clause that a document must contain."""

    documents: list[DocumentKind] = Field(min_length=1, json_schema_extra=stricter("union"))
    topic: ClauseTopic
    wording: str | None = prose("The statement as the law words it.")
    must_show: list[str] = Field(default_factory=list, json_schema_extra=stricter("union"))
    checks: ClauseChecks = Field(default_factory=ClauseChecks)
    every_meeting_notice: bool = Field(
        False,
        description="The clause binds every notice of the meeting among its `documents`, also"
        " one this pack's notice rules do not require that day (an open-meetings rule); other"
        " clauses bind a kind of document only while a notice rule of the pack requires it.",
        json_schema_extra=stricter("or"),
    )
    request_lead: Timing | None = Field(
        None,
        description="Accommodation clauses: how far before the hearing the law has requests for"
        " an accommodation made; the notice states the day it falls on.",
    )
    template: str | None = Field(
        None,
        description="Topic `custom`: the statement every document it names prints, with"
        " `{slots}`: a value of `slots`, a case value (`{municipality.body_name}`,"
        " `{hearing.date}`, ...) or `{option.<id>}`.",
        json_schema_extra=stricter("prose"),
    )
    slots: dict[str, str | int | float] = Field(
        default_factory=dict,
        description="Topic `custom`: the values the pack fixes for the template's slots"
        " (`{limitation_days: 30}`); the other slots read the case.",
    )
    placement: Placement | None = Field(
        None,
        description="Topic `custom`: where the clause is printed: before_hearing,"
        " after_hearing or end.",
    )
    type: ClauseType | None = Field(
        None,
        description="Topic `custom`: the type the law asks the statement to be set in"
        " (`{bold: true, min_points: 14}`): printed so, and checked in PDF and Word files.",
    )

    @model_validator(mode="after")
    def _custom_is_worded(self) -> ClauseParams:
        custom = self.topic == ClauseTopic.CUSTOM
        if not custom:
            if self.template or self.slots or self.placement or self.type:
                raise ValueError(
                    "`template`, `slots`, `placement` and `type` belong to a clause of topic"
                    " `custom`; our templates word the other topics (`wording` replaces ours)"
                )
            return self
        if not (self.template and self.placement):
            raise ValueError("a clause of topic `custom` states its `template` and `placement`")
        unprinted = [d.value for d in self.documents if d not in PRINTS_CUSTOM]
        if unprinted:
            raise ValueError(
                f"documents: a clause of topic `custom` is printed only in"
                f" {', '.join(d.value for d in PRINTS_CUSTOM)}; not in {', '.join(unprinted)}"
            )
        named = template_slots(self.template)
        for name in named:
            if name not in self.slots and not case_slot(name):
                fixed = ", ".join(self.slots) or "none"
                raise ValueError(
                    f"the template names {{{name}}}, which is neither a value of `slots`"
                    f" (the pack's: {fixed}) nor a case value (`notices explain --reference` lists them)"
                )
        for name in self.slots:
            if case_slot(name):
                raise ValueError(f"slot {name!r} is a case value; the pack cannot fix it")
            if name not in named:
                raise ValueError(f"slot {name!r} is not named in the template")
        return self

    @model_validator(mode="after")
    def _lead_for_requests(self) -> ClauseParams:
        if self.request_lead and self.topic != ClauseTopic.ACCOMMODATION:
            raise ValueError("only an accommodation clause names a request_lead")
        lead = self.request_lead
        if lead and (lead.type not in _LEADS or lead.event != Event.HEARING):
            raise ValueError(
                "a request_lead is counted back from the hearing: at_least_before or"
                " business_days_before"
            )
        return self


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
    min_columns: int | None = Field(
        None,
        ge=1,
        description="A display ad at least this many of the paper's columns wide (\"no less than"
        ' 2 columns wide").',
        json_schema_extra=stricter("max"),
    )
    min_depth_in: float | None = Field(
        None,
        gt=0,
        description='A display ad at least this many inches deep ("by 10 inches long").',
        json_schema_extra=stricter("max"),
    )
    headline_min_pt: float | None = Field(
        None,
        gt=0,
        description='The display ad\'s headline in type no smaller than this ("18 point").',
        json_schema_extra=stricter("max"),
    )
    headline: str | None = prose(
        "The ad's headline in the words of the law's form (\"NOTICE OF ZONING CHANGE\"), in place"
        " of the notice's usual title."
    )
    placement: str | None = prose(
        'Where in the paper the ad may run, for the ad desk ("not where legal notices and'
        ' classified advertisements appear").'
    )
    high_contrast: bool = True


class ProofParams(Model):
    """A sworn or certified record that a notice was given."""

    document: DocumentKind
    proves: list[str] = Field(
        min_length=1,
        description="The ids of the notice rules it covers; a supplementing rule adds to them.",
        json_schema_extra=stricter("adds"),
    )
    notarized: bool = Field(False, json_schema_extra=stricter("or"))
    signed_by: str | None = prose()
    certify_to: str | None = prose("To whom the proof is made, as the law names them.")
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
    hearing: HearingSelector = Field(
        HearingRef.COUNCIL,
        description="The hearing the deadline belongs to (`council#2`: the council's second).",
    )
    timing: Timing
    from_hearing: NthHearing | None = Field(
        None,
        description="hold_hearing: count the timing from this other hearing of the case"
        ' (`council#1`) instead of from `event` ("the second hearing at least 10 days after the'
        ' first"); a hearing the case sets earlier than the timing allows is an error.',
    )
    extendable_by_applicant: bool = False
    condition_text: str | None = prose()

    @model_validator(mode="after")
    def _from_a_hearing(self) -> DeadlineParams:
        if self.from_hearing is None:
            return self
        if self.action != "hold_hearing" or self.timing.type != TimingType.AT_LEAST_AFTER:
            raise ValueError(
                "`from_hearing` times a hearing from another: action hold_hearing with a timing"
                " of type at_least_after"
            )
        if self.timing.event != Event.HEARING:
            raise ValueError("with `from_hearing` the timing counts from that hearing: no `event`")
        if self.from_hearing == self.hearing:
            raise ValueError("`from_hearing` names the same hearing as `hearing`")
        return self


class Fraction(Model):
    """A vote fraction, e.g. 3/4 of all members."""

    numerator: int = Field(ge=1)
    denominator: int = Field(ge=1)

    @property
    def value(self) -> float:
        """The fraction as a number."""
        return self.numerator / self.denominator


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
    rounding: Literal["nearest_half_up", "up", "more_than"] = Field(
        "up",
        description="A fraction of a member: `up` to a whole member, `nearest_half_up`, or"
        ' `more_than`: the next whole number above the fraction ("a majority of all members":'
        " 1/2 with `more_than`, 4 of 6 or of 7).",
    )


class Threshold(Model):
    """A share of owners whose protest triggers the supermajority."""

    share: float = Field(gt=0, le=1)
    measure: Literal["area", "area_and_count"]
    of: Literal["lots_in_change", "lots_within_radius", "zoning_area"]
    radius_ft: float | None = None
    includes_rights_of_way: bool = False
    across_streets_narrower_than_ft: float | None = None
    # How the share is counted where the law is silent, stated so a reader can check it:
    # a parcel split by the area's line counts by its part within, or whole; a parcel of
    # several owners counts whole on one owner's signature, or by the share of its named owners
    # who signed; condominium units drawn on one footprint share its area, and each counts as one.
    split_parcels: Literal["area_within", "whole_parcel"] = "area_within"
    joint_owners: Literal["one_signature_counts_parcel", "share_of_named_owners"] = (
        "one_signature_counts_parcel"
    )
    stacked_units: Literal["share_footprint"] = "share_footprint"
    vote: Vote | None = Field(
        None,
        description="The vote a protest meeting only this threshold forces, where the law sets"
        " one apart from the rule's `vote` (a larger share of adjoining owners, a simple majority)."
        " A protest meeting several thresholds forces the largest of their votes.",
    )


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
        # The body may not meet on a day its offices are closed (the pack's calendar): a hearing
        # set on one is an error, not the warning every other closed-day hearing gets.
        "no_hearing_on_closed_day",
    ]
    body: Body | None = None
    amount: float | None = None


class HearingTimeParams(Model):
    """When in the day and the week the hearings a rule selects are held ("after 5 p.m. on a weekday").

    A case whose hearings break it is an error (SCHED005) naming the rule; a hearing that starts
    at the very minute of `after` is a warning (SCHED006): whether "after 5 p.m." includes
    5:00 p.m. is the attorney's reading. A body's power to choose another time is written as
    the rule's `when` on a case option, so an election the case records lifts the check.
    """

    hearing: HearingSelector = Field(
        HearingRef.COUNCIL,
        description="The hearings judged: council, planning, first, each, or `council#2`.",
    )
    after: ClockTime | None = Field(
        None, description='The hearing starts after this time of day ("17:00").'
    )
    weekdays_only: bool = Field(
        False, description="The hearing is held Monday to Friday.", json_schema_extra=stricter("or")
    )
    at_least_one: bool = Field(
        False,
        description='One of the selected hearings meets it, not each ("at least one hearing shall'
        ' be held after 5 p.m.").',
    )

    @model_validator(mode="after")
    def _says_something(self) -> HearingTimeParams:
        if self.after is None and not self.weekdays_only:
            raise ValueError("a hearing_time rule states `after`, `weekdays_only` or both")
        return self


class ContinuanceParams(Model):
    """How a hearing continued to another day must be noticed again.

    `by_announcement`: `no_renotice` where the law lets the body continue the hearing to a date,
    time and place announced at the hearing without new notice; `silent` where the law says
    nothing, and then every continuance is noticed again in full (and a finding says why).
    A continuance not announced to a date certain is always noticed again in full.
    """

    by_announcement: Literal["no_renotice", "silent"] = Field(
        description="`no_renotice` or `silent`; a narrower pack's `no_renotice` fills a broader"
        " pack's silence.",
        json_schema_extra=stricter("stated"),
    )
    hearing: HearingRef = HearingRef.EACH


class ReturnedMailParams(Model):
    """What the law requires when a mailed notice comes back undeliverable.

    `nothing`: the failure to receive notice does not invalidate the action; `remail`: send the
    notice again to another address of the owner in the tax record; `silent`: the law says
    nothing, and a finding says so (the re-mailing is still written where the record has
    another address).
    """

    next: Literal["nothing", "remail", "silent"] = Field(
        description="`nothing`, `remail` or `silent`; a narrower pack's stated value fills a"
        " broader pack's silence.",
        json_schema_extra=stricter("stated"),
    )


class Effective(Model):
    """The dates between which a rule is law, judged by the hearing's date or the filing's."""

    from_: IsoDate | None = Field(None, alias="from")
    to: IsoDate | None = None
    judged_by: Literal["hearing", "filing"] = Field(
        "hearing",
        description="Which case date decides whether this version governs: the hearing noticed,"
        " or the filing of the application or petition (the case's `petition_received`), where"
        " the enacting law applies by when a proposal was made. Without that date the version"
        " in force on the hearing's date is applied, and the plan says so (PLAN010).",
    )

    def covers(self, day: date) -> bool:
        """Whether the rule is in force on `day`."""
        return (self.from_ is None or self.from_ <= day) and (self.to is None or day <= self.to)

    def overlaps(self, other: Effective) -> bool:
        """Whether some day is covered by both."""
        start = max(self.from_ or date.min, other.from_ or date.min)
        return start <= min(self.to or date.max, other.to or date.max)


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


class HearingTimeRule(Rule):
    """The time of day and the days of the week a hearing is held."""

    kind: Literal["hearing_time"]
    params: HearingTimeParams


class ContinuanceRule(Rule):
    """Whether a continued hearing is noticed again."""

    kind: Literal["continuance"]
    params: ContinuanceParams


class ReturnedMailRule(Rule):
    """What follows a mailed notice returned undeliverable."""

    kind: Literal["returned_mail"]
    params: ReturnedMailParams


AnyRule = Annotated[
    NoticeRule
    | RecipientsRule
    | ClauseRule
    | FormatRule
    | ProofRule
    | DeadlineRule
    | ProtestRule
    | ProcedureRule
    | HearingTimeRule
    | ContinuanceRule
    | ReturnedMailRule,
    Field(discriminator="kind"),
]


KINDS = (
    "notice",
    "recipients",
    "clause",
    "format",
    "proof",
    "deadline",
    "protest",
    "procedure",
    "hearing_time",
    "continuance",
    "returned_mail",
)


class Source(Model):
    """A law the pack encodes."""

    citation: str
    title: str
    href: str | None = None
    as_of: IsoDate | None = None


class Terms(Model):
    """How the jurisdiction names things in its notices; the narrowest pack that says wins."""

    ordinance: str | None = Field(
        None, description='"Zoning Ordinance", "Unified Development Ordinance".'
    )
    zoning_map: str | None = Field(None, description='"Official Zoning Map".')
    hearing: str | None = Field(None, description='"public hearing", "legislative hearing".')


class TextFact(Model):
    """A fact of the case a notice settles in its own words ("REZONING FROM: R-1 … TO: C-3").

    Linted without its case, a rule whose `when` turns on the fact is decided when the words are
    there; without them the fact stays unknown (never false), and the rule needs the case.
    """

    fact: str = Field(description="A condition fact (`map_change`, ...).")
    value: bool | str = True
    text: str = prose("Why such words settle the fact.")
    checks: ClauseChecks

    @field_validator("fact")
    @classmethod
    def _known_fact(cls, fact: str) -> str:
        if fact not in conditions.FACTS:
            raise ValueError(f"{fact!r} is not a fact a condition can test")
        return fact


class Municipality(Model):
    """The municipality a pack serves, as its notices name it."""

    name: str = Field(min_length=1, description='As the law names it: "Newport".')
    kind: MunicipalityKind = Field(
        description="city, town, village, borough, township or county: the `municipality_kind`"
        " fact and the `{municipality.kind}` slot, for wording (City Council, Select Board)."
    )


class LegalRateCap(Model):
    """A statute's cap on what a newspaper may charge for a legal notice.

    The insertion order prints the cap and its citation for the legal desk; a cap in dollars
    (`per_line` or `per_column_inch`) is also checked against the paper's rate card (ORDER002).
    """

    citation: str = Field(min_length=1)
    text: str = Field(min_length=1, description="The statute, quoted or closely paraphrased.")
    limit: str = Field(
        min_length=1,
        description='The cap as the order states it: "the newspaper\'s local commercial rate".',
    )
    per_line: Decimal | None = Field(
        None, gt=0, description="A cap in dollars per line of the legal column, first insertion."
    )
    per_column_inch: Decimal | None = Field(
        None, gt=0, description="A cap in dollars per column inch, first insertion."
    )


class PublicationCosts(Model):
    """Who pays the newspaper for a case's legal notice, as the ordinance says."""

    paid_by: Literal["applicant", "municipality"] = Field(
        description="applicant: the order bills the applicant; municipality: the municipality."
    )
    citation: str = Field(min_length=1)
    text: str = Field(
        min_length=1, description="The ordinance or fee schedule, quoted or closely paraphrased."
    )


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
    measure_unit: MeasureUnit | None = Field(
        None,
        description="The unit of `measure_crs`, as its definition states it: the international"
        " foot (0.3048 m) or the US survey foot (1200/3937 m).",
    )
    governing_body: str | None = Field(
        None, description='Municipal packs: the body as printed, "City Council", "Select Board".'
    )
    municipality: Municipality | None = Field(
        None, description="Municipal packs: the municipality served and its kind."
    )
    terms: Terms = Field(default_factory=Terms)
    languages: Languages = Field(
        default_factory=Languages,
        description="The languages the pack's notices are written in (`layout`), and the Spanish"
        " of its own words (terms, governing body, clause wordings).",
    )
    legal_rate_cap: LegalRateCap | None = Field(
        None,
        description="A statute's cap on legal-notice rates, printed on the insertion order;"
        " the narrowest pack that states one wins.",
    )
    publication_costs: PublicationCosts | None = Field(
        None, description="Who pays the newspaper: the insertion order's bill-to."
    )
    sources: list[Source] = Field(min_length=1)
    time_counting: TimeCounting | None = None
    calendar: Calendar | None = None
    layer_facts: list[LayerFact] = Field(default_factory=list)
    computed_facts: list[ComputedFact] = Field(
        default_factory=list,
        description="Counts and sums over the recipients and parcels, tested as `computed.<id>`.",
    )
    text_facts: list[TextFact] = Field(
        default_factory=list,
        description="What a notice's own words settle about its case, for a lint without one.",
    )
    options: list[CaseOption] = Field(default_factory=list)
    rules: list[AnyRule] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unit_stated_with_crs(self) -> Pack:
        # A CRS in feet says which foot; a pack states it as data, and a test checks it.
        if (self.measure_crs is None) != (self.measure_unit is None):
            raise ValueError("`measure_crs` and `measure_unit` are stated together")
        return self

    @model_validator(mode="after")
    def _state_packs_are_complete(self) -> Pack:
        if self.level == "state" and not (
            self.state and self.timezone and self.time_counting and self.calendar
        ):
            raise ValueError(
                "a state pack needs `state`, `timezone`, `time_counting` and `calendar`"
            )
        if (
            self.level == "state"
            and self.calendar
            and (self.calendar.categories is None or self.calendar.observed is None)
        ):
            raise ValueError(
                "a state pack's calendar chooses the holidays library's `categories` and says"
                " which days are `observed` (jurisdictions/README.md, Calendars)"
            )
        return self

    @field_validator("layer_facts")
    @classmethod
    def _one_reading_a_fact(cls, facts: list[LayerFact]) -> list[LayerFact]:
        _once([f.fact for f in facts], "the fact {!r} is read twice")
        return facts

    @field_validator("computed_facts")
    @classmethod
    def _one_count_an_id(cls, facts: list[ComputedFact]) -> list[ComputedFact]:
        _once([f.id for f in facts], "the computed fact {!r} is declared twice")
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
        for rule_id, why in clashing_ids(rules):
            raise ValueError(f"rule id {rule_id!r} is used twice: {why}")
        return rules


def clashing_ids(rules: list[Rule]) -> list[tuple[str, str]]:
    """Ids declared twice other than as versions of one rule: of one kind, never in force together.

    A rule id may be declared once for each version of the law it encodes (G.S. 160A-364 until
    Chapter 160D replaced it, then G.S. 160D-601), so that what names the rule names the law of
    the day; two versions in force on the same day would make that ambiguous.
    """
    by_id: dict[str, list[Rule]] = {}
    for rule in rules:
        by_id.setdefault(rule.id, []).append(rule)
    out = []
    for rule_id, versions in sorted(by_id.items()):
        pairs = [(a, b) for i, a in enumerate(versions) for b in versions[i + 1 :]]
        if any(a.kind != b.kind for a, b in pairs):
            out.append((rule_id, "the versions of one rule are of one kind"))
        elif any(a.effective.overlaps(b.effective) for a, b in pairs):
            out.append(
                (rule_id, "the versions of one rule have `effective` dates that never overlap")
            )
    return out


def _once(names: list[str], message: str) -> None:
    """Refuse the first name given twice, as `message` words it."""
    for dup in sorted({n for n in names if names.count(n) > 1}):
        raise ValueError(message.format(dup))
