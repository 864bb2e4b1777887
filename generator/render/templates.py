"""Template search path and Jinja environments.

A jurisdiction overrides only the files it changes: `templates/<pack-id>/` for each pack of
the extends chain, narrowest first, then `templates/_base/` (as MkDocs themes do). Templates
can load files from these folders only.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.errors import RenderError
from generator.render.filters import FILTERS
from generator.rules.loader import ROOT, ResolvedPack

TEMPLATES = ROOT / "templates"


def search_path(pack: ResolvedPack) -> list[Path]:
    """Template folders for `pack`, narrowest first; only folders that exist."""
    folders = [TEMPLATES / pf.pack.id for pf in reversed(pack.chain)] + [TEMPLATES / "_base"]
    return [f for f in folders if f.is_dir()]


def find(pack: ResolvedPack, name: str) -> Path:
    """The first template file called `name` along the search path."""
    for folder in search_path(pack):
        if (folder / name).is_file():
            return folder / name
    raise RenderError(
        f"templates: no template {name!r} in {', '.join(map(str, search_path(pack)))}"
    )


def squash(value: Any) -> Any:
    """Collapse runs of white space to single spaces, keeping HTML safety as it was."""
    text = " ".join(str(value).split())
    return Markup(text) if isinstance(value, Markup) else text  # noqa: S704  # already escaped


def environment(pack: ResolvedPack, *, autoescape: bool) -> jinja2.Environment:
    """A strict environment over the pack's template path."""
    # Plain-text output is not HTML, so it is not escaped; HTML and DOCX always are.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in search_path(pack)]),
        autoescape=autoescape,  # noqa: S701
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    env.filters["squash"] = squash
    return env


def render(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    """Render template `name`, turning template errors into `RenderError` with the file and line."""
    try:
        return env.get_template(name).render(context)
    except jinja2.TemplateSyntaxError as exc:
        raise RenderError(
            f"{exc.filename or name}:{exc.lineno}: template syntax error: {exc.message}"
        ) from None
    except jinja2.UndefinedError as exc:
        raise RenderError(f"template {name}: {exc.message}") from None


def tidy_text(text: str) -> str:
    """Plain text as newspapers want it: no trailing spaces, single blank lines, one final newline."""
    lines = [line.rstrip() for line in text.splitlines()]
    out = re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip("\n")
    return out + "\n"


def file_hashes(pack: ResolvedPack) -> dict[str, str]:
    """sha256 of every template file on the pack's search path, for the manifest."""
    out = {}
    for folder in search_path(pack):
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                out[str(path.relative_to(ROOT))] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out
