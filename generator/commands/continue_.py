"""`notices continue`: re-notice the continued hearings of a case and rebuild its packet."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli import DEBUG, OUT, VERBOSE, _print_build, _run
from generator.errors import EXIT_FINDINGS, EXIT_OK, UserError


@click.command("continue")
@click.argument("case_path", metavar="CASE", type=click.Path(path_type=Path, dir_okay=False))
@OUT
@DEBUG
@VERBOSE
def continue_(case_path: Path, out_root: Path, debug: bool, verbose: bool) -> None:
    """Re-notice the hearings CASE's record says were continued, and rebuild its packet.

    Where the law lets a hearing be continued by announcement to a date certain, nothing is
    noticed again and the schedule marks the continuance; otherwise the continued hearing is
    noticed in full, with new deadlines. The documents the rebuild changes are kept in the
    packet's history/ folder.
    """

    def body() -> int:
        from generator import continuance
        from generator.inputs import load_case
        from generator.packet import build as build_packet
        from generator.rules.loader import resolve

        cf = load_case(case_path)
        continued = continuance.decide(cf, resolve(cf.case.jurisdiction))
        if not continued:
            raise UserError(
                cf.problem(
                    ("record", "hearings"),
                    "the record holds no continued hearing (give a hearing's `continued_to`)",
                )
            )
        for c in continued:
            what = "noticed again in full" if c.renotice else "no new notice"
            click.echo(
                f"{c.hearing.body_name}: held {c.held.held_on}, continued to {c.new_date}: {what}"
            )
        result = build_packet(
            continuance.continued_case(cf, continued),
            out_root,
            history=continuance.history_label(continued),
        )
        _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    sys.exit(_run(debug, out_root / case_path.stem, body))
