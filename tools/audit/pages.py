"""`python -m tools.audit.pages OUTPUT_DIR`: the README's pictures of each kind of document.

For every kind of document the registry lists that prints (a PDF, or the map's PNG), page 1 of
the first sample packet's file of that kind (packets in name order; a sign-size poster only
where there is no sheet) is rendered small and gray into docs/pages/<kind>.png, and the README
section between the `pages:begin` and `pages:end` markers is rewritten to show them. The last
picture is a lawyer's redline of a sample notice (`notices redline`), as LibreOffice prints it.
`make readme-pages` builds the samples and runs it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from PIL import Image

from tools.audit.packet import ROOT, packets

LONG_SIDE_PX = 300
# The redline shown: a sample notice with its hearing time changed and a sentence struck, the
# two edits a lawyer's review most often makes and the linter must catch.
REDLINE_OF = ("shelby-2027-map-01", "newspaper_notice.docx")
EDITOR = "Jane Counsel (sample)"
COLUMNS = 4
BEGIN, END = "<!-- pages:begin -->", "<!-- pages:end -->"


def kinds() -> list[tuple[str, str]]:
    """(kind, what it is) for each kind that prints, in the registry's order."""
    from generator.documents.registry import DOCUMENTS

    # One page per kind: the re-mailing of returned letters is letters again.
    shown = {
        d.kind.value: d.summary
        for d in reversed(DOCUMENTS)
        if any(f.format.value in ("pdf", "png") for f in d.files)
    }
    return [(k, shown[k]) for k in dict.fromkeys(d.kind.value for d in DOCUMENTS) if k in shown]


def pick(output: Path, kind: str) -> Path | None:
    """The file that shows `kind`: the first packet's, a sheet before a poster."""
    for folder in packets(output):
        manifest = json.loads((folder / "manifest.json").read_text())
        files = sorted(
            (folder / d["path"] for d in manifest["documents"] if d["kind"] == kind),
            key=lambda p: (
                p.suffix != ".pdf",
                p.stem.endswith("-poster"),
                "/" in str(p.relative_to(folder)),
                p.name,
            ),
        )
        files = [p for p in files if p.suffix in (".pdf", ".png") and p.is_file()]
        if files:
            return files[0]
    return None


def render(source: Path, png: Path) -> None:
    """Page 1 of a PDF (or a PNG) as a small gray PNG, its long side 300 px."""
    if source.suffix == ".pdf":
        stem = png.with_suffix("")
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-gray",
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                "-scale-to",
                str(LONG_SIDE_PX),
                source,
                stem,
            ],
            check=True,
        )
        return
    with Image.open(source) as image:
        small = image.convert("L")
        small.thumbnail((LONG_SIDE_PX, LONG_SIDE_PX))
        small.save(png, optimize=True)


def redline(output: Path, png: Path) -> str | None:
    """Page 1 of a sample redline as LibreOffice prints it; the source it shows, or None."""
    import docx

    generated = output / REDLINE_OF[0] / REDLINE_OF[1]
    if not generated.is_file():
        return None
    with tempfile.TemporaryDirectory() as tmp:
        edited = Path(tmp) / "edited.docx"
        document = docx.Document(str(generated))
        for p in document.paragraphs:
            if p.text.startswith("The hearing will be held"):
                for run in p.runs:
                    run.text = run.text.replace("6:00 p.m.", "7:00 p.m.")
            elif p.text.startswith("Substantial changes"):
                p._p.getparent().remove(p._p)
        document.core_properties.last_modified_by = EDITOR
        document.save(str(edited))
        made = Path(tmp) / "redline.docx"
        subprocess.run(
            [sys.executable, "-m", "generator", "redline", generated, edited, "--out", made],
            check=True,
            capture_output=True,
        )
        subprocess.run(
            ["soffice", "--headless", "--convert-to", "pdf", "--outdir", tmp, made],
            check=True,
            capture_output=True,
        )
        render(made.with_suffix(".pdf"), png)
    return f"{REDLINE_OF[0]}/{REDLINE_OF[1]}, edited"


def section(shown: list[tuple[str, str, str]]) -> str:
    """The README section: a table of pictures, COLUMNS a row, each with its kind's name."""
    rows = []
    for i in range(0, len(shown), COLUMNS):
        cells = shown[i : i + COLUMNS]
        rows.append(
            "| "
            + " | ".join(
                f'<img src="docs/pages/{kind}.png" alt="{kind.replace("_", " ")}: page 1" width="180"><br>'
                f"`{kind}` ({source})"
                for kind, source, _summary in cells
            )
            + " |"
        )
    head = "| " + " | ".join([" "] * min(COLUMNS, len(shown))) + " |"
    rule = "|" + "---|" * min(COLUMNS, len(shown))
    return "\n".join([BEGIN, head, rule, *rows, END])


def main(argv: list[str] | None = None) -> int:
    """Render the pictures and rewrite the README section; 1 if a kind has no sample."""
    parser = argparse.ArgumentParser(prog="python -m tools.audit.pages", description=__doc__)
    parser.add_argument("output", type=Path, help="the built sample packets (output/)")
    parser.add_argument("--to", type=Path, default=ROOT / "docs" / "pages")
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md")
    args = parser.parse_args(argv)
    args.to.mkdir(parents=True, exist_ok=True)
    shown, missing = [], []
    for kind, summary in kinds():
        source = pick(args.output, kind)
        if source is None:
            missing.append(kind)
            continue
        render(source, args.to / f"{kind}.png")
        shown.append((kind, f"{source.parent.name}/{source.name}", summary))
    source = redline(args.output, args.to / "redline.png")
    if source is None:
        missing.append("redline")
    else:
        shown.append(("redline", source, "a lawyer's edits as tracked changes"))
    for stale in args.to.glob("*.png"):
        if stale.stem not in {k for k, _, _ in shown}:
            stale.unlink()
    readme = args.readme.read_text()
    start, end = readme.index(BEGIN), readme.index(END) + len(END)
    args.readme.write_text(readme[:start] + section(shown) + readme[end:])
    for kind in missing:
        print(f"no sample packet has a {kind}", file=sys.stderr)
    print(f"{len(shown)} pages in {args.to}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
