"""The packet review pages (issue 20, part C) over a real built packet, through the real app.

One sample case is built once into a working folder (with a clerk's map whose caption is
hostile); every page is compared with what the packet's own files say, not with hard-coded lists.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
import struct
from pathlib import Path
from urllib.parse import quote

import lxml.html
import pytest
from starlette.testclient import TestClient

from generator.packet import build
from generator.web.app import create_app

from .conftest import CASES, ROOT

BUILT = "shelby-2027-map-01"
UNBUILT = "tx-2027-map-01"
HOSTILE = '<script>alert("x")</script>'
MAP_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><rect width="50" height="50"/></svg>'


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A working folder: a built case (with a map captioned with markup) and one never built."""
    root = tmp_path_factory.mktemp("workspace")
    (root / "cases").mkdir()
    (root / "data").symlink_to(ROOT / "data")
    text = (CASES / f"{BUILT}.yaml").read_text()
    text += f"map: {{image: map.svg, caption: '{HOSTILE} & the parcels', alt: A map of the two parcels}}\n"
    (root / "cases" / f"{BUILT}.yaml").write_text(text)
    (root / "cases" / "map.svg").write_text(MAP_SVG)
    shutil.copy(CASES / f"{UNBUILT}.yaml", root / "cases")
    build(root / "cases" / f"{BUILT}.yaml", root / "output")
    return root


@pytest.fixture(scope="module")
def client(folder: Path) -> TestClient:
    return TestClient(create_app(folder))


@pytest.fixture(scope="module")
def packet(folder: Path) -> Path:
    return folder / "output" / BUILT


def manifest(packet: Path) -> dict:
    return json.loads((packet / "manifest.json").read_text())


def html(client: TestClient, url: str) -> lxml.html.HtmlElement:
    response = client.get(url)
    assert response.status_code == 200, (url, response.text[:500])
    assert response.headers["content-type"].startswith("text/html")
    return lxml.html.fromstring(response.text)


def test_the_review_page_shows_every_document_finding_and_input_of_the_manifest(
    client: TestClient, packet: Path
) -> None:
    m = manifest(packet)
    doc = html(client, f"/cases/{BUILT}")
    assert len(doc.findall(".//h1")) == 1
    links = {a.get("href") for a in doc.xpath('//ul[@id="documents"]//a')}
    for d in m["documents"]:
        assert f"http://testserver/cases/{BUILT}/files/{d['path']}" in links, d["path"]
        assert f"http://testserver/cases/{BUILT}/files/{d['path']}?download=1" in links
    items = doc.xpath('//ul[@id="documents"]/li')
    assert len(items) == len({d["path"].rsplit(".", 1)[0] for d in m["documents"]})
    assert all(li.xpath(".//img[@alt]") or li.xpath(".//*[@role='img']") for li in items)

    findings = doc.get_element_by_id("findings")
    rows = findings.xpath(".//tbody/tr")
    assert len(rows) == len(m["findings"]) > 0
    shown = findings.text_content()
    for f in m["findings"]:
        assert f["code"] in shown and f["message"] in shown
        if f["citation"]:
            assert f["citation"] in shown  # the law behind the finding, by its own name
    grouped = [h.text_content() for h in findings.findall(".//h3")]
    documents = {f["document"] for f in m["findings"] if f["document"]}
    assert documents <= set(grouped) and "The case as a whole" in grouped

    table = doc.get_element_by_id("manifest").text_content()
    for i in m["inputs"].values():
        assert i["sha256"] in table
    for p in m["packs"]:
        assert p["sha256"] in table
    assert json.loads(doc.xpath('//section[@id="manifest"]//pre')[0].text_content()) == m
    assert doc.get_element_by_id("download-zip").get("href").endswith(f"/cases/{BUILT}/packet.zip")
    assert doc.get_element_by_id("build").text_content() == "Build packet"
    for page in ("schedule", "map", "recipients", "pack"):
        assert doc.get_element_by_id(f"nav-{page}").get("href").endswith(f"/{BUILT}/{page}")


def test_a_finding_links_to_its_page_or_its_words(client: TestClient, folder: Path) -> None:
    """A PDF finding that knows its page opens the PDF there; an HTML one at its quoted words."""
    copy = folder / "output" / "located"
    shutil.copytree(folder / "output" / BUILT, copy)
    m = manifest(copy)
    pdf = next(d["path"] for d in m["documents"] if d["path"].endswith(".pdf"))
    page_html = next(d["path"] for d in m["documents"] if d["path"].endswith(".html"))
    base = {k: v for k, v in m["findings"][0].items() if k not in ("document", "location")}
    m["findings"] = [
        {**base, "document": pdf, "location": {"page": 2, "line": 4}},
        {**base, "document": page_html, "location": {"paragraph": 3, "quote": "public hearing"}},
    ]
    (copy / "manifest.json").write_text(json.dumps(m))
    doc = html(client, "/cases/located")
    hrefs = [a.get("href") for a in doc.xpath('//section[@id="findings"]//td[last()]/a')]
    assert hrefs == [
        f"http://testserver/cases/located/files/{pdf}#page=2",
        f"http://testserver/cases/located/files/{page_html}#:~:text=public%20hearing",
    ]


def test_thumbnails_are_small_pngs_of_each_pdf_cached_outside_the_packet(
    client: TestClient, folder: Path, packet: Path
) -> None:
    doc = html(client, f"/cases/{BUILT}")
    sources = [img.get("src") for img in doc.xpath('//ul[@id="documents"]//img')]
    pdfs = {d["path"] for d in manifest(packet)["documents"] if d["format"] == "pdf"}
    assert {s.rsplit("/", 1)[1].removesuffix(".png") for s in sources if "/thumbs/" in s} == pdfs
    for src in sources:
        response = client.get(src)
        assert response.status_code == 200
        if "/thumbs/" in src:
            assert response.headers["content-type"] == "image/png"
            assert response.content[:8] == b"\x89PNG\r\n\x1a\n"
            width, height = struct.unpack(">II", response.content[16:24])
            assert width == 180 and height > 50, (src, width, height)  # a sign is landscape
    cached = list((folder / ".notices-cache" / "thumbs").glob("*.png"))
    assert len(cached) == len({(packet / p).read_bytes() for p in pdfs})
    assert not list(packet.glob("*.png.tmp")) and not (packet / ".notices-cache").exists()


def test_files_are_served_with_their_type_inline_or_as_a_download(
    client: TestClient, packet: Path
) -> None:
    m = manifest(packet)
    pdf = next(d["path"] for d in m["documents"] if d["format"] == "pdf")
    r = client.get(f"/cases/{BUILT}/files/{pdf}")
    assert r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("inline")
    assert r.content == (packet / pdf).read_bytes()
    r = client.get(f"/cases/{BUILT}/files/{pdf}?download=1")
    assert r.headers["content-disposition"].startswith("attachment")
    eml = next(d["path"] for d in m["documents"] if d["format"] == "eml")
    r = client.get(f"/cases/{BUILT}/files/{eml}")
    assert r.headers["content-type"] == "message/rfc822"
    assert r.headers["content-disposition"].startswith("attachment")
    r = client.get(f"/cases/{BUILT}/files/map.svg")
    assert r.headers["content-type"] == "image/svg+xml"
    assert r.headers["content-security-policy"].startswith("sandbox")
    assert r.headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize(
    "url",
    [
        f"/cases/{BUILT}/files/..%2Fmanifest.json",
        f"/cases/{BUILT}/files/..%2F..%2Fcases%2F{BUILT}.yaml",
        f"/cases/{BUILT}/files/%2Fetc%2Fpasswd",
        f"/cases/{BUILT}/files/.hidden",
        f"/cases/{BUILT}/files/outside.txt",  # a symbolic link out of the packet
        f"/cases/{BUILT}/files/no-such-file.pdf",
        "/cases/..%2F..%2Fetc/files/passwd",
        "/cases/..%2Foutput%2Fshelby-2027-map-01/files/letters.pdf",
        "/cases/no-such-case",
        "/cases/no-such-case/schedule",
        "/cases/no-such-case/pack",
        f"/cases/{BUILT}/thumbs/..%2F..%2Fetc%2Fpasswd.png",
        f"/cases/{BUILT}/thumbs/manifest.json.png",  # not a PDF
        f"/cases/{BUILT}/thumbs/outside.pdf.png",
        f"/cases/{BUILT}/thumbs/%2Fetc%2Fpasswd.pdf.png",
    ],
)
def test_traversal_and_unknown_names_are_not_found(
    client: TestClient, packet: Path, folder: Path, url: str
) -> None:
    secret = folder / "secret.txt"
    secret.write_text("not for the browser")
    for name in ("outside.txt", "outside.pdf"):
        if not (packet / name).is_symlink():
            (packet / name).symlink_to(secret)
    response = client.get(url)
    assert response.status_code == 404, url
    assert b"not for the browser" not in response.content


def test_hostile_values_are_escaped(client: TestClient, packet: Path) -> None:
    """The clerk's map caption, a recipient's name and a search are shown as text, never markup."""
    page = client.get(f"/cases/{BUILT}/map").text
    assert HOSTILE not in page
    doc = lxml.html.fromstring(page)
    assert HOSTILE in doc.xpath("//figcaption")[0].text_content()
    assert not doc.xpath("//main//script")

    original = (packet / "recipients.csv").read_text()
    try:
        rows = list(csv.reader(io.StringIO(original)))
        rows.append([HOSTILE, *rows[1][1:]])
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows(rows)
        (packet / "recipients.csv").write_text(out.getvalue())
        page = client.get(f"/cases/{BUILT}/recipients", params={"q": HOSTILE}).text
        assert HOSTILE not in page
        doc = lxml.html.fromstring(page)
        assert not doc.xpath("//main//script")
        assert [
            td.text_content() for td in doc.xpath('//table[@id="recipients"]//tbody/tr/td[1]')
        ] == [HOSTILE]
        assert doc.get_element_by_id("q").get("value") == HOSTILE
    finally:
        (packet / "recipients.csv").write_text(original)


def test_the_schedule_is_a_timeline_of_every_deadline_with_today_marked(
    client: TestClient, packet: Path
) -> None:
    deadlines = json.loads((packet / "schedule.json").read_text())
    dated = sorted(d["latest"] for d in deadlines if d["latest"])
    as_of = dated[0]  # the first deadline's last day: it is not passed yet, the next one
    doc = html(client, f"/cases/{BUILT}/schedule?as_of={as_of}")
    timeline = doc.get_element_by_id("timeline")
    items = timeline.findall("li")
    today = [li for li in items if "today" in li.get("class", "").split()]
    assert len(today) == 1 and today[0].get("aria-current") == "date"
    assert as_of in today[0].text_content()
    assert items.index(today[0]) == 0  # nothing has passed yet
    entries = [li for li in items if "deadline" in li.get("class").split()]
    assert {li.get("id") for li in entries} == {f"deadline-{d['id']}" for d in deadlines}
    for d in deadlines:
        li = doc.get_element_by_id(f"deadline-{d['id']}")
        assert d["citation"] in li.text_content() and d["rule"] in li.text_content()
    assert "next" in entries[0].get("class").split()
    from generator.inputs import load_case

    hearings = [li for li in items if "hearing-day" in li.get("class").split()]
    case = load_case(CASES / f"{BUILT}.yaml").case
    assert [li.find(".//time").get("datetime") for li in hearings] == [
        h.date.isoformat() for h in case.hearings
    ]

    later = html(client, f"/cases/{BUILT}/schedule?as_of={dated[-1]}")
    classes = [li.get("class").split() for li in later.get_element_by_id("timeline").findall("li")]
    assert sum("passed" in c for c in classes) == sum(d < dated[-1] for d in dated)
    assert client.get(f"/cases/{BUILT}/schedule?as_of=tomorrow").status_code == 400

    ics = doc.get_element_by_id("ics").get("href")
    r = client.get(ics)
    assert r.headers["content-type"].startswith("text/calendar")
    assert r.content == (packet / "schedule.ics").read_bytes()


def test_the_schedule_of_a_case_never_built_is_computed(client: TestClient) -> None:
    from generator.prepare import prepare

    deadlines = prepare(CASES / f"{UNBUILT}.yaml").deadlines
    doc = html(client, f"/cases/{UNBUILT}/schedule?as_of=2027-01-01")
    ids = {li.get("id") for li in doc.get_element_by_id("timeline").findall("li")}
    assert {i for i in ids if i and i.startswith("deadline-")} == {
        f"deadline-{d.id}" for d in deadlines
    }
    assert "Not built yet" in doc.text_content()


def test_a_case_never_built_says_so_with_the_build_button(client: TestClient) -> None:
    for page in ("", "/map", "/recipients"):
        doc = html(client, f"/cases/{UNBUILT}{page}")
        assert "Not built yet" in doc.text_content()
        button = doc.get_element_by_id("build")
        assert button.getparent().get("action").endswith(f"/cases/{UNBUILT}/build")
        assert doc.xpath('//form[@method="post"]/input[@name="csrf_token"]')


def test_the_map_page_shows_the_map_its_caption_parcels_and_distances(
    client: TestClient, packet: Path
) -> None:
    m = manifest(packet)
    doc = html(client, f"/cases/{BUILT}/map")
    assert doc.get_element_by_id("map-image").get("src").endswith(f"/{BUILT}/files/map.svg")
    assert doc.get_element_by_id("map-image").get("alt") == "A map of the two parcels"
    carriers = {a.text_content() for a in doc.xpath('//ul[@id="map-documents"]//a')}
    assert "newspaper_notice.html" in carriers
    from generator.inputs import load_case

    parcels = load_case(CASES / f"{BUILT}.yaml").case.parcels
    cells = doc.get_element_by_id("parcels").text_content()
    assert all(p.id in cells for p in parcels)
    radius = doc.get_element_by_id("radius").text_content()
    for rule in m["recipients"]["rules"]:
        assert rule["rule"] in radius and rule["citation"] in radius
        if rule["distance_ft"]:
            assert f"{round(rule['distance_ft'])} ft" in radius


def _table(doc: lxml.html.HtmlElement) -> tuple[list[str], list[list[str]]]:
    table = doc.get_element_by_id("recipients")
    head = [th.text_content().strip(" ▲▼") for th in table.xpath(".//thead//th")]
    body = [[td.text_content() for td in tr.findall("td")] for tr in table.xpath(".//tbody/tr")]
    return head, body


def test_recipients_sort_search_and_download(client: TestClient, packet: Path) -> None:
    rows = list(csv.DictReader((packet / "recipients.csv").open(encoding="utf-8")))
    doc = html(client, f"/cases/{BUILT}/recipients")
    head, body = _table(doc)
    assert len(body) == len(rows)
    names = head.index("recipient")
    assert [r[names] for r in body] == [r["recipient"] for r in rows]  # the file's order

    doc = html(client, f"/cases/{BUILT}/recipients?sort=recipient&dir=desc")
    _, body = _table(doc)
    assert [r[names] for r in body] == sorted(
        (r["recipient"] for r in rows), key=str.casefold, reverse=True
    )
    th = doc.xpath('//table[@id="recipients"]//th[@aria-sort]')
    assert len(th) == 1 and th[0].get("aria-sort") == "descending"
    assert "dir=asc" in th[0].find("a").get("href")  # the header sorts the other way next

    doc = html(client, f"/cases/{BUILT}/recipients?sort=distance_ft")
    _, body = _table(doc)
    distance = head.index("distance ft")
    numbers = [float(r[distance]) for r in body if r[distance]]
    assert numbers == sorted(numbers)

    word = rows[-1]["city"].lower()
    doc = html(client, f"/cases/{BUILT}/recipients?q={quote(word)}")
    _, body = _table(doc)
    assert len(body) == sum(word in " ".join(r.values()).lower() for r in rows) > 0
    assert doc.xpath('//label[@for="q"]')

    csv_link = doc.get_element_by_id("recipients-csv").get("href")
    r = client.get(csv_link)
    assert r.headers["content-disposition"].startswith("attachment")
    assert r.content == (packet / "recipients.csv").read_bytes()


def test_ten_thousand_recipients_make_a_small_page(client: TestClient, folder: Path) -> None:
    big = folder / "output" / "big-list"
    big.mkdir()
    with (big / "recipients.csv").open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["recipient", "city", "distance_ft"])
        writer.writerows([f"OWNER {k:05d}", "SHELBY", k % 500] for k in range(10_000))
    r = client.get("/cases/big-list/recipients?sort=recipient&dir=desc&page=3")
    assert r.status_code == 200 and len(r.content) < 100_000
    doc = lxml.html.fromstring(r.text)
    _, body = _table(doc)
    assert [b[0] for b in body] == [f"OWNER {k:05d}" for k in range(9799, 9699, -1)]
    following = doc.xpath('//a[@rel="next"]')[0].get("href")
    assert "page=4" in following and "sort=recipient" in following and "dir=desc" in following


def test_the_pack_checklist_lists_every_binding_rule_with_what_the_packet_says(
    client: TestClient, folder: Path, packet: Path
) -> None:
    from generator.prepare import prepare
    from generator.rules.explain import items

    prepared = prepare(folder / "cases" / f"{BUILT}.yaml")
    (day,) = {h.date for h in prepared.case.hearings}
    rules = items(prepared.pack, day, prepared.rule_ids)
    doc = html(client, f"/cases/{BUILT}/pack")
    listed = [li.get("id") for li in doc.get_element_by_id("checklist").findall("li")]
    assert listed == [f"rule-{i.rule.id}" for i in rules]
    findings = manifest(packet)["findings"]
    for item in rules:
        li = doc.get_element_by_id(f"rule-{item.rule.id}")
        text = li.text_content()
        assert item.rule.citation in text and item.rule.title in text
        ids = {item.rule.id, *(c.id for c in item.children)}
        for f in findings:
            if f["rule"] in ids:
                assert f["code"] in text and f["message"] in text
        for d in manifest(packet)["documents"]:
            if ids & set(d.get("rules", [])):
                assert d["path"] in text


@pytest.mark.parametrize("page", ["", "/schedule", "/map", "/recipients", "/pack"])
def test_every_review_page_is_well_formed_for_people_and_paper(
    client: TestClient, page: str
) -> None:
    """One h1, unique ids, every field labelled, the review styles (with their print rules) linked."""
    for case in (BUILT, UNBUILT):
        doc = html(client, f"/cases/{case}{page}")
        assert len(doc.findall(".//h1")) == 1
        ids = [e.get("id") for e in doc.xpath("//*[@id]")]
        assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
        for field in doc.xpath("//input[not(@type='hidden')]"):
            assert doc.xpath(f'//label[@for="{field.get("id")}"]'), field.get("name")
        assert doc.xpath('//link[@rel="stylesheet"][contains(@href, "review.css")]')
        assert doc.xpath("//main") and doc.xpath("//nav")


def test_every_deadline_of_the_nearest_day_is_next(packet: Path) -> None:
    """Two notices due the same day are both next: neither is "later" than the other."""
    from datetime import date

    from generator.web.schedule import timeline

    deadlines = json.loads((packet / "schedule.json").read_text())
    twin = {**deadlines[0], "id": "twin"}
    entries = [e for e in timeline([*deadlines, twin], date(2027, 1, 1)) if not e["today"]]
    first = min(e["due"] for e in entries if e["due"])
    assert {e["status"] for e in entries if e["due"] == first} == {"next"}
    assert {e["status"] for e in entries if e["due"] != first} <= {"later"}
