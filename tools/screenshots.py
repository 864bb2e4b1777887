"""The README's three pictures of the web page (docs/screens/): the form, the review page, the schedule.

`make screenshots` runs this: a working folder with one sample case, the real server
(`notices serve`), headless Debian Chromium, the packet built through the page's own Build button,
by the same harness as the browser tests (tests/web/harness.py). The names are fixed; the
pictures change only when the pages do (and with today's marker on the schedule).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from tests.web import harness

SAMPLE = "newport-2027-map-01"
SCREENS = harness.ROOT / "docs" / "screens"
BUILD_TIMEOUT_MS = 240_000


def main(out: Path = SCREENS) -> int:
    """Write form.png, review.png and schedule.png into `out`; 0 when all three were taken."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = harness.workspace(Path(tmp), [SAMPLE])
        with harness.server(folder, folder / "server.log") as url, harness.chromium() as browser:
            page = harness.new_page(browser)
            page.goto(f"{url}/cases/{SAMPLE}/edit")
            page.wait_for_selector("#case-form")
            harness.shoot(page, "form", out, full_page=False)
            page.click("#build")
            page.wait_for_selector("#open-packet", timeout=BUILD_TIMEOUT_MS)
            page.click("#open-packet")
            page.wait_for_selector("#documents")
            harness.shoot(page, "review", out, full_page=False)
            page.click("#nav-schedule")
            page.wait_for_selector("#timeline")
            harness.shoot(page, "schedule", out, full_page=False)
    for name in ("form", "review", "schedule"):
        print(out / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
