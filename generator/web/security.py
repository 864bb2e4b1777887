"""Safe by default: who may use the server, and that every form was sent by one of our pages.

The server listens on 127.0.0.1 unless told otherwise; on any other address it requires a token
(given once as `?token=` or in the `Authorization: Bearer` header, then kept in an HttpOnly
cookie). Every POST carries a CSRF token that only our pages know: an HMAC of the server's
random secret, checked in constant time, and its Origin, when sent, must be this server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from starlette.requests import Request

CSRF_FIELD = "csrf_token"
CSRF_HEADER = "x-csrf-token"


def new_secret() -> bytes:
    """A random secret for one run of the server (tokens do not outlive it)."""
    return secrets.token_bytes(32)


def csrf_token(request: Request) -> str:
    """The CSRF token our pages put in every form (and htmx sends as a header)."""
    secret: bytes = request.app.state.secret
    return hmac.new(secret, b"csrf", hashlib.sha256).hexdigest()


def csrf_ok(request: Request, sent: str | None) -> bool:
    """Whether a POST's CSRF token is ours."""
    return sent is not None and hmac.compare_digest(sent, csrf_token(request))
