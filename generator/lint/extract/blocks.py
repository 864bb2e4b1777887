"""Located text: the `Block`s every reader turns a document into, and what the readers share.

`Extracted` joins the blocks into one text and maps an offset in it back to its block; `_fail`,
`_read` (`_head`) and `_squash` are the readers' common way to refuse a file, read it and collapse
whitespace.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from generator.errors import Problem, UserError
from generator.lint import limits


@dataclass(frozen=True)
class Block:
    """One paragraph (PDF: one text line) of a document, with where it sits."""

    number: int
    text: str
    page: int | None = None
    kind: str = "paragraph"
    clauses: tuple[str, ...] = ()
    line: int | None = None  # PDF only: the line's number on its page


@dataclass(frozen=True)
class Note:
    """A pending tracked change or a comment in a DOCX, anchored to a paragraph number."""

    kind: str
    number: int
    text: str
    author: str | None = None


@dataclass
class Extracted:
    """The text of one document as blocks, plus its pending edits; treat it as read-only."""

    path: Path
    format: str
    blocks: list[Block]
    notes: list[Note] = field(default_factory=list)
    pages: int | None = None
    # HTML and Word: whether it holds a picture (a PDF draws a map as paths: None, cannot tell)
    has_image: bool | None = None
    _index: tuple[int, int, str, list[int]] | None = field(
        default=None, init=False, repr=False, compare=False
    )

    def _built(self) -> tuple[str, list[int]]:
        # Rebuilt when the list is swapped or resized, so a stale cache cannot mislocate.
        key = (id(self.blocks), len(self.blocks))
        if self._index is None or self._index[:2] != key:
            starts, at = [], 0
            for block in self.blocks:
                starts.append(at)
                at += len(block.text) + 1
            self._index = (*key, "\n".join(b.text for b in self.blocks), starts)
        return self._index[2], self._index[3]

    @property
    def text(self) -> str:
        """All blocks joined by newlines: the text the checks search."""
        return self._built()[0]

    def locate(self, offset: int) -> Block:
        """The block holding character `offset` of `text` (a separator belongs to the block before it)."""
        text, starts = self._built()
        if not starts or offset < 0 or offset > len(text):
            raise IndexError(f"offset {offset} outside the text (length {len(text)})")
        return self.blocks[bisect.bisect_right(starts, offset) - 1]


def _fail(path: Path, message: str) -> NoReturn:
    raise UserError(Problem(str(path), None, None, "", message))


def _read(path: Path) -> bytes:
    """The whole file, if it is at most `limits.TEXT_BYTES` (`LimitError` otherwise)."""
    limit = limits.TEXT_BYTES
    data = _head(path, limit + 1)  # no more than the limit, whatever the file claims to hold
    if len(data) > limit:
        limits.over(path, f"the file is over {limits.size(limit)}, the most the linter reads")
    return data


def _head(path: Path, n: int) -> bytes:
    """The first `n` bytes of the file (none: only that it opens); `UserError` if it cannot be read."""
    try:
        with path.open("rb") as handle:
            return handle.read(n)
    except IsADirectoryError:
        return _fail(path, "is a directory, not a notice file")
    except OSError as exc:
        return _fail(path, f"cannot read the file: {exc.strerror or exc}")


def _squash(text: str) -> str:
    return " ".join(text.split())
