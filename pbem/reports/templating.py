"""The Jinja environment reports are rendered in.

Templates may come from a GM (a campaign's own directory), so those run in an immutable
sandbox; the templates shipped with pbem (`templates/`, `templates/<ruleset>/`) are
trusted and run without the sandbox's per-call checks, which cost more than the
rendering. Both use `StrictUndefined` (a misspelt field is an error at test time, not a
blank in a player's mail) and autoescape for HTML and SVG. Lookup order: the override
directory, then the ruleset's directory, then the shipped `templates/`.

HTML gets its CSS in `style` attributes (`inlining`). pbem's own HTML templates are inlined
once, when loaded (their stylesheet is `_base.html.j2`'s), and write their tables styled; a
GM's, whose Jinja may sit anywhere, are inlined at every render, with what the render adds
set aside meanwhile: tables and `{% once %}` blocks, inlined on their own once per content,
since they are most of a report and recur from report to report. `Verbatim` fragments such
as the map's SVG style themselves and go in untouched.

`{% once value %}…{% endonce %}` renders its block once per distinct `value` (compared as
JSON, in the order the report model writes it) and reuses it: a step's chronicle is told
to every player who may read it, at whatever report each gets. The block must depend on
`value` alone.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

from jinja2 import (BaseLoader, ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError, nodes,
                    pass_environment)
from jinja2.ext import Extension
from jinja2.parser import Parser
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup
from pydantic import BaseModel
from pydantic_core import to_json

from pbem import resources
from pbem.reports import inlining, text

TEMPLATES = resources.templates_dir()

_set_aside: ContextVar[list[tuple[str, bool]] | None] = ContextVar("pbem_set_aside", default=None)
_PLACE = "<!--pbem-set-aside-{}-->"
_PLACE_RE = re.compile(r"<!--pbem-set-aside-(\d+)-->")
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
        self._blocks: dict[tuple[int, bytes], str] = {}
        self._compiled = itertools.count()

    def parse(self, parser: Parser) -> nodes.Node:
        lineno = next(parser.stream).lineno
        value = parser.parse_expression()
        body = parser.parse_statements(("name:endonce",), drop_needle=True)
        # Each block of each compilation has its own number: a template a GM edits while
        # the daemon runs is compiled again, and none of its old blocks are reused.
        call = self.call_method("_render_once", [nodes.Const(next(self._compiled)), value])
        return nodes.CallBlock(call, [], [], body).set_lineno(lineno)

    def _render_once(self, block_id: int, value: Any, caller: Callable[[], str]) -> Markup:
        key = (block_id, to_json(value, fallback=str))
        block = self._blocks.get(key)
        if block is None:
            block = caller()
            if _PLACE_RE.search(block):  # it holds fragments set aside for this page alone
                return Markup(block)
            if len(self._blocks) >= ONCE_BLOCKS:
                del self._blocks[next(iter(self._blocks))]
            self._blocks[key] = block
        return _put_aside(block, inline=True)  # only a GM's page sets it aside, to be inlined alone


class _Trusted(_FieldsFirst, Environment):
    pass


class _Sandboxed(_FieldsFirst, ImmutableSandboxedEnvironment):
    pass


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
    css = None if override else inlining.stylesheet(loader.get_source(Environment(), "_base.html.j2")[0])
    env = kind(
        loader=loader if css is None else inlining.InlinedLoader(loader, css),
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
    inline_now = name.endswith(".html.j2") and env.pbem_css is None  # a GM's HTML: inlined at every render
    aside: list[tuple[str, bool]] = []
    token = _set_aside.set(aside if inline_now else None)
    try:
        extra = {key: _put_aside(value, inline=False) if isinstance(value, Verbatim) else value
                 for key, value in extra.items()}
        out = env.get_template(name).render(r=data, **extra)
    except TemplateError as error:
        raise TemplateProblem(f"template {name}: {error}") from None
    finally:
        _set_aside.reset(token)
    if not inline_now:
        return out
    css = inlining.stylesheet(out)
    return _PLACE_RE.sub(lambda m: _put_back(*aside[int(m[1])], css), inlining.inline_page(out))


@pass_environment
def _html_table(env: Environment, columns: list, rows: list, title: str = "") -> Markup:
    """The `html_table` filter. In pbem's own templates, the table is written with its
    styles; in a GM's, it is set aside while its page is inlined."""
    if env.pbem_css is not None:
        return Markup(inlining.styled_table(*text.table_key(columns, rows), str(title), env.pbem_css))
    return _put_aside(text.html_table(columns, rows, title), inline=True)


def _put_aside(fragment: str, *, inline: bool) -> Markup:
    """A placeholder for `fragment` in the page being rendered (the fragment itself outside
    an HTML render)."""
    aside = _set_aside.get()
    if aside is None:
        return Markup(fragment)
    aside.append((fragment, inline))
    return Markup(_PLACE.format(len(aside) - 1))


def _put_back(fragment: str, inline: bool, css: str) -> str:
    return inlining.inline_fragment(fragment, css) if inline else fragment
