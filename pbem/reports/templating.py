"""The Jinja environment reports are rendered in.

Templates may come from a GM (a campaign's own directory), so those run in an immutable
sandbox; the templates shipped with pbem (`templates/`, `templates/<ruleset>/`) are
trusted and run without the sandbox's per-call checks, which cost more than the
rendering. Both use `StrictUndefined` (a misspelt field is an error at test time, not a
blank in a player's mail) and autoescape for HTML and SVG. Lookup order: the override
directory, then the ruleset's directory, then the shipped `templates/`.

HTML is passed through css-inline, because most mail clients drop `<style>` blocks. Two
kinds of HTML are set aside while a page is inlined: tables, inlined on their own once per
content (they are most of a report, and recur in every player's report of a step and from
step to step, so the inliner mostly sees only what is new), and `Verbatim` fragments such
as the map's SVG, which styles itself and goes in untouched.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any

import css_inline
from jinja2 import ChoiceLoader, Environment, FileSystemLoader, StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from markupsafe import Markup
from pydantic import BaseModel

from pbem.reports import text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

_inliner = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)
_set_aside: ContextVar[list[tuple[str, bool]] | None] = ContextVar("pbem_set_aside", default=None)
_PLACE = "<!--pbem-set-aside-{}-->"
_PLACE_RE = re.compile(r"<!--pbem-set-aside-(\d+)-->")
_STYLE_RE = re.compile(r"<style[^>]*>(.*?)</style>", re.S | re.I)


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
    env = kind(
        loader=ChoiceLoader([FileSystemLoader(str(p)) for p in search]),
        auto_reload=bool(override),  # a GM's edits show at once; pbem's own templates change only with pbem
        undefined=StrictUndefined,
        autoescape=_escaped,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(wrap=text.wrap, heading=text.heading, table=text.table, html_table=_html_table,
                       pluck=text.pluck)
    env.globals["WIDTH"] = text.WIDTH
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
    page = _inliner.inline(out)
    if aside:
        css = "\n".join(_STYLE_RE.findall(out))
        page = _PLACE_RE.sub(lambda m: _put_back(*aside[int(m[1])], css), page)
    return page


def _html_table(columns: list, rows: list, title: str = "") -> Markup:
    """The `html_table` filter: the table is set aside while its page is inlined."""
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
    return _inline_fragment(fragment, css) if inline else fragment


@lru_cache(maxsize=512)
def _inline_fragment(fragment: str, css: str) -> str:
    return _inliner.inline_fragment(fragment, css)
