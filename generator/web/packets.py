"""What a case's packet folder holds, as the review pages read it: the manifest and its findings.

The pages only read what `notices build` wrote (manifest.json, lint_report.json, schedule.json,
recipients.csv ...); a case or file the working folder does not have is a 404, never an error page.
"""

from __future__ import annotations

import json
import mimetypes
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse

from generator.web.workspace import NotFoundError, Workspace

MANIFEST = "manifest.json"
# Never shown in the page: a file a clerk handed in (SVG map) or we wrote (HTML) can still
# carry script; in a sandbox it runs nowhere near the server's own pages.
SANDBOX = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'"
_SANDBOXED = {".svg", ".html", ".htm", ".txt"}
_TYPES = {
    ".eml": "message/rfc822",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".csv": "text/csv; charset=utf-8",
    ".ics": "text/calendar; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".html": "text/html; charset=utf-8",
    ".json": "application/json",
    ".geojson": "application/geo+json",
    ".svg": "image/svg+xml",
}
_ALWAYS_DOWNLOAD = {".eml", ".docx"}  # no browser shows them: open means save


def workspace(request: Request) -> Workspace:
    """The working folder the server was started over."""
    return request.app.state.workspace


def case_folder(request: Request) -> tuple[str, Path]:
    """The case id of the URL and its packet folder; 404 when neither the case nor a packet exists."""
    case_id = request.path_params["case_id"]
    ws = workspace(request)
    try:
        folder = ws.packet(case_id)
        known = ws.case_path(case_id).is_file() or folder.is_dir()
    except NotFoundError:
        raise HTTPException(404) from None
    if not known:
        raise HTTPException(404)
    return case_id, folder


def packet_file(request: Request, case_id: str, name: str) -> Path:
    """An existing file of the packet, through the workspace (no traversal); 404 otherwise."""
    try:
        return workspace(request).packet_file(case_id, name)
    except NotFoundError:
        raise HTTPException(404) from None


def manifest(folder: Path) -> dict[str, Any] | None:
    """The packet's manifest, or None when the case was never built."""
    path = folder / MANIFEST
    if not path.is_file():
        return None
    return json.loads(path.read_text(encoding="utf-8"))


def read_json(folder: Path, name: str) -> Any:
    """A JSON file of the packet, or None when the packet has none."""
    path = folder / name
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def file_response(path: Path, *, download: bool = False) -> FileResponse:
    """A packet file with its type; what a browser could run is sandboxed or saved."""
    suffix = path.suffix.lower()
    media = _TYPES.get(suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    attach = download or suffix in _ALWAYS_DOWNLOAD
    headers: dict[str, str] = {}  # nosniff: the security guard sets it on every response
    if suffix in _SANDBOXED:
        headers["Content-Security-Policy"] = SANDBOX
    return FileResponse(
        path,
        media_type=media,
        filename=path.name,
        content_disposition_type="attachment" if attach else "inline",
        headers=headers,
    )


def links(request: Request, case_id: str) -> dict[str, str]:
    """The case's pages and actions, for the review pages' navigation and buttons."""
    from starlette.routing import NoMatchFound

    def url(name: str, fallback: str) -> str:
        try:
            return str(request.url_for(name, case_id=case_id))
        except NoMatchFound:  # a page another module serves, not mounted in this app
            return fallback

    base = f"/cases/{case_id}"
    return {
        "packet": url("packet", base),
        "schedule": url("schedule", f"{base}/schedule"),
        "map": url("map", f"{base}/map"),
        "recipients": url("recipients", f"{base}/recipients"),
        "pack": url("pack", f"{base}/pack"),
        "build": url("case_build", f"{base}/build"),
        "zip": url("packet_zip", f"{base}/packet.zip"),
        "edit": url("case_edit", f"{base}/edit"),
    }


_CASES: dict[Path, tuple[int, Any]] = {}  # case file → (its mtime, the loaded case)


def loaded_case(request: Request, case_id: str) -> Any:
    """The case file loaded (cached while unchanged), or None when it is gone or does not load.

    A case that no longer loads is the form's to explain; the review pages show what they can.
    """
    from generator.errors import UserError
    from generator.inputs import load_case

    path = workspace(request).case_path(case_id)
    if not path.is_file():
        return None
    stamp = path.stat().st_mtime_ns
    hit = _CASES.get(path)
    if hit and hit[0] == stamp:
        return hit[1]
    try:
        case = load_case(path).case
    except UserError:
        return None
    _CASES[path] = (stamp, case)
    return case
