"""Template search path and Jinja environments.

A jurisdiction overrides only the files it changes: `templates/<pack-id>/` for each pack of
the extends chain, narrowest first, then `templates/_base/` (as MkDocs themes do). Templates
can load files from these folders only.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.errors import RenderError
from generator.inputs import sha256_file
from generator.render.filters import FILTERS
from generator.rules.loader import ROOT, ResolvedPack

TEMPLATES = ROOT / "templates"


def search_path(pack: ResolvedPack) -> list[Path]:
    """Template folders for `pack`, narrowest first; only folders that exist.

    `$NOTICES_TEMPLATES` names a folder of the same shape searched before the project's own,
    for a municipality that keeps its own look outside this repository.
    """
    roots = [Path(os.environ["NOTICES_TEMPLATES"])] if os.environ.get("NOTICES_TEMPLATES") else []
    roots.append(TEMPLATES)
    folders = [root / pf.pack.id for root in roots for pf in reversed(pack.chain)]
    folders += [root / "_base" for root in roots]
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
    """sha256 of each template file the pack uses (the first of its name on the search path)."""
    out, seen = {}, set()
    for folder in search_path(pack):
        for path in sorted(folder.rglob("*")):
            name = path.relative_to(folder)
            if not path.is_file() or path.name.startswith(".") or name in seen:
                continue
            seen.add(name)
            shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
            out[str(shown)] = sha256_file(path)
    return out
