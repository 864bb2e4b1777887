"""The layer cache: a county layer's hash and parcel-id index, reused only while the file is unchanged."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import geopandas as gpd
import pytest
from shapely import affinity
from shapely.geometry import box

from generator.gis.cache import gpkg_fids, parquet_box, sha256_of_layer
from generator.hashing import sha256_file
from generator.inputs import load_case
from generator.recipients import collect, to_csv
from generator.rules.loader import resolve

from .conftest import CASES


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh cache folder, used for layers of any size."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("NOTICES_CACHE_DIR", str(folder))
    monkeypatch.setenv("NOTICES_CACHE_MIN_BYTES", "0")
    return folder


def layer(path: Path, ids: list[object]) -> Path:
    """A GeoPackage of one lot a parcel id, in feet."""
    lots = [box(i * 50.0, 0.0, i * 50.0 + 50.0, 100.0) for i in range(len(ids))]
    frame = gpd.GeoDataFrame({"PIN": ids, "OWNER1": "A"}, geometry=lots, crs="EPSG:3438")
    frame.to_file(path, layer="parcels", driver="GPKG", engine="pyogrio")
    return path


def test_the_hash_is_kept_while_the_file_is_unchanged(tmp_path: Path, cache: Path) -> None:
    path = layer(tmp_path / "county.gpkg", ["P1", "P2"])
    digest = sha256_of_layer(path)
    assert digest == sha256_file(path)
    (entry,) = (cache / "sha256").iterdir()
    entry.write_text("f" * 64 + "\n")  # the entry is what is read while the file is unchanged
    assert sha256_of_layer(path) == "f" * 64
    with path.open("ab") as handle:  # a rewritten file is a new file: its own hash
        handle.write(b"\0")
    assert sha256_of_layer(path) == sha256_file(path) != digest


def test_parcels_by_id_from_the_index(tmp_path: Path, cache: Path) -> None:
    path = layer(tmp_path / "county.gpkg", ["P1", "P2", "P3", "P2"])
    assert gpkg_fids(path, "parcels", "PIN", ["P3", "P2", "P9"]) == [2, 3, 4]
    assert gpkg_fids(path, "parcels", "PIN", ["P9"]) == []
    assert len(list((cache / "ids").iterdir())) == 1  # built once, then read
    # Integer ids compare by the layer's own rules, not as text: the reader scans as before.
    numbers = layer(tmp_path / "numbers.gpkg", [1, 2, 3])
    assert gpkg_fids(numbers, "parcels", "PIN", ["2"]) is None
    assert gpkg_fids(path, "no_such_table", "PIN", ["P1"]) is None


def test_small_layers_are_not_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTICES_CACHE_DIR", str(tmp_path / "cache"))
    path = layer(tmp_path / "county.gpkg", ["P1"])
    assert sha256_of_layer(path) == sha256_file(path)
    assert gpkg_fids(path, "parcels", "PIN", ["P1"]) is None
    assert not (tmp_path / "cache").exists()


def test_an_unwritable_cache_is_no_error(tmp_path: Path, cache: Path) -> None:
    cache.write_text("a file where the folder would be")
    path = layer(tmp_path / "county.gpkg", ["P1"])
    assert sha256_of_layer(path) == sha256_file(path)
    assert gpkg_fids(path, "parcels", "PIN", ["P1"]) is None


def test_the_recipients_are_the_same_with_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sample case's list, read through the id index and the kept hash, cold then warm."""
    case = CASES / "ep-2027-za-03.yaml"
    cf = load_case(case)
    pack = resolve(cf.case.jurisdiction)
    monkeypatch.setenv("NOTICES_CACHE_DIR", str(tmp_path / "cache"))
    plain = collect(cf, pack)
    monkeypatch.setenv("NOTICES_CACHE_MIN_BYTES", "0")
    cold, warm = collect(cf, pack), collect(cf, pack)
    assert list((tmp_path / "cache" / "ids").iterdir())  # the index was made, and used
    for found in (cold, warm):
        assert to_csv(found) == to_csv(plain)
        assert found.provenance == plain.provenance
        assert [f.message for f in found.findings] == [f.message for f in plain.findings]


def test_parcels_by_id_from_the_boxes_of_a_geoparquet_file(tmp_path: Path, cache: Path) -> None:
    lots = [box(i * 50.0, 0.0, i * 50.0 + 50.0, 100.0) for i in range(4)]
    frame = gpd.GeoDataFrame({"PIN": ["P1", "P2", "P3", "P2"]}, geometry=lots, crs="EPSG:3438")
    covered, bare = tmp_path / "covered.parquet", tmp_path / "bare.parquet"
    frame.to_parquet(covered, write_covering_bbox=True, row_group_size=2)
    frame.to_parquet(bare)
    assert parquet_box(covered, "PIN", ["P2", "P9"]) == (50.0, 0.0, 200.0, 100.0)
    assert parquet_box(covered, "PIN", ["P9"]) is None
    assert parquet_box(bare, "PIN", ["P1"]) is None  # no covering boxes: read as before


@pytest.mark.parametrize("suffix", [".gpkg", ".parquet"])
def test_the_owners_are_the_same_through_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffix: str
) -> None:
    """A GeoPackage (id index) and a GeoParquet file with boxes (box index): same owners."""
    from .test_recipients import EP_PARCELS, ep_case, owners

    pack = resolve("us-ri-east-providence")
    path = tmp_path / f"parcels{suffix}"
    frame = gpd.GeoDataFrame(EP_PARCELS, geometry="geometry", crs="EPSG:3438")
    if suffix == ".gpkg":
        frame.to_file(path, layer="parcels", driver="GPKG", engine="pyogrio")
    else:
        frame.to_parquet(path, write_covering_bbox=True, row_group_size=3)
    case = ep_case(tmp_path, path)
    if suffix == ".parquet":
        case.write_text(case.read_text().replace(", layer: parcels", ""))
    monkeypatch.setenv("NOTICES_CACHE_DIR", str(tmp_path / "cache"))
    plain = owners(collect(load_case(case), pack))
    monkeypatch.setenv("NOTICES_CACHE_MIN_BYTES", "0")
    assert owners(collect(load_case(case), pack)) == plain  # the index made
    assert owners(collect(load_case(case), pack)) == plain  # and read
    assert len(list((tmp_path / "cache").iterdir())) == 2  # hash, and ids or boxes


def test_a_map_is_drawn_once_for_the_same_layers_and_title(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kept map is the map drawn: same bytes and `shows`; anything else drawn is drawn anew."""
    from generator.gis import maps, notice_map

    from .test_maps import scene

    drawings: list[str] = []
    real = maps.draw_showing

    def counted(layers: maps.MapLayers, *, title: str) -> tuple[bytes, bytes, list[str]]:
        drawings.append(title)
        return real(layers, title=title)

    monkeypatch.setattr(maps, "draw_showing", counted)
    first = notice_map.drawn(scene(), "Town: proposed change")
    assert first == (*maps.draw(scene(), title="Town: proposed change"), maps.shows(scene()))
    assert notice_map.drawn(scene(), "Town: proposed change") == first
    assert drawings == ["Town: proposed change"]  # the second came from the cache
    moved = replace(scene(), subject=affinity.translate(scene().subject, xoff=1e-6))
    notice_map.drawn(scene(), "Another title")
    notice_map.drawn(moved, "Town: proposed change")
    assert len(drawings) == 3 and len(list((cache / "maps").iterdir())) == 3
    for entry in (cache / "maps").iterdir():  # a damaged entry is drawn again, not read
        entry.write_bytes(entry.read_bytes()[:-1])
    assert notice_map.drawn(scene(), "Town: proposed change") == first
    assert len(drawings) == 4
