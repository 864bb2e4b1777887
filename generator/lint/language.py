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
# A run with less than this share of the text's signal words is absorbed by its neighbours (an
# English legal description inside the Spanish version); a language with less than `_SHARE` of
# them is not a version of the notice (a Spanish line offering help in a notice in English).
_RUN_SHARE = 0.1
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
            # Extended in place: a run of 400,000 blocks (10,000 letters) is not copied each time.
            blocks += [*pending, block]
            runs[-1] = (lang, blocks, w + weight)
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
        if merged[i][2] >= _RUN_SHARE * total:
            break
        before = merged[i - 1] if i else None
        after = merged[i + 1] if i + 1 < len(merged) else None
        if before and after and before[0] == after[0]:
            joined = [
                before[0],
                before[1] + merged[i][1] + after[1],
                before[2] + merged[i][2] + after[2],
            ]
            merged[i - 1 : i + 2] = [joined]
        elif before and (not after or before[2] >= after[2]):
            merged[i - 1 : i + 1] = [
                [before[0], before[1] + merged[i][1], before[2] + merged[i][2]]
            ]
        elif after:
            merged[i : i + 2] = [[after[0], merged[i][1] + after[1], merged[i][2] + after[2]]]
    # A language with too small a share of the text is not a version of the notice.
    share = {lang: sum(r[2] for r in merged if r[0] == lang) for lang in (Language.EN, Language.ES)}
    spoken = [
        lang for lang in (Language.EN, Language.ES) if share[lang] and share[lang] >= _SHARE * total
    ]
    if len(spoken) < 2:
        main = max(share, key=lambda lang: share[lang]) if total else Language.EN
        return [(main, ext)]
    # Each language's runs together, in order: side by side, a PDF reads each page's columns
    # one after the other, so the versions alternate page by page.
    order = [r[0] for r in merged]
    return [
        (lang, replace(ext, blocks=[b for r in merged if r[0] == lang for b in r[1]], notes=[]))
        for lang in sorted(set(spoken), key=order.index)
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
