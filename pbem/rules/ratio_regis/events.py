"""Card events (§3.1, §8.2.2 "Card play"): the effects a scenario gives a card
(`effects = [{set_nod = 2}]`, RR-I52), applied when the card is played for its event.

A card is played "by applying what the event states in it, and also by using the points"
(§8.2.2); a combat card played for its point has its text ignored. The effects known are
the naval operation distance raised (Nautical Astrolabe, §28.8), piracy allowed by an
event (§11.5.1) and interest in a theater (§18.4.1, §28.10), each lasting for the rest of
the game; rebellions placed (§18.3, RR-I80) and inactive independent areas brought into
play (§18.2, RR-I82), in `rebellions.py`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.rules.ratio_regis import rebellions
from pbem.rules.ratio_regis.movement import IllegalOrder
from pbem.rules.ratio_regis.scenario import Card, Effect, Scenario
from pbem.rules.ratio_regis.state import GameState


def apply_event(state: GameState, judge: Any, card: Card, *, player: str = "", scenario: Scenario | None = None,
                chosen: Sequence[str] = ()) -> list[str]:
    """§8.2.2: every effect of `card`'s event, in the order written; returns what changed
    (each also said in the chronicle). Combat cards played for points do nothing (§8.2.2).
    `player` played the card and chooses where its rebellions go; `chosen` are the areas the
    PLAY line names for them, in order (RR-I80)."""
    if card.combat:
        if chosen:
            raise IllegalOrder(f"{card.title} is a combat card: played for its point, its text is ignored, so PLACE "
                               f"has nothing to place (§8.2.2)")
        return []
    scenario = scenario or getattr(judge, "scenario", None)
    rebellions.check_chosen(card, chosen)
    left = list(chosen)
    texts = []
    for effect in card.effects:
        if effect.rebellion is not None:
            done = rebellions.place_rebellions(state, scenario, judge, player, card, effect.rebellion, left)
        elif effect.activate is not None:
            done = rebellions.activate(state, scenario, effect.activate)
        else:
            done = [_apply(state, effect)]
        for text in done:
            judge.say(f"{card.title}: {text}", rule="§8.2.2")
        texts += done
    return texts


def _apply(state: GameState, effect: Effect) -> str:
    if effect.set_nod is not None:
        state.nod = max(state.nod, effect.set_nod)
        return f"the naval operation distance is {state.nod} from now on (§11.1, §28.8)"
    if effect.allow_piracy is not None:
        if effect.allow_piracy not in state.piracy:
            state.piracy.append(effect.allow_piracy)
        return f"{effect.allow_piracy} may make piracy actions (§11.5.1)"
    power, theater = effect.add_interest
    added = state.interests.setdefault(power, [])
    if theater not in added:
        added.append(theater)
    return f"{power} has an interest in {theater} (§18.4.1)"
