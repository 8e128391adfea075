"""Reading Ratio Regis order lines (research §3.1–3.3, DESIGN §6).

`orders.lark` is parsed one line at a time, so one bad line never hides the others;
each line becomes a small command object whose `text()` is the canonical line echoed
back to the player and stored as the answer. Names are only read here; whether they
exist and the order is legal is decided against the state (`impulse.py`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from importlib.resources import files
from typing import Any, TypeVar

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbem.core.decisions import Refusal
from pbem.core.orders import suggest
from pbem.core.toolkit import grammar_keywords

T = TypeVar("T")

#: Ultima Ratio Regis v2.1 is Spanish: its action names (§9 table) and the words around them are
#: read as the English order words, so a Spanish player may write CONSTRUIR TROPA Q2 EN Paris — in both
#: editions, as none of them is an English order word (RR-I241).
SPANISH = {
    "PUJA": "BID", "GRUPO": "GROUP", "EMPIEZA": "START", "JUGAR": "PLAY", "PUNTOS": "POINTS", "FIN": "DONE",
    "CONSTRUIR": "BUILD", "TROPA": "TROOP", "ESCUADRA": "SQUADRON", "FORTALEZA": "FORT", "LIDER": "LEADER",
    "LÍDER": "LEADER", "REAGRUPAR": "REGROUP", "ESTRATEGICO": "STRAT", "ESTRATÉGICO": "STRAT", "CASA": "HOME",
    "REPARAR": "REPAIR", "MOVER": "MOVE", "DESEMBARCAR": "LAND", "SUBYUGAR": "SUBJUGATE", "ASALTAR": "ASSAULT",
    "SALIDA": "SORTIE", "PIRATERIA": "PIRACY", "PIRATERÍA": "PIRACY", "DECLARAR": "DECLARE", "GUERRA": "WAR",
    "ZARPAR": "SAIL", "FLOTA": "FLEET", "ASIGNAR": "ATTACH", "CAMINO": "PATH", "ESCOLTA": "ESCORT", "EN": "AT",
    "A": "TO", "INTERCEPTAR": "INTERCEPT", "EVADIR": "EVADE", "RESISTIR": "STAND", "PASAR": "PASS",
    "LUCHAR": "FIGHT", "RETIRAR": "WITHDRAW", "APOYAR": "SUPPORT", "OPONER": "OPPOSE", "RETIRADA": "RETREAT",
    "REPATRIAR": "REPATRIATE", "DISPERSAR": "DISPERSE", "MANTENER": "KEEP", "ELIMINAR": "ELIMINATE",
}


def from_spanish(text: str) -> str:
    """The line with v2.1's Spanish order words in English; names and numbers are kept."""
    return " ".join(SPANISH.get(word.upper(), word) for word in text.split(" "))


class OrderSyntaxError(Refusal):
    """A line the grammar cannot read; the message says what was expected."""


# -- commands ---------------------------------------------------------------
@dataclass(frozen=True)
class Bid:
    amount: int

    def text(self) -> str:
        return f"BID {self.amount}"


@dataclass(frozen=True)
class GroupChoice:
    number: int

    def text(self) -> str:
        return f"GROUP {self.number}"


@dataclass(frozen=True)
class StartChoice:
    player: str
    direction: str

    def text(self) -> str:
        return f"START {self.player} {self.direction}"


@dataclass(frozen=True)
class Play:
    card: int
    points: tuple[tuple[str, int], ...] = ()  # (power, points); empty: all to the only power
    areas: tuple[str, ...] = ()  # where the event's rebellions go, in order (§18.3, RR-I80)

    def text(self) -> str:
        place = " PLACE " + ",".join(self.areas) if self.areas else ""
        if not self.points:
            return f"PLAY {self.card}{place}"
        return f"PLAY {self.card} POINTS " + ",".join(f"{power}={n}" for power, n in self.points) + place


@dataclass(frozen=True)
class Done:
    def text(self) -> str:
        return "DONE"


@dataclass(frozen=True)
class BuildTroop:
    quality: int
    area: str
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"BUILD TROOP Q{self.quality} AT {self.area}" + _path_text(self.path)


@dataclass(frozen=True)
class Regroup:
    troop: str
    area: str
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"REGROUP {self.troop} AT {self.area}" + _path_text(self.path)


@dataclass(frozen=True)
class StratTroop:
    troop: str
    path: tuple[str, ...]
    escort: str | None = None  # §11.4.1: a fleet based at the port of departure
    fights: tuple[str, ...] = ()  # §11.4.1: the order in which the interceptors are fought

    def text(self) -> str:
        return f"STRAT TROOP {self.troop}" + _path_text(self.path) + _convoy_text(self.escort, self.fights)


@dataclass(frozen=True)
class Home:
    troop: str

    def text(self) -> str:
        return f"HOME {self.troop}"


@dataclass(frozen=True)
class BuildSquadron:
    quality: int
    area: str

    def text(self) -> str:
        return f"BUILD SQUADRON Q{self.quality} AT {self.area}"


@dataclass(frozen=True)
class BuildMerchant:
    """§19.2.2: a merchant built for a trade center (named by id or by its sea)."""

    center: str

    def text(self) -> str:
        return f"BUILD MERCHANT AT {self.center}"


@dataclass(frozen=True)
class Repair:
    squadron: str
    path: tuple[str, ...] = ()

    def text(self) -> str:
        return f"REPAIR {self.squadron}" + _path_text(self.path)


@dataclass(frozen=True)
class StratSquadron:
    squadron: str
    path: tuple[str, ...]

    def text(self) -> str:
        return f"STRAT SQUADRON {self.squadron}" + _path_text(self.path)


@dataclass(frozen=True)
class Stop:
    """A place of an army's or fleet's path, with units picked up (+) or dropped (-)."""

    place: str
    take: tuple[str, ...] = ()
    drop: tuple[str, ...] = ()

    def text(self) -> str:
        return self.place + "".join(f"(+{u})" for u in self.take) + "".join(f"(-{u})" for u in self.drop)


@dataclass(frozen=True)
class StratStack:
    """§10.3: a leader placed on a unit moves with up to four troops or squadrons."""

    kind: str  # ARMY or FLEET
    leader: str
    unit: str
    stops: tuple[Stop, ...]
    escort: str | None = None
    fights: tuple[str, ...] = ()

    def text(self) -> str:
        return (f"STRAT {self.kind} {self.leader} ON {self.unit} PATH " + ">".join(s.text() for s in self.stops)
                + _convoy_text(self.escort, self.fights))


@dataclass(frozen=True)
class Fort:
    step: str  # START or FINISH
    area: str

    def text(self) -> str:
        return f"FORT {self.step} AT {self.area}"


@dataclass(frozen=True)
class BuildLeader:
    unit: str
    replace: str | None = None
    extra_if: tuple[str, ...] = ()  # abilities for which the extraordinary side is taken

    def text(self) -> str:
        return (f"LEADER ON {self.unit}" + (f" REPLACE {self.replace}" if self.replace else "")
                + (" EXTRA-IF " + ",".join(self.extra_if) if self.extra_if else ""))


@dataclass(frozen=True)
class Move:
    """§12.1–§12.2: a land tactical move of troops (their leaders go with them)."""

    units: tuple[str, ...]
    area: str
    leave: tuple[str, ...] = ()
    take: tuple[str, ...] = ()
    then: str | None = None
    subjugate: bool = False
    control: bool = True

    def text(self) -> str:
        return (f"MOVE {','.join(self.units)} TO {self.area}"
                + (f" LEAVE {','.join(self.leave)}" if self.leave else "")
                + (f" TAKE {','.join(self.take)}" if self.take else "")
                + (f" THEN {self.then}" if self.then else "")
                + (" SUBJUGATE" if self.subjugate else "") + ("" if self.control else " NOCONTROL"))


@dataclass(frozen=True)
class Land:
    """§12.3: an amphibious landing."""

    units: tuple[str, ...]
    area: str
    via: tuple[str, ...] = ()  # the seas crossed, when the two coasts share none
    escort: str | None = None
    fights: tuple[str, ...] = ()
    subjugate: bool = False
    control: bool = True  # a won landing battle takes the area (§13.3.7, RR-I21)

    def text(self) -> str:
        return (f"LAND {','.join(self.units)} TO {self.area}" + (f" VIA {'>'.join(self.via)}" if self.via else "")
                + _convoy_text(self.escort, self.fights) + (" SUBJUGATE" if self.subjugate else ""))


@dataclass(frozen=True)
class Subjugate:
    area: str

    def text(self) -> str:
        return f"SUBJUGATE {self.area}"


@dataclass(frozen=True)
class Assault:
    area: str

    def text(self) -> str:
        return f"ASSAULT {self.area}"


@dataclass(frozen=True)
class Sortie:
    area: str

    def text(self) -> str:
        return f"SORTIE {self.area}"


@dataclass(frozen=True)
class Naval:
    """§11.3: a naval tactical move and attack."""

    unit: str
    sea: str | None
    targets: tuple[str, ...]

    def text(self) -> str:
        return f"NAVAL {self.unit}" + (f" TO {self.sea}" if self.sea else "") + f" ATTACK {','.join(self.targets)}"


@dataclass(frozen=True)
class Piracy:
    squadron: str
    victim: str

    def text(self) -> str:
        return f"PIRACY {self.squadron} VS {self.victim}"


@dataclass(frozen=True)
class DeclareWar:
    target: str
    without_cb: bool = False

    def text(self) -> str:
        return f"DECLARE WAR {self.target}" + (" NOCB" if self.without_cb else "")


@dataclass(frozen=True)
class Sail:
    squadron: str
    sea: str

    def text(self) -> str:
        return f"SAIL {self.squadron} TO {self.sea}"


@dataclass(frozen=True)
class PeaceTalks:
    """§21.4.1: open peace negotiations with an enemy, at the start of one's impulse."""

    target: str

    def text(self) -> str:
        return f"PEACE WITH {self.target}"


@dataclass(frozen=True)
class Swap:
    first: str
    second: str

    def text(self) -> str:
        return f"SWAP {self.first} {self.second}"


@dataclass(frozen=True)
class FormFleet:
    leader: str
    squadrons: tuple[str, ...]

    def text(self) -> str:
        return f"FLEET {self.leader} = {','.join(self.squadrons)}"


@dataclass(frozen=True)
class Attach:
    leader: str
    unit: str

    def text(self) -> str:
        return f"ATTACH {self.leader} TO {self.unit}"


@dataclass(frozen=True)
class Ally:
    """§21.1: the acting power allies with `power`, at the start of the impulse."""

    power: str

    def text(self) -> str:
        return f"ALLY {self.power}"


@dataclass(frozen=True)
class Cede:
    """§21.2.2: `troop` goes to the ally `receiver` by a strategic move along `path`."""

    troop: str
    receiver: str
    path: tuple[str, ...]

    def text(self) -> str:
        return f"CEDE {self.troop} TO {self.receiver}" + _path_text(self.path)


@dataclass(frozen=True)
class Recall:
    """§21.2.2: the power that ceded `troop` takes it back by a strategic move along `path`."""

    troop: str
    path: tuple[str, ...]

    def text(self) -> str:
        return f"RECALL {self.troop}" + _path_text(self.path)


@dataclass(frozen=True)
class Dissolve:
    """§21.2.3: the combined fleet led by `leader` is dissolved."""

    leader: str

    def text(self) -> str:
        return f"DISSOLVE {self.leader}"


class LowerUnrest:
    """§19.1.1: lower the power's own unrest by 1."""

    def text(self) -> str:
        return "LOWER UNREST"


@dataclass(frozen=True)
class Subsidise:
    """§19.1.2: lower an allied major power's unrest by 1."""

    ally: str

    def text(self) -> str:
        return f"SUBSIDISE {self.ally}"


Verb = (BuildTroop | Regroup | StratTroop | Home | BuildSquadron | BuildMerchant | Repair | StratSquadron | StratStack
        | Fort | BuildLeader | Move | Land | Subjugate | Assault | Sortie | Naval | Piracy | DeclareWar | Sail | Swap
        | FormFleet | Attach | Ally | Cede | Recall | Dissolve | PeaceTalks | LowerUnrest | Subsidise)


@dataclass(frozen=True)
class Reaction:
    """An answer to a decision owed in another player's impulse (research §3.5).

    `word` is the reaction (INTERCEPT, EVADE, STAND, PASS, FIGHT, WITHDRAW, SUPPORT,
    OPPOSE, NOOPPOSE, JOINFORT, GUARD, RETREAT, REPATRIATE, BASE, BOX, DISPERSE, FLIP, ATTACH, PLACE, KEEP,
    ELIMINATE, DEGRADE, ACCEPT, REFUSE, JOINWAR, STAYOUT, DYNASTY);
    `place` an area (FROM/TO, BASE) or a box (BOX), the power a SUPPORT is FOR, or the
    unit a leader is ATTACHed to, `unit` a squadron (WITH), the troop repatriated or the
    leader attached (AUTO: the request's default), `units` a subset of units (or the areas of
    PLACE, the units of ELIMINATE or DEGRADE), `degrade` the units ELIMINATE … DEGRADE
    degrades, `means` TROOPS or FORTRESS (or FORT: retreat into the fortress; for REPATRIATE:
    STRAT, MOVE or DISPERSE); `power` the
    power answering, when written. DIVIDE is several dispositions of the troops in an area
    entered, its `parts` (EVADE and JOINFORT, each naming its UNITS; §12.4.2, §13.4.1)."""

    word: str
    power: str | None = None
    place: str | None = None
    unit: str | None = None
    units: tuple[str, ...] = ()
    means: str | None = None
    degrade: tuple[str, ...] = ()
    parts: tuple[Reaction, ...] = ()

    def text(self) -> str:
        if self.word == "DIVIDE":
            return " ".join(([self.power] if self.power else []) + [part.text() for part in self.parts])
        parts = [self.power] if self.power else []
        parts.append(self.word)
        if self.word == "INTERCEPT" and self.place:
            parts += ["FROM", self.place]
        elif self.word == "EVADE":
            parts += ["TO", self.place] if self.place else ["DISPERSE"]
        elif self.word == "RETREAT":
            parts += ["INTO", "FORT"] if self.means == "FORT" else ["TO", self.place]
        elif self.word == "REPATRIATE":
            parts += [self.unit] + {"STRAT": ["TO", self.place], "MOVE": ["MOVE", "TO", self.place],
                                    "DISPERSE": ["DISPERSE"]}.get(self.means, [])
        elif self.word == "ATTACH":
            parts += [self.unit] + (["TO", self.place] if self.place else [])
        elif self.word == "OPPOSE":
            parts += ["FROM", self.place, "WITH", self.means]
        elif self.word in ("BASE", "BOX"):
            parts += [self.place]
        elif self.word in ("DISPERSE", "FLIP", "PLACE", "DEGRADE"):
            return " ".join(parts + [",".join(self.units)])
        elif self.word == "ELIMINATE":
            return " ".join(parts + [",".join(self.units)] + (["DEGRADE", ",".join(self.degrade)] if self.degrade
                                                               else []))
        elif self.word == "SUPPORT" and self.place:
            parts += ["WITH", self.unit, "FOR", self.place]
        elif self.unit:
            parts += ["WITH", self.unit]
        if self.units:
            parts += ["UNITS", ",".join(self.units)]
        return " ".join(parts)


@dataclass(frozen=True)
class Action:
    """`<power> <budget> <verb>`; budget is I, X, W, E or C<card>."""

    power: str
    budget: str
    verb: Verb

    @cached_property  # a command is parsed once and its action charged on every replay
    def card(self) -> int | None:
        return int(self.budget[1:]) if self.budget.startswith("C") else None

    def text(self) -> str:
        return f"{self.power} {self.budget} {self.verb.text()}"


Command = Bid | GroupChoice | StartChoice | Play | Done | Action | Reaction


def _path_text(path: tuple[str, ...]) -> str:
    return " PATH " + ">".join(path) if path else ""


def _convoy_text(escort: str | None, fights: tuple[str, ...]) -> str:
    return (f" ESCORT {escort}" if escort else "") + (f" FIGHT {','.join(fights)}" if fights else "")


# -- the parser ---------------------------------------------------------------
class _ToCommand(Transformer):
    def bid(self, items):
        return Bid(int(items[0]))

    def group(self, items):
        return GroupChoice(int(items[0]))

    def start_choice(self, items):
        return StartChoice(str(items[0]), str(items[1]).upper())

    def allocation(self, items):
        return (str(items[0]).upper(), int(items[1]))

    def play(self, items):
        areas = next((i for i in items[1:] if isinstance(i, list)), [])
        return Play(int(items[0]), tuple(i for i in items[1:] if isinstance(i, tuple)), tuple(areas))

    def event_areas(self, items):
        return [str(name) for name in items]

    def done(self, _items):
        return Done()

    def path(self, items):
        return tuple(str(place) for place in items)

    def build(self, items):
        return BuildTroop(int(str(items[0])[1:]), str(items[1]), items[2] if len(items) > 2 else ())

    def regroup(self, items):
        return Regroup(str(items[0]).upper(), str(items[1]), items[2] if len(items) > 2 else ())

    def strat(self, items):
        return StratTroop(str(items[0]).upper(), items[1], **dict(items[2:]))

    def home(self, items):
        return Home(str(items[0]).upper())

    def action(self, items):
        return Action(str(items[0]).upper(), str(items[1]).upper(), items[2])

    def units(self, items):
        return tuple(str(u).upper() for u in items)

    def build_squadron(self, items):
        return BuildSquadron(int(str(items[0])[1:]), str(items[1]))

    def build_merchant(self, items):
        return BuildMerchant(str(items[0]))

    def repair(self, items):
        return Repair(str(items[0]).upper(), items[1] if len(items) > 1 else ())

    def strat_squadron(self, items):
        return StratSquadron(str(items[0]).upper(), items[1])

    def change(self, items):
        return (str(items[0]), str(items[1]).upper())

    def stop(self, items):
        changes = items[1:]
        return Stop(str(items[0]), tuple(u for sign, u in changes if sign == "+"),
                    tuple(u for sign, u in changes if sign == "-"))

    def strat_stack(self, items):
        stops = tuple(i for i in items[3:] if isinstance(i, Stop))
        extra = dict(i for i in items[3:] if isinstance(i, tuple))
        return StratStack(str(items[0]).upper(), str(items[1]).upper(), str(items[2]).upper(), stops, **extra)

    def fort(self, items):
        return Fort(str(items[0]).upper(), str(items[1]))

    def replace(self, items):
        return ("replace", str(items[0]).upper())

    def extra_if(self, items):
        return ("extra", tuple(str(a).lower() for a in items))

    def leader(self, items):
        parts = dict(items[1:])
        return BuildLeader(str(items[0]).upper(), parts.get("replace"), parts.get("extra", ()))

    def leave(self, items):
        return ("leave", items[0])

    def take(self, items):
        return ("take", items[0])

    def then(self, items):
        return ("then", str(items[0]))

    def subj(self, _items):
        return ("subjugate", True)

    def nocontrol(self, _items):
        return ("control", False)

    def nocb(self, _items):
        return ("without_cb", True)

    def escort(self, items):
        return ("escort", str(items[0]).upper())

    def fights(self, items):
        return ("fights", tuple(str(p).upper() for p in items))

    def via(self, items):
        return ("via", tuple(str(sea) for sea in items))

    def move(self, items):
        return Move(items[0], str(items[1]), **dict(items[2:]))

    def land(self, items):
        return Land(items[0], str(items[1]), **dict(items[2:]))

    def subjugate(self, items):
        return Subjugate(str(items[0]))

    def assault(self, items):
        return Assault(str(items[0]))

    def sortie(self, items):
        return Sortie(str(items[0]))

    def naval(self, items):
        sea = str(items[1]) if len(items) == 3 else None
        return Naval(str(items[0]).upper(), sea, items[-1])

    def piracy(self, items):
        return Piracy(str(items[0]).upper(), str(items[1]).upper())

    def declare(self, items):
        return DeclareWar(str(items[0]).upper(), **dict(items[1:]))

    def sail(self, items):
        return Sail(str(items[0]).upper(), str(items[1]))

    def peace(self, items):
        return PeaceTalks(str(items[0]).upper())

    def swap(self, items):
        return Swap(str(items[0]).upper(), str(items[1]).upper())

    def fleet(self, items):
        return FormFleet(str(items[0]).upper(), items[1])

    def attach(self, items):
        return Attach(str(items[0]).upper(), str(items[1]).upper())

    def ally(self, items):
        return Ally(str(items[0]).upper())

    def cede(self, items):
        return Cede(str(items[0]).upper(), str(items[1]).upper(), items[2])

    def recall(self, items):
        return Recall(str(items[0]).upper(), items[1])

    def dissolve(self, items):
        return Dissolve(str(items[0]).upper())

    # -- reactions ----------------------------------------------------------
    def reaction(self, items):
        if len(items) == 2:
            return Reaction(**{**items[1].__dict__, "power": str(items[0]).upper()})
        return items[0]

    def land_intercept(self, items):
        return Reaction("INTERCEPT", place=str(items[0]), units=items[1] if len(items) > 1 else ())

    def evade_to(self, items):
        return str(items[0])

    def disperse(self, _items):
        return None

    def evade(self, items):
        return Reaction("EVADE", place=items[0], units=items[1] if len(items) > 1 else ())

    def stand(self, _items):
        return Reaction("STAND")

    def naval_intercept(self, items):
        return Reaction("INTERCEPT", unit=str(items[0]).upper())

    def pass_(self, _items):
        return Reaction("PASS")

    def fight(self, _items):
        return Reaction("FIGHT")

    def withdraw(self, _items):
        return Reaction("WITHDRAW")

    def support(self, items):
        return Reaction("SUPPORT", unit=str(items[0]).upper(), place=str(items[1]).upper() if len(items) > 1 else None)

    def base_choice(self, items):
        return Reaction("BASE", place=str(items[0]))

    def box_choice(self, items):
        return Reaction("BOX", place=str(items[0]))

    def oppose(self, items):
        return Reaction("OPPOSE", place=str(items[0]), means=str(items[1]).upper())

    def nooppose(self, _items):
        return Reaction("NOOPPOSE")

    def joinfort(self, items):
        return Reaction("JOINFORT", units=items[0] if items else ())

    def dispose(self, items):
        return items[0] if len(items) == 1 else Reaction("DIVIDE", parts=tuple(items))

    def guard(self, items):
        return Reaction("GUARD", unit=str(items[0]).upper())

    def into_fort(self, _items):
        return None

    def retreat(self, items):
        target, units = items[0], items[1] if len(items) > 1 else ()
        if target is None:
            return Reaction("RETREAT", means="FORT", units=units)
        return Reaction("RETREAT", place=target, units=units)

    def repatriate_to(self, items):
        return ("STRAT", str(items[0]))

    def repatriate_move(self, items):
        return ("MOVE", str(items[0]))

    def repatriate(self, items):
        unit = str(items[0]).upper()
        if len(items) == 1:
            return Reaction("REPATRIATE", unit=unit)
        means, place = items[1] if items[1] is not None else ("DISPERSE", None)
        return Reaction("REPATRIATE", unit=unit, place=place, means=means)

    def reattach(self, items):
        return Reaction("ATTACH", unit=str(items[0]).upper(), place=str(items[1]).upper() if len(items) > 1 else None)

    def scatter(self, items):
        return Reaction("DISPERSE", units=items[0])

    def flip(self, items):
        return Reaction("FLIP", units=items[0])

    def names(self, items):
        return tuple(str(name) for name in items)

    def place_answer(self, items):
        return Reaction("PLACE", units=items[0])

    def keep(self, _items):
        return Reaction("KEEP")

    def eliminate(self, items):
        return Reaction("ELIMINATE", units=items[0], degrade=items[1] if len(items) > 1 else ())

    def degrade(self, items):
        return Reaction("DEGRADE", units=items[0])

    def accept(self, _items):
        return Reaction("ACCEPT")

    def refuse(self, _items):
        return Reaction("REFUSE")

    def joinwar(self, _items):
        return Reaction("JOINWAR")

    def stayout(self, _items):
        return Reaction("STAYOUT")
    def dynasty(self, _items):
        return Reaction("DYNASTY")

    def lower(self, _items):
        return LowerUnrest()

    def subsidise(self, items):
        return Subsidise(str(items[0]).upper())


@cache
def _parser() -> Lark:
    """The order grammar's LALR parser, building commands as it reduces (no parse tree:
    the same commands, read in about half the time)."""
    grammar = files("pbem.rules.ratio_regis").joinpath("orders.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", transformer=_ToCommand())


_TERMINAL_WORDS = {
    "INT": "a number", "NAME": "a name", "SEA": "a sea (@EA)", "BUDGET": "I, X, W, F, E, - or C<card>",
    "STACK": "ARMY or FLEET", "FORT_STEP": "START or FINISH", "OPPOSER": "TROOPS or FORTRESS", "SIGN": "+ or -",
    "LPAR": "'('", "RPAR": "')'",
    "QUALITY": "Q2 or Q3", "DIRECTION": "CW or CCW", "EQUAL": "'='", "COMMA": "','", "MORETHAN": "'>'",
    "$END": "the end of the line", "<END-OF-FILE>": "the end of the line",
}


@lru_cache(maxsize=4096)
def parse_line(text: str) -> Command:
    """One order line as a command; `OrderSyntaxError` says what went wrong and where.
    Commands are immutable, so a line read once (on receipt) is not parsed again on replay."""
    try:
        return _parser().parse(from_spanish(text))
    except UnexpectedInput as error:
        raise OrderSyntaxError(_explain(text, error)) from None


@cache
def line_keywords() -> tuple[str, ...]:
    """The first words of the lines that are not a power's action, read off the grammar: BID,
    GROUP, START, PLAY, DONE, then the answers to decisions of another player's impulse."""
    return tuple(word for rule in ("bid", "group", "start_choice", "play", "done", "reaction")
                 for word in grammar_keywords(_parser(), rule))


@cache
def reaction_keywords() -> tuple[str, ...]:
    """The first words of the answers to decisions of another player's impulse."""
    return grammar_keywords(_parser(), "reaction")


@cache
def verbs() -> tuple[str, ...]:
    """The actions of a power (`<POWER> <budget> <action> …`), read off the grammar."""
    return grammar_keywords(_parser(), "action")


def _explain(text: str, error: UnexpectedInput) -> str:
    words = text.split()
    if not words:
        return "the line holds no order (only blanks or control characters)"
    first = words[0].upper()
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        return f"the line ends too early; expected {_expected(error)}"
    column = getattr(error, "column", 1)
    found = text[column - 1:].split()[0] if column - 1 < len(text) and text[column - 1:].split() else ""
    second_word_at = text.find(words[1], len(words[0])) + 1 if len(words) > 1 else 0
    keywords, actions = line_keywords(), verbs()
    if first not in keywords and (len(words) == 1 or column == second_word_at):
        hint = suggest(first, keywords)
        if hint:
            return f"unknown order {words[0]!r}; did you mean {hint}?"
        return (f"cannot read {text!r}: an order is BID, GROUP, START, PLAY or DONE, a power's action "
                f"<POWER> <I|C<card>|X|W|F|E|-> <{'|'.join(actions)}> …, or an answer to a decision "
                f"({', '.join(reaction_keywords())})")
    if isinstance(error, UnexpectedToken) and isinstance(error.token, Token) and len(words) >= 3 \
            and column == text.find(words[2]) + 1 and first not in keywords:
        hint = suggest(words[2], actions)
        return f"unknown action {words[2]!r}" + (f"; did you mean {hint}?" if hint else
                                                 f" (known: {', '.join(actions)})")
    if isinstance(error, UnexpectedCharacters) and column == 1:
        hint = suggest(first, keywords)
        return f"unknown order {words[0]!r}" + (f"; did you mean {hint}?" if hint else "")
    return f"cannot read {found!r} at column {column}; expected {_expected(error)}"


def _expected(error: UnexpectedInput) -> str:
    names = getattr(error, "expected", None) or getattr(error, "allowed", None) or set()
    readable = sorted({_TERMINAL_WORDS.get(name, name.strip('"').upper()) for name in names})
    return " or ".join(readable) if readable else "something else"


def command_parser(command: type[T], value_of: Callable[[T], Any]) -> Callable[[str], Any]:
    """A `LineKind` parser for the decisions one command of the grammar answers (`BID 3`):
    the line's value, None for a line of another command, `Refusal` for a line that cannot
    be read."""
    def parse(text: str) -> Any:
        try:
            line = parse_line(text)
        except OrderSyntaxError as error:
            raise Refusal(str(error)) from None
        return value_of(line) if isinstance(line, command) else None
    return parse
