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
def _wordset(words: str) -> frozenset[str]:
    return frozenset(words.split())


_ENGLISH = _wordset(
    """the of and to is are will be for by on at that this with from which may shall has have
    any all or been an it its their there who notice hearing public date
    monday tuesday wednesday thursday friday saturday sunday january february march april
    june july august september october november december"""
)
_SPANISH = _wordset(
    """de la el los las que en del por para con se una y su al es será son como más este esta
    puede pueden cualquier sobre dicha dicho ante hasta lugar hora fecha aviso audiencia
    pública público lunes martes miércoles jueves viernes sábado domingo enero febrero marzo
    abril mayo junio julio agosto septiembre octubre noviembre diciembre"""
)
_WORD = re.compile(r"[a-záéíóúüñ]+", re.I)
# A run with less than this share of the text's signal words is absorbed by the run before it:
# an English legal description inside a Spanish notice is not an English notice.
_SHARE = 0.25


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
    pending: list[Block] = []  # blocks that say too little (a heading, an address): the next run's
    for block in ext.blocks:
        lang = language_of(block.text)
        if lang is None:
            pending.append(block)
            continue
        weight = len(_WORD.findall(block.text))
        if runs and lang == runs[-1][0]:
            _, blocks, w = runs[-1]
            runs[-1] = (lang, [*blocks, *pending, block], w + weight)
        else:
            runs.append((lang, [*pending, block], weight))
        pending = []
    if pending:
        if runs:
            lang, blocks, w = runs[-1]
            runs[-1] = (lang, blocks + pending, w)
        else:
            runs.append((None, pending, 0))
    total = sum(w for _, _, w in runs)
    merged = [list(r) for r in runs]
    # The smallest run under the share goes to its neighbours (both, when they are one language).
    while len(merged) > 1:
        i = min(range(len(merged)), key=lambda k: merged[k][2])
        if merged[i][2] >= _SHARE * total:
            break
        before = merged[i - 1] if i else None
        after = merged[i + 1] if i + 1 < len(merged) else None
        if before and after and before[0] == after[0]:
            merged[i - 1 : i + 2] = [
                [
                    before[0],
                    before[1] + merged[i][1] + after[1],
                    before[2] + merged[i][2] + after[2],
                ]
            ]
        elif before and (not after or before[2] >= after[2]):
            merged[i - 1 : i + 1] = [
                [before[0], before[1] + merged[i][1], before[2] + merged[i][2]]
            ]
        else:
            assert after is not None
            merged[i : i + 2] = [[after[0], merged[i][1] + after[1], merged[i][2] + after[2]]]
    if len(merged) <= 1:
        return [((merged[0][0] if merged else None) or Language.EN, ext)]
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
