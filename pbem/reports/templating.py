"""The Jinja environment reports are rendered in.

Templates may come from a GM (a campaign's own directory), so those run in an immutable
sandbox; the templates shipped with pbem (`templates/`, `templates/<ruleset>/`) are
trusted and run without the sandbox's per-call checks, which cost more than the
rendering. Both use `StrictUndefined` (a misspelt field is an error at test time, not a
blank in a player's mail) and autoescape for HTML and SVG. Lookup order: the override
directory, then the ruleset's directory, then the shipped `templates/`.

HTML goes through css-inline, because most mail clients drop `<style>` blocks. pbem's own
HTML templates are inlined once, when loaded (their stylesheet is `_base.html.j2`'s); a
GM's, whose Jinja may sit anywhere, at every render. What a render adds is set aside while
its page is inlined: tables (and, in a GM's templates, `{% once %}` blocks), inlined on
their own once per content, since they are most of a report and recur from report to
report; and `Verbatim` fragments such as the map's SVG, which styles itself and goes in
untouched.

`{% once value %}…{% endonce %}` renders its block once per distinct `value` (compared as
JSON, in the order the report model writes it) and reuses it: a step's chronicle is told to every player who may read it, at
whatever report each gets. The block must depend on `value` alone.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

import css_inline
from jinja2 import (BaseLoader, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError, nodes,
                    pass_environment)
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup
from pydantic import BaseModel
from pydantic_core import to_json

from pbem.reports import text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

_inliner = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)
_set_aside: ContextVar[list[tuple[str, bool]] | None] = ContextVar("pbem_set_aside", default=None)
_PLACE = "<!--pbem-set-aside-{}-->"
_PLACE_RE = re.compile(r"<!--pbem-set-aside-(\d+)-->")
_STYLE_RE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)
_JINJA_RE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}", re.S)
_HOLD = "<!--pbem-jinja-{}-->"
_HOLD_RE = re.compile(r"(?:<|&lt;)!--pbem-jinja-(\d+)--(?:>|&gt;)")  # escaped where it stood in <title>
ONCE_BLOCKS = 2048  # rendered blocks kept per environment: a few turns of chronicle


class TemplateProblem(Exception):
    """A template that is missing or fails to render; the message names it."""


class Verbatim(str):
    """HTML given to a template that goes into the page after its CSS is inlined, as it is."""


class _FieldsFirst:
    """Report data are plain dicts, so `r.turn_label` looks the key up first; Jinja's own
    order (attribute, then key) raises and catches an AttributeError at every field."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute in obj:
            return obj[attribute]
        return super().getattr(obj, attribute)


class _Once(Extension):
    """The `{% once value %}…{% endonce %}` tag (see the module's docstring)."""

    tags = {"once"}

    def __init__(self, environment: Environment):
        super().__init__(environment)
        self._blocks: dict[tuple[str | None, int, str], str] = {}

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        value = parser.parse_expression()
        body = parser.parse_statements(("name:endonce",), drop_needle=True)
        call = self.call_method("_render_once", [nodes.Const(parser.name), nodes.Const(lineno), value])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_once(self, template: str | None, line: int, value: Any, caller: Callable[[], str]) -> Markup:
        key = (template, line, to_json(value, fallback=str))
        block = self._blocks.get(key)
        if block is None:
            block = caller()
            if _PLACE_RE.search(block):  # it holds fragments set aside for this page alone
                return Markup(block)
            if len(self._blocks) >= ONCE_BLOCKS:
                del self._blocks[next(iter(self._blocks))]
            self._blocks[key] = block
        return Markup(block) if self.environment.pbem_css is not None else _put_aside(block, inline=True)


class _Trusted(_FieldsFirst, Environment):
    pass


class _Sandboxed(_FieldsFirst, ImmutableSandboxedEnvironment):
    pass


class _InlinedLoader(BaseLoader):
    """pbem's own HTML templates with their CSS already in `style` attributes: inlined once
    when loaded rather than at every render. The template's Jinja is held out of the
    inliner's way as comments (pbem's templates put none inside a tag)."""

    def __init__(self, loader: BaseLoader, css: str):
        self.loader, self.css = loader, css

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        source, filename, uptodate = self.loader.get_source(environment, template)
        if template.endswith(".html.j2"):
            source = _inline_template(source, self.css)
        return source, filename, uptodate


def _inline_template(source: str, css: str) -> str:
    """A template's HTML with `css` inlined (a whole page inlines its own `<style>`)."""
    held: list[str] = []

    def hold(match: re.Match[str]) -> str:
        held.append(match.group(0))
        return _HOLD.format(len(held) - 1)

    html = _JINJA_RE.sub(hold, source)
    html = _inliner.inline(html) if "<html" in html else _inliner.inline_fragment(html, css)
    return _HOLD_RE.sub(lambda m: held[int(m[1])], html)


def _escaped(name: str | None) -> bool:
    return bool(name) and name.endswith((".html.j2", ".svg.j2"))


@lru_cache(maxsize=32)
def environment(override: Path | None = None, ruleset: str | None = None) -> Environment:
    """One environment per (override, ruleset): Jinja caches compiled templates in it.
    Sandboxed whenever a GM's directory is searched first."""
    search = [override] if override else []
    if ruleset:
        search.append(TEMPLATES / ruleset)
    search.append(TEMPLATES)
    kind = _Sandboxed if override else _Trusted
    loader: BaseLoader = ChoiceLoader([FileSystemLoader(str(p)) for p in search])
    css = None if override else "\n".join(_STYLE_RE.findall(loader.get_source(Environment(), "_base.html.j2")[0]))
    env = kind(
        loader=loader if css is None else _InlinedLoader(loader, css),
        auto_reload=bool(override),  # a GM's edits show at once; pbem's own templates change only with pbem
        undefined=StrictUndefined,
        autoescape=_escaped,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=[_Once],
    )
    env.filters.update(wrap=text.wrap, heading=text.heading, table=text.table, html_table=_html_table,
                       pluck=text.pluck)
    env.globals["WIDTH"] = text.WIDTH
    env.extend(pbem_css=css)  # set: the HTML templates are inlined already, with this stylesheet
    return env


def render(env: Environment, name: str, model: BaseModel | dict, **extra: Any) -> str:
    """Render `name` with the model's plain data as `r` (templates never get objects
    with methods), plus pre-rendered fragments such as the map's SVG."""
    data = model.model_dump(mode="json") if isinstance(model, BaseModel) else model
    html = name.endswith(".html.j2")
    aside: list[tuple[str, bool]] = []
    token = _set_aside.set(aside if html else None)
    try:
        extra = {key: _put_aside(value, inline=False) if isinstance(value, Verbatim) else value
                 for key, value in extra.items()}
        out = env.get_template(name).render(r=data, **extra)
    except TemplateError as error:
        raise TemplateProblem(f"template {name}: {error}") from None
    finally:
        _set_aside.reset(token)
    if not html:
        return out
    css = env.pbem_css
    if css is None:
        css = "\n".join(_STYLE_RE.findall(out))
        out = _inliner.inline(out)
    if aside:
        out = _PLACE_RE.sub(lambda m: _put_back(*aside[int(m[1])], css), out)
    return out


@pass_environment
def _html_table(env: Environment, columns: list, rows: list, title: str = "") -> Markup:
    """The `html_table` filter. In pbem's own templates, the table is written with its
    styles; in a GM's, it is set aside while its page is inlined."""
    if env.pbem_css is not None:
        return Markup(_styled_table(*text.table_key(columns, rows), str(title), env.pbem_css))
    return _put_aside(text.html_table(columns, rows, title), inline=True)


@dataclass(frozen=True)
class _TableTags:
    """The opening tags css-inline writes for a table's parts under one stylesheet."""

    heading: str
    table: str
    body: str
    row: str
    header: str
    cell: str
    none: str


@lru_cache(maxsize=8)
def _table_tags(css: str) -> _TableTags:
    """Learnt once per stylesheet by inlining a sample table: pbem's stylesheet styles a
    table's parts by element alone, so every table of a page is styled alike."""
    sample = _inliner.inline_fragment(text.html_table(["h"], [["c"]], "t") + text.html_table([], [], ""), css)

    def tag(name: str) -> str:
        return re.search(rf"<{name}(?:\s[^>]*)?>", sample)[0]

    return _TableTags(heading=tag("h2"), table=tag("table"), body=tag("tbody"), row=tag("tr"), header=tag("th"),
                      cell=tag("td"), none=tag("p"))


_TEXT_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\xa0": "&nbsp;", "\0": None})


def _as_text(value: object) -> str:
    """A cell as an HTML parser reads it (line ends made LF, NULs dropped) and a serialiser
    writes it back."""
    return str(value).replace("\r\n", "\n").replace("\r", "\n").translate(_TEXT_ESCAPES)


@lru_cache(maxsize=256)
def _styled_table(columns: tuple, rows: tuple[tuple, ...], title: str, css: str) -> str:
    """A table as css-inline would write `text.html_table`'s markup inlined, without
    parsing it (cells escaped as an HTML serialiser writes text)."""
    tags = _table_tags(css)

    def cells(tag: str, close: str, values: tuple) -> str:
        return "".join(f"{tag}{_as_text(v)}{close}" for v in values)

    heading = f"{tags.heading}{_as_text(title)}</h2>" if title else ""
    if not rows:
        return f"{heading}{tags.none}(none)</p>\n"
    body = "\n".join(f"{tags.row}{cells(tags.cell, '</td>', row)}</tr>" for row in rows)
    return (f"{heading}{tags.table}\n{tags.body}{tags.row}{cells(tags.header, '</th>', columns)}</tr>\n"
            f"{body}\n</tbody></table>\n")


def _put_aside(fragment: str, *, inline: bool) -> Markup:
    """A placeholder for `fragment` in the page being rendered (the fragment itself outside
    an HTML render)."""
    aside = _set_aside.get()
    if aside is None:
        return Markup(fragment)
    aside.append((fragment, inline))
    return Markup(_PLACE.format(len(aside) - 1))


def _put_back(fragment: str, inline: bool, css: str) -> str:
    return _inline_fragment(fragment, css) if inline else fragment


@lru_cache(maxsize=512)
def _inline_fragment(fragment: str, css: str) -> str:
    return _inliner.inline_fragment(fragment, css)
