"""The lawyer's redline and the findings as Word comments, read back from the files' XML.

The input is the newspaper notice of a sample packet, edited as a lawyer would with python-docx:
the hearing moved to 7:00 p.m. and its place struck out, one paragraph removed, one added.
"""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn

from generator.errors import UserError
from generator.lint.engine import lint, lint_kind
from generator.lint.extract import extract
from generator.packet import build
from generator.redline import comment_copy, lint_draft, redline

from .conftest import CASES, notices
from .word import libreoffice

CASE = "shelby-2027-text-01"
EDITOR = "Jane Counsel"
PLACE = ", in Council Chambers, Shelby City Hall, 300 S. Washington Street, Shelby, NC 28150."
REMOVED = "Substantial changes in the proposed amendment may be made"
ADDED = "Written comments <received> by noon & the day before will be read into the record."


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(CASES / f"{CASE}.yaml", tmp_path_factory.mktemp("packets")).folder / (
        "newspaper_notice.docx"
    )


@pytest.fixture(scope="module")
def redlined(generated: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """The lawyer's draft, and the redline `notices redline` writes of it: (edited, redline, said)."""
    folder = tmp_path_factory.mktemp("redline")
    edited = edit(generated, folder / "notice-jc.docx")
    out = folder / "redline.docx"
    done = notices("redline", str(generated), str(edited), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return edited, out, done.stdout


def edit(generated: Path, to: Path, *, editor: str | None = EDITOR) -> Path:
    """The lawyer's draft: time changed, place struck, one paragraph removed and one added."""
    document = docx.Document(str(generated))
    for p in document.paragraphs:
        if p.text.startswith("The hearing will be held"):
            (run,) = [r for r in p.runs if "p.m." in r.text]
            run.text = run.text.replace("at 6:00 p.m." + PLACE, "at 7:00 p.m.")
        elif p.text.startswith(REMOVED):
            p._p.getparent().remove(p._p)
        elif p.text.startswith("Questions may be directed"):
            p.insert_paragraph_before(ADDED, style=p.style)
    document.core_properties.last_modified_by = editor or ""
    document.save(str(to))
    return to


def xml_of(path: Path) -> object:
    return docx.Document(str(path)).element.body


def text_of(el: object, tag: str) -> str:
    return "".join(t.text or "" for t in el.iter(qn(tag)))


def comments_of(path: Path) -> list[tuple[str, str, str]]:
    """Each comment as (author, text, the text of the paragraph it is anchored on)."""
    document = docx.Document(str(path))
    anchored = {}
    for start in document.element.body.iter(qn("w:commentRangeStart")):
        p = next(start.iterancestors(qn("w:p")))
        anchored[start.get(qn("w:id"))] = text_of(p, "w:t") + text_of(p, "w:delText")
    return [(c.author, c.text, anchored[str(c.comment_id)]) for c in document.comments]


def test_redline_shows_the_edits_as_tracked_changes_and_the_missing_place_as_a_comment(
    redlined: tuple[Path, Path, str],
) -> None:
    _, out, said = redlined
    assert "1 paragraphs changed, 1 deleted, 1 inserted; 2 comments" in said
    body = xml_of(out)
    inserted = [text_of(el, "w:t") for el in body.iter(qn("w:ins")) if text_of(el, "w:t")]
    deleted = [text_of(el, "w:delText") for el in body.iter(qn("w:del")) if len(el)]
    assert inserted == ["7:00", ADDED]
    assert "6:00" in deleted and PLACE in deleted
    assert any(d.startswith(REMOVED) for d in deleted)
    changes = list(body.iter(qn("w:ins"), qn("w:del")))
    assert {c.get(qn("w:author")) for c in changes} == {EDITOR}
    assert len({c.get(qn("w:date")) for c in changes}) == 1  # the edited file's own date
    # The paragraph removed keeps its style, and its mark is deleted too (accepting removes it).
    (gone,) = [p for p in body.iter(qn("w:p")) if text_of(p, "w:delText").startswith(REMOVED)]
    assert gone.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:del')}") is not None
    assert gone.find(f"{qn('w:pPr')}/{qn('w:pStyle')}") is not None
    # The findings on the edited draft, with the law: the place struck from the hearing's
    # paragraph, noted there; the paragraph removed whole, noted on its deleted text.
    (author, comment, anchor), (_, removed, where) = comments_of(out)
    assert author == "Zoning Notices linter"
    assert comment.startswith("NL001 (error)") and "place" in comment
    assert "hearing_when_where" in comment and "G.S. 160D-602" in comment
    assert anchor.startswith("The hearing will be held") and PLACE in anchor
    assert removed.startswith("NL001 (error)") and "§ 8-5(E)(5)" in removed
    assert where.startswith(REMOVED)


def test_accepting_every_change_gives_the_edited_draft_and_rejecting_them_the_generated(
    generated: Path, redlined: tuple[Path, Path, str], tmp_path: Path
) -> None:
    """Read as the linter reads Word (every change accepted), the redline is the lawyer's text;
    with every change rejected, it is ours."""
    edited, out, _ = redlined
    accepted = [b.text for b in extract(out).blocks]
    assert accepted == [b.text for b in extract(edited).blocks]
    rejected = tmp_path / "rejected.docx"
    document = docx.Document(str(out))
    body = document.element.body
    for p in list(body.iter(qn("w:p"))):
        if p.find(f"{qn('w:pPr')}/{qn('w:rPr')}/{qn('w:ins')}") is not None:
            p.getparent().remove(p)  # a paragraph inserted: rejected, it goes
    for el in list(body.iter(qn("w:ins"))):
        el.getparent().remove(el)
    for el in list(body.iter(qn("w:delText"))):
        el.tag = qn("w:t")
    for el in list(body.iter(qn("w:del"))):
        for child in list(el):
            el.addprevious(child)
        el.getparent().remove(el)  # a deletion rejected: its text (or the paragraph) stays
    document.save(str(rejected))
    assert [b.text for b in extract(rejected).blocks] == [b.text for b in extract(generated).blocks]


@pytest.mark.slow
def test_redline_survives_libreoffice_and_reads_back(
    redlined: tuple[Path, Path, str], tmp_path: Path
) -> None:
    """Opened and saved again by LibreOffice, the changes and the comments are still there."""
    _, out, _ = redlined
    libreoffice([out], "docx:MS Word 2007 XML", tmp_path / "lo", tmp_path / "profile")
    again = tmp_path / "lo" / "redline.docx"
    body = xml_of(again)
    assert "7:00" in [text_of(el, "w:t") for el in body.iter(qn("w:ins"))]
    assert PLACE in [text_of(el, "w:delText") for el in body.iter(qn("w:del"))]
    assert {el.get(qn("w:author")) for el in body.iter(qn("w:ins"), qn("w:del"))} == {EDITOR}
    (_, comment, anchor), (_, _, where) = comments_of(again)
    assert "G.S. 160D-602" in comment and anchor.startswith("The hearing will be held")
    assert where.startswith(REMOVED)


def test_the_html_diff_shows_the_same_changes_escaped(redlined: tuple[Path, Path, str]) -> None:
    _, out, _ = redlined
    page = out.with_suffix(".html").read_text()
    assert "<del>6:00</del><ins>7:00</ins>" in page
    assert f"<del>{PLACE}</del>" in page
    assert "&lt;received&gt; by noon &amp; the day" in page and "<received>" not in page
    assert "G.S. 160D-602" in page


def test_redline_is_reproducible_and_never_overwrites_its_inputs(
    generated: Path, redlined: tuple[Path, Path, str], tmp_path: Path
) -> None:
    edited, out, _ = redlined
    again = tmp_path / "again.docx"
    redline(generated, edited, again, findings=lint_draft(edited, generated=generated))
    assert again.read_bytes() == out.read_bytes()
    before = edited.read_bytes()
    with pytest.raises(UserError, match="would overwrite an input"):
        redline(generated, edited, edited)
    assert edited.read_bytes() == before


def test_redline_names_the_editor_or_asks_for_one(generated: Path, tmp_path: Path) -> None:
    edited = edit(generated, tmp_path / "edited.docx", editor=None)
    out = tmp_path / "redline.docx"
    done = notices("redline", str(generated), str(edited), "--out", str(out))
    assert done.returncode == 2 and "give --author" in done.stderr and not out.exists()
    redline(generated, edited, out, author="A. Lawyer")
    assert {el.get(qn("w:author")) for el in xml_of(out).iter(qn("w:ins"))} == {"A. Lawyer"}


def test_a_draft_already_tracked_is_refused_with_the_way_out(
    generated: Path, redlined: tuple[Path, Path, str], tmp_path: Path
) -> None:
    _, out, _ = redlined
    with pytest.raises(UserError, match="--comments"):
        redline(generated, out, tmp_path / "twice.docx")


def test_lint_comments_writes_the_findings_into_a_copy(generated: Path, tmp_path: Path) -> None:
    draft = edit(generated, tmp_path / "newspaper_notice.edited-1.docx")
    before = draft.read_bytes()
    done = notices("lint", str(draft), "--case", str(CASES / f"{CASE}.yaml"), "--comments")
    assert done.returncode == 1, done.stderr  # the draft fails the law: NL001
    copy = tmp_path / "commented-newspaper_notice.edited-1.docx"
    assert f"{copy}: 2 comments" in done.stdout
    assert lint_kind(copy) is None  # a packet's lint does not read the copy as another draft
    assert draft.read_bytes() == before
    (_, comment, anchor), (_, removed, where) = comments_of(copy)
    assert "NL001" in comment and "G.S. 160D-602" in comment
    assert anchor.startswith("The hearing will be held")
    # the paragraph removed whole has no place left in the draft: noted at the heading
    assert "§ 8-5(E)(5)" in removed and where == "NOTICE OF LEGISLATIVE HEARING"
    # The copy reads as the draft does; its comments are now notes the linter reports (NL011).
    assert [b.text for b in extract(copy).blocks] == [b.text for b in extract(draft).blocks]
    again = lint([copy], case_path=CASES / f"{CASE}.yaml", kind="newspaper_notice")
    assert [f.code for f in again.findings].count("NL011") == 2


def test_lint_comments_on_a_missing_clause_without_bookmark_goes_to_the_heading(
    generated: Path, tmp_path: Path
) -> None:
    """A draft retyped without our bookmarks: each missing clause is noted at the heading."""
    draft = edit(generated, tmp_path / "newspaper_notice.docx")
    document = docx.Document(str(draft))
    for mark in list(document.element.body.iter(qn("w:bookmarkStart"), qn("w:bookmarkEnd"))):
        mark.getparent().remove(mark)
    document.save(str(draft))
    out = tmp_path / "with-comments.docx"
    found = lint([draft], case_path=CASES / f"{CASE}.yaml").findings
    assert comment_copy(draft, out, found) == 2
    assert {anchor for _, _, anchor in comments_of(out)} == {"NOTICE OF LEGISLATIVE HEARING"}


def test_lint_comments_needs_one_word_draft(generated: Path, tmp_path: Path) -> None:
    pdf = generated.with_suffix(".pdf")
    done = notices("lint", str(pdf), "--comments")
    assert done.returncode == 2 and "one .docx" in done.stderr
    done = notices("lint", str(generated), "--out", str(tmp_path / "x.docx"))
    assert done.returncode == 2 and "--out is for --comments" in done.stderr


def test_the_edited_formatting_is_kept_word_by_word(tmp_path: Path) -> None:
    """Built on the edited XML: a bold time stays bold, inserted and deleted; the rest untouched."""
    for name, time in (("ours.docx", "6:00"), ("theirs.docx", "7:00")):
        document = docx.Document()
        p = document.add_paragraph("The hearing is at ")
        p.add_run(f"{time} p.m.").bold = True
        p.add_run("\tin the hall.")
        document.add_paragraph("Unchanged.")
        document.core_properties.last_modified_by = EDITOR
        document.save(str(tmp_path / name))
    out = tmp_path / "redline.docx"
    made = redline(tmp_path / "ours.docx", tmp_path / "theirs.docx", out)
    assert (made.changed, made.deleted, made.inserted, made.comments) == (1, 0, 0, 0)
    body = xml_of(out)
    (ins,), (gone,) = body.iter(qn("w:ins")), body.iter(qn("w:del"))
    assert text_of(ins, "w:t") == "7:00" and text_of(gone, "w:delText") == "6:00"
    assert ins.find(f"{qn('w:r')}/{qn('w:rPr')}/{qn('w:b')}") is not None
    assert gone.find(f"{qn('w:r')}/{qn('w:rPr')}/{qn('w:b')}") is not None
    assert [r.text for r in docx.Document(str(out)).paragraphs[0].runs] == [
        "The hearing is at ",
        " p.m.",
        "\tin the hall.",
    ]
