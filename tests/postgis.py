"""A throwaway PostgreSQL + PostGIS cluster, and loading a layer into it (tests and bench).

The cluster lives in a temporary directory, listens only on a unix socket there, and is
stopped and deleted at the end. It runs Debian's own server binaries (postgresql-15 and
postgresql-15-postgis-3, installed by `make test SLOW=1`). initdb refuses to run as root,
and CI runs as root: there the server runs as the unprivileged `postgres` (or `nobody`) user,
over the directory handed to it, and we connect over the socket with trust authentication
(only the socket's directory's owner and root can reach it).
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Durability is pointless in a cluster that is deleted at the end; without it loads are faster.
SETTINGS = {
    "listen_addresses": "''",
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    "shared_buffers": "128MB",
    "max_wal_size": "2GB",
}


class NoPostgisError(RuntimeError):
    """The PostgreSQL server or PostGIS is not installed."""


def _binary(name: str) -> str:
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)
    path = str(found[0]) if found else shutil.which(name)
    if not path:
        raise NoPostgisError(
            f"{name} not found: install postgresql and postgresql-15-postgis-3 (make test SLOW=1)"
        )
    return path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class Cluster:
    """A running throwaway cluster: its socket directory, port and database."""

    socket_dir: Path
    port: int
    dbname: str = "county"
    user: str = "postgres"

    def url(self, table: str, **extra: str) -> str:
        """The layer URL a case gives for `table` in this cluster."""
        query = "&".join(f"{k}={v}" for k, v in {"host": str(self.socket_dir), "port": str(self.port), "table": table, **extra}.items())  # fmt: skip
        return f"postgresql://{self.user}@/{self.dbname}?{query}"

    def connect(self) -> Any:
        """A psycopg connection (autocommit) to the cluster's database."""
        import psycopg

        return psycopg.connect(
            host=str(self.socket_dir),
            port=self.port,
            dbname=self.dbname,
            user=self.user,
            autocommit=True,
        )


def socket_cluster(url: str) -> Cluster:
    """The cluster a layer URL of `Cluster.url` names (for a child process that only connects)."""
    from urllib.parse import parse_qsl, urlsplit

    query = dict(parse_qsl(urlsplit(url).query))
    return Cluster(Path(query["host"]), int(query["port"]))


@contextmanager
def cluster() -> Iterator[Cluster]:
    """Start a cluster with PostGIS in a temporary directory; stop and delete it at the end."""
    initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
    if not any(Path("/usr/share/postgresql").glob("*/extension/postgis.control")):
        raise NoPostgisError("PostGIS is not installed: apt-get install postgresql-15-postgis-3")
    run_as: list[str] = []
    top = Path(tempfile.mkdtemp(prefix="notices-pg-"))
    if os.geteuid() == 0:
        user = next(u for u in ("postgres", "nobody") if _has_user(u))
        entry = pwd.getpwnam(user)
        os.chown(top, entry.pw_uid, entry.pw_gid)
        run_as = ["runuser", "-u", user, "--"]
    data, port = top / "data", _free_port()
    options = " ".join(f"-c {k}={v}" for k, v in {**SETTINGS, "unix_socket_directories": f"'{top}'", "port": port}.items())  # fmt: skip
    started = False
    try:
        subprocess.run(
            [*run_as, initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8",
             "--locale=C.UTF-8", "--no-sync"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        subprocess.run(
            [*run_as, pg_ctl, "-D", str(data), "-l", str(top / "log"), "-o", options, "-w", "start"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        started = True
        found = Cluster(top, port)
        import psycopg

        with psycopg.connect(
            host=str(top), port=port, dbname="postgres", user="postgres", autocommit=True
        ) as conn:
            conn.execute("CREATE DATABASE county")
        with found.connect() as conn:
            conn.execute("CREATE EXTENSION postgis")
        yield found
    except subprocess.CalledProcessError as exc:
        log = (top / "log").read_text() if (top / "log").exists() else ""
        raise RuntimeError(f"{exc.cmd[len(run_as)]} failed: {exc.stderr}\n{log}") from None
    finally:
        if started:
            subprocess.run(
                [*run_as, pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
                check=False, capture_output=True,
            )  # fmt: skip
        shutil.rmtree(top, ignore_errors=True)


def _has_user(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def load(
    db: Cluster,
    frame: Any,
    table: str,
    *,
    index: bool = True,
    geometry: str = "geom",
    key: str | None = None,
) -> None:
    """Load a GeoDataFrame into `table` by COPY (EWKB geometry), then index and analyse it.

    Integer columns become bigint, floats double precision, everything else text. With `key`,
    the frame's index (a GeoPackage's feature ids) becomes that primary-key column, as ogr2ogr
    loads a layer.
    """
    if key:
        frame = frame.rename_axis(key).reset_index()
    import shapely
    from psycopg import sql

    srid = frame.crs.to_epsg()
    columns = [c for c in frame.columns if c != frame.geometry.name]
    from pandas.api import types

    kinds = {
        c: "bigint" if types.is_integer_dtype(frame[c]) else
        "double precision" if types.is_float_dtype(frame[c]) else "text"
        for c in columns
    }  # fmt: skip
    ident = sql.Identifier(*table.split("."))
    with db.connect() as conn:
        conn.execute(
            sql.SQL("CREATE TABLE {} ({}, {} geometry(Geometry, {}))").format(
                ident,
                sql.SQL(", ").join(
                    sql.SQL("{} {}").format(sql.Identifier(c), sql.SQL(kinds[c])) for c in columns
                ),
                sql.Identifier(geometry),
                sql.Literal(srid),
            )
        )
        wkb = shapely.to_wkb(
            shapely.set_srid(frame.geometry.values, srid), hex=True, include_srid=True
        )
        values = [frame[c].to_numpy(dtype=object) for c in columns]
        target = sql.SQL("COPY {} ({}) FROM STDIN").format(
            ident, sql.SQL(", ").join(sql.Identifier(c) for c in [*columns, geometry])
        )
        with conn.cursor() as cur, cur.copy(target) as copy:
            for i in range(len(frame)):
                copy.write_row([*(None if _missing(v[i]) else v[i] for v in values), wkb[i]])
        if key:
            conn.execute(
                sql.SQL("ALTER TABLE {} ADD PRIMARY KEY ({})").format(ident, sql.Identifier(key))
            )
        if index:
            create_index(db, table, geometry)


def create_index(db: Cluster, table: str, geometry: str = "geom") -> None:
    """The GiST index on the geometry, and fresh statistics so that the planner uses it."""
    from psycopg import sql

    ident = sql.Identifier(*table.split("."))
    with db.connect() as conn:
        conn.execute(
            sql.SQL("CREATE INDEX ON {} USING GIST ({})").format(ident, sql.Identifier(geometry))
        )
        conn.execute(sql.SQL("ANALYZE {}").format(ident))


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and value != value)
