"""Run the web application under uvicorn: loopback by default, a token beyond it."""

from __future__ import annotations

import ipaddress
import secrets
from pathlib import Path

import click
import uvicorn

from generator.web.app import create_app


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
    if not loopback(host) and not token:
        token = secrets.token_urlsafe(24)
    app = create_app(folder, token=None if loopback(host) else token)
    where = f"http://{host}:{port}/"
    click.echo(f"Zoning Notices: serving {folder.resolve()} at {where}", err=True)
    if app.state.token:
        click.echo(f"  open {where}?token={app.state.token} (the token is required)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
    return 0
