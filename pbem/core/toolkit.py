"""The order toolkit (DESIGN §6): an order is one class in one place — its grammar, its
fields, its echo and help text, its legality check and its execution — and a game lists
its orders in an explicit `OrderTable`.

An order declares its grammar as a small pattern, one line per form it may be written in:

    TRANSFER <count:int> <kind:code> FROM <source> TO <target>

Upper-case words are keywords (case-insensitive on input), `<field>` is a name and
`<field:type>` a value of a type the table declares (`int`, `code`, `names` …),
`[ … ]` is optional and `[WORD]` alone is a flag: a field `word` that is true when the
word is written. The order's fields are the pattern's; the table compiles every pattern
into one lark grammar, so the help line (`help`), the echo (`text()`), the keyword list
and "did you mean" are all read off the pattern itself and can never disagree with it.

What an order does is written once and used twice: `execute` carries it out on the game
it is given, live or on the block runner's dry run (`pbem.core.blocks`), and raises
`Refusal` with the reason when it cannot be carried out. A game's orders all take the same
`game` object (the state, the scenario, the power the block serves and the port): the
game decides what it holds.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cached_property, lru_cache
from typing import Any, ClassVar, Generic, TypeVar

from lark import Lark, Token, Transformer, UnexpectedInput

from pbem.core.decisions import Refusal
from pbem.core.orders import suggest

G = TypeVar("G")

_PIECE = re.compile(r"\[|\]|<[^>]+>|[^\s\[\]<>]+")


class OrderSyntaxError(Refusal):
    """A line no order of the table reads; the message says what was expected."""


@dataclasses.dataclass(frozen=True)
class FieldType:
    """How a pattern's `<field:type>` is written (a lark expression over the table's
    terminals) and what value it gives (from the matched tokens)."""

    grammar: str
    value: Callable[[Sequence[Token]], Any]
    shown: str = ""  # how help shows it, when not `<field>`


def _one(convert: Callable[[str], Any]) -> Callable[[Sequence[Token]], Any]:
    return lambda tokens: convert(str(tokens[0]))


#: The field types every table knows; a game adds its own (a sea, a budget …).
FIELD_TYPES: dict[str, FieldType] = {
    "name": FieldType("NAME", _one(str)),
    "code": FieldType("NAME", _one(str.upper)),
    "int": FieldType("INT", _one(int)),
    "names": FieldType('NAME ("," NAME)*', lambda tokens: tuple(str(t) for t in tokens), "<{name},…>"),
    "codes": FieldType('NAME ("," NAME)*', lambda tokens: tuple(str(t).upper() for t in tokens), "<{name},…>"),
    "words": FieldType("NAME+", lambda tokens: tuple(str(t) for t in tokens), "<{name> <name}…>"),
}


@dataclasses.dataclass(frozen=True)
class _Piece:
    kind: str  # "word", "field", "flag", "open", "close"
    text: str
    type: str = ""


def _pieces(pattern: str) -> list[_Piece]:
    out: list[_Piece] = []
    raw = _PIECE.findall(pattern)
    for index, piece in enumerate(raw):
        if piece == "[":
            # `[WORD]`: a flag
            if index + 2 < len(raw) and raw[index + 2] == "]" and raw[index + 1].isupper():
                continue
            out.append(_Piece("open", piece))
        elif piece == "]":
            if index >= 2 and raw[index - 2] == "[" and raw[index - 1].isupper():
                continue
            out.append(_Piece("close", piece))
        elif piece.startswith("<"):
            name, _, type_ = piece[1:-1].partition(":")
            out.append(_Piece("field", name, type_ or "name"))
        elif index >= 1 and raw[index - 1] == "[" and index + 1 < len(raw) and raw[index + 1] == "]" \
                and piece.isupper():
            out.append(_Piece("flag", piece))
        else:
            out.append(_Piece("word", piece))
    return out


def _flag_field(word: str) -> str:
    return word.lower().replace("-", "_")


class Order:
    """One order of a game. A subclass is a frozen dataclass whose fields are its
    pattern's (`patterns`: one or more forms), and says what it does in `execute(game)`:
    carry the order out on `game` and say what happened (one chronicle line), or raise
    `Refusal` (or the table's own refusal) with the reason when it cannot be carried out.
    The block runner calls it on a dry run (a copy of the state and the core's probe) to
    check a block when it arrives, and live to carry the block out: one code for both."""

    patterns: ClassVar[tuple[str, ...]] = ()
    types: ClassVar[Mapping[str, FieldType]] = {}  # field types of its own, beyond the table's
    rule: ClassVar[str] = ""  # the rule the order carries out, cited in the chronicle
    kept: ClassVar[bool] = True  # False: a line that says "no orders" (STAND), not kept in the answer

    @classmethod
    def keyword(cls) -> str:
        """The order's first word: what it is known by in help and "did you mean"."""
        return cls.patterns[0].split()[0]

    @classmethod
    def grammar_rule(cls) -> str:
        """The order's rule in its table's grammar."""
        return "order_" + re.sub(r"(?<!^)(?=[A-Z])", "_", cls.__name__).lower()

    @classmethod
    def help(cls) -> str:
        """The order's forms as players read them, from its patterns."""
        types = {**FIELD_TYPES, **cls.types}
        forms = (" ".join(_shown(p, types) for p in _pieces(pattern)) for pattern in cls.patterns)
        return " | ".join(form.replace("[ ", "[").replace(" ]", "]") for form in forms)

    def text(self) -> str:
        """The canonical line: the first form all of whose fields the order has."""
        values = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        for pattern in self.patterns:
            line = _render(_pieces(pattern), values)
            if line is not None:
                return line
        raise ValueError(f"{type(self).__name__} has no form for {values}")

    def execute(self, game: Any) -> str:
        raise NotImplementedError(f"{type(self).__name__} is read but not carried out")


def _shown(piece: _Piece, types: Mapping[str, FieldType]) -> str:
    if piece.kind == "field":
        shown = types.get(piece.type, FieldType("", _one(str))).shown
        return shown.replace("{name}", piece.text) if shown else f"<{piece.text}>"
    if piece.kind == "flag":
        return f"[{piece.text}]"
    return {"open": "[", "close": "]"}.get(piece.kind, piece.text)


def _render(pieces: list[_Piece], values: Mapping[str, Any]) -> str | None:
    """The pattern written with `values`; an optional part with an empty field is left
    out, and None when a required field is empty (another form fits the order)."""
    words, _ = _render_from(pieces, 0, values)
    return None if words is None else " ".join(words)


def _render_from(pieces: list[_Piece], start: int, values: Mapping[str, Any]) -> tuple[list[str] | None, int]:
    """The words from `start` to the end of its group (or the pattern), and where it ends."""
    out: list[str] | None = []
    index = start
    while index < len(pieces):
        piece = pieces[index]
        index += 1
        if piece.kind == "close":
            break
        if piece.kind == "open":
            inner, index = _render_from(pieces, index, values)
            if out is not None and inner:
                out += inner
        elif piece.kind == "word":
            out = None if out is None else [*out, piece.text]
        elif piece.kind == "flag":
            if out is not None and values.get(_flag_field(piece.text)):
                out.append(piece.text)
        else:
            value = values.get(piece.text)
            if value is None or value == "" or value == ():
                out = None
            elif out is not None:
                joiner = "," if "," in FIELD_TYPES.get(piece.type, FIELD_TYPES["name"]).grammar else " "
                out.append(joiner.join(map(str, value)) if isinstance(value, tuple) else str(value))
    return out, index


@dataclasses.dataclass(frozen=True)
class _Field:
    name: str
    value: Any


class OrderTable(Generic[G]):
    """A game's orders for one kind of block (a power's land orders, an impulse …), listed
    explicitly: the one place that says which orders exist. It compiles their patterns
    into one grammar and reads lines into orders."""

    def __init__(self, name: str, orders: Iterable[type[Order]], *, types: Mapping[str, FieldType] | None = None,
                 terminals: str = 'NAME: /[A-Za-z][A-Za-z0-9_\'.-]*/\n%import common.INT\n',
                 refusals: tuple[type[Exception], ...] = ()):
        self.name = name
        self.refusals = refusals  # the game's own exceptions for an order the rules do not allow now
        self.read = lru_cache(maxsize=4096)(self._read)  # orders are frozen: a line is read once
        self.orders: tuple[type[Order], ...] = tuple(orders)
        self.types = {**FIELD_TYPES, **(types or {})}
        for order in self.orders:
            self.types.update(order.types)
        self.terminals = terminals
        rules = [order.grammar_rule() for order in self.orders]
        if len(set(rules)) != len(rules):
            raise ValueError(f"{name}: two orders share a name")

    # -- the grammar -------------------------------------------------------------------
    @cached_property
    def grammar(self) -> str:
        return self._compiled[0]

    @cached_property
    def _compiled(self) -> tuple[str, dict[str, tuple[str, Callable[[Sequence[Token]], Any]]]]:
        """The table's lark grammar, and for each field's rule the field and its value."""
        lines = ["?start: " + " | ".join(order.grammar_rule() for order in self.orders)]
        fields: dict[str, str] = {}
        values: dict[str, tuple[str, Callable[[Sequence[Token]], Any]]] = {}
        for order in self.orders:
            declared = {f.name for f in dataclasses.fields(order)}  # type: ignore[arg-type]
            forms = []
            for pattern in order.patterns:
                parts = []
                for piece in _pieces(pattern):
                    if piece.kind == "word":
                        parts.append(f'"{piece.text}"i')
                    elif piece.kind in ("open", "close"):
                        parts.append("(" if piece.kind == "open" else ")?")
                    else:
                        flag = piece.kind == "flag"
                        name = _flag_field(piece.text) if flag else piece.text
                        rule = f"{order.grammar_rule()}__{name}"
                        type_ = None if flag else self._type(piece.type, order)
                        body = f'"{piece.text}"i' if type_ is None else type_.grammar
                        if fields.setdefault(rule, body) != body:
                            raise ValueError(f"{order.__name__}: field {name} has two types in its patterns")
                        values[rule] = (name, (lambda _tokens: True) if type_ is None else type_.value)
                        parts.append(rule + ("?" if flag else ""))
                forms.append(" ".join(parts))
            named = {name for rule, (name, _) in values.items() if rule.startswith(order.grammar_rule() + "__")}
            if named != declared:
                raise ValueError(f"{order.__name__}: its patterns name {sorted(named)}, its fields are "
                                 f"{sorted(declared)}")
            lines.append(f"{order.grammar_rule()}: " + " | ".join(forms))
        lines += [f"{rule}: {body}" for rule, body in fields.items()]
        grammar = "\n".join([*lines, self.terminals, "%import common.WS_INLINE", "%ignore WS_INLINE"])
        return grammar, values

    def _type(self, name: str, order: type[Order]) -> FieldType:
        if name not in self.types:
            raise ValueError(f"{order.__name__}: unknown field type {name!r} (known: {', '.join(self.types)})")
        return self.types[name]

    @cached_property
    def parser(self) -> Lark:
        return Lark(self.grammar, parser="lalr", transformer=_Reader(self), maybe_placeholders=False)

    @cached_property
    def keywords(self) -> tuple[str, ...]:
        """The first word of every order, as its grammar has it."""
        return grammar_keywords(self.parser, "start")

    def echo(self, order: Order) -> str:
        """A line as understood: the block's name and the order's canonical line."""
        return f"{self.name}: {order.text()}"

    def understood(self, order: Order, result: str) -> str:
        """The receipt echoes a line carried out as it echoes it before (`result` goes to the
        chronicle)."""
        return self.echo(order)

    def help(self) -> str:
        """One line per order: its forms."""
        return "\n".join(order.help() for order in self.orders)

    # -- reading -------------------------------------------------------------------------
    def _read(self, text: str) -> Order:
        """One line as an order, or `OrderSyntaxError` saying what went wrong."""
        try:
            return self.parser.parse(text.strip())
        except UnexpectedInput as error:
            raise OrderSyntaxError(self._explain(text.strip(), error)) from None

    def _explain(self, text: str, error: UnexpectedInput) -> str:
        words = text.split()
        if not words:
            return "the line holds no order"
        if words[0].upper() not in self.keywords:
            hint = suggest(words[0], self.keywords)
            return (f"unknown order {words[0]!r}" + (f"; did you mean {hint}?" if hint else "")
                    + f" ({self.name}: {', '.join(self.keywords)})")
        order = next(o for o in self.orders if words[0].upper() in grammar_keywords(self.parser, o.grammar_rule()))
        return f"cannot read {text!r} at column {getattr(error, 'column', '?')}; write {order.help()}"


class _Reader(Transformer):
    """Builds orders as the parser reduces their rules (no parse tree kept)."""

    def __init__(self, table: OrderTable):
        super().__init__()
        self._orders = {order.grammar_rule(): order for order in table.orders}
        self._fields = table._compiled[1]

    def __default__(self, data: str, children: list, meta: Any) -> Any:
        if data in self._fields:
            name, value = self._fields[data]
            return _Field(name, value(children))
        if data.startswith("__"):  # a repetition lark made a rule of (`("," NAME)*`), spread in its field
            return super().__default__(data, children, meta)
        order = self._orders[data]
        return order(**{child.name: child.value for child in children if isinstance(child, _Field)})


def grammar_keywords(parser: Lark, rule: str) -> tuple[str, ...]:
    """The first keyword of each form of `rule` in a lark grammar, in the grammar's order:
    names and other pattern terminals before it are passed over (`<power> <budget> BUILD …`
    gives BUILD), rules are followed. What a game's "did you mean" and keyword lists are read
    from, so they cannot disagree with the grammar."""
    terminals = {t.name: t.pattern for t in parser.terminals}
    forms: dict[str, list[list[Any]]] = {}
    for r in parser.rules:
        forms.setdefault(r.origin.name, []).append(list(r.expansion))
    found: dict[str, None] = {}

    def walk(name: str, seen: frozenset[str]) -> None:
        for expansion in forms.get(name, []):
            for symbol in expansion:
                if symbol.is_term:
                    pattern = terminals.get(symbol.name)
                    if pattern is not None and pattern.type == "str" and re.fullmatch(r"[A-Za-z][\w-]*",
                                                                                       pattern.value):
                        found[pattern.value.upper()] = None
                        break
                    continue  # a name, a number, a punctuation mark: the keyword comes later
                if symbol.name not in seen:
                    walk(symbol.name, seen | {symbol.name})
                break

    walk(rule, frozenset({rule}))
    return tuple(found)
