"""Maps: a picture of a view's `map` (areas at x/y, links, seas, control, units) with the
turn a report tells drawn on it (moves as arrows, battles and sieges with their results),
as SVG inline in the HTML report and painted as PNG for mail clients that drop inline SVG.

`layout` computes everything the picture shows: positions, sizes, colours, patterns, where
each label goes, the legend's rows, and the drawing style (`STYLE`). Two drawers read it and
add nothing of their own: the template `map.svg.j2` for the HTML report, and
`raster.paint_png` for the `map.png` attachment, so the two pictures cannot drift apart.
The map is pbem's drawing for every campaign: a `map.svg.j2` in a campaign's own templates
is not used. Autoescape keeps a unit or area name from breaking the SVG. Colours are
assigned to controllers in sorted order so the same campaign always draws the same way.

Legibility: the areas fill the frame's width (each axis scaled on its own, within bounds),
every label is placed where it covers no other label and no area, and no text is smaller
than `SMALL_FONT`; the HTML page never shows the map narrower than `MIN_SHOWN` pixels (it
scrolls and zooms instead), so on a 390-px phone every label is at least `LEGIBLE_PX` tall.
"""

from __future__ import annotations

import base64
import io
import json
import math
from dataclasses import dataclass
from pathlib import Path
from functools import lru_cache
from typing import Any

from pbem.core.view import GameMap, MapArea, by_identity
from pbem.reports.boards import Board, BoardError, board_image, load_board
from pbem.reports.models import ReportError, game_map
from pbem.reports.raster import paint_png
from pbem.reports.templating import environment, render

WIDTH = 760
PAD = 30
PAD_X = 80  # room for a name beside an area at the frame's edge
LEGIBLE_PX = 11  # the smallest text a phone reader should get, in CSS pixels
PHONE_PX = 390  # a phone's screen width in CSS pixels
NAME_FONT = 14
SMALL_FONT = 13  # units, battles, the legend and notes: the smallest text on the map
MIN_SHOWN = math.ceil(WIDTH * LEGIBLE_PX / SMALL_FONT)  # narrower than this, the HTML map scrolls instead
LINE = 1.2  # a text line's height, in ems: DejaVu Sans's ascent and descent are 0.93 and 0.24
ASCENT = 0.95
LEGEND_ROW = 20
# Okabe and Ito's palette, told apart with every kind of colour blindness; from the eighth
# controller on the colours come again, striped where they were plain and plain where striped
PALETTE = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7")
SEA = "#cfe3f5"
NEUTRAL = "#eeeeee"
UNIT_CHARS = 28
BOARD_RADIUS = 9.0  # an area's disc on a board's image
BOARD_MARGIN = 60  # image pixels kept around the reader's theatre
SEA_CORNER_DIVISOR = 3  # a sea is a square whose corners are rounded by a third of its radius
SYNTHETIC_NOTE = "Dashed outline: invented (synthetic) data, not from the published game."
EVENT_WORDS = {"battle": "Battle", "siege": "Siege"}
# advance widths of DejaVu Sans in ems, for the letters that are far from the average
_NARROW = dict.fromkeys("iljI.,:;'|!", 0.28) | dict.fromkeys("ftr ()[]-", 0.40)
_WIDE = dict.fromkeys("mwMW", 1.0) | dict.fromkeys("ABCDGHKNOQRUVXYZ&", 0.78)
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
    "stripe": {"colour": "#ffffff", "width": 2, "every": 6},  # a striped fill's white diagonals
    "name_colour": "#111111",
    "units_colour": "#444444",
    "event_colour": {"battle": "#b2182b", "siege": "#5e3c99"},
    "plate": {"colour": "#fbfaf6", "opacity": 0.8},  # under each label, so links crossing it do not hide its text
    "leader": {"stroke": "#777777", "width": 0.8},  # from an area to its name set further off
    "move": {"stroke": "#222222", "width": 2.5, "halo": 5, "head": 10},
    "mark_radius": 6,
    "fortress": {"fill": "#333333", "size": 7},  # a small square at an area's lower right
    "siege_ring": {"gap": 4, "width": 2, "dash": (4, 3)},  # around a besieged area, in the siege colour
    "note_colour": "#555555",
    "legend_x": 16,
    "legend_text_x": 36,
    "swatch_size": 14,
    "swatch_top": 3,  # from the top of a legend row
    "legend_baseline": 15,  # from the top of a legend row
}
"""How the map is drawn, read by both the SVG template and the PNG painter."""


def layout(gmap: GameMap, powers: dict[str, str] | None = None, board: Board | None = None,
           board_dir: str = "") -> dict[str, Any]:
    """Pixel positions, sizes, colours and the style for every placed area and link, the
    turn's moves and events, every label (a text line at its baseline, drawn from its x),
    the legend and the notes under the map. With a `board` (the GM's VASSAL board, in
    `board_dir`) the areas stand where the board has them, on its image cropped to the
    reader's theatre; the image names the areas, so the labels tell units and events only."""
    if board is not None:
        placed = [a for a in gmap.areas if a.id in board.places]
        points, background, unplaced = _on_board(board, board_dir, placed, gmap.focus) if placed else ({}, None, 0)
        placed = [a for a in placed if a.id in points]
        radius = BOARD_RADIUS
    else:
        placed = [a for a in gmap.areas if a.x is not None and a.y is not None]
        points, background, unplaced = _frame(placed) if placed else {}, None, len(gmap.areas) - len(placed)
        radius = max(6.0, min(12.0, 0.28 * _nearest(list(points.values())))) if placed else 0.0
    if not placed:
        return {"width": WIDTH, "height": 60, "areas": [], "links": [], "moves": [], "labels": [], "leaders": [],
                "plates": [],
                "marks": [], "patterns": [], "style": STYLE, "min_shown": MIN_SHOWN, "crop": None, "legend_top": 0,
                "background": None, **_legend(0, [], ["no area of this map has a position"])}
    controllers = sorted({a.controller for a in placed if a.controller})
    fills = {c: _fill(i) for i, c in enumerate(controllers)}
    areas = [_area(a, points[a.id], fills, powers or {}) for a in placed]
    links = [] if board is not None else [_link(link.kind, points[link.a], points[link.b])
                                          for link in gmap.links if link.a in points and link.b in points]
    moves = [_arrow(points[m.a], points[m.b], radius) for m in gmap.moves if m.a in points and m.b in points]
    events: dict[str, list[tuple[str, str]]] = {}
    for event in gmap.events:
        if event.area in points and (event.kind, event.result) not in events.get(event.area, []):
            events.setdefault(event.area, []).append((event.kind, event.result))
    marks = [{"x": _r(points[area][0] + radius * 0.8), "y": _r(points[area][1] - radius * 0.8),
              "colour": _event_colour(happened[0][0])} for area, happened in sorted(events.items())]
    labels, leaders, plates, bottom = _place_labels(placed, points, radius, events, [_along(m) for m in moves],
                                            named=board is None)
    map_height = max(bottom, max(y for _, y in points.values()) + radius) + PAD / 2
    if background is not None:
        map_height = max(map_height, background["height"])
    legend = [(fills[c], _controller(c, powers or {})) for c in controllers]
    notes = ([_key(moves, marks, placed)] if moves or marks or any(a.fortress or a.besieged_by for a in placed)
             else []) + ([SYNTHETIC_NOTE] if any(a.synthetic for a in placed) and board is None else []) + (
        [f"{unplaced} area(s) have no position and are not drawn"] if unplaced and board is None else []) + (
        [f"Board: {board.name}, from the GM's VASSAL module {board.module}"] if board is not None else [])
    rows = len(legend) + len(notes)
    return {
        "width": WIDTH, "height": _r(map_height + rows * LEGEND_ROW + (8 if rows else 0)),
        "areas": areas, "links": links, "moves": moves, "marks": marks, "labels": labels, "leaders": leaders,
        "plates": plates,
        "radius": _r(radius), "corner": _r(radius) / SEA_CORNER_DIVISOR, "style": STYLE, "min_shown": MIN_SHOWN,
        "patterns": sorted({f["colour"] for f in fills.values() if f["striped"]}),
        "crop": None if board is not None else _crop(gmap.focus, points, labels, radius, map_height),
        "legend_top": _r(map_height), "background": background,
        **_legend(_r(map_height), legend, notes),
    }


def _crop(focus: list[str], points: dict[str, tuple[float, float]], labels: list[dict], radius: float,
          map_height: float) -> tuple[float, float, float, float] | None:
    """The part of the map the mailed picture shows: the reader's theatre (the `focus`
    areas and their labels) with a margin, or None for all of it; at least a phone's
    width (`PHONE_PX`), which a phone shows without shrinking its text."""
    inside = [points[a] for a in focus if a in points]
    if not inside:
        return None
    boxes = [(x - radius, y - radius, x + radius, y + radius) for x, y in inside] + [
        (t["x"], t["y"] - t["size"], t["x"] + text_width(t["text"], t["size"]), t["y"] + t["size"] * 0.3)
        for t in labels if t["area"] in focus]
    left, top = min(b[0] for b in boxes) - PAD / 2, min(b[1] for b in boxes) - PAD / 2
    right, bottom = max(b[2] for b in boxes) + PAD / 2, max(b[3] for b in boxes) + PAD / 2
    if right - left < PHONE_PX:
        middle = (left + right) / 2
        left, right = middle - PHONE_PX / 2, middle + PHONE_PX / 2
    left, top = max(0.0, left), max(0.0, top)
    right, bottom = min(float(WIDTH), max(right, left + PHONE_PX)), min(map_height, bottom)
    if right - left >= WIDTH - 1 and bottom - top >= map_height - 1:
        return None
    return _r(left), _r(top), _r(right), _r(bottom)


def _on_board(board: Board, board_dir: str, placed: list[MapArea], focus: list[str]
              ) -> tuple[dict[str, tuple[float, float]], dict[str, Any], int]:
    """Where the areas stand on the board's image, cropped to the reader's theatre (the
    `focus` areas, or every area on the board) with a margin and scaled to the frame's
    width; the cropped image; how many areas fall outside the crop."""
    spots = {a.id: board.places[a.id] for a in placed}
    shown = [spots[a] for a in focus if a in spots] or list(spots.values())
    margin = max(BOARD_MARGIN, 0.08 * max(board.width, board.height))
    left = max(0.0, min(x for x, _ in shown) - margin)
    top = max(0.0, min(y for _, y in shown) - margin)
    right = min(float(board.width), max(x for x, _ in shown) + margin)
    bottom = min(float(board.height), max(y for _, y in shown) + margin)
    scale = WIDTH / max(1.0, right - left)
    points = {area: ((x - left) * scale, (y - top) * scale) for area, (x, y) in spots.items()
              if left <= x <= right and top <= y <= bottom}
    height = round((bottom - top) * scale)
    picture = _board_picture(board_dir, board.image, (round(left), round(top), round(right), round(bottom)),
                             (WIDTH, max(1, height)))
    return points, {"href": "data:image/png;base64," + base64.b64encode(picture).decode(), "png": picture,
                    "width": WIDTH, "height": max(1, height)}, len(spots) - len(points)


@lru_cache(maxsize=32)
def _board_picture(board_dir: str, image: str, box: tuple[int, int, int, int], size: tuple[int, int]) -> bytes:
    """The part of the board's image a map shows, at the frame's size, as PNG."""
    from PIL import Image

    with Image.open(io.BytesIO(board_image(board_dir, image))) as picture:
        part = picture.convert("RGB").crop(box).resize(size)
    out = io.BytesIO()
    part.save(out, "PNG")
    return out.getvalue()


def _frame(placed: list[MapArea]) -> dict[str, tuple[float, float]]:
    """Where each area is drawn: the map's width fills the frame; its height follows the
    map's shape, stretched or squeezed to between 0.45 and 1.15 of the width so that a tall
    or a flat map still fills its frame."""
    xs, ys = [a.x for a in placed], [a.y for a in placed]
    span_x, span_y = (max(xs) - min(xs)) or 1.0, max(ys) - min(ys)
    scale_x = (WIDTH - 2 * PAD_X) / span_x
    height = 0.0 if not span_y else min(max(span_y * scale_x, 0.45 * WIDTH), 1.15 * WIDTH)
    scale_y = height / span_y if span_y else 0.0
    left = PAD_X if len(set(xs)) > 1 else WIDTH / 2
    return {a.id: (left + (a.x - min(xs)) * scale_x, PAD + (a.y - min(ys)) * scale_y) for a in placed}


def _key(moves: list, marks: list, placed: list[MapArea]) -> str:
    """The note telling what the turn's symbols mean, those on this map only."""
    parts = (["arrow: moved"] if moves else []) + (["dot: battle (red) or siege (purple)"] if marks else []) + (
        ["small square: fortress"] if any(a.fortress for a in placed) else []) + (
        ["dashed ring: besieged"] if any(a.besieged_by for a in placed) else [])
    return "Key — " + "; ".join(parts) + "."


def _fill(index: int) -> dict[str, Any]:
    colour = PALETTE[index % len(PALETTE)]
    striped = (index + index // len(PALETTE)) % 2 == 1
    return {"colour": colour, "striped": striped, "paint": f"url(#stripes-{colour[1:]})" if striped else colour}


def _event_colour(kind: str) -> str:
    return STYLE["event_colour"].get(kind, STYLE["event_colour"]["battle"])


def text_width(text: str, size: float) -> float:
    """The width of a line of DejaVu Sans, a little over rather than under."""
    ems = sum(_NARROW.get(ch) or _WIDE.get(ch) or (0.70 if ch.isupper() else 0.62) for ch in text)
    return ems * size * 1.04 + 2


def _lines(area: MapArea, events: list[tuple[str, str]], named: bool) -> list[dict[str, Any]]:
    units = ", ".join(area.units)
    lines = [{"text": area.name or area.id, "size": NAME_FONT, "colour": STYLE["name_colour"], "italic": False}
             ] if named else []
    if units:
        lines.append({"text": units if len(units) <= UNIT_CHARS else units[: UNIT_CHARS - 1] + "…",
                      "size": SMALL_FONT, "colour": STYLE["units_colour"], "italic": True})
    lines += [{"text": f"{EVENT_WORDS.get(kind, kind.capitalize())}: {result}" if result else
               EVENT_WORDS.get(kind, kind.capitalize()), "size": SMALL_FONT, "colour": _event_colour(kind),
               "italic": False} for kind, result in events]
    return lines


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _along(arrow: dict[str, Any]) -> list[Box]:
    """Small boxes along an arrow, which a label had better not cover."""
    x1, y1, (x2, y2) = arrow["x1"], arrow["y1"], arrow["head"][0]
    steps = max(1, int(math.dist((x1, y1), (x2, y2)) // 6))
    return [(x1 + (x2 - x1) * i / steps - 3, y1 + (y2 - y1) * i / steps - 3,
             x1 + (x2 - x1) * i / steps + 3, y1 + (y2 - y1) * i / steps + 3) for i in range(steps + 1)]


def _place_labels(placed: list[MapArea], points: dict[str, tuple[float, float]], radius: float,
                  events: dict[str, list[tuple[str, str]]], arrows: list[list[Box]], *,
                  named: bool = True) -> tuple[list[dict], list[dict], list[dict], float]:
    """Each area's label (its name, units and events, one line each) where it covers no
    area and no label placed before it, nor an arrow if it can: beside the area first,
    then further off with a line leading to it. Crowded areas choose first."""
    soft, taken = _Boxes(), _Boxes()
    for arrow in arrows:
        for box in arrow:
            soft.add(box)
    for x, y in points.values():
        taken.add((x - radius - 2, y - radius - 2, x + radius + 2, y + radius + 2))
    crowd = {a.id: sum(1 for other in points.values() if math.dist(points[a.id], other) < 90) for a in placed}
    labels: list[dict] = []
    leaders: list[dict] = []
    plates: list[dict] = []
    bottom = 0.0
    for area in sorted(placed, key=lambda a: (-crowd[a.id], a.id)):
        lines = _lines(area, events.get(area.id, []), named)
        if not lines:
            continue
        width = max(text_width(line["text"], line["size"]) for line in lines)
        height = sum(LINE * line["size"] for line in lines)
        x, y = points[area.id]
        box, far = _free_spot(x, y, radius, width, height, taken, soft)
        taken.add(box)
        plates.append({"x": _r(box[0] - 1), "y": _r(box[1]), "width": _r(box[2] - box[0] + 2),
                       "height": _r(box[3] - box[1])})
        bottom = max(bottom, box[3])
        top = box[1]
        for line in lines:
            labels.append({**line, "x": _r(box[0]), "y": _r(top + ASCENT * line["size"]), "area": area.id})
            top += LINE * line["size"]
        if far:
            near_x, near_y = min(max(x, box[0]), box[2]), min(max(y, box[1]), box[3])
            length = math.dist((x, y), (near_x, near_y)) or 1.0
            leaders.append({"x1": _r(x + (near_x - x) * radius / length), "y1": _r(y + (near_y - y) * radius / length),
                            "x2": _r(near_x), "y2": _r(near_y)})
    return labels, leaders, plates, bottom


class _Boxes:
    """Boxes filed by the cells of a coarse grid they touch, so a box meets only its neighbours."""

    CELL = 48

    def __init__(self) -> None:
        self.cells: dict[tuple[int, int], list[Box]] = {}

    def _cells(self, box: Box) -> list[tuple[int, int]]:
        return [(cx, cy) for cx in range(int(box[0] // self.CELL), int(box[2] // self.CELL) + 1)
                for cy in range(int(box[1] // self.CELL), int(box[3] // self.CELL) + 1)]

    def add(self, box: Box) -> None:
        for cell in self._cells(box):
            self.cells.setdefault(cell, []).append(box)

    def cover(self, box: Box) -> float:
        """How much of `box` the boxes filed cover (each counted once)."""
        near = {other for cell in self._cells(box) for other in self.cells.get(cell, ())}
        return sum(_overlap(box, other) for other in near)


def _free_spot(x: float, y: float, radius: float, width: float, height: float, taken: _Boxes,
               soft: _Boxes) -> tuple[Box, bool]:
    """The first box of `width` × `height` around (x, y) that stays in the frame and meets
    nothing taken nor `soft` (within a few steps); then nothing taken; failing all, the
    one that overlaps least."""
    for step in range(4):
        for box in _spots(x, y, radius, width, height, step):
            if not taken.cover(box) and not soft.cover(box):
                return box, step > 0
    best: tuple[float, Box, bool] | None = None
    for step in range(12):
        for box in _spots(x, y, radius, width, height, step):
            cover = taken.cover(box)
            if cover == 0:
                return box, step > 0
            if best is None or cover < best[0]:
                best = (cover, box, step > 0)
    assert best is not None
    return best[1], best[2]


def _spots(x: float, y: float, radius: float, width: float, height: float, step: int) -> list[Box]:
    """The boxes tried around (x, y) at a distance `step`: below, above, beside, then the diagonals."""
    gap = 2 + step * 0.7 * SMALL_FONT
    near, diagonal = radius + gap, (radius + gap) * 0.72
    boxes = []
    for left, top in ((x - width / 2, y + near), (x - width / 2, y - near - height),
                      (x + near, y - height / 2), (x - near - width, y - height / 2),
                      (x + diagonal, y + diagonal), (x - diagonal - width, y + diagonal),
                      (x + diagonal, y - diagonal - height), (x - diagonal - width, y - diagonal - height)):
        left, top = min(max(left, 2.0), WIDTH - 2 - width), max(top, 2.0)
        boxes.append((left, top, left + width, top + height))
    return boxes


def _overlap(a: Box, b: Box) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _arrow(a: tuple[float, float], b: tuple[float, float], radius: float) -> dict[str, Any]:
    """A move from the edge of one area to the edge of the next, its head at the second."""
    length = math.dist(a, b) or 1.0
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    start = (a[0] + ux * (radius + 2), a[1] + uy * (radius + 2))
    tip = (b[0] - ux * (radius + 2), b[1] - uy * (radius + 2))
    head = STYLE["move"]["head"]
    base = (tip[0] - ux * head, tip[1] - uy * head)
    wing = (-uy * head / 2, ux * head / 2)
    return {"x1": _r(start[0]), "y1": _r(start[1]), "x2": _r(base[0]), "y2": _r(base[1]),
            "head": [(_r(tip[0]), _r(tip[1])), (_r(base[0] + wing[0]), _r(base[1] + wing[1])),
                     (_r(base[0] - wing[0]), _r(base[1] - wing[1]))]}


def _link(kind: str, a: tuple[float, float], b: tuple[float, float]) -> dict[str, Any]:
    sea = "sea" in kind.lower()
    return {"x1": _r(a[0]), "y1": _r(a[1]), "x2": _r(b[0]), "y2": _r(b[1]), "sea": sea, "kind": kind,
            **STYLE["link"]["sea" if sea else "land"]}


def _legend(top: float, legend: list[tuple[dict, str]], notes: list[str]) -> dict[str, Any]:
    """One row per controller (a swatch of its fill and its name), then one per note, from
    `top` down; `swatch_y` is a swatch's top, `text_y` the baseline of the row's text."""
    tops = [_r(top + row * LEGEND_ROW) for row in range(len(legend) + len(notes))]
    return {
        "legend": [{"fill": fill, "label": label, "swatch_y": y + STYLE["swatch_top"],
                    "text_y": y + STYLE["legend_baseline"]} for (fill, label), y in zip(legend, tops)],
        "notes": [{"text": note, "text_y": y + STYLE["legend_baseline"]}
                  for note, y in zip(notes, tops[len(legend):])],
        "legend_font": SMALL_FONT,
    }


def _area(area: MapArea, point: tuple[float, float], fills: dict[str, dict], powers: dict[str, str]) -> dict[str, Any]:
    units = ", ".join(area.units)
    sea = area.kind == "sea"
    owner = _controller(area.controller, powers) if area.controller else ""
    siege = f"besieged by {_controller(area.besieged_by, powers)}" if area.besieged_by else ""
    fortress = "fortress" if area.fortress else ""
    title = " — ".join(p for p in (area.name or area.id, owner, units, fortress, siege) if p)
    plain = {"colour": SEA if sea else NEUTRAL, "striped": False, "paint": SEA if sea else NEUTRAL}
    return {
        "id": area.id, "name": area.name or area.id, "x": _r(point[0]), "y": _r(point[1]), "sea": sea,
        "fill": fills.get(area.controller or "", plain),
        "stroke": STYLE["outline"]["sea" if sea else "land"],
        "dash": STYLE["synthetic_dash"] if area.synthetic else (), "title": title,
        "fortress": area.fortress, "besieged": area.besieged_by is not None,
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
    """A map, its legend's names and the folder of the campaign's board (if any) as the
    content its pictures are cached by: the players of a step, and most steps of a turn,
    share a map."""

    map_json: str
    powers_json: str
    board_dir: str = ""

    def svg(self) -> str:
        return _draw(self.map_json, self.powers_json, self.board_dir)

    def png(self) -> bytes:
        """The `map.png` attachment of a report: the same picture as the SVG (cropped to
        the reader's theatre)."""
        return _paint(self.map_json, self.powers_json, self.board_dir)


def drawing(gmap: GameMap | dict, powers: dict[str, str] | None = None, board_dir: Path | None = None) -> MapDrawing:
    """A map (a view's `map` dict or a validated `GameMap`) to draw; `powers` maps a
    controller code to the name the legend shows; `board_dir`, a folder that may hold the
    campaign's board (`boards.BOARD_FILE`, from the GM's VASSAL module)."""
    model = gmap if isinstance(gmap, GameMap) else game_map(gmap)
    if model is None:
        raise ReportError("there is no map to draw")
    try:
        board = load_board(board_dir) if board_dir is not None else None
    except BoardError as error:
        raise ReportError(str(error)) from None
    return MapDrawing(_content(model), json.dumps(powers or {}, sort_keys=True), str(board_dir) if board else "")


@by_identity
def _content(model: GameMap) -> str:
    return model.model_dump_json()


def draw_map(gmap: GameMap | dict, powers: dict[str, str] | None = None) -> str:
    """The SVG of a map."""
    return drawing(gmap, powers).svg()


def _layout(map_json: str, powers_json: str, board_dir: str) -> dict[str, Any]:
    try:
        board = load_board(Path(board_dir)) if board_dir else None
    except BoardError as error:
        raise ReportError(str(error)) from None
    return layout(GameMap.model_validate_json(map_json), json.loads(powers_json), board, board_dir)


@lru_cache(maxsize=64)
def _draw(map_json: str, powers_json: str, board_dir: str) -> str:
    return render(environment(), "map.svg.j2", _layout(map_json, powers_json, board_dir))


@lru_cache(maxsize=64)
def _paint(map_json: str, powers_json: str, board_dir: str) -> bytes:
    return paint_png(_layout(map_json, powers_json, board_dir))


def fresh_pictures(pictures: MapDrawing) -> tuple[str, bytes]:
    """The SVG and PNG of a map drawn anew, past the caches that let players of a step
    share one drawing: what a map costs at most (`pbem bench report`)."""
    picture = _layout(pictures.map_json, pictures.powers_json, pictures.board_dir)
    return render(environment(), "map.svg.j2", picture), paint_png(picture)


def scalable(svg: str) -> str:
    """The map as the HTML page shows it: as wide as the page, but never narrower than
    `MIN_SHOWN` pixels — on a phone it scrolls sideways (and zooms) rather than shrinking
    its labels below `LEGIBLE_PX`. Only there: SVG tools such as cairo read this CSS as a
    zero size and draw a blank picture, so the file `pbem scenario check --draw` writes
    goes without it."""
    style = f"width: 100%; min-width: {MIN_SHOWN}px; height: auto; display: block;"
    shown = svg.replace("<svg ", f'<svg style="{style}" ', 1)
    return f'<div class="map-frame" style="overflow-x: auto; max-width: 100%;">{shown}</div>'
