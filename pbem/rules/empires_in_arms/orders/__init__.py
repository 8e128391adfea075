"""Reading land order lines (research §3.4): `orders.lark`, one line at a time, into small
commands whose `text()` is the canonical line echoed to the player and stored as the
answer. Whether the names exist and the order is legal is decided against the state
(`sequence.py`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from lark import Lark, Token, Transformer, UnexpectedInput

from pbem.core.orders import suggest
from pbem.core.toolkit import grammar_keywords


class OrderSyntaxError(ValueError):
    """A line the grammar cannot read; the message says what was expected."""


@dataclass(frozen=True)
class Change:
    """Factors a corps leaves as a garrison (DETACH) or takes from one (ABSORB) (§7.3.3)."""

    verb: str
    count: int
    kind: str

    def text(self) -> str:
        return f"({self.verb} {self.count} {self.kind})"


@dataclass(frozen=True)
class Stop:
    """An area of a path, and the garrison change the corps makes there."""

    area: str
    change: Change | None = None

    def text(self) -> str:
        return self.area + (self.change.text() if self.change else "")


@dataclass(frozen=True)
class Move:
    corps: str
    path: tuple[Stop, ...]
    force: bool = False
    city: bool = False  # the corps ends its move inside the last area's city (§7.3.4)

    def text(self) -> str:
        return (f"MOVE {self.corps} {'>'.join(stop.text() for stop in self.path)}" + (" CITY" if self.city else "")
                + (" FORCE" if self.force else ""))


@dataclass(frozen=True)
class Forage:
    corps: str

    def text(self) -> str:
        return f"FORAGE {self.corps}"


@dataclass(frozen=True)
class PlaceDepot:
    area: str

    def text(self) -> str:
        return f"DEPOT {self.area}"


@dataclass(frozen=True)
class RemoveDepot:
    area: str

    def text(self) -> str:
        return f"REMOVE DEPOT {self.area}"


@dataclass(frozen=True)
class JoinCorps:
    """A leader leaving its corps for another in its area at the start of the movement (§10.6.2)."""

    leader: str
    corps: str

    def text(self) -> str:
        return f"LEADER {self.leader} WITH {self.corps}"


@dataclass(frozen=True)
class Losses:
    """The power's standing loss order: factor types (INF, MIL …) to lose first (§7.5.2.9.2)."""

    kinds: tuple[str, ...]

    def text(self) -> str:
        return "LOSSES " + " ".join(self.kinds)


@dataclass(frozen=True)
class DeclareTactical:
    """The power's commanders' tactical rating declared at most `rating` (§7.5.2.9.1.2); None: FULL."""

    rating: int | None

    def text(self) -> str:
        return f"TACTICAL {'FULL' if self.rating is None else self.rating}"


@dataclass(frozen=True)
class AgreeTrivial:
    """The power agrees, or no longer agrees, to fight field combats as trivial ones (§7.5.3.5)."""

    agree: bool

    def text(self) -> str:
        return f"TRIVIAL {'YES' if self.agree else 'NO'}"


@dataclass(frozen=True)
class PreferWithdrawal:
    """Areas the power's withdrawing corps take first among equally close ones; () for NONE."""

    areas: tuple[str, ...]

    def text(self) -> str:
        return "WITHDRAWAL " + (" ".join(self.areas) or "NONE")


@dataclass(frozen=True)
class SupplyAlly:
    """The power lets an ally live off its depots and chains, paying for it, or stops (§7.4.2.2)."""

    ally: str
    allow: bool

    def text(self) -> str:
        return f"SUPPLY ALLY {self.ally} {'YES' if self.allow else 'NO'}"


@dataclass(frozen=True)
class GuerrillasAttack:
    """The power's guerrillas in an area, all or `factors` of them, attack the enemy forces
    there or join its corps besieging the city (§10.1.1.3, §10.1.1.3.3)."""

    area: str
    factors: int | None = None  # None: all of them

    def text(self) -> str:
        return f"GUERRILLAS ATTACK {self.area}" + (f" {self.factors}" if self.factors is not None else "")


@dataclass(frozen=True)
class StandDown:
    """A feudal or insurrection corps removed from the map with its factors (§10.1.3.2, §10.1.4.2)."""

    corps: str

    def text(self) -> str:
        return f"STAND DOWN {self.corps}"


@dataclass(frozen=True)
class Return:
    """A feudal corps that stood down placed back in its home province (§10.1.3.3)."""

    corps: str
    area: str

    def text(self) -> str:
        return f"RETURN {self.corps} {self.area}"


@dataclass(frozen=True)
class Retire:
    """A leader retired from the map in the next Army Reinforcement Step (§5.3)."""

    leader: str

    def text(self) -> str:
        return f"RETIRE {self.leader}"


HOLD, FIRST = "HOLD", "FIRST"


@dataclass(frozen=True)
class Place:
    """Where a leader goes when it returns to the map (§5.3): `corps`, or HOLD, or FIRST."""

    leader: str
    corps: str

    def text(self) -> str:
        return f"PLACE {self.leader} " + (self.corps if self.corps in (HOLD, FIRST) else f"WITH {self.corps}")


@dataclass(frozen=True)
class PreferCommanders:
    """The power's leaders preferred in order among equally senior ones (§10.6.1.1.2); () for NONE."""

    leaders: tuple[str, ...]

    def text(self) -> str:
        return "COMMAND " + (" ".join(self.leaders) or "NONE")


@dataclass(frozen=True)
class ConvertDepot:
    area: str

    def text(self) -> str:
        return f"CONVERT DEPOT {self.area}"


@dataclass(frozen=True)
class Besiege:
    area: str

    def text(self) -> str:
        return f"BESIEGE {self.area}"


@dataclass(frozen=True)
class AttackBesiegers:
    """The power's besieged forces in `area` attack their besiegers: the garrison factors
    (count, type) and corps inside named, or all of them (§7.5.4.2.1.1, §7.5.4.2.3)."""

    area: str
    factors: tuple[tuple[int, str], ...] = ()
    corps: tuple[str, ...] = ()

    @property
    def whole(self) -> bool:
        return not self.factors and not self.corps

    def text(self) -> str:
        parts = [f"{n} {kind}" for n, kind in self.factors] + list(self.corps)
        return f"ATTACK BESIEGERS {self.area}" + (f" WITH {' '.join(parts)}" if parts else "")


@dataclass(frozen=True)
class Stand:
    def text(self) -> str:
        return "STAND"


Command = (Move | Forage | PlaceDepot | RemoveDepot | ConvertDepot | Besiege | AttackBesiegers | JoinCorps | Losses
           | DeclareTactical | AgreeTrivial | PreferWithdrawal | SupplyAlly | GuerrillasAttack | StandDown | Return
           | Retire | Place | PreferCommanders | Stand)


def _names_or_none(items: list[Token]) -> tuple[str, ...]:
    """The names of a standing list (WITHDRAWAL, COMMAND); a lone NONE clears it: ()."""
    names = tuple(str(i) for i in items)
    return () if [n.upper() for n in names] == ["NONE"] else names


class _ToCommand(Transformer):
    def move(self, items: list) -> Move:
        flags = {i.type for i in items[2:] if isinstance(i, Token)}
        return Move(str(items[0]), items[1], "FORCE" in flags, "INTO_CITY" in flags)

    def path(self, items: list[Stop]) -> tuple[Stop, ...]:
        return tuple(items)

    def stop(self, items: list) -> Stop:
        return Stop(str(items[0]), items[1] if len(items) > 1 else None)

    def change(self, items: list[Token]) -> Change:
        return Change(str(items[0]).upper(), int(items[1]), str(items[2]).upper())

    def forage(self, items: list[Token]) -> Forage:
        return Forage(str(items[0]))

    def depot(self, items: list[Token]) -> PlaceDepot:
        return PlaceDepot(str(items[0]))

    def remove(self, items: list[Token]) -> RemoveDepot:
        return RemoveDepot(str(items[0]))

    def leader(self, items: list[Token]) -> JoinCorps:
        return JoinCorps(str(items[0]), str(items[1]))

    def losses(self, items: list[Token]) -> Losses:
        return Losses(tuple(str(i).upper() for i in items))

    def tactical(self, items: list[Token]) -> DeclareTactical:
        return DeclareTactical(None if items[0].type == "FULL" else int(items[0]))

    def trivial(self, items: list[Token]) -> AgreeTrivial:
        return AgreeTrivial(items[0].type == "YES")

    def withdrawal(self, items: list[Token]) -> PreferWithdrawal:
        return PreferWithdrawal(_names_or_none(items))

    def supply(self, items: list[Token]) -> SupplyAlly:
        return SupplyAlly(str(items[0]).upper(), items[1].type == "YES")

    def convert(self, items: list[Token]) -> ConvertDepot:
        return ConvertDepot(str(items[0]))

    def besiege(self, items: list[Token]) -> Besiege:
        return Besiege(str(items[0]))

    def sally(self, items: list) -> AttackBesiegers:
        factors: dict[str, int] = {}
        for part in items[1:]:
            if isinstance(part, tuple):
                factors[part[1]] = factors.get(part[1], 0) + part[0]
        return AttackBesiegers(str(items[0]), tuple((n, kind) for kind, n in factors.items()),
                               tuple(dict.fromkeys(p for p in items[1:] if isinstance(p, str))))

    def sortie_part(self, items: list[Token]) -> tuple[int, str] | str:
        return (int(items[0]), str(items[1]).upper()) if len(items) == 2 else str(items[0])

    def ambush(self, items: list[Token]) -> GuerrillasAttack:
        return GuerrillasAttack(str(items[0]), int(items[1]) if len(items) > 1 else None)

    def standdown(self, items: list[Token]) -> StandDown:
        return StandDown(str(items[0]))

    def returning(self, items: list[Token]) -> Return:
        return Return(str(items[0]), str(items[1]))

    def retire(self, items: list[Token]) -> Retire:
        return Retire(str(items[0]))

    def place(self, items: list[Token]) -> Place:
        where = items[1]
        return Place(str(items[0]), where.type if where.type in (HOLD, FIRST) else str(where))

    def command(self, items: list[Token]) -> PreferCommanders:
        return PreferCommanders(_names_or_none(items))

    def stand(self, items: list) -> Stand:
        return Stand()


@cache
def _parser() -> Lark:
    grammar = files("pbem.rules.empires_in_arms").joinpath("orders.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", transformer=_ToCommand(), start="start")


def parse_line(text: str) -> Command:
    """One land order line as a command, or `OrderSyntaxError` saying what the line lacks
    (for an unknown first word, the closest order word of the grammar)."""
    try:
        return _parser().parse(text.strip())
    except UnexpectedInput as error:
        first = (text.split() or [""])[0]
        if first.upper() not in land_keywords():
            hint = suggest(first, land_keywords())
            raise OrderSyntaxError(f"unknown order {first!r}" + (f"; did you mean {hint}?" if hint else "")
                                   + f"; {LAND_FORMS}") from None
        expected = sorted(getattr(error, "expected", None) or getattr(error, "allowed", None) or [])
        words = {"NAME": "a name", "INT": "a number", "FORCE": "FORCE", "MORETHAN": ">", "LPAR": "(", "RPAR": ")",
                 "GARRISON_VERB": "DETACH or ABSORB", "INTO_CITY": "CITY", "FULL": "FULL", "YES": "YES", "NO": "NO",
                 "HOLD": "HOLD", "FIRST": "FIRST",
                 "$END": "the end of the line"}
        hint = ", ".join(words.get(e, e.strip('"').upper()) for e in expected)
        raise OrderSyntaxError(f"cannot read {text.strip()!r} at column {error.column}"
                               + (f" (expected {hint})" if hint else "") + f"; {LAND_FORMS}") from None


@cache
def land_keywords() -> tuple[str, ...]:
    """The first word of every land order, read off the grammar."""
    return grammar_keywords(_parser(), "start")


LAND_FORMS = ("land orders are MOVE <corps> <area>><area>… [CITY] [FORCE] (an area may add (DETACH|ABSORB <n> "
              "<type>)), FORAGE <corps>, DEPOT <area>, REMOVE DEPOT <area>, CONVERT DEPOT <area>, BESIEGE <area>, "
              "ATTACK BESIEGERS <area> [WITH <n> <type>|<corps> …], LEADER <leader> WITH <corps>, "
              "LOSSES <type> <type>…, TACTICAL <n>|FULL, TRIVIAL YES|NO, WITHDRAWAL <area> <area>…|NONE, "
              "SUPPLY ALLY <power> YES|NO, GUERRILLAS ATTACK <area> [<factors>], STAND DOWN <corps>, "
              "RETURN <corps> <area>, "
              "RETIRE <leader>, PLACE <leader> WITH <corps>|HOLD|FIRST, COMMAND <leader> <leader>…|NONE "
              "or STAND|DONE")
