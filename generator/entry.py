"""`notices`, the console script: `notices --help` answered before click is imported.

Importing click costs about as much CPU as starting Python (bench/startup.py; under
`python -X importtime`: inspect, typing, uuid, datetime and click's own modules), so the page a
clerk asks for first is kept here as click prints it at its usual width (a terminal of 80
columns or more, or none); tests/test_cli_commands.py holds it to click's rendering. Every
other command line, and `--help` in a narrower terminal, goes to `generator.cli`.
"""

from __future__ import annotations

import os
import sys

# What click prints after "Usage: PROG" for `notices --help`, 78 columns wide (80 less margin).
PAGE = """\
 [OPTIONS] COMMAND [ARGS]...

  Zoning Notices: legal notice packets for zoning-amendment hearings.

Options:
  --version   Show the version and exit.
  -h, --help  Show this message and exit.

Commands:
  build       Build the notice packet of each CASE into OUT/<case-id>/...
  check       Judge CASE's record against the plan and the law: met,...
  continue    Re-notice the hearings CASE's record says were continued,...
  explain     Print a rule pack (JURISDICTION, or the pack of --case) as...
  lint        Check notices (TXT, HTML, PDF, DOCX files or packet...
  protest     Weigh a protest petition against CASE's pack: area, shares,...
  recipients  Write who must be notified of CASE, and the map:...
  redline     Write a lawyer's edits to a generated DOCX as tracked...
  returned    Record the letters CASE's record lists as returned...
  schedule    Print every deadline of CASE: the lawful window, newspaper...
  serve       Serve the clerk's web page over FOLDER (its cases/ and...
  votes       Print the favorable votes CASE's amendment needs, with the...
"""


def main() -> None:
    """Console-script entry point: the help page, or the command line as click runs it."""
    page = help_page(sys.argv[1:], _program_name())
    if page is None:
        from generator.cli import main as run

        run()
        return
    try:
        sys.stdout.write(page)
        sys.stdout.flush()
    except BrokenPipeError:  # the reader left (`notices --help | head -1`): exit 1, as click
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)


def help_page(args: list[str], prog: str | None) -> str | None:
    """The page click prints for `PROG ARGS`, or None where this copy of it could differ."""
    if args not in (["--help"], ["-h"]) or prog is None or len(prog) > 40:
        return None  # a long program name wraps the usage line
    complete = prog.replace("-", "_").replace(".", "_")
    if os.environ.get(f"_{complete}_COMPLETE".upper()):
        return None  # the shell asks click for completions
    if _columns() < 80:
        return None
    return f"Usage: {prog}{PAGE}"


def _program_name() -> str | None:
    """The program's name as click's `_detect_program_name` finds it (None: leave it to click)."""
    if os.name == "nt":
        return None
    # os.path as click has it: pathlib is not loaded yet when Python runs a console script.
    package = getattr(sys.modules["__main__"], "__package__", None)
    if not package:  # a script, like the console script `notices`
        return os.path.basename(sys.argv[0])  # noqa: PTH119
    name = os.path.splitext(os.path.basename(sys.argv[0]))[0]  # noqa: PTH119, PTH122
    module = package if name == "__main__" else f"{package}.{name}"
    return f"python -m {module.lstrip('.')}"


def _columns() -> int:
    """The terminal's width as `shutil.get_terminal_size`, which click asks, reports it."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80
