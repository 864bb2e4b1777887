"""Fixtures of the browser tests: one working folder, one real server and one Chromium per module."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.web import harness

# Two samples in the working folder: one the test creates again through the form (under a new
# id), one left as it is, never built, so the list shows both states.
SAMPLES = ["newport-2027-map-01", "newport-2027-text-01"]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return harness.workspace(tmp_path_factory.mktemp("web"), SAMPLES)


@pytest.fixture(scope="module")
def base_url(folder: Path) -> Iterator[str]:
    log = folder / "server.log"
    with harness.server(folder, log) as url:
        yield url
    # What the server logged (stack traces go there, never to the browser): shown with -s.
    print(log.read_text())


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with harness.chromium() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    page = harness.new_page(browser)
    yield page
    page.context.close()
