"""HTML to plain text, just enough for orders typed into an HTML-only mail.

Phone clients and webmail often send only HTML. Block elements become line breaks and
`<blockquote>` content becomes `> ` lines, so the quote stripper treats a quoted report in HTML
exactly like a quoted report in plain text. A table row is a line and its cells are
words apart (an order typed into a table, or pasted from the report's, reads as the line it
is). Stdlib only: no layout, no links.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

_BLOCK = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
    "ol", "p", "pre", "section", "table", "tr", "ul",
}
_CELL = {"td", "th"}
_SKIP = {"head", "script", "style", "title", "template"}
_SPACE = re.compile(r"[ \t\r\n\f\v]+")


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._line = ""
        self._line_depth = 0
        self._depth = 0
        self._skip = 0
        self._pre = 0

    def _break(self, *, blank: bool = False) -> None:
        """End the current line; a `<br>` on an empty line (`blank`) gives an empty line."""
        if self._line.strip(" \t\r\n"):  # a non-breaking space counts as content (`<p>&nbsp;</p>`)
            self.lines.append("> " * self._line_depth + self._line.replace("\xa0", " ").strip())
        elif blank and self.lines and self.lines[-1] != "":
            self.lines.append("> " * self._depth if self._depth else "")
        self._line = ""
        self._line_depth = self._depth

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self._skip += 1
        elif tag == "br":
            self._break(blank=True)
        elif tag in _CELL and self._line.strip() and not self._line.endswith(" "):
            self._line += " "
        elif tag in _BLOCK:
            self._break()
            if tag == "blockquote":
                self._depth += 1
                self._line_depth = self._depth
            elif tag == "pre":
                self._pre += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" or tag in _BLOCK:
            self._break(blank=tag == "br")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self._skip = max(0, self._skip - 1)
        elif tag in _BLOCK:
            self._break()
            if tag == "blockquote":
                self._depth = max(0, self._depth - 1)
                self._line_depth = self._depth
            elif tag == "pre":
                self._pre = max(0, self._pre - 1)

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._pre:
            head, *rest = data.split("\n")
            self._line += head
            for part in rest:
                self._break()
                self._line = part
            return
        if not self._line:
            self._line_depth = self._depth
        self._line += _SPACE.sub(" ", data)


def html_to_text(html: str) -> str:
    """Visible text of `html`, one block per line, blockquotes as `> ` lines."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    parser._break()
    return "\n".join(line.rstrip() for line in parser.lines).strip("\n")
