"""The working folder a server is started over, and the only way a request names a file in it.

`FOLDER/cases/<case-id>.yaml` are the case files, `FOLDER/output/<case-id>/` their packets (the
same layout as the command line's). A case id or a file name from a URL is checked against
`paths.safe_name` and the resolved path must stay inside its folder, so no request reaches a
file outside the working folder (`..`, absolute paths, symbolic links out).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from generator.paths import safe_name


class NotFoundError(LookupError):
    """A case or file that a request names and the working folder does not have (HTTP 404)."""


@dataclass(frozen=True)
class Workspace:
    """A working folder of cases and packets."""

    root: Path

    @property
    def cases(self) -> Path:
        """The folder of case files."""
        return self.root / "cases"

    @property
    def output(self) -> Path:
        """The folder of packets, one folder per case."""
        return self.root / "output"

    def shown(self, message: str) -> str:
        """A message with this folder's paths relative to it, as a clerk knows the folder."""
        return message.replace(f"{self.root}/", "")

    def case_ids(self) -> list[str]:
        """The ids of every case file, sorted (a link to a file outside the folder is no case)."""
        return sorted(p.stem for p in self.cases.glob("*.yaml") if self._has(p.stem))

    def _has(self, case_id: str) -> bool:
        try:
            return self.case_path(case_id).is_file()
        except NotFoundError:
            return False

    def case_path(self, case_id: str) -> Path:
        """The case file of `case_id` (it need not exist yet: a new case is saved there)."""
        return _inside(self.cases, f"{_checked(case_id)}.yaml")

    def packet(self, case_id: str) -> Path:
        """The packet folder of `case_id` (it need not exist yet)."""
        return _inside(self.output, _checked(case_id))

    def packet_file(self, case_id: str, name: str) -> Path:
        """An existing file of a packet, by its name in the packet folder (no sub-folders)."""
        path = _inside(self.packet(case_id), _checked(name))
        if not path.is_file():
            raise NotFoundError(name)
        return path


def _checked(name: str) -> str:
    if not safe_name(name):
        raise NotFoundError(name)
    return name


def _inside(folder: Path, name: str) -> Path:
    """`folder/name`, refused when it resolves outside `folder` (a symbolic link out)."""
    path = folder / name
    if not path.resolve().is_relative_to(folder.resolve()):
        raise NotFoundError(name)
    return path
