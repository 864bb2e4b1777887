"""The linter's text extraction: real TXT, HTML, PDF and DOCX files, located block by block."""

from __future__ import annotations

import zipfile
from pathlib import Path

import docx
import pikepdf
import pytest
import weasyprint
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

import generator.lint.extract.pdf as pdf_module
import generator.lint.extract.pdf_pages as pdf_pages_module
from generator.errors import UserError
from generator.lint.extract import Block, Extracted, extract, extract_pdf_pages

from .conftest import CASES, notices


def squashed(text: str) -> str:
    return " ".join(text.split())


def block_with(extracted: Extracted, words: str) -> Block:
    found = [b for b in extracted.blocks if words in b.text]
    assert found, f"no block holds {words!r}"
    return found[0]


# ---------------------------------------------------------------- the real packet


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lint-packet")
    result = notices("build", "cases/ep-2027-za-03.yaml", "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out / "ep-2027-za-03"


@pytest.mark.parametrize("suffix", ["txt", "html", "pdf", "docx"])
def test_every_format_of_the_real_notice_reads_the_hearing_and_case(
    packet: Path, suffix: str
) -> None:
    got = extract(packet / f"newspaper_notice.{suffix}")
    assert got.format == suffix
    text = squashed(got.text)
    assert "March 16, 2027" in text
    assert "ZA-2027-03" in text
    assert "R-4" in text and "C-2" in text  # district names keep their hyphens
    assert [b.number for b in got.blocks] == sorted({b.number for b in got.blocks})
    assert got.notes == []
    # The title is the first thing a reader sees in every format.
    assert got.blocks[0].text == "NOTICE OF PUBLIC HEARING"
    assert got.locate(0) is got.blocks[0]


def test_html_blocks_carry_their_data_clause_ids(packet: Path) -> None:
    got = extract(packet / "newspaper_notice.html")
    assert got.pages is None
    hearing = block_with(got, "March 16, 2027")
    assert hearing.clauses == ("hearing_when_where", "ep_hearing_when_where")
    assert got.locate(got.text.index("March 16, 2027")) is hearing
    assert block_with(got, "Intent and effect").clauses == ("intent_and_effect",)
    heading = block_with(got, "Summary of the proposal")
    assert heading.kind == "heading"
    assert "proposal_statement" in heading.clauses
    assert block_with(got, "Questions may be directed").clauses == ()
    image = next(b for b in got.blocks if b.kind == "image")
    assert image.text.startswith("Map of 1150 Pawtucket Avenue")
    assert "map_in_notice" in image.clauses
    parcel = block_with(got, "Book 2210, Page 118")
    assert parcel.kind == "list-item"
    # Nothing from <head> or <style> leaks into the text.
    assert "@page" not in got.text
    assert "DejaVu" not in got.text


def test_docx_blocks_carry_their_bookmark_clause_ids(packet: Path) -> None:
    got = extract(packet / "newspaper_notice.docx")
    hearing = block_with(got, "March 16, 2027")
    assert hearing.clauses == ("hearing_when_where", "ep_hearing_when_where")
    assert block_with(got, "Notice is hereby given").clauses == (
        "under_consideration",
        "ep_under_consideration",
    )
    assert block_with(got, "Questions may be directed").clauses == ()
    assert block_with(got, "proposed change of 1150").clauses == (
        "map_in_notice",
        "ep_map_in_notice",
    )
    assert block_with(got, "Book 2210, Page 118").kind == "table-cell"  # the table of parcels
    # Every clause the HTML marks is marked in the DOCX too.
    html_ids = {c for b in extract(packet / "newspaper_notice.html").blocks for c in b.clauses}
    assert html_ids == {c for b in got.blocks for c in b.clauses}


def test_txt_and_docx_number_the_same_paragraphs_alike(packet: Path) -> None:
    """Up to the Word draft's first table: its cells count one by one, a text line per parcel."""
    txt = extract(packet / "newspaper_notice.txt")
    word = extract(packet / "newspaper_notice.docx")
    for words in ("Notice is hereby given", "March 16, 2027", "The property affected"):
        assert block_with(txt, words).number == block_with(word, words).number, words


def test_pdf_blocks_are_lines_with_pages(packet: Path) -> None:
    got = extract(packet / "newspaper_notice.pdf")
    assert got.pages == 2
    assert {b.page for b in got.blocks} == {1, 2}
    assert all(b.kind == "line" and b.line is not None for b in got.blocks)
    footer = block_with(got, "Page 2 of 2")
    assert footer.page == 2
    first_on_2 = next(b for b in got.blocks if b.page == 2)
    assert first_on_2.line == 1
    at = got.text.index("Tuesday, March")
    assert got.locate(at).page == 1
    assert got.locate(at).text.endswith("Tuesday, March")  # the date wraps to the next line
    pages = extract_pdf_pages(packet / "newspaper_notice.pdf")
    assert len(pages) == 2
    assert pages[1].endswith("Page 2 of 2")
    assert "\n".join(pages) == got.text


# ---------------------------------------------------------------- DOCX edited in Word


def ins(text: str, ident: int, author: str = "A. Lawyer") -> str:
    return (
        f'<w:ins {nsdecls("w")} w:id="{ident}" w:author="{author}" w:date="2027-01-01T00:00:00Z">'
        f'<w:r><w:t xml:space="preserve">{text}</w:t></w:r></w:ins>'
    )


def dele(text: str, ident: int, author: str = "A. Lawyer") -> str:
    return (
        f'<w:del {nsdecls("w")} w:id="{ident}" w:author="{author}" w:date="2027-01-01T00:00:00Z">'
        f'<w:r><w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'
    )


@pytest.fixture
def edited_docx(tmp_path: Path) -> Path:
    """A notice as a lawyer returns it: tracked changes, a comment, a table, a bookmark."""
    doc = docx.Document()
    doc.add_heading("Notice of Public Hearing", 1)  # paragraph 1
    doc.add_paragraph("")  # blank spacing: not counted
    hearing = doc.add_paragraph("The hearing will be held on Tuesday, March 16, 2027, ")  # 2
    p = hearing._p
    p.insert(
        p.index(p.r_lst[0]),
        parse_xml(f'<w:bookmarkStart {nsdecls("w")} w:id="7" w:name="clause_hearing_when_where"/>'),
    )
    p.append(parse_xml(ins("inserted words ", 90)))
    p.append(parse_xml(dele("deleted words ", 91)))
    hearing.add_run("at 7:00\tp.m.")
    p.append(parse_xml(f'<w:bookmarkEnd {nsdecls("w")} w:id="7"/>'))
    commented = doc.add_paragraph("Questions may be directed to the City Clerk.")  # 3
    doc.add_comment(commented.runs, text="Check the clerk's name.", author="B. Clerk")
    table = doc.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "Cell one holds ZA-2027-03"  # 4
    table.cell(0, 1).text = "Cell two"  # 5
    first = doc.add_paragraph("Merged start ")  # 6, its paragraph mark deleted
    first._p.get_or_add_pPr().append(
        parse_xml(
            f'<w:rPr {nsdecls("w")}><w:del w:id="92" w:author="A. Lawyer" '
            'w:date="2027-01-01T00:00:00Z"/></w:rPr>'
        )
    )
    doc.add_paragraph("and end.")
    moved = doc.add_paragraph()  # 7
    moved._p.append(
        parse_xml(
            f'<w:moveFrom {nsdecls("w")} w:id="93" w:author="C. Editor">'
            '<w:r><w:t xml:space="preserve">old place </w:t></w:r></w:moveFrom>'
        )
    )
    moved.add_run("Closing ")
    moved._p.append(
        parse_xml(
            f'<w:moveTo {nsdecls("w")} w:id="94" w:author="C. Editor">'
            "<w:r><w:t>new place</w:t></w:r></w:moveTo>"
        )
    )
    body = doc.element.body
    body.insert(
        len(body) - 1,  # before the section properties
        parse_xml(
            f"<w:sdt {nsdecls('w')}><w:sdtPr/><w:sdtContent><w:p><w:r><w:t>Control</w:t>"
            "<w:tab/><w:t>text</w:t><w:noBreakHyphen/><w:t>R1</w:t></w:r></w:p>"
            "</w:sdtContent></w:sdt>"
        ),
    )  # 8
    path = tmp_path / "edited.docx"
    doc.save(path)
    return path


def test_docx_reads_as_if_tracked_changes_were_accepted(edited_docx: Path) -> None:
    got = extract(edited_docx)
    assert got.format == "docx"
    assert got.pages is None
    assert [(b.number, b.text) for b in got.blocks] == [
        (1, "Notice of Public Hearing"),
        (2, "The hearing will be held on Tuesday, March 16, 2027, inserted words at 7:00 p.m."),
        (3, "Questions may be directed to the City Clerk."),
        (4, "Cell one holds ZA-2027-03"),
        (5, "Cell two"),
        (6, "Merged start and end."),
        (7, "Closing new place"),
        (8, "Control text-R1"),
    ]
    assert "inserted words" in got.text
    assert "deleted words" not in got.text
    assert "old place" not in got.text
    kinds = [b.kind for b in got.blocks]
    assert kinds == [
        "heading",
        "paragraph",
        "paragraph",
        "table-cell",
        "table-cell",
        "paragraph",
        "paragraph",
        "paragraph",
    ]


def test_docx_bookmark_clause_is_on_its_block_only(edited_docx: Path) -> None:
    got = extract(edited_docx)
    assert {b.number: b.clauses for b in got.blocks if b.clauses} == {2: ("hearing_when_where",)}
    assert got.locate(got.text.index("March 16")).clauses == ("hearing_when_where",)


def test_docx_notes_list_tracked_changes_and_comments(edited_docx: Path) -> None:
    got = extract(edited_docx)
    notes = [(n.kind, n.number, n.text, n.author) for n in got.notes]
    assert notes == [
        ("tracked_insertion", 2, "inserted words", "A. Lawyer"),
        ("tracked_deletion", 2, "deleted words", "A. Lawyer"),
        ("comment", 3, "Check the clerk's name.", "B. Clerk"),
        ("tracked_deletion", 6, "¶", "A. Lawyer"),
        ("tracked_move_from", 7, "old place", "C. Editor"),
        ("tracked_move_to", 7, "new place", "C. Editor"),
    ]


def test_docx_edited_by_zip_surgery_is_read_like_word(tmp_path: Path) -> None:
    """The raw XML Word writes, patched into a package python-docx made."""
    doc = docx.Document()
    doc.add_paragraph("Before MARK after.")
    doc.add_paragraph("Second paragraph.")
    plain = tmp_path / "plain.docx"
    doc.save(plain)
    patched = tmp_path / "patched.docx"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(patched, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                xml = data.decode()
                assert "Before MARK after." in xml
                xml = xml.replace(
                    "Before MARK after.</w:t></w:r>",
                    "Before </w:t></w:r>"
                    '<w:ins w:id="90" w:author="A. Lawyer" w:date="2027-01-01T00:00:00Z">'
                    "<w:r><w:t>inserted words</w:t></w:r></w:ins>"
                    '<w:del w:id="91" w:author="A. Lawyer" w:date="2027-01-01T00:00:00Z">'
                    "<w:r><w:delText>deleted words</w:delText></w:r></w:del>"
                    '<w:r><w:t xml:space="preserve"> after.</w:t></w:r>',
                )
                data = xml.encode()
            dst.writestr(item, data)
    got = extract(patched)
    assert [b.text for b in got.blocks] == ["Before inserted words after.", "Second paragraph."]
    assert [(n.kind, n.number, n.text, n.author) for n in got.notes] == [
        ("tracked_insertion", 1, "inserted words", "A. Lawyer"),
        ("tracked_deletion", 1, "deleted words", "A. Lawyer"),
    ]


# ---------------------------------------------------------------- TXT and HTML


def test_txt_paragraphs_split_on_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_bytes(
        "\ufeffNOTICE OF PUBLIC HEARING\r\n\r\nThe hearing will be held on\r\n"
        "March 16, 2027.\r\n   \r\nThe property is:\r\n- 1150 Pawtucket Avenue\r\n"
        "- 1152 Pawtucket\r\n  Avenue\r\n".encode()
    )
    got = extract(path)
    assert [(b.number, b.kind, b.text) for b in got.blocks] == [
        (1, "heading", "NOTICE OF PUBLIC HEARING"),
        (2, "paragraph", "The hearing will be held on March 16, 2027."),
        (3, "paragraph", "The property is:"),
        (4, "list-item", "- 1150 Pawtucket Avenue"),
        (5, "list-item", "- 1152 Pawtucket Avenue"),
    ]
    assert got.text.startswith("NOTICE OF PUBLIC HEARING\nThe hearing")


def test_txt_in_windows_1252_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "notice.txt"
    path.write_bytes("Under \u00a7 45-24-53 \u201cnotice\u201d".encode("cp1252"))
    assert extract(path).text == "Under \u00a7 45-24-53 \u201cnotice\u201d"


def test_html_blocks_in_document_order(tmp_path: Path) -> None:
    path = tmp_path / "notice.html"
    path.write_text(
        "<!DOCTYPE html><html><head><title>Title</title><style>p{}</style></head><body>"
        "<script>var x = 'no';</script><h1>Notice</h1>"
        '<div class="clause" data-clause="outer">Loose text<p>One <b>bold</b>\n  word'
        '<span data-clause="inner"> and more</span></p></div>'
        "<table><tr><th>Head</th><td><p>Cell</p></td></tr></table>"
        "<ul><li>Item<br>two</li></ul>"
        '<figure><img src="m.png" alt="The map"><figcaption>Caption</figcaption></figure>'
        "<p>Last&nbsp;one</p><!-- a comment --><p hidden>Hidden</p></body></html>",
        encoding="utf-8",
    )
    got = extract(path)
    assert [(b.number, b.kind, b.text, b.clauses) for b in got.blocks] == [
        (1, "heading", "Notice", ()),
        (2, "paragraph", "Loose text", ("outer",)),
        (3, "paragraph", "One bold word and more", ("outer", "inner")),
        (4, "table-cell", "Head", ()),
        (5, "table-cell", "Cell", ()),
        (6, "list-item", "Item two", ()),
        (7, "image", "The map", ()),
        (8, "caption", "Caption", ()),
        (9, "paragraph", "Last one", ()),
    ]


def test_locate_maps_offsets_to_blocks(tmp_path: Path) -> None:
    path = tmp_path / "n.txt"
    path.write_text("alpha\n\nbeta gamma\n\ndelta\n")
    got = extract(path)
    assert got.text == "alpha\nbeta gamma\ndelta"
    assert got.locate(0).number == 1
    assert got.locate(5).number == 1  # the separator belongs to the block before it
    assert got.locate(6).number == 2
    assert got.locate(got.text.index("gamma")).number == 2
    assert got.locate(len(got.text)).number == 3
    with pytest.raises(IndexError):
        got.locate(len(got.text) + 1)
    with pytest.raises(IndexError):
        got.locate(-1)


# ---------------------------------------------------------------- PDF details


def test_pdf_soft_hyphens_rejoin_but_real_hyphens_stay(tmp_path: Path) -> None:
    path = tmp_path / "hyphens.pdf"
    weasyprint.HTML(
        string='<html lang="en"><body style="width:2.2in;font-size:12pt">'
        "<p>Soft: ex&shy;tra&shy;or&shy;di&shy;na&shy;ri&shy;ly ex&shy;tra&shy;or&shy;di&shy;"
        "na&shy;ri&shy;ly ex&shy;tra&shy;or&shy;di&shy;na&shy;ri&shy;ly from R1-6 to R1-6 "
        "R1-6 R1-6 R1-6 R1-6 R1-6 R1-6 R1-6 R1-6 R1-6 R1-6 well-known well-known well-known</p>"
        "</body></html>"
    ).write_pdf(path)
    got = extract(path)
    words = got.text.split()
    assert words.count("extraordinarily") == 3
    assert words.count("R1-6") == 12
    assert words.count("well-known") == 3
    assert len(got.blocks) > 4  # it really was broken over several lines


def test_pdf_large_file_reads_in_parallel_like_serially(
    tmp_path: Path, packet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "big.pdf"
    with pikepdf.open(packet / "newspaper_notice.pdf") as src, pikepdf.new() as out:
        for _ in range(250):
            out.pages.extend(src.pages)
        out.save(big)
    parallel = extract(big)
    assert parallel.pages == 500
    monkeypatch.setattr(pdf_pages_module, "_PARALLEL_MIN_PAGES", 10**9)
    serial = extract(big)
    assert parallel.blocks == serial.blocks
    last = parallel.blocks[-1]
    assert (last.page, last.text) == (500, "Page 2 of 2")
    assert (
        last.number
        == serial.blocks[-1].number
        == len(extract(packet / "newspaper_notice.pdf").blocks) * 250
    )


# ---------------------------------------------------------------- letters: one shared body


def mail_merged(packet: Path, path: Path, owners: int = 60) -> Path:
    """A letters PDF as `notices build` makes it: the notice as a shared body under every page."""
    from generator.documents import mail_merge, mailroom
    from generator.inputs import load_case
    from generator.recipients import Recipient
    from generator.render import templates
    from generator.rules.loader import resolve

    people = [
        Recipient(
            f"OWNER {n:03d}", [f"{n} MAIN ST"], "EAST PROVIDENCE", "RI", "02914", parcels=[f"P-{n}"]
        )
        for n in range(owners)
    ]
    people.insert(  # too many parcels for the window: an overflow page without the body
        3,
        Recipient(
            "BIG LANDLORD LLC", ["1 MAIN ST"], "EAST PROVIDENCE", "RI", "02914",
            parcels=[f"107-{n}-1" for n in range(200)],
        ),
    )  # fmt: skip
    case = load_case(CASES / "ep-2027-za-03.yaml").case
    tpl = templates.for_pack(resolve(case.jurisdiction))
    greet = mail_merge.Greeter(
        tpl.phrases("letter_phrases.j2", municipality=case.municipality),
        tpl.phrases("mail_phrases.j2"),
        False,
        "R.I.G.L. § 45-24-53(b)",
    )
    assert {greet(r) for r in people} == {greet(people[0])}  # owners all: one shared body
    body = (packet / "newspaper_notice.pdf").read_bytes()
    made = mail_merge.combine(
        {greet(people[0]): body},
        mailroom.pieces(people).pieces,
        greet,
        sender=["City Hall", "1 Main St"],
        duplex=True,
    )
    path.write_bytes(made.pdf)
    return path


def plain_reading(path: Path, monkeypatch: pytest.MonkeyPatch) -> Extracted:
    with monkeypatch.context() as patch:
        patch.setattr(pdf_module, "_SHARED_MIN_PAGES", 10**9)
        return extract(path)


def spy_compose(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """What each shortcut attempt composed (None: it fell back to reading page by page)."""
    taken: list[object] = []
    compose = pdf_module._compose
    monkeypatch.setattr(pdf_module, "_compose", lambda *a: taken.append(compose(*a)) or taken[-1])
    return taken


@pytest.mark.parametrize("parallel", [False, True])
def test_built_letters_sharing_one_body_read_exactly_like_page_by_page(
    packet: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    path = packet / "letters.pdf"  # 30 letters, each the same body of a few pages
    monkeypatch.setattr(pdf_module, "_SHARED_MIN_PAGES", 10)
    if parallel:
        monkeypatch.setattr(pdf_pages_module, "_PARALLEL_MIN_PAGES", 20)
    taken = spy_compose(monkeypatch)
    fast = extract(path)
    assert taken and taken[0] is not None  # each body really was read once
    plain = plain_reading(path, monkeypatch)
    with pikepdf.open(path) as pdf:
        pages = len(pdf.pages)  # however many pages a letter runs to, 30 letters of them
    assert pages % 30 == 0
    assert fast.pages == plain.pages == pages
    assert fast.blocks == plain.blocks
    assert extract_pdf_pages(path) == [
        "\n".join(b.text for b in plain.blocks if b.page == n) for n in range(1, pages + 1)
    ]
    first = [b.text for b in fast.blocks if b.page == 1]
    assert any("public hearing" in t.lower() for t in first)  # the body, under the address


def test_a_body_line_beside_an_address_line_is_read_page_by_page(
    tmp_path: Path, packet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The newspaper notice's footer "Page 2 of 2" sits on the baseline of the letter's own
    # "OWNER 000 — page 2 of 2", so pdfium reads both as one line: the body's text does not
    # simply come first, and the shortcut must notice and step aside.
    path = mail_merged(packet, tmp_path / "letters.pdf")
    taken = spy_compose(monkeypatch)
    fast = extract(path)
    assert taken == [None]
    plain = plain_reading(path, monkeypatch)
    assert fast.pages == plain.pages > 120
    assert fast.blocks == plain.blocks
    assert "Page 2 of 2 OWNER 000 — page 2 of 2" in [b.text for b in fast.blocks if b.page == 2]


def test_a_shared_form_not_painted_first_is_read_page_by_page(
    tmp_path: Path, packet: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = mail_merged(packet, tmp_path / "letters.pdf")
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        page = pdf.pages[5].obj
        page.Contents = pikepdf.Array(list(page.Contents)[::-1])  # the body over the address
        pdf.save(path)
    assert pdf_module._pdf_shared_lines(path, len(pikepdf.open(path).pages)) is None
    assert extract(path).blocks == plain_reading(path, monkeypatch).blocks


def test_a_shared_form_drawn_inside_another_is_read_page_by_page(tmp_path: Path) -> None:
    pdf = pikepdf.new()
    inner = pikepdf.Stream(pdf, b"")
    inner.Type, inner.Subtype, inner.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 10, 10]
    for n in range(60):
        pdf.add_blank_page()
        page = pdf.pages[n].obj
        outer = pikepdf.Stream(pdf, b"q /In Do Q")
        outer.Type, outer.Subtype, outer.BBox = (
            pikepdf.Name.XObject,
            pikepdf.Name.Form,
            [0, 0, 9, 9],
        )
        outer.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(In=inner))
        page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Body=inner, Mine=outer))
        page.Contents = pikepdf.Array(
            [pikepdf.Stream(pdf, b"q /Body Do Q"), pikepdf.Stream(pdf, b"q /Mine Do Q")]
        )
    pdf.save(tmp_path / "nested.pdf")
    assert pdf_module._pdf_shared_lines(tmp_path / "nested.pdf", 60) is None


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("notice.pdf", b"%PDF-1.7 this is not really a pdf", "not a readable PDF"),
        ("notice.docx", b"PK\x03\x04 broken zip", "not a .docx file"),
        ("notice.docx", b"{\\rtf1 a renamed RTF}", "not a .docx file"),
        ("notice.txt", b"\x00\x01\x02binary", "binary data"),
        ("notice.html", b"<html>\x00\x00</html>", "binary data"),
        ("notice.doc", b"\xd0\xcf\x11\xe0", "open it in Word and save it as .docx"),
        ("notice.odt", b"PK", "cannot lint a '.odt' file"),
        ("notice", b"text", "cannot lint a 'notice' file"),
    ],
)
def test_bad_files_are_user_errors_naming_the_path(
    tmp_path: Path, name: str, content: bytes, message: str
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        extract(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)
    assert caught.value.problems[0].file == str(path)


def test_docx_without_a_document_part_is_a_user_error(tmp_path: Path) -> None:
    path = tmp_path / "empty.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("hello.txt", "not word")
    with pytest.raises(UserError, match="no main document part"):
        extract(path)


def test_docx_with_broken_xml_is_a_user_error(tmp_path: Path) -> None:
    doc = docx.Document()
    doc.add_paragraph("text")
    good = tmp_path / "good.docx"
    doc.save(good)
    bad = tmp_path / "bad.docx"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            dst.writestr(item, data[:-40] if item.filename == "word/document.xml" else data)
    with pytest.raises(UserError, match=r"damaged \.docx file") as caught:
        extract(bad)
    assert str(bad) in str(caught.value)


def test_missing_file_and_directory_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot read the file") as caught:
        extract(tmp_path / "absent.pdf")
    assert str(tmp_path / "absent.pdf") in str(caught.value)
    folder = tmp_path / "folder.html"
    folder.mkdir()
    with pytest.raises(UserError, match="is a directory"):
        extract(folder)


def test_docx_text_boxes_once_and_picture_alt_text(tmp_path: Path) -> None:
    """Word writes a text box twice (DrawingML and a VML fallback); it must be read once."""
    ns = (
        f"{nsdecls('w', 'wp')} "
        'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
        'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
        'xmlns:v="urn:schemas-microsoft-com:vml"'
    )
    box = "<w:txbxContent><w:p><w:r><w:t>Boxed hearing date</w:t></w:r></w:p></w:txbxContent>"
    doc = docx.Document()
    anchor = doc.add_paragraph("Before the box.")
    anchor._p.append(
        parse_xml(
            f'<w:r {ns}><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing>'
            f"<wps:wsp><wps:txbx>{box}</wps:txbx></wps:wsp></w:drawing></mc:Choice>"
            f"<mc:Fallback><w:pict><v:shape><v:textbox>{box}</v:textbox></v:shape></w:pict>"
            "</mc:Fallback></mc:AlternateContent></w:r>"
        )
    )
    picture = doc.add_paragraph()
    picture._p.append(
        parse_xml(
            f'<w:r {ns}><w:drawing><wp:inline><wp:docPr id="5" name="Map" '
            'descr="Zoning map of the parcel"/></wp:inline></w:drawing></w:r>'
        )
    )
    doc.add_paragraph("After.")
    path = tmp_path / "boxes.docx"
    doc.save(path)
    got = extract(path)
    assert [(b.number, b.kind, b.text) for b in got.blocks] == [
        (1, "paragraph", "Before the box."),
        (2, "text-box", "Boxed hearing date"),
        (3, "image", "Zoning map of the parcel"),
        (4, "paragraph", "After."),
    ]


def test_dehyphenation_rules_line_by_line() -> None:
    dehyphenate = pdf_pages_module._dehyphenate
    assert dehyphenate(["a soft ex\u00ad", "tra words", "next"]) == [
        "a soft extra",
        "words",
        "next",
    ]
    # A one-word line that itself ends soft keeps pulling; the emptied line keeps its place.
    assert dehyphenate(["ex\u2010", "tra\u2010", "ordinary end"]) == ["extraordinary", "", "end"]
    # Real hyphens stay: ASCII "-" always, U+2010 before a capital or a digit.
    assert dehyphenate(["from R1-", "6 to", "Smith-", "jones"]) == [
        "from R1-",
        "6 to",
        "Smith-",
        "jones",
    ]
    assert dehyphenate(["zone R\u2010", "4 and A\u2010", "Frame"]) == [
        "zone R\u2010",
        "4 and A\u2010",
        "Frame",
    ]


# ---------------------------------------------------------------- a mail merge, each text once


@pytest.mark.parametrize("name", ["letters.pdf", "letters.docx"])
def test_a_mail_merge_read_once_keeps_each_text_where_it_first_appears(
    packet: Path, name: str
) -> None:
    """What the linter reads of letters (`once`) is the whole reading less the repeats."""
    whole = extract(packet / name)
    once = extract(packet / name, once=True)
    seen: set[str] = set()
    assert once.blocks == [b for b in whole.blocks if not (b.text in seen or seen.add(b.text))]
    assert len(once.blocks) * 5 < len(whole.blocks)  # 30 letters: the body read once
    assert (once.notes, once.pages, once.has_image) == (whole.notes, whole.pages, whole.has_image)


def edit_one_letter(path: Path, out: Path, old: str, new: str, which: int) -> Path:
    """The Word letters with the `which`-th occurrence of `old` in document.xml made `new`."""
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dest:
        for item in source.infolist():
            data = source.read(item)
            if item.filename == "word/document.xml":
                xml = data.decode()
                at = -1
                for _ in range(which):
                    at = xml.index(old, at + 1)
                data = (xml[:at] + new + xml[at + len(old) :]).encode()
            dest.writestr(item, data)
    return out


def test_one_word_letter_edited_by_hand_is_caught_where_it_was_edited(
    packet: Path, tmp_path: Path
) -> None:
    """A lawyer edits the fifth letter of a merge: the reading of it once still points there."""
    from generator.lint.engine import lint

    hearing = "on Tuesday, March 16, 2027"
    edited = edit_one_letter(
        packet / "letters.docx",
        tmp_path / "letters.docx",
        hearing,
        "on Wednesday, March 16, 2027",
        5,
    )
    run = '<w:r><w:t xml:space="preserve">All persons interested'
    tracked = '<w:ins w:id="9001" w:author="Counsel"><w:r><w:t>Indeed, </w:t></w:r></w:ins>' + run
    edited = edit_one_letter(edited, tmp_path / "twice" / "letters.docx", run, tracked, 7)
    whole = extract(edited)
    wrong_day = next(b.number for b in whole.blocks if "Wednesday, March 16" in b.text)
    changed = next(b.number for b in whole.blocks if b.text.startswith("Indeed, All persons"))
    assert wrong_day > 4 * len(whole.blocks) // 30  # in the fifth letter, not the first

    found = lint([edited], case_path=CASES / "ep-2027-za-03.yaml").findings
    assert [(f.code, f.paragraph) for f in found if f.code in ("NL003", "NL010")] == [
        ("NL003", wrong_day),
        ("NL010", changed),
    ]
