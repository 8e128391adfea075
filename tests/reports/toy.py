"""A tiny game that exists only for the report tests: two players, a dealt hand of
secret cards, a sealed bid (batch, revealed together) and a card play per turn, a
four-area map. It exercises every part of the view convention and of hidden
information without depending on a real ruleset.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.core.decisions import Answered, DecisionKind, LineRead, Refused
from pbem.core.dice import DicePurpose
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.core.ruleset import Seat, Step

CARDS = ["Ambush", "Fog of War", "Forced March", "Spy Ring", "Storm", "Treachery"]
POWERS = {"RED": "Red Kingdom", "BLU": "Blue Republic"}


class ToyKind(DecisionKind):
    """A toy decision: `<KIND> <answer>`, the answer one of the request's options."""

    def __init__(self, name: str, description: str):
        self.name, self.description = name, description

    def read(self, text: str, owed: Sequence[Request], answered: Mapping[str, Any]) -> LineRead | None:
        words = text.split(None, 1)
        kind = words[0].lower()
        if kind != self.name and kind in KINDS:
            return None
        request = next((r for r in owed if r.kind == kind), None)
        if request is None:
            return Refused(f"nothing asks for {kind} now")
        value = _value(request, words[1] if len(words) > 1 else "")
        if value is None:
            return Refused("not one of: " + ", ".join(request.options))
        return Answered(request, value, f"{kind} {value}")

    def answer_policy(self, text: str, request: Request) -> Any | None:
        return _value(request, text.split(None, 1)[-1])

    def order_form(self, request: Request) -> str:
        return f"{request.kind.upper()} {request.default}"


def _value(request: Request, text: str) -> Any:
    if request.kind == "bid":
        return int(text) if text.strip().isdigit() and f"BID {int(text)}" in request.options else None
    match = [o[5:] for o in request.options if o[5:].lower() == text.strip().lower()]
    return match[0] if match else None


KINDS = ("bid", "play")


class ToyRules:
    name = "toy"
    title = "Toy Wars"
    version = "0.1"
    decision_kinds = (ToyKind("bid", "a sealed bid of victory points"), ToyKind("play", "the card to play"))
    dice_purposes = (DicePurpose("deal", None, "T.1"), DicePurpose("bid tie", None, "T.3"),
                     DicePurpose("attack", 6, "T.5"))

    def load_scenario(self, data: Mapping[str, Any]) -> dict:
        return dict(data)

    def check_scenario(self, scenario: Any) -> list[str]:
        return []

    def check_options(self, options: Mapping[str, Any]) -> list[str]:
        return []

    def initial_state(self, scenario: Any, options: Mapping[str, Any], seats: Sequence[Seat]) -> dict:
        codes = list(POWERS)
        return {"turn": 1, "phase": "bid", "turns": int(scenario.get("turns", 2)),
                "players": {s.id: {"name": s.name, "vp": 5, "power": codes[i], "hand": []}
                            for i, s in enumerate(seats)},
                "control": {"north": "RED", "south": "BLU", "east": None}, "first": None}

    def encode_state(self, state: Any) -> bytes:
        return json.dumps(state, sort_keys=True, separators=(",", ":")).encode()

    def decode_state(self, data: bytes) -> Any:
        return json.loads(data)

    def next_step(self, state: Any, scenario: Any) -> Step | None:
        if state["turn"] > state["turns"]:
            return None
        procedure = self._bid if state["phase"] == "bid" else self._play
        return Step(f"T{state['turn']}-{state['phase']}", procedure)

    def turn_of(self, step: str) -> int | None:
        return int(step[1:].split("-")[0])

    # -- procedures -------------------------------------------------------
    def _bid(self, ctx: DecisionPort, state: dict) -> None:
        deck = ctx.shuffle("deal", CARDS, rule="T.1")
        # The deal's draws would let anyone holding them rebuild every hand: GM only.
        ctx.say("Deck shuffled and dealt.", to=(), rule="T.1")
        for n, pid in enumerate(sorted(state["players"])):
            state["players"][pid]["hand"] = sorted(deck[n * 2:n * 2 + 2])
            ctx.say("You are dealt " + " and ".join(state["players"][pid]["hand"]) + ".", to=[pid], rule="T.1",
                    with_rolls=False)
        ctx.say("The cards are dealt face down.", rule="T.1", with_rolls=False)
        requests = [ctx.request(kind="bid", player=pid, power=p["power"], default=0, sealed=True, rule="T.2",
                                prompt=f"Sealed bid of VP for {POWERS[p['power']]} (you have {p['vp']})",
                                options=[f"BID {n}" for n in range(4)])
                    for pid, p in sorted(state["players"].items())]
        bids = ctx.decide_all(requests)
        pids = sorted(state["players"])
        text = ", ".join(f"{state['players'][pid]['name']} {bid}" for pid, bid in zip(pids, bids))
        best = max(bids)
        leaders = [pid for pid, bid in zip(pids, bids) if bid == best]
        if len(leaders) > 1:
            leaders = [leaders[ctx.draw_index("bid tie", len(leaders), rule="T.3")]]
        state["first"] = leaders[0]
        state["players"][leaders[0]]["vp"] -= best
        ctx.say(f"Bids revealed: {text}. {state['players'][leaders[0]]['name']} plays first.", rule="T.2")
        state["phase"] = "play"

    def _play(self, ctx: DecisionPort, state: dict) -> None:
        order = sorted(state["players"], key=lambda pid: pid != state["first"])
        for pid in order:
            player = state["players"][pid]
            card = ctx.decide(ctx.request(kind="play", player=pid, power=player["power"], default=player["hand"][0],
                                          prompt="Play a card from your hand: " + ", ".join(player["hand"]),
                                          options=[f"PLAY {c}" for c in player["hand"]], rule="T.4"))
            player["hand"].remove(card)
            ctx.say(f"You play {card}.", to=[pid], rule="T.4", with_rolls=False)
            roll = ctx.roll("attack", rule="T.5")
            target = "east" if roll >= 4 else None
            if target:
                state["control"][target] = player["power"]
                player["vp"] += 1
            ctx.say(f"{POWERS[player['power']]} plays a card face down and attacks: "
                    + ("takes East." if target else "repulsed."), rule="T.5")
        state["turn"] += 1
        state["phase"] = "bid"

    def view(self, state: Any, scenario: Any, viewer: str) -> dict:
        players = state["players"]
        sections = [{"title": "Control", "columns": ["Area", "Held by"],
                     "rows": [[a, c or "-"] for a, c in sorted(state["control"].items())]}]
        for pid, p in sorted(players.items()):
            if viewer in (pid, "gm"):
                sections.append({"title": f"Hand of {p['name']}", "columns": ["Card"],
                                 "rows": [[c] for c in p["hand"]]})
        units = {"north": ["RED army"], "south": ["BLU army", "BLU fleet"]}
        areas = [{"id": "north", "name": "North", "x": 10, "y": 0, "kind": "land"},
                 {"id": "south", "name": "South", "x": 10, "y": 40, "kind": "land"},
                 {"id": "east", "name": "East", "x": 40, "y": 20, "kind": "land", "synthetic": True},
                 {"id": "sea", "name": "Inner Sea", "x": -20, "y": 20, "kind": "sea"}]
        for area in areas:
            area["controller"] = state["control"].get(area["id"])
            area["units"] = units.get(area["id"], [])
        return {
            "turn_label": f"Turn {state['turn']}, {state['phase']} phase" if state["turn"] <= state["turns"]
            else "Game over",
            "powers": {p["power"]: {"name": POWERS[p["power"]], "player": pid} for pid, p in sorted(players.items())},
            "players": {pid: {"name": p["name"], "vp": p["vp"], "cards": len(p["hand"])}
                        for pid, p in sorted(players.items())},
            "sections": sections,
            "map": {"areas": areas, "links": [{"a": "north", "b": "south", "kind": "land"},
                                              {"a": "north", "b": "east", "kind": "land"},
                                              {"a": "south", "b": "east", "kind": "land"},
                                              {"a": "sea", "b": "north", "kind": "sea"},
                                              {"a": "sea", "b": "south", "kind": "sea"}]},
        }
