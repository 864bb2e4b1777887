"""Plan a packet: which notices the law requires for this case, and what stands in the way.

Planning reads the case and the resolved pack and decides; it renders and writes nothing.
Each hearing is judged by the law in force on its own date.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from generator.documents import DocumentKind
from generator.models.case import Body, Case, Hearing
from generator.models.conditions import FACTS
from generator.models.pack import Channel, ClauseParams, ClauseTopic, HearingRef, NoticeParams
from generator.rules.explain import describe_timing
from generator.rules.loader import Binding, ResolvedPack, Snapshot, snapshot


@dataclass(frozen=True)
class Finding:
    """Something the plan or a check found, with the rule and citation behind it."""

    severity: str  # "error" makes the packet not ready; "warning" and "info" do not
    code: str
    message: str
    rule: str | None = None
    citation: str | None = None
    document: str | None = None

    def as_dict(self) -> dict[str, str | None]:
        """The finding as JSON-ready data."""
        return {
            "code": self.code,
            "rule": self.rule,
            "severity": self.severity,
            "message": self.message,
            "citation": self.citation,
            "document": self.document,
        }


@dataclass
class DocumentPlan:
    """One notice document to render for one hearing."""

    kind: DocumentKind
    hearing: Hearing
    notices: list[Binding]
    clauses: list[Binding]
    name: str
    formats: list[Binding] = field(default_factory=list)  # how it must look (size, legibility)

    def topics(self) -> dict[str, list[str]]:
        """Required clause topics and the ids of the rules that require each."""
        out: dict[str, list[str]] = {}
        for b in self.clauses:
            topic = b.params.topic.value  # type: ignore[attr-defined]
            out.setdefault(topic, [])
            out[topic] += [i for i in b.ids if i not in out[topic]]
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


@dataclass
class Plan:
    """Everything the renderer needs, and the findings so far."""

    case: Case
    pack: ResolvedPack
    snapshots: dict[date, Snapshot]
    documents: list[DocumentPlan] = field(default_factory=list)  # newspaper notices
    letters: list[DocumentPlan] = field(default_factory=list)  # mailed notice, one set per hearing
    transmittals: list[DocumentPlan] = field(default_factory=list)  # to councils and agencies
    signs: list[DocumentPlan] = field(default_factory=list)  # posted on the land
    postings: list[DocumentPlan] = field(default_factory=list)  # clerk's office, public places
    websites: list[DocumentPlan] = field(default_factory=list)
    display_ads: list[DocumentPlan] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    map: MapInfo | None = None

    @property
    def every_document(self) -> list[DocumentPlan]:
        """Every notice document planned, of every channel."""
        return (
            self.documents + self.letters + self.transmittals + self.signs + self.postings
            + self.websites + self.display_ads
        )  # fmt: skip

    @property
    def needs_map(self) -> bool:
        """Whether some planned document must carry a map of the change."""
        return any(b.params.topic == ClauseTopic.MAP for d in self.documents for b in d.clauses)  # type: ignore[attr-defined]


def serves(ref: HearingRef, hearing: Hearing, case: Case) -> bool:
    """Whether a rule that serves `ref` applies to `hearing`."""
    if ref == HearingRef.EACH:
        return True
    if ref == HearingRef.FIRST:
        return hearing is case.hearings[0]
    if ref == HearingRef.COUNCIL:
        return hearing.body == Body.COUNCIL
    return hearing.body in (Body.PLANNING, Body.HEARING_OFFICER)


def plan(case: Case, pack: ResolvedPack, the_map: MapInfo | None = None) -> Plan:
    """Decide the documents to render (newspaper notices, letters) and collect findings."""
    snaps = {h.date: snapshot(pack, case, h.date) for h in case.hearings}
    result = Plan(case, pack, snaps, map=the_map)
    result.documents = _documents(result, Channel.NEWSPAPER, DocumentKind.NEWSPAPER_NOTICE)
    result.letters = _documents(result, Channel.MAIL, DocumentKind.LETTERS)
    result.transmittals = _documents(result, Channel.TRANSMITTAL, DocumentKind.TRANSMITTAL)
    result.signs = _documents(result, Channel.SIGN, DocumentKind.SIGN)
    result.postings = _documents(result, Channel.POSTING, DocumentKind.POSTING_NOTICE)
    result.websites = _documents(result, Channel.WEBSITE, DocumentKind.WEBSITE_NOTICE)
    result.display_ads = _documents(result, Channel.DISPLAY_AD, DocumentKind.DISPLAY_AD)
    _check_required_hearings(result)
    _offer_alternatives(result)
    _list_other_notices(result)
    _check_content(result)
    _report_conflicts(result)
    _report_assumptions(result)
    return result


def _documents(result: Plan, channel: Channel, doc: DocumentKind) -> list[DocumentPlan]:
    """One document per hearing, however many rules (state, local, old and new text) require it."""
    case = result.case
    noticed: list[tuple[Hearing, list[Binding], Snapshot]] = []
    for hearing in case.hearings:
        snap = result.snapshots[hearing.date]
        rules = [
            b
            for b in snap.of_kind("notice")
            if b.params.channel == channel  # type: ignore[attr-defined]
            and serves(b.params.hearing, hearing, case)  # type: ignore[attr-defined]
            and _given(b)
        ]
        if rules:
            noticed.append((hearing, rules, snap))
    out: list[DocumentPlan] = []
    names: list[str] = []
    for hearing, rules, snap in noticed:
        clauses = [b for b in snap.of_kind("clause") if doc in b.params.documents]  # type: ignore[attr-defined]
        formats = [b for b in snap.of_kind("format") if b.params.document == doc]  # type: ignore[attr-defined]
        name = doc.value if len(noticed) == 1 else f"{doc.value}-{hearing.body.value}"
        if name in names:
            name += f"-{hearing.date.isoformat()}"
        while name in names:
            name += "-2"
        names.append(name)
        out.append(DocumentPlan(doc, hearing, rules, clauses, name, formats))
    return out


def _given(b: Binding) -> bool:
    """Whether we make the notice: required, an elected alternative, or an option the case chose.

    An optional notice left to an official's judgment ("any other notice deemed useful") is
    listed for the clerk, not made.
    """
    p: NoticeParams = b.params  # type: ignore[assignment]
    return p.requirement != "optional" or bool(p.elected_by)


def _check_required_hearings(result: Plan) -> None:
    case = result.case
    for snap in result.snapshots.values():
        for b in snap.of_kind("notice"):
            p: NoticeParams = b.params  # type: ignore[assignment]
            if p.channel != Channel.NEWSPAPER or p.requirement != "required":
                continue
            if not any(serves(p.hearing, h, case) for h in case.hearings):
                result.findings.append(
                    Finding(
                        "warning",
                        "PLAN002",
                        f"the pack requires newspaper notice of the {p.hearing.value} hearing, but"
                        " the case lists no such hearing under `hearings`",
                        b.rule.id,
                        "; ".join(b.citations),
                    )
                )
    if not case.newspaper and result.documents:
        result.findings.append(
            Finding(
                "warning",
                "PLAN003",
                "the case names no newspaper: the ad copy is addressed to none",
            )
        )


def _offer_alternatives(result: Plan) -> None:
    """Name each alternative the law allows this case but the case has not elected."""
    from generator.models.conditions import evaluate

    case, offered, declared = result.case, set(), result.pack.options
    live = {i for snap in result.snapshots.values() for b in snap.bindings for i in b.ids}
    for rule in result.pack.rules:
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
            result.findings.append(
                Finding(
                    "info",
                    "PLAN008",
                    f"the law allows this case {rule.title[0].lower() + rule.title[1:]}: elect it with"
                    f" `options.{option}: true`",
                    rule.id,
                    rule.citation,
                )
            )


def _list_other_notices(result: Plan) -> None:
    """Name every other notice the law requires, so the clerk sees the whole duty."""
    seen: set[str] = set()
    for snap in result.snapshots.values():
        for b in snap.of_kind("notice"):
            p: NoticeParams = b.params  # type: ignore[assignment]
            if p.channel == Channel.NEWSPAPER or b.rule.id in seen:
                continue
            seen.add(b.rule.id)
            when = f", {describe_timing(p.timing, p.hearing.value)}" if p.timing else ""
            result.findings.append(
                Finding(
                    "info",
                    "PLAN007",
                    f"{p.requirement} notice: {b.rule.title} ({p.channel.value}, {p.document.value}{when});"
                    " not generated by this version — give it by hand",
                    b.rule.id,
                    "; ".join(b.citations),
                )
            )


def _check_content(result: Plan) -> None:
    """A required clause whose facts the case lacks makes the packet not ready."""
    case = result.case
    seen: set[tuple[str, str]] = set()
    for doc in result.documents:
        for b in doc.clauses:
            p: ClauseParams = b.params  # type: ignore[assignment]
            missing = None
            if p.topic == ClauseTopic.MAP and result.map is None:
                missing = (
                    "a map of the change is required but there is none: add `map.image`, or GIS"
                    " layers (`gis.parcels` with the subject parcels) to draw it from"
                )
            elif p.topic == ClauseTopic.INTENT_AND_EFFECT and not case.amendment.intent_and_effect:
                missing = "the notice summarizes the proposal, so it must state its intent and effect: add `amendment.intent_and_effect`"
            elif p.topic == ClauseTopic.PROPOSED_USE and not case.amendment.proposed_use:
                missing = "the notice must state the proposed use: add `amendment.proposed_use`"
            elif p.topic == ClauseTopic.AREA_DESCRIPTION and not (
                case.area_description or case.parcels
            ):
                missing = "the notice must describe the area affected: add `area_description`"
            elif p.topic == ClauseTopic.MERGER_CLAUSE and not case.amendment.merger_clause:
                missing = (
                    "the notice must refer to the merger clause: add `amendment.merger_clause`"
                )
            if missing and (b.rule.id, doc.name) not in seen:
                seen.add((b.rule.id, doc.name))
                result.findings.append(
                    Finding(
                        "error", "PLAN001", missing, b.rule.id, "; ".join(b.citations), doc.name
                    )
                )
        if result.map:
            shows = set(result.map.shows)
            for b in doc.clauses:
                need = set(getattr(b.params, "must_show", []) or [])
                if b.params.topic == ClauseTopic.MAP and need - shows:  # type: ignore[attr-defined]
                    result.findings.append(
                        Finding(
                            "warning",
                            "PLAN004",
                            "the map must show "
                            + ", ".join(sorted(need - shows)).replace("_", " ")
                            + (
                                ""
                                if result.map.drawn
                                else "; list what it shows under `map.shows` once checked"
                            ),
                            b.rule.id,
                            "; ".join(b.citations),
                            doc.name,
                        )
                    )


def _report_conflicts(result: Plan) -> None:
    seen: set[str] = set()
    base = result.pack.chain[0].pack.id
    for snap in result.snapshots.values():
        for b in snap.bindings:
            own = b.rule.conflict and result.pack.origin[b.rule.id] != base
            if own and b.rule.id not in seen:
                seen.add(b.rule.id)
                result.findings.append(
                    Finding(
                        "warning",
                        "LAW001",
                        f"{b.rule.citation} departs from state law: {' '.join(b.rule.conflict.split())}",
                        b.rule.id,
                        b.rule.citation,
                    )
                )
            for child in b.supplemented_by:
                if child.conflict and child.id not in seen:
                    seen.add(child.id)
                    result.findings.append(
                        Finding(
                            "warning",
                            "LAW001",
                            f"{child.citation} departs from {b.rule.citation}: {' '.join(child.conflict.split())}",
                            child.id,
                            "; ".join(b.citations),
                        )
                    )
            for d in b.differences:
                key = f"{b.rule.id}:{d.field}"
                if key not in seen:
                    seen.add(key)
                    result.findings.append(
                        Finding(
                            "warning",
                            "LAW002",
                            f"state and local law differ on {b.rule.title.lower()}: {d.describe()}",
                            b.rule.id,
                            "; ".join(b.citations),
                        )
                    )


def _report_assumptions(result: Plan) -> None:
    assumed = sorted(set().union(*(s.assumed for s in result.snapshots.values())))
    if assumed:
        listed = "; ".join(f"{fact} ({FACTS[fact].doc})" for fact in assumed)
        result.findings.append(
            Finding(
                "info",
                "PLAN005",
                f"not stated in the case, so rules that turn on them were applied as if they were"
                f" false or absent: {listed}",
            )
        )
