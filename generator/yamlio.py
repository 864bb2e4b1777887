"""Line-aware YAML loading.

Cases and rule packs are written by people, so every value keeps the line and column it came
from, and errors can point at it. Scalars follow the YAML 1.2 core schema: only `true`/`false`
are booleans, and dates, times like `19:00` and ids like `0042` stay strings, to be parsed
strictly by the models (PyYAML's 1.1 rules would read `19:00` as the number 1140).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from generator.errors import Problem, UserError, display_path

Loc = tuple[str | int, ...]

_INT = re.compile(r"[-+]?(0|[1-9][0-9_]*)\Z")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9][0-9_]*(\.[0-9]*)?)([eE][-+]?[0-9]+)?\Z")
_NULL = {"", "~", "null", "Null", "NULL"}


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
    """Read one YAML file; raise `UserError` on syntax errors and duplicate keys."""
    name = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise UserError(Problem(name, None, None, "", "file not found")) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(Problem(name, None, None, "", f"cannot read: {exc}")) from None
    return loads(text, name)


def loads(text: str, name: str) -> Located:
    """Parse YAML text that came from the file called `name`."""
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (None, None)
        msg = f"YAML syntax error: {exc.problem}"
        if exc.context:
            msg += f" ({exc.context})"
        raise UserError(Problem(name, line, col, "", msg)) from None
    except yaml.YAMLError as exc:
        raise UserError(Problem(name, None, None, "", f"YAML error: {exc}")) from None
    doc = Located(None, name)
    problems: list[Problem] = []
    doc.data = {} if node is None else _build(node, (), doc, problems)
    if problems:
        raise UserError(problems)
    return doc


def _pos(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _build(node: yaml.Node, loc: Loc, doc: Located, problems: list[Problem]) -> Any:
    doc.values[loc] = _pos(node)
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                problems.append(doc.problem(loc, "YAML merge keys (<<) are not supported"))
                continue
            key = _scalar(key_node) if isinstance(key_node, yaml.ScalarNode) else None
            if not isinstance(key, str):
                line, col = _pos(key_node)
                problems.append(Problem(doc.file, line, col, dotted(loc), "keys must be text"))
                continue
            child = (*loc, key)
            if key in out:
                line, col = _pos(key_node)
                first = doc.keys[child][0]
                problems.append(
                    Problem(
                        doc.file, line, col, dotted(child), f"duplicate key (first on line {first})"
                    )
                )
                continue
            doc.keys[child] = _pos(key_node)
            out[key] = _build(value_node, child, doc, problems)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*loc, i), doc, problems) for i, item in enumerate(node.value)]
    return _scalar(node)


def _scalar(node: yaml.ScalarNode) -> Any:
    value = node.value
    if node.style is not None or node.tag not in _PLAIN_TAGS:
        return value  # quoted or block scalars are always text
    if value in _NULL:
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if _INT.match(value):
        return int(value.replace("_", ""))
    if _FLOAT.match(value) and any(c.isdigit() for c in value):
        return float(value.replace("_", ""))
    return value


# Tags PyYAML's resolver assigns to plain scalars; we re-resolve them by the 1.2 core schema.
_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
}
