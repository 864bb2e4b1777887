"""The lawyer's redline: an edited Word draft against the generated one, and findings as comments.

`redline` builds on the EDITED document's own XML, so its styles, numbering and layout stay as the
editor left them: text the editor added is wrapped in `w:ins`, text the editor removed is put back
as `w:del` runs where it stood, each attributed to the editor on one reproducible date (the edited
file's own `lastModifiedBy` and `modified` properties, unless `--author` names someone). Paragraphs
are matched first, then words within each matched paragraph (difflib on word tokens). The linter's
findings on the edited draft become Word comments anchored on the paragraph they concern; a
finding about a clause the draft lacks is anchored where the clause's bookmark still stands, else
on the paragraph the generated notice held it in, else on the heading. `comment_copy` writes the
same comments into a copy of any draft (`notices lint DRAFT.docx --comments`). An HTML page shows
the same diff and findings in a browser.
"""

from __future__ import annotations

import copy
import difflib
import html
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from generator.errors import Problem, UserError
from generator.findings import Finding
from generator.lint.extract import extract
from generator.writer import write

_W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
_XML_SPACE = "{http://www.w3.org/XML/1998/namespace}space"
# Who writes the comments: the program, named as the product, never as a person.
COMMENTER = "Zoning Notices linter"
_INITIALS = "ZN"
_TOKEN = re.compile(r"\s+|[\w'’]+(?:[:.\-/][\w'’]+)*|[^\w\s]")
_SIMILAR = 0.5  # paragraphs at least this alike (difflib ratio) are one paragraph edited


def _q(local: str) -> str:
    return _W + local


# -- reading paragraphs -------------------------------------------------------------------------


def _pieces(run: Any) -> Iterator[tuple[Any, str]]:
    """The run's content children with the text each stands for (a tab or break is one space)."""
    for el in run:
        if el.tag == _q("t"):
            yield el, el.text or ""
        elif el.tag in (_q("tab"), _q("br"), _q("cr"), _q("ptab")):
            yield el, " "
        elif el.tag == _q("noBreakHyphen"):
            yield el, "-"


def _runs(p: Any) -> list[Any]:
    """The paragraph's text runs in order, inside hyperlinks and content controls too."""
    out = []
    for r in p.iter(_q("r")):
        if any(a.tag in (_q("del"), _q("moveFrom")) for a in r.iterancestors()):
            continue  # already deleted in the draft: not part of its text
        if r.getparent() is not None and next(r.iterancestors(_q("p"))) is p:
            out.append(r)
    return out


def _text(p: Any) -> str:
    return "".join(s for r in _runs(p) for _, s in _pieces(r))


def _paragraphs(body: Any) -> list[Any]:
    """The body's paragraphs in reading order (table cells included, text boxes not)."""
    return [p for p in body.iter(_q("p")) if next(p.iterancestors(_q("p")), None) is None]


def _squash(text: str) -> str:
    return " ".join(text.split())


# -- the edit's attribution ---------------------------------------------------------------------


@dataclass
class _Marks:
    """The ids of the tracked changes, and the author and date every change carries."""

    author: str
    when: str | None
    next_id: int = 0

    def change(self, tag: str) -> Any:
        from lxml import etree

        el = etree.Element(_q(tag))
        el.set(_q("id"), str(self.take()))
        el.set(_q("author"), self.author)
        if self.when:
            el.set(_q("date"), self.when)
        return el

    def take(self) -> int:
        self.next_id += 1
        return self.next_id


def _first_free_id(body: Any) -> int:
    """The highest id the draft uses for changes and bookmarks: new changes count on from it."""
    ids = [0]
    for el in body.iter(_q("ins"), _q("del"), _q("bookmarkStart"), _q("moveFrom"), _q("moveTo")):
        value = el.get(_q("id"), "")
        ids += [int(value)] if value.isdigit() else []
    return max(ids)


def _stamp(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.replace(microsecond=0).isoformat() + "Z"


# -- changing a paragraph -----------------------------------------------------------------------


def _split(run: Any, at: int) -> Any:
    """Cut `run` after `at` characters of its text; return the new run holding the rest."""
    rest = copy.deepcopy(run)
    texts = {el for el, _ in _pieces(rest)}
    for el in list(rest):
        if el not in texts and el.tag != _q("rPr"):
            rest.remove(el)  # a picture, field mark or note reference stays once, in the first part
    seen = 0
    for (el, text), (el2, _) in zip(list(_pieces(run)), list(_pieces(rest)), strict=True):
        end = seen + len(text)
        if end <= at:
            el2.getparent().remove(el2)
        elif seen >= at:
            el.getparent().remove(el)
        else:  # the cut falls inside this w:t
            el.text, el2.text = text[: at - seen], text[at - seen :]
            for t in (el, el2):
                t.set(_XML_SPACE, "preserve")
        seen = end
    run.addnext(rest)
    return rest


def _cut(p: Any, offsets: Iterable[int]) -> list[tuple[Any, int, int]]:
    """Split the paragraph's runs at `offsets` of its text; return each run with its span."""
    for at in sorted(set(offsets)):
        start = 0
        for r in _runs(p):
            length = sum(len(s) for _, s in _pieces(r))
            if start < at < start + length:
                _split(r, at - start)
                break
            start += length
    spans, start = [], 0
    for r in _runs(p):
        length = sum(len(s) for _, s in _pieces(r))
        spans.append((r, start, start + length))
        start += length
    return spans


def _deleted_run(text: str, like: Any | None) -> Any:
    """A run of deleted text, formatted as the run `like` is."""
    from lxml import etree

    r = etree.Element(_q("r"))
    rpr = like.find(_q("rPr")) if like is not None else None
    if rpr is not None:
        r.append(copy.deepcopy(rpr))
    t = etree.SubElement(r, _q("delText"))
    t.text = text
    t.set(_XML_SPACE, "preserve")
    return r


def _wrap(r: Any, wrapper: Any) -> None:
    r.addprevious(wrapper)
    wrapper.append(r)


def _mark_paragraph(p: Any, change: Any) -> None:
    """Mark the paragraph's own mark inserted or deleted (`w:pPr/w:rPr/w:ins|w:del`)."""
    from lxml import etree

    ppr = p.find(_q("pPr"))
    if ppr is None:
        ppr = etree.Element(_q("pPr"))
        p.insert(0, ppr)
    rpr = ppr.find(_q("rPr"))
    if rpr is None:
        rpr = etree.Element(_q("rPr"))
        later = [c for c in ppr if c.tag in (_q("sectPr"), _q("pPrChange"))]
        if later:
            later[0].addprevious(rpr)
        else:
            ppr.append(rpr)
    rpr.insert(0, change)


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _edit_paragraph(p: Any, old: str, marks: _Marks) -> None:
    """Mark, inside the edited paragraph `p`, how its text differs from `old`, word by word."""
    new = _text(p)
    a, b = _tokens(old), _tokens(new)
    a_at = [0]
    for tok in a:
        a_at.append(a_at[-1] + len(tok))
    b_at = [0]
    for tok in b:
        b_at.append(b_at[-1] + len(tok))
    ops = [
        op
        for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    spans = _cut(p, [b_at[j] for _, _, _, j1, j2 in ops for j in (j1, j2)])
    for tag, i1, i2, j1, j2 in reversed(ops):  # from the end, so earlier offsets hold
        start, end = b_at[j1], b_at[j2]
        if tag in ("insert", "replace"):
            for r, s, e in spans:
                if start <= s and e <= end and e > s:
                    _wrap(r, marks.change("ins"))
        if tag in ("delete", "replace"):
            gone = old[a_at[i1] : a_at[i2]]
            after = next((r for r, s, e in spans if s >= start and e > s), None)
            before = next((r for r, s, e in reversed(spans) if e <= start and e > s), None)
            deletion = marks.change("del")
            deletion.append(_deleted_run(gone, after if after is not None else before))
            anchor = after if after is not None else before
            if anchor is None:
                p.append(deletion)
            else:
                outer = anchor.getparent() if anchor.getparent().tag == _q("ins") else anchor
                (outer.addprevious if after is not None else outer.addnext)(deletion)


def _inserted_paragraph(p: Any, marks: _Marks) -> None:
    for r in _runs(p):
        _wrap(r, marks.change("ins"))
    _mark_paragraph(p, marks.change("ins"))


def _deleted_paragraph(old: Any, marks: _Marks) -> Any:
    """The generated paragraph `old`, with its style, as a paragraph the editor deleted."""
    from lxml import etree

    p = etree.Element(_q("p"))
    ppr = old.find(_q("pPr"))
    if ppr is not None:
        ppr = copy.deepcopy(ppr)
        for gone in ppr.findall(_q("sectPr")):
            ppr.remove(gone)  # a section break stays with the document the editor kept
        p.append(ppr)
    for r in _runs(old):
        text = "".join(s for _, s in _pieces(r))
        if text:
            deletion = marks.change("del")
            deletion.append(_deleted_run(text, r))
            p.append(deletion)
    _mark_paragraph(p, marks.change("del"))
    return p


# -- matching paragraphs ------------------------------------------------------------------------


@dataclass
class _Diff:
    """How the generated paragraphs became the edited ones."""

    # (kind, old paragraph or None, new paragraph or None): equal, changed, deleted, inserted
    steps: list[tuple[str, Any, Any]] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        out = {"changed": 0, "deleted": 0, "inserted": 0}
        for kind, _, _ in self.steps:
            if kind in out:
                out[kind] += 1
        return out


def _alike(a: str, b: str) -> float:
    """How alike two paragraphs read, word for word (spaces, which every text shares, left out)."""
    return difflib.SequenceMatcher(None, a.split(), b.split(), autojunk=False).ratio()


def _match(old: list[Any], new: list[Any]) -> _Diff:
    """Pair the generated paragraphs with the edited ones, in order."""
    a, b = [_squash(_text(p)) for p in old], [_squash(_text(p)) for p in new]
    diff = _Diff()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            diff.steps += [
                ("equal", old[i], new[j]) for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
            ]
            continue
        i, waiting = i1, []  # the edited paragraphs new since the last pair, shown after deletions
        for j in range(j1, j2):
            # the first generated paragraph still waiting that this edited one is a revision of
            hit = next((k for k in range(i, i2) if _alike(a[k], b[j]) >= _SIMILAR), None)
            if hit is None:
                waiting.append(("inserted", None, new[j]))
                continue
            diff.steps += [("deleted", old[k], None) for k in range(i, hit)] + waiting
            diff.steps.append(("changed", old[hit], new[j]))
            i, waiting = hit + 1, []
        diff.steps += [("deleted", old[k], None) for k in range(i, i2)] + waiting
    return diff


# -- comments -----------------------------------------------------------------------------------


def comment_text(f: Finding) -> str:
    """A finding as a comment reads: `NL001 (error): message. Law: rule; citation.`."""
    law = "; ".join(x for x in (f.rule, f.citation) if x)
    quote = f"\n“{f.quote}”" if f.quote else ""
    return f"{f.code} ({f.severity}): {f.message}." + (f"\nLaw: {law}." if law else "") + quote


def _bookmarked(body: Any, clause: str) -> Any | None:
    """The first paragraph holding the clause's bookmark (`clause_<rule id>`), if any."""
    for mark in body.iter(_q("bookmarkStart")):
        if mark.get(_q("name")) == f"clause_{clause}":
            found = next(mark.iterancestors(_q("p")), None)
            if found is None:  # a bookmark between paragraphs marks the one that follows
                found = next(mark.itersiblings(_q("p")), None)
            return found
    return None


def _heading(body: Any) -> Any | None:
    """The document's first paragraph with text (its heading), where a missing clause is noted.

    None only for a body without a paragraph, where no comment can be anchored.
    """
    paragraphs = _paragraphs(body)
    return next((p for p in paragraphs if _text(p).strip()), paragraphs[0] if paragraphs else None)


def _anchor(f: Finding, body: Any, blocks: dict[int, str], also: dict[str, Any]) -> Any | None:
    """The paragraph of the body a finding concerns (None: the body has no paragraph at all).

    `blocks` is the linter's numbering of the paragraphs it read (a finding's `paragraph`);
    `also` the paragraphs the draft lost, by the clause bookmark the generated notice gave them.
    """
    if f.paragraph and f.paragraph in blocks:
        wanted = blocks[f.paragraph]
        hit = next((p for p in _paragraphs(body) if _squash(_text(p)) == wanted), None)
        if hit is not None:
            return hit
    if f.rule:
        hit = _bookmarked(body, f.rule)
        if hit is None:
            hit = also.get(f.rule)
        if hit is not None:
            return hit
    return _heading(body)


def _comment(doc: Any, p: Any, text: str, when: str | None) -> int:
    """Add a comment on the whole paragraph `p`; return its id."""
    from lxml import etree

    made = doc.comments.add_comment(text=text, author=COMMENTER, initials=_INITIALS)
    element = made._comment_elm
    if when:
        element.set(_q("date"), when)
    else:
        element.attrib.pop(_q("date"), None)  # the time of the run would differ each run
    ident = str(made.comment_id)
    start = etree.Element(_q("commentRangeStart"))
    start.set(_q("id"), ident)
    ppr = p.find(_q("pPr"))
    if ppr is not None:
        ppr.addnext(start)
    else:
        p.insert(0, start)
    end = etree.SubElement(p, _q("commentRangeEnd"))
    end.set(_q("id"), ident)
    ref = etree.SubElement(etree.SubElement(p, _q("r")), _q("commentReference"))
    ref.set(_q("id"), ident)
    return int(ident)


def _blocks(path: Path) -> dict[int, str]:
    return {b.number: b.text for b in extract(path).blocks}


# -- the product --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Redline:
    """What a redline holds, for the command to report."""

    docx: Path
    html: Path | None
    author: str
    changed: int
    deleted: int
    inserted: int
    comments: int


def editor(edited: Path, author: str | None) -> str:
    """Who the changes are attributed to: `author`, else the edited file's `lastModifiedBy`.

    Raises `UserError` when neither names anyone: a redline never guesses who edited.
    """
    import docx

    if author and author.strip():
        return author.strip()
    named = (docx.Document(str(edited)).core_properties.last_modified_by or "").strip()
    if not named:
        raise UserError(
            Problem(
                str(edited), None, None, "lastModifiedBy",
                "the edited draft names no editor (its lastModifiedBy property is empty): give --author",
            )
        )  # fmt: skip
    return named


def redline(
    generated: Path,
    edited: Path,
    out: Path,
    *,
    findings: Iterable[Finding] = (),
    author: str | None = None,
    html_out: Path | None = None,
) -> Redline:
    """Write `out`: the edited draft with its edits as tracked changes and `findings` as comments.

    The findings are those of the edited draft (the linter's, on `edited`). `html_out`, when
    given, receives the same diff as a web page.
    """
    import docx

    _refuse_inputs(out, generated, edited)
    if html_out is not None:
        _refuse_inputs(html_out, generated, edited)
    who = editor(edited, author)
    old_doc, new_doc = _open(generated), _open(edited)
    _untracked(edited, new_doc.element.body)
    when = _stamp(new_doc.core_properties.modified)
    old_body, body = old_doc.element.body, new_doc.element.body
    marks = _Marks(who, when, max(_first_free_id(body), _first_free_id(old_body)))
    old_paras, new_paras = _paragraphs(old_body), _paragraphs(body)
    diff = _match(old_paras, new_paras)
    lost: dict[str, Any] = {}
    follower: Any = None  # the edited paragraph after a run of deleted ones
    shown = [new for _, _, new in diff.steps]  # each step's paragraph in the redline
    for step, (kind, old, new) in reversed(list(enumerate(diff.steps))):
        if kind == "changed":
            _edit_paragraph(new, _text(old), marks)
        elif kind == "inserted":
            _inserted_paragraph(new, marks)
        elif kind == "deleted":
            p = _deleted_paragraph(old, marks)
            if follower is not None:
                follower.addprevious(p)
            elif new_paras:
                new_paras[-1].addnext(p)
            else:
                body.insert(0, p)
            follower = shown[step] = p
            for name in _clause_marks(old):
                lost.setdefault(name, p)
            continue
        follower = new
    # A clause the editor removed whole is noted on the deleted paragraph that held it.
    for _kind, old, new in diff.steps:
        if new is not None and old is not None:
            for name in _clause_marks(old):
                lost.setdefault(name, new)
    mine = list(findings)  # the linter read the edited draft alone: all are about it
    blocks = _blocks(edited)
    placed = []
    for f in mine:
        p = _anchor(f, body, blocks, lost)
        if p is not None:
            _comment(new_doc, p, comment_text(f), when)
            placed.append((f, p))
    step_of = {id(p): i for i, p in enumerate(shown) if p is not None}
    noted = {n: step_of.get(id(p)) for n, (_, p) in enumerate(placed, 1)}
    data = _saved(new_doc)
    write(out.parent, out.name, data)
    if html_out is not None:
        page = _html(_page(diff), [f for f, _ in placed], noted, (generated, edited), who)
        write(html_out.parent, html_out.name, page.encode())
    counts = diff.counts()
    docx.Document(io.BytesIO(data))  # what we wrote opens again, or this is a bug worth a trace
    return Redline(
        out, html_out, who, counts["changed"], counts["deleted"], counts["inserted"], len(placed)
    )


def comment_copy(draft: Path, out: Path, findings: Iterable[Finding]) -> int:
    """Write a copy of the Word `draft` to `out` with `findings` as comments; return how many."""
    _refuse_inputs(out, draft)
    doc = _open(draft)
    when = _stamp(doc.core_properties.modified)
    body = doc.element.body
    blocks = _blocks(draft)
    n = 0
    for f in findings:
        p = _anchor(f, body, blocks, {})
        if p is not None:
            _comment(doc, p, comment_text(f), when)
            n += 1
    write(out.parent, out.name, _saved(doc))
    return n


def _untracked(path: Path, body: Any) -> None:
    """Refuse a draft that already holds tracked changes: marking them again would garble them."""
    tracked = list(body.iter(_q("ins"), _q("del"), _q("moveFrom"), _q("moveTo")))
    if tracked:
        who = sorted({el.get(_q("author")) or "someone" for el in tracked})
        raise UserError(
            Problem(
                str(path), None, None, "",
                f"the edited draft already holds {len(tracked)} tracked changes (by"
                f" {', '.join(who)}): accept or reject them in Word first, or add the findings"
                " to it as it is with `notices lint DRAFT.docx --comments`",
            )
        )  # fmt: skip


def _clause_marks(p: Any) -> list[str]:
    return [
        m.get(_q("name"), "")[len("clause_") :]
        for m in p.iter(_q("bookmarkStart"))
        if m.get(_q("name"), "").startswith("clause_")
    ]


def _open(path: Path) -> Any:
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    extract(path)  # refuses, with the linter's message, what is not a sound Word file
    try:
        return docx.Document(str(path))
    except (PackageNotFoundError, KeyError, ValueError) as exc:
        raise UserError(
            Problem(str(path), None, None, "", f"cannot open the Word file ({exc})")
        ) from None


def _saved(doc: Any) -> bytes:
    from generator.render.docx import normalize

    buffer = io.BytesIO()
    doc.save(buffer)
    return normalize(buffer.getvalue())


def _refuse_inputs(out: Path, *inputs: Path) -> None:
    if out.suffix.lower() not in (".docx", ".html", ".htm"):
        raise UserError(
            Problem(str(out), None, None, "", "the output must end in .docx (or .html)")
        )
    for path in inputs:
        if out.resolve() == path.resolve():
            raise UserError(
                Problem(str(out), None, None, "", "would overwrite an input: give another --out")
            )


# -- the web page -------------------------------------------------------------------------------


def _page(diff: _Diff) -> list[tuple[str, str]]:
    """The diff as (class, HTML) paragraphs, every text escaped."""
    out = []
    for kind, old, new in diff.steps:
        if kind == "equal":
            out.append(("", html.escape(_squash(_text(new)))))
        elif kind == "deleted":
            out.append(("deleted", f"<del>{html.escape(_squash(_text(old)))}</del>"))
        elif kind == "inserted":
            out.append(("inserted", f"<ins>{html.escape(_squash(_text(new)))}</ins>"))
        else:
            a, b = _tokens(_squash(_text(old))), _tokens(_squash(_text(new)))
            parts = []
            for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(
                None, a, b, autojunk=False
            ).get_opcodes():
                if tag in ("delete", "replace"):
                    parts.append(f"<del>{html.escape(''.join(a[i1:i2]))}</del>")
                if tag in ("insert", "replace"):
                    parts.append(f"<ins>{html.escape(''.join(b[j1:j2]))}</ins>")
                if tag == "equal":
                    parts.append(html.escape("".join(b[j1:j2])))
            out.append(("changed", "".join(parts)))
    return out


_STYLE = """
body{font-family:Georgia,serif;max-width:46em;margin:2em auto;line-height:1.45;color:#111}
ins{background:#d7f5dd;text-decoration:underline;color:#064}
del{background:#fbe0e0;color:#900}
p.changed,p.inserted,p.deleted{border-left:3px solid #c60;padding-left:.6em}
.findings li{margin:.4em 0}.error{color:#900}.warning{color:#a60}
a.mark{font-size:.8em;vertical-align:super;color:#900;font-weight:bold}
"""


def _html(
    page: list[tuple[str, str]],
    findings: list[Finding],
    noted: dict[int, int | None],
    files: tuple[Path, Path],
    who: str,
) -> str:
    """The redline as a web page: the findings, numbered, and the draft with each one's mark."""
    generated, edited = files
    items = "".join(
        f'<li id="finding-{n}" class="{html.escape(f.severity)}">{html.escape(comment_text(f))}'
        + (f" <em>({html.escape(f.where)})</em>" if f.where else "")
        + "</li>"
        for n, f in enumerate(findings, 1)
    )
    marks: dict[int, str] = {}
    for n, step in noted.items():
        if step is not None:
            marks[step] = marks.get(step, "") + f' <a class="mark" href="#finding-{n}">[{n}]</a>'
    body = "\n".join(
        (f'<p class="{cls}">' if cls else "<p>") + text + marks.get(i, "") + "</p>"
        for i, (cls, text) in enumerate(page)
    )
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Redline: {html.escape(edited.name)}</title><style>{_STYLE}</style></head><body>\n"
        f"<h1>Redline of {html.escape(edited.name)}</h1>\n"
        f"<p>Changes by {html.escape(who)} to {html.escape(generated.name)}: "
        "<ins>inserted</ins>, <del>deleted</del>.</p>\n"
        f'<h2>Findings on the edited draft</h2>\n<ol class="findings">{items or "<li>none</li>"}</ol>\n'
        f"<h2>The draft</h2>\n{body}\n</body></html>\n"
    )


# -- the linter, on the edited draft ------------------------------------------------------------


def lint_draft(
    draft: Path,
    *,
    generated: Path | None = None,
    case_path: Path | None = None,
    jurisdiction: str | None = None,
    kind: str | None = None,
    packs: Path | None = None,
    on: Any = None,
) -> list[Finding]:
    """The linter's findings on `draft`, under the law that binds the `generated` notice.

    The draft is read as the generated file it is a draft of (its kind and, in a case, its
    planned document: the council's notice, not the planning board's), unless `kind` names
    another kind; its case is `case_path`, else the case the generated file's packet names.
    """
    import shutil
    import tempfile
    from dataclasses import replace

    from generator.lint.engine import _manifest_case, lint

    found: list[Finding] = []
    if case_path is None and not jurisdiction and generated is not None:
        case_path, found = _manifest_case(generated.parent)
    with tempfile.TemporaryDirectory(prefix="redline-") as folder:
        read = draft
        if generated is not None and draft.name != generated.name:
            read = Path(folder) / generated.name
            shutil.copyfile(draft, read)
        result = lint(
            [read], case_path=case_path, jurisdiction=jurisdiction, kind=kind, on=on, packs=packs
        )
    named = {str(read), read.name}
    return found + [
        replace(f, document=draft.name) if f.document in named else f for f in result.findings
    ]
