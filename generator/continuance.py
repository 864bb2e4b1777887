"""A hearing continued to another day: whether the law wants it noticed again, and the new packet.

The record says a hearing was continued (`record.hearings[].continued_to`) and whether the new
date, time and place were announced at the hearing. The pack's `continuance` rule says what that
takes: where the law lets a body continue by announcement to a date certain, nothing more is
noticed and the schedule marks the continuance; otherwise (or where the law is silent) the
continued hearing is noticed again in full. It is then a hearing like any other: the case is
re-dated and goes through the same `prepare` (schedule engine, plan), and the packet is rebuilt
(`notices continue`), the documents it replaces kept in its `history/` folder.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from generator.errors import UserError
from generator.findings import Finding
from generator.inputs import CaseFile
from generator.models.case import Case, Hearing
from generator.models.pack import ContinuanceParams
from generator.models.record import Held
from generator.rules.loader import Binding, ResolvedPack, snapshot


@dataclass(frozen=True)
class Continued:
    """One continuance and what the law makes of it."""

    index: int  # of the entry in `record.hearings`
    held: Held
    hearing: Hearing  # the hearing as planned before this continuance
    renotice: bool
    why: str  # announced | not_announced | law_silent | no_rule
    rule: Binding[ContinuanceParams] | None

    @property
    def new_date(self) -> date:
        """The day the hearing was continued to."""
        assert self.held.continued_to is not None
        return self.held.continued_to

    def finding(self) -> Finding:
        """What the schedule says of this continuance."""
        rule_id = self.rule.rule.id if self.rule else None
        citation = "; ".join(dict.fromkeys(self.rule.citations)) if self.rule else None
        label = f"{self.hearing.body_name} hearing of {self.held.held_on.isoformat()}"
        to = self.new_date.isoformat()
        if not self.renotice:
            return Finding(
                "CONT001",
                f"The {label} was continued to {to} by announcement at the hearing: the law asks"
                " for no new notice.",
                rule_id,
                citation,
            )
        if self.why == "not_announced":
            return Finding(
                "CONT002",
                f"The {label} was continued to {to} without announcing the date, time and place"
                " at the hearing: the continued hearing is noticed again in full, with new"
                " deadlines.",
                rule_id,
                citation,
            )
        silent = "the pack has no continuance rule" if self.why == "no_rule" else "the law says"
        return Finding(
            "CONT003",
            f"The {label} was continued to {to}; {silent} nothing of continuing by announcement,"
            " so the continued hearing is noticed again in full, with new deadlines. Confirm"
            " with counsel whether the announcement was enough.",
            rule_id,
            citation,
        )


def decide(cf: CaseFile, pack: ResolvedPack) -> list[Continued]:
    """Every continuance the record holds, in order, each with what the law makes of it.

    A hearing continued twice is found by its date after the first continuance.
    """
    case = cf.case
    record = case.record
    if record is None:
        return []
    dates = [h.date for h in case.hearings]
    out = []
    for i, held in enumerate(record.hearings):
        if held.continued_to is None:
            continue
        at = _planned(cf, i, held, dates)
        hearing = case.hearings[at].model_copy(update={"date": dates[at]})
        rule = _rule(pack, case, case.hearings[at], dates[at])
        if not held.continuance_announced:
            why = "not_announced"
        elif rule is None:
            why = "no_rule"
        elif rule.params.by_announcement == "silent":
            why = "law_silent"
        else:
            why = "announced"
        continued = Continued(i, held, hearing, why != "announced", why, rule)
        if continued.renotice:
            dates[at] = continued.new_date
        out.append(continued)
    return out


def continued_case(cf: CaseFile, continued: list[Continued]) -> CaseFile:
    """The case with each hearing that is noticed again set on the day it was continued to."""
    dates = {c.hearing.date: c.new_date for c in continued if c.renotice}
    if not dates:
        return cf
    hearings = []
    for h in cf.case.hearings:
        day = h.date
        while day in dates:  # continued again after a first re-notice
            day = dates[day]
        hearings.append(
            h if day == h.date else h.model_copy(update={"date": day, "vote_date": None})
        )
    days = [h.date for h in hearings]
    if days != sorted(days):
        raise UserError(
            cf.problem(
                ("record", "hearings"),
                "a hearing continued past a later hearing of the case: re-date the later one too",
            )
        )
    case = cf.case.model_copy(update={"hearings": hearings})
    return replace(cf, case=case)


def _planned(cf: CaseFile, i: int, held: Held, dates: list[date]) -> int:
    """Which planned hearing a record entry is about (by body, and by date where given)."""
    case = cf.case
    matches = [
        n
        for n, h in enumerate(case.hearings)
        if h.body == held.hearing.body
        and (held.hearing.date is None or held.hearing.date in (h.date, dates[n]))
    ]
    if not matches:  # the case as re-dated: the hearing now stands on the day continued to
        matches = [
            n
            for n, h in enumerate(case.hearings)
            if h.body == held.hearing.body and h.date == held.continued_to
        ]
    if len(matches) != 1:
        why = "names no hearing of the case" if not matches else "names two hearings: give its date"
        raise UserError(cf.problem(("record", "hearings", i, "hearing"), why))
    return matches[0]


def _rule(
    pack: ResolvedPack, case: Case, hearing: Hearing, on: date
) -> Binding[ContinuanceParams] | None:
    """The continuance rule in force for `hearing` on the day it was to be held."""
    found = [
        b
        for b in snapshot(pack, case, on).of(ContinuanceParams)
        if b.params.hearing.serves(hearing, case)
    ]
    return found[0] if found else None


def history_label(continued: list[Continued]) -> str:
    """The name of the history folder a rebuild for these continuances keeps the old packet in."""
    last = continued[-1]
    return f"{last.held.held_on.isoformat()}-continued-to-{last.new_date.isoformat()}"


def marks(continued: list[Continued]) -> list[dict[str, object]]:
    """What the schedule prints of each continuance: from, to, announced, re-noticed, the rule."""
    return [
        {
            "body": c.hearing.body_name,
            "held_on": c.held.held_on,
            "continued_to": c.new_date,
            "announced": c.held.continuance_announced,
            "renotice": c.renotice,
            "why": c.why,
            "rule": c.rule.rule.id if c.rule else None,
            "citation": "; ".join(dict.fromkeys(c.rule.citations)) if c.rule else None,
        }
        for c in continued
    ]
