import pytest
from typer.testing import CliRunner

from pbem.cli import app
from pbem.core import ruleset as rulesets
from pbem.core.cases import CaseFormatError, parse_case, run_case
from pbem.core.dice import DicePurpose
from tests.support.minigame import MiniGame, State

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


def run(tmp_path, text):
    return run_case(parse_case(write_case(tmp_path, text)))


HEAD = """\
@case minigame-setup
@ruleset minigame
@scenario {scenario}
@players ann bob
"""


def test_a_setup_before_the_first_orders_states_the_position_the_game_starts_from(tmp_path):
    result = run(tmp_path, HEAD + """\
@setup
leader = "bob"
bids = {{"ann": 1, "bob": 4}}
@dice round 6
@expect
step = "round-1"
pending bob keep
state.bids.bob = 4
players.bob.bid = 4
""")
    assert result.passed, result.failures


def test_a_setup_after_orders_applies_at_the_step_in_progress_and_the_log_replays(tmp_path):
    text = HEAD + """\
@dice round 5 3
@orders ann
BID 3
@orders bob
BID 1
@setup
score = 10
# a list grows with +=, and shrinks with -=
players += "cy"
players -= "cy"
@orders ann
KEEP
@expect
state.score = 15
state.round = 1
len(state.players) = 2
"""
    path = write_case(tmp_path, text)
    case = parse_case(path)
    assert [kind for kind, _, _ in case.actions] == ["dice", "orders", "orders", "setup", "orders"]
    result = run_case(case)
    assert result.passed, result.failures


def test_a_setup_path_the_state_does_not_have_names_the_line_and_the_known_fields(tmp_path):
    result = run(tmp_path, HEAD + "@setup\nscore = 1\nscroe = 2\n@expect\nscore = 1\n")
    assert not result.passed
    assert result.failures == ["{}:7: @setup scroe = 2: the state has no field 'scroe' at the top (known fields bids, "
                               "leader, ordered, pace, players, queued, round, score, tallies)".format(
                                   tmp_path / "mini.case")]


def test_a_setup_value_the_state_does_not_accept_names_the_line_and_why(tmp_path):
    result = run(tmp_path, HEAD + '@setup\nscore = "ten"\n@expect\nscore = 1\n')
    assert not result.passed
    assert "mini.case:6: @setup score = \"ten\"" in result.failures[0]
    assert "Expected `int`, got `str`" in result.failures[0]


def test_a_setup_line_that_is_not_an_edit_is_a_format_error(tmp_path):
    with pytest.raises(CaseFormatError, match=r"mini.case:6: a set-up line is `path = JSON`"):
        parse_case(write_case(tmp_path, HEAD + "@setup\nscore is 1\n@expect\nscore = 1\n"))
    with pytest.raises(CaseFormatError, match=r"mini.case:6: '\[1, 2' is not JSON"):
        parse_case(write_case(tmp_path, HEAD + "@setup\nplayers = [1, 2\n@expect\nscore = 1\n"))


@pytest.mark.parametrize("line, reason", [
    ("state.scroe = 1", "no field 'scroe' at state: known fields bids, leader, ordered, pace, players, queued, round, "
                        "score, tallies"),
    ("players.zed.bid = 1", "no field 'zed' at players: known fields ann, bob"),
    ("state.players.5 = 1", "no entry 5 at state.players: it has 2 entries"),
    ("len(state.score) = 1", "state.score is 7, which has no length"),
    ("state.score.x = 1", "state.score is 7, which has no field 'x'"),
    ("state.score contains 1", "found 7, which cannot be compared with contains 1"),
    ('leader >= 1', 'found "ann", which cannot be compared with >= 1'),
    ('chronicle "unbalanced', "cannot read expectation"),
])
def test_a_bad_expectation_is_a_failed_case_with_its_reason(tmp_path, line, reason):
    result = run(tmp_path, CASE.replace('leader = "ann"', line))
    assert not result.passed
    assert len(result.failures) == 1 and reason in result.failures[0], result.failures


def test_verdicts_check_each_line_of_an_order_set(tmp_path):
    result = run(tmp_path, HEAD + """\
@orders ann
BID 3
BID many
@expect
verdict ann 1 accepted
verdict ann 2 refused "not an answer to anything you owe"
verdict ann "bid many" refused
""")
    assert result.passed, result.failures
    result = run(tmp_path, HEAD + """\
@orders ann
BID 3
BID many
@expect
verdict ann 2 accepted
verdict ann 1 refused
verdict ann 3 accepted
verdict bob 1 accepted
""")
    assert [f.split(" — ")[1] for f in result.failures] == [
        "refused: 'not an answer to anything you owe'", "accepted as 'bid: BID 3'",
        "no verdict for line '3' (verdicts for ['1: BID 3', '2: BID many'])", "bob sent no orders"]


def test_pbem_case_run_reports_a_bad_path_as_a_failure(tmp_path):
    path = write_case(tmp_path, CASE.replace('leader = "ann"', "state.nowhere.deep = 1"))
    outcome = CliRunner().invoke(app, ["case", "run", str(path)])
    assert outcome.exit_code == 1
    assert "no field 'nowhere' at state" in outcome.output and outcome.output.endswith("0 passed, 1 failed\n")


class DriftingGame(MiniGame):
    """Not deterministic (each new game starts from a higher score), so its log cannot replay."""

    started = 0

    def initial_state(self, scenario, options, seats):
        DriftingGame.started += 1
        return State(players=[s.id for s in seats], score=DriftingGame.started)


def test_a_case_whose_log_does_not_replay_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(rulesets, "load", lambda name: DriftingGame())
    result = run(tmp_path, CASE.replace("score = 7", "score >= 7"))
    assert [f.split(": ", 1)[1] for f in result.failures] == [
        "replaying the log diverges at step bidding: state hash differs"]


def test_a_deadline_passes_the_waiting_step_and_its_defaults_answer(tmp_path):
    text = HEAD + "@orders ann\nBID 3\n@deadline\n@expect\nleader = \"ann\"\nplayers.bob.bid = 0\n"
    result = run(tmp_path, text)
    assert result.passed, result.failures


def test_a_deadline_with_words_after_it_is_a_format_error(tmp_path):
    with pytest.raises(CaseFormatError, match="mini.case:5: @deadline takes nothing after it"):
        parse_case(write_case(tmp_path, HEAD + "@deadline now\n@expect\nleader = \"ann\"\n"))


def test_a_case_fails_on_a_roll_its_ruleset_does_not_declare(tmp_path, monkeypatch):
    """The declared dice purposes (which a GM's forced dice are checked against) are kept
    whole by the corpus: a roll of an undeclared purpose, or of another die, fails the case."""
    monkeypatch.setattr(MiniGame, "dice_purposes", (DicePurpose("round", 20, "§2"),))
    result = run(tmp_path, CASE)
    assert not result.passed
    assert "do not declare these rolls" in result.failures[-1] and "round (d6)" in result.failures[-1]


def test_a_forced_die_off_the_die_is_a_case_failure_naming_it(tmp_path):
    result = run(tmp_path, CASE.replace("@dice round 5 3 2", "@dice round 5 9"))
    assert not result.passed and "a round die is 1 to 6 (§2), not 9" in result.failures[0]


def test_an_included_header_is_read_in_place_and_a_failure_names_its_file(tmp_path):
    (tmp_path / "mini.toml").write_text("rounds = 2\n")
    (tmp_path / "head.inc").write_text("@ruleset minigame\n@scenario mini.toml\n@players ann bob\n"
                                       "@orders ann\nBID 3\n@orders bob\nBID 1\n@expect\nleader = \"bob\"\n")
    path = tmp_path / "mini.case"
    path.write_text("@include head.inc\n@expect\nplayers.ann.bid = 3\n")
    result = run_case(parse_case(path))
    assert [f.split(" — ")[0] for f in result.failures] == [f"{tmp_path / 'head.inc'}:9: expected leader = \"bob\""]
    path.write_text("@include nowhere.inc\n")
    with pytest.raises(CaseFormatError, match="mini.case:1: @include nowhere.inc: no such file"):
        parse_case(path)
    path.write_text("@include mini.case\n")
    with pytest.raises(CaseFormatError, match="an include loop"):
        parse_case(path)


def test_any_order_set_of_a_player_can_be_checked_by_its_number(tmp_path):
    result = run(tmp_path, HEAD + """\
@orders ann
BID lots
@orders ann
BID 3
@expect
rejected ann#1 "not an answer"
verdict ann#1 1 refused
accepted ann#2
accepted ann
rejected ann#2
verdict ann#3 1 accepted
""")
    assert [f.split(" — ")[1] for f in result.failures] == [
        "accepted=True, reasons []", "ann sent 2 order set(s), so there is no ann#3"]


def test_has_matches_tables_and_lists_as_subsets(tmp_path):
    result = run(tmp_path, CASE.replace('leader = "ann"', """\
players has {{"ann": {{"bid": 3}}}}
state.bids has {{"bob": 1}}
state.players has ["bob"]
state.players has ["bob", "ann"]
players.ann has {{"bid": 4}}"""))
    assert [f.split(" — ")[0].split(": ", 1)[1] for f in result.failures] == [
        "expected state.players has [\"bob\", \"ann\"]", "expected players.ann has {\"bid\": 4}"]


def test_not_chronicle_holds_when_no_line_says_it(tmp_path):
    result = run(tmp_path, CASE.replace('leader = "ann"', 'not-chronicle "round 3"\nnot-chronicle "round 2: 2"'))
    assert [f.split(" — ")[1] for f in result.failures] == ["a chronicle line has it: 'round 2: 2'"]


def test_a_default_face_shows_on_every_die_not_forced(tmp_path):
    """Round 1's die is forced to 5; round 2's, not forced, shows the default face 4 (its keyed
    stream gives 2 with this secret)."""
    text = CASE.replace("@dice round 5 3 2", "@dice round 5\n@dice * 4").replace("REROLL", "KEEP")
    result = run(tmp_path, text.replace('leader = "ann"', 'chronicle "round 1: 5"').replace("score = 7", "score = 9")
                 .replace('chronicle "round 2: 2"', 'chronicle "round 2: 4"'))
    assert result.passed, result.failures


def test_a_scenario_patch_is_laid_over_the_scenario(tmp_path):
    result = run(tmp_path, CASE.replace("@players ann bob", "@players ann bob\n@scenario-patch\nrounds = 1")
                 .replace("@orders ann\nREROLL\n", "").replace("score = 7", "score = 5")
                 .replace('chronicle "round 2: 2"', 'not-chronicle "round 2"'))
    assert result.passed, result.failures
    with pytest.raises(CaseFormatError, match="mini.case:5: @scenario-patch is not TOML"):
        parse_case(write_case(tmp_path, HEAD + "@scenario-patch\nrounds = = 1\n@expect\nscore = 0\n"))


def test_start_sets_the_phase_and_names_its_line_when_the_state_has_none(tmp_path):
    result = run(tmp_path, HEAD + "@start turn-end\n@expect\nscore = 0\n")
    assert result.failures and 'mini.case:5: @setup phase = "turn-end"' in result.failures[0]


def test_merged_merges_tables_and_lists_of_tables_by_id():
    from pbem.core.datafile import merged
    base = {"a": {"x": 1, "y": 2}, "areas": [{"id": "A", "f": 1, "g": 1}, {"id": "B", "f": 2}], "rows": [1, 2]}
    patch = {"a": {"y": 3}, "areas": [{"id": "B", "f": 5}, {"id": "C", "f": 6}], "rows": [9]}
    assert merged(base, patch) == {"a": {"x": 1, "y": 3}, "rows": [9], "areas": [
        {"id": "A", "f": 1, "g": 1}, {"id": "B", "f": 5}, {"id": "C", "f": 6}]}
    assert base["a"] == {"x": 1, "y": 2}
