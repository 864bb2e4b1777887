"""A protest petition weighed: the protest area of the pack, the signers' shares, the threshold, the time.

The pack's protest rule says which land the protest is measured against (`of`: the lots in the
change, the lots within a radius, or the zoning area with its rights-of-way), whether the share is
by area or by area and by count, and how split parcels, joint owners and condominium units count.
Areas are measured in the case's measuring CRS (feet). Whether the petition was filed in time is
the schedule engine's deadline for the protest rule, counted from the vote as recorded, else as
planned: this module never counts days itself.
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction as Exact
from pathlib import Path
from typing import Any

from generator.errors import Problem, UserError
from generator.inputs import CaseFile
from generator.models.case import Body, Hearing
from generator.models.pack import ProtestParams, Threshold
from generator.rules.loader import Binding, ResolvedPack, snapshot

SQFT_PER_ACRE = 43_560


@dataclass(frozen=True)
class Signer:
    """One line of the signers file: a parcel whose owner signed, and when."""

    parcel_id: str
    signed_on: date
    name: str
    line: int | None
    file: str = ""
    where: str = ""  # the field path's prefix in a GeoJSON file


@dataclass
class Test:
    """One threshold of the pack applied to the petition."""

    threshold: Threshold
    area_total: float  # square feet
    area_signed: float
    count_total: Exact
    count_signed: Exact
    derivation: list[str] = field(default_factory=list)
    geometry: Any = None  # the area measured against, for the map
    parcels: frozenset[str] = frozenset()  # the ids of the lots the test counts

    @property
    def area_share(self) -> Exact:
        """Signers' share of the area, exactly (areas are floats; the share is compared exactly)."""
        return Exact(self.area_signed) / Exact(self.area_total) if self.area_total else Exact(0)

    @property
    def count_share(self) -> Exact:
        """Signers' share of the lots, tracts and units."""
        return self.count_signed / self.count_total if self.count_total else Exact(0)

    @property
    def met(self) -> bool:
        """Whether the share reaches the threshold ("or more": exactly at it counts)."""
        need = Exact(str(self.threshold.share))
        if self.threshold.measure == "area_and_count":
            return self.area_share >= need and self.count_share >= need
        return self.area_share >= need

    def as_json(self) -> dict[str, Any]:
        """The test's figures and derivation."""
        t = self.threshold
        return {
            "of": t.of,
            "measure": t.measure,
            "share_required": t.share,
            "radius_ft": t.radius_ft,
            "area_total_sqft": round(self.area_total, 1),
            "area_signed_sqft": round(self.area_signed, 1),
            "area_share": round(float(self.area_share), 6),
            "count_total": _num(self.count_total),
            "count_signed": _num(self.count_signed),
            "count_share": round(float(self.count_share), 6),
            "met": self.met,
            "derivation": self.derivation,
        }


@dataclass
class Weighed:
    """The petition weighed against the pack: every test, the filing time, and the outcome."""

    rule: str
    citation: str
    tests: list[Test]
    filed_at: datetime | None
    deadline: Any  # the schedule engine's Deadline for the protest rule
    signers: list[Signer]
    notes: list[str] = field(default_factory=list)
    subject: Any = None
    crs: Any = None
    signed: Any = None  # GeoDataFrame of the signing parcels

    @property
    def threshold_met(self) -> bool:
        """Whether any of the pack's alternative tests is met."""
        return any(t.met for t in self.tests)

    @property
    def on_time(self) -> bool | None:
        """Whether the petition was filed by the deadline; None when no filing time is known."""
        if self.filed_at is None or self.deadline is None or self.deadline.latest is None:
            return None
        latest = self.deadline.latest
        if isinstance(latest, datetime):
            return self.filed_at <= latest
        return self.filed_at.date() <= latest

    @property
    def valid(self) -> bool:
        """A protest that forces the supermajority: threshold met and filed in time."""
        return self.threshold_met and self.on_time is True

    def as_json(self) -> dict[str, Any]:
        """The report's JSON: figures, derivations, the deadline and the outcome."""
        d = self.deadline
        return {
            "rule": self.rule,
            "citation": self.citation,
            "signers": [
                {"parcel_id": s.parcel_id, "signed_on": s.signed_on.isoformat(), "name": s.name}
                for s in self.signers
            ],
            "tests": [t.as_json() for t in self.tests],
            "threshold_met": self.threshold_met,
            "filed_at": self.filed_at.isoformat() if self.filed_at else None,
            "deadline": d.as_json() if d else None,
            "on_time": self.on_time,
            "supermajority_required": self.valid,
            "notes": self.notes,
        }


def _num(value: Exact) -> float | int:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _acres(sqft: float) -> str:
    return f"{sqft:,.0f} sq ft ({sqft / SQFT_PER_ACRE:,.2f} acres)"


# ----------------------------------------------------------------------------- signers ----


def read_signers(path: Path) -> list[Signer]:
    """The signers file (CSV or GeoJSON): parcel ids and signing dates; bad lines are problems."""
    if not path.is_file():
        raise UserError(Problem(str(path), None, None, "", "no such file"))
    if path.suffix.lower() in (".geojson", ".json"):
        rows = _geojson_rows(path)
    else:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in ("parcel_id", "signed_on") if c not in (reader.fieldnames or [])]
            if missing:
                raise UserError(
                    Problem(
                        str(path),
                        1,
                        None,
                        missing[0],
                        "no such column (the header needs parcel_id, signed_on)",
                    )
                )
            rows = [(reader.line_num, row) for row in reader]
    problems: list[Problem] = []
    signers: list[Signer] = []
    for line, row in rows:
        at = f"features[{row['_i']}].properties." if "_i" in row else ""
        pid = str(row.get("parcel_id") or "").strip()
        if not pid:
            problems.append(Problem(str(path), line, None, at + "parcel_id", "empty"))
            continue
        raw = str(row.get("signed_on") or "").strip()
        try:
            day = date.fromisoformat(raw)
        except ValueError:
            problems.append(
                Problem(
                    str(path), line, None, at + "signed_on", f"{raw!r} is not a date (YYYY-MM-DD)"
                )
            )
            continue
        signers.append(Signer(pid, day, str(row.get("name") or "").strip(), line, str(path), at))
    if problems:
        raise UserError(problems)
    if not signers:
        raise UserError(Problem(str(path), None, None, "", "no signers in the file"))
    return signers


def _geojson_rows(path: Path) -> list[tuple[int | None, dict[str, Any]]]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise UserError(Problem(str(path), None, None, "", f"not JSON: {exc}")) from None
    features = doc.get("features") if isinstance(doc, dict) else None
    if not isinstance(features, list):
        raise UserError(Problem(str(path), None, None, "features", "a FeatureCollection is needed"))
    # GeoJSON has no useful line numbers: the feature's index stands in the field path.
    return [(None, dict(f.get("properties") or {}) | {"_i": i}) for i, f in enumerate(features)]


# ------------------------------------------------------------------------------ weighing ----


def protest_binding(cf: CaseFile, pack: ResolvedPack) -> Binding[ProtestParams] | None:
    """The protest rule in force on the day of the council's hearing (else the last hearing)."""
    case = cf.case
    hearing = case.hearing(Body.COUNCIL) or (case.hearings[-1] if case.hearings else None)
    if hearing is None:
        return None
    found = snapshot(pack, case, hearing.date).of(ProtestParams)
    return found[0] if found else None


def _as_voted(cf: CaseFile) -> tuple[Any, Hearing | None]:
    """The case with its council hearing's vote day as recorded, and that hearing (None: no council).

    The schedule engine counts the protest from the hearing's `vote_date`; a recorded vote puts
    the day the vote was actually taken there, so the engine counts from the event, not the plan.
    """
    case = cf.case
    hearing = case.hearing(Body.COUNCIL)
    if hearing is None:
        return case, None
    held = [
        h.vote.voted_on
        for h in (case.record.hearings if case.record else [])
        if h.hearing.body == Body.COUNCIL.value and h.vote is not None
    ]
    if not held:
        return case, hearing
    voted = hearing.model_copy(update={"vote_date": held[-1]})
    hearings = [voted if h is hearing else h for h in case.hearings]
    return case.model_copy(update={"hearings": hearings}), voted


def filing_deadline(cf: CaseFile, pack: ResolvedPack, binding: Binding[ProtestParams]) -> Any:
    """The schedule engine's deadline for filing the protest (counted from the recorded vote)."""
    from generator.legal_calendar import LegalCalendar
    from generator.schedule.deadline import Context, zone_of
    from generator.schedule.engine import for_hearing

    case, hearing = _as_voted(cf)
    if hearing is None:
        return None
    ctx = Context(case, LegalCalendar(pack.calendar), pack.time_counting, zone_of(case, pack))
    for d in for_hearing(ctx, snapshot(pack, case, hearing.date), hearing):
        if d.rule == binding.rule.id:
            return d
    return None


def weigh(
    cf: CaseFile, pack: ResolvedPack, signers: list[Signer], filed_at: datetime | None
) -> Weighed:
    """Weigh the signers against every threshold of the pack's protest rule."""
    from generator.recipients import RecipientList
    from generator.recipients.owners import MARGIN_FT, open_parcels

    binding = protest_binding(cf, pack)
    if binding is None:
        raise UserError(cf.problem(("jurisdiction",), "the pack has no protest rule for this case"))
    if cf.case.gis is None or cf.case.gis.parcels is None:
        raise UserError(
            cf.problem(("gis", "parcels"), "a parcel layer is needed to weigh a protest")
        )
    p = binding.params
    found = RecipientList([], {"layers": [], "rules": []}, [])
    reader = open_parcels(cf, pack, found)
    subject = found.subject
    reach = max(
        [t.radius_ft or 0 for t in p.thresholds]
        + [t.across_streets_narrower_than_ft or 0 for t in p.thresholds]
    )
    x0, y0, x1, y1 = subject.bounds
    pad = reach + MARGIN_FT
    near = reader.read(bbox=(x0 - pad, y0 - pad, x1 + pad, y1 + pad))
    near["parcel_id"] = near["parcel_id"].astype(str)
    ids = set(near["parcel_id"])
    unknown = [s for s in signers if s.parcel_id not in ids]
    if unknown:
        # A parcel not in the layer near the subject cannot be weighed: say which, where.
        raise UserError(
            [
                Problem(
                    s.file,
                    s.line,
                    None,
                    s.where + "parcel_id",
                    f"{s.parcel_id!r} is not a parcel of {reader.path.name} near the subject",
                )
                for s in unknown
            ]
        )
    zone = cf.case.timezone or pack.timezone or "UTC"
    if filed_at is not None and filed_at.tzinfo is None:
        from zoneinfo import ZoneInfo

        filed_at = filed_at.replace(tzinfo=ZoneInfo(zone))
    notes: list[str] = []
    counted = []
    for s in signers:
        if filed_at is not None and s.signed_on > filed_at.date():
            notes.append(
                f"{s.parcel_id}: signed {s.signed_on.isoformat()}, after the petition was filed: not counted"
            )
        else:
            counted.append(s)
    signed_by: dict[str, set[str]] = {}
    for s in counted:
        signed_by.setdefault(s.parcel_id, set()).add(s.name or f"line {s.line}")
    subject_ids = {str(q.id) for q in cf.case.parcels}
    tests = [_test(t, near, subject, subject_ids, signed_by, notes) for t in p.thresholds]
    inside = frozenset().union(*(t.parcels for t in tests))
    notes += [
        f"{pid}: in no protest area of the law: not counted"
        for pid in signed_by
        if pid not in inside
    ]
    signed = near[near["parcel_id"].isin(signed_by)]
    deadline = filing_deadline(cf, pack, binding)
    return Weighed(
        binding.rule.id,
        "; ".join(dict.fromkeys(binding.citations)),
        tests,
        filed_at,
        deadline,
        signers,
        notes,
        subject,
        found.crs,
        signed,
    )


def _owners(row: Any) -> int:
    names = [row.get("owner_name"), row.get("owner_name2")]
    return max(1, sum(1 for n in names if isinstance(n, str) and n.strip()))


def _test(
    t: Threshold,
    near: Any,
    subject: Any,
    subject_ids: set[str],
    signed_by: dict[str, set[str]],
    notes: list[str],
) -> Test:
    """One threshold: the area measured against, each parcel's counted area and count, the shares."""
    import shapely

    steps: list[str] = []
    if t.of == "lots_in_change":
        area = subject
        rows = near[near["parcel_id"].isin(subject_ids)]
        steps.append("measured against the lots included in the change")
    else:
        radius = t.radius_ft or 0
        area = subject.buffer(radius, quad_segs=64)
        # A parcel any part of which lies within the distance is in the area (dwithin: a parcel at
        # exactly the distance is within it), as the recipients stage selects owners.
        reach = max(radius, t.across_streets_narrower_than_ft or 0)
        mask = shapely.dwithin(near.geometry.values, subject, reach)
        rows = near[mask]
        if t.of == "lots_within_radius":
            rows = rows[~rows["parcel_id"].isin(subject_ids)]
            area = area.difference(subject)
            steps.append(
                f"measured against the lots within {radius:g} ft of the exterior boundary of the change, the change itself excluded"
            )
        else:
            steps.append(
                f"measured against the zoning area: the change and the land within {radius:g} ft of it"
            )
        if t.across_streets_narrower_than_ft:
            steps.append(
                f"lots separated only by an alley or street narrower than {t.across_streets_narrower_than_ft:g} ft"
                f" lie within {t.across_streets_narrower_than_ft:g} ft of the change and are counted whole"
            )
    footprints: dict[bytes, int] = {}
    for g in rows.geometry.values:
        key = shapely.normalize(g).wkb
        footprints[key] = footprints.get(key, 0) + 1
    area_signed = 0.0
    lots_area = 0.0  # the counted area of every lot in the test
    count_total = Exact(0)
    count_signed = Exact(0)
    for _, row in rows.iterrows():
        g = row.geometry
        pid = str(row["parcel_id"])
        units = footprints[shapely.normalize(g).wkb]
        whole = g.area / units
        beyond = bool(t.across_streets_narrower_than_ft) and not shapely.dwithin(
            g, subject, t.radius_ft or 0
        )
        counted = (
            whole
            if (t.split_parcels == "whole_parcel" or beyond)
            else g.intersection(area).area / units
        )
        if counted < whole - 0.5:
            steps.append(
                f"{pid}: split by the area's line: {counted:,.0f} of {whole:,.0f} sq ft within counted"
            )
        if units > 1:
            steps.append(
                f"{pid}: one of {units} units on one footprint: 1/{units} of its area, one unit by count"
            )
        lots_area += counted
        count_total += 1
        if pid in signed_by:
            share = Exact(1)
            owners = _owners(row)
            if t.joint_owners == "share_of_named_owners" and owners > 1:
                share = Exact(min(len(signed_by[pid]), owners), owners)
                steps.append(
                    f"{pid}: {len(signed_by[pid])} of {owners} named owners signed: {share} of the parcel"
                )
            area_signed += counted * float(share)
            count_signed += share
    area_total = lots_area
    if t.includes_rights_of_way:
        # The land of the area that is no lot (streets, alleys, canals): in the area, owned by no
        # signer, and not a lot, tract or unit to count.
        other = max(0.0, area.area - sum(g.intersection(area).area for g in rows.geometry.values))
        area_total += other
        steps.append(
            f"rights-of-way and other land in no lot, included as the law says: {_acres(other)}; not in the count"
        )
    test = Test(
        t,
        area_total,
        area_signed,
        count_total,
        count_signed,
        steps,
        area,
        frozenset(rows["parcel_id"].astype(str)),
    )
    need = t.share
    steps.append(
        f"by area: {_acres(area_signed)} signed of {_acres(area_total)} = {float(test.area_share):.4%}"
        f" ({'at least' if test.area_share >= Exact(str(need)) else 'less than'} {need:.0%})"
    )
    if t.measure == "area_and_count":
        steps.append(
            f"by number of lots, tracts and units: {_num(count_signed)} of {_num(count_total)} = {float(test.count_share):.4%}"
            f" ({'at least' if test.count_share >= Exact(str(need)) else 'less than'} {need:.0%})"
        )
    steps.append("threshold met" if test.met else "threshold not met")
    return test
