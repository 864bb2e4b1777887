"""The body of a Word document (document.xml), read as it reads with every tracked change accepted.

Paragraphs come out with their kinds and clause bookmarks; pending changes and comments become
notes anchored to the paragraph they fall in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.lint.extract.blocks import Block, Note, _squash

_MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
_WP = "{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}"
_MATH = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"


@dataclass
class _Para:
    """A paragraph as read, before empty ones are dropped and deleted marks merge it on."""

    kind: str
    parts: list[str] = field(default_factory=list)
    clauses: dict[str, None] = field(default_factory=dict)
    notes: list[list[Any]] = field(default_factory=list)  # [kind, text, author]
    mark_deleted: bool = False
    alt: list[str] = field(default_factory=list)  # pictures' alternative text
    alt_clauses: dict[str, None] = field(default_factory=dict)
    after: list[_Para] = field(default_factory=list)  # text-box paragraphs anchored here
    _text: str | None = None

    def text(self) -> str:
        """Its own text, whitespace squashed (once: a mail merge's paragraph recurs)."""
        if self._text is None:
            self._text = _squash("".join(self.parts))
        return self._text


@dataclass
class _Merge:
    """Paragraphs become blocks: merged where a mark was deleted, empty ones dropped, numbered.

    `once`: a paragraph whose text came before keeps its number but is left out, as a mail
    merge is read (each letter's own paragraphs, the body they share once).
    """

    once: bool
    blocks: list[Block] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    number: int = 0
    said: set[str] = field(default_factory=set)
    parts: list[str] = field(default_factory=list)
    alt: list[str] = field(default_factory=list)
    clauses: dict[str, None] = field(default_factory=dict)
    alt_clauses: dict[str, None] = field(default_factory=dict)
    pending: list[list[Any]] = field(default_factory=list)
    kind: str = ""

    def take(self, para: _Para, numbered: Callable[..., list[Note]]) -> None:
        """The next paragraph, in reading order."""
        alone = not (self.parts or self.alt)  # nothing carried on from a paragraph mark deleted
        self.parts.extend(para.parts)
        self.alt.extend(para.alt)
        self.clauses.update(para.clauses)
        self.alt_clauses.update(para.alt_clauses)
        self.pending.extend(para.notes)
        self.kind = self.kind or para.kind
        if para.mark_deleted:
            return  # accepted, the deletion joins this paragraph to the next one
        kind = self.kind
        text = para.text() if alone else _squash("".join(self.parts))
        if not text and self.alt:
            # A paragraph holding only pictures reads as their alternative text.
            text, kind = _squash(" ".join(self.alt)), "image"
            self.clauses.update(self.alt_clauses)
        if text:
            self.number += 1
            if not (self.once and (text in self.said or self.said.add(text))):
                self.blocks.append(Block(self.number, text, None, kind, tuple(self.clauses)))
            if self.pending:
                self.notes.extend(numbered(self.pending, self.number, text))
                self.pending = []
        self.parts, self.alt, self.clauses, self.alt_clauses, self.kind = [], [], {}, {}, ""


def _child(el: Any, tag: str) -> Any:
    """`el.find(tag)` for a plain tag, without the path machinery (it runs millions of times)."""
    return next(el.iterchildren(tag), None)


class _Tags(dict[str, str]):
    """Qualified tag names by local name, made on first use."""

    def __init__(self, ns: str) -> None:
        super().__init__()
        self.ns = ns

    def __missing__(self, local: str) -> str:
        self[local] = tag = self.ns + local
        return tag


class _DocxReader:
    """One pass over document.xml in body order, with the state that pass needs."""

    def __init__(
        self,
        ns: str,
        comments: dict[str, tuple[str, str | None]],
        styles: dict[str, str],
        *,
        once: bool = False,
    ) -> None:
        self.w = ns
        # `q("p")` is the qualified tag; looked up, not concatenated, as it runs millions of times
        self.q: Callable[[str], str] = _Tags(ns).__getitem__
        self.comments = comments
        self.styles = styles
        self.paras: list[_Para] = []
        self.current: _Para | None = None
        self.bookmarks: dict[str, str] = {}  # w:id -> clause id, open ones only
        self.untouched: dict[str, _Para] = {}  # open bookmarks no text has fallen in yet
        self.seen_comments: set[str] = set()
        self.waiting_notes: list[list[Any]] = []  # anchored between paragraphs
        # Top-level elements read and met again, by their bytes; the hashes of those met.
        self.done: dict[bytes, list[_Para]] = {}
        self.met: set[int] = set()
        self.merge = _Merge(once)
        from lxml import etree  # imported where a Word file is read, not with the linter

        self.tostring = etree.tostring

    # -- block level

    def top(self, el: Any) -> None:
        """One element of the body, read once for all its copies.

        A mail merge repeats the same paragraphs under every address: an element the same byte
        for byte as one read before, read from the same state (no bookmark open, no note waiting,
        no comment first met in it), gives the same paragraphs, so those are taken again.
        """
        if not isinstance(el.tag, str):
            return
        neutral = self.current is None and not (
            self.bookmarks or self.untouched or self.waiting_notes
        )
        key = None
        if neutral:
            key = self.tostring(el, with_tail=False)
            done = self.done.get(key)
            if done is not None:
                for para in done:
                    self.merge.take(para, self.numbered)
                return
        comments = len(self.seen_comments)
        self.blocks([el], None)
        if (
            key is not None
            and len(self.seen_comments) == comments
            and not (self.bookmarks or self.untouched or self.waiting_notes)
        ):
            # Kept from the second time on (a letter's own paragraphs are met once), and by
            # their bytes themselves, compared whole: no two elements are ever taken as alike.
            if hash(key) in self.met:
                self.done[key] = self.paras
            else:
                self.met.add(hash(key))
        self.flush()

    def blocks(self, container: Any, kind: str | None, include: bool = True) -> None:
        for el in container:
            tag = el.tag
            if not isinstance(tag, str):
                continue
            if tag == self.q("p"):
                self.paragraph(el, kind, include)
            elif tag == self.q("tbl"):
                self.table(el, include)
            elif tag in (self.q("sdt"), self.q("customXml")):
                content = _child(el, self.q("sdtContent")) if tag == self.q("sdt") else el
                if content is not None:
                    self.blocks(content, kind, include)
            elif tag in (self.q("ins"), self.q("moveTo")):
                self.blocks(el, kind, include)
            elif tag in (self.q("del"), self.q("moveFrom")):
                self.blocks(el, kind, False)
            elif tag == _MC + "AlternateContent":
                self.blocks(self.choice(el), kind, include)
            else:
                self.marker(el)

    def table(self, container: Any, include: bool) -> None:
        for el in container:
            tag = el.tag
            if tag == self.q("tr"):
                # Accepting a deleted row removes it, whatever its runs are marked as.
                deleted = el.find(f"{self.q('trPr')}/{self.q('del')}") is not None
                self.table(el, include and not deleted)
            elif tag == self.q("tc"):
                self.blocks(el, "table-cell", include)
            elif tag == self.q("sdt"):
                content = _child(el, self.q("sdtContent"))
                if content is not None:
                    self.table(content, include)
            elif tag == self.q("customXml"):
                self.table(el, include)
            elif isinstance(tag, str):
                self.marker(el)

    def choice(self, alternate: Any) -> list[Any]:
        # Word writes the same content twice (modern and legacy); read one copy only.
        chosen = _child(alternate, _MC + "Choice")
        if chosen is None:
            chosen = _child(alternate, _MC + "Fallback")
        return list(chosen) if chosen is not None else []

    # -- paragraphs

    def paragraph(self, p: Any, kind: str | None, include: bool) -> None:
        ppr = _child(p, self.q("pPr"))
        para = _Para(kind or self.para_kind(ppr))
        para.notes.extend(self.waiting_notes)
        self.waiting_notes = []
        if ppr is not None:
            mark = _child(ppr, self.q("rPr"))
            if mark is not None:
                for change in mark:
                    if change.tag in (self.q("ins"), self.q("del")):
                        verb = "insertion" if change.tag == self.q("ins") else "deletion"
                        para.notes.append([f"tracked_{verb}", "¶", self.author(change)])
                        para.mark_deleted |= verb == "deletion"
            change = _child(ppr, self.q("pPrChange"))
            if change is not None:
                para.notes.append(["tracked_format", None, self.author(change)])
        outer = self.current
        self.current = para
        if outer is None:
            self.paras.append(para)
        else:
            outer.after.append(para)
        try:
            self.inline(p, include)
        finally:
            self.current = outer
        if outer is None and para.after:
            self.paras.extend(self.flatten(para.after))

    def flatten(self, paras: list[_Para]) -> Iterator[_Para]:
        for para in paras:
            yield para
            yield from self.flatten(para.after)

    def para_kind(self, ppr: Any) -> str:
        if ppr is None:
            return self.styles.get("", "paragraph")
        if _child(ppr, self.q("outlineLvl")) is not None:
            level = _child(ppr, self.q("outlineLvl")).get(self.q("val"), "9")
            if level.isdigit() and int(level) < 9:
                return "heading"
        style = _child(ppr, self.q("pStyle"))
        kind = self.styles.get(style.get(self.q("val"), "") if style is not None else "", "")
        if kind != "heading":
            for num_pr in ppr.iterchildren(self.q("numPr")):
                numbered = _child(num_pr, self.q("numId"))
                if numbered is not None:  # the first numPr/numId, as a path find gives it
                    if numbered.get(self.q("val")) != "0":
                        return "list-item"
                    break
        return kind or "paragraph"

    def inline(self, container: Any, include: bool) -> None:
        for el in container:
            tag = el.tag
            if not isinstance(tag, str) or tag == self.q("pPr"):
                continue
            if tag == self.q("r"):
                self.run(el, include)
            elif tag in (self.q("ins"), self.q("moveTo")):
                kind = "tracked_insertion" if tag == self.q("ins") else "tracked_move_to"
                self.note(kind, self.plain(el, "t"), self.author(el))
                self.inline(el, include)
            elif tag in (self.q("del"), self.q("moveFrom")):
                if tag == self.q("del"):
                    self.note("tracked_deletion", self.plain(el, "delText"), self.author(el))
                else:
                    self.note("tracked_move_from", self.plain(el, "t"), self.author(el))
                self.inline(el, False)
            elif tag == self.q("sdt"):
                content = _child(el, self.q("sdtContent"))
                if content is not None:
                    self.inline(content, include)
            elif tag == _MC + "AlternateContent":
                self.inline(self.choice(el), include)
            elif tag == _MATH + "oMath" or tag == _MATH + "oMathPara":
                if include:
                    self.text("".join(t.text or "" for t in el.iter(_MATH + "t")))
            elif self.marker(el):
                continue
            elif tag not in (self.q("sdtPr"), self.q("sdtEndPr"), self.q("rPr")):
                # hyperlink, smartTag, customXml, fldSimple, dir, bdo …: read what is inside
                self.inline(el, include)

    def run(self, r: Any, include: bool) -> None:
        rpr = _child(r, self.q("rPr"))
        if rpr is not None:
            if _child(rpr, self.q("vanish")) is not None and _child(rpr, self.q("vanish")).get(
                self.q("val"), "true"
            ) not in ("0", "false", "off"):
                include = False  # hidden text is neither shown nor printed
            change = _child(rpr, self.q("rPrChange"))
            if change is not None:
                self.note("tracked_format", self.plain(r, "t"), self.author(change))
        for el in r:
            tag = el.tag
            if not isinstance(tag, str):
                continue
            local = tag[len(self.w) :] if tag.startswith(self.w) else ""
            if local == "t":
                if include:
                    self.text(el.text or "")
            elif local in ("tab", "ptab", "br", "cr"):
                if include:
                    self.text(" ")
            elif local == "noBreakHyphen":
                if include:
                    self.text("-")
            elif local == "sym":
                if include:
                    self.text(self.symbol(el))
            elif local == "commentReference":
                self.comment(el.get(self.q("id")))
            elif local in ("drawing", "pict", "object") or tag == _MC + "AlternateContent":
                self.drawing(el, include)

    def drawing(self, el: Any, include: bool) -> None:
        for box in self.textboxes(el):
            self.blocks(box, "text-box", include)
        if include and self.current is not None:
            for doc_pr in el.iter(_WP + "docPr"):
                description = (doc_pr.get("descr") or "").strip()
                if description:
                    self.current.alt.append(description)
                    self.current.alt_clauses.update(dict.fromkeys(self.bookmarks.values()))

    def textboxes(self, el: Any) -> Iterator[Any]:
        if not isinstance(el.tag, str):
            return
        if el.tag == self.q("txbxContent"):
            yield el
        elif el.tag == _MC + "AlternateContent":
            for chosen in self.choice(el):
                yield from self.textboxes(chosen)
        else:
            for child in el:
                yield from self.textboxes(child)

    def symbol(self, sym: Any) -> str:
        code = sym.get(self.q("char"), "")
        try:
            value = int(code, 16)
        except ValueError:
            return ""
        # Symbol-font glyphs sit in the private-use range F000-F0FF; the low byte is the
        # character in that font, which for the common ones (§, ©, bullets) is close enough.
        if 0xF000 <= value <= 0xF0FF:
            value -= 0xF000
        return chr(value) if value >= 0x20 else ""

    # -- markers: bookmarks, comments

    def marker(self, el: Any) -> bool:
        tag = el.tag
        if tag == self.q("bookmarkStart"):
            name = el.get(self.q("name"), "")
            if name.startswith("clause_"):
                mark = el.get(self.q("id"), "")
                self.bookmarks[mark] = name[len("clause_") :]
                if self.current is not None:
                    self.untouched[mark] = self.current
            return True
        if tag == self.q("bookmarkEnd"):
            mark = el.get(self.q("id"), "")
            clause = self.bookmarks.pop(mark, None)
            start = self.untouched.pop(mark, None)
            if clause and start is not None and start is self.current:
                # A point bookmark (no text inside): it still marks the paragraph holding it.
                self.current.clauses[clause] = None
            return True
        if tag == self.q("commentRangeStart"):
            self.comment(el.get(self.q("id")))
            return True
        return tag in (self.q("commentRangeEnd"), self.q("proofErr"), self.q("permStart"))

    def comment(self, ident: str | None) -> None:
        if ident is None or ident in self.seen_comments:
            return
        self.seen_comments.add(ident)
        text, author = self.comments.get(ident, ("", None))
        self.note("comment", text, author)

    # -- output

    def text(self, text: str) -> None:
        if self.current is None or not text:
            return
        self.current.parts.append(text)
        if (self.bookmarks or self.untouched) and not text.isspace():
            self.untouched.clear()
            self.current.clauses.update(dict.fromkeys(self.bookmarks.values()))

    def note(self, kind: str, text: str | None, author: str | None) -> None:
        target = self.current.notes if self.current is not None else self.waiting_notes
        target.append([kind, text, author])

    def plain(self, el: Any, local: str) -> str:
        return "".join(t.text or "" for t in el.iter(self.q(local)))

    def author(self, el: Any) -> str | None:
        return el.get(self.q("author")) or None

    def result(self) -> tuple[list[Block], list[Note]]:
        """The blocks and notes of every paragraph read (`flush`ed as it went)."""
        self.flush()
        merge = self.merge
        merge.pending.extend(self.waiting_notes)
        merge.notes.extend(self.numbered(merge.pending, merge.number, ""))
        merge.pending = []
        return merge.blocks, merge.notes

    def flush(self) -> None:
        """Merge the paragraphs read so far into blocks (whole: no element is open) and drop them."""
        merge = self.merge
        for para in self.paras:
            merge.take(para, self.numbered)
        self.paras = []

    @staticmethod
    def numbered(pending: list[list[Any]], number: int, text: str) -> list[Note]:
        return [
            Note(kind, number, text if said is None else _squash(said), author)
            for kind, said, author in pending
        ]
