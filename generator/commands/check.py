"""`notices check`: a case's record judged against the plan and the law."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from generator.cli import _run, as_of_option
from generator.errors import EXIT_FINDINGS, EXIT_OK


@click.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@as_of_option("Judge what is due on this day (default: the case's `as_of`, else today).")
def check(case: Path, fmt: str, as_of: Any) -> None:
    """Judge CASE's record against the plan and the law: met, missed, not yet due, no record.

    Exit 0 when nothing due is missed or unrecorded, 1 when something is, 2 on bad input.
    """

    def body() -> int:
        from generator.check import check as judge
        from generator.prepare import prepare

        day = as_of.date() if as_of else None
        result = judge(prepare(case, as_of=day), day)
        if fmt == "json":
            click.echo(json.dumps(result.as_json(), indent=2))
        else:
            click.echo(_check_text(result), nl=False)
        return EXIT_FINDINGS if result.failing else EXIT_OK

    sys.exit(_run(False, None, body))


def _check_text(result: Any) -> str:
    """The check result as the terminal shows it, requirement by requirement."""
    lines = [f"Judged as of {result.judged_on.isoformat()}"]
    for r in result.requirements:
        lines.append(f"{r.status.upper():12} {r.hearing}: {r.what}")
        if r.rule:
            lines.append(f"    {r.citation}  [{r.rule}]")
        if r.deadline:
            lines.append(f"    deadline: {r.deadline}")
        if r.derivation:
            lines.append(f"    derivation: {r.derivation}")
        if r.recorded:
            lines.append(f"    recorded: {r.recorded}")
        for e in r.evidence:
            lines.append(f"    evidence: {e.path}{'' if e.on_file else ' (NOT ON FILE)'}")
        if r.note:
            lines.append(f"    note: {r.note}")
    failing = len(result.failing)
    lines.append(f"{len(result.requirements)} requirements, {failing} missed or unrecorded")
    return "\n".join(lines) + "\n"
