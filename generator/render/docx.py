"""DOCX drafts for lawyers to edit in Word: docxtpl templates, bookmarks on every clause.

Values are escaped (`autoescape=True`; without it docxtpl silently drops text after an `&`).
Each required clause is wrapped in a bookmark `clause_<rule id>`, so a linter finds it even
after the text around it was edited. Zip timestamps are fixed so the same input gives the
same bytes.
"""

from __future__ import annotations

import hashlib
import io
import math
import zipfile
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from generator.errors import RenderError
from generator.render.markdown_text import to_blocks
from generator.render.templates import Templates

_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


class Bookmarks:
    """`mark(topic)`/`unmark(topic)` for the template: open and close one bookmark per rule id."""

    def __init__(self, clauses: dict[str, dict[str, Any]]) -> None:
        self._ids = {topic: entry["ids"] for topic, entry in clauses.items()}
        self._open: dict[str, list[int]] = {}
        self._closed: set[str] = set()
        self._next = 1

    def mark(self, topic: str) -> Markup:
        """Bookmark starts for every rule that requires `topic` (once)."""
        if topic in self._open or topic not in self._ids:
            return Markup("")
        numbers = []
        xml = ""
        for rule_id in self._ids[topic]:
            numbers.append(self._next)
            xml += f'<w:bookmarkStart w:id="{self._next}" w:name="clause_{rule_id}"/>'
            self._next += 1
        self._open[topic] = numbers
        return Markup(xml)  # noqa: S704  # rule ids match [a-z][a-z0-9_]*

    def unmark(self, topic: str) -> Markup:
        """The matching bookmark ends (once)."""
        if topic not in self._open or topic in self._closed:
            return Markup("")
        self._closed.add(topic)
        return Markup("".join(f'<w:bookmarkEnd w:id="{n}"/>' for n in reversed(self._open[topic])))  # noqa: S704

    def unclosed(self) -> list[str]:
        """Topics whose bookmarks a template opened but never closed."""
        return [t for t in self._open if t not in self._closed]


_WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"


def load() -> None:
    """Import docxtpl and python-docx now, as the first Word document would; a fork inherits them."""
    import docxtpl  # noqa: F401 - imported for its modules


def render(
    templates: Templates,
    template: Path,
    context: dict[str, Any],
    *,
    full_text: str | None = None,
    map_image: bytes | None = None,
    title: str,
) -> bytes:
    """Render a DOCX template with the shared context; return the normalized file bytes."""
    from docx.opc.exceptions import OpcError  # heavy: imported only when rendering
    from docx.shared import Inches
    from docxtpl import DocxTemplate, InlineImage

    marks = Bookmarks(context.get("clauses", {}))
    try:
        tpl = DocxTemplate(str(template))
        ctx = dict(context, mark=marks.mark, unmark=marks.unmark, typed=typed_run)
        ctx["full_text"] = _paragraphs(tpl, full_text) if full_text else ""
        image = InlineImage(tpl, io.BytesIO(map_image), width=Inches(5.5)) if map_image else ""
        ctx["map_image"] = image
        tpl.render(ctx, jinja_env=_Compiling(templates.html), autoescape=True)
    except jinja2.TemplateError as exc:
        near = " / ".join(getattr(exc, "docx_context", None) or [])
        raise RenderError(
            f"{template}: DOCX template error: {exc}" + (f" near: {near}" if near else "")
        ) from None
    except (zipfile.BadZipFile, KeyError, OSError, OpcError) as exc:
        raise RenderError(f"{template}: not a readable DOCX template ({exc})") from None
    if marks.unclosed():
        raise RenderError(
            f"{template.name}: clause bookmarks never closed: {', '.join(marks.unclosed())}"
        )
    if map_image and context.get("map"):
        # The map's alt text, as the HTML has it: screen readers and the linter read it.
        for pr in tpl.docx.element.body.iter(f"{{{_WP}}}docPr"):
            pr.set("descr", context["map"]["alt"])
    props = tpl.docx.core_properties
    # Word's title property holds 255 characters; the document itself says the whole title.
    props.title = title if len(title) <= 255 else title[:254] + "…"
    out = io.BytesIO()
    tpl.save(out)
    return normalize(out.getvalue())


_COMPILED: dict[tuple[int, str], tuple[jinja2.Environment, jinja2.Template]] = {}


class _Compiling:
    """`env` for docxtpl, compiling each part's XML once per process.

    docxtpl compiles a part's XML (the template with its tags cleaned up) on every render: most
    of the time a DOCX takes. The cleaned-up XML depends only on the template file, so its
    compiled form is kept, keyed by the text itself, in this process and in the environment's
    bytecode cache.
    """

    def __init__(self, env: jinja2.Environment) -> None:
        self.env = env
        self.autoescape = env.autoescape  # docxtpl sets it; the HTML environment escapes already

    def from_string(self, source: str) -> jinja2.Template:
        """The compiled template of `source` (the environment is kept with it: ids are reused)."""
        key = (id(self.env), source)
        if key not in _COMPILED:
            env, cache = self.env, self.env.bytecode_cache
            if cache is None:
                _COMPILED[key] = (env, env.from_string(source))
            else:  # and between runs, as the environment keeps its templates' compiled code
                name = "docx-" + hashlib.sha256(source.encode()).hexdigest()
                bucket = cache.get_bucket(env, name, None, source)
                if bucket.code is None:
                    bucket.code = env.compile(source)
                    cache.set_bucket(bucket)
                template = env.template_class.from_code(env, bucket.code, env.make_globals(None))
                _COMPILED[key] = (env, template)
        return _COMPILED[key][1]


def typed_run(clause: dict[str, Any]) -> Markup:
    """A pack-defined clause's statement as one Word run, in the type its law asks (bold, size).

    Hard formatting on purpose: the statute fixes the type of these words, whatever the style
    around them; Word's size is in half points, rounded up so it is never below the law's.
    """
    props = ""
    kind = clause.get("type")
    if kind and kind.get("bold"):
        props += "<w:b/><w:bCs/>"
    if kind and kind.get("points"):
        half = math.ceil(kind["points"] * 2)
        props += f'<w:sz w:val="{half}"/><w:szCs w:val="{half}"/>'
    pr = f"<w:rPr>{props}</w:rPr>" if props else ""
    text = escape(clause["text"])
    return Markup(f'<w:r>{pr}<w:t xml:space="preserve">{text}</w:t></w:r>')  # noqa: S704


def _paragraphs(tpl: Any, text: str) -> Any:
    """The Markdown text of an amendment as Word paragraphs in the template's own styles."""
    from docxtpl import RichText, RichTextParagraph

    tpl.init_docx()
    styles = tpl.docx.styles
    out = RichTextParagraph()
    last: tuple[int, int | None] | None = None  # the numbered list last printed, its numbering
    for block in to_blocks(text):
        runs = RichText()
        for run in block.runs:
            runs.add(run.text, bold=run.bold, italic=run.italic)
        style = styles[block.style]
        if block.numbered is None:
            out.add(runs, parastyle=style.style_id)
            continue
        which, number = block.numbered
        if last is None or last[0] != which:  # a list begins, or resumes after a list in it
            last = (which, _restarted(tpl.docx, style, number))
        num = last[1]
        props = f'<w:pStyle w:val="{style.style_id}"/>'
        if num is not None:
            props += f'<w:numPr><w:ilvl w:val="0"/><w:numId w:val="{num}"/></w:numPr>'
        out.xml += f"<w:p><w:pPr>{props}</w:pPr>{runs.xml}</w:p>"
    return out


def _restarted(document: Any, style: Any, start: int) -> int | None:
    """A new numbering for `style`'s list, from `start`; None if the style numbers nothing.

    Word and LibreOffice count every paragraph of a list style as one list; each list of the
    text (and each part of one resuming after a list inside it) gets its own `w:num` of the
    style's list definition, restarted at its own number, as the Markdown has it.
    """
    ppr = style.element.pPr
    num_pr = ppr.numPr if ppr is not None else None
    if num_pr is None or num_pr.numId is None:
        return None
    numbering = document.part.numbering_part.element
    try:
        abstract = numbering.num_having_numId(num_pr.numId.val).abstractNumId.val
    except KeyError:  # a restyled template naming a numbering it lacks: Word ignores it too
        return None
    num = numbering.add_num(abstract)
    num.add_lvlOverride(ilvl=0).add_startOverride(start)
    return int(num.numId)


def normalize(data: bytes) -> bytes:
    """Rewrite a DOCX zip with fixed timestamps and order, so equal content gives equal bytes."""
    src = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            dst.writestr(zip_entry(info.filename), src.read(info.filename))
    return out.getvalue()


def zip_entry(name: str) -> zipfile.ZipInfo:
    """A DOCX member as `normalize` writes it: fixed time and mode, deflated."""
    fixed = zipfile.ZipInfo(name, _ZIP_TIME)
    fixed.compress_type = zipfile.ZIP_DEFLATED
    fixed.external_attr = 0o644 << 16
    return fixed


def text_of(data: bytes) -> str:
    """The text of a DOCX body, one paragraph per line, table cells included, in reading order."""
    from docx import Document
    from docx.oxml.ns import qn
    from docx.text.paragraph import Paragraph

    body = Document(io.BytesIO(data)).element.body
    return "\n".join(Paragraph(p, None).text for p in body.iter(qn("w:p")))
