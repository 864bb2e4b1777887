"""The clerk's web page in a real browser (issue 20, items 4 and 5): headless Debian Chromium.

One flow as a clerk would go: the list, a new case typed into the form from a sample's values, a
wrong ZIP code refused at its field with the command line's message, fixed, saved, built with
live progress, the review page, the zip downloaded and checked against the manifest, the
schedule with today marked, the map, the recipients and the pack. axe-core (vendored) runs on
every page; a screenshot of every page lands in output/review/web/.

Slow (a real build, a browser): `make test SLOW=1` and CI run it.
"""

from __future__ import annotations

import hashlib
import json
import re
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest

from generator.errors import UserError
from generator.inputs import load_case
from tests.web import harness

pytestmark = pytest.mark.slow

SOURCE = "newport-2027-map-01"  # the sample whose values the clerk types
NEW_ID = "newport-2027-map-09"  # the new case's id (its file name)
UNBUILT = "newport-2027-text-01"  # in the folder, never built
BAD_FIELD = "applicant.address.zip"
BAD_VALUE = "0284"  # a digit short
BUILD_TIMEOUT_MS = 240_000


class Pages:
    """Every page visited: its screenshot, and its axe violations, reported together at the end."""

    def __init__(self) -> None:
        self.violations: dict[str, list[dict[str, Any]]] = {}

    def look(self, page: Any, name: str) -> None:
        """Screenshot the page into the review folder, run axe-core on it, and print it."""
        harness.shoot(page, name)
        # Printed, a page keeps its content and drops its controls (every page has print styles).
        page.emulate_media(media="print")
        try:
            shown = page.locator("button:visible").count()
            assert shown == 0, f"{name}: {shown} button(s) still shown when printed"
            assert page.locator("h1:visible").count() == 1, f"{name}: no heading when printed"
        finally:
            page.emulate_media(media="screen")
        found = harness.axe_violations(page)
        if found:
            print(f"\n== {name} ({page.url}): {len(found)} axe violation(s)")
            print(harness.describe(found))
        self.violations[name] = found

    def assert_accessible(self) -> None:
        bad = {name: harness.blocking(v) for name, v in self.violations.items()}
        bad = {name: v for name, v in bad.items() if v}
        assert not bad, "serious or critical axe violations:\n" + "\n".join(
            f"== {name}\n{harness.describe(v)}" for name, v in bad.items()
        )


def test_axe_finds_what_it_should(page: Any) -> None:
    """The vendored axe-core runs in this browser: a page with known faults is caught."""
    page.set_content(
        '<html lang="en"><title>t</title><main><h1>t</h1>'
        '<img src="x.png"><input id="n"><p style="color:#ccc;background:#fff">faint</p></main>'
    )
    found = {v["id"]: v["impact"] for v in harness.axe_violations(page)}
    assert found.get("image-alt") == "critical", found
    assert found.get("label") == "critical", found
    assert found.get("color-contrast") == "serious", found


def cli_message(folder: Path, path: str, value: str) -> str:
    """What the command line says of `value` at `path` in the sample (the form must say the same)."""
    text = (harness.CASES / f"{SOURCE}.yaml").read_text(encoding="utf-8")
    bad = text.replace('zip: "02840"}', f'zip: "{value}"}}', 1)
    assert bad != text
    case = folder / "cases" / "_bad.yaml"
    case.write_text(bad, encoding="utf-8")
    try:
        load_case(case)
    except UserError as error:
        return next(p.message for p in error.problems if p.field == path)
    finally:
        case.unlink()
    raise AssertionError(f"{value!r} at {path} was accepted by the command line")


def fill_form(page: Any, value: Any, path: str = "") -> list[str]:
    """Type a case's values into the form, adding items to repeated groups as a clerk would.

    A value goes to the control named by its dotted path; a mapping or a list without one of its
    own goes field by field (a list's items added with its "Add" button). Returns the paths that
    have no field in the form.
    """
    if value is None or value in ([], {}):
        return []
    if path and harness.fill(page, path, value):
        return []
    if isinstance(value, dict):
        return [m for key, item in value.items() for m in fill_form(page, item, _join(path, key))]
    if isinstance(value, list):
        missing = []
        for index, item in enumerate(value):
            item_path = f"{path}.{index}"
            if not _has(page, item_path):
                _add_item(page, path)
            missing += fill_form(page, item, item_path)
        return missing
    return [path]


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _has(page: Any, path: str) -> bool:
    return page.locator(f'#case-form [name="{path}"], #case-form [name^="{path}."]').count() > 0


def _add_item(page: Any, group: str) -> None:
    """Press the group's "Add …" button (it sends the form and comes back with one more item)."""
    button = page.locator(f"#add-{harness.input_id(group)}")
    if button.count():
        with page.expect_navigation():
            button.click()
        assert page.locator("#case-form").count(), (
            f"Add {group}: {page.locator('main').inner_text()}"
        )


def test_a_clerk_goes_from_an_empty_form_to_a_downloaded_packet(
    page: Any, base_url: str, folder: Path
) -> None:
    from playwright.sync_api import expect

    pages = Pages()

    # The list: both samples, the unbuilt one linking to its form, and the way to a new case.
    page.goto(base_url + "/")
    expect(page.locator("table#cases")).to_be_visible()
    expect(page.locator("h1")).to_have_count(1)
    unbuilt = page.locator("table#cases a", has_text=UNBUILT)
    expect(unbuilt).to_have_attribute("href", re.compile(rf"/cases/{UNBUILT}/edit$"))
    pages.look(page, "01-cases")

    # A new case from the form, with a sample's values and one wrong ZIP code.
    page.click("#new-case")
    expect(page.locator("form#case-form")).to_be_visible()
    pages.look(page, "02-form-new")
    page.fill("#_case_id", NEW_ID)
    missing = fill_form(page, harness.sample_data(SOURCE))
    assert not missing, f"the form has no field for {missing}"
    harness.fill(page, BAD_FIELD, BAD_VALUE)
    page.click("#save")

    # Refused at the field, with the command line's words, and summarised at the top.
    field_id = harness.input_id(BAD_FIELD)
    error = page.locator(f"p.field-error#err-{field_id}")
    expect(error).to_be_visible()
    expect(error).to_contain_text(cli_message(folder, BAD_FIELD, BAD_VALUE))
    field = page.locator(f"#{field_id}")
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(field).to_have_attribute("aria-describedby", f"err-{field_id}")
    expect(page.locator("#form-errors[role=alert]")).to_be_visible()
    assert not (folder / "cases" / f"{NEW_ID}.yaml").exists(), "a refused case was saved"
    pages.look(page, "03-form-error")

    # Fixed and saved: back on the case's form with "Saved" and a Build button.
    field.fill("02840")
    page.click("#save")
    page.wait_for_load_state()
    errors = page.locator("#form-errors")
    assert not errors.count(), f"not saved: {errors.inner_text()}"
    page.wait_for_url(re.compile(rf"/cases/{NEW_ID}/edit"))
    expect(page.locator("main")).to_contain_text("Saved")
    assert (folder / "cases" / f"{NEW_ID}.yaml").is_file()
    pages.look(page, "04-form-saved")

    # Build, watch the progress, open the packet.
    page.click("#build")
    progress = page.locator("#build-progress")
    expect(progress).to_have_attribute("role", "status")
    expect(progress).to_have_attribute("aria-live", "polite")
    pages.look(page, "05-build-running")
    expect(page.locator("#open-packet")).to_be_visible(timeout=BUILD_TIMEOUT_MS)
    pages.look(page, "06-build-done")
    page.click("#open-packet")
    page.wait_for_url(re.compile(rf"/cases/{NEW_ID}$"))

    # The review page: every document of the manifest, findings, the manifest itself.
    manifest = json.loads((folder / "output" / NEW_ID / "manifest.json").read_text())
    assert manifest["ready"], f"the packet is not ready: {manifest['findings']}"
    documents = page.locator("ul#documents > li")
    expect(documents.first).to_be_visible()
    for img in documents.locator("img").all():
        assert img.get_attribute("alt"), "a thumbnail without alt text"
    expect(page.locator("section#findings")).to_be_visible()
    expect(page.locator("section#manifest")).to_be_visible()
    pages.look(page, "07-review")

    # The zip, through the browser's own download, against the manifest's files and hashes.
    with page.expect_download() as download:
        page.click("#download-zip")
    zip_path = Path(download.value.path())
    check_zip(zip_path, manifest)

    # The schedule: a timeline, today marked, the calendar file.
    page.click("#nav-schedule")
    expect(page.locator("ol#timeline")).to_be_visible()
    today = page.locator('ol#timeline li.today[aria-current="date"]')
    expect(today).to_have_count(1)
    expect(page.locator("a#ics")).to_have_attribute("href", re.compile(r"schedule\.ics$"))
    pages.look(page, "08-schedule")
    ics = page.request.get(page.locator("a#ics").evaluate("a => a.href"))
    assert ics.ok and b"BEGIN:VCALENDAR" in ics.body()

    for name in ("map", "recipients", "pack"):
        page.goto(base_url + f"/cases/{NEW_ID}")
        page.click(f"#nav-{name}")
        expect(page.locator("h1")).to_have_count(1)
        pages.look(page, f"09-{name}")

    pages.assert_accessible()


def check_zip(path: Path, manifest: dict[str, Any]) -> None:
    """The zip holds every document of the manifest, byte for byte, and the manifest itself."""
    with zipfile.ZipFile(path) as archive:
        names = {Path(n).name: n for n in archive.namelist()}
        assert "manifest.json" in names, sorted(names)
        for doc in manifest["documents"]:
            name = Path(doc["path"]).name
            assert name in names, f"{doc['path']} missing from the zip: {sorted(names)}"
            digest = hashlib.sha256(archive.read(names[name])).hexdigest()
            assert digest == doc["sha256"], f"{doc['path']}: not the manifest's bytes"


def test_the_form_is_reached_and_used_by_keyboard(page: Any, base_url: str) -> None:
    """Tab from the top reaches the skip link, Build, Save and the form's fields; every focus shows."""
    page.goto(base_url + f"/cases/{UNBUILT}/edit")
    reached = tab_through(page)
    assert reached[0]["skip"], f"the first Tab does not reach the skip link: {reached[0]}"
    ids = {r["id"] for r in reached}
    names = {r["name"] for r in reached}
    assert {"build", "save"} <= ids, sorted(ids)
    assert {"case_number", "hearings.0.date", "applicant.address.zip"} <= names, sorted(names)
    hidden = [r for r in reached if not (r["visible_focus"] or r["picker"] or r["tag"] == "body")]
    assert not hidden, f"focus not visible on: {hidden[:5]}"


def test_the_build_button_is_reached_by_keyboard(page: Any, base_url: str) -> None:
    """On the list, Tab reaches each case's Build button, and its focus shows."""
    page.goto(base_url + "/")
    reached = tab_through(page, stop_at=f"build-{UNBUILT}")
    assert reached[-1]["id"] == f"build-{UNBUILT}", "Tab never reaches Build packet"
    assert reached[-1]["visible_focus"], "the Build button's focus is not visible"


_FOCUSED = """() => {
  const e = document.activeElement;
  const s = getComputedStyle(e);
  const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;
  return {id: e.id, name: e.getAttribute('name') || '', tag: e.tagName.toLowerCase(),
          skip: e.classList.contains('skip'),
          // Tab's last stop in a date or time input is its picker button, ringed by Chromium itself.
          picker: ['date', 'time'].includes(e.type) && !e.matches(':focus-visible'),
          visible_focus: outline || (s.boxShadow && s.boxShadow !== 'none')};
}"""


def tab_through(page: Any, *, stop_at: str = "", limit: int = 800) -> list[dict[str, Any]]:
    """Press Tab until the element with id `stop_at` (or nothing) has focus; what had it on the way."""
    reached: list[dict[str, Any]] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        now = page.evaluate(_FOCUSED)
        reached.append(now)
        if (stop_at and now["id"] == stop_at) or now["tag"] == "body":
            break
    return reached


def test_no_page_shows_a_stack_trace_or_leaves_the_folder(base_url: str) -> None:
    """Traversal attempts answer 404 with a page of ours, never a file outside or a trace."""
    for attempt in (
        "/cases/..%2F..%2Fetc%2Fpasswd/files/x",
        f"/cases/{UNBUILT}/files/..%2F..%2Fcases%2F{UNBUILT}.yaml",
        "/cases/%2Fetc%2Fpasswd/edit",
    ):
        try:
            with urllib.request.urlopen(base_url + attempt) as answer:  # noqa: S310
                status, body = answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            status, body = refused.code, refused.read()
        assert status == 404, (attempt, status)
        assert b"Traceback" not in body and b"root:" not in body
