"""Maps: a picture of a view's `map` (areas at x/y, links, seas, control, units), drawn as
SVG inline in the HTML report and painted as PNG for mail clients that drop inline SVG.

`layout` computes everything the picture shows: positions, sizes, colours, the legend's
rows, and the drawing style (`STYLE`: stroke colours and widths, dashes, text colours,
fonts). Two drawers read it and add nothing of their own: the template `map.svg.j2` for
the HTML report, and `raster.paint_png` for the `map.png` attachment, so the two pictures
cannot drift apart. The map is pbem's drawing for every campaign: a `map.svg.j2` in a
campaign's own templates is not used, and the PNG would not follow it anyway. Autoescape
keeps a unit or area name from breaking the SVG. Colours are assigned to controllers in
sorted order so the same campaign always draws the same way.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from pbem.core.view import GameMap, MapArea, by_identity
from pbem.reports.models import ReportError, game_map
from pbem.reports.raster import paint_png
from pbem.reports.templating import environment, render

WIDTH = 760
PAD = 36
PAD_X = 64  # half the width of a long area name
MAX_HEIGHT = 640
LEGEND_ROW = 18
PALETTE = ("#d1495b", "#2e86ab", "#edae49", "#66a182", "#8e6c8a", "#e07a5f", "#3d5a80", "#a5a58d",
           "#f4a259", "#5b8e7d", "#bc4b51", "#8cb369")
SEA = "#cfe3f5"
NEUTRAL = "#eeeeee"
UNIT_CHARS = 28
SEA_CORNER_DIVISOR = 3  # a sea is a square whose corners are rounded by a third of its radius
SYNTHETIC_NOTE = "Dashed outline: invented (synthetic) data, not from the published game."

STYLE: dict[str, Any] = {
    # the first family that is installed is used; the PNG asks fontconfig for the first one
    "font_families": ("DejaVu Sans", "Verdana", "sans-serif"),
    "background": "#fbfaf6",
    "link": {"land": {"stroke": "#9a9a9a", "dash": ()}, "sea": {"stroke": "#6f9fc8", "dash": (5, 4)}},
    "link_width": 1.5,
    # legend swatches are outlined like land areas
    "outline": {"land": "#333333", "sea": "#4a7aa8"},
    "outline_width": 1.2,
    "swatch_outline_width": 1,
    "synthetic_dash": (3, 2),
    "name_colour": "#111111",
    "units_colour": "#444444",
    "units_italic": True,
    "units_smaller_by": 1,  # a point smaller than the area's name
    "note_colour": "#555555",
    "legend_font": 12,
    "note_font": 11,
    "legend_x": 16,
    "legend_text_x": 34,
    "swatch_size": 12,
    "swatch_top": 4,  # from the top of a legend row
    "legend_baseline": 14,  # from the top of a legend row
}
"""How the map is drawn, read by both the SVG template and the PNG painter."""


def layout(gmap: GameMap, powers: dict[str, str] | None = None) -> dict[str, Any]:
    """Pixel positions, sizes, colours and the style for every placed area and link, the
    legend and the notes under the map. An area's name and units are centred on its x,
    on the baselines `label_y` and `units_y`."""
    placed = [a for a in gmap.areas if a.x is not None and a.y is not None]
    unplaced = len(gmap.areas) - len(placed)
    if not placed:
        return {"width": WIDTH, "height": 60, "areas": [], "links": [], "font": 12, "style": STYLE,
                **_legend(0, [], ["no area of this map has a position"])}
    xs, ys = [a.x for a in placed], [a.y for a in placed]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, (max(ys) - min(ys)) or 1.0
    scale = min((WIDTH - 2 * PAD_X) / span_x, (MAX_HEIGHT - 2 * PAD) / span_y)
    points = {a.id: (PAD_X + (a.x - min(xs)) * scale, PAD + (a.y - min(ys)) * scale) for a in placed}
    radius = max(7.0, min(20.0, 0.35 * _nearest(list(points.values()))))
    font = round(max(9.0, min(13.0, radius * 0.7)), 1)
    controllers = sorted({a.controller for a in placed if a.controller})
    colour = {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(controllers)}
    # room under the lowest area for its name and units
    map_height = PAD + (span_y * scale if len(set(ys)) > 1 else 0) + radius + 2.5 * font + 8
    areas = [_area(a, points[a.id], radius, font, colour, powers or {}) for a in placed]
    links = [_link(link.kind, points[link.a], points[link.b])
             for link in gmap.links if link.a in points and link.b in points]
    legend = [(colour[c], _controller(c, powers or {})) for c in controllers]
    notes = ([SYNTHETIC_NOTE] if any(a.synthetic for a in placed) else []) + (
        [f"{unplaced} area(s) have no position and are not drawn"] if unplaced else [])
    rows = len(legend) + len(notes)
    return {
        "width": WIDTH, "height": _r(map_height + rows * LEGEND_ROW + (8 if rows else 0)),
        "areas": areas, "links": links, "font": font, "units_font": font - STYLE["units_smaller_by"],
        "radius": _r(radius), "corner": _r(radius) / SEA_CORNER_DIVISOR, "style": STYLE,
        **_legend(_r(map_height), legend, notes),
    }


def _link(kind: str, a: tuple[float, float], b: tuple[float, float]) -> dict[str, Any]:
    sea = "sea" in kind.lower()
    return {"x1": _r(a[0]), "y1": _r(a[1]), "x2": _r(b[0]), "y2": _r(b[1]), "sea": sea, "kind": kind,
            **STYLE["link"]["sea" if sea else "land"]}


def _legend(top: float, legend: list[tuple[str, str]], notes: list[str]) -> dict[str, Any]:
    """One row per controller (a swatch of its colour and its name), then one per note, from
    `top` down; `swatch_y` is a swatch's top, `text_y` the baseline of the row's text."""
    tops = [_r(top + row * LEGEND_ROW) for row in range(len(legend) + len(notes))]
    return {
        "legend": [{"colour": colour, "label": label, "swatch_y": y + STYLE["swatch_top"],
                    "text_y": y + STYLE["legend_baseline"]} for (colour, label), y in zip(legend, tops)],
        "notes": [{"text": note, "text_y": y + STYLE["legend_baseline"]}
                  for note, y in zip(notes, tops[len(legend):])],
    }


def _area(area: MapArea, point: tuple[float, float], radius: float, font: float, colour: dict[str, str],
          powers: dict[str, str]) -> dict[str, Any]:
    units = ", ".join(area.units)
    sea = area.kind == "sea"
    owner = _controller(area.controller, powers) if area.controller else ""
    title = " — ".join(p for p in (area.name or area.id, owner, units) if p)
    return {
        "id": area.id, "name": area.name or area.id, "x": _r(point[0]), "y": _r(point[1]), "sea": sea,
        "fill": colour.get(area.controller or "", SEA if sea else NEUTRAL),
        "stroke": STYLE["outline"]["sea" if sea else "land"],
        "dash": STYLE["synthetic_dash"] if area.synthetic else (), "title": title,
        "units": units if len(units) <= UNIT_CHARS else units[: UNIT_CHARS - 1] + "…",
        "label_y": _r(point[1] + radius + font), "units_y": _r(point[1] + radius + 2 * font),
    }


def _controller(code: str, powers: dict[str, str]) -> str:
    name = powers.get(code)
    return f"{name} ({code})" if name and name != code else code


def _nearest(points: list[tuple[float, float]]) -> float:
    """The smallest distance between two areas (sets the node size so they never overlap)."""
    if len(points) < 2:
        return 60.0
    ordered = sorted(points)
    best = math.inf
    for i, (x1, y1) in enumerate(ordered):
        for x2, y2 in ordered[i + 1:]:
            if x2 - x1 >= best:
                break
            best = min(best, math.hypot(x2 - x1, y2 - y1))
    return best or 60.0


def _r(value: float) -> float:
    return round(value, 1)


@dataclass(frozen=True)
class MapDrawing:
    """A map and its legend's names as the content its pictures are cached by: the
    players of a step, and most steps of a turn, share a map."""

    map_json: str
    powers_json: str

    def svg(self) -> str:
        return _draw(self.map_json, self.powers_json)

    def png(self) -> bytes:
        """The `map.png` attachment of a report: the same picture as the SVG."""
        return _paint(self.map_json, self.powers_json)


def drawing(gmap: GameMap | dict, powers: dict[str, str] | None = None) -> MapDrawing:
    """A map (a view's `map` dict or a validated `GameMap`) to draw; `powers` maps a
    controller code to the name the legend shows."""
    model = gmap if isinstance(gmap, GameMap) else game_map(gmap)
    if model is None:
        raise ReportError("there is no map to draw")
    return MapDrawing(_content(model), json.dumps(powers or {}, sort_keys=True))


@by_identity
def _content(model: GameMap) -> str:
    return model.model_dump_json()


def draw_map(gmap: GameMap | dict, powers: dict[str, str] | None = None) -> str:
    """The SVG of a map."""
    return drawing(gmap, powers).svg()


def _layout(map_json: str, powers_json: str) -> dict[str, Any]:
    return layout(GameMap.model_validate_json(map_json), json.loads(powers_json))


@lru_cache(maxsize=64)
def _draw(map_json: str, powers_json: str) -> str:
    return render(environment(), "map.svg.j2", _layout(map_json, powers_json))


@lru_cache(maxsize=64)
def _paint(map_json: str, powers_json: str) -> bytes:
    return paint_png(_layout(map_json, powers_json))


def scalable(svg: str) -> str:
    """The map as the HTML page shows it: shrunk to a narrow screen. Only there: SVG tools
    such as cairo read this CSS as a zero size and draw a blank picture, so the file
    `pbem scenario check --draw` writes goes without it."""
    return svg.replace("<svg ", '<svg style="max-width: 100%; height: auto; display: block;" ', 1)
