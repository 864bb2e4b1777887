"""`notices lint`: check notices against the law, one by one or as a corpus."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Any

import click

from generator.cli import CLUSTER, JURISDICTION, PACKS, _count, _run
from generator.errors import EXIT_FINDINGS, EXIT_INPUT, EXIT_OK, UserError


@click.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The case the documents give notice of: also check its facts, dates and recipients.",
)
@JURISDICTION
@PACKS
@click.option("--kind", help="Without a case: the kind of document (e.g. newspaper_notice).")
@click.option(
    "--on",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Without a case: the law in force on this date (default: the notice's publication"
    " date, else its hearing date, else the first date it states, else today).",
)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["text", "json", "sarif"]),
    default="text",
    show_default=True,
)
@click.option("--strict", is_flag=True, help="Exit 1 on warnings too.")
@click.option(
    "--against",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="The paper's proof or tear sheet: compare it with this packet's newspaper notice copy.",
)
@click.option(
    "--explain",
    "explain_code",
    metavar="CODE",
    help="Print what a finding means, and why (any code `build` or `lint` reports).",
)
@click.option(
    "--comments",
    is_flag=True,
    help="Also write the findings as Word comments into a copy of the one .docx draft given.",
)
@click.option(
    "--out",
    "comments_out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="With --comments: the copy to write (default: commented-DRAFT.docx beside the draft, a name no packet lint reads).",
)
@click.option(
    "--agenda",
    "agenda",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="The agenda file a combined notice was made from: each case checked in its section"
    " (an agenda packet's folder names its own).",
)
@CLUSTER
@click.option(
    "--results",
    metavar="FILE",
    default=None,
    help="A corpus lint: each PATH linted on its own (a packet folder by its own case), one"
    " JSON line per document written to FILE (a path, or an fsspec URL such as s3://...),"
    " and a summary table printed. --cluster implies it.",
)
def lint(
    paths: tuple[Path, ...],
    case_path: Path | None,
    jurisdiction: str | None,
    packs: Path | None,
    kind: str | None,
    on: Any,
    fmt: str,
    strict: bool,
    against: Path | None,
    explain_code: str | None,
    comments: bool,
    comments_out: Path | None,
    agenda: Path | None,
    cluster: str | None,
    results: str | None,
) -> None:
    """Check notices (TXT, HTML, PDF, DOCX files or packet folders) against the law."""
    if cluster is not None or results is not None:
        if explain_code or comments or against or agenda:
            raise click.UsageError(
                "--cluster and --results lint a corpus: not with --explain, --comments,"
                " --against or --agenda"
            )
        day = on.date() if on else None
        opts = {"case_path": case_path, "jurisdiction": jurisdiction, "kind": kind, "on": day}
        sys.exit(
            _run(
                False,
                None,
                lambda: _lint_corpus(paths, opts | {"packs": packs}, fmt, strict, cluster, results),
            )
        )

    def body() -> int:
        from generator import findings

        if explain_code:
            if explain_code.upper() not in findings.FINDINGS:
                raise UserError(
                    f"no finding {explain_code!r}; codes: {', '.join(findings.FINDINGS)}"
                )
            click.echo(findings.explain(explain_code), nl=False)
            return EXIT_OK
        if not paths:
            raise UserError("give a packet folder or notice files to lint")
        if comments and (len(paths) != 1 or paths[0].suffix.lower() != ".docx"):
            raise UserError("--comments writes into a copy of one Word draft: give one .docx file")
        if comments_out and not comments:
            raise UserError("--out is for --comments")
        if case_path and jurisdiction:
            raise UserError(
                "give --case or --jurisdiction, not both: a case names its jurisdiction"
            )
        from generator.lint import report
        from generator.lint.agenda import lint_agenda_paths
        from generator.lint.engine import LintResult
        from generator.lint.engine import lint as run

        if agenda and (case_path or jurisdiction):
            raise UserError("give --agenda, --case or --jurisdiction: one says what binds")
        if against is not None:
            from generator.lint import proof

            if jurisdiction or kind:
                raise UserError("--against reads the case and the notice from the packet")
            for path in paths:
                if not path.is_file():
                    raise UserError(f"{path}: --against compares a proof file, not a folder")
            result = LintResult.joined(proof.check(p, against, case_path) for p in paths)
        else:
            by_agenda = (
                None if case_path or jurisdiction else lint_agenda_paths(list(paths), agenda)
            )
            result = by_agenda or run(
                list(paths),
                case_path=case_path,
                jurisdiction=jurisdiction,
                kind=kind,
                on=on.date() if on else None,
                packs=packs,
            )
        render = {"text": report.text, "json": report.as_json, "sarif": report.sarif}[fmt]
        click.echo(render(result), nl=False)
        if comments:
            from generator.redline import comment_copy

            draft = paths[0]
            out = comments_out or draft.with_name(f"commented-{draft.stem}.docx")
            n = comment_copy(draft, out, result.findings)
            left = len(result.findings) - n
            click.echo(
                f"{out}: {_count(n, 'comment')}"
                + (
                    f"; {left} not placed (the draft has no paragraph to hold them)" if left else ""
                ),
                err=fmt != "text",
            )
        failed = result.errors or (strict and result.warnings)
        return EXIT_FINDINGS if failed else EXIT_OK

    sys.exit(_run(False, None, body))


def _lint_corpus(
    paths: tuple[Path, ...],
    opts: dict[str, Any],
    fmt: str,
    strict: bool,
    cluster: str | None,
    results: str | None,
) -> int:
    """`notices lint --cluster|--results`: each path a unit of work, JSON Lines and a summary."""
    import contextlib

    from generator import batch
    from generator.lint import corpus

    if not paths:
        raise UserError("give the notice files or packet folders to lint")
    if fmt == "sarif":
        raise UserError("a corpus lint writes JSON Lines (--format json) or a summary table")
    if opts["case_path"] and opts["jurisdiction"]:
        raise UserError("give --case or --jurisdiction, not both: a case names its jurisdiction")
    summary = corpus.Summary()
    job = functools.partial(corpus.lint_one, **opts)
    with contextlib.ExitStack() as stack:
        sink = stack.enter_context(_results_file(results)) if results else None
        for line in corpus.stream(batch.run(job, list(paths), cluster=cluster), summary):
            text = json.dumps(line, ensure_ascii=False)
            if sink is not None:
                sink.write(text + "\n")
            if fmt == "json":
                click.echo(text)
    if fmt == "text":
        click.echo(summary.table(), nl=False)
    if summary.problems:
        return EXIT_INPUT
    failed = summary.with_errors or (strict and summary.with_warnings)
    return EXIT_FINDINGS if failed else EXIT_OK


def _results_file(target: str) -> Any:
    """The JSON Lines file of a corpus lint, open: a local path, or an fsspec URL (s3://...)."""
    try:
        if "://" not in target:
            return Path(target).open("w", encoding="utf-8")
        try:
            import fsspec  # comes with Dask (the `cluster` extra)
        except ImportError:
            raise UserError(
                f"{target}: a URL needs fsspec: pip install 'zoning-notices[cluster]'"
            ) from None
        return fsspec.open(target, "w", encoding="utf-8").open()
    except (ImportError, OSError, ValueError) as exc:  # ImportError: s3fs, gcsfs... missing
        raise UserError(f"{target}: cannot write the results there: {exc}") from None
