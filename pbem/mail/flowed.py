"""Decoding of `format=flowed` text (RFC 3676), and undoing webmail's hard wrap.

Phone and webmail clients send long lines as flowed text: a line ending in a space continues on
the next one. Without unflowing, one order can arrive split over two lines and read as two.
Other webmail breaks plain text hard at 76–78 columns with nothing to mark it (`unwrap`).
"""

from __future__ import annotations

import re

from pbem.core.orders import ENVELOPE_KEYWORDS

WRAP_WIDTH = 78
_MIN_WRAPPED = 60  # a line shorter than this was ended by its writer, not by a wrap
_KEYWORD = re.compile(r"^\s*(" + "|".join(ENVELOPE_KEYWORDS) + r")\b", re.IGNORECASE)


def _split_quote(line: str) -> tuple[int, str]:
    depth = len(line) - len(line.lstrip(">"))
    body = line[depth:]
    if body.startswith(" "):  # space-stuffing (or the space after the quote marks)
        body = body[1:]
    return depth, body


def unflow(text: str, *, delsp: bool = False) -> str:
    """Join soft-broken lines; quoted lines keep their depth as a `> ` prefix."""
    out: list[str] = []
    current: str | None = None
    current_depth = 0
    for line in text.split("\n"):
        line = line.rstrip("\r")
        depth, body = _split_quote(line)
        flowed = body.endswith(" ") and body != "-- "
        if flowed and delsp:
            body = body[:-1]
        if current is not None and depth == current_depth:
            current += body
        else:
            if current is not None:
                out.append(_render(current_depth, current))
            current, current_depth = body, depth
        if not flowed:
            out.append(_render(current_depth, current))
            current = None
    if current is not None:
        out.append(_render(current_depth, current))
    return "\n".join(out)


def _render(depth: int, body: str) -> str:
    return ("> " * depth + body) if depth else body


def _first_word(line: str) -> str:
    words = line.split(maxsplit=1)
    return words[0] if words else ""


def _wrapped_before(line: str, following: str) -> bool:
    """True when `line` looks ended by a hard wrap: long, and the next line's first word
    would not have fitted on it within the wrap width."""
    if not line.strip() or not following.strip() or line.lstrip().startswith(">") or following.lstrip().startswith(">"):
        return False
    return _MIN_WRAPPED <= len(line) <= WRAP_WIDTH and len(line) + 1 + len(_first_word(following)) > WRAP_WIDTH - 2


def is_hard_wrapped(text: str) -> bool:
    """True when some line of `text` was broken by a hard wrap (see `_wrapped_before`)."""
    lines = text.replace("\r\n", "\n").split("\n")
    return any(_wrapped_before(a.rstrip(), b) for a, b in zip(lines, lines[1:]))


def unwrap(text: str) -> str:
    """Join the lines a hard wrap broke, except where the next line starts an envelope
    keyword or the same first word (the next of several orders, not a continuation), and
    never onto a comment: a long comment followed by an order would swallow the order
    silently, while a comment's wrapped tail left alone is refused where the player sees it."""
    out: list[str] = []
    previous = ""  # the last line as it was sent (a joined line is longer than any wrap)
    for line in text.replace("\r\n", "\n").split("\n"):
        line = line.rstrip("\r")
        if out and _wrapped_before(previous.rstrip(), line) and not _KEYWORD.match(line) \
                and not out[-1].lstrip().startswith("#") \
                and _first_word(line).upper() != _first_word(out[-1]).upper():
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line)
        previous = line
    return "\n".join(out)
