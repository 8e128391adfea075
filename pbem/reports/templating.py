"""The Jinja environment reports are rendered in.

Templates may come from a GM (a campaign's own directory) or a ruleset
(`templates/<ruleset>/`), so they run in an immutable sandbox, with `StrictUndefined`
(a misspelt field is an error at test time, not a blank in a player's mail) and
autoescape for HTML and SVG. Lookup order: the override directory, then the ruleset's
directory, then the shipped `templates/`. HTML is passed through css-inline, because
most mail clients drop `<style>` blocks.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import css_inline
from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined, TemplateError
from jinja2.sandbox import ImmutableSandboxedEnvironment
from pydantic import BaseModel

from pbem.reports import text

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"

_inliner = css_inline.CSSInliner(keep_style_tags=False, load_remote_stylesheets=False)


class TemplateProblem(Exception):
    """A template that is missing or fails to render; the message names it."""


def _escaped(name: str | None) -> bool:
    return bool(name) and name.endswith((".html.j2", ".svg.j2"))


@lru_cache(maxsize=32)
def environment(override: Path | None = None, ruleset: str | None = None) -> ImmutableSandboxedEnvironment:
    """One environment per (override, ruleset): Jinja caches compiled templates in it."""
    search = [override] if override else []
    if ruleset:
        search.append(TEMPLATES / ruleset)
    search.append(TEMPLATES)
    env = ImmutableSandboxedEnvironment(
        loader=ChoiceLoader([FileSystemLoader(str(p)) for p in search]),
        undefined=StrictUndefined,
        autoescape=_escaped,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(wrap=text.wrap, heading=text.heading, table=text.table, html_table=text.html_table,
                       pluck=text.pluck)
    env.globals["WIDTH"] = text.WIDTH
    return env


def render(env: ImmutableSandboxedEnvironment, name: str, model: BaseModel | dict, **extra: Any) -> str:
    """Render `name` with the model's plain data as `r` (templates never get objects
    with methods), plus pre-rendered fragments such as the map's SVG."""
    data = model.model_dump(mode="json") if isinstance(model, BaseModel) else model
    try:
        out = env.get_template(name).render(r=data, **extra)
    except TemplateError as error:
        raise TemplateProblem(f"template {name}: {error}") from None
    return _inliner.inline(out) if name.endswith(".html.j2") else out
