"""The one list of document builders.

Adding a kind of document is one module and its templates, then one line here.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from pathlib import Path
from typing import Any

from generator import plan, processes
from generator.agenda import PreparedAgenda
from generator.documents import (
    affidavit_of_publication,
    agenda_notice,
    certificate_of_posting,
    change_map,
    display_ad,
    firm_mailing_list,
    insertion_order,
    labels,
    letters,
    mailing_list,
    newspaper_notice,
    posting_notice,
    proof_of_mailing,
    recipients,
    remailing,
    schedule,
    sign,
    sufficiency_certificate,
    transmittal,
    website_notice,
)
from generator.documents.base import Built, DocumentType
from generator.kinds import DocumentKind
from generator.prepare import Prepared
from generator.render import docx, languages, pdf, templates

DOCUMENTS: tuple[DocumentType[Prepared], ...] = (
    change_map.DOCUMENT,
    newspaper_notice.DOCUMENT,
    schedule.DOCUMENT,
    recipients.DOCUMENT,
    labels.DOCUMENT,
    mailing_list.DOCUMENT,
    firm_mailing_list.DOCUMENT,
    letters.DOCUMENT,
    remailing.DOCUMENT,
    transmittal.DOCUMENT,
    display_ad.DOCUMENT,
    website_notice.DOCUMENT,
    posting_notice.DOCUMENT,
    sign.DOCUMENT,
    *proof_of_mailing.DOCUMENTS,
    affidavit_of_publication.DOCUMENT,
    insertion_order.DOCUMENT,
    certificate_of_posting.DOCUMENT,
    sufficiency_certificate.DOCUMENT,
)
# What an agenda's packet holds (`notices build --agenda`): its one notice and its one proof.
AGENDA_DOCUMENTS: tuple[DocumentType[PreparedAgenda], ...] = (
    agenda_notice.DOCUMENT,
    agenda_notice.AFFIDAVIT,
    insertion_order.AGENDA_DOCUMENT,
)
# Every file the builders write, the most specific pattern first (`{name}-poster.pdf` before
# `{name}.pdf`), to tell what a packet file is from its name.
_FILES = sorted(
    ((f, d.kind) for d in (*DOCUMENTS, *AGENDA_DOCUMENTS[:1]) for f in d.files),
    key=lambda x: -len(x[0].pattern),
)
_EDITED = ".edited-"


def lint_kind(path: Path) -> DocumentKind | None:
    """The kind of notice the linter reads a packet file as (None: not a notice).

    `newspaper_notice-council.edited-1.docx` is read as its original,
    `newspaper_notice-council.docx`; `posting_notice-poster.pdf` as a sign.
    """
    stem = path.name[: -len(path.suffix)] if path.suffix else path.name
    if _EDITED in stem:
        stem = stem[: stem.index(_EDITED)]
    suffix = path.suffix.lower().lstrip(".")
    for f, kind in _FILES:
        if f.format.value == suffix and f.matches(stem, kind):
            return f.lint
    return None


def reference() -> str:
    """The documents reference (docs/documents.md), generated from the registry."""
    out = [
        "# Documents",
        "",
        "Generated from `generator/documents/registry.py` by `make docs`; do not edit by hand.",
        "Every kind of document `notices build` makes, the files it writes (`{name}` is the",
        "planned document's name, such as `newspaper_notice-council`), how `notices lint` reads",
        "each file, and what the builder needs of the prepared case.",
        "",
        "| kind | files | linted as | needs | what it is |",
        "|---|---|---|---|---|",
    ]
    for doc in (*DOCUMENTS, *AGENDA_DOCUMENTS):
        files = ", ".join(f"`{f.pattern}`" for f in doc.files)
        linted = ", ".join(dict.fromkeys(f.lint.value for f in doc.files if f.lint)) or "—"
        out.append(
            f"| {doc.kind.value} | {files} | {linted} | {', '.join(doc.needs)} | {doc.summary} |"
        )
    return "\n".join(out) + "\n"


def make(prepared: Prepared, kinds: tuple[DocumentKind, ...] | None = None) -> Built:
    """Every document the law requires of the prepared case (or only those of `kinds`).

    A notice the plan requires that no builder made (a channel with no builder, nobody to mail)
    is named for the clerk to give by hand (PLAN007).
    """
    said = languages.speech(prepared.pack, prepared.case)
    tpl = templates.for_pack(prepared.pack).speaking(said)
    # A pack-worded clause (`template`, slots filled per case) is printed as the pack words it.
    wordings = [
        (b.rule.id, "" if b.params.template else b.params.wording or "")
        for planned in prepared.plan.documents
        for b in planned.clauses
        if b.params.wording or b.params.template
    ]
    made = Built(findings=tuple(languages.left_in_english(prepared.case, wordings, said)))
    chosen = [d for d in DOCUMENTS if (kinds is None or d.kind in kinds) and d.required(prepared)]
    for built in _build_all(chosen, prepared, tpl):
        made += built
    if kinds is not None:
        return made
    given = {rule for out in made.outputs for rule in out.rules}
    seen: set[str] = set()
    by_hand = []
    for planned in prepared.plan.documents:
        for b in planned.notices:
            if not set(b.ids) & given and b.rule.id not in seen:
                seen.add(b.rule.id)
                by_hand.append(plan.by_hand(b))
    return made + Built(findings=tuple(by_hand))


# Built beside the rest, in a worker process, where there is a second core, the costliest first:
# the signs are laid out a few times each to find their letter height. What these return is
# small; the letters stay here (a large mailing's PDF should not be copied back), and so do the
# proofs of mailing (they go through the whole mailing).
_ASIDE = (
    DocumentKind.SIGN,
    DocumentKind.AFFIDAVIT_OF_PUBLICATION,
    DocumentKind.INSERTION_ORDER,
    DocumentKind.CERTIFICATE_OF_POSTING,
    DocumentKind.SCHEDULE,
    DocumentKind.WEBSITE_NOTICE,
)
_JOB: tuple[list[DocumentType[Prepared]], Prepared, templates.Templates, list[int], Any] | None
_JOB = None


def _build_all(
    docs: list[DocumentType[Prepared]], prepared: Prepared, tpl: templates.Templates
) -> list[Built]:
    """Each of `docs` built, in order; those of `_ASIDE` in a worker process meanwhile.

    The worker takes them costliest first; this process builds the rest, then takes them from
    the other end, so the two cores finish together whatever the case's documents cost. Not
    from a worker (a build among several cases already has every core busy) nor where
    `processes.pool` declines (one core, threads running). Forked, the worker inherits the
    case and templates, which need not pickle.
    """
    global _JOB
    aside = sorted(
        (i for i, d in enumerate(docs) if d.kind in _ASIDE),
        key=lambda i: _ASIDE.index(docs[i].kind),
    )
    workers = None
    # Only with signs to fit: the rest of a case's documents take too little for a second
    # process to pay for itself.
    signs = any(docs[i].kind == DocumentKind.SIGN for i in aside)
    if signs and len(aside) < len(docs) and multiprocessing.parent_process() is None:
        pdf.load()  # here, once: the worker forked after inherits WeasyPrint, its fonts
        docx.load()  # and docxtpl
        workers = processes.pool(min(processes.cpus(), 2) - 1, beside=True)
    if workers is None:
        return [d.build(prepared, tpl) for d in docs]
    # The first of `aside` nobody has taken, and one past the last: shared with the worker.
    _JOB = (docs, prepared, tpl, aside, multiprocessing.Array("i", [0, len(aside)]))
    try:
        with workers:
            future = workers.submit(_build_aside)  # forks now, with `_JOB` set
            built = {i: d.build(prepared, tpl) for i, d in enumerate(docs) if i not in aside}
            while (i := _take(last=True)) is not None:
                built[i] = docs[i].build(prepared, tpl)
            # A worker that could not run or failed: its documents are built here below, where
            # an error is raised as it is without a worker (an error object does not always
            # come back whole from another process).
            with contextlib.suppress(Exception):
                built.update(future.result())
    finally:
        _JOB = None
    for i in range(len(docs)):
        if i not in built:
            built[i] = docs[i].build(prepared, tpl)
    return [built[i] for i in range(len(docs))]


def _take(*, last: bool) -> int | None:
    """A document of those set aside that nobody has taken: the first, or the `last`."""
    assert _JOB is not None
    aside, ends = _JOB[3], _JOB[4]
    with ends.get_lock():
        if ends[0] >= ends[1]:
            return None
        end = 1 if last else 0
        ends[end] += -1 if last else 1
        return aside[ends[end]] if last else aside[ends[end] - 1]


def _build_aside() -> list[tuple[int, Built]]:
    """In the worker: the documents set aside (`_JOB`, as forked), until none is left."""
    assert _JOB is not None
    docs, prepared, tpl = _JOB[:3]
    done = []
    while (i := _take(last=False)) is not None:
        done.append((i, docs[i].build(prepared, tpl)))
    return done


def make_agenda(agenda: PreparedAgenda) -> Built:
    """Every document of an agenda's packet: the combined notice, and its proof where wanted."""
    tpl = templates.for_pack(agenda.items[0].prepared.pack)
    made = Built()
    for doc in AGENDA_DOCUMENTS:
        if doc.required(agenda):
            made += doc.build(agenda, tpl)
    return made
