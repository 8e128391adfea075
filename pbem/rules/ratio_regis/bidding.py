"""The auction of a technology or of a minor's alliance (§19.3.1, §20.3.1; examples §27.3, §29.2).

The player who played the card bids first with one of their powers, then the others in game
order, round and round (RR-I142); each bid must beat the last, and a power bids against its
unrest at most `min(V, 2V − U)` — its vitality less each unrest point above it — so below 1
it cannot bid. In a minor's auction only powers interested in its theater bid, with the
vitality their card gives for diplomacy (§29.2). v1.2.4 ends the auction when no other player
raises the last bid; v2.1 when every player, the last bidder's too, passes in a row (RR-I144).

By default (option `auction=sealed`, RR-I143) each player answers once, sealed: the most one of
their powers would pay (`AUCTION SPA 3`, or `AUCTION PASS`); the auction is then bid up in turn
for them, each standing bid raising the last by 1 while it can. With `auction=open` every bid
is its own decision (`AUCTION SPA 2` beats the last bid, `AUCTION PASS` passes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.scenario import Scenario
from pbem.rules.ratio_regis.state import GameState

PASS = "AUCTION PASS"

#: One player's turn in the auction: given the last bid, their bid, or None for a pass.
Turn = Callable[[str, "Bid | None"], "Bid | None"]


@dataclass(frozen=True)
class Lot:
    """What is auctioned: a technology or a minor's alliance, by the card that started it."""

    title: str
    card: int
    rule: str
    minor: str | None = None


@dataclass(frozen=True)
class Bid:
    player: str
    power: str
    amount: int


def bid_limit(vitality: int, unrest: int) -> int:
    """§19.3.1: "The maximum number of points it can bet is its vitality. This limit is decreased
    by each unrest point exceeding its vitality" (§27.3: V3, unrest 5 → 1)."""
    return min(vitality, 2 * vitality - unrest)


def limits(state: GameState, scenario: Scenario, player: str, lot: Lot) -> dict[str, int]:
    """The player's powers that may bid, with their limits (at least 1): for a minor, only
    those interested in its theater (§20.3.1), with their card's diplomatic vitality (§29.2)."""
    found = {}
    for code in state.powers_of(player, scenario):
        power = scenario.powers[code]
        vitality = power.vitality
        if lot.minor is not None:
            theater = scenario.minors[lot.minor].theater
            if not scenario.interested_in_theater(code, theater, state.interests.get(code, [])):
                continue
            vitality = power.diplomacy.get(lot.minor, power.diplomacy.get("*", vitality))
        limit = bid_limit(vitality, state.powers[code].unrest)
        if limit >= 1:
            found[code] = limit
    return found


def bidding_order(state: GameState, player: str) -> list[str]:
    """RR-I142: the card's player first, then "following the order of play" — game order,
    round from them (§27.3: p2, p3, p1)."""
    order = [p.id for p in state.by_game_order()]
    start = order.index(player)
    return order[start:] + order[:start]


def run(ctx: DecisionPort, state: GameState, player: str, lot: Lot) -> Bid | None:
    """The auction of `lot` started by `player`'s card: the winning bid, or None when nobody bid
    (the event is void, §19.3.1; a minor turns neutral, §20.4.1). Each bid is said."""
    scenario: Scenario = ctx.scenario
    order = bidding_order(state, player)
    allowed = {p: limits(state, scenario, p, lot) for p in order}
    for who in order:
        if not allowed[who]:
            ctx.say(f"{lot.title}: {state.player(who).name} has no power that may bid (§19.3.1, §20.3.1)",
                    rule=lot.rule)
    if state.options.auction == "open":
        return _open(ctx, state, order, allowed, lot)
    return _sealed(ctx, state, order, allowed, lot)


def _sealed(ctx: DecisionPort, state: GameState, order: list[str], allowed: dict[str, dict[str, int]],
            lot: Lot) -> Bid | None:
    """RR-I143: one sealed standing bid per player, then the open auction played out for them:
    in turn, a standing bid above the last bid (and not the last bidder's own) raises it by 1."""
    asking = [p for p in order if allowed[p]]
    if not asking:
        return None
    requests = [_request(ctx, p, allowed[p], lot, sealed=True, above=0) for p in asking]
    standing = {p: _read(answer) for p, answer in zip(asking, ctx.decide_all(requests), strict=True)}
    ctx.say(f"{lot.title}: standing bids " + ", ".join(
        f"{state.player(p).name} {_text(standing[p])}" for p in asking), rule=lot.rule)

    def turn(who: str, last: Bid | None) -> Bid | None:
        mine = standing.get(who)
        above = last.amount if last else 0
        if mine is None or mine[1] <= above or (last is not None and last.player == who):
            return None
        return Bid(who, mine[0], above + 1)

    return _rounds(ctx, state, order, lot, turn)


def _open(ctx: DecisionPort, state: GameState, order: list[str], allowed: dict[str, dict[str, int]],
          lot: Lot) -> Bid | None:
    """Open rounds: each player in turn who could beat the last bid is asked to bid or pass."""

    def turn(who: str, last: Bid | None) -> Bid | None:
        above = last.amount if last else 0
        able = {code: limit for code, limit in allowed[who].items() if limit > above
                and not (last is not None and last.power == code)}
        if not able:
            return None
        answer = _read(ctx.decide(_request(ctx, who, able, lot, sealed=False, above=above)))
        return Bid(who, answer[0], answer[1]) if answer else None

    return _rounds(ctx, state, order, lot, turn)


def _rounds(ctx: DecisionPort, state: GameState, order: list[str], lot: Lot, turn: Turn) -> Bid | None:
    """Round and round from the card's player until it ends (RR-I144): v1.2.4, when every other
    player has passed since the last bid ("until no more players decide to increase their bet");
    v2.1, when all have passed in a row, the last bidder's player too ("de forma consecutiva
    todos deciden no pujar más"); with no bid at all, when everyone has passed once."""
    last: Bid | None = None
    passes = 0
    index = 0
    while True:
        who = order[index % len(order)]
        index += 1
        if last is not None and last.player == who and state.options.variant != "v2.1":
            continue
        bid = turn(who, last)
        if bid is None:
            passes += 1
            needed = len(order) if last is None or state.options.variant == "v2.1" else len(order) - 1
            if passes >= needed:
                return last
            continue
        last, passes = bid, 0
        ctx.say(f"{lot.title}: {state.player(who).name} bids {bid.amount} with {bid.power}", rule=lot.rule)


def _request(ctx: DecisionPort, player: str, allowed: Mapping[str, int], lot: Lot, *, sealed: bool,
             above: int) -> Request:
    powers = ", ".join(f"{code} up to {limit}" for code, limit in allowed.items())
    what = ("your sealed standing bid, the most you would pay" if sealed
            else f"your bid, above {above}" if above else "your bid")
    return ctx.request(kind="auction", player=player, purpose=f"auction-{lot.card}-{player}", default=PASS,
                       options=[f"AUCTION {code} {above + 1}..{limit}" for code, limit in allowed.items()] + [PASS],
                       prompt=f"{lot.title}: {what} against a power's unrest ({powers}), or AUCTION PASS",
                       sealed=sealed, rule=lot.rule,
                       context={"card": lot.card, "minor": lot.minor or "", "above": above,
                                "limits": dict(allowed), "mode": "sealed" if sealed else "open"})


def _read(answer: str) -> tuple[str, int] | None:
    words = answer.split()
    return None if words[1] == "PASS" else (words[1], int(words[2]))


def _text(standing: tuple[str, int] | None) -> str:
    return "pass" if standing is None else f"{standing[0]} up to {standing[1]}"


# -- the decision kind -------------------------------------------------------------------------
def _parse(text: str) -> str | None:
    words = text.upper().split()
    if not words or words[0] != "AUCTION":
        return None
    if words[1:] == ["PASS"]:
        return PASS
    if len(words) != 3 or not words[2].isdigit():
        raise Refusal("write AUCTION <POWER> <n> or AUCTION PASS")
    return f"AUCTION {words[1]} {int(words[2])}"


def _check(request: Request, answer: str) -> str:
    """A bid names a power that may bid, at least 1 above the last bid and within its limit
    (§19.3.1: "the minimum bet is 1", "surpass this bet")."""
    chosen = _read(answer)
    if chosen is None:
        return answer
    power, amount = chosen
    allowed: Mapping[str, int] = request.context["limits"]
    if power not in allowed:
        raise Refusal(f"{power} may not bid here (may bid: {', '.join(allowed) or 'none'}; a power bids up to "
                      f"min(V, 2V - unrest), at least 1, and for a minor only with interest in its theater)")
    above = request.context["above"]
    if amount <= above:
        raise Refusal(f"a bid must beat the last one, {above}: bid at least {above + 1}")
    if amount > allowed[power]:
        raise Refusal(f"{power} may bid up to {allowed[power]} (min(V, 2V - unrest), §19.3.1), not {amount}")
    return answer


AUCTION_KIND = LineKind("auction", "a bid in a technology or minor auction (§19.3.1, §20.3.1): "
                        "AUCTION <POWER> <n> | AUCTION PASS",
                        parse=_parse, form=lambda answer: answer, check=_check,
                        keywords=("AUCTION",))
