"""A test ruleset for unit tests of the core alone (a fake, by design): a sealed bid by
every player, then rounds in which the high bidder rolls a die and chooses to keep or
reroll it. It exercises sealed batches, single decisions, policies and dice.

With powers in its scenario (`powers = {RED = "ann", BLUE = "ann"}`: each power and who
holds it), the leader then picks the game's pace among the request's options, every power
gives a block of orders at once (power-addressed: one player holding two powers orders
both in one mail), and every power queues actions, each taken if it is legal when its turn
comes.

It declares its kinds and orders and nothing else about them: the core reads its order
lines, blocks, policies, conditional lines and order forms through them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import msgspec

from pbem.core.blocks import BlockKind, PowerBlock
from pbem.core.decisions import LineKind, OptionKind, Refusal
from pbem.core.dice import DicePurpose
from pbem.core.engine import ALL
from pbem.core.port import DecisionPort
from pbem.core.ruleset import RulingError, ScenarioError, Step
from pbem.core.toolkit import Order, OrderTable


class State(msgspec.Struct):
    players: list[str]
    bids: dict[str, int] = {}
    leader: str | None = None
    round: int = 0
    score: int = 0
    pace: str | None = None
    tallies: dict[str, int] = {}  # power -> its tally
    ordered: bool = False
    queued: bool = False


_encoder = msgspec.json.Encoder(order="sorted")
_decoder = msgspec.json.Decoder(State)


def _bid(text: str) -> int | None:
    words = text.upper().split()
    return int(words[1]) if len(words) == 2 and words[0] == "BID" and words[1].isdigit() else None


def _keep(text: str) -> str | None:
    words = text.upper().split()
    return {"KEEP": "yes", "REROLL": "no"}.get(words[0]) if len(words) == 1 else None


BID = LineKind("bid", "a sealed bid: BID <n>", parse=_bid, form=lambda amount: f"BID {amount}", keywords=("BID",))
KEEP = LineKind("keep", "keep the die or roll again: KEEP | REROLL", parse=_keep,
                form=lambda keep: "KEEP" if keep == "yes" else "REROLL", keywords=("KEEP", "REROLL"))


PACE = OptionKind("pace", "the pace of the game, one of those offered: PACE SLOW | PACE FAST", keywords=("PACE",))


# -- a power's orders: each one class, listed in ORDERS -------------------------------------
@dataclass(frozen=True)
class Add(Order):
    """§3.1: a power adds to its tally, at most 6 a line."""

    patterns: ClassVar = ("ADD <amount:int>",)
    rule: ClassVar = "§3.1"
    amount: int

    def execute(self, game: PowerBlock) -> str:
        if not 1 <= self.amount <= 6:
            raise Refusal("a power adds 1 to 6 a line (§3.1)")
        game.state.tallies[game.power] = game.state.tallies.get(game.power, 0) + self.amount
        return f"{game.power} adds {self.amount}"


@dataclass(frozen=True)
class Double(Order):
    """§3.2: a power doubles its tally, which must not be empty."""

    patterns: ClassVar = ("DOUBLE",)
    rule: ClassVar = "§3.2"

    def execute(self, game: PowerBlock) -> str:
        if not game.state.tallies.get(game.power):
            raise Refusal(f"{game.power} has nothing to double (§3.2)")
        game.state.tallies[game.power] *= 2
        return f"{game.power} doubles to {game.state.tallies[game.power]}"


@dataclass(frozen=True)
class Stand(Order):
    """No orders."""

    patterns: ClassVar = ("STAND",)
    kept: ClassVar = False

    def execute(self, game: PowerBlock) -> str:
        return ""


ORDERS = OrderTable("orders", (Add, Double, Stand))
ACTIONS = OrderTable("actions", (Add, Double, Stand))


def _copy(state: State) -> State:
    return _decoder.decode(_encoder.encode(state))


BLOCK = BlockKind("orders", "a power's orders", ORDERS, _copy, defers=("STAND",))
QUEUE = BlockKind("actions", "a power's queued actions, each taken if legal when its turn comes", ACTIONS, _copy,
                  whole=False, defers=ACTIONS.keywords)


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


def pacing(ctx: DecisionPort, state: State) -> None:
    state.pace = ctx.decide(ctx.request(kind="pace", player=state.leader, prompt="the pace", default="PACE SLOW",
                                        options=["PACE SLOW", "PACE FAST"], rule="§2.9"))


def power_blocks(ctx: DecisionPort, state: State, kind: BlockKind) -> None:
    """Every power's block of `kind` asked at once and carried out in the powers' order."""
    powers = sorted(ctx.scenario["powers"])
    requests = [ctx.request(kind=kind.name, player=ctx.scenario["powers"][p], power=p, purpose=f"{kind.name}:{p}",
                            prompt=f"{p}'s {kind.name}", default=[], rule="§3") for p in powers]
    for power, lines in zip(powers, ctx.decide_all(requests), strict=True):
        kind.carry_out(ctx, state, ctx.scenario, power, lines, rule="§3")


def ordering(ctx: DecisionPort, state: State) -> None:
    power_blocks(ctx, state, BLOCK)
    state.ordered = True


def queueing(ctx: DecisionPort, state: State) -> None:
    power_blocks(ctx, state, QUEUE)
    state.queued = True


class MiniGame:
    name = "minigame"
    title = "Minigame"
    version = "1"
    decision_kinds = (BID, KEEP, PACE, BLOCK, QUEUE)
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
        if not scenario.get("powers"):
            return None
        if state.pace is None:
            return Step("pace", pacing)
        if not state.ordered:
            return Step("orders", ordering)
        if not state.queued:
            return Step("queue", queueing)
        return None

    def apply_ruling(self, state, scenario, kind, args):
        if kind != "score" or not str(args.get("score", "")).lstrip("-").isdigit():
            raise RulingError("the minigame knows one ruling: score score=<n>")
        state.score = int(args["score"])

    def turn_of(self, step):
        return int(step.split("-")[1]) if step.startswith("round-") else None

    def view(self, state, scenario, viewer):
        players = {p: {"name": p, "bid": state.bids.get(p)} for p in state.players}
        powers = {p: {"player": holder, "tally": state.tallies.get(p, 0)}
                  for p, holder in sorted(scenario.get("powers", {}).items())}
        return {"turn_label": f"round {state.round}", "powers": powers, "players": players, "score": state.score,
                "leader": state.leader, "sections": []}
