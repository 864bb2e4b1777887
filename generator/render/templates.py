"""Template search path and Jinja environments.

A jurisdiction overrides only the files it changes: `templates/<pack-id>/` for each pack of
the extends chain, narrowest first, then `templates/_base/` (as MkDocs themes do). Templates
can load files from these folders only.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from generator.errors import RenderError
from generator.hashing import sha256_file
from generator.models.languages import Language, Layout
from generator.paths import ROOT, template_roots
from generator.render import languages
from generator.render.filters import FILTERS
from generator.rules.loader import ResolvedPack


@dataclass(frozen=True)
class Templates:
    """A pack's templates, set up once and shared by every document of a build.

    The search path, one HTML environment (autoescaped; docxtpl renders Word templates with it
    too), one plain-text environment, and the stylesheet every HTML document embeds.
    """

    pack: ResolvedPack
    path: tuple[Path, ...]
    html: jinja2.Environment
    text: jinja2.Environment
    stylesheet: str
    speech: languages.Speech = field(default_factory=languages.Speech)
    # The Spanish environments (HTML, text): the `es/` folder of each template folder first.
    spanish: tuple[jinja2.Environment, jinja2.Environment] | None = None

    def speaking(self, said: languages.Speech) -> Templates:
        """These templates writing notices in the languages and layout of `said`."""
        if Language.ES not in said.languages:
            return replace(self, speech=said)
        key = ("es", self.path)
        if key not in _SPANISH:
            path = tuple(p / "es" for p in self.path if (p / "es").is_dir()) + self.path
            _SPANISH[key] = (
                environment(path, autoescape=True, filters=languages.FILTERS),
                environment(path, autoescape=False, filters=languages.FILTERS),
            )
        return replace(self, speech=said, spanish=_SPANISH[key])

    def render_notice(self, name: str, context: dict[str, Any]) -> str:
        """Render a notice's HTML template in each of its languages, laid out as the case asks."""
        pages = [
            (lang, render(env, name, ctx)) for lang, env, ctx in self._versions(context, text=False)
        ]
        return languages.combine(pages, self.speech.layout)

    def each_language(self) -> list[tuple[str, Templates]]:
        """These templates once per language, for a notice printed once per language.

        A sign is one panel: each language gets its own, named with a suffix ("" for the
        first language, "-es" after it).
        """
        alone = {Language.EN: Layout.ENGLISH, Language.ES: Layout.SPANISH_ONLY}
        return [
            (
                "-" + lang.value if i else "",
                replace(self, speech=replace(self.speech, layout=alone[lang])),
            )
            for i, lang in enumerate(self.speech.languages)
        ]

    def render_notice_text(self, name: str, context: dict[str, Any]) -> str:
        """Render a notice's plain-text template in each of its languages, one after the other."""
        pages = [
            (lang, tidy_text(render(env, name, ctx)))
            for lang, env, ctx in self._versions(context, text=True)
        ]
        return tidy_text(languages.combine_text(pages)) if len(pages) > 1 else pages[0][1]

    def _versions(
        self, context: dict[str, Any], *, text: bool
    ) -> list[tuple[Language, jinja2.Environment, dict[str, Any]]]:
        out = []
        for lang in self.speech.languages:
            if lang == Language.ES and self.spanish is not None:
                env = self.spanish[1 if text else 0]
                out.append((lang, env, languages.spanish_context(context, self.speech.spanish)))
            else:
                out.append((lang, self.text if text else self.html, context | {"lang": "en"}))
        return out

    def phrases_in(self, lang: Language, name: str, **context: Any) -> Any:
        """The macros of a phrases template in `lang` (the Spanish letters' greetings)."""
        env = self.spanish[1] if lang == Language.ES and self.spanish else self.text
        try:
            return env.get_template(name).make_module(context)
        except jinja2.TemplateError as exc:
            raise RenderError(f"template {name}: {exc}") from None

    def find(self, name: str) -> Path:
        """The first template file called `name` along the search path."""
        return find(self.pack, name, self.path)

    def render(self, name: str, context: dict[str, Any]) -> str:
        """Render an HTML template (values escaped)."""
        return render(self.html, name, context)

    def render_text(self, name: str, context: dict[str, Any]) -> str:
        """Render a plain-text template, tidied as newspapers want it."""
        return tidy_text(render(self.text, name, context))

    def phrases(self, name: str, **context: Any) -> Any:
        """The macros of a phrases template, for text drawn outside HTML (labels, PDF overlays)."""
        try:
            return self.text.get_template(name).make_module(context)
        except jinja2.TemplateError as exc:
            raise RenderError(f"template {name}: {exc}") from None


_SHARED: dict[tuple[str, tuple[Path, ...]], Templates] = {}
_SPANISH: dict[tuple[str, tuple[Path, ...]], tuple[jinja2.Environment, jinja2.Environment]] = {}


def for_pack(pack: ResolvedPack) -> Templates:
    """The pack's templates, made once per search path (a build makes dozens of documents)."""
    path = tuple(search_path(pack))
    key = (pack.id, path)
    if key not in _SHARED:
        stylesheet = find(pack, "notice.css", path).read_text(encoding="utf-8")
        _SHARED[key] = Templates(
            pack,
            path,
            environment(path, autoescape=True),
            environment(path, autoescape=False),
            stylesheet,
        )
    return _SHARED[key]


def search_path(pack: ResolvedPack) -> list[Path]:
    """Template folders for `pack`, narrowest first; only folders that exist.

    `$NOTICES_TEMPLATES` names a folder of the same shape searched before the project's own,
    for a municipality that keeps its own look outside this repository.
    """
    roots = template_roots()
    folders = [root / pf.pack.id for root in roots for pf in reversed(pack.chain)]
    folders += [root / "_base" for root in roots]
    return [f for f in folders if f.is_dir()]


def find(pack: ResolvedPack, name: str, path: tuple[Path, ...] | None = None) -> Path:
    """The first template file called `name` along the search path."""
    folders = path if path is not None else tuple(search_path(pack))
    for folder in folders:
        if (folder / name).is_file():
            return folder / name
    raise RenderError(f"templates: no template {name!r} in {', '.join(map(str, folders))}")


def squash(value: Any) -> Any:
    """Collapse runs of white space to single spaces, keeping HTML safety as it was."""
    text = " ".join(str(value).split())
    return Markup(text) if isinstance(value, Markup) else text  # noqa: S704  # already escaped


def environment(
    path: tuple[Path, ...], *, autoescape: bool, filters: dict[str, Any] | None = None
) -> jinja2.Environment:
    """A strict environment over a template search path (`filters`: a language's dates)."""
    # Plain-text output is not HTML, so it is not escaped; HTML and DOCX always are.
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in path]),
        autoescape=autoescape,  # noqa: S701
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        bytecode_cache=_compiled_cache(autoescape),
    )
    env.filters.update(FILTERS)
    env.filters.update(filters or {})
    env.filters["squash"] = squash
    return env


@functools.cache
def _compiled_cache(autoescape: bool) -> jinja2.BytecodeCache | None:
    """Compiled templates kept between runs (Jinja's per-user folder in the temporary folder).

    Compiling the templates was a third of a fresh `notices build`. A template is compiled again
    when its text changes (the cache is keyed by it); escaping and plain text keep apart.
    """
    try:
        return jinja2.FileSystemBytecodeCache(
            pattern=f"zoning-notices-{'html' if autoescape else 'text'}-%s.cache"
        )
    except RuntimeError:  # no private folder can be made there: compile every time
        return None


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
