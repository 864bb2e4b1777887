"""Where the project's own files live: the repository root and the folders under it.

Every other module asks here, so a packet's manifest names inputs and templates relative to
one root, and an installation elsewhere changes one line.
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JURISDICTIONS = ROOT / "jurisdictions"
TEMPLATES = ROOT / "templates"
NEWSPAPERS = ROOT / "data" / "newspapers"


def jurisdictions() -> Path:
    """Where packs live: `$NOTICES_JURISDICTIONS`, else the project's `jurisdictions/`."""
    return Path(os.environ.get("NOTICES_JURISDICTIONS") or JURISDICTIONS)


def template_roots() -> list[Path]:
    """Template roots, searched in order: `$NOTICES_TEMPLATES` (a municipality's own), then ours."""
    own = os.environ.get("NOTICES_TEMPLATES")
    return [Path(own), TEMPLATES] if own else [TEMPLATES]


def relative(path: Path) -> str:
    """`path` relative to the project root when it lies below it, else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
