"""CSS into `style` attributes, since most mail clients drop `<style>` blocks (css-inline
does the work). A page is inlined whole; pbem's own HTML templates once, when loaded, with
their Jinja held out of the inliner's way; a table of pbem's own is inlined on its own as a
fragment, once per content.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

import css_inline
from jinja2 import BaseLoader, Environment, TemplateSyntaxError

from pbem.reports import text

_inliner = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)
_STYLE_RE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_JINJA_RE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_HOLD = "<!--pbem-jinja-{}-->"
_HOLD_RE = re.compile(r"(?:<|&lt;)!--pbem-jinja-(\d+)--(?:>|&gt;)")  # escaped where it stood in <title>
_IN_TAG_RE = re.compile(r"<[a-zA-Z][^<>]*<!--pbem-jinja-\d+-->")


def stylesheet(html: str) -> str:
    """The CSS of a page's `<style>` blocks."""
    return "\n".join(_STYLE_RE.findall(html))


def inline_page(html: str) -> str:
    return _inliner.inline(html)


@lru_cache(maxsize=512)
def inline_fragment(fragment: str, css: str) -> str:
    """Cached by content: the same table recurs from report to report."""
    return _inliner.inline_fragment(fragment, css)


class InlinedLoader(BaseLoader):
    """pbem's own HTML templates with their CSS already in `style` attributes: inlined once
    when loaded rather than at every render. The template's Jinja is held out of the
    inliner's way as comments (pbem's templates put none inside a tag)."""

    def __init__(self, loader: BaseLoader, css: str):
        self.loader, self.css = loader, css

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.loader.get_source(environment, template)
        if template.endswith(".html.j2"):
            source = inline_template(source, self.css, template)
        return source, filename, uptodate


def inline_template(source: str, css: str, name: str = "") -> str:
    """A template's HTML with `css` inlined (a whole page inlines its own `<style>`)."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(0))
        return _HOLD.format(len(held) - 1)

    html = _JINJA_RE.sub(hold, source)
    inside = _IN_TAG_RE.search(html)
    if inside:
        raise TemplateSyntaxError("pbem's own HTML templates keep Jinja out of tags (their CSS is inlined when "
                                  "loaded): " + _HOLD_RE.sub(lambda m: held[int(m[1])], inside[0]),
                                  html.count("\n", 0, inside.start()) + 1, name)
    html = _inliner.inline(html) if "<html" in html else _inliner.inline_fragment(html, css)
    return _HOLD_RE.sub(lambda m: held[int(m[1])], html)


@lru_cache(maxsize=256)
def styled_table(columns: tuple, rows: tuple[tuple, ...], title: str, css: str) -> str:
    """`text.html_table`'s markup as css-inline writes it inlined (cached by content: the
    same table recurs from report to report)."""
    return _inliner.inline_fragment(text.html_table(columns, rows, title), css)
