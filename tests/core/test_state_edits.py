"""Setting a state by path through a ruleset's own encoding (the case set-up's mechanism)."""

import msgspec
import pytest

from pbem.core.service import CommandError
from pbem.core.state_edits import PathError, StateEdit, StateEditError, apply_edits, lookup
from tests.support.minigame import MiniGame, State


class Unit(msgspec.Struct):
    id: str
    place: str
    strength: int = 1


class Board(msgspec.Struct):
    units: list[Unit] = []
    owners: dict[str, str] = {}


class BoardRules:
    """Only what `apply_edits` asks of a ruleset: its encoding."""

    def encode_state(self, state):
        return msgspec.json.encode(state, order="sorted")

    def decode_state(self, data):
        return msgspec.json.decode(data, type=Board)


BOARD = Board(units=[Unit("A1", "north"), Unit("A2", "south", 2)], owners={"north": "red"})


def edited(*edits):
    return apply_edits(BoardRules(), BOARD, [StateEdit(*e) for e in edits])


def test_a_list_entry_is_found_by_index_or_by_id():
    data = msgspec.to_builtins(BOARD)
    assert lookup(data, "units.1.strength") == 2
    assert lookup(data, "units.A2.place") == "south"
    assert lookup(data, "units.-1.id") == "A2"
    with pytest.raises(PathError, match="no entry 'A9' at units: known ids A1, A2"):
        lookup(data, "units.A9.place")


def test_edits_set_fields_add_table_keys_and_grow_and_shrink_lists():
    board = edited(("units.A1.strength", "=", 3), ("owners.south", "=", "blue"),
                   ("units", "+=", {"id": "B1", "place": "east"}), ("units", "-=", "A2"))
    assert board.units == [Unit("A1", "north", 3), Unit("B1", "east")]
    assert board.owners == {"north": "red", "south": "blue"}
    assert BOARD.units[0].strength == 1  # the state given is not changed


@pytest.mark.parametrize("edit, reason", [
    (("units.A1.size", "=", 3), "units.A1.size = 3: the state has no field 'size' at units.0 "
                                "(known fields id, place, strength)"),
    (("units.A1.strength", "=", "3"), "units.A1.strength = \"3\": Expected `int`, got `str`"),
    (("units", "+=", {"id": "B1"}), "Object missing required field `place`"),
    (("owners", "+=", "x"), "+= needs a list, and owners is {\"north\": \"red\"}"),
    (("units", "-=", "Z9"), "units has no entry \"Z9\" to remove"),
    (("units.A1", "*=", 2), "unknown operator '*='"),
    (("fleets.F1.place", "=", "x"), "no field 'fleets' at the top: known fields owners, units"),
])
def test_an_edit_the_state_refuses_says_which_and_why(edit, reason):
    with pytest.raises(StateEditError) as error:
        edited(edit)
    assert reason in str(error.value)


def test_the_minigame_state_is_set_the_same_way():
    state = apply_edits(MiniGame(), State(players=["ann", "bob"]),
                        [StateEdit("bids.ann", "=", 4), StateEdit("leader", "=", "ann")])
    assert (state.bids, state.leader) == ({"ann": 4}, "ann")


def test_a_set_state_is_a_fact_in_the_log_and_replays(service, players):
    service.create("g", "minigame", {"rounds": 1}, players)
    service.set_state("g", [StateEdit("leader", "=", "bob"), StateEdit("score", "=", 9)], "a test position")
    live = service.projection("g")
    events = [type(e).__name__ for e in service.loader.campaign_events("g")]
    assert "StateSet" in events
    assert live.step == "round-1" and [r.player for r in live.pending()] == ["bob"]
    again = service.loader.load("g", use_snapshots=False)
    assert again.ruleset.encode_state(again.current()[1]) == live.ruleset.encode_state(live.current()[1])


def test_a_set_state_the_state_refuses_never_enters_the_log(service, players):
    service.create("g", "minigame", {"rounds": 1}, players)
    before = len(list(service.loader.campaign_events("g")))
    with pytest.raises(CommandError, match="the state cannot be set: score = \"x\""):
        service.set_state("g", [StateEdit("score", "=", "x")], "a typo")
    assert len(list(service.loader.campaign_events("g"))) == before
