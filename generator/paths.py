"""Where the project's own files live, and where a clerk's own data folders are found.

Every other module asks here, so a packet's manifest names inputs and templates relative to
one root, and an installation elsewhere changes one line.

Three data folders may live outside the project (`data_path`): packs (`jurisdictions`),
newspaper profiles (`newspapers`) and parcel schema presets (`parcel_schemas`). Each is read
from its environment variable if set, else from `[paths]` of `notices.toml` in the working
folder, else from the project; a folder named but missing is an input error (exit 2) naming
the variable or the file that named it.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from generator.errors import Problem, UserError

ROOT = Path(__file__).resolve().parents[1]
JURISDICTIONS = ROOT / "jurisdictions"
TEMPLATES = ROOT / "templates"
NEWSPAPERS = ROOT / "data" / "newspapers"
PARCEL_SCHEMAS = ROOT / "data" / "parcel_schemas"
CONFIG = "notices.toml"  # in the working folder
# Each data folder: its environment variable and the project's own folder.
DATA = {
    "jurisdictions": ("NOTICES_JURISDICTIONS", JURISDICTIONS),
    "newspapers": ("NOTICES_NEWSPAPERS", NEWSPAPERS),
    "parcel_schemas": ("NOTICES_PARCEL_SCHEMAS", PARCEL_SCHEMAS),
}
# A name that can be one file or folder of ours and nothing else: no separator, no leading dot.
_SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
SAFE_NAME_RULE = (
    "1 to 100 letters, digits, '.', '_' or '-', starting with a letter or a digit, without '..'"
)


def safe_name(name: str) -> bool:
    """Whether `name` (a case id, a profile id) can name a file or folder without leaving its own."""
    return _SAFE_NAME.fullmatch(name) is not None and ".." not in name


@dataclass(frozen=True)
class DataPath:
    """A data folder and what named it: `$NOTICES_NEWSPAPERS`, `notices.toml`, or `project`."""

    path: Path
    source: str


def _config_paths() -> tuple[Path, dict[str, str]] | None:
    """`[paths]` of `notices.toml` in the working folder, if there is one."""
    config = Path.cwd() / CONFIG
    if not config.is_file():
        return None
    try:
        data = tomllib.loads(config.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(Problem(str(config), None, None, "", f"not valid TOML: {exc}")) from None
    paths = data.get("paths", {})
    if not isinstance(paths, dict):
        raise UserError(Problem(str(config), None, None, "paths", "must be a table: [paths]"))
    problems = [
        Problem(str(config), None, None, f"paths.{key}", f"unknown; known: {', '.join(DATA)}")
        for key in paths
        if key not in DATA
    ]
    problems += [
        Problem(str(config), None, None, f"paths.{key}", "must be a folder path (a string)")
        for key, value in paths.items()
        if key in DATA and not (isinstance(value, str) and value)
    ]
    if problems:
        raise UserError(problems)
    return config, paths


def data_path(name: str) -> DataPath:
    """Where the data folder `name` (a key of `DATA`) is read from, checked to exist."""
    variable, ours = DATA[name]
    if value := os.environ.get(variable):
        path = Path(value)
        if not path.is_dir():
            raise UserError(f"${variable}: no such folder: {path}")
        return DataPath(path, f"${variable}")
    found = _config_paths()
    if found and name in found[1]:
        config, paths = found
        path = (config.parent / paths[name]).resolve()  # relative to the file that names it
        if not path.is_dir():
            raise UserError(
                Problem(str(config), None, None, f"paths.{name}", f"no such folder: {path}")
            )
        return DataPath(path, CONFIG)
    return DataPath(ours, "project")


def data_paths() -> dict[str, dict[str, str]]:
    """Every data folder and what named it, for the manifest."""
    out = {}
    for name in DATA:
        where = data_path(name)
        shown = where.path.relative_to(ROOT) if where.path.is_relative_to(ROOT) else where.path
        out[name] = {"path": Path(shown).as_posix(), "from": where.source}
    return out


def jurisdictions() -> Path:
    """Where packs live: `$NOTICES_JURISDICTIONS`, `notices.toml`, else `jurisdictions/`."""
    return data_path("jurisdictions").path


def newspapers() -> Path:
    """Where newspaper profiles live: `$NOTICES_NEWSPAPERS`, `notices.toml`, else `data/newspapers/`."""
    return data_path("newspapers").path


def parcel_schemas() -> Path:
    """Where parcel schema presets live: `$NOTICES_PARCEL_SCHEMAS`, `notices.toml`, else ours."""
    return data_path("parcel_schemas").path


def template_roots() -> list[Path]:
    """Template roots, searched in order: `$NOTICES_TEMPLATES` (a municipality's own), then ours."""
    own = os.environ.get("NOTICES_TEMPLATES")
    return [Path(own), TEMPLATES] if own else [TEMPLATES]
