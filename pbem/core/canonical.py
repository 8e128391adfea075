"""Canonical JSON and state hashes.

Every resolved step records `sha256(canonical_json(state))`; `pbem verify` recomputes
it. Canonical means: sorted keys, no insignificant white space, UTF-8, and no floats
(game arithmetic uses ints or Fractions, so a float in state is a bug, not a value).
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec

_encoder = msgspec.json.Encoder(order="sorted")


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes for plain data and msgspec structs."""
    return _encoder.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(value: Any) -> str:
    return sha256_hex(canonical_json(value))
