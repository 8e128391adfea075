"""Technology (§19.3; example §27.3): the four generic technology cards — Siege, Land, Naval and
Industrial — start an auction (`bidding.py`); the winning power takes the technology.

"In the first three, this advantage has a duration limited to the rest of the turn … At the
end of the turn, the card is returned" (§19.3): `state.technology` holds each technology's
holder and turn end empties it of those three. Industrial Technology's duration is not stated,
so it stays with its winner until another wins it (RR-I145). The effects adjudicated are the
ones the card texts give: Land Technology re-rolls every 2 in sieges and land battles (RR-C14,
in the combat engine); Siege, Naval and Industrial Technology are held, their texts not known.
"""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import bidding
from pbem.rules.ratio_regis.scenario import Card
from pbem.rules.ratio_regis.state import GameState

#: The technologies whose advantage lasts until the end of the turn (§19.3).
FOR_THE_TURN = ("siege", "land", "naval")


def auction(ctx: DecisionPort, state: GameState, player: str, card: Card, technology: str) -> str:
    """§19.3.1: the auction of `card`; the winner's unrest rises by its bid and it holds the
    technology. "If no major power has placed a bet, the event is ignored." Returns the text."""
    bid = bidding.run(ctx, state, player, bidding.Lot(card.title, card.number, "§19.3.1"))
    if bid is None:
        text = f"nobody bids for {card.title}: the event is ignored (§19.3.1)"
    else:
        state.powers[bid.power].unrest += bid.amount
        state.technology[technology] = bid.power
        text = (f"{bid.power} wins {card.title} for {bid.amount}: its unrest rises to "
                f"{state.powers[bid.power].unrest} and it holds the technology"
                + (" until the end of the turn" if technology in FOR_THE_TURN else "") + " (§19.3.1)")
    ctx.say(f"{card.title}: {text}", rule="§19.3.1")
    return text


def held_by(state: GameState, power: str) -> tuple[str, ...]:
    """The technologies a power holds, for its side in a combat (§19.3)."""
    return tuple(sorted(name for name, holder in state.technology.items() if holder == power))


def expire(ctx: DecisionPort, state: GameState) -> None:
    """§19.3 at turn end: Siege, Land and Naval Technology are lost ("the other major powers have
    copied or canceled it")."""
    lost = [f"{state.technology.pop(name)} loses {name} technology" for name in FOR_THE_TURN
            if name in state.technology]
    if lost:
        ctx.say("; ".join(lost) + " at the end of the turn (§19.3)", rule="§19.3, §23.1.2")
