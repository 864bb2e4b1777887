"""The one writer of the files the product leaves on disk: inside their folder, never through a link.

Every file of a packet (documents, lint report, manifest, recipients) and the error log go
through `write`. The name is taken relative to the folder the file belongs in and refused if it
would leave it, lexically or once resolved. Each folder below that one is opened without
following a symbolic link, and the file itself is created anew: a regular file already there is
unlinked first (so a hard link planted in a packet is not written through either), and a
symbolic link there is refused. The folder itself is the caller's: one the build created, or the
`--out` folder the user named.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path, PurePath

from generator.errors import Problem, UserError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# Walking the folders by descriptor closes the window between a check and the write.
_BY_FD = {os.open, os.mkdir, os.unlink, os.stat} <= os.supports_dir_fd and bool(_NOFOLLOW)


def write(root: Path, name: str, data: bytes) -> Path:
    """Write `data` to `root/name`, refusing a name outside `root` and any symbolic link below it.

    Raises `UserError` (exit 2) naming the path when the name leaves `root` or a link stands in
    the way; the link's target is never touched.
    """
    parts = PurePath(name).parts
    target = root / name
    if (
        not parts
        or PurePath(name).is_absolute()
        or PurePath(name).drive
        or any(p in ("", ".", "..") for p in parts)
        or not _inside(root, target.parent)
    ):
        raise _refused(target, "is outside its folder; nothing is written there")
    if _BY_FD:
        _write_at(root, parts, data)
    else:
        _write_by_path(root, parts, data)
    return target


def _inside(root: Path, target: Path) -> bool:
    """Whether `target`, resolved, lies below `root`, resolved."""
    try:
        target.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def _refused(path: Path, why: str) -> UserError:
    return UserError(Problem(str(path), None, None, "", why))


def _write_at(root: Path, parts: tuple[str, ...], data: bytes) -> None:
    fd = os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)
    try:
        for i, part in enumerate(parts[:-1]):
            with contextlib.suppress(FileExistsError):
                os.mkdir(part, dir_fd=fd)
            try:
                sub = os.open(part, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=fd)
            except OSError:
                where = root.joinpath(*parts[: i + 1])
                raise _refused(
                    where, "is not a folder (a symbolic link?); nothing is written through it"
                ) from None
            os.close(fd)
            fd = sub
        _replace(fd, parts[-1], root.joinpath(*parts), data)
    finally:
        os.close(fd)


def _replace(fd: int, name: str, path: Path, data: bytes) -> None:
    """Create `name` in the folder `fd` anew with `data`; refuse a link or a folder there."""
    try:
        mode = os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None:
        if not stat.S_ISREG(mode):
            raise _refused(
                path, "is a symbolic link or not a regular file; nothing is written through it"
            )
        os.unlink(name, dir_fd=fd)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC
    try:
        out = os.open(name, flags, 0o666, dir_fd=fd)
    except FileExistsError:  # something appeared since: not ours to overwrite
        raise _refused(
            path, "appeared while it was being written; nothing is written through it"
        ) from None
    with os.fdopen(out, "wb") as handle:
        handle.write(data)


def _write_by_path(root: Path, parts: tuple[str, ...], data: bytes) -> None:
    """Where folders cannot be opened by descriptor (Windows): check each step with lstat."""
    here = root
    for part in parts[:-1]:
        here = here / part
        if here.is_symlink() or (here.exists() and not here.is_dir()):
            raise _refused(
                here, "is not a folder (a symbolic link?); nothing is written through it"
            )
        here.mkdir(exist_ok=True)
    target = here / parts[-1]
    if target.is_symlink() or (target.exists() and not target.is_file()):
        raise _refused(
            target, "is a symbolic link or not a regular file; nothing is written through it"
        )
    target.unlink(missing_ok=True)
    with target.open("xb") as handle:
        handle.write(data)
