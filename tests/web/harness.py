"""The browser tests' harness: a working folder, the real server, headless Chromium, axe-core.

Shared by tests/web/ and `make screenshots` (tools/screenshots.py), so the README's pictures come
from the same code the tests run. The browser is Debian's `chromium` (/usr/bin/chromium) driven by
Playwright: no browser is ever downloaded (`playwright install` is never run).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "cases"
VENDOR = Path(__file__).with_name("vendor")
AXE = VENDOR / "axe.min.js"
CHROMIUM = Path(os.environ.get("NOTICES_CHROMIUM", "/usr/bin/chromium"))
# Where `make review` puts what a person should look at; the web pages go beside the packets.
REVIEW = ROOT / "output" / "review" / "web"
# A size that shows the whole form row and the review page's documents without scrolling sideways.
VIEWPORT = {"width": 1280, "height": 900}
# The impacts the issue forbids; minor and moderate ones are printed, not failed.
BLOCKING = ("serious", "critical")


def workspace(folder: Path, case_ids: list[str]) -> Path:
    """A working folder with `cases/<id>.yaml` copied from the samples and `data` beside it.

    The sample cases name their GIS as `../data/gis/...`: a `data` link next to `cases/` keeps
    those paths good without editing the copies.
    """
    (folder / "cases").mkdir(parents=True, exist_ok=True)
    (folder / "output").mkdir(exist_ok=True)
    for case_id in case_ids:
        shutil.copy2(CASES / f"{case_id}.yaml", folder / "cases" / f"{case_id}.yaml")
    data = folder / "data"
    if not data.exists():
        data.symlink_to(ROOT / "data", target_is_directory=True)
    return folder


def free_port() -> int:
    """A port nobody listens on now (the server binds it a moment later)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server(folder: Path, log: Path) -> Iterator[str]:
    """`notices serve FOLDER` in a subprocess, as a clerk starts it; yields its base URL.

    The server's own output goes to `log` (printed by a failing test). It is stopped, and waited
    for, whatever happens in the test.
    """
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "generator", "serve", str(folder), "--port", str(port)],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            _wait_until_up(url, proc, log)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_until_up(url: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped (exit {proc.returncode}):\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url + "/", timeout=2):  # noqa: S310 (our own loopback URL)
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"the server did not answer within 30 s:\n{log.read_text()}")


@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """Headless Debian Chromium under Playwright (the system browser, never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.is_file():
        raise RuntimeError(
            f"{CHROMIUM}: no Chromium (apt-get install chromium; `make setup SLOW=1`)"
        )
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Any) -> Any:
    """A fresh page (own cookies, downloads accepted) at the harness's viewport, in English."""
    context = browser.new_context(viewport=VIEWPORT, accept_downloads=True, locale="en-US")
    context.set_default_timeout(15_000)
    return context.new_page()


def axe_violations(page: Any) -> list[dict[str, Any]]:
    """Run the vendored axe-core on the page as it stands; every violation, as axe reports it."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the browser's debugging protocol, not as a <script>: the pages' Content
        # Security Policy stays in force (and an inline script of theirs would still be caught).
        page.evaluate("(source) => { (0, eval)(source); }", AXE.read_text(encoding="utf-8"))
    result = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})",
    )
    return list(result["violations"])


def describe(violations: list[dict[str, Any]]) -> str:
    """Violations as lines a person can act on: impact, rule, help, and each element's selector."""
    lines = []
    for v in violations:
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({v['helpUrl']})")
        for node in v["nodes"]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node['failureSummary']!r}")
    return "\n".join(lines)


def blocking(violations: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The violations the issue forbids (serious or critical)."""
    return [v for v in violations if v["impact"] in BLOCKING]


def shoot(page: Any, name: str, folder: Path = REVIEW, *, full_page: bool = True) -> Path:
    """Save a screenshot of the page as `folder/<name>.png` (names are fixed, not timestamps)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    if full_page:  # lazy images (thumbnails) load once scrolled to
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.evaluate("window.scrollTo(0, 0)")
    # Thumbnails are made on first request: a picture taken before they come shows empty frames.
    page.wait_for_function(_IMAGES_SHOWN, arg=full_page, timeout=IMAGE_TIMEOUT_MS)
    page.screenshot(path=str(path), full_page=full_page)
    return path


IMAGE_TIMEOUT_MS = 60_000
_IMAGES_SHOWN = """(full) => [...document.images]
  .filter(i => full || i.getBoundingClientRect().top < window.innerHeight)
  .every(i => i.complete && i.naturalWidth > 0)"""


def sample_data(case_id: str) -> Any:
    """A sample case's values as a clerk would type them (dates as the form shows them)."""
    data = yaml.safe_load((CASES / f"{case_id}.yaml").read_text(encoding="utf-8"))
    return _typed(data)


def _typed(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_typed(item) for item in value]
    if isinstance(value, dt.date):
        return value.isoformat()
    return value


def input_id(path: str) -> str:
    """The id the contract gives the input of a dotted field path."""
    return path.replace(".", "-")


def fill(page: Any, path: str, value: Any) -> bool:
    """Put `value` into the form's control for `path`, whatever its kind; False when it has none."""
    controls = page.locator(f'#case-form [name="{path}"]:not([type=hidden])')
    if controls.count() == 0:
        return False
    first = controls.first
    _open_groups(page, first)
    tag = first.evaluate("e => e.tagName.toLowerCase()")
    kind = (first.get_attribute("type") or "").lower()
    if kind == "checkbox" and (controls.count() > 1 or isinstance(value, list)):
        chosen = {str(v) for v in (value if isinstance(value, list) else [value])}
        for box in controls.all():
            box.set_checked(box.get_attribute("value") in chosen)
    elif kind == "checkbox":
        first.set_checked(bool(value))
    elif tag == "select":
        first.select_option(value=_option(value))
    elif tag == "textarea" and "code" in (first.get_attribute("class") or "").split():
        first.fill(yaml.safe_dump(value, sort_keys=False, allow_unicode=True))
    elif isinstance(value, list):
        if tag != "textarea":
            return False  # items of their own (`path.0`, ...)
        first.fill("\n".join(str(v) for v in value))
    elif isinstance(value, dict):
        return False
    elif kind == "time":
        first.fill(_hh_mm(value))
    else:
        first.fill(str(value))
    return True


def _hh_mm(value: Any) -> str:
    """A clock time as a time picker takes it ("6:30 p.m." is picked as 18:30), read as the case is."""
    from pydantic import TypeAdapter

    from generator.models.base import ClockTime

    return TypeAdapter(ClockTime).validate_python(value).strftime("%H:%M")


_CLOSED_GROUPS = """e => {
  const ids = [];
  for (let d = e.closest('details'); d; d = d.parentElement.closest('details'))
    if (!d.open) ids.unshift(d.id);
  return ids;
}"""


def _open_groups(page: Any, control: Any) -> None:
    """Open the folded optional groups around `control` by their summaries, as a clerk would."""
    for group in control.evaluate(_CLOSED_GROUPS):
        page.locator(f'details[id="{group}"] > summary').click()


def _option(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
