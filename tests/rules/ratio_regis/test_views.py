"""Ratio Regis's views keep the contract pbem reads (`pbem.core.view.GameView`): every
power with its holder, the sections as tables of text, the map."""

from __future__ import annotations

import pytest
from campaigns import play

from pbem.core.view import read_view


@pytest.fixture(scope="module")
def projection():
    return play("war-demo", upto=12).projection()  # mid-game: wars, units on the map


def test_every_viewer_s_view_keeps_the_contract(projection):
    state = projection.current()[1]
    for viewer in ["gm", "public", *projection.data.players]:
        raw = projection.view(viewer)
        view = read_view(raw)
        assert {code: entry.player for code, entry in view.powers.items()} == \
            {code: power.player for code, power in state.powers.items()}
        assert [t.title for t in view.sections] == [s["title"] for s in raw["sections"]]
        assert view.map is not None and len(view.map.areas) == len(raw["map"]["areas"])
        assert view.turn_label == raw["turn_label"]


def test_a_power_is_found_by_its_code_in_any_case(projection):
    view = projection.game_view("public")
    held = next(code for code, entry in view.powers.items() if entry.player)
    assert view.owner(held.lower()) == view.powers[held].player
