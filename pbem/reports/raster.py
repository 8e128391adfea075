"""The map as a PNG, painted straight from `maps.layout` for mail clients that drop the
inline SVG.

Painting the layout with cairo costs a few milliseconds, where rasterising the SVG cost
about a hundred (the SVG renderer lays out text letter by letter), and a palette PNG is
under a third the size of a full-colour one (about 30 KB), which matters to players
reading mail on a phone. The painter reads every colour, width, dash and font from the
layout's `style`, as the SVG template does, so both pictures show the same map.
"""

from __future__ import annotations

import io
import math
import sys
from functools import cache
from typing import Any

COLOURS = 256
PNG_COMPRESSION = 3  # zlib level: 6 makes a map 14% smaller and takes twice as long to compress
RAW_MODE = "BGRX" if sys.byteorder == "little" else "XRGB"  # cairo's RGB24: one native-endian word a pixel


@cache
def _cairo() -> Any:
    """cairocffi, loaded on first use: loading cairo costs 0.1-0.3 s and most commands draw nothing."""
    import cairocffi

    return cairocffi


def paint_png(picture: dict[str, Any]) -> bytes:
    """The PNG of a map layout (`maps.layout`): cropped to its `crop` box (the reader's
    theatre) when it has one, with the legend under it."""
    cairo = _cairo()
    left, top, right, bottom = picture["crop"] or (0, 0, picture["width"], picture["legend_top"])
    legend = picture["height"] - picture["legend_top"]
    flat = _flat_colours(picture) if picture["background"] else sorted(
        {*_flat_colours(picture), *_style_colours(picture["style"])})
    # one row more, under the picture, for the probes of the flat colours (`_exact_png`)
    width, height = max(round(right - left), len(flat)), round(bottom - top + legend)
    surface = cairo.ImageSurface(cairo.FORMAT_RGB24, width, height + 1)
    context = cairo.Context(surface)
    _fill_with(context, picture["style"]["background"])
    context.paint()
    context.save()
    context.rectangle(0, 0, right - left, bottom - top)
    context.clip()
    context.translate(-left, -top)
    _paint(context, picture)
    context.restore()
    context.translate(0, bottom - top - picture["legend_top"])
    _paint_legend(context, picture)
    context.identity_matrix()
    context.set_antialias(cairo.ANTIALIAS_NONE)
    for column, colour in enumerate(flat):
        context.rectangle(column, height, 1, 1)
        _fill_with(context, colour)
        context.fill()
    surface.flush()
    if picture["background"]:  # a board's art: its colours are not known in advance
        return _palette_png(surface, flat, round(right - left))
    return _fixed_palette_png(surface, picture, flat, round(right - left))


def _paint(context: Any, picture: dict[str, Any]) -> None:
    """The same map as `map.svg.j2`, in the same order: later shapes cover earlier ones
    (the legend and notes are painted by `_paint_legend`)."""
    style = picture["style"]
    _fill_with(context, style["background"])
    context.paint()
    if picture["background"]:
        board = _cairo().ImageSurface.create_from_png(io.BytesIO(picture["background"]["png"]))
        context.set_source_surface(board, 0, 0)
        context.paint()
    kinds = sorted({(link["stroke"], link["dash"]) for link in picture["links"]})
    for stroke, dash in kinds:  # one stroke per kind of link: a path of many lines costs little more than one
        for link in picture["links"]:
            if (link["stroke"], link["dash"]) == (stroke, dash):
                context.move_to(link["x1"], link["y1"])
                context.line_to(link["x2"], link["y2"])
        context.set_line_width(style["link_width"])
        _stroke(context, stroke, dash)
    for leader in picture["leaders"]:
        _line(context, leader, style["leader"]["stroke"], style["leader"]["width"], ())
    for area in picture["areas"]:
        _area(context, area, picture)
    for move in picture["moves"]:
        _line(context, move, style["background"], style["move"]["halo"], ())
        _line(context, move, style["move"]["stroke"], style["move"]["width"], ())
        context.move_to(*move["head"][0])
        for point in move["head"][1:]:
            context.line_to(*point)
        context.close_path()
        _fill_with(context, style["move"]["stroke"])
        context.fill()
    for mark in picture["marks"]:
        context.new_sub_path()
        context.arc(mark["x"], mark["y"], style["mark_radius"], 0, 2 * math.pi)
        _fill_with(context, mark["colour"])
        context.fill_preserve()
        context.set_line_width(1.5)
        _stroke(context, style["background"], ())
    for plate in picture["plates"]:
        context.rectangle(plate["x"], plate["y"], plate["width"], plate["height"])
    context.set_source_rgba(*(channel / 255 for channel in _rgb(style["plate"]["colour"])), style["plate"]["opacity"])
    context.fill()
    for label in picture["labels"]:
        _text(context, label["text"], label["x"], label["y"], label["size"], label["colour"], style,
              italic=label["italic"])


def _paint_legend(context: Any, picture: dict[str, Any]) -> None:
    style = picture["style"]
    for row in picture["legend"]:
        _legend_row(context, row, picture)
    for note in picture["notes"]:
        _text(context, note["text"], style["legend_x"], note["text_y"], picture["legend_font"], style["note_colour"],
              style)


def _line(context: Any, line: dict[str, Any], colour: str, width: float, dash: tuple[float, ...]) -> None:
    context.set_line_width(width)
    context.move_to(line["x1"], line["y1"])
    context.line_to(line["x2"], line["y2"])
    _stroke(context, colour, dash)


def _area(context: Any, area: dict[str, Any], picture: dict[str, Any]) -> None:
    """A sea is a square with rounded corners, a land area a circle, in its fill; a fortress
    is a small square at its lower right, a siege a dashed ring around it."""
    style, radius = picture["style"], picture["radius"]
    if area["sea"]:
        _rounded_square(context, area["x"], area["y"], radius, picture["corner"])
    else:
        context.new_sub_path()
        context.arc(area["x"], area["y"], radius, 0, 2 * math.pi)
    _fill_shape(context, area["fill"], style)
    context.set_line_width(style["outline_width"])
    _stroke(context, area["stroke"], area["dash"])
    if area["besieged"]:
        ring = style["siege_ring"]
        context.new_sub_path()
        context.arc(area["x"], area["y"], radius + ring["gap"], 0, 2 * math.pi)
        context.set_line_width(ring["width"])
        _stroke(context, style["event_colour"]["siege"], ring["dash"])
    if area["fortress"]:
        size = style["fortress"]["size"]
        context.rectangle(area["x"] + radius * 0.5, area["y"] + radius * 0.5, size, size)
        _fill_with(context, style["fortress"]["fill"])
        context.fill()


def _fill_shape(context: Any, fill: dict[str, Any], style: dict[str, Any]) -> None:
    """Fill the current path in a controller's colour, striped like the SVG's pattern
    (white diagonals every `every` pixels) when it is striped; the path stays for its outline."""
    _fill_with(context, fill["colour"])
    context.fill_preserve()
    if not fill["striped"]:
        return
    stripe = style["stripe"]
    context.save()
    context.clip_preserve()
    left, top, right, bottom = context.path_extents()
    context.new_path()
    every = stripe["every"] * math.sqrt(2)  # the pattern's spacing, measured along an axis
    start = left - (bottom - top) - every
    offset = start - (start % every)
    while offset < right + every:
        context.move_to(offset, bottom)
        context.line_to(offset + (bottom - top), top)
        offset += every
    context.set_line_width(stripe["width"])
    _stroke(context, stripe["colour"], ())
    context.restore()


def _rounded_square(context: Any, x: float, y: float, radius: float, corner: float) -> None:
    """The path of SVG's `<rect rx=corner>` of side 2 × radius centred on (x, y)."""
    left, top, right, bottom = x - radius, y - radius, x + radius, y + radius
    context.new_sub_path()
    context.arc(right - corner, top + corner, corner, -math.pi / 2, 0)
    context.arc(right - corner, bottom - corner, corner, 0, math.pi / 2)
    context.arc(left + corner, bottom - corner, corner, math.pi / 2, math.pi)
    context.arc(left + corner, top + corner, corner, math.pi, 3 * math.pi / 2)
    context.close_path()


def _legend_row(context: Any, row: dict[str, Any], picture: dict[str, Any]) -> None:
    style = picture["style"]
    size = style["swatch_size"]
    context.rectangle(style["legend_x"], row["swatch_y"], size, size)
    _fill_shape(context, row["fill"], style)
    context.set_line_width(style["swatch_outline_width"])
    _stroke(context, style["outline"]["land"], ())
    _text(context, row["label"], style["legend_text_x"], row["text_y"], picture["legend_font"], style["name_colour"],
          style)


def _text(context: Any, text: str, x: float, baseline: float, size: float, colour: str, style: dict[str, Any], *,
          italic: bool = False) -> None:
    """Text on its baseline from x. Cairo's simple font API takes one family: the first of
    the style's, which fontconfig replaces by a like font when it is not installed."""
    cairo = _cairo()
    context.select_font_face(style["font_families"][0], cairo.FONT_SLANT_ITALIC if italic else cairo.FONT_SLANT_NORMAL,
                             cairo.FONT_WEIGHT_NORMAL)
    context.set_font_size(size)
    context.move_to(x, baseline)
    _fill_with(context, colour)
    context.show_text(text)
    context.new_path()


def _stroke(context: Any, colour: str, dash: tuple[float, ...]) -> None:
    _fill_with(context, colour)
    context.set_dash(list(dash))
    context.stroke()


def _fill_with(context: Any, colour: str) -> None:
    context.set_source_rgb(*(channel / 255 for channel in _rgb(colour)))


def _rgb(colour: str) -> tuple[int, int, int]:
    """`#rrggbb` as three bytes."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _flat_colours(picture: dict[str, Any]) -> list[str]:
    """The colours the map fills shapes with: the background, each area's fill, the legend's
    swatches, the moves' arrows and the events' marks."""
    style = picture["style"]
    return sorted({style["background"], *(area["fill"]["colour"] for area in picture["areas"]),
                   *(row["fill"]["colour"] for row in picture["legend"]),
                   *([style["move"]["stroke"]] if picture["moves"] else []),
                   *(mark["colour"] for mark in picture["marks"])})


def _style_colours(value: Any) -> set[str]:
    """Every `#rrggbb` colour the style names, however deep."""
    if isinstance(value, str):
        return {value} if value.startswith("#") and len(value) == 7 else set()
    if isinstance(value, dict):
        return set().union(*map(_style_colours, value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*map(_style_colours, value)) if value else set()
    return set()


def _fixed_palette_png(surface: Any, picture: dict[str, Any], flat: list[str], width: int) -> bytes:
    """A palette PNG of a map drawn in known colours: a palette of every flat colour of the
    picture and the style, each blended with the background and with white (for the
    anti-aliased edges and letters), and a grey ramp. Mapping each pixel to a given palette
    costs a tenth of choosing a palette adaptively. The mapping looks colours up at a
    reduced precision, so, as in `_palette_png`, a probe row of the flat colours is mapped
    with the picture and the entry each probe got is set to its colour exactly."""
    from PIL import Image  # imported late, as cairo is

    entries = [_rgb(colour) for colour in flat]
    for towards in (_rgb(picture["style"]["background"]), (255, 255, 255)):
        for colour in list(entries[:len(flat)]):
            for share in (1, 2, 3):
                entries.append(tuple((c * (4 - share) + t * share) // 4 for c, t in zip(colour, towards)))
    entries += [(level, level, level) for level in range(0, 256, 8)]
    palette: list[tuple[int, int, int]] = []
    for entry in entries:
        if entry not in palette and len(palette) < COLOURS:
            palette.append(entry)
    chooser = Image.new("P", (1, 1))
    chooser.putpalette([channel for entry in palette for channel in entry])
    mapped = _image(surface).quantize(palette=chooser, dither=Image.Dither.NONE)
    return _exact_png(mapped, flat, width)


def _image(surface: Any) -> Any:
    """The painted surface (its last row the probes of the flat colours) as a PIL image."""
    from PIL import Image

    return Image.frombuffer("RGB", (surface.get_width(), surface.get_height()), surface.get_data(), "raw",
                            RAW_MODE, surface.get_stride(), 1)


def _exact_png(quantised: Any, flat_colours: list[str], width: int) -> bytes:
    """The quantised picture with each probe's entry set to its flat colour, the probe row
    (and any column added for it) cut off."""
    height = quantised.height - 1
    palette = quantised.getpalette()
    for column, colour in enumerate(flat_colours):
        entry = quantised.getpixel((column, height))
        palette[3 * entry:3 * entry + 3] = _rgb(colour)
    quantised.putpalette(palette)
    png = io.BytesIO()
    quantised.crop((0, 0, width, height)).save(png, "PNG", compress_level=PNG_COMPRESSION)
    return png.getvalue()


def _palette_png(surface: Any, flat_colours: list[str], width: int) -> bytes:
    """A palette PNG of the painted surface, every flat colour exact.

    An adaptive quantiser gives each palette entry the average of the colours it stands
    for, so a fill would come out a shade off its controller's colour, next to the
    anti-aliased edges and letters that share its entry. Every pixel of one colour gets
    the same entry, though: a probe row holding the flat colours is quantised under the
    picture, the entry each probe got is set to its colour exactly, and the row is cut
    off. pbem's colours are far enough apart that each keeps an entry of its own (a test
    checks it). Fast octree: median cut takes nine times as long for no visible gain.
    """
    from PIL import Image  # imported late, as cairo is

    quantised = _image(surface).quantize(COLOURS, method=Image.Quantize.FASTOCTREE)
    return _exact_png(quantised, flat_colours, width)
