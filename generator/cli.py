"""`notices`: the command line. It only wires the stages together and maps errors to exit codes.

The group knows each command by name and short help (`COMMANDS`); a command's module, under
`generator/commands/`, is imported only when that command runs or shows its own help, and the
heavy libraries (WeasyPrint, docxtpl, pydantic) only inside the command bodies, so that
`notices --help` costs Python and click and little else (bench/startup.py). This module keeps
the group, the options and helpers the commands share.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from gettext import gettext as _
from pathlib import Path
from typing import Any

import click

from generator import __version__

# Each command: its object as "module:name", and the first paragraph of its docstring, which
# `notices --help` shortens to the line it lists without importing the module.
# tests/test_cli_commands.py fails when this table and generator/commands/ disagree.
COMMANDS: dict[str, tuple[str, str]] = {
    "build": (
        "generator.commands.build:build",
        "Build the notice packet of each CASE into OUT/<case-id>/ (or of an --agenda).",
    ),
    "check": (
        "generator.commands.check:check",
        "Judge CASE's record against the plan and the law: met, missed, not yet due, no record.",
    ),
    "continue": (
        "generator.commands.continue_:continue_",
        "Re-notice the hearings CASE's record says were continued, and rebuild its packet.",
    ),
    "explain": (
        "generator.commands.explain:explain",
        "Print a rule pack (JURISDICTION, or the pack of --case) as a checklist with citations"
        " and its state/local conflicts.",
    ),
    "lint": (
        "generator.commands.lint:lint",
        "Check notices (TXT, HTML, PDF, DOCX files or packet folders) against the law.",
    ),
    "protest": (
        "generator.commands.protest:protest",
        "Weigh a protest petition against CASE's pack: area, shares, threshold, filing time;"
        " write the report.",
    ),
    "recipients": (
        "generator.commands.recipients:recipients",
        "Write who must be notified of CASE, and the map: OUT/<case-id>/recipients.csv,"
        " .geojson, map.svg/.png.",
    ),
    "redline": (
        "generator.commands.redline:redline",
        "Write a lawyer's edits to a generated DOCX as tracked changes, findings as comments.",
    ),
    "returned": (
        "generator.commands.returned:returned",
        "Record the letters CASE's record lists as returned undeliverable, and rebuild its packet.",
    ),
    "schedule": (
        "generator.commands.schedule:schedule",
        "Print every deadline of CASE: the lawful window, newspaper issues, rule and derivation.",
    ),
    "serve": (
        "generator.commands.serve:serve",
        "Serve the clerk's web page over FOLDER (its cases/ and output/).",
    ),
    "votes": (
        "generator.commands.votes:votes",
        "Print the favorable votes CASE's amendment needs, with the derivation and the law.",
    ),
}


class LazyGroup(click.Group):
    """A group whose commands are imported when one is invoked, not when the group is listed."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, in the order `--help` lists them."""
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        """The command named `cmd_name`, its module imported now; None for no such command."""
        if cmd_name not in COMMANDS:
            return None
        module, _, name = COMMANDS[cmd_name][0].partition(":")
        return getattr(importlib.import_module(module), name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The commands section of `--help`, as click writes it, from the table alone."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        # A bare command holding only the help shortens it as the real one would.
        rows = [
            (name, click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit))
            for name in names
        ]
        with formatter.section(_("Commands")):
            formatter.write_dl(rows)


def _run(debug: bool, packet: Path | None, body: Callable[[], int]) -> int:
    """Run a command body; report errors as DESIGN.md §6 says and return the exit status.

    An internal error's traceback goes to `<packet>.error.log` beside the packet folder `packet`
    (not into it: that folder holds a whole packet or nothing, and may not exist).
    """
    import traceback  # here, not at the top: `notices --help` answers without them

    from generator.errors import EXIT_INPUT, EXIT_INTERNAL, GeneratorError, UserError
    from generator.paths import data_paths

    try:
        data_paths()  # a data folder named but missing stops every command, naming who named it
        return body()
    except UserError as exc:
        for problem in exc.problems:
            click.echo(f"error: {problem}", err=True)
        return EXIT_INPUT
    except GeneratorError as exc:
        click.echo(f"error: {exc}", err=True)
        return exc.exit_code
    except Exception as exc:  # the one place that turns a bug into exit 70
        trace = traceback.format_exc()
        log = None if debug or packet is None else _error_log(packet, trace)
        if log is None:
            click.echo(trace, err=True)
        else:
            click.echo(f"internal error: {exc!r} (traceback in {log})", err=True)
        return EXIT_INTERNAL


def _error_log(packet: Path, trace: str) -> Path | None:
    """Write `trace` beside the packet folder, through the one writer; None if it cannot be."""
    from generator.errors import UserError
    from generator.paths import safe_name
    from generator.writer import write

    name = f"{packet.name}.error.log" if safe_name(packet.name) else "error.log"
    try:
        packet.parent.mkdir(parents=True, exist_ok=True)
        return write(packet.parent, name, trace.encode())
    except (OSError, UserError):
        return None  # a link or a file in the way: the traceback goes to the terminal instead


def as_of_option(help: str) -> Callable[[Any], Any]:
    """The `--as-of DAY` option of the commands that judge a case on a day."""
    return click.option(
        "--as-of",
        "as_of",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        default=None,
        callback=lambda _ctx, _param, value: _case_day(value),
        help=help,
    )


OUT = click.option(
    "--out",
    "out_root",
    default="output",
    show_default=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder that receives <case-id>/.",
)


CLUSTER = click.option(
    "--cluster",
    metavar="ADDRESS",
    default=None,
    help="Run each case or file as a task on this Dask scheduler (tcp://HOST:8786); the"
    " paths must be on storage every worker sees. Default: this machine's cores.",
)

# The commands that build a packet print its findings and, when asked, an internal error's trace.
DEBUG = click.option("--debug", is_flag=True, help="Print tracebacks of internal errors.")
VERBOSE = click.option(
    "-v", "--verbose", is_flag=True, help="Print every finding (errors are always printed)."
)

# Without a case, `lint` and `redline` are told which pack's clauses to require.
JURISDICTION = click.option(
    "--jurisdiction", help="Without a case: the pack whose clauses to require."
)
PACKS = click.option(
    "--packs",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Without a case: a folder of packs, searched before jurisdictions/.",
)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notices")
def app() -> None:
    """Zoning Notices: legal notice packets for zoning-amendment hearings."""


def _print_build(result: Any, *, verbose: bool) -> None:
    """One line for the packet: ready or not, and its findings counted by severity.

    Errors are always listed, and the edited drafts kept aside; warnings and notes only with
    `--verbose` (every finding is in the packet's manifest.json either way).
    """
    from generator import findings

    m = result.manifest
    status = "ready" if m["ready"] else "NOT READY"
    notices = [d for d in m["documents"] if d["kind"] != "map"]
    made = _count(len(m["documents"]), "file")
    if not notices:
        made += " (no notice this version generates is required)"
    severity = [f["severity"] for f in m["findings"]]
    counts = ", ".join(
        _count(severity.count(s), word)
        for s, word in (("error", "error"), ("warning", "warning"), ("info", "note"))
    )
    by_hand = sum(f["code"] == "PLAN007" for f in m["findings"])
    if by_hand:
        counts += f" ({_count(by_hand, 'notice')} to give by hand)"
    click.echo(f"{result.folder}: {status} — {made}, {counts}")
    for f in m["findings"]:
        if f["severity"] != "error" and not verbose:
            continue
        at = findings.where(f["location"])
        where = f" [{f['document']}{', ' + at if at else ''}]" if f["document"] else ""
        cite = f" ({f['citation']})" if f["citation"] else ""
        rule = f" {f['rule']}:" if f["rule"] else ""
        click.echo(f"  {f['severity']} {f['code']}{rule} {f['message']}{cite}{where}")
    for name in result.kept:
        click.echo(
            f"  warning: an edited draft was kept as {name}; the new draft replaces the original"
        )


def _count(n: int, word: str) -> str:
    """`1 note`, `2 notes`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _case_day(value: Any) -> Any:
    """Refuse an `--as-of` day outside the years a case's days may take, as the case's own."""
    if value is None:
        return None
    from generator.models.base import case_day

    try:
        case_day(value.date())
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


def _votes_of(
    cf: Any,
    pack: Any,
    members: int | None,
    vacancies: int | None,
    unable: int | None,
    protest: bool,
    weighed: Any = None,
) -> Any:
    """Votes needed, the body's figures from the options, else the recorded vote, else `council_size`."""
    from generator import protest as weighing
    from generator.votes import votes_needed

    case = cf.case
    held = [
        h.vote
        for h in (case.record.hearings if case.record else [])
        if h.hearing.body == "council" and h.vote
    ]
    vote = held[-1] if held else None
    full = members or (vote.full_membership if vote else case.council_size)
    if full is None:
        return None
    if vacancies is None:
        vacancies = vote.vacancies if vote else 0
    if unable is None:
        # Only a conflict of interest takes a member out of the count; an absent member is a member.
        unable = sum(1 for m in vote.unable_to_vote if m.reason == "conflict") if vote else 0
    met = [t.threshold for t in weighed.tests if t.met] if weighed is not None else None
    return votes_needed(
        weighing.protest_binding(cf, pack), full, vacancies, unable, protest=protest, met=met
    )


def main() -> None:
    """Console-script entry point."""
    app()
