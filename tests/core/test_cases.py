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
    assert result.failures == ["{}:7: @setup scroe = 2: the state has no field 'scroe' at the top "
                               "(known fields bids, leader, players, round, score)".format(tmp_path / "mini.case")]


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
    ("state.scroe = 1", "no field 'scroe' at state: known fields bids, leader, players, round, score"),
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
