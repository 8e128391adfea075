"""Orders in a JSON attachment (DESIGN §6), for clients that generate them.

The attachment is checked against one pydantic model, `OrderAttachment`: a mail whose
attachment has another shape is answered with where and why (`press.0.to: Input should be a
valid string`), never jammed. Client authors get the same model as a JSON Schema,
`docs/orders.schema.json`, written by `python -m pbem.core.jsonorders` and checked current
by the tests.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag, TypeAdapter, ValidationError

from pbem.core.messages import Envelope
from pbem.core.orders import press_closes, with_json_orders


class JsonOrdersError(ValueError):
    """A JSON attachment that does not have the shape of an order set."""


def _one_word(value: str) -> str:
    if len(value.split()) != 1:
        raise ValueError("write one word: a power, a player or ALL")
    return value


def _letter(value: str) -> str:
    if any(press_closes(line) for line in value.splitlines()):
        raise ValueError("a line ENDPRESS would end the letter early; leave it out")
    return value


def _signon(value: str) -> str:
    if len(value.split()) != 3:
        raise ValueError("write three words: <player> <campaign> <token>")
    return value


class SignonFields(BaseModel):
    """The SIGNON as fields."""

    model_config = ConfigDict(extra="forbid", strict=True)

    player: Annotated[str, AfterValidator(_one_word)]
    campaign: Annotated[str, AfterValidator(_one_word)]
    token: Annotated[str, AfterValidator(_one_word)]


class PressItem(BaseModel):
    """One press message: `PRESS TO <to>`, its text, `ENDPRESS`."""

    model_config = ConfigDict(extra="forbid", strict=True)

    to: Annotated[str, AfterValidator(_one_word)] = Field("ALL", description="a power, a player or ALL")
    text: Annotated[str, AfterValidator(_letter)]


class OrderAttachment(BaseModel):
    """An order set as JSON. Every string is what the same line in a mail would say."""

    model_config = ConfigDict(extra="forbid", strict=True, title="pbem order attachment")

    signon: Annotated[Annotated[Annotated[str, AfterValidator(_signon)], Tag("line")]
                      | Annotated[SignonFields, Tag("fields")],
                      Discriminator(lambda value: "fields" if isinstance(value, dict) else "line")] | None = Field(
        None, description="\"<player> <campaign> <token>\"; without it, the mail's text gives the SIGNON")
    orders: list[str] = Field([], description="order lines, one a string, as in a mail")
    policies: list[str] = Field([], description="POLICY lines")
    press: list[PressItem] = []

    def as_text(self) -> str:
        """The envelope text the same orders would have in a mail."""
        lines: list[str] = []
        if isinstance(self.signon, SignonFields):
            lines.append(f"SIGNON {self.signon.player} {self.signon.campaign} {self.signon.token}")
        elif self.signon is not None:
            lines.append(f"SIGNON {self.signon}")
        lines += [line.replace("\n", " ") for line in [*self.orders, *self.policies]]
        for press in self.press:
            lines += [f"PRESS TO {press.to}", press.text, "ENDPRESS"]
        return "\n".join(lines)


#: What an attachment may be: a list of order lines, or the object.
ATTACHMENT = TypeAdapter(list[str] | OrderAttachment)


def orders_from_json(data: object) -> str:
    """A decoded JSON attachment as envelope text; `JsonOrdersError` says where and why
    it does not have the shape of an order set."""
    if isinstance(data, list):
        data = {"orders": data}  # so an error is located as in the object: orders.2
    if not isinstance(data, dict):
        raise JsonOrdersError("the JSON attachment must be a list of order lines or an object with \"orders\"")
    try:
        attachment = OrderAttachment.model_validate(data)
    except ValidationError as error:
        problems = [f"{_where(data, e['loc'])}: {e['msg']}" for e in error.errors()]
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise JsonOrdersError("the JSON attachment is not an order set: " + "; ".join(problems[:3]) + more
                              + " (its schema: docs/orders.schema.json)") from None
    return attachment.as_text()


def _where(data: Any, loc: tuple[int | str, ...]) -> str:
    """An error's place in the attachment (`press.0.to`), without the names pydantic gives
    the members of a union, which are no place a client author could look for."""
    parts: list[str] = []
    node = data
    for number, part in enumerate(loc):
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif not (number == len(loc) - 1 and isinstance(node, dict)):  # else: a key that is missing
            continue
        parts.append(str(part))
    return ".".join(parts) or "the attachment"


def mail_order_text(envelope: Envelope) -> tuple[str, str]:
    """The order text of a received mail — its JSON attachment's orders with the mail's SIGNON,
    else its text — and why an attachment could not be used ("" when it could)."""
    if envelope.json_orders is None:
        return envelope.text, envelope.json_problem
    try:
        return with_json_orders(orders_from_json(envelope.json_orders), envelope.text), ""
    except JsonOrdersError as error:
        return envelope.text, str(error)


def schema_json() -> str:
    """The published JSON Schema of the attachment (`docs/orders.schema.json`)."""
    schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **ATTACHMENT.json_schema()}
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    print(schema_json(), end="")
