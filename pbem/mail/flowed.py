"""Decoding of `format=flowed` text (RFC 3676).

Phone and webmail clients send long lines as flowed text: a line ending in a space continues on
the next one. Without unflowing, one order can arrive split over two lines and read as two.
"""

from __future__ import annotations


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
