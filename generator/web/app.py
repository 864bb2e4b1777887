"""The application: the working folder, the routes of every page, and the server's settings.

Each page module (`cases`, ...) declares its own `routes`; this module only puts them together,
so a new page is one module and one line here.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from generator.web import build, case_form, cases, download, review, security
from generator.web.render import page
from generator.web.workspace import NotFoundError, Workspace

STATIC = Path(__file__).with_name("static")


def create_app(
    folder: Path,
    *,
    token: str | None = None,
    hosts: Iterable[str] | None = None,
    max_body: int = security.MAX_BODY,
) -> Starlette:
    """The web application over the working folder `folder`.

    `token`: required of every request (the server sets it when it listens beyond loopback);
    `hosts`: the only Host names answered (None: any, as under a test client);
    `max_body`: the largest request body, in bytes (a larger one is refused with 413).
    """
    app = Starlette(
        routes=[
            *cases.routes,
            *build.routes,
            *download.routes,
            # Before the review's /cases/{case_id}, which would take /cases/new.
            *case_form.routes,
            *review.routes,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(security.Guard, max_body=max_body, error_page=_internal_error)],
        exception_handlers={HTTPException: _http_error, NotFoundError: _not_found},
    )
    app.state.workspace = Workspace(folder.resolve())
    app.state.secret = security.new_secret()
    app.state.token = token
    app.state.hosts = None if hosts is None else frozenset(hosts)
    app.state.builds = build.Builds()
    return app


async def _http_error(request: Request, exc: Exception) -> Response:
    status = exc.status_code if isinstance(exc, HTTPException) else 500
    if status == 404:
        return await _not_found(request, exc)
    message = exc.detail if isinstance(exc, HTTPException) else "Something went wrong."
    return page(request, "error.html", status_code=status, status=status, message=message)


async def _internal_error(scope: Scope, receive: Receive, send: Send) -> None:
    """The page of an exception no handler caught (its trace is in the log, not on the page)."""
    message = security.INTERNAL_ERROR
    response = page(Request(scope), "error.html", status_code=500, status=500, message=message)
    await response(scope, receive, send)


async def _not_found(request: Request, exc: Exception) -> Response:
    return page(
        request,
        "error.html",
        status_code=404,
        status=404,
        message="There is no such page, case or file in this working folder.",
    )
