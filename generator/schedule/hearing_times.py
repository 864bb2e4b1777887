"""The hearings themselves, judged by the pack: the time of day, the weekday, the numbered ones.

A statute may say when a body holds its hearings ("at least one hearing shall be held after
5 p.m. on a weekday") and how many it holds ("two advertised public hearings", written as rules
naming `council#2`). These are checks of the case's own hearings, not dates the product
computes: a case that breaks one is not ready (SCHED005, SCHED007), and a hearing at the very
minute the law names is for the attorney to read (SCHED006).
"""

from __future__ import annotations

from datetime import time
from typing import Any

from generator.findings import Finding, cited
from generator.legal_calendar import short
from generator.models.case import Case, Hearing
from generator.models.pack import HearingTimeParams, NthHearing
from generator.rules.loader import Binding, ResolvedPack, snapshot


def findings(case: Case, pack: ResolvedPack) -> list[Finding]:
    """SCHED005/006 for hearings at a time the pack forbids; SCHED007 for a numbered hearing missing."""
    out: list[Finding] = []
    seen: set[str] = set()
    for hearing in case.hearings:
        snap = snapshot(pack, case, hearing.date)
        for b in snap.bindings:
            if b.rule.id in seen:
                continue
            seen.add(b.rule.id)
            out += _missing(case, b)
            if isinstance(b.params, HearingTimeParams):
                out += _judged(case, b)
    return out


def _missing(case: Case, b: Binding[Any]) -> list[Finding]:
    """A rule naming the council's second hearing where the case lists one council hearing."""
    named = [getattr(b.params, f, None) for f in ("hearing", "from_hearing")]
    out = []
    for sel in named:
        if not isinstance(sel, NthHearing) or sel.pick(case) is not None:
            continue
        held = sum(1 for h in case.hearings if h.body == sel.body)
        out.append(
            Finding(
                "SCHED007",
                f"{b.rule.title}: the rule names hearing {sel.value} (hearing {sel.nth} of the"
                f" {sel.body.value}), and the case lists {held} such hearing{'s' * (held != 1)}"
                " under `hearings`; add it",
                **cited(b),
            )
        )
    return out


def _judged(case: Case, b: Binding[HearingTimeParams]) -> list[Finding]:
    p = b.params
    chosen = [h for h in case.hearings if p.hearing.serves(h, case)]
    if not chosen:
        return []  # no such hearing: SCHED007 or PLAN002 says so where the law needs one
    verdicts = [(h, _verdict(p, h)) for h in chosen]
    if p.at_least_one:
        if any(v == "ok" for _, v in verdicts):
            return []
        minute = [h for h, v in verdicts if v == "minute"]
        if minute:
            return [_at_the_minute(b, minute[0], "no other selected hearing meets it")]
        what = ", ".join(_when(h) for h, _ in verdicts)
        return [
            Finding(
                "SCHED005",
                f"{b.rule.title}: none of the hearings it names ({what}) is held"
                f" {_wanted(p)}; move one, or record the body's election of another time where"
                " the law allows it",
                **cited(b),
            )
        ]
    out = []
    for h, v in verdicts:
        if v == "minute":
            out.append(_at_the_minute(b, h, ""))
        elif v != "ok":
            out.append(
                Finding(
                    "SCHED005",
                    f"{b.rule.title}: the {h.body_name} hearing ({_when(h)}) is not held"
                    f" {_wanted(p)}",
                    **cited(b),
                )
            )
    return out


def _verdict(p: HearingTimeParams, h: Hearing) -> str:
    """`ok`, `minute` (starts at the very minute of `after`) or `wrong`."""
    if p.weekdays_only and h.date.weekday() >= 5:
        return "wrong"
    if p.after is None or h.start_time > p.after:
        return "ok"
    return "minute" if h.start_time == p.after else "wrong"


def _at_the_minute(b: Binding[HearingTimeParams], h: Hearing, note: str) -> Finding:
    tail = f"; {note}" if note else ""
    return Finding(
        "SCHED006",
        f"{b.rule.title}: the {h.body_name} hearing ({_when(h)}) starts at the very minute the law"
        f" says hearings are held after{tail}: start it later, or have the attorney confirm the"
        " reading",
        **cited(b),
    )


def _when(h: Hearing) -> str:
    return f"{short(h.date)} at {_clock(h.start_time)}"


def _wanted(p: HearingTimeParams) -> str:
    parts = []
    if p.after is not None:
        parts.append(f"after {_clock(p.after)}")
    if p.weekdays_only:
        parts.append("on a weekday")
    return " ".join(parts)


def _clock(t: time) -> str:
    """`5:00 p.m.`, as notices print the time."""
    hour = t.hour % 12 or 12
    return f"{hour}:{t.minute:02d} {'a.m.' if t.hour < 12 else 'p.m.'}"
