import io

import pytest
from PIL import Image

from pbem.reports.maps import draw_map, draw_scenario_map, layout, scalable, svg_to_png
from pbem.reports.models import ReportError, game_map

MAP = {"areas": [{"id": "a", "name": "A & <B>", "x": 0, "y": 0, "controller": "X", "units": ["u1"]},
                 {"id": "s", "name": "Sea", "x": 10, "y": 5, "kind": "sea", "synthetic": True},
                 {"id": "nowhere"}],
       "links": [{"a": "a", "b": "s", "kind": "sea"}, {"a": "a", "b": "ghost"}]}


def test_draws_escaped_svg_with_legend_and_png():
    svg = draw_map(MAP, {"X": "Xland"})
    assert svg.startswith("<svg") and "A &amp; &lt;B&gt;" in svg
    assert "Xland (X)" in svg and "synthetic" in svg and "1 area(s) have no position" in svg
    assert svg.count("<line") == 1  # the link to an unknown area is not drawn
    assert svg_to_png(svg).startswith(b"\x89PNG")
    assert draw_scenario_map(MAP) == draw_map(MAP)


def test_png_shows_what_the_svg_draws():
    """The PNG is for mail clients that block the inline SVG: each area is there, in its
    controller's colour (the HTML's scalable SVG once made cairo draw a blank picture)."""
    picture = layout(game_map(MAP), {"X": "Xland"})
    png = Image.open(io.BytesIO(svg_to_png(draw_map(MAP, {"X": "Xland"})))).convert("RGB")
    assert png.size == (picture["width"], round(picture["height"]))
    for area in picture["areas"]:
        fill = tuple(int(area["fill"][i:i + 2], 16) for i in (1, 3, 5))
        assert png.getpixel((round(area["x"]), round(area["y"]))) == fill, area["id"]
    assert "max-width" in scalable(draw_map(MAP)) and "max-width" not in draw_map(MAP)


def test_bad_map_is_one_clear_error():
    with pytest.raises(ReportError, match="areas.0.x"):
        draw_map({"areas": [{"id": "a", "x": "far"}]})
    with pytest.raises(ReportError, match="no map"):
        draw_map({})
