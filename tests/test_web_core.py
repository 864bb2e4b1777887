"""The web page's core (issue 20, part A): safe by default, the cases list, build, the zip.

Every test runs the real application (`create_app`) over a working folder made of copies of
the sample cases; nothing is mocked.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import httpx
import pytest
from starlette.testclient import TestClient

from generator.web import security
from generator.web.app import create_app

from .conftest import ROOT

CASE = "ep-2027-za-03"
GIVEN = "s3cret-token"  # the token a server is started with, in the tests


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A working folder: two sample cases in cases/, and data/ reached as the samples expect."""
    (tmp_path / "cases").mkdir()
    (tmp_path / "data").symlink_to(ROOT / "data")
    for name in (CASE, "tx-2027-map-01"):
        shutil.copy(ROOT / "cases" / f"{name}.yaml", tmp_path / "cases")
    return tmp_path


def client(folder: Path, **kwargs: object) -> TestClient:
    return TestClient(create_app(folder, **kwargs), raise_server_exceptions=False)  # type: ignore[arg-type]


def csrf(page: str) -> str:
    match = re.search(r'name="csrf_token" value="([0-9a-f]+)"', page)
    assert match, "the page has no form with a CSRF token"
    return match.group(1)


def listed(http: TestClient, timeout: float = 120) -> str:
    """The cases list once every case file is checked (as the page asks for itself again)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        page = http.get("/").text
        if 'aria-busy="true"' not in page:
            return page
        assert 'hx-trigger="load delay:1s"' in page and "Checking the case file" in page
        time.sleep(0.2)
    raise AssertionError("the case files were not checked")


def fake_packet(folder: Path, case_id: str = CASE) -> Path:
    """A packet as a build leaves it (manifest, documents, lint report), written by hand: fast."""
    packet = folder / "output" / case_id
    packet.mkdir(parents=True)
    docs = {"newspaper_notice.txt": b"NOTICE OF PUBLIC HEARING\n" * 50, "recipients.csv": b"a,b\n"}
    for name, data in docs.items():
        (packet / name).write_bytes(data)
    (packet / "lint_report.json").write_text("{}")
    manifest = {
        "case": case_id,
        "case_number": "ZA-2027-03",
        "ready": False,
        "documents": [{"path": n} for n in [*docs, "lint_report.json"]],
        "findings": [
            {"severity": "error", "code": "X"},
            {"severity": "warning", "code": "Y"},
            {"severity": "warning", "code": "Z"},
        ],
        "inputs": {"case": {"path": "x", "sha256": "0"}},
        "edited": [],
    }
    (packet / "manifest.json").write_text(json.dumps(manifest))
    schedule = [
        {"action": "publish the notice", "hearing": "h", "latest": "2001-01-01"},
        {"action": "mail the notice", "hearing": "council 2999-03-16", "latest": "2999-03-02"},
        {"action": "post the sign", "hearing": "council 2999-03-16", "latest": "2999-03-05"},
    ]
    (packet / "schedule.json").write_text(json.dumps(schedule))
    (packet / "stray.txt").write_text("not part of the packet")
    (packet / "history").mkdir()
    (packet / "history" / "old.pdf").write_text("old")
    return packet


# --- Safe by default -------------------------------------------------------------------------


def test_every_response_carries_the_security_headers(folder: Path) -> None:
    for path in ("/", "/static/app.css", "/no/such/page"):
        response = client(folder).get(path)
        csp = response.headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors" in csp
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
        assert response.headers["x-frame-options"] == "SAMEORIGIN"


def test_no_page_has_inline_script(folder: Path) -> None:
    """The CSP forbids inline script: a page that had some would break silently in a browser."""
    page = client(folder).get("/").text
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)
    assert " on" not in re.sub(r"<[^>]*>", lambda m: m.group(0).replace(" on", " ON"), page)
    assert not re.search(r"<[^>]+\son[a-z]+=", page)


def test_unknown_page_is_a_404_page(folder: Path) -> None:
    response = client(folder).get("/no/such/page")
    assert response.status_code == 404
    assert "<h1>Not found</h1>" in response.text


def _case_routes(folder: Path) -> list[tuple[str, str]]:
    """Every route of the application that names a case or a file: (method, path template)."""
    app = create_app(folder)
    found = []
    for route in app.routes:
        path = getattr(route, "path", "")
        if "{case_id}" in path or "{name}" in path:
            for method in sorted(getattr(route, "methods", None) or {"GET"}):
                if method != "HEAD":
                    found.append((method, path))
    return found


HOSTILE = [
    "..",
    "%2e%2e",
    "..%2f..%2fetc%2fpasswd",
    "%2e%2e%2f%2e%2e%2fcases",
    "%2fetc%2fpasswd",
    "/etc/passwd",
    "a%00b",
    "x" * 300,
    ".hidden",
    "outside",  # a symbolic link out of the working folder (made below)
]


@pytest.mark.parametrize("attempt", HOSTILE)
def test_traversal_attempts_on_every_route_are_404(folder: Path, attempt: str) -> None:
    outside = folder.parent / f"{folder.name}-outside"
    (outside / "output" / "x").mkdir(parents=True)
    (outside / "secret.yaml").write_text("secret: SECRET-TEXT\n")
    (outside / "manifest.json").write_text('{"documents": [], "secret": "SECRET-TEXT"}')
    (folder / "cases" / "outside.yaml").symlink_to(outside / "secret.yaml")
    (folder / "output").mkdir()
    (folder / "output" / "outside").symlink_to(outside)
    http = client(folder)
    token = csrf(http.get("/").text)
    routes = _case_routes(folder)
    assert {p for _, p in routes} >= {"/cases/{case_id}/build", "/cases/{case_id}/packet.zip"}
    for method, template in routes:
        for case_id, name in ((attempt, "manifest.json"), (CASE, attempt)):
            path = template.replace("{case_id}", case_id).replace("{name}", name)
            if "{name}" in template or ("{case_id}" in template and case_id == attempt):
                if httpx.URL(f"http://testserver{path}").path != path:
                    continue  # the client itself resolves a bare `..` (`%2e%2e` is sent as is)
                response = http.request(method, path, data={"csrf_token": token})
                assert response.status_code in (400, 404, 405), (method, path)
                assert "SECRET-TEXT" not in response.text


def test_a_case_file_linked_from_outside_is_not_listed_or_built(folder: Path) -> None:
    outside = folder.parent / f"{folder.name}-elsewhere.yaml"
    shutil.copy(folder / "cases" / f"{CASE}.yaml", outside)
    (folder / "cases" / "linked.yaml").symlink_to(outside)
    http = client(folder)
    assert (
        http.post("/cases/linked/build", data={"csrf_token": csrf(http.get("/").text)}).status_code
        == 404
    )


def test_a_post_without_the_csrf_token_is_refused(folder: Path) -> None:
    http = client(folder)
    token = csrf(http.get("/").text)
    url = f"/cases/{CASE}/build"
    assert http.post(url).status_code == 403
    assert http.post(url, data={"csrf_token": "0" * 64}).status_code == 403
    assert (
        http.post(
            url, headers={"x-csrf-token": token[:-1] + ("1" if token[-1] == "0" else "0")}
        ).status_code
        == 403
    )
    # The right token from another site's page: its Origin gives it away.
    evil = {"origin": "http://evil.example", "x-csrf-token": token}
    assert http.post(url, headers=evil).status_code == 403
    assert http.post(url, headers={**evil, "origin": "null"}).status_code == 403
    cross = {"sec-fetch-site": "cross-site", "x-csrf-token": token}
    assert http.post(url, headers=cross).status_code == 403
    assert not (folder / "output").exists(), "a refused POST built nothing"


def test_a_post_with_the_token_passes(folder: Path) -> None:
    """The right token as a form field or as the htmx header (an invalid case: fails fast)."""
    (folder / "cases" / "bad.yaml").write_text("schema_version: 1\ncase_number: [\n")
    http = client(folder)
    token = csrf(http.get("/").text)
    sent = http.post("/cases/bad/build", data={"csrf_token": token}, follow_redirects=False)
    assert sent.status_code == 303
    assert sent.headers["location"].endswith("/cases/bad/build")
    same_origin = {"x-csrf-token": token, "origin": "http://testserver", "hx-request": "true"}
    assert http.post("/cases/bad/build", headers=same_origin).status_code == 200


def test_beyond_loopback_every_request_needs_the_token(folder: Path) -> None:
    http = client(folder, token=GIVEN)
    for path in ("/", "/static/app.css", f"/cases/{CASE}/build"):
        response = http.get(path)
        assert response.status_code == 401, path
        assert "s3cret" not in response.text
    assert http.get("/?token=wrong").status_code == 401
    assert http.get("/", headers={"authorization": "Bearer wrong"}).status_code == 401
    assert http.get("/", headers={"authorization": "Bearer s3cret-token"}).status_code == 200
    # Given once in the address: it moves into an HttpOnly, SameSite=Strict cookie.
    signed = http.get("/?token=s3cret-token&x=1", follow_redirects=False)
    assert signed.status_code == 303
    assert signed.headers["location"] == "/?x=1"
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert "s3cret-token" not in cookie, "the cookie holds a value derived from the token"
    assert http.get("/").status_code == 200  # the client kept the cookie
    assert client(folder, token=GIVEN).get("/", cookies=dict(http.cookies)).status_code == 401, (
        "a cookie of another run of the server is no good"
    )


def test_on_loopback_only_the_loopback_names_are_answered(folder: Path) -> None:
    app = create_app(folder, hosts={"127.0.0.1", "localhost", "::1"})
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/").status_code == 200
    assert TestClient(app, base_url="http://[::1]:8000").get("/").status_code == 200
    rebound = TestClient(app, base_url="http://evil.example:8000").get("/")
    assert rebound.status_code == 400


def test_an_oversized_body_is_refused_with_413(folder: Path) -> None:
    http = client(folder, max_body=1024)
    token = csrf(http.get("/").text)
    url = f"/cases/{CASE}/build"
    big = {"csrf_token": token, "pad": "x" * 4096}
    assert http.post(url, data=big).status_code == 413
    # Without a Content-Length (chunked): refused once the limit is passed.

    def chunks():
        yield f"csrf_token={token}&pad=".encode()
        for _ in range(100):
            yield b"x" * 512

    response = http.post(
        url, content=chunks(), headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413
    assert not (folder / "output").exists()


def test_the_default_body_limit_is_that_of_the_largest_case_form(folder: Path) -> None:
    http = client(folder)
    response = http.post(
        f"/cases/{CASE}/build",
        content=b"x",
        headers={"content-length": str(security.MAX_BODY + 1), "x-csrf-token": "0"},
    )
    assert response.status_code == 413


def test_a_handler_error_shows_no_trace_and_logs_it(
    folder: Path, caplog: pytest.LogCaptureFixture
) -> None:
    packet = fake_packet(folder)
    (packet / "manifest.json").write_text('{"documents": [ broken')
    with caplog.at_level(logging.ERROR, logger="generator.web"):
        response = client(folder).get(f"/cases/{CASE}/packet.zip")
    assert response.status_code == 500
    assert "Traceback" not in response.text and 'File "' not in response.text
    assert "JSONDecodeError" not in response.text
    assert "The details are in the server" in response.text
    assert response.headers["content-security-policy"]
    assert any("Traceback" in (r.exc_text or "") for r in caplog.records)


def test_a_hostile_case_value_is_escaped_in_the_list(folder: Path) -> None:
    text = (folder / "cases" / f"{CASE}.yaml").read_text()
    hostile = "<script>alert(1)</script>"
    (folder / "cases" / "hostile.yaml").write_text(
        text.replace("case_number: ZA-2027-03", f'case_number: "{hostile}"')
    )
    (folder / "cases" / "hostile-bad.yaml").write_text(
        text.replace("jurisdiction: us-ri-east-providence", f'jurisdiction: "{hostile}"')
    )
    page = listed(client(folder))
    assert hostile not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_importing_the_app_imports_no_heavy_library() -> None:
    heavy = ("weasyprint", "geopandas", "matplotlib", "pypdfium2", "pandas", "shapely")
    code = (
        "import sys, generator.web.app, generator.web.server; "
        f"print([m for m in {heavy!r} if m in sys.modules])"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.strip() == "[]"


# --- The cases list --------------------------------------------------------------------------


def test_the_list_shows_each_case_state(folder: Path) -> None:
    fake_packet(folder)
    (folder / "cases" / "broken.yaml").write_text("schema_version: 1\ncase_number: X\n")
    page = listed(client(folder))
    assert '<table id="cases"' in page
    rows = dict(
        re.findall(
            r'<tr>\s*<th scope="row">\s*(?:<(?:a|span)[^>]*>)?([\w.-]+)(.*?)</tr>', page, re.S
        )
    )
    assert set(rows) == {CASE, "tx-2027-map-01", "broken"}
    built = rows[CASE]
    assert "Not ready" in built and "1 error</span>" in built and "2 warnings" in built
    assert "Case changed since the build" in built  # the fake manifest's sha256 is not the file's
    # The next deadline is the first step still to come, with its date and how far it is.
    assert '<time datetime="2999-03-02">' in built and "mail the notice" in built and "in " in built
    assert "2001-01-01" not in built
    assert "Never built" in rows["tx-2027-map-01"]
    assert "Case file invalid" in rows["broken"]
    assert "error: " in rows["broken"] and "broken.yaml" in rows["broken"]


def test_the_list_with_no_cases(tmp_path: Path) -> None:
    page = client(tmp_path).get("/").text
    assert '<table id="cases"' in page and "No cases yet" in page


def test_the_list_answers_fast_once_warm(folder: Path) -> None:
    """The list is opened all day: a case file is loaded once per change, not per request."""
    http = client(folder)
    listed(http)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        assert http.get("/").status_code == 200
        times.append(time.perf_counter() - start)
    assert sorted(times)[2] < 0.2, times


# --- Build -----------------------------------------------------------------------------------


def poll(http: TestClient, case_id: str, timeout: float = 300) -> str:
    """The progress fragment, polled as htmx does, until the build is over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        fragment = http.get(f"/cases/{case_id}/build", headers={"hx-request": "true"}).text
        if "hx-trigger" not in fragment:
            return fragment
        time.sleep(0.2)
    raise AssertionError("the build did not finish")


def test_a_failed_build_shows_the_cli_messages(folder: Path) -> None:
    path = folder / "cases" / "bad.yaml"
    path.write_text(
        (folder / "cases" / f"{CASE}.yaml")
        .read_text()
        .replace("date: 2027-03-16", "date: 2027-02-30")
    )
    http = client(folder)
    http.post("/cases/bad/build", headers={"x-csrf-token": csrf(http.get("/").text)})
    fragment = poll(http, "bad")
    assert "The build failed" in fragment
    assert re.search(r"error: \S*bad\.yaml:\d+:\d*:? hearings\[?\.?0", fragment), fragment
    page = http.get("/cases/bad/build").text  # the same, as a whole page (no script needed)
    assert "<h1>" in page and 'id="build-progress"' in page and "The build failed" in page


@pytest.mark.slow
def test_build_through_the_web_then_a_failed_build_keeps_the_packet(folder: Path) -> None:
    http = client(folder)
    token = csrf(http.get("/").text)
    started = http.post(
        f"/cases/{CASE}/build", headers={"x-csrf-token": token, "hx-request": "true"}
    ).text
    assert "Building" in started or "Ready" in started
    joined = http.post(
        f"/cases/{CASE}/build", headers={"x-csrf-token": token, "hx-request": "true"}
    )
    assert joined.status_code == 200  # a second request joins the running build
    done = poll(http, CASE)
    assert 'id="open-packet"' in done and "error" in done and "warning" in done
    packet = folder / "output" / CASE
    assert (packet / "manifest.json").is_file()

    # The zip: exactly the packet's files, the same bytes each time.
    first = http.get(f"/cases/{CASE}/packet.zip")
    assert first.status_code == 200 and first.headers["content-type"] == "application/zip"
    assert f"{CASE}-packet.zip" in first.headers["content-disposition"]
    manifest = json.loads((packet / "manifest.json").read_text())
    names = zipfile.ZipFile(io.BytesIO(first.content)).namelist()
    assert names == sorted({"manifest.json", *(d["path"] for d in manifest["documents"])})
    assert http.get(f"/cases/{CASE}/packet.zip").content == first.content

    def state() -> dict[str, str]:
        return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in packet.iterdir()}

    before = state()
    case = folder / "cases" / f"{CASE}.yaml"
    case.write_text(case.read_text().replace("date: 2027-03-16", "date: 2027-13-16"))
    http.post(f"/cases/{CASE}/build", headers={"x-csrf-token": token})
    failed = poll(http, CASE)
    assert "The build failed" in failed and f"{CASE}.yaml:" in failed
    assert state() == before, "a failed build left the last good packet as it was"
    assert "Case file invalid" in listed(http)


# --- The zip ---------------------------------------------------------------------------------


def test_the_zip_holds_only_the_packet_and_is_deterministic(folder: Path) -> None:
    packet = fake_packet(folder)
    http = client(folder)
    first = http.get(f"/cases/{CASE}/packet.zip")
    assert first.status_code == 200
    archive = zipfile.ZipFile(io.BytesIO(first.content))
    assert archive.namelist() == [
        "lint_report.json",
        "manifest.json",
        "newspaper_notice.txt",
        "recipients.csv",
    ]
    assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert archive.read("newspaper_notice.txt") == (packet / "newspaper_notice.txt").read_bytes()
    time.sleep(0.01)
    for p in packet.iterdir():
        p.touch()  # a later modification time changes nothing
    assert http.get(f"/cases/{CASE}/packet.zip").content == first.content


def test_the_zip_refuses_a_packet_file_linked_from_outside(folder: Path) -> None:
    packet = fake_packet(folder)
    secret = folder.parent / f"{folder.name}-secret.txt"
    secret.write_text("SECRET-TEXT")
    (packet / "recipients.csv").unlink()
    (packet / "recipients.csv").symlink_to(secret)
    response = client(folder).get(f"/cases/{CASE}/packet.zip")
    assert response.status_code == 404 and "SECRET-TEXT" not in response.text


def test_no_zip_for_a_case_never_built(folder: Path) -> None:
    assert client(folder).get(f"/cases/{CASE}/packet.zip").status_code == 404


def test_the_zip_refuses_a_manifest_that_names_a_file_outside(folder: Path) -> None:
    packet = fake_packet(folder)
    manifest = json.loads((packet / "manifest.json").read_text())
    manifest["documents"].append({"path": "../../cases/ep-2027-za-03.yaml"})
    (packet / "manifest.json").write_text(json.dumps(manifest))
    assert client(folder).get(f"/cases/{CASE}/packet.zip").status_code == 404
