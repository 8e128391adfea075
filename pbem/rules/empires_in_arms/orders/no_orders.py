"""STAND: a power gives no orders in its block."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from pbem.core.toolkit import Order


@dataclass(frozen=True)
class NoOrders(Order):
    """No orders: nothing to carry out, and nothing kept in the answer."""

    patterns: ClassVar = ("STAND", "DONE")
    kept: ClassVar = False

    def execute(self, game: object) -> str:
        return ""
