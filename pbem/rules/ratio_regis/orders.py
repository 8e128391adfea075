"""Reading Ratio Regis order lines (research §3.1–3.3, DESIGN §6).

`orders.lark` is parsed one line at a time, so one bad line never hides the others;
each line becomes a small command object whose `text()` is the canonical line echoed
back to the player and stored as the answer. Names are only read here; whether they
exist and the order is legal is decided against the state (`impulse.py`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from lark import Lark, Token, Transformer, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pbem.core.orders import suggest

KEYWORDS = ("BID", "GROUP", "START", "PLAY", "DONE")
VERBS = ("BUILD", "REGROUP", "STRAT", "HOME")


class OrderSyntaxError(ValueError):
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

    def text(self) -> str:
        if not self.points:
            return f"PLAY {self.card}"
        return f"PLAY {self.card} POINTS " + ",".join(f"{power}={n}" for power, n in self.points)


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

    def text(self) -> str:
        return f"STRAT TROOP {self.troop}" + _path_text(self.path)


@dataclass(frozen=True)
class Home:
    troop: str

    def text(self) -> str:
        return f"HOME {self.troop}"


Verb = BuildTroop | Regroup | StratTroop | Home


@dataclass(frozen=True)
class Action:
    """`<power> <budget> <verb>`; budget is I, X, W, E or C<card>."""

    power: str
    budget: str
    verb: Verb

    @property
    def card(self) -> int | None:
        return int(self.budget[1:]) if self.budget.startswith("C") else None

    def text(self) -> str:
        return f"{self.power} {self.budget} {self.verb.text()}"


Command = Bid | GroupChoice | StartChoice | Play | Done | Action


def _path_text(path: tuple[str, ...]) -> str:
    return " PATH " + ">".join(path) if path else ""


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
        return Play(int(items[0]), tuple(items[1:]))

    def done(self, _items):
        return Done()

    def path(self, items):
        return tuple(str(place) for place in items)

    def build(self, items):
        return BuildTroop(int(str(items[0])[1:]), str(items[1]), items[2] if len(items) > 2 else ())

    def regroup(self, items):
        return Regroup(str(items[0]).upper(), str(items[1]), items[2] if len(items) > 2 else ())

    def strat(self, items):
        return StratTroop(str(items[0]).upper(), items[1])

    def home(self, items):
        return Home(str(items[0]).upper())

    def action(self, items):
        return Action(str(items[0]).upper(), str(items[1]).upper(), items[2])


@cache
def _parser() -> Lark:
    grammar = files("pbem.rules.ratio_regis").joinpath("orders.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", propagate_positions=True)


_TERMINAL_WORDS = {
    "INT": "a number", "NAME": "a name", "SEA": "a sea (@EA)", "BUDGET": "I, X, W, E or C<card>",
    "QUALITY": "Q2 or Q3", "DIRECTION": "CW or CCW", "EQUAL": "'='", "COMMA": "','", "MORETHAN": "'>'",
    "$END": "the end of the line", "<END-OF-FILE>": "the end of the line",
}


@lru_cache(maxsize=4096)
def parse_line(text: str) -> Command:
    """One order line as a command; `OrderSyntaxError` says what went wrong and where.
    Commands are immutable, so a line read once (on receipt) is not parsed again on replay."""
    try:
        return _ToCommand().transform(_parser().parse(text))
    except UnexpectedInput as error:
        raise OrderSyntaxError(_explain(text, error)) from None


def _explain(text: str, error: UnexpectedInput) -> str:
    words = text.split()
    first = words[0].upper() if words else ""
    if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
        return f"the line ends too early; expected {_expected(error)}"
    column = getattr(error, "column", 1)
    found = text[column - 1:].split()[0] if column - 1 < len(text) and text[column - 1:].split() else ""
    second_word_at = text.find(words[1], len(words[0])) + 1 if len(words) > 1 else 0
    if first not in KEYWORDS and (len(words) == 1 or column == second_word_at):
        hint = suggest(first, KEYWORDS)
        if hint:
            return f"unknown order {words[0]!r}; did you mean {hint}?"
        return (f"cannot read {text!r}: an order is BID, GROUP, START, PLAY or DONE, or a power's action "
                f"<POWER> <I|C<card>|X|W|E> <BUILD|REGROUP|STRAT|HOME> …")
    if isinstance(error, UnexpectedToken) and isinstance(error.token, Token) and len(words) >= 3 \
            and column == text.find(words[2]) + 1:
        hint = suggest(words[2], VERBS)
        return f"unknown action {words[2]!r}" + (f"; did you mean {hint}?" if hint else
                                                 f" (known: {', '.join(VERBS)})")
    if isinstance(error, UnexpectedCharacters) and column == 1:
        hint = suggest(first, KEYWORDS)
        return f"unknown order {words[0]!r}" + (f"; did you mean {hint}?" if hint else "")
    return f"cannot read {found!r} at column {column}; expected {_expected(error)}"


def _expected(error: UnexpectedInput) -> str:
    names = getattr(error, "expected", None) or getattr(error, "allowed", None) or set()
    readable = sorted({_TERMINAL_WORDS.get(name, name.strip('"').upper()) for name in names})
    return " or ".join(readable) if readable else "something else"
