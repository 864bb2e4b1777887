"""The web pages' Jinja environment: `templates/web/`, autoescaped, and the one way a page renders."""

from __future__ import annotations

from typing import Any

import jinja2
from starlette.requests import Request
from starlette.responses import HTMLResponse

from generator.paths import TEMPLATES
from generator.web import security

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES / "web"),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def page(request: Request, template: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """Render `templates/web/<template>` for `request` (every value is escaped by Jinja)."""
    return HTMLResponse(fragment(request, template, **context), status_code=status_code)


def fragment(request: Request, template: str, **context: Any) -> str:
    """Render a part of a page (`templates/web/<template>`) to a string, escaped like a page."""
    return _ENV.get_template(template).render(
        request=request,
        url_for=request.url_for,
        csrf_token=security.csrf_token(request),
        has_route=lambda name: _has_route(request, name),
        **context,
    )


def _has_route(request: Request, name: str) -> bool:
    """Whether the application has a route `name` (a page another part adds may be missing)."""
    return any(getattr(r, "name", None) == name for r in request.app.routes)
