"""The real board from a GM's VASSAL module (issue 32): a small module of the test's own
(an invented image, a RegionGrid and a ZonedGrid) imported, reviewed, and drawn on."""

import io
import zipfile

import pytest
from PIL import Image
from typer.testing import CliRunner

from pbem.cli import app
from pbem.reports.boards import BoardError, import_board, load_board, read_module
from pbem.reports.maps import STYLE, WIDTH, drawing, layout
from pbem.reports.models import game_map
from pbem.reports.raster import paint_png

BOARD_SIZE = (800, 600)
PAPER = (200, 190, 160)  # the invented board's colour


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def build_file() -> str:
    board = "VASSAL.build.module.map.boardPicker"
    return f"""<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<VASSAL.build.GameModule name="Test" version="1.0">
<VASSAL.build.module.Map mapName="Main Map">
<VASSAL.build.module.map.BoardPicker>
<{board}.Board image="europe.png" name="Europe" reversible="false">
<{board}.board.RegionGrid snapto="true" visible="false">
<{board}.board.Region name="Paris" originx="400" originy="300"/>
<{board}.board.Region name="Lyon" originx="500" originy="420"/>
<{board}.board.Region name="Toulouse" originx="300" originy="480"/>
</{board}.board.RegionGrid>
<{board}.board.ZonedGrid>
<{board}.board.mapgrid.Zone name="Mer du Nord" path="100,50;300,50;300,150;100,150"/>
<{board}.board.mapgrid.Zone name="Bretagne" path="50,250;150,250;150,350;50,350"/>
</{board}.board.ZonedGrid>
</{board}.Board>
<{board}.Board image="other.png" name="Colonies"/>
</VASSAL.build.module.map.BoardPicker>
</VASSAL.build.module.Map>
</VASSAL.build.GameModule>"""


@pytest.fixture
def module(tmp_path):
    image = io.BytesIO()
    Image.new("RGB", BOARD_SIZE, PAPER).save(image, "PNG")
    path = tmp_path / "test.vmod"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("buildFile.xml", build_file())
        archive.writestr("images/europe.png", image.getvalue())
    return path


AREAS = {"areas": [{"id": "paris", "name": "Paris", "x": 0, "y": 0, "controller": "FRA", "units": ["T1"]},
                   {"id": "lyon", "name": "Lyon", "x": 1, "y": 1, "controller": "FRA"},
                   {"id": "toulouse", "name": "Toulouse", "x": 0, "y": 2, "controller": "SPA"},
                   {"id": "brest", "name": "Brest", "x": -1, "y": 0},
                   {"id": "north-sea", "name": "North Sea", "x": 0, "y": -1, "kind": "sea"}]}


def test_the_module_is_read_with_its_regions_and_zones(module):
    boards = {b.name: b for b in read_module(module)}
    assert set(boards) == {"Europe", "Colonies"}
    places = {p.name: p for p in boards["Europe"].places}
    assert (places["Paris"].x, places["Paris"].y, places["Paris"].source) == (400, 300, "region")
    assert (places["Mer du Nord"].x, places["Mer du Nord"].y, places["Mer du Nord"].source) == (200, 100, "zone")


def test_import_matches_by_name_and_the_review_places_the_rest(module, tmp_path):
    out = tmp_path / "board"
    table = import_board(module, "Europe", game_map(AREAS), out, None)
    assert "UNMATCHED" in table and "Bretagne" in table  # Brest unmatched, the closest name offered
    board = load_board(out)
    assert board.places == {"paris": (400.0, 300.0), "lyon": (500.0, 420.0), "toulouse": (300.0, 480.0)}
    assert (board.width, board.height, board.image) == (*BOARD_SIZE, "europe.png")
    assert (out / "europe.png").exists()
    review = (out / "review.toml").read_text()
    assert "# brest" in review and "# north-sea" in review
    (out / "review.toml").write_text('[match]\nbrest = "Bretagne"\nnorth-sea = "Mer du Nord"\n')
    table = import_board(module, "Europe", game_map(AREAS), out, out / "review.toml")
    assert "UNMATCHED" not in table
    assert load_board(out).places["brest"] == (100.0, 300.0)
    assert load_board(out).places["north-sea"] == (200.0, 100.0)


def test_a_review_naming_nothing_on_the_board_is_said(module, tmp_path):
    review = tmp_path / "review.toml"
    review.write_text('[match]\nbrest = "Bretonnia"\nghost = "Paris"\n')
    table = import_board(module, "Europe", game_map(AREAS), tmp_path / "b", review)
    assert "brest = 'Bretonnia': no such region or zone" in table and "ghost: no such area" in table
    with pytest.raises(BoardError, match="no board named 'Asia'"):
        import_board(module, "Asia", game_map(AREAS), tmp_path / "b", None)
    with pytest.raises(BoardError, match="not in the module"):
        import_board(module, "Colonies", game_map(AREAS), tmp_path / "b", None)
    junk = tmp_path / "junk.vmod"
    junk.write_bytes(b"not a zip")
    with pytest.raises(BoardError, match="cannot read it as a zip"):
        read_module(junk)


def test_units_and_arrows_are_drawn_where_the_board_has_the_areas(module, tmp_path):
    """Without a theatre the crop is every placed area with a margin; each area's disc is
    at its region's point on the image, scaled to the frame, and the move's arrow runs
    from Paris's disc to Lyon's."""
    out = tmp_path / "board"
    import_board(module, "Europe", game_map(AREAS), out, None)
    board = load_board(out)
    turn = game_map({**AREAS, "moves": [{"a": "paris", "b": "lyon", "units": ["T1"]}]})
    picture = layout(turn, {}, board, str(out))
    margin = 0.08 * 800  # more than BOARD_MARGIN on this board
    left, top = 300 - margin, 300 - margin
    scale = WIDTH / (500 + margin - left)
    spots = {a["id"]: (a["x"], a["y"]) for a in picture["areas"]}
    assert set(spots) == {"paris", "lyon", "toulouse"}
    assert spots["paris"] == (round((400 - left) * scale, 1), round((300 - top) * scale, 1))
    assert spots["lyon"] == (round((500 - left) * scale, 1), round((420 - top) * scale, 1))
    (arrow,) = picture["moves"]
    assert abs(arrow["x1"] - spots["paris"][0]) < 15 and abs(arrow["head"][0][0] - spots["lyon"][0]) < 15
    assert [label["text"] for label in picture["labels"]] == ["T1"]  # the image names the areas
    png = Image.open(io.BytesIO(paint_png(picture))).convert("RGB")
    fra = next(a for a in picture["areas"] if a["id"] == "paris")["fill"]["colour"]
    assert png.getpixel((round(spots["paris"][0]), round(spots["paris"][1]))) == rgb(fra)
    middle = (round((arrow["x1"] + arrow["x2"]) / 2), round((arrow["y1"] + arrow["y2"]) / 2))
    assert png.getpixel(middle) == rgb(STYLE["move"]["stroke"])
    assert max(abs(a - b) for a, b in zip(png.getpixel((5, 5)), PAPER)) <= 8  # the board's image under the map
    assert 'href="data:image/png;base64,' in drawing(turn, {}, out).svg()


def test_the_board_is_cropped_to_the_readers_theatre(module, tmp_path):
    out = tmp_path / "board"
    import_board(module, "Europe", game_map(AREAS), out, None)
    theatre = game_map({**AREAS, "focus": ["toulouse"]})
    picture = layout(theatre, {}, load_board(out), str(out))
    assert [a["id"] for a in picture["areas"]] == ["toulouse"]  # Paris and Lyon lie outside what is shown


def test_cli_imports_a_board_for_a_scenario(module, tmp_path):
    result = CliRunner().invoke(app, ["scenario", "map", "import-vassal", str(module), "--board", "Europe",
                                      "--scenario", "examples/ratio-regis/war.toml", "--out", str(tmp_path / "b")])
    assert result.exit_code == 0, result.output
    assert "UNMATCHED" in result.output and "board written to" in result.output
    assert load_board(tmp_path / "b").places["Paris"] == (400.0, 300.0)
    refused = CliRunner().invoke(app, ["scenario", "map", "import-vassal", str(module), "--board", "Asia",
                                       "--scenario", "examples/ratio-regis/war.toml", "--out", str(tmp_path / "b")])
    assert refused.exit_code != 0 and "no board named 'Asia'" in str(refused.exception)  # `main` prints it


def test_a_campaigns_mailed_report_draws_its_map_on_its_board(toy_campaign, tmp_path):
    """A board in `<boards>/<campaign>/` is what the mailed report's map stands on; a
    campaign without one keeps the diagram."""
    from pbem.reports.renderer import MailRenderer

    image = io.BytesIO()
    Image.new("RGB", (400, 300), PAPER).save(image, "PNG")
    module = tmp_path / "toy.vmod"
    with zipfile.ZipFile(module, "w") as archive:
        archive.writestr("buildFile.xml", build_file().replace("Paris", "North").replace("Lyon", "South"))
        archive.writestr("images/europe.png", image.getvalue())
    projection = toy_campaign.service.projection("toy-demo")
    import_board(module, "Europe", game_map(projection.ruleset.view(projection.current()[1], projection.scenario,
                                                                    "gm")["map"]), tmp_path / "boards" / "toy-demo",
                 None)
    on_board = MailRenderer(boards=tmp_path / "boards").report(projection, "p1", since_version=0, key="k")
    assert "data:image/png;base64," in on_board.html and "VASSAL module toy.vmod" in on_board.html
    plain = MailRenderer(boards=tmp_path / "elsewhere").report(projection, "p1", since_version=0, key="k")
    assert "data:image/png;base64," not in plain.html
