"""`notices returned`: record returned letters and rebuild the packet."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from generator.cli import DEBUG, OUT, VERBOSE, _print_build, _run
from generator.errors import EXIT_FINDINGS, EXIT_OK, UserError


@click.command()
@click.argument("case_path", metavar="CASE", type=click.Path(path_type=Path, dir_okay=False))
@OUT
@DEBUG
@VERBOSE
def returned(case_path: Path, out_root: Path, debug: bool, verbose: bool) -> None:
    """Record the letters CASE's record lists as returned undeliverable, and rebuild its packet.

    Says what the law requires next for each, writes the re-mailing (remail-letters-*.pdf) to
    the other address the tax record holds, and lists the returned pieces on the proof of
    mailing; the documents the rebuild changes are kept in the packet's history/ folder.
    """

    def body() -> int:
        from generator.inputs import load_case
        from generator.packet import build as build_packet

        cf = load_case(case_path)
        record = cf.case.record
        if record is None or not record.returned_mail:
            raise UserError(
                cf.problem(("record",), "the record lists no returned letters (`returned_mail`)")
            )
        label = f"{max(r.received_on for r in record.returned_mail).isoformat()}-returned"
        result = build_packet(cf, out_root, history=label)
        for f in result.manifest["findings"]:
            if f["code"].startswith("RET"):
                click.echo(f"{f['code']}: {f['message']}")
        _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    sys.exit(_run(debug, out_root / case_path.stem, body))
