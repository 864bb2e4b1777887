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


@pytest.fixture(scope="session", autouse=True)
def layer_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The tests' layer caches go to a throwaway folder (and the commands they run inherit it)."""
    os.environ["NOTICES_CACHE_DIR"] = str(tmp_path_factory.mktemp("layer-cache"))


@pytest.fixture(scope="session", autouse=True)
def sample_towns() -> None:
    """The sample cases read the generated towns in data/gis/; make them once per session."""
    from tools.sample_town import generate

    generate(ROOT / "data" / "gis")


def write_case(tmp_path: Path, text: str, name: str = "case-x.yaml") -> Path:
    """Write a variant of a sample case into `tmp_path`, its GIS paths still pointing at data/gis/."""
    path = tmp_path / name
    path.write_text(text.replace("../data/gis/", f"{ROOT / 'data' / 'gis'}/"))
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


def without_record(text: str) -> str:
    """A sample case's text without its `record:` section (the last key), for a test's own record."""
    return text.split("\nrecord:\n", 1)[0].rstrip("\n") + "\n"


def without_gis(text: str) -> str:
    """A sample case's text with its `gis:` section (and the comment above it) removed."""
    head = text.split("\ngis:\n", 1)[0]
    lines = head.rstrip("\n").split("\n")
    while lines and lines[-1].startswith("#"):
        lines.pop()
    return "\n".join(lines) + "\n"
