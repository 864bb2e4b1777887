"""`notices schedule`: every deadline of a case."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from generator.cli import _run, as_of_option
from generator.errors import EXIT_OK, UserError


@click.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "ics"]), default="text", show_default=True
)
@as_of_option("Judge lateness from this day (default: the case's `as_of`, else today).")
def schedule(case: Path, fmt: str, as_of: Any) -> None:
    """Print every deadline of CASE: the lawful window, newspaper issues, rule and derivation."""

    def body() -> int:
        from generator.documents import schedule as files
        from generator.prepare import prepare
        from generator.render import schedule_text

        prepared = prepare(case, as_of=as_of.date() if as_of else None)
        if fmt == "json":
            click.echo(files.as_json(prepared), nl=False)
        elif fmt == "ics":
            sys.stdout.buffer.write(files.as_ics(prepared))
        else:
            c = prepared.case
            title = f"Schedule of case {c.case_number} ({c.jurisdiction}), judged as of {prepared.judged_on.isoformat()}"
            click.echo(schedule_text.table(list(prepared.deadlines), title), nl=False)
        if prepared.late:
            raise UserError(list(prepared.late))
        return EXIT_OK

    sys.exit(_run(False, None, body))
