"""What every document builder declares, and what it returns.

A builder is one module in this package with one `DOCUMENT` (or several, for kinds made the
same way): the kind of document it makes, the files it writes, how the linter reads each of
them, what it needs of the prepared case, whether the law requires it here, and the function
that makes it. `registry.py` lists them all; a build runs every one whose document is required.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from generator.findings import Finding
from generator.hashing import sha256_bytes
from generator.kinds import DocumentKind, Format

if TYPE_CHECKING:
    from generator.render.templates import Templates

# What a builder may need of a prepared case (declared, and listed in docs/documents.md).
NEEDS = ("case", "plan", "schedule", "recipients", "map", "newspaper profile")


@dataclass(frozen=True)
class Output:
    """One rendered file of a packet."""

    kind: DocumentKind
    format: Format
    path: str
    data: bytes
    rules: tuple[str, ...] = ()  # the rules that require the document

    @property
    def sha256(self) -> str:
        """The file's sha256."""
        return sha256_bytes(self.data)


@dataclass(frozen=True)
class Built:
    """What a builder made, and what it found while making it."""

    outputs: tuple[Output, ...] = ()
    findings: tuple[Finding, ...] = ()

    def __add__(self, other: Built) -> Built:
        return Built(self.outputs + other.outputs, self.findings + other.findings)


@dataclass(frozen=True)
class File:
    """A file a builder writes: its name (`{name}` is the planned document's name) and format.

    `lint` is the kind of notice the linter reads the file as; None when it is not a notice
    (lists, labels, proofs, the schedule).
    """

    pattern: str  # e.g. "{name}.pdf", "{name}-poster.pdf", "labels.pdf"
    format: Format
    lint: DocumentKind | None = None

    def matches(self, stem: str, kind: DocumentKind) -> bool:
        """Whether a file name stem (without `.edited-N` and extension) is one of these files."""
        name = rf"{re.escape(kind.value)}(?:-[a-z0-9][a-z0-9.-]*?)?"
        pattern = re.escape(self.pattern.rsplit(".", 1)[0]).replace(r"\{name\}", name)
        return re.fullmatch(pattern, stem) is not None


# What a builder makes documents of: a prepared case, or a prepared agenda (`generator.agenda`).
P = TypeVar("P")


@dataclass(frozen=True)
class DocumentType(Generic[P]):
    """One kind of document the product makes, declared once."""

    kind: DocumentKind
    summary: str  # what it is, for the documents reference
    files: tuple[File, ...]
    needs: tuple[str, ...]  # parts of the prepared case it reads (see NEEDS)
    required: Callable[[P], bool]  # whether the law requires it for this case
    build: Callable[[P, Templates], Built]

    def __post_init__(self) -> None:
        unknown = [n for n in self.needs if n not in NEEDS]
        if unknown:
            raise ValueError(f"{self.kind}: unknown needs {unknown}; known: {NEEDS}")
