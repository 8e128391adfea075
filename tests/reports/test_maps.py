import io

import pytest
from PIL import Image

from pbem.reports.maps import (NEUTRAL, PALETTE, SEA, STYLE, UNIT_CHARS, draw_map, drawing, layout,
                               scalable)
from pbem.reports.models import ReportError, game_map
from pbem.reports.raster import paint_png

MAP = {"areas": [{"id": "a", "name": "A & <B>", "x": 0, "y": 0, "controller": "X", "units": ["u1"]},
                 {"id": "s", "name": "Sea", "x": 10, "y": 5, "kind": "sea", "synthetic": True},
                 {"id": "nowhere"}],
       "links": [{"a": "a", "b": "s", "kind": "sea"}, {"a": "a", "b": "ghost"}]}


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def picture_of(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png))


def test_draws_escaped_svg_with_legend_and_png():
    svg = draw_map(MAP, {"X": "Xland"})
    assert svg.startswith("<svg") and "A &amp; &lt;B&gt;" in svg
    assert "Xland (X)" in svg and "synthetic" in svg and "1 area(s) have no position" in svg
    assert svg.count("<line") == 1  # the link to an unknown area is not drawn
    assert 'stroke-dasharray="5 4"' in svg and 'stroke-dasharray="3 2"' in svg  # a sea link, a synthetic area
    assert drawing(MAP, {"X": "Xland"}).png().startswith(b"\x89PNG")
    assert drawing(MAP, {"X": "Xland"}).png() != drawing(MAP).png()  # the legend's names are painted too


def test_png_shows_what_the_svg_draws():
    """The PNG is for mail clients that block the inline SVG: each area is there, in its
    controller's colour exactly, and named under it."""
    picture = layout(game_map(MAP), {"X": "Xland"})
    png = picture_of(drawing(MAP, {"X": "Xland"}).png()).convert("RGB")
    assert png.size == (picture["width"], round(picture["height"]))
    for area in picture["areas"]:
        assert png.getpixel((round(area["x"]), round(area["y"]))) == rgb(area["fill"]["colour"]), area["id"]
    for label in picture["labels"]:
        name_row = [png.getpixel((x, round(label["y"]) - 3)) for x in range(round(label["x"]), round(label["x"]) + 10)]
        assert any(pixel != rgb(STYLE["background"]) for pixel in name_row), label["text"]
    assert "max-width" in scalable(draw_map(MAP)) and "max-width" not in draw_map(MAP)


def test_png_paints_everything_the_layout_holds_as_a_palette_picture():
    """Long unit lists, a legend of every colour, both notes, and areas without a position:
    all painted into a palette PNG, where every fill keeps its exact colour."""
    areas = [{"id": f"a{i}", "x": i % 5, "y": i // 5, "controller": f"P{i:02}", "synthetic": i % 2 == 0,
              "kind": "sea" if i % 3 == 0 else "land", "units": [f"Regiment {j}" for j in range(8)]}
             for i in range(len(PALETTE))]
    gmap = {"areas": areas + [{"id": "lost"}], "links": [{"a": "a0", "b": "a1", "kind": "sea"}]}
    picture = layout(game_map(gmap))
    assert len(picture["legend"]) == len(PALETTE) and len(picture["notes"]) == 2
    assert all(len(label["text"]) == UNIT_CHARS for label in picture["labels"] if label["italic"])
    png = picture_of(paint_png(picture))
    assert png.mode == "P" and png.size == (picture["width"], round(picture["height"]))
    colours = {colour for _, colour in png.convert("RGB").getcolors(1 << 16)}
    assert {rgb(c) for c in PALETTE} | {rgb(STYLE["background"])} <= colours


def test_every_colour_of_the_style_keeps_an_entry_of_its_own():
    """A palette PNG is exact for the flat colours only while no two of them share a
    palette entry: a picture made of all of them, side by side, comes back unchanged."""
    flat = set(PALETTE) | {SEA, NEUTRAL, STYLE["background"]}
    all_colours = {"areas": [{"id": f"a{i}", "x": i, "y": 0, "controller": f"P{i:02}"} for i in range(len(PALETTE))]
               + [{"id": "sea", "x": 0, "y": 1, "kind": "sea"}, {"id": "land", "x": 1, "y": 1}]}
    picture = layout(game_map(all_colours))
    assert {area["fill"]["colour"] for area in picture["areas"]} | {STYLE["background"]} == flat
    png = picture_of(paint_png(picture)).convert("RGB")
    for area in picture["areas"]:
        if not area["fill"]["striped"]:
            assert png.getpixel((round(area["x"]), round(area["y"]))) == rgb(area["fill"]["colour"]), area["id"]
    assert png.getpixel((0, 0)) == rgb(STYLE["background"])


def test_map_without_positions_is_a_note_in_both_drawings():
    empty = {"areas": [{"id": "a"}]}
    assert "no area of this map has a position" in draw_map(empty)
    png = picture_of(drawing(empty).png()).convert("RGB")
    assert png.size == (layout(game_map(empty))["width"], 60)
    assert len(png.getcolors(1 << 16)) > 1  # the note is written


def test_bad_map_is_one_clear_error():
    with pytest.raises(ReportError, match="areas.0.x"):
        draw_map({"areas": [{"id": "a", "x": "far"}]})
    with pytest.raises(ReportError, match="no map"):
        draw_map({})
    with pytest.raises(ReportError, match="no map"):
        drawing({}).png()


def test_the_turn_is_drawn_moves_as_arrows_and_battles_with_their_results():
    """A unit that went from one area to another is an arrow ending at the second area's
    edge; a battle is marked on its area with who beat whom, in both pictures."""
    from pbem.core.view import GameMap
    from pbem.reports.models import moves_between

    before = game_map({"areas": [{"id": "a", "x": 0, "y": 0, "units": ["T1", "F1"]}, {"id": "b", "x": 10, "y": 0}]})
    now = game_map({"areas": [{"id": "a", "x": 0, "y": 0, "units": ["F1"]}, {"id": "b", "x": 10, "y": 0,
                                                                            "units": ["T1"]}]})
    moves = moves_between(before, now)
    assert [(m.a, m.b, m.units) for m in moves] == [("a", "b", ["T1"])]
    turn = GameMap.model_validate({**now.model_dump(), "moves": [m.model_dump() for m in moves],
                                   "events": [{"area": "b", "kind": "battle", "result": "FRA beats SPA"}]})
    picture = layout(turn)
    (arrow,) = picture["moves"]
    a, b = picture["areas"]
    assert arrow["head"][0] == (b["x"] - picture["radius"] - 2, b["y"])  # the tip at b's edge
    assert arrow["x1"] == a["x"] + picture["radius"] + 2
    assert "Battle: FRA beats SPA" in [label["text"] for label in picture["labels"]]
    png = picture_of(paint_png(picture)).convert("RGB")
    middle = (round((arrow["x1"] + arrow["x2"]) / 2), round(arrow["y1"]))
    assert png.getpixel(middle) == rgb(STYLE["move"]["stroke"])
    assert png.getpixel((round(picture["marks"][0]["x"]), round(picture["marks"][0]["y"]))) == \
        rgb(STYLE["event_colour"]["battle"])
    assert "Battle: FRA beats SPA" in draw_map(turn.model_dump())


def test_the_mailed_picture_is_cropped_to_the_readers_theatre():
    """With a focus (the reader's theatre), the PNG shows those areas and not a far one;
    the fortress and the siege are drawn and named in the key."""
    areas = [{"id": f"a{i}", "name": f"Area {i}", "x": i * 10, "y": (i % 3) * 10, "controller": "X" if i < 3 else "Y",
              "fortress": i == 1, "besieged_by": "Y" if i == 1 else None} for i in range(12)]
    gmap = game_map({"areas": areas, "focus": ["a0", "a1", "a2"]})
    picture = layout(gmap)
    left, top, right, bottom = picture["crop"]
    a0, a11 = picture["areas"][0], picture["areas"][11]
    assert left <= a0["x"] <= right and not left <= a11["x"] <= right
    png = picture_of(paint_png(picture))
    assert png.size == (round(right - left), round(bottom - top + picture["height"] - picture["legend_top"]))
    rgbpng = png.convert("RGB")
    assert rgbpng.getpixel((round(a0["x"] - left), round(a0["y"] - top))) == rgb(a0["fill"]["colour"])
    assert any("fortress" in note["text"] and "besieged" in note["text"] for note in picture["notes"])
    whole = layout(game_map({"areas": areas}))
    assert whole["crop"] is None and picture_of(paint_png(whole)).size == (whole["width"], round(whole["height"]))
