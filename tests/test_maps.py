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
    assert any(line.startswith("Proposed change of zoning") for line in words)


def test_scale_bar_has_a_round_length_in_feet() -> None:
    from generator.gis.maps import _plan

    svg, _ = rendered()
    words = drawn_words(svg)
    plan = _plan(scene(), TITLE, 5.5, 4.0)
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
    kinds = [kind for kind, _ in _plan(far, "", 5.5, 4.0).rows]
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


def test_labels_stay_clear_of_each_other_and_the_legend() -> None:
    from generator.gis.maps import _plan

    plan = _plan(scene(), TITLE, 5.5, 4.0)
    rects = [label.rect for label in plan.labels]
    for i, a in enumerate(rects):
        assert box(*plan.frame.paper).contains(a), plan.labels[i].text
        assert not a.intersects(box(*plan.legend)), plan.labels[i].text
        assert not a.intersects(box(*plan.furniture)), plan.labels[i].text
        for j in range(i):
            assert a.intersection(rects[j]).area < 0.02 * a.area, (
                plan.labels[i].text,
                plan.labels[j].text,
            )
    subject = plan.frame.to_paper(scene().subject)
    assert not box(*plan.legend).intersects(subject)
    assert not box(*plan.furniture).intersects(subject)
    assert all(label.size >= 7 for label in plan.labels)
    assert all(-90 < label.angle <= 90 for label in plan.labels)  # upright
    oak = next(label for label in plan.labels if label.text == "Oak Avenue")
    assert oak.angle == pytest.approx(90)


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
