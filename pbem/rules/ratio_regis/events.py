"""Card events (§3.1, §8.2.2 "Card play"): the effects a scenario gives a card
(`effects = [{set_nod = 2}]`, RR-I52, RR-I69), applied when the card is played for its event.

A card is played "by applying what the event states in it, and also by using the points"
(§8.2.2); a combat card played for its point has its text ignored. The effects known are
the naval operation distance raised (Nautical Astrolabe, §28.8), piracy allowed by an
event (§11.5.1), interest in a theater (§18.4.1, §28.10) — each lasting for the rest of the
game — and the diplomatic events of §31.1 (REBELLION IN FLANDERS: "the Netherlands stops
being allied with Spain, they both go to war. Control markers are placed in the three areas
of Flanders. Spain delivers a morale counter to the Netherlands, and repatriates Brugge's
army"): a war between two powers, control markers, a morale counter, and a repatriation
(§14); and rebellions placed (§18.3, RR-I80) and inactive independent areas brought into
play (§18.2, RR-I82), in `rebellions.py`. They apply in the order the card lists them;
"after finishing all the consequences of the event" the card's actions follow (§31.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import rebellions
from pbem.rules.ratio_regis.control import place_control
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.repatriation import repatriate
from pbem.rules.ratio_regis.scenario import Card, Effect, Scenario
from pbem.rules.ratio_regis.state import GameState, War
from pbem.rules.ratio_regis.war import give_morale


def apply_event(state: GameState, scenario: Scenario, judge: DecisionPort, card: Card, *, player: str = "",
                chosen: Sequence[str] = ()) -> list[str]:
    """§8.2.2: every effect of `card`'s event, in the order written; returns one line per
    effect (each also said in the chronicle, with what follows from it). Combat cards
    played for points do nothing (§8.2.2). `player` played the card and chooses where its
    rebellions go; `chosen` are the areas the PLAY line names for them, in order (RR-I80)."""
    if card.combat:
        if chosen:
            raise IllegalOrder(f"{card.title} is a combat card: played for its point, its text is ignored, so PLACE "
                               f"has nothing to place (§8.2.2)")
        return []
    rebellions.check_chosen(card, chosen)
    left = list(chosen)
    texts: list[str] = []
    for effect in card.effects:
        if effect.rebellion is None and effect.activate is None:
            texts.append(_apply(state, scenario, judge, card, effect))
            continue
        done = (rebellions.place_rebellions(state, scenario, judge, player, card, effect.rebellion, left)
                if effect.rebellion is not None else rebellions.activate(state, scenario, effect.activate))
        for text in done:
            judge.say(f"{card.title}: {text}", rule="§8.2.2")
        texts += done
    return texts


def _apply(state: GameState, scenario: Scenario, judge: DecisionPort, card: Card, effect: Effect) -> str:
    def said(text: str, rule: str = "§8.2.2") -> str:
        judge.say(f"{card.title}: {text}", rule=rule)
        return text

    if effect.set_nod is not None:
        state.nod = max(state.nod, effect.set_nod)
        return said(f"the naval operation distance is {state.nod} from now on (§11.1, §28.8)")
    if effect.allow_piracy is not None:
        if effect.allow_piracy not in state.piracy:
            state.piracy.append(effect.allow_piracy)
        return said(f"{effect.allow_piracy} may make piracy actions (§11.5.1)")
    if effect.add_interest is not None:
        power, theater = effect.add_interest
        added = state.interests.setdefault(power, [])
        if theater not in added:
            added.append(theater)
        return said(f"{power} has an interest in {theater} (§18.4.1)")
    if effect.start_war is not None:
        return said(start_war(state, *effect.start_war), rule="§21.3")
    if effect.give_control is not None:
        markers = effect.give_control
        texts = [place_control(state, scenario, judge, markers.power, area, card.title) for area in markers.areas]
        return "; ".join(texts)
    if effect.give_morale is not None:
        giver, receiver = effect.give_morale
        text = give_morale(state, judge, giver, receiver, card.title, "§21.3.4")
        return text or said(f"{giver} and {receiver} are not at war: no morale counter changes hands (§21.3.4)")
    order = effect.repatriate
    said(f"{order.power} must repatriate its units from {', '.join(order.places)} (§14)", rule="§14")
    repatriate(state, scenario, judge, order.power, order.places, why=card.title)
    return f"{order.power} repatriates its units from {', '.join(order.places)} (§14)"


def start_war(state: GameState, first: str, second: str) -> str:
    """§21.3 "Two major powers can be at war … by event cards" (RR-I69): the war begins
    (cause `event`, whose winner gains 1 VP, §21.3.1); the casus belli between the two
    disappear (§21.3.2 "if the war breaks out"); a forced peace between them ends (§21.5.4:
    "if a war between the two major powers should occur again due to a historical event, the
    forced peace ends"). Alliances are not adjudicated yet: an event that ends one ("stops
    being allied … go to war", §31.1) is this war. Returns the chronicle text."""
    if state.at_war(first, second):
        return f"{first} and {second} are already at war"
    if state.options.variant == "v2.1" and state.powers[first].player == state.powers[second].player:
        return f"{first} and {second} are run by the same player: the war is ignored (v2.1 §21.3)"
    inactive = [p for p in (first, second) if not state.powers[p].active]
    if inactive:
        return f"{' and '.join(inactive)} not in play: no war between {first} and {second}"
    state.wars.append(War((first, second), cause="event"))
    state.casus_belli = [cb for cb in state.casus_belli if set(cb) != {first, second}]
    peace = state.in_forced_peace(first, second)
    state.forced_peace = [pair for pair in state.forced_peace if set(pair) != {first, second}]
    return (f"{first} and {second} go to war (§21.3; its winner gains 1 VP, §21.3.1)"
            + ("; their forced peace ends (§21.5.4)" if peace else ""))
