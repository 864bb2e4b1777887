"""Plan a packet: which notices the law requires for this case, and what stands in the way.

Planning reads the case and the resolved pack and decides; it renders and writes nothing.
Each hearing is judged by the law in force on its own date.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date

from generator.findings import Finding, cited
from generator.kinds import DocumentKind
from generator.legal_calendar import short
from generator.models import slots
from generator.models.case import Case, Hearing
from generator.models.conditions import FACTS
from generator.models.pack import Channel, ClauseParams, ClauseTopic, FormatParams, NoticeParams
from generator.models.slots import SlotSource
from generator.rules.explain import describe_timing
from generator.rules.loader import Binding, ResolvedPack, Snapshot, snapshot
from generator.schedule import Deadline, hearing_label, issues_of, window_of


@dataclass(frozen=True)
class DocumentPlan:
    """One notice document to make for one hearing: the rules that require it, and what binds it."""

    kind: DocumentKind
    channel: Channel
    hearing: Hearing
    notices: tuple[Binding[NoticeParams], ...]
    clauses: tuple[Binding[ClauseParams], ...]
    name: str
    formats: tuple[Binding[FormatParams], ...] = ()  # how it must look (size, legibility)
    # The days it goes out: the issues it runs in, or the day it is mailed or posted (the last
    # lawful day). `plan()` sets it for every document, choosing a day where the law sets none.
    out: tuple[date, ...] = ()
    dated_by: str | None = None  # the deadline that set `out`, or None when we chose the day

    @property
    def dated(self) -> date | None:
        """The day the document is dated: the first day it goes out."""
        return self.out[0] if self.out else None

    def ahead(self, hearings: Sequence[Hearing]) -> list[Hearing]:
        """Those of `hearings` still ahead on the last day the document goes out.

        A notice never announces a hearing that is over by the time a reader has it.
        """
        return [h for h in hearings if not self.out or h.date > self.out[-1]]

    @property
    def notice_ids(self) -> tuple[str, ...]:
        """The ids of the notice rules that require the document, in plan order."""
        return tuple(dict.fromkeys(i for b in self.notices for i in b.ids))

    @property
    def citations(self) -> str:
        """The citations of the notice rules that require the document."""
        return "; ".join(dict.fromkeys(c for b in self.notices for c in b.citations))

    def topics(self) -> dict[str, list[str]]:
        """Required clause topics and the ids of the rules that require each."""
        out: dict[str, list[str]] = {}
        for b in self.clauses:
            ids = out.setdefault(b.params.topic.value, [])
            ids += [i for i in b.ids if i not in ids]
        return out


@dataclass(frozen=True)
class MapInfo:
    """The map the notices carry: the clerk's image, or one drawn from the GIS layers."""

    name: str  # file name in the packet, e.g. map.png or map.svg
    data: bytes
    caption: str | None
    alt: str
    shows: tuple[str, ...]
    raster: bytes | None = None  # a PNG or JPEG for Word, when `data` is SVG
    drawn: bool = False

    @property
    def word_image(self) -> bytes | None:
        """The image Word can embed (not SVG)."""
        return self.raster if self.name.endswith(".svg") else self.data


@dataclass(frozen=True)
class Plan:
    """Which notices the law requires of this case, hearing by hearing, and what stands in the way."""

    case: Case
    pack: ResolvedPack
    snapshots: Mapping[date, Snapshot]
    documents: tuple[DocumentPlan, ...]  # every notice document to make, of every channel
    findings: tuple[Finding, ...]
    map: MapInfo | None = None

    def of(self, *channels: Channel) -> list[DocumentPlan]:
        """The planned documents of these channels (newspaper notices, letters, signs ...)."""
        return [d for d in self.documents if d.channel in channels]

    @property
    def needs_map(self) -> bool:
        """Whether a planned newspaper notice or display ad must carry a map of the change."""
        return needs_map(self.documents)


def needs_map(documents: tuple[DocumentPlan, ...]) -> bool:
    """Whether a newspaper notice or display ad among `documents` must carry a map of the change."""
    return any(
        b.params.topic == ClauseTopic.MAP
        for d in documents
        if d.channel in (Channel.NEWSPAPER, Channel.DISPLAY_AD)
        for b in d.clauses
    )


def plan(
    case: Case,
    pack: ResolvedPack,
    supplied: MapInfo | None = None,
    draw: Callable[[], MapInfo | None] | None = None,
    *,
    deadlines: Sequence[Deadline] = (),
) -> Plan:
    """Decide the notice documents to make, the day each goes out, and what stands in the way.

    The map is the clerk's (`supplied`), else one drawn (`draw`, called only when a notice needs
    a map: drawing takes a moment). Each document is dated from the schedule (`deadlines`).
    """
    snaps = {h.date: snapshot(pack, case, h.date) for h in case.hearings}
    documents, undated = _dated(_documents(case, snaps), deadlines, case)
    the_map = supplied or (draw() if draw and needs_map(documents) else None)
    findings = (
        _check_required_hearings(case, snaps, documents)
        + _offer_alternatives(case, pack, snaps)
        + _not_given(snaps)
        + _check_content(case, documents, the_map)
        + _unfilled_slots(case, pack, documents)
        + _report_conflicts(pack, snaps)
        + _report_assumptions(snaps)
        + undated
    )
    return Plan(case, pack, snaps, documents, tuple(findings), the_map)


def _documents(case: Case, snaps: dict[date, Snapshot]) -> tuple[DocumentPlan, ...]:
    """One document per channel and hearing, however many rules (state, local, old and new text) require it.

    The pack's notice rule names the document kind; two channels giving the same kind of
    document (mailed notice and the applicant's actual notice, both letters) keep apart by name.
    """
    out: list[DocumentPlan] = []
    names: list[str] = []
    for channel in Channel:
        noticed = []
        for hearing in case.hearings:
            snap = snaps[hearing.date]
            rules = tuple(
                b
                for b in snap.of(NoticeParams)
                if b.params.channel == channel
                and b.params.hearing.serves(hearing, case)
                and _given(b)
            )
            if rules:
                noticed.append((hearing, rules, snap))
        for hearing, rules, snap in noticed:
            kind = rules[0].params.document
            clauses = tuple(b for b in snap.of(ClauseParams) if kind in b.params.documents)
            formats = tuple(b for b in snap.of(FormatParams) if b.params.document == kind)
            name = kind.value if len(noticed) == 1 else f"{kind.value}-{hearing.body.value}"
            if name in names:
                name += f"-{hearing.date.isoformat()}" if len(noticed) > 1 else f"-{channel.value}"
            while name in names:
                name += "-2"
            names.append(name)
            out.append(DocumentPlan(kind, channel, hearing, rules, clauses, name, formats))
    return tuple(out)


def _dated(
    documents: tuple[DocumentPlan, ...], deadlines: Sequence[Deadline], case: Case
) -> tuple[tuple[DocumentPlan, ...], list[Finding]]:
    """Each document with the days it goes out, taken from the schedule.

    A newspaper notice goes out in the issues the schedule chose; any other on the last lawful
    day of its notice. Where the law sets no day, the document goes out with the hearing's
    other notices (the first day one of them goes out), and the clerk is told; a document that
    would go out on or after its own hearing is an error.
    """
    timed = [
        replace(d, out=days, dated_by=by) for d in documents for days, by in [_days(d, deadlines)]
    ]
    out, findings = [], []
    for doc in timed:
        if not doc.out:
            others = [o.out[0] for o in timed if o.hearing is doc.hearing and o.out]
            day = min(others) if others else case.as_of or doc.hearing.date
            doc = replace(doc, out=(day,))
            if doc.kind in _DATED_KINDS:
                findings.append(
                    _undated(
                        doc,
                        "the day the hearing's other notice goes out"
                        if others
                        else "the case's as-of day",
                    )
                )
        if doc.out[-1] >= doc.hearing.date:
            findings.append(
                Finding(
                    "PLAN009",
                    f"the {doc.name} would go out on {short(doc.out[-1])}, not before the"
                    f" {doc.hearing.body_name} hearing of {short(doc.hearing.date)} it"
                    " announces: set the dates of the case so the notice can be given",
                    **cited(doc.notices[0]),
                    document=doc.name,
                )
            )
        out.append(doc)
    return tuple(out), findings


# The documents that print the day they go out at the top (a letter's date line).
_DATED_KINDS = (DocumentKind.LETTERS, DocumentKind.TRANSMITTAL)


def _days(doc: DocumentPlan, deadlines: Sequence[Deadline]) -> tuple[tuple[date, ...], str | None]:
    """The days `doc` goes out by the schedule, and the id of the deadline that says so."""
    label, rules = hearing_label(doc.hearing), doc.notice_ids
    mine = [d for d in deadlines if d.hearing == label and d.rule in rules]
    _, latest = window_of(mine, rules, doc.hearing)
    days = tuple(issues_of(mine, rules, doc.hearing)) or ((latest,) if latest else ())
    return days, (mine[0].id if days else None)


def _undated(doc: DocumentPlan, chosen: str) -> Finding:
    """MAIL004: the law sets no day for the document, so we chose one; the clerk confirms it."""
    return Finding(
        "MAIL004",
        f"the law times no mailing of the {doc.name}: they are dated {short(doc.out[0])},"
        f" {chosen}; confirm the date before they go out",
        **cited(doc.notices[0]),
        document=f"{doc.name}.pdf",
    )


def _given(b: Binding[NoticeParams]) -> bool:
    """Whether we make the notice: required, an elected alternative, or an option the case chose.

    An optional notice left to an official's judgment ("any other notice deemed useful") is
    listed for the clerk, not made.
    """
    return b.params.requirement != "optional" or bool(b.params.elected_by)


def _check_required_hearings(
    case: Case, snaps: dict[date, Snapshot], documents: tuple[DocumentPlan, ...]
) -> list[Finding]:
    out = []
    for snap in snaps.values():
        for b in snap.of(NoticeParams):
            p = b.params
            if p.channel != Channel.NEWSPAPER or p.requirement != "required":
                continue
            if not any(p.hearing.serves(h, case) for h in case.hearings):
                out.append(
                    Finding(
                        "PLAN002",
                        f"the pack requires newspaper notice of the {p.hearing.value} hearing, but"
                        " the case lists no such hearing under `hearings`",
                        **cited(b),
                    )
                )
    if not case.newspaper and any(d.channel == Channel.NEWSPAPER for d in documents):
        out.append(
            Finding("PLAN003", "the case names no newspaper: the ad copy is addressed to none")
        )
    return out


def _offer_alternatives(
    case: Case, pack: ResolvedPack, snaps: dict[date, Snapshot]
) -> list[Finding]:
    """Name each alternative the law allows this case but the case has not elected."""
    from generator.models.conditions import evaluate

    out, offered, declared = [], set(), pack.options
    live = {i for snap in snaps.values() for b in snap.bindings for i in b.ids}
    for rule in pack.rules:
        p = rule.params
        option = (getattr(p, "elected_by", None) or "").removeprefix("option.")
        if rule.kind != "notice" or rule.id in live or rule.id in offered or not option:
            continue
        if option not in declared or declared[option].type != "yes_no":
            continue  # a set of choices has no one value to suggest
        elected = case.model_copy(update={"options": case.options.electing(option, True)})
        if (
            any(rule.effective.covers(h.date) for h in case.hearings)
            and evaluate(rule.when, elected, declared).value
        ):
            offered.add(rule.id)
            out.append(
                Finding(
                    "PLAN008",
                    f"the law allows this case {rule.title[0].lower() + rule.title[1:]}: elect it with"
                    f" `options.{option}: true`",
                    rule=rule.id,
                    citation=rule.citation,
                )
            )
    return out


def by_hand(b: Binding[NoticeParams]) -> Finding:
    """PLAN007: a notice in force that is not generated, named so the clerk gives it by hand."""
    p = b.params
    when = f", {describe_timing(p.timing, p.hearing.value)}" if p.timing else ""
    return Finding(
        "PLAN007",
        f"{p.requirement} notice: {b.rule.title} ({p.channel.value}, {p.document.value}{when});"
        " not generated by this version — give it by hand",
        **cited(b),
    )


def _not_given(snaps: dict[date, Snapshot]) -> list[Finding]:
    """Optional notices left to an official's judgment: listed, so the clerk sees the whole duty."""
    seen: dict[str, Finding] = {}
    for snap in snaps.values():
        for b in snap.of(NoticeParams):
            if not _given(b) and b.rule.id not in seen:
                seen[b.rule.id] = by_hand(b)
    return list(seen.values())


# What a case must say for a clause of each topic to be written, and where to say it.
_NEEDS = {
    ClauseTopic.INTENT_AND_EFFECT: (
        lambda c: c.amendment.intent_and_effect,
        "the notice summarizes the proposal, so it must state its intent and effect: add"
        " `amendment.intent_and_effect`",
    ),
    ClauseTopic.PROPOSED_USE: (
        lambda c: c.amendment.proposed_use,
        "the notice must state the proposed use: add `amendment.proposed_use`",
    ),
    ClauseTopic.AREA_DESCRIPTION: (
        lambda c: c.area_description or c.parcels,
        "the notice must describe the area affected: add `area_description`",
    ),
    ClauseTopic.MERGER_CLAUSE: (
        lambda c: c.amendment.merger_clause,
        "the notice must refer to the merger clause: add `amendment.merger_clause`",
    ),
}
_NO_MAP = (
    "a map of the change is required but there is none: add `map.image`, or GIS layers"
    " (`gis.parcels` with the subject parcels) to draw it from"
)


# Where a case states the value a pack-defined clause's slot reads, when it leaves it empty.
_SLOT_HINTS = {
    "municipality.kind": "add `municipality_kind` to the case (or `municipality` to its pack)",
    "municipality.body_name": "add `governing_body` to the pack, or a council hearing to the case",
}


def _unfilled_slots(
    case: Case, pack: ResolvedPack, documents: tuple[DocumentPlan, ...]
) -> list[Finding]:
    """PLAN001 for a pack-defined clause whose slot the case leaves empty: it cannot be printed."""
    out = []
    seen: set[tuple[str, str]] = set()
    for doc in documents:
        source = SlotSource(case, doc.hearing, pack.governing_body)
        for b in doc.clauses:
            if b.params.topic != ClauseTopic.CUSTOM or (b.rule.id, doc.name) in seen:
                continue
            for name in slots.missing(b.params.template or "", b.params.slots, source):
                seen.add((b.rule.id, doc.name))
                hint = (
                    f"add `options.{name.removeprefix(slots.OPTION)}` to the case"
                    if name.startswith(slots.OPTION)
                    else _SLOT_HINTS.get(name, f"add `{name}` to the case")
                )
                out.append(
                    Finding(
                        "PLAN001",
                        f"{b.rule.title}: the clause prints {{{name}}}, which the case does not"
                        f" state, so the notice cannot carry it: {hint}",
                        **cited(b),
                        document=doc.name,
                    )
                )
    return out


def _check_content(
    case: Case, documents: tuple[DocumentPlan, ...], the_map: MapInfo | None
) -> list[Finding]:
    """A required clause whose facts the case lacks makes the packet not ready."""
    out = []
    seen: set[tuple[str, str]] = set()
    for doc in documents:
        if doc.channel != Channel.NEWSPAPER:
            continue
        for b in doc.clauses:
            topic = b.params.topic
            missing = None
            if topic == ClauseTopic.MAP and the_map is None:
                missing = _NO_MAP
            elif topic in _NEEDS and not _NEEDS[topic][0](case):
                missing = _NEEDS[topic][1]
            if missing and (b.rule.id, doc.name) not in seen:
                seen.add((b.rule.id, doc.name))
                out.append(Finding("PLAN001", missing, **cited(b), document=doc.name))
        if the_map:
            shows = set(the_map.shows)
            for b in doc.clauses:
                need = set(b.params.must_show)
                if b.params.topic == ClauseTopic.MAP and need - shows:
                    out.append(
                        Finding(
                            "PLAN004",
                            "the map must show "
                            + ", ".join(sorted(need - shows)).replace("_", " ")
                            + (
                                ""
                                if the_map.drawn
                                else "; list what it shows under `map.shows` once checked"
                            ),
                            **cited(b),
                            document=doc.name,
                        )
                    )
    return out


def _report_conflicts(pack: ResolvedPack, snaps: dict[date, Snapshot]) -> list[Finding]:
    out = []
    seen: set[str] = set()
    base = pack.chain[0].pack.id
    for snap in snaps.values():
        for b in snap.bindings:
            own = b.rule.conflict and pack.origin[b.rule.id] != base
            if own and b.rule.id not in seen:
                seen.add(b.rule.id)
                out.append(
                    Finding(
                        "LAW001",
                        f"{b.rule.citation} departs from state law: {' '.join(b.rule.conflict.split())}",
                        rule=b.rule.id,
                        citation=b.rule.citation,
                    )
                )
            for child in b.supplemented_by:
                if child.conflict and child.id not in seen:
                    seen.add(child.id)
                    out.append(
                        Finding(
                            "LAW001",
                            f"{child.citation} departs from {b.rule.citation}: {' '.join(child.conflict.split())}",
                            rule=child.id,
                            citation="; ".join(b.citations),
                        )
                    )
            for d in b.differences:
                key = f"{b.rule.id}:{d.field}"
                if key not in seen:
                    seen.add(key)
                    out.append(
                        Finding(
                            "LAW002",
                            f"state and local law differ on {b.rule.title.lower()}: {d.describe()}",
                            rule=b.rule.id,
                            citation="; ".join(b.citations),
                        )
                    )
    return out


def _report_assumptions(snaps: dict[date, Snapshot]) -> list[Finding]:
    out = []
    unjudged = sorted(set().union(*(s.unjudged for s in snaps.values())))
    if unjudged:
        out.append(
            Finding(
                "PLAN010",
                f"the version of {', '.join(unjudged)} in force is decided by the date the"
                " application or petition was filed, which the case does not give"
                " (`petition_received`): the version in force on the hearing's date was applied",
                rule=unjudged[0],
            )
        )
    assumed = sorted(set().union(*(s.assumed for s in snaps.values())))
    if not assumed:
        return out
    listed = "; ".join(f"{fact} ({FACTS[fact].doc})" for fact in assumed)
    return [
        *out,
        Finding(
            "PLAN005",
            f"not stated in the case, so rules that turn on them were applied as if they were"
            f" false or absent: {listed}",
        ),
    ]
