"""The error tree and the exit codes of DESIGN.md §6.

`UserError` covers mistakes in a case, a pack or the command line: the CLI prints each
`Problem` without a traceback and exits 2. Anything else that escapes is a bug (exit 70).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 70


@dataclass(frozen=True)
class Problem:
    """One problem in one input file, located as precisely as the input allows."""

    file: str
    line: int | None
    column: int | None
    field: str
    message: str

    def __str__(self) -> str:
        if not (self.file or self.field):
            return self.message  # about the command line, not a file
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        field = f" {self.field}:" if self.field else ""
        return f"{where}:{field} {self.message}"


class GeneratorError(Exception):
    """Root of every error this package raises on purpose."""

    exit_code = EXIT_INTERNAL


class UserError(GeneratorError):
    """Bad input: one or more problems, all reported at once, nothing written."""

    exit_code = EXIT_INPUT

    def __init__(self, problems: list[Problem] | Problem | str) -> None:
        if isinstance(problems, str):
            problems = [Problem("", None, None, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class RenderError(GeneratorError):
    """A template could not be rendered (a template or pack defect, not a case defect)."""

    exit_code = EXIT_INPUT


def shown(value: object, limit: int = 60) -> str:
    """`repr(value)` for a message, cut to about `limit` characters: a value may be huge."""
    text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 5]}...{text[-2:]}"


def display_path(path: Path) -> str:
    """Return `path` relative to the working directory when it lies below it."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)
