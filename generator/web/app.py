"""The application: the working folder, the routes of every page, and the server's settings.

Each page module (`cases`, ...) declares its own `routes`; this module only puts them together,
so a new page is one module and one line here.
"""

from __future__ import annotations

from pathlib import Path

from starlette.applications import Starlette
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles

from generator.web import case_form, cases, review, security
from generator.web.workspace import Workspace

STATIC = Path(__file__).with_name("static")


def create_app(folder: Path, *, token: str | None = None) -> Starlette:
    """The web application over the working folder `folder` (`token`: required of every request)."""
    app = Starlette(
        routes=[
            *cases.routes,
            # Before the review's /cases/{case_id}, which would take /cases/new.
            *case_form.routes,
            *review.routes,
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.workspace = Workspace(folder.resolve())
    app.state.secret = security.new_secret()
    app.state.token = token
    return app
