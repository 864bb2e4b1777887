"""Every finding the product can report, declared once; and the one `Finding` type.

As Ruff and Vale declare their rules, each code here has a stable meaning, one severity, a
summary, where its citation comes from, an explanation, and an example of a case or document
that passes and one that fails. `notices lint --explain CODE` prints the entry, and
`docs/findings.md` is generated from this table. The law a finding applies travels with the
finding itself (the pack rule's id and citation), never from here.

A packet is ready when none of its findings is an error: `ready()` is the one place that says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

Severity = Literal["error", "warning", "info"]
RANK = {"error": 0, "warning": 1, "info": 2}

# Where a finding's citation comes from.
FROM_RULE = "the pack rule the finding applies"
FROM_NOTICE = "the notice rule that requires the document"
FROM_FORMAT = "the format rule of the document (its size or legibility)"
NONE = "none: the finding is about the case or the files, not a rule"


@dataclass(frozen=True)
class Declared:
    """One kind of finding: its code, what it means, and an example each way."""

    code: str
    name: str
    severity: Severity  # "error": the packet is not ready / the notice fails the law
    # The stage that reports it: plan, law, recipients, gis, schedule, mail, sign, posting, ad,
    # order, proof, lint.
    stage: str
    summary: str
    explanation: str
    citation: str
    passing: str
    failing: str


@dataclass(frozen=True)
class Finding:
    """One thing found, with the rule and citation behind it and where in which document."""

    code: str
    message: str
    rule: str | None = None  # the pack rule applied
    citation: str | None = None
    document: str | None = None  # a file of the packet (or the file linted)
    paragraph: int | None = None
    page: int | None = None
    line: int | None = None
    quote: str | None = None

    def __post_init__(self) -> None:
        if self.code not in FINDINGS:
            raise KeyError(f"finding {self.code} is not declared in generator/findings.py")

    @property
    def severity(self) -> Severity:
        """The declared severity of the code."""
        return FINDINGS[self.code].severity

    @property
    def name(self) -> str:
        """The declared name of the code."""
        return FINDINGS[self.code].name

    @property
    def where(self) -> str:
        """`page 2, line 5` or `paragraph 12`, as a reader finds it."""
        return where(self.as_dict()["location"])

    def as_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data: every output format keeps all of it."""
        location = {
            key: value
            for key, value in (
                ("paragraph", self.paragraph),
                ("page", self.page),
                ("line", self.line),
                ("quote", self.quote),
            )
            if value is not None
        }
        return {
            "code": self.code,
            "name": self.name,
            "severity": self.severity,
            "rule": self.rule,
            "citation": self.citation,
            "message": self.message,
            "document": self.document,
            "location": location,
        }


def where(location: dict[str, Any]) -> str:
    """A finding's location (as `as_dict` gives it) as a reader finds it: `page 2, line 5`."""
    if location.get("page") is not None:
        line = location.get("line")
        return f"page {location['page']}" + (f", line {line}" if line else "")
    return f"paragraph {location['paragraph']}" if location.get("paragraph") else ""


def cited(binding: Any) -> dict[str, str]:
    """`rule=` and `citation=` of a finding about a binding (a rule and the rules it merged)."""
    return {"rule": binding.rule.id, "citation": "; ".join(dict.fromkeys(binding.citations))}


def ready(findings: Iterable[Finding]) -> bool:
    """Whether a packet with these findings may go out: none of them is an error."""
    return not any(f.severity == "error" for f in findings)


def ordered(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, then notes; otherwise in the order found."""
    return sorted(findings, key=lambda f: RANK[f.severity])


def explain(code: str) -> str:
    """The documentation of one code, as `notices lint --explain` prints it."""
    d = FINDINGS[code.upper()]
    return (
        f"{d.code} {d.name} ({d.severity}; reported by the {d.stage} stage)\n\n{d.summary}\n\n"
        f"{d.explanation}\n\nCitation: {d.citation}.\n\nFails: {d.failing}\n\n"
        f"Passes: {d.passing}\n"
    )


def reference() -> str:
    """The findings reference (docs/findings.md), generated from the table below."""
    out = [
        "# Findings",
        "",
        "Generated from `generator/findings.py` by `make docs`; do not edit by hand.",
        "Every code `notices build`, `notices recipients` or `notices lint` can report, with the",
        "stage that reports it. Each finding also names the pack rule it applies and that rule's",
        "citation. A packet with an error is not ready.",
        "",
        "| code | name | severity | stage | summary |",
        "|---|---|---|---|---|",
    ]
    out += [
        f"| {d.code} | {d.name} | {d.severity} | {d.stage} | {d.summary} |"
        for d in FINDINGS.values()
    ]
    for d in FINDINGS.values():
        out += [
            "",
            f"## {d.code} {d.name}",
            "",
            d.explanation,
            "",
            f"- Severity: {d.severity}; stage: {d.stage}",
            f"- Citation: {d.citation}",
            f"- Fails: {d.failing}",
            f"- Passes: {d.passing}",
        ]
    return "\n".join(out) + "\n"


def _once(declared: tuple[Declared, ...]) -> dict[str, Declared]:
    """The findings by code; a code declared twice stops the import (a merge once did it)."""
    codes = [d.code for d in declared]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise ValueError(f"findings declared twice: {', '.join(twice)}")
    return {d.code: d for d in declared}


FINDINGS: dict[str, Declared] = _once(
    (
        # ------------------------------------------------------------------ planning
        Declared(
            "PLAN001",
            "fact-missing-for-clause",
            "error",
            "plan",
            "A clause the law requires cannot be written: the case lacks the fact it states.",
            "Each clause rule binding a document names a topic (the map, the intent and effect,"
            " the proposed use, the area, the merger clause). When the case gives nothing to say"
            " for it, the notice cannot comply and the packet is not ready; the message names the"
            " field to add. A pack-defined clause (topic `custom`) whose template names a slot the"
            " case leaves empty is left out of the notices, never printed with its braces.",
            FROM_RULE,
            "The East Providence sample, whose amendment states its intent and effect.",
            "The same case without `amendment.intent_and_effect`, where the state's law has a"
            " summary state the intent and effect.",
        ),
        Declared(
            "PLAN002",
            "hearing-not-listed",
            "warning",
            "plan",
            "The pack requires newspaper notice of a hearing the case does not list.",
            "A notice rule serves a hearing by body (`council`, `planning`); when the case lists no"
            " hearing of that body, no notice of it is planned. Add the hearing, or confirm that"
            " this case does not need it.",
            FROM_RULE,
            "An Oklahoma map case listing both its planning-commission and council hearings.",
            "The same case listing only the planning commission's hearing, where the state's law"
            " requires newspaper notice of the council's.",
        ),
        Declared(
            "PLAN003",
            "no-newspaper",
            "warning",
            "plan",
            "The case names no newspaper, so the ad copy is addressed to none.",
            "The notice is written, but without `newspaper:` no publication days, copy deadline or"
            " paper's name can be given.",
            NONE,
            "Any sample case with a `newspaper:` section.",
            "A case whose pack requires newspaper notice and which has no `newspaper:`.",
        ),
        Declared(
            "PLAN004",
            "map-shows-too-little",
            "warning",
            "plan",
            "The map must show features that it does not show (or is not known to show).",
            "A map clause may list what the map must show (`must_show`: streets, landmarks,"
            " boundaries). A drawn map reports what it shows; a clerk's image shows only what"
            " `map.shows` says once checked.",
            FROM_RULE,
            "A map drawn from GIS layers with streets, districts and municipal boundaries.",
            "A clerk's map image without `map.shows`, where the pack requires street names.",
        ),
        Declared(
            "PLAN005",
            "facts-assumed",
            "info",
            "plan",
            "Facts the case does not state were taken as false or absent.",
            "Rules turn on facts (an airport nearby, a conservation restriction). A fact the case"
            " leaves unstated counts as false; the note names each one so a clerk can state it.",
            NONE,
            "A case that states every fact its pack's conditions read.",
            "An Arizona case that does not say whether the land is near a military airport.",
        ),
        Declared(
            "PLAN006",
            "clause-unmarked",
            "error",
            "plan",
            "A required clause is missing from the HTML or Word file of a generated notice.",
            "Every clause the pack requires is marked in the HTML (`data-clause`) and the DOCX"
            " (a bookmark `clause_<rule id>`); a template that drops a clause fails here, before"
            " the notice reaches the paper.",
            FROM_RULE,
            "Every notice built from the project's templates.",
            "A jurisdiction template override that leaves out the `may_be_amended` block.",
        ),
        Declared(
            "PLAN007",
            "notice-by-hand",
            "info",
            "plan",
            "A notice the law requires (or allows) that this version does not generate.",
            "The clerk sees the whole duty: every notice rule in force whose document no builder"
            " made (nobody to mail, a channel without a builder, an optional notice left to an"
            " official) is listed with its citation and timing, to be given by hand.",
            FROM_RULE,
            "A Rhode Island case: every notice its pack requires is generated.",
            "An Arizona text case electing the utility-bill insert, which is not generated.",
        ),
        Declared(
            "PLAN008",
            "alternative-offered",
            "info",
            "plan",
            "The law allows this case an alternative the case has not elected.",
            "Packs declare options (a sign, half-page ads instead of letters); when an elected"
            " option's notice would apply, the plan says how to elect it.",
            FROM_RULE,
            "A Shelby case with fewer than 50 properties (no alternative applies).",
            "A Shelby map case with more than 50 properties of 50 owners that has not set"
            " `options.large_scale_alternative`.",
        ),
        Declared(
            "PLAN009",
            "notice-not-before-hearing",
            "error",
            "plan",
            "A notice would go out on or after the day of the hearing it announces.",
            "Every document is dated on the day it goes out (an issue, a mailing or posting"
            " day from the schedule); a notice that reaches its readers when the hearing is over"
            " gives no notice, so the packet is not ready until the case's dates allow it.",
            FROM_NOTICE,
            "Every sample case (each notice goes out by its last lawful day).",
            "A letter the law sets no day for, alone for its hearing, judged as of the day after"
            " the hearing.",
        ),
        Declared(
            "PLAN010",
            "effective-by-filing-unknown",
            "warning",
            "plan",
            "A rule's version is chosen by the filing date, which the case does not give.",
            "Some amending laws apply by when a proposal was made, not when it is heard"
            " (`effective: {judged_by: filing}`). Without the case's `petition_received` the"
            " version in force on the hearing's date is applied; the finding names the rule so a"
            " clerk can state the date.",
            FROM_RULE,
            "A Texas case that gives `petition_received`.",
            "A Texas map case heard in October 2025 that does not say when it was filed.",
        ),
        # ------------------------------------------------------------ accommodation
        Declared(
            "ACC001",
            "accommodation-unreachable",
            "warning",
            "plan",
            "The accommodation line names nobody who can be reached: no telephone and no email.",
            "Every notice tells people how to ask for an interpreter, an accessible format or"
            " another accommodation, and by when (under Title II of the ADA a public entity"
            " furnishes auxiliary aids on request). The request goes to `accommodation.contact`,"
            " else to the case's `contact`; without a telephone number or an email address the"
            " line cannot be acted on.",
            NONE,
            "The East Providence sample, whose clerk has a telephone number and an email address.",
            "The same case with neither `contact.phone` nor `contact.email`.",
        ),
        Declared(
            "ACC002",
            "accommodation-lead-not-the-law",
            "warning",
            "plan",
            "The case sets its own lead time for accommodation requests where the law sets one.",
            "A pack's accommodation clause may name how far before the hearing requests are"
            " made (`request_lead`); the notices then state the day the law's lead time gives."
            " A case that also states `accommodation.days_before` (or business days, or hours)"
            " counting to another day is not followed, and the message names both days.",
            FROM_RULE,
            "A case that states no lead time of its own, or the law's.",
            "A case asking for requests seven days before a hearing where the pack's clause sets"
            " two business days.",
        ),
        Declared(
            "ACC003",
            "accommodation-due-before-insertion",
            "warning",
            "plan",
            "A newspaper insertion comes out after the day accommodation requests are due.",
            "A notice printed in several insertions carries the same text each time; when the day"
            " the accommodation line gives has passed by the day an insertion comes out, its"
            " readers cannot ask in time. Ask for requests fewer days ahead (or as early as"
            " possible), or publish the last insertion earlier.",
            FROM_NOTICE,
            "The East Providence sample: requests due Friday, March 12; last insertion March 11.",
            "A case asking for requests three days before a hearing whose last insertion runs the"
            " day before it.",
        ),
        # ----------------------------------------------------------------- the law
        Declared(
            "LAW001",
            "local-law-departs",
            "warning",
            "law",
            "A local rule departs from the state rule it supplements or replaces.",
            "Packs record each known conflict between state and local law (`conflict:`) and"
            " which binds; every case the rule applies to reports it, so the clerk knows which"
            " text governs.",
            FROM_RULE,
            "A Newport case (no recorded conflict applies).",
            "An East Providence case: the city code words the proposal statement differently"
            " from the state's law.",
        ),
        Declared(
            "LAW002",
            "state-and-local-differ",
            "warning",
            "law",
            "State and local law set different values for one requirement; the stricter binds.",
            "When a local rule supplements a state rule, each parameter merges as the pack says"
            " (the longer period, the larger distance, both lists); a difference is reported with"
            " both values and the one that binds.",
            FROM_RULE,
            "A Rhode Island case whose local rules agree with the state's.",
            "An Oklahoma city case: the city code says 10 days' published notice, the statute"
            " says 15, and 15 binds.",
        ),
        # --------------------------------------------------------------- recipients
        Declared(
            "RCPT001",
            "no-parcel-layer",
            "error",
            "recipients",
            "The law requires letters to owners but the case names no parcel layer or list.",
            "Owners are found in the county's parcel layer (`gis.parcels`) or an assessor's"
            " certified list (`gis.radius_list`); without either nobody the rule selects can be"
            " listed or mailed, and the notice the law requires cannot be given, so the packet is"
            " not ready. One finding names each owner rule, its distance and its citation.",
            FROM_RULE,
            "A map case with `gis.parcels`.",
            "The same case without its `gis:` section.",
        ),
        Declared(
            "RCPT002",
            "recipients-by-hand",
            "info",
            "recipients",
            "A group of recipients must be listed by hand.",
            "Some groups (owners directly governed by a text change) cannot be found in a parcel"
            " layer; the rule is named so the clerk lists them.",
            FROM_RULE,
            "A map case, whose groups are all found in layers.",
            "An Arizona text change of development standards mailed to owners directly governed.",
        ),
        Declared(
            "RCPT003",
            "radius-list-age",
            "info",
            "recipients",
            "The owners come from an assessor's list: its age is recorded.",
            "A certified radius list stands in for the parcel layer; the record must show how old"
            " it is on the day deadlines are judged.",
            NONE,
            "A case reading a parcel layer.",
            "A case with `gis.radius_list` and its `as_of` date.",
        ),
        Declared(
            "RCPT004",
            "radius-list-undated",
            "warning",
            "recipients",
            "The assessor's list has no as-of date.",
            "Give `gis.radius_list.as_of`: a list of unknown age cannot show that it named the"
            " owners of record.",
            NONE,
            "A radius list with `as_of`.",
            "A radius list without `as_of`.",
        ),
        Declared(
            "RCPT005",
            "recipient-without-address",
            "error",
            "recipients",
            "A person the law requires to be notified has no complete mailing address.",
            "A letter needs a street line, city, state and ZIP code. An owner whose record in the"
            " parcel layer (or the assessor's list) lacks one, or a council, agency or airport"
            " the case names without one, cannot be mailed the notice the law requires, so the"
            " packet is not ready. The finding names the recipient, the parcels and the rule;"
            " correct the layer, give the address in the case, or list the owner of record by"
            " hand under `additional_recipients` with the parcel ids (`parcels:`), which then"
            " stands in for the incomplete record.",
            FROM_RULE,
            "Every sample case: each recipient has a street line, city, state and ZIP code.",
            "An owner row of an assessor's list without a mailing address; the Arizona map"
            " sample without `facts.military_airport_address`.",
        ),
        Declared(
            "RCPT006",
            "owner-unnamed",
            "error",
            "recipients",
            'A parcel\'s record names no owner: its letter is addressed to "Current Owner".',
            "The statutes send the notice to the owner as the tax or assessment records show"
            " them, at the address those records give. A record with an address and no owner's"
            ' name still lets the letter reach that address, addressed to "Current Owner" as'
            " the Postal Service and many clerks address it, but it cannot show that the owner of"
            " record was notified, and the affidavit of mailing would name nobody; so the packet"
            " is not ready until the clerk finds the owner (deed or tax records) and corrects the"
            " layer, or lists the owner by hand under `additional_recipients` with the parcel"
            ' ids (a clerk who decides to mail "Current Owner" says so there, with the reason).',
            FROM_RULE,
            "Every sample case: each owner record names its owner.",
            "An owner row of an assessor's list with an address and no owner's name.",
        ),
        Declared(
            "RCPT007",
            "address-unreadable",
            "error",
            "recipients",
            "An owner's mailing address in the record cannot be read for certain.",
            "Addresses are read as counties publish them (split fields, 'CITY ST ZIP' in one"
            " field, MAIL1–MAIL5 blocks, care-of lines, PO boxes, rural routes, APO/FPO/DPO and"
            " foreign addresses) and printed in USPS Publication 28 form. A record whose address"
            " has no ZIP code, a ZIP code of four digits (a leading zero lost in a spreadsheet),"
            " a state that is no USPS code or no city and state is never printed with a guessed"
            " state or ZIP: the finding names the parcel, quotes the record and says what is"
            " wrong, and the packet is not ready until the clerk corrects the record or lists"
            " the owner of record by hand under `additional_recipients` with the parcel ids.",
            FROM_RULE,
            "Every sample case: each owner's address reads as a US address.",
            "An assessor's list whose ZIP column lost its leading zero (2914 for 02914).",
        ),
        Declared(
            "RCPT008",
            "group-unfilled",
            "error",
            "recipients",
            "A group of recipients the law requires cannot be filled.",
            "A pack's recipients rule names a group — the applicant, the owner when the applicant"
            " is not the owner, service or state agencies, abutting municipalities — and the"
            " product cannot list it: the case gives no address for the applicant, maps no GIS"
            " layer the group is read from, names no one where the group takes its names from,"
            " or gives no e-mail address for a group the law lets be e-mailed. The notice the law"
            " requires would miss them, so the packet is not ready: complete the case or the"
            " layer, or list them by hand under `additional_recipients`.",
            FROM_RULE,
            "A case whose applicant has an address, for a pack that mails the applicant.",
            "The same case without `applicant.address`; an agencies group read from"
            " `gis.water_sources` in a case that maps no such layer.",
        ),
        Declared(
            "FACT001",
            "computed-fact",
            "info",
            "plan",
            "A count the pack's rules turn on, its value and how it was counted.",
            "A pack's `computed_facts` count owners, parcels or dwelling units, or sum the area,"
            " of the subject parcels or of what an owner rule selects in the parcel layer; rules"
            " test them as `computed.<id>`. The finding gives the value and how it was made (or"
            " that the clerk stated it under `facts.computed.<id>`, or as `facts.<id>` for the"
            " older stated counts), so the record shows why a rule applied.",
            NONE,
            "A pack that declares no computed facts.",
            "The North Carolina samples: computed.properties_affected counted from the case's"
            " subject parcels.",
        ),
        Declared(
            "FACT002",
            "computed-fact-unknown",
            "warning",
            "plan",
            "A rule turns on a count that cannot be made, and the case does not state it.",
            "Without a parcel layer the owners a rule would mail cannot be counted; an unknown"
            " count is never taken as false. A rule whose `when` it leaves undecided is applied"
            " (a notice given that was not required harms no one; one omitted voids the"
            " hearing), and the finding names it: map `gis.parcels`, or state the value under"
            " `facts.computed.<id>`.",
            FROM_RULE,
            "A case with a parcel layer.",
            "A Virginia-style rule `when: {computed.owners_to_mail: {gt: 1000}}` for a case"
            " without `gis.parcels`.",
        ),
        Declared(
            "FACT003",
            "computed-fact-stated-differs",
            "warning",
            "plan",
            "The case states a count that the parcel layer counts differently.",
            "The clerk may state a computed fact (to count by the record the law names); the"
            " stated value is used, and where the parcel layer counts otherwise the finding"
            " names both: correct the case, or remove the stated value to use the count.",
            NONE,
            "A case that states no count, or states what the layer counts.",
            "The Shelby map sample stating `distinct_owners: 5` for parcels the layer shows"
            " owned by one.",
        ),
        Declared(
            "GIS001",
            "stated-fact-disagrees",
            "warning",
            "gis",
            "A fact the case states disagrees with what the GIS layers show.",
            "Where a layer answers a fact (another municipality nearby, a water source, an airport"
            " zone) and the case states it differently, the notices either value requires are all"
            " given, and the finding names both values: correct the case or the layer.",
            NONE,
            "A case that states no such fact, or states what the layers show.",
            "The East Providence sample stating no municipality within 200 ft while its parcel"
            " lies 33 ft from the Pawtucket line.",
        ),
        Declared(
            "GIS002",
            "layer-fact-unanswered",
            "error",
            "gis",
            "The law turns on what lies near the land, and neither the layers nor the case say.",
            "A pack's `layer_facts` name facts a GIS layer answers at the law's distance (another"
            " town within 200 ft, a water source within 2,000 ft, an airport's vicinity). When"
            " the case maps no such layer (or the layer cannot answer: no parcel layer to measure"
            " from, a field not mapped), does not state the fact, and the answer would bring in"
            " a notice or recipients the law requires, the recipients may be incomplete: map the"
            " layer under `gis:` or state the fact under `facts:` (also when it is false or"
            " empty).",
            FROM_RULE,
            "The East Providence sample, whose layers answer every fact its pack reads.",
            "The same case without `gis.municipal_boundaries` and without"
            " `facts.municipalities_within_200_ft`.",
        ),
        # ----------------------------------------------------------------- schedule
        Declared(
            "SCHED001",
            "hearing-after-deadline",
            "warning",
            "schedule",
            "A hearing falls after the last day a procedural deadline allows.",
            "Packs time procedural acts (hold the hearing within N days of the petition); a"
            " hearing the case sets later is reported with the derivation. It is a warning: an"
            " applicant may consent to a later date.",
            FROM_RULE,
            "A case whose hearing is within the time the pack allows.",
            "A case whose petition was received long before the hearing its pack requires within"
            " a set number of days.",
        ),
        Declared(
            "SCHED002",
            "hearing-on-closed-day",
            "warning",
            "schedule",
            "A hearing falls on a day the municipality's offices are closed.",
            "The pack's calendar (the state's holidays, the weekdays offices close) says which"
            " days offices are closed. No law the packs encode forbids a hearing on such a day,"
            " and many bodies lawfully meet on a Saturday or a holiday, so this is a warning: the"
            " clerk confirms the date is meant (not a slip), that the body may meet then and that"
            " the public can reach the place and the records. Where the law forbids it, the pack"
            " says so with a `procedure` rule of topic `no_hearing_on_closed_day`, and SCHED003"
            " is reported instead.",
            NONE,
            "Every sample case: each hearing is on a day offices are open.",
            "The East Providence sample with its hearing on Christmas Day.",
        ),
        Declared(
            "SCHED008",
            "publication-days-assumed",
            "warning",
            "schedule",
            "The newspaper's publication days are not known: the schedule took it to print every day.",
            "The newspaper issues a notice can run in depend on the days the paper prints. The"
            " case names the paper without `publication_days` and without a profile from"
            " data/newspapers/, so the schedule counted every day of the week as an issue day;"
            " the latest issue it names may not exist. Give the paper's publication days (or a"
            " profile) and build again.",
            NONE,
            "Every sample case: its paper's days come from the case or its profile.",
            "A case whose newspaper is named with no publication days and no profile.",
        ),
        Declared(
            "SCHED009",
            "closure-needs-verifying",
            "warning",
            "schedule",
            "A deadline is counted with an office closure a yearly order decides.",
            "A pack's calendar marks a closure day `verify` where the law leaves it to a yearly"
            " act (a governor's executive order that picks the day before or after Christmas)."
            " A deadline whose count took that day as closed is reported with the day and why:"
            " check that year's order, and if offices are open that day, the date changes.",
            FROM_RULE,
            "The Oklahoma sample: no deadline of its hearings comes near Christmas.",
            "The Oklahoma sample with its council hearing on January 5: the letters' last day"
            " skips December 24 and 26.",
        ),
        Declared(
            "CONT001",
            "continued-by-announcement",
            "info",
            "schedule",
            "A hearing was continued by announcement to a date certain: no new notice is due.",
            "The record says the hearing was continued to a date, time and place announced at"
            " the hearing, and the pack's `continuance` rule says the law then asks for no new"
            " notice. The notices already given stand; the schedule marks the continuance.",
            FROM_RULE,
            "A case whose hearings were held and closed.",
            "The Oklahoma sample with its council hearing continued by announcement.",
        ),
        Declared(
            "CONT002",
            "continued-renotice",
            "info",
            "schedule",
            "A hearing was continued without an announced date: it is noticed again in full.",
            "The record says the hearing was continued but the new date, time and place were not"
            " announced at the hearing. The continued hearing is a hearing like the first: every"
            " notice the law requires is given again, with deadlines counted from the new date"
            " (`notices continue` rebuilds the packet and keeps what it replaces in `history/`).",
            FROM_RULE,
            "A case whose hearings were held and closed.",
            "The Oklahoma sample with its council hearing continued, the new date not announced.",
        ),
        Declared(
            "CONT003",
            "continued-law-silent",
            "warning",
            "schedule",
            "A hearing was continued by announcement, but the law says nothing of that.",
            "The pack's `continuance` rule says the law is silent on continuing a hearing by"
            " announcement (or the pack has no such rule), so the product cannot be sure the"
            " announcement was notice enough: it plans a full re-notice, with new deadlines, and"
            " says so. Counsel may decide the announcement sufficed.",
            FROM_RULE,
            "A case whose hearings were held and closed.",
            "The Arizona sample with its council hearing continued by announcement.",
        ),
        Declared(
            "RET001",
            "returned-letter-no-duty",
            "info",
            "mail",
            "A mailed notice came back; the law says its failure does not invalidate the action.",
            "The record lists a letter returned undeliverable, and the pack's `returned_mail`"
            " rule says a person's failure to receive notice is no ground to invalidate the"
            " action: nothing more is required. The proof of mailing lists the returned piece,"
            " and a re-mailing is written where the tax record holds another address.",
            FROM_RULE,
            "A case with no returned letter.",
            "An Arizona standards-change case with a returned letter.",
        ),
        Declared(
            "RET002",
            "returned-letter-law-silent",
            "warning",
            "mail",
            "A mailed notice came back, and the law says nothing of what follows.",
            "The pack's `returned_mail` rule says the law is silent on a returned notice (or"
            " the pack has no such rule): the product cannot say whether the notice was given."
            " It lists the returned piece on the proof of mailing and writes a re-mailing to the"
            " other address the tax record holds (the parcel's site address); the clerk decides"
            " whether to send it, and counsel whether the hearing may go ahead.",
            FROM_RULE,
            "A case with no returned letter.",
            "The Oklahoma sample with a letter returned undeliverable.",
        ),
        Declared(
            "RET003",
            "returned-letter-no-other-address",
            "warning",
            "mail",
            "A mailed notice came back and the tax record holds no other address to send it to.",
            "The parcel's site address is the address the letter was sent to (or the record has"
            " none), so no re-mailing can be written from the tax record. Find another address"
            " (the assessor, the applicant, a title search) and add the owner under"
            " `additional_recipients`.",
            FROM_RULE,
            "A returned letter whose parcel has a site address other than its mailing address.",
            "A returned letter sent to the parcel's own site address.",
        ),
        Declared(
            "RET004",
            "returned-letter-remailed",
            "info",
            "mail",
            "A mailed notice came back, and the law has it mailed again to another address.",
            "The pack's `returned_mail` rule says a returned notice is mailed again to another"
            " address of the owner in the tax record: the re-mailing (remail-letters-*.pdf) is"
            " written to the parcel's site address and the proof of mailing lists the returned"
            " piece. Mail it, and file the new proof.",
            FROM_RULE,
            "A case with no returned letter.",
            "The Oklahoma sample with a returned letter, under a pack rule that has it re-mailed.",
        ),
        Declared(
            "SCHED003",
            "hearing-on-forbidden-day",
            "error",
            "schedule",
            "A hearing falls on a closed day on which the law forbids holding it.",
            "A pack rule (`procedure`, topic `no_hearing_on_closed_day`, with its citation) says"
            " the body may not meet on a day its offices are closed; a hearing set on one cannot"
            " be lawfully held, so the packet is not ready. Move the hearing to an open day.",
            FROM_RULE,
            "A case whose hearings are on open days.",
            "A case whose pack forbids hearings on closed days, with its hearing on a Sunday.",
        ),
        Declared(
            "SCHED004",
            "hearing-too-soon",
            "error",
            "schedule",
            "A hearing is set earlier than the law allows after another hearing.",
            "A pack `deadline` rule (action hold_hearing, `from_hearing`) times one hearing from"
            ' another: "the second hearing at least 10 days after the first". A case whose'
            " hearing comes sooner cannot be lawfully held on that day, so the packet is not"
            " ready; the finding gives the first lawful day and how it was counted. Move the"
            " hearing.",
            FROM_RULE,
            "The Sabal Springs large rezoning, its Commission hearings four weeks apart.",
            "The same case with its second Commission hearing nine days after the first.",
        ),
        Declared(
            "SCHED005",
            "hearing-at-wrong-time",
            "error",
            "schedule",
            "A hearing is not held at the time of day or on the days of the week the law requires.",
            'A pack `hearing_time` rule says when the hearings it selects are held ("at least one'
            ' hearing after 5 p.m. on a weekday"). No hearing of the case meets it, so the'
            " packet is not ready. Where the law lets the body choose another time, the pack"
            " writes that choice as a case option in the rule's `when`: a case that records the"
            " election is not judged by the rule.",
            FROM_RULE,
            "The Sabal Springs large rezoning, its Commission hearings at 6:00 p.m. on Tuesdays.",
            "The same case with both Commission hearings at 2:00 p.m.",
        ),
        Declared(
            "SCHED006",
            "hearing-at-the-minute",
            "warning",
            "schedule",
            "A hearing starts at the very minute the law says hearings are held after.",
            'Whether a hearing at 5:00 p.m. is one held "after 5 p.m." is a question of'
            " reading the statute, which the product does not answer: start the hearing later,"
            " or have the attorney confirm the reading.",
            FROM_RULE,
            "A hearing at 6:00 p.m. under a rule for hearings after 5 p.m.",
            "The same hearing at 5:00 p.m.",
        ),
        Declared(
            "SCHED007",
            "numbered-hearing-missing",
            "error",
            "schedule",
            "The law names a body's second (or later) hearing, and the case lists fewer.",
            "A pack rule names one numbered hearing (`council#2`: the council's second), as a"
            " statute that requires two advertised hearings does. The case's `hearings` list"
            " fewer hearings of that body, so a required hearing, its notice and its timing are"
            " missing: add the hearing to the case.",
            FROM_RULE,
            "The Sabal Springs large rezoning, with its two Commission hearings.",
            "The same case with only one Commission hearing.",
        ),
        Declared(
            "SCHED010",
            "vote-outside-window",
            "warning",
            "schedule",
            "The council's vote, as the case plans it, falls outside the days a rule allows it.",
            "Packs time final action from a hearing (no sooner than six months, not more than"
            " nine months after it); the council's `vote_date` (else its hearing's date) outside"
            " that window is reported with the derivation. Set `vote_date` to the meeting at"
            " which the body will vote.",
            FROM_RULE,
            "A case whose council votes within the window its pack allows.",
            "A Georgia rezoning for a drug rehabilitation center voted on three weeks after the"
            " planning commission's hearing.",
        ),
        # ------------------------------------------------------------------- record
        Declared(
            "REC001",
            "requirement-missed",
            "warning",
            "record",
            "A notice or procedural act the record shows done outside the time the law allows.",
            "`notices check` (and `build` on a case with a `record:`) compares each recorded act"
            " (an insertion's issue, the mailing day, the day a sign went up, the hearing, the"
            " decision) with the deadline the schedule computes, counted from recorded events"
            " where the law counts from an event. An act outside the lawful window is missed:"
            " the notice is defective and the sufficiency certificate says so. It is a warning"
            " of the packet (its documents are not wrong; what was done with them was late);"
            " `notices check` exits 1 on it, and the clerk re-notices the hearing.",
            FROM_RULE,
            "A record whose every act falls within its deadline.",
            "A record of an insertion that ran a day after the last lawful issue.",
        ),
        Declared(
            "REC002",
            "requirement-unrecorded",
            "warning",
            "record",
            "A requirement is past due and the record shows nothing done.",
            "The deadline of a required notice (or a hearing, or a decision) has passed on the"
            " day the record is judged, and the case's `record:` has no entry for it. Either it"
            " was done and not recorded (record it, with its evidence), or it was not done.",
            FROM_RULE,
            "A record with every act that is due.",
            "A record with the publications and the hearing but no mailing, judged after the"
            " mailing was due.",
        ),
        Declared(
            "REC003",
            "evidence-not-on-file",
            "warning",
            "record",
            "The record names an evidence file (affidavit, receipt, photograph) that is not there.",
            "Evidence is named relative to the case file. A file that cannot be found cannot be"
            " shown to a court: the certificate lists it as not on file.",
            FROM_RULE,
            "A record whose evidence files are beside the case.",
            "A publication whose `affidavit` names a file that does not exist.",
        ),
        Declared(
            "REC004",
            "event-from-plan",
            "info",
            "record",
            "A deadline the law counts from an event is counted from the plan: the event is not recorded.",
            "A decision due within N days of the hearing's close, a bar from the decision: where"
            " the record does not give the event (the hearing closed, the decision made), the"
            " schedule counts from the planned day and says so. Record the event to count from it.",
            FROM_RULE,
            "A record whose hearing is recorded as closed.",
            "A record with a hearing that is not recorded as closed.",
        ),
        # --------------------------------------------------------------------- languages
        Declared(
            "LANG001",
            "left-in-english",
            "warning",
            "plan",
            "A Spanish notice prints some of the case's or pack's own words in English.",
            "Our templates word every sentence of a Spanish notice; the words the case writes itself"
            " (its title, summary, the hearing room, the districts' names) and a clause the pack"
            " words itself are printed in Spanish only where `languages.spanish` gives their"
            " Spanish text. Nothing is machine-translated, so the others are printed as given, in"
            " English, and listed here for the clerk to translate or accept.",
            NONE,
            "A bilingual case whose `languages.spanish` gives the Spanish of every printed text.",
            "A bilingual case that gives no Spanish for its summary.",
        ),
        # --------------------------------------------------------------------- mail
        Declared(
            "MAIL001",
            "address-incomplete",
            "warning",
            "mail",
            "A recipient has no complete mailing address: no letter, label or list line is made.",
            "A piece needs a street line, city, state and ZIP code. The recipient stays on"
            " `recipients.csv`; add the address by hand.",
            FROM_RULE,
            "A recipient with a complete address.",
            "The military airport an Arizona case names without `facts.military_airport_address`.",
        ),
        Declared(
            "MAIL002",
            "nobody-to-mail",
            "info",
            "mail",
            "The law requires mailed notice but there is nobody to mail.",
            "No labels or mailing lists are made when no recipient has a mailing address.",
            NONE,
            "A map case with owners found in its parcel layer.",
            "A mailed notice whose only recipients lack addresses.",
        ),
        Declared(
            "MAIL003",
            "address-overflow",
            "error",
            "mail",
            "An address's street or city lines do not fit the envelope window or a label even in"
            " the smallest legible type.",
            "Address blocks are wrapped to lines of at most 40 characters and 8 words (USPS"
            " Publication 28, section 35), set at 10 pt in the window and 9 pt on a label, then"
            " smaller down to 6.5 pt. A block that still does not fit keeps its last lines - the"
            " delivery address line and the city, state and ZIP line - under the first line of"
            " the name, and is reported with the recipient and parcel: the piece is not"
            " addressed as the records give it, so it is addressed by hand (or the record"
            " corrected) before the packet goes out.",
            FROM_RULE,
            "Every address of the sample towns.",
            "A recipient the case adds with nine street lines.",
        ),
        Declared(
            "MAIL004",
            "letter-undated",
            "warning",
            "mail",
            "The law sets no mailing day for a letter, so the plan chose the day it is dated.",
            "Letters carry the last lawful mailing day of their notice; where the pack times no"
            " mailing, they go out with the hearing's other notices (the first day one of them"
            " goes out), else on the case's `as_of` day, and the clerk confirms the date.",
            FROM_NOTICE,
            "A mailed notice with a timing rule (every sample pack times its letters).",
            "A pack whose mailed notice has no `timing`.",
        ),
        Declared(
            "MAIL005",
            "name-shortened",
            "warning",
            "mail",
            "A recipient's name is longer than an address block holds, so envelope window, label"
            " and firm list print it shortened.",
            "An address block gives the name at most three lines of 40 characters (USPS"
            " Publication 28: the name on one line, wrapped down if it must be; no line over 40"
            " characters); a longer name is cut at a word and ends in `…`. A warning, not an"
            " error: the street and city lines, which carry the delivery point, are printed"
            " whole, and the Postal Service's own guidelines shorten names that exceed the line"
            " (Publication 28, section 35). The full name stays on recipients.csv,"
            " mailing_list.csv and the proof's list of persons mailed; check the record.",
            FROM_RULE,
            "Owner names of up to 120 characters.",
            "An owner name of 200 characters in the parcel layer.",
        ),
        # --------------------------------------------------------------------- sign
        Declared(
            "SIGN001",
            "sign-distance-assumed",
            "info",
            "sign",
            "The law names no reading distance for a sign; its letters are sized for 100 ft.",
            'Where the law says only "legible from the street", or nothing, a sign\'s required'
            " items are set in capitals 4 in tall, legible from 100 ft (a driver passing on the"
            " road, at the legibility index of 25 ft per inch of capital height);"
            " `sign.legible_from_ft` sets another distance, and the finding then names it.",
            FROM_FORMAT,
            "An Arizona sign, which the state's law has legible from 100 ft.",
            'The Oklahoma city\'s optional sign, legible "from the street it faces".',
        ),
        Declared(
            "SIGN002",
            "sign-items-do-not-fit",
            "error",
            "sign",
            "A sign's required items do not fit its panel at the letter height its distance needs.",
            "The items the law wants legible, with the word ZONING or REZONING, the districts,"
            " the hearing's date and time and a phone number or web address, are set in capitals"
            " as tall as the reading distance divided by the legibility index. When they do not"
            " fit the panel at that height the sign is made at the largest height that fits and"
            " says how far it reads; the packet is not ready. Use a larger sign (`sign.size_in`),"
            " shorten the longest item, or, where the law names no distance, set"
            " `sign.legible_from_ft` to the distance from which the sign must be read.",
            FROM_FORMAT,
            "The Shelby sign on its 4 by 8 ft panel, its items in 4 in capitals.",
            "The Oklahoma city's sign on a 4 by 8 ft panel: the place, the hearing body and the"
            " proposed use must be legible too, and at 4 in they need a larger panel.",
        ),
        # ------------------------------------------------------------------ posting
        Declared(
            "POST001",
            "posting-places-missing",
            "error",
            "posting",
            "The case names fewer places to post the notice than the law requires.",
            "A posting rule names how many places the notice must be posted in (a clerk's office"
            " and another municipal building; ten public places). The case's `posting_places`"
            " (of kinds clerk_office, municipal_building, public_place) must name at least that"
            " many; the posting sheet lists them and leaves a blank line for each one missing,"
            " and the packet is not ready until the case names them.",
            FROM_NOTICE,
            "The Arizona posting sample, which names its ten public places.",
            "The East Providence sample without `posting_places`, where the state's law posts the"
            " notice in the clerk's office and one other municipal building.",
        ),
        # --------------------------------------------------------------- display ad
        Declared(
            "AD001",
            "ad-does-not-fit",
            "error",
            "ad",
            "The display ad's copy does not fit even a full page of the newspaper.",
            "Shorten the summary, or print the full text elsewhere.",
            FROM_FORMAT,
            "An Arizona display ad fitting its 1/8 page.",
            "A display ad whose full text runs to several pages.",
        ),
        Declared(
            "AD002",
            "no-newspaper-profile",
            "error",
            "ad",
            "A display ad is required but the case names no newspaper profile to size it on.",
            "Fractions of a page are measured on the paper's own page (`newspaper.profile`, a"
            " rate card in data/newspapers/).",
            FROM_FORMAT,
            "An Arizona case with `newspaper.profile`.",
            "The same case without it.",
        ),
        Declared(
            "AD003",
            "ad-in-color",
            "error",
            "ad",
            "The display ad holds color images; a newspaper page prints gray.",
            "Maps are turned gray before they go into the ad and the PDF is checked; an image in"
            " a color space that cannot be turned gray is reported.",
            FROM_FORMAT,
            "Any ad built from a PNG, JPEG or plain SVG map.",
            "An ad whose SVG map embeds a color image.",
        ),
        Declared(
            "AD004",
            "ad-geometry",
            "info",
            "ad",
            "The display ad's size, as set and as a share of the paper's page.",
            "Columns, depth, area and column-inches, and the fraction of the page they reach, so"
            " the ad desk and a lawyer can check it.",
            FROM_FORMAT,
            "No case without a display ad reports it.",
            "Every display ad reports it.",
        ),
        # --------------------------------------------------------------------- order
        Declared(
            "ORDER001",
            "no-rate-card",
            "warning",
            "order",
            "The insertion order gives no size or cost: the paper has no profile, legal type or"
            " rate card.",
            "The notice's lines and column inches are counted in the paper's legal type"
            " (`legal_type` of its profile in data/newspapers/) and priced from its `rate_card`;"
            " without them the order asks the legal desk for a quote.",
            FROM_NOTICE,
            "A Texas case whose paper's profile has both.",
            "A case naming its paper without a profile.",
        ),
        Declared(
            "ORDER002",
            "rate-over-cap",
            "warning",
            "order",
            "The paper's rate card charges more than the statute's cap on legal-notice rates.",
            "A pack's `legal_rate_cap` in dollars a line or a column inch is compared with the"
            " first-insertion rate of the paper's rate card, converted at its legal leading.",
            "the pack's `legal_rate_cap`",
            "A cap above the rate card.",
            "A cap of 10 cents a line against a rate card of 85 cents.",
        ),
        Declared(
            "ORDER003",
            "bill-to-unknown",
            "warning",
            "order",
            "Nothing says who pays the paper for the notice.",
            "The pack's `publication_costs` (the ordinance or fee schedule) or the case's"
            " `newspaper.bill_to` names the applicant or the municipality; the order never"
            " guesses.",
            NONE,
            "A case with `newspaper.bill_to`.",
            "A case whose pack and case are silent on it.",
        ),
        Declared(
            "ORDER004",
            "no-legal-email",
            "warning",
            "order",
            "The paper has no legal desk e-mail: the e-mailed insertion order has no addressee.",
            "Add `legal_email` to the paper's profile or to the case's `newspaper`.",
            NONE,
            "A case whose paper has a `legal_email`.",
            "The same case without it.",
        ),
        # --------------------------------------------------------------------- proof
        Declared(
            "PROOF001",
            "proof-date-changed",
            "error",
            "proof",
            "The paper's proof changes a date or a time of our copy (the hearing's, an issue's).",
            "`notices lint PROOF --against PACKET` diffs the proof with the packet's ad copy"
            " word by word; a changed date or time of day would notice the wrong hearing.",
            NONE,
            "A proof made from our copy unchanged.",
            "The same proof with the hearing at 7:00 p.m. instead of 6:00 p.m.",
        ),
        Declared(
            "PROOF002",
            "proof-line-missing",
            "error",
            "proof",
            "A paragraph of our copy is missing from the paper's proof.",
            "Less than half of the paragraph's words are found, in order, in the proof: a line"
            " the law may require did not make it into the paper's setting.",
            NONE,
            "A proof made from our copy unchanged.",
            "The same proof without the paragraph on where to examine the proposal.",
        ),
        Declared(
            "PROOF003",
            "proof-words-changed",
            "warning",
            "proof",
            "The paper's proof changes, drops or adds words of our copy.",
            "Each difference is shown with the words of our copy before it, for the clerk to"
            " accept or send back; line breaks, hyphenation and typographic quotes are not"
            " differences.",
            NONE,
            "A proof made from our copy unchanged.",
            "A proof where 'examined' became 'examine'.",
        ),
        Declared(
            "PROOF004",
            "proof-matches",
            "info",
            "proof",
            "The paper's proof has the words of our copy, unchanged.",
            "Reported so that a clean comparison is stated, not inferred from silence.",
            NONE,
            "A proof with a changed word does not report it.",
            "A proof made from our copy unchanged reports it.",
        ),
        # --------------------------------------------------------------------- lint
        Declared(
            "NL001",
            "clause-missing",
            "error",
            "lint",
            "A clause the law requires is not in the document.",
            "Each clause rule of the jurisdiction's pack names the documents that must carry it"
            " and how to recognize it in any wording (`checks.any_pattern`: one of several"
            " phrasings; `checks.all_patterns`: every one of them; `<date>` and `<time>` stand for"
            " a date or a time written in any common format; `<hearing.date>`, `<hearing.time>`"
            " and `<hearing.place>` for one the text ties to the hearing, in its sentence or under"
            " a heading or label that scopes it, not office hours, a deadline, the date it ran or"
            " the clerk's address; the place a physical one, see NL017). A document in which the clause"
            " cannot be found fails the rule's citation. Reword the notice to state the clause, or"
            " restore the paragraph a reviewer deleted.",
            FROM_RULE,
            "An East Providence notice worded differently from ours that states every clause.",
            'The same notice without "may be altered or amended", a clause Rhode Island requires.',
        ),
        Declared(
            "NL002",
            "fact-missing",
            "error",
            "lint",
            "A fact of the case that a clause must state is not in the document, or is wrong.",
            "With `--case`, each clause's `checks.facts` (hearing date, time, place, body; parcel"
            " ids; present and proposed districts; the case number; the proposed use) must appear"
            " as the case states them. Dates and times are compared as dates and times, whatever"
            " their format; names and places ignoring case, spacing and punctuation.",
            FROM_RULE,
            "A notice stating the hearing at 7:00 p.m. as the case does.",
            "The same notice saying 6:00 p.m.",
        ),
        Declared(
            "NL003",
            "wrong-weekday",
            "error",
            "lint",
            "A date is written with a weekday it does not fall on.",
            '"Monday, March 16, 2027" names two days (March 16, 2027 is a Tuesday); courts have'
            " voided hearings noticed with the wrong day. Correct whichever part is wrong.",
            NONE,
            '"Tuesday, March 16, 2027".',
            '"Monday, March 16, 2027".',
        ),
        Declared(
            "NL004",
            "date-outside-schedule",
            "error",
            "lint",
            "A publication, mailing or posting date written in the document misses the law's"
            " window.",
            "With `--case`, dates the document gives for its own publication, mailing or posting"
            ' ("Published: …", "mailed on …", "posted no later than …") are checked against the'
            " schedule the pack's timing rules compute: each insertion no later than the latest"
            " lawful issue, nothing before the window opens.",
            FROM_NOTICE,
            "A notice whose stated publication dates are the schedule's issues.",
            "The same notice published one day too late.",
        ),
        Declared(
            "NL005",
            "recipient-without-letter",
            "error",
            "lint",
            "A person the law requires to be mailed has no letter in the packet.",
            "Every recipient in the packet's `recipients.csv` must be addressed by a letter in"
            " `letters*.pdf` (or `transmittal*.pdf`).",
            FROM_RULE,
            "A built packet.",
            "The packet with a name added to `recipients.csv`.",
        ),
        Declared(
            "NL006",
            "sign-letters-too-small",
            "error",
            "lint",
            "A sign's required items are in letters shorter than the law's distance needs.",
            "The capital height of each legible item is measured in the PDF (the font size times"
            " the font's real capital height) and compared with the reading distance divided by"
            " the legibility index of the pack's format rule (100 ft at 25 ft per inch: 4 in).",
            FROM_FORMAT,
            "An Arizona sign with 4 in capitals.",
            "The same sign with 2 in capitals.",
        ),
        Declared(
            "NL007",
            "display-ad-too-small",
            "error",
            "lint",
            "A display ad's page is smaller than the law's share of the newspaper page, or than"
            " its columns and inches.",
            "The ad's page (the PDF trim box) must reach the pack's `min_page_fraction` of the"
            " newspaper profile's type area, by area and by column-inches, and be at least"
            " `min_columns` of the paper's columns wide and `min_depth_in` deep.",
            FROM_FORMAT,
            "An Arizona ad of 1/8 page.",
            "A 1/16 page ad.",
        ),
        Declared(
            "NL008",
            "map-missing",
            "error",
            "lint",
            "The law requires a map in this document and it has none.",
            "A clause rule of topic `map` binds the document, and no image is in it (HTML and"
            " Word; a map drawn as vectors in a PDF cannot be told from other drawings).",
            FROM_RULE,
            "An East Providence notice with its map.",
            "The same notice without the image.",
        ),
        Declared(
            "NL009",
            "inconsistent-hearing",
            "error",
            "lint",
            "Documents of one packet give different dates, times or places for the same hearing.",
            "Every notice of a hearing must state the same date, time and place; a packet whose"
            " sign says 6:00 p.m. and whose letters say 7:00 p.m. misleads someone.",
            NONE,
            "A built packet.",
            "The packet with the newspaper notice's time changed.",
        ),
        Declared(
            "NL010",
            "tracked-change-pending",
            "warning",
            "lint",
            "The Word document has tracked changes that are not yet accepted or rejected.",
            "The linter reads the text as it will read with every change accepted; accept or"
            " reject them before the notice goes to the newspaper.",
            NONE,
            "A Word draft with no pending changes.",
            "A Word draft with a tracked deletion.",
        ),
        Declared(
            "NL011",
            "comment-pending",
            "warning",
            "lint",
            "The Word document has reviewers' comments.",
            "Comments are not printed, but one may say the notice is not final. Resolve and delete"
            " them before the notice goes out.",
            NONE,
            "A Word draft with no comments.",
            "A Word draft with a reviewer's comment.",
        ),
        Declared(
            "NL012",
            "document-unreadable",
            "error",
            "lint",
            "The linter cannot read the document: damaged, password-protected, or without text.",
            "The file has the name of a notice but cannot be read as one: a PDF or Word file that"
            " is damaged or truncated, a PDF that needs a password, a PDF with no pages or no text"
            " (a scan: lint the document it was scanned from). Nothing in it can be checked, so it"
            " cannot be said to give notice; the message says why. The other documents are"
            " checked as usual.",
            NONE,
            "A notice saved by Word or printed to PDF.",
            "A PDF cut short in copying.",
        ),
        Declared(
            "NL013",
            "document-over-limit",
            "warning",
            "lint",
            "The document is larger than the linter reads, and was not checked.",
            "A file to lint may come from anyone, so the linter reads within limits: the size of"
            " a text, HTML or PDF file, the pages of a PDF and what its contents expand to, the"
            " parts of a Word file, what they expand to and how far they are compressed, the"
            " characters of a sign it measures, and the time one document may take"
            " (generator/lint/limits.py says why each figure). Each sits far above the largest"
            " mailing the product makes. The message names the limit; the document is not"
            " checked, and `--strict` fails on it.",
            NONE,
            "A Word notice of a few hundred KB.",
            "A Word file whose document.xml expands a thousandfold (a zip bomb).",
        ),
        Declared(
            "NL014",
            "nothing-to-lint",
            "warning",
            "lint",
            "A folder given to the linter holds no notice it reads.",
            "The linter reads a packet folder's notices by the names `notices build` gives them"
            " (newspaper_notice.pdf, letters-council.docx, sign-planning.pdf, …) in .txt, .html,"
            " .pdf and .docx. A folder with none of them was probably not the one meant: the"
            " message counts and names what was skipped. A warning, as a packet may need no"
            " notice this version makes; `--strict` fails on it. Lint any other file by giving"
            " it with `--kind`.",
            NONE,
            "A packet folder built by `notices build`.",
            "A folder of other files, or the packet with its notices moved away.",
        ),
        Declared(
            "NL015",
            "case-changed",
            "warning",
            "lint",
            "The case file has changed since the packet was built.",
            "Linting a packet folder without `--case` checks it against the case its manifest"
            " names (relative to the packet folder), and the manifest records that file's"
            " sha256. When the file there is no longer the same, the documents are checked"
            " against the case as it is now, and may differ from it because the case changed,"
            " not the documents: build the packet again.",
            NONE,
            "A packet linted as built.",
            "The packet after its case file was edited.",
        ),
        Declared(
            "NL016",
            "clause-undecided",
            "info",
            "lint",
            "A clause rule may bind the document, but the linter could not decide it.",
            "Linted without a case (`--jurisdiction`), a clause rule that applies only in some"
            " cases (a `when` such as a map amendment's map) cannot be decided from the text: the"
            " message says the condition in words, and `--case` decides it. A local rule with a"
            " condition that supplements such a rule is named in the same finding. A clause the"
            " pack recognises only by the case's facts (`checks.facts`), or by nothing at all, is"
            " reported the same way rather than passed. The report counts these rules as"
            " undecided, beside those checked and failed.",
            FROM_RULE,
            "A notice linted with its case.",
            "An East Providence notice linted without a case: a map is required only for a"
            " specific map change.",
        ),
        Declared(
            "NL017",
            "hearing-place-only-remote",
            "error",
            "lint",
            "The hearing's place is only a link or a line to call, and the law asks for a place.",
            "The clause of the hearing's date, time and place (`<hearing.place>` in its checks)"
            " counts a place only where the text ties it to the hearing, and only a physical"
            " one: a building, hall, chamber or room, or a street address. A notice that gives"
            ' the hearing a video-conference link, a number to dial or "via Zoom" and no'
            " room states no place the public can go to. A pack whose law allows a hearing held"
            " only remotely says so, with the citation, in the clause's `checks.remote_only`;"
            " then the link is the place. Give the room (a hybrid hearing passes), or cite the"
            " law that lets the hearing be held only remotely.",
            FROM_RULE,
            '"… at 7:00 PM in the Council Chambers, 300 Main Street, and by Zoom at'
            ' https://zoom.us/j/…" (a hybrid hearing).',
            '"The public hearing … will be conducted by the Planning Board via a virtual meeting'
            ' room format on March 10, 2021 at 7:00 PM at: https://zoom.us/j/94878518219".',
        ),
        Declared(
            "NL018",
            "clause-type",
            "error",
            "lint",
            "A clause the law asks in a type of its own is set smaller or lighter.",
            "A pack-defined clause may state the type its law asks (`type: {bold: true,"
            ' min_points: 14}` for "bold 14-point type or larger"). In a PDF the linter reads'
            " each letter's font and size (the size as printed, through the page's scaling); in"
            " a Word file each run's bold and size, through its character and paragraph styles"
            " and the document's defaults. Every place the clause's sentence is printed (once"
            " in each letter of a mail merge) must be bold throughout and no letter smaller than"
            " the size. The message gives the smallest size found and whether it was bold. Set"
            " the statement in the type the law asks.",
            FROM_RULE,
            "The statement of a Texas owner's letter set in bold 14-point type.",
            "The same statement set in 12-point regular type, or made not bold in Word.",
        ),
        Declared(
            "NL019",
            "clause-type-unchecked",
            "info",
            "lint",
            "The law asks a clause in a type of its own, and the linter could not check it.",
            "A plain-text file carries no type, and an HTML page's type is whatever the reader's"
            " browser or the newspaper's system sets: the type of a clause that states one"
            " (`type`) is checked only in a PDF or a Word file. The same is said when the"
            " linter cannot match the clause's letters to the type they are set in (an unusual"
            " PDF). Our plain-text copy for a newspaper carries a bracketed line that tells the"
            " typesetter the type; check the paper's proof or tearsheet.",
            FROM_RULE,
            "The same notice linted as a PDF or a Word file.",
            "A newspaper's plain-text copy of a notice whose statement must be in bold type.",
        ),
        Declared(
            "NL020",
            "no-spanish-recogniser",
            "warning",
            "lint",
            "A Spanish notice (or part) could not be checked for a clause: no Spanish recogniser.",
            "A bilingual or Spanish notice is checked in each language against the same clause"
            " rules. In Spanish a clause is recognised by its pack's `checks.es`, else by the"
            " linter's Spanish words for its topic (generator/lint/spanish.yaml); a pack-worded"
            " clause (topic `custom`) without `checks.es` has neither, so its Spanish text is not"
            " checked. Give the clause a `checks.es`, or check the Spanish text by hand.",
            FROM_RULE,
            "A Spanish notice of a pack whose clauses all have a topic with Spanish words.",
            "A Spanish notice of a pack with a custom clause that gives no `checks.es`.",
        ),
    )
)
