"""The full text of a text amendment: Markdown in the case, faithful in every format.

Every format is made from the one safe reading of `generator.safe_markdown`: raw HTML is shown
as text, links go only to http, https and mailto addresses, images are their alt text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from markdown_it.renderer import RendererHTML
from markdown_it.token import Token

from generator.safe_markdown import READER, tokens

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
    numbered: tuple[int, int] | None = (
        None  # an item of the text's n-th numbered list: (n, its number)
    )


def to_html(text: str) -> str:
    """Markdown to an HTML fragment: every value escaped, only safe links, no images."""
    return _HTML.render(list(tokens(text)), READER.options, {})


def _ordered_list_open(tokens: Sequence[Token], idx: int, *_: object) -> str:
    start = tokens[idx].attrs.get("start")
    if start is None:
        return "<ol>\n"
    # WeasyPrint reads no `start` attribute: the list counter says it too, for the PDF.
    return f'<ol start="{int(start)}" style="counter-reset: list-item {int(start) - 1}">\n'


_HTML = RendererHTML()
_HTML.rules["ordered_list_open"] = _ordered_list_open


def to_blocks(text: str) -> list[Block]:
    """Markdown to styled paragraphs for Word."""
    blocks: list[Block] = []
    quote = 0
    lists: list[list[int]] = []  # per open list: [ordered (0/1), next number, which list]
    counted = 0  # numbered lists so far
    item: str | None = None  # the marker of a list item whose first paragraph is still to come
    style = "Amendment Text"

    def open_item_ends() -> None:
        nonlocal item
        if item is not None:  # an item with no words of its own (empty, or a list in a list)
            blocks.append(Block(_list_style(lists), (), item, _numbered(lists, item)))
            item = None

    for token in tokens(text):
        kind = token.type
        if kind == "blockquote_open":
            open_item_ends()
            quote += 1
        elif kind == "blockquote_close":
            quote -= 1
        elif kind in ("bullet_list_open", "ordered_list_open"):
            open_item_ends()
            start = int(token.attrs.get("start", 1))
            counted += kind == "ordered_list_open"
            lists.append([int(kind == "ordered_list_open"), start, counted])
        elif kind in ("bullet_list_close", "ordered_list_close"):
            lists.pop()
        elif kind == "list_item_open":
            ordered, number = lists[-1][:2]
            item = f"{number}." if ordered else "-"
            lists[-1][1] += 1
        elif kind == "list_item_close":
            open_item_ends()
        elif kind in ("heading_open", "paragraph_open"):
            style = _STYLES.get(token.tag) or ("Amendment Quote" if quote else "Amendment Text")
        elif kind == "inline":
            if item is not None:
                runs = _runs(token.children or [])
                blocks.append(Block(_list_style(lists), runs, item, _numbered(lists, item)))
                item = None
            else:
                blocks.append(Block(style, _runs(token.children or [])))
        elif kind in ("code_block", "fence"):
            open_item_ends()
            blocks.append(Block("Amendment Text", (Run(_soft(token.content).strip()),)))
    return blocks


def _list_style(lists: Sequence[Sequence[int]]) -> str:
    return "List Number" if lists[-1][0] else "List Bullet"


def _numbered(lists: Sequence[Sequence[int]], marker: str) -> tuple[int, int] | None:
    ordered, _, which = lists[-1]
    return (which, int(marker.rstrip("."))) if ordered else None


def _runs(children: Sequence[Token]) -> tuple[Run, ...]:
    runs: list[Run] = []
    bold = italic = 0
    for token in children:
        kind = token.type
        if kind in ("text", "code_inline"):
            runs.append(Run(token.content, bold > 0, italic > 0))
        elif kind == "softbreak":
            runs.append(Run(" ", bold > 0, italic > 0))
        elif kind == "hardbreak":
            runs.append(Run("\n", bold > 0, italic > 0))
        elif kind in ("strong_open", "strong_close"):
            bold += token.nesting
        elif kind in ("em_open", "em_close"):
            italic += token.nesting
    return tuple(_merge(runs))


def _soft(text: str) -> str:
    """A newline (and the indent after it) is one space, as in an HTML paragraph."""
    return re.sub(r"[ \t]*\n\s*", " ", text)


def _merge(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for run in runs:
        if not run.text:
            continue
        if out and (out[-1].bold, out[-1].italic) == (run.bold, run.italic):
            out[-1] = Run(out[-1].text + run.text, run.bold, run.italic)
        else:
            out.append(run)
    return out


def to_plain(text: str) -> str:
    """Markdown as plain ad copy: the words and list numbers, no markup; one line a paragraph."""
    lines = []
    for block in to_blocks(text):
        # Only spaces and line ends fold: a non-breaking space stays one.
        words = re.sub(r"[ \t\r\n]+", " ", "".join(run.text for run in block.runs)).strip()
        lines.append(f"{block.marker} {words}" if block.marker else words)
    return "\n\n".join(lines)
