"""The schedule page: every deadline of the case on a timeline, today marked, and the .ics file.

The deadlines are the packet's schedule.json (what `notices schedule --format json` prints), or,
for a case never built, the same computed by `prepare()`. Where each stands is said relative to
today (`?as_of=YYYY-MM-DD` stands in for today): whether a passed deadline was met is the
record's to say (`notices check`), not this page's.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from generator.web import packets
from generator.web.render import page


def schedule_page(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}/schedule: the deadlines as a timeline with today marked."""
    case_id, folder = packets.case_folder(request)
    today = _as_of(request)
    deadlines = packets.read_json(folder, "schedule.json")
    built = deadlines is not None
    if deadlines is None:
        deadlines = [d.as_json() for d in _prepared(request, case_id).deadlines]
    return page(
        request,
        "schedule.html",
        case_id=case_id,
        links=packets.links(request, case_id),
        built=built,
        today=today,
        entries=timeline(deadlines, today, _hearings(request, case_id)),
    )


def schedule_ics(request: Request) -> Response:
    """GET /cases/{case_id}/schedule.ics: the packet's calendar file (computed when not built)."""
    case_id, folder = packets.case_folder(request)
    if (folder / "schedule.ics").is_file():
        return packets.file_response(
            packets.packet_file(request, case_id, "schedule.ics"), download=True
        )
    from generator.documents.schedule import as_ics

    return Response(
        as_ics(_prepared(request, case_id)),
        media_type="text/calendar; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{case_id}.ics"'},
    )


def timeline(
    deadlines: list[dict[str, Any]], today: date, hearings: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """The deadlines and hearings in date order, where each stands on `today`, and today marked.

    An entry is `{"today": True}` for the marker, a hearing (`"hearing_day": True`, with `due`,
    `title`, `place`), else the deadline with `due` (its last day),
    `status` (passed, next, later), `label`, and `late_copy` (its copy deadline has passed).
    """
    rows = sorted(
        [*({**d, "due": _due(d), "hearing_day": False} for d in deadlines), *hearings],
        key=lambda d: (d["due"] is None, d["due"] or date.max, d["hearing_day"], d["id"]),
    )
    out: list[dict[str, Any]] = []
    marked = False
    for d in rows:
        due = d["due"]
        if not marked and (due is None or due >= today):
            out.append({"today": True})
            marked = True
        if d["hearing_day"]:
            out.append({**d, "today": False, "status": "passed" if due < today else "later"})
            continue
        if due is not None and due < today:
            status = "passed"
        else:
            first = next((e["due"] for e in out if e.get("status") == "next"), due)
            status = "next" if due == first else "later"  # every deadline of the nearest day
        copy = _day(d.get("copy_deadline"))
        late_copy = status != "passed" and copy is not None and copy < today
        out.append(
            {
                **d,
                "today": False,
                "status": status,
                "label": _LABELS[status],
                "late_copy": late_copy,
            }
        )
    if not marked:
        out.append({"today": True})
    return out


_LABELS = {
    "passed": "passed: done or missed (the record says which: notices check)",
    "next": "next deadline",
    "later": "later",
}


def _hearings(request: Request, case_id: str) -> list[dict[str, Any]]:
    """The case's hearings, as timeline entries (none when the case file is gone or broken)."""
    case = packets.loaded_case(request, case_id)
    hearings = case.hearings if case else []
    return [
        {
            "id": f"hearing-{n}",
            "hearing_day": True,
            "due": h.date,
            "title": f"{h.body_name} hearing",
            "place": h.place,
            "time": h.start_time.strftime("%H:%M"),
        }
        for n, h in enumerate(hearings, 1)
    ]


def _due(d: dict[str, Any]) -> date | None:
    """The deadline's last day: its latest lawful day, else its last issue, else its first day."""
    issues = d.get("issues") or []
    return (
        _day(d.get("latest")) or (_day(issues[-1]) if issues else None) or _day(d.get("earliest"))
    )


def _day(value: Any) -> date | None:
    return date.fromisoformat(str(value)[:10]) if value else None


def _as_of(request: Request) -> date:
    """Today, or the day `?as_of=` names."""
    raw = request.query_params.get("as_of")
    if not raw:
        return date.today()
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise HTTPException(400, "as_of: a date YYYY-MM-DD") from None


def _prepared(request: Request, case_id: str) -> Any:
    """The case prepared as `notices schedule` prepares it (for a case never built)."""
    from generator.errors import UserError
    from generator.prepare import prepare

    path = packets.workspace(request).case_path(case_id)
    if not path.is_file():
        raise HTTPException(404)
    try:
        return prepare(path)
    except UserError as exc:
        raise HTTPException(422, str(exc)) from None


routes = [
    Route("/cases/{case_id}/schedule", schedule_page, name="schedule"),
    Route("/cases/{case_id}/schedule.ics", schedule_ics, name="schedule_ics"),
]
