"""The real board from a VASSAL module the GM owns, drawn under the report's map.

`pbem scenario map import-vassal MODULE.vmod --board NAME` reads the module (a zip whose
`buildFile.xml`, or `buildFile` in older modules, declares each Map's Boards with their
image, and inside a Board a ZonedGrid of named Zones — polygons, `path="x,y;x,y;…"` — or a
RegionGrid of named Regions — points, `originx`/`originy`), matches the named places to the
scenario's area ids by name, and writes a board file (`board.toml`: the image's file name
and size, and where each area is on it) with the image beside it, and a review file the GM
edits for the areas no name matched. The board is the GM's: pbem ships none, and a campaign
finds its board in `<home>/boards/<campaign>/`. Nothing here names a game: the areas come
from the ruleset's own map of the scenario.
"""

from __future__ import annotations

import difflib
import tomllib
import unicodedata
import zipfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from xml.etree import ElementTree

from pydantic import BaseModel, ConfigDict, ValidationError

from pbem.core.view import GameMap

BOARD_FILE = "board.toml"
REVIEW_FILE = "review.toml"
BUILD_FILES = ("buildFile.xml", "buildFile")
MAX_BUILD_FILE = 64 << 20  # a module's definitions, not its art: refused past this, unread


class BoardError(Exception):
    """A module or board file pbem cannot use; the message names what and where."""


@dataclass(frozen=True)
class Place:
    """A named place of a VASSAL board: a Region's point or a Zone's centre, in the image's pixels."""

    name: str
    x: float
    y: float
    source: str  # "region" or "zone"


@dataclass(frozen=True)
class VassalBoard:
    name: str
    map: str
    image: str  # the image's name in the module (under images/)
    places: tuple[Place, ...]


@dataclass
class Matching:
    """Each scenario area's place on the board, how it was found, and what is left for review."""

    placed: dict[str, tuple[Place, str]] = field(default_factory=dict)  # area id -> (place, "name"/"id"/"review")
    unmatched: dict[str, list[str]] = field(default_factory=dict)  # area id -> closest place names
    unused: list[str] = field(default_factory=list)  # place names no area took
    review_errors: list[str] = field(default_factory=list)


class Board(BaseModel):
    """A board file: the image (beside the file) and each area's point on it, in its pixels."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    module: str
    image: str
    width: int
    height: int
    places: dict[str, tuple[float, float]]


def read_module(module: Path) -> list[VassalBoard]:
    """Every board a module's build file declares, with its regions and zones."""
    try:
        with zipfile.ZipFile(module) as archive:
            name = next((n for n in BUILD_FILES if n in archive.namelist()), None)
            if name is None:
                raise BoardError(f"{module}: no buildFile.xml in it; is it a VASSAL module (.vmod)?")
            if archive.getinfo(name).file_size > MAX_BUILD_FILE:
                raise BoardError(f"{module}: its {name} is larger than {MAX_BUILD_FILE >> 20} MB")
            root = ElementTree.fromstring(archive.read(name))
    except (OSError, zipfile.BadZipFile) as error:
        raise BoardError(f"{module}: cannot read it as a zip ({error})") from None
    except ElementTree.ParseError as error:
        raise BoardError(f"{module}: its build file is not well-formed XML ({error})") from None
    boards = []
    for game_map in root.iter():
        if not _is(game_map, "Map") and not _is(game_map, "PrivateMap") and not _is(game_map, "PlayerHand"):
            continue
        for board in game_map.iter():
            if _is(board, "Board"):
                boards.append(VassalBoard(name=board.get("name", ""), map=game_map.get("mapName", ""),
                                          image=board.get("image", ""), places=tuple(_places(board))))
    return boards


def _is(element: ElementTree.Element, kind: str) -> bool:
    """VASSAL names an element by its Java class (`VASSAL.build.module.map.boardPicker.Board`)."""
    return element.tag.rsplit(".", 1)[-1] == kind


def _places(board: ElementTree.Element) -> list[Place]:
    places = []
    for element in board.iter():
        if _is(element, "Region") and element.get("name"):
            places.append(Place(element.get("name", ""), _number(element.get("originx")),
                                _number(element.get("originy")), "region"))
        elif _is(element, "Zone") and element.get("name") and element.get("path"):
            centre = _centre(element.get("path", ""))
            if centre is not None:
                places.append(Place(element.get("name", ""), centre[0], centre[1], "zone"))
    return places


def _number(text: str | None) -> float:
    try:
        return float(text or 0)
    except ValueError:
        return 0.0


def _centre(path: str) -> tuple[float, float] | None:
    """A zone's polygon's centre of area (its vertices' mean when the polygon is degenerate)."""
    try:
        points = [tuple(float(v) for v in pair.split(",")) for pair in path.split(";") if pair.strip()]
    except ValueError:
        return None
    if not points or any(len(p) != 2 for p in points):
        return None
    twice_area = cx = cy = 0.0
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]):
        cross = x1 * y2 - x2 * y1
        twice_area += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if abs(twice_area) < 1e-9:
        return sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)
    return cx / (3 * twice_area), cy / (3 * twice_area)


def folded(name: str) -> str:
    """A name as names are compared: without accents, case, spaces or punctuation."""
    plain = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in plain.casefold() if ch.isalnum())


def match(gmap: GameMap, places: tuple[Place, ...], review: dict[str, str]) -> Matching:
    """Each area to the place the GM's review names, else the place of the same name, else
    the place named as its id; the rest listed with the closest names."""
    by_name: dict[str, Place] = {}
    for place in places:
        by_name.setdefault(folded(place.name), place)
    result = Matching()
    for area_id, place_name in sorted(review.items()):
        if area_id not in {a.id for a in gmap.areas}:
            result.review_errors.append(f"{area_id}: no such area in the scenario")
        elif folded(place_name) not in by_name:
            result.review_errors.append(f"{area_id} = {place_name!r}: no such region or zone on the board")
    for area in gmap.areas:
        if area.id in review and folded(review[area.id]) in by_name:
            result.placed[area.id] = (by_name[folded(review[area.id])], "review")
        elif folded(area.name or area.id) in by_name:
            result.placed[area.id] = (by_name[folded(area.name or area.id)], "name")
        elif folded(area.id) in by_name:
            result.placed[area.id] = (by_name[folded(area.id)], "id")
        else:
            result.unmatched[area.id] = difflib.get_close_matches(area.name or area.id, [p.name for p in places], 3,
                                                                  0.5)
    taken = {place.name for place, _ in result.placed.values()}
    result.unused = sorted({p.name for p in places} - taken)
    return result


def read_review(path: Path | None) -> dict[str, str]:
    """The GM's review file: `[match]` area id = the region's or zone's name."""
    if path is None or not path.exists():
        return {}
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise BoardError(f"{path}: cannot read it ({error})") from None
    table = data.get("match", {})
    if not isinstance(table, dict) or not all(isinstance(v, str) for v in table.values()):
        raise BoardError(f"{path}: [match] holds area id = \"region or zone name\" lines")
    return dict(table)


def review_table(gmap: GameMap, matching: Matching) -> str:
    """The review the GM reads: every area, where it was placed and how, or the closest names."""
    names = {a.id: a.name or a.id for a in gmap.areas}
    rows = [f"{'area':<24} {'placed on':<28} how"]
    for area_id in sorted(names):
        if area_id in matching.placed:
            place, how = matching.placed[area_id]
            rows.append(f"{area_id:<24} {place.name:<28} {how} ({place.source} at {place.x:.0f},{place.y:.0f})")
        else:
            close = ", ".join(matching.unmatched[area_id]) or "nothing close"
            rows.append(f"{area_id:<24} {'-':<28} UNMATCHED (closest: {close})")
    rows += [f"review: {error}" for error in matching.review_errors]
    if matching.unused:
        rows.append("regions and zones no area took: " + ", ".join(matching.unused))
    return "\n".join(rows)


def review_file(gmap: GameMap, matching: Matching, review: dict[str, str]) -> str:
    """The review file to edit: the GM's matches so far, then a line to fill in for each
    area still unmatched (commented out, with the closest names)."""
    names = {a.id: a.name or a.id for a in gmap.areas}
    lines = ["# Match the scenario's areas to the module's regions and zones by name, then run",
             "# pbem scenario map import-vassal again with --review this file.", "[match]"]
    lines += [f"{_key(area_id)} = {_quoted(place)}" for area_id, place in sorted(review.items())]
    for area_id, close in sorted(matching.unmatched.items()):
        lines.append(f"# {_key(area_id)} = {_quoted(close[0] if close else '')}  # {names[area_id]}; closest: "
                     + (", ".join(close) or "none"))
    return "\n".join(lines) + "\n"


def _key(text: str) -> str:
    return text if text.replace("-", "").replace("_", "").isalnum() and text.isascii() else _quoted(text)


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def import_board(module: Path, board_name: str, gmap: GameMap, out: Path, review_path: Path | None) -> str:
    """Write the board file, its image and the review file into `out`; the review table."""
    boards = read_module(module)
    chosen = next((b for b in boards if b.name == board_name), None)
    if chosen is None:
        known = ", ".join(sorted({repr(b.name) for b in boards})) or "none"
        raise BoardError(f"{module}: no board named {board_name!r} (boards: {known})")
    review = read_review(review_path)
    matching = match(gmap, chosen.places, review)
    image_name = PurePosixPath(chosen.image).name
    try:
        with zipfile.ZipFile(module) as archive:
            stored = next((n for n in (f"images/{chosen.image}", chosen.image) if n in archive.namelist()), None)
            if stored is None:
                raise BoardError(f"{module}: board {board_name!r} names the image {chosen.image!r}, not in the module")
            image = archive.read(stored)
    except (OSError, zipfile.BadZipFile) as error:
        raise BoardError(f"{module}: cannot read it ({error})") from None
    width, height = _image_size(image, module)
    out.mkdir(parents=True, exist_ok=True)
    (out / image_name).write_bytes(image)
    places = {area_id: (round(place.x, 1), round(place.y, 1)) for area_id, (place, _) in matching.placed.items()}
    board = Board(name=board_name, module=module.name, image=image_name, width=width, height=height, places=places)
    (out / BOARD_FILE).write_text(_board_toml(board), encoding="utf-8")
    (out / REVIEW_FILE).write_text(review_file(gmap, matching, review), encoding="utf-8")
    return review_table(gmap, matching)


def _image_size(image: bytes, module: Path) -> tuple[int, int]:
    import io

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(image)) as picture:
            return picture.size
    except (UnidentifiedImageError, OSError) as error:
        raise BoardError(f"{module}: the board's image cannot be read ({error})") from None


def _board_toml(board: Board) -> str:
    lines = ["# A board imported from the GM's VASSAL module: not pbem's, not to be shipped with it.",
             "[board]", f"name = {_quoted(board.name)}", f"module = {_quoted(board.module)}",
             f"image = {_quoted(board.image)}", f"width = {board.width}", f"height = {board.height}", "",
             "[places]  # area id = [x, y] in the image's pixels"]
    lines += [f"{_key(area_id)} = [{x}, {y}]" for area_id, (x, y) in sorted(board.places.items())]
    return "\n".join(lines) + "\n"


def load_board(folder: Path) -> Board | None:
    """The board in `folder` (its `board.toml`), or None when there is none."""
    path = folder / BOARD_FILE
    if not path.exists():
        return None
    return _load(str(path), path.stat().st_mtime_ns)


@lru_cache(maxsize=8)
def _load(path: str, _mtime: int) -> Board:
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
        return Board.model_validate({**data.get("board", {}), "places": data.get("places", {})})
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise BoardError(f"{path}: cannot read it ({error})") from None
    except ValidationError as error:
        raise BoardError(f"{path}: not a board file ({error.errors()[0]['msg']})") from None


@lru_cache(maxsize=8)
def board_image(folder: str, image: str) -> bytes:
    """The board's image file, read once."""
    return (Path(folder) / image).read_bytes()
