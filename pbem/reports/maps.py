"""Maps: an SVG drawn from a view's `map` (areas at x/y, links, seas, control, units),
and the same picture as PNG for mail clients that drop inline SVG.

The geometry (scale, node size, colours) is computed here; the drawing itself is the
template `map.svg.j2`, so a ruleset or a campaign can restyle it like any report
template, and autoescape keeps a unit or area name from breaking the SVG. Colours are
assigned to controllers in sorted order so the same campaign always draws the same way.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from typing import Any

from pbem.reports.models import GameMap, MapArea, ReportError, game_map
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


def layout(gmap: GameMap, powers: dict[str, str] | None = None) -> dict[str, Any]:
    """Pixel positions, sizes and colours for every placed area and link, and a legend."""
    placed = [a for a in gmap.areas if a.x is not None and a.y is not None]
    unplaced = len(gmap.areas) - len(placed)
    if not placed:
        return {"width": WIDTH, "height": 60, "areas": [], "links": [], "legend": [], "font": 12,
                "note": "no area of this map has a position", "synthetic": False}
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
    links = [{"x1": _r(points[link.a][0]), "y1": _r(points[link.a][1]), "x2": _r(points[link.b][0]),
              "y2": _r(points[link.b][1]), "sea": "sea" in link.kind.lower(), "kind": link.kind}
             for link in gmap.links if link.a in points and link.b in points]
    legend = [{"colour": colour[c], "label": _controller(c, powers or {})} for c in controllers]
    synthetic = any(a.synthetic for a in placed)
    rows = len(legend) + (1 if synthetic else 0) + (1 if unplaced else 0)
    return {
        "width": WIDTH, "height": _r(map_height + rows * LEGEND_ROW + (8 if rows else 0)),
        "legend_top": _r(map_height), "areas": areas, "links": links, "legend": legend, "font": font,
        "radius": _r(radius), "synthetic": synthetic,
        "note": f"{unplaced} area(s) have no position and are not drawn" if unplaced else "",
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
        "synthetic": area.synthetic, "title": title,
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


def draw_map(gmap: GameMap | dict, powers: dict[str, str] | None = None) -> str:
    """The SVG of a map (a view's `map` dict or a validated `GameMap`); `powers` maps a
    controller code to the name the legend shows."""
    model = gmap if isinstance(gmap, GameMap) else game_map(gmap)
    if model is None:
        raise ReportError("there is no map to draw")
    return _draw(model.model_dump_json(), json.dumps(powers or {}, sort_keys=True))


@lru_cache(maxsize=64)
def _draw(map_json: str, powers_json: str) -> str:
    """Drawing keyed by content: the players of a step, and most steps of a turn, share a map."""
    return render(environment(), "map.svg.j2", layout(GameMap.model_validate_json(map_json), json.loads(powers_json)))


def scalable(svg: str) -> str:
    """The map as the HTML page shows it: shrunk to a narrow screen. Only there: cairo reads
    this CSS as a zero size and would draw a blank PNG."""
    return svg.replace("<svg ", '<svg style="max-width: 100%; height: auto; display: block;" ', 1)


def draw_scenario_map(view_map: dict) -> str:
    """For `pbem scenario check --draw`: the same drawing as the reports use."""
    return draw_map(view_map)


@lru_cache(maxsize=64)
def svg_to_png(svg: str) -> bytes:
    """The PNG of an SVG (cached: every player of a step usually sees the same map)."""
    import cairosvg  # imported late: loading cairo costs 0.1-0.3 s and most commands draw nothing

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"))
