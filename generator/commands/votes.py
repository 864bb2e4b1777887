"""`notices votes`: the favorable votes an amendment needs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from generator.cli import _run, _votes_of
from generator.errors import EXIT_OK, UserError


@click.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--members",
    type=click.IntRange(min=1),
    help="Seats on the body (default: the recorded vote, else council_size).",
)
@click.option("--vacancies", type=click.IntRange(min=0), help="Vacant seats.")
@click.option(
    "--unable", type=click.IntRange(min=0), help="Members unable to vote (a conflict of interest)."
)
@click.option(
    "--protest/--no-protest",
    default=None,
    help="Whether a valid protest was filed (default: the protest the case records, weighed;"
    " with none recorded, both numbers).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def votes(
    case: Path,
    members: int | None,
    vacancies: int | None,
    unable: int | None,
    protest: bool | None,
    fmt: str,
) -> None:
    """Print the favorable votes CASE's amendment needs, with the derivation and the law.

    Whether a valid protest was filed is the option's, else the weighing of the protest the
    case records; with neither, both numbers are printed, so the clerk never reads the
    supermajority as settled when no one has weighed a protest.
    """

    def body() -> int:
        from generator import protest as weighing
        from generator.inputs import load_case
        from generator.rules.loader import resolve

        cf = load_case(case)
        pack = resolve(cf.case.jurisdiction)
        cases: list[tuple[str, bool]] = []
        weighed = None
        recorded = cf.case.record.protests if cf.case.record else []
        if protest is not None:
            cases = [("", protest)]
        elif recorded:
            filed = recorded[-1]
            path = cf.resolve(str(filed.signers))
            if not path.is_file():
                at = ("record", "protests", len(recorded) - 1, "signers")
                raise UserError(cf.problem(at, f"no such file: {path}"))
            weighed = weighing.weigh(cf, pack, weighing.read_signers(path), filed.filed_at)
            valid = "valid" if weighed.valid else "not valid"
            cases = [
                (f"the protest filed {filed.filed_at:%Y-%m-%d %H:%M} is {valid}", weighed.valid)
            ]
        else:
            cases = [("with a valid protest", True), ("without one", False)]
        results = []
        for heading, valid in cases:
            result = _votes_of(cf, pack, members, vacancies, unable, valid, weighed)
            if result is None:
                raise UserError(
                    cf.problem(("council_size",), "give --members N, or council_size in the case")
                )
            results.append((heading, result))
        if fmt == "json":
            out = [r.as_json() | ({"case": h} if h else {}) for h, r in results]
            click.echo(json.dumps(out[0] if len(out) == 1 else out, indent=2, ensure_ascii=False))
            return EXIT_OK
        for heading, result in results:
            needed = "no number stated by the pack" if result.needed is None else str(result.needed)
            lead = f"{heading}: " if heading else ""
            click.echo(f"{lead}votes needed: {needed} ({result.citation or 'no protest rule'})")
            for step in result.derivation:
                click.echo(f"  {step}")
        return EXIT_OK

    sys.exit(_run(False, None, body))
