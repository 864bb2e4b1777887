"""Safe by default: who may use the server, and that every form was sent by one of our pages.

The server listens on 127.0.0.1 unless told otherwise; on any other address it requires a token
(given once as `?token=` or in the `Authorization: Bearer` header, then kept in an HttpOnly
cookie). Every POST carries a CSRF token that only our pages know: an HMAC of the server's
random secret, checked in constant time, and its Origin, when sent, must be this server.

`Guard` is the one middleware that enforces all of it, in this order: the Host (a DNS-rebinding
page cannot pass as localhost), the token, the body's size (refused from its Content-Length,
before a byte of it is read), the CSRF token and Origin of a POST. It also adds the security
headers to every response and turns an exception into a plain error page, its trace logged.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from html import escape
from typing import Any
from urllib.parse import parse_qsl, urlencode

from starlette.datastructures import Headers
from starlette.requests import Request

from generator.yamlio import MAX_BYTES

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"
SESSION_COOKIE = "notices_session"
# The form of the largest case file the loader reads (yamlio.MAX_BYTES), with room for its field
# names; a sample case's form is a few kilobytes in 260-410 fields, one listing 80 parcels ~2,000.
MAX_BODY = 4 * MAX_BYTES
MAX_FORM_FIELDS = 50_000
# `default-src 'self'`: no inline script or style, nothing from elsewhere (htmx reads its
# settings from a <meta> tag, not from script). Images may be data: URIs (thumbnails).
CSP = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none';"
    " form-action 'self'; frame-ancestors 'self'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    # Not "no-referrer": under it a browser sends `Origin: null` with every form POST (Fetch
    # standard, "append a request Origin header"), which the Origin check above refuses.
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"SAMEORIGIN"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
INTERNAL_ERROR = "Something went wrong on the server. The details are in the server's log."
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
LOG = logging.getLogger("generator.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def new_secret() -> bytes:
    """A random secret for one run of the server (tokens do not outlive it)."""
    return secrets.token_bytes(32)


def csrf_token(request: Request) -> str:
    """The CSRF token our pages put in every form (and htmx sends as a header)."""
    secret: bytes = request.app.state.secret
    return _mac(secret, b"csrf")


def csrf_ok(request: Request, sent: str | None) -> bool:
    """Whether a POST's CSRF token is ours."""
    return sent is not None and hmac.compare_digest(sent, csrf_token(request))


def _mac(secret: bytes, what: bytes) -> str:
    return hmac.new(secret, what, hashlib.sha256).hexdigest()


def _same(a: str, b: str) -> bool:
    """Constant-time equality of two strings (never short-circuits on the first difference)."""
    return hmac.compare_digest(a.encode(), b.encode())


class Guard:
    """The ASGI middleware of this module's docstring, around the whole application."""

    def __init__(
        self, app: ASGIApp, *, max_body: int = MAX_BODY, error_page: ASGIApp | None = None
    ) -> None:
        self.app = app
        self.max_body = max_body
        self.error_page = error_page

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Answer one request: refused, or passed on with the security headers added."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message["headers"] = [*message.get("headers", []), *HEADERS]
            await send(message)

        try:
            refusal = await self._check(scope, receive)
            if isinstance(refusal, tuple):
                status, text, extra = refusal
                await _plain(send_headers, status, text, extra)
                return
            await self.app(scope, refusal or receive, send_headers)
        except Exception:
            path = scope.get("path", "")
            LOG.exception("error answering %s %s", scope.get("method"), path)
            if not started:
                try:
                    await (self.error_page or _internal_error)(scope, receive, send_headers)
                except Exception:  # the page templates themselves fail: a page without them
                    LOG.exception("rendering the error page")
                    await _internal_error(scope, receive, send_headers)

    async def _check(
        self, scope: Scope, receive: Receive
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | Receive | None:
        """None or a replaying `receive` when the request may pass, else (status, text, headers)."""
        app = scope["app"]
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        hosts: frozenset[str] | None = app.state.hosts
        if hosts is not None and _host_name(host) not in hosts:
            return 400, "This server does not answer to that host name.", []
        token: str | None = app.state.token
        if token:
            passed = self._token(scope, headers, token, app.state.secret)
            if isinstance(passed, tuple):
                return passed
        if scope["method"] in SAFE_METHODS:
            return None
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return 413, f"The request is larger than {self.max_body // 1024} KB.", []
        origin = headers.get("origin")
        if origin is not None and not _same(origin, f"{scope.get('scheme', 'http')}://{host}"):
            return 403, "This form was not sent from this server's page.", []
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "This form was not sent from this server's page.", []
        body = b""
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return 400, "The request ended early.", []
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_body:
                return 413, f"The request is larger than {self.max_body // 1024} KB.", []
        replay = _replay(body)
        sent = headers.get(CSRF_HEADER)
        if sent is None:
            form = await Request(scope, replay).form(max_fields=MAX_FORM_FIELDS)
            value = form.get(CSRF_FIELD)
            sent = value if isinstance(value, str) else None
            await form.close()
        if sent is None or not _same(sent, _mac(app.state.secret, b"csrf")):
            return (
                403,
                "This form has expired or was not sent from this server's page: reload it.",
                [],
            )
        return _replay(body)

    @staticmethod
    def _token(
        scope: Scope, headers: Headers, token: str, secret: bytes
    ) -> tuple[int, str, list[tuple[bytes, bytes]]] | None:
        """None when the request shows the token; a redirect that keeps it in a cookie; or 401."""
        session = _mac(secret, b"session:" + token.encode())
        cookie = Request(scope).cookies.get(SESSION_COOKIE)
        if cookie is not None and _same(cookie, session):
            return None
        scheme, _, bearer = headers.get("authorization", "").partition(" ")
        if scheme.lower() == "bearer" and _same(bearer.strip(), token):
            return None
        query = parse_qsl(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
        given = [v for k, v in query if k == "token"]
        if given and _same(given[0], token) and scope["method"] in SAFE_METHODS:
            # Once: the token moves into a cookie and out of the address bar (and the history).
            rest = urlencode([(k, v) for k, v in query if k != "token"])
            where = scope.get("root_path", "") + scope["path"] + (f"?{rest}" if rest else "")
            cookie_header = f"{SESSION_COOKIE}={session}; HttpOnly; SameSite=Strict; Path=/"
            return (
                303,
                "Signed in.",
                [(b"location", where.encode()), (b"set-cookie", cookie_header.encode())],
            )
        return (
            401,
            "This server needs its token: open the address `notices serve` printed"
            " (it ends in ?token=...).",
            [(b"www-authenticate", b'Bearer realm="notices"')],
        )


async def _internal_error(scope: Scope, receive: Receive, send: Send) -> None:
    """The page of an internal error without templates: what happened, never the trace."""
    await _plain(send, 500, INTERNAL_ERROR, [])


def _host_name(host: str) -> str:
    """The name of a Host header without its port (`[::1]:8000` → `::1`)."""
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _replay(body: bytes) -> Receive:
    """A `receive` that hands the application the body already read, then waits for nothing."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return {"type": "http.disconnect"}

    return receive


async def _plain(send: Send, status: int, text: str, headers: list[tuple[bytes, bytes]]) -> None:
    """A minimal HTML page (the middleware answers before any page template could)."""
    body = (
        '<!doctype html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{status}</title></head><body><main><h1>{status}</h1>"
        f"<p>{escape(text, quote=False)}</p></main></body></html>"
    ).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"text/html; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                *headers,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
