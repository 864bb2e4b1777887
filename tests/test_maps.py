"""The map of a change: what it draws, in grays, legibly, the same bytes every time."""

from __future__ import annotations

import io
import math
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
from shapely.geometry import LineString, Point, box

from generator.gis.maps import DPI, MapLayers, draw, shows
from tests.conftest import CASES

ROOT = Path(__file__).resolve().parents[1]
STREETS = ("Main Street", "Elm Street", "Oak Avenue")
TITLE = "Proposed change of zoning, 30 Oak Avenue (Plat 12, Lot 45)"


def scene() -> MapLayers:
    """Six blocks of six 100 ft lots, 60 ft streets, R-4 west and C-2 east, two towns, a pond."""
    lots = [
        box(x, y, x + 100, y + 100)
        for bx in (-330, 30)  # block west edges, either side of Oak Avenue (x = 0)
        for by in (-230, 30, 290)  # block south edges: Main Street y = 0, Elm Street y = 260
        for x in (bx, bx + 100, bx + 200)
        for y in (by, by + 100)
    ]
    subject = box(30, 30, 130, 130)  # northeast corner of Oak Avenue and Main Street
    buffer = subject.buffer(200)
    return MapLayers(
        subject=subject,
        change_label="R-4 → C-2",
        parcels=lots,
        notified=[lot for lot in lots if lot.intersects(buffer)],
        buffer=buffer,
        buffer_label="200 ft",
        districts=[(box(-2000, -2000, 130, 2000), "R-4"), (box(130, -2000, 2000, 2000), "C-2")],
        streets=[
            (LineString([(-2000, 0), (2000, 0)]), "Main Street"),
            (LineString([(-2000, 260), (2000, 260)]), "Elm Street"),
            (LineString([(0, -2000), (0, 2000)]), "Oak Avenue"),
        ],
        boundaries=[
            (box(-230, -2000, 2000, 2000), "City of Newport"),
            (box(-2000, -2000, -230, 2000), "Town of Middletown"),
        ],
        water=[(Point(460, -170).buffer(70), "Mill Pond")],
    )


@cache
def rendered() -> tuple[bytes, bytes]:
    return draw(scene(), title=TITLE)


def drawn_words(svg: bytes) -> list[str]:
    """The words drawn as text: matplotlib writes each text it draws as paths after a comment."""
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))  # noqa: S314 (our own SVG)
    root = ET.fromstring(svg, parser=parser)  # noqa: S314
    return [
        el.text.strip()
        for el in root.iter()
        if el.tag is ET.Comment and el.text is not None and el.text.strip()
    ]


def test_svg_parses_and_draws_every_required_label() -> None:
    svg, _ = rendered()
    root = ET.fromstring(svg)  # noqa: S314 (our own SVG)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.get("width") == "396pt"  # 5.5 in
    words = drawn_words(svg)
    for word in (*STREETS, "R-4", "C-2", "R-4 → C-2", "200 ft", "N", "City of Newport"):
        assert word in words, word


def test_the_title_is_metadata_not_drawn_the_caption_beneath_the_map_is_the_one_title() -> None:
    svg, png = rendered()
    assert not [w for w in drawn_words(svg) if "Proposed change" in w]
    assert f"<dc:title>{TITLE}</dc:title>".encode() in svg
    from PIL import Image

    assert Image.open(io.BytesIO(png)).info["Title"] == TITLE


def test_scale_bar_has_a_round_length_in_feet() -> None:
    from generator.gis.maps import _plan

    svg, _ = rendered()
    words = drawn_words(svg)
    plan = _plan(scene(), 5.5, 4.0)
    mantissa = plan.scale_ft / 10 ** math.floor(math.log10(plan.scale_ft))
    assert mantissa in (1, 2, 5)
    assert 0.5 <= plan.scale_ft * plan.frame.k <= 1.3  # inches on paper
    assert f"{plan.scale_ft:g} ft" in words
    assert "0" in words


def test_legend_lists_only_what_is_in_view() -> None:
    from generator.gis.maps import _plan

    s = scene()
    far = MapLayers(
        subject=s.subject,
        change_label=s.change_label,
        parcels=s.parcels,
        water=[(Point(9000, 9000).buffer(50), "Far Pond")],
        boundaries=[(box(-9000, -9000, 9000, 9000), "City of Newport")],
    )
    kinds = [kind for kind, _ in _plan(far, 5.5, 4.0).rows]
    assert kinds == ["subject", "parcel"]
    assert "Far Pond" not in drawn_words(draw(far, title="")[0])


def test_svg_uses_grays_only() -> None:
    svg, _ = rendered()
    colors = re.findall(rb"(?:fill|stroke)[:=]\s*\"?(#[0-9a-fA-F]{6})", svg)
    assert colors
    for c in {c.decode().lower() for c in colors}:
        assert c[1:3] == c[3:5] == c[5:7], c


def test_png_is_200_dpi_print_size_and_gray() -> None:
    import numpy as np
    from PIL import Image

    _, png = rendered()
    img = Image.open(io.BytesIO(png))
    assert img.size == (1100, 800)
    assert img.info["dpi"] == pytest.approx((DPI, DPI), abs=0.01)
    rgb = np.asarray(img.convert("RGB"))
    assert (rgb[..., 0] == rgb[..., 1]).all()
    assert (rgb[..., 1] == rgb[..., 2]).all()
    # a map, not a blank page: black lines, light grays, and white
    assert rgb.min() == 0
    assert (rgb == 255).mean() > 0.3


def test_same_layers_same_bytes() -> None:
    svg1, png1 = rendered()
    svg2, png2 = draw(scene(), title=TITLE)
    assert svg1 == svg2
    assert png1 == png2


def test_no_dates_in_the_files() -> None:
    svg, png = rendered()
    assert b"<dc:date>" not in svg
    assert b"Software" not in png
    assert b"tIME" not in png


def test_shows_what_is_drawn() -> None:
    assert shows(scene()) == [
        "existing_and_proposed_boundaries",
        "area_to_be_affected",
        "zoning_district_boundaries",
        "labeled_streets",
        "municipal_boundaries",
        "notified_parcels",
        "scale_bar",
        "north_arrow",
    ]


def test_shows_leaves_out_what_is_not_in_view() -> None:
    s = scene()
    bare = MapLayers(
        subject=s.subject,
        change_label=s.change_label,
        districts=[(box(-2000, -2000, 2000, 2000), "R-4")],  # one district, no edge in view
        boundaries=[(box(-5000, -5000, 5000, 5000), "City of Newport")],  # edge far away
        streets=[(LineString([(5000, 0), (6000, 0)]), "Far Road")],
    )
    assert shows(bare) == [
        "existing_and_proposed_boundaries",
        "area_to_be_affected",
        "scale_bar",
        "north_arrow",
    ]


def test_labels_stay_clear_of_each_other_and_in_the_frame() -> None:
    from generator.gis.maps import _plan

    plan = _plan(scene(), 5.5, 4.0)
    rects = [label.rect for label in plan.labels]
    for i, a in enumerate(rects):
        assert box(*plan.frame.paper).contains(a), plan.labels[i].text
        for j in range(i):
            assert not a.intersects(rects[j]), (plan.labels[i].text, plan.labels[j].text)
    assert all(label.size >= 7 for label in plan.labels)
    assert all(-90 < label.angle <= 90 for label in plan.labels)  # upright
    oak = next(label for label in plan.labels if label.text == "Oak Avenue")
    assert oak.angle == pytest.approx(90)


def assert_legend_covers_nothing(layers: MapLayers, png: bytes) -> None:
    """The legend and the scale bar lie outside the map frame, so over no parcel, buffer or label;
    and the drawn map agrees: the white gap between the frame and them holds no ink."""
    import numpy as np
    from PIL import Image

    from generator.gis.maps import _plan

    plan = _plan(layers, 5.5, 4.0)
    sheet, frame = box(0, 0, 5.5, 4.0), box(*plan.frame.paper)
    legend, furniture = box(*plan.legend), box(*plan.furniture)
    assert "subject" in [kind for kind, _ in plan.rows]
    drawn = [*layers.parcels, *layers.notified, layers.subject]
    if layers.buffer is not None:
        drawn.append(layers.buffer)
    on_paper = [plan.frame.to_paper(g).intersection(frame) for g in drawn]
    for b in (legend, furniture):
        assert sheet.contains(b)
        assert b.distance(frame) >= 0.05  # outside the frame, with a gap
        assert not any(b.intersects(g) for g in on_paper if not g.is_empty)
        assert not any(b.intersects(label.rect) for label in plan.labels)
    assert not legend.intersects(furniture)
    # Read the PNG back: the strip between the frame and the legend is blank paper.
    gray = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    _, fy0, fx1, _ = plan.frame.paper
    lx0, ly0, lx1, ly1 = plan.legend
    right = lx0 > fx1  # the legend to the right of the frame, else below it
    gap = (fx1 + 0.02, ly0, lx0 - 0.02, ly1) if right else (lx0, ly1 + 0.02, lx1, fy0 - 0.02)
    x0, x1 = (round(v * DPI) for v in (gap[0], gap[2]))
    y0, y1 = (round((4.0 - v) * DPI) for v in (gap[3], gap[1]))
    assert x1 > x0 and y1 > y0
    assert (gray[y0:y1, x0:x1] == 255).all(), gap


def test_the_legend_and_scale_bar_sit_outside_the_map() -> None:
    assert_legend_covers_nothing(scene(), rendered()[1])


@pytest.mark.parametrize(
    "case", ["ok-2027-map-01", "az-2027-map-01", "newport-2027-map-01", "shelby-2027-map-01"]
)
def test_on_the_sample_maps_the_legend_covers_no_parcel_buffer_or_label(case: str) -> None:
    from generator.gis import notice_map
    from generator.prepare import drawn_map, prepare

    prepared = prepare(CASES / f"{case}.yaml")
    the_map = drawn_map(prepared.case_file, prepared.recipients)  # as the packet draws it
    assert the_map is not None and the_map.raster is not None
    layers = notice_map.map_layers(prepared.case_file, prepared.recipients)
    assert layers.parcels and layers.buffer is not None
    assert_legend_covers_nothing(layers, the_map.raster)
    # One title: the caption the documents print beneath the map, not drawn in it.
    words = drawn_words(the_map.data)
    assert the_map.caption and not [w for w in words if the_map.caption in w]
    assert not [w for w in words if w.startswith(prepared.case.municipality + ":")]


def test_extent_and_small_subject_without_buffer() -> None:
    s = scene()
    layers = MapLayers(
        subject=s.subject,
        change_label="R-4 → C-2 General Commercial",
        parcels=s.parcels,
        streets=s.streets,
        extent=(-400, -300, 500, 400),
    )
    svg, _ = draw(layers, title="A title long enough that it has to be set on two lines " * 2)
    words = drawn_words(svg)
    assert "R-4 → C-2 General Commercial" in " ".join(words)  # on one line or two
    assert set(STREETS) <= set(words)
    assert "notified_parcels" not in shows(layers)


def test_empty_subject_is_refused() -> None:
    from shapely.geometry import Polygon

    with pytest.raises(ValueError, match="subject"):
        draw(MapLayers(subject=Polygon(), change_label="R-4 → C-2"), title="x")


def test_importing_the_module_does_not_import_matplotlib() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import generator.gis.maps, sys; print('matplotlib' in sys.modules)",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "False"


def test_invalid_county_polygons_are_mended() -> None:
    from shapely.geometry import Polygon

    s = scene()
    bowtie = Polygon([(130, 130), (230, 230), (230, 130), (130, 230)])  # self-crossing ring
    assert not bowtie.is_valid
    layers = MapLayers(
        subject=s.subject,
        change_label=s.change_label,
        parcels=[*s.parcels, bowtie],
        notified=[*s.notified, bowtie],
        streets=s.streets,
    )
    _, png = draw(layers, title="Mended")
    assert png.startswith(b"\x89PNG")
    assert "notified_parcels" in shows(layers)
