#!/usr/bin/env python3
"""Check a pbem campaign's dice from its public log alone: python3 verify_dice.py LOG.json

One file, Python's standard library only, so a player can read all of it and run it
without pbem or the GM's store. The log is what `pbem export CAMPAIGN --public` writes.
At the start of the campaign the GM published a commitment, the sha256 of a secret; once
the secret is revealed this script checks that it is the committed one and recomputes
every roll from it:

    draw(key, sides) = 1 + the first n >= 0 whose HMAC-SHA256(secret, f"{key}|{n}"),
    read as a big-endian integer from its first 8 bytes, is below 2**64 - 2**64 % sides,
    taken modulo sides

(rejection sampling, so no face is favoured). A roll the GM forced (a face-to-face
session imported) is listed but not recomputed. Exit status 0: all rolls match; 1: a roll
or the commitment does not; 2: the log cannot be read or the secret is not revealed yet.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import sys

FORMAT = "pbem-public-log/1"
_SPAN = 1 << 64


def draw(secret: bytes, key: str, sides: int) -> int:
    """The face a keyed stream gives (1..sides)."""
    limit = _SPAN - _SPAN % sides
    attempt = 0
    while True:
        digest = hmac.new(secret, f"{key}|{attempt}".encode(), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % sides + 1
        attempt += 1


def check(log: dict) -> tuple[bool, list[str]]:
    """Whether every roll of `log` follows from its revealed secret, and what was found
    (the first line names the roll or the commitment that fails)."""
    if log.get("format") != FORMAT:
        raise ValueError(f"not a pbem public log (format {log.get('format')!r}, expected {FORMAT!r})")
    secret_hex = log.get("secret")
    if not secret_hex:
        raise LookupError("the dice secret is not revealed yet: nothing can be recomputed before "
                          f"`pbem gm reveal` (the commitment is {log['commitment']})")
    secret = bytes.fromhex(secret_hex)
    if hashlib.sha256(secret).hexdigest() != log["commitment"]:
        return False, [f"the secret's sha256 is {hashlib.sha256(secret).hexdigest()}, "
                       f"not the commitment {log['commitment']}"]
    checked = forced = 0
    for step in log["steps"]:
        for roll in step["rolls"]:
            if roll["forced"]:
                forced += 1
                continue
            if roll["value"] is None:
                return False, [f"roll {roll['key']} in step {step['step']} has no value to check"]
            expected = draw(secret, roll["key"], roll["sides"])
            if expected != roll["value"]:
                return False, [f"roll {roll['key']} in step {step['step']} ({roll['purpose']}, d{roll['sides']}) "
                               f"is logged as {roll['value']}, but the secret gives {expected}"]
            checked += 1
    return True, [f"{log['campaign']}: the secret matches the commitment {log['commitment'][:16]}…; "
                  f"{checked} rolls recomputed, all match" + (f" ({forced} forced by the GM, not recomputed)"
                                                               if forced else "")]


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python3 verify_dice.py LOG.json", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as handle:
            ok, lines = check(json.load(handle))
    except (OSError, ValueError, KeyError, TypeError, LookupError) as error:
        print(f"cannot check {argv[1]}: {error}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
