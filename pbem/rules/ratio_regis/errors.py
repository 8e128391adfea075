"""The errors the Ratio Regis rules share: an order refused by the state of play.

Every rules module raises `IllegalOrder` the same way, so it sits below them all (the
order grammar's own `orders.OrderSyntaxError` stays with the grammar)."""


class IllegalOrder(ValueError):
    """An order the rules forbid in the current state; the message says why."""
