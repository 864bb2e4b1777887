"""`notices explain`: a rule pack as a checklist with citations."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator.cli import _run
from generator.errors import EXIT_OK, UserError

if TYPE_CHECKING:
    from datetime import date


@click.command()
@click.argument("jurisdiction", required=False)
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Only the rules that bind this case, with what its preparation found.",
)
@click.option(
    "--on",
    "on",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Only the rules in force on this date (YYYY-MM-DD).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--reference",
    is_flag=True,
    help="Instead: the pack format itself, every field, slot and fact (no JURISDICTION).",
)
def explain(
    jurisdiction: str | None, case_path: Path | None, on: Any, fmt: str, reference: bool
) -> None:
    """Print a rule pack (JURISDICTION, or the pack of --case) as a checklist with citations and its state/local conflicts."""

    def body() -> int:
        from generator.rules import explain as ex
        from generator.rules.loader import resolve

        if reference:
            click.echo(ex.reference(), nl=False)
            return EXIT_OK
        if bool(jurisdiction) == bool(case_path):
            raise UserError("give a JURISDICTION or --case CASE (one of them)")
        day: date | None = on.date() if on else None
        if case_path is None:
            resolved, only, scope, found = resolve(str(jurisdiction)), None, None, []
        else:
            from generator.prepare import prepare

            prepared = prepare(case_path)
            resolved, only, found = prepared.pack, prepared.rule_ids, list(prepared.findings)
            hearings = ", ".join(
                f"{h.body_name} {h.date.isoformat()}" for h in prepared.case.hearings
            )
            scope = f"Rules that bind case {prepared.case.case_number} (hearings: {hearings})."
        if fmt == "text":
            click.echo(ex.checklist(resolved, day, only, scope), nl=False)
            if case_path is not None:
                click.echo("\nWHAT PREPARING THE CASE FOUND")
                for f in found or []:
                    click.echo(f"  {f.severity} {f.code}: {f.message}")
                if not found:
                    click.echo("  nothing")
        else:
            data = ex.as_json(resolved, day, only)
            if case_path is not None:
                data["findings"] = [f.as_dict() for f in found]
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK

    sys.exit(_run(False, None, body))
