"""Canonical JSON and state hashes.

Every resolved step records `sha256(canonical_json(state))`; `pbem verify` recomputes
it. Canonical means: sorted keys, no insignificant white space, UTF-8, and no floats
(game arithmetic uses ints or Fractions, so a float in state is a bug, not a value).
"""

from __future__ import annotations

import hashlib
from typing import Any, Generic, TypeVar

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes for plain data and msgspec structs."""
    return _encoder.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(value: Any) -> str:
    return sha256_hex(canonical_json(value))


T = TypeVar("T")


class StructCodec(Generic[T]):
    """Canonical JSON of one msgspec struct type and back: how a game keeps its state (and the
    projection its snapshot) as the bytes that are hashed and stored, and how a step gets a
    fresh copy."""

    def __init__(self, kind: type[T]):
        self._decoder = msgspec.json.Decoder(kind)

    def encode(self, value: T) -> bytes:
        return _encoder.encode(value)

    def decode(self, data: bytes) -> T:
        return self._decoder.decode(data)

    def copy(self, value: T) -> T:
        return self.decode(self.encode(value))
