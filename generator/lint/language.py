"""The language of a notice, or of each part of a bilingual one, and its Spanish recognisers.

A notice may be English, Spanish, or both (one after the other, or side by side). Each block of
its text is told English or Spanish by its common words; a run of blocks in one language is a
section, and a short run inside a longer one (an English summary the case gave no Spanish for,
a Spanish place name) belongs to the section around it. Each section is checked against the
same clause rules: in Spanish with the clause's Spanish recogniser (the pack's `checks.es`, or
`spanish.yaml` by topic) and the pack's own hearing tokens and facts.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache
from pathlib import Path

from generator.lint.extract import Block, Extracted
from generator.models.languages import Language
from generator.models.pack import ClauseChecks, ClauseTopic
from generator.yamlio import load

# Words frequent in one language and rare in the other (never "a", "no", "me", "son", ...).
_ENGLISH = frozenset(
    [
        "the",
        "of",
        "and",
        "to",
        "is",
        "are",
        "will",
        "be",
        "for",
        "by",
        "on",
        "at",
        "that",
        "this",
        "with",
        "from",
        "which",
        "may",
        "shall",
        "has",
        "have",
        "any",
        "all",
        "or",
        "be",
        "been",
        "an",
        "it",
        "its",
        "their",
        "there",
        "who",
    ]
)
_SPANISH = frozenset(
    [
        "de",
        "la",
        "el",
        "los",
        "las",
        "que",
        "en",
        "del",
        "por",
        "para",
        "con",
        "se",
        "una",
        "y",
        "su",
        "al",
        "es",
        "será",
        "son",
        "como",
        "más",
        "este",
        "esta",
        "puede",
        "pueden",
        "cualquier",
        "sobre",
        "dicha",
        "dicho",
        "ante",
        "hasta",
        "lugar",
        "hora",
        "fecha",
    ]
)
_WORD = re.compile(r"[a-záéíóúüñ]+", re.I)
_SHARE = 0.2  # a run with less than this share of the signal words of the largest is absorbed


def language_of(text: str) -> Language | None:
    """English or Spanish by the common words of `text`; None when it says too little."""
    words = [w.lower() for w in _WORD.findall(text)]
    en = sum(w in _ENGLISH for w in words)
    es = sum(w in _SPANISH for w in words)
    if max(en, es) < 2 or en == es:
        return None
    return Language.EN if en > es else Language.ES


def sections(ext: Extracted) -> list[tuple[Language, Extracted]]:
    """The parts of `ext` in one language each, in order; one section for a one-language text.

    Each section keeps its blocks (numbers, pages, lines), so a finding still says where.
    """
    runs: list[tuple[Language | None, list[Block], int]] = []
    for block in ext.blocks:
        lang = language_of(block.text)
        weight = len(_WORD.findall(block.text)) if lang else 0
        if runs and (lang is None or lang == runs[-1][0] or runs[-1][0] is None):
            prev_lang, blocks, w = runs[-1]
            runs[-1] = (prev_lang or lang, [*blocks, block], w + weight)
        else:
            runs.append((lang, [block], weight))
    largest = max((w for _, _, w in runs), default=0)
    merged: list[tuple[Language | None, list[Block], int]] = []
    for lang, blocks, w in runs:
        if merged and (w < _SHARE * largest or lang == merged[-1][0]):
            prev_lang, prev_blocks, prev_w = merged[-1]
            merged[-1] = (prev_lang, prev_blocks + blocks, prev_w + w)
        else:
            merged.append((lang, blocks, w))
    if len(merged) > 1 and merged[0][2] < _SHARE * largest:  # a short opening joins what follows
        first, second = merged[0], merged[1]
        merged[:2] = [(second[0], first[1] + second[1], first[2] + second[2])]
    if len(merged) <= 1:
        return [(merged[0][0] or Language.EN if merged else Language.EN, ext)]
    return [
        (lang or Language.EN, replace(ext, blocks=blocks, notes=[])) for lang, blocks, _ in merged
    ]


@cache
def _by_topic() -> dict[str, ClauseChecks]:
    data = load(Path(__file__).with_name("spanish.yaml")).data
    return {topic: ClauseChecks.model_validate(checks) for topic, checks in data.items()}


def spanish_checks(checks: ClauseChecks, topic: ClauseTopic) -> ClauseChecks | None:
    """A clause's recogniser for Spanish text, with the pack's own tokens and facts; None if none.

    The pack's `checks.es` if it gives one, else the words of the topic (`spanish.yaml`). The
    hearing tokens and the `<date>`/`<time>` patterns of the pack's checks stay: they read the
    facts, not the words, and the law asks for the same facts in either language.
    """
    words = checks.es or _by_topic().get(topic.value)
    if words is None:
        return None
    tokens = [p for p in checks.all_patterns if p.startswith("<") and p.endswith(">")]
    return words.model_copy(
        update={
            "all_patterns": [*words.all_patterns, *tokens],
            "facts": checks.facts,
            "remote_only": checks.remote_only,
            "es": None,
        }
    )


def topics() -> dict[str, ClauseChecks]:
    """Every topic's Spanish recogniser (for the tests and `notices explain`)."""
    return dict(_by_topic())
