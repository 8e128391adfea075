"""Verifiable dice (DESIGN §5).

One secret per campaign; its sha256 is published when the campaign is created. Every
draw comes from a keyed stream: HMAC-SHA256(secret, "campaign|step|purpose|counter|try"),
sampled without bias by rejection, so an extra roll of one purpose never shifts a roll
of another. After the secret is revealed anyone can recompute every roll.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

import msgspec

_SPAN = 1 << 64


def new_secret() -> bytes:
    return secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """The published promise: sha256 of the secret, hex."""
    return hashlib.sha256(secret).hexdigest()


def draw_below(secret: bytes, stream_key: str, bound: int) -> int:
    """An unbiased integer in [0, bound) for one stream key."""
    if bound < 1:
        raise ValueError("bound must be at least 1")
    limit = _SPAN - (_SPAN % bound)
    attempt = 0
    while True:
        digest = hmac.digest(secret, f"{stream_key}|{attempt}".encode(), "sha256")  # one-shot: same bytes, faster
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % bound
        attempt += 1


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
