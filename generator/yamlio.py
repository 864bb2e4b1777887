"""Line-aware YAML loading.

Cases and rule packs are written by people, so every value keeps the line and column it came
from, and errors can point at it. Scalars follow the YAML 1.2 core schema: only `true`/`false`
are booleans, and dates, times like `19:00` and ids like `0042` stay strings, to be parsed
strictly by the models (PyYAML's 1.1 rules would read `19:00` as the number 1140).

A case file comes from whoever sends one, so reading it is bounded before anything is parsed:
only a regular file (a FIFO would hang, `/dev/zero` never ends), at most `MAX_BYTES`, nested
at most `MAX_DEPTH` deep, with at most `MAX_ALIASES` aliases repeating at most
`MAX_REPEATED` values in all (a 400-byte "billion laughs" would otherwise expand to gigabytes).
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import Problem, UserError, display_path

Loc = tuple[str | int, ...]

_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_NULL = {"", "~", "null", "Null", "NULL"}

# The largest real inputs are rule packs of 40 KB and cases of 5 KB. 1 MB holds a case with the
# longest full text a case may give (120,000 characters) and two thousand parcels besides, and
# PyYAML's pure-Python parser (needed for positions and limits) reads it in about ten seconds.
MAX_BYTES = 1_000_000
# The deepest pack nests 10 levels; PyYAML's composer recurses, ~3 frames a level.
MAX_DEPTH = 50
# Aliases are allowed (an address written once, `*hall` after), within a budget.
MAX_ALIASES = 100
MAX_REPEATED = 10_000
# Escapes (`"\0"`, `"\ud800"`) can put into a value what a file cannot hold and no notice can print.
_UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_MAX_KEY = 200  # a field name; a key is printed in messages
_MAX_DIGITS = 30  # a number no field needs; Python refuses to read 4,300 digits at all


@dataclass
class Located:
    """A loaded YAML document and the position of every value and key in it."""

    data: Any
    file: str
    values: dict[Loc, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Loc, tuple[int, int]] = field(default_factory=dict)

    def problem(self, loc: Loc, message: str, *, at_key: bool = False) -> Problem:
        """Build a `Problem` at `loc`, falling back to the nearest enclosing value."""
        probe = tuple(loc)
        table = self.keys if at_key else self.values
        while probe and probe not in table and probe not in self.values:
            probe = probe[:-1]
        line_col = table.get(probe) or self.values.get(probe)
        line, col = line_col if line_col else (None, None)
        return Problem(self.file, line, col, dotted(loc), message)


def dotted(loc: Loc) -> str:
    """Write a location as a field path: `hearings[0].date`."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


def load(path: Path) -> Located:
    """Read one YAML file; raise `UserError` on syntax errors, duplicate keys and excess."""
    name = display_path(path)
    return loads(_read(path, name), name)


def _read(path: Path, name: str) -> str:
    """The text of a regular file of at most `MAX_BYTES`, read without blocking."""

    def refuse(message: str, line: int | None = None) -> UserError:
        return UserError(Problem(name, line, None, "", message))

    try:
        # Look before opening: opening a FIFO waits for a writer, and a device may never end.
        kind = _kind(path.stat().st_mode)
        if kind is None:
            # O_NONBLOCK: if the file was swapped for a FIFO since, open returns at once.
            flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
            with os.fdopen(os.open(path, flags), "rb") as file:
                kind = _kind(os.fstat(file.fileno()).st_mode)
                data = b"" if kind else file.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise refuse("file not found") from None
    except OSError as exc:
        raise refuse(f"cannot read: {exc.strerror or exc}") from None
    if kind:
        raise refuse(f"is {kind}, not a file: give the path of a YAML file")
    if len(data) > MAX_BYTES:
        raise refuse(
            f"is larger than {MAX_BYTES / 1e6:g} MB, the most a case or rule pack may be:"
            " is it the right file?"
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise refuse(
            f"is not UTF-8 text (byte 0x{data[exc.start]:02x}): save it as UTF-8", line
        ) from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


class _Excess(yaml.MarkedYAMLError):
    """The document goes beyond a limit of this module (not a YAML syntax error)."""


class _Loader(yaml.SafeLoader):
    """PyYAML's safe loader, refusing excess depth and aliases while it composes."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.depth = 0
        self.aliases = 0

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node:
        """Compose one node, counting its depth and aliases."""
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _Excess(
                    problem=f"more than {MAX_ALIASES} aliases (*name); write the values out",
                    problem_mark=self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise _Excess(
                    problem=f"nested more than {MAX_DEPTH} levels deep",
                    problem_mark=self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


def _fast_node(text: str) -> yaml.Node | bool | None:
    """The document's node by libyaml, or False where only the Python loader may answer.

    libyaml composes a rule pack ~15 times faster than PyYAML's Python parser, into the same
    nodes, marks and tags. It is asked only for a document it reads without error and within
    the limits (counted over its events first); anything else goes to `_Loader`, whose
    messages are the ones a user sees.
    """
    if not getattr(yaml, "__with_libyaml__", False) or _UNPRINTABLE.search(text):
        return False
    try:
        depth = deepest = aliases = 0
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, yaml.AliasEvent):
                aliases += 1
            elif isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                deepest = max(deepest, depth)
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        if aliases > MAX_ALIASES or deepest >= MAX_DEPTH:
            return False
        loader = yaml.CSafeLoader(text)
        try:
            return loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.YAMLError:
        return False


def loads(text: str, name: str) -> Located:
    """Parse YAML text that came from the file called `name`."""
    node = _fast_node(text)
    if node is not False:
        return _built(node, name)
    try:
        loader = _Loader(text)  # its reader refuses control characters at once
        try:
            node = loader.get_single_node()
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        msg = str(exc.problem) if isinstance(exc, _Excess) else f"YAML syntax error: {exc.problem}"
        if exc.context:
            msg += f" ({exc.context})"
        raise UserError(Problem(name, line, col, "", msg)) from None
    except yaml.reader.ReaderError as exc:
        line = text.count("\n", 0, exc.position) + 1
        col = exc.position - text.rfind("\n", 0, exc.position)
        char = exc.character if isinstance(exc.character, str) else chr(exc.character)
        raise UserError(
            Problem(name, line, col, "", f"the character U+{ord(char):04X} is not allowed in YAML")
        ) from None
    except yaml.YAMLError as exc:
        raise UserError(Problem(name, None, None, "", f"YAML error: {exc}")) from None
    return _built(node, name)


def _built(node: yaml.Node | None, name: str) -> Located:
    """The values of a composed document, each with its position; UserError on what is wrong."""
    doc = Located(None, name)
    builder = _Builder(doc)
    doc.data = {} if node is None else builder.build(node, ())
    if builder.problems:
        raise UserError(builder.problems)
    return doc


class _Builder:
    """Turns composed nodes into plain data, noting where each value came from.

    An alias makes the composed graph share a node; building expands it again, so the values
    built from a node already built count against `MAX_REPEATED`, and an alias inside the value
    it names (`&a [*a]`) is refused rather than followed for ever.
    """

    def __init__(self, doc: Located) -> None:
        self.doc = doc
        self.problems: list[Problem] = []
        self.built: set[int] = set()
        self.open: set[int] = set()
        self.repeated = 0

    def build(self, node: yaml.Node, loc: Loc, repeat: bool = False) -> Any:
        """The value of `node` at `loc`."""
        doc = self.doc
        doc.values[loc] = _pos(node)
        key = id(node)
        if key in self.open:
            self.problems.append(doc.problem(loc, "an alias names a value that contains it"))
            return None
        repeat = repeat or key in self.built
        self.built.add(key)
        if repeat:
            self.repeated += 1
            if self.repeated > MAX_REPEATED:
                raise UserError(
                    doc.problem(
                        loc, f"aliases repeat more than {MAX_REPEATED:,} values; write them out"
                    )
                )
        if isinstance(node, yaml.ScalarNode):
            return self.scalar(node, loc)
        self.open.add(key)
        try:
            if isinstance(node, yaml.SequenceNode):
                return [self.build(item, (*loc, i), repeat) for i, item in enumerate(node.value)]
            return self.mapping(node, loc, repeat)
        finally:
            self.open.discard(key)

    def mapping(self, node: yaml.MappingNode, loc: Loc, repeat: bool) -> dict[str, Any]:
        """A mapping with text keys, each once."""
        doc = self.doc
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self.problems.append(doc.problem(loc, "YAML merge keys (<<) are not supported"))
                continue
            key = self.scalar(key_node, loc) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str) or len(key) > _MAX_KEY:
                line, col = _pos(key_node)
                what = (
                    "keys must be text"
                    if not isinstance(key, str)
                    else "no field has so long a name"
                )
                self.problems.append(Problem(doc.file, line, col, dotted(loc), what))
                continue
            child = (*loc, key)
            if key in out:
                line, col = _pos(key_node)
                first = doc.keys[child][0]
                self.problems.append(
                    Problem(
                        doc.file, line, col, dotted(child), f"duplicate key (first on line {first})"
                    )
                )
                continue
            doc.keys[child] = _pos(key_node)
            out[key] = self.build(value_node, child, repeat)
        return out

    def scalar(self, node: yaml.ScalarNode, loc: Loc) -> Any:
        """A scalar by the YAML 1.2 core schema, or None after noting why it cannot be read."""
        value = node.value
        if bad := _UNPRINTABLE.search(value):
            line, col = _pos(node)
            self.problems.append(
                Problem(
                    self.doc.file,
                    line,
                    col,
                    dotted(loc),
                    f"contains the character U+{ord(bad[0]):04X}, which no notice can print",
                )
            )
            return None
        if node.style or node.tag not in _PLAIN_TAGS:  # plain: None, or "" from libyaml
            return value  # quoted or block scalars are always text
        if value in _NULL:
            return None
        if value in ("true", "True", "TRUE"):
            return True
        if value in ("false", "False", "FALSE"):
            return False
        if _INT.match(value) or (_FLOAT.match(value) and any(c.isdigit() for c in value)):
            if sum(c.isdigit() for c in value) > _MAX_DIGITS:
                line, col = _pos(node)
                self.problems.append(
                    Problem(
                        self.doc.file, line, col, dotted(loc), f"{value[:20]}...: number too long"
                    )
                )
                return None
            number = value.replace("_", "")
            return int(number) if _INT.match(value) else float(number)
        return value


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


# Tags PyYAML's resolver assigns to plain scalars; we re-resolve them by the 1.2 core schema.
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
