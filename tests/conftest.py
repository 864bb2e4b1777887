"""Shared fixtures and options: `--slow` runs the slow tests, `--update-goldens` rewrites goldens."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "cases"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run tests marked slow (CI does)")
    parser.addoption(
        "--update-goldens",
        action="store_true",
        help="rewrite tests/golden/ from the current output",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow (make test SLOW=1; CI does)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def sample_cases() -> list[Path]:
    return sorted(CASES.glob("*.yaml"))


def write_case(tmp_path: Path, text: str, name: str = "case-x.yaml") -> Path:
    """Write a variant of the East Providence sample case (with its map) into `tmp_path`."""
    (tmp_path / "maps").mkdir(exist_ok=True)
    (tmp_path / "maps" / "ep-2027-za-03.png").write_bytes(
        (CASES / "maps" / "ep-2027-za-03.png").read_bytes()
    )
    path = tmp_path / name
    path.write_text(text)
    return path


def notices(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real `notices` command (as `python -m generator`) from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )
