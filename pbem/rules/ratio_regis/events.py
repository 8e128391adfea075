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
(§14), the allies of both asked whether they enter the war (§21.1, §28.2); rebellions placed
(§18.3, RR-I80) and inactive independent areas brought into play (§18.2, RR-I82), in
`rebellions.py`; and the other event kinds the rulebook uses: a casus belli (§21.3.2, or the
war's VP when the pair is at war, §31.6), an alliance allowed (§21.1), a technology or a minor's
alliance put to auction (§19.3, §20.3.1, `technology.py`, `minors.py`), a historical leader entering with its veterans
(§17.3.1, §36.7), unrest and VP changed (§19.1, §22) and troops made veteran (§16.1). They
apply in the order the card lists them; "after finishing all the consequences of the event"
the card's actions follow (§31.1).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis import collapse, french_wars, independents, minors, rebellions, technology
from pbem.rules.ratio_regis.control import place_control
from pbem.rules.ratio_regis.errors import IllegalOrder
from pbem.rules.ratio_regis.naval import release
from pbem.rules.ratio_regis.repatriation import repatriate
from pbem.rules.ratio_regis.alliances import call_allies
from pbem.rules.ratio_regis.scenario import Card, Effect, HistoricalLeader, Scenario
from pbem.rules.ratio_regis.state import GameState, Leader, Troop, War, regular_quality
from pbem.rules.ratio_regis.war import add_cb, give_morale, same_player


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
        if effect.technology is not None:
            texts.append(technology.auction(judge, state, player, card, effect.technology))
            continue
        if effect.minor_alliance in state.minors_out:  # RR-I271: a minor that has not appeared yet
            texts.append(f"{scenario.minors[effect.minor_alliance].name} is not in play yet: no auction (§34)")
            judge.say(f"{card.title}: {texts[-1]}", rule="§34")
            continue
        if effect.minor_alliance is not None:
            texts.append(minors.alliance_auction(judge, state, player, card, effect.minor_alliance))
            continue
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
        first, second = effect.start_war
        began = not state.at_war(first, second)
        text = said(start_war(state, first, second, card.number), rule="§21.3")
        if began and state.at_war(first, second):
            independents.announce(judge, state, scenario, state.war(first, second))  # §20.5
            call_allies(state, scenario, judge, first, second)  # §21.1, §28.2
        return text
    if effect.collapse is not None:
        text = said(collapse.begin(state, effect.collapse), rule="§21.6")
        if effect.collapse in state.collapsing and not state.at_war(effect.collapse):
            collapse.remove(state, scenario, judge, effect.collapse)
        return text
    if effect.capacity is not None:
        state.capacities.update(effect.capacity)
        return said("trade center capacity from now on: " + ", ".join(
            f"{tc} {n}" for tc, n in sorted(effect.capacity.items())) + " (§19.2.1)", rule="§19.2.1")
    if effect.give_control is not None:
        markers = effect.give_control
        texts = [place_control(state, scenario, judge, markers.power, area, card.title) for area in markers.areas]
        return "; ".join(texts)
    if effect.give_morale is not None:
        giver, receiver = effect.give_morale
        text = give_morale(state, judge, giver, receiver, card.title, "§21.3.4")
        return text or said(f"{giver} and {receiver} are not at war: no morale counter changes hands (§21.3.4)")
    if effect.repatriate is not None:
        order = effect.repatriate
        said(f"{order.power} must repatriate its units from {', '.join(order.places)} (§14)", rule="§14")
        repatriate(state, scenario, judge, order.power, order.places, why=card.title)
        return f"{order.power} repatriates its units from {', '.join(order.places)} (§14)"
    religious = french_wars.card_casus_belli(state, scenario, *effect.casus_belli) if effect.casus_belli else []
    if religious:  # §33.4: a CB card naming France, during the French Wars of Religion (RR-I275)
        given = [f"{holder} against {against}" for holder, against in religious if add_cb(state, holder, against)]
        return said(f"a casus belli card naming France: casus belli between the contenders instead — "
                    f"{', '.join(given) or 'none new'} (§33.4)", rule="§33.4")
    return said(*_apply_to_powers(state, card, effect))


def _apply_to_powers(state: GameState, card: Card, effect: Effect) -> tuple[str, str]:
    """The effects on casus belli, alliances, leaders, unrest, VP and veterans:
    the chronicle text and its rule."""
    if effect.casus_belli is not None:
        return casus_belli(state, *effect.casus_belli), "§21.3.2"
    if effect.allow_alliance is not None:
        first, second = effect.allow_alliance
        if not any({first, second} == set(pair) for pair in state.alliance_permits):
            state.alliance_permits.append((first, second))
        return f"{first} and {second} may ally from now on (§21.1, RR-I180)", "§21.1"
    if effect.leader is not None:
        return historical_leader(state, effect.leader), "§17.3.1"
    if effect.unrest is not None:
        power = state.powers[effect.unrest.power]
        power.unrest = max(0, power.unrest + effect.unrest.change)
        return f"{power.code}'s unrest {effect.unrest.change:+d}, now {power.unrest} (§19.1)", "§19.1"
    if effect.vp is not None:
        return _vp(state, effect.vp.power, effect.vp.change), "§22"
    order = effect.veterans
    troops = [t for t in state.troops if t.power == order.power and t.area is not None and not t.veteran
              and order.area in (None, t.area)]
    flipped = _veteranize(troops, order.count)
    return (f"{order.power}'s {', '.join(flipped)} turn veteran (§16.1)" if flipped
            else f"{order.power} has no regular troop on the map to turn veteran (§16.1)"), "§16.1"


def _vp(state: GameState, power: str, change: int) -> str:
    player = state.give_vp(power, change)
    if player is None:
        return f"{power} is run by no player: no VP change (§22)"
    return f"{player.name} ({power}) {change:+d} VP, now {player.vp} (§22)"


def _veteranize(troops: Sequence[Troop], count: int) -> list[str]:
    """RR-I184: the first `count` of `troops`, in the engine's order, turn to the veteran side."""
    chosen = list(troops)[:count]
    for troop in chosen:
        troop.quality = regular_quality(troop.counter) + 1
    return [t.id for t in chosen]


def historical_leader(state: GameState, entry: HistoricalLeader) -> str:
    """§17.3.1, §36.7: the historical leader enters on its extraordinary side, without
    unrest, and converts troops into veterans as its card says. RR-I184: it goes on the
    power's largest force on the map (most troops, the first in the engine's order on a
    tie), on its first troop that carries no leader; the force's regular troops, in the
    engine's order, turn veteran."""
    power = entry.power
    if state.leader(entry.leader) is not None:
        return f"{entry.leader} is in play already"
    stacks = state.stacks()
    hosts = [t for t in state.troops if t.power == power and t.area is not None and not t.besieged
             and state.leader_on(t.id) is None]
    if not hosts:
        return f"{power} has no troop on the map to receive {entry.leader}: the leader does not enter (RR-I184)"
    area = max(dict.fromkeys(t.area for t in hosts), key=lambda a: len(stacks[a][power]))
    host = next(t for t in hosts if t.area == area)
    state.leaders.append(Leader(id=entry.leader, power=power, unit=host.id, extraordinary=True))
    flipped = _veteranize([t for t in stacks[area][power] if not t.veteran], entry.veterans)
    return (f"{power}'s historical leader {entry.leader} enters on {host.id} at {area}, extraordinary and without "
            f"unrest (§17.3.1)" + (f"; {', '.join(flipped)} turn veteran (§36.7)" if flipped else ""))


def casus_belli(state: GameState, holder: str, against: str) -> str:
    """§21.3.2: the card gives `holder` a CB against `against` (a second one against the same
    power ignored). Between powers at war it gives the war's winner 1 VP more instead (§22
    "Most 'Casus Belli' events, give 1 VP bonus to the wars between two contenders if they
    appeared during the war", §31.6), counted on the war for the peace to score; between
    allies it is ignored (§21.1)."""
    war = state.war(holder, against)
    if war is not None:
        war.card_vp += 1
        return (f"{holder} and {against} are at war already: its winner gains 1 VP more ({war.card_vp} VP of "
                f"cards in all, §21.3.1, §31.6)")
    if state.allied(holder, against):
        return f"{holder} and {against} are allies: the casus belli is ignored (§21.1)"
    if add_cb(state, holder, against):
        return f"{holder} gains a casus belli against {against} (§21.3.2)"
    return f"{holder} holds a casus belli against {against} already: the second is ignored (§21.3.2)"


def start_war(state: GameState, first: str, second: str, card: int | None = None) -> str:
    """§21.3 "Two major powers can be at war … by event cards" (RR-I69): the war begins
    (cause `event`, whose winner gains 1 VP, §21.3.1; the card is recorded for the order of
    peace at turn end, §21.5.5); the casus belli between the two disappear (§21.3.2 "if the
    war breaks out"); a forced peace between them ends (§21.5.4: "if a war between the two
    major powers should occur again due to a historical event, the forced peace ends"), and so
    does an alliance (§31.1: "the Netherlands stops being allied with Spain, they both go to
    war") with the combined fleets of the two (§21.2.3). Under v2.1 a card for a war already on
    continues it and its winner scores the card's VP too (§21.3, RR-I165); two powers of one
    player never go to war (v2.1 §21.3). Returns the chronicle text."""
    war = state.war(first, second)
    if war is not None and state.options.variant == "v2.1":
        war.card_vp += 1  # v2.1 §21.3: the war continues, and its winner scores each card's VP
        return f"{first} and {second} are already at war: the war goes on, its winner gains 1 VP more (v2.1 §21.3)"
    if war is not None:
        return f"{first} and {second} are already at war"
    inactive = [p for p in (first, second) if not state.powers[p].active]
    if inactive:
        return f"{' and '.join(inactive)} not in play: no war between {first} and {second}"
    if same_player(state, first, second):
        return f"{first} and {second} are run by the same player: the war is ignored (v2.1 §21.3)"
    state.wars.append(War(sides=(first, second), cause="event", card=card))
    state.casus_belli = [cb for cb in state.casus_belli if set(cb) != {first, second}]
    peace = any({first, second} == set(pair) for pair in state.forced_peace)
    allied = state.allied(first, second)
    state.forced_peace = [pair for pair in state.forced_peace if set(pair) != {first, second}]
    state.alliances = [pair for pair in state.alliances if set(pair) != {first, second}]
    release(state, [s for s in state.squadrons if {s.power, state.combined.get(s.id)} == {first, second}])
    return (f"{first} and {second} go to war (§21.3; its winner gains 1 VP, §21.3.1)"
            + ("; their forced peace ends (§21.5.4)" if peace else "")
            + ("; their alliance ends (§31.1)" if allied else ""))
