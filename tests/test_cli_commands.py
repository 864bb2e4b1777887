"""The command table of `generator.cli` and the command modules in `generator/commands/` agree.

`notices --help` lists the commands from the table without importing them (tests/test_startup.py
and bench/startup.py say why), so nothing else would notice a command the table leaves out,
or a first line of help that changed in the module but not in the table. In a terminal of 80
columns or more generator/entry.py prints the page without click at all: it must be click's page.
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import subprocess
import sys

import click
import click.formatting
import pytest

import generator.commands
from generator import entry
from generator.cli import COMMANDS, app

from .conftest import ROOT
from .test_startup import modules


def _defined() -> dict[str, str]:
    """Every click command the command modules define: its name -> "module:object"."""
    found = {}
    for info in pkgutil.iter_modules(generator.commands.__path__):
        module = importlib.import_module(f"generator.commands.{info.name}")
        for attr, value in vars(module).items():
            if isinstance(value, click.Command) and value.callback.__module__ == module.__name__:
                assert value.name not in found, f"two commands named {value.name!r}"
                found[value.name] = f"{module.__name__}:{attr}"
    return found


def test_the_table_lists_every_command_module_defines() -> None:
    assert {name: where for name, (where, _) in COMMANDS.items()} == _defined()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_table_holds_the_first_paragraph_of_each_commands_help(name: str) -> None:
    command = app.get_command(click.Context(app), name)
    assert command is not None and command.name == name
    first = inspect.cleandoc(command.help or "").split("\n\n")[0]
    assert " ".join(COMMANDS[name][1].split()) == " ".join(first.split())


def _click_help(group: click.Group, prog: str, columns: int) -> str:
    """What click prints for `PROG --help` in a terminal `columns` wide."""
    ctx = click.Context(group, info_name=prog, **group.context_settings)
    width = max(min(columns, 80) - 2, 50)  # click.formatting.HelpFormatter's
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(click.formatting, "FORCED_WIDTH", width)
        return group.get_help(ctx) + "\n"


@pytest.mark.parametrize("columns", [40, 60, 79, 80, 200])
def test_help_lists_the_commands_as_click_would(columns: int) -> None:
    """The lazy listing against click's own, from the imported commands, at several widths."""
    eager = click.Group(
        app.name,
        commands=[app.get_command(click.Context(app), n) for n in COMMANDS],
        params=app.params,
        help=app.help,
        context_settings=app.context_settings,
    )
    lazy = _click_help(app, "notices", columns)
    assert "Commands:" in lazy
    assert lazy == _click_help(eager, "notices", columns)


@pytest.mark.parametrize("prog", ["notices", "python -m generator"])
@pytest.mark.parametrize("columns", ["80", "200", "", "0"])
def test_the_kept_help_page_is_clicks(
    prog: str, columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """generator/entry.py's page, where it answers, is click's page; if this fails, copy
    click's (printed in the diff) into `entry.PAGE`."""
    monkeypatch.setenv("COLUMNS", columns)  # "" and "0": no terminal under pytest, so 80
    for args in (["--help"], ["-h"]):
        assert entry.help_page(args, prog) == _click_help(app, prog, 80)


def test_the_kept_help_page_leaves_the_rest_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "79")  # click would shorten the lines more
    assert entry.help_page(["--help"], "notices") is None
    monkeypatch.setenv("COLUMNS", "80")
    assert entry.help_page(["--help"], "notices") is not None
    assert entry.help_page(["--help"], "n" * 41) is None  # the usage line would wrap
    for args in ([], ["--version"], ["build", "--help"], ["--help", "build"]):
        assert entry.help_page(args, "notices") is None
    monkeypatch.setenv("_NOTICES_COMPLETE", "bash_complete")  # the shell asks for completions
    assert entry.help_page(["--help"], "notices") is None


def test_python_m_generator_help_imports_no_click() -> None:
    run = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "generator", "--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "100"},
    )
    imported = {line.rsplit("|", 1)[-1].strip() for line in run.stderr.splitlines()}
    assert "generator.entry" in imported
    assert not {m for m in imported if m.split(".")[0] == "click"}
    assert run.stdout == _click_help(app, "python -m generator", 100)


@pytest.mark.parametrize(
    ("args", "loaded"),
    [
        (["--help"], []),
        (["--version"], []),
        (["schedule", "--help"], ["generator.commands.schedule"]),
        (["continue", "-h"], ["generator.commands.continue_"]),
    ],
)
def test_only_the_command_asked_for_is_imported(args: list[str], loaded: list[str]) -> None:
    assert [m for m in modules(*args) if m.startswith("generator.commands.")] == loaded
