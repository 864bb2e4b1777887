"""A parcel table in PostGIS as a layer: `postgresql://[user@]host[:port]/db?table=[schema.]name`.

A county GIS office keeps its parcels in PostGIS, shared by many users and too big for a file.
Only the rows a case needs are read: those whose geometry's box meets the box asked for (`&&`,
answered by the GiST index) or whose field has one of the values asked for. Which of those rows
are within a distance is decided by the caller, in one place for every store, so a database and
a GeoPackage of the same parcels cannot disagree.

Identifiers (schema, table, columns) are quoted with psycopg.sql; values travel as query
parameters. A password never appears in a case: libpq reads PGPASSWORD, ~/.pgpass or a service
file (`?service=`).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from generator.errors import UserError
from generator.inputs import CaseFile
from generator.models.case import database_url_problem

# A server that does not answer within this many seconds is reported as down, not waited for.
CONNECT_TIMEOUT_S = 10


@dataclass(frozen=True)
class TableSource:
    """Where a layer came from, for the record: database, table, CRS, rows and a change marker.

    The marker is cheap, not a hash of the rows: the table's write counters (rows inserted,
    updated and deleted since the statistics were last reset) and its file node (which a
    TRUNCATE, VACUUM FULL or CLUSTER renews). Two reads with the same marker saw the same
    table unless its statistics were reset in between; the counters reach the statistics
    within about a second of a commit.
    """

    name: str
    url: str
    table: str
    geometry: str
    crs: str
    rows: int
    change_marker: str
    as_of: str | None

    def as_json(self) -> dict[str, Any]:
        """The provenance block of the manifest."""
        return {
            "layer": self.name,
            "path": self.url,
            "table": self.table,
            "geometry_column": self.geometry,
            "crs": self.crs,
            "rows": self.rows,
            "change_marker": self.change_marker,
            "as_of": self.as_of,
        }


class PostgisTable:
    """One PostGIS table a layer reads: its columns, geometry column, CRS, and reads by box or value."""

    def __init__(self, cf: CaseFile, where: tuple[str, ...], path: str) -> None:
        self.cf, self.where = cf, where
        problem = database_url_problem(path)
        if problem:
            raise UserError(cf.problem(where, problem))
        parts = urlsplit(path)
        query = dict(parse_qsl(parts.query, keep_blank_values=True))
        self.table_name = query.pop("table")
        wanted = query.pop("geometry", None)
        query.setdefault("connect_timeout", str(CONNECT_TIMEOUT_S))
        self.conninfo = urlunsplit(parts._replace(query=urlencode(query)))
        # What the record shows: the URL without its parameters (none are secret, but a service
        # file's or a key's path says nothing about the data), and the table.
        self.url = urlunsplit(parts._replace(query="", fragment=""))
        self.name = f"{self.table_name} in {self.url}"
        with self._connect() as conn:
            self._describe(conn, wanted)

    @contextmanager
    def _connect(self) -> Iterator[Any]:
        import psycopg  # heavy: imported only when a case reads a database

        try:
            conn = psycopg.connect(self.conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise UserError(
                self.cf.problem(self.where, f"cannot connect to {self.url}: {_first_line(exc)}")
            ) from None
        try:
            with conn:
                yield conn
        except psycopg.Error as exc:
            raise UserError(
                self.cf.problem(self.where, f"reading {self.name} failed: {_first_line(exc)}")
            ) from None

    def _describe(self, conn: Any, wanted: str | None) -> None:
        """Find the table, its columns, geometry column, SRID and CRS, and check its index."""
        import psycopg

        try:
            # to_regclass parses the name as PostgreSQL does (unquoted names fold to lower case;
            # "Parcels" in double quotes keeps its case) and never executes it.
            row = conn.execute(
                "SELECT c.oid, n.nspname, c.relname FROM pg_class c"
                " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = to_regclass(%s)",
                [self.table_name],
            ).fetchone()
        except psycopg.Error:
            row = None
        if row is None:
            raise UserError(
                self.cf.problem(self.where, f"no table {self.table_name!r} in {self.url}")
            )
        self.oid, self.schema, self.relname = row
        oid = self.oid
        self.columns = [
            r[0]
            for r in conn.execute(
                "SELECT attname FROM pg_attribute WHERE attrelid = %s AND attnum > 0"
                " AND NOT attisdropped ORDER BY attnum",
                [oid],
            )
        ]
        try:
            geoms = conn.execute(
                "SELECT f_geometry_column, srid FROM geometry_columns"
                " WHERE f_table_schema = %s AND f_table_name = %s",
                [self.schema, self.relname],
            ).fetchall()
        except psycopg.errors.UndefinedTable:
            raise UserError(
                self.cf.problem(self.where, f"{self.url} has no PostGIS (CREATE EXTENSION postgis)")
            ) from None
        if wanted:
            geoms = [g for g in geoms if g[0] == wanted]
        if len(geoms) != 1:
            have = ", ".join(g[0] for g in geoms) or "none"
            raise UserError(
                self.cf.problem(
                    self.where,
                    f"{self.name}: "
                    + (
                        f"no geometry column {wanted!r}"
                        if wanted
                        else "say which geometry column to read with &geometry=NAME"
                    )
                    + f" (geometry columns: {have})",
                )
            )
        self.geometry, self.srid = geoms[0]
        # Rows come back in a fixed order, so that a packet built twice is the same: the primary
        # key's (a table loaded by ogr2ogr keeps the file's feature ids there), else the columns'.
        self.key = [
            r[0]
            for r in conn.execute(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid"
                " AND a.attnum = ANY(i.indkey) WHERE i.indrelid = %s AND i.indisprimary"
                " ORDER BY array_position(i.indkey, a.attnum)",
                [oid],
            )
        ]
        self.crs = self._crs(conn)
        self.indexed = bool(
            conn.execute(
                "SELECT 1 FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid"
                " JOIN pg_am am ON am.oid = ic.relam"
                " JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                " WHERE i.indrelid = %s AND a.attname = %s AND am.amname IN ('gist', 'spgist', 'brin')",
                [oid, self.geometry],
            ).fetchone()
        )
        if not self.indexed:
            # Still right, only slow: every read scans the whole table. The county's GIS office
            # may not let us add the index, so this warns rather than refuses.
            print(
                f"warning: {'.'.join(self.where)}: {self.name} has no spatial index on"
                f" {self.geometry!r}: every read scans the whole table"
                f" (CREATE INDEX ON {self.schema}.{self.relname} USING GIST ({self.geometry}))",
                file=sys.stderr,
            )

    def _crs(self, conn: Any) -> Any:
        from pyproj import CRS

        if not self.srid:
            return None  # SRID 0: the layer states no CRS; the case must give `crs`
        row = conn.execute(
            "SELECT auth_name, auth_srid, srtext FROM spatial_ref_sys WHERE srid = %s", [self.srid]
        ).fetchone()
        if row is None:
            return None
        auth, code, wkt = row
        return CRS.from_user_input(f"{auth}:{code}" if auth and code else wkt)

    def source(self, layer: str, crs: str, as_of: str | None) -> TableSource:
        """Provenance of the table as read now."""
        from psycopg import sql

        with self._connect() as conn:
            rows = conn.execute(
                sql.SQL("SELECT count(*) FROM {}").format(sql.Identifier(self.schema, self.relname))
            ).fetchone()[0]
            marker = conn.execute(
                "SELECT concat_ws('-', pg_relation_filenode(c.oid), s.n_tup_ins, s.n_tup_upd,"
                " s.n_tup_del) FROM pg_class c LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid"
                " WHERE c.oid = %s",
                [self.oid],
            ).fetchone()[0]
        return TableSource(
            layer,
            self.url,
            f"{self.schema}.{self.relname}",
            self.geometry,
            crs,
            rows,
            marker,
            as_of,
        )

    def read(
        self,
        columns: list[str],
        bbox: tuple[float, float, float, float] | None,
        where: dict[str, list[str]],
        crs: Any,
    ) -> Any:
        """Rows whose geometry's box meets `bbox` (the table's CRS) and whose `where` columns hold one of the values.

        `columns` and `where` name the table's own columns; the frame has them and `geometry`.
        """
        import geopandas as gpd
        import shapely
        from psycopg import sql

        clauses, params = [], []
        if bbox is not None:
            clauses.append(
                sql.SQL("{} && ST_MakeEnvelope(%s, %s, %s, %s, %s)").format(
                    sql.Identifier(self.geometry)
                )
            )
            params += [*bbox, self.srid]
        for column, values in where.items():
            if not values:
                clauses.append(sql.SQL("false"))
                continue
            # One parameter per value, sent untyped: the server reads each as the column's type,
            # so a text id and an integer id both match and the column's index is used.
            clauses.append(
                sql.SQL("{} IN ({})").format(
                    sql.Identifier(column), sql.SQL(", ").join(sql.Placeholder() * len(values))
                )
            )
            params += [str(v) for v in values]
        query = sql.SQL("SELECT {}, ST_AsBinary({}) FROM {} WHERE {} ORDER BY {}").format(
            sql.SQL(", ").join(sql.Identifier(c) for c in columns),
            sql.Identifier(self.geometry),
            sql.Identifier(self.schema, self.relname),
            sql.SQL(" AND ").join(clauses) if clauses else sql.SQL("true"),
            sql.SQL(", ").join(sql.Identifier(c) for c in self.key or columns),
        )
        with self._connect() as conn:
            rows = conn.execute(query, params).fetchall()
        data = {c: [r[i] for r in rows] for i, c in enumerate(columns)}
        geometry = shapely.from_wkb([r[-1] for r in rows]) if rows else []
        return gpd.GeoDataFrame(data, geometry=gpd.GeoSeries(geometry, crs=crs), crs=crs)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
