"""The cases list: every case of the working folder, whether its packet is ready, and what is next."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from generator.web.render import page
from generator.web.workspace import Workspace


def cases_list(request: Request) -> HTMLResponse:
    """GET /: the cases of the working folder with the state of each packet."""
    workspace: Workspace = request.app.state.workspace
    rows = [_row(workspace, case_id) for case_id in workspace.case_ids()]
    return page(request, "cases.html", rows=rows)


def _row(workspace: Workspace, case_id: str) -> dict[str, Any]:
    """One case's line: built or not, ready or not, how many findings."""
    manifest = workspace.packet(case_id) / "manifest.json"
    if not manifest.is_file():
        return {"id": case_id, "built": False}
    data = json.loads(manifest.read_text(encoding="utf-8"))
    return {"id": case_id, "built": True, "ready": bool(data.get("ready"))}


routes = [Route("/", cases_list, name="cases")]
