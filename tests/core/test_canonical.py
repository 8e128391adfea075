from typing import Any

import msgspec

from pbem.core.canonical import StructCodec, canonical_json, fields_sorted


class Inner(msgspec.Struct, kw_only=True):
    a: int = 0
    b: dict[str, int] = {}


class Sorted(msgspec.Struct, kw_only=True):
    items: list[Inner] = []
    name: str
    pair: tuple[int, Inner | None] = (0, None)


class Unsorted(msgspec.Struct):
    b: int
    a: int


class HoldsUnsorted(msgspec.Struct):
    a: list[Unsorted]


class HoldsAny(msgspec.Struct):
    a: Any


class Tagged(msgspec.Struct, tag=True):
    a: int


def test_only_types_whose_every_object_declares_sorted_fields_qualify():
    assert fields_sorted(Sorted)
    assert not fields_sorted(Unsorted)
    assert not fields_sorted(HoldsUnsorted)  # an unsorted struct nested in a list
    assert not fields_sorted(HoldsAny)  # what `Any` holds cannot be known
    assert not fields_sorted(Tagged)


def test_a_codec_writes_canonical_json_whichever_encoder_it_picks():
    value = Sorted(name="x", items=[Inner(a=1, b={"z": 1, "y": 2})], pair=(3, Inner()))
    assert StructCodec(Sorted).encode(value) == canonical_json(value)
    assert StructCodec(Unsorted).encode(Unsorted(2, 1)) == canonical_json(Unsorted(2, 1)) == b'{"a":1,"b":2}'
