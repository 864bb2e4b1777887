"""The linter on files it did not make: odd PDFs and Word files, bombs, and documents too large.

Any document the linter cannot read is a finding naming the file (NL012), never a traceback;
one larger than it reads is a warning naming the file and the limit (NL013), found before the
file is expanded, so it comes back at once; the other documents are still checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import docx
import pikepdf
import pytest
from click.testing import CliRunner

from generator.cli import app
from generator.lint import limits, measure
from generator.lint.engine import lint
from generator.render import pdf as render_pdf
from tests.conftest import CASES, ROOT

DATA = Path(__file__).resolve().parent / "lint"
PACK = ["--jurisdiction", "us-ri-east-providence", "--kind", "newspaper_notice"]
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def run_lint(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`notices lint ARGS --format json`, as a user runs it."""
    return subprocess.run(
        [sys.executable, "-m", "generator", "lint", *args, "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=timeout,
    )


def findings(done: subprocess.CompletedProcess[str]) -> list[dict]:
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (0, 1), (done.returncode, done.stderr)
    return json.loads(done.stdout)["findings"]


def printed(html: str, path: Path) -> Path:
    """`html` typeset by WeasyPrint, as the product prints its notices."""
    path.write_bytes(render_pdf.write_pdf(html, {}, [DATA]))
    return path


def notice_pdf(tmp_path: Path) -> Path:
    text = (DATA / "ep-reworded.txt").read_text(encoding="utf-8")
    body = "".join(f"<p>{p}</p>" for p in text.split("\n\n"))
    return printed(f"<html><body>{body}</body></html>", tmp_path / "notice.pdf")


def word_file(path: Path, document_xml: bytes, extra: dict[str, bytes] | None = None) -> Path:
    """A minimal Word package around `document_xml`, deflated as Word saves it."""
    rels = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
        'relationships/officeDocument" Target="word/document.xml"/></Relationships>'
    )
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as package:
        package.writestr("_rels/.rels", rels)
        for name, data in (extra or {}).items():
            package.writestr(name, data)
        with package.open("word/document.xml", "w") as part:
            part.write(document_xml)
    return path


# ------------------------------------------------------------------ the crash of issue 14, item 1


def test_a_ligature_before_a_measured_word_keeps_heights_and_text_in_step(tmp_path: Path) -> None:
    """WeasyPrint draws "fi" as one glyph; pdfplumber reads it as two characters.

    The sign measurement paired each glyph's height with a character of the line's text, so the
    heights ran out before the text did and a word at the end of such a line crashed the build
    (`zip() argument 2 is longer than argument 1`). Each character now has its glyph's height.
    """
    html = (DATA / "sign-legible.html").read_text(encoding="utf-8")
    html = html.replace("<p>REZONING · ZONING</p>", "<p>official ZONING</p>")
    sign = printed(html, tmp_path / "sign.pdf")
    import pdfplumber

    with pdfplumber.open(sign) as pdf:
        assert any(len(c["text"]) > 1 for c in pdf.pages[0].chars), "no ligature to test"
    assert all(len(text) == len(heights) for text, heights in measure._lines(sign))
    result = lint([sign], case_path=CASES / "az-2027-posting-01.yaml", kind="sign")
    assert not [f for f in result.findings if f.code in ("NL006", "NL012")], result.findings


def test_a_rotated_sign_is_measured_as_drawn(tmp_path: Path) -> None:
    sign = printed((DATA / "sign-legible.html").read_text(encoding="utf-8"), tmp_path / "s.pdf")
    with pikepdf.open(sign) as pdf:
        for page in pdf.pages:
            page.Rotate = 90
        pdf.save(tmp_path / "sign-rotated.pdf")
    result = lint(
        [tmp_path / "sign-rotated.pdf"], case_path=CASES / "az-2027-posting-01.yaml", kind="sign"
    )
    assert not [f for f in result.findings if f.code in ("NL006", "NL012")], result.findings


# ------------------------------------------------------------------ odd PDFs: a finding each


def _not_a_pdf(tmp_path: Path) -> Path:
    path = tmp_path / "notice.pdf"
    path.write_bytes(b"%PDF-1.7 this is not really a pdf\n")
    return path


def _truncated(tmp_path: Path) -> Path:
    data = notice_pdf(tmp_path).read_bytes()
    path = tmp_path / "cut.pdf"
    path.write_bytes(data[:200])
    return path


def _no_text(tmp_path: Path) -> Path:
    html = '<html><body><div style="width:3in;height:3in;background:#888"></div></body></html>'
    return printed(html, tmp_path / "scan.pdf")


def _no_pages(tmp_path: Path) -> Path:
    path = tmp_path / "empty.pdf"
    pikepdf.new().save(path)
    return path


def _password(tmp_path: Path) -> Path:
    path = tmp_path / "locked.pdf"
    with pikepdf.open(notice_pdf(tmp_path)) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(user="secret", owner="owner"))
    return path


ODD_PDFS = {
    "not-a-pdf": (_not_a_pdf, "not a readable PDF"),
    "truncated": (_truncated, "not a readable PDF"),
    "no-text-layer": (_no_text, "has no text to read"),
    "no-pages": (_no_pages, "has no pages"),
    "password": (_password, "password-protected"),
}


@pytest.mark.parametrize("odd", ODD_PDFS)
@pytest.mark.parametrize("kind", ["newspaper_notice", "sign"])
def test_a_pdf_the_linter_cannot_read_is_a_finding_naming_it(
    tmp_path: Path, odd: str, kind: str
) -> None:
    make, says = ODD_PDFS[odd]
    path = make(tmp_path)
    result = lint([path], case_path=CASES / "az-2027-posting-01.yaml", kind=kind)
    assert [(f.code, f.document) for f in result.findings] == [("NL012", path.name)]
    assert says in result.findings[0].message and result.errors == 1


def test_a_packet_of_odd_pdfs_lints_each_one_without_a_traceback(tmp_path: Path) -> None:
    folder = tmp_path / "az-2027-posting-01"
    folder.mkdir()
    names = ["newspaper_notice", "posting_notice", "sign", "letters", "website_notice"]
    for name, (make, _says) in zip(names, ODD_PDFS.values(), strict=True):
        make(tmp_path).rename(folder / f"{name}.pdf")
    done = run_lint(str(folder), "--case", str(CASES / "az-2027-posting-01.yaml"))
    found = findings(done)
    assert done.returncode == 1
    assert sorted((f["code"], f["document"]) for f in found) == [
        ("NL012", f"{name}.pdf") for name in sorted(names)
    ]


def test_an_owner_password_alone_does_not_stop_the_linter(tmp_path: Path) -> None:
    path = tmp_path / "restricted.pdf"
    with pikepdf.open(notice_pdf(tmp_path)) as pdf:
        pdf.save(path, encryption=pikepdf.Encryption(user="", owner="owner"))
    result = lint([path], jurisdiction="us-ri-east-providence", kind="newspaper_notice")
    assert not [f for f in result.findings if f.code in ("NL012", "NL013")], result.findings


# ------------------------------------------------------------------ Word bombs and limits


def test_a_docx_whose_document_expands_to_200_mb_is_refused_at_once(tmp_path: Path) -> None:
    """Issue 14 item 7: 94 s and 3.7 GB before; now a warning naming the part and the limit."""
    paragraph = f'<w:p xmlns:w="{W}"><w:r><w:t>x</w:t></w:r></w:p>'.encode()
    body = paragraph * (200 * 1024 * 1024 // len(paragraph))
    bomb = word_file(
        tmp_path / "newspaper_notice.docx",
        f'<w:document xmlns:w="{W}"><w:body>'.encode() + body + b"</w:body></w:document>",
    )
    assert bomb.stat().st_size < 1024 * 1024
    start = time.monotonic()
    strict = run_lint(str(bomb), *PACK, "--strict")
    took = time.monotonic() - start
    found = findings(strict)
    assert strict.returncode == 1
    assert [(f["code"], f["document"]) for f in found] == [("NL013", bomb.name)]
    assert "word/document.xml expands to 200 MiB; the linter reads 160 MiB" in found[0]["message"]
    assert took < 30, took  # python start-up and imports; reading it took 94 s and 3.7 GB
    # A warning: the document was not checked, not found wrong; only --strict fails on it.
    plain = CliRunner().invoke(app, ["lint", str(bomb), *PACK])
    assert plain.exit_code == 0 and "NL013 [warning]" in plain.output


def test_a_docx_compressed_past_any_word_file_is_a_zip_bomb(tmp_path: Path) -> None:
    paragraph = f'<w:p xmlns:w="{W}"><w:r><w:t>x</w:t></w:r></w:p>'.encode()
    path = word_file(
        tmp_path / "notice.docx",
        f'<w:document xmlns:w="{W}"><w:body>'.encode()
        + paragraph * (2 * 1024 * 1024 // len(paragraph))
        + b"</w:body></w:document>",
    )
    (finding,) = lint(
        [path], jurisdiction="us-ri-east-providence", kind="newspaper_notice"
    ).findings
    assert finding.code == "NL013"
    assert f"more than the {limits.DOCX_RATIO}:1 the linter reads" in finding.message


def test_a_docx_of_too_many_parts_is_refused(tmp_path: Path) -> None:
    many = {f"word/media/image{n}.png": b"" for n in range(limits.DOCX_ENTRIES)}
    path = word_file(tmp_path / "notice.docx", f"<w:document xmlns:w='{W}'/>".encode(), many)
    (finding,) = lint(
        [path], jurisdiction="us-ri-east-providence", kind="newspaper_notice"
    ).findings
    assert finding.code == "NL013" and finding.document == "notice.docx"
    assert f"{limits.DOCX_ENTRIES:,} the linter reads" in finding.message


def test_a_docx_over_the_bytes_the_linter_reads_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    document = docx.Document()
    for n in range(400):
        document.add_paragraph(f"Paragraph {n}: the hearing will be held at {n}:00 p.m.")
    path = tmp_path / "notice.docx"
    document.save(path)
    monkeypatch.setattr(limits, "DOCX_BYTES", 32 * 1024)
    (finding,) = lint(
        [path], jurisdiction="us-ri-east-providence", kind="newspaper_notice"
    ).findings
    assert finding.code == "NL013" and "the linter reads 32 KiB of a Word file" in finding.message


def test_a_docx_nested_past_any_word_file_is_unreadable_not_a_crash(tmp_path: Path) -> None:
    """1,000 nested content controls overflowed Python's stack (exit 70): libxml2 stops at 256."""
    deep = b"<w:sdt><w:sdtContent>" * 1000 + b"<w:p/>" + b"</w:sdtContent></w:sdt>" * 1000
    path = word_file(
        tmp_path / "notice.docx",
        f'<w:document xmlns:w="{W}"><w:body>'.encode() + deep + b"</w:body></w:document>",
    )
    found = findings(run_lint(str(path), *PACK))
    assert [(f["code"], f["document"]) for f in found] == [("NL012", "notice.docx")]
    assert "damaged .docx file" in found[0]["message"]


# ------------------------------------------------------------------ PDF and text limits


def test_a_pdf_whose_contents_expand_past_the_limit_is_refused_before_pdfium_reads_it(
    tmp_path: Path,
) -> None:
    """A 300 KB PDF whose page inflates to 300 MB: pdfium would hold 600 MB reading it."""
    import zlib

    line = b"BT /F1 12 Tf 72 720 Td (Notice) Tj ET\n"
    chunk = line + b" " * (1024 * 1024 - len(line))
    deflate = zlib.compressobj(9)
    data = b"".join(deflate.compress(chunk) for _ in range(300)) + deflate.flush()
    path = tmp_path / "newspaper_notice.pdf"
    with pikepdf.new() as pdf:
        pdf.add_blank_page()
        stream = pikepdf.Stream(pdf, data)
        stream.Filter = pikepdf.Name.FlateDecode
        pdf.pages[0].obj.Contents = pdf.make_indirect(stream)
        pdf.save(path, compress_streams=False)
    assert path.stat().st_size < 1024 * 1024
    (finding,) = lint([path], jurisdiction="us-ri-east-providence").findings
    assert finding.code == "NL013" and finding.document == path.name
    assert "expand to more than 256 MiB" in finding.message


def test_a_pdf_of_more_pages_than_any_mailing_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "letters.pdf"
    with pikepdf.new() as pdf:
        for _ in range(5):
            pdf.add_blank_page()
        pdf.save(path)
    monkeypatch.setattr(limits, "PDF_PAGES", 4)
    (finding,) = lint([path], jurisdiction="us-ri-east-providence").findings
    assert finding.code == "NL013" and "has 5 pages, over the 4 the linter reads" in finding.message


@pytest.mark.parametrize("name", ["newspaper_notice.pdf", "newspaper_notice.txt"])
def test_a_file_over_the_bytes_the_linter_reads_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    path = tmp_path / name
    if name.endswith(".pdf"):
        notice_pdf(tmp_path).rename(path)
    else:
        path.write_text("Notice of a hearing. " * 4000)
    monkeypatch.setattr(limits, "PDF_BYTES", 8 * 1024)
    monkeypatch.setattr(limits, "TEXT_BYTES", 8 * 1024)
    (finding,) = lint([path], jurisdiction="us-ri-east-providence").findings
    assert finding.code == "NL013" and "8 KiB" in finding.message


def test_a_sign_with_more_text_than_a_sign_holds_is_not_measured(tmp_path: Path) -> None:
    words = " ".join(["ZONING"] * (limits.MEASURED_CHARS // 6))
    html = f"<html><body><p style='font:4pt sans-serif'>{words}</p></body></html>"
    sign = printed(html, tmp_path / "sign.pdf")
    result = lint([sign], case_path=CASES / "az-2027-posting-01.yaml", kind="sign")
    (finding,) = [f for f in result.findings if f.code == "NL013"]
    assert f"sign of up to {limits.MEASURED_CHARS:,}" in finding.message


# ------------------------------------------------------------------ time, in the worker pool


def slow_html(path: Path) -> Path:
    """A legible notice far longer than the test's time limit lets the linter read (300,000 paragraphs)."""
    path.write_text(
        "<html><body>" + "<p>A paragraph of a very long notice.</p>" * 300_000 + "</body></html>"
    )
    return path


def test_a_document_that_takes_too_long_is_stopped_and_the_others_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two documents: each in a worker process with its own clock; the slow one is cut off."""
    folder = tmp_path / "packet"
    folder.mkdir()
    slow = slow_html(folder / "newspaper_notice.html")
    (folder / "newspaper_notice.txt").write_text((DATA / "ep-missing-clause.txt").read_text())
    # Long enough for the short notice read cold in a fresh worker on a loaded machine (some
    # 50-70 ms at a load of 11 on 2 cores), far too short for the long one (some 30 s).
    monkeypatch.setattr(limits, "SECONDS", 0.5)
    start = time.monotonic()
    result = lint([folder], jurisdiction="us-ri-east-providence")
    assert time.monotonic() - start < 60  # reading it whole takes minutes on a busy machine
    by_document = {(f.document, f.code) for f in result.findings}
    assert (slow.name, "NL013") in by_document
    assert ("newspaper_notice.txt", "NL001") in by_document  # the other one was checked
    (late,) = [f for f in result.findings if f.code == "NL013"]
    assert "took over 0.5 s" in late.message


def test_a_document_that_takes_too_long_alone_is_stopped_in_this_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(limits, "SECONDS", 0.05)
    slow = slow_html(tmp_path / "newspaper_notice.html")
    (finding,) = lint([slow], jurisdiction="us-ri-east-providence").findings
    assert finding.code == "NL013" and "took over 0.05 s" in finding.message


class _SlowFinalizer:
    """An object whose finalizer runs past a deadline, as the garbage collector may run one."""

    def __del__(self) -> None:
        end = time.monotonic() + 0.3
        while time.monotonic() < end:
            pass


def test_the_time_runs_out_even_when_it_rings_inside_a_finalizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Python drops an exception raised in a finalizer: the clock must ring again after it.

    Found in CI: under load a garbage collection ran finalizers just when the time was up, and
    a 12 MB notice was read whole in spite of its 0.5 s.
    """
    dropped: list[BaseException | None] = []
    monkeypatch.setattr("sys.unraisablehook", lambda u: dropped.append(u.exc_value))
    with pytest.raises(limits.TimeUp), limits.deadline(0.1):
        finalized = _SlowFinalizer()
        del finalized  # the clock rings while its finalizer runs
        end = time.monotonic() + 5
        while time.monotonic() < end:
            pass
    assert dropped and isinstance(dropped[0], limits.TimeUp)
