"""The card deck: building and dealing it (§8.1.4, §26.4) and which cards must be
played first (§8.2.2 "Card play")."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.scenario import Card, Scenario
from pbem.rules.ratio_regis.state import GameState

PRIORITY_HAND_SIZE = 4  # "only 4 cards left or less" (§8.2.2)


def build_and_deal(ctx: DecisionPort, state: GameState) -> None:
    """§8.1.4: all historical cards of the turn (less the scenario's and the special rules'
    exclusions), topped
    up with a random selection of the generic cards (less exclusions) to the deck size
    for the number of players; shuffled and dealt face down in equal hands.

    RR-I7: cards are dealt one at a time in game order. If the historical cards alone
    exceed the deck size, the deck is all of them and the first players in game order
    get one card more. A turn played without cards deals none (§33.1, RR-I270).
    """
    scenario: Scenario = ctx.scenario
    players = state.by_game_order()
    size = scenario.deck_size(len(players)) or 0
    out = {*state.excluded, *state.excluded_turn}  # removed by the turn's special rules (§34)
    historical = [c.number for c in scenario.historical_cards(state.turn) if c.number not in out]
    if state.cardless is not None:  # §33.1 "played without cards" (RR-I270): not even the turn's events
        size, historical = 0, []
    wanted = max(0, size - len(historical))
    generic_pool = [number for number in scenario.generic_numbers if number not in out]
    generic = ctx.shuffle("deck-generic", generic_pool, rule="§8.1.4")[:wanted]
    deck = ctx.shuffle("deck-shuffle", historical + generic, rule="§8.1.4")
    for seat, player in enumerate(players):  # one card at a time in game order: every len(players)-th card
        player.hand = sorted(deck[seat::len(players)])
    state.discard = []
    # The shuffle's dice would let anyone rebuild every hand, so only the GM sees them.
    ctx.say("Deck shuffled and dealt with these dice", to=(), rule="§8.1.4")
    ctx.say(f"{scenario.turn_label(state.turn)}: the deck has {len(deck)} cards, {len(historical)} historical and "
            f"{len(generic)} generic; each player is dealt {len(deck) // len(players)}", rule="§8.1.4",
            with_rolls=False)
    for player in players:
        ctx.say(f"Your hand: {describe_cards(scenario, player.hand)}", to=[player.id], rule="§8.1.4",
                with_rolls=False)


def describe_cards(scenario: Scenario, numbers: list[int]) -> str:
    return ", ".join(f"{n} {scenario.cards[n].title} ({scenario.cards[n].points})" for n in numbers) or "none"


def is_priority(card: Card, hand_size: int) -> bool:
    """A card that must be chosen first: always, or once the hand is down to 4 (§8.2.2)."""
    return card.priority == "always" or (card.priority == "hand4" and hand_size <= PRIORITY_HAND_SIZE)


def priority_cards(scenario: Scenario, hand: list[int]) -> list[int]:
    size = len(hand)
    return [n for n in hand if is_priority(scenario.cards[n], size)]


def playable(scenario: Scenario, hand: list[int], first: list[int] | None = None) -> list[int]:
    """The cards that may be played for points now: the priority cards if any are held,
    otherwise any; combat cards always (they ignore priorities, §8.2.2 "Combat cards").
    `first`: the hand's `priority_cards`, when the caller has them already."""
    if first is None:
        first = priority_cards(scenario, hand)
    if not first:
        return list(hand)
    return sorted(set(first) | {n for n in hand if scenario.cards[n].combat})


def may_play(scenario: Scenario, hand: list[int], card: Card) -> bool:
    """Whether `card` (in `hand`) is one of the `playable` ones (§8.2.2): a priority or
    combat card always is, any other only while the hand holds no priority card."""
    return card.combat or is_priority(card, len(hand)) or not priority_cards(scenario, hand)
