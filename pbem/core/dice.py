"""Verifiable dice (DESIGN §5).

One secret per campaign; its sha256 is published when the campaign is created. Every
draw comes from a keyed stream: HMAC-SHA256(secret, "campaign|step|purpose|counter|try"),
sampled without bias by rejection, so an extra roll of one purpose never shifts a roll
of another. After the secret is revealed anyone can recompute every roll.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import struct
from collections.abc import Sequence
from functools import lru_cache

import msgspec

_SPAN = 1 << 64
_BLOCK = 64  # SHA-256's block size: HMAC pads its key to it (RFC 2104)
_INNER_PAD = bytes(byte ^ 0x36 for byte in range(256))
_OUTER_PAD = bytes(byte ^ 0x5C for byte in range(256))
_HEAD = struct.Struct(">Q")  # a digest's first 8 bytes as a big-endian integer


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """The published promise: sha256 of the secret, hex."""
    return hashlib.sha256(secret).hexdigest()


class KeyedStreams:
    """The keyed streams of one secret: HMAC-SHA256 (RFC 2104) with the padded key hashed
    once. A turn's deal draws dozens of dice, and one-shot HMAC sets its key up afresh for
    each (about half of a draw's cost); the digests are the same bytes."""

    def __init__(self, secret: bytes):
        key = (hashlib.sha256(secret).digest() if len(secret) > _BLOCK else secret).ljust(_BLOCK, b"\0")
        self._inner = hashlib.sha256(key.translate(_INNER_PAD))
        self._outer = hashlib.sha256(key.translate(_OUTER_PAD))

    def digest(self, message: bytes) -> bytes:
        """HMAC-SHA256(secret, message)."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def draw_below(self, stream_key: str, bound: int) -> int:
        """An unbiased integer in [0, bound) for one stream key."""
        if bound < 1:
            raise ValueError("bound must be at least 1")
        limit = _SPAN - (_SPAN % bound)
        attempt = 0
        while True:
            value = _HEAD.unpack_from(self.digest(f"{stream_key}|{attempt}".encode()))[0]
            if value < limit:
                return value % bound
            attempt += 1


@lru_cache(maxsize=256)
def keyed_streams(secret: bytes) -> KeyedStreams:
    """The streams of `secret` (they depend on nothing else, so one serves every step)."""
    return KeyedStreams(secret)


def draw_below(secret: bytes, stream_key: str, bound: int) -> int:
    """An unbiased integer in [0, bound) for one stream key."""
    return keyed_streams(secret).draw_below(stream_key, bound)


class Roll(msgspec.Struct, frozen=True):
    """One logged draw: what it was for, which rule asked, and what came out (a struct:
    a replay makes one for every card shuffled, and a frozen dataclass is slow to build)."""

    key: str
    purpose: str
    rule: str
    sides: int
    value: int
    forced: bool = False

    def as_dict(self) -> dict:
        """key, purpose, rule, sides, value, forced (in that order: the chronicle's)."""
        return msgspec.structs.asdict(self)


def recompute(secret: bytes, roll: dict) -> int:
    """Recompute a logged (unforced) roll from the revealed secret."""
    return draw_below(secret, roll["key"], roll["sides"]) + 1


#: The forced-dice purpose whose last value is the face of every die (not draw or shuffle)
#: of a purpose with no forced value left: a case's default face for dice it does not care about.
DEFAULT_FACE = "*"


class DicePurpose(msgspec.Struct, frozen=True):
    """A purpose a game rolls for, as a ruleset declares it (`Ruleset.dice_purposes`) so that
    a forced die (`pbem gm dice`) is checked when the GM sets it rather than failing the
    step that rolls it. `form` is the purpose as rolled, where `<n>` stands for a number,
    any other `<name>` for one word without `/`, and `a|b` for either word of a segment;
    `sides` is the die's (None: a draw among as many outcomes as the position has, a
    shuffle's or a pick's); `rule` the rule it serves."""

    form: str
    sides: int | None
    rule: str

    def matches(self, purpose: str) -> bool:
        return _form_pattern(self.form).fullmatch(purpose) is not None


@lru_cache(maxsize=512)
def _form_pattern(form: str) -> re.Pattern[str]:
    def word(choice: str) -> str:
        return "".join(r"\d+" if part == "<n>" else "[^/]+" if part.startswith("<") else re.escape(part)
                       for part in re.split(r"(<[^>]+>)", choice))
    return re.compile("/".join("(?:" + "|".join(map(word, segment.split("|"))) + ")" for segment in form.split("/")))


def declared_purpose(purposes: Sequence[DicePurpose], purpose: str) -> DicePurpose | None:
    return next((declared for declared in purposes if declared.matches(purpose)), None)


def forced_dice_problem(purposes: Sequence[DicePurpose], purpose: str, values: Sequence[int]) -> str:
    """Why die results cannot be forced for `purpose` ("" when they can): an unknown
    purpose would wait for a roll that never comes, and a value off the die would stop
    the step that rolls it."""
    if not values:
        return "give at least one die result"
    if purpose == DEFAULT_FACE:
        # Shown on every unforced die, as near as its faces allow (`StepContext._roll`):
        # checked against the game's largest die.
        top = max((p.sides for p in purposes if p.sides is not None), default=None)
        return _off_the_die("a default face", top, "", values)
    declared = declared_purpose(purposes, purpose)
    if declared is None:
        forms = ", ".join(p.form for p in purposes) or "none"
        return f"this game rolls no dice for {purpose!r} (it rolls for: {forms})"
    return _off_the_die(f"a {purpose} die", declared.sides, f" ({declared.rule})", values)


def _off_the_die(what: str, top: int | None, rule: str, values: Sequence[int]) -> str:
    bad = [v for v in values if v < 1 or (top is not None and v > top)]
    if not bad:
        return ""
    span = f"1 to {top}" if top is not None else "at least 1"
    return f"{what} is {span}{rule}, not {', '.join(map(str, bad))}"
