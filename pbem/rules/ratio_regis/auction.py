"""The major power auction (§7.1.1; worked example §26.2)."""

from __future__ import annotations

from pbem.core.decisions import LineKind, Refusal
from pbem.core.engine import Request
from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.orders import Bid, GroupChoice, command_parser
from pbem.rules.ratio_regis.scenario import Group, Scenario
from pbem.rules.ratio_regis.state import AUCTION_GROUPS, TURN_START, GameState, PlayerState


def groups_for(state: GameState, scenario: Scenario) -> list[Group]:
    setup = scenario.setup_for(len(state.players))
    return setup.groups if setup is not None else []


def bids(ctx: DecisionPort, state: GameState) -> None:
    """§7.1.1: every player bids VP in secret; the bids are revealed together. The
    highest bid is player 1, the next player 2 …; ties are settled by dice (RR-I9:
    each tied player rolls in seating order, highest first, ties roll again)."""
    requests = [ctx.request(kind="bid", player=p.id, purpose=f"bid-{p.id}", default=0, sealed=True,
                            prompt="Your secret VP bid for the game order (BID <n>)", rule="§7.1.1",
                            context={"players": len(state.players)})
                for p in state.players]
    for player, amount in zip(state.players, ctx.decide_all(requests), strict=True):
        player.bid = int(amount)
    ctx.say("Bids revealed: " + ", ".join(f"{p.name} {p.bid}" for p in state.players), rule="§7.1.1")
    ranked = _rank(ctx, state.players)
    for position, player in enumerate(ranked, start=1):
        player.game_order = position
    ctx.say("Game order: " + ", ".join(f"{p.game_order}. {p.name}" for p in ranked), rule="§7.1.1")
    state.phase = AUCTION_GROUPS


def _rank(ctx: DecisionPort, players: list[PlayerState]) -> list[PlayerState]:
    by_bid: dict[int, list[PlayerState]] = {}
    for player in players:  # seating order
        by_bid.setdefault(player.bid or 0, []).append(player)
    ranked: list[PlayerState] = []
    for amount in sorted(by_bid, reverse=True):
        ranked += _break_tie(ctx, by_bid[amount])
    return ranked


def _break_tie(ctx: DecisionPort, tied: list[PlayerState]) -> list[PlayerState]:
    if len(tied) == 1:
        return tied
    rolls = {p.id: ctx.roll("auction-tiebreak", rule="§7.1.1") for p in tied}
    ctx.say("Tie broken by dice: " + ", ".join(f"{p.name} rolls {rolls[p.id]}" for p in tied), rule="§7.1.1")
    result: list[PlayerState] = []
    for value in sorted(set(rolls.values()), reverse=True):
        result += _break_tie(ctx, [p for p in tied if rolls[p.id] == value])
    return result


def choose_group(ctx: DecisionPort, state: GameState) -> None:
    """§7.1.1: in game order, each player chooses a group of powers. Once all have
    chosen, each starts at (highest bid − own bid) + the group's starting VP (§26.2)."""
    scenario: Scenario = ctx.scenario
    groups = groups_for(state, scenario)
    player = next_chooser(state)
    taken = {p.group for p in state.players if p.group is not None}
    free = [n for n in range(1, len(groups) + 1) if n not in taken]
    request = ctx.request(kind="group", player=player.id, purpose="group", default=free[0],
                          options=[f"GROUP {n}" for n in free], rule="§7.1.1",
                          prompt="Choose your group of powers: " + "; ".join(
                              f"GROUP {n} = {groups[n - 1].name}" for n in free),
                          context={"game_order": player.game_order, "free": ",".join(map(str, free))})
    number = int(ctx.decide(request))
    player.group = number
    group = groups[number - 1]
    for code in group.powers:
        state.powers[code].player = player.id
    ctx.say(f"{player.name} (player {player.game_order}) takes {group.name}", rule="§7.1.1")
    if next_chooser(state) is None:
        _starting_vp(ctx, state, groups)
        state.phase = TURN_START


def next_chooser(state: GameState) -> PlayerState | None:
    return next((p for p in state.by_game_order() if p.group is None), None)


def _starting_vp(ctx: DecisionPort, state: GameState, groups: list[Group]) -> None:
    highest = max(p.bid or 0 for p in state.players)
    for player in state.by_game_order():
        group = groups[(player.group or 1) - 1]
        player.vp = highest - (player.bid or 0) + group.starting_vp
        player.vp_per_turn = group.vp_per_turn
    ctx.say("Starting VP: " + ", ".join(f"{p.name} {p.vp}" for p in state.by_game_order()), rule="§7.1.1")


def _free_group(request: Request, number: int) -> int:
    """Only a group nobody has taken may be chosen (§7.1.1)."""
    if f"GROUP {number}" not in request.options:
        free = ", ".join(option.split()[1] for option in request.options)
        raise Refusal(f"group {number} is not free (free: {free})")
    return number


BID_KIND = LineKind("bid", "your secret VP bid for the game order (§7.1.1): BID <n>",
               parse=command_parser(Bid, lambda line: line.amount), form=lambda amount: f"BID {amount}",
               keywords=("BID",))
GROUP_KIND = LineKind("group", "your choice of power group, in game order (§7.1.1): GROUP <n>",
                 parse=command_parser(GroupChoice, lambda line: line.number), form=lambda number: f"GROUP {number}",
                 check=_free_group, keywords=("GROUP",))
