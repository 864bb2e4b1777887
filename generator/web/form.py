"""The case form, generated from the case schema, and the form's answers turned back into a case.

Nothing here names a field of the case: the form is walked out of the pydantic model (`Case`),
so a field added to the schema appears in the form with its description as help text. Each
input's name is the field's dotted path (`hearings.0.date`).

Reading the answers starts from the case file's own data and changes only what the clerk
changed: a value shown and sent back as it was keeps its original type and spelling, an empty
answer leaves a field out, and keys the form does not show stay as they were. Saving then edits
the YAML in place (ruamel.yaml's round trip), so comments, key order and the formatting of
untouched parts are kept; an unchanged case is not rewritten at all.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date, time
from enum import Enum
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo
from pydantic_core import PydanticUndefined

from generator.errors import Problem, UserError
from generator.models.base import TITLE
from generator.yamlio import loads

MISSING: Any = object()  # an answer that leaves the field out of the case

# How the form shows a field: one input per scalar, a fieldset per model, a repeated group per
# list of models; what fits no input (a mapping, a union of shapes) is edited as YAML text.
Kind = Literal[
    "text",
    "textarea",
    "date",
    "time",
    "number",
    "select",
    "checkbox",
    "yesno",
    "lines",
    "choices",
    "tuple",
    "yaml",
    "group",
    "list",
]

_INT = re.compile(r"[-+]?\d+\Z")
_FLOAT = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\Z")
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}\Z")
_HH_MM = re.compile(r"\d{2}:\d{2}\Z")


@dataclass
class Node:
    """One field of the form: its place, how it is shown, and what it holds now."""

    path: str
    key: str
    label: str
    help: str | None
    kind: Kind
    required: bool
    value: Any = ""
    choices: list[str] = field(default_factory=list)
    children: list[Node] = field(default_factory=list)  # a group's fields, a list's items
    item: str = ""  # a list's item, in words ("hearing")
    errors: list[str] = field(default_factory=list)
    present: bool = False  # the case file states it
    given: bool = False  # a group the case file states, if only as `{}`

    @property
    def id(self) -> str:
        """The input's id: the dotted path with `-` for `.`."""
        return self.path.replace(".", "-")

    @property
    def input_type(self) -> str:
        """The HTML input type: a date or time picker only for a value it can show."""
        if self.kind == "date":
            return "date" if not self.value or _ISO_DATE.match(self.value) else "text"
        if self.kind == "time":
            return "time" if not self.value or _HH_MM.match(self.value) else "text"
        if self.kind == "number":
            return "number" if not self.value or _FLOAT.match(self.value) else "text"
        return "text"

    @property
    def open(self) -> bool:
        """Whether a group is shown open: required, stated in the case, or with an error."""
        return self.required or self.present or self.has_errors

    @property
    def has_errors(self) -> bool:
        """Whether this field or one inside it has an error."""
        return bool(self.errors) or any(c.has_errors for c in self.children)

    def walk(self) -> typing.Iterator[Node]:
        """This node and every node inside it."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Shape:
    """A field's annotation reduced to what the form needs."""

    kind: Kind
    model: type[BaseModel] | None = None
    choices: tuple[Any, ...] = ()
    size: int = 0  # a tuple's length
    number: type = str  # int or float: how a number's text is read


def shape(annotation: Any, metadata: list[Any] | None = None) -> Shape:
    """How the form shows a field of type `annotation`."""
    ann, meta = _unwrap(annotation, list(metadata or []))
    origin = get_origin(ann)
    if isinstance(ann, type) and issubclass(ann, BaseModel):
        return Shape("group", model=ann)
    if origin in (list, set, frozenset):
        (inner,) = get_args(ann) or (Any,)
        inner, _ = _unwrap(inner, [])
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            return Shape("list", model=inner)
        if isinstance(inner, type) and issubclass(inner, Enum):
            return Shape("choices", choices=tuple(m.value for m in inner))
        if get_origin(inner) is Literal:
            return Shape("choices", choices=get_args(inner))
        if inner in (str, int, float):
            return Shape("lines")
        return Shape("yaml")
    if origin is tuple:
        args = [a for a in get_args(ann) if a is not Ellipsis]
        kinds = {_unwrap(a, [])[0] for a in args}
        if args and Ellipsis not in get_args(ann) and kinds <= {int, float}:
            return Shape("tuple", size=len(args), number=float if float in kinds else int)
        return Shape("yaml")
    if origin is Literal:
        return Shape("select", choices=get_args(ann))
    if isinstance(ann, type) and issubclass(ann, Enum):
        return Shape("select", choices=tuple(m.value for m in ann))
    if ann is bool:
        optional = _optional(annotation)
        return Shape("yesno" if optional else "checkbox")
    if ann in (int, float):
        return Shape("number", number=ann)
    if ann is date:
        return Shape("date")
    if ann is time:
        return Shape("time")
    if ann is str:
        longest = max((m.max_length for m in meta if getattr(m, "max_length", None)), default=0)
        return Shape("textarea" if longest > TITLE else "text")
    return Shape("yaml")


def _unwrap(annotation: Any, meta: list[Any]) -> tuple[Any, list[Any]]:
    """The annotation without `Optional` and `Annotated`, and the constraints gathered."""
    while True:
        origin = get_origin(annotation)
        if origin is typing.Annotated:
            annotation, *extra = get_args(annotation)
            for item in extra:
                meta.extend(item.metadata if isinstance(item, FieldInfo) else [item])
        elif origin in (Union, types.UnionType):
            inner = [a for a in get_args(annotation) if a is not type(None)]
            if len(inner) != 1:
                return annotation, meta
            annotation = inner[0]
        else:
            return annotation, meta


def _optional(annotation: Any) -> bool:
    while get_origin(annotation) is typing.Annotated:
        annotation = get_args(annotation)[0]
    return get_origin(annotation) in (Union, types.UnionType) and type(None) in get_args(annotation)


def _fields(model: type[BaseModel]) -> list[tuple[str, FieldInfo, Shape]]:
    """A model's fields as the case file names them (an alias wins), with their shapes."""
    return [
        (info.alias or name, info, shape(info.annotation, info.metadata))
        for name, info in model.model_fields.items()
    ]


def _words(key: str) -> str:
    return key.replace("_", " ")


def _label(key: str) -> str:
    words = _words(key)
    return words[:1].upper() + words[1:]


def _singular(key: str) -> str:
    words = _words(key)
    if words.endswith("ies"):
        return words[:-3] + "y"
    return words[:-1] if words.endswith("s") and not words.endswith("ss") else words


# ---------------------------------------------------------------------------------------------
# The case's data -> the form


EXTRA = "__more"  # the name, under a model that allows keys of its own, of those keys as YAML


def build(model: type[BaseModel], data: Any, prefix: str = "") -> list[Node]:
    """The form's fields for `model`, holding the values of `data` (the case file's, as read)."""
    data = data if isinstance(data, dict) else {}
    nodes = [_node(key, info, sh, data, f"{prefix}{key}") for key, info, sh in _fields(model)]
    if _open(model):
        more = _extras(model, data)
        nodes.append(
            Node(
                path=f"{prefix}{EXTRA}",
                key=EXTRA,
                label=f"More {_words(model.__name__.lower())}",
                help=_first_line(model.__doc__),
                kind="yaml",
                required=False,
                value=_yaml_text(more) if more else "",
                present=bool(more),
            )
        )
    return nodes


def _open(model: type[BaseModel]) -> bool:
    """Whether the model takes keys beyond its fields (the options a pack declares)."""
    return model.model_config.get("extra") == "allow"


def _extras(model: type[BaseModel], data: dict[str, Any]) -> dict[str, Any]:
    known = {key for key, _, _ in _fields(model)}
    return {k: v for k, v in data.items() if k not in known}


def _first_line(text: str | None) -> str | None:
    return " ".join((text or "").split("\n\n")[0].split()) or None


def _as_written(sh: Shape, value: Any) -> Shape:
    """A model written in a short form (`hearing: council`) is edited as the YAML it is."""
    if (
        sh.kind in ("group", "list")
        and value is not None
        and not isinstance(value, dict if sh.kind == "group" else list)
    ):
        return Shape("yaml")
    return sh


def _node(key: str, info: FieldInfo, sh: Shape, data: dict[str, Any], path: str) -> Node:
    present = key in data
    value = data.get(key)
    sh = _as_written(sh, value)
    node = Node(
        path=path,
        key=key,
        label=_label(key),
        help=info.description,
        kind=sh.kind,
        required=info.is_required(),
        present=present and value not in (None, {}, []),
        given=isinstance(value, dict),
    )
    if sh.kind == "group" and sh.model:
        node.children = build(sh.model, value, f"{path}.")
    elif sh.kind == "list" and sh.model:
        node.item = _singular(key)
        items = value if isinstance(value, list) else []
        for i, item in enumerate(items):
            child = Node(
                path=f"{path}.{i}",
                key=str(i),
                label=f"{_label(node.item)} {i + 1}",
                help=None,
                kind="group",
                required=True,
            )
            child.children = build(sh.model, item, f"{path}.{i}.")
            node.children.append(child)
    elif sh.kind == "tuple":
        parts = value if isinstance(value, (list, tuple)) else []
        node.value = [_text(parts[i]) if i < len(parts) else "" for i in range(sh.size)]
    elif sh.kind == "choices":
        node.choices = [str(c) for c in sh.choices]
        node.value = [str(v) for v in value] if isinstance(value, list) else []
    elif sh.kind == "lines":
        node.value = "\n".join(map(_text, value)) if isinstance(value, list) else _text(value)
    elif sh.kind == "select":
        node.choices = [str(c) for c in sh.choices]
        node.value = _text(value)
    elif sh.kind == "checkbox":
        default = info.default if info.default is not PydanticUndefined else False
        node.value = value if isinstance(value, bool) else bool(default)
    elif sh.kind == "yesno":
        node.value = value if isinstance(value, bool) else _text(value)
    elif sh.kind == "yaml":
        node.value = _yaml_text(value) if present else ""
    else:
        node.value = _text(value)
    return node


def _text(value: Any) -> str:
    """A scalar as an input shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _yaml_text(value: Any) -> str:
    """A value no input fits, as YAML text to edit."""
    if not isinstance(value, (dict, list)):
        return _text(value)
    out = io.StringIO()
    _yaml().dump(value, out)
    return out.getvalue()


def place_errors(nodes: list[Node], problems: list[Problem]) -> list[tuple[Problem, str | None]]:
    """Put each problem at its field (or the nearest enclosing one); with the id it went to."""
    by_path = {n.path: n for top in nodes for n in top.walk()}
    placed: list[tuple[Problem, str | None]] = []
    for problem in problems:
        path = form_path(problem.field)
        while path and path not in by_path:
            path = path.rpartition(".")[0]
        node = by_path.get(path) if path else None
        if node:
            node.errors.append(str(problem))
        placed.append((problem, node.id if node else None))
    return placed


def form_path(field_path: str) -> str:
    """A problem's field (`hearings[0].date`) as the form names it (`hearings.0.date`)."""
    return re.sub(r"\[(\d+)\]", r".\1", field_path)


# ---------------------------------------------------------------------------------------------
# The form's answers -> the case's data


class Answers:
    """The submitted form: one text per name, or every value for repeated names."""

    def __init__(self, items: list[tuple[str, str]]) -> None:
        self.one: dict[str, str] = {}
        self.many: dict[str, list[str]] = {}
        for name, value in items:
            value = value.replace("\r\n", "\n").replace("\r", "\n")
            self.one.setdefault(name, value)
            self.many.setdefault(name, []).append(value)
        self.problems: list[tuple[str, str]] = []  # (path, message) of answers not read

    def get(self, name: str) -> str:
        """The text sent for `name` ("" if none)."""
        return self.one.get(name, "")

    def has_prefix(self, prefix: str) -> bool:
        """Whether any answer is inside `prefix`."""
        return any(name.startswith(prefix) for name in self.one)


def case_data(model: type[BaseModel], answers: Answers, data: Any, prefix: str = "") -> dict:
    """The case data the answers give, starting from `data` (the case file's as read)."""
    before = data if isinstance(data, dict) else {}
    out = dict(before)  # keys the form does not show are kept as they are
    for key, info, sh in _fields(model):
        path = f"{prefix}{key}"
        value = _answer(key, info, sh, answers, before, path)
        if value is MISSING:
            out.pop(key, None)
        else:
            out[key] = value
    if _open(model) and f"{prefix}{EXTRA}" in answers.one:
        old = _extras(model, before)
        text = answers.get(f"{prefix}{EXTRA}")
        more = old
        if text.strip() != (_yaml_text(old) if old else "").strip():
            try:
                more = loads(text, f"{prefix}{EXTRA}").data if text.strip() else {}
            except UserError as exc:
                answers.problems.append((f"{prefix}{EXTRA}", _said(exc)))
            if not isinstance(more, dict):
                answers.problems.append((f"{prefix}{EXTRA}", "write one `name: value` a line"))
                more = old
        for key in old:
            out.pop(key, None)
        out.update(more)
    return {key: out[key] for key in _ordered(model, before, out)}


def _ordered(model: type[BaseModel], before: dict, out: dict) -> list[str]:
    """The case file's order for its keys, then the schema's for new ones."""
    keys = [k for k in before if k in out]
    for key, _, _ in _fields(model):
        if key in out and key not in keys:
            keys.append(key)
    return keys + [k for k in out if k not in keys]


def _answer(key: str, info: FieldInfo, sh: Shape, answers: Answers, before: dict, path: str) -> Any:
    present = key in before
    old = before.get(key)
    sh = _as_written(sh, old)
    if sh.kind in ("group", "list") and path in answers.one:
        sh = Shape("yaml")  # shown as YAML (a short form), sent back as YAML
    if sh.kind == "group" and sh.model:
        if not answers.has_prefix(f"{path}."):
            return old if present else MISSING
        sub = case_data(sh.model, answers, old, f"{path}.")
        if sub:
            return sub
        if present and old in (None, {}):
            return old
        return {} if f"{path}.__given" in answers.one else MISSING
    if sh.kind == "list" and sh.model:
        count = answers.get(f"{path}.__len")
        if not _INT.match(count):
            return old if present else MISSING
        olds = old if isinstance(old, list) else []
        items = [
            case_data(sh.model, answers, olds[i] if i < len(olds) else {}, f"{path}.{i}.")
            for i in range(int(count))
        ]
        if present and items == olds:
            return old
        return items if items or present else MISSING
    if sh.kind == "checkbox":
        if f"{path}.__shown" not in answers.one:
            return old if present else MISSING
        checked = f"{path}" in answers.one
        if present:
            return old if old == checked else checked
        return MISSING if checked == info.default else checked
    if sh.kind == "choices":
        if f"{path}.__shown" not in answers.one:
            return old if present else MISSING
        picked = [c for c in answers.many.get(path, []) if c]
        chosen = [_choice(c, sh.choices) for c in picked]
        if present and isinstance(old, list) and [str(v) for v in old] == picked:
            return old
        return chosen if chosen or (present and old == []) else MISSING
    if sh.kind == "tuple":
        texts = [answers.get(f"{path}.{i}").strip() for i in range(sh.size)]
        if not any(texts):
            return old if present and old is None else MISSING
        if present and isinstance(old, list) and [_text(v) for v in old] == texts:
            return old
        return [_number(t, sh.number) for t in texts]
    if path not in answers.one:
        return old if present else MISSING
    text = answers.get(path)
    if sh.kind == "lines":
        lines = [line.strip() for line in text.split("\n") if line.strip()]
        if present and isinstance(old, list) and [_text(v) for v in old] == lines:
            return old
        return lines if lines or (present and old == []) else MISSING
    if sh.kind == "yaml":
        if present and text.strip() == _yaml_text(old).strip():
            return old
        if not text.strip():
            return MISSING
        try:
            return loads(text, path).data
        except UserError as exc:
            answers.problems.append((path, _said(exc)))
            return old if present else MISSING
    if text == "" or (sh.kind != "textarea" and not text.strip()):
        return None if present and old is None else MISSING
    if present and _text(old) == text:
        return old  # shown and sent back unchanged: its type and spelling are kept
    if sh.kind == "yesno":
        return {"true": True, "false": False}.get(text, text)
    if sh.kind == "select":
        return _choice(text, sh.choices)
    if sh.kind == "number":
        return _number(text.strip(), sh.number)
    return text


def _said(exc: UserError) -> str:
    """A YAML answer's problems, with the line within the answer."""
    return "; ".join(f"line {p.line}: {p.message}" if p.line else p.message for p in exc.problems)


def _choice(text: str, choices: tuple[Any, ...]) -> Any:
    """The choice whose text was sent (a Literal may hold a number)."""
    return next((c for c in choices if str(c) == text), text)


def _number(text: str, kind: type) -> Any:
    """A number as typed; text that is no number stays text, for the case's check to refuse."""
    if _INT.match(text):
        return int(text)
    if _FLOAT.match(text):
        return float(text)
    return text


def add_item(data: dict, path: str) -> dict:
    """The data with an empty item appended to the list at dotted `path`."""
    return _edit(data, path.split("."), lambda items: [*items, {}])


def remove_item(data: dict, path: str) -> dict:
    """The data without the list item at dotted `path` (`hearings.1`)."""
    where, _, index = path.rpartition(".")
    if not _INT.match(index):
        return data
    i = int(index)
    return _edit(data, where.split("."), lambda items: items[:i] + items[i + 1 :])


def _edit(data: Any, parts: list[str], change: typing.Callable[[list], list]) -> Any:
    if not parts:
        return change(data if isinstance(data, list) else [])
    head, *rest = parts
    if isinstance(data, list) and _INT.match(head) and int(head) < len(data):
        copy = list(data)
        copy[int(head)] = _edit(copy[int(head)], rest, change)
        return copy
    if isinstance(data, dict) or data is None:
        copy = dict(data or {})
        copy[head] = _edit(copy.get(head), rest, change)
        return copy
    return data


# ---------------------------------------------------------------------------------------------
# Writing: the YAML edited in place


def _yaml() -> Any:
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 100_000  # never fold a long line the clerk wrote on one
    yaml.indent(mapping=2, sequence=4, offset=2)  # the sample cases' style
    return yaml


def updated_text(text: str, before: Any, after: dict) -> str:
    """`text` (a case file's YAML, read as `before`) changed to hold `after`.

    Only what differs is touched: comments, key order and the spelling of every other value
    stay as they were. Text whose data does not change is returned as it is.
    """
    if after == before:
        return text
    yaml = _yaml()
    doc = yaml.load(text) if text.strip() else None
    from ruamel.yaml.comments import CommentedMap

    if not isinstance(doc, CommentedMap):
        doc = CommentedMap()
        before = {}
    _merge_map(doc, before if isinstance(before, dict) else {}, after)
    out = io.StringIO()
    yaml.dump(doc, out)
    return out.getvalue()


def _merge_map(node: Any, before: dict, after: dict) -> None:
    for key in [k for k in node if k not in after]:
        del node[key]
    for position, (key, value) in enumerate(after.items()):
        if key in node and key in before and before[key] == value:
            continue
        old = node.get(key)
        if isinstance(value, dict) and _is_map(old) and isinstance(before.get(key), dict):
            _merge_map(old, before[key], value)
        elif isinstance(value, list) and _is_seq(old) and isinstance(before.get(key), list):
            _merge_seq(old, before[key], value)
        elif key in node:
            node[key] = _node_value(value, old)
        else:
            node.insert(min(position, len(node)), key, _node_value(value, None))


def _merge_seq(node: Any, before: list, after: list) -> None:
    del node[len(after) :]
    for i, value in enumerate(after):
        if i >= len(node):
            node.append(_node_value(value, None))
            continue
        if i < len(before) and before[i] == value:
            continue
        old = node[i]
        if isinstance(value, dict) and _is_map(old) and isinstance(before[i], dict):
            _merge_map(old, before[i], value)
        elif isinstance(value, list) and _is_seq(old) and isinstance(before[i], list):
            _merge_seq(old, before[i], value)
        else:
            node[i] = _node_value(value, old)


def _is_map(node: Any) -> bool:
    from ruamel.yaml.comments import CommentedMap

    return isinstance(node, CommentedMap)


def _is_seq(node: Any) -> bool:
    from ruamel.yaml.comments import CommentedSeq

    return isinstance(node, CommentedSeq)


def _node_value(value: Any, old: Any) -> Any:
    """A value to put in the YAML: text keeps the old value's style; several lines are a block."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import LiteralScalarString, ScalarString

    if isinstance(value, dict):
        out = CommentedMap()
        for key, item in value.items():
            out[key] = _node_value(item, None)
        return out
    if isinstance(value, list):
        return CommentedSeq(_node_value(item, None) for item in value)
    if not isinstance(value, str):
        return value
    if isinstance(old, ScalarString) and ("\n" not in value or "\n" in old):
        return type(old)(value)
    if "\n" in value:
        return LiteralScalarString(value)
    if _ISO_DATE.match(value):
        try:
            return date.fromisoformat(value)  # written plain, as a person writes a date
        except ValueError:
            pass
    return value


def write_atomic(path: Path, text: str, *, exclusive: bool = False) -> None:
    """Write `path` whole or not at all: a temporary file beside it, then renamed over it.

    `exclusive`: a new file, never one that exists (FileExistsError): two clerks saving a new
    case under one id at once do not overwrite each other.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        if exclusive:
            os.link(temp, path)
        else:
            Path(temp).replace(path)
    finally:
        Path(temp).unlink(missing_ok=True)


def answers_of(form: Mapping[str, Any] | Any) -> Answers:
    """The answers of a Starlette form (its repeated names kept)."""
    return Answers([(k, v) for k, v in form.multi_items() if isinstance(v, str)])
