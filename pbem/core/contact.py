"""How a player is reached: a mail address and a time zone, both checked when the GM
gives them (a players file, `gm replace`, `gm observer`), so a campaign never holds a
player it cannot mail or a clock it cannot read."""

from __future__ import annotations

from email.errors import HeaderParseError
from email.headerregistry import Address
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError


def mail_address(value: str) -> str:
    """`value` if it is one bare mail address (RFC 5322 addr-spec, as the standard
    library's mail parser reads it), lower-cased; ValueError naming it otherwise."""
    try:
        address = Address(addr_spec=value.strip())
    except (ValueError, IndexError, HeaderParseError):
        address = None
    if address is None or not address.username or not address.domain:
        raise ValueError(f"{value!r} is not a mail address (write it bare, e.g. anne@example.org)")
    return address.addr_spec.lower()


def time_zone(name: str) -> str:
    """`name` if it is a time zone of the IANA database; ValueError naming it otherwise."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"unknown time zone {name!r} (e.g. Europe/Paris, America/Chicago, UTC)") from None
    return name
