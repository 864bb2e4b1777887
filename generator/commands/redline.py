"""`notices redline`: a lawyer's edits to a generated DOCX as tracked changes."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli import JURISDICTION, PACKS, _count, _run
from generator.errors import EXIT_OK, UserError


@click.command()
@click.argument("generated", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("edited", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The redline to write (default: redline-EDITED.docx beside the edited draft).",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The same diff as a web page (default: the redline's name with .html).",
)
@click.option(
    "--author",
    help="Whom the changes are attributed to (default: the edited file's lastModifiedBy).",
)
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The case the notice is of (default: the one the generated file's packet names).",
)
@JURISDICTION
@PACKS
@click.option("--kind", help="The kind of notice (default: what the generated file's name says).")
def redline(
    generated: Path,
    edited: Path,
    out: Path | None,
    html_out: Path | None,
    author: str | None,
    case_path: Path | None,
    jurisdiction: str | None,
    packs: Path | None,
    kind: str | None,
) -> None:
    """Write a lawyer's edits to a generated DOCX as tracked changes, findings as comments."""

    def body() -> int:
        from generator.redline import editor, lint_draft
        from generator.redline import redline as write_redline

        if case_path and jurisdiction:
            raise UserError(
                "give --case or --jurisdiction, not both: a case names its jurisdiction"
            )
        who = editor(edited, author)  # before the linter's work: a redline names its editor
        found = lint_draft(
            edited,
            generated=generated,
            case_path=case_path,
            jurisdiction=jurisdiction,
            kind=kind,
            packs=packs,
        )
        target = out or edited.with_name(f"redline-{edited.stem}.docx")
        made = write_redline(
            generated,
            edited,
            target,
            findings=found,
            author=who,
            html_out=html_out or target.with_suffix(".html"),
        )
        click.echo(
            f"{made.docx}: changes by {made.author}: {made.changed} paragraphs changed,"
            f" {made.deleted} deleted, {made.inserted} inserted;"
            f" {_count(made.comments, 'comment')}"
            + (
                f" ({len(found) - made.comments} not placed: the draft has no paragraph)"
                if len(found) > made.comments
                else ""
            )
        )
        click.echo(f"{made.html}: the same, as a web page")
        return EXIT_OK

    sys.exit(_run(False, None, body))
