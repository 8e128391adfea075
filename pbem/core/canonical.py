"""Canonical JSON and state hashes.

Every resolved step records `sha256(canonical_json(state))`; `pbem verify` recomputes
it. Canonical means: sorted keys, no insignificant white space, UTF-8, and no floats
(game arithmetic uses ints or Fractions, so a float in state is a bug, not a value).
"""

from __future__ import annotations

import hashlib
from typing import Any, Generic, TypeVar

import msgspec
import msgspec.inspect as mi

_encoder = msgspec.json.Encoder(order="sorted")


def canonical_json(value: Any) -> bytes:
    """Deterministic JSON bytes for plain data and msgspec structs."""
    return _encoder.encode(value)


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def state_hash(value: Any) -> str:
    return sha256_hex(canonical_json(value))


T = TypeVar("T")

# Writes dicts and sets sorted but an object's fields in declaration order: the same bytes as
# `_encoder` for types whose fields are declared in sorted order, in little more than half the time.
_declared_order_encoder = msgspec.json.Encoder(order="deterministic")

_LEAVES = (mi.NoneType, mi.BoolType, mi.IntType, mi.StrType, mi.BytesType, mi.ByteArrayType,
           mi.MemoryViewType, mi.DateTimeType, mi.DateType, mi.TimeType, mi.TimeDeltaType, mi.UUIDType,
           mi.DecimalType, mi.LiteralType, mi.EnumType)


def fields_sorted(kind: Any) -> bool:
    """Whether every object-like type `kind` may hold writes its fields in sorted order when
    written in declaration order. False wherever that cannot be known from the types (`Any`,
    custom and float types, typed dicts, tagged unions)."""
    seen: set[int] = set()

    def check(info: mi.Type) -> bool:
        if isinstance(info, _LEAVES):
            return True
        if isinstance(info, (mi.StructType, mi.DataclassType)):
            if id(info.cls) in seen:
                return True
            seen.add(id(info.cls))
            if getattr(info, "tag_field", None) is not None:
                return False
            names = [f.encode_name for f in info.fields]
            return names == sorted(names) and all(check(f.type) for f in info.fields)
        if isinstance(info, (mi.ListType, mi.SetType, mi.FrozenSetType, mi.VarTupleType)):
            return check(info.item_type)
        if isinstance(info, mi.TupleType):
            return all(check(item) for item in info.item_types)
        if isinstance(info, mi.DictType):
            return check(info.key_type) and check(info.value_type)
        if isinstance(info, mi.UnionType):
            return all(check(member) for member in info.types)
        if isinstance(info, mi.NamedTupleType):
            return all(check(f.type) for f in info.fields)
        return False

    return check(mi.type_info(kind))


class StructCodec(Generic[T]):
    """Canonical JSON of one msgspec struct type and back: how a game keeps its state (and the
    projection its snapshot) as the bytes that are hashed and stored, and how a step gets a
    fresh copy. A type whose fields are all declared in sorted order is written by the
    cheaper declaration-order encoder (a replay encodes the state at every step)."""

    def __init__(self, kind: type[T]):
        self._decoder = msgspec.json.Decoder(kind)
        self._encoder = _declared_order_encoder if fields_sorted(kind) else _encoder

    def encode(self, value: T) -> bytes:
        return self._encoder.encode(value)

    def decode(self, data: bytes) -> T:
        return self._decoder.decode(data)

    def copy(self, value: T) -> T:
        return self.decode(self.encode(value))
