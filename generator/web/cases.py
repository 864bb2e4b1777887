"""The cases list: every case of the working folder, whether its packet is ready, and what is next.

A case's state comes from what the folder holds: its packet's manifest (ready, findings), its
schedule.json (the next deadline), and, when no packet was built from the case file as it is
now, the case file itself loaded as the command line loads it (an invalid file shows the
command line's message). A loaded file is remembered by its size and modification time, so the
list stays fast however often it is opened.

Loading a case file costs the first time (the schemas, the packs: a second or more for a folder
of new cases), so files are checked by a worker thread: the list waits for them a moment
(`CHECK_WAIT`), then shows the rest as being checked and asks for itself again (htmx) until
every file is. The server answers its first page at once however many cases the folder holds.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from concurrent.futures import Future, ThreadPoolExecutor, wait
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from generator.hashing import sha256_file
from generator.web.render import page
from generator.web.security import LOG
from generator.web.workspace import NotFoundError, Workspace

CHECK_WAIT = 0.1  # seconds the list waits for case files being checked before it answers
Key = tuple[str, int, int]  # a case file by path, modification time and size
Loaded = tuple[str | None, list[str]]  # its case number, or the CLI's messages about it
_LOADED: dict[Key, Loaded] = {}
_CHECKING: dict[Key, Future[None]] = {}
_LOCK = threading.Lock()
_CHECKER: ThreadPoolExecutor | None = None


def cases_list(request: Request) -> HTMLResponse:
    """GET /: the cases of the working folder with the state of each packet."""
    workspace: Workspace = request.app.state.workspace
    today = dt.date.today()
    rows = [_row(workspace, case_id, today) for case_id in workspace.case_ids()]
    if any(r["checking"] for r in rows):
        with _LOCK:
            checking = list(_CHECKING.values())
        wait(checking, timeout=CHECK_WAIT)
        rows = [_row(workspace, r["id"], today) if r["checking"] else r for r in rows]
    checking_any = any(r["checking"] for r in rows)
    return page(request, "cases.html", rows=rows, today=today, checking=checking_any)


def _row(workspace: Workspace, case_id: str, today: dt.date) -> dict[str, Any]:
    """One case's line: its state, findings, next deadline and last build."""
    case_path = workspace.case_path(case_id)
    try:
        folder = workspace.packet(case_id)
    except NotFoundError:  # its packet folder is a link out of the working folder: not ours
        folder = workspace.output / "\0"  # a name no file has: the case shows as never built
    row: dict[str, Any] = {
        "id": case_id,
        "built": False,
        "case_number": None,
        "problems": [],
        "changed": False,
        "errors": 0,
        "warnings": 0,
        "next": None,
        "built_at": None,
        "checking": False,
    }
    manifest = _json(folder / "manifest.json")
    if isinstance(manifest, dict):
        found = [f for f in manifest.get("findings", []) if isinstance(f, dict)]
        built_from = manifest.get("inputs", {}).get("case", {}).get("sha256")
        row |= {
            "built": True,
            "ready": bool(manifest.get("ready")),
            "case_number": manifest.get("case_number"),
            "errors": sum(f.get("severity") == "error" for f in found),
            "warnings": sum(f.get("severity") == "warning" for f in found),
            "built_at": dt.datetime.fromtimestamp((folder / "manifest.json").stat().st_mtime),
            "next": _next_deadline(_json(folder / "schedule.json"), today),
            "changed": built_from != sha256_file(case_path),
        }
    if not row["built"] or row["changed"]:
        # The packet does not vouch for the file as it is now: load it as the CLI would.
        loaded = _load(case_path)
        if loaded is None:
            row["checking"] = True
        else:
            number, problems = loaded
            row["problems"] = [workspace.shown(p) for p in problems]
            row["case_number"] = row["case_number"] or number
    return row


def _json(path: Path) -> Any:
    """A packet's JSON file, or None when it is missing or unreadable (a packet being replaced)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _load(path: Path) -> Loaded | None:
    """The case number of a case file, or the CLI's problems with it; None while being checked."""
    global _CHECKER
    stat = path.stat()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    with _LOCK:
        if key in _LOADED:
            return _LOADED[key]
        if key not in _CHECKING:
            if _CHECKER is None:
                _CHECKER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="check")
            _CHECKING[key] = _CHECKER.submit(_check, key, path)
    return None


def _check(key: Key, path: Path) -> None:
    """Load a case file as the command line does and remember what came of it."""
    from generator.errors import UserError
    from generator.inputs import load_case

    try:
        loaded: Loaded = (load_case(path).case.case_number, [])
    except UserError as exc:
        loaded = (None, [f"error: {p}" for p in exc.problems])
    except Exception:  # a bug: the list says so rather than checking for ever
        LOG.exception("checking %s", path)
        loaded = (None, ["internal error: the file could not be checked; see the server's log"])
    with _LOCK:
        _LOADED[key] = loaded
        del _CHECKING[key]


def _next_deadline(schedule: Any, today: dt.date) -> dict[str, Any] | None:
    """The first step of the schedule still to come: what, by when, and in how many days."""
    upcoming = []
    for step in schedule if isinstance(schedule, list) else []:
        if not isinstance(step, dict):
            continue
        for key in ("copy_deadline", "latest"):
            try:
                day = dt.date.fromisoformat(str(step.get(key))[:10])
            except ValueError:
                continue
            if day >= today:
                action = str(step.get("action", ""))
                what = action if key == "latest" else f"copy due to {action}"
                upcoming.append((day, what, str(step.get("hearing") or "")))
    if not upcoming:
        return None
    day, action, hearing = min(upcoming)
    return {"date": day, "action": action, "hearing": hearing, "in": _relative(day, today)}


def _relative(day: dt.date, today: dt.date) -> str:
    days = (day - today).days
    if days == 0:
        return "today"
    if days == 1:
        return "tomorrow"
    return f"in {days} days"


routes = [Route("/", cases_list, name="cases")]
