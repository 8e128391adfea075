"""The working state of one combat while the procedure runs, what differs between the
types of combat (`CombatRules`), and the two helpers every step uses: asking a player
(`ask`) and choosing the commander (§17.3.2)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.core.port import DecisionPort
from pbem.rules.ratio_regis.combat.answers import NONE, AnswerError, check_answer
from pbem.rules.ratio_regis.combat.model import (ABILITIES, ATTACKER, DEFENDER, Combat, CombatCard, CombatResult,
                                                 DieRoll, Modifier, Side, SideResult, Unit, other)
from pbem.rules.ratio_regis.combat.table import score

DISPERSE, DAMAGE, SIEGE_CASUALTY = "disperse", "damage", "siege-casualty"


class IllegalCombatAnswer(AnswerError):
    """A recorded answer its request does not allow (the reader should have refused it)."""


@dataclass(frozen=True)
class CombatRules:
    """What one type of combat changes in the common procedure of §13.1."""

    type: str
    rule: str
    base: int  # battlefield before adjustments (§13.1.3)
    fixed: bool = False  # always one die a side, nothing adjusts it (piracy, subjugation)
    fleet_adjusts: bool = False  # a supporting fleet's owner may change it by 1 (§13.4.4)
    plus_ability: str = ""  # the commander ability that adds +1 after the roll (§17.3.2)
    veterans: bool = False  # a side that eliminated a unit may make a troop veteran
    fortress_eliminable: bool = True  # not in field battles (§13.3.4)
    defender_floor: Callable[[Combat], int] | None = None  # how far the defender may reduce it
    conscript: Callable[[Combat, Side], bool] = lambda combat, side: False
    modifiers: Callable[[Combat, str], list[Modifier]] = lambda combat, name: []
    force_die: Callable[[Combat, str], int] | None = None  # fixed category of a side's one die
    losses_from: Callable[[Combat, str, int, bool, bool], int] = lambda combat, name, d, lost, leader: d // 2
    loss_kind: Callable[[Combat, str], str] = lambda combat, name: DISPERSE
    morale: Callable[[Combat], bool] = lambda combat: True
    no_pursuit: Callable[[Combat], bool] = lambda combat: False


@dataclass
class Die:
    id: str
    category: int
    raws: list[int] = field(default_factory=list)
    value: int = 0
    plus: list[str] = field(default_factory=list)


@dataclass
class Fighter:
    """One side during the combat."""

    name: str
    side: Side
    units: list[Unit] = field(default_factory=list)  # those that take part and may suffer losses
    dice: list[Die] = field(default_factory=list)
    conscript: bool = False
    cards: list[CombatCard] = field(default_factory=list)
    battle_points: int = 0
    casualties: int = 0
    disband_results: int = 0
    eliminated: list[str] = field(default_factory=list)
    dispersed: list[str] = field(default_factory=list)
    veteran: str | None = None
    guards: bool = False
    ambush: bool = False
    rerolls_sixes: bool = False  # the enemy played Surprise Attack
    unrest: int = 0

    def die(self, die_id: str) -> Die:
        return next(d for d in self.dice if d.id == die_id)

    def played(self, effect: str) -> bool:
        return any(c.effect == effect for c in self.cards)

    def rolled(self) -> list[Die]:
        """The dice actually rolled (none when the garrison capitulated first)."""
        return [d for d in self.dice if d.raws]

    def removed(self) -> list[str]:
        return self.eliminated + self.dispersed


@dataclass
class Battle:
    combat: Combat
    rules: CombatRules
    fighters: dict[str, Fighter]
    size: int = 0
    winner: str | None = None
    siege_added: int = 0

    @classmethod
    def open(cls, combat: Combat, rules: CombatRules) -> Battle:
        return cls(combat, rules, {ATTACKER: Fighter(ATTACKER, combat.attacker),
                                   DEFENDER: Fighter(DEFENDER, combat.defender)})

    def order(self) -> tuple[str, str]:
        """Active side first (§13.1.5)."""
        return self.combat.active, other(self.combat.active)

    def enemy(self, name: str) -> Fighter:
        return self.fighters[other(name)]

    def context(self, name: str, **extra: Any) -> dict:
        """What a standing policy may test (`WHEN area=Paris AND enemy_dice>=3`)."""
        me, enemy = self.fighters[name], self.enemy(name)
        return {"combat": self.combat.id, "type": self.combat.type, "area": self.combat.area, "side": name,
                "enemy": enemy.side.power, "battlefield": self.size, "own_units": len(me.side.units),
                "enemy_units": len(enemy.side.units), "own_dice": len(me.dice), "enemy_dice": len(enemy.dice),
                **extra}

    # -- the result ------------------------------------------------------------
    def side_result(self, name: str, damaged: Sequence[str] = (), returns_to_base: Sequence[str] = ()) -> SideResult:
        f = self.fighters[name]
        committed = tuple(u.id for u in f.units) if self.rules.force_die is None else ()
        dispersed = tuple(u for u in f.dispersed if u not in damaged)
        leaders_out = leaders_lost(f.side, f.eliminated, dispersed)
        return SideResult(power=f.side.power, committed=committed, dice=len(f.rolled()), conscript=f.conscript,
                          battle_points=f.battle_points, casualties=f.casualties,
                          disband_results=f.disband_results, eliminated=tuple(f.eliminated), dispersed=dispersed,
                          damaged=tuple(damaged), leaders_eliminated=tuple(leaders_out[0]),
                          leaders_dispersed=tuple(leaders_out[1]), veteran=f.veteran,
                          cards_played=tuple(c.number for c in f.cards), returns_to_base=tuple(returns_to_base))

    def rolls(self) -> tuple[DieRoll, ...]:
        out = []
        for name in self.order():
            for d in self.fighters[name].rolled():
                s = score(d.value)
                out.append(DieRoll(name, d.id, d.category, tuple(d.raws), d.value, tuple(d.plus),
                                   s.battle_points, s.casualty))
        return tuple(out)

    def result(self, sides: Mapping[str, SideResult] | None = None, unrest: Sequence[tuple[str, int]] = (),
               **extra: Any) -> CombatResult:
        sides = sides or {name: self.side_result(name) for name in (ATTACKER, DEFENDER)}
        changes = [(f.side.power, f.unrest) for f in self.fighters.values() if f.unrest] + list(unrest)
        loser = None if self.winner is None else self.fighters[other(self.winner)]
        morale_to = self.winner if loser is not None and len(loser.rolled()) >= 2 and self.rules.morale(self.combat) \
            else None  # the conscript's die counts: §28.6
        return CombatResult(combat=self.combat.id, type=self.combat.type, battlefield=self.size, winner=self.winner,
                            dice=self.rolls(), attacker=sides[ATTACKER], defender=sides[DEFENDER],
                            morale_to=morale_to, unrest=tuple(changes), **extra)


def commander(side: Side) -> str | None:
    """The one ability that counts: the first of §17.3.2's list among extraordinary leaders."""
    abilities = {leader.ability for leader in side.leaders if leader.extraordinary}
    return next((a for a in ABILITIES if a in abilities), None)


def leaders_lost(side: Side, eliminated: Sequence[str], dispersed: Sequence[str]) -> tuple[list[str], list[str]]:
    """RR-C8: leaders follow the last unit (§17.1): when no unit of the side is left on
    the field they are dispersed with a dispersed one if any, else eliminated."""
    gone = set(eliminated) | set(dispersed)
    if not side.leaders or any(u.id not in gone for u in side.units):
        return [], []
    ids = [leader.id for leader in side.leaders]
    return ([], ids) if dispersed else (ids, [])


def ask(ctx: DecisionPort, battle: Battle, name: str, *, kind: str, prompt: str, default: Any, rule: str,
        options: Sequence[str] = (), **context: Any) -> Any:
    """One decision of the side `name`, checked against what the request allows."""
    side = battle.fighters[name].side
    request = ctx.request(kind=kind, player=side.player, power=side.power, prompt=prompt, default=default,
                          purpose=f"{battle.combat.id}/{kind}", options=options,
                          context=battle.context(name, **context), rule=rule)
    value = ctx.decide(request)
    try:
        checked = check_answer(request, value)
    except AnswerError as error:
        raise IllegalCombatAnswer(f"{request.key}: {error}") from None
    return None if checked == NONE else checked
