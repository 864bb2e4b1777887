"""The full text of a text amendment: Markdown in the case, faithful in every format.

Raw HTML in the Markdown is shown as text, never passed through: a case is data.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

import markdown

_STYLES = {"h1": "Amendment Heading 1", "h2": "Amendment Heading 2", "h3": "Amendment Heading 3"}
_STYLES |= {"h4": "Amendment Heading 3", "h5": "Amendment Heading 3", "h6": "Amendment Heading 3"}


@dataclass(frozen=True)
class Run:
    """A stretch of text with one formatting."""

    text: str
    bold: bool = False
    italic: bool = False


@dataclass(frozen=True)
class Block:
    """A paragraph of the amendment text and the Word style it takes."""

    style: str
    runs: tuple[Run, ...]
    marker: str = ""  # "1." or "-" for list items, as plain text prints them


def _converter() -> markdown.Markdown:
    md = markdown.Markdown(extensions=["sane_lists"], output_format="html")
    # Python-Markdown's documented way to refuse raw HTML: drop the two processors that keep it.
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md


def to_html(text: str) -> str:
    """Markdown to an HTML fragment, with any HTML in the source escaped."""
    return _converter().convert(text)


def to_blocks(text: str) -> list[Block]:
    """Markdown to styled paragraphs for Word."""
    html = to_html(text)
    root = ET.fromstring(f"<div>{html}</div>")  # noqa: S314  # our own converter's output
    blocks: list[Block] = []
    _walk(root, blocks, quote=False)
    return blocks


def _walk(node: ET.Element, blocks: list[Block], *, quote: bool) -> None:
    for child in node:
        tag = child.tag
        if tag in _STYLES:
            blocks.append(Block(_STYLES[tag], _runs(child)))
        elif tag == "p":
            blocks.append(Block("Amendment Quote" if quote else "Amendment Text", _runs(child)))
        elif tag in ("ul", "ol"):
            style = "List Bullet" if tag == "ul" else "List Number"
            start = int(child.get("start", "1"))
            for n, item in enumerate(child, start):
                marker = "-" if tag == "ul" else f"{n}."
                inner = [c for c in item if c.tag in ("p", "ul", "ol")]
                if inner and inner[0].tag == "p":
                    blocks.append(Block(style, _runs(inner[0]), marker))
                    rest = ET.Element("div")
                    rest.extend(inner[1:])
                    _walk(rest, blocks, quote=quote)
                else:
                    blocks.append(Block(style, _runs(item, skip_lists=True), marker))
                    for sub in item:
                        if sub.tag in ("ul", "ol"):
                            wrapper = ET.Element("div")
                            wrapper.append(sub)
                            _walk(wrapper, blocks, quote=quote)
        elif tag == "blockquote":
            _walk(child, blocks, quote=True)
        elif tag == "hr":
            continue
        else:
            blocks.append(Block("Amendment Text", _runs(child)))


def _runs(
    node: ET.Element, *, bold: bool = False, italic: bool = False, skip_lists: bool = False
) -> tuple[Run, ...]:
    runs: list[Run] = []
    if node.text:
        runs.append(Run(_soft(node.text), bold, italic))
    for child in node:
        if skip_lists and child.tag in ("ul", "ol"):
            continue
        b = bold or child.tag in ("strong", "b")
        i = italic or child.tag in ("em", "i")
        if child.tag == "br":
            runs.append(Run("\n", bold, italic))
        else:
            runs.extend(_runs(child, bold=b, italic=i))
        if child.tail:
            runs.append(Run(_soft(child.tail), bold, italic))
    return tuple(_merge(runs))


def _soft(text: str) -> str:
    """A newline inside a Markdown paragraph (and the indent after it) is one space, as in HTML."""
    return re.sub(r"[ \t]*\n\s*", " ", text)


def _merge(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for run in runs:
        if out and (out[-1].bold, out[-1].italic) == (run.bold, run.italic):
            out[-1] = Run(out[-1].text + run.text, run.bold, run.italic)
        else:
            out.append(run)
    return out


def to_plain(text: str) -> str:
    """Markdown as plain ad copy: the words and list numbers, no markup; one line a paragraph."""
    lines = []
    for block in to_blocks(text):
        words = " ".join("".join(run.text for run in block.runs).split())
        lines.append(f"{block.marker} {words}" if block.marker else words)
    return "\n\n".join(lines)
