"""`notices explain`: a rule pack as a checklist a clerk can follow, with every citation."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel

from generator.models.conditions import FACTS, describe
from generator.models.pack import (
    Channel,
    ClauseParams,
    ClauseTopic,
    ContinuanceParams,
    DeadlineParams,
    FormatParams,
    HearingTimeParams,
    NoticeParams,
    Pack,
    ProofParams,
    ProtestParams,
    ReturnedMailParams,
    Rule,
    Vote,
)
from generator.models.recipient_rules import RecipientGroup, RecipientsParams
from generator.models.slots import SLOTS
from generator.models.timing import Counting, Timing, TimingType
from generator.rules.loader import ResolvedPack
from generator.rules.merge import EmptyWindowError, bind

_HEARING = {
    "council": "the council hearing",
    "planning": "the planning hearing",
    "first": "the first hearing",
    "each": "each hearing",
}
_EVENT = {
    "hearing": None,
    "vote": "the vote",
    "petition_received": "receipt of the petition",
    "hearing_completed": "completion of the hearing",
    "final_approval": "final approval",
    "rejection": "rejection",
    "decision": "the decision",
    "withdrawal": "withdrawal",
    "filing": "the filing",
}


def describe_timing(timing: Timing, hearing: str = "each") -> str:
    """Say a timing rule in words: "at least 14 days before the council hearing"."""
    event = _EVENT[timing.event.value] or hearing_words(hearing)
    t = timing.type
    if t == TimingType.AT_LEAST_BEFORE:
        kind = "clear " if timing.clear_days else ""
        kind += "" if timing.calendar_days else "business (offices open) "
        text = f"at least {timing.days} {kind}days before {event}"
    elif t == TimingType.WINDOW_BEFORE and timing.weeks:
        text = (
            f"once each week for {timing.weeks} successive weeks, the first not less than"
            f" {timing.min_days} nor more than {timing.max_days} days before {event}"
        )
    elif t == TimingType.WINDOW_BEFORE:
        text = (
            f"not less than {timing.min_days} nor more than {timing.max_days} days before {event}"
        )
    elif t == TimingType.WEEKLY_BEFORE:
        text = f"once each week for {timing.weeks} successive weeks before {event}"
        if timing.first_min_days is not None:
            text += f", the first not less than {timing.first_min_days} days before"
        if timing.last_min_days is not None:
            text += f", the last not less than {timing.last_min_days} days before"
        notes = []
        if timing.week_model == "calendar_sun_sat":
            notes.append("calendar weeks, Sunday to Saturday")
        elif timing.week_model == "rolling_7":
            notes.append("weeks of seven days from the first insertion")
        if timing.may_include_event_week:
            notes.append("the week of the hearing may count")
        if timing.event_day_insertion_counts is False:
            notes.append("an insertion on the hearing day does not count")
        if notes:
            text += f" ({'; '.join(notes)})"
    elif t == TimingType.BUSINESS_DAYS_BEFORE:
        at = f" by {timing.clock_time.strftime('%H:%M')}" if timing.clock_time else ""
        text = f"{timing.business_days} business day(s) before {event}{at}"
    elif t == TimingType.WITHIN_AFTER:
        text = f"within {_span(timing)} after {event}"
    elif t == TimingType.AT_LEAST_AFTER:
        text = f"no sooner than {_span(timing)} after {event}"
    else:
        text = f"not again within {_span(timing)} after {event}"
    if timing.insertions:
        text = f"at least {_times(timing.insertions)}, " + text
    if timing.counting:
        text += f" ({describe_counting(timing.counting)})"
    return text


def hearing_words(hearing: str) -> str:
    """A rule's `hearing` in words: "the council hearing", "hearing 2 of the council"."""
    body, sep, nth = hearing.partition("#")
    if sep:
        return f"hearing {nth} of the {body} (in date order)"
    return _HEARING.get(hearing, "the hearing")


def describe_hearing_time(p: HearingTimeParams) -> str:
    """A hearing_time rule in words: "at least one council hearing after 17:00, on a weekday"."""
    held = {
        "council": "the council's hearings",
        "planning": "the planning body's hearings",
        "first": "the first hearing",
        "each": "the hearings",
    }.get(p.hearing.value) or hearing_words(p.hearing.value)
    which = f"at least one of {held}" if p.at_least_one else f"each of {held}"
    parts = []
    if p.after is not None:
        parts.append(f"starts after {p.after.strftime('%H:%M')}")
    if p.weekdays_only:
        parts.append("is held Monday to Friday")
    return f"{which}: {' and '.join(parts)}"


def describe_shape(p: FormatParams) -> str:
    """A display ad's size in words: "at least 2 columns × 10 in; headline ≥ 18 pt"."""
    parts = []
    if p.min_page_fraction:
        parts.append(f"at least {p.min_page_fraction:g} of the page")
    if p.min_columns or p.min_depth_in:
        parts.append(f"at least {p.min_columns or 1} columns × {p.min_depth_in or 0:g} in")
    if p.headline_min_pt:
        parts.append(f"headline ≥ {p.headline_min_pt:g} pt")
    if p.placement:
        parts.append(f"placed {p.placement}")
    return "; ".join(parts)


def describe_counting(counting: Counting) -> str:
    """A rule's own counting in words: "the day of the act not counted; a closed last day: ..."."""
    parts = []
    if counting.act_day:
        parts.append(
            f"the day of the act {'counted' if counting.act_day == 'included' else 'not counted'}"
        )
    if counting.event_day:
        parts.append(
            f"the event day {'counted' if counting.event_day == 'included' else 'not counted'}"
        )
    if counting.last_day_closed:
        parts.append(
            {
                "previous_open": "a closed last day moves to the open day before",
                "next_open": "a closed last day moves to the next open day",
                "counts": "a closed last day still counts",
            }[counting.last_day_closed]
        )
    return "; ".join(parts)


def describe_calendar(resolved: ResolvedPack) -> list[str]:
    """The pack's counting and closure calendar, for the checklist's head."""
    lines = []
    tc = resolved.time_counting
    if tc:
        act = "counted" if tc.count_act_day else "not counted"
        event = "counted" if tc.count_event_day else "not counted"
        roll = (
            "; a period after an event ending on a closed day runs to the next open day"
            if tc.forward_roll
            else ""
        )
        weeks = f"; weeks: {tc.week_model}" if tc.week_model else ""
        lines.append(
            f"Counting: the day of the act {act}, the event day {event}{roll}{weeks} — {tc.citation}"
        )
    if resolved.calendar:
        lines.append(f"Calendar: {resolved.calendar.describe()}")
        cal = resolved.calendar
        for x in cal.library_exclusions:
            lines.append(
                f"  not a holiday: {x.name} — {x.citation}" + (f" ({x.reason})" if x.reason else "")
            )
        moved = {
            "sunday_to_monday": "kept on the Monday after a Sunday",
            "weekend_to_monday": "kept on the Monday after a weekend",
            "none": "not moved off a weekend",
        }
        for a in cal.additions:
            state = "offices open" if a.offices_open else "offices closed"
            state += f", {moved[a.observed]}" if a.observed else ""
            state += f" (verify: {a.verify})" if a.verify else ""
            lines.append(f"  added: {a.name} ({a.when()}), {state} — {a.citation}")
        for r in cal.removals:
            lines.append(f"  removed: {r.name} ({r.when()}) — {r.citation}")
    return lines


def describe_costs(resolved: ResolvedPack) -> list[str]:
    """The legal-notice rate cap and who pays the paper, as the insertion order states them."""
    out = []
    cap = resolved.legal_rate_cap
    if cap:
        dollars = [
            f"${v}/{unit}"
            for v, unit in ((cap.per_line, "line"), (cap.per_column_inch, "column inch"))
            if v
        ]
        extra = f" ({', '.join(dollars)})" if dollars else ""
        out.append(f"Legal-notice rate cap: {cap.limit}{extra} — {cap.citation}")
    costs = resolved.publication_costs
    if costs:
        out.append(f"The newspaper is paid by the {costs.paid_by} — {costs.citation}")
    return out


def _span(timing: Timing) -> str:
    if timing.months:
        return f"{timing.months} months" + (f" and {timing.days} days" if timing.days else "")
    return f"{timing.days} days"


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


@dataclass
class Item:
    """One checklist line: a rule, the local rules that supplement it, and the binding params."""

    rule: Rule
    children: list[Rule]
    params: Any
    differences: list[str]

    @property
    def citations(self) -> str:
        """Every citation behind the line."""
        return "; ".join(dict.fromkeys([self.rule.citation, *(c.citation for c in self.children)]))


def items(
    resolved: ResolvedPack, on: date | None, only: frozenset[str] | None = None
) -> list[Item]:
    """The pack's rules in force on `on` (all, if None), each with its supplementing rules.

    `only`: just these rule ids (those that bind a case).
    """

    def live(rule: Rule) -> bool:
        return (on is None or rule.effective.covers(on)) and (only is None or rule.id in only)

    # By the rule itself, not its id: the versions of a rule share an id (loader.py).
    kids: dict[int, list[Rule]] = {}
    for pair in resolved.pairs:
        if live(pair.parent) and live(pair.child):
            kids.setdefault(id(pair.parent), []).append(pair.child)
    absorbed = {id(c) for cs in kids.values() for c in cs}
    out = []
    for rule in resolved.rules:
        if not live(rule) or id(rule) in absorbed:
            continue
        params, diffs = rule.params, []
        for child in kids.get(id(rule), []):
            try:
                params, more = bind(params, child.params)
                diffs += [d.describe() for d in more]
            except EmptyWindowError as exc:
                diffs.append(f"ERROR: {exc}")
        out.append(Item(rule, kids.get(id(rule), []), params, diffs))
    return out


@dataclass
class Conflict:
    """A difference between a local rule and the state rule it supplements (or state law at large)."""

    local: Rule
    state: Rule | None
    message: str

    @property
    def against(self) -> str:
        """What the local rule departs from."""
        return self.state.citation if self.state else "state law"


def conflicts(
    resolved: ResolvedPack, on: date | None = None, only: frozenset[str] | None = None
) -> list[Conflict]:
    """Every state-versus-local difference: computed from params, and stated in `conflict:`."""
    out = []
    base = resolved.chain[0].pack.id
    for item in items(resolved, on, only):
        if item.rule.conflict and resolved.origin[item.rule.id] != base:
            out.append(Conflict(item.rule, None, " ".join(item.rule.conflict.split())))
        for child in item.children:
            if child.conflict:
                out.append(Conflict(child, item.rule, " ".join(child.conflict.split())))
            try:
                _, diffs = bind(item.rule.params, child.params)
                out.extend(Conflict(child, item.rule, d.describe()) for d in diffs)
            except EmptyWindowError as exc:
                out.append(Conflict(child, item.rule, str(exc)))
    return out


def checklist(
    resolved: ResolvedPack,
    on: date | None = None,
    only: frozenset[str] | None = None,
    scope: str | None = None,
) -> str:
    """Render the pack as a plain-text checklist grouped by notice channel.

    `only` and `scope`: just the rules that bind a case, and a line saying which case.
    """
    chain = " → ".join(f"{pf.pack.name} ({pf.pack.id})" for pf in resolved.chain)
    head = resolved.pack
    lines = [chain, f"Pack version {head.version}, last verified {head.last_verified_on}."]
    served = resolved.municipality
    if served or resolved.governing_body:
        kind = f"{served.name}, a {served.kind.value}" if served else "a municipality"
        body = f"; governing body: {resolved.governing_body}" if resolved.governing_body else ""
        lines.append(f"Serves {kind}{body}.")
    lines += describe_calendar(resolved)
    lines += describe_costs(resolved)
    if scope:
        lines.append(scope)
    else:
        lines.append(
            f"Rules in force on {on}." if on else "All rules, whatever their effective dates."
        )
    every = items(resolved, on, only)
    notices = [i for i in every if isinstance(i.params, NoticeParams)]
    for channel in Channel:
        group = [i for i in notices if i.params.channel == channel]
        if not group:
            continue
        lines += ["", channel.value.replace("_", " ").upper()]
        docs = {i.params.document for i in group}
        ids = {i.rule.id for i in group}
        for item in group:
            p = item.params
            lines.append(_line(item))
            detail = [f"{p.requirement}", f"document: {p.document.value}"]
            if p.timing:
                detail.append(describe_timing(p.timing, p.hearing.value))
            if p.mail_class:
                detail.append(p.mail_class.replace("_", "-") + " mail")
            if p.circulation:
                detail.append(f"newspaper of {p.circulation} circulation")
            if p.places:
                detail.append(f"{p.places.count} places: {p.places.description}")
            lines.append("      " + "; ".join(detail))
            lines += _extra(item)
        for item in every:
            p = item.params
            if isinstance(p, RecipientsParams) and p.notice in ids:
                dist = (
                    f" within {p.distance_ft:,g} ft of the {(p.measured_from or 'land').replace('_', ' ')}"
                    if p.distance_ft
                    else ""
                )
                who = describe_group(p) + dist + _how_sent(p)
                lines.append(_line(item, "to") + f"\n      {who}")
                lines += _extra(item)
            elif isinstance(p, ProofParams) and set(p.proves) & ids:
                note = ", notarized" if p.notarized else ""
                lines.append(_line(item, "proof") + f"\n      {p.document.value}{note}")
                lines += _extra(item)
            elif isinstance(p, FormatParams) and p.document in docs:
                lines.append(_line(item, "form"))
                shape = describe_shape(p)
                if shape:
                    lines.append(f"      {shape}")
                lines += _extra(item)
    clauses = [i for i in every if isinstance(i.params, ClauseParams)]
    docs_seen: list[str] = []
    for item in clauses:
        docs_seen += [d.value for d in item.params.documents if d.value not in docs_seen]
    for doc in docs_seen:
        lines += ["", f"CONTENT OF {doc.replace('_', ' ').upper()}"]
        for item in clauses:
            if doc in item.params.documents:
                lines.append(_line(item))
                lines += _custom(item.params)
                lines += _extra(item)
    rest = [
        i
        for i in every
        if i.rule.kind
        in ("deadline", "protest", "procedure", "hearing_time", "continuance", "returned_mail")
    ]
    if rest:
        lines += ["", "PROCEDURE"]
        for item in rest:
            lines.append(_line(item))
            if isinstance(item.params, DeadlineParams):
                dp = item.params
                line = describe_timing(dp.timing, dp.hearing.value)
                if dp.from_hearing is not None:
                    line = f"{hearing_words(dp.hearing.value)}: " + describe_timing(
                        dp.timing, dp.from_hearing.value
                    )
                lines.append("      " + line)
            elif isinstance(item.params, HearingTimeParams):
                lines.append("      " + describe_hearing_time(item.params))
            elif isinstance(item.params, ProtestParams):
                lines.append("      " + describe_protest(item.params))
            elif isinstance(item.params, ContinuanceParams):
                lines.append("      binds: " + _SAYS[item.params.by_announcement])
            elif isinstance(item.params, ReturnedMailParams):
                lines.append("      binds: " + _SAYS[item.params.next])
            lines += _extra(item)
    lines += _declarations(resolved)
    found = conflicts(resolved, on, only)
    lines += ["", "CONFLICTS BETWEEN STATE AND LOCAL LAW (the stricter binds)"]
    if not found:
        lines.append("  none")
    for c in found:
        lines.append(f"  ! {c.local.citation} vs {c.against} [{c.local.id}]: {c.message}")
    return "\n".join(lines) + "\n"


# What a continuance or returned-mail rule binds, after a narrower pack fills a silence.
_SAYS = {
    "no_renotice": "a hearing continued to a date, time and place announced at it needs no new notice",
    "silent": "the law says nothing, and a finding says so",
    "nothing": "a notice not received does not invalidate the action",
    "remail": "a returned letter is mailed again to another address of record",
}


def _line(item: Item, tag: str = "") -> str:
    label = f"{tag}: " if tag else ""
    return f"  [ ] {label}{item.rule.title} — {item.citations}  ({', '.join([item.rule.id, *(c.id for c in item.children)])})"


def _custom(p: ClauseParams) -> list[str]:
    """A pack-defined clause: what it prints, where, and the values the pack fixes."""
    if p.topic != ClauseTopic.CUSTOM or not p.template or not p.placement:
        return []
    out = [f"      prints ({p.placement.value.replace('_', ' ')}): {' '.join(p.template.split())}"]
    if p.slots:
        out.append("      slots: " + ", ".join(f"{k} = {v}" for k, v in p.slots.items()))
    if p.type:
        out.append(f"      set in: {p.type.describe()} (checked in PDF and Word files)")
    return out


def _extra(item: Item) -> list[str]:
    out = []
    for rule in (item.rule, *item.children):
        who = "" if rule is item.rule else f"{rule.id} "
        if rule.when is not None and (rule is item.rule or rule.when != item.rule.when):
            out.append(f"      {who}when: {describe(rule.when)}")
        eff = rule.effective
        if (eff.from_ or eff.to) and (rule is item.rule or eff != item.rule.effective):
            judged = ", judged by the filing date" if eff.judged_by == "filing" else ""
            out.append(f"      {who}in force: {eff.from_ or '…'} to {eff.to or '…'}{judged}")
    return out


_GROUPS = {"owners_within": "owners of land"}
_AREAS = {
    "newspaper_circulation": "the newspaper's circulation area",
    "municipality": "the municipality",
}


def describe_group(p: RecipientsParams) -> str:
    """Say who a recipients rule selects: "owners of land", "Council of <name> for each ..."."""
    if p.group == RecipientGroup.NAMED:
        sources = [
            f"each one named in `{source.from_}`"
            if source.pattern == "{name}"
            else f"{source.pattern.replace('{name}', '<name>')} for each name in `{source.from_}`"
            for source in p.names
        ]
        return "; if none, ".join(sources)
    who = _GROUPS.get(p.group.value, p.group.value.replace("_", " "))
    sources = [f"{len(p.listed)} listed in the pack"] if p.listed else []
    sources += [f"named in `{source.from_}`" for source in p.names]
    if p.layer:
        reach = f"within {p.layer.within_ft:,g} ft of" if p.layer.within_ft else "in or touching"
        sources.append(f"the `{p.layer.name}` layer's features {reach} the land")
    if sources:
        who += ": " + "; ".join(sources)
    if p.mailing_address_outside:
        who += " whose mailing address lies outside " + " or ".join(
            _AREAS[a] for a in p.mailing_address_outside
        )
    return who


_DELIVERY = {"first_class": "first-class mail", "certified": "certified mail", "email": "e-mail"}


def _how_sent(p: RecipientsParams) -> str:
    """How a group says it is sent and what it receives: "; by certified mail"."""
    out = ""
    if p.delivery:
        out += f"; by {_DELIVERY[p.delivery]}"
        out += f" (allowed by {p.email_allowed})" if p.email_allowed else ""
    if p.content:
        out += f"; receives the {p.content.replace('_', ' ')}"
    return out


def _declarations(resolved: ResolvedPack) -> list[str]:
    """The options a case may elect and the facts the GIS layers answer, with their law."""
    lines = []
    stated = [pf.pack.languages for pf in resolved.chain]
    layout = next((s.layout for s in reversed(stated) if s.layout), None)
    given = sum(len(s.spanish) for s in stated)
    if layout or given:
        lines += ["", "LANGUAGES OF THE NOTICES (`languages:`)"]
        shown = layout.value if layout else "unstated (the case's, else english)"
        lines.append(f"  layout: {shown}; the pack's own words given in Spanish: {given}")
    if resolved.options:
        lines += ["", "OPTIONS THE CASE MAY ELECT (`options:`)"]
        for o in resolved.options.values():
            values = (
                f"one or more of {', '.join(o.choices)}"
                if o.choices
                else "words"
                if o.type == "text"
                else "true or false"
            )
            lines.append(f"  [ ] {o.title} — {o.citation}  (options.{o.id}: {values})")
    if resolved.layer_facts:
        lines += ["", "FACTS THE GIS LAYERS ANSWER (`layer_facts:`)"]
        for f in resolved.layer_facts:
            reach = f"within {f.within_ft:,g} ft of" if f.within_ft else "in or touching"
            lines.append(f"  [ ] {f.title} — {f.citation}  (facts.{f.fact})")
            lines.append(f"      the `{f.layer}` layer's features {reach} the land")
    if resolved.computed_facts:
        lines += ["", "FACTS COUNTED FROM THE RECIPIENTS AND PARCELS (`computed_facts:`)"]
        for c in resolved.computed_facts:
            what = f"count {c.count}" if c.count else f"sum {c.sum}"
            of = "the subject parcels" if c.of == "subject" else f"what {c.of} selects"
            cite = f" — {c.citation}" if c.citation else ""
            lines.append(f"  [ ] {c.title or c.id}{cite}  (computed.{c.id})")
            lines.append(f"      {what} of {of}; stated in a case as facts.computed.{c.id}")
    return lines


_OF = {
    "lots_in_change": "the area of the lots in the change",
    "lots_within_radius": "the area of the lots within",
    "zoning_area": "the zoning area (by area and number of lots)",
}


_SPLIT = {
    "area_within": "a parcel cut by the line counts by its part within",
    "whole_parcel": "a parcel cut by the line counts whole",
}
_JOINT = {
    "one_signature_counts_parcel": "one co-owner's signature counts the whole parcel",
    "share_of_named_owners": "a parcel counts by the share of its named owners who signed",
}
_CONFLICTS = {
    "remaining_members_min_majority_of_full": "of the remaining members when some cannot vote for a"
    " conflict of interest, never less than a majority of the full membership",
}
_ROUNDING = {
    "nearest_half_up": "rounded to the nearest whole number",
    "up": "rounded up",
    "more_than": "more than that fraction",
}


def _vote(v: Vote) -> str:
    text = f"{v.fraction.numerator}/{v.fraction.denominator} of {v.of.replace('_', ' ')}"
    if v.small_body:
        sb = v.small_body
        text += f" ({sb.fraction.numerator}/{sb.fraction.denominator} with {sb.max_members} members or fewer)"
    if v.conflicts:
        text += f", {_CONFLICTS[v.conflicts]}"
    return text + f", {_ROUNDING[v.rounding]}"


def describe_protest(p: ProtestParams) -> str:
    """Say a protest rule in words: who may protest, by when, how shares count, and the vote it forces."""
    shares = []
    for t in p.thresholds:
        radius = f" {t.radius_ft:,g} ft" if t.radius_ft and t.of == "lots_within_radius" else ""
        row = " (rights-of-way included)" if t.includes_rights_of_way else ""
        across = (
            f" or across an alley or street narrower than {t.across_streets_narrower_than_ft:,g} ft"
            if t.across_streets_narrower_than_ft
            else ""
        )
        own = f" (then a vote of {_vote(t.vote)})" if t.vote else ""
        shares.append(f"{t.share:.0%} of {_OF[t.of]}{radius}{row}{across}{own}")
    counting = sorted(
        {_SPLIT[t.split_parcels] for t in p.thresholds}
        | {_JOINT[t.joint_owners] for t in p.thresholds}
    )
    vote = _vote(p.vote)
    return (
        f"owners of {' or '.join(shares)} ({'; '.join(counting)}), filed with {p.filed_with} "
        f"{describe_timing(p.filing)}, force a vote of {vote}"
    )


def as_json(
    resolved: ResolvedPack, on: date | None = None, only: frozenset[str] | None = None
) -> dict[str, Any]:
    """The checklist as data: every rule with its binding params, and the conflicts."""
    return {
        "id": resolved.id,
        "chain": [
            {"id": pf.pack.id, "name": pf.pack.name, "version": pf.pack.version}
            for pf in resolved.chain
        ],
        "on": on.isoformat() if on else None,
        "time_counting": resolved.time_counting.model_dump(mode="json")
        if resolved.time_counting
        else None,
        "calendar": resolved.calendar.model_dump(mode="json") if resolved.calendar else None,
        "rules": [
            {
                "id": item.rule.id,
                "ids": [item.rule.id, *(c.id for c in item.children)],
                "kind": item.rule.kind,
                "title": item.rule.title,
                "citations": [item.rule.citation, *(c.citation for c in item.children)],
                "when": item.rule.when,
                "params": item.params.model_dump(mode="json", exclude_defaults=True),
            }
            for item in items(resolved, on, only)
        ],
        "options": [o.model_dump(mode="json") for o in resolved.options.values()],
        "layer_facts": [
            f.model_dump(mode="json", exclude_defaults=True) for f in resolved.layer_facts
        ],
        "computed_facts": [
            f.model_dump(mode="json", exclude_defaults=True) for f in resolved.computed_facts
        ],
        "conflicts": [
            {
                "local": c.local.id,
                "local_citation": c.local.citation,
                "state": c.state.id if c.state else None,
                "state_citation": c.against,
                "message": c.message,
            }
            for c in conflicts(resolved, on, only)
        ],
    }


def pack_models() -> list[type[BaseModel]]:
    """Every model a pack is made of, from `Pack` down, each once, in the order first met."""
    found: dict[type[BaseModel], None] = {}

    def inner(annotation: Any) -> list[type[BaseModel]]:
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return [annotation]
        return [m for arg in get_args(annotation) for m in inner(arg)]

    def walk(model: type[BaseModel]) -> None:
        if model in found:
            return
        found[model] = None
        for info in model.model_fields.values():
            for sub in inner(info.annotation):
                walk(sub)

    walk(Pack)
    return list(found)


def reference() -> str:
    """The pack format, model by model: every field, its type and its description.

    `tests/test_pack_reference.py` checks that jurisdictions/README.md names every field listed
    here, so the written reference cannot fall behind the models.
    """
    lines = ["THE PACK FORMAT (every field; jurisdictions/README.md has an example of each)"]
    for model in [Rule, *pack_models()]:
        doc = " ".join((model.__doc__ or "").split("\n\n")[0].split())
        lines += ["", f"{model.__name__}: {doc}"]
        for name, info in model.model_fields.items():
            if model is not Rule and issubclass(model, Rule) and name not in ("kind", "params"):
                continue  # the envelope every kind shares, listed once under Rule
            what = f"  {info.alias or name}: {_type_name(info.annotation)}"
            if info.description:
                what += f" — {' '.join(info.description.split())}"
            lines.append(what)
    lines += ["", "SLOTS A CUSTOM CLAUSE'S TEMPLATE MAY NAME (besides its own `slots`)"]
    lines += [f"  {{{s.name}}}: {s.doc}" for s in SLOTS.values()]
    lines.append("  {option.<id>}: what the case states for a text option a pack declares")
    lines += ["", "FACTS A CONDITION (`when`) MAY TEST"]
    lines += [f"  {f.name}: {f.doc}" for f in FACTS.values()]
    lines.append("  option.<id>: an option a pack declares, as the case elects it")
    return "\n".join(lines) + "\n"


def _type_name(annotation: Any) -> str:
    """A field's type as a pack author reads it: `int`, `list[Timing]`, `Timing | None`."""
    origin, args = get_origin(annotation), get_args(annotation)
    if origin is Annotated:
        return _type_name(args[0])
    if origin is Literal:
        return " | ".join(str(a) for a in args)
    if origin in (Union, UnionType):
        return " | ".join(_type_name(a) for a in args)
    if origin is not None:
        return f"{getattr(origin, '__name__', origin)}[{', '.join(_type_name(a) for a in args)}]"
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        return " | ".join(m.value for m in annotation)
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", str(annotation))
