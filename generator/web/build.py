"""Build a case's packet from the page, with live progress.

`case_build` starts `generator.packet.build` in a worker thread (one build per case at a time:
a second request joins the running one; builds of several cases wait their turn, the machine
being a clerk's); `build_status` answers the progress fragment htmx polls every second: the
stage, the letters made so far, then the result. A build that fails leaves the last good
packet in place (`packet_folder` stages the new one and swaps it in only when it is whole).
"""

from __future__ import annotations

import datetime as dt
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from generator.web.render import fragment, page
from generator.web.security import LOG
from generator.web.workspace import NotFoundError, Workspace


@dataclass
class Job:
    """One build of one case, as the progress fragment shows it."""

    case_id: str
    stage: str = "waiting for another build to finish"
    letters: int = 0
    running: bool = True
    ready: bool = False
    errors: int = 0
    warnings: int = 0
    problems: list[str] = field(default_factory=list)
    started: dt.datetime = field(default_factory=dt.datetime.now)
    finished: dt.datetime | None = None

    @property
    def failed(self) -> bool:
        """Whether the build stopped without a packet (the last good one, if any, stays)."""
        return not self.running and bool(self.problems)

    def made(self, letters: int) -> None:
        """The `progress` callback of `generator.packet.build`: `letters` letters made so far."""
        self.letters = letters


class Builds:
    """The builds of one server: at most one per case, run one after another."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None

    def get(self, case_id: str) -> Job | None:
        """The running or last build of `case_id` (None if none since the server started)."""
        with self._lock:
            return self._jobs.get(case_id)

    def start(self, case_id: str, case: Path, workspace: Workspace) -> Job:
        """Start building `case` into the working folder, or join its build already running."""
        with self._lock:
            job = self._jobs.get(case_id)
            if job is not None and job.running:
                return job
            job = self._jobs[case_id] = Job(case_id)
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="build")
            self._pool.submit(_run, job, case, workspace)
            return job


def _run(job: Job, case: Path, workspace: Workspace) -> None:
    """Build the packet, and record how it went in `job` (never raises: the page shows it)."""
    job.stage = "reading the case and making the documents"
    from generator.errors import GeneratorError, UserError
    from generator.packet import build
    from generator.paths import data_paths

    try:
        data_paths()  # as the command line: a data folder named but missing stops the build
        result = build(case, workspace.output, progress=job.made)
    except UserError as exc:
        job.problems = [workspace.shown(f"error: {p}") for p in exc.problems]
    except GeneratorError as exc:
        job.problems = [workspace.shown(f"error: {exc}")]
    except Exception:  # a bug: its trace goes to the log, never to the page
        LOG.exception("building %s", job.case_id)
        job.problems = ["internal error: the build stopped; the details are in the server's log"]
    else:
        found = result.manifest.get("findings", [])
        job.ready = result.ready
        job.errors = sum(f.get("severity") == "error" for f in found)
        job.warnings = sum(f.get("severity") == "warning" for f in found)
    job.finished = dt.datetime.now()
    job.stage = "failed" if job.problems else "done"
    job.running = False


def _case(request: Request) -> tuple[Workspace, str]:
    """The working folder and the case id the URL names (404 unless the case file exists)."""
    workspace: Workspace = request.app.state.workspace
    case_id = request.path_params["case_id"]
    if not workspace.case_path(case_id).is_file():
        raise NotFoundError(case_id)
    return workspace, case_id


def case_build(request: Request) -> Response:
    """POST /cases/{case_id}/build: start the build; htmx gets the progress fragment."""
    workspace, case_id = _case(request)
    request.app.state.builds.start(case_id, workspace.case_path(case_id), workspace)
    if request.headers.get("hx-request"):
        return build_status(request)
    return RedirectResponse(request.url_for("build_status", case_id=case_id), status_code=303)


def build_status(request: Request) -> HTMLResponse:
    """GET /cases/{case_id}/build: the progress fragment (htmx), or a page that shows it."""
    _, case_id = _case(request)
    job: Job | None = request.app.state.builds.get(case_id)
    context: dict[str, Any] = {"case_id": case_id, "job": job}
    if request.headers.get("hx-request"):
        return HTMLResponse(fragment(request, "build_state.html", **context))
    return page(request, "build.html", **context)


routes = [
    Route("/cases/{case_id}/build", case_build, methods=["POST"], name="case_build"),
    Route("/cases/{case_id}/build", build_status, methods=["GET"], name="build_status"),
]
