"""How a packet folder changes on disk: under its lock, staged beside it, exchanged whole.

A build never writes into the folder a clerk may be reading. Holding the packet's lock
(`.<id>.lock` beside the folder), it makes the new packet in `.<id>.staging-<pid>` beside it:
the new files, what it keeps of the old packet (edited drafts, files it did not make; linked,
not moved, so the old packet stays whole), and what the caller adds there (the lint report, the
manifest). Only then are the two folders exchanged. Killed at any moment, `<id>/` holds the
previous packet or the new one, each whole; the next build removes what a killed one left
beside it, by name, before it starts.

A file is an edited draft when its sha256 differs from the one the last manifest recorded for it
(and from the new file): it is kept as `<name>.edited-N.<ext>`, never overwritten. Every file is
written by `writer.write`.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import BinaryIO

from generator.errors import Problem, UserError
from generator.writer import write

try:
    import fcntl
except ImportError:  # Windows: no flock; the lock file itself is the lock there
    fcntl = None  # type: ignore[assignment]

MANIFEST = "manifest.json"
# A build of a large mailing takes minutes; a lock held longer than this is someone else's problem.
LOCK_WAIT_S = 600.0
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def update(
    folder: Path,
    files: Mapping[str, bytes],
    *,
    remove_stale: bool,
    reserved: Collection[str] = (),
    finish: Callable[[Path], None] | None = None,
    history: str | None = None,
) -> list[str]:
    """Replace the packet in `folder` by one holding `files`; return the edited drafts kept aside.

    `remove_stale`: files the last manifest lists and `files` does not are dropped (unless
    edited). `reserved`: names `finish` writes into the staged packet (it gets the staging
    folder, and may raise to leave the previous packet as it was). `history`: the documents of
    the last build that this one changes or drops are kept in `history/<history>/`.
    """
    folder.parent.mkdir(parents=True, exist_ok=True)
    with locked(folder):
        _recover(folder)
        if os.path.lexists(folder) and not stat.S_ISDIR(folder.lstat().st_mode):
            raise UserError(
                Problem(
                    str(folder), None, None, "",
                    "is a symbolic link or a file, not a packet folder: nothing is written"
                    " through it; move it away and build again",
                )
            )  # fmt: skip
        staging = folder.parent / f".{folder.name}.staging-{os.getpid()}"
        staging.mkdir()
        try:
            kept = _stage(folder, staging, files, set(reserved), remove_stale=remove_stale)
            if history is not None:
                _keep_history(folder, staging, files, history)
            if finish is not None:
                finish(staging)
            _swap(staging, folder)
        finally:
            _remove(staging)  # what failed, or (after the exchange) the previous packet
    return kept


def previous_hashes(folder: Path) -> dict[str, str]:
    """The files the last build wrote into `folder`, by path, with their sha256."""
    data = _read_regular(folder / MANIFEST)
    try:
        old = json.loads(data or b"{}")
        return {str(d["path"]): str(d["sha256"]) for d in old.get("documents", [])}
    except (ValueError, KeyError, TypeError, AttributeError):
        return {}


def sha256_regular(path: Path) -> str | None:
    """The sha256 of `path` if it is a regular file (never through a link, a FIFO or a device)."""
    with _regular(path) as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest() if handle else None


def _read_regular(path: Path) -> bytes | None:
    with _regular(path) as handle:
        return handle.read() if handle else None


@contextlib.contextmanager
def _regular(path: Path) -> Iterator[BinaryIO | None]:
    """`path` open for reading if it is a regular file, else None; never through a link."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except OSError:
        yield None
        return
    with os.fdopen(fd, "rb") as handle:
        yield handle if stat.S_ISREG(os.fstat(fd).st_mode) else None


def _stage(
    folder: Path,
    staging: Path,
    files: Mapping[str, bytes],
    reserved: set[str],
    *,
    remove_stale: bool,
) -> list[str]:
    """Fill `staging`: what the old packet keeps, the new files, the edited drafts set aside."""
    previous = previous_hashes(folder)
    new = {name: hashlib.sha256(data).hexdigest() for name, data in files.items()}
    old = sorted(p.name for p in folder.iterdir()) if os.path.lexists(folder) else []
    edited = []
    for name in old:
        ours_now = name in files or name in reserved
        if not ours_now and (name not in previous or not remove_stale):
            _carry(folder / name, staging / name)  # not ours to replace or to drop
        elif _edited(folder / name, previous.get(name), new.get(name)):
            edited.append(name)
        # else: replaced by the new file, or no longer part of the packet (a link: never followed)
    for name, data in files.items():
        write(staging, name, data)
    return [_keep_edited(folder / name, staging) for name in edited]


HISTORY = "history"


def _keep_history(folder: Path, staging: Path, files: Mapping[str, bytes], label: str) -> None:
    """Link the documents of the last build that `files` changes or drops into `history/<label>/`.

    Only what the last manifest lists, as it wrote it: an edited draft is kept beside the new
    one (`.edited-N`), and a file someone else put in the packet is carried, not moved.
    """
    previous = previous_hashes(folder)
    changed = [
        name
        for name, sha in sorted(previous.items())
        if sha256_regular(folder / name) == sha
        and (name not in files or hashlib.sha256(files[name]).hexdigest() != sha)
    ]
    if not changed:
        return
    target = staging / HISTORY / label
    n = 1
    while os.path.lexists(target):  # the same label again: never over an earlier history
        n += 1
        target = staging / HISTORY / f"{label}-{n}"
    target.mkdir(parents=True)
    for name in changed:
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        _link(folder / name, target / name)
    if previous and os.path.lexists(folder / MANIFEST):
        _link(folder / MANIFEST, target / MANIFEST)


def _edited(path: Path, recorded: str | None, new: str | None) -> bool:
    """Whether someone changed `path` since the last build (a link or a folder is no draft)."""
    sha = sha256_regular(path)
    if sha is None or sha == new:
        return False
    if recorded is not None:
        return sha != recorded
    return new is not None  # a file we did not make, where we write one: never clobbered


def _keep_edited(path: Path, staging: Path) -> str:
    """Link an edited draft into `staging` as `<stem>.edited-N.<ext>`, beside the new draft."""
    stem, dot, ext = path.name.partition(".")
    n = 1
    while os.path.lexists(staging / f"{stem}.edited-{n}{dot}{ext}"):
        n += 1
    name = f"{stem}.edited-{n}{dot}{ext}"
    _link(path, staging / name)
    return name


def _carry(source: Path, target: Path) -> None:
    """Carry an entry of the old packet into the new one, a link as a link."""
    if stat.S_ISDIR(source.lstat().st_mode):
        shutil.copytree(source, target, symlinks=True, copy_function=_link)
    else:
        _link(source, target)


def _link(source: str | Path, target: str | Path) -> None:
    """A hard link (the old packet keeps its file until the exchange), else a copy."""
    try:
        os.link(source, target, follow_symlinks=False)
    except OSError:
        shutil.copy2(source, target, follow_symlinks=False)


def _swap(staging: Path, folder: Path) -> None:
    """Put the staged packet in place of `folder`; the previous one ends up at `staging`."""
    if not os.path.lexists(folder):
        staging.rename(folder)
    elif not _exchange(staging, folder):
        # Without an atomic exchange: killed between these two renames, the next build finds
        # no folder and the old packet aside, and puts it back (`_recover`).
        aside = folder.parent / f".{folder.name}.old-{os.getpid()}"
        folder.rename(aside)
        staging.rename(folder)
        aside.rename(staging)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Exchange two folders in one step (Linux `renameat2`); False where that is not available."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):  # a file system without it
        return False
    raise OSError(err, os.strerror(err), str(b))


def _leftovers(folder: Path) -> list[Path]:
    pattern = re.compile(rf"\.{re.escape(folder.name)}\.(staging|old)-\d+")
    return sorted(p for p in folder.parent.iterdir() if pattern.fullmatch(p.name))


def _recover(folder: Path) -> None:
    """Remove what a killed build of this packet left beside it; put back a packet moved aside."""
    left = _leftovers(folder)
    aside = [p for p in left if ".old-" in p.name]
    if aside and not os.path.lexists(folder):
        back = max(aside, key=lambda p: p.lstat().st_mtime)
        back.rename(folder)
        left.remove(back)
    for path in left:
        _remove(path)


def _remove(path: Path) -> None:
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        shutil.rmtree(path, ignore_errors=True)  # never follows a link inside
    else:
        with contextlib.suppress(OSError):
            path.unlink()


@contextlib.contextmanager
def locked(folder: Path, wait: float = LOCK_WAIT_S) -> Iterator[None]:
    """Hold the packet's lock (`.<id>.lock` beside it), waiting at most `wait` seconds for it.

    Raises `UserError` (exit 2) when another build holds it longer. The lock file is removed
    on release, while still held, so a build that was waiting on it locks a new one.
    """
    path = folder.parent / f".{folder.name}.lock"
    deadline = time.monotonic() + wait
    while True:
        fd = _acquire(path, folder, deadline)
        if _same(fd, path):
            break
        os.close(fd)  # released and removed by the build that held it: lock the next one
    try:
        yield
    finally:
        if _same(fd, path):
            with contextlib.suppress(OSError):
                path.unlink()
        os.close(fd)


def _acquire(path: Path, folder: Path, deadline: float) -> int:
    while True:
        flags = os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC
        if fcntl is None:
            flags |= os.O_EXCL
        try:
            fd = os.open(path, flags, 0o644)
        except FileExistsError:
            fd = -1
        except OSError as exc:
            raise UserError(
                Problem(
                    str(path),
                    None,
                    None,
                    "",
                    f"cannot be opened as the packet's lock ({exc.strerror})",
                )
            ) from None
        if fd >= 0 and fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                fd = -1
        if fd >= 0:
            return fd
        if time.monotonic() >= deadline:
            raise UserError(
                Problem(
                    str(folder), None, None, "",
                    f"another build of this packet is writing it (it holds {path.name});"
                    " try again when it has finished",
                )
            )  # fmt: skip
        time.sleep(0.1)


def _same(fd: int, path: Path) -> bool:
    """Whether `path` still names the file open as `fd`."""
    try:
        now = path.lstat()
    except OSError:
        return False
    held = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (held.st_dev, held.st_ino)
