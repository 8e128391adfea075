"""A campaign's settings: the `[settings]` of its players file (or of an example's
campaign.toml), checked when the campaign is created, so a misspelt name or value is a
clear refusal then rather than a surprise months into the campaign."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from pbem.core.deadlines import DeadlineSettings, read_settings

REPORT_MODES = ("when-owed", "every-step")
PRESS_MODES = ("none", "open", "anonymous")


class CampaignSettings(BaseModel):
    """Every setting a campaign knows (`docs/gm-guide.md`); the deadline rules are checked
    by `deadlines.read_settings`. A campaign's projection holds them parsed once."""

    model_config = ConfigDict(extra="forbid")

    press: Literal[PRESS_MODES] = "open"
    reports: Literal[REPORT_MODES] = "when-owed"
    allow_other_addresses: bool = False
    deadline_hours: int | None = Field(None, ge=1)
    deadlines: dict[str, Any] = {}

    @cached_property
    def deadline_rules(self) -> DeadlineSettings:
        return read_settings(self.model_dump(exclude_none=True))


def check_settings(settings: dict[str, Any]) -> list[str]:
    """What is wrong with a campaign's settings, each as `name: problem`."""
    problems = _problems(CampaignSettings.model_validate, settings, "")
    if problems:
        return problems
    problems = _problems(read_settings, settings, "deadlines.")
    if problems:
        return problems
    rules = read_settings(settings)
    for kind in rules.per_kind:
        problems += _problems(rules.for_kind, kind, f"deadlines.per_kind.{kind}.")
    return problems


def _problems(check: Callable[[Any], object], argument: Any, prefix: str) -> list[str]:
    try:
        check(argument)
    except ValidationError as error:
        return [f"{prefix}{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()]
    return []
