"""A two-step test ruleset for unit tests of the core alone (a fake, by design): a sealed
bid by every player, then rounds in which the high bidder rolls a die and chooses to
keep or reroll it. It exercises sealed batches, single decisions, policies and dice.

It declares its two decision kinds and nothing else about orders: the core reads its
order lines, policies, conditional lines and order forms through them."""

from __future__ import annotations

import msgspec

from pbem.core.decisions import LineKind
from pbem.core.dice import DicePurpose
from pbem.core.engine import ALL
from pbem.core.port import DecisionPort
from pbem.core.ruleset import RulingError, ScenarioError, Step


class State(msgspec.Struct):
    players: list[str]
    bids: dict[str, int] = {}
    leader: str | None = None
    round: int = 0
    score: int = 0


_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(State)


def _bid(text: str) -> int | None:
    words = text.upper().split()
    return int(words[1]) if len(words) == 2 and words[0] == "BID" and words[1].isdigit() else None


def _keep(text: str) -> str | None:
    words = text.upper().split()
    return {"KEEP": "yes", "REROLL": "no"}.get(words[0]) if len(words) == 1 else None


BID = LineKind("bid", "a sealed bid: BID <n>", parse=_bid, form=lambda amount: f"BID {amount}")
KEEP = LineKind("keep", "keep the die or roll again: KEEP | REROLL", parse=_keep,
                form=lambda keep: "KEEP" if keep == "yes" else "REROLL")


def bidding(ctx: DecisionPort, state: State) -> None:
    requests = [ctx.request(kind="bid", player=p, purpose=f"bid:{p}", prompt="your sealed bid", default=0,
                            sealed=True, rule="§1") for p in state.players]
    bids = ctx.decide_all(requests)
    state.bids = dict(zip(state.players, bids, strict=True))
    best = max(bids)
    tied = [p for p, b in state.bids.items() if b == best]
    state.leader = tied[ctx.draw_index("tiebreak", len(tied), rule="§1.2")] if len(tied) > 1 else tied[0]
    ctx.say(f"{state.leader} wins the bidding", rule="§1")


def playing_round(ctx: DecisionPort, state: State) -> None:
    value = ctx.roll("round", rule="§2")
    keep = ctx.decide(ctx.request(kind="keep", player=state.leader, prompt=f"keep {value}?", default="yes",
                                  context={"value": value}, rule="§2.1"))
    if keep == "no":
        value = ctx.roll("round", rule="§2.1")
    state.score += value
    state.round += 1
    ctx.say(f"round {state.round}: {value}", to=(ALL,), rule="§2")


class MiniGame:
    name = "minigame"
    title = "Minigame"
    version = "1"
    decision_kinds = (BID, KEEP)
    dice_purposes = (DicePurpose("round", 6, "§2"), DicePurpose("tiebreak", None, "§1.2"))
    rulings = {"score": "score=<n>: set the score"}

    def load_scenario(self, data):
        if "rounds" not in data:
            raise ScenarioError(["rounds: missing"])
        return dict(data)

    def check_scenario(self, scenario):
        return []

    def check_options(self, options):
        return [f"unknown option {name!r}" for name in sorted(options)]

    def initial_state(self, scenario, options, seats):
        return State(players=[s.id for s in seats])

    def encode_state(self, state):
        return _encoder.encode(state)

    def decode_state(self, data):
        return _decoder.decode(data)

    def next_step(self, state, scenario):
        if state.leader is None:
            return Step("bidding", bidding)
        if state.round < scenario["rounds"]:
            return Step(f"round-{state.round + 1}", playing_round)
        return None

    def apply_ruling(self, state, scenario, kind, args):
        if kind != "score" or not str(args.get("score", "")).lstrip("-").isdigit():
            raise RulingError("the minigame knows one ruling: score score=<n>")
        state.score = int(args["score"])

    def turn_of(self, step):
        return int(step.split("-")[1]) if step.startswith("round-") else None

    def view(self, state, scenario, viewer):
        players = {p: {"name": p, "bid": state.bids.get(p)} for p in state.players}
        return {"turn_label": f"round {state.round}", "powers": {}, "players": players, "score": state.score,
                "leader": state.leader, "sections": []}
