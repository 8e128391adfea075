"""Plain-text layout for mail bodies: paragraphs wrapped and tables aligned to fit a
72-column mail reader, whatever the client (RFC 3676 readers and old terminals alike).

These are Jinja filters, so a template decides *what* is said and this module only
how it is laid out; they never see a projection, only strings from a report model.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from functools import lru_cache

from markupsafe import Markup, escape

WIDTH = 72
GAP = "  "
MIN_COLUMN = 6


def wrap(text: str, width: int = WIDTH, indent: str = "", hanging: str | None = None) -> str:
    """Wrap every paragraph (line) of `text` to `width`, keeping blank lines.

    Words longer than the line (a hash, a URL) are kept whole: breaking them would make
    them useless to copy."""
    return _wrap(str(text), width, indent, hanging)


@lru_cache(maxsize=4096)
def _wrap(text: str, width: int, indent: str, hanging: str | None) -> str:
    """Cached: a chronicle line is wrapped once for all the players who read it."""
    rest = indent if hanging is None else hanging
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        if not paragraph.strip():
            lines.append("")
            continue
        words = paragraph.split()
        if paragraph == paragraph.strip() and len(words) == paragraph.count(" ") + 1:
            lines.extend(_fill(words, width, indent, rest))  # the common case, without textwrap's cost
            continue
        lines.extend(textwrap.wrap(paragraph, width=width, initial_indent=indent, subsequent_indent=rest,
                                   break_long_words=False, break_on_hyphens=False) or [indent])
    return "\n".join(lines)


def _fill(words: list[str], width: int, indent: str, rest: str) -> list[str]:
    """Words separated by single spaces, filled greedily as textwrap fills them (a word
    longer than the line keeps a line of its own)."""
    lines: list[str] = []
    prefix, line, size = indent, [words[0]], len(words[0])
    for word in words[1:]:
        if len(prefix) + size + 1 + len(word) > width:
            lines.append(prefix + " ".join(line))
            prefix, line, size = rest, [word], len(word)
        else:
            line.append(word)
            size += 1 + len(word)
    lines.append(prefix + " ".join(line))
    return lines


def heading(title: str, underline: str = "-") -> str:
    """A title underlined to its own length (at most the line width)."""
    title = str(title)
    return f"{title}\n{underline * min(len(title), WIDTH)}"


def table(columns: Sequence[str], rows: Sequence[Sequence[object]], width: int = WIDTH, indent: str = "") -> str:
    """Rows aligned under their headers; when the natural layout is too wide, the widest
    columns are narrowed and their cells wrap onto continuation lines. No rows: "(none)"."""
    if not rows:
        return indent + "(none)"
    return _table(*table_key(columns, rows), width, indent)


def table_key(columns: Sequence[object], rows: Sequence[Sequence[object]]) -> tuple[tuple, tuple]:
    """A table's cache key: its cells as given (no per-cell work on a hit), or as text
    when a cell is a list or a mapping."""
    key = (tuple(columns), tuple(map(tuple, rows)))
    try:
        hash(key)
    except TypeError:
        key = (tuple(map(_cell, columns)), tuple(tuple(map(_cell, r)) for r in rows))
    return key


@lru_cache(maxsize=256)
def _table(columns: tuple, rows: tuple[tuple, ...], width: int, indent: str) -> str:
    """Cached by content (the key is the rows as given, so a cache hit costs no cell
    work): every player's report repeats the public tables of a step, and most tables
    do not change from one step to the next."""
    header = [_cell(c) for c in columns]
    rows = tuple(tuple(_cell(c) for c in r) for r in rows)
    ncols = max([len(header)] + [len(r) for r in rows]) if (header or rows) else 0
    if ncols == 0:
        return ""
    header += [""] * (ncols - len(header))
    body = [list(row) + [""] * (ncols - len(row)) for row in rows]
    widths = [max(len(r[i]) for r in [header, *body]) for i in range(ncols)]
    room = width - len(indent) - len(GAP) * (ncols - 1)
    while sum(widths) > room:
        widest = max(range(ncols), key=lambda i: widths[i])
        if widths[widest] <= MIN_COLUMN:
            break
        widths[widest] -= 1
    out = [_row(header, widths, indent)]
    out.append(indent + GAP.join("-" * w for w in widths).rstrip())
    out.extend(_row(r, widths, indent) for r in body)
    return "\n".join(out)


def _cell(value: object) -> str:
    return " ".join(str(value).split())


def _row(cells: Sequence[str], widths: Sequence[int], indent: str) -> str:
    """One logical row, possibly several physical lines when cells wrap."""
    if all(len(c) <= w for c, w in zip(cells, widths, strict=True)):
        return (indent + GAP.join(c.ljust(w) for c, w in zip(cells, widths, strict=True))).rstrip()
    wrapped = [textwrap.wrap(c, width=w, break_long_words=True) or [""] for c, w in zip(cells, widths, strict=True)]
    height = max(len(w) for w in wrapped)
    lines = []
    for n in range(height):
        parts = [(w[n] if n < len(w) else "").ljust(widths[i]) for i, w in enumerate(wrapped)]
        lines.append((indent + GAP.join(parts)).rstrip())
    return "\n".join(lines)


def pluck(items: Sequence[dict], *keys: str) -> list[list[str]]:
    """Rows for `table` from a list of records: the named fields, lists joined with
    commas, None as blank (templates cannot build lists in the immutable sandbox)."""
    return [[_field(item.get(k)) for k in keys] for item in items]


def _field(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    if isinstance(value, list):
        return ", ".join(_field(v) for v in value)
    return str(value)


def html_table(columns: Sequence[str], rows: Sequence[Sequence[object]], title: str = "") -> Markup:
    """The HTML of a table under its `<h2>` title (if any), escaped; "(none)" when it has
    no rows."""
    return _html_table(*table_key(columns, rows), str(title))


@lru_cache(maxsize=256)
def _html_table(columns: tuple, rows: tuple[tuple, ...], title: str) -> Markup:
    """Cached by content, like the text tables: a step's public tables repeat in every report."""
    heading = f"<h2>{escape(title)}</h2>" if title else ""
    if not rows:
        return Markup(f'{heading}<p class="sub">(none)</p>\n')
    body = "\n".join(_html_row("td", row) for row in rows)
    return Markup(f"{heading}<table>\n{_html_row('th', columns)}\n{body}\n</table>\n")


def _html_row(tag: str, cells: Sequence[object]) -> str:
    return "<tr>" + "".join(f"<{tag}>{escape(cell)}</{tag}>" for cell in cells) + "</tr>"
