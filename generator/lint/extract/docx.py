"""Word notices (.docx): the package opened safely, its styles and comments read, its body parsed."""

from __future__ import annotations

import itertools
import posixpath
import re
import zipfile
from pathlib import Path
from typing import Any

from generator.lint import limits
from generator.lint.extract.blocks import Extracted, _fail, _head, _squash
from generator.lint.extract.docx_body import _DocxReader

_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_HEADING_NAME = re.compile(r"heading|title", re.IGNORECASE)


def _docx_styles(xml: bytes | None, ns: str) -> dict[str, str]:
    """Paragraph style id -> block kind, following each style's `basedOn` chain."""
    if xml is None:
        return {}
    root = _xml(xml)
    info: dict[str, tuple[str, str | None, bool, bool]] = {}
    default = ""
    for style in root.iter(ns + "style"):
        if style.get(ns + "type") != "paragraph":
            continue
        ident = style.get(ns + "styleId", "")
        name_el = style.find(ns + "name")
        name = name_el.get(ns + "val", "") if name_el is not None else ident
        based = style.find(ns + "basedOn")
        level = style.find(f"{ns}pPr/{ns}outlineLvl")
        outline = level is not None and level.get(ns + "val", "9") not in ("9",)
        numbered = style.find(f"{ns}pPr/{ns}numPr/{ns}numId")
        listed = numbered is not None and numbered.get(ns + "val") != "0"
        info[ident] = (
            name,
            based.get(ns + "val") if based is not None else None,
            outline,
            listed or "list" in name.lower(),
        )
        if style.get(ns + "default") in ("1", "true"):
            default = ident

    def kind_of(ident: str) -> str:
        seen = set()
        heading = listed = caption = False
        current: str | None = ident
        first = True
        while current in info and current not in seen:
            seen.add(current)
            name, based, outline, is_list = info[current]
            # Only the style's own name speaks for it; "Normal" under a heading means nothing.
            if first and (_HEADING_NAME.search(name) or _HEADING_NAME.search(current)):
                heading = True
            caption |= first and "caption" in name.lower()
            heading |= outline
            listed |= is_list
            first = False
            current = based
        if heading:
            return "heading"
        if listed:
            return "list-item"
        return "caption" if caption else "paragraph"

    kinds = {ident: kind_of(ident) for ident in info}
    kinds[""] = kinds.get(default, "paragraph")
    return kinds


def _xml(data: bytes) -> Any:
    from lxml import etree

    # No entity expansion and no network: a document is untrusted input. Without `huge_tree`
    # libxml2 refuses nesting deeper than 256 (Word nests a few levels), which keeps the body
    # reader's recursion within Python's limit.
    parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_comments=True)
    return etree.fromstring(data, parser=parser)


class _Package:
    """The parts of a Word file, read within the limits: sizes and ratios checked before expanding."""

    def __init__(self, path: Path, archive: zipfile.ZipFile) -> None:
        entries = archive.infolist()
        if len(entries) > limits.DOCX_ENTRIES:
            limits.over(
                path,
                f"the Word file has {len(entries):,} parts, over the {limits.DOCX_ENTRIES:,}"
                " the linter reads",
            )
        self.path, self.archive = path, archive
        self.entries = {e.filename: e for e in entries}
        self.left = limits.DOCX_BYTES  # what more the linter will expand of this file

    def read(self, name: str) -> bytes:
        """The part `name`, expanded, if it fits what is left to read."""
        entry, most = self.entries[name], limits.size(limits.DOCX_BYTES)
        self.read_size_checks(entry)
        with self.archive.open(entry) as handle:
            data = handle.read(self.left + 1)  # whatever the entry claims to hold
        if len(data) > self.left:
            limits.over(self.path, f"its parts expand to more than {most}, the most it reads")
        self.left -= len(data)
        return data

    def read_size_checks(self, entry: zipfile.ZipInfo) -> None:
        """`LimitError` if the entry says it expands to more than is left, or too many-fold."""
        most = limits.size(limits.DOCX_BYTES)
        name = entry.filename
        if entry.file_size > self.left:
            limits.over(
                self.path,
                f"{name} expands to {limits.size(entry.file_size)}; the linter reads {most}"
                " of a Word file",
            )
        ratio = entry.file_size / max(entry.compress_size, 1)
        if entry.file_size > limits.DOCX_RATIO_FROM and ratio > limits.DOCX_RATIO:
            limits.over(
                self.path,
                f"{name} expands {ratio:,.0f}-fold ({limits.size(entry.compress_size)} to"
                f" {limits.size(entry.file_size)}), more than the {limits.DOCX_RATIO}:1 the"
                " linter reads: a zip bomb, not a notice",
            )

    def stream(self, name: str) -> _Counted:
        """The part `name` to read as it inflates, within what is left to read (as `read`)."""
        entry = self.entries[name]
        self.read_size_checks(entry)
        return _Counted(self, self.archive.open(entry))


class _Counted:
    """A part read as it inflates, counted against what is left to read of the Word file.

    Whatever the entry claims to hold, reading stops with `LimitError` past the limit.
    """

    def __init__(self, package: _Package, handle: Any) -> None:
        self.package, self.handle = package, handle

    def read(self, n: int = -1) -> bytes:
        """Up to `n` more bytes of the part (what a parser asks for)."""
        package = self.package
        data = self.handle.read(min(n, package.left + 1) if n >= 0 else package.left + 1)
        package.left -= len(data)
        if package.left < 0:
            most = limits.size(limits.DOCX_BYTES)
            limits.over(package.path, f"its parts expand to more than {most}, the most it reads")
        return data


def _docx_parts(path: Path, package: _Package) -> tuple[str, dict[str, str]]:
    """The main document part's name and its relationship targets by type suffix."""
    names = set(package.entries)
    main = "word/document.xml"
    if "_rels/.rels" in names:
        for rel in _xml(package.read("_rels/.rels")).iter(_REL + "Relationship"):
            if rel.get("Type", "").endswith("/officeDocument"):
                main = rel.get("Target", main).lstrip("/")
    if main not in names:
        _fail(path, "not a Word document (no main document part in the .docx package)")
    base = posixpath.dirname(main)
    rels_name = posixpath.join(base, "_rels", posixpath.basename(main) + ".rels")
    targets: dict[str, str] = {}
    if rels_name in names:
        for rel in _xml(package.read(rels_name)).iter(_REL + "Relationship"):
            if rel.get("TargetMode") == "External":
                continue
            target = rel.get("Target", "")
            full = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            targets[rel.get("Type", "").rsplit("/", 1)[-1]] = posixpath.normpath(full)
    return main, targets


def _docx_comments(xml: bytes | None, ns: str) -> dict[str, tuple[str, str | None]]:
    if xml is None:
        return {}
    comments = {}
    for comment in _xml(xml).iter(ns + "comment"):
        paragraphs = [
            "".join(t.text or "" for t in p.iter(ns + "t")) for p in comment.iter(ns + "p")
        ]
        text = _squash(" ".join(paragraphs))
        comments[comment.get(ns + "id", "")] = (text, comment.get(ns + "author") or None)
    return comments


def _extract_docx(path: Path, *, once: bool = False) -> Extracted:
    """The Word file's paragraphs; `once`: each text only where it first appears (a mail merge)."""
    from lxml import etree

    _head(path, 0)  # the plain read error first, before zipfile's less helpful one
    try:
        with zipfile.ZipFile(path) as archive:
            package = _Package(path, archive)
            main, targets = _docx_parts(path, package)
            # The body is parsed from the zip as it inflates, one top-level element at a time,
            # each dropped once read: a Word file of 10,000 letters (133 MB of XML, 400,000
            # paragraphs) never stands whole in memory. Only the elements the reading turns on
            # raise events (`_EVENTS`), so Python sees thousands of them, not millions.
            events = etree.iterparse(
                package.stream(main),
                events=("start", "end"),
                tag=_EVENTS,
                resolve_entities=False,
                no_network=True,
                remove_comments=True,
            )

            def part(kind: str) -> bytes | None:
                name = targets.get(kind)
                return package.read(name) if name and name in package.entries else None

            first = next(events, None)
            if first is None:  # not even a paragraph
                return _fail(path, "not a Word document (its main part has no document body)")
            root = first[1].getroottree().getroot()
            ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
            styles = _docx_styles(part("styles"), ns)
            comments = _docx_comments(part("comments"), ns)
            if root.tag != ns + "document":
                return _fail(path, "not a Word document (its main part has no document body)")
            reader = _DocxReader(ns, comments, styles, once=once)
            body, pictures = _read_body(events, first, root, ns, reader)
    except zipfile.BadZipFile:
        return _fail(path, "not a .docx file (not a zip package; is it a renamed .doc or PDF?)")
    except (etree.XMLSyntaxError, KeyError, ValueError, EOFError, StopIteration) as exc:
        return _fail(path, f"damaged .docx file ({exc})")
    except (zipfile.LargeZipFile, NotImplementedError, RuntimeError) as exc:
        return _fail(path, f"cannot open the .docx package ({exc})")
    if not body:
        return _fail(path, "not a Word document (its main part has no document body)")
    blocks, notes = reader.result()
    return Extracted(path, "docx", blocks, notes, has_image=pictures)


# What raises a parse event: the body, the paragraphs and tables that make up most of it (any
# other top-level element is read with the next of these, or with the body's end), pictures.
_EVENTS = ("{*}body", "{*}p", "{*}tbl", "{*}drawing", "{*}pict")


def _read_body(
    events: Any, first: Any, root: Any, ns: str, reader: _DocxReader
) -> tuple[bool, bool]:
    """Feed the first body's elements to `reader` as they are parsed, then drop them.

    Returns whether there was a body, and whether the document has a picture anywhere.
    """
    body_tag, pictures = ns + "body", (ns + "drawing", ns + "pict")
    body, found, seen = None, False, False
    read = None  # the last element read, still in the tree
    for event, el in itertools.chain([first], events):
        if event == "start":
            if el.tag == body_tag and not found and el.getparent() is root:
                body, found = el, True
            continue
        if not seen and el.tag in pictures:
            seen = True
        if body is not None and (el is body or el.getparent() is body):
            # Every element of the body up to this one is whole: read them, then drop them
            # (the last one emptied, not removed: the parser still adds its next sibling to it).
            children = list(body)
            if el is not body:  # the parser may be ahead: what follows is not whole yet
                children = children[: children.index(el) + 1]
            if read is not None:
                children = children[1:]
                body.remove(read)
            for child in children:
                reader.top(child)
                child.clear()
            for child in children[:-1]:
                body.remove(child)
            read = children[-1] if children else None
            if el is body:
                body = None  # a later body is not read, as `root.find` found the first only
    return found, seen
