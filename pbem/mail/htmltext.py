"""HTML to plain text, just enough for orders typed into an HTML-only mail.

Phone clients and webmail often send only HTML. Block elements become line breaks and
`<blockquote>` content becomes `> ` lines, so the quote stripper treats a quoted report in HTML
exactly like a quoted report in plain text. A table row is a line and its cells are
words apart (an order typed into a table, or pasted from the report's, reads as the line it
is). A signature the client marks (Thunderbird's `moz-signature`, Gmail's `gmail_signature`,
Outlook's `id="Signature"`) is not the text: it is kept apart, so that the same signature at
the end of the plain alternative, where such clients write no `-- `, is not read as orders
either. Stdlib only: no layout, no links.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from html.parser import HTMLParser

_BLOCK = {
    "address", "article", "aside", "blockquote", "dd", "div", "dl", "dt", "fieldset", "figure",
    "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "li", "main", "nav",
    "ol", "p", "pre", "section", "table", "tr", "ul",
}
_CELL = {"td", "th"}
_SKIP = {"head", "script", "style", "title", "template"}
_SPACE = re.compile(r"[ \t\r\n\f\v]+")
_SIGNATURE_CLASSES = {"moz-signature", "gmail_signature"}
_SIGNATURE_IDS = {"signature", "divtagdefaultwrapper-signature"}


def _is_signature(attrs: list[tuple[str, str | None]]) -> bool:
    values = dict(attrs)
    return bool(_SIGNATURE_CLASSES & set((values.get("class") or "").split())
                or (values.get("id") or "").lower() in _SIGNATURE_IDS)


class _TextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.signature: list[str] = []
        self._text = self.lines  # where lines go: the text, or the signature while inside it
        self._signature_tag = ""
        self._signature_depth = 0
        self._line = ""
        self._line_depth = 0
        self._depth = 0
        self._skip = 0
        self._pre = 0

    def _break(self, *, blank: bool = False) -> None:
        """End the current line; a `<br>` on an empty line (`blank`) gives an empty line."""
        if self._line.strip(" \t\r\n"):  # a non-breaking space counts as content (`<p>&nbsp;</p>`)
            self._text.append("> " * self._line_depth + self._line.replace("\xa0", " ").strip())
        elif blank and self._text and self._text[-1] != "":
            self._text.append("> " * self._depth if self._depth else "")
        self._line = ""
        self._line_depth = self._depth

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._signature_tag == tag:
            self._signature_depth += 1
        elif not self._signature_tag and _is_signature(attrs):
            self._break()
            self._signature_tag, self._signature_depth, self._text = tag, 1, self.signature
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
        if tag == self._signature_tag:
            self._signature_depth -= 1
            if not self._signature_depth:
                self._break()
                self._signature_tag, self._text = "", self.lines
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


@dataclass(frozen=True)
class HtmlText:
    text: str
    signature: list[str]  # the non-blank lines of the signature the client marked


def read_html(html: str) -> HtmlText:
    """`html`'s visible text, one block per line, blockquotes as `> ` lines, without the
    signature the client marked; and that signature's lines."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    parser._break()
    return HtmlText("\n".join(line.rstrip() for line in parser.lines).strip("\n"),
                    [line.rstrip() for line in parser.signature if line.strip()])
