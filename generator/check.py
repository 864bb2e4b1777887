"""Check the record against the plan and the law: each requirement met, missed, not yet due.

One function (`check`) answers `notices check` and the part of `notices build` that reads a
case's record. The deadlines are the schedule engine's (which counts from recorded events where
the law counts from an event); this stage only compares the recorded acts with them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any, Literal, Protocol

from generator.errors import UserError
from generator.findings import Finding
from generator.inputs import CaseFile
from generator.legal_calendar import short
from generator.models.case import Case, Hearing
from generator.models.pack import Channel
from generator.models.record import HearingName, Record
from generator.plan import DocumentPlan, Plan
from generator.recipients import Recipient
from generator.rules.loader import ResolvedPack
from generator.schedule import Deadline, hearing_label
from generator.schedule.deadline import day_of
from generator.schedule.recorded import names, sessions


class Prepared(Protocol):
    """What checking reads of a prepared case (`generator.prepare.Prepared`, which calls it)."""

    @property
    def case_file(self) -> CaseFile: ...  # noqa: D102
    @property
    def case(self) -> Case: ...  # noqa: D102
    @property
    def pack(self) -> ResolvedPack: ...  # noqa: D102
    @property
    def deadlines(self) -> tuple[Deadline, ...]: ...  # noqa: D102
    @property
    def judged_on(self) -> date: ...  # noqa: D102
    @property
    def plan(self) -> Plan: ...  # noqa: D102
    def recipients_of(self, doc: DocumentPlan) -> list[Recipient]: ...  # noqa: D102


Status = Literal["met", "missed", "not yet due", "no record"]
# The channels whose acts the record holds, and the kind of posting entry each is.
_POSTED = {Channel.SIGN: "sign", Channel.POSTING: "posting", Channel.WEBSITE: "website"}
_PRINTED = (Channel.NEWSPAPER, Channel.DISPLAY_AD)
_MAILED = {Channel.MAIL: "letters", Channel.TRANSMITTAL: "transmittal"}
# Procedural acts the clerk's record shows done (bars and effective dates are not acts).
_ACTS = {"hold_hearing", "decision", "council_vote"}


@dataclass
class Evidence:
    """A file the record names as evidence, and whether it is on file."""

    path: str
    on_file: bool

    def as_json(self) -> dict[str, Any]:
        """The evidence as JSON-ready data."""
        return {"path": self.path, "on_file": self.on_file}


@dataclass
class Requirement:
    """One requirement of the plan judged against the record."""

    hearing: str
    what: str
    status: Status
    rule: str | None = None
    citation: str | None = None
    deadline: str | None = None  # the lawful window in words ("by Wed 2027-03-17")
    derivation: str | None = None
    recorded: str | None = None  # the recorded act in words
    evidence: list[Evidence] = field(default_factory=list)
    note: str | None = None
    channel: str | None = None

    def as_json(self) -> dict[str, Any]:
        """The requirement as JSON-ready data."""
        return {
            "hearing": self.hearing,
            "what": self.what,
            "channel": self.channel,
            "status": self.status,
            "rule": self.rule,
            "citation": self.citation,
            "deadline": self.deadline,
            "derivation": self.derivation,
            "recorded": self.recorded,
            "evidence": [e.as_json() for e in self.evidence],
            "note": self.note,
        }


@dataclass
class Result:
    """Every requirement of a case judged on a day, and the findings it gives."""

    judged_on: date
    requirements: list[Requirement]
    findings: list[Finding]

    @property
    def failing(self) -> list[Requirement]:
        """The requirements missed, or due and not recorded."""
        return [r for r in self.requirements if r.status in ("missed", "no record")]

    def of(self, hearing: Hearing) -> list[Requirement]:
        """The requirements of one hearing."""
        return [r for r in self.requirements if r.hearing == hearing_label(hearing)]

    def as_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "judged_on": self.judged_on.isoformat(),
            "requirements": [r.as_json() for r in self.requirements],
            "findings": [f.as_dict() for f in self.findings],
        }


def check(prepared: Prepared, as_of: date | None = None) -> Result:
    """Judge each requirement of the prepared case against its record, on `as_of`."""
    case = prepared.case
    record = case.record or Record()
    _names_known(prepared, record)
    # A record of what happened is judged no earlier than its last event: a certificate dated
    # before the hearing it certifies would certify nothing.
    day = as_of or max([prepared.judged_on, *_recorded_days(record)])
    out: list[Requirement] = []
    for hearing in case.hearings:
        label = hearing_label(hearing)
        mine = [d for d in prepared.deadlines if d.hearing == label]
        given = {
            i for doc in prepared.plan.documents if doc.hearing is hearing for i in doc.notice_ids
        }
        for d in mine:
            if d.channel is not None and (d.required or d.rule in given):
                out.append(_notice(prepared, hearing, d, day))
        out.append(_held(prepared, hearing, day))
        for d in mine:
            kind = prepared.pack.rule(d.rule, hearing.date).kind
            if d.channel is None and kind == "deadline" and _action(d) in _ACTS and d.latest:
                out.append(_procedural(prepared, hearing, d, day))
    return Result(day, out, _findings(out))


def _recorded_days(record: Record) -> list[date]:
    """Every day the record names an event on."""
    days = [p.ran_on for p in record.publications] + [m.mailed_on for m in record.mailings]
    days += [d for p in record.postings for d in (p.posted_on, p.removed_on) if d]
    for h in record.hearings:
        days += [d for d in (h.held_on, h.decision_on, h.vote and h.vote.voted_on) if d]
    days += [p.filed_at.date() for p in record.protests]
    days += [r.received_on for r in record.returned_mail]
    return days


def _action(d: Deadline) -> str:
    from generator.schedule.engine import DEADLINE_ACTIONS

    return next((k for k, v in DEADLINE_ACTIONS.items() if v == d.action), "")


def _names_known(prepared: Prepared, record: Record) -> None:
    """Every record entry names a hearing of the case: else bad input, with its line."""
    problems = []
    for part in ("publications", "mailings", "postings", "hearings"):
        for i, entry in enumerate(getattr(record, part)):
            name: HearingName = entry.hearing
            if not any(names(name, h) for h in prepared.case.hearings):
                when = f" of {name.date.isoformat()}" if name.date else ""
                problems.append(
                    prepared.case_file.problem(
                        ("record", part, i, "hearing"),
                        f"the case has no {name.body} hearing{when} (its hearings: "
                        + ", ".join(hearing_label(h) for h in prepared.case.hearings)
                        + ")",
                    )
                )
    if problems:
        raise UserError(problems)


def _window(d: Deadline) -> str:
    parts = []
    if d.earliest:
        parts.append(f"not before {short(day_of(d.earliest))}")
    if d.latest:
        parts.append(f"by {short(day_of(d.latest))}")
    return ", ".join(parts) or "no time set"


def _evidence(prepared: Prepared, paths: list[str | None]) -> list[Evidence]:
    return [Evidence(p, _on_file(prepared, p)) for p in paths if p is not None]


def _on_file(prepared: Prepared, path: str) -> bool:
    """Whether the evidence file is there (a name no file system takes is not on file)."""
    try:
        return prepared.case_file.resolve(path).is_file()
    except (OSError, ValueError):
        return False


def _base(hearing: Hearing, d: Deadline) -> Requirement:
    return Requirement(
        hearing_label(hearing),
        d.action,
        "not yet due",
        d.rule,
        d.citation,
        _window(d),
        d.derivation,
        channel=d.channel,
    )


def _unrecorded(r: Requirement, d: Deadline, day: date, hearing: Hearing) -> Requirement:
    # A notice the law times by no day is due, at the latest, the day before its hearing.
    due = day_of(d.latest) if d.latest else hearing.date - timedelta(days=1)
    if due is not None and due < day:
        r.status = "no record"
        r.note = f"due by {short(due)}, judged as of {short(day)}"
    else:
        r.status = "not yet due"
    return r


def _in_window(d: Deadline, when: date) -> bool:
    early = d.earliest is None or when >= day_of(d.earliest)
    late = d.latest is not None and when > day_of(d.latest)
    return early and not late


def _notice(prepared: Prepared, hearing: Hearing, d: Deadline, day: date) -> Requirement:
    record = prepared.case.record or Record()
    r = _base(hearing, d)
    channel = Channel(d.channel)
    if channel in _PRINTED:
        runs = sorted(
            (p for p in record.publications if names(p.hearing, hearing)), key=lambda p: p.ran_on
        )
        if not runs:
            return _unrecorded(r, d, day, hearing)
        planned = d.issues or ([day_of(d.latest)] if d.latest else [])
        # The paper's issues are the plan; the law's limit is the deadline. An insertion may run
        # as much later than its planned issue as the first planned issue is before the law's
        # last day (a paper that ran a day late, or on another day, may still be in time).
        slack = day_of(d.latest) - planned[0] if d.latest and d.issues else timedelta(0)
        planned = [p + slack for p in planned]
        r.recorded = "ran " + ", ".join(short(p.ran_on) for p in runs)
        r.evidence = _evidence(prepared, [p.affidavit for p in runs])
        late = []
        for i, by in enumerate(planned):
            if i >= len(runs):
                late.append(
                    f"insertion {i + 1} of {len(planned)} not recorded (due by {short(by)})"
                )
            elif runs[i].ran_on > by or (d.earliest and runs[i].ran_on < day_of(d.earliest)):
                late.append(
                    f"insertion {i + 1} ran {short(runs[i].ran_on)}, the law's last day for it"
                    f" was {short(by)}"
                )
        late += _not_successive(prepared, d, hearing.date, [p.ran_on for p in runs[: len(planned)]])
        missing_only = late and all("not recorded" in x for x in late)
        if not late:
            r.status = "met"
        elif missing_only and planned[len(runs)] >= day:
            r.status, r.note = "not yet due", "; ".join(late)
        else:
            r.status, r.note = "missed", "; ".join(late)
        return r
    if channel in _MAILED:
        kind = _MAILED[channel]
        sent = [m for m in record.mailings if names(m.hearing, hearing) and m.kind == kind]
        if not sent:
            return _unrecorded(r, d, day, hearing)
        m = min(sent, key=lambda m: m.mailed_on)
        r.recorded = f"mailed {short(m.mailed_on)}, {m.count} pieces"
        r.evidence = _evidence(prepared, [x.evidence for x in sent])
        r.status = "met" if _in_window(d, m.mailed_on) else "missed"
        if r.status == "missed":
            r.note = f"mailed {short(m.mailed_on)}, outside the lawful window ({r.deadline})"
        due, mailed = _pieces_due(prepared, hearing, d), sum(x.count for x in sent)
        if mailed < due:
            # A notice mailed to some of the owners the law names is not notice to the others.
            r.status = "missed"
            r.note = "; ".join(
                filter(None, [r.note, f"{mailed} pieces recorded of the {due} the list holds"])
            )
        return r
    if channel in _POSTED:
        kind = _POSTED[channel]
        posted = [p for p in record.postings if names(p.hearing, hearing) and p.kind == kind]
        if not posted:
            return _unrecorded(r, d, day, hearing)
        p = min(posted, key=lambda p: p.posted_on)
        where = f" at {'; '.join(p.places)}" if p.places else ""
        removed = f", removed {short(p.removed_on)}" if p.removed_on else ""
        r.recorded = f"posted {short(p.posted_on)}{where}{removed}"
        r.evidence = _evidence(prepared, [x for q in posted for x in q.photographs])
        r.status = "met" if _in_window(d, p.posted_on) else "missed"
        if r.status == "missed":
            r.note = f"posted {short(p.posted_on)}, outside the lawful window ({r.deadline})"
        elif p.removed_on and p.removed_on < hearing.date:
            r.status = "missed"
            r.note = f"removed {short(p.removed_on)}, before the hearing of {short(hearing.date)}"
        return r
    r.note = "the record has no entry for this kind of notice: keep its proof with the file"
    return _unrecorded(r, d, day, hearing)


def _not_successive(prepared: Prepared, d: Deadline, on: date, ran: list[date]) -> list[str]:
    """Insertions the law wants once in each of successive weeks that ran in no such weeks.

    Weeks as the rule counts them: calendar weeks (Sunday to Saturday), or seven days from the
    first insertion.
    """
    timing = getattr(prepared.pack.rule(d.rule, on).params, "timing", None)
    if timing is None or not timing.weeks or timing.weeks < 2 or len(ran) < 2:
        return []
    rolling = timing.week_model == "rolling_7"
    start = ran[0] if rolling else ran[0] - timedelta(days=(ran[0].weekday() + 1) % 7)
    out = []
    for k, day in enumerate(ran[1:], 1):
        week = start + timedelta(days=7 * k)
        if not week <= day < week + timedelta(days=7):
            out.append(
                f"insertion {k + 1} ran {short(day)}, not in the week after insertion {k}"
                f" ({short(week)} to {short(week + timedelta(days=6))}"
                f"{', seven days from the first insertion' if rolling else ''})"
            )
    return out


def _pieces_due(prepared: Prepared, hearing: Hearing, d: Deadline) -> int:
    """How many letters the mailing list holds for the notice rule `d` of `hearing`."""
    docs = [
        doc
        for doc in prepared.plan.documents
        if doc.hearing is hearing and doc.channel == d.channel and d.rule in doc.notice_ids
    ]
    return sum(1 for doc in docs for r in prepared.recipients_of(doc) if r.mailable)


def _held(prepared: Prepared, hearing: Hearing, day: date) -> Requirement:
    held = sessions(prepared.case, hearing)
    r = Requirement(hearing_label(hearing), f"hold the {hearing.body_name} hearing", "not yet due")
    r.deadline = f"as noticed, {short(hearing.date)}"
    if not held:
        if hearing.date < day:
            r.status, r.note = "no record", "the hearing is past and not recorded as held"
        return r
    parts = []
    for s in held:
        how = "closed" if s.closed else "continued"
        if s.continued_to:
            how += f" to {short(s.continued_to)}"
        parts.append(f"held {short(s.held_on)}, {how}")
    r.recorded = "; ".join(parts)
    first = held[0]
    if first.held_on != hearing.date:
        r.status = "missed"
        r.note = f"held {short(first.held_on)}, not on the noticed day {short(hearing.date)}"
    else:
        r.status = "met"
    return r


def _procedural(prepared: Prepared, hearing: Hearing, d: Deadline, day: date) -> Requirement:
    r = _base(hearing, d)
    held = sessions(prepared.case, hearing)
    action = _action(d)
    if action == "hold_hearing":
        when = held[0].held_on if held else None
    elif action == "council_vote":
        when = next((s.vote.voted_on for s in held if s.vote), None)
    else:
        when = next((s.decision_on for s in held if s.decision_on), None)
    if when is None:
        return _unrecorded(r, d, day, hearing)
    r.recorded = f"on {short(when)}"
    r.status = "met" if _in_window(d, when) else "missed"
    if r.status == "missed":
        r.note = f"{short(when)} is outside the lawful window ({r.deadline})"
    return r


def _findings(out: list[Requirement]) -> list[Finding]:
    found = []
    for r in out:
        where = f"{r.what} ({r.hearing})"
        if r.status == "missed":
            found.append(
                Finding("REC001", f"{where}: missed — {r.note}", rule=r.rule, citation=r.citation)
            )
        elif r.status == "no record":
            found.append(Finding("REC002", f"{where}: {r.note}", rule=r.rule, citation=r.citation))
        for e in r.evidence:
            if not e.on_file:
                found.append(
                    Finding(
                        "REC003",
                        f"{where}: the evidence {e.path!r} the record names is not on file",
                        rule=r.rule,
                        citation=r.citation,
                    )
                )
        if r.derivation and "not recorded: taken from the plan" in r.derivation:
            found.append(
                Finding(
                    "REC004",
                    f"{where}: {r.derivation}",
                    rule=r.rule,
                    citation=r.citation,
                )
            )
    return found
