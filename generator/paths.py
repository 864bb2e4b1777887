"""Where the project's own files live: the repository root and the folders under it.

Every other module asks here, so a packet's manifest names inputs and templates relative to
one root, and an installation elsewhere changes one line.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
JURISDICTIONS = ROOT / "jurisdictions"
TEMPLATES = ROOT / "templates"
NEWSPAPERS = ROOT / "data" / "newspapers"
# A name that can be one file or folder of ours and nothing else: no separator, no leading dot.
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
SAFE_NAME_RULE = (
    "1 to 100 letters, digits, '.', '_' or '-', starting with a letter or a digit, without '..'"
)


def safe_name(name: str) -> bool:
    """Whether `name` (a case id, a profile id) can name a file or folder without leaving its own."""
    return _SAFE_NAME.fullmatch(name) is not None and ".." not in name


def jurisdictions() -> Path:
    """Where packs live: `$NOTICES_JURISDICTIONS`, else the project's `jurisdictions/`."""
    return Path(os.environ.get("NOTICES_JURISDICTIONS") or JURISDICTIONS)


def template_roots() -> list[Path]:
    """Template roots, searched in order: `$NOTICES_TEMPLATES` (a municipality's own), then ours."""
    own = os.environ.get("NOTICES_TEMPLATES")
    return [Path(own), TEMPLATES] if own else [TEMPLATES]
