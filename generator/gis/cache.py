"""What is worked out once about a county's layer file and reused while the file is unchanged.

A county parcel layer is hundreds of megabytes and changes a few times a year; each command of a
clerk's day reads the same one. Two things about it cost time in proportion to its size: the
sha256 the record names it by (~0.5 s for 300 MB), and finding the subject parcels by id in a
GeoPackage whose id column has no index (a scan of every row, ~0.2 s for 1,000,000 parcels) or
in a GeoParquet file (every column of every row group, ~0.8 s). The hash, and an index of the
ids (to feature ids; to covering boxes, so that only the row groups around them are read), are
kept in a cache folder, under a key made of the file's identity as the file system
states it: path, size, inode, modification and change times (the change time cannot be set
back by any tool, so a rewritten file is never taken for the old one). An unwritable cache
folder is no error: the work is then done every time.

A map drawn from the layers is kept the same way, under a key made of everything it is drawn
from (`drawn_map`): matplotlib's import and the drawing are most of `notices recipients`, and a
case's map is drawn again by each `notices recipients` and `notices build` while nothing in it
changed.

The folder: `$NOTICES_CACHE_DIR`, else `$XDG_CACHE_HOME/zoning-notices`, else
`~/.cache/zoning-notices`. Deleting it is always safe.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any
from urllib.parse import quote

from generator.hashing import sha256_file

# Bump when what is stored changes shape: old entries are then ignored.
VERSION = "1"
# Files smaller than this are hashed and scanned in milliseconds: not worth an entry (and the
# tests' and sample towns' many small layers would only fill the folder). The variable
# NOTICES_CACHE_MIN_BYTES changes it (the tests set 0 to exercise the cache on small layers).
MIN_BYTES = 16_000_000


def _worth_it(path: Path) -> bool:
    floor = int(os.environ.get("NOTICES_CACHE_MIN_BYTES", MIN_BYTES))
    return path.stat().st_size >= floor


def cache_dir() -> Path:
    """The cache folder (not created here)."""
    if os.environ.get("NOTICES_CACHE_DIR"):
        return Path(os.environ["NOTICES_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "zoning-notices"


def file_key(path: Path, *parts: str) -> str:
    """A name for what is known about `path` as it is now (and `parts`: layer, column...)."""
    st = path.stat()
    ident = [VERSION, str(path.resolve()), st.st_size, st.st_ino, st.st_dev]
    ident += [st.st_mtime_ns, st.st_ctime_ns, *parts]
    return hashlib.sha256(repr(ident).encode()).hexdigest()[:32]


def _publish(folder: Path, name: str, write: Callable[[Path], None]) -> Path | None:
    """Write an entry through a temporary file and rename it in: readers never see half of one."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-")
        os.close(fd)
    except OSError:
        return None
    try:
        write(Path(tmp))
        Path(tmp).replace(folder / name)
    except Exception:  # SQLite, Arrow, the file system: a cache that fails is only no cache
        Path(tmp).unlink(missing_ok=True)
        return None
    return folder / name


def sha256_of_layer(path: Path) -> str:
    """The file's sha256, read from the cache while the file is unchanged."""
    if not _worth_it(path):
        return sha256_file(path)
    key = file_key(path)
    entry = cache_dir() / "sha256" / key
    try:
        found = entry.read_text(encoding="ascii").strip()
        if len(found) == 64:
            return found
    except OSError:
        pass
    digest = sha256_file(path)
    _publish(entry.parent, key, lambda tmp: tmp.write_text(digest + "\n", encoding="ascii"))
    return digest


def drawn_map(
    ident: bytes, draw: Callable[[], tuple[bytes, bytes, list[str]]]
) -> tuple[bytes, bytes, list[str]]:
    """`draw()` (a map's SVG, PNG and what it shows), or what it returned before for `ident`.

    `ident` must hold everything the drawing depends on (`notice_map` gives the layers as WKB,
    the title, the drawing code and the libraries' versions): the entry is found by its hash.
    """
    key = hashlib.sha256(VERSION.encode() + b"\0" + ident).hexdigest()[:32]
    entry = cache_dir() / "maps" / key
    try:
        head, _, rest = entry.read_bytes().partition(b"\n")
        meta = json.loads(head)
        svg, png = rest[: meta["svg"]], rest[meta["svg"] :]
        if len(png) == meta["png"]:
            return svg, png, list(meta["shows"])
    except (OSError, ValueError, KeyError, TypeError):
        pass
    svg, png, shows = draw()
    head = json.dumps({"svg": len(svg), "png": len(png), "shows": shows}).encode()
    _publish(entry.parent, key, lambda tmp: tmp.write_bytes(head + b"\n" + svg + png))
    return svg, png, shows


def gpkg_fids(path: Path, table: str, column: str, values: list[str]) -> list[int] | None:
    """The feature ids of the rows of a GeoPackage table whose text `column` is one of `values`.

    None where the cache cannot answer (the column is not text, the table or column is not
    there, the file is not a GeoPackage SQLite can read): the caller then reads as before.
    An id column stored as text matches exactly as SQLite's `IN` would; other types are left
    to the layer's own reader, whose comparison rules differ.
    """
    if not _worth_it(path):
        return None
    rows = _look_up(
        "ids",
        file_key(path, table, column),
        lambda tmp: _build_ids(path, table, column, tmp),
        "SELECT fid FROM ids WHERE id IN (SELECT value FROM json_each(?)) ORDER BY fid",
        values,
    )
    return None if rows is None else [int(r[0]) for r in rows]


def _look_up(
    kind: str, key: str, build: Callable[[Path], None], sql: str, values: list[str]
) -> list[tuple[Any, ...]] | None:
    """The rows of `sql` (given `values` as one JSON array) over the cached index `kind/key`.

    The index is built by `build` when it is not there yet. None where the cache cannot
    answer: the index could not be built, it records its column as unusable, or SQLite fails.
    """
    entry = cache_dir() / kind / f"{key}.sqlite"
    if not entry.is_file() and _publish(entry.parent, entry.name, build) is None:
        return None
    try:
        with closing(sqlite3.connect(f"file:{quote(str(entry))}?mode=ro", uri=True)) as conn:
            if not conn.execute("SELECT usable FROM meta").fetchone()[0]:
                return None
            return conn.execute(sql, [json.dumps([str(v) for v in values])]).fetchall()
    except sqlite3.Error:
        return None


def _build_ids(path: Path, table: str, column: str, out: Path) -> None:
    """An index of `column` → feature id, in its own SQLite file (the county's file is not touched).

    A column it cannot serve is recorded as such (`usable` 0), so the scan is not tried again.
    """
    out.unlink()
    conn = sqlite3.connect(f"file:{quote(str(out))}", uri=True)
    try:
        conn.execute("ATTACH DATABASE ? AS src", [f"file:{quote(str(path))}?mode=ro"])
        info = conn.execute(f"PRAGMA src.table_info({_ident(table)})").fetchall()
        types = {r[1]: (r[2] or "").upper() for r in info}
        pk = [r[1] for r in info if r[5]]
        usable = "TEXT" in types.get(column, "") and len(pk) == 1
        conn.execute("CREATE TABLE meta (usable INTEGER)")
        conn.execute("INSERT INTO meta VALUES (?)", [int(usable)])
        if usable:
            # Identifiers only, quoted by _ident; no values.
            query = f"CREATE TABLE ids AS SELECT {_ident(column)} AS id, {_ident(pk[0])} AS fid"
            query += f" FROM src.{_ident(table)} WHERE {_ident(column)} IS NOT NULL"
            conn.execute(query)
            conn.execute("CREATE INDEX ids_id ON ids (id)")
        conn.commit()
        conn.execute("DETACH DATABASE src")
    finally:
        conn.close()


def parquet_box(
    path: Path, column: str, values: list[str]
) -> tuple[float, float, float, float] | None:
    """The box around the rows of a GeoParquet file whose text `column` is one of `values`.

    With it the reader reads only the row groups whose bounding-box statistics meet the box,
    instead of every row group's every column. None where the cache cannot answer (no
    covering `bbox` column, a column that is not text) or no row matches.
    """
    if not _worth_it(path):
        return None
    rows = _look_up(
        "boxes",
        file_key(path, column),
        lambda tmp: _build_boxes(path, column, tmp),
        "SELECT min(xmin), min(ymin), max(xmax), max(ymax) FROM boxes"
        " WHERE id IN (SELECT value FROM json_each(?))",
        values,
    )
    if not rows or rows[0][0] is None:
        return None
    xmin, ymin, xmax, ymax = (float(x) for x in rows[0])
    return xmin, ymin, xmax, ymax


def _build_boxes(path: Path, column: str, out: Path) -> None:
    """An index of `column` → the row's covering box, read one row group at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out.unlink()
    parquet = pq.ParquetFile(path)
    schema = parquet.schema_arrow
    geo = json.loads((schema.metadata or {}).get(b"geo", b"{}"))
    primary = geo.get("columns", {}).get(geo.get("primary_column", "geometry"), {})
    covering = primary.get("covering", {}).get("bbox", {})
    parts = [covering.get(k) for k in ("xmin", "ymin", "xmax", "ymax")]
    names = {p[0] for p in parts if p and len(p) == 2}
    field = schema.field(column) if column in schema.names else None
    text = field is not None and (
        pa.types.is_string(field.type) or pa.types.is_large_string(field.type)
    )
    usable = text and len(names) == 1 and all(p and len(p) == 2 for p in parts)
    conn = sqlite3.connect(f"file:{quote(str(out))}", uri=True)
    try:
        conn.execute("CREATE TABLE meta (usable INTEGER)")
        conn.execute("INSERT INTO meta VALUES (?)", [int(usable)])
        conn.execute("CREATE TABLE boxes (id TEXT, xmin REAL, ymin REAL, xmax REAL, ymax REAL)")
        if usable:
            (bbox,) = names
            for i in range(parquet.num_row_groups):
                table = parquet.read_row_group(i, columns=[column, bbox])
                ids = table.column(column).to_pylist()
                box = table.column(bbox).combine_chunks()
                sides = [box.field(p[1]).to_pylist() for p in parts]  # type: ignore[index]
                rows = [(v, *xs) for v, *xs in zip(ids, *sides, strict=True) if v is not None]
                conn.executemany("INSERT INTO boxes VALUES (?, ?, ?, ?, ?)", rows)
            conn.execute("CREATE INDEX boxes_id ON boxes (id)")
        conn.commit()
    finally:
        conn.close()


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'
