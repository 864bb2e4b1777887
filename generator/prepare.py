"""Prepare a case: the one place that assembles the stages before any document is made.

load and validate → the pack chain → facts from the GIS layers and the recipients → the
schedule → the plan. Every front end (`notices build`, `schedule`, `recipients`, `explain
--case`, `lint --case`) starts from `prepare()`, so they cannot disagree about a case.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

from generator import recipients, safe_svg, schedule
from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.inputs import CaseFile, load_case
from generator.models.case import Case
from generator.models.pack import Channel
from generator.plan import DocumentPlan, MapInfo, Plan, plan
from generator.recipients import Recipient, RecipientList
from generator.rules.loader import ResolvedPack, resolve
from generator.schedule import Deadline, accommodation


@dataclass(frozen=True)
class Prepared:
    """A case ready to be made into documents: everything decided, nothing rendered."""

    case_file: CaseFile  # with the facts the GIS layers answered
    pack: ResolvedPack  # the chain, broad to narrow; the plan holds its bindings per hearing
    recipients: RecipientList
    deadlines: tuple[Deadline, ...]
    plan: Plan
    findings: tuple[Finding, ...]  # what preparing found: the plan, the law, recipients, schedule
    judged_on: date
    late: tuple[Problem, ...]  # hearings that can no longer be noticed in time on `judged_on`

    @property
    def case(self) -> Case:
        """The case, with the facts the GIS layers answered."""
        return self.case_file.case

    @property
    def map(self) -> MapInfo | None:
        """The map the notices carry, if the law asks for one or the clerk supplied one."""
        return self.plan.map

    @property
    def rule_ids(self) -> frozenset[str]:
        """Every rule that binds the case on the date of one of its hearings."""
        return frozenset(
            i for snap in self.plan.snapshots.values() for b in snap.bindings for i in b.ids
        )

    def recipients_of(self, doc: DocumentPlan) -> list[Recipient]:
        """Who receives `doc`: those its notice rules select, and (for mailed notice) those added by hand."""
        wanted = set(doc.notice_ids)
        pack = self.pack
        out = []
        for r in self.recipients.recipients:
            if r.rules:
                notices = {getattr(pack.rule(x).params, "notice", None) for x in r.rules}
                if notices & wanted:
                    out.append(r)
            elif doc.channel == Channel.MAIL:
                out.append(r)  # added by hand: an owner the list missed, a neighbour
        return out


def prepare(case: Path | CaseFile, *, as_of: date | None = None) -> Prepared:
    """Prepare a case file (a path, or one already loaded); lateness is judged on `as_of` (else the case's, else today)."""
    cf = case if isinstance(case, CaseFile) else load_case(case)
    pack = resolve(cf.case.jurisdiction)
    found = recipients.collect(cf, pack)
    cf = replace(cf, case=found.case)  # with the facts the layers answered
    deadlines = tuple(schedule.compute(cf.case, pack))
    the_plan = plan(cf.case, pack, case_map(cf), lambda: drawn_map(cf, found), deadlines=deadlines)
    day = as_of or schedule.judged_on(cf.case)
    late = tuple(schedule.check_in_time(cf, pack, list(deadlines), day))
    findings = (
        *the_plan.findings,
        *found.findings,
        *schedule.findings(cf.case, list(deadlines)),
        *schedule.closed_day_findings(cf.case, pack),
        *schedule.hearing_time_findings(cf.case, pack),
        *accommodation.findings(cf.case, pack, list(deadlines)),
    )
    prepared = Prepared(cf, pack, found, deadlines, the_plan, findings, day, late)
    if cf.case.record is None:
        return prepared
    from generator.check import check  # the record judged as `notices check` judges it

    return replace(prepared, findings=(*findings, *check(prepared).findings))


def case_map(cf: CaseFile) -> MapInfo | None:
    """The map image the clerk supplied, if any."""
    m = cf.case.map
    if m is None:
        return None
    suffix = m.image.rsplit(".", 1)[-1].lower()
    alt = m.alt or m.caption or "Map of the proposed change"
    data = cf.resolve(m.image).read_bytes()
    if suffix == "svg":
        # The packet publishes the map and draws it into every notice: only its drawing goes.
        try:
            data = safe_svg.clean(data)
        except safe_svg.SvgError as exc:
            raise UserError(cf.problem(("map", "image"), str(exc))) from None
    return MapInfo(f"map.{suffix}", data, m.caption, alt, tuple(m.shows))


def drawn_map(cf: CaseFile, found: RecipientList) -> MapInfo | None:
    """A map drawn from the GIS layers (SVG for HTML and PDF, PNG for Word)."""
    from generator.gis.notice_map import draw_change  # matplotlib only when needed

    drawn = draw_change(cf, found)
    if drawn is None:
        return None
    return MapInfo(
        "map.svg", drawn.svg, drawn.caption, drawn.alt, tuple(drawn.shows), drawn.png, drawn=True
    )
