"""The commands that need no PDF, map or office library answer without importing one.

`notices --help` is what a clerk types first (bench/startup.py measures it); generator/entry.py
answers it without click where it can (tests/test_cli_commands.py), and every other command line
costs bare Python's time plus click's. A top-level import of a heavy library anywhere on that
path would double it, silently: these tests name the modules each command may not load, run
through click (`generator.cli.main`), as `--help` is in a terminal narrower than 80 columns.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

# Rendering, documents, maps and data frames: only building or linting a packet needs them.
PDF_AND_OFFICE = ("weasyprint", "pydyf", "fontTools", "docx", "docxtpl", "pypdf", "PIL")
MAPS = ("matplotlib", "geopandas", "pandas", "shapely", "pyogrio", "pyproj", "numpy")
CLUSTER = ("dask", "distributed")
# What `--help` loads beyond click: nothing a command body imports.
BODIES = ("jinja2", "pydantic", "yaml", "babel", "holidays", "lxml", "tomllib")

_PROBE = """
import json, sys
sys.argv = ["notices", *json.loads(sys.argv[1])]
from generator.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def modules(*args: str) -> list[str]:
    """The modules loaded by `notices ARGS`, run in a fresh interpreter."""
    run = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(run.stdout.splitlines()[-1])


def _imported(*args: str) -> set[str]:
    """The top-level packages loaded by `notices ARGS`."""
    return {name.split(".")[0] for name in modules(*args)}


def test_help_imports_nothing_heavy() -> None:
    loaded = _imported("--help")
    assert "click" in loaded  # the probe ran the command line
    assert loaded.isdisjoint((*PDF_AND_OFFICE, *MAPS, *CLUSTER, *BODIES)), sorted(
        loaded & {*PDF_AND_OFFICE, *MAPS, *CLUSTER, *BODIES}
    )


def test_explain_imports_no_pdf_or_map_library() -> None:
    loaded = _imported("explain", "us-tx-pecan-grove")
    assert "pydantic" in loaded  # the pack was read
    assert loaded.isdisjoint((*PDF_AND_OFFICE, *MAPS, *CLUSTER)), sorted(
        loaded & {*PDF_AND_OFFICE, *MAPS, *CLUSTER}
    )


@pytest.mark.slow
def test_schedule_imports_no_pdf_library() -> None:
    """A case's schedule reads its parcels (facts such as a parcel's district can decide a
    rule), so the GIS readers may load; nothing that renders or draws a document may."""
    loaded = _imported("schedule", "cases/tx-2027-map-01.yaml")
    assert loaded.isdisjoint((*PDF_AND_OFFICE, "matplotlib", *CLUSTER)), sorted(
        loaded & {*PDF_AND_OFFICE, "matplotlib", *CLUSTER}
    )


@pytest.mark.slow
def test_recipients_imports_no_document_renderer_nor_once_its_map_is_kept_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`notices recipients` writes two lists and the map: no PDF or office library; and once
    the case's map is drawn (generator/gis/cache.py keeps it), no map library either."""
    monkeypatch.setenv("NOTICES_CACHE_DIR", str(tmp_path / "cache"))  # no map kept before
    command = ("recipients", "cases/ep-2027-za-03.yaml", "--out", str(tmp_path))
    first = _imported(*command)
    assert "matplotlib" in first  # the probe drew the map
    renderers = {"weasyprint", "pydyf", "docx", "docxtpl", "pypdf"}
    assert first.isdisjoint(renderers), sorted(first & renderers)
    again = _imported(*command)
    assert "shapely" in again  # the probe read the layers
    assert again.isdisjoint((*PDF_AND_OFFICE, "matplotlib")), sorted(
        again & {*PDF_AND_OFFICE, "matplotlib"}
    )
