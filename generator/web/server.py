"""Run the web application under uvicorn: loopback by default, a token beyond it."""

from __future__ import annotations

import ipaddress
import logging
import os
import secrets
import sys
from pathlib import Path

import click
import uvicorn

from generator.web.app import create_app
from generator.web.security import LOG

LOG_FILE = "notices-serve.log"
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def loopback(host: str) -> bool:
    """Whether `host` is reachable from this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run(folder: Path, *, host: str, port: int, token: str | None) -> int:
    """Serve `folder` until interrupted; beyond loopback every request needs the token."""
    if not folder.is_dir():
        click.echo(f"error: {folder}: no such folder", err=True)
        return 2
    # The pipeline reads the working folder's `notices.toml` from the working directory, as
    # `notices build` run there does: the server works from its folder.
    folder = folder.resolve()
    os.chdir(folder)
    local = loopback(host)
    if not local and not token:
        token = secrets.token_urlsafe(24)
    # On loopback, only the loopback names: a page elsewhere whose name resolves to 127.0.0.1
    # (DNS rebinding) is refused. Beyond it the token guards, and any name may reach the host.
    hosts = {*LOOPBACK_NAMES, host} if local else None
    app = create_app(folder, token=None if local else token, hosts=hosts)
    log = _log_to(folder / LOG_FILE)
    where = f"http://{host}:{port}/"
    click.echo(f"Zoning Notices: serving {folder} at {where}", err=True)
    if app.state.token:
        click.echo(f"  open {where}?token={app.state.token} (the token is required)", err=True)
    click.echo(f"  errors are logged to {log or 'this terminal'}", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0


def _log_to(path: Path) -> Path | None:
    """Log the server's errors (with their traces) to the terminal and to `path` if it can be."""
    LOG.setLevel(logging.INFO)
    LOG.addHandler(logging.StreamHandler(sys.stderr))
    try:
        handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    LOG.addHandler(handler)
    return path
