"""`notices`: the command line. It only wires the stages together and maps errors to exit codes.

Heavy libraries (WeasyPrint, docxtpl, pydantic) are imported inside the commands, so that
`notices --help` answers at once.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from generator import __version__
from generator.errors import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_OK,
    GeneratorError,
    UserError,
)

if TYPE_CHECKING:
    from datetime import date


def _run(debug: bool, packet: Path | None, body: Callable[[], int]) -> int:
    """Run a command body; report errors as DESIGN.md §6 says and return the exit status.

    An internal error's traceback goes to `<packet>.error.log` beside the packet folder `packet`
    (not into it: that folder holds a whole packet or nothing, and may not exist).
    """
    import traceback  # here, not at the top: `notices --help` answers without them

    from generator.paths import data_paths

    try:
        data_paths()  # a data folder named but missing stops every command, naming who named it
        return body()
    except UserError as exc:
        for problem in exc.problems:
            click.echo(f"error: {problem}", err=True)
        return EXIT_INPUT
    except GeneratorError as exc:
        click.echo(f"error: {exc}", err=True)
        return exc.exit_code
    except Exception as exc:  # the one place that turns a bug into exit 70
        trace = traceback.format_exc()
        log = None if debug or packet is None else _error_log(packet, trace)
        if log is None:
            click.echo(trace, err=True)
        else:
            click.echo(f"internal error: {exc!r} (traceback in {log})", err=True)
        return EXIT_INTERNAL


def _error_log(packet: Path, trace: str) -> Path | None:
    """Write `trace` beside the packet folder, through the one writer; None if it cannot be."""
    from generator.paths import safe_name
    from generator.writer import write

    name = f"{packet.name}.error.log" if safe_name(packet.name) else "error.log"
    try:
        packet.parent.mkdir(parents=True, exist_ok=True)
        return write(packet.parent, name, trace.encode())
    except (OSError, UserError):
        return None  # a link or a file in the way: the traceback goes to the terminal instead


def as_of_option(help: str) -> Callable[[Any], Any]:
    """The `--as-of DAY` option of the commands that judge a case on a day."""
    return click.option(
        "--as-of",
        "as_of",
        type=click.DateTime(formats=["%Y-%m-%d"]),
        default=None,
        callback=lambda _ctx, _param, value: _case_day(value),
        help=help,
    )


OUT = click.option(
    "--out",
    "out_root",
    default="output",
    show_default=True,
    type=click.Path(path_type=Path, file_okay=False),
    help="Folder that receives <case-id>/.",
)


CLUSTER = click.option(
    "--cluster",
    metavar="ADDRESS",
    default=None,
    help="Run each case or file as a task on this Dask scheduler (tcp://HOST:8786); the"
    " paths must be on storage every worker sees. Default: this machine's cores.",
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="notices")
def app() -> None:
    """Zoning Notices: legal notice packets for zoning-amendment hearings."""


@app.command()
@click.argument("cases", nargs=-1, type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option(
    "--agenda",
    "agenda",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="An agenda file (agendas/*.yaml): one combined notice of its cases, into"
    " OUT/agenda-<id>/.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option("--debug", is_flag=True, help="Print tracebacks of internal errors.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Print every finding (errors are always printed)."
)
@CLUSTER
def build(
    cases: tuple[Path, ...],
    out_root: Path,
    agenda: Path | None,
    fmt: str,
    debug: bool,
    verbose: bool,
    cluster: str | None,
) -> None:
    """Build the notice packet of each CASE into OUT/<case-id>/ (or of an --agenda)."""
    if agenda is not None or not cases:
        if agenda is None or cases:
            both = " (not both)" if cases else ""
            click.echo(f"error: give case files, or --agenda FILE{both}", err=True)
            sys.exit(EXIT_INPUT)
        if cluster is not None:
            click.echo("error: --cluster builds case files, not an --agenda", err=True)
            sys.exit(EXIT_INPUT)
        sys.exit(_build_agenda(agenda, out_root, fmt=fmt, debug=debug, verbose=verbose))

    def body() -> int:
        from generator import batch

        worst = EXIT_OK
        manifests = []
        job = functools.partial(
            _build_one, out_root=out_root, fmt=fmt, debug=debug, verbose=verbose
        )
        for status, manifest, out, err in batch.run(job, list(cases), cluster=cluster):
            click.echo(out, nl=False)
            click.echo(err, nl=False, err=True)
            worst = max(worst, status)
            if manifest is not None:
                manifests.append(manifest)
        if fmt == "json":
            click.echo(
                json.dumps(
                    manifests[0] if len(manifests) == 1 else manifests, indent=2, ensure_ascii=False
                )
            )
        elif not verbose and any(
            f["severity"] != "error" for m in manifests for f in m["findings"]
        ):
            click.echo(
                "Warnings and notes: `notices build -v` prints them;"
                " every finding is in the packet's manifest.json."
            )
        return worst

    sys.exit(_run(debug, None, body))


def _build_one(
    case_path: Path, *, out_root: Path, fmt: str, debug: bool, verbose: bool, capture: bool = False
) -> tuple[int, dict | None, str, str]:
    """Build one case: its exit status, manifest, and what it printed (when `capture`)."""
    import contextlib
    import io

    manifest: list[dict] = []

    def one() -> int:
        from generator.packet import build as build_packet

        bar = _Progress(case_path.stem)
        result = build_packet(case_path, out_root, progress=bar)
        bar.finish()
        manifest.append(result.manifest)
        if fmt == "text":
            _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    if not capture:
        return _run(debug, out_root / case_path.stem, one), (manifest or [None])[0], "", ""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = _run(debug, out_root / case_path.stem, one)
    return status, (manifest or [None])[0], out.getvalue(), err.getvalue()


def _build_agenda(path: Path, out_root: Path, *, fmt: str, debug: bool, verbose: bool) -> int:
    """Build an agenda's packet (`notices build --agenda`): its exit status."""

    def one() -> int:
        from generator.packet import build_agenda

        result = build_agenda(path, out_root)
        if fmt == "json":
            click.echo(json.dumps(result.manifest, indent=2, ensure_ascii=False))
        else:
            _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    stem = path.name.removesuffix(".yaml").removesuffix(".yml")
    return _run(debug, out_root / f"agenda-{stem}", one)


class _Progress:
    """A counter on the terminal for large mailings (from the 500th letter on)."""

    def __init__(self, name: str) -> None:
        self.name, self.shown = name, -1

    def __call__(self, n: int) -> None:
        if n >= 500 and sys.stderr.isatty() and n // 250 != self.shown:
            self.shown = n // 250
            click.echo(f"\r  {self.name}: {n:,} letters made", nl=False, err=True)

    def finish(self) -> None:
        if self.shown >= 0:
            click.echo(err=True)


def _print_build(result: Any, *, verbose: bool) -> None:
    """One line for the packet: ready or not, and its findings counted by severity.

    Errors are always listed, and the edited drafts kept aside; warnings and notes only with
    `--verbose` (every finding is in the packet's manifest.json either way).
    """
    from generator import findings

    m = result.manifest
    status = "ready" if m["ready"] else "NOT READY"
    notices = [d for d in m["documents"] if d["kind"] != "map"]
    made = _count(len(m["documents"]), "file")
    if not notices:
        made += " (no notice this version generates is required)"
    severity = [f["severity"] for f in m["findings"]]
    counts = ", ".join(
        _count(severity.count(s), word)
        for s, word in (("error", "error"), ("warning", "warning"), ("info", "note"))
    )
    by_hand = sum(f["code"] == "PLAN007" for f in m["findings"])
    if by_hand:
        counts += f" ({_count(by_hand, 'notice')} to give by hand)"
    click.echo(f"{result.folder}: {status} — {made}, {counts}")
    for f in m["findings"]:
        if f["severity"] != "error" and not verbose:
            continue
        at = findings.where(f["location"])
        where = f" [{f['document']}{', ' + at if at else ''}]" if f["document"] else ""
        cite = f" ({f['citation']})" if f["citation"] else ""
        rule = f" {f['rule']}:" if f["rule"] else ""
        click.echo(f"  {f['severity']} {f['code']}{rule} {f['message']}{cite}{where}")
    for name in result.kept:
        click.echo(
            f"  warning: an edited draft was kept as {name}; the new draft replaces the original"
        )


def _count(n: int, word: str) -> str:
    """`1 note`, `2 notes`."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _case_day(value: Any) -> Any:
    """Refuse an `--as-of` day outside the years a case's days may take, as the case's own."""
    if value is None:
        return None
    from generator.models.base import case_day

    try:
        case_day(value.date())
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    return value


@app.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json", "ics"]), default="text", show_default=True
)
@as_of_option("Judge lateness from this day (default: the case's `as_of`, else today).")
def schedule(case: Path, fmt: str, as_of: Any) -> None:
    """Print every deadline of CASE: the lawful window, newspaper issues, rule and derivation."""

    def body() -> int:
        from generator.documents import schedule as files
        from generator.prepare import prepare
        from generator.render import schedule_text

        prepared = prepare(case, as_of=as_of.date() if as_of else None)
        if fmt == "json":
            click.echo(files.as_json(prepared), nl=False)
        elif fmt == "ics":
            sys.stdout.buffer.write(files.as_ics(prepared))
        else:
            c = prepared.case
            title = f"Schedule of case {c.case_number} ({c.jurisdiction}), judged as of {prepared.judged_on.isoformat()}"
            click.echo(schedule_text.table(list(prepared.deadlines), title), nl=False)
        if prepared.late:
            raise UserError(list(prepared.late))
        return EXIT_OK

    sys.exit(_run(False, None, body))


@app.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@as_of_option("Judge what is due on this day (default: the case's `as_of`, else today).")
def check(case: Path, fmt: str, as_of: Any) -> None:
    """Judge CASE's record against the plan and the law: met, missed, not yet due, no record.

    Exit 0 when nothing due is missed or unrecorded, 1 when something is, 2 on bad input.
    """

    def body() -> int:
        from generator.check import check as judge
        from generator.prepare import prepare

        day = as_of.date() if as_of else None
        result = judge(prepare(case, as_of=day), day)
        if fmt == "json":
            click.echo(json.dumps(result.as_json(), indent=2))
        else:
            click.echo(_check_text(result), nl=False)
        return EXIT_FINDINGS if result.failing else EXIT_OK

    sys.exit(_run(False, None, body))


def _check_text(result: Any) -> str:
    """The check result as the terminal shows it, requirement by requirement."""
    lines = [f"Judged as of {result.judged_on.isoformat()}"]
    for r in result.requirements:
        lines.append(f"{r.status.upper():12} {r.hearing}: {r.what}")
        if r.rule:
            lines.append(f"    {r.citation}  [{r.rule}]")
        if r.deadline:
            lines.append(f"    deadline: {r.deadline}")
        if r.derivation:
            lines.append(f"    derivation: {r.derivation}")
        if r.recorded:
            lines.append(f"    recorded: {r.recorded}")
        for e in r.evidence:
            lines.append(f"    evidence: {e.path}{'' if e.on_file else ' (NOT ON FILE)'}")
        if r.note:
            lines.append(f"    note: {r.note}")
    failing = len(result.failing)
    lines.append(f"{len(result.requirements)} requirements, {failing} missed or unrecorded")
    return "\n".join(lines) + "\n"


@app.command()
@click.argument("case", required=False, type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--inspect",
    "inspect_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Instead: list the fields of this parcel layer and the preset that fits it.",
)
@click.option("--layer", "layer_name", help="With --inspect: the layer of a multi-layer file.")
def recipients(
    case: Path | None,
    out_root: Path,
    fmt: str,
    inspect_path: Path | None,
    layer_name: str | None,
) -> None:
    """Write who must be notified of CASE, and the map: OUT/<case-id>/recipients.csv, .geojson, map.svg/.png.

    With --inspect LAYER, list the layer's fields with sample values and the field-map preset
    (`gis.parcels.schema`) that fits it, and print the `gis.parcels:` block to paste.
    """
    if inspect_path is not None:
        sys.exit(_run(False, None, lambda: _inspect(inspect_path, layer_name, fmt)))
    if case is None:
        raise click.UsageError("give a CASE, or --inspect LAYER")
    if layer_name is not None:
        raise click.UsageError("--layer goes with --inspect")

    def body() -> int:
        from generator.packet import write_recipients

        result = write_recipients(case, out_root)
        if fmt == "json":
            click.echo(json.dumps(result.manifest, indent=2, ensure_ascii=False))
            return EXIT_OK
        prov = result.manifest["recipients"]
        click.echo(f"{result.folder}: {result.manifest['count']} recipients")
        for rule in prov.get("rules", []):
            dist = f" within {rule['distance_ft']:g} ft" if rule.get("distance_ft") else ""
            click.echo(
                f"  {rule['rule']} ({rule['citation']}): {rule['group']}{dist}: {rule['parcels']} parcels"
            )
        for layer in prov.get("layers", []):
            as_of = layer["as_of"] or "not given"
            # A file is marked by its hash; a database table by its rows and change marker.
            marker = (
                f"sha256 {layer['sha256'][:12]}"
                if "sha256" in layer
                else f"table {layer['table']}, {layer['rows']:,} rows, change marker {layer['change_marker']}"
            )
            click.echo(f"  read {layer['path']} ({layer['crs']}; {marker}; as of {as_of})")
        for f in result.manifest["findings"]:
            click.echo(f"  {f['severity']} {f['code']}: {f['message']}")
        for name in result.kept:
            click.echo(f"  warning: an edited file was kept as {name}")
        return EXIT_OK

    sys.exit(_run(False, out_root / case.stem, body))


def _inspect(path: Path, layer: str | None, fmt: str) -> int:
    """`notices recipients --inspect`: a layer's fields and the preset that fits it."""
    import dataclasses

    from generator.gis.inspect import inspect_layer, paste_block, report

    ins = inspect_layer(path, layer)
    if fmt == "json":
        data = dataclasses.asdict(ins)
        data["path"] = str(ins.path)
        data["best"] = ins.best.preset if ins.best else None
        data["paste"] = paste_block(ins)
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        click.echo(report(ins), nl=False)
    return EXIT_OK


@app.command()
@click.argument("jurisdiction", required=False)
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="Only the rules that bind this case, with what its preparation found.",
)
@click.option(
    "--on",
    "on",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Only the rules in force on this date (YYYY-MM-DD).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--reference",
    is_flag=True,
    help="Instead: the pack format itself, every field, slot and fact (no JURISDICTION).",
)
def explain(
    jurisdiction: str | None, case_path: Path | None, on: Any, fmt: str, reference: bool
) -> None:
    """Print a rule pack (JURISDICTION, or the pack of --case) as a checklist with citations and its state/local conflicts."""

    def body() -> int:
        from generator.rules import explain as ex
        from generator.rules.loader import resolve

        if reference:
            click.echo(ex.reference(), nl=False)
            return EXIT_OK
        if bool(jurisdiction) == bool(case_path):
            raise UserError("give a JURISDICTION or --case CASE (one of them)")
        day: date | None = on.date() if on else None
        if case_path is None:
            resolved, only, scope, found = resolve(str(jurisdiction)), None, None, []
        else:
            from generator.prepare import prepare

            prepared = prepare(case_path)
            resolved, only, found = prepared.pack, prepared.rule_ids, list(prepared.findings)
            hearings = ", ".join(
                f"{h.body_name} {h.date.isoformat()}" for h in prepared.case.hearings
            )
            scope = f"Rules that bind case {prepared.case.case_number} (hearings: {hearings})."
        if fmt == "text":
            click.echo(ex.checklist(resolved, day, only, scope), nl=False)
            if case_path is not None:
                click.echo("\nWHAT PREPARING THE CASE FOUND")
                for f in found or []:
                    click.echo(f"  {f.severity} {f.code}: {f.message}")
                if not found:
                    click.echo("  nothing")
        else:
            data = ex.as_json(resolved, day, only)
            if case_path is not None:
                data["findings"] = [f.as_dict() for f in found]
            click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK

    sys.exit(_run(False, None, body))


@app.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The case the documents give notice of: also check its facts, dates and recipients.",
)
@click.option("--jurisdiction", help="Without a case: the pack whose clauses to require.")
@click.option(
    "--packs",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Without a case: a folder of packs, searched before jurisdictions/.",
)
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


@app.command()
@click.argument("generated", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.argument("edited", type=click.Path(path_type=Path, dir_okay=False, exists=True))
@click.option(
    "--out",
    "out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The redline to write (default: redline-EDITED.docx beside the edited draft).",
)
@click.option(
    "--html",
    "html_out",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The same diff as a web page (default: the redline's name with .html).",
)
@click.option(
    "--author",
    help="Whom the changes are attributed to (default: the edited file's lastModifiedBy).",
)
@click.option(
    "--case",
    "case_path",
    type=click.Path(path_type=Path, dir_okay=False),
    help="The case the notice is of (default: the one the generated file's packet names).",
)
@click.option("--jurisdiction", help="Without a case: the pack whose clauses to require.")
@click.option(
    "--packs",
    type=click.Path(path_type=Path, file_okay=False, exists=True),
    help="Without a case: a folder of packs, searched before jurisdictions/.",
)
@click.option("--kind", help="The kind of notice (default: what the generated file's name says).")
def redline(
    generated: Path,
    edited: Path,
    out: Path | None,
    html_out: Path | None,
    author: str | None,
    case_path: Path | None,
    jurisdiction: str | None,
    packs: Path | None,
    kind: str | None,
) -> None:
    """Write a lawyer's edits to a generated DOCX as tracked changes, findings as comments."""

    def body() -> int:
        from generator.redline import editor, lint_draft
        from generator.redline import redline as write_redline

        if case_path and jurisdiction:
            raise UserError(
                "give --case or --jurisdiction, not both: a case names its jurisdiction"
            )
        who = editor(edited, author)  # before the linter's work: a redline names its editor
        found = lint_draft(
            edited,
            generated=generated,
            case_path=case_path,
            jurisdiction=jurisdiction,
            kind=kind,
            packs=packs,
        )
        target = out or edited.with_name(f"redline-{edited.stem}.docx")
        made = write_redline(
            generated,
            edited,
            target,
            findings=found,
            author=who,
            html_out=html_out or target.with_suffix(".html"),
        )
        click.echo(
            f"{made.docx}: changes by {made.author}: {made.changed} paragraphs changed,"
            f" {made.deleted} deleted, {made.inserted} inserted;"
            f" {_count(made.comments, 'comment')}"
            + (
                f" ({len(found) - made.comments} not placed: the draft has no paragraph)"
                if len(found) > made.comments
                else ""
            )
        )
        click.echo(f"{made.html}: the same, as a web page")
        return EXIT_OK

    sys.exit(_run(False, None, body))


@app.command("continue")
@click.argument("case_path", metavar="CASE", type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option("--debug", is_flag=True, help="Print tracebacks of internal errors.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Print every finding (errors are always printed)."
)
def continue_(case_path: Path, out_root: Path, debug: bool, verbose: bool) -> None:
    """Re-notice the hearings CASE's record says were continued, and rebuild its packet.

    Where the law lets a hearing be continued by announcement to a date certain, nothing is
    noticed again and the schedule marks the continuance; otherwise the continued hearing is
    noticed in full, with new deadlines. The documents the rebuild changes are kept in the
    packet's history/ folder.
    """

    def body() -> int:
        from generator import continuance
        from generator.errors import UserError
        from generator.inputs import load_case
        from generator.packet import build as build_packet
        from generator.rules.loader import resolve

        cf = load_case(case_path)
        continued = continuance.decide(cf, resolve(cf.case.jurisdiction))
        if not continued:
            raise UserError(
                cf.problem(
                    ("record", "hearings"),
                    "the record holds no continued hearing (give a hearing's `continued_to`)",
                )
            )
        for c in continued:
            what = "noticed again in full" if c.renotice else "no new notice"
            click.echo(
                f"{c.hearing.body_name}: held {c.held.held_on}, continued to {c.new_date}: {what}"
            )
        result = build_packet(
            continuance.continued_case(cf, continued),
            out_root,
            history=continuance.history_label(continued),
        )
        _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    sys.exit(_run(debug, out_root / case_path.stem, body))


@app.command()
@click.argument("case_path", metavar="CASE", type=click.Path(path_type=Path, dir_okay=False))
@OUT
@click.option("--debug", is_flag=True, help="Print tracebacks of internal errors.")
@click.option(
    "-v", "--verbose", is_flag=True, help="Print every finding (errors are always printed)."
)
def returned(case_path: Path, out_root: Path, debug: bool, verbose: bool) -> None:
    """Record the letters CASE's record lists as returned undeliverable, and rebuild its packet.

    Says what the law requires next for each, writes the re-mailing (remail-letters-*.pdf) to
    the other address the tax record holds, and lists the returned pieces on the proof of
    mailing; the documents the rebuild changes are kept in the packet's history/ folder.
    """

    def body() -> int:
        from generator.errors import UserError
        from generator.inputs import load_case
        from generator.packet import build as build_packet

        cf = load_case(case_path)
        record = cf.case.record
        if record is None or not record.returned_mail:
            raise UserError(
                cf.problem(("record",), "the record lists no returned letters (`returned_mail`)")
            )
        label = f"{max(r.received_on for r in record.returned_mail).isoformat()}-returned"
        result = build_packet(cf, out_root, history=label)
        for f in result.manifest["findings"]:
            if f["code"].startswith("RET"):
                click.echo(f"{f['code']}: {f['message']}")
        _print_build(result, verbose=verbose)
        return EXIT_OK if result.ready else EXIT_FINDINGS

    sys.exit(_run(debug, out_root / case_path.stem, body))


@app.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--signers",
    type=click.Path(path_type=Path, dir_okay=False),
    help="CSV or GeoJSON of the signing parcels (parcel_id, signed_on); default: the case's record.",
)
@click.option(
    "--filed",
    type=click.DateTime(formats=["%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M"]),
    default=None,
    help="When the petition was filed, local time (default: the case's record).",
)
@OUT
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def protest(case: Path, signers: Path | None, filed: Any, out_root: Path, fmt: str) -> None:
    """Weigh a protest petition against CASE's pack: area, shares, threshold, filing time; write the report."""

    def body() -> int:
        from generator import protest as weighing
        from generator.documents.protest_report import write_report
        from generator.inputs import load_case
        from generator.rules.loader import resolve

        cf = load_case(case)
        pack = resolve(cf.case.jurisdiction)
        path, when = signers, filed
        filed_record = (
            cf.case.record.protests[-1] if cf.case.record and cf.case.record.protests else None
        )
        if path is None:
            if filed_record is None:
                raise UserError(
                    "give --signers FILE, or record the protest in the case (record.protests)"
                )
            path = cf.resolve(str(filed_record.signers))
            if not path.is_file():
                at = ("record", "protests", len(cf.case.record.protests) - 1, "signers")
                raise UserError(cf.problem(at, f"no such file: {path}"))
        if when is None and filed_record is not None:
            when = filed_record.filed_at
        weighed = weighing.weigh(cf, pack, weighing.read_signers(path), when)
        votes = _votes_of(cf, pack, None, None, None, weighed.valid, weighed)
        written = write_report(cf, pack, weighed, votes, out_root)
        if fmt == "json":
            click.echo(json.dumps(weighed.as_json(), indent=2, ensure_ascii=False))
            return EXIT_OK
        for t in weighed.tests:
            click.echo(f"{t.threshold.of} ({'met' if t.met else 'not met'}):")
            for step in t.derivation:
                click.echo(f"  {step}")
        d = weighed.deadline
        if d is not None:
            click.echo(f"filing deadline {d.latest}: {d.derivation}")
        on_time = {None: "filing time not given", True: "filed in time", False: "filed LATE"}
        click.echo(
            f"{on_time[weighed.on_time]}; threshold {'met' if weighed.threshold_met else 'not met'}"
        )
        click.echo(f"supermajority required: {'yes' if weighed.valid else 'no'}")
        if votes is not None:
            for step in votes.derivation:
                click.echo(f"  {step}")
        for note in weighed.notes:
            click.echo(f"  note: {note}")
        for p in written:
            click.echo(f"wrote {p}")
        return EXIT_OK

    sys.exit(_run(False, out_root / case.stem, body))


def _votes_of(
    cf: Any,
    pack: Any,
    members: int | None,
    vacancies: int | None,
    unable: int | None,
    protest: bool,
    weighed: Any = None,
) -> Any:
    """Votes needed, the body's figures from the options, else the recorded vote, else `council_size`."""
    from generator import protest as weighing
    from generator.votes import votes_needed

    case = cf.case
    held = [
        h.vote
        for h in (case.record.hearings if case.record else [])
        if h.hearing.body == "council" and h.vote
    ]
    vote = held[-1] if held else None
    full = members or (vote.full_membership if vote else case.council_size)
    if full is None:
        return None
    if vacancies is None:
        vacancies = vote.vacancies if vote else 0
    if unable is None:
        # Only a conflict of interest takes a member out of the count; an absent member is a member.
        unable = sum(1 for m in vote.unable_to_vote if m.reason == "conflict") if vote else 0
    met = [t.threshold for t in weighed.tests if t.met] if weighed is not None else None
    return votes_needed(
        weighing.protest_binding(cf, pack), full, vacancies, unable, protest=protest, met=met
    )


@app.command()
@click.argument("case", type=click.Path(path_type=Path, dir_okay=False))
@click.option(
    "--members",
    type=click.IntRange(min=1),
    help="Seats on the body (default: the recorded vote, else council_size).",
)
@click.option("--vacancies", type=click.IntRange(min=0), help="Vacant seats.")
@click.option(
    "--unable", type=click.IntRange(min=0), help="Members unable to vote (a conflict of interest)."
)
@click.option(
    "--protest/--no-protest",
    default=None,
    help="Whether a valid protest was filed (default: the protest the case records, weighed;"
    " with none recorded, both numbers).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def votes(
    case: Path,
    members: int | None,
    vacancies: int | None,
    unable: int | None,
    protest: bool | None,
    fmt: str,
) -> None:
    """Print the favorable votes CASE's amendment needs, with the derivation and the law.

    Whether a valid protest was filed is the option's, else the weighing of the protest the
    case records; with neither, both numbers are printed, so the clerk never reads the
    supermajority as settled when no one has weighed a protest.
    """

    def body() -> int:
        from generator import protest as weighing
        from generator.inputs import load_case
        from generator.rules.loader import resolve

        cf = load_case(case)
        pack = resolve(cf.case.jurisdiction)
        cases: list[tuple[str, bool]] = []
        weighed = None
        recorded = cf.case.record.protests if cf.case.record else []
        if protest is not None:
            cases = [("", protest)]
        elif recorded:
            filed = recorded[-1]
            path = cf.resolve(str(filed.signers))
            if not path.is_file():
                at = ("record", "protests", len(recorded) - 1, "signers")
                raise UserError(cf.problem(at, f"no such file: {path}"))
            weighed = weighing.weigh(cf, pack, weighing.read_signers(path), filed.filed_at)
            valid = "valid" if weighed.valid else "not valid"
            cases = [
                (f"the protest filed {filed.filed_at:%Y-%m-%d %H:%M} is {valid}", weighed.valid)
            ]
        else:
            cases = [("with a valid protest", True), ("without one", False)]
        results = []
        for heading, valid in cases:
            result = _votes_of(cf, pack, members, vacancies, unable, valid, weighed)
            if result is None:
                raise UserError(
                    cf.problem(("council_size",), "give --members N, or council_size in the case")
                )
            results.append((heading, result))
        if fmt == "json":
            out = [r.as_json() | ({"case": h} if h else {}) for h, r in results]
            click.echo(json.dumps(out[0] if len(out) == 1 else out, indent=2, ensure_ascii=False))
            return EXIT_OK
        for heading, result in results:
            needed = "no number stated by the pack" if result.needed is None else str(result.needed)
            lead = f"{heading}: " if heading else ""
            click.echo(f"{lead}votes needed: {needed} ({result.citation or 'no protest rule'})")
            for step in result.derivation:
                click.echo(f"  {step}")
        return EXIT_OK

    sys.exit(_run(False, None, body))


@app.command()
@click.argument(
    "folder", required=False, default=".", type=click.Path(path_type=Path, file_okay=False)
)
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on.")
@click.option("--port", default=8000, show_default=True, help="The port to listen on.")
@click.option(
    "--token",
    envvar="NOTICES_TOKEN",
    help="Required of every request when listening beyond this machine (default: a random one).",
)
def serve(folder: Path, host: str, port: int, token: str | None) -> None:
    """Serve the clerk's web page over FOLDER (its cases/ and output/)."""
    from generator.web import server

    sys.exit(server.run(folder, host=host, port=port, token=token))


def main() -> None:
    """Console-script entry point."""
    app()
