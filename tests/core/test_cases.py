from pbem.core.cases import parse_case, run_case

CASE = """\
# the high bidder wins and plays two rounds
@case minigame-bidding
@rule §1 §2
@ruleset minigame
@scenario {scenario}
@players ann bob
@dice round 5 3 2
@orders ann
BID 3
@orders bob
BID 1
@orders ann
KEEP
@orders ann
REROLL
@expect
leader = "ann"
score = 7
finished = true
chronicle "round 2: 2"
players.bob.bid = 1
"""


def write_case(tmp_path, text):
    (tmp_path / "mini.toml").write_text("rounds = 2\n")
    path = tmp_path / "mini.case"
    path.write_text(text.format(scenario="mini.toml"))
    return path


def test_a_case_that_holds_passes(tmp_path):
    result = run_case(parse_case(write_case(tmp_path, CASE)))
    assert result.passed, result.failures


def test_a_case_that_does_not_hold_names_the_line(tmp_path):
    result = run_case(parse_case(write_case(tmp_path, CASE.replace("score = 7", "score = 8"))))
    assert not result.passed
    assert "mini.case:18: expected score = 8" in result.failures[0] and "found 7" in result.failures[0]
