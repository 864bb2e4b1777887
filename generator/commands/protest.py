"""`notices protest`: weigh a protest petition."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from generator.cli import OUT, _run, _votes_of
from generator.errors import EXIT_OK, UserError


@click.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--signers",
    type=click.Path(path_type=Path, dir_okay=False),
    help="CSV or GeoJSON of the signing parcels (parcel_id, signed_on); default: the case's record.",
)
@click.option(
    "--filed",
    type=click.DateTime(formats=["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]),
    default=None,
    help="When the petition was filed, local time (default: the case's record).",
)
@OUT
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def protest(case: Path, signers: Path | None, filed: Any, out_root: Path, fmt: str) -> None:
    """Weigh a protest petition against CASE's pack: area, shares, threshold, filing time; write the report."""

    def body() -> int:
        from generator import protest as weighing
        from generator.documents.protest_report import write_report
        from generator.inputs import load_case
        from generator.rules.loader import resolve

        cf = load_case(case)
        pack = resolve(cf.case.jurisdiction)
        path, when = signers, filed
        filed_record = (
            cf.case.record.protests[-1] if cf.case.record and cf.case.record.protests else None
        )
        if path is None:
            if filed_record is None:
                raise UserError(
                    "give --signers FILE, or record the protest in the case (record.protests)"
                )
            path = cf.resolve(str(filed_record.signers))
            if not path.is_file():
                at = ("record", "protests", len(cf.case.record.protests) - 1, "signers")
                raise UserError(cf.problem(at, f"no such file: {path}"))
        if when is None and filed_record is not None:
            when = filed_record.filed_at
        weighed = weighing.weigh(cf, pack, weighing.read_signers(path), when)
        votes = _votes_of(cf, pack, None, None, None, weighed.valid, weighed)
        written = write_report(cf, pack, weighed, votes, out_root)
        if fmt == "json":
            click.echo(json.dumps(weighed.as_json(), indent=2, ensure_ascii=False))
            return EXIT_OK
        for t in weighed.tests:
            click.echo(f"{t.threshold.of} ({'met' if t.met else 'not met'}):")
            for step in t.derivation:
                click.echo(f"  {step}")
        d = weighed.deadline
        if d is not None:
            click.echo(f"filing deadline {d.latest}: {d.derivation}")
        on_time = {None: "filing time not given", True: "filed in time", False: "filed LATE"}
        click.echo(
            f"{on_time[weighed.on_time]}; threshold {'met' if weighed.threshold_met else 'not met'}"
        )
        click.echo(f"supermajority required: {'yes' if weighed.valid else 'no'}")
        if votes is not None:
            for step in votes.derivation:
                click.echo(f"  {step}")
        for note in weighed.notes:
            click.echo(f"  note: {note}")
        for p in written:
            click.echo(f"wrote {p}")
        return EXIT_OK

    sys.exit(_run(False, out_root / case.stem, body))
