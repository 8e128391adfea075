"""Deadlines as facts (issue 6; DESIGN §3): when a step's answers are due, computed once
when the step opens and recorded as a fact, so replays never read the clock.

A campaign's `deadlines` setting says, per kind of step (the kind of the decision the
step waits for: `impulse`, `bid` …) or for all: how many hours a step lasts, the grace
after it, the earliest processing, the local time of day and the weekdays a deadline
may fall on, the GM's time zone, when reminders go out and what happens to a player
who misses it. Arithmetic is done on the GM's wall clock, so "72 hours, at 20:00" means
20:00 local time across a daylight-saving change, and the result is one UTC instant.
"""

from __future__ import annotations

from datetime import datetime, time, timedelta, timezone
from typing import Literal
from zoneinfo import ZoneInfo

from pydantic import BaseModel, ConfigDict, Field, field_validator

from pbem.core.contact import time_zone

WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MissedPolicy = Literal["defaults", "wait", "excuse", "drop-after"]


class DeadlineRules(BaseModel):
    """How long a step waits, and what a miss costs."""

    model_config = ConfigDict(extra="forbid")

    hours: int = Field(72, ge=1)
    grace_hours: int = Field(0, ge=0)
    earliest_hours: int = Field(0, ge=0)
    """A step whose answers are all in still waits this long after it opened (players may
    revise), unless every player who owed something has said READY."""
    at: str | None = None
    """Local time of day ("20:00") the deadline moves forward to."""
    weekdays: list[str] = list(WEEKDAYS)
    timezone: str = "UTC"
    reminders: list[int] = [24]
    """Hours before the deadline at which players who still owe something are reminded."""
    missed: MissedPolicy = "defaults"
    excuses: int = Field(2, ge=0)
    """With `excuse`: misses per player excused by extending the deadline."""
    drop_after: int = Field(3, ge=1)
    """With `drop-after`: misses after which a player's powers are run by their defaults."""

    @field_validator("weekdays")
    @classmethod
    def _known_days(cls, days: list[str]) -> list[str]:
        days = [d.lower()[:3] for d in days]
        unknown = [d for d in days if d not in WEEKDAYS]
        if unknown or not days:
            raise ValueError(f"weekdays are {', '.join(WEEKDAYS)}; got {', '.join(unknown) or 'none'}")
        return days

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, name: str) -> str:
        return time_zone(name)

    @field_validator("at")
    @classmethod
    def _clock_time(cls, value: str | None) -> str | None:
        if value is not None:
            time.fromisoformat(value)
        return value


class DeadlineSettings(DeadlineRules):
    """The campaign's rules, with overrides per kind of step."""

    per_kind: dict[str, dict] = {}

    def for_kind(self, kind: str | None) -> DeadlineRules:
        base = self.model_dump(exclude={"per_kind"})
        base.update(self.per_kind.get(kind or "", {}))
        return DeadlineRules.model_validate(base)


def read_settings(settings: dict) -> DeadlineSettings:
    """The deadline settings of a campaign (`deadline_hours` alone is the short form)."""
    raw = dict(settings.get("deadlines", {}))
    if "deadline_hours" in settings and "hours" not in raw:
        raw["hours"] = settings["deadline_hours"]
    return DeadlineSettings.model_validate(raw)


def _to_utc(local: datetime) -> datetime:
    """A wall-clock time to UTC by the standard library's rule (PEP 495, fold=0): a time
    skipped by a DST change is read with the offset before it, so it lands as far past the
    change as it was past the gap's start (however long the gap); a repeated time takes its
    first occurrence."""
    return local.replace(fold=0).astimezone(timezone.utc)


def deadline_for(opened: datetime, rules: DeadlineRules, *, hours: int | None = None) -> datetime:
    """The UTC instant a step opened at `opened` is due."""
    zone = ZoneInfo(rules.timezone)
    local = opened.astimezone(zone).replace(tzinfo=None) + timedelta(hours=rules.hours if hours is None else hours)
    if rules.at is not None:
        wanted = time.fromisoformat(rules.at)
        moved = local.replace(hour=wanted.hour, minute=wanted.minute, second=0, microsecond=0)
        local = moved if moved >= local else moved + timedelta(days=1)
    for _ in range(7):
        if WEEKDAYS[local.weekday()] in rules.weekdays:
            break
        local += timedelta(days=1)
    return _to_utc(local.replace(tzinfo=zone)).replace(microsecond=0)


def later_of(deadline: datetime, absences: list[tuple[datetime, datetime]], rules: DeadlineRules) -> datetime:
    """A deadline pushed past a player's absence: due again `hours` after they are back,
    if the absence covers the deadline."""
    for start, end in sorted(absences):
        if start <= deadline <= end:
            deadline = deadline_for(end, rules)
    return deadline
