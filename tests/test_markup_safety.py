"""Hostile markup stays data: an amendment's Markdown and a clerk's SVG map (issue 14, items 2, 7).

Links go only to http, https and mailto addresses, raw HTML is text, images are refused at load,
Markdown the Word reader could not read (`&nbsp;`, hard breaks) renders, and a clerk's SVG keeps
its drawing and loses its script. Checked on real packets: HTML read back with html5lib, PDFs
with pypdf, Word with python-docx, the SVG with lxml and drawn by WeasyPrint.
"""

from __future__ import annotations

import base64
import functools
import io
import re
import zipfile
from pathlib import Path
from typing import Any

import html5lib
import pypdf
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from generator.render.markdown_text import to_blocks, to_html, to_plain
from generator.safe_markdown import problem
from generator.safe_svg import SvgError, clean

from .conftest import CASES, ROOT, notices, write_case

SVG = "http://www.w3.org/2000/svg"
SAFE_HREF = re.compile(r"(https?://[^/\s]+|mailto:\S)", re.IGNORECASE)

# Links a published page must not follow, each with the words that must stay.
UNSAFE_LINKS = [
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    "java&#x09;script:alert(1)",
    "&#106;avascript:alert(1)",
    "java&Tab;script:alert(1)",
    "  javascript:alert(1)",
    "<javascript:alert(1)>",
    "vbscript:msgbox(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "file:///etc/passwd",
    "//evil.example/x",
    "relative/page.html",
    "/absolute/page.html",
    "#fragment",
    "https:evil.example",
    "http://",
]


def html_tree(fragment: str) -> etree._Element:
    return html5lib.parse(fragment, treebuilder="lxml", namespaceHTMLElements=False).getroot()


def spaced(text: str) -> str:
    """`text` with each run of spaces and line ends as one space; a no-break space stays."""
    return re.sub(r"[ \t\r\n]+", " ", text).strip()


def hrefs(tree: etree._Element) -> list[str]:
    return [a.get("href") for a in tree.iter("a") if a.get("href") is not None]


def assert_safe_html(page: str) -> None:
    tree = html_tree(page)
    tags = {e.tag for e in tree.iter() if isinstance(e.tag, str)}
    assert not tags & {"script", "iframe", "object", "embed", "form", "base"}, tags
    handlers = [(e.tag, k) for e in tree.iter() for k in e.attrib if k.lower().startswith("on")]
    assert not handlers
    for href in hrefs(tree):
        assert SAFE_HREF.match(href), href


# --- Markdown, unit by unit -------------------------------------------------------------------


@pytest.mark.parametrize("url", UNSAFE_LINKS)
def test_an_unsafe_link_keeps_its_words_and_loses_its_link(url: str) -> None:
    html = to_html(f"See [the code]({url}) now.")
    assert hrefs(html_tree(html)) == []
    assert "See the code now." in "".join(html_tree(html).itertext())
    assert "See the code now." in to_plain(f"See [the code]({url}) now.")


def test_an_unsafe_reference_link_or_autolink_loses_its_link() -> None:
    for text in (
        "[the code][c]\n\n[c]: javascript:alert(1)",
        "<javascript:alert(1)>",
        "<vbscript:msgbox(1)>",
        "[![x](https://ok.example/i.png)](javascript:alert(1))",
    ):
        assert hrefs(html_tree(to_html(text))) == [], text


@pytest.mark.parametrize(
    ("text", "href"),
    [
        (
            "[the code](https://library.example/code?a=1&b=2)",
            "https://library.example/code?a=1&b=2",
        ),
        ("[the code](HTTP://library.example/)", "HTTP://library.example/"),
        ("[the clerk](mailto:clerk@city.example)", "mailto:clerk@city.example"),
        ("<https://library.example/code>", "https://library.example/code"),
        ("<clerk@city.example>", "mailto:clerk@city.example"),
    ],
)
def test_http_https_and_mailto_links_stay_links(text: str, href: str) -> None:
    assert hrefs(html_tree(to_html(text))) == [href]


@pytest.mark.parametrize(
    "raw",
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        '<a href="javascript:alert(1)">x</a>',
        "<iframe src=javascript:alert(1)></iframe>",
        "<svg onload=alert(1)>",
        "<div>\n<script>alert(1)</script>\n</div>",
    ],
)
def test_raw_html_is_text_not_markup(raw: str) -> None:
    html = to_html(f"Before {raw} after.\n\n{raw}")
    assert_safe_html(html)
    assert "<script" not in html and "<img" not in html and "<iframe" not in html
    assert raw.split("\n")[0] in "".join(html_tree(html).itertext())


def test_an_image_is_refused_at_load_and_never_drawn() -> None:
    text = "Intro.\n\nSee ![the zoning table](https://evil.example/track.png)."
    assert "line 3 of the text: an image (the zoning table" in (problem(text) or "")
    html = to_html(text)
    assert "<img" not in html and "See the zoning table." in html


def test_nbsp_and_other_references_are_characters() -> None:
    blocks = to_blocks("800&nbsp;square feet &amp; 20&#xA0;ft, &copy; &bogus; &#0;")
    (block,) = blocks
    text = "".join(run.text for run in block.runs)
    assert text == "800\xa0square feet & 20\xa0ft, \xa9 &bogus; \ufffd"
    assert "800\xa0square" in to_plain("800&nbsp;square feet")  # a non-breaking space stays one
    assert "&amp;bogus;" in to_html("&bogus;")


@pytest.mark.parametrize("text", ["one  \ntwo", "one\\\ntwo", "one<br>two", "one<BR />two"])
def test_a_hard_break_is_a_line_break(text: str) -> None:
    (block,) = to_blocks(text)
    assert "".join(run.text for run in block.runs) == "one\ntwo"
    assert "<br>" in to_html(text)
    assert to_plain(text) == "one two"


def test_each_numbered_list_keeps_its_own_numbers() -> None:
    text = "1. a\n2. b\n\nbetween\n\n5. e\n6. f\n   1. inner\n7. g\n"
    numbered = [(b.marker, b.numbered) for b in to_blocks(text) if b.marker]
    assert numbered == [
        ("1.", (1, 1)),
        ("2.", (1, 2)),
        ("5.", (2, 5)),
        ("6.", (2, 6)),
        ("1.", (3, 1)),
        ("7.", (2, 7)),
    ]
    assert '<ol start="5"' in to_html(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A\n\nB \x07 bell", "line 3 of the text holds the character U+0007"),
        ("A \ud800", "U+D800"),
        ("> " * 30 + "deep", "nested too deeply"),
        ("".join("  " * i + "- x\n" for i in range(12)), "nested too deeply"),
    ],
)
def test_text_no_document_can_print_is_refused(text: str, message: str) -> None:
    assert message in (problem(text) or "")


def test_long_hostile_markdown_is_read_in_linear_time() -> None:
    """Python-Markdown took ~5 s over 4,000 `[`, and minutes for a few times more."""
    import time

    for text in ("[" * 20_000, "[a][" * 5_000, "a\n=\n" * 5_000, "![a](" * 4_000):
        started = time.perf_counter()
        to_blocks(text)
        assert time.perf_counter() - started < 5, text[:10]


# --- The case loader ----------------------------------------------------------------------------

TEXT_CASE = (CASES / "newport-2027-text-01.yaml").read_text()


def with_full_text(scalar: str) -> str:
    """The Newport text case (which prints its full text) with `full_text: <scalar>`."""
    head, rest = TEXT_CASE.split("  full_text: |\n", 1)
    lines = rest.split("\n")
    while lines and (lines[0].startswith("    ") or not lines[0]):
        lines.pop(0)  # the block scalar's own lines
    return f"{head}  full_text: {scalar}\n" + "\n".join(lines)


def refused(tmp_path: Path, text: str) -> str:
    path = write_case(tmp_path, text, "bad-case.yaml")
    result = notices("build", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()
    return result.stderr


@pytest.mark.parametrize(
    ("scalar", "message"),
    [
        (
            "|\n    Intro.\n\n    See ![the table](table.png).",
            "line 3 of the text: an image (the table: table.png)",
        ),
        (
            '"Section 1.\\n\\nBell \\a here."',
            "contains the character U+0007, which no notice can print",
        ),
        (
            '"' + "> " * 30 + 'deep"',
            "line 1 of the text: lists or quotations are nested too deeply",
        ),
    ],
)
def test_the_loader_refuses_what_no_notice_can_print_with_file_line_and_field(
    tmp_path: Path, scalar: str, message: str
) -> None:
    text = with_full_text(scalar)
    line = text.splitlines().index(f"  full_text: {scalar.splitlines()[0]}") + 1
    assert f"bad-case.yaml:{line}:14: amendment.full_text: {message}" in refused(tmp_path, text)


# --- A clerk's SVG map ---------------------------------------------------------------------------


@functools.cache
def drawn_svg() -> bytes:
    """A map as GIS software writes one: matplotlib paths, glyphs by reference, clip, hatch."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot as plt
    from matplotlib.patches import Polygon

    fig, ax = plt.subplots(figsize=(4, 3))
    ax.add_patch(Polygon([(0, 0), (4, 0), (4, 3), (0, 3)], facecolor="#ddd", edgecolor="k"))
    ax.add_patch(Polygon([(1, 1), (3, 1), (3, 2), (1, 2)], fill=False, hatch="///", lw=2))
    ax.plot([0, 4], [1.5, 1.5], "--", color="0.4")
    ax.text(2, 1.5, "R-1 → C-2", ha="center", fontsize=12, fontweight="bold")
    ax.text(0.2, 2.7, "W MAIN ST", fontsize=8)
    ax.set_xlim(0, 4)
    ax.set_ylim(0, 3)
    ax.set_axis_off()
    out = io.BytesIO()
    fig.savefig(out, format="svg", metadata={"Date": None})
    plt.close(fig)
    return out.getvalue()


def hostile(svg: bytes) -> bytes:
    """`svg` with script, handlers, an embedded page, a javascript: link and entities added.

    Only what the sealed PDF renderer accepts, so that today's code builds a packet with it.
    """
    text = svg.decode()
    text = re.sub(
        r"<!DOCTYPE[^>]*>",
        '<!DOCTYPE svg [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;">]>',
        text,
        count=1,
    )
    text = text.replace(
        "<defs>",
        '<script type="text/javascript">alert("svg")</script>'
        '<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml">'
        '<iframe src="javascript:alert(2)"/></body></foreignObject>'
        '<a xlink:href="javascript:alert(3)"><rect width="0.1" height="0.1" fill="none"/></a>'
        '<set attributeName="fill" to="red"/>'
        '<text x="-50" y="-50" onclick="alert(4)">&lol2;</text>'
        "<defs>",
        1,
    )
    text = re.sub(r"<svg ", '<svg onload="alert(5)" ', text, count=1)
    text = text.replace('<g id="figure_1">', '<g id="figure_1" onmouseover="alert(6)">', 1)
    return text.encode()


def assert_clean_svg(data: bytes) -> None:
    assert b"<!DOCTYPE" not in data and b"ENTITY" not in data and b"alert" not in data
    root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
    names = {etree.QName(e).localname for e in root.iter() if isinstance(e.tag, str)}
    assert not names & {"script", "foreignObject", "a", "set", "animate", "iframe", "body"}
    for element in root.iter():
        for key, value in element.attrib.items():
            name = etree.QName(key).localname
            assert not name.lower().startswith("on"), (element.tag, key)
            if name == "href":
                assert value.startswith(("#", "data:image/png;base64,"))


def render(svg: bytes, tmp_path: Path, name: str) -> Any:
    """The SVG drawn by WeasyPrint 5.5 in wide, as the notices draw it, in pixels."""
    import pypdfium2
    import weasyprint

    (tmp_path / f"{name}.svg").write_bytes(svg)
    page = f'<html><body style="margin:0"><img src="{name}.svg" style="width:5.5in"></body></html>'
    pdf = weasyprint.HTML(string=page, base_url=str(tmp_path)).write_pdf()
    return pypdfium2.PdfDocument(pdf)[0].render(scale=100 / 72).to_pil().convert("RGB")


def test_a_hostile_svg_keeps_its_drawing_and_loses_its_script(tmp_path: Path) -> None:
    from PIL import ImageChops

    original, attacked = drawn_svg(), hostile(drawn_svg())
    assert b"<script" in attacked and b"onload" in attacked
    cleaned = clean(attacked)
    assert_clean_svg(cleaned)
    before, after = render(original, tmp_path, "before"), render(cleaned, tmp_path, "after")
    assert before.size == after.size
    assert ImageChops.difference(before, after).getbbox() is None  # the same pixels
    # Nothing of a real map's drawing is left out: only its metadata.
    drawn = ("g", "path", "use", "clipPath", "pattern", "rect", "defs", "style", "title")
    assert tags(clean(original), drawn) == tags(original, drawn)


def tags(svg: bytes, names: tuple[str, ...]) -> dict[str, int]:
    root = etree.fromstring(svg, etree.XMLParser(resolve_entities=False, no_network=True))
    found = [etree.QName(e).localname for e in root.iter(f"{{{SVG}}}*")]
    return {name: found.count(name) for name in names}


@pytest.mark.parametrize(
    "part",
    [
        '<use xlink:href="http://evil.example/x.svg#a"/>',
        '<image href="http://evil.example/track.png" width="1" height="1"/>',
        '<image href="data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" width="1" height="1"/>',
        '<rect width="1" height="1" style="fill: url(http://evil.example/p.svg#x)"/>',
        '<rect width="1" height="1" fill="url(\'https://evil.example/p#x\')"/>',
        "<style>@import url(http://evil.example/x.css);</style>",
        "<style>rect { fill: \\75 rl(http://evil.example/z) }</style>",
        "<style>rect { background: image-set('http://evil.example/i.png' 1x) }</style>",
        '<g xml:base="http://evil.example/"><rect width="1" height="1"/></g>',
        '<feImage href="http://evil.example/i.png"/>',
        '<animate attributeName="href" values="javascript:alert(1)"/>',
        '<handler xmlns="http://www.w3.org/2001/xml-events" event="load">alert(1)</handler>',
        '<?xml-stylesheet href="http://evil.example/s.css"?>',
    ],
)
def test_nothing_outside_the_file_is_fetched(part: str) -> None:
    svg = f'<svg xmlns="{SVG}" xmlns:xlink="http://www.w3.org/1999/xlink">{part}</svg>'
    out = clean(svg.encode())
    assert b"evil" not in out and b"alert" not in out and b"svg+xml" not in out


def test_local_references_and_embedded_rasters_are_kept() -> None:
    png = "data:image/png;base64,iVBORw0KGgo="
    svg = (
        f'<svg xmlns="{SVG}" xmlns:xlink="http://www.w3.org/1999/xlink"><defs>'
        '<linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient>'
        '<path id="p" d="M0 0L1 1"/></defs>'
        '<use xlink:href="#p"/><rect fill="url(#g)" width="1" height="1"/>'
        f'<image href="{png}" width="1" height="1"/>'
        "<style>.a { fill: rgb(1, 2, 3) } g:not(.b) { stroke: url(#g) }</style></svg>"
    )
    out = clean(svg.encode()).decode()
    assert 'xlink:href="#p"' in out and 'fill="url(#g)"' in out and png in out
    assert "g:not(.b) { stroke: url(#g) }" in out


def test_entities_are_neither_expanded_nor_read() -> None:
    secret = f'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="{SVG}">'
    out = clean((secret + "<text>&x;</text></svg>").encode())
    assert b"root:" not in out and b"ENTITY" not in out and b"passwd" not in out


def test_an_entity_bomb_is_refused_or_left_unexpanded() -> None:
    laughs = "".join(
        f'<!ENTITY {c} "{("&" + p + ";") * 10}">'
        for p, c in zip("abcdefgh", "bcdefghi", strict=True)
    )
    bomb = f'<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">{laughs}]><svg xmlns="{SVG}"><text>&i;</text></svg>'
    try:
        out = clean(bomb.encode())
    except SvgError as exc:  # libxml2 refuses the amplification itself: exit 2 at load
        assert "amplification" in str(exc)
        return
    assert b"aaaa" not in out and len(out) < 300


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"<svg", "not readable as SVG"), (b"<html><script/></html>", "root element is <html>")],
)
def test_a_file_that_is_no_svg_is_refused(data: bytes, message: str) -> None:
    with pytest.raises(SvgError, match=message):
        clean(data)


def test_the_loader_refuses_an_unreadable_svg_map(tmp_path: Path) -> None:
    (tmp_path / "map.svg").write_text("<svg><g></svg>")
    text = (CASES / "newport-2027-map-01.yaml").read_text()
    text = text.replace("\ngis:", "\nmap: {image: map.svg, alt: Map}\ngis:", 1)
    assert "map.image: map.svg: not readable as SVG" in refused(tmp_path, text)


# --- A real packet with both ---------------------------------------------------------------------

HOSTILE_TEXT = """\
    See [the code](javascript:alert(document.cookie)), [two](JaVaScRiPt:alert(2)),
    [three](java&#x09;script:alert(3)), [four](data:text/html;base64,PHNjcmlwdD4=),
    [five](//evil.example/x), [six](relative/path.html), [seven](vbscript:msgbox(7)),
    [the city](https://www.example.gov/code?a=1&b=2) and [the clerk](mailto:clerk@example.gov).
    <script>alert(8)</script> <img src=x onerror=alert(9)> 800&nbsp;square&nbsp;feet;
    a hard break here\x20\x20
    and another<br>and the end.

    1. first
    2. second

    between

    5. fifth
    6. sixth
"""
LABELS = "See the code, two, three, four, five, six, seven, the city and the clerk."


@pytest.fixture(scope="module")
def packet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Newport map case with the hostile text printed in full and a hostile clerk's map."""
    from generator.packet import build

    tmp = tmp_path_factory.mktemp("hostile")
    (tmp / "clerk-map.svg").write_bytes(hostile(drawn_svg()))
    text = (CASES / "newport-2027-map-01.yaml").read_text()
    text = text.replace("\ngis:", "\nmap: {image: clerk-map.svg, alt: Map of the change}\ngis:", 1)
    text = text.replace(
        "  initiated_by: owner\n",
        f"  initiated_by: owner\n  print_full_text: true\n  full_text: |\n{HOSTILE_TEXT}",
        1,
    )
    return build(write_case(tmp, text), tmp / "out").folder


def test_the_packets_html_has_no_script_and_only_safe_links(packet: Path) -> None:
    pages = {p.name: p.read_text() for p in packet.glob("*.html")}
    assert {"newspaper_notice.html", "posting_notice.html", "website_notice.html"} <= set(pages)
    for name, html in pages.items():
        assert_safe_html(html)
        if name != "schedule.html":
            words = spaced("".join(html_tree(html).itertext()))
            assert LABELS in words, name
            assert "<script>alert(8)</script> <img src=x onerror=alert(9)>" in words
            assert "800\xa0square\xa0feet" in words
            assert "https://www.example.gov/code?a=1&b=2" in hrefs(html_tree(html))


def test_the_packets_pdfs_link_only_to_safe_addresses(packet: Path) -> None:
    for name in ("newspaper_notice.pdf", "posting_notice.pdf", "website_notice.pdf"):
        reader = pypdf.PdfReader(packet / name)
        words = spaced(" ".join(page.extract_text() for page in reader.pages))
        assert LABELS in words, name
        actions = [
            annot.get_object().get("/A")
            for page in reader.pages
            for annot in page.get("/Annots") or []
        ]
        uris = [str(a.get_object()["/URI"]) for a in actions if a and "/URI" in a.get_object()]
        assert uris and all(SAFE_HREF.match(uri) for uri in uris), (name, uris)


def test_the_word_draft_has_the_text_line_breaks_and_its_own_numbering(packet: Path) -> None:
    import docx

    document = docx.Document(packet / "newspaper_notice.docx")
    paragraphs = document.paragraphs
    (first,) = [p for p in paragraphs if p.text.startswith("See the code")]
    assert LABELS in spaced(first.text)
    assert "800\xa0square\xa0feet" in first.text
    assert "a hard break here\nand another\nand the end." in first.text  # <w:br/>, not a space
    items = {p.text: p for p in paragraphs if p.text in ("first", "second", "fifth", "sixth")}
    ids = {t: p._p.pPr.numPr.numId.val for t, p in items.items()}
    assert ids["first"] == ids["second"] != ids["fifth"] == ids["sixth"]
    numbering = document.part.numbering_part.element
    starts = {
        t: numbering.num_having_numId(n).xpath("./w:lvlOverride/w:startOverride/@w:val")
        for t, n in ids.items()
    }
    assert starts["first"] == ["1"] and starts["fifth"] == ["5"]
    txt = (packet / "newspaper_notice.txt").read_text()
    assert "<script>alert(8)</script>" in txt and "800\xa0square\xa0feet" in txt


def test_the_packets_map_and_every_page_embedding_it_carry_no_script(packet: Path) -> None:
    assert_clean_svg((packet / "map.svg").read_bytes())
    html = (packet / "website_notice.html").read_text()
    embedded = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert embedded
    for data in embedded:
        assert_clean_svg(base64.b64decode(data))
    for name in ("newspaper_notice.html", "posting_notice.html"):
        assert '<img src="map.svg"' in (packet / name).read_text()
    for name in ("newspaper_notice.pdf", "posting_notice.pdf", "website_notice.pdf"):
        raw = (packet / name).read_bytes()
        assert b"/JavaScript" not in raw and b"/JS " not in raw, name
    for name in ("newspaper_notice.docx", "letters.docx"):
        with zipfile.ZipFile(packet / name) as z:
            assert not [n for n in z.namelist() if n.endswith(".svg")], name


# --- Fuzz ----------------------------------------------------------------------------------------

FRAGMENTS = st.sampled_from(
    [
        *(f"[x]({u})" for u in UNSAFE_LINKS),
        "[x](https://ok.example/)",
        "[x][r]",
        "\n\n[r]: javascript:alert(1)\n",
        "![alt](javascript:alert(1))",
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        "<br>",
        "  \n",
        "\\\n",
        "&nbsp;",
        "&#0;",
        "&#x1;",
        "&bogus;",
        "&amp;lt;script&amp;gt;",
        "\x00",
        "\x01",
        "\ufffe",
        "[",
        "]",
        "(",
        "`",
        "*",
        "_",
        "\n",
        "\n\n",
        "> ",
        "- ",
        "1. ",
        "5) ",
        "    ",
        "# ",
        "---\n",
        "```\n",
        "<",
        ">",
        "javascript:",
        "word",
    ]
)
HOSTILE_MARKDOWN = st.one_of(st.lists(FRAGMENTS, max_size=30).map("".join), st.text(max_size=200))


@functools.cache
def word_template() -> Any:
    from docxtpl import DocxTemplate

    return DocxTemplate(str(ROOT / "templates" / "_base" / "newspaper_notice.docx"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HOSTILE_MARKDOWN)
def test_fuzz_hostile_markdown_renders_safely_or_is_refused(text: str) -> None:
    from pydantic import ValidationError

    from generator.models.case import Amendment
    from generator.render.docx import _paragraphs

    amendment = {"kind": "text", "title": "T", "initiated_by": "council", "summary": "S"}
    try:
        stored = Amendment.model_validate({**amendment, "full_text": text}).full_text
    except ValidationError as exc:  # the loader reports it with file and line: exit 2
        (error,) = exc.errors()
        assert error["loc"] == ("full_text",) and " of the text" in error["msg"]
    else:
        assert stored is None or problem(stored) is None
    # Rendered all the same: the renderers never see a refused text, but must not fail on one.
    html = to_html(text)
    assert "<script" not in html.lower() and "<img" not in html.lower()
    assert_safe_html(html)
    to_plain(text)
    word = str(_paragraphs(word_template(), text))
    ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
    etree.fromstring(f"<w:body {ns}>{word}</w:body>".encode())  # well-formed Word XML
