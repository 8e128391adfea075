"""Sieges (§7.5.4): assault attempts on the SIEGE TABLE, sorties, breaches with the honours of
war or a surrender, assault combats, garrison attacks on the besiegers, and relief by a limited
field combat. How many attempts a besieger makes is eia-core's: one per besieging force per own
Land Combat Step (EIA-I75, research §4.12 item 6)."""

from __future__ import annotations

from pbem.core.port import DecisionPort
from pbem.rules.empires_in_arms.combat.battle import run
from pbem.rules.empires_in_arms.combat.casualties import take_losses
from pbem.rules.empires_in_arms.combat import named_losses
from pbem.rules.empires_in_arms.combat.charts import Charts, synthetic_charts
from pbem.rules.empires_in_arms.combat.forces import Troop
from pbem.rules.empires_in_arms.combat.kinds import NO_HONOURS_WHY
from pbem.rules.empires_in_arms.combat.models import Battle, BattleResult, Side, Siege, SiegeResult
from pbem.rules.empires_in_arms.combat.rounds import Procedure

UNDERGARRISONED = 5  # "not garrisoned to within 5 factors of the capacity" (§7.5.4.1.1.2)
SORTIE_HITS = 5  # "5 or 6": the defender loses a factor (§7.5.4.1.2.1)
NO_HONOURS = ("TU", "SP")  # §7.5.4.1.2.3.1
#: Assault and garrison attack combats: fixed tables, one day, nothing else (§7.5.4.1.3.1, §7.5.4.2.1.1).
ASSAULT = Procedure("assault", chits=False, tables=("5-1", "5-2"), terrain=False, leaders=False, cavalry=False,
                    loss_rules=False, pursuit=False, reinforcements=False, optional_rules=False, max_days=1,
                    political=False, surrender_on_loss=("defender",))
GARRISON_ATTACK = Procedure("garrison_attack", chits=False, tables=("5-1", "5-2"), terrain=False, leaders=False,
                            cavalry=False, loss_rules=False, pursuit=False, reinforcements=False,
                            optional_rules=False, max_days=1, political=False)


def may_ask_honours(garrison: Side) -> bool:
    return not any(u.power in NO_HONOURS or u.minor_of in NO_HONOURS for u in garrison.units)


def assault_attempt(port: DecisionPort, siege: Siege, charts: Charts | None = None) -> SiegeResult:
    """One assault attempt (§7.5.4.1): d6 − fleches, +1 when undergarrisoned, on the SIEGE TABLE."""
    charts = charts or synthetic_charts()
    factors = sum(u.factors.total for u in siege.garrison.units)
    bonus = 1 if factors < siege.city.capacity - UNDERGARRISONED else 0
    die = port.roll(f"{siege.id}/assault-attempt", rule="§7.5.4.1") - siege.city.fleches + bonus
    table = charts.siege_result(die)
    port.say(f"{siege.area}: assault attempt on {siege.city.id}: die {die}, {table}", to=_sides(siege),
             rule="§7.5.4.1.2")
    result = SiegeResult(siege=siege.id, die=die, table=table)
    if table == "sortie":
        return sortie(port, siege, charts, result)
    if table == "breach":
        return breach(port, siege, charts, result)
    return result


def _sides(siege: Siege) -> tuple[str, ...]:
    return tuple(dict.fromkeys((siege.besieger.player, siege.garrison.player)))


def _ask(port: DecisionPort, siege: Siege, side: Side, role: str, kind: str, prompt: str, default, rule: str,
         **context):
    facts = {"battle": siege.id, "area": siege.area, "side": role, "city": siege.city.id, **context}
    return port.decide(port.request(kind=kind, player=side.player, power=side.power, prompt=prompt, default=default,
                                    purpose=f"{siege.id}/{kind}", context=facts, rule=rule))


def sortie(port: DecisionPort, siege: Siege, charts: Charts, result: SiegeResult) -> SiegeResult:
    """The defender may sortie: on 5–6 it loses a factor, else the besieger does, each in its
    owner's loss order (§7.5.4.1.2.1)."""
    if not _ask(port, siege, siege.garrison, "defender", "sortie", "Sortie against the besiegers?", True,
                "§7.5.4.1.2.1"):
        return result.model_copy(update={"sortie": "declined"})
    die = port.roll(f"{siege.id}/sortie", rule="§7.5.4.1.2.1")
    loser = siege.garrison if die >= SORTIE_HITS else siege.besieger
    troops = [Troop.of(u) for u in loser.units]
    role = "defender" if loser is siege.garrison else "besieger"
    asked = named_losses.request(port, player=loser.player, power=loser.power, purpose=f"{siege.id}/{named_losses.KIND}",
                                 facts={"battle": siege.id, "area": siege.area, "side": role, "city": siege.city.id},
                                 troops=troops, count=1, pool=named_losses.SORTIE, order=loser.loss_order,
                                 charts=charts) if siege.options.chosen_losses else None
    if asked is not None:  # the sortie's loss is its owner's choice (§7.5.4.1.2.1)
        named_losses.apply(troops, port.decide(asked))
    else:
        take_losses(troops, 1, loser.loss_order, charts)
    hit = next(t for t in troops if any(t.lost.values()))
    kind = next(k for k, n in hit.lost.items() if n)
    who = "defender" if loser is siege.garrison else "besieger"
    port.say(f"{siege.area}: sortie, die {die}: the {who} loses 1 {kind} of {hit.id}", to=_sides(siege),
             rule="§7.5.4.1.2.1")
    return result.model_copy(update={"sortie": who, "sortie_loss": f"{hit.id}:{kind}"})


def breach(port: DecisionPort, siege: Siege, charts: Charts, result: SiegeResult) -> SiegeResult:
    """Honours of war if asked and granted; else surrender or an assault (§7.5.4.1.2.3)."""
    honours = may_ask_honours(siege.garrison) and siege.refuge
    why = NO_HONOURS_WHY if not may_ask_honours(siege.garrison) else \
        "the garrison has no friendly unbesieged city with room to go to (a minor free state's: in its own country)"
    answer = _ask(port, siege, siege.garrison, "defender", "breach", "The walls are breached: honours, surrender "
                  "or fight?", "fight", "§7.5.4.1.2.3", honours=honours, no_honours="" if honours else why)
    if answer == "honours":
        if _ask(port, siege, siege.besieger, "attacker", "honours", "The garrison asks for the honours of war",
                False, "§7.5.4.1.2.3.1"):
            return result.model_copy(update={"breach": "honours"})
        answer = _ask(port, siege, siege.garrison, "defender", "breach", "Honours refused: surrender or fight?",
                      "fight", "§7.5.4.1.2.3.2", honours=False, no_honours="the besieger refused the honours of war")
    if answer == "surrender":
        return result.model_copy(update={"breach": "surrender", "city_captured": True})
    return assault(port, siege, charts, result)


def assault(port: DecisionPort, siege: Siege, charts: Charts, result: SiegeResult) -> SiegeResult:
    """The assault combat (§7.5.4.1.3): won, the city falls and its survivors surrender; lost or
    undecided after three rounds, the siege goes on. A point to the winner when the city holds
    a corps or is a fortress, none lost (§7.5.4.1.4)."""
    battle = Battle(id=siege.id, area=siege.area, attacker=siege.besieger, defender=siege.garrison,
                    options=siege.options)
    fought = run(port, battle, charts, ASSAULT)
    fought = _no_retreat(fought)
    captured = fought.winner == "attacker"
    points = 1 if siege.city.fleches or any(u.category == "corps" for u in siege.garrison.units) else 0
    return result.model_copy(update={"breach": "assault", "assault": fought, "city_captured": captured,
                                     "besieger_points": points if captured else 0,
                                     "garrison_points": 0 if captured else points})


def _no_retreat(result: BattleResult) -> BattleResult:
    """A failed assault leaves the siege as it was (§7.5.4.1.3.4): nobody retreats."""
    return result.model_copy(update={"attacker": result.attacker.model_copy(update={"retreat": "none"}),
                                     "defender": result.defender.model_copy(update={"retreat": "none"})})


def garrison_attack(port: DecisionPort, battle: Battle, charts: Charts | None = None) -> BattleResult:
    """The garrison (the battle's attacker, with the factors it chose) attacks all the
    besiegers (§7.5.4.2.1): won, the besiegers retreat unpursued (§7.5.4.2.1.5); else the
    siege goes on, and the city falls if the garrison lost every factor (eia-core reads
    `attacker.eliminated`). No political points (§7.5.4.2.2)."""
    fought = run(port, battle, charts or synthetic_charts(), GARRISON_ATTACK)
    if fought.winner == "attacker":
        return fought
    return _no_retreat(fought)


def relief(port: DecisionPort, battle: Battle, sortie: tuple[str, ...] = (), charts: Charts | None = None
           ) -> BattleResult:
    """A relief force (the attacker, with any sortieing garrison units `sortie`) fights the
    besiegers in a limited field combat of one day (§7.5.4.2.3): won, the besiegers retreat and
    only the relief force's cavalry pursues; failed, the garrison goes back into the city and
    the relief force back to an area it came from (moved by its owner, EIA-I76); no break is
    a draw."""
    proc = Procedure("limited", max_days=1, not_pursuing=sortie)
    fought = run(port, battle.model_copy(update={"max_days": 1}), charts or synthetic_charts(), proc)
    if fought.winner == "attacker":
        return fought
    return fought.model_copy(update={"attacker": fought.attacker.model_copy(update={"retreat": "by_owner"})})
