"""`notices build`: build the packet of each case, or of an agenda."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

import click

from generator.cli import CLUSTER, DEBUG, OUT, VERBOSE, _print_build, _run
from generator.errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK


@click.command()
@click.argument("cases", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option(
    "--agenda",
    "agenda",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="An agenda file (agendas/*.yaml): one combined notice of its cases, into"
    " OUT/agenda-<id>/.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@DEBUG
@VERBOSE
@CLUSTER
def build(
    cases: tuple[Path, ...],
    out_root: Path,
    agenda: Path | None,
    fmt: str,
    debug: bool,
    verbose: bool,
    cluster: str | None,
) -> None:
    """Build the notice packet of each CASE into OUT/<case-id>/ (or of an --agenda)."""
    if agenda is not None or not cases:
        if agenda is None or cases:
            both = " (not both)" if cases else ""
            click.echo(f"error: give case files, or --agenda FILE{both}", err=True)
            sys.exit(EXIT_INPUT)
        if cluster is not None:
            click.echo("error: --cluster builds case files, not an --agenda", err=True)
            sys.exit(EXIT_INPUT)
        sys.exit(_build_agenda(agenda, out_root, fmt=fmt, debug=debug, verbose=verbose))

    def body() -> int:
        from generator import batch

        worst = EXIT_OK
        manifests = []
        job = functools.partial(
            _build_one, out_root=out_root, fmt=fmt, debug=debug, verbose=verbose
        )
        for status, manifest, out, err in batch.run(job, list(cases), cluster=cluster):
            click.echo(out, nl=False)
            click.echo(err, nl=False, err=True)
            worst = max(worst, status)
            if manifest is not None:
                manifests.append(manifest)
        if fmt == "json":
            click.echo(
                json.dumps(
                    manifests[0] if len(manifests) == 1 else manifests, indent=2, ensure_ascii=False
                )
            )
        elif not verbose and any(
            f["severity"] != "error" for m in manifests for f in m["findings"]
        ):
            click.echo(
                "Warnings and notes: `notices build -v` prints them;"
                " every finding is in the packet's manifest.json."
            )
        return worst

    sys.exit(_run(debug, None, body))


def _build_one(
    case_path: Path, *, out_root: Path, fmt: str, debug: bool, verbose: bool, capture: bool = False
) -> tuple[int, dict | None, str, str]:
    """Build one case: its exit status, manifest, and what it printed (when `capture`)."""
    import contextlib
    import io

    manifest: list[dict] = []

    def one() -> int:
        from generator.packet import build as build_packet

        bar = _Progress(case_path.stem)
        result = build_packet(case_path, out_root, progress=bar)
        bar.finish()
        manifest.append(result.manifest)
        if fmt == "text":
            _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    if not capture:
        return _run(debug, out_root / case_path.stem, one), (manifest or [None])[0], "", ""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = _run(debug, out_root / case_path.stem, one)
    return status, (manifest or [None])[0], out.getvalue(), err.getvalue()


def _build_agenda(path: Path, out_root: Path, *, fmt: str, debug: bool, verbose: bool) -> int:
    """Build an agenda's packet (`notices build --agenda`): its exit status."""

    def one() -> int:
        from generator.packet import build_agenda

        result = build_agenda(path, out_root)
        if fmt == "json":
            click.echo(json.dumps(result.manifest, indent=2, ensure_ascii=False))
        else:
            _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    stem = path.name.removesuffix(".yaml").removesuffix(".yml")
    return _run(debug, out_root / f"agenda-{stem}", one)


class _Progress:
    """A counter on the terminal for large mailings (from the 500th letter on)."""

    def __init__(self, name: str) -> None:
        self.name, self.shown = name, -1

    def __call__(self, n: int) -> None:
        if n >= 500 and sys.stderr.isatty() and n // 250 != self.shown:
            self.shown = n // 250
            click.echo(f"\r  {self.name}: {n:,} letters made", nl=False, err=True)

    def finish(self) -> None:
        if self.shown >= 0:
            click.echo(err=True)
