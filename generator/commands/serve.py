"""`notices serve`: the clerk's web page."""

from __future__ import annotations

import sys
from pathlib import Path

import click


@click.command()
@click.argument(
    "folder", required=False, default=".", type=click.Path(path_type=Path, file_okay=False)
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, help="The port to listen on.")
@click.option(
    "--token",
    envvar="NOTICES_TOKEN",
    help="Required of every request when listening beyond this machine (default: a random one).",
)
def serve(folder: Path, host: str, port: int, token: str | None) -> None:
    """Serve the clerk's web page over FOLDER (its cases/ and output/)."""
    from generator.web import server

    sys.exit(server.run(folder, host=host, port=port, token=token))
